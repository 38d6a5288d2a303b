"""The examples in examples/ run as a user runs them and print their comparison table.

Each example registers a user's own online algorithm and compares it with the offline optimum on a
small instance; it runs in a subprocess (its registration stays out of this process's registry).
The table must hold the user's algorithm and the offline reference, proven optimal (reference
"optimum") or stopped at a limit with its proven bound as the reference.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: example script -> the name its algorithm is registered under
EXAMPLES = {
    "lora_own_algorithm.py": "cheapest_slots",
    "spot_own_algorithm.py": "cheap_spot",
    "genai_own_algorithm.py": "one_edge",
    "tenants_own_algorithm.py": "one_server",
}


def _rows(output: str) -> dict[str, list[str]]:
    """Table rows by algorithm: objective, ratio, reference, admitted, status."""
    rows = {}
    for line in output.splitlines():
        cells = line.split()
        if len(cells) == 6 and cells[3] in ("optimum", "bound"):
            rows[cells[0]] = cells[1:]
    return rows


def test_every_example_is_tested() -> None:
    assert sorted(p.name for p in (ROOT / "examples").glob("*_own_algorithm.py")) == sorted(EXAMPLES)


@pytest.mark.parametrize("script", sorted(EXAMPLES))
def test_example_runs_and_prints_its_table(script: str) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, f"{script} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    rows = _rows(proc.stdout)
    family = script.split("_")[0]
    assert proc.stdout.startswith(f"{family}: "), proc.stdout
    assert "offline" in rows, proc.stdout
    objective, ratio, reference, admitted, status = rows["offline"]
    assert (status, reference) in (("optimal", "optimum"), ("time_limit", "bound")), proc.stdout
    assert math.isfinite(float(objective)) and int(admitted) >= 1
    mine = EXAMPLES[script]
    assert mine in rows, proc.stdout
    objective, ratio, reference, admitted, status = rows[mine]
    assert status == "online" and 0 <= float(ratio) <= 1 + 1e-6, proc.stdout
    assert int(admitted) >= 1, proc.stdout
