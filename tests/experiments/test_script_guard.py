"""A sweep script without the main guard: each pool worker stops in one line saying what to add."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
from aisched.experiments.spec import catalog
from aisched.experiments.run.sweep import sweep

table = sweep(catalog.get("spot/fig5-deadline").reduced(), {out!r}, seeds=1, workers=1, progress=False,
              outcomes=False)
print("finished", len(table))
"""


def test_a_script_without_the_guard_is_told_what_to_add(tmp_path: Path) -> None:
    script = tmp_path / "no_guard.py"
    script.write_text(SCRIPT.format(out=str(tmp_path / "out")))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                                         os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env,
                          cwd=tmp_path)
    assert done.returncode != 0 and "finished" not in done.stdout
    worker = "aisched: error: a process-pool worker re-ran this script's sweep: put the script's top-level code under"
    assert done.stderr.count(worker) == 1, done.stderr  # the one worker, in one line
    assert 'if __name__ == "__main__":' in done.stderr
    assert done.stderr.count("Traceback") == 1  # the script's own exception, not the worker's
    last = done.stderr.strip().splitlines()[-1]
    assert "a process-pool worker stopped abruptly" in last and "0 of" in last and "--resume" in last
