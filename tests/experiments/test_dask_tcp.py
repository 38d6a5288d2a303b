"""Sweeps on a real Dask cluster over TCP: a scheduler and two workers as separate processes.

They are started the way a cluster (or ``dask-jobqueue`` on SLURM) starts them:
``dask scheduler --port P`` and ``dask worker tcp://127.0.0.1:P --nworkers 1
--nthreads 1``, each in its own process group, killed at the end. The sweep
reaches them as ``executor="dask:tcp://127.0.0.1:P"`` (``aisched sweep --dask
tcp://127.0.0.1:P``). Shown: the same table as the process pool; a worker
SIGKILLed mid-sweep (nanny and worker process) loses no cell, since Dask
reschedules its cells on the other worker; a folder half done on Dask resumes
on the process pool, and the other way round.

A cluster that cannot start here fails the test with the reason (never a skip).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from aisched.experiments.run import sweep
from aisched.experiments.spec.catalog import Claim, Scenario

# about a minute on 2 busy cores: three interpreters importing the numerical stack, then the sweeps
pytestmark = pytest.mark.slow

STABLE = ["scenario", "point", "x", "seed", "algorithm", "objective", "status", "admitted", "reference",
          "reference_kind", "ratio"]

MINI = Scenario(  # as tests/experiments/test_sweep.py's: 2 points x 2 seeds x (3 online + offline) = 16 cells
    name="lora/test-mini", family="lora", title="mini", x="nodes", values=(1, 2),
    base={"slots": 10, "tasks": 5, "vendors": 1}, algorithms=("pdftsp", "eft", "ntm"), seeds=2,
    offline=True, time_limit=30.0, metric="ratio",
    claims=(Claim("improvement", "pdFTSP beats NTM at 2 nodes", "pdftsp", baseline="ntm", point="2", value=0.5),),
)
CELLS = 16  # at the scenario's 2 seeds
DASK = Path(sys.executable).with_name("dask")
START_TIMEOUT = 180.0  # s: a worker imports the numerical stack before it joins (slow on a loaded machine)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A Dask scheduler and named workers, each ``dask`` CLI process in its own process group."""

    def __init__(self, folder: Path) -> None:
        if not DASK.exists():
            pytest.fail(f"no Dask command line at {DASK}: install dask[distributed] (a declared dependency)")
        self.folder = folder
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.procs: dict[str, subprocess.Popen] = {}
        self._start("scheduler", [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
                                  "--no-dashboard"])

    def _start(self, name: str, argv: list[str]) -> None:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 (closed with the process)
        self.procs[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                            cwd=self.folder)
        log.close()

    def start_worker(self, name: str) -> None:
        self._start(name, [str(DASK), "worker", self.address, "--nworkers", "1", "--nthreads", "1", "--name", name,
                           "--no-dashboard", "--local-directory", str(self.folder / name)])

    def kill(self, name: str) -> None:
        """SIGKILL a process's whole group (a worker: its nanny and the worker process)."""
        proc = self.procs.pop(name)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"

    def wait_for_workers(self, n: int) -> None:
        from dask.distributed import Client

        deadline = time.monotonic() + START_TIMEOUT
        last: Exception | None = None
        while time.monotonic() < deadline:
            dead = [k for k, p in self.procs.items() if p.poll() is not None]
            if dead:
                pytest.fail(f"dask {dead[0]} exited with {self.procs[dead[0]].returncode}:\n{self.log(dead[0])}")
            try:
                with Client(self.address, timeout="10s", set_as_default=False) as client:
                    client.wait_for_workers(n, timeout=max(1.0, deadline - time.monotonic()))
                    return
            except (OSError, TimeoutError) as exc:
                last = exc
                time.sleep(0.5)
        pytest.fail(f"no Dask cluster of {n} worker(s) at {self.address} within {START_TIMEOUT:.0f} s ({last}):\n"
                    + "\n".join(f"--- {k}\n{self.log(k)}" for k in self.procs))

    # the probes' clients are never the process's default client: the sweep's own client is (a second one made
    # default and closed while a sweep writes breaks xarray's distributed write lock in the sweep's writer thread)

    def workers(self) -> dict[str, str]:
        """Worker name -> address, as the scheduler knows them."""
        from dask.distributed import Client

        with Client(self.address, timeout="10s", set_as_default=False) as client:
            return {str(w["name"]): a for a, w in client.scheduler_info(n_workers=-1)["workers"].items()}

    def processing(self) -> dict[str, list[str]]:
        """Worker address -> the keys of the tasks it is running (or holds to run)."""
        from dask.distributed import Client

        with Client(self.address, timeout="10s", set_as_default=False) as client:
            return {a: [str(k) for k in keys] for a, keys in client.processing().items()}

    def close(self) -> None:
        for name in [k for k in self.procs if k != "scheduler"] + ["scheduler"]:
            if name in self.procs:
                self.kill(name)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Cluster:
    c = Cluster(tmp_path_factory.mktemp("dask-cluster"))
    try:
        c.start_worker("w0")
        c.start_worker("w1")
        c.wait_for_workers(2)
        yield c
    finally:
        c.close()


