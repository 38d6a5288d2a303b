"""Signals at any moment of a sweep: SIGINT, SIGTERM and SIGKILL, and no process outlives the run.

Each case starts ``aisched sweep`` (two pool workers) in a session of its own, sends a signal at
a moment of the run (while the workers start, after some cells, right after the last cell while
the table is written) and checks: the exit within a few seconds, with 130 (SIGINT) or 143
(SIGTERM) and one line saying how many cells are kept, those cells on disk and in ``table.csv``,
no traceback, and no process of the run's session left a few seconds later (the pool workers and
multiprocessing's resource tracker included). The default tier sends a handful; ``-m slow`` many.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.experiments.test_sweep import MINI_TOML

CELLS = 16
#: Seconds a signalled sweep may take to exit (about one on a quiet machine; slack for a loaded one).
EXIT_S = 10.0
#: Seconds the run's other processes may take to go after it exits (workers poll every 0.25 s).
ORPHAN_S = 5.0


def _session(sid: int) -> list[tuple[int, str]]:
    """The live processes of session ``sid`` (pid, command name), zombies left out."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid:  # state, ppid, pgrp, session
            found.append((int(entry.name), name))
    return found


def _no_process_left(sid: int) -> None:
    deadline = time.monotonic() + ORPHAN_S
    while _session(sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _session(sid)
    for pid, _ in left:  # do not leave them to the next test either
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    assert left == [], f"processes outlived the run: {left}"


def _start(tmp_path: Path) -> tuple[subprocess.Popen, Path, Path]:
    toml = tmp_path / "mini.toml"
    toml.write_text(MINI_TOML)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "aisched.cli", "sweep", str(toml), "--out", str(out), "--workers", "2",
         "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal's foreground job
    )
    return proc, out / "lora" / "test-mini", toml


def _wait_for(proc: subprocess.Popen, cells: Path, moment: float | int) -> None:
    """Until ``moment``: an int is that many finished cells, a float that many seconds after the start."""
    deadline = time.monotonic() + 180
    if isinstance(moment, float):
        time.sleep(moment)
        return
    while time.monotonic() < deadline and proc.poll() is None and len(list(cells.glob("cells/*.json"))) < moment:
        time.sleep(0.005)


def _signalled(tmp_path: Path, number: int, moment: float | int, *, group: bool) -> None:
    proc, root, _ = _start(tmp_path)
    try:
        _wait_for(proc, root, moment)
        tic = time.monotonic()
        if group:  # a terminal's Ctrl-C reaches the whole process group, workers included
            os.killpg(proc.pid, number)
        else:  # timeout, SLURM, systemd, `kill PID`: the parent only
            os.kill(proc.pid, number)
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - tic
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    kept = len(list(root.glob("cells/*.json")))
    assert "Traceback" not in err, err
    if proc.returncode == 0:  # the signal came after the run had ended
        assert kept == CELLS
    else:
        word, code = ("interrupted", 130) if number == signal.SIGINT else ("terminated (SIGTERM)", 143)
        assert proc.returncode == code, err
        last = err.strip().splitlines()[-1]
        if (root / "table.csv").exists():
            assert last == f"aisched: {word}: {kept} of {CELLS} cells kept; run the same command with --resume", err
            assert len(pd.read_csv(root / "table.csv")) == kept
        else:  # before the sweep took its folder (the command was still starting)
            assert last in (f"aisched: {word}", f"aisched: {word}: 0 of {CELLS} cells kept; "
                                                "run the same command with --resume"), err
            assert kept == 0
        assert not list(root.glob("**/.*.tmp")), "a half-written file was left"
        assert took < EXIT_S, f"{took:.1f} s"
    _no_process_left(proc.pid)


@pytest.mark.parametrize(("number", "moment", "group"), [
    (signal.SIGTERM, 3, False),  # mid-run, to the parent only (kill PID)
    (signal.SIGINT, CELLS, True),  # the last cell written: the pool ends, the table is being written
])
def test_a_signal_stops_the_sweep_in_one_line_and_leaves_no_process(tmp_path: Path, number: int,
                                                                     moment: float | int, group: bool) -> None:
    _signalled(tmp_path, number, moment, group=group)


@pytest.mark.slow
@pytest.mark.parametrize("group", [True, False], ids=["group", "parent"])
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
@pytest.mark.parametrize("moment", [0.3, 1.5, 3.0, 1, 2, 5, 9, 13, 15, CELLS])
def test_signals_at_many_moments(tmp_path: Path, number: int, moment: float | int, group: bool) -> None:
    _signalled(tmp_path, number, moment, group=group)


def test_sigkill_of_the_sweep_leaves_no_worker_behind(tmp_path: Path) -> None:
    """SIGKILL of the parent alone: its pool workers see it gone and end, and the resource tracker with them."""
    proc, root, _ = _start(tmp_path)
    try:
        _wait_for(proc, root, 2)
        assert proc.poll() is None, "the sweep finished before it could be killed"
        assert len(_session(proc.pid)) >= 3  # the parent, its workers, the resource tracker
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    _no_process_left(proc.pid)
