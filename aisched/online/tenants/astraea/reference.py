"""Plain-loop reference of Algorithms 3-5 (A_maxIrev, MINCOSTD, MINCOSTC), for testing the kernel.

Written line by line after the pseudocode, over every server (no grouping)
and every slot, with the readings documented in
:mod:`aisched.online.tenants.astraea.kernel`. Slow; use on tiny rounds only.
"""

from __future__ import annotations

import math

import numpy as np

from aisched.online.tenants.astraea.kernel import JobSpec, RoundState

__all__ = ["mincost_d", "mincost_c", "max_irev"]


def _window(state: RoundState, spec: JobSpec, fair_share: bool, t0: int, d: int) -> tuple[list[int], list[int], int, int]:
    slots = range(t0, t0 + d)
    avail_w, avail_p = state.available(spec.owner, fair_share)
    wmin = [min(int(state.free_w[s, t]) for t in slots) for s in range(state.cap_w.size)]
    pmin = [min(int(state.free_p[s, t]) for t in slots) for s in range(state.cap_w.size)]
    return wmin, pmin, min(int(avail_w[t]) for t in slots), min(int(avail_p[t]) for t in slots)


def _cost(state: RoundState, t0: int, d: int, workers: int, ps: int) -> float:
    return sum(float(state.eta_w[t]) * workers + float(state.eta_p[t]) * ps for t in range(t0, t0 + d))


def mincost_d(state: RoundState, spec: JobSpec, fair_share: bool, bw_ratio: float, t0: int, w: int) -> float:
    """Algorithm 4: least cost of a distributed schedule (``inf`` if none)."""
    d = int(spec.durations[0, w - 1])
    if t0 + d > state.length:  # line 4
        return math.inf
    wmin, pmin, aw, ap = _window(state, spec, fair_share, t0, d)
    if aw < w:
        return math.inf
    best_s, best_need = -1, math.inf
    for s in range(state.cap_w.size):  # lines 7-10 (servers able to host the needed PSs)
        d_sw = min(w - 1, wmin[s])
        need = math.ceil((w - d_sw) * bw_ratio - 1e-9)
        if need <= pmin[s] and need <= ap and need < best_need:
            best_s, best_need = s, need
    if best_s < 0:  # line 11
        return math.inf
    rest = w - min(w - 1, wmin[best_s])
    others = sum(wmin[s] for s in range(state.cap_w.size) if s != best_s)
    if others < rest:  # line 21
        return math.inf
    return _cost(state, t0, d, w, int(best_need))


def mincost_c(state: RoundState, spec: JobSpec, fair_share: bool, t0: int, w: int) -> float:
    """Algorithm 5: least cost of a centralised schedule (``inf`` if none)."""
    d = int(spec.durations[1, w - 1])
    if t0 + d > state.length:
        return math.inf
    wmin, pmin, aw, ap = _window(state, spec, fair_share, t0, d)
    if aw < w or ap < 1:
        return math.inf
    if not any(wmin[s] >= w and pmin[s] >= 1 for s in range(state.cap_w.size)):
        return math.inf
    return _cost(state, t0, d, w, 1)


def max_irev(state: RoundState, spec: JobSpec, fair_share: bool, bw_ratio: float) -> tuple[float, int, int, int] | None:
    """Algorithm 3: ``(mu, start, workers, centralised)`` of the best schedule, or None if ``mu <= 0``."""
    best: tuple[float, int, int, int] | None = None
    mu_best = 0.0
    w_top = min(spec.chunks, int(state.cap_w.sum()))
    for t0 in range(state.length):
        for w in range(1, w_top + 1):
            cost_d = mincost_d(state, spec, fair_share, bw_ratio, t0, w)
            cost_c = mincost_c(state, spec, fair_share, t0, w)
            f_d = float(spec.utility(np.array(t0 + int(spec.durations[0, w - 1]))))
            f_c = float(spec.utility(np.array(t0 + int(spec.durations[1, w - 1]))))
            val_d = f_d - cost_d if math.isfinite(cost_d) else -math.inf
            val_c = f_c - cost_c if math.isfinite(cost_c) else -math.inf
            if val_c == -math.inf and val_d == -math.inf:
                continue
            mu, c = (val_c, 1) if val_c >= val_d else (val_d, 0)  # line 6
            if mu > 0 and mu > mu_best:  # line 10
                best, mu_best = (mu, t0, w, c), mu
    return best
