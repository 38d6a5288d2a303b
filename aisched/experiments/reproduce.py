"""One command per paper: every named scenario of a family, resumable, one progress bar, then the report.

:func:`reproduce` runs every scenario of the catalogue for the chosen families
(at full size, or in their reduced test-size form) into one results folder,
on one pool of warm workers (a local process pool, or a Dask cluster), with
one progress bar whose ETA covers the whole run. Finished cells are kept: a
killed run continues where it stopped when the same command is run again.
It then writes ``report.md`` over every sweep (each paper claim with "holds",
"fails" or "not checked: <reason>") and appends the run's record (date,
machine, load, wall time per scenario, cells computed and kept) to
``reproduce-<family>.json`` beside it (:func:`read_records`); several families'
runs can share one folder.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from aisched.errors import InvalidScenarioError
from aisched.experiments import catalog, report
from aisched.experiments.scenario import Scenario
from aisched.experiments.sweep import cells, finished_cells, folder, open_runner, open_workers, sweep

__all__ = ["plan", "read_records", "record_name", "reproduce"]

FAMILIES = ("lora", "spot", "genai", "tenants")


def record_name(families: Sequence[str], reduced: bool = False) -> str:
    """The run record's file name: ``reproduce-<families>[-reduced].json`` (one per family run)."""
    return f"reproduce-{'+'.join(families)}{'-reduced' if reduced else ''}.json"


def plan(families: Sequence[str], *, reduced: bool = False, names: Sequence[str] | None = None
         ) -> list[Scenario]:
    """The scenarios :func:`reproduce` runs, in catalogue order.

    Parameters
    ----------
    families
        Family names, or ``["all"]``.
    reduced
        The scenarios' reduced (test-size) forms.
    names
        Only these scenario names (default: every scenario of the families).

    Raises
    ------
    InvalidScenarioError
        An unknown family, or a name that is not a scenario of the families.
    """
    chosen = list(FAMILIES) if list(families) == ["all"] else list(families)
    for i, family in enumerate(chosen):
        if family not in FAMILIES:
            raise InvalidScenarioError(f"families[{i}]", f"{family!r} is not one of {[*FAMILIES, 'all']}")
    available = [n for family in chosen for n in catalog.names(family)]
    if names is not None:
        for i, name in enumerate(names):
            if name not in available:
                raise InvalidScenarioError(f"names[{i}]", f"{name!r} is not a scenario of {chosen}")
        available = [n for n in available if n in set(names)]
    scenarios = [catalog.get(n) for n in available]
    return [s.reduced() for s in scenarios] if reduced else scenarios


def reproduce(
    families: Sequence[str],
    out: str | os.PathLike[str],
    *,
    seeds: int | None = None,
    reduced: bool = False,
    names: Sequence[str] | None = None,
    executor: str = "process",
    workers: int | None = None,
    progress: bool = True,
    outcomes: bool = True,
    figures: bool = True,
) -> Path:
    """Run every named scenario of ``families`` into ``out`` and write the report; returns its path.

    Parameters
    ----------
    families
        Family names, or ``["all"]``.
    out
        Results root (each scenario in ``out/<family>/<short-name>``).
    seeds
        Seeds per scenario (default: each scenario's own).
    reduced
        Run the reduced (test-size) forms; every claim is still listed.
    names
        Only these scenarios.
    executor, workers
        As :func:`aisched.experiments.sweep.sweep`: ``"process"``, ``"serial"`` or
        ``"dask:<address|local:N>"``; one pool serves every scenario.
    progress
        One progress bar (tqdm, stderr) over every cell of the run, with its ETA.
    outcomes, figures
        Write each cell's netCDF outcome; draw the report's figures.

    Raises
    ------
    InvalidScenarioError
        Before any cell runs: a bad family or name, or a folder under ``out``
        holding a sweep of another definition of a scenario.
    """
    from aisched.experiments.progress import EtaBar

    scenarios = plan(families, reduced=reduced, names=names)
    todo = {s.name: len(cells(s, seeds)) for s in scenarios}
    done = {s.name: len(finished_cells(s, folder(out, s))) for s in scenarios}  # raises on a mismatch
    total, initial = sum(todo.values()), sum(done.values())
    label = "+".join(families) + (" (reduced)" if reduced else "")
    bar = EtaBar(total=total, initial=initial, desc=f"reproduce {label}", unit="cell", disable=not progress,
                 dynamic_ncols=True, workers=open_workers(executor, workers))  # its ETA ignores warm-up
    started = time.perf_counter()
    load_start = os.getloadavg() if hasattr(os, "getloadavg") else None
    walls: dict[str, float] = {}
    runner = open_runner(executor, workers)
    try:
        for s in scenarios:
            bar.set_description_str(f"reproduce {label}: {s.name}", refresh=True)
            tic = time.perf_counter()
            sweep(s, out, seeds=seeds, resume=True, runner=runner, bar=bar, outcomes=outcomes, progress=progress)
            walls[s.name] = time.perf_counter() - tic
    finally:
        runner.shutdown()
        bar.close()
    wall = time.perf_counter() - started
    record = {
        "families": list(families), "reduced": reduced, "seeds": seeds, "scenarios": [s.name for s in scenarios],
        "cells_total": total, "cells_already_done": initial, "executor": executor, "workers": runner.workers,
        "wall_s": wall, "wall_s_per_scenario": walls,
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "processor": platform.machine(), "cpus": os.cpu_count()},
        # load averages (1, 5, 15 min) when the run started and ended: a loaded machine runs slower
        "load_start": None if load_start is None else list(load_start),
        "load_end": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    Path(out).mkdir(parents=True, exist_ok=True)
    path = Path(out) / record_name(families, reduced)
    path.write_text(json.dumps({"runs": [*read_records(path), record]}, indent=1), encoding="utf-8")
    return report.report(out, figures=figures)


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The run records of one ``reproduce-*.json`` file, oldest first.

    Each run of :func:`reproduce` into a folder appends its record (a resumed run
    adds its own beside the one that computed the cells; neither is overwritten).
    A file written before records were kept as a list holds one record: it is read
    as a list of one. A missing file has none.
    """
    p = Path(path)
    if not p.is_file():
        return []
    data = json.loads(p.read_text(encoding="utf-8"))
    runs = data.get("runs") if isinstance(data, dict) and "runs" in data else [data]
    return [r for r in runs if isinstance(r, dict)]
