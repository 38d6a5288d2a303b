"""Faults of a sweep folder's definition and of a killed report.

- only what decides a cell's computation guards ``--resume``: a change of text (title, claims)
  resumes, keeps every cell and the report shows the new text; a change of computation is refused
  before any cell runs, naming the key (``base.users``) and both values;
- a folder without a finished cell (its first run failed at generation) takes a corrected definition;
- a truncated ``scenario.json`` is one line for ``report`` and is rebuilt by ``--resume`` from cells
  that recorded their definition, else refused in one line naming it;
- a report killed while drawing keeps the previous figures and page whole, and leaves no 0-byte file.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from aisched import cli
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import report
from aisched.experiments.run import sweep
from aisched.experiments.spec.scenario import load
from aisched.experiments.store import stored, sweep_state

NAME = "tenants/mini-faults"
CELLS = 4  # 2 points x 1 seed x 2 algorithms, about 0.3 s each


def _toml(path: Path, *, servers: int = 2, users: int = 2, title: str = "mini: revenue vs jobs",
          claim: str = "Astraea beats BatchSche") -> Path:
    """A 2-value TOML of ``tenants`` (the kind of scenario a user writes)."""
    path.write_text(textwrap.dedent(f"""
        name = "{NAME}"
        family = "tenants"
        title = "{title}"
        x = "jobs"
        values = [10, 20]
        algorithms = ["astraea", "batchsche"]
        seeds = 1
        time_limit = 20.0

        [base]
        users = {users}
        servers = {servers}
        slot_hours = 1.0
        utility = "linear"

        [[claims]]
        kind = "better_than"
        text = "{claim}"
        algorithm = "astraea"
        baseline = "batchsche"
    """), encoding="utf-8")
    return path


def _argv(toml: Path, out: Path, *more: str) -> list[str]:
    return ["sweep", str(toml), "--serial", "--no-progress", "--out", str(out), *more]


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _counting(monkeypatch) -> list[str]:
    ran: list[str] = []
    real = sweep.run_cell

    def run_cell(cell):
        ran.append(cell.key)
        return real(cell)

    monkeypatch.setattr(sweep, "run_cell", run_cell)
    return ran


def _cells(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "cells").glob("*.json"))}


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> tuple[Path, Path]:
    """(out, folder) of the mini TOML swept once without a fault; copied by each test that changes it."""
    top = tmp_path_factory.mktemp("swept")
    toml = _toml(top / "mini.toml")
    assert cli.main(_argv(toml, top / "out")) == 0
    return top / "out", sweep.folder(top / "out", load(toml))


def _copy(swept: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    import shutil

    out, root = swept
    shutil.copytree(out, tmp_path / "out")
    return tmp_path / "out", tmp_path / "out" / root.relative_to(out)


def test_the_record_keys_are_split_into_computation_and_presentation() -> None:
    fields = {f.name for f in dataclasses.fields(stored.StoredScenario)}
    assert set(stored.COMPUTATION) | set(stored.PRESENTATION) == fields
    assert not set(stored.COMPUTATION) & set(stored.PRESENTATION)


def test_a_change_of_claim_text_resumes_keeps_every_cell_and_the_report_shows_it(
        swept, tmp_path, monkeypatch, capsys) -> None:
    out, root = _copy(swept, tmp_path)
    before = _cells(root)
    assert len(before) == CELLS
    mark = sweep_state.digest(load(_toml(tmp_path / "same.toml")))  # each row records the definition it ran
    assert all(json.loads(b)[stored.DIGEST_FIELD] == mark for b in before.values())
    toml = _toml(tmp_path / "mini.toml", title="mini: a new title", claim="Astraea earns more than BatchSche")
    ran = _counting(monkeypatch)
    capsys.readouterr()
    assert cli.main(_argv(toml, out, "--resume")) == 0
    err = capsys.readouterr().err
    assert _one_line(err) == (f"aisched: {NAME}: title, claims changed since the sweep began; scenario.json takes "
                              f"the new text, its {CELLS} finished cells are kept")
    assert ran == [] and _cells(root) == before  # nothing recomputed, nothing rewritten
    assert (root / "scenario.json").read_text() == sweep_state.record_text(load(toml))
    table = sweep.load_table(root)
    assert len(table) == CELLS and stored.DIGEST_FIELD not in table.columns
    assert cli.main(["report", str(out), "--no-figures"]) == 0
    page = (out / "report.md").read_text()
    assert "Astraea earns more than BatchSche" in page and "mini: a new title" in page
    assert "Astraea beats BatchSche" not in page and f"{CELLS} cells." in page
    assert cli.main(_argv(toml, out, "--resume")) == 0  # now the same record: nothing said
    assert capsys.readouterr().err == "" and ran == []


def test_a_change_of_computation_is_refused_naming_the_key(swept, tmp_path, monkeypatch, capsys) -> None:
    out, root = _copy(swept, tmp_path)
    record = (root / "scenario.json").read_text()
    ran = _counting(monkeypatch)
    capsys.readouterr()
    assert cli.main(_argv(_toml(tmp_path / "mini.toml", users=3, claim="other text"), out, "--resume")) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == (f"aisched: error: resume: {str(root)!r} holds {CELLS} finished cells of a different definition "
                    f"of {NAME!r}: base.users differs (there 2, here 3); set it back to continue that sweep, or use "
                    "another folder")
    scenario = load(_toml(tmp_path / "same.toml"))
    for changed, words in ((dataclasses.replace(scenario, time_limit=30.0), "time_limit differs (there 20.0, here 30.0)"),
                           (dataclasses.replace(scenario, params={"astraea": {"admission": "ideal"}}),
                            'params.astraea differs (there not set, here {"admission": "ideal"})'),
                           (dataclasses.replace(scenario, algorithms=("astraea", "batchsche", "hived")), "algorithms differs")):
        with pytest.raises(InvalidScenarioError, match="different definition") as info:
            sweep.sweep(changed, out, executor="serial", progress=False, resume=True)
        assert words in str(info.value)
    assert ran == [] and (root / "scenario.json").read_text() == record and len(_cells(root)) == CELLS
    with pytest.raises(InvalidScenarioError, match="already holds a sweep"):  # without resume: as before
        sweep.sweep(scenario, out, executor="serial", progress=False)


def test_a_folder_whose_first_run_failed_at_generation_takes_the_corrected_definition(
        tmp_path, monkeypatch, capsys) -> None:
    out = tmp_path / "out"
    assert cli.main(_argv(_toml(tmp_path / "mini.toml", servers=-2), out)) == 2
    assert "servers: = -2 must be an integer >= 1" in _one_line(capsys.readouterr().err)
    root = sweep.folder(out, load(tmp_path / "mini.toml"))
    assert (root / "scenario.json").is_file() and _cells(root) == {}  # the folder that used to be stranded
    toml = _toml(tmp_path / "mini.toml", servers=2)
    ran = _counting(monkeypatch)
    assert cli.main(_argv(toml, out)) == 0  # the same command, corrected: no --resume needed, nothing to keep
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"aisched: {NAME}: {root} held no finished cell; its scenario.json now holds this definition"]
    assert len(ran) == CELLS and len(sweep.load_table(root)) == CELLS
    assert (root / "scenario.json").read_text() == sweep_state.record_text(load(toml))


def test_report_on_a_truncated_scenario_json_is_one_line_and_resume_rebuilds_it(
        swept, tmp_path, monkeypatch, capsys) -> None:
    out, root = _copy(swept, tmp_path)
    record = root / "scenario.json"
    whole = record.read_text()
    record.write_text(whole[:50])
    capsys.readouterr()
    assert cli.main(["report", str(out), "--no-figures"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"aisched: error: scenario: {str(record)!r} is not valid JSON (")
    assert line.endswith("run the sweep again with --resume (it rebuilds the file from the cells where they "
                         "recorded their definition), or restore the file")
    proc = subprocess.run([sys.executable, "-m", "aisched.cli", "report", str(out), "--no-figures"],
                          capture_output=True, text=True, timeout=120)  # as a user runs it: no traceback either
    assert proc.returncode == 2 and _one_line(proc.stderr) == line

    ran = _counting(monkeypatch)
    before = _cells(root)
    assert cli.main(_argv(_toml(tmp_path / "mini.toml"), out, "--resume")) == 0
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"aisched: {NAME}: {record} is not valid JSON (")
    assert line.endswith(f"rebuilt from its {CELLS} finished cells, which ran this definition")
    assert ran == [] and _cells(root) == before and record.read_text() == whole
    assert cli.main(["report", str(out), "--no-figures"]) == 0


def test_a_truncated_scenario_json_is_refused_in_one_line_where_the_cells_cannot_vouch_for_it(
        swept, tmp_path, monkeypatch, capsys) -> None:
    out, root = _copy(swept, tmp_path)
    record = root / "scenario.json"
    record.write_text(record.read_text()[:50])
    ran = _counting(monkeypatch)
    capsys.readouterr()
    # cells of another definition (base.users = 3 here): their digest is not this definition's
    assert cli.main(_argv(_toml(tmp_path / "mini.toml", users=3), out, "--resume")) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"aisched: error: scenario: {str(record)!r} is not valid JSON (")
    assert line.endswith(f"and its {CELLS} finished cells ran another definition than this one; restore the file "
                         "from a copy, or use another folder (or delete this one to start over)")
    for path in (root / "cells").glob("*.json"):  # cells written before they recorded their definition
        row = json.loads(path.read_text())
        del row[stored.DIGEST_FIELD]
        path.write_text(json.dumps(row))
    before = _cells(root)
    assert cli.main(_argv(_toml(tmp_path / "mini.toml"), out, "--resume")) == 2
    assert "and its cells do not record the definition they ran" in _one_line(capsys.readouterr().err)
    assert ran == [] and _cells(root) == before and len(record.read_text()) == 50  # nothing touched


# --- a killed report ------------------------------------------------------------------------------------------


def _files_of(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.suffix in (".png", ".svg", ".md")}


class Killed(BaseException):
    """What a kill does to a report: it stops mid-write (a BaseException: nothing catches it)."""


def test_a_report_that_dies_mid_figure_keeps_the_old_figures_and_page_whole(swept, tmp_path, monkeypatch) -> None:
    from matplotlib.figure import Figure

    out, _ = _copy(swept, tmp_path)
    report.report(out)
    old = _files_of(out)
    assert any(k.endswith("figure.png") for k in old) and any(k.endswith("figure.svg") for k in old)
    real = Figure.savefig
    calls: list[object] = []

    def savefig(self, fname, **kwargs):
        calls.append(fname)
        if len(calls) == 2:  # the second figure: half written, then the process dies
            fname.write(b"\x89PNG half")
            raise Killed
        return real(self, fname, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    with pytest.raises(Killed):
        report.report(out)
    assert _files_of(out) == old  # every figure (the one being written included) and report.md as they were
    assert not [p for p in out.rglob("*") if p.is_file() and p.stat().st_size == 0 and p.name != ".aisched.lock"]
    assert not list(out.rglob("*.tmp"))


KILLED = textwrap.dedent("""
    import sys, time
    from matplotlib.figure import Figure
    from aisched.experiments.pages import report

    def savefig(self, fname, **kwargs):  # a slow draw: killed while it writes
        fname.write(b"partial")
        fname.flush()
        print("drawing", flush=True)
        time.sleep(600)

    Figure.savefig = savefig
    report.report(sys.argv[1])
""")


def test_a_report_killed_by_sigkill_mid_figure_leaves_no_empty_figure(swept, tmp_path) -> None:
    out, _ = _copy(swept, tmp_path)
    report.report(out)
    old = _files_of(out)
    proc = subprocess.Popen([sys.executable, "-c", KILLED, str(out)], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        assert proc.stdout.readline().strip() == "drawing"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert _files_of(out) == old  # the figures and report.md of the last report, whole
    visible = [p for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert not [p for p in visible if p.stat().st_size == 0]
    (left,) = [p for p in out.rglob(".*.tmp")]  # the killed write's temporary, hidden; the next report removes it
    assert left.name.startswith(".figure.png.")
    stale = time.time() - 3600
    os.utime(left, (stale, stale))
    report.report(out)
    assert not left.exists() and set(_files_of(out)) == set(old)
