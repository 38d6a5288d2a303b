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
  5.2), ``variant="reference"`` (the default): the decision rule of the
  public simulator as it runs (``andylizf/skynomad-artifact``, read, not
  copied): ``RCCRThresholdStrategy._step`` of
  ``sky_spot/strategies/rc_cr_threshold.py`` (which replaces the ``_step`` of
  ``RCThresholdStrategy`` in ``rc_threshold.py``), followed by
  ``Strategy._apply_strong_guarantee`` and the final spot check of
  ``Strategy.step`` in ``sky_spot/strategies/strategy.py``. In slot units
  (a tick is a slot, ``t`` 0-based, ``R = d - t`` slots left, ``C0 = L / H(N)``
  slots of work, ``p = Z / H(N)`` slots done, ``D = 1 - mu_1`` the slots a
  restart loses, ``ceil`` the reference's rounding to whole ticks), with
  ``prev`` the kind run in slot ``t - 1`` and ``cur`` = ``prev`` except a
  preempted spot (``prev`` spot, none now) is idle:

  (a) critical (``ceil(C0 - p + D) >= R``, the strong guarantee, which
      overrides ``_step``): spot if ``prev`` is spot and spot is there ("keep
      the spot VM until preemption"), else on-demand. The ``_step``'s "free
      switch at zero overhead" (spot when ``D = 0``) is overridden by the
      guarantee whenever ``prev`` is not spot, so it never decides;
  (b) ``cur`` idle or on-demand and ``ceil(C0 - p + 2D) >= R`` (the 2d safety
      margin): on-demand;
  (c) ``cur`` on-demand and (no spot or ``p <= ep(t + 2D)``, ``ep(x) = x C0 /
      d``): on-demand (hysteresis; on-demand is left only for spot, never
      for idling);
  (d) spot there: spot (taking risks, also when behind);
  (e) behind (``p < ep(t)``): on-demand;
  (f) otherwise idle (also slot 0 without spot: ``p = ep(0) = 0``).

  The reference's ``remaining_restart_overhead`` is always 0 when it decides
  here (an overhead shorter than a slot is used up within the slot), so its
  test is dropped. **N > 1** (Polarization Rule, section 5.5): ``N`` =
  OD-Only's count, spot is "there" when ``n^avail_t >= N`` and a running slot
  has ``N`` GPUs of one kind; ``C0``, ``p`` are slots at ``N`` GPUs. The rule
  decides; our model prices (with ``changeover="off"`` a spot/on-demand move
  at ``N`` GPUs is free, the reference charges a restart; with
  ``changeover="on"`` and ``N = 1`` both charge the same).
  ``variant="aisched_v1"``: the previous reading from the paper's text
  (rules (i)-(v)): (i) Safety Net: once ``d - t < C(t) + delta + 1`` with
  ``C(t) = (L - cp(t)) / H(N)``, ``N`` on demand until the end (sticky); (ii)
  Hysteresis: on on-demand, stay until ``cp(t) >= ep(t + 2 delta)``, then
  leave, also for idling; (iii) Taking Risks: spot whenever available; (iv)
  idle and behind: on demand; (v) otherwise idle (``cp(t) = Z_{t-1}``,
  ``delta = 1 - mu_1``). ``variant="spot_first"``: the reading before it
  (all available spot GPUs whenever ``n^avail_t >= N_min``; on demand, the
  count needed to reach ``L (t+1)/d`` with ``mu_1``, only when behind and no
  spot; no hysteresis, no safety net).
  ``variant="paper"`` and ``"paper_lagged"``: section VI-A's own sentences
  (docs/readings/spot.md S11), not Can't Be Late's rule: the count is elastic in
  ``[N_min, N_max]``, the smallest ``n`` that brings the accumulated
  progress ``Z_t`` to the expected progress (6) of the slot's end,
  ``Z^exp = L (t + 1) / d``, with ``mu_t`` of (2) ("which incorporates
  reconfiguration overhead"); spot GPUs fill it first (``min(n^avail_t,
  n)``, "prioritizes spot usage when available"), on-demand GPUs the rest
  only when progress is behind ("resorts to on-demand instances only when
  progress falls behind and spot instances are unavailable"); nothing when
  ``Z_t`` is already at ``Z^exp``. No margin, no hysteresis, no safety net
  (the text names none). "Behind": ``"paper"`` compares ``Z_t`` with the
  slot's end ``L (t + 1) / d`` (section II-C, Fig. 4: the progress-tracking
  strategy "ensures timely progress"), ``"paper_lagged"`` with its start
  ``L t / d`` (the spot shortfall of an on-schedule slot is made up a slot
  later).

MSU's ``near_deadline``: ``"spot_first"`` (default, above) or
``"on_demand"`` (section VI-A: "switches to on-demand instances near the
deadline": once the rule above says "near the deadline", ``N_max``
on-demand GPUs and no spot until the end).

From the soft deadline on, all three (like AHAP and AHANP) run the paper's
termination configuration (``N_max`` on demand) until the job is done.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Literal

import numpy as np

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.online.spot.ahap import finish_plan, outcome
from aisched.online.spot.window import reference as wr
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["od_only", "msu", "up", "od_only_count", "paper_decision", "reference_decision", "MSU_SWITCHES",
           "UP_VARIANTS"]


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


MSU_SWITCHES = ("spot_first", "on_demand")


@register("spot", "msu")
def msu(inst: SpotInstance, *, near_deadline: Literal["spot_first", "on_demand"] = "spot_first") -> Outcome:
    """MSU: all available spot GPUs until the deadline forces ``N_max`` GPUs (section VI-A).

    Parameters
    ----------
    inst
        The job and its market.
    near_deadline
        What MSU runs once the remaining work can no longer wait for spot ("switches to on-demand
        instances near the deadline"): ``"spot_first"`` (default): ``N_max`` GPUs, the available
        spot ones first, on demand for the rest, decided again each slot; ``"on_demand"``: ``N_max``
        on-demand GPUs and no spot from that slot to the end (the sentence read literally; readings S11).

    Returns
    -------
    Outcome
        Under ``"on_demand"``, ``info["switch_slot"]``: the first slot "near the deadline" (-1 if none).

    Raises
    ------
    InvalidScenarioError
        ``near_deadline`` is not one of :data:`MSU_SWITCHES`.
    """
    one_of("near_deadline", near_deadline, MSU_SWITCHES)
    started = time.perf_counter()
    d, full = inst.deadline, float(inst.throughput(inst.max_gpus))
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev, switched = 0.0, (0, 0), -1
    for t in range(d):
        avail = int(inst.spot_available[t])
        later = inst.scale_up_efficiency * full + (d - t - 2) * full if d - t - 1 > 0 else 0.0
        near = inst.work - z > later + wr.TOL
        if near and switched < 0:
            switched = t
        if near_deadline == "on_demand" and switched >= 0:   # switched for good: N_max on demand
            s, o = 0, inst.max_gpus
        elif not near:                         # safe to rely on spot now
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
    info = {} if near_deadline == "spot_first" else {"near_deadline": near_deadline, "switch_slot": switched}
    return outcome("msu", inst, o, s, started, info)


UP_VARIANTS = ("reference", "aisched_v1", "spot_first", "paper", "paper_lagged")

#: The reference's kinds of slot (``ClusterType`` of ``sky_spot``): idle, spot, on-demand.
IDLE, SPOT, ON_DEMAND = "idle", "spot", "on_demand"


@register("spot", "up")
def up(inst: SpotInstance, *,
       variant: Literal["reference", "aisched_v1", "spot_first", "paper", "paper_lagged"] = "reference",
       gpus: int | None = None) -> Outcome:
    """UP: Uniform Progress (Can't Be Late, NSDI'24, section 5.2); see the module doc.

    Parameters
    ----------
    inst
        The job and its market.
    variant
        ``"reference"`` (default): the decision rule of ``sky_spot``'s
        ``rc_cr_threshold`` strategy with its strong guarantee
        (:func:`reference_decision`); ``"aisched_v1"``: our earlier reading of
        the paper's text; ``"spot_first"``: the reading before that; ``"paper"`` /
        ``"paper_lagged"``: section VI-A's description, an elastic count that tracks (6)
        (:func:`paper_decision`; readings S11).

    gpus
        ``N``, the GPUs UP runs (spot or on-demand) in the first two variants; ``None``
        (default): OD-Only's count (:func:`od_only_count`), as the reference sizes a job.
        The paper does not say; ``docs/readings/spot.md`` S-silent declares it a silent parameter.

    Returns
    -------
    Outcome
        ``info`` holds ``variant``, and for the first two ``gpus`` (``N``) and
        ``safety_net_slot`` (first slot a deadline rule decided, -1 if none).

    Raises
    ------
    InvalidScenarioError
        ``variant`` is not one of :data:`UP_VARIANTS`.
    """
    one_of("variant", variant, UP_VARIANTS)
    if gpus is not None and not (isinstance(gpus, (int, np.integer)) and not isinstance(gpus, bool)
                                 and inst.min_gpus <= gpus <= inst.max_gpus):
        raise InvalidScenarioError("gpus", f"= {gpus!r} must be an integer in [{inst.min_gpus}, {inst.max_gpus}]")
    _check_up_values({"variant": variant, "gpus": gpus})
    started = time.perf_counter()
    info: dict = {}
    if variant == "spot_first":
        od, sp = _up_spot_first(inst)
    elif variant in ("paper", "paper_lagged"):
        od, sp, info = _up_paper(inst, lagged=variant == "paper_lagged")
    elif variant == "aisched_v1":
        od, sp, info = _up_aisched_v1(inst, gpus)
    else:
        od, sp, info = _up_reference(inst, gpus)
    o, s = finish_plan(inst, od, sp)
    return outcome("up", inst, o, s, started, {"variant": variant, **info})


def _check_up_values(params: Mapping[str, object]) -> None:
    """UP's options that go together, refused before any work (``aisched.core.runner.check_params``):
    ``gpus`` sizes only the fixed-count variants (the section VI-A readings size themselves)."""
    if params.get("gpus") is not None and params.get("variant", "reference") not in ("reference", "aisched_v1"):
        raise InvalidScenarioError("gpus", "applies to the 'reference' and 'aisched_v1' variants")


up.check_values = _check_up_values  # type: ignore[attr-defined]


def _ceil(x: float) -> int:
    """``math.ceil`` of a quantity computed in floats, robust to rounding noise (exact arithmetic intended)."""
    return math.ceil(x - 1e-9)


def reference_decision(*, slot: int, deadline: int, total: float, done: float, overhead: float,
                       previous: str, has_spot: bool) -> tuple[str, bool]:
    """One decision of the reference's Uniform Progress, in slot units.

    The rule of ``RCCRThresholdStrategy._step`` (``sky_spot/strategies/
    rc_cr_threshold.py``), overridden by ``Strategy._apply_strong_guarantee``
    and the spot check at the end of ``Strategy.step``
    (``sky_spot/strategies/strategy.py``), ``andylizf/skynomad-artifact``;
    rules (a)-(f) of the module doc, in that order. Lines at commit
    ``62b9aaa``: ``rc_cr_threshold.py`` 32-46 (``_condition``,
    ``_condition2``), 48-111 (``_step``: 70-74 keep on-demand, 83-88 the 2d
    margin, 90-104 the critical window and the free switch);
    ``strategy.py`` 58-104 (``_apply_strong_guarantee``), 112-189 (``step``:
    153-182 the final spot check, 184-188 the restart on a change);
    ``env.py`` 82-95 (``observe``: a preempted spot is idle).

    Parameters
    ----------
    slot
        ``t``, 0-based (the reference's ``env.tick``; ``elapsed = t`` slots).
    deadline
        ``d`` (slots): the reference's ``deadline``.
    total
        ``C0``: slots of work at the running size (``task_duration``).
    done
        ``p``: slots of work done before slot ``t`` (``sum(task_done_time)``).
    overhead
        ``D`` in ``[0, 1)``: slots a restart loses (``restart_overhead``).
    previous
        Kind run in slot ``t - 1`` (``last_cluster_type``): ``"idle"``,
        ``"spot"`` or ``"on_demand"``.
    has_spot
        Whether spot can run slot ``t``.

    Returns
    -------
    tuple of (str, bool)
        The kind for slot ``t`` and whether a deadline rule ((a) or (b))
        decided it.

    Raises
    ------
    InvalidScenarioError
        Naming the field: ``previous`` not a kind, ``deadline < 1``, ``slot``
        outside ``0..deadline-1``, ``total <= 0``, ``done`` outside
        ``[0, total]`` or ``overhead`` outside ``[0, 1)`` (or not finite).
    """
    one_of("previous", previous, (IDLE, SPOT, ON_DEMAND))
    checks = (("deadline", deadline, deadline >= 1, ">= 1"),
              ("slot", slot, 0 <= slot < deadline, f"in 0..{deadline - 1}"),
              ("total", total, math.isfinite(total) and total > 0, "finite and > 0"),
              ("done", done, math.isfinite(done) and -1e-9 <= done <= total + 1e-9, f"in [0, total = {total}]"),
              ("overhead", overhead, math.isfinite(overhead) and 0 <= overhead < 1, "in [0, 1) slots"))
    for name, value, ok, what in checks:
        if not ok:
            raise InvalidScenarioError(name, f"= {value!r} must be {what}")
    remaining = total - done
    if remaining <= 1e-9:
        return IDLE, False
    left = deadline - slot                                   # floor((deadline - elapsed) / gap)
    current = IDLE if previous == SPOT and not has_spot else previous   # env.observe(): preempted
    if _ceil(remaining + overhead) >= left:                  # (a) strong guarantee (overrides _step)
        return (SPOT if previous == SPOT and has_spot else ON_DEMAND), True
    if current != SPOT and _ceil(remaining + 2 * overhead) >= left:
        return ON_DEMAND, True                               # (b) the 2d margin ("T+2D")
    if current == ON_DEMAND and (not has_spot or done <= (slot + 2 * overhead) * total / deadline + 1e-9):
        return ON_DEMAND, False                              # (c) _condition2() >= 0: keep on-demand
    if has_spot:
        return SPOT, False                                   # (d)
    if done < slot * total / deadline - 1e-9:                # (e) _condition() < 0
        return ON_DEMAND, False
    return IDLE, False                                       # (f)


def _up_reference(inst: SpotInstance, gpus: int | None = None) -> tuple[np.ndarray, np.ndarray, dict]:
    """:func:`reference_decision` in every slot ``0..d-1``, ``N`` GPUs (Polarization); ``(od, spot, info)``."""
    d, L = inst.deadline, inst.work
    n_job = od_only_count(inst) if gpus is None else int(gpus)
    rate = float(inst.throughput(n_job))
    delay = 1.0 - inst.scale_up_efficiency
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev, kind, first = 0.0, (0, 0), IDLE, -1
    for t in range(d):
        kind, forced = reference_decision(slot=t, deadline=d, total=L / rate, done=z / rate, overhead=delay,
                                          previous=kind, has_spot=bool(inst.spot_available[t] >= n_job))
        if forced and first < 0:
            first = t
        if kind == SPOT:
            sp[t] = n_job
        elif kind == ON_DEMAND:
            od[t] = n_job
        z, prev = _step(inst, z, int(od[t]), int(sp[t]), prev), (int(od[t]), int(sp[t]))
        if z >= L - wr.TOL:
            break
    return od, sp, {"gpus": n_job, "safety_net_slot": first}


def _up_aisched_v1(inst: SpotInstance, gpus: int | None = None) -> tuple[np.ndarray, np.ndarray, dict]:
    """``variant="aisched_v1"``: rules (i)-(v) of the module doc; ``(on_demand, spot, info)``."""
    d, L = inst.deadline, inst.work
    n_job = od_only_count(inst) if gpus is None else int(gpus)
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


def paper_decision(inst: SpotInstance, *, slot: int, done: float, previous: tuple[int, int],
                   lagged: bool = False) -> tuple[int, int]:
    """One slot of UP as section VI-A describes it: ``(on_demand, spot)`` GPUs for slot ``t``.

    "At each time slot, UP compares the accumulated progress against the expected progress, which
    incorporates reconfiguration overhead. It prioritizes spot usage when available, and resorts to
    on-demand instances only when progress falls behind and spot instances are unavailable." The
    expected progress is (6), ``Z^exp_t = L t / d`` (section IV-E, 1-based; here the slot ``t``
    0-based ends at ``L (t + 1) / d``).

    1. ``Z_t >= min(L, L (t + 1) / d)``: on schedule for the slot's end, nothing (``(0, 0)``).
    2. ``n`` = the smallest count in ``[N_min, N_max]`` with ``Z_t + mu_t H(n) >= L (t + 1) / d``,
       ``mu_t`` of (2) for the split below against ``previous`` (``N_max`` if none reaches it).
    3. ``s = min(n^avail_t, n)`` spot GPUs; ``o = n - s`` on-demand GPUs when behind, else 0;
       ``s < N_min`` with ``o = 0`` runs nothing ((5d)).

    Parameters
    ----------
    inst
        The job and its market.
    slot
        ``t`` in ``0..d-1``.
    done
        ``Z_t``: work done before slot ``t``, in ``[0, L]``.
    previous
        ``(n^o_{t-1}, n^s_{t-1})``, the counts run in slot ``t - 1`` (``(0, 0)`` at ``t = 0``).
    lagged
        "Behind" is ``Z_t < L (t + 1) / d`` (``False``, ``variant="paper"``: on-demand covers
        every spot shortfall of the slot) or ``Z_t < L t / d`` (``True``, ``"paper_lagged"``).

    Raises
    ------
    InvalidScenarioError
        Naming the field and value: ``slot`` outside ``0..d-1``, ``done`` outside ``[0, L]`` or not
        finite, ``previous`` not two counts in ``[0, N_max]``.
    """
    d, L = inst.deadline, inst.work
    if not (isinstance(slot, (int, np.integer)) and 0 <= slot < d):
        raise InvalidScenarioError("slot", f"= {slot!r} must be an integer in 0..{d - 1}")
    if not (math.isfinite(done) and -wr.TOL <= done <= L + wr.TOL):
        raise InvalidScenarioError("done", f"= {done!r} must be in [0, L = {L}]")
    for i, value in enumerate(previous):
        if not (isinstance(value, (int, np.integer)) and 0 <= value <= inst.max_gpus):
            raise InvalidScenarioError(f"previous[{i}]", f"= {value!r} must be an integer in [0, {inst.max_gpus}]")
    expected_end = min(L, L * (slot + 1) / d)
    if done >= expected_end - wr.TOL:
        return 0, 0
    behind = done < (min(L, L * slot / d) if lagged else expected_end) - wr.TOL
    avail = int(inst.spot_available[slot])
    need = inst.max_gpus
    for n in range(inst.min_gpus, inst.max_gpus + 1):
        s = min(avail, n)
        if done + inst.slot_work(n - s, s, *previous) >= expected_end - wr.TOL:
            need = n
            break
    s = min(avail, need)
    o = need - s if behind else 0
    if o == 0 and s < inst.min_gpus:
        s = 0
    return o, s


def _up_paper(inst: SpotInstance, lagged: bool) -> tuple[np.ndarray, np.ndarray, dict]:
    """:func:`paper_decision` in every slot ``0..d-1``; ``(od, spot, info)``."""
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev = 0.0, (0, 0)
    for t in range(inst.deadline):
        o, s = paper_decision(inst, slot=t, done=min(z, inst.work), previous=prev, lagged=lagged)
        od[t], sp[t] = o, s
        z, prev = _step(inst, z, o, s, prev), (o, s)
        if z >= inst.work - wr.TOL:
            break
    return od, sp, {"on_demand_slots": int(np.count_nonzero(od[:inst.deadline]))}
