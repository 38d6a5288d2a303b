"""A user's own algorithm from the command line: --plugin, a TOML key, an entry point; pool workers load it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SMALL = ["--nodes", "2", "--slots", "8", "--tasks", "5", "--seed", "1", "--no-offline", "--no-figures"]


def _aisched(args: list[str], cwd: Path, extra_path: str = "") -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(ROOT), extra_path, os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-c", "import sys; from aisched.cli import main; sys.exit(main(sys.argv[1:]))",
                           *args], capture_output=True, text=True, timeout=600, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": path})


def test_compare_runs_a_plugin_algorithm_and_refuses_a_missing_module(tmp_path: Path) -> None:
    done = _aisched(["compare", "lora", *SMALL, "--algorithms", "eft,eft_declining", "--plugin", "tests.user_plugin",
                     "--out", str(tmp_path)], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "lora_comparison.csv", index_col=0)
    assert list(table.index) == ["eft", "eft_declining"]
    assert table.loc["eft_declining", "objective"] >= table.loc["eft", "objective"] - 1e-6  # only declines losers
    bad = _aisched(["compare", "lora", *SMALL, "--plugin", "tests.no_such_plugin", "--out", str(tmp_path / "b")],
                   cwd=ROOT)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines() == [
        "aisched: error: --plugin: plug-in module 'tests.no_such_plugin' cannot be imported "
        "(No module named 'tests.no_such_plugin')"]
    unknown = _aisched(["compare", "lora", *SMALL, "--algorithms", "eft_declining", "--out", str(tmp_path / "u")],
                       cwd=ROOT)
    assert unknown.returncode == 2 and "unknown algorithm 'eft_declining'" in unknown.stderr


def test_a_toml_sweep_loads_its_plugins_in_the_pool_workers(tmp_path: Path) -> None:
    toml = tmp_path / "mine.toml"
    toml.write_text('name = "lora/mine"\nfamily = "lora"\nx = "nodes"\nvalues = [2]\n'
                    'algorithms = ["eft", "eft_declining"]\nseeds = 2\nplugins = ["tests.user_plugin"]\n'
                    '[base]\nslots = 8\ntasks = 5\n')
    done = _aisched(["sweep", str(toml), "--workers", "1", "--no-progress", "--no-outcomes", "--out",
                     str(tmp_path / "out")], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "out" / "lora" / "mine" / "table.csv")
    assert sorted(table["algorithm"].unique()) == ["eft", "eft_declining"] and len(table) == 4


def test_an_installed_entry_point_needs_no_flag(tmp_path: Path) -> None:
    site = tmp_path / "site"
    info = site / "aisched_user_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: aisched-user-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[aisched.algorithms]\nmine = tests.user_plugin\n")
    done = _aisched(["compare", "lora", *SMALL, "--algorithms", "eft_declining", "--out", str(tmp_path / "out")],
                    cwd=ROOT, extra_path=str(site))
    assert done.returncode == 0, done.stderr
    assert list(pd.read_csv(tmp_path / "out" / "lora_comparison.csv", index_col=0).index) == ["eft_declining"]
    helped = _aisched(["compare", "lora", "--help"], cwd=ROOT, extra_path=str(site))
    assert helped.returncode == 0
    assert "those of the installed plug-in(s) mine (tests.user_plugin)" in " ".join(helped.stdout.split())
