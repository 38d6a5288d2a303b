"""Faults a user meets during a sweep: one clear line each, and no finished cell lost.

- a folder that cannot be written is refused before any cell runs;
- a write that fails (full disk, file size limit) stops the sweep at once, keeps every cell
  written before it and names the file and the cause; ``--resume`` computes only the rest;
- a broken cell file (truncated, hand-edited, a truncated outcome) is named by ``report`` and
  set aside and recomputed by ``--resume``, which says how many;
- two sweeps of one folder: the second is refused naming the first one's PID (or waits), the
  lock dies with its holder (SIGKILL included), and a report taken meanwhile says "partial".
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from aisched import _files, cli
from aisched._files import HOLDER_FILE, FolderLock, folder_holder
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import report
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.experiments.store import stored

NAME = "tenants/fig4a-jobs-linear"
SMALL = catalog.get(NAME).reduced()  # 20 cells of about 0.1 s each
CELLS = 20
STABLE = ["scenario", "point", "x", "seed", "algorithm", "objective", "status", "admitted"]


def _argv(out: Path, *more: str) -> list[str]:
    return ["sweep", NAME, "--reduced", "--serial", "--no-progress", "--out", str(out), *more]


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _cell_files(out: Path) -> list[str]:
    return sorted(p.stem for p in (sweep.folder(out, SMALL) / "cells").glob("*.json"))


def _stable(table: pd.DataFrame) -> pd.DataFrame:
    return table[STABLE].sort_values(["point", "seed", "algorithm"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> pd.DataFrame:
    """SMALL swept without a fault: what every faulted run must end with after --resume."""
    return sweep.sweep(SMALL, tmp_path_factory.mktemp("clean"), executor="serial", progress=False)


def _counting(monkeypatch) -> list[str]:
    """Record the cells that run (in this process: the serial executor)."""
    ran: list[str] = []
    real = sweep.run_cell

    def run_cell(cell):
        ran.append(cell.key)
        return real(cell)

    monkeypatch.setattr(sweep, "run_cell", run_cell)
    return ran


# --- writes ---------------------------------------------------------------------------------------------------


def test_an_out_that_cannot_be_a_folder_is_refused_before_any_cell_runs(tmp_path, monkeypatch, capsys) -> None:
    ran = _counting(monkeypatch)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(InvalidScenarioError, match="out: cannot write the folder .*a-file.*Not a directory"):
        sweep.sweep(SMALL, blocker / "results", executor="serial", progress=False)
    assert cli.main(_argv(blocker / "results")) == 2
    assert _one_line(capsys.readouterr().err).startswith("aisched: error: --out: = ")
    assert ran == []


def test_a_folder_that_refuses_files_is_named_before_any_cell_runs(tmp_path, monkeypatch, capsys) -> None:
    """``cells/`` unwritable (before: 10 cells ran, then a PermissionError traceback, nothing kept)."""
    ran = _counting(monkeypatch)
    real = _files.private_temp

    def private_temp(path, suffix=".tmp"):  # as chmod 0555 would (tests may run as root, where chmod does not)
        if path.parent.name == "cells":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, suffix)

    monkeypatch.setattr(_files, "private_temp", private_temp)
    assert cli.main(_argv(tmp_path)) == 2
    line = _one_line(capsys.readouterr().err)
    cells = sweep.folder(tmp_path, SMALL) / "cells"
    assert line == f"aisched: error: out: cannot write the folder {str(cells)!r}: permission denied (Permission denied)"
    assert ran == []


def test_a_full_disk_stops_the_sweep_keeps_the_written_cells_and_resume_does_the_rest(
        tmp_path, monkeypatch, capsys, clean) -> None:
    """The 3rd cell's row meets a full disk: the sweep stops there, one line, 2 cells kept; resume runs 18."""
    ran = _counting(monkeypatch)
    real = sweep._atomic_write_text
    rows: list[Path] = []

    def write(path, text):
        if path.parent.name == "cells":
            rows.append(path)
            if len(rows) >= 3:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, text)

    monkeypatch.setattr(sweep, "_atomic_write_text", write)
    assert cli.main(_argv(tmp_path)) == 2
    line = _one_line(capsys.readouterr().err)
    root = sweep.folder(tmp_path, SMALL)
    assert line == (f"aisched: error: out: cannot write {str(rows[2])!r}: the disk is full (No space left on "
                    f"device); 2 of {CELLS} cells are kept in {str(root)!r}; fix that, then run the same "
                    "command with --resume")
    assert _cell_files(tmp_path) == sorted(p.stem for p in rows[:2])
    # stopped at the failure: the writer runs behind the cells, so a cell or two more may have run, not 20
    assert len(ran) <= 6 and len(rows) <= len(ran)
    assert not list(root.glob("**/.*.tmp")) and not (root / "sweep.json").exists()
    assert pd.read_csv(root / "table.csv").shape[0] == 2
    assert folder_holder(root) is None  # the lock went with the failed run

    monkeypatch.setattr(sweep, "_atomic_write_text", real)
    ran.clear()
    assert cli.main([*_argv(tmp_path), "--resume"]) == 0
    assert len(ran) == CELLS - 2 and json.loads((root / "sweep.json").read_text())["cells_run"] == CELLS - 2
    pd.testing.assert_frame_equal(_stable(sweep.load_table(root)), _stable(clean))


