"""genai workloads against the paper's premises (docs/readings/genai.md A2b).

Prints, per workload (``legacy``: the generator's constants; ``gpu_priced``: costs from a GPU's cloud
price and the revenue rate from the on-demand markup), arrival rate and seed, what
:func:`aisched.scenarios.genai.metrics.workload_premises` measures: job margins at the cheapest schedule,
the share of tasks whose fastest model is the cheapest, the extra cost of all-fastest schedules,
HEFT-MA's memory use, and the headroom of the certified bound (the optimum where proven) over HEFT-MA.
Sizes are reduced from the paper's (10 edges, 200 slots): 5 edges, 100 slots, homo-M by default.

Usage::

    python benchmarks/genai_workload.py                    # Poisson 3 / 5 / 7, seeds 0-2
    python benchmarks/genai_workload.py --rates 3 --seeds 1 --capacity-scale 0.0625
"""

from __future__ import annotations

import argparse
import time

from aisched.scenarios import genai
from aisched.scenarios.genai.generator import WORKLOADS
from aisched.scenarios.genai.metrics import workload_premises


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[3.0, 5.0, 7.0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--edges", type=int, default=5)
    parser.add_argument("--slots", type=int, default=100)
    parser.add_argument("--capacity", default="homo-M")
    parser.add_argument("--capacity-scale", type=float, default=1.0)
    parser.add_argument("--workloads", nargs="+", default=list(WORKLOADS), choices=WORKLOADS)
    args = parser.parse_args()
    print(f"load average: {open('/proc/loadavg').read().split()[:3]}; {args.edges} edges, {args.slots} slots, "
          f"{args.capacity} x {args.capacity_scale}")
    print(f"{'workload':<11} {'rate':>4} {'seed':>4} {'jobs':>5} {'margin50':>8} {'margin10':>8} {'loss':>5} "
          f"{'fast=cheap':>10} {'fast+':>6} {'mem':>5} {'bind':>5} {'heft_ma':>9} {'bound':>9} {'opt':>3} "
          f"{'headroom':>8} {'s':>5}")
    for workload in args.workloads:
        for rate in args.rates:
            for seed in range(args.seeds):
                t0 = time.perf_counter()
                inst = genai.generate(seed=seed, edges=args.edges, slots=args.slots, arrival_rate=rate,
                                      capacity=args.capacity, capacity_scale=args.capacity_scale, workload=workload)
                m = workload_premises(inst)
                print(f"{workload:<11} {rate:>4g} {seed:>4} {int(m['jobs']):>5} {m['margin_median']:>8.1%} "
                      f"{m['margin_p10']:>8.1%} {m['unprofitable_share']:>5.1%} {m['fastest_is_cheapest']:>10.1%} "
                      f"{m['all_fastest_extra_median']:>6.1%} {m['heft_ma_memory']:>5.1%} {m['heft_ma_binding']:>5.1%} "
                      f"{m['heft_ma']:>9.3f} {m['reference']:>9.3f} {'yes' if m['proven_optimal'] else 'no':>3} "
                      f"{m['headroom']:>8.1%} {time.perf_counter() - t0:>5.0f}", flush=True)


if __name__ == "__main__":
    main()
