"""An exact dynamic program for problem (5), a cross-check of the MILP on small cases.

Forward over slots; a state is ``(previous GPU count, progress)`` with the least
cost reaching it. Progress is kept exactly (no grid): states with the same
previous count are pruned by Pareto dominance (more progress for no more cost).
A state whose progress reaches ``L`` in slot ``t`` completes the job at
``T = t + 1`` with utility ``V(T) - cost``. Exponential in the worst case: meant
for a handful of slots and GPU counts.
"""

from __future__ import annotations

import numpy as np

from aisched.models.spot.instance import SpotInstance
from aisched.models.spot.plan import WORK_TOL

__all__ = ["exact_optimum"]


def _prune(states: list[tuple[float, float, tuple[tuple[int, int], ...]]]) -> list:
    """Keep the Pareto front (progress up, cost down) of states with one previous count."""
    states.sort(key=lambda s: (-s[0], s[1]))
    out, best_cost = [], np.inf
    for z, c, hist in states:
        if c < best_cost - 1e-12:
            out.append((z, c, hist))
            best_cost = c
    return out


def exact_optimum(inst: SpotInstance) -> tuple[float, np.ndarray, np.ndarray]:
    """``(utility, on_demand, spot)`` of an optimal plan of problem (5), exactly.

    In each slot the GPU count ``n`` is split cost-optimally: spot GPUs first
    when ``p^s_t < p_o`` (up to ``min(n, n^avail_t)``), on-demand for the rest.
    """
    options = inst.gpu_options()
    p_o = inst.on_demand_price
    frontier: dict[int, list] = {0: [(0.0, 0.0, ())]}
    best = (-np.inf, ())
    for t in range(inst.num_slots):
        nxt: dict[int, list] = {}
        ps, avail = float(inst.spot_price[t]), int(inst.spot_available[t])
        for prev, states in frontier.items():
            for n in options:
                n = int(n)
                sp = min(n, avail) if ps < p_o else 0
                cost_n = sp * ps + (n - sp) * p_o
                work = float(inst.efficiency(n, prev) * inst.throughput(n))
                for z, c, hist in states:
                    z2, c2, h2 = z + work, c + cost_n, (*hist, (n - sp, sp))
                    if z2 >= inst.work - WORK_TOL:
                        u = float(inst.value_at(t + 1)) - c2
                        if u > best[0] + 1e-12:
                            best = (u, h2)
                    else:
                        nxt.setdefault(n, []).append((z2, c2, h2))
        frontier = {k: _prune(v) for k, v in nxt.items()}
    hist = best[1]
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    for t, (o, s) in enumerate(hist):
        od[t], sp[t] = o, s
    return float(best[0]), od, sp
