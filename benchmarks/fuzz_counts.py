"""Inputs tried per fuzz entry point: runs ``tests/fuzz`` with hypothesis statistics and sums them.

Usage: ``PYTHONPATH=$PWD python benchmarks/fuzz_counts.py [--deep]`` (``--deep`` adds the
``slow``-marked deeper profile). Prints one line per test function: the inputs hypothesis
generated (passing + failing + invalid examples, over every parametrized case) and the
number of parametrized cases; plain parametrized tests count one input per case.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections import defaultdict


def main() -> int:
    deep = "--deep" in sys.argv
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "tests/fuzz",
           "--hypothesis-show-statistics", "-rN", "-m", "slow or not slow" if deep else "not slow", "-v"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    out = proc.stdout
    inputs: dict[str, int] = defaultdict(int)
    cases: dict[str, int] = defaultdict(int)
    hypothesis_tests: set[str] = set()
    for line in out.splitlines():  # "-v" lines: tests/fuzz/x.py::test_name[case] PASSED
        m = re.match(r"(tests/fuzz/\S+?\.py::\w+)(\[.*\])? (PASSED|FAILED|SKIPPED|ERROR)", line)
        if m and m.group(3) in ("FAILED", "ERROR"):
            print(f"{m.group(3)}: {m.group(1)}{m.group(2) or ''}")
        if m:
            cases[m.group(1)] += 1
    current = None
    for line in out.splitlines():  # statistics blocks: "tests/fuzz/x.py::test_name[case]:" then counts
        m = re.match(r"(tests/fuzz/\S+?\.py::\w+)(\[.*\])?:\s*$", line.strip())
        if m:
            current = m.group(1)
            hypothesis_tests.add(current)
            continue
        m = re.search(r"(\d+) passing, (\d+) failing, and (\d+) invalid", line)
        if m and current:
            inputs[current] += sum(int(x) for x in m.groups())
    total = 0
    print(f"{'entry point (test)':<72} {'inputs':>7} {'cases':>6}")
    for test in sorted(cases):
        n = inputs[test] if test in hypothesis_tests else cases[test]
        total += n
        print(f"{test:<72} {n:>7} {cases[test]:>6}")
    tail = out.strip().splitlines()[-1] if out.strip() else proc.stderr.strip()[-300:]
    print(f"total inputs {total}; pytest: {tail}; {seconds:.1f} s wall ({'deep' if deep else 'fast'} profile)")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
