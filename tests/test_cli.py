"""The aisched command: a real comparison run and one-line errors."""

import subprocess
import sys

import pytest

from aisched.cli import main


def test_compare_lora_writes_results(tmp_path, capsys):
    code = main([
        "compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--vendors", "2",
        "--seed", "1", "--algorithms", "pdftsp,eft,ntm,titan", "--out", str(tmp_path),
    ])
    assert code == 0
    text = capsys.readouterr().out
    for name in ("offline", "pdftsp", "titan", "eft", "ntm"):
        assert name in text
        assert (tmp_path / f"lora_{name}.nc").is_file()
    assert (tmp_path / "lora_objective.png").stat().st_size > 1000
    assert (tmp_path / "lora_pdftsp_compute_price.png").stat().st_size > 1000
    assert (tmp_path / "lora_comparison.csv").is_file()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["compare", "lora", "--nodes", "0"], "nodes"),
        (["compare", "lora", "--nodes", "two"], "--nodes"),
        (["compare", "lora", "--gpu-mix", "h100"], "--gpu-mix"),
        (["compare", "lora", "--algorithms", "pdftsp,magic"], "magic"),
        (["compare", "lora", "--time-limit", "-3"], "--time-limit"),
        (["compare", "lora", "--arrival-rate", "-1"], "arrival_rate"),
        (["compare", "nosuch"], "nosuch"),
    ],
)
def test_bad_options_exit_nonzero_with_one_line(argv, needle):
    proc = subprocess.run(
        [sys.executable, "-m", "aisched.cli", *argv], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("aisched: error:") and needle in lines[0]
