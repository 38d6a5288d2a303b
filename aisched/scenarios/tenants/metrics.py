"""`tenants` sweep metrics of a cell: fairness (Figs. 7-8), surplus (Fig. 12), utilisation (Fig. 13)."""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched import families
from aisched.models.tenants import TenantInstance
from aisched.scenarios.tenants.breakdown import revenue_breakdown

__all__ = ["CONTENTION_COLUMNS", "DIAGNOSTICS", "cell_metrics", "contention", "fastest_width", "gpu_utilisation",
           "metrics", "rejections", "sharing"]

#: The contention columns :func:`contention` adds to a cell (docs/readings/tenants.md T-contention).
CONTENTION_COLUMNS = ("gpu_util_busy_mean", "admitted_at_loss", "rejected_unprofitable", "rejected_capacity",
                      "rejected_quota", "rejected_waiting")


def metrics(instance: TenantInstance, outcome: Any) -> dict[str, float]:
    """The family's columns of a result row (``compare`` and every sweep cell): :func:`cell_metrics`."""
    return cell_metrics(instance, outcome)


def cell_metrics(instance: TenantInstance, outcome: Any) -> dict[str, float]:
    """Family metrics of one sweep cell.

    ``alpha_variance``: the variance of the revenue-fairness ratios (Fig. 8);
    ``alpha_u<k>``: user k's ratio ``alpha_u`` (Fig. 7); ``min_surplus``: the least
    ``mu_j`` = ideal revenue - resource cost over the jobs Astraea admitted
    (Fig. 12; ``nan`` for schedulers without admission prices or no admitted job);
    ``gpu_util_peak``: the largest share of all GPUs busy in one slot (Fig. 13,
    :func:`gpu_utilisation`); ``makespan``: slots from 0 until the last admitted
    job completes (Fig. 13); ``revenue_per_job``: revenue (3) per admitted job
    (Table 2; ``nan`` when none is admitted); ``gpu_util_mean``: the mean over
    slots of that share; the sharing diagnostics of :func:`sharing`; and the
    revenue split of :func:`aisched.scenarios.tenants.breakdown.revenue_breakdown`
    (``ideal_t4``, ``ideal_other``, ``wait_loss``, ``mean_delay``).
    """
    from aisched.online.tenants.metrics import fairness

    fair = fairness(instance, outcome)
    out = {"alpha_variance": float(fair.alpha_variance)}
    out.update({f"alpha_u{int(u)}": float(a) for u, a in fair.per_user["alpha"].items()})
    plan = outcome.plan
    surplus = plan["mu"].values[plan["admitted"].values] if "mu" in plan else np.array([])
    surplus = surplus[np.isfinite(surplus)]
    out["min_surplus"] = float(surplus.min()) if surplus.size else float("nan")
    util = gpu_utilisation(instance, plan)
    out["gpu_util_peak"] = float(util.max(initial=0.0))
    admitted = plan["admitted"].values.astype(bool)
    out["makespan"] = float(plan["end"].values[admitted].max() + 1) if admitted.any() else float("nan")
    out["revenue_per_job"] = float(outcome.objective) / int(admitted.sum()) if admitted.any() else float("nan")
    out.update(sharing(instance, plan))
    out["gpu_util_mean"] = float(util.mean()) if util.size else 0.0
    out.update(revenue_breakdown(instance, plan))
    out.update(contention(instance, plan))
    return out


def fastest_width(instance: TenantInstance) -> np.ndarray:
    """(job,) workers of the job's fastest feasible run (:meth:`TenantInstance.fastest`); 0 if none."""
    return instance.fastest()[0]


