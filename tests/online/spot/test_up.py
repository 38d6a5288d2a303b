"""UP's earlier reading of Can't Be Late (``variant="aisched_v1"``) and the deadline property of all variants.

The default variant (the reference's rule) is tested in ``test_up_reference.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance, progress
from aisched.online.spot.baselines import od_only_count, up


def _inst(avail, *, work=12.0, deadline=6, nmin=1, nmax=4, mu=0.9, prices=0.3):
    slots = len(avail)
    return SpotInstance(work=work, deadline=deadline, min_gpus=nmin, max_gpus=nmax, value=2 * work,
                        hard_deadline_factor=2.0, scale_up_efficiency=mu, scale_down_efficiency=mu,
                        spot_price=np.full(slots, prices), spot_available=np.asarray(avail))


def _counts(out):
    return out.plan["on_demand"].values, out.plan["spot"].values


def _met(inst, out):
    od, sp = _counts(out)
    return float(np.sum(progress(inst, od + sp)[: inst.deadline])) >= inst.work - 1e-7


def test_behind_with_too_few_spot_gpus_buys_on_demand():
    # N = OD-Only's count (3 for L=12, d=6? (0.9 + 5) n >= 12 -> n = 3); spot 2 < N is "unavailable"
    inst = _inst([2] * 12, work=12.0, deadline=6)
    assert od_only_count(inst) == 3
    od, sp = _counts(aisched.run("up", inst, variant="aisched_v1"))
    assert sp.sum() == 0 and od[:6].max() == 3
    # the old reading took the 2 spot GPUs and fell behind
    od_old, sp_old = _counts(aisched.run("up", inst, variant="spot_first"))
    assert sp_old[0] == 2


def test_taking_risks_and_hysteresis():
    # loose job: N = 1; slot 0 on schedule and no spot -> idle; slot 1 behind -> on demand; the
    # hysteresis keeps on demand (even with spot available) until cp >= ep(t + 2 delta)
    avail = [0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    inst = _inst(avail, work=4.0, deadline=8, nmax=4)
    assert od_only_count(inst) == 1
    od, sp = _counts(aisched.run("up", inst, variant="aisched_v1"))
    n = od + sp
    assert n[0] == 0 and od[1] == 1
    # on demand at slot 1: cp(2) = 0.9 >= ep(2 + 0.2) = 1.1? no -> stays on demand in slot 2 despite spot
    assert od[2] == 1 and sp[2] == 0
    # later, once ahead of ep(t + 2 delta), it takes the spot
    assert sp[3:8].sum() > 0


def test_safety_net_is_sticky():
    # tight job (N = 4, C(0) = 4.5 slots): slot 0 on schedule, no spot -> idle; at slot 1
    # d - t = 5 < C + delta + 1 = 5.6: the safety net fires and holds on demand, spot or not
    inst = _inst([0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], work=18.0, deadline=6, nmax=4)
    out = aisched.run("up", inst, variant="aisched_v1")
    od, sp = _counts(out)
    assert out.info["safety_net_slot"] == 1 and sp.sum() == 0 and od[0] == 0 and od[1] == 4
    assert _met(inst, out)


def test_no_spot_single_gpu_meets_deadline_and_idles_only_when_ahead():
    inst = _inst([0] * 40, work=16.0, deadline=20, nmax=1, mu=0.8)
    out = aisched.run("up", inst, variant="aisched_v1")
    assert _met(inst, out)
    od, _ = _counts(out)
    z = np.concatenate([[0.0], np.cumsum(progress(inst, od))])
    for t in range(inst.deadline):
        if od[t] == 0 and z[t] < inst.work - 1e-9:
            assert z[t] >= inst.work / inst.deadline * t - 1e-9  # idle only when on schedule


def test_bad_variant():
    with pytest.raises(InvalidScenarioError, match="^variant: "):
        aisched.run("up", _inst([1] * 12), variant="greedy")
    with pytest.raises(InvalidScenarioError, match="^variant: = 'greedy' is not one of 'reference'"):
        up(_inst([1] * 12), variant="greedy")      # direct call, past the registry's check


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), work=st.integers(4, 30), deadline=st.integers(3, 8),
       nmax=st.integers(1, 5), mu=st.sampled_from([0.5, 0.7, 0.9, 1.0]),
       variant=st.sampled_from(["reference", "aisched_v1"]), changeover=st.sampled_from(["off", "on"]))
def test_up_meets_the_deadline_whenever_od_only_does(seed, work, deadline, nmax, mu, variant, changeover):
    rng = np.random.default_rng(seed)
    slots = 4 * deadline + work
    inst = SpotInstance(work=float(work), deadline=deadline, min_gpus=1, max_gpus=nmax, value=2.0 * work,
                        hard_deadline_factor=2.0, scale_up_efficiency=mu, scale_down_efficiency=mu,
                        spot_price=np.round(rng.uniform(0.1, 1.3, slots), 2),
                        spot_available=rng.integers(0, nmax + 2, slots), changeover=changeover)
    if _met(inst, aisched.run("od_only", inst)):
        out = aisched.run("up", inst, variant=variant)
        assert _met(inst, out)
        assert out.verify(inst) == pytest.approx(out.objective)


def test_up_runs_the_gpu_count_it_is_given_and_refuses_one_outside_the_job():
    """``gpus`` (a declared silent parameter, readings S-silent): N for the reference rule; default OD-Only's."""
    import numpy as np

    import aisched
    from aisched.errors import InvalidScenarioError
    from aisched.online.spot.baselines import od_only_count
    from aisched.scenarios.spot import generate

    inst = generate(0, deadline=10)
    default = aisched.run("up", inst)
    assert default.info["gpus"] == od_only_count(inst)
    assert aisched.run("up", inst, gpus=od_only_count(inst)).objective == default.objective
    twelve = aisched.run("up", inst, gpus=12)
    used = np.asarray(twelve.plan["on_demand"].values) + np.asarray(twelve.plan["spot"].values)
    assert twelve.info["gpus"] == 12 and set(np.unique(used[: inst.deadline])) <= {0, 12}
    with pytest.raises(InvalidScenarioError, match="gpus.*integer in \\[1, 12\\]"):
        aisched.run("up", inst, gpus=13)
    with pytest.raises(InvalidScenarioError, match="gpus.*'reference' and 'aisched_v1'"):
        aisched.run("up", inst, gpus=12, variant="spot_first")
