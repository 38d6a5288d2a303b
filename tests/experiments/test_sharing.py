"""Cells that repeat another scenario's computation run once (aisched.experiments.run.sharing)."""

from __future__ import annotations

import json
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

import pytest

from aisched.experiments.run import sharing, sweep
from aisched.experiments.spec.catalog import Scenario

TINY = Scenario(
    name="lora/test-share-a", family="lora", title="tiny", x="nodes", values=(1, 2),
    base={"slots": 8, "tasks": 4, "vendors": 1}, algorithms=("pdftsp", "eft", "ntm"), seeds=2, metric="objective",
)
#: the same points under another name: every cell is a repeat of one of TINY's
TWIN = replace(TINY, name="lora/test-share-b")
#: shares TINY's point at 2 nodes only
HALF = replace(TINY, name="lora/test-share-c", values=(2, 3))

_FIELDS = ["objective", "status", "admitted", "runtime_s"]


def _rows(out: Path, scenario: Scenario) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in (sweep.folder(out, scenario) / "cells").glob("*.json")}


def test_identity_is_what_the_cell_computes() -> None:
    a, b = sweep.cells(TINY, 2), sweep.cells(TWIN, 2)
    assert [sharing.identity(c) for c in a] == [sharing.identity(c) for c in b]  # names differ, nothing else
    assert len({sharing.identity(c) for c in a}) == len(a)  # every cell of one scenario is its own
    cell = a[0]
    for change in ({"algorithm_params": {"selection": "cell_prices"}}, {"seed": cell.seed + 1},
                   {"time_limit": 1.0}, {"generator_params": {**cell.generator_params, "nodes": 9}}):
        assert sharing.identity(replace(cell, **change)) != sharing.identity(cell), change  # another computation


def test_a_repeated_scenario_runs_once_serial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []
    real = sweep.run_cell
    monkeypatch.setattr(sweep, "run_cell", lambda cell: (ran.append(cell.scenario), real(cell))[1])
    runner = sharing.sharing(sweep.open_runner("serial"))
    sweep.sweep(TINY, tmp_path, runner=runner, progress=False)
    sweep.sweep(HALF, tmp_path, runner=runner, progress=False)
    sweep.sweep(TWIN, tmp_path, runner=runner, progress=False)
    n = len(sweep.cells(TINY, 2))
    assert ran.count(TINY.name) == n and ran.count(TWIN.name) == 0
    assert ran.count(HALF.name) == n // 2  # its 3-node point is its own; the 2-node point is TINY's
    first, twin, half = _rows(tmp_path, TINY), _rows(tmp_path, TWIN), _rows(tmp_path, HALF)
    for key, row in twin.items():
        assert row["same_as"] == f"{TINY.name}:{key}" and row["work_s"] == 0.0
        assert row["scenario"] == TWIN.name and row["x"] == first[key]["x"]
        assert {f: row[f] for f in _FIELDS} == {f: first[key][f] for f in _FIELDS}
    shared = [r for r in half.values() if r.get("same_as")]
    assert len(shared) == n // 2 and all(str(r["x"]) == "2" for r in shared)
    assert all(r["same_as"].startswith(TINY.name + ":p001-") for r in shared)  # TINY's 2-node point
    assert json.loads((sweep.folder(tmp_path, TWIN) / "sweep.json").read_text())["cells_shared"] == n
    assert json.loads((sweep.folder(tmp_path, TINY) / "sweep.json").read_text())["cells_shared"] == 0
    table = sweep.load_table(sweep.folder(tmp_path, TWIN))  # the table reads as any other
    assert len(table) == n and table["objective"].notna().all()
    assert (sweep.folder(tmp_path, TWIN) / "outcomes").is_dir()
    assert len(list((sweep.folder(tmp_path, TWIN) / "outcomes").glob("*.nc"))) == n


def test_a_repeated_scenario_on_a_process_pool(tmp_path: Path) -> None:
    runner = sharing.sharing(sweep.open_runner("process", 2))
    try:
        sweep.sweep(TINY, tmp_path, runner=runner, progress=False)
        sweep.sweep(TWIN, tmp_path, runner=runner, progress=False)
    finally:
        runner.shutdown()
    first, twin = _rows(tmp_path, TINY), _rows(tmp_path, TWIN)
    assert set(first) == set(twin)
    for key, row in twin.items():
        assert row["same_as"] == f"{TINY.name}:{key}"
        assert {f: row[f] for f in _FIELDS} == {f: first[key][f] for f in _FIELDS}


def test_a_failed_or_pending_cell_reaches_its_repeats() -> None:
    sources: list[Future] = []

    def submit(cell: sweep.Cell) -> Future:
        sources.append(Future())
        return sources[-1]

    runner = sharing.sharing(sweep.Runner(submit, lambda f: iter(f), lambda: None, "process", 1))
    a, b = sweep.cells(TINY, 1)[0], sweep.cells(TWIN, 1)[0]
    first, repeat = runner.submit(a), runner.submit(b)
    assert len(sources) == 1 and first is sources[0] and not repeat.done()  # waits for the one that runs
    first.set_exception(RuntimeError("solver died"))
    with pytest.raises(RuntimeError, match="solver died"):
        repeat.result(timeout=1)
    c = sweep.cells(TINY, 1)[1]
    runner.submit(c)
    later = runner.submit(replace(c, scenario=TWIN.name))
    sources[-1].set_result(({"scenario": TINY.name, "point": 0, "x": 1, "objective": 3.0, "work_s": 2.0}, None))
    row, outcome = later.result(timeout=1)
    assert row["scenario"] == TWIN.name and row["work_s"] == 0.0 and row["objective"] == 3.0 and outcome is None


def test_a_dask_runner_without_a_relay_runs_every_cell() -> None:
    runner = sweep.Runner(lambda c: Future(), lambda f: iter(f), lambda: None, "dask:local:1", 1)
    assert sharing.sharing(runner) is runner


def test_a_repeated_scenario_on_dask_runs_once(tmp_path: Path) -> None:
    """``reproduce --dask`` shared no cell (0 against 28 on the pool): a repeat is a relay task on Dask."""
    runner = sharing.sharing(sweep.open_runner("dask:local:1"))
    try:
        assert runner.relay is not None
        sweep.sweep(TINY, tmp_path, runner=runner, progress=False, outcomes=False)
        sweep.sweep(TWIN, tmp_path, runner=runner, progress=False, outcomes=False)
    finally:
        runner.shutdown()
    first, twin = _rows(tmp_path, TINY), _rows(tmp_path, TWIN)
    assert set(first) == set(twin)
    for key, row in twin.items():
        assert row["same_as"] == f"{TINY.name}:{key}" and row["work_s"] == 0.0
        assert {f: row[f] for f in _FIELDS} == {f: first[key][f] for f in _FIELDS}
    assert json.loads((sweep.folder(tmp_path, TWIN) / "sweep.json").read_text())["cells_shared"] == len(twin)


@pytest.mark.parametrize("flags, share", [([], True), (["--no-share"], False)])
def test_reproduce_shares_unless_told_not_to(flags: list[str], share: bool, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from aisched import cli
    from aisched.experiments.pages import reproduce

    seen: dict = {}

    def fake(families, out, **kwargs):  # noqa: ANN001, ANN003, ANN202 - the CLI's call, recorded
        seen.update(kwargs)
        page = Path(out) / "report.md"
        page.write_text("Claims: none\n")
        return page

    monkeypatch.setattr(reproduce, "reproduce", fake)
    assert cli.main(["reproduce", "lora", "--out", str(tmp_path), "--no-progress", *flags]) == 0
    assert seen["share"] is share
