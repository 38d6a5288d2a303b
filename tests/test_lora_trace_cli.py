"""``aisched compare lora --trace FILE``: a lora comparison on a user's own trace file.

The trace's slot 0 starts at midnight of its first arrival's day and becomes the instance's slot 0
(``--trace-start`` moves it); its per-slot counts are rescaled to ``--arrival-rate``. A window without any
job is refused in one line that names the window and the ``--trace-start`` (the generator's
``trace_start``) reaching the trace's next job, since a trace starting in the afternoon is empty in the
default window of slots 0..23 (00:00-04:00).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import xarray as xr

import aisched
from aisched.cli import main
from aisched.errors import InvalidScenarioError
from aisched.models.lora import LoraInstance

#: A tiny trace of five jobs on one afternoon: the first at 14:05, in the trace's slot 84 (10-minute slots).
AFTERNOON = ["2024-03-01 14:05:00", "2024-03-01 14:15:00", "2024-03-01 14:25:00", "2024-03-01 15:40:00",
             "2024-03-01 16:10:00"]


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    path = tmp_path / "my_trace.csv"
    path.write_text("timestamp\n" + "\n".join(AFTERNOON) + "\n", encoding="utf-8")
    return path


def _small(trace: Path, out: Path) -> list[str]:
    return ["compare", "lora", "--trace", str(trace), "--nodes", "2", "--slots", "12", "--vendors", "1",
            "--algorithms", "eft", "--no-offline", "--no-figures", "--out", str(out)]


def test_a_trace_file_gives_the_arrivals_from_its_start_slot(trace: Path, tmp_path: Path, capsys) -> None:
    assert main([*_small(trace, tmp_path / "out"), "--trace-start", "84", "--arrival-rate", "1.5"]) == 0
    out = capsys.readouterr().out
    assert f"(trace {trace} from its slot 84, rescaled to 1.5 a slot)" in out.splitlines()[0]
    expected = aisched.scenarios.lora.generate(seed=0, nodes=2, slots=12, vendors=1, trace=str(trace),
                                               trace_start=84, arrival_rate=1.5)
    assert LoraInstance.from_dataset(xr.load_dataset(tmp_path / "out" / "lora_instance.nc")) == expected
    # slots 84, 85, 86 and 94 of the trace hold its first four jobs: the instance's 0, 1, 2 and 10
    assert set(expected.arrival) <= {0, 1, 2, 10} and expected.num_tasks > 0


def test_a_window_without_jobs_names_the_window_and_how_to_move_it(trace: Path, tmp_path: Path, capsys) -> None:
    assert main(_small(trace, tmp_path / "out")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("aisched: error: trace: ")
    assert "has no jobs in the window of slots 0..11" in err
    assert "next job is in slot 84 (14:00)" in err
    assert "trace_start=84" in err and "--trace-start 84" in err
    with pytest.raises(InvalidScenarioError, match=r"trace_start=84 \(aisched compare lora --trace-start 84\)"):
        aisched.scenarios.lora.generate(nodes=2, slots=12, trace=str(trace))


def test_trace_options_that_conflict_are_refused_in_one_line(trace: Path, tmp_path: Path, capsys) -> None:
    cases = {
        ("--tasks", "3"): "aisched: error: --tasks: = 3 cannot be combined with --trace",
        ("--trace-start", "-1"): "aisched: error: --trace-start: = -1 must be a slot >= 0",
    }
    for extra, message in cases.items():
        assert main([*_small(trace, tmp_path / "out"), *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and err.startswith(message), err
    assert main(["compare", "lora", "--trace-start", "84", "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.strip() == ("aisched: error: --trace-start: = 84 needs --trace: it says where a "
                                               "trace starts")


def test_a_missing_trace_file_is_named(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nowhere.csv"
    assert main(["compare", "lora", "--trace", str(missing), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"aisched: error: trace: file {str(missing)!r} does not exist"


def test_the_help_of_trace_says_its_jobs_are_placed_from_slot_0(capsys) -> None:
    from aisched.cli import _parser

    with pytest.raises(SystemExit):
        _parser().parse_args(["compare", "lora", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--trace FILE" in text and "The trace's jobs are placed from slot 0" in text
    assert "midnight of its first arrival's day" in text and "--trace-start SLOT" in text
    assert "aisched data list" in text
