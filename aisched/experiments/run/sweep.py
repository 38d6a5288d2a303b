"""Sweeps: every point x seed x algorithm of a scenario, resumable, local or on Dask.

A *cell* is one algorithm (or the offline solve, algorithm ``"offline"``) on
the instance of one (point, seed). Cells run in worker processes (a local
process pool by default, or a Dask distributed cluster), and the parent
process writes each finished cell as it completes:

``<out>/<family>/<short-name>/``
    ``scenario.json``   the scenario's record (``Scenario.sweep_record``; what decides the cells'
    computation guards ``resume``, its text may change: :mod:`aisched.experiments.store.sweep_state`)
    ``outcomes/<cell>.nc``  the cell's :class:`~aisched.outcome.Outcome` (netCDF)
    ``cells/<cell>.json``   the cell's row; written last, so its presence
    means the cell is complete (both files are written to a temporary name
    and renamed: a killed sweep never leaves a half-written result)
    ``table.csv``       the tidy table, rebuilt from ``cells/`` at the end
    ``sweep.json``      timings of the last run: cells run, work, overhead
    ``.aisched.lock``   held by the running sweep: a second one is refused naming its PID (or waits)

A failed write stops the sweep with one line naming the file and the cause, keeping every
cell written. ``resume=True`` skips the finished cells (:func:`~aisched.experiments.store.stored.cell_files`);
a broken one is set aside (``*.broken``) and recomputed. Every online outcome and every
offline incumbent is re-checked with :meth:`Outcome.verify` in the worker before it is written. In a "selection" scenario (spot Figs. 9-10) a
cell is one run of Algorithm 2 over the pool its ``algorithm`` names
(the family's ``kinds`` hook, :class:`aisched.families.ScenarioKind`); its netCDF holds the weights
and utilities per (job, policy) instead of an Outcome.

The table has one row per cell: ``scenario, point, x, seed, algorithm,
objective, status, bound, admitted, runtime_s, decision_median_s, work_s``
plus ``reference`` (the offline optimum of the cell's (point, seed), or the
least upper bound -- the solve's at a limit, or the certified ``"bound"``
cell's when the scenario has ``bound = true``), ``reference_kind``, ``ratio =
objective / reference`` and ``competitive_ratio = reference / objective``.
A cell that repeated another scenario's computation in the same run
(:mod:`aisched.experiments.run.sharing`, ``aisched reproduce``) has ``same_as``
naming that cell and ``work_s`` 0.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import as_completed as futures_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from aisched import families, registry
from aisched._files import WriteFailed, atomic_write_text, lock_folder, make_folders
from aisched._files import write_cause as _cause
from aisched._processes import seen
from aisched.errors import InvalidScenarioError
from aisched.experiments.run.workers import (  # noqa: F401 (the names tests and older callers know)
    _WORKER,
    DASK_NO_WORKER_S,
    WORKER_DISPATCHES,
    _async_dispatch,
    _init_worker,
    _spawning,
    _stop_pool,
    _unlink_private_semaphores,
    _watched,
    worker_dispatch,
)
from aisched.experiments.spec.catalog import Scenario
from aisched.experiments.spec.validation import check_seeds
from aisched.experiments.store.stored import DIGEST_FIELD, TABLE_COLUMNS, cell_files, load_table, set_aside  # noqa: F401
from aisched.experiments.store.stored import NETCDF_LOCK as _NETCDF_LOCK  # noqa: F401 (the name tests and docs know)
from aisched.experiments.store.sweep_state import digest, finished_cells, prepare, record_text
from aisched.provenance import provenance

__all__ = ["Cell", "Interrupted", "Runner", "cells", "finished_cells", "folder", "load_table", "open_runner", "run_cell", "sweep",
           "WORKER_DISPATCHES", "worker_dispatch"]


@dataclass(frozen=True)
class Cell:
    """One unit of a sweep: an algorithm on the instance of (point, seed). Picklable."""

    scenario: str
    family: str
    point: int
    x: str
    seed: int
    algorithm: str
    generator_params: dict[str, Any]
    algorithm_params: dict[str, Any]
    time_limit: float | None
    kind: str = "compare"
    plugins: tuple[str, ...] = ()  # plug-in modules a worker imports first (aisched.registry.load_plugin)

    @property
    def key(self) -> str:
        """File stem of the cell: ``p<point>-s<seed>-<algorithm>``."""
        return f"p{self.point:03d}-s{self.seed:03d}-{self.algorithm}"


def cells(scenario: Scenario, seeds: int | None = None, points: Iterable[int] | None = None,
          first_seed: int = 0) -> list[Cell]:
    """The cells of a scenario in run order (point, seed, offline first, then the algorithms); ``points``: only
    these points' (:mod:`~aisched.experiments.run.auto_seeds` adds seeds there); seeds from ``first_seed`` on."""
    n_seeds = check_seeds(scenario.seeds if seeds is None else seeds)
    out = []
    chosen = range(len(scenario.values)) if points is None else sorted(set(points))
    referenced = set(scenario.reference_points())  # offline / bound only where a verdict reads them
    for p in chosen:
        bound = scenario.bound and (scenario.values[p] in scenario.bound_at if scenario.bound_at else p in referenced)
        algos = ["offline"] * (scenario.offline and p in referenced) + ["bound"] * bound + scenario.runs
        for seed in range(first_seed, first_seed + n_seeds):
            for name in algos:
                out.append(Cell(
                    scenario=scenario.name, family=scenario.family, point=p, x=scenario.labels[p], seed=seed,
                    algorithm=name, generator_params=scenario.point_params(p),
                    algorithm_params={} if name == "bound" else scenario.algorithm_params(p, name),
                    time_limit=scenario.time_limit,
                    kind=scenario.kind, plugins=registry.plugins(),
                ))
    return out


