"""Sweep wall time on a Dask cluster over TCP with 1 and with 2 workers, and the speed-up.

For each worker count a fresh cluster is started as separate processes, the way
a cluster is started by hand or by ``dask-jobqueue``::

    dask scheduler --host 127.0.0.1 --port P --no-dashboard
    dask worker tcp://127.0.0.1:P --nworkers 1 --nthreads 1 --no-dashboard     # once per worker

then each worker loads the algorithms (imports, outside the timing) and one
sweep runs on it through ``executor="dask:tcp://127.0.0.1:P"`` into a fresh
folder; the sweep's wall time is timed (``sweep.json``'s ``wall_s``). The cells
keep their own work (JAX compilations included): the speed-up is the one a
user sees, bounded by the free cores (measure on a quiet machine).

    python benchmarks/dask_tcp_speedup.py                       # a built-in mini lora scenario, 4 seeds
    python benchmarks/dask_tcp_speedup.py lora/fig5-vendors --reduced --seeds 2
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.experiments.spec.catalog import Scenario

DASK = Path(sys.executable).with_name("dask")

MINI = Scenario(  # tests/experiments/test_sweep.py's mini scenario, more seeds: 2 points x 4 algorithms a seed
    name="lora/bench-mini", family="lora", title="mini", x="nodes", values=(1, 2),
    base={"slots": 10, "tasks": 5, "vendors": 1}, algorithms=("pdftsp", "eft", "ntm"), seeds=4,
    offline=True, time_limit=30.0, metric="ratio",
)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _warm() -> None:  # on each worker, outside the timing: the imports a cell would otherwise pay for
    from aisched import registry

    registry.load()


def _timed(scenario: Scenario, workers: int, seeds: int | None, outcomes: bool) -> dict:
    """One sweep on a fresh TCP cluster of ``workers`` workers: its ``sweep.json`` (wall_s, work_s, ...)."""
    from dask.distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory(prefix="aisched-dask-bench-") as tmp:
        try:
            procs.append(subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                           "--no-dashboard"], cwd=tmp, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, start_new_session=True))
            for i in range(workers):
                procs.append(subprocess.Popen([str(DASK), "worker", address, "--nworkers", "1", "--nthreads", "1",
                                               "--no-dashboard", "--name", f"w{i}", "--local-directory",
                                               f"{tmp}/w{i}"], cwd=tmp, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL, start_new_session=True))
            deadline = time.monotonic() + 300
            while True:
                try:
                    with Client(address, timeout="10s", set_as_default=False) as client:
                        client.wait_for_workers(workers, timeout=max(1.0, deadline - time.monotonic()))
                        client.run(_warm)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"no Dask cluster at {address} within 300 s") from None
                    time.sleep(0.5)
            sweep.sweep(scenario, Path(tmp) / "out", seeds=seeds, executor=f"dask:{address}", progress=False,
                        outcomes=outcomes)
            return json.loads((sweep.folder(Path(tmp) / "out", scenario) / "sweep.json").read_text())
        finally:
            for proc in reversed(procs):
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=30)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario", nargs="?", default=None, help="a catalog scenario (default: a built-in mini one)")
    p.add_argument("--reduced", action="store_true", help="the scenario's small test-size form")
    p.add_argument("--seeds", type=int, default=None, help="seeds (default: the scenario's)")
    p.add_argument("--no-outcomes", action="store_true", help="rows only, no netCDF outcome per cell")
    args = p.parse_args()
    if not DASK.exists():
        raise SystemExit(f"no Dask command line at {DASK}: install dask[distributed]")
    scenario = MINI if args.scenario is None else catalog.get(args.scenario)
    if args.reduced:
        scenario = scenario.reduced()
    walls = {}
    print(f"{scenario.name}: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'workers':>7} {'cells':>6} {'work_s':>8} {'wall_s':>8}")
    for n in (1, 2):
        rec = _timed(scenario, n, args.seeds, not args.no_outcomes)
        walls[n] = rec["wall_s"]
        print(f"{n:>7} {rec['cells_run']:>6} {rec['work_s']:>8.1f} {rec['wall_s']:>8.1f}", flush=True)
    print(f"speed-up 1 -> 2 workers: {walls[1] / walls[2]:.2f}x (load average {os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    main()
