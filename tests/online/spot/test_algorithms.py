"""AHAP, AHANP and the baselines: verified plans, never above the optimum, kernel == reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spot_tiny import tiny

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance, progress
from aisched.online.spot import noisy, perfect
from aisched.online.spot.window import reference as wr

NAMES = ["ahap", "ahanp", "od_only", "msu", "up"]


def test_registration_order():
    assert aisched.algorithms("spot") == NAMES


@pytest.mark.parametrize("seed", range(3))
def test_every_policy_verifies_and_never_beats_the_optimum(seed):
    inst = tiny(seed, slots=12, deadline=5, work=12.0, nmax=4)
    outcomes = {}
    table = aisched.compare(inst, NAMES, outcomes=outcomes)
    opt = table.loc["offline", "objective"]
    assert table.loc["offline", "status"] == "optimal"
    for name in NAMES:
        assert outcomes[name].verify(inst) == pytest.approx(table.loc[name, "objective"])
        assert table.loc[name, "objective"] <= opt + 1e-6


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), window=st.integers(1, 3), data=st.data())
def test_ahap_kernel_equals_numpy_reference(seed, window, data):
    commitment = data.draw(st.integers(1, window))
    threshold = data.draw(st.sampled_from([0.3, 0.6, 0.9]))
    inst = tiny(seed, slots=14, deadline=6, work=float(10 + seed % 15), nmax=4)
    pred = noisy(0.3, kind="magnitude", dist="heavy", seed=seed)
    a = aisched.run("ahap", inst, window=window, commitment=commitment, threshold=threshold,
                    predictor=pred)
    b = aisched.run("ahap", inst, window=window, commitment=commitment, threshold=threshold,
                    predictor=pred, engine="reference")
    assert a.info["engine"] == "kernel"
    np.testing.assert_array_equal(a.plan["on_demand"].values, b.plan["on_demand"].values)
    np.testing.assert_array_equal(a.plan["spot"].values, b.plan["spot"].values)
    assert a.verify(inst) == pytest.approx(b.objective)


@pytest.mark.parametrize("seed", range(4))
def test_ahanp_kernel_equals_reference(seed):
    inst = tiny(seed, slots=14, deadline=6, work=15.0, nmax=4)
    for thr in (0.3, 0.9):
        a = aisched.run("ahanp", inst, threshold=thr)
        b = aisched.run("ahanp", inst, threshold=thr, engine="reference")
        np.testing.assert_array_equal(a.plan["spot"].values, b.plan["spot"].values)
        np.testing.assert_array_equal(a.plan["on_demand"].values, b.plan["on_demand"].values)


def _fig4() -> SpotInstance:
    """Fig. 4 (section II-C): 20 work units in 5 slots, no reconfiguration overhead."""
    return SpotInstance(work=20, deadline=5, min_gpus=1, max_gpus=8, value=40, hard_deadline_factor=2,
                        scale_up_efficiency=1.0, scale_down_efficiency=1.0,
                        spot_price=np.array([0.3, 0.8, 0.3, 0.3, 0.8, 0.5, 0.5, 0.5, 0.5, 0.5]),
                        spot_available=np.array([6, 2, 0, 8, 1, 4, 4, 4, 4, 4]))


def test_fig4_perfect_foresight_costs_no_more_than_non_predictive():
    inst = _fig4()
    cost = {}
    for name in NAMES:
        params = {"predictor": perfect(), "window": 4, "commitment": 1, "threshold": 0.4} \
            if name == "ahap" else {}
        out = aisched.run(name, inst, **params)
        out.verify(inst)
        cost[name] = inst.value - out.objective if out.plan["completion"] < inst.deadline else np.inf
    assert np.isfinite(cost["ahap"])
    for name in ("ahanp", "od_only", "msu", "up"):
        assert cost["ahap"] <= cost[name] + 1e-9, (name, cost)


def test_termination_configuration_after_the_deadline():
    inst = tiny(1, slots=14, deadline=4, work=20.0, nmax=4)
    out = aisched.run("up", inst)
    od = out.plan["on_demand"].values
    completion = int(out.plan["completion"])
    if completion >= inst.deadline:
        assert (od[inst.deadline: completion + 1] == inst.max_gpus).all()
    assert out.verify(inst) == pytest.approx(out.objective)


def test_ahanp_cases_first_slot_and_doubling():
    inst = SpotInstance(work=30, deadline=5, min_gpus=1, max_gpus=8, value=60, hard_deadline_factor=2,
                        spot_price=np.full(10, 0.5), spot_available=np.full(10, 3))
    od, sp = wr.ahanp_reference(inst, 0.6, first_slot="on_schedule")
    n = od + sp
    # old reading: slot 0 on schedule, n^ = 1 -> case 3 keeps n_{-1} = 0; then behind: N_min, doubling (case 7)
    assert list(n[:4]) == [0, 1, 2, 4]


def test_ahanp_first_slot_behind_starts_at_once():
    # default reading: z^ = 0/0 in the first slot is "behind" -> N_min, then doubling (case 7)
    inst = SpotInstance(work=30, deadline=5, min_gpus=1, max_gpus=8, value=60, hard_deadline_factor=2,
                        spot_price=np.full(10, 0.5), spot_available=np.full(10, 3))
    od, sp = wr.ahanp_reference(inst, 0.6)
    assert list((od + sp)[:4]) == [1, 2, 4, 8]
    for first in ("behind", "on_schedule"):
        out = aisched.run("ahanp", inst, first_slot=first)
        ref_od, ref_sp = wr.ahanp_reference(inst, 0.6, first)
        d = inst.deadline
        np.testing.assert_array_equal(out.plan["on_demand"].values[:d], ref_od[:d])
        np.testing.assert_array_equal(out.plan["spot"].values[:d], ref_sp[:d])
    with pytest.raises(InvalidScenarioError, match="first_slot"):
        aisched.run("ahanp", inst, first_slot="late")


def test_ahanp_behind_first_slot_meets_more_deadlines():
    # measured effect on the paper job (8 of 16 seeds with "behind", 0 of 16 with "on_schedule")
    from aisched.scenarios.spot import generate
    met = {}
    for first in ("behind", "on_schedule"):
        met[first] = 0
        for seed in range(4):
            inst = generate(seed=seed)
            od, sp = wr.ahanp_reference(inst, 0.6, first)
            met[first] += int(float(np.sum(progress(inst, od + sp)[: inst.deadline])) >= inst.work - 1e-7)
    assert met["behind"] > met["on_schedule"] == 0


def test_bad_policy_parameters():
    inst = tiny(0)
    with pytest.raises(InvalidScenarioError, match="commitment"):
        aisched.run("ahap", inst, window=2, commitment=3)
    with pytest.raises(InvalidScenarioError, match="threshold"):
        aisched.run("ahanp", inst, threshold=-1)
    with pytest.raises(InvalidScenarioError, match="sigma_rule"):
        aisched.run("ahap", inst, sigma_rule="sometimes")


def test_averaging_rounds_half_up_and_limits():
    # the documented choices of lines 14-16 of Algorithm 1
    np.testing.assert_array_equal(wr.round_half_up(np.array([0.5, 1.49, 2.5, 1 / 3 + 1 / 6])), [1, 1, 3, 1])
    inst = SpotInstance(work=10, deadline=4, min_gpus=2, max_gpus=5, value=20, hard_deadline_factor=2,
                        spot_price=np.full(9, 0.5), spot_available=np.full(9, 5))
    assert wr._clamp(inst, 3, 4) == (1, 4)   # above N_max: on-demand dropped first
    assert wr._clamp(inst, 0, 1) == (1, 1)   # in (0, N_min): topped up on demand
    assert wr._clamp(inst, 0, 0) == (0, 0)   # idle stays idle


def test_ahap_commitment_averages_last_plans():
    inst = tiny(5, slots=14, deadline=6, work=15.0, nmax=4)
    pred = noisy(0.5, seed=2)
    one = aisched.run("ahap", inst, window=3, commitment=1, threshold=0.6, predictor=pred)
    three = aisched.run("ahap", inst, window=3, commitment=3, threshold=0.6, predictor=pred)
    one.verify(inst)
    three.verify(inst)
    assert one.info["commitment"] == 1 and three.info["commitment"] == 3


def test_kernel_falls_back_to_reference_without_lattice():
    inst = tiny(2, slots=14, deadline=6, work=15.0, nmax=4, mu=0.912345)
    out = aisched.run("ahap", inst, window=2, commitment=1, threshold=0.6)
    assert out.info["engine"] == "reference"
    assert out.verify(inst) == pytest.approx(out.objective)
