"""Where aisched finds its data files: ``$AISCHED_DATA``, the user cache, ``../shared/data``.

The data are read by path, never copied into the repository.
:func:`aisched.data.data_file` looks for a file in, in order:

1. ``$AISCHED_DATA`` (when set);
2. the user cache, ``$AISCHED_CACHE`` or the platform's cache folder for
   ``aisched`` (where ``aisched data fetch`` downloads);
3. ``../shared/data`` beside a source checkout.

A missing file's error names the command that fetches it, or how to get it.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_DIR", "SHARED_DATA", "cache_dir", "regular_file", "search_path"]

#: ``<checkout>/../shared/data``: the extracts beside a source checkout (``$AISCHED_SHARED_DATA``
#: replaces it: the test suite points it at a missing folder to run as a user without it).
SHARED_DATA: Path = Path(os.environ.get("AISCHED_SHARED_DATA")
                         or Path(__file__).resolve().parents[1].parent / "shared" / "data")

#: The first folder searched (``$AISCHED_DATA`` or ``../shared/data``); prefer :func:`data_file`.
DATA_DIR: Path = Path(os.environ.get("AISCHED_DATA", SHARED_DATA))


def cache_dir() -> Path:
    """The user cache of downloaded data (``$AISCHED_CACHE`` or the platform's cache for aisched)."""
    env = os.environ.get("AISCHED_CACHE")
    if env:
        return Path(env)
    import pooch

    return Path(pooch.os_cache("aisched"))


def search_path() -> list[Path]:
    """The folders :func:`aisched.data.data_file` searches, in order."""
    env = os.environ.get("AISCHED_DATA")
    return [*([Path(env)] if env else []), cache_dir(), SHARED_DATA]


def regular_file(path: Path, field: str = "trace") -> Path:
    """``path`` if it is a regular file, else :class:`InvalidScenarioError` saying what it is instead
    (a device such as ``/dev/zero`` would be read for ever, a FIFO would block).

    Nothing of a trace's contents is ever put in a message (``/proc/self/environ`` is the environment).
    """
    if path.is_file():
        return path
    if path.exists():
        what = "a folder" if path.is_dir() else "not a regular file (a device, a pipe or a socket)"
        raise _invalid(field, f"{str(path)!r} is {what}; expected a CSV file")
    raise _invalid(field, f"file {str(path)!r} does not exist")


def _invalid(field: str, message: str) -> Exception:
    from aisched.errors import InvalidScenarioError

    return InvalidScenarioError(field, message)
