"""Faults outside a sweep's cells: limits, locks, writes of every command, cells the report reads, messages.

- one seeds limit for the command line, a TOML and Python (a TOML's ``seeds = 1000000000`` is refused
  at once, as ``--seeds`` is);
- two ``reproduce`` runs of one folder: the second is refused before any work (or waits, ``--wait``);
- ``report`` and ``compare`` name a folder they cannot write before any work, write every file through
  a temporary one, and a failure is one line; two ``compare`` runs in one folder: the second is refused;
- ``report`` reads the cells as ``--resume`` does (a copied cell, an ``Infinity``);
- messages that tell the truth and never echo a file.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from aisched import _files, _processes, cli
from aisched._files import FolderLock
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import report
from aisched.experiments.run import reproduce as runs
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.experiments.spec.validation import MAX_SEEDS
from aisched.experiments.store import stored

SPOT = ["spot/fig5-deadline"]  # millisecond cells
TOML = """
name = "lora/limits"
family = "lora"
x = "nodes"
values = [1]
algorithms = ["eft"]
seeds = {seeds}
[base]
slots = 10
tasks = 5
{extra}
"""


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _toml(tmp_path: Path, seeds: object = 1, extra: str = "") -> Path:
    path = tmp_path / "s.toml"
    path.write_text(TOML.format(seeds=seeds, extra=extra))
    return path


# --- 3. one limit -------------------------------------------------------------------------------------------


def test_a_toml_seeds_meets_the_limit_the_command_line_enforces(tmp_path, capsys) -> None:
    toml = _toml(tmp_path, 1_000_000_000)
    tic = time.perf_counter()
    assert cli.main(["sweep", str(toml), "--out", str(tmp_path / "out"), "--serial", "--no-progress"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert time.perf_counter() - tic < 10
    assert line.startswith("aisched: error: seeds: ") and f"limit MAX_SEEDS = {MAX_SEEDS}" in line, line
    assert not (tmp_path / "out" / "lora").exists()
    assert cli.main(["sweep", str(_toml(tmp_path)), "--seeds", str(MAX_SEEDS + 1), "--out", str(tmp_path)]) == 2
    assert f"--seeds: = {MAX_SEEDS + 1} is more than the limit MAX_SEEDS = {MAX_SEEDS}" in capsys.readouterr().err
    with pytest.raises(InvalidScenarioError, match="MAX_SEEDS"):  # Python: the same check
        sweep.cells(catalog.load(_toml(tmp_path)), seeds=MAX_SEEDS + 1)


def test_a_seeds_float_names_the_file_once(tmp_path, capsys) -> None:
    toml = _toml(tmp_path, 2.5)
    assert cli.main(["sweep", str(toml), "--out", str(tmp_path)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.count(str(toml)) == 1, line


# --- 4. two reproduce runs ----------------------------------------------------------------------------------


def test_a_second_reproduce_of_a_folder_is_refused_before_any_work_or_waits(tmp_path, monkeypatch) -> None:
    first = FolderLock(tmp_path, runs.LOCK_NAME)  # as a first run holds it for its whole length
    first.acquire({"reproduce": ["spot"]})
    try:
        ran: list[str] = []
        monkeypatch.setattr(sweep, "run_cell", lambda cell: ran.append(cell.key))
        with pytest.raises(InvalidScenarioError, match=r"is in use by another reproduce \(PID \d+\).*--wait"):
            runs.run(["spot"], tmp_path, reduced=True, names=SPOT, executor="serial", progress=False)
        assert ran == [] and not (tmp_path / "spot").exists()
    finally:
        threading.Timer(0.5, first.release).start()  # the first run ends: the waiting one goes on
    monkeypatch.undo()
    runs.run(["spot"], tmp_path, reduced=True, names=SPOT, executor="serial", progress=False, outcomes=False,
             wait=True)
    assert list((tmp_path / "spot").glob("*/table.csv"))


def test_an_interrupted_reproduce_says_run_the_same_command_again(tmp_path, monkeypatch) -> None:
    real = sweep.run_cell
    calls: list[str] = []

    def run_cell(cell):
        calls.append(cell.key)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(cell)

    monkeypatch.setattr(sweep, "run_cell", run_cell)
    with pytest.raises(sweep.Interrupted) as info:
        runs.run(["spot"], tmp_path, reduced=True, names=SPOT, executor="serial", progress=False, outcomes=False)
    assert "--resume" not in str(info.value) and str(info.value).endswith(runs.AGAIN), info.value
    assert info.value.kept == 2


# --- 5. writes outside a sweep ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("swept")
    runs.run(["spot"], out, reduced=True, names=SPOT, executor="serial", progress=False, outcomes=False)
    return out


def _refusing(monkeypatch, code: int, where: str | None = None) -> None:
    """Every temporary file (in ``where`` only, if given) refused with ``code`` (tests may run as root)."""
    real = _files.private_temp

    def private_temp(path, suffix=".tmp"):
        if where is None or where in str(path):
            raise OSError(code, os.strerror(code), str(path))
        return real(path, suffix)

    monkeypatch.setattr(_files, "private_temp", private_temp)


def test_report_on_a_folder_it_cannot_write_says_so_in_one_line_before_any_figure(swept, monkeypatch,
                                                                                  capsys) -> None:
    _refusing(monkeypatch, errno.EACCES)
    assert cli.main(["report", str(swept)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == (f"aisched: error: directory: cannot write the folder {str(swept)!r}: permission denied "
                    "(Permission denied)")


@pytest.mark.parametrize("code", [errno.EFBIG, errno.ENOSPC])
def test_report_meeting_a_file_size_limit_or_a_full_disk_says_so_in_one_line(swept, monkeypatch, capsys,
                                                                             code) -> None:
    real = _files.atomic_write_text

    def write(path, text):
        if Path(path).name == "report.md":
            raise OSError(code, os.strerror(code), str(path))
        return real(path, text)

    monkeypatch.setattr(report, "atomic_write_text", write)
    assert cli.main(["report", str(swept), "--no-figures"]) == 2
    line = _one_line(capsys.readouterr().err)
    cause = "the disk is full" if code == errno.ENOSPC else "the file is larger than the file size limit"
    assert line.startswith(f"aisched: error: {str(swept / 'report.md')!r}: {cause}"), line


COMPARE = ["compare", "lora", "--slots", "8", "--nodes", "1", "--tasks", "4", "--algorithms", "eft",
           "--no-offline", "--no-figures"]


def test_compare_names_an_out_it_cannot_write_before_running_anything(tmp_path, monkeypatch, capsys) -> None:
    ran: list[str] = []
    import aisched

    monkeypatch.setattr(aisched, "compare", lambda *a, **k: ran.append("compare"))
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert cli.main([*COMPARE, "--out", str(blocker)]) == 2
    assert _one_line(capsys.readouterr().err).startswith("aisched: error: --out: = ")
    assert cli.main([*COMPARE, "--out", "/proc/aisched-no"]) == 2
    assert _one_line(capsys.readouterr().err).startswith("aisched: error: --out: = '/proc/aisched-no' cannot be")
    _refusing(monkeypatch, errno.EROFS)
    assert cli.main([*COMPARE, "--out", str(tmp_path / "ro")]) == 2
    assert "the file system is read-only" in _one_line(capsys.readouterr().err)
    assert ran == []


def test_compare_writes_no_truncated_file_and_says_why_in_one_line(tmp_path, monkeypatch, capsys) -> None:
    import xarray as xr

    real = xr.Dataset.to_netcdf

    def to_netcdf(self, path=None, *args, **kwargs):  # as under ulimit -f: part written, then the error
        Path(path).write_bytes(b"CDF\x01 half")
        raise RuntimeError("NetCDF: HDF error")

    monkeypatch.setattr(xr.Dataset, "to_netcdf", to_netcdf)
    monkeypatch.setattr(_files, "fsize_limit", lambda: " (ulimit -f: 10240 bytes)")
    assert cli.main([*COMPARE, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    line = err.strip().splitlines()[-1]
    assert "Traceback" not in err
    assert line.startswith(f"aisched: error: cannot write {str(tmp_path / 'lora_instance.nc')!r}: the file size "
                           "limit (ulimit -f: 10240 bytes) was likely reached"), line
    assert not (tmp_path / "lora_instance.nc").exists() and not list(tmp_path.glob(".*.tmp"))
    monkeypatch.setattr(xr.Dataset, "to_netcdf", real)


def test_a_second_compare_in_a_folder_is_refused_naming_the_first(tmp_path, capsys) -> None:
    from aisched import cli_compare

    first = FolderLock(tmp_path, cli_compare.LOCK_NAME)
    first.acquire({"compare": "lora"})
    try:
        assert cli.main([*COMPARE, "--out", str(tmp_path)]) == 2
    finally:
        first.release()
    line = _one_line(capsys.readouterr().err)
    assert "is in use by another compare (PID" in line and "--wait" not in line, line
    assert cli.main([*COMPARE, "--out", str(tmp_path)]) == 0


# --- 6. report reads cells as --resume does -----------------------------------------------------------------


@pytest.mark.parametrize("fault", ["copied", "infinity"])
def test_report_refuses_the_cells_resume_sets_aside(tmp_path, swept, capsys, fault) -> None:
    out = tmp_path / "out"
    shutil.copytree(swept, out)
    root = next(p.parent for p in out.glob("spot/*/scenario.json"))
    files = sorted((root / "cells").glob("*.json"))
    if fault == "copied":  # a cell copied under another seed's name: it would be averaged in ("± 0")
        bad = files[0].with_name(files[0].name.replace("-s000-", "-s001-"))
        shutil.copy(files[0], bad)
        why = f"holds the row of cell {files[0].stem!r}, not of {bad.stem!r}"
    else:
        bad = files[1]
        bad.write_text(bad.read_text().replace('"objective": ', '"objective": Infinity, "x_": ', 1))
        why = "field 'objective' = inf is not a finite number"
    assert stored.cell_problem(bad) == (None, why)
    assert cli.main(["report", str(out), "--no-figures"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"aisched: error: cells: {str(bad)!r} {why}"), line
    scenario = catalog.get(json.loads((root / "scenario.json").read_text())["name"]).reduced()
    assert bad.stem not in sweep.finished_cells(scenario, root)  # the same verdict as --resume's


# --- 7. messages --------------------------------------------------------------------------------------------


def test_a_trace_error_never_echoes_the_file_and_a_device_is_named_as_one(tmp_path, capsys) -> None:
    secret = tmp_path / "environ"
    secret.write_bytes(b"AISCHED_SECRET=hunter2\x00HOME=/root\x00")
    for trace, says in ((secret, "has no timestamp"), ("/dev/zero", "is not a regular file"),
                        (tmp_path / "none.csv", "does not exist")):
        toml = _toml(tmp_path, 1, f'trace = "{trace}"').read_text().replace("tasks = 5\n", "")
        (tmp_path / "t.toml").write_text(toml)
        out = tmp_path / "out"
        assert cli.main(["sweep", str(tmp_path / "t.toml"), "--out", str(out), "--serial"]) == 2
        line = _one_line(capsys.readouterr().err)
        assert says in line and "hunter2" not in line and "HOME" not in line, line
        assert not out.exists()  # checked with the scenario, before its folder is made


def test_a_relative_plugin_name_is_one_line_not_a_type_error(tmp_path, capsys) -> None:
    assert cli.main(["sweep", "x", "--plugin", ".foo"]) == 2
    assert "is a relative module name" in _one_line(capsys.readouterr().err)
    toml = _toml(tmp_path, 1, "").read_text().replace('seeds = 1', 'seeds = 1\nplugins = [".x"]')
    (tmp_path / "p.toml").write_text(toml)
    assert cli.main(["sweep", str(tmp_path / "p.toml"), "--out", str(tmp_path)]) == 2
    assert "plugins[0]: = '.x' is a relative module name" in _one_line(capsys.readouterr().err)


def test_a_valid_scenario_json_with_an_unknown_key_is_not_called_invalid_json(tmp_path, capsys) -> None:
    toml = _toml(tmp_path)
    out = tmp_path / "out"
    assert cli.main(["sweep", str(toml), "--out", str(out), "--serial", "--no-progress"]) == 0
    capsys.readouterr()
    record = next(out.glob("lora/*/scenario.json"))
    data = json.loads(record.read_text())
    data["surprise"] = 1
    data["values"] = [2]  # a different computation: the folder's record is read, not just compared
    record.write_text(json.dumps(data))
    assert cli.main(["sweep", str(toml), "--out", str(out), "--serial", "--no-progress", "--resume"]) in (0, 2)
    err = capsys.readouterr().err
    assert "not valid JSON" not in err, err


# --- 9. a newcomer's plug-in --------------------------------------------------------------------------------


PLUGIN = """
import dataclasses

