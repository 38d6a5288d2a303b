"""Files written the way a user expects: atomically, with the permissions the umask gives.

:func:`tempfile.mkstemp` creates a file readable by its owner only (0600); a
result renamed from it would keep that mode while the figures beside it are
0644. :func:`file_mode` is the mode ``open(path, "w")`` would give.

:class:`FolderLock` keeps a second writer out of a folder (a sweep folder: two
``aisched sweep --resume`` on one folder would compute every cell twice); it is
``filelock``'s lock, which the kernel releases when its holder ends, however it
ends, with a record of the holder (its PID) beside it for the refusal to name.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

__all__ = ["FolderBusy", "FolderLock", "HOLDER_FILE", "LOCK_FILE", "WriteFailed", "atomic_save_figure", "atomic_write",
           "atomic_write_text", "write_failure",
           "file_mode", "folder_holder", "fsize_limit", "holder_text", "lock_folder", "make_folders", "private_temp",
           "remove_stale_temps", "write_cause"]

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


def atomic_write(path: Path, write: Any) -> Path:
    """``write(tmp)`` to a temporary file beside ``path``, then a rename: never half-written.

    For the writers that take a file name (``xarray.Dataset.to_netcdf``): under ``ulimit -f`` or on
    a full disk the file it replaces stays whole and no truncated one is left. Raises
    :class:`WriteFailed` naming ``path`` and the cause (netCDF's "HDF error" included).
    """
    path = Path(path)
    try:
        tmp = private_temp(path)
        try:
            write(tmp)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except (OSError, RuntimeError) as exc:  # netCDF4 raises RuntimeError ("NetCDF: HDF error") on a full disk
        raise WriteFailed(path, write_cause(exc, path)) from exc
    return path


def write_failure(exc: OSError) -> str:
    """One line for an ``OSError`` a command met (the file it names, the cause in words), no traceback.

    A temporary file (:func:`private_temp`) is named by the file it stood for.
    """
    name = getattr(exc, "filename", None)
    if not name:
        return f"{write_cause(exc, Path.cwd())}"
    path = Path(name)
    if path.name.startswith(".") and path.name.endswith(".tmp") and path.name.count(".") >= 3:
        path = path.with_name(path.name[1:].rsplit(".", 2)[0])  # .report.md.x1y2.tmp: report.md
    return f"{str(path)!r}: {write_cause(exc, path)}"


def atomic_save_figure(fig: Any, path: str | os.PathLike[str], **kwargs: Any) -> Path:
    """``fig.savefig(path, **kwargs)`` through a temporary file beside ``path`` and a rename.

    A report killed while drawing (SIGKILL, a full disk) leaves the figure it replaces whole, never a
    0-byte or half-written one; the temporary (``.<name>.<random>.tmp``) is removed on an error and,
    after a kill, by :func:`remove_stale_temps`. The format is the suffix's (``kwargs["format"]`` where
    given, else matplotlib's default for a path without one).
    """
    path = Path(path)
    if "format" not in kwargs:
        if path.suffix:
            kwargs["format"] = path.suffix[1:]
        else:
            import matplotlib

            kwargs["format"] = matplotlib.rcParams["savefig.format"]
    tmp = private_temp(path)
    try:
        with open(tmp, "wb") as fh:
            fig.savefig(fh, **kwargs)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def remove_stale_temps(folder: Path, older_than: float = 60.0) -> None:
    """Remove the temporaries (:func:`private_temp`) directly in ``folder`` that a killed writer left.

    Only those last written more than ``older_than`` seconds ago: a writer at work beside this one
    (another report) keeps its own.
    """
    import time

    now = time.time()
    for tmp in folder.glob(".*.tmp"):
        try:
            if now - tmp.stat().st_mtime > older_than:
                tmp.unlink()
        except OSError:
            pass


# --- writes that fail: the cause in words ------------------------------------------------------------------


class WriteFailed(Exception):
    """A cell's file could not be written: ``path`` and the ``cause`` in words (:func:`_cause`)."""

    def __init__(self, path: Path, cause: str) -> None:
        self.path, self.cause = path, cause
        super().__init__(f"cannot write {str(path)!r}: {cause}")


def write_cause(exc: BaseException, path: Path) -> str:
    """Why writing ``path`` failed, in words a user acts on (netCDF's "HDF error" names no cause: found here)."""
    code = getattr(exc, "errno", None)
    text = getattr(exc, "strerror", None) or str(exc)
    if code == errno.ENOSPC:
        return f"the disk is full ({text})"
    if code == errno.EDQUOT:
        return f"the disk quota is used up ({text})"
    if code in (errno.EACCES, errno.EPERM):
        return f"permission denied ({text})"
    if code == errno.EROFS:
        return f"the file system is read-only ({text})"
    if code == errno.EFBIG:
        return f"the file is larger than the file size limit{fsize_limit()} ({text})"
    if isinstance(exc, OSError) and code is not None and code > 0:
        return text
    # the netCDF library's errors (RuntimeError, or OSError with its own negative code) name no cause: look
    limit = fsize_limit()
    if limit:
        return f"the file size limit{limit} was likely reached (netCDF: {exc})"
    folder = path if path.is_dir() else path.parent
    try:
        if shutil.disk_usage(folder).free < 16 * 2**20:
            return f"the disk is full (netCDF: {exc})"
    except OSError:
        pass
    if not os.access(folder, os.W_OK):
        return f"permission denied (netCDF: {exc})"
    return text


def fsize_limit() -> str:
    """`` (ulimit -f: N bytes)`` where this process has a file size limit, else ''."""
    try:
        import resource
    except ImportError:  # not on Unix
        return ""
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return "" if soft == resource.RLIM_INFINITY else f" (ulimit -f: {soft} bytes)"


def make_folders(root: Path, subs: tuple[str, ...], field: str = "out") -> None:
    """Create ``root/<sub>`` for each of ``subs`` (``()``: ``root`` itself) and check that files can be written
    there (before any work).

    Raises
    ------
    InvalidScenarioError
        ``field``: naming the folder and the cause.
    """
    from aisched.errors import InvalidScenarioError

    where = root
    try:
        for sub in subs or ("",):
            where = root / sub if sub else root
            where.mkdir(parents=True, exist_ok=True)
            private_temp(where / "write-check").unlink()
    except OSError as exc:
        raise InvalidScenarioError(field, f"cannot write the folder {str(where)!r}: {write_cause(exc, where)}"
                                   ) from None


# --- a folder's lock: one writer at a time ------------------------------------------------------------------

#: The lock file of a locked folder (:class:`FolderLock`) and, beside it, its holder's record (JSON: pid,
#: host, since, and what the holder adds). ``filelock`` opens the lock file with ``flock`` (Unix) or
#: ``LockFileEx`` (Windows): the kernel releases it when the process ends, on SIGKILL and on a crash alike,
#: so a lock never outlives its holder (a holder's record may: it is read only while the lock is held).
LOCK_FILE = ".aisched.lock"
HOLDER_FILE = ".aisched.lock.pid"


class FolderBusy(Exception):
    """Another process (or another :class:`FolderLock` of this one) holds the folder's lock.

    ``holder`` is its record (:data:`HOLDER_FILE`), or ``{}`` when it has not written one yet.
    """

    def __init__(self, folder: Path, holder: dict) -> None:
        self.folder, self.holder = folder, holder
        super().__init__(f"{folder} is locked by {holder_text(holder)}")


def holder_text(holder: dict) -> str:
    """``PID 123`` (``on host h`` where it is another host's), or ``another process`` when not known."""
    import socket

    pid = holder.get("pid")
    if pid is None:
        return "another process"
    host = holder.get("host")
    return f"PID {pid}" + (f" on host {host}" if host and host != socket.gethostname() else "")


def _holder(folder: Path, name: str = LOCK_FILE) -> dict:
    import json

    try:
        record = json.loads((folder / f"{name}.pid").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


class FolderLock:
    """An exclusive lock on ``folder`` (which must exist), with a record of its holder beside it.

    :meth:`acquire` gives up after ``patience`` seconds (another process's :func:`folder_holder`
    probe holds the lock a few microseconds) unless ``wait``; :meth:`release` removes the record.
    """

    def __init__(self, folder: str | os.PathLike[str], name: str = LOCK_FILE) -> None:
        from filelock import FileLock

        self.folder, self.name = Path(folder), name  # name: the lock file's (its holder's record: name + ".pid")
        self._lock = FileLock(self.folder / name, thread_local=False)

    def acquire(self, record: dict, *, wait: bool = False, patience: float = 1.0) -> None:
        """Take the lock and write ``record`` (plus pid, host and since) as its holder's.

        Raises
        ------
        FolderBusy
            Not ``wait`` and the lock is still held after ``patience`` seconds.
        OSError
            The lock file cannot be made (the folder is missing or not writable).
        """
        import json
        import socket
        from datetime import datetime, timezone

        from filelock import Timeout

        try:
            self._lock.acquire(timeout=-1 if wait else patience, poll_interval=0.05)
        except Timeout:
            raise FolderBusy(self.folder, _holder(self.folder, self.name)) from None
        try:
            atomic_write_text(self.folder / f"{self.name}.pid", json.dumps({
                "pid": os.getpid(), "host": socket.gethostname(),
                "since": datetime.now(timezone.utc).isoformat(timespec="seconds"), **record}))
        except BaseException:
            self._lock.release()
            raise

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        """Remove the holder's record and release the lock (nothing when not held)."""
        if not self._lock.is_locked:
            return
        try:
            (self.folder / f"{self.name}.pid").unlink(missing_ok=True)
        finally:
            self._lock.release()


def lock_folder(folder: Path, record: dict, *, wait: bool = False, what: str = "sweep",
                name: str = LOCK_FILE, can_wait: bool = True) -> FolderLock:
    """Hold ``folder``'s lock for a ``what`` (its holder's ``record`` beside it): ``with lock_folder(...):``.

    Raises
    ------
    InvalidScenarioError
        ``out``: the folder is held by another process, naming its PID (unless ``wait``: then
        one line on stderr says whose, and this waits), or the lock file cannot be made.
    """
    from aisched.errors import InvalidScenarioError

    lock = FolderLock(folder, name)
    try:
        try:
            lock.acquire(record)
        except FolderBusy as busy:
            who = holder_text(busy.holder)
            if not wait:
                hint = ", or add --wait (in Python: wait=True) to wait for it" if can_wait else " or use another folder"
                raise InvalidScenarioError(
                    "out", f"{str(folder)!r} is in use by another {what} ({who}); run this one when it ends{hint}"
                ) from None
            import sys

            from tqdm import tqdm

            tqdm.write(f"aisched: waiting for the {what} of {who} in {folder} to end", file=sys.stderr)
            lock.acquire(record, wait=True)
    except OSError as exc:
        raise InvalidScenarioError("out", f"cannot lock the folder {str(folder)!r}: {write_cause(exc, folder)}"
                                   ) from None
    return lock


def folder_holder(folder: str | os.PathLike[str]) -> dict | None:
    """The record of the process that holds ``folder``'s lock now (``{}`` if it wrote none yet), else None.

    Probes the lock (taken and released at once, never waiting); a folder without a lock file
    (never locked) is not held, and nothing is created in it.
    """
    from filelock import FileLock, Timeout

    folder = Path(folder)
    if not (folder / LOCK_FILE).is_file():
        return None
    probe = FileLock(folder / LOCK_FILE, thread_local=False)
    try:
        probe.acquire(timeout=0)
    except Timeout:
        return _holder(folder)
    except OSError:  # a folder we may read but not write: we cannot tell; say not held
        return None
    probe.release()
    return None