def test_a_netcdf_error_names_the_outcome_file_and_its_likely_cause(tmp_path, monkeypatch) -> None:
    """netCDF says only "HDF error" (before: no file named, cells lost): the file and the cause are named."""
    from aisched.outcome import Outcome

    real = Outcome.to_netcdf
    calls: list[Path] = []

    def to_netcdf(self, path):
        calls.append(Path(path))
        if len(calls) == 2:
            raise RuntimeError("NetCDF: HDF error")
        return real(self, path)

    monkeypatch.setattr(Outcome, "to_netcdf", to_netcdf)
    monkeypatch.setattr(_files, "fsize_limit", lambda: " (ulimit -f: 102400 bytes)")
    with pytest.raises(InvalidScenarioError) as info:
        sweep.sweep(SMALL, tmp_path, executor="serial", progress=False)
    assert str(info.value).startswith(
        f"out: cannot write {str(calls[1])!r}: the file size limit (ulimit -f: 102400 bytes) was likely reached "
        f"(netCDF: NetCDF: HDF error); 1 of {CELLS} cells are kept")
    assert _cell_files(tmp_path) == [calls[0].stem]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE as on Linux")
def test_a_real_file_size_limit_gives_one_line_and_keeps_the_cells_written(tmp_path) -> None:
    """``ulimit -f 100`` (before: ``RuntimeError: NetCDF: HDF error``, no file named, cells lost)."""
    limited = ("import os, resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (100 * 1024, "
               "resource.RLIM_INFINITY)); os.execv(sys.executable, [sys.executable, '-m', 'aisched.cli', *sys.argv[1:]])")
    proc = subprocess.run([sys.executable, "-c", limited, *_argv(tmp_path)], capture_output=True, text=True,
                          timeout=300)  # as `ulimit -f 100` in a shell
    line = _one_line(proc.stderr)
    assert proc.returncode == 2
    assert line.startswith("aisched: error: out: cannot write ") and ".nc'" in line, line
    assert "file size limit (ulimit -f: 102400 bytes)" in line and "cells are kept in" in line
    kept = int(line.split("; ")[-2].split(" of ")[0])
    assert kept == len(_cell_files(tmp_path)) < CELLS


# --- broken cell files ------------------------------------------------------------------------------------------