_INSTANCES: dict[str, Any] = {}  # per worker process: the last few instances (cells of one point share it)


def _instance(cell: Cell) -> Any:
    key = json.dumps([cell.family, cell.seed, cell.generator_params], sort_keys=True, default=str)
    if key not in _INSTANCES:
        if len(_INSTANCES) >= 4:
            _INSTANCES.pop(next(iter(_INSTANCES)))
        _INSTANCES[key] = families.hooks(cell.family).generate(seed=cell.seed, **cell.generator_params)
    return _INSTANCES[key]


def run_cell(cell: Cell) -> tuple[dict[str, Any], Any]:
    """Run one cell (in a worker): generate, run, verify. Returns (row, Outcome)."""
    try:
        return _run_cell(cell)
    finally:
        if _WORKER[0]:
            _unlink_private_semaphores()


def _run_cell(cell: Cell) -> tuple[dict[str, Any], Any]:
    from aisched.core import runner

    for module in cell.plugins:  # the parent's plug-ins, in a pool or Dask worker too (once per process)
        registry.load_plugin(module, field="plugins")
    tic = time.perf_counter()
    if cell.kind != "compare":  # a family's own kind (policy selection: the pool named by cell.algorithm)
        kind = families.hooks(cell.family).kinds[cell.kind]
        fields, data = kind.cell(seed=cell.seed, pool=cell.algorithm, **cell.generator_params,
                                 **cell.algorithm_params)
        row = {"scenario": cell.scenario, "point": cell.point, "x": cell.x, "seed": cell.seed,
               "algorithm": cell.algorithm, **{k: _plain(v) for k, v in fields.items()}}
        row["work_s"] = time.perf_counter() - tic
        return row, data
    inst = _instance(cell)
    if cell.algorithm == "offline":
        outcome = runner.offline(inst, time_limit=cell.time_limit, **cell.algorithm_params)
    elif cell.algorithm == "bound":  # the certified upper bound; objective: its primal value
        outcome = runner.bound(inst, time_limit=cell.time_limit, **cell.algorithm_params)
    else:  # "<algorithm>@<variant>" runs the algorithm with the variant's parameters
        outcome = runner.run(cell.algorithm.partition("@")[0], inst, **cell.algorithm_params)  # verified by run
    if cell.algorithm in ("offline", "bound") and not math.isnan(outcome.objective):
        outcome.verify(inst)
    row = {
        "scenario": cell.scenario, "point": cell.point, "x": cell.x, "seed": cell.seed,
        **{k: _plain(v) for k, v in outcome.summary().items()}, "algorithm": cell.algorithm,
    }
    family_metrics = families.hooks(cell.family).metrics  # the same columns as aisched.compare's
    if family_metrics is not None and not math.isnan(outcome.objective):
        row.update({k: _plain(v) for k, v in family_metrics(inst, outcome).items()})
    row["work_s"] = time.perf_counter() - tic
    return row, outcome


def _plain(value: Any) -> Any:
    return int(value) if isinstance(value, np.integer) else float(value) if isinstance(value, np.floating) else value


