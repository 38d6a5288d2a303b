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
- **UP** (Uniform Progress of Wu et al., "Can't Be Late", NSDI'24, section
  5.2; ``variant="cant_be_late"``, the default). The job runs a homogeneous
  cluster of ``N`` GPUs (their Polarization Rule, section 5.5): ``N`` is
  OD-Only's count (the job's size at the uniform rate), spot is "available"
  when ``n^avail_t >= N``. With ``cp(t) = Z_{t-1}`` (progress at the start of
  0-based slot ``t``), ``ep(x) = L x / d`` and the changeover delay
  ``delta = 1 - mu_1`` slots (the work a reconfiguration loses), each slot:
  (i) Safety Net: once ``d - t < C(t) + delta + 1`` with ``C(t) = (L - cp(t)) / H(N)``
  (slots of remaining work), ``N`` on demand until the end (the paper's
  continuous ``R(t) < C(t) + 2d``, slotted: spot availability is known for the
  whole slot, so the risk is one idle slot, after which on demand still needs
  ``C + delta``: the last safe moment); (ii) Hysteresis: on
  on-demand, stay until ``cp(t) >= ep(t + 2 delta)``; (iii) Taking Risks: spot
  (``N`` GPUs) whenever available, even when behind; (iv) Uniform Progress:
  idle and ``cp(t) < ep(t)``: on demand; (v) otherwise idle.
  ``variant="spot_first"``: the previous reading (all available spot GPUs
  whenever ``n^avail_t >= N_min``; on demand, the count needed to reach
  ``L (t+1)/d`` with ``mu_1``, only when behind and no spot; no hysteresis, no
  safety net).

From the soft deadline on, all three (like AHAP and AHANP) run the paper's
termination configuration (``N_max`` on demand) until the job is done.
"""

from __future__ import annotations

import math
import time
from typing import Literal

import numpy as np

from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.online.spot import window_reference as wr
from aisched.online.spot.ahap import finish_plan, outcome
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["od_only", "msu", "up", "od_only_count"]


def _step(inst: SpotInstance, z: float, o: int, s: int, prev: tuple[int, int]) -> float:
    """Progress after a slot of ``o`` on-demand and ``s`` spot GPUs (changeover-aware)."""
    return z + inst.slot_work(o, s, *prev)


def od_only_count(inst: SpotInstance) -> int:
    """Smallest ``n in [N_min, N_max]`` with ``mu_1 H(n) + (d - 1) H(n) >= L`` (``N_max`` if none)."""
    d, mu1 = inst.deadline, inst.scale_up_efficiency
    for n in range(inst.min_gpus, inst.max_gpus + 1):
        if (mu1 + d - 1) * float(inst.throughput(n)) >= inst.work - wr.TOL:
            return n
    return inst.max_gpus


@register("spot", "od_only")
def od_only(inst: SpotInstance) -> Outcome:
    """OD-Only: a constant on-demand count that meets the soft deadline."""
    started = time.perf_counter()
    d = inst.deadline
    count = od_only_count(inst)
    od = np.zeros(inst.num_slots, np.int64)
    z, prev = 0.0, (0, 0)
    for t in range(d):
        od[t] = count
        z, prev = _step(inst, z, count, 0, prev), (count, 0)
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
    z, prev = 0.0, (0, 0)
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
        z, prev = _step(inst, z, o, s, prev), (o, s)
        if z >= inst.work - wr.TOL:
            break
    o, s = finish_plan(inst, od, sp)
    return outcome("msu", inst, o, s, started, {})


@register("spot", "up")
def up(inst: SpotInstance, *, variant: Literal["cant_be_late", "spot_first"] = "cant_be_late") -> Outcome:
    """UP: Uniform Progress (Can't Be Late, NSDI'24, section 5.2); see the module doc for ``variant``."""
    if variant not in ("cant_be_late", "spot_first"):
        raise InvalidScenarioError("variant", f"= {variant!r} is not 'cant_be_late' or 'spot_first'")
    started = time.perf_counter()
    if variant == "spot_first":
        od, sp = _up_spot_first(inst)
        info: dict = {}
    else:
        od, sp, info = _up_cant_be_late(inst)
    o, s = finish_plan(inst, od, sp)
    return outcome("up", inst, o, s, started, {"variant": variant, **info})


def _up_cant_be_late(inst: SpotInstance) -> tuple[np.ndarray, np.ndarray, dict]:
    """Rules (i)-(v) of the module doc; ``(on_demand, spot, info)``."""
    d, L = inst.deadline, inst.work
    n_job = od_only_count(inst)
    rate = float(inst.throughput(n_job))
    delay = 1.0 - inst.scale_up_efficiency          # changeover delay, slots
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev, state, safety_at = 0.0, (0, 0), "idle", -1
    for t in range(d):
        expected_now = min(L, L / d * t)
        if safety_at < 0 and d - t < (L - z) / rate + delay + 1 - wr.TOL:
            safety_at = t                               # (i) Safety Net, sticky
        if safety_at >= 0:
            state = "on_demand"
        elif state == "on_demand" and z < min(L, L / d * (t + 2 * delay)) - wr.TOL:
            state = "on_demand"                         # (ii) Hysteresis
        elif inst.spot_available[t] >= n_job:
            state = "spot"                              # (iii) Taking Risks / Exploitation
        elif z < expected_now - wr.TOL:
            state = "on_demand"                         # (iv) Uniform Progress
        else:
            state = "idle"                              # (v)
        n = 0 if state == "idle" else n_job
        if state == "spot":
            sp[t] = n
        else:
            od[t] = n
        z, prev = _step(inst, z, int(od[t]), int(sp[t]), prev), (int(od[t]), int(sp[t]))
        if z >= L - wr.TOL:
            break
    return od, sp, {"gpus": n_job, "safety_net_slot": safety_at}


def _up_spot_first(inst: SpotInstance) -> tuple[np.ndarray, np.ndarray]:
    """The previous reading: all spot whenever ``>= N_min``; on demand only when behind and no spot."""
    d, L = inst.deadline, inst.work
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev = 0.0, (0, 0)
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
        z, prev = _step(inst, z, o, s, prev), (o, s)
        if z >= L - wr.TOL:
            break
    return od, sp
