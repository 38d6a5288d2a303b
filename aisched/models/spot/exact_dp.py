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


def _splits(inst: SpotInstance, t: int) -> list[tuple[int, int]]:
    """The ``(on_demand, spot)`` choices of slot ``t``.

    Changeover "off": each count split cost-optimally (spot first when
    ``p^s_t < p_o``). "on": every split (keeping a split can avoid a restart,
    so the cheapest split is not always optimal).
    """
    p_o = inst.on_demand_price
    ps, avail = float(inst.spot_price[t]), int(inst.spot_available[t])
    out = []
    for n in inst.gpu_options():
        n = int(n)
        if inst.changeover == "off":
            sp = min(n, avail) if ps < p_o else 0
            out.append((n - sp, sp))
        else:
            out.extend((n - sp, sp) for sp in range(min(n, avail) + 1))
    return out


def exact_optimum(inst: SpotInstance) -> tuple[float, np.ndarray, np.ndarray]:
    """``(utility, on_demand, spot)`` of an optimal plan of problem (5), exactly.

    With ``changeover="off"`` the GPU count ``n`` of a slot is split
    cost-optimally: spot GPUs first when ``p^s_t < p_o`` (up to
    ``min(n, n^avail_t)``), on-demand for the rest; a state is the previous
    count. With ``changeover="on"`` every split is tried and a state is the
    previous ``(on_demand, spot)`` pair.
    """
    frontier: dict[tuple[int, int], list] = {(0, 0): [(0.0, 0.0, ())]}
    best = (-np.inf, ())
    for t in range(inst.num_slots):
        nxt: dict[tuple[int, int], list] = {}
        ps = float(inst.spot_price[t])
        options = _splits(inst, t)
        for (po, pss), states in frontier.items():
            for o, sp in options:
                cost_n = sp * ps + o * inst.on_demand_price
                work = inst.slot_work(o, sp, po, pss)
                key = (o, sp) if inst.changeover == "on" else (0, o + sp)
                for z, c, hist in states:
                    z2, c2, h2 = z + work, c + cost_n, (*hist, (o, sp))
                    if z2 >= inst.work - WORK_TOL:
                        u = float(inst.value_at(t + 1)) - c2
                        if u > best[0] + 1e-12:
                            best = (u, h2)
                    else:
                        nxt.setdefault(key, []).append((z2, c2, h2))
        frontier = {k: _prune(v) for k, v in nxt.items()}
    hist = best[1]
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    for t, (o, s) in enumerate(hist):
        od[t], sp[t] = o, s
    return float(best[0]), od, sp
