"""UP's default variant against a plain transcription of the reference simulator's decision rule.

The transcription below follows ``andylizf/skynomad-artifact`` at ``62b9aaa`` (read, not
copied) in its own terms: seconds, ticks of ``gap`` seconds, the list
``task_done_time``, ``remaining_restart_overhead`` and ``ClusterType``:
``Strategy.step`` (progress of the last tick, the strong guarantee, the final
spot check, the restart overhead on a change) in
``sky_spot/strategies/strategy.py``, ``RCCRThresholdStrategy._step`` and its
two conditions in ``sky_spot/strategies/rc_cr_threshold.py``, ``Env.observe``
/ ``Env.step`` in ``sky_spot/env.py`` and the loop of ``sky_spot/simulate.py``
(fail when not done at the deadline). It shares no code with
:func:`aisched.online.spot.baselines.reference_decision`.

Arithmetic: the mu values are dyadic and the works multiples of 1/8 slot, so
both sides compute exactly and a tie is a tie on both.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance, progress
from aisched.online.spot.baselines import od_only_count, reference_decision

NONE, SPOT, OD = "NONE", "SPOT", "ON_DEMAND"
OURS = {NONE: "idle", SPOT: "spot", OD: "on_demand"}
GAP = 3600.0


class Reference:
    """One job on one region, as ``sky_spot`` simulates ``rc_cr_threshold`` (N = 1 instance)."""

    def __init__(self, deadline_s: float, duration_s: float, overhead_s: float) -> None:
        self.deadline, self.task_duration, self.restart_overhead = deadline_s, duration_s, overhead_s
        self.task_done_time: list[float] = []
        self.remaining_restart_overhead = 0.0
        self.tick = 0
        self.cluster_type = NONE          # env.cluster_type

    # --- RCCRThresholdStrategy
    def condition(self) -> float:
        c_0, t, r_0 = self.task_duration, self.tick * GAP, self.deadline
        c_t = c_0 - sum(self.task_done_time)
        return c_0 - c_t - t * c_0 / r_0

    def condition2(self) -> float:
        d, t, r_0, c_0 = self.restart_overhead, self.tick * GAP, self.deadline, self.task_duration
        c_t = c_0 - sum(self.task_done_time)
        return (t + 2 * d) * c_0 / r_0 - (c_0 - c_t)

    def heuristic(self, has_spot: bool) -> str:
        remaining_time = math.floor((self.deadline - self.tick * GAP) / GAP) * GAP
        remaining_task_time = self.task_duration - sum(self.task_done_time)
        if remaining_task_time <= 1e-3:
            return NONE
        request = SPOT if has_spot else NONE
        current = self.cluster_type
        if self.condition() < 0:
            request = SPOT if has_spot else OD
        if current == OD and (not has_spot or self.condition2() >= 0):
            request = OD
        total = math.ceil((remaining_task_time + self.restart_overhead) / GAP) * GAP
        total_2d = math.ceil((remaining_task_time + 2 * self.restart_overhead) / GAP) * GAP
        if total_2d >= remaining_time and current in (NONE, OD):
            request = OD
        if total >= remaining_time:
            request = SPOT if current == SPOT and self.remaining_restart_overhead < 1e-3 else OD
            if self.restart_overhead == 0 and has_spot:
                request = SPOT
        return request

    # --- Strategy
    def critical(self) -> bool:
        remaining_time = math.floor((self.deadline - self.tick * GAP) / GAP) * GAP
        remaining_task_time = self.task_duration - sum(self.task_done_time)
        total = math.ceil((remaining_task_time + self.restart_overhead) / GAP) * GAP
        return remaining_task_time > 1e-3 and total >= remaining_time

    def guarantee(self, proposed: str, last: str) -> str:
        if not self.critical():
            return proposed
        return SPOT if last == SPOT and self.remaining_restart_overhead < 1e-3 else OD

    def decide(self, last: str, has_spot: bool) -> str:
        """The part of ``Strategy.step`` after the progress update."""
        request = self.guarantee(self.heuristic(has_spot), last)
        if request == SPOT and not has_spot:
            request = OD if self.critical() else NONE
        current = NONE if last == SPOT and not has_spot else last
        if current != request and request != NONE:
            self.remaining_restart_overhead = self.restart_overhead
        return request

    def step(self, has_spot: bool) -> str:
        last = self.cluster_type                       # env.observe()
        if last == SPOT and not has_spot:
            self.cluster_type = NONE
        if last == NONE:
            self.task_done_time.append(0.0)
        else:
            done = max(GAP - self.remaining_restart_overhead, 0.0)
            self.remaining_restart_overhead -= GAP - done
            if self.remaining_restart_overhead < 1e-3:
                self.remaining_restart_overhead = 0.0
            done = min(done, self.task_duration - sum(self.task_done_time))
            self.task_done_time.append(done)
        return self.decide(last, has_spot)

    @property
    def task_done(self) -> bool:
        return self.task_duration - sum(self.task_done_time) <= 1e-3


def simulate(avail: list[bool], deadline: int, work_slots: float, overhead_slots: float) -> tuple[list[str], bool]:
    """``simulate.py``'s single-region loop: kinds per tick until done, and whether the deadline was met."""
    ref = Reference(deadline * GAP, work_slots * GAP, overhead_slots * GAP)
    kinds: list[str] = []
    while not ref.task_done:
        request = ref.step(avail[ref.tick])
        if not ref.task_done and ref.tick * GAP >= ref.deadline:
            return kinds, False                     # "Deadline exceeded"
        if ref.task_done:
            break
        kinds.append(request)
        ref.cluster_type = request                  # env.step
        ref.tick += 1
    return kinds, True