def folder(out: str | os.PathLike[str], scenario: Scenario) -> Path:
    """The sweep folder of ``scenario`` under ``out``."""
    family, short = scenario.name.split("/")
    return Path(out) / family / re.sub(r"[^A-Za-z0-9_.-]", "_", short)


_atomic_write_text = atomic_write_text  # mode as the umask gives (not mkstemp's 0600)
_record_text = record_text  # the names tests and older callers know
_prepare = prepare


def _write_cell(root: Path, cell: Cell, row: dict[str, Any], outcome: Any) -> float:
    """Write the cell's outcome (None: none), then its row (last: it marks the cell complete); the seconds it took.

    Raises WriteFailed naming the file and the cause.
    """
    tic = time.perf_counter()
    path = target = root / "outcomes" / f"{cell.key}.nc"
    try:
        if isinstance(outcome, xr.Dataset):  # a selection cell: written to a temporary name, then renamed
            tmp = path.with_name(f".{path.name}.tmp")
            try:
                with _NETCDF_LOCK:
                    outcome.to_netcdf(tmp, engine="netcdf4")
                os.replace(tmp, path)
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
        elif outcome is not None:  # None: sweep(outcomes=False), the row only
            with _NETCDF_LOCK:
                outcome.to_netcdf(path)
        target = root / "cells" / f"{cell.key}.json"
        _atomic_write_text(target, json.dumps(row, default=_plain))
    except (OSError, RuntimeError) as exc:  # netCDF4 raises RuntimeError ("NetCDF: HDF error") on a full disk
        raise WriteFailed(target, _cause(exc, target)) from exc
    return time.perf_counter() - tic


@dataclass(frozen=True)
class Runner:
    """Where cells run: ``submit(cell) -> Future``, ``completed(futures)`` in finishing order, ``shutdown()``.

    :func:`open_runner` makes one; :func:`sweep` opens its own unless given one, so
    that several sweeps (``aisched reproduce``) share one pool of warm workers.
    """

    submit: Callable[[Cell], Future]
    completed: Callable[[list], Iterator]
    shutdown: Callable[[], None]
    executor: str
    workers: int
    stop: Callable[[], None] = lambda: None
    """Stop now (Ctrl-C): end the workers and drop the cells in flight; ``shutdown`` may follow."""
    dispatch: str | None = None
    """The workers' JAX dispatch (:data:`WORKER_DISPATCHES`) on a process pool; None elsewhere."""
    relay: Callable[..., Any] | None = None
    """On Dask: ``relay(fn, first_future, cell, first_cell)`` submits ``fn`` on the first cell's result as
    ``cell``'s task (:mod:`aisched.experiments.run.sharing`); None elsewhere."""


def open_workers(kind: str, workers: int | None) -> int:
    """How many cells run at once on ``kind``."""
    if kind.startswith("dask:local:") and kind.rsplit(":", 1)[1].isdigit():
        return int(kind.rsplit(":", 1)[1])
    return 1 if kind == "serial" else (workers or os.cpu_count() or 1)


def refuse_in_a_worker() -> None:
    """Stop a spawned pool worker that is re-running a script's sweep, in one line.

    The process pool spawns its workers, and each imports the script that started the sweep
    (as ``__mp_main__``): a script without an ``if __name__ == "__main__":`` guard would start
    its sweep again in every worker. There the worker ends with one line saying what to add
    (``SystemExit``: no traceback), and the parent's sweep reports the stopped worker
    (:func:`sweep`).
    """
    # while a spawned worker imports the script (as __mp_main__) it is "inheriting": multiprocessing's
    # own _check_not_importing_main asks the same
    if getattr(multiprocessing.current_process(), "_inheriting", False) and "__mp_main__" in sys.modules:
        raise SystemExit("aisched: error: a process-pool worker re-ran this script's sweep: put the script's "
                         "top-level code under `if __name__ == \"__main__\":` (each worker imports the script)")


#: What a sweep says when a pool worker stopped abruptly (the causes a user can act on).
WORKER_DIED = ("a process-pool worker stopped abruptly (killed, out of memory, or a script without "
               "`if __name__ == \"__main__\":` that each worker re-runs)")


