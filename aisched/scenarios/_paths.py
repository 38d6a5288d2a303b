"""Where aisched finds its data files: ``$AISCHED_DATA``, the user cache, ``../shared/data``.

The data are read by path, never copied into the repository.
:func:`data_file` looks for a file in, in order:

1. ``$AISCHED_DATA`` (when set);
2. the user cache, ``$AISCHED_CACHE`` or the platform's cache folder for
   ``aisched`` (where ``aisched data fetch`` downloads);
3. ``../shared/data`` beside a source checkout.

A missing file's error names the command that fetches it, or how to get it
(:mod:`aisched.scenarios.data`).
"""

from __future__ import annotations

import os
from pathlib import Path

from aisched.errors import InvalidScenarioError

__all__ = ["DATA_DIR", "SHARED_DATA", "cache_dir", "data_file", "search_path"]

#: ``<checkout>/../shared/data``: the extracts beside a source checkout.
SHARED_DATA: Path = Path(__file__).resolve().parents[2].parent / "shared" / "data"

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
    """The folders :func:`data_file` searches, in order."""
    env = os.environ.get("AISCHED_DATA")
    return [*([Path(env)] if env else []), cache_dir(), SHARED_DATA]


def data_file(name: str, *, required: bool = True) -> Path | None:
    """The path of data file ``name`` (e.g. ``"spot_traces/availability_...json"``).

    Parameters
    ----------
    name
        The file's name relative to a data folder.
    required
        Raise when the file is nowhere (default); else return None.

    Raises
    ------
    InvalidScenarioError
        ``name`` is in none of the folders; the message lists them and says how
        to get the file (``aisched data fetch NAME``, or how derived data are made).
    """
    for folder in search_path():
        path = folder / name
        if path.is_file():
            return path
    if not required:
        return None
    from aisched.scenarios.data import dataset_of

    dataset = dataset_of(name)
    if dataset is None:
        hint = "it is not one of aisched's datasets (`aisched data list`)"
    elif dataset.downloadable:
        hint = f"fetch it with `aisched data fetch {dataset.name}`"
    else:
        hint = f"it is derived data: {dataset.how}; then put it in $AISCHED_DATA"
    searched = ", ".join(str(p) for p in search_path())
    raise InvalidScenarioError("data", f"file {name!r} not found in {searched}: {hint}")
