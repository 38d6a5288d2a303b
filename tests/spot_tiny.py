"""Shared helpers of the spot tests: tiny instances and a brute-force optimum of problem (5)."""

from __future__ import annotations

import itertools

import numpy as np

from aisched.models.spot import SpotInstance, plan_utility


def tiny(seed: int = 0, *, slots: int = 6, deadline: int = 3, work: float = 8.0, nmin: int = 1,
         nmax: int = 3, mu: float = 0.9, value: float | None = None) -> SpotInstance:
    """A small random instance on the 0.1 work lattice (prices with 2 decimals)."""
    rng = np.random.default_rng(seed)
    return SpotInstance(
        work=work, deadline=deadline, min_gpus=nmin, max_gpus=nmax,
        value=2.0 * work if value is None else value, hard_deadline_factor=2.0,
        scale_up_efficiency=mu, scale_down_efficiency=mu,
        spot_price=np.round(rng.uniform(0.1, 1.3, slots), 2),
        spot_available=rng.integers(0, nmax + 1, slots),
    )


def brute_force(inst: SpotInstance) -> float:
    """Best ``V(T) - C`` over every (on-demand, spot) sequence of the whole horizon."""
    per_slot = []
    for t in range(inst.num_slots):
        opts = [(0, 0)]
        for n in range(inst.min_gpus, inst.max_gpus + 1):
            for s in range(0, min(n, int(inst.spot_available[t])) + 1):
                opts.append((n - s, s))
        per_slot.append(opts)
    best = -np.inf
    for combo in itertools.product(*per_slot):
        od = np.array([c[0] for c in combo])
        sp = np.array([c[1] for c in combo])
        u, completion, _, _ = plan_utility(inst, od, sp)
        if completion >= 0 and not (od[completion + 1:] + sp[completion + 1:]).any():
            best = max(best, u)
    return best
