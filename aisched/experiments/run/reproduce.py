"""One command per paper, its run: every named scenario of a family, resumable, one progress bar.

:func:`run` runs every scenario of the catalogue for the chosen families
(at full size, or in their reduced test-size form) into one results folder,
on one pool of warm workers (a local process pool, or a Dask cluster), with
one progress bar whose ETA covers the whole run. On a process pool two
scenarios are in flight at once (:data:`IN_FLIGHT`): the next one's cells queue
behind the current one's, so no worker idles while another finishes a
scenario's last cell (the results are the same cell for cell). Finished cells are kept: a
killed run continues where it stopped when the same command is run again.
It then appends the run's record (date,
machine, load, wall time and summed cell time per scenario (with two in
flight their walls overlap), cells computed and kept) to
``reproduce-<family>.json`` beside it (:func:`read_records`); several families'
runs can share one folder. The report over every sweep (``report.md``) is
written after the run by :func:`aisched.experiments.pages.reproduce.reproduce`
(``aisched reproduce``), not here: the runner draws no page.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from aisched import families as family_registry
from aisched._files import atomic_write_text, lock_folder, make_folders
from aisched._processes import seen
from aisched.errors import InvalidScenarioError
from aisched.experiments.run.sharing import sharing
from aisched.experiments.run.sweep import (
    Interrupted,
    _to_the_end,
    cells,
    finished_cells,
    folder,
    open_runner,
    open_workers,
    sweep,
)
from aisched.experiments.spec import catalog
from aisched.experiments.spec.scenario import Scenario
from aisched.experiments.spec.validation import check_seeds
from aisched.provenance import provenance

__all__ = ["plan", "read_records", "record_name", "run"]

#: Scenarios whose sweeps share the process pool at once: the next one's cells queue
#: behind the current one's, so its last cells do not leave a worker idle. 1 for "serial" and Dask.
IN_FLIGHT = 2


def record_name(families: Sequence[str], reduced: bool = False) -> str:
    """The run record's file name: ``reproduce-<families>[-reduced].json`` (one per family run)."""
    return f"reproduce-{'+'.join(families)}{'-reduced' if reduced else ''}.json"


