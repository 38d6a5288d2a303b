"""A process pool's workers: signals left to the parent, no worker outliving it, ended at once on any exit.

A sweep's local pool (:func:`aisched.experiments.run.sweep.open_runner`) spawns its workers with
:func:`_init_worker`: they ignore SIGINT and SIGTERM (the parent decides: it ends them and keeps what
finished), start with both blocked (:func:`_spawning`: no traceback from a worker still importing when
Ctrl-C comes), and end themselves within a quarter second of their parent's end, however it ended
(:func:`_watch_parent`). :func:`_stop_pool` ends a pool on any exit path: SIGKILL to each worker still
there, again until none is, never a join on one that may be blocked on a queue lock. On Dask,
:func:`_watched` says when the scheduler has no worker, and stops after :data:`DASK_NO_WORKER_S`.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from aisched._processes import kill_all
from aisched.errors import InvalidScenarioError

__all__ = ["DASK_NO_WORKER_S", "PARENT_POLL_S", "WORKER_DISPATCHES", "worker_dispatch"]


_WORKER = [False]  # whether this process is a pool worker (set by its initializer)

#: How a process-pool worker runs its JAX computations on the CPU: ``"sync"`` (default) on the calling
#: thread (``jax_cpu_enable_async_dispatch`` off), ``"async"`` handed to JAX's dispatch thread (JAX's own
#: default). Same compiled programs, same results; only the time differs. A worker runs one cell at a time
#: beside the other workers, so the hand-off per jitted call (pdFTSP's per-task kernel: one call a task) is
#: pure cost there: measured 2026-11-27 on a 2-core host, `lora/fig8-load` at 80 tasks a slot alone in its
#: process: pdFTSP 28.2 -> 19.9 s, `cell_prices` 9.9 -> 6.9 s; two processes at once (a full pool) about 4 %
#: (docs/readings/lora.md L2). The user's own process keeps JAX's default (the flag is process-wide).
#: ``AISCHED_WORKER_DISPATCH`` sets it; read when a pool opens and handed to its workers.
WORKER_DISPATCHES = ("sync", "async")


def worker_dispatch() -> str:
    """The dispatch a process pool opened now gives its workers (``AISCHED_WORKER_DISPATCH``, default "sync")."""
    value = os.environ.get("AISCHED_WORKER_DISPATCH", "sync")
    if value not in WORKER_DISPATCHES:
        raise InvalidScenarioError("AISCHED_WORKER_DISPATCH", f"= {value!r}: expected one of {WORKER_DISPATCHES}")
    return value


def _async_dispatch() -> bool:
    """Whether this process runs JAX's CPU computations on its dispatch thread (what a worker was given)."""
    import jax

    return bool(jax.config.values["jax_cpu_enable_async_dispatch"])


def _init_worker(dispatch: str, parent: int | None = None) -> None:
    """Worker initializer: signals are the parent's to handle, and the worker does not outlive its parent.

    SIGINT and SIGTERM are ignored: a terminal's Ctrl-C reaches the whole process group, ``timeout``,
    SLURM or systemd send SIGTERM; the parent decides, ends its workers and keeps what finished (the
    workers start with both blocked, :func:`_spawning`, so none prints a traceback while it imports).
    ``parent``: the parent's PID; a daemon thread ends this worker (``os._exit``) within a quarter
    second of the parent ending, however it ended (SIGKILL included), so no idle worker is left
    re-parented to PID 1, and with the workers gone multiprocessing's resource tracker ends too (it
    ends when the last holder of its pipe does). (``PR_SET_PDEATHSIG`` is not used: it fires when the
    parent's *thread* that started the worker ends, and ``reproduce`` starts workers from threads that
    end before the pool does.)

    ``dispatch`` (:func:`worker_dispatch`) is set before the worker's first JAX computation
    (JAX reads the flag when it makes its CPU client).
    """
    for number in _STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # ignored now: a pending one is dropped
    _WORKER[0] = True
    if parent is not None:
        threading.Thread(target=_watch_parent, args=(parent,), name="aisched-parent-watch", daemon=True).start()
    import jax

    jax.config.update("jax_cpu_enable_async_dispatch", dispatch == "async")
    from aisched import registry

    registry.load()  # the algorithms and the numerical stack (Pyomo makes a lock at import) ...
    _unlink_private_semaphores()  # ... whose semaphore a worker ended by Ctrl-C would leave behind


