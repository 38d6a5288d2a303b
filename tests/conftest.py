"""Shared test setup: put tests/ on sys.path for the tiny-instance oracles."""

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

#: ../shared/data beside the project root (real trace extracts; tests skip if absent).
SHARED_DATA = TESTS.parent.parent / "shared" / "data"