import aisched
from aisched.registry import register


@register("lora", "{name}")
def mine(instance):
    return dataclasses.replace(aisched.run("eft", instance), algorithm="{name}")
"""


def _console(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """As the ``aisched`` console script runs: the current folder is not on ``sys.path`` (``-P``)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-P", "-c", "import sys; from aisched.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd, env=env)


def test_a_plugin_module_in_the_current_folder_or_beside_the_toml_is_found(tmp_path) -> None:
    """No PYTHONPATH=. needed: --plugin finds my_module.py in the current folder, a TOML's plugins beside it."""
    (tmp_path / "newcomer_here.py").write_text(PLUGIN.format(name="mine_here"))
    done = _console(["compare", "lora", "--nodes", "1", "--slots", "8", "--tasks", "4", "--no-offline",
                     "--no-figures", "--algorithms", "eft,mine_here", "--plugin", "newcomer_here",
                     "--out", str(tmp_path / "cmp")], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    beside = tmp_path / "project"
    beside.mkdir()
    (beside / "newcomer_beside.py").write_text(PLUGIN.format(name="mine_beside"))
    (beside / "mine.toml").write_text(TOML.format(seeds=1, extra="").replace(
        'algorithms = ["eft"]', 'algorithms = ["mine_beside"]\nplugins = ["newcomer_beside"]'))
    done = _console(["sweep", str(beside / "mine.toml"), "--workers", "1", "--no-progress", "--no-outcomes",
                     "--out", str(tmp_path / "out")], cwd=tmp_path)  # the pool worker finds it too
    assert done.returncode == 0, done.stderr
    assert list(pd.read_csv(tmp_path / "out" / "lora" / "limits" / "table.csv")["algorithm"]) == ["mine_beside"]


# --- 1. a stop signal is never lost -------------------------------------------------------------------------


def test_a_stop_signal_raised_where_python_ignores_it_is_sent_again(capsys) -> None:
    """JAX's garbage-collector callback met the first SIGTERM ("Exception ignored in"): the run went on."""
    previous = _processes.catch_stop_signals()
    try:
        class Finalised:
            def __del__(self) -> None:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.2)  # the handler runs here, inside __del__: its KeyboardInterrupt is ignored

        with pytest.raises(KeyboardInterrupt):
            Finalised()
            gc.collect()
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                time.sleep(0.01)
        _processes.seen()
        assert _processes.stopped_by() == signal.SIGTERM
    finally:
        _processes.restore_signals(previous)
    assert "Traceback" not in capsys.readouterr().err


# --- 8. Dask without a worker -------------------------------------------------------------------------------


def test_a_dask_scheduler_without_workers_is_said_and_the_run_stops(tmp_path, monkeypatch, capsys) -> None:
    """Before, the client waited silently for ever."""
    from dask.distributed import LocalCluster

    from aisched.experiments.run import workers

    monkeypatch.setattr(workers, "DASK_NO_WORKER_S", 1.5)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as empty:
        scenario = catalog.load(_toml(tmp_path))
        with pytest.raises(InvalidScenarioError, match=r"has had no worker for 2 s; start workers") as info:
            sweep.sweep(scenario, tmp_path / "out", executor=f"dask:{empty.scheduler_address}", progress=False)
    assert info.value.field == "dask"
    assert "has no worker; waiting for one (at most 2 s)" in capsys.readouterr().err
