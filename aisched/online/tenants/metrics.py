"""Metrics of section 5.1 for the `tenants` family: gains, revenue fairness, performance ratio.

A user's gain ``g_u`` has three parts (section 5.1):

1. ``own``: utility of its jobs trained within its fair share (``J^u_1``);
2. ``income``: what it receives by lending unused resources, ``sum_t sum_j rho^u_j(t)`` of (2);
3. ``shared_net``: utility minus cost ``f - c_w - c_p`` of its jobs trained on
   others' unused resources (``J^u \\ J^u_1``).

The paper's part (ii) sums over jobs of the *other* users; a user that pays
itself (it is one of the owners of the unused resources, "one user can pay
itself") would then lose that amount. We count income from every paying job,
its own included, so that the gains add up to the total revenue (3).

Revenue-fairness ratio ``alpha_u = (g_u / total revenue) / share_u`` with the
initial share ``share_u = (q^u_w / sum q_w + q^u_p / sum q_p) / 2``; its
(population) variance over users is Fig. 8's measure. Plans without
accounting variables (baselines without payments) count every trained job in
part 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance
from aisched.outcome import Outcome

__all__ = ["Fairness", "fairness", "performance_ratio"]


@dataclass(frozen=True)
class Fairness:
    """Per-user gains and the revenue-fairness ratio.

    Attributes
    ----------
    per_user
        DataFrame indexed by ``user`` with columns ``own``, ``income``,
        ``shared_net``, ``gain``, ``initial_share``, ``alpha``.
    total_revenue
        Sum of utilities of trained jobs (3).
    alpha_variance
        Population variance of ``alpha_u`` over users (Fig. 8).
    """

    per_user: pd.DataFrame
    total_revenue: float
    alpha_variance: float


def fairness(instance: TenantInstance, outcome: Outcome) -> Fairness:
    """Each user's gain in its three parts, ``alpha_u`` and their variance (section 5.1).

    The outcome is verified first (:meth:`Outcome.verify`), so the numbers
    come from a feasible plan.
    """
    outcome.verify(instance)
    plan = outcome.plan
    adm = plan["admitted"].values.astype(bool)
    idx = np.nonzero(adm)[0]
    f = np.zeros(instance.num_jobs)
    f[idx] = instance.utility_value(idx, plan["end"].values[idx] + 1 - instance.arrival[idx])
    shared = plan["shared"].values.astype(bool) if "shared" in plan else np.zeros(instance.num_jobs, bool)
    cost = np.zeros(instance.num_jobs)
    for name in ("worker_cost", "ps_cost"):
        if name in plan:
            cost += plan[name].values
    income = (
        plan["income"].transpose("user", "job").values
        if "income" in plan else np.zeros((instance.num_users, instance.num_jobs))
    )
    rows = []
    total = float(f.sum())
    share = instance.fair_share()
    for u in range(instance.num_users):
        mine = adm & (instance.owner == u)
        own = float(f[mine & ~shared].sum())
        received = float(income[u].sum())
        net = float((f - cost)[mine & shared].sum())
        gain = own + received + net
        alpha = (gain / total) / share[u] if total != 0 and share[u] > 0 else math.nan
        rows.append({"user": u, "own": own, "income": received, "shared_net": net, "gain": gain,
                     "initial_share": float(share[u]), "alpha": alpha})
    frame = pd.DataFrame(rows).set_index("user")
    alphas = frame["alpha"].to_numpy()
    var = float(np.var(alphas[np.isfinite(alphas)])) if np.isfinite(alphas).any() else math.nan
    return Fairness(per_user=frame, total_revenue=total, alpha_variance=var)


def performance_ratio(outcome: Outcome, offline: Outcome, *, allow_bound: bool = False) -> float:
    """Total revenue of ``outcome`` over the offline optimum (Figs. 5-6).

    Parameters
    ----------
    outcome
        An online outcome.
    offline
        The result of :func:`aisched.offline` on the same instance.
    allow_bound
        When the offline solve stopped before proving optimality, divide by
        its proven bound instead (a lower estimate of the ratio) rather than
        raising.

    Raises
    ------
    InvalidScenarioError
        If the offline solve is not proven optimal (and ``allow_bound`` is False)
        or the reference is not positive.
    """
    if offline.status == "optimal":
        ref = offline.objective
    elif allow_bound and math.isfinite(offline.bound):
        ref = offline.bound
    else:
        raise InvalidScenarioError(
            "offline", f"status {offline.status!r} is not a proven optimum (pass allow_bound=True)"
        )
    if not ref > 0:
        raise InvalidScenarioError("offline", f"reference revenue {ref!r} must be > 0")
    return float(outcome.objective / ref)