#: The signals a pool worker leaves to its parent (:func:`_init_worker`).
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}

#: How often a pool worker looks whether its parent is still there (seconds).
PARENT_POLL_S = 0.25


def _watch_parent(parent: int) -> None:
    """In a pool worker: end this process at once when ``parent`` is no longer its parent."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def _spawning(submit: Callable[[Any], Future]) -> Callable[[Any], Future]:
    """``submit`` with SIGINT and SIGTERM blocked in the calling thread while it runs.

    A process pool starts its workers inside ``submit``; a started process inherits the
    blocked signals, so a Ctrl-C while a worker is still importing (before its initializer
    ignores them) neither kills it with a traceback nor breaks the pool: the parent gets it
    as soon as ``submit`` returns. multiprocessing's resource tracker is started first: starting
    it unblocks both signals in the calling thread.
    """
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not on Unix
        return submit

    def blocked(cell: Any) -> Future:
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            return submit(cell)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    return blocked


def _unlink_private_semaphores() -> None:
    """In a pool worker: unlink the named semaphores this process created (e.g. Pyomo's lock at import).

    A spawned worker's ``multiprocessing`` locks are named semaphores that its exit
    unlinks; a worker ended by Ctrl-C never exits normally, and the resource tracker
    then warns of leaked semaphores. Nothing outside the worker uses them, so they
    are unlinked at once (as under ``fork``); each stays usable in the worker.
    """
    from multiprocessing import util
    from multiprocessing.synchronize import SemLock

    for finalizer in list(getattr(util, "_finalizer_registry", {}).values()):
        if getattr(finalizer, "_callback", None) is SemLock._cleanup:
            finalizer()  # SemLock._cleanup: sem_unlink and unregister from the tracker (runs once)


def _stop_pool(pool: ProcessPoolExecutor, grace: float = 0.0) -> None:
    """End a process pool: drop its queued cells and end its workers (its cells in flight are lost).

    The workers get ``grace`` seconds to leave by themselves (0: none, Ctrl-C), then every one still
    there gets SIGKILL, again until none is left. No worker is ever joined while it may be blocked: one
    killed while holding the pool's queue lock leaves the others blocked on it for good (they ignore
    SIGINT and SIGTERM, :func:`_init_worker`). Safe to call again, and from any exit path.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    try:
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace
        while grace and any(p.is_alive() for p in processes) and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        kill_all(processes)
    if manager is not None and manager is not threading.current_thread():
        # with its workers gone the pool's manager sees it broken at once and closes its queues
        # (else their semaphores outlive the run and multiprocessing's resource_tracker warns of leaks)
        manager.join(timeout=5.0)


#: Seconds a Dask run waits while its scheduler has no worker before it stops saying so (a cluster's workers
#: may join late: a SLURM job still queued).
DASK_NO_WORKER_S = 300.0


def _watched(completed: Callable[[list], Iterator], client: Any, address: str) -> Callable[[list], Iterator]:
    """Dask's ``as_completed`` that says when the scheduler has no worker, and stops after :data:`DASK_NO_WORKER_S`.

    Before, a run whose workers had all gone (or never came) waited silently for ever.
    """
    from tqdm import tqdm

    def workers() -> int:
        try:
            return len(client.scheduler_info(n_workers=-1)["workers"])
        except Exception:  # the scheduler itself gone: as none
            return 0

    def watch(futures: list) -> Iterator:
        pending = completed(futures)
        idle_since: float | None = None
        looked = 0.0
        while not pending.is_empty():
            if pending.has_ready():
                yield from pending.next_batch(block=False)
                continue
            now = time.monotonic()
            if now - looked >= 1.0:
                looked = now
                if workers():
                    idle_since = None
                elif idle_since is None:
                    idle_since = now
                    tqdm.write(f"aisched: the Dask scheduler at {address} has no worker; waiting for one (at most "
                               f"{DASK_NO_WORKER_S:.0f} s)", file=sys.stderr)
                elif now - idle_since > DASK_NO_WORKER_S:
                    raise InvalidScenarioError("dask", f"the scheduler at {address} has had no worker for "
                                               f"{DASK_NO_WORKER_S:.0f} s; start workers (dask worker {address}), "
                                               "then run the same command with --resume")
            time.sleep(0.02)

    return watch
