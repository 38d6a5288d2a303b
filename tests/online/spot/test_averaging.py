"""AHAP's averaging readings ("chc", "actual_state") and the optional deadline guard (readings S3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spot_tiny import tiny

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance, plan_utility
from aisched.online.spot import noisy
from aisched.online.spot.window import reference as wr


def flat(work: float, deadline: int, nmax: int, price: float, avail: int, mu: float, nmin: int = 1) -> SpotInstance:
    """A flat market: the same spot price and availability in every slot."""
    slots = 3 * deadline
    return SpotInstance(work=work, deadline=deadline, min_gpus=nmin, max_gpus=nmax, value=2.0 * work,
                        hard_deadline_factor=2.0, scale_up_efficiency=mu, scale_down_efficiency=mu,
                        spot_price=np.full(slots, price), spot_available=np.full(slots, avail, int))


def perfect_forecasts(inst: SpotInstance, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat market: the forecast of every slot is the truth."""
    return (np.tile(inst.spot_price[:, None], (1, window + 1)),
            np.tile(inst.spot_available[:, None], (1, window + 1)))


def completion(inst: SpotInstance, od: np.ndarray, sp: np.ndarray) -> int:
    return int(plan_utility(inst, od, sp)[1])


@pytest.mark.parametrize("seed", range(3))
def test_chc_with_commitment_one_is_the_actual_state_reading(seed):
    inst = tiny(seed, slots=14, deadline=6, work=float(12 + seed), nmax=4)
    pred = noisy(0.3, seed=seed)
    for w in (1, 3):
        a = aisched.run("ahap", inst, window=w, commitment=1, predictor=pred, averaging="chc")
        b = aisched.run("ahap", inst, window=w, commitment=1, predictor=pred, averaging="actual_state")
        np.testing.assert_array_equal(a.plan["on_demand"].values, b.plan["on_demand"].values)
        np.testing.assert_array_equal(a.plan["spot"].values, b.plan["spot"].values)


def test_chc_reference_follows_each_sub_trajectory_by_hand():
    # no spot, flat on-demand market: the paper job's numbers at a small scale. v = 2: the
    # executed count of every slot is the half-up mean of the two sub-trajectories' plans
    inst = flat(work=20.0, deadline=5, nmax=6, price=1.0, avail=0, mu=0.9)
    pf, af = perfect_forecasts(inst, 2)
    od, sp, info = wr.ahap_reference(inst, pf, af, 2, 2, 0.6, averaging="chc")
    od1, _, _ = wr.ahap_reference(inst, pf, af, 2, 1, 0.6, averaging="chc")
    assert not sp.any()
    # slot 0: only FHC^(0) exists, so the count is its plan, the v = 1 plan of slot 0
    assert od[0] == od1[0]
    assert completion(inst, od, sp) <= inst.deadline - 1
    assert info["windows_solved"] >= 1


def test_bad_averaging_is_refused():
    inst = tiny(0)
    with pytest.raises(InvalidScenarioError, match="averaging"):
        aisched.run("ahap", inst, averaging="mean")
    with pytest.raises(InvalidScenarioError, match="averaging"):
        aisched.online.spot.evaluate_pool([inst], aisched.online.spot.paper_pool(windows=(1,)),
                                          averaging="mean")


def test_finding_unguarded_ahap_can_miss_a_deadline_the_optimum_meets():
    # S3's finding, on a tight flat market with perfect forecasts: the optimum completes by the
    # deadline, AHAP (both readings, v = 1) does not; the deadline guard does.
    inst = flat(work=13.4, deadline=3, nmax=5, price=0.6, avail=1, mu=0.7)
    off = aisched.offline(inst)
    assert off.status == "optimal"
    assert 0 <= completion(inst, off.plan["on_demand"].values, off.plan["spot"].values) <= 2
    pf, af = perfect_forecasts(inst, 1)
    for averaging in ("chc", "actual_state"):
        od, sp, _ = wr.ahap_reference(inst, pf, af, 1, 1, 0.3, averaging=averaging)
        assert completion(inst, od, sp) > inst.deadline - 1, averaging
        od, sp, _ = wr.ahap_reference(inst, pf, af, 1, 1, 0.3, averaging=averaging, deadline_guard_on=True)
        assert 0 <= completion(inst, od, sp) <= inst.deadline - 1, averaging


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=st.integers(2, 6), nmax=st.integers(1, 5), mu=st.sampled_from([0.7, 0.8, 0.9, 1.0]),
       avail=st.integers(0, 6), price=st.sampled_from([0.3, 0.6, 1.2]), frac=st.floats(0.3, 1.0),
       w=st.integers(1, 3), data=st.data())
def test_deadline_guard_completes_whenever_any_plan_can(d, nmax, mu, avail, price, frac, w, data):
    # N_max GPUs from slot 0 do the most work any plan can by the deadline; if they finish, the
    # guarded AHAP finishes by the deadline (any reading, any v, sigma)
    v = data.draw(st.integers(1, w))
    sigma = data.draw(st.sampled_from([0.3, 0.9]))
    capacity = mu * nmax + (d - 1) * nmax
    inst = flat(work=float(max(0.1, np.floor(frac * capacity * 10) / 10)), deadline=d, nmax=nmax,
                price=price, avail=min(avail, nmax + 1), mu=mu)
    pf, af = perfect_forecasts(inst, w)
    for averaging in ("chc", "actual_state"):
        od, sp, _ = wr.ahap_reference(inst, pf, af, w, v, sigma, averaging=averaging, deadline_guard_on=True)
        assert 0 <= completion(inst, od, sp) <= d - 1


def test_guard_in_the_kernel_equals_the_reference():
    inst = flat(work=13.4, deadline=3, nmax=5, price=0.6, avail=1, mu=0.7)
    for averaging in ("chc", "actual_state"):
        a = aisched.run("ahap", inst, window=1, commitment=1, threshold=0.3, averaging=averaging,
                        deadline_guard=True)
        b = aisched.run("ahap", inst, window=1, commitment=1, threshold=0.3, averaging=averaging,
                        deadline_guard=True, engine="reference")
        assert a.info["engine"] == "kernel"
        np.testing.assert_array_equal(a.plan["on_demand"].values, b.plan["on_demand"].values)
        assert a.info["deadline_guard"] is True
