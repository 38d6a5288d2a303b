"""Astraea at paper scale (section 5.1: 14 users, 100 servers, 200 jobs) on this machine; prints figures.

Reports, per seed: Astraea's total run time, the median / 90th-percentile /
max per-job decision time (all A_maxIrev calls spent on a job, over every
round it is tried in; target: median <= 5 ms), jobs admitted, total revenue
(3) and the revenue-fairness variance, the baselines' revenue and run time,
and Astraea with the loop reference of Algorithm 3 on a few jobs for the
vectorisation speed-up, and (seed 0) Astraea without the bound check
(``AstraeaParams.bound_first=False``: every job goes through Algorithm 3),
whose decisions must be identical. The paper reports 1.56 s per job on a laptop.

Usage: ``python benchmarks/bench_astraea.py [--seeds 3] [--utility linear|convex]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np

import aisched
from aisched.online.tenants import astraea, metrics
from aisched.online.tenants.astraea.kernel import RoundState, best_schedule
from aisched.online.tenants.astraea.reference import max_irev
from aisched.scenarios.tenants import generate


def reference_speedup(inst, jobs: int = 3) -> tuple[float, float]:
    """Seconds per job of the loop reference and of the kernel on an empty round of 32 slots."""
    state = RoundState(inst.workers, inst.parameter_servers, inst.worker_quota, inst.ps_quota, 32, 8.0, 8.0)
    ratio = inst.worker_bandwidth / inst.ps_bandwidth
    ref, vec = [], []
    for j in range(jobs):
        spec = astraea.job_spec(inst, j, 0)
        tic = time.perf_counter()
        max_irev(state, spec, False, ratio)
        ref.append(time.perf_counter() - tic)
        tic = time.perf_counter()
        best_schedule(state, spec, False, ratio)
        vec.append(time.perf_counter() - tic)
    return float(np.median(ref)), float(np.median(vec))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--utility", default="linear", choices=("linear", "convex"))
    args = ap.parse_args()
    medians = []
    for seed in range(args.seeds):
        inst = generate(seed=seed, users=14, servers=100, jobs=200, utility=args.utility)
        tic = time.perf_counter()
        out = aisched.run("astraea", inst)
        total = time.perf_counter() - tic
        out.verify(inst)
        d = out.decision_s * 1e3
        medians.append(float(np.median(d)))
        fair = metrics.fairness(inst, out)
        print(
            f"seed {seed}: {inst.num_slots} slots; astraea {total:.1f} s total, per-job decision "
            f"median {np.median(d):.1f} ms, p90 {np.percentile(d, 90):.1f} ms, max {d.max():.1f} ms; "
            f"admitted {out.num_admitted}/{inst.num_jobs}, revenue {out.objective:.0f}, "
            f"alpha variance {fair.alpha_variance:.3f}, lambda {out.info['lam']}"
        )
        for name in ("batchsche", "gandiva_fair", "hived"):
            tic = time.perf_counter()
            base = aisched.run(name, inst)
            print(f"    {name:<12} revenue {base.objective:9.0f} admitted {base.num_admitted:3d} "
                  f"in {time.perf_counter() - tic:.1f} s")
    inst = generate(seed=0, users=14, servers=100, jobs=200, utility=args.utility)
    params = astraea.make_params(inst, 2, None, None, "batch", True)
    timings = {}
    for bound_first in (False, True):
        tic = time.perf_counter()
        res, _ = astraea.simulate(inst, dataclasses.replace(params, bound_first=bound_first))
        timings[bound_first] = (time.perf_counter() - tic, float(np.median(res.decision_s)) * 1e3, res)
    same = all(np.array_equal(getattr(timings[False][2], k), getattr(timings[True][2], k), equal_nan=True)
               for k in ("start", "end", "y", "z", "admitted", "worker_cost", "ps_cost", "income", "mu"))
    print(f"seed 0 without the bound check: {timings[False][0]:.1f} s, median {timings[False][1]:.1f} ms; "
          f"with: {timings[True][0]:.1f} s, median {timings[True][1]:.1f} ms; identical decisions: {same}")
    ref, vec = reference_speedup(inst)
    print(f"A_maxIrev on one 32-slot round: loop reference {ref * 1e3:.0f} ms, vectorised {vec * 1e3:.2f} ms "
          f"({ref / vec:.0f}x)")
    print(f"median per-job decision over seeds: {np.median(medians):.1f} ms (target <= 5 ms)")


if __name__ == "__main__":
    main()
