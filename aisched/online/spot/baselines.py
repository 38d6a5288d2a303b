"""Baselines of section VI-A: OD-Only, MSU and UP (after Wu et al., NSDI'24).

The paper describes them in one sentence each; our readings:

- **OD-Only**: on-demand GPUs only, a constant count: the smallest
  ``n in [N_min, N_max]`` that finishes the work by the soft deadline
  (``mu_1 H(n) + (d - 1) H(n) >= L``), ``N_max`` if none does; it runs until
  the job is done.
- **MSU** (maximal spot utilisation): every slot takes all available spot GPUs
  (``min(n^avail_t, N_max)``, when at least ``N_min``; regardless of price) as
  long as the remaining work could still be done by the deadline at ``N_max``
  from the next slot on; otherwise ("near the deadline") it runs ``N_max``
  GPUs, spot first and on-demand for the rest.
- **UP** (uniform progress): the expected progress ``Z^exp_{t+1} = L (t+1)/d``
  (6); the GPUs needed to reach it in this slot are computed with the
  scale-up efficiency ``mu_1`` (the reconfiguration overhead). Spot GPUs are
  used whenever available (at least ``N_min``: ``min(n^avail_t, N_max)``); only
  when progress is behind AND no spot is available does it buy the needed
  count on demand.

From the soft deadline on, all three (like AHAP and AHANP) run the paper's
termination configuration (``N_max`` on demand) until the job is done.
"""

from __future__ import annotations

import math
import time

import numpy as np

from aisched.models.spot import SpotInstance
from aisched.online.spot import window_reference as wr
from aisched.online.spot.ahap import finish_plan, outcome
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["od_only", "msu", "up"]


def _step(inst: SpotInstance, z: float, n: int, prev: int) -> float:
    return z + float(inst.efficiency(n, prev) * inst.throughput(n))


@register("spot", "od_only")
def od_only(inst: SpotInstance) -> Outcome:
    """OD-Only: a constant on-demand count that meets the soft deadline."""
    started = time.perf_counter()
    d, mu1 = inst.deadline, inst.scale_up_efficiency
    count = inst.max_gpus
    for n in range(inst.min_gpus, inst.max_gpus + 1):
        if (mu1 + d - 1) * float(inst.throughput(n)) >= inst.work - wr.TOL:
            count = n
            break
    od = np.zeros(inst.num_slots, np.int64)
    z, prev = 0.0, 0
    for t in range(d):
        od[t] = count
        z, prev = _step(inst, z, count, prev), count
        if z >= inst.work - wr.TOL:
            break
    o, s = finish_plan(inst, od, np.zeros_like(od))
    return outcome("od_only", inst, o, s, started, {"gpus": count})


@register("spot", "msu")
def msu(inst: SpotInstance) -> Outcome:
    """MSU: all available spot GPUs until the deadline forces ``N_max`` GPUs."""
    started = time.perf_counter()
    d, full = inst.deadline, float(inst.throughput(inst.max_gpus))
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev = 0.0, 0
    for t in range(d):
        avail = int(inst.spot_available[t])
        later = inst.scale_up_efficiency * full + (d - t - 2) * full if d - t - 1 > 0 else 0.0
        if inst.work - z <= later + wr.TOL:   # safe to rely on spot now
            s = min(avail, inst.max_gpus) if avail >= inst.min_gpus else 0
            o = 0
        else:                                  # near the deadline: N_max, spot first
            s = min(avail, inst.max_gpus)
            o = inst.max_gpus - s
        od[t], sp[t] = o, s
        z, prev = _step(inst, z, o + s, prev), o + s
        if z >= inst.work - wr.TOL:
            break
    o, s = finish_plan(inst, od, sp)
    return outcome("msu", inst, o, s, started, {})


@register("spot", "up")
def up(inst: SpotInstance) -> Outcome:
    """UP: spot whenever available; on demand only when behind and no spot."""
    started = time.perf_counter()
    d, L = inst.deadline, inst.work
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev = 0.0, 0
    for t in range(d):
        avail = int(inst.spot_available[t])
        expected = L / d * (t + 1)
        o = s = 0
        if avail >= inst.min_gpus:
            s = min(avail, inst.max_gpus)
        elif z < expected - wr.TOL:
            gap = expected - z
            need = math.ceil((gap / inst.scale_up_efficiency - inst.throughput_intercept)
                             / inst.throughput_slope - 1e-9)
            o = int(min(max(need, inst.min_gpus), inst.max_gpus))
        od[t], sp[t] = o, s
        z, prev = _step(inst, z, o + s, prev), o + s
        if z >= L - wr.TOL:
            break
    o, s = finish_plan(inst, od, sp)
    return outcome("up", inst, o, s, started, {})