def plan(families: Sequence[str], *, reduced: bool = False, names: Sequence[str] | None = None
         ) -> list[Scenario]:
    """The scenarios :func:`run` runs, in catalogue order.

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
    registered = family_registry.names()
    chosen = registered if list(families) == ["all"] else list(families)
    for i, family in enumerate(chosen):
        if family not in registered:
            raise InvalidScenarioError(f"families[{i}]", f"{family!r} is not one of {[*registered, 'all']}")
    available = [n for family in chosen for n in catalog.names(family)]
    if names is not None:
        for i, name in enumerate(names):
            if name not in available:
                raise InvalidScenarioError(f"names[{i}]", f"{name!r} is not a scenario of {chosen}")
        available = [n for n in available if n in set(names)]
    scenarios = [catalog.get(n) for n in available]
    return [s.reduced() for s in scenarios] if reduced else scenarios


def run(
    families: Sequence[str],
    out: str | os.PathLike[str],
    *,
    seeds: int | str | None = None,
    max_seeds: int = 20,
    reduced: bool = False,
    names: Sequence[str] | None = None,
    executor: str = "process",
    workers: int | None = None,
    progress: bool = True,
    outcomes: bool = True,
    share: bool = True,
    wait: bool = False,
) -> Path:
    """Run every named scenario of ``families`` into ``out`` and append the run's record; returns ``Path(out)``.

    The report is not written here (:func:`aisched.experiments.pages.reproduce.reproduce` writes it after).

    Parameters
    ----------
    families
        Family names, or ``["all"]``.
    out
        Results root (each scenario in ``out/<family>/<short-name>``).
    seeds
        Seeds per scenario (default: each scenario's own), or ``"auto"``: every scenario at the
        first look (3 seeds), then seeds added scenario by scenario only at the points of claims
        still undecided (:func:`~aisched.experiments.run.auto_seeds.auto_seeds`), on the same pool.
        The run's record then covers both phases: ``seeds: "auto"``, ``max_seeds``, the cells and
        the wall time of the whole run and of its first look.
    max_seeds
        With ``seeds="auto"``: the most seeds a point gets.
    reduced
        Run the reduced (test-size) forms; every claim is still listed.
    names
        Only these scenarios.
    executor, workers
        As :func:`aisched.experiments.run.sweep.sweep`: ``"process"``, ``"serial"`` or
        ``"dask:<address|local:N>"``; one pool serves every scenario.
    progress
        One progress bar (tqdm, stderr) over every cell of the run, with its ETA.
    outcomes
        Write each cell's netCDF outcome.
    share
        Run once the cells of different scenarios that are the same computation (same
        instance, algorithm and parameters; :mod:`aisched.experiments.run.sharing`): the later
        ones take its row (``same_as``), at no cost. False: every cell runs.
    wait
        A scenario's folder held by another sweep: wait for it to end instead of refusing
        (as :func:`~aisched.experiments.run.sweep.sweep`'s ``wait``).

    Raises
    ------
    InvalidScenarioError
        Before any cell runs: a bad family or name, or a folder under ``out``
        holding a sweep of another definition of a scenario.
    """
    auto = seeds == "auto"
    if auto:
        from aisched.experiments.run.auto_seeds import looks_upto

        looks_upto(max_seeds)  # raises on a bad --max-seeds before any work
    elif seeds is not None:
        check_seeds(seeds)  # an integer from 1 to MAX_SEEDS (or "auto")
    scenarios = plan(families, reduced=reduced, names=names)
    make_folders(Path(out), ())
    # the whole results root for the whole run: two runs into one folder would each hold one scenario's
    # folder and wait for the other's next; the second one is refused at once (or waits, ``wait``)
    with lock_folder(Path(out), {"reproduce": list(families), "reduced": reduced}, wait=wait, what="reproduce",
                     name=LOCK_NAME):
        return _run(families, out, scenarios, seeds=seeds, max_seeds=max_seeds, reduced=reduced,
                    executor=executor, workers=workers, progress=progress, outcomes=outcomes, share=share,
                    wait=wait)


#: The lock a run holds on its results root for its whole length (beside the sweep folders' own).
LOCK_NAME = ".aisched.reproduce.lock"

#: What an interrupted run says to do: it continues where it stopped by itself (no ``--resume``).
AGAIN = "run the same command again to continue"


def _run(families: Sequence[str], out: str | os.PathLike[str], scenarios: list[Scenario], *,
         seeds: int | str | None, max_seeds: int, reduced: bool, executor: str, workers: int | None,
         progress: bool, outcomes: bool, share: bool, wait: bool) -> Path:
    """:func:`run` with the results root locked."""
    from aisched.experiments.run.progress import EtaBar

    auto = seeds == "auto"
    if auto:
        from aisched.experiments.run.auto_seeds import auto_seeds, looks_upto

        first = looks_upto(max_seeds)[0]
    else:
        first = seeds
    todo = {s.name: len(cells(s, first)) for s in scenarios}
    done = {s.name: len(finished_cells(s, folder(out, s))) for s in scenarios}  # raises on a mismatch
    total, initial = sum(todo.values()), sum(done.values())
    label = "+".join(families) + (" (reduced)" if reduced else "")
    bar = EtaBar(total=total, initial=initial, desc=f"reproduce {label}", unit="cell", disable=not progress,
                 dynamic_ncols=True, workers=open_workers(executor, workers))  # its ETA ignores warm-up
    started = time.perf_counter()
    load_start = os.getloadavg() if hasattr(os, "getloadavg") else None
    walls: dict[str, float] = {}
    runner = open_runner(executor, workers)
    if share:
        runner = sharing(runner)
    in_flight = IN_FLIGHT if runner.executor == "process" and len(scenarios) > 1 else 1

    def one(s: Scenario) -> None:
        if in_flight == 1:
            bar.set_description_str(f"reproduce {label}: {s.name}", refresh=True)
        tic = time.perf_counter()
        sweep(s, out, seeds=first, resume=True, runner=runner, bar=bar, outcomes=outcomes, progress=progress,
              wait=wait)
        walls[s.name] = time.perf_counter() - tic

    added: dict[str, Any] = {}  # with seeds="auto": per scenario, its auto-seeds entry
    first_wall = None
    try:
        if in_flight == 1:
            for s in scenarios:
                one(s)
        else:
            _overlapped(one, scenarios, runner, bar)
        bar.close()
        if auto:  # then seeds where claims are undecided, scenario by scenario, on the same pool
            first_wall = time.perf_counter() - started
            for s in scenarios:
                tic = time.perf_counter()
                added[s.name] = auto_seeds(s, out, max_seeds=max_seeds, runner=runner, outcomes=outcomes,
                                           progress=progress, wait=wait)
                walls[s.name] += time.perf_counter() - tic
    except KeyboardInterrupt:  # Ctrl-C (or the CLI's SIGTERM): the workers end now, the finished cells are kept
        seen()
        _to_the_end(runner.stop)
        _to_the_end(runner.shutdown)
        bar.close()
        raise Interrupted(getattr(bar, "done", 0), getattr(bar, "planned", None) or total, AGAIN) from None
    except BaseException:  # a sweep's error: the workers end with the run
        _to_the_end(runner.stop)
        _to_the_end(runner.shutdown)
        bar.close()
        raise
    if _to_the_end(runner.shutdown):
        raise Interrupted(getattr(bar, "done", 0), getattr(bar, "planned", None) or total, AGAIN)
    bar.close()
    wall = time.perf_counter() - started
    if auto:  # the whole run's cells: the first look's and the seeds added
        total = sum(len(finished_cells(s, folder(out, s))) for s in scenarios)
    record = {
        "families": list(families), "reduced": reduced, "seeds": seeds, "scenarios": [s.name for s in scenarios],
        **({"max_seeds": max_seeds, "first_look": {"seeds": first, "cells": sum(todo.values()), "wall_s": first_wall},
            "claims_open": {name: entry["claims_open"] for name, entry in added.items()}} if auto else {}),
        "cells_total": total, "cells_already_done": initial, "executor": executor, "workers": runner.workers,
        "worker_dispatch": runner.dispatch,
        "scenarios_in_flight": in_flight, "wall_s": wall, "wall_s_per_scenario": walls,
        "work_s_per_scenario": {s.name: _work(out, s) for s in scenarios},
        "cells_shared": int(sum(_work(out, s, "cells_shared") or 0 for s in scenarios)),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "processor": platform.machine(), "cpus": os.cpu_count()},
        "provenance": provenance(seeds=seeds),
        # load averages (1, 5, 15 min) when the run started and ended: a loaded machine runs slower
        "load_start": None if load_start is None else list(load_start),
        "load_end": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    Path(out).mkdir(parents=True, exist_ok=True)
    path = Path(out) / record_name(families, reduced)
    atomic_write_text(path, json.dumps({"runs": [*read_records(path), record]}, indent=1))
    return Path(out)


def _overlapped(one: Callable[[Scenario], None], scenarios: Sequence[Scenario], runner: Any, bar: Any) -> None:
    """Run ``one(s)`` for every scenario, :data:`IN_FLIGHT` at a time, in catalogue order.

    Each sweep submits all its cells to the one process pool, whose queue is first in, first
    out: the next scenario's cells wait behind the current one's and take a worker as soon as
    one is free, so no worker idles at the end of a scenario while another finishes its last
    cell. The cells and their results are those of one scenario after another.
    On Ctrl-C the workers are stopped, the sweeps in flight end (their finished cells are
    written) and :class:`~aisched.experiments.run.sweep.Interrupted` is raised.
    """
    pool = ThreadPoolExecutor(max_workers=IN_FLIGHT, thread_name_prefix="aisched-reproduce")
    futures: list = []
    try:
        for s in scenarios:
            futures.append(pool.submit(one, s))
        for fut in futures:
            fut.result()
    except KeyboardInterrupt:  # only this thread sees Ctrl-C: cancel what has not started, stop the workers
        seen()
        for fut in futures:
            fut.cancel()
        runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        raise Interrupted(getattr(bar, "done", 0), getattr(bar, "planned", None) or 0) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _work(out: str | os.PathLike[str], scenario: Scenario, field: str = "work_s") -> float | None:
    """The summed cell time (or another ``field``) of ``scenario``'s last sweep (its ``sweep.json``), or None."""
    try:
        return float(json.loads((folder(out, scenario) / "sweep.json").read_text())[field])
    except (OSError, KeyError, ValueError):
        return None


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The run records of one ``reproduce-*.json`` file, oldest first.

    Each run of :func:`run` into a folder appends its record (a resumed run
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
