"""Benchmark of the `spot` family (issue 3 performance figures). Prints the figures.

1. The 112-policy pool (105 AHAP + 7 AHANP) on the K-job workload (deadline 10)
   plus Algorithm 2: wall time, per-policy-job throughput, and the share of the
   AHAP kernel time spent in the windowed problem (10) (under ``vmap`` the DP
   runs in every decision slot of every policy, needed or not).
   The share in (10) is ``1 - t(without) / t(with)`` where "without" replaces
   the window solve by an empty plan (same shapes, benchmark-only flag).
2. The offline optimum of one paper job (median of 5 seeds).

Usage: ``python benchmarks/bench_spot.py [--jobs 1000] [--noise fixed-uniform] [--error 0.1]``.
With fewer jobs than 1000 it also prints the linear extrapolation to 1000
(labelled as such).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import jax
import numpy as np

import aisched
from aisched.online.spot import evaluate_pool, noisy, paper_pool, select
from aisched.online.spot import window_kernel as wk


def _time_without_window(jobs, pool, pred, seed: int, chunk: int) -> tuple[float, float]:
    """Seconds of the AHAP kernels with and without (10) (same shapes, compiled beforehand)."""
    q = wk.work_quantum(list(jobs))
    shifts = wk.shifts_of(jobs[0], q)
    fcs = [pred.forecast(j.spot_price, j.spot_available, j.deadline, 5, seed=seed * 1_000_003 + k)
           for k, j in enumerate(jobs)]
    arrays = [wk.job_arrays(j, pf, af, q, lead=5, size=17) for j, (pf, af) in zip(jobs, fcs)]
    out = []
    for skip in (False, True):
        for warm in (True, False):
            t = time.perf_counter()
            for start in range(0, len(jobs), chunk):
                batch = wk.stack(arrays[start:start + chunk])
                for w in range(1, 6):
                    members = [p for p in pool if p.algorithm == "ahap" and p.window == w]
                    wk.ahap_batch(batch, np.array([p.commitment for p in members]),
                                  np.array([p.threshold for p in members]), window=w,
                                  lattice=wk.lattice_size(list(jobs), w, q), shifts=shifts,
                                  skip_window=skip)
                if warm:
                    break
            if not warm:
                out.append(time.perf_counter() - t)
    return out[0], out[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=1000)
    ap.add_argument("--error", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=50, help="jobs per kernel call")
    args = ap.parse_args()
    print(f"cores visible: {os.cpu_count()}, JAX devices: {jax.devices()}")

    jobs = aisched.scenarios.spot.workload(seed=args.seed, jobs=args.jobs, deadline=10)
    pool = paper_pool()
    pred = noisy(args.error, seed=args.seed)
    chunk = min(args.chunk, len(jobs))
    t0 = time.perf_counter()
    evaluate_pool(jobs[:chunk], pool, pred, seed=args.seed, chunk=chunk)  # compiles every kernel once
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    utilities, info = evaluate_pool(jobs, pool, pred, seed=args.seed, chunk=chunk)
    pool_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = select(jobs, pool, utilities=utilities, seed=args.seed)
    select_s = time.perf_counter() - t0
    K, M = len(jobs), len(pool)
    print(f"[pool] {K} jobs x {M} policies: pool evaluation {pool_s:.1f} s (forecasts "
          f"{info['forecast_s']:.2f} s) + Algorithm 2 {select_s:.3f} s = {pool_s + select_s:.1f} s; "
          f"first call (compilation of 6 kernels on {chunk} jobs) {compile_s:.1f} s")
    print(f"[pool] throughput {K * M / info['kernel_s']:.0f} policy-jobs/s "
          f"({1e3 * info['kernel_s'] / (K * M):.2f} ms per policy-job)")
    print(f"[pool] regret {res.regret:.2f} <= bound {res.regret_bound:.2f}; best fixed "
          f"{res.policy_names[res.best_policy]}; windows (10) actually needed: {info['windows_solved']}")
    if K < 1000:
        print(f"[pool] EXTRAPOLATED (linear in K) to 1000 jobs: ~{(pool_s + select_s) * 1000 / K:.0f} s")
    with_w, without_w = _time_without_window(jobs, pool, pred, args.seed, chunk)
    print(f"[pool] AHAP kernels {with_w:.2f} s with (10), {without_w:.2f} s with (10) replaced by an "
          f"empty plan: share in (10) ~{100 * (1 - without_w / with_w):.0f}%")

    times = []
    for seed in range(5):
        inst = aisched.scenarios.spot.generate(seed=seed, deadline=10)
        aisched.offline(inst) if seed == 0 else None
        t = time.perf_counter()
        out = aisched.offline(inst)
        times.append(time.perf_counter() - t)
        assert out.status == "optimal"
    print(f"[offline] paper job (work 80, d 10, 12 GPUs): median {statistics.median(times):.2f} s, "
          f"max {max(times):.2f} s over 5 seeds")


if __name__ == "__main__":
    main()
