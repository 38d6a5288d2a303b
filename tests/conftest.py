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
if HIDE_SHARED_DATA:
    _EMPTY = Path(tempfile.mkdtemp(prefix="aisched-no-data-"))
    SHARED_DATA = _EMPTY / "no-shared-data"
    os.environ.pop("AISCHED_DATA", None)
    os.environ["AISCHED_CACHE"] = str(_EMPTY / "empty-cache")


def pytest_configure(config):
    """Hide ``../shared/data`` from aisched's search path when asked (before any test imports a loader)."""
    if HIDE_SHARED_DATA:
        from aisched.scenarios import _paths

        _paths.SHARED_DATA = SHARED_DATA
        _paths.DATA_DIR = SHARED_DATA


def pytest_report_header(config):
    return "aisched data: every data folder hidden (AISCHED_HIDE_SHARED_DATA)" if HIDE_SHARED_DATA else None