@pytest.fixture(scope="module")
def pool_table(tmp_path_factory) -> pd.DataFrame:
    """MINI on the local process pool: the table the cluster must reproduce."""
    return sweep.sweep(MINI, tmp_path_factory.mktemp("pool"), executor="process", workers=2, progress=False)


def _stable(table: pd.DataFrame) -> pd.DataFrame:
    return table[STABLE].sort_values(["point", "seed", "algorithm"]).reset_index(drop=True)


def _record(out: Path) -> dict:
    return json.loads((sweep.folder(out, MINI) / "sweep.json").read_text())


def test_two_tcp_workers_give_the_process_pools_table(cluster: Cluster, pool_table: pd.DataFrame,
                                                      tmp_path: Path) -> None:
    table = sweep.sweep(MINI, tmp_path, executor=f"dask:{cluster.address}", progress=False)
    assert len(table) == CELLS
    pd.testing.assert_frame_equal(_stable(pool_table), _stable(table))
    assert _record(tmp_path)["executor"] == f"dask:{cluster.address}"


def test_resume_across_executors(cluster: Cluster, pool_table: pd.DataFrame, tmp_path: Path) -> None:
    """Half the cells (seed 0) on Dask, the rest on the process pool; and the other way round."""
    one = sweep.sweep(MINI, tmp_path / "a", executor=f"dask:{cluster.address}", progress=False, seeds=1)
    assert len(one) == CELLS // 2
    both = sweep.sweep(MINI, tmp_path / "a", executor="process", workers=2, progress=False, resume=True)
    assert _record(tmp_path / "a")["cells_run"] == CELLS // 2 and _record(tmp_path / "a")["executor"] == "process"
    pd.testing.assert_frame_equal(_stable(pool_table), _stable(both))

    sweep.sweep(MINI, tmp_path / "b", executor="process", workers=2, progress=False, seeds=1)
    back = sweep.sweep(MINI, tmp_path / "b", executor=f"dask:{cluster.address}", progress=False, resume=True)
    assert _record(tmp_path / "b")["cells_run"] == CELLS // 2
    pd.testing.assert_frame_equal(_stable(pool_table), _stable(back))


def test_a_worker_killed_mid_sweep_loses_no_cell(cluster: Cluster, pool_table: pd.DataFrame, tmp_path: Path) -> None:
    """SIGKILL a worker holding cells while the sweep runs: Dask reruns its cells on the other one.

    Twenty-four seeds (192 cells): on workers warm from the tests above the cells take milliseconds, and with
    six seeds (48 cells) the whole sweep once finished under load before the probe saw a busy worker; with
    sixteen, and the probe looking only from the first finished cell on, it did again on a host whose two cores
    ran other work (the sweep's writer thread shares this process's GIL with the probe). The probe now looks
    from the moment the sweep starts: any worker holding a cell is killed, finished cells or not.
    """
    from dask.distributed import Client

    seeds = 24
    result: dict[str, object] = {}

    def run() -> None:
        try:
            result["table"] = sweep.sweep(MINI, tmp_path, seeds=seeds, executor=f"dask:{cluster.address}",
                                          progress=False)
        except BaseException as exc:  # handed to the test thread
            result["error"] = exc

    cells_dir = sweep.folder(tmp_path, MINI) / "cells"
    names = cluster.workers()
    thread = threading.Thread(target=run, name="sweep-on-dask", daemon=True)
    victim, lost, done = "", [], 0
    try:
        with Client(cluster.address, timeout="10s", set_as_default=False) as probe:
            thread.start()
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and thread.is_alive():
                busy = probe.processing()
                running = [(n, [str(k) for k in busy.get(a, ())]) for n, a in names.items() if busy.get(a)]
                if running:
                    done = len(list(cells_dir.glob("*.json"))) if cells_dir.exists() else 0
                    victim, lost = running[-1]
                    cluster.kill(victim)
                    break
                time.sleep(0.005)
        if not victim:
            done = len(list(cells_dir.glob("*.json"))) if cells_dir.exists() else 0
        assert victim, f"no worker could be killed mid-sweep ({done} cells done, thread alive: {thread.is_alive()})"
        assert done < CELLS * seeds // 2, "the sweep was nearly over when the worker was killed"
        thread.join(timeout=300)
        assert not thread.is_alive(), "the sweep did not finish after a worker was killed"
        assert "error" not in result, f"the sweep failed after worker {victim} was killed: {result.get('error')!r}"
        table = result["table"]
        assert isinstance(table, pd.DataFrame)
        assert len(table) == CELLS * seeds // 2 and not table.duplicated(["point", "seed", "algorithm"]).any()
        pd.testing.assert_frame_equal(_stable(pool_table), _stable(table[table["seed"] < 2]))
        keys = {f"aisched-{MINI.name}-{p.stem}" for p in cells_dir.glob("*.json")}
        assert lost and set(lost) <= keys, f"the killed worker's cells {lost} are not all in the table"
        assert list(cluster.workers()) == [n for n in names if n != victim]  # its cells ran on the other one
        assert _record(tmp_path)["cells_run"] == CELLS * seeds // 2
    finally:
        if victim:  # a fresh worker under the same name, for any test that runs after this one
            cluster.start_worker(victim)
