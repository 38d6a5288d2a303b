"""UP as section VI-A describes it (``variant="paper"`` / ``"paper_lagged"``) and MSU's ``near_deadline``.

docs/readings/spot.md S11. The hand case and the transcription below are written from the paper's sentences
("compares the accumulated progress against the expected progress, which incorporates reconfiguration
overhead. It prioritizes spot usage when available, and resorts to on-demand instances only when progress
falls behind and spot instances are unavailable"; (2), (6)), sharing no code with ``baselines.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.online.spot.baselines import paper_decision, up


def _inst(avail, *, work=8.0, deadline=4, nmin=1, nmax=4, mu=0.5, price=0.5):
    slots = len(avail)
    return SpotInstance(work=work, deadline=deadline, min_gpus=nmin, max_gpus=nmax, value=2 * work,
                        hard_deadline_factor=2.0, scale_up_efficiency=mu, scale_down_efficiency=mu,
                        spot_price=np.full(slots, price), spot_available=np.asarray(avail))


def _counts(out, d):
    return list(out.plan["on_demand"].values[:d]), list(out.plan["spot"].values[:d])


AVAIL = [1, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]


def test_hand_case_paper():
    # L = 8, d = 4, H(n) = n, mu = 0.5 on any change; expected progress 2, 4, 6, 8 at the slots' ends.
    # t=0: need 4 (mu 0.5 -> 2); 1 spot, 3 on demand.  t=1: no spot; 4 again (mu 1) -> Z = 6 (n=3 gives 3.5).
    # t=2: Z = 6 >= 6: nothing.  t=3: need 4 (mu 0.5 -> 2), all 4 spot -> Z = 8 by the deadline.
    inst = _inst(AVAIL)
    out = aisched.run("up", inst, variant="paper")
    assert _counts(out, 4) == ([3, 4, 0, 0], [1, 0, 0, 4])
    assert out.plan["on_demand"].values[4:].sum() == 0 and out.plan["spot"].values[4:].sum() == 0
    assert out.objective == pytest.approx(16 - (3 + 4) - 0.5 * (1 + 4))      # met by d: value 16, cost 9.5
    # the reference's rule at OD-Only's count (3: (0.5 + 3) 3 >= 8) is OD-Only here (ceil(8/3 + 1) = 4 >= 4)
    od_only = aisched.run("od_only", inst)
    assert _counts(aisched.run("up", inst), 4) == _counts(od_only, 4) == ([3, 3, 3, 3], [0, 0, 0, 0])
    assert out.objective > od_only.objective


def test_hand_case_paper_lagged():
    # "behind" = Z_t < L t / d (the slot's start): t=0 on schedule -> the 1 spot GPU only (Z = 0.5);
    # t=1 behind, no spot, even N_max falls short -> 4 on demand (Z = 2.5); t=2 behind: 4 spot (mu 1,
    # Z = 6.5); t=3 on schedule (6.5 >= 6): spot only, 3 GPUs (mu 0.5 -> 1.5) reach 8.
    inst = _inst(AVAIL)
    out = aisched.run("up", inst, variant="paper_lagged")
    assert _counts(out, 4) == ([0, 4, 0, 0], [1, 0, 4, 3])
    # the same with no spot in the last slot: on schedule, so no on-demand: idle, and the
    # termination configuration (N_max on demand) finishes after the deadline
    late = aisched.run("up", _inst([1, 0, 4, 0] + [0] * 8), variant="paper_lagged")
    assert _counts(late, 4) == ([0, 4, 0, 0], [1, 0, 4, 0])
    assert late.plan["on_demand"].values[4] == inst.max_gpus


def _transcription(avail, L, d, nmin, nmax, mu, lagged):
    """The sentences of section VI-A, slot by slot, in plain Python (changeover off, H(n) = n)."""
    z, prev_total, plan = 0.0, 0, []
    for t in range(d):
        goal = min(L, L * (t + 1) / d)                 # expected progress (6) at the slot's end
        if z >= goal - 1e-9:                           # done, or on schedule: nothing this slot
            plan.append((0, 0))
            prev_total = 0
            continue
        def work(n):                                   # mu of (2) on the totals
            return n * (mu if n != prev_total else 1.0)
        need = next((n for n in range(nmin, nmax + 1) if z + work(n) >= goal - 1e-9), nmax)
        spot = min(avail[t], need)                     # spot first
        mark = min(L, L * t / d) if lagged else goal
        on_demand = need - spot if z < mark - 1e-9 else 0   # on demand only when behind
        if on_demand == 0 and spot < nmin:
            spot = 0
        plan.append((on_demand, spot))
        z += work(on_demand + spot) if on_demand + spot else 0.0
        prev_total = on_demand + spot
    return plan


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), work=st.integers(2, 40), deadline=st.integers(1, 8),
       nmin=st.integers(1, 2), extra=st.integers(0, 4), mu=st.sampled_from([0.5, 0.75, 0.9, 1.0]),
       lagged=st.booleans())
def test_paper_variants_equal_a_transcription_of_the_text(seed, work, deadline, nmin, extra, mu, lagged):
    rng = np.random.default_rng(seed)
    nmax = nmin + extra
    slots = 4 * deadline + work
    avail = rng.integers(0, nmax + 2, slots)
    inst = SpotInstance(work=float(work), deadline=deadline, min_gpus=nmin, max_gpus=nmax, value=2.0 * work,
                        hard_deadline_factor=2.0, scale_up_efficiency=mu, scale_down_efficiency=mu,
                        spot_price=np.round(rng.uniform(0.1, 1.3, slots), 2), spot_available=avail)
    out = aisched.run("up", inst, variant="paper_lagged" if lagged else "paper")
    od, sp = _counts(out, deadline)
    assert list(zip(od, sp)) == _transcription(list(avail), float(work), deadline, nmin, nmax, mu, lagged)
    assert out.verify(inst) == pytest.approx(out.objective)
    for t in range(deadline):       # the text's two rules, directly: spot first, on demand only without spot
        assert sp[t] <= avail[t]
        if od[t] > 0:
            assert sp[t] == min(avail[t], od[t] + sp[t])


def test_paper_up_differs_from_od_only_where_the_text_says():
    # plenty of spot: no on-demand GPU at all ("resorts to on-demand ... only when ... spot instances are
    # unavailable"); no spot: on demand, tracking (6): 4 (mu 0.5 -> 2), 4 (-> 6), none (6 >= 6), 4 (-> 8)
    rich = _inst([12] * 12, nmax=4)
    od, sp = _counts(aisched.run("up", rich, variant="paper"), 4)
    assert sum(od) == 0 and sum(sp) > 0
    none = _inst([0] * 12, nmax=4)
    od, sp = _counts(aisched.run("up", none, variant="paper"), 4)
    assert sum(sp) == 0 and od == [4, 4, 0, 4]


def test_msu_near_deadline_on_demand_switches_for_good():
    # L = 8, d = 4, N_max = 4, mu = 0.5; spot 1 GPU every slot. "Near the deadline" once the work left
    # exceeds mu H(4) + (d - t - 2) H(4) from the next slot: at t = 1 (Z = 0.5 > ... ) the switch.
    inst = _inst([1] * 12)
    base = aisched.run("msu", inst)
    lit = aisched.run("msu", inst, near_deadline="on_demand")
    bo, bs = _counts(base, 4)
    lo, ls = _counts(lit, 4)
    k = lit.info["switch_slot"]
    assert k >= 0 and all(s == 0 for s in ls[k:]) and all(o == 4 for o in lo[k:])
    assert bs[k] == 1 and bo[k] == 3            # the default keeps the spot GPU near the deadline
    assert lo[:k] == bo[:k] and ls[:k] == bs[:k]
    assert "near_deadline" not in base.info      # the default's outcome is unchanged


def test_bad_input_names_field_and_value():
    inst = _inst(AVAIL)
    with pytest.raises(InvalidScenarioError, match=r"^near_deadline: = 'late' is not valid"):
        aisched.run("msu", inst, near_deadline="late")
    with pytest.raises(InvalidScenarioError, match=r"^gpus: applies to the 'reference' and 'aisched_v1'"):
        up(inst, variant="paper", gpus=2)
    with pytest.raises(InvalidScenarioError, match=r"^slot: = 4 must be an integer in 0\.\.3"):
        paper_decision(inst, slot=4, done=0.0, previous=(0, 0))
    with pytest.raises(InvalidScenarioError, match=r"^done: = 9\.0 must be in \[0, L = 8\.0\]"):
        paper_decision(inst, slot=0, done=9.0, previous=(0, 0))
    with pytest.raises(InvalidScenarioError, match=r"^previous\[1\]: = -1 must be an integer in \[0, 4\]"):
        paper_decision(inst, slot=0, done=0.0, previous=(0, -1))
