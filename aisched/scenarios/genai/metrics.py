"""`genai` mechanism diagnostics: the cell columns that say whether ComDOS's memory pricing acted.

The columns themselves are the family's registered resource metrics
(:func:`aisched.online.genai.metrics.utilisation`, recorded in every sweep cell).
"""

from __future__ import annotations

from typing import Any

from aisched import families

__all__ = ["DIAGNOSTICS", "metrics", "workload_premises"]


def metrics(instance: Any, outcome: Any) -> dict[str, float]:
    """The family's columns of a result row (``compare`` and every sweep cell).

    Memory and compute utilisation (:func:`aisched.online.genai.metrics.utilisation`): does (5h) bind?
    """
    from aisched.online.genai.metrics import utilisation

    return utilisation(instance, outcome)


#: The mechanism diagnostics: the cell columns that say whether comdos's mechanism acted.
DIAGNOSTICS: tuple[families.Diagnostic, ...] = (
    families.Diagnostic("memory_binding", "edge-slots at memory capacity", acts_above=0.0),
    families.Diagnostic("memory_utilisation", "mean memory utilisation"),
    families.Diagnostic("memory_peak", "peak memory utilisation"),
)



def workload_premises(instance: Any, *, bound_time_limit: float | None = 60.0) -> dict[str, float]:
    """How a workload stands against the paper's premises (docs/readings/genai.md A2b).

    Task costs are taken at the mean unit costs over edges, weighted by the instance's
    ``cost_weight``, without transfers: ``cost_jm = f_mj (w_f r^f_mj mean e^f + w_h r^s_m mean e^h)``.

    Returns
    -------
    dict
        ``jobs``; ``margin_median`` and ``margin_p10``: ``(b_i - cheapest_i) / b_i`` over jobs, with
        ``cheapest_i = sum_j min_m cost_jm``; ``unprofitable_share``: jobs with ``b_i <= cheapest_i``;
        ``fastest_is_cheapest``: share of tasks with two or more candidates whose fastest model (the
        first of shortest runtime, HEFT-MA's rule) costs the least; ``all_fastest_extra_median``: median
        over jobs of ``sum_j cost at the fastest / cheapest_i - 1``; ``heft_ma_memory`` and
        ``heft_ma_binding``: HEFT-MA's mean memory utilisation and share of edge-slots at capacity;
        ``heft_ma``, ``reference`` (the certified bound of :func:`aisched.bound`, equal to the optimum
        where ``proven_optimal``), ``primal`` (its verified plan), ``proven_optimal`` and ``headroom = reference / heft_ma - 1``.
    """
    import numpy as np

    from aisched.core import runner
    from aisched.online.genai.metrics import utilisation

    inst = instance
    w = np.asarray(inst.cost_weight, dtype=float)
    valid = inst.candidate_model >= 0
    size = np.where(valid, inst.model_size[np.maximum(inst.candidate_model, 0)], 0.0)
    per_slot = w[0] * inst.compute * float(inst.compute_cost.mean()) + w[2] * size * float(inst.hosting_cost.mean())
    cost = np.where(valid, inst.runtime * per_slot, np.inf)  # (I, J, C)
    tasks = valid.any(axis=2)
    cheapest = np.where(tasks, cost.min(axis=2), 0.0)
    fastest = np.argmin(np.where(valid, inst.runtime, np.iinfo(np.int64).max), axis=2)
    at_fastest = np.where(tasks, np.take_along_axis(cost, fastest[..., None], axis=2)[..., 0], 0.0)
    several = valid.sum(axis=2) >= 2
    job_cheapest, job_fastest = cheapest.sum(axis=1), at_fastest.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        margin = (inst.revenue - job_cheapest) / inst.revenue
        extra = job_fastest / job_cheapest - 1.0
    heft = runner.run("heft_ma", inst)
    use = utilisation(inst, heft)
    ref = runner.bound(inst, time_limit=bound_time_limit)
    heft_value = heft.verify(inst)
    return {
        "jobs": float(inst.num_jobs),
        "margin_median": float(np.median(margin)), "margin_p10": float(np.percentile(margin, 10)),
        "unprofitable_share": float(np.mean(inst.revenue <= job_cheapest)),
        "fastest_is_cheapest": float(np.mean(at_fastest[several] <= cheapest[several] * (1 + 1e-12))),
        "all_fastest_extra_median": float(np.median(extra[np.isfinite(extra)])),
        "heft_ma_memory": float(use["memory_utilisation"]), "heft_ma_binding": float(use.get("memory_binding", np.nan)),
        "heft_ma": float(heft_value), "reference": float(ref.bound), "primal": float(ref.objective),
        "proven_optimal": float(bool(ref.info.get("proven_optimal", False))),
        "headroom": float(ref.bound / heft_value - 1.0) if heft_value > 0 else float("nan"),
    }