def open_runner(kind: str, workers: int | None = None) -> Runner:
    """A :class:`Runner` for ``kind``: "serial", "process" or "dask:<address|local:N>"."""
    refuse_in_a_worker()
    if kind not in ("serial", "process") and not kind.startswith("dask:"):
        raise InvalidScenarioError("executor", f"{kind!r}: expected 'serial', 'process' or 'dask:ADDRESS'")
    dispatch = worker_dispatch() if kind == "process" else None
    submit, completed, shutdown, stop = _executor(kind, workers, dispatch or "sync")
    return Runner(submit, completed, shutdown, kind, open_workers(kind, workers), stop, dispatch,
                  getattr(submit, "relay", None))


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a sweep: the finished cells are written and kept (``resume`` continues it).

    Attributes
    ----------
    kept, total
        Finished cells (of this run's progress bar: every scenario of a ``reproduce``) and all cells.
    """

    def __init__(self, kept: int, total: int, again: str = "run the same command with --resume") -> None:
        self.kept, self.total, self.again = int(kept), int(total), again
        super().__init__(f"interrupted: {self.kept} of {self.total} cells kept; {again}")


def _to_the_end(step: Callable[[], Any]) -> bool:
    """Run a closing ``step`` to its end, again after each Ctrl-C that comes meanwhile; whether one came.

    The steps that end a sweep (wait for the writer, end the pool, write the table) are each safe to
    run again; cut short by a ``KeyboardInterrupt`` they would leave a worker alive or a file half done.
    """
    hit = False
    while True:
        try:
            step()
            return hit
        except KeyboardInterrupt:
            seen()  # caught: the stop signals after it are ignored (aisched._processes)
            hit = True


def _executor(kind: str, workers: int | None, dispatch: str = "sync",
              ) -> tuple[Callable[[Cell], Future], Callable[[list], Iterator], Callable[[], None], Callable[[], None]]:
    """(submit, as_completed, shutdown, stop) for ``kind``: "serial", "process" (its workers get ``dispatch``) or
    "dask:<address|local:N>"."""
    if kind == "serial":  # runs each cell when the loop reaches it, so every finished cell is written at once
        pending: dict[Future, Cell] = {}

        def submit(cell: Cell) -> Future:
            fut: Future = Future()
            pending[fut] = cell
            return fut

        def completed(futures: list[Future]) -> Iterator[Future]:
            for fut in futures:
                cell = pending.pop(fut, None)  # None: a future settled elsewhere (experiments.sharing)
                if cell is not None:
                    try:
                        fut.set_result(run_cell(cell))
                    except Exception as exc:  # handed back through the future, as a pool would
                        fut.set_exception(exc)
                yield fut

        return submit, completed, lambda: None, lambda: None
    if kind == "process":
        pool = ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1,
                                   mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker,
                                   initargs=(dispatch, os.getpid()))
        # shutdown: the workers leave by themselves (idle), or are killed after a few seconds; stop: at once
        return _spawning(lambda cell: pool.submit(run_cell, cell)), futures_completed, \
            (lambda: _stop_pool(pool, grace=5.0)), (lambda: _stop_pool(pool))
    if kind.startswith("dask:"):
        from dask.distributed import Client, LocalCluster
        from dask.distributed import as_completed as dask_completed

        address = kind[len("dask:"):]
        cluster = None
        if address.startswith("local:"):
            n = address[len("local:"):]
            if not n.isdigit() or int(n) < 1:
                raise InvalidScenarioError("dask", f"{address!r}: expected local:N with N >= 1")
            cluster = LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        else:
            try:
                client = Client(address, timeout="20s")
            except (OSError, TimeoutError) as exc:
                raise InvalidScenarioError("dask", f"cannot reach scheduler {address!r} ({exc})") from None

        def shutdown() -> None:
            client.close()
            if cluster is not None:
                cluster.close()

        def submit_dask(cell: Cell) -> Any:
            return client.submit(run_cell, cell, pure=False, key=f"aisched-{cell.scenario}-{cell.key}")

        def relay(fn: Callable[..., Any], first: Any, cell: Cell, source: Cell) -> Any:  # sharing: a later cell
            return client.submit(fn, first, cell, source, pure=False, key=f"aisched-{cell.scenario}-{cell.key}")

        submit_dask.relay = relay  # type: ignore[attr-defined]
        return submit_dask, _watched(dask_completed, client, address), shutdown, shutdown
    raise InvalidScenarioError("executor", f"{kind!r}: expected 'serial', 'process' or 'dask:ADDRESS'")


def sweep(
    scenario: Scenario,
    out: str | os.PathLike[str],
    *,
    seeds: int | None = None,
    resume: bool = False,
    executor: str = "process",
    workers: int | None = None,
    progress: bool = True,
    outcomes: bool = True,
    runner: Runner | None = None,
    bar: Any | None = None,
    wait: bool = False,
    points: Iterable[int] | None = None,
    first_seed: int = 0,
) -> pd.DataFrame:
    """Run every cell of ``scenario`` not yet done and return the tidy table.

    Parameters
    ----------
    scenario
        What to run (see :mod:`aisched.experiments.spec.catalog`; ``scenario.reduced()`` for a quick run).
    out
        Results root; the scenario's folder is ``out/<family>/<short-name>``.
    seeds
        Number of seeds (default ``scenario.seeds``); more seeds than a previous run resumes.
    resume
        Continue a sweep in an existing folder (finished cells are not redone).
    executor
        ``"process"`` (local process pool, default), ``"serial"`` (in this process) or
        ``"dask:<scheduler address>"`` / ``"dask:local:N"`` (a Dask LocalCluster of N workers).
    workers
        Pool size of ``"process"`` (default: CPU count).
    progress
        Show a progress bar with an ETA (tqdm, on stderr).
    outcomes
        Write each cell's outcome as netCDF (default). ``False`` keeps only the
        rows: for scenarios of millisecond cells (spot Figs. 5-8) the ~15 ms
        netCDF write per cell is most of the sweep's time; the report then
        draws no price heatmaps or outcome-based figures.

    runner
        Run the cells on this :class:`Runner` (left open) instead of opening one
        for ``executor`` / ``workers``.
    bar
        Advance this progress bar (a tqdm; an :class:`~aisched.experiments.run.progress.EtaBar`
        also gets each cell's time for its estimate) by one per finished cell
        instead of showing one of this sweep's own.
    wait
        Wait for another sweep holding the folder to end, instead of refusing.
    points, first_seed
        Run ``seeds`` seeds only at these points (indices), from seed ``first_seed`` (default 0: the figures').

    Raises
    ------
    InvalidScenarioError
        Before any cell runs: ``out`` is not writable, another sweep holds the folder (by PID),
        or it holds another sweep. After: a write failed (the file, the cause, the cells kept).
    Interrupted
        On Ctrl-C (a ``KeyboardInterrupt``): the workers are ended, every
        finished cell is written and ``table.csv`` holds them; ``resume=True``
        continues. The cells in flight are lost.

    Returns
    -------
    pandas.DataFrame
        The table (:data:`TABLE_COLUMNS`), also written to ``table.csv``.
    """
    refuse_in_a_worker()
    todo_all = cells(scenario, seeds, points, first_seed)
    root = folder(out, scenario)
    if runner is not None:
        executor = runner.executor
    if executor not in ("serial", "process") and not executor.startswith("dask:"):
        raise InvalidScenarioError("executor", f"{executor!r}: expected 'serial', 'process' or 'dask:ADDRESS'")
    dispatch = runner.dispatch if runner is not None else (worker_dispatch() if executor == "process" else None)
    make_folders(root, ("cells", "outcomes"))  # before any cell runs: a folder that cannot be written is named now
    with lock_folder(root, {"scenario": scenario.name, "cells_total": len(todo_all)}, wait=wait):
        return _sweep(scenario, root, todo_all, resume=resume, executor=executor, workers=workers,
                      progress=progress, outcomes=outcomes, runner=runner, bar=bar, dispatch=dispatch)


def _sweep(scenario: Scenario, root: Path, todo_all: list[Cell], *, resume: bool, executor: str,
           workers: int | None, progress: bool, outcomes: bool, runner: Runner | None, bar: Any | None,
           dispatch: str | None) -> pd.DataFrame:
    """:func:`sweep` in its folder ``root``, whose lock this process holds."""
    from aisched.experiments.run.progress import EtaBar, cell_group

    done, broken = _prepare(scenario, root, resume)
    todo = [c for c in todo_all if c.key not in done]
    mark = digest(scenario)  # each row records the definition it ran: a corrupt scenario.json is rebuilt from it
    tic = time.perf_counter()
    work = write = 0.0
    shared = 0
    n_workers = runner.workers if runner is not None else open_workers(executor, workers)
    own_bar = bar is None
    if bar is None:
        bar = EtaBar(total=len(todo_all), initial=len(todo_all) - len(todo), desc=scenario.name, unit="cell",
                     disable=not progress, dynamic_ncols=True, workers=n_workers)
    eta = getattr(bar, "eta", None)  # an EtaBar's estimate: each cell's group (algorithm, size), work, write
    if eta is not None:
        eta.expect(cell_group(c) for c in todo)
    interrupted = died = False
    failure: BaseException | None = None
    writes: list[Future] = []
    if todo:
        if runner is None:
            submit, completed, shutdown, stop = _executor(executor, workers, dispatch or "sync")
        else:
            submit, completed, shutdown, stop = runner.submit, runner.completed, (lambda: None), runner.stop
        # one writer thread: the next cell computes while the last one's files are written
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aisched-sweep-writer")
        failed = threading.Event()  # set by a failed write: stop computing cells whose results cannot be kept
        try:
            futures = {submit(c): c for c in todo}
            for fut in completed(list(futures)):
                if failed.is_set():
                    break
                cell = futures[fut]
                row, outcome = fut.result()
                row = {**row, DIGEST_FIELD: mark}
                writes.append(writer.submit(lambda *a: 0.0 if failed.is_set() else _write_cell(*a),  # none after
                                            root, cell, row, outcome if outcomes else None))  # a failure
                writes[-1].add_done_callback(lambda w: w.exception() is None or failed.set())
                work += row["work_s"]
                shared += bool(row.get("same_as"))
                if eta is not None:  # a shared cell (experiments.sharing) cost nothing: no time to learn from
                    group = cell_group(cell)
                    if row.get("same_as"):
                        eta.shared(group)
                    else:
                        eta.finished(group, row["work_s"])
                    writes[-1].add_done_callback(  # the writes still to come are part of the time left
                        lambda w: w.exception() is None and eta.wrote(w.result()))
                bar.set_postfix_str(f"{cell.x} s{cell.seed} {cell.algorithm}", refresh=False)
                bar.update(1)
        except KeyboardInterrupt:  # Ctrl-C (or the CLI's SIGTERM): end the workers now, keep what finished
            seen()
            interrupted = True
            interrupted |= _to_the_end(stop)
        except BrokenProcessPool:  # a worker died: keep what finished, say so in one line
            died = True
            interrupted |= _to_the_end(stop)
        finally:  # writes first: with a Dask client alive, xarray writes under its distributed lock
            # each closing step runs to its end even when Ctrl-C comes meanwhile (then: interrupted)
            interrupted |= _to_the_end(lambda: writer.shutdown(wait=True))
            if (failed.is_set() and runner is None) or interrupted:
                interrupted |= _to_the_end(stop)  # the cells in flight cannot be kept (a shared pool runs on
            interrupted |= _to_the_end(shutdown)  # after a failed write; Ctrl-C stops it: the whole run stops)
        failure = next((w.exception() for w in writes if w.exception() is not None), None)
        write = sum(w.result() for w in writes if w.exception() is None)
    if own_bar:
        bar.close()
    wall = time.perf_counter() - tic
    loaded: list[pd.DataFrame] = []
    interrupted |= _to_the_end(lambda: loaded[:] or loaded.append(load_table(root)))
    table = loaded[0]
    try:
        interrupted |= _to_the_end(lambda: _atomic_write_text(root / "table.csv", table.to_csv(index=False)))
    except OSError:
        if failure is None:
            raise
    again = "run the same command again" if resume else "run the same command with --resume"
    if failure is not None:
        if not isinstance(failure, WriteFailed):
            raise failure
        raise InvalidScenarioError(
            "out", f"{failure}; {len(table)} of {len(todo_all)} cells are kept in {str(root)!r}; "
            f"fix that, then {again}") from None
    if died and not interrupted:
        raise InvalidScenarioError("executor", f"{WORKER_DIED}; {len(table)} of {len(todo_all)} cells are kept in "
                                   f"{str(root)!r}; {again} (--serial shows a worker's own error)")
    if interrupted:  # an EtaBar counts every scenario of its run (reproduce), else this sweep's cells
        kept = getattr(bar, "done", len(todo_all) - len(todo) + len(writes)) if not own_bar else len(table)
        raise Interrupted(kept, getattr(bar, "planned", None) or len(todo_all), again)
    timings = json.dumps({
        "scenario": scenario.name, "cells_total": len(todo_all), "cells_run": len(todo),
        "executor": executor, "workers": n_workers, "wall_s": wall, "work_s": work, "write_s": write,
        "worker_dispatch": dispatch, "cells_shared": shared, "cells_broken_recomputed": broken,
        "provenance": provenance(seeds=len({c.seed for c in todo_all})),
    }, indent=1)
    if _to_the_end(lambda: _atomic_write_text(root / "sweep.json", timings)):
        raise Interrupted(getattr(bar, "done", len(table)) if not own_bar else len(table),
                          getattr(bar, "planned", None) or len(todo_all), again)
    return table
