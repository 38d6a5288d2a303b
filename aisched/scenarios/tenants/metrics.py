"""`tenants` sweep metrics of a cell: fairness (Figs. 7-8), surplus (Fig. 12), utilisation (Fig. 13)."""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched import families
from aisched.models.tenants import TenantInstance
from aisched.scenarios.tenants.breakdown import revenue_breakdown

__all__ = ["DIAGNOSTICS", "metrics", "cell_metrics", "gpu_utilisation", "sharing"]


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
    families.Diagnostic("gpu_util_mean", "mean GPU utilisation"),
)

