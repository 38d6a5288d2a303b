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

import pytest

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


#: JAX's persistent compilation cache for the test processes and every process they start (CLI runs,
#: pool workers): set before JAX is imported, through JAX's own environment variables, so a kernel shape
#: compiled once (by this run's other worker, an earlier file or an earlier run) is read back instead of
#: compiled again. Compilation is most of the suite's time: the spot reproduce test spends 72 of its 100 s
#: in JAX, 43 s of them in XLA's compiler (cProfile, 2026-11-28); with the cache warm it takes 41 s against
#: 90 s cold. The entries are keyed by the lowered program, JAX/jaxlib versions and XLA flags, so a stale
#: entry is never used; eviction on (a size cap) makes JAX lock the folder, so the two workers never read a
#: half-written entry. ``AISCHED_TEST_JAX_CACHE=0`` runs without it; a ``JAX_COMPILATION_CACHE_DIR``
#: already set is kept. The folder: ``$XDG_CACHE_HOME/aisched/jax-tests`` (else ``~/.cache/...``).
if os.environ.get("AISCHED_TEST_JAX_CACHE", "1") not in ("", "0") and "JAX_COMPILATION_CACHE_DIR" not in os.environ:
    os.environ["JAX_COMPILATION_CACHE_DIR"] = str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aisched" / "jax-tests")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0.05")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")
    os.environ.setdefault("JAX_COMPILATION_CACHE_MAX_SIZE", str(2 * 2**30))  # 2 GiB, least recently used out


def pytest_report_header(config):
    lines = []
    if HIDE_SHARED_DATA:
        lines.append("aisched data: every data folder hidden (AISCHED_HIDE_SHARED_DATA)")
    cache = os.environ.get("JAX_COMPILATION_CACHE_DIR")
    lines.append(f"JAX compilation cache: {cache}" if cache else "JAX compilation cache: off")
    return lines


def need_data_file(name: str) -> None:
    """Skip the calling test with a message when data file ``name`` is in no data folder."""
    import pytest

    from aisched.data import data_file

    if data_file(name, required=False) is None:
        pytest.skip(f"data file {name} is absent from every data folder (see `aisched data list`)")


@pytest.fixture
def forbid_algorithms(monkeypatch):
    """``forbid(family, *names)``: those algorithms of ``family`` fail the test if anything runs them (a
    calibration must run the baselines only), for the rest of the test."""

    def forbid(family: str, *names: str) -> None:
        import dataclasses

        from aisched import families, registry

        def never(*args, **kwargs):
            raise AssertionError(f"calibration ran the paper's own algorithm ({family}: {', '.join(names)})")

        registry.names(family)  # the family's algorithms registered before the table is copied
        tables = families.get(family).tables
        table = dict(tables.algorithms)
        table.update({name: dataclasses.replace(table[name], run=never) for name in names})
        monkeypatch.setattr(tables, "algorithms", table)

    return forbid


@pytest.fixture
def swap_family():
    """``swap(family)``: register ``family`` (a changed copy of a registered one, e.g. by
    ``dataclasses.replace``) in its place for the rest of the test; the original comes back afterwards.
    The copy shares the original's algorithms and scenarios (:func:`aisched.families.register`)."""
    from aisched import families

    originals = []

    def swap(family):
        originals.append(families.get(family.name))
        families.register(family)

    yield swap
    for original in reversed(originals):
        families.register(original)


@pytest.fixture
def own_algorithms(monkeypatch):
    """``own(family)``: a copy of the family's algorithm table that the test may register into
    (the family's own table comes back afterwards); returns :mod:`aisched.registry`."""
    from aisched import families, registry

    def own(family: str):
        registry.names(family)  # the built-in ones are loaded first
        tables = families.get(family).tables
        monkeypatch.setattr(tables, "algorithms", dict(tables.algorithms))
        return registry

    return own
