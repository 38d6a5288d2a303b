"""Start-up time of the ``aisched`` command: ``--help``, a family's ``--help``, an argument error.

Each command runs ``--repeat`` times in a fresh interpreter (as a user types
it); prints the median and the worst wall time, and what ``import aisched.cli``
loads. The target: within 1 s on 2 cores.

    python benchmarks/bench_startup.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

COMMANDS = (
    ["--help"],
    ["compare", "lora", "--help"],
    ["compare", "tenants", "--help"],
    ["compare", "lora", "--nodes", "two"],
    ["compare", "lora", "--algorithms", "magic"],
    ["sweep", "lora/fig8-load", "--seeds", "0"],
    ["sweep", "lora/fig4-scal"],  # an unknown scenario name: refused from the static index
)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} CPUs, load average {load:.1f}; {args.repeat} runs each")
    print(f"{'command':<44} {'median_s':>9} {'max_s':>7}  status")
    for argv in COMMANDS:
        times, code = [], None
        for _ in range(args.repeat):
            tic = time.perf_counter()
            code = subprocess.run([sys.executable, "-m", "aisched.cli", *argv], capture_output=True).returncode
            times.append(time.perf_counter() - tic)
        print(f"{'aisched ' + ' '.join(argv):<44} {statistics.median(times):>9.3f} {max(times):>7.3f}  {code}")
    probe = ("import sys, aisched.cli; aisched.cli._parser(); "
             "print(', '.join(m for m in ('numpy', 'pandas', 'xarray', 'jax', 'pyomo') if m in sys.modules) or 'none')")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout.strip()
    print(f"heavy modules loaded by `import aisched.cli` and its parser: {loaded}")


if __name__ == "__main__":
    main()
