"""Time Titan (``titan``, and optionally ``titan_welfare``) on a paper-scale day.

Paper scale (section 5.1): 200 mixed nodes, 144 ten-minute
slots, Poisson(80) arrivals a slot, 5 vendors. Prints the wall time, the
per-slot statuses (optimal / gap / heuristic / empty / failed), slot time
quantiles, welfare, scheduled tasks and the machine load (``os.getloadavg``),
since timings depend on it.

Usage::

    PYTHONPATH=$PWD python benchmarks/bench_titan.py                     # paper scale, titan
    PYTHONPATH=$PWD python benchmarks/bench_titan.py --nodes 20 --slots 24 --rate 8 --welfare
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import aisched
from aisched.scenarios.lora import generate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=200)
    parser.add_argument("--slots", type=int, default=144)
    parser.add_argument("--rate", type=float, default=80.0)
    parser.add_argument("--vendors", type=int, default=5)
    parser.add_argument("--slot-time-limit", type=float, default=20.0)
    parser.add_argument("--formulation", default="classes", choices=("classes", "nodes"))
    parser.add_argument("--welfare", action="store_true", help="also time titan_welfare")
    parser.add_argument("--progress", action="store_true", help="print every slot as it is solved")
    args = parser.parse_args(argv)

    inst = generate(seed=args.seed, nodes=args.nodes, slots=args.slots, arrival_rate=args.rate,
                    vendors=args.vendors, gpu_mix="mixed")
    print(f"instance: {inst.num_nodes} nodes, {inst.num_slots} slots, {inst.num_tasks} tasks, "
          f"{inst.num_vendors} vendors; load average before {os.getloadavg()}")
    names = ["titan"] + (["titan_welfare"] if args.welfare else [])
    for name in names:
        tic, cpu = time.perf_counter(), time.process_time()

        def show(slot: int, res: object) -> None:
            print(f"  slot {slot:3d}: {res.status:9s} {res.seconds:6.2f} s, rounds {res.rounds}, "  # type: ignore[attr-defined]
                  f"scheduled {res.count}, wall {time.perf_counter() - tic:7.1f} s, "  # type: ignore[attr-defined]
                  f"cpu {time.process_time() - cpu:7.1f} s, load {os.getloadavg()[0]:.1f}", flush=True)

        out = aisched.run(name, inst, slot_time_limit=args.slot_time_limit, formulation=args.formulation,
                          progress=show if args.progress else None)
        wall, cpu = time.perf_counter() - tic, time.process_time() - cpu
        out.verify(inst)
        sec = np.asarray(out.info["slot_seconds"])
        print(f"{name} ({args.formulation}): {wall:.1f} s wall ({cpu:.1f} s CPU) for the day, welfare {out.objective:,.1f}, "
              f"scheduled {out.num_admitted}/{inst.num_tasks}, total JCT {out.info['total_jct']:.0f} slots")
        print(f"  slot statuses {out.info['slot_status_counts']}; slot time median {np.median(sec):.2f} s, "
              f"p90 {np.quantile(sec, 0.9):.2f} s, max {sec.max():.2f} s; "
              f"median decision per task {1e3 * np.median(out.decision_s):.1f} ms")
        gaps = np.asarray(out.info["slot_gap"])
        print(f"  slot gaps (share of provable tasks missing, or JCT above its bound): median {np.median(gaps):.4f}, "
              f"max {gaps.max():.4f}; slots with gap > 1%: {int(np.sum(gaps > 0.01))}")
        print(f"  load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