def test_broken_cell_files_are_named_by_report_and_recomputed_by_resume(tmp_path, monkeypatch, capsys,
                                                                        clean) -> None:
    sweep.sweep(SMALL, tmp_path, executor="serial", progress=False)
    root = sweep.folder(tmp_path, SMALL)
    files = sorted((root / "cells").glob("*.json"))
    truncated, edited, retyped, renamed, bad_nc = files[0], files[3], files[6], files[9], files[12]
    truncated.write_text(truncated.read_text()[:40])  # a killed editor, a full disk of another tool
    row = json.loads(edited.read_text())
    del row["objective"]
    edited.write_text(json.dumps(row))
    row = json.loads(retyped.read_text())
    row["point"] = "zero"
    retyped.write_text(json.dumps(row))
    os.replace(renamed, renamed.with_name("p009-s000-astraea.json"))  # a row under another cell's name
    renamed = renamed.with_name("p009-s000-astraea.json")
    nc = root / "outcomes" / f"{bad_nc.stem}.nc"
    nc.write_bytes(nc.read_bytes()[:1000])
    assert sorted(sweep.finished_cells(SMALL, root)) == sorted(
        p.stem for p in files if p not in (truncated, edited, retyped, files[9], bad_nc))

    assert cli.main(["report", str(tmp_path), "--no-figures"]) == 2  # the first broken file, by name
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"aisched: error: cells: {str(truncated)!r} is not valid JSON (")
    assert line.endswith("; run the sweep again with --resume to recompute it (or delete the file)")
    assert stored.read_row(edited) == (None, "lacks the field(s) 'objective'")
    assert stored.read_row(retyped) == (None, "field 'point' = 'zero' is not int")

    ran = _counting(monkeypatch)
    assert cli.main([*_argv(tmp_path), "--resume"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        f"aisched: {NAME}: 5 broken cell file(s) recomputed, kept beside as *.broken ({truncated.name} is not "
        "valid JSON (") and err[0].endswith(") and 4 more)"), err
    assert sorted(ran) == sorted([files[0].stem, edited.stem, retyped.stem, files[9].stem, bad_nc.stem])
    record = json.loads((root / "sweep.json").read_text())
    assert record["cells_run"] == 5 and record["cells_broken_recomputed"] == 5
    aside = [truncated, edited, retyped, renamed, bad_nc]  # each with its outcome file, where it has one
    assert sorted(p.name for p in root.glob("**/*.broken")) == sorted(
        [f"{p.name}.broken" for p in aside] + [f"{p.stem}.nc.broken" for p in aside if p is not renamed])
    pd.testing.assert_frame_equal(_stable(sweep.load_table(root)), _stable(clean))
    assert cli.main(["report", str(tmp_path), "--no-figures"]) == 0
    assert cli.main([*_argv(tmp_path), "--resume"]) == 0  # nothing broken: nothing said, nothing run
    assert capsys.readouterr().err == "" and len(ran) == 5


# --- one sweep per folder ---------------------------------------------------------------------------------------


def test_a_second_sweep_of_a_locked_folder_is_refused_naming_the_pid_and_a_report_says_partial(
        tmp_path, monkeypatch, capsys) -> None:
    assert cli.main([*_argv(tmp_path), "--seeds", "1"]) == 0
    root = sweep.folder(tmp_path, SMALL)
    for path in sorted((root / "cells").glob("*.json"))[5:]:
        path.unlink()
    held = FolderLock(root)  # what a running sweep holds (same helper): here, by this process
    held.acquire({"scenario": NAME, "cells_total": CELLS})
    try:
        ran = _counting(monkeypatch)
        tic = time.monotonic()
        assert cli.main([*_argv(tmp_path), "--resume"]) == 2
        assert time.monotonic() - tic < 10
        line = _one_line(capsys.readouterr().err)
        assert line == (f"aisched: error: out: {str(root)!r} is in use by another sweep (PID {os.getpid()}); run "
                        "this one when it ends, or add --wait (in Python: wait=True) to wait for it")
        assert ran == []
        page = report.report(tmp_path, figures=False).read_text().splitlines()
        assert page[2] == (f"partial: 5 of {CELLS} cells of {NAME} (a sweep, PID {os.getpid()}, is still writing "
                           "it); take the report again when it ends.")
        assert (root / HOLDER_FILE).is_file()
    finally:
        held.release()
    assert not (root / HOLDER_FILE).exists() and folder_holder(root) is None
    assert "partial" not in report.report(tmp_path, figures=False).read_text()
    assert cli.main([*_argv(tmp_path), "--resume"]) == 0 and len(ran) == CELLS - 5


HOLDER = textwrap.dedent("""
    import sys, time
    from aisched._files import FolderLock
    lock = FolderLock(sys.argv[1])  # kept: a lock object that is collected releases its lock
    lock.acquire({"scenario": "x", "cells_total": 20})
    print("locked", flush=True)
    time.sleep(600)
""")


def test_the_lock_dies_with_its_holder_on_sigkill_and_wait_then_goes_on(tmp_path, capsys) -> None:
    root = sweep.folder(tmp_path, SMALL)
    root.mkdir(parents=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(root)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(InvalidScenarioError, match=f"in use by another sweep \\(PID {holder.pid}\\)"):
            sweep.sweep(SMALL, tmp_path, executor="serial", progress=False)
        assert folder_holder(root)["pid"] == holder.pid
        killer = threading.Timer(1.5, holder.send_signal, (signal.SIGKILL,))
        killer.start()
        tic = time.monotonic()
        table = sweep.sweep(SMALL, tmp_path, executor="serial", progress=False, wait=True)
        assert time.monotonic() - tic >= 1.4 and len(table) == CELLS  # it waited for the holder, then ran
        killer.join()
    finally:
        holder.kill()
        holder.wait(timeout=30)
    err = capsys.readouterr().err
    assert f"aisched: waiting for the sweep of PID {holder.pid} in {root} to end" in err
    assert folder_holder(root) is None


def test_a_running_aisched_sweep_refuses_a_second_and_frees_its_folder_when_killed(tmp_path, capsys) -> None:
    """Two ``aisched sweep --resume`` on one folder (before: both computed every cell, no warning)."""
    proc = subprocess.Popen(  # 1000 cells: runs until killed
        [sys.executable, "-m", "aisched.cli", *_argv(tmp_path), "--seeds", "50"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    cells = sweep.folder(tmp_path, SMALL) / "cells"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not list(cells.glob("*.json")) and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, "the first sweep ended early"
        assert cli.main([*_argv(tmp_path), "--seeds", "50", "--resume"]) == 2
        assert f"in use by another sweep (PID {proc.pid})" in _one_line(capsys.readouterr().err)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    kept = len(list(cells.glob("p*-s000-*.json")))  # of seed 0, the default's one seed
    assert cli.main([*_argv(tmp_path), "--resume"]) == 0  # the kernel released the lock with its holder
    assert json.loads((cells.parent / "sweep.json").read_text())["cells_run"] == CELLS - kept
