"""Sweep overhead: scheduling + writing per cell, against the cell's own work.

For each scenario named on the command line (default: two full-size `lora`
figures), runs the first point, one seed, with the given algorithms through
:func:`aisched.experiments.run.sweep.sweep`, serially and with a 2-process pool, and
prints per-cell work, write time and overhead (the target: < 5%).

    python benchmarks/bench_sweep.py [lora/fig5-vendors lora/fig13-runtime] [--algorithms eft,ntm,pdftsp]

Serial overhead = (wall - sum of cell work) / sum of cell work: writing the
netCDF outcome and the JSON row, the progress bar, the table. Pool overhead
adds process start-up (each worker imports JAX and Pyomo once) and is
reported as wall x workers / work - 1 (an upper bound: it counts idle workers
at the tail as overhead).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from dataclasses import replace

from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog


def _run(scenario: catalog.Scenario, executor: str, workers: int | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        sweep.sweep(scenario, tmp, executor=executor, workers=workers, progress=False)
        return json.loads((sweep.folder(tmp, scenario) / "sweep.json").read_text())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenarios", nargs="*", default=["lora/fig5-vendors", "lora/fig13-runtime"])
    p.add_argument("--algorithms", default=None, help="comma-separated subset (default: the scenario's)")
    p.add_argument("--points", type=int, default=1, help="first N points (default 1)")
    args = p.parse_args()
    print(f"{'scenario':<24} {'executor':<10} {'cells':>5} {'work_s':>8} {'write_s':>8} {'wall_s':>8} "
          f"{'overhead':>9}")
    for name in args.scenarios:
        s = catalog.get(name)
        algos = tuple(args.algorithms.split(",")) if args.algorithms else s.algorithms
        s = replace(s, values=s.values[: args.points], seeds=1, algorithms=algos,
                    params={k: v for k, v in s.params.items() if k in algos}, claims=())
        for executor, workers in (("serial", None), ("process", 2)):
            r = _run(s, executor, workers)
            if executor == "serial":
                overhead = (r["wall_s"] - r["work_s"]) / r["work_s"]
            else:
                overhead = r["wall_s"] * r["workers"] / r["work_s"] - 1.0
            print(f"{name:<24} {executor:<10} {r['cells_run']:>5} {r['work_s']:>8.2f} {r['write_s']:>8.3f} "
                  f"{r['wall_s']:>8.2f} {overhead:>8.1%}", flush=True)
    print("(machine: see `nproc`; timings are wall-clock)")


if __name__ == "__main__":
    main()
