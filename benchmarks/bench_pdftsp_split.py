"""Where the default pdFTSP day's time goes, against ``cell_prices``, in one run.

Same instance as ``bench_pdftsp.py`` (200 mixed nodes, 144 slots, Poisson(80), 5
vendors; ``--quick``: 50 nodes, Poisson(20)). After one day to compile, it runs:

1. the default day (``selection="faithful"``) with the fronts kernel
   (:func:`aisched.online.lora.pdftsp.fronts._select`) timed per call (wall and CPU,
   the call and its result ready) and :meth:`Fronts.raised` timed (CPU);
2. the same day with every kernel call answered from a record of run 1's (same
   results, no kernel): its CPU time is everything but the kernel (Algorithm 1's
   Python, F (10)'s parts, the admission test, the dual updates (7)-(8), the fronts);
   its plan is checked equal to run 1's;
3. the ``cell_prices`` day twice (the second, compiled, is the one compared);
4. with ``--threads``: the default day with ``pdftsp.fronts.PARALLEL_STARTS`` (a
   task's distinct starts' DPs in two threads), checked to decide exactly as run 1.

It prints each part with the load average, and the ratios to ``cell_prices``: the
whole day, and the kernel alone. Timings scale with the load; compare within a run.

Usage: ``python benchmarks/bench_pdftsp_split.py [--quick] [--seed S] [--threads] [--dispatch sync]``
"""

from __future__ import annotations

import argparse
import os
import time

import jax
import numpy as np
from bench_pdftsp import set_dispatch  # the benchmarks' folder is on sys.path when run as a script

import aisched
from aisched.online.lora.pdftsp import fronts
from aisched.scenarios.lora import generate


def _day(inst, **options) -> tuple[aisched.Outcome, float, float, float]:
    """One pdFTSP day: (outcome, wall s, CPU s, load average before it)."""
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    out = aisched.run("pdftsp", inst, **options)
    return out, time.perf_counter() - wall, time.process_time() - cpu, load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", action="store_true",
                        help="also the default day with a task's starts in two threads")
    parser.add_argument("--dispatch", choices=("async", "sync"), default="async",
                        help="JAX's CPU dispatch for the whole run (bench_pdftsp.set_dispatch)")
    args = parser.parse_args()
    set_dispatch(args.dispatch)  # before any computation
    nodes, rate = (50, 20.0) if args.quick else (200, 80.0)
    inst = generate(seed=args.seed, nodes=nodes, slots=144, arrival_rate=rate, vendors=5, gpu_mix="mixed")
    print(f"instance: {inst.num_tasks} tasks, {inst.num_nodes} nodes, {inst.num_slots} slots; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    aisched.run("pdftsp", inst)  # compile

    kernel, raised = fronts._select, fronts.Fronts.raised
    spent = {"kernel_wall": 0.0, "kernel_cpu": 0.0, "raised_cpu": 0.0, "calls": 0}
    record: list = []

    def timed_kernel(*a):
        wall, cpu = time.perf_counter(), time.process_time()
        out = jax.block_until_ready(kernel(*a))
        spent["kernel_wall"] += time.perf_counter() - wall
        spent["kernel_cpu"] += time.process_time() - cpu
        spent["calls"] += 1
        record.append(tuple(np.asarray(x) for x in out))
        return record[-1]

    def timed_raised(self, *a, **kw):
        cpu = time.process_time()
        raised(self, *a, **kw)
        spent["raised_cpu"] += time.process_time() - cpu

    replay = iter(())
    try:
        fronts._select, fronts.Fronts.raised = timed_kernel, timed_raised
        faithful, f_wall, f_cpu, f_load = _day(inst)
        replay = iter(record)
        fronts._select = lambda *a: next(replay)
        fronts.Fronts.raised = raised
        rest, r_wall, r_cpu, r_load = _day(inst)
    finally:
        fronts._select, fronts.Fronts.raised = kernel, raised
    if not np.array_equal(rest.plan["assignment"].values, faithful.plan["assignment"].values):
        raise SystemExit("the replayed day's plan differs")
    _day(inst, selection="cell_prices")
    cells, c_wall, c_cpu, c_load = _day(inst, selection="cell_prices")

    info = faithful.info
    print(f"faithful (default), compiled: wall {f_wall:.2f} s, CPU {f_cpu:.2f} s (load {f_load:.2f}); "
          f"welfare {faithful.objective:.10g}")
    print(f"  fronts kernel: {spent['calls']} calls, wall {spent['kernel_wall']:.2f} s, "
          f"CPU {spent['kernel_cpu']:.2f} s ({1e3 * spent['kernel_cpu'] / max(spent['calls'], 1):.3f} ms a call)")
    print(f"  Fronts.raised (after (7)-(8)): CPU {spent['raised_cpu']:.2f} s; run() parts: Algorithm 2 + "
          f"admission {info['decide_s']:.2f} s, dual updates + fronts {info['commit_s']:.2f} s")
    print(f"  everything but the kernel (replayed kernel results): wall {r_wall:.2f} s, CPU {r_cpu:.2f} s "
          f"(load {r_load:.2f})")
    print(f"cell_prices, compiled: wall {c_wall:.2f} s, CPU {c_cpu:.2f} s (load {c_load:.2f}); "
          f"welfare {cells.objective:.10g}")
    print(f"faithful / cell_prices: wall {f_wall / c_wall:.2f}x, CPU {f_cpu / c_cpu:.2f}x; the fronts "
          f"kernel alone: wall {spent['kernel_wall'] / c_wall:.2f}x, CPU {spent['kernel_cpu'] / c_cpu:.2f}x; "
          f"load now {os.getloadavg()[0]:.2f}")
    if args.threads:
        fronts.PARALLEL_STARTS = True
        try:
            split, s_wall, s_cpu, s_load = _day(inst)
        finally:
            fronts.PARALLEL_STARTS = False
        same = all(np.array_equal(split.plan[v].values, faithful.plan[v].values)
                   for v in ("assignment", "vendor", "surplus")) and np.array_equal(
            split.payments, faithful.payments) and all(
            np.array_equal(split.prices[v].values, faithful.prices[v].values) for v in split.prices)
        if not same:
            raise SystemExit("the day with starts in two threads decides differently")
        print(f"faithful, starts in two threads (same decisions, checked): wall {s_wall:.2f} s, CPU "
              f"{s_cpu:.2f} s (load {s_load:.2f}); / cell_prices: wall {s_wall / c_wall:.2f}x, CPU "
              f"{s_cpu / c_cpu:.2f}x; / faithful: wall {s_wall / f_wall:.2f}x")


if __name__ == "__main__":
    main()
