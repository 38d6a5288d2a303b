"""`tenants` sweep metrics of a cell: fairness (Figs. 7-8), surplus (Fig. 12), utilisation (Fig. 13)."""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched.models.tenants import TenantInstance

__all__ = ["cell_metrics", "gpu_utilisation"]


def cell_metrics(instance: TenantInstance, outcome: Any) -> dict[str, float]:
    """Family metrics of one sweep cell.

    ``alpha_variance``: the variance of the revenue-fairness ratios (Fig. 8);
    ``alpha_u<k>``: user k's ratio ``alpha_u`` (Fig. 7); ``min_surplus``: the least
    ``mu_j`` = ideal revenue - resource cost over the jobs Astraea admitted
    (Fig. 12; ``nan`` for schedulers without admission prices or no admitted job);
    ``gpu_util_peak``: the largest share of all GPUs busy in one slot (Fig. 13,
    :func:`gpu_utilisation`); ``makespan``: slots from 0 until the last admitted
    job completes (Fig. 13); ``revenue_per_job``: revenue (3) per admitted job
    (Table 2; ``nan`` when none is admitted).
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
    return out


def gpu_utilisation(instance: TenantInstance, plan: Any) -> np.ndarray:
    """(slot,) share of all workers (GPUs, ``sum_s C_sw``) in use by the admitted jobs (Fig. 13)."""
    from aisched.models.tenants import usage

    used_w, _ = usage(instance, plan)
    return used_w.sum(axis=0) / max(1, int(instance.total_workers))