def _inst(avail, *, work, deadline, nmax=1, mu=1.0, changeover="on", value=None):
    slots = 3 * deadline + int(work) + 4
    avail = np.concatenate([np.asarray(avail, dtype=int), np.zeros(slots - len(avail), int)])
    return SpotInstance(work=float(work), deadline=deadline, min_gpus=1, max_gpus=nmax,
                        value=2.0 * work if value is None else value, hard_deadline_factor=2.0,
                        scale_up_efficiency=mu, scale_down_efficiency=mu, changeover=changeover,
                        spot_price=np.full(slots, 0.3), spot_available=avail)


def _kinds(out, until: int) -> list[str]:
    od, sp = out.plan["on_demand"].values, out.plan["spot"].values
    return ["spot" if sp[t] else "on_demand" if od[t] else "idle" for t in range(until)]


MUS = st.sampled_from([1.0, 0.875, 0.75, 0.5, 0.25])


@settings(max_examples=150, deadline=None)
@given(data=st.data(), deadline=st.integers(2, 30), mu=MUS, eighths=st.integers(1, 240),
       changeover=st.sampled_from(["on", "off"]), nmax=st.sampled_from([1, 2, 4]))
def test_same_decisions_as_the_reference_on_random_availability(data, deadline, mu, eighths, changeover, nmax):
    # work of C0 slots at N GPUs; the reference's pre-check needs C0 + D <= d (else it only prices OD)
    c0 = eighths / 8
    assume(c0 + (1 - mu) <= deadline)
    assume(changeover == "on" or mu == 1.0)      # the costs coincide: N = 1 instance, or overhead 0
    n_target = data.draw(st.sampled_from([n for n in (1, 2, 4) if n <= nmax]))
    avail = data.draw(st.lists(st.integers(0, nmax + 1), min_size=deadline, max_size=deadline))
    inst = _inst(avail, work=c0 * n_target, deadline=deadline, nmax=nmax, mu=mu, changeover=changeover)
    n = od_only_count(inst)
    assume(n in (1, 2, 4))                       # H(N) = N a power of 2: exact slots of work
    kinds, met = simulate([a >= n for a in avail] + [False], deadline, inst.work / n, 1 - mu)
    out = aisched.run("up", inst)
    assert out.info["gpus"] == n
    assert _kinds(out, len(kinds)) == [OURS[k] for k in kinds]
    od, sp = out.plan["on_demand"].values, out.plan["spot"].values
    assert set(np.unique(od[:deadline] + sp[:deadline])) <= {0, n}    # polarised: 0 or N GPUs
    assert met                                   # the reference always makes it when C0 + D <= d
    z = float(np.sum(progress(inst, od + sp, sp)[:deadline]))
    assert z >= inst.work - 1e-7                 # and so does ours


@settings(max_examples=400, deadline=None)
@given(deadline=st.integers(1, 40), data=st.data(), mu=MUS,
       previous=st.sampled_from([NONE, SPOT, OD]), has_spot=st.booleans())
def test_same_decision_as_the_reference_in_every_state(deadline, data, mu, previous, has_spot):
    slot = data.draw(st.integers(0, deadline - 1))
    total = data.draw(st.integers(1, 8 * deadline + 16)) / 8
    done = data.draw(st.integers(0, int(8 * total))) / 8
    ref = Reference(deadline * GAP, total * GAP, (1 - mu) * GAP)
    ref.tick, ref.task_done_time = slot, [done * GAP]
    ref.cluster_type = NONE if previous == SPOT and not has_spot else previous    # env.observe()
    expected = ref.decide(previous, has_spot) if not ref.task_done else NONE
    kind, _ = reference_decision(slot=slot, deadline=deadline, total=total, done=done, overhead=1 - mu,
                                 previous=OURS[previous], has_spot=has_spot)
    assert kind == OURS[expected]


