"""Shared test setup: put tests/ on sys.path for the tiny-instance oracles.

``AISCHED_HIDE_SHARED_DATA=1 pytest ...`` runs the suite as a user without
``../shared/data`` would: the shared folder, ``$AISCHED_DATA`` and the user
cache are all hidden (an empty cache folder), so every test that reads a data
file must skip with a message (never fail).
"""

import os
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

#: Whether this run hides every data folder (see the module docstring).
HIDE_SHARED_DATA = os.environ.get("AISCHED_HIDE_SHARED_DATA", "") not in ("", "0")

#: ../shared/data beside the project root (real trace extracts; tests skip if absent).
SHARED_DATA = TESTS.parent.parent / "shared" / "data"
if HIDE_SHARED_DATA:  # before aisched is imported: its modules read these at import
    _EMPTY = Path(os.environ.get("AISCHED_CACHE", "")).parent if "aisched-no-data-" in os.environ.get(
        "AISCHED_CACHE", "") else Path(tempfile.mkdtemp(prefix="aisched-no-data-"))  # one folder if imported twice
    SHARED_DATA = _EMPTY / "no-shared-data"
    os.environ.pop("AISCHED_DATA", None)
    os.environ["AISCHED_CACHE"] = str(_EMPTY / "empty-cache")
    os.environ["AISCHED_SHARED_DATA"] = str(SHARED_DATA)


def pytest_report_header(config):
    return "aisched data: every data folder hidden (AISCHED_HIDE_SHARED_DATA)" if HIDE_SHARED_DATA else None


def need_data_file(name: str) -> None:
    """Skip the calling test with a message when data file ``name`` is in no data folder."""
    import pytest

    from aisched.experiments.data import data_file

    if data_file(name, required=False) is None:
        pytest.skip(f"data file {name} is absent from every data folder (see `aisched data list`)")
