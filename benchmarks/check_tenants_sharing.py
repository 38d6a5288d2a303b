"""How often Astraea shares at Fig. 4a's setting (14 users, 100 servers, 200 jobs); prints figures.

Per seed and window rule (``generate(window=...)``, docs/readings/tenants.md T8): the
rule that ran (``instance.workload``), users with jobs, and for each scheduler
its revenue (3), jobs admitted and the sharing diagnostics of
:func:`aisched.scenarios.tenants.metrics.sharing` (``shared_jobs``: Astraea's
jobs placed on the pooled idle resources, Algorithm 2 line 5; ``paying_jobs``
and ``payments``: those that paid ``c_jw + c_jp > 0`` (2); ``jobs_beyond_quota``:
jobs that ran while their owner held more than its quota, any scheduler). With
``--why``, for Astraea: how many jobs each phase of Algorithm 2 admitted and
the least, median and largest payment per paying job.

Usage: ``python benchmarks/check_tenants_sharing.py [--seeds 0 1 2] [--windows every_tenant consecutive]
[--utility linear] [--why]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import aisched
from aisched.scenarios.tenants import generate
from aisched.scenarios.tenants.metrics import sharing

ALGORITHMS = ("astraea", "batchsche", "gandiva_fair", "hived")


def _count_kernel_calls() -> dict:
    """Count Astraea's value-bound rejections and Algorithm 3 calls per phase (patched in, restored after)."""
    from aisched.online.tenants.astraea import BOUND_MARGIN
    from aisched.online.tenants.astraea import algorithm as astraea
    from aisched.online.tenants.astraea.kernel import RoundState

    calls: dict = {"bound_rejects": 0, "fair_share": 0, "fair_share_none": 0, "pool": 0, "pool_none": 0,
                   "fair_share_none_even_empty": 0, "pool_none_even_empty": 0}
    bound, best = astraea.value_bound, astraea.best_schedule

    def counted_bound(*a, **k):
        value = bound(*a, **k)
        calls["bound_rejects"] += int(value < -BOUND_MARGIN)
        return value

    def counted_best(state, job, fair_share, *a, **k):
        sched = best(state, job, fair_share, *a, **k)
        key = "fair_share" if fair_share else "pool"
        calls[key] += 1
        calls[key + "_none"] += int(sched is None)
        if sched is None:  # would the whole cluster, empty and at zero prices, have a schedule for it?
            empty = RoundState(state.cap_w, state.cap_p, state.quota_w, state.quota_p, state.length,
                               state.theta_w, state.theta_p)
            calls[key + "_none_even_empty"] += int(best(empty, job, False, *a, **k) is None)
        return sched

    def restore() -> None:
        astraea.value_bound, astraea.best_schedule = bound, best

    astraea.value_bound, astraea.best_schedule = counted_bound, counted_best
    calls["_restore"] = restore
    return calls


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--windows", nargs="+", default=["every_tenant", "consecutive"])
    ap.add_argument("--utility", default="linear", choices=("linear", "convex"))
    ap.add_argument("--users", type=int, default=14)
    ap.add_argument("--servers", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=200)
    ap.add_argument("--algorithms", nargs="+", default=list(ALGORITHMS))
    ap.add_argument("--why", action="store_true", help="Astraea's phases and payments")
    args = ap.parse_args()
    print("seed window workload users_with_jobs | algorithm revenue admitted shared_jobs paying_jobs payments "
          "jobs_beyond_quota seconds")
    for seed in args.seeds:
        for window in args.windows:
            inst = generate(seed=seed, users=args.users, servers=args.servers, jobs=args.jobs,
                            utility=args.utility, slot_hours=1.0, window=window)
            head = f"{seed} {window} {inst.workload} {np.unique(inst.owner).size}"
            for name in args.algorithms:
                calls = _count_kernel_calls() if args.why and name == "astraea" else None
                tic = time.perf_counter()
                try:
                    out = aisched.run(name, inst)
                finally:
                    if calls is not None:
                        calls.pop("_restore")()
                took = time.perf_counter() - tic
                d = sharing(inst, out.plan)
                print(f"{head} | {name} {out.objective:,.0f} {int(out.admitted.sum())} {d['shared_jobs']:g} "
                      f"{d['paying_jobs']:g} {d['payments']:,.1f} {d['jobs_beyond_quota']:g} {took:.1f}", flush=True)
                if args.why and name == "astraea":
                    plan = out.plan
                    adm = plan["admitted"].values.astype(bool)
                    shared = plan["shared"].values.astype(bool) & adm
                    cost = np.nan_to_num(plan["worker_cost"].values.astype(float)) + \
                        np.nan_to_num(plan["ps_cost"].values.astype(float))
                    paid = cost[shared & (cost > 0)]
                    print(f"    astraea: {int((adm & ~shared).sum())} admitted within fair share (line 3), "
                          f"{int(shared.sum())} on the pool (line 5); payments per paying job: "
                          + (f"min {paid.min():.2f} median {np.median(paid):.2f} max {paid.max():.2f}"
                             if paid.size else "none"), flush=True)
                    print(f"    astraea: {calls['bound_rejects']} tries rejected by value_bound (no schedule of the "
                          "round passes the admission at any resources, at the round's prices); Algorithm 3 run "
                          f"{calls['fair_share']} times within a fair share (line 3: {calls['fair_share_none']} "
                          f"found no schedule, {calls['fair_share_none_even_empty']} of them none on the whole "
                          f"cluster empty at zero prices either) and {calls['pool']} times on the pool (line 5: "
                          f"{calls['pool_none']} found none, {calls['pool_none_even_empty']} of them none on the "
                          "empty cluster either)", flush=True)


if __name__ == "__main__":
    main()