def rejections(instance: TenantInstance, plan: Any) -> dict[str, float]:
    """Why each job a scheduler did not admit was left out, read from the plan alone.

    A rejected job ``j`` (arrival ``r_j``, fastest feasible run ``d_j`` slots on ``w_j`` workers,
    :func:`fastest_width`) is counted in exactly one of:

    - ``rejected_unprofitable``: no schedule earns from it even alone on the empty cluster: no
      placement exists, ``r_j + d_j > T``, or ``f_j(d_j) <= 0`` (utility (3) at completion ``d_j``
      slots after arrival). No scheduler can be blamed for these;
    - ``rejected_capacity``: in some slot of ``[r_j, r_j + d_j)`` the admitted jobs of this plan left
      fewer than ``w_j`` workers free in the whole cluster (3c): the others held the capacity its
      fastest run needs from its arrival;
    - ``rejected_quota``: not for capacity, but in some slot of ``[r_j, r_j + d_j)`` the owner's
      admitted jobs left fewer than ``w_j`` of its worker quota ``q_w^u`` free: the job fitted the
      cluster only on other tenants' idle workers, which a scheduler without sharing (BatchSche's
      private clusters, HiveD's virtual clusters) does not lend;
    - ``rejected_waiting``: the rest: the cluster and the owner's quota had ``w_j`` workers free over
      ``[r_j, r_j + d_j)`` and the scheduler did not start the job then (Astraea's batch wait of
      Algorithm 1 and its one-round rule, docs/readings/tenants.md T4, its prices (8) and admission (7), a
      baseline's queue). The tests are on worker counts: a placement that (3d) or (3i) rules out
      counts as waiting.

    Returns
    -------
    dict
        The three counts (floats, as every cell column).
    """
    from aisched.models.tenants import usage

    admitted = plan["admitted"].values.astype(bool)
    rejected = ~admitted
    out = {"rejected_unprofitable": 0.0, "rejected_capacity": 0.0, "rejected_quota": 0.0, "rejected_waiting": 0.0}
    if not rejected.any():
        return out
    width, fastest = instance.fastest()
    arrival = np.asarray(instance.arrival, dtype=np.int64)
    T = instance.num_slots
    runnable = (width >= 1) & (fastest <= T - arrival)
    value = np.full(instance.num_jobs, -np.inf)
    value[runnable] = instance.utility_value(np.nonzero(runnable)[0], fastest[runnable])
    unprofitable = rejected & ~(value > 0)
    owner = np.asarray(instance.owner)
    free = instance.total_workers - usage(instance, plan)[0].sum(axis=0)
    own_free: dict[int, np.ndarray] = {}
    capacity = quota = 0
    for j in np.nonzero(rejected & ~unprofitable)[0]:
        window = slice(arrival[j], arrival[j] + fastest[j])
        if free[window].min() < width[j]:
            capacity += 1
            continue
        u = int(owner[j])
        if u not in own_free:
            own_free[u] = instance.worker_quota[u] - usage(instance, plan, owner == u)[0].sum(axis=0)
        quota += int(own_free[u][window].min() < width[j])
    out["rejected_unprofitable"] = float(unprofitable.sum())
    out["rejected_capacity"] = float(capacity)
    out["rejected_quota"] = float(quota)
    out["rejected_waiting"] = float(int((rejected & ~unprofitable).sum()) - capacity - quota)
    return out


def contention(instance: TenantInstance, plan: Any) -> dict[str, float]:
    """How crowded a run was: busy share of the GPUs and why jobs were left out (readings T-contention).

    ``gpu_util_busy_mean``: the mean over slots ``0 .. makespan - 1`` of the share of all workers in
    use (:func:`gpu_utilisation`; ``gpu_util_mean`` averages over the whole horizon ``T``, which the
    finishable horizon of docs/readings/tenants.md T2 makes several times the makespan); ``nan`` when no job
    is admitted. ``admitted_at_loss``: admitted jobs whose utility (3) at their completion is <= 0
    (what a scheduler that starts every job, docs/readings/tenants.md T3, pays for waiting where another
    would reject). The rejection counts are :func:`rejections`'. With ``gpu_util_peak``,
    ``gpu_util_mean``, ``jobs_beyond_quota`` (jobs shared, whatever the scheduler) and ``shared_jobs``
    (Astraea's own line-5 jobs) of :func:`cell_metrics`, these are the contention figures.
    """
    admitted = plan["admitted"].values.astype(bool)
    out = {}
    if admitted.any():
        makespan = int(plan["end"].values[admitted].max()) + 1
        out["gpu_util_busy_mean"] = float(gpu_utilisation(instance, plan)[:makespan].mean())
        idx = np.nonzero(admitted)[0]
        earned = instance.utility_value(idx, plan["end"].values[idx] + 1 - instance.arrival[idx])
        out["admitted_at_loss"] = float((earned <= 0).sum())
    else:
        out["gpu_util_busy_mean"] = float("nan")
        out["admitted_at_loss"] = 0.0
    out.update(rejections(instance, plan))
    return out


