"""Files written the way a user expects: atomically, with the permissions the umask gives.

:func:`tempfile.mkstemp` creates a file readable by its owner only (0600); a
result renamed from it would keep that mode while the figures beside it are
0644. :func:`file_mode` is the mode ``open(path, "w")`` would give.
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

__all__ = ["atomic_write_text", "file_mode", "private_temp"]

_LOCK = threading.Lock()


def file_mode() -> int:
    """``0o666`` less the process's umask: the mode of a newly created ordinary file."""
    with _LOCK:  # reading the umask means setting it; keep other threads out meanwhile
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def private_temp(path: Path, suffix: str = ".tmp") -> Path:
    """A new empty temporary file beside ``path`` (same folder, so a rename is atomic), mode :func:`file_mode`."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
    os.chmod(tmp, file_mode())
    return Path(tmp)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (never half-written)."""
    tmp = private_temp(path)
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
