"""Cells of one run that are the same computation run once.

Several figures of a paper share a point: lora's Figs. 4, 5, 6, 8, 9 and 11 all
hold the paper's default day (100 nodes, 50 tasks a slot, the default vendors,
capacity and deadlines), so ``aisched reproduce lora`` ran that day's every
algorithm five or six times per seed, 120 of its 621 cells and about 33 of its
201 CPU-minutes (2026-11-27 full-size run). Two cells are *the same
computation* when they have the same family, seed, generator parameters,
algorithm, algorithm parameters, time limit and kind (:func:`identity`): the
same instance is generated and the same code runs on it.

:func:`sharing` wraps a :class:`~aisched.experiments.run.sweep.Runner` so that the
first such cell of a run is submitted and every later one waits for it: its row
is the first one's with its own scenario, point and ``x``, ``work_s`` 0 and
``same_as`` naming the cell that ran (``"<scenario>:<cell key>"``); its outcome
file is the same outcome. So one day appears once in every figure that shows it,
with one result (before, a time-limited algorithm such as Titan could show two
results for the same day in two figures), and the run's cost counts it once.

Within one run only: a resumed run re-runs a cell whose twin was kept from an
earlier run. Cost: the parent keeps every cell's result (row and outcome) that a
later cell could repeat until the run ends, where a sweep kept its own scenario's
only (lora's full-size outcomes are 2.3 GB as netCDF; the 2026-11-27 run finished
on 24 GiB, its peak memory not measured). On Dask (whose ``as_completed`` takes Dask futures only) a later
cell is a small Dask task that waits for the first one's and returns its row as the later cell's
(:func:`relay_row`; the runner's ``relay``). ``reproduce(..., share=False)`` runs every cell as before.
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

from aisched.experiments.run.sweep import Cell, Runner

__all__ = ["identity", "relay_row", "sharing", "same_row"]


def identity(cell: Cell) -> str:
    """What a cell computes: family, seed, generator and algorithm parameters, algorithm, time limit, kind."""
    return json.dumps([cell.family, cell.seed, cell.generator_params, cell.algorithm, cell.algorithm_params,
                       cell.time_limit, cell.kind], sort_keys=True, default=str)


def same_row(row: dict[str, Any], cell: Cell, source: Cell) -> dict[str, Any]:
    """``row`` (of ``source``) as the row of ``cell``: its scenario, point and x, no work, ``same_as`` the source."""
    return {**row, "scenario": cell.scenario, "point": cell.point, "x": cell.x, "work_s": 0.0,
            "same_as": f"{source.scenario}:{source.key}"}


def sharing(runner: Runner) -> Runner:
    """``runner`` with each distinct computation of the run submitted once (see the module docstring).

    Thread-safe: ``aisched reproduce`` submits two scenarios' cells from two threads. On a runner with a
    ``relay`` (Dask) a later cell is the relay's task on the first one's future.
    """
    if runner.executor.startswith("dask:") and runner.relay is None:
        return runner
    lock = threading.Lock()
    first: dict[str, tuple[Future, Cell]] = {}
    submit = runner.submit

    def shared_submit(cell: Cell) -> Future:
        key = identity(cell)
        with lock:
            hit = first.get(key)
            if hit is None:
                fut = submit(cell)
                first[key] = (fut, cell)
                return fut
        source_future, source = hit
        if runner.relay is not None:  # a Dask future: as_completed takes no other
            return runner.relay(relay_row, source_future, cell, source)
        relay: Future = Future()

        def done(fut: Future) -> None:
            try:
                row, outcome = fut.result()
            except BaseException as exc:  # the same failure (or cancellation) as the cell that ran
                relay.set_exception(exc)
                return
            relay.set_result((same_row(row, cell, source), outcome))

        source_future.add_done_callback(done)
        return relay

    return replace(runner, submit=shared_submit)


def relay_row(result: tuple[dict[str, Any], Any], cell: Cell, source: Cell) -> tuple[dict[str, Any], Any]:
    """The first cell's ``(row, outcome)`` as ``cell``'s (a Dask task on the first cell's future)."""
    row, outcome = result
    return same_row(row, cell, source), outcome
