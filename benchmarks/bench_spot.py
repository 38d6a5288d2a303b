"""Benchmark of the `spot` family's performance figures. Prints the figures.

1. The 112-policy pool (105 AHAP + 7 AHANP) on the K-job workload (deadline 10,
   default K = 1000, the target's size) plus Algorithm 2, with the pool
   evaluator ``--engine`` (default "batched": only the needed, distinct windows
   (10) are solved, see :mod:`aisched.online.spot.pool`). Printed: compilation
   (a first call on a few jobs compiles the kernels), wall time of the pool
   evaluation and of Algorithm 2, per-policy-job throughput, the (10) solves
   needed and, for "batched", distinct and padded, and the share of the
   evaluation spent in the batched (10) solver.
2. With ``--compare-vmap N``: the vmapped kernel (``engine="vmap"``, (10) in
   every slot of every lane) on the first N jobs, its time per policy-job, and a
   check that both engines give identical utilities there.
3. The offline optimum of one paper job (median, p90 and max over ``--offline-seeds``
   seeds, with :data:`~aisched.models.spot.program.HIGHS_OPTIONS` and with HiGHS's own
   defaults; ``--no-offline`` skips it, ``--offline-only`` runs only it).

4. ``--changeover on``: the same pool with the changeover cost on every job
   (docs/readings/spot.md S7): AHAP's (10) over (on-demand, spot) splits
   (:mod:`aisched.online.spot.window.split`), one forward pass per job, slot and
   previous split (:mod:`aisched.online.spot.window.groups`). ``--changeover
   both`` runs off and then on in one process on the same jobs and prints the
   ratios of the pool's times.

Usage: ``python benchmarks/bench_spot.py [--jobs 1000] [--error 0.1] [--compare-vmap 20] [--changeover on]``.
With fewer jobs than 1000 it also prints the linear extrapolation to 1000
(labelled as such). The machine may be shared: timings are wall-clock.
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
from aisched.online.spot import pool as pk
from aisched.online.spot.window import kernel as wk


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=1000)
    ap.add_argument("--error", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engine", choices=("batched", "vmap"), default="batched")
    ap.add_argument("--chunk", type=int, default=50, help="jobs per kernel call (engine 'vmap')")
    ap.add_argument("--compare-vmap", type=int, default=0, metavar="N",
                    help="also time engine 'vmap' on the first N jobs and check equality")
    ap.add_argument("--no-offline", action="store_true")
    ap.add_argument("--offline-only", action="store_true", help="only the offline timing")
    ap.add_argument("--offline-seeds", type=int, default=20)
    ap.add_argument("--averaging", choices=("chc", "actual_state"), default="chc",
                    help="AHAP's averaging reading (docs/readings/spot.md S3)")
    ap.add_argument("--changeover", choices=("off", "on", "both"), default="off",
                    help="the changeover cost of every job (S7); 'both': off then on, and their ratio")
    ap.add_argument("--save", default=None, metavar="PATH.npy",
                    help="save the utilities (job x policy) to compare runs bit for bit")
    args = ap.parse_args()
    if args.offline_only:
        offline(args.offline_seeds)
        return
    print(f"cores visible: {os.cpu_count()}, JAX devices: {jax.devices()}, load average "
          f"{os.getloadavg()[0]:.1f} (the machine may be shared)")

    base = aisched.scenarios.spot.workload(seed=args.seed, jobs=args.jobs, deadline=10)
    times = {}
    for changeover in (("off", "on") if args.changeover == "both" else (args.changeover,)):
        jobs = base if changeover == "off" else [job.replace(changeover="on") for job in base]
        times[changeover] = run_pool(args, jobs, changeover)
    if len(times) == 2:
        (on_pool, on_cpu, on_all), (off_pool, off_cpu, off_all) = times["on"], times["off"]
        print(f"[pool] changeover on / off, one process: pool evaluation {on_pool / off_pool:.1f}x wall "
              f"({on_pool:.1f} s / {off_pool:.1f} s), {on_cpu / off_cpu:.1f}x CPU; with Algorithm 2 "
              f"{on_all / off_all:.1f}x ({on_all:.1f} s / {off_all:.1f} s); load average now {os.getloadavg()[0]:.1f}")
    if not args.no_offline:
        offline(args.offline_seeds)


def run_pool(args: argparse.Namespace, jobs: list, changeover: str) -> tuple[float, float, float]:
    """Part 1 (and 2) of the module doc on ``jobs``; returns the pool evaluation's wall and CPU seconds
    and the wall seconds with Algorithm 2."""
    pool = paper_pool()
    pred = noisy(args.error, seed=args.seed)
    K, M = len(jobs), len(pool)
    chunk = min(args.chunk, K)
    warm = jobs[: min(K, 8 if args.engine == "batched" else chunk)]
    t0 = time.perf_counter()
    evaluate_pool(warm, pool, pred, seed=args.seed, chunk=chunk, engine=args.engine, averaging=args.averaging)
    compile_s = time.perf_counter() - t0
    before = wk.cache_size() + pk.cache_size()
    t0 = time.perf_counter()
    c0 = time.process_time()
    utilities, info = evaluate_pool(jobs, pool, pred, seed=args.seed, chunk=chunk, engine=args.engine,
                                    averaging=args.averaging)
    if args.save:
        np.save(args.save.replace(".npy", f"-{changeover}.npy") if args.changeover == "both" else args.save, utilities)
    pool_s = time.perf_counter() - t0
    pool_cpu = time.process_time() - c0
    new_compiles = wk.cache_size() + pk.cache_size() - before
    t0 = time.perf_counter()
    res = select(jobs, pool, utilities=utilities, seed=args.seed)
    select_s = time.perf_counter() - t0
    engine = info.get("engine", args.engine)
    print(f"[pool] changeover {changeover}, engine {engine!r}: {K} jobs x {M} policies: pool evaluation {pool_s:.1f} s "
          f"(forecasts {info['forecast_s']:.2f} s) + Algorithm 2 {select_s:.3f} s = {pool_s + select_s:.1f} s")
    print(f"[pool] CPU time of the pool evaluation {pool_cpu:.1f} s (less sensitive to other load than wall)")
    print(f"[pool] first call on {len(warm)} jobs (compiles the kernels) {compile_s:.1f} s; "
          f"compilations during the {K}-job run: {new_compiles}")
    print(f"[pool] throughput {K * M / pool_s:.0f} policy-jobs/s ({1e3 * pool_s / (K * M):.3f} ms per "
          f"policy-job)")
    print(f"[pool] (10) solves needed by Algorithm 1: {info['windows_solved']} of {K * (M - 7) * 10} "
          f"lane-slots (the vmap kernel solves all of them)")
    if engine == "batched":
        print(f"[pool] after deduplication: {info['windows_unique']} distinct windows, sharing "
              f"{info['forward_passes']} forward DP passes (one per job, slot and previous count; "
              f"aisched.online.spot.window.groups), {info['windows_padded']} problem slots with padding; "
              f"time in the batched (10) solver {info['window_s']:.1f} s = "
              f"{100 * info['window_s'] / pool_s:.0f}% of the pool evaluation")
    print(f"[pool] regret {res.regret:.2f} <= bound {res.regret_bound:.2f}; best fixed "
          f"{res.policy_names[res.best_policy]}")
    if K < 1000:
        print(f"[pool] EXTRAPOLATED (linear in K) to 1000 jobs: ~{(pool_s + select_s) * 1000 / K:.0f} s")
    if args.compare_vmap:
        sub = jobs[: args.compare_vmap]
        c = min(args.chunk, len(sub))
        evaluate_pool(sub[:c], pool, pred, seed=args.seed, chunk=c, engine="vmap",
                      averaging=args.averaging)  # compile
        t0 = time.perf_counter()
        u_vmap, _ = evaluate_pool(sub, pool, pred, seed=args.seed, chunk=c, engine="vmap", averaging=args.averaging)
        vmap_s = time.perf_counter() - t0
        same = np.array_equal(u_vmap, utilities[: len(sub)])
        print(f"[vmap] engine 'vmap' on {len(sub)} jobs: {vmap_s:.1f} s ({1e3 * vmap_s / (len(sub) * M):.2f} ms "
              f"per policy-job, ~{vmap_s * 1000 / len(sub):.0f} s EXTRAPOLATED to 1000 jobs); "
              f"utilities identical to the batched engine: {same}")
    return pool_s, pool_cpu, pool_s + select_s


def offline(seeds: int) -> None:
    """Time ``aisched.offline`` on ``seeds`` paper jobs, with our HiGHS options and HiGHS's defaults."""
    aisched.offline(aisched.scenarios.spot.generate(seed=10_000, deadline=10))  # warm-up
    for label, options in (("default (HIGHS_OPTIONS)", None), ("HiGHS defaults", {})):
        times = []
        for seed in range(seeds):
            inst = aisched.scenarios.spot.generate(seed=seed, deadline=10)
            t = time.perf_counter()
            out = aisched.offline(inst, solver_options=options)
            times.append(time.perf_counter() - t)
            assert out.status == "optimal"
        print(f"[offline] paper job (work 80, d 10, 12 GPUs), {label}: median "
              f"{statistics.median(times):.2f} s, p90 {np.percentile(times, 90):.2f} s, max "
              f"{max(times):.2f} s over {seeds} seeds")


if __name__ == "__main__":
    main()