def test_no_spot_equals_od_only():
    # the peer check's case: work 96, deadline 140, mu 0.6, one GPU, no spot; value 144 makes OD-Only 47.0
    inst = _inst([0], work=96.0, deadline=140, mu=0.6, changeover="off", value=144.0)
    od_only, new = aisched.run("od_only", inst), aisched.run("up", inst)
    old = aisched.run("up", inst, variant="aisched_v1")
    assert od_only.objective == pytest.approx(47.0)
    assert new.objective == pytest.approx(47.0)          # idles slot 0, on-demand from slot 1 to the end
    assert old.objective == pytest.approx(39.0)          # left on-demand to idle, paid the restart again
    od = new.plan["on_demand"].values
    assert od[0] == 0 and od[1:98].all() and not od[98:].any()


def test_first_slot_idles_without_spot_and_runs_spot_with_it():
    # no spot: slot 0 on schedule (p = ep(0) = 0) -> idle; slot 1 behind -> on-demand, kept (no spot)
    assert _kinds(aisched.run("up", _inst([], work=4.0, deadline=10)), 3) == ["idle", "on_demand", "on_demand"]
    # spot in slot 0 only: spot, then ahead (p = 1 >= ep(1) = 0.4, ep(2) = 0.8) idle, behind at slot 3
    out = aisched.run("up", _inst([1], work=4.0, deadline=10))
    assert _kinds(out, 4) == ["spot", "idle", "idle", "on_demand"]


def test_leaves_on_demand_only_for_spot_after_the_hysteresis():
    # D = 0.25: idle, behind -> on-demand (0.75 done); spot at slot 2 and p = 0.75 > ep(2.5) = 0.625: spot
    out = aisched.run("up", _inst([0, 0, 1, 1, 1, 1, 1, 1], work=4.0, deadline=16, mu=0.75))
    assert _kinds(out, 3) == ["idle", "on_demand", "spot"]
    # tighter job: p = 0.75 <= ep(2.5) = 2.5 * 8 / 12: stays on on-demand although spot is there
    out = aisched.run("up", _inst([0, 0, 1, 1, 1, 1, 1, 1], work=8.0, deadline=12, mu=0.75))
    assert _kinds(out, 3) == ["idle", "on_demand", "on_demand"]


def test_deadline_rules_state_by_state():
    def decide(previous, has_spot, *, slot=4, done=3.0, overhead=0.0):
        return reference_decision(slot=slot, deadline=7, total=6.0, done=done, overhead=overhead,
                                  previous=previous, has_spot=has_spot)

    # critical (ceil(3 + D) >= 7 - 4): keep spot until preemption, then on-demand
    assert decide("spot", True) == ("spot", True)
    assert decide("spot", False) == ("on_demand", True)
    # the "free switch at zero overhead" of _step is overridden by the strong guarantee
    assert decide("on_demand", True) == ("on_demand", True)
    assert decide("idle", True) == ("on_demand", True)
    # 2d margin only: ceil(1.5 + 0.5) = 2 < 3 <= ceil(1.5 + 2 * 0.5): on-demand from idle, not from spot
    assert decide("idle", True, done=4.5, overhead=0.5) == ("on_demand", True)
    assert decide("spot", True, done=4.5, overhead=0.5) == ("spot", False)
    # done: idle whatever the state
    assert decide("on_demand", False, done=6.0) == ("idle", False)


def test_bad_variant_names_the_field():
    with pytest.raises(InvalidScenarioError, match=r"^variant: = 'cant_be_late' is not valid.*'reference', 'aisched_v1', 'spot_first'"):
        aisched.run("up", _inst([1], work=4.0, deadline=6), variant="cant_be_late")


@pytest.mark.parametrize(("field", "change"), [
    ("previous", {"previous": "paused"}), ("deadline", {"deadline": 0, "slot": 0}), ("slot", {"slot": 7}),
    ("total", {"total": float("nan")}), ("done", {"done": 6.5}), ("overhead", {"overhead": 1.0}),
])
def test_reference_decision_names_the_bad_field(field, change):
    state = {"slot": 2, "deadline": 7, "total": 6.0, "done": 1.0, "overhead": 0.25, "previous": "idle",
             "has_spot": True, **change}
    with pytest.raises(InvalidScenarioError, match=f"^{field}: = "):
        reference_decision(**state)