def sharing(instance: TenantInstance, plan: Any) -> dict[str, float]:
    """Whether the multi-tenant sharing of the paper happened (a mechanism diagnostic).

    ``owners_drawn``: 1 when the generator's documented draw gave the owners
    (``instance.workload == "trace-draw"``), 0 when a trace window did, ``nan``
    otherwise (synthetic or hand-made; docs/readings/tenants.md T8);
    ``users_with_jobs``: users that submitted at least one job; ``users_admitted``:
    users with at least one admitted job; ``jobs_beyond_quota``: admitted jobs
    that ran in a slot where their owner's jobs together held more workers or
    parameter servers than the owner's quota (they used other tenants' idle
    resources, whatever the scheduler calls it); ``shared_jobs`` and
    ``paying_jobs``: jobs a pricing scheduler (Astraea) marked ``shared`` and those
    among them with a positive payment ``c_jw + c_jp``; ``payments``: the sum of
    those payments (``nan`` for schedulers that keep no such accounts).
    """
    from aisched.models.tenants import usage

    admitted = plan["admitted"].values.astype(bool)
    owner = np.asarray(instance.owner)
    beyond = np.zeros(instance.num_jobs, dtype=bool)
    start, end = plan["start"].values, plan["end"].values
    for u in np.unique(owner[admitted]):
        mine = admitted & (owner == u)
        used_w, used_p = usage(instance, plan, mine)
        over = (used_w.sum(axis=0) > instance.worker_quota[u]) | (used_p.sum(axis=0) > instance.ps_quota[u])
        if not over.any():
            continue
        over_sum = np.concatenate([[0], np.cumsum(over)])  # slots over quota within [start, end]
        idx = np.nonzero(mine)[0]
        beyond[idx] = (over_sum[end[idx] + 1] - over_sum[start[idx]]) > 0
    workload = getattr(instance, "workload", "")
    drawn = 1.0 if workload == "trace-draw" else 0.0 if workload.startswith("trace-") else float("nan")
    out = {"owners_drawn": drawn, "users_with_jobs": float(np.unique(owner).size), "users_admitted": float(np.unique(owner[admitted]).size),
           "jobs_beyond_quota": float(beyond.sum())}
    if "shared" in plan:
        shared = plan["shared"].values.astype(bool) & admitted
        cost = np.zeros(instance.num_jobs)
        for name in ("worker_cost", "ps_cost"):
            if name in plan:
                cost = cost + np.nan_to_num(np.asarray(plan[name].values, dtype=float))
        paid = np.where(shared, cost, 0.0)
        out.update(shared_jobs=float(shared.sum()), paying_jobs=float((paid > 0).sum()), payments=float(paid.sum()))
    else:
        out.update(shared_jobs=float("nan"), paying_jobs=float("nan"), payments=float("nan"))
    return out


def gpu_utilisation(instance: TenantInstance, plan: Any) -> np.ndarray:
    """(slot,) share of all workers (GPUs, ``sum_s C_sw``) in use by the admitted jobs (Fig. 13)."""
    from aisched.models.tenants import usage

    used_w, _ = usage(instance, plan)
    return used_w.sum(axis=0) / max(1, int(instance.total_workers))


#: The mechanism diagnostics: the cell columns that say whether astraea's mechanism acted.
DIAGNOSTICS: tuple[families.Diagnostic, ...] = (
    families.Diagnostic("shared_jobs", "jobs on other tenants' resources", "count", acts_above=0.0),
    families.Diagnostic("paying_jobs", "jobs that paid", "count", acts_above=0.0),
    families.Diagnostic("jobs_beyond_quota", "jobs beyond their owner's quota", "count"),
    families.Diagnostic("owners_drawn", "cells whose owners the documented draw gave (T8; else a trace window)"),
    families.Diagnostic("users_with_jobs", "users with a job", "count"),
    families.Diagnostic("users_admitted", "users with an admitted job", "count"),
    families.Diagnostic("gpu_util_peak", "peak GPU utilisation"),
    families.Diagnostic("gpu_util_mean", "mean GPU utilisation"),
    families.Diagnostic("gpu_util_busy_mean", "mean GPU utilisation until the makespan"),
    families.Diagnostic("rejected_capacity", "jobs rejected for capacity", "count"),
    families.Diagnostic("rejected_quota", "jobs rejected with room only beyond the owner's quota", "count"),
    families.Diagnostic("rejected_waiting", "jobs rejected with room at arrival (waiting, prices)", "count"),
    families.Diagnostic("rejected_unprofitable", "jobs no schedule earns from", "count"),
    families.Diagnostic("admitted_at_loss", "admitted jobs that finished at a loss", "count"),
)

