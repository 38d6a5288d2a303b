"""changeover='on': a restart when the job moves between spot and on-demand."""

from __future__ import annotations

import numpy as np
import pytest
from spot_tiny import brute_force, tiny

import aisched
from aisched.errors import InvalidInstanceError, InvalidScenarioError
from aisched.models.spot import SpotInstance, make_plan, plan_utility, verify_plan
from aisched.models.spot.exact_dp import exact_optimum
from aisched.models.spot.program import build

NAMES = ["ahap", "ahanp", "od_only", "msu", "up"]


def switching_market(changeover: str = "off") -> SpotInstance:
    """Cheap spot, but one GPU short in slot 1: free switching goes spot -> mixed -> spot."""
    return SpotInstance(work=5.6, deadline=3, min_gpus=1, max_gpus=2, value=10.0, hard_deadline_factor=2.0,
                        scale_up_efficiency=0.8, scale_down_efficiency=0.8, spot_price=np.full(6, 0.3),
                        spot_available=np.array([2, 1, 2, 2, 2, 2]), changeover=changeover)


def test_split_efficiency():
    on, off = switching_market("on"), switching_market("off")
    # same total, one spot GPU swapped for an on-demand one: a restart only with changeover on
    assert off.split_efficiency(1, 1, 0, 2) == 1.0
    assert on.split_efficiency(1, 1, 0, 2) == pytest.approx(0.8)
    # shrinking without new instances: mu_2; unchanged: 1; growing: mu_1 either way
    assert on.split_efficiency(0, 1, 0, 2) == pytest.approx(0.8)
    assert on.split_efficiency(1, 1, 1, 1) == 1.0
    assert on.split_efficiency(1, 2, 1, 1) == off.split_efficiency(1, 2, 1, 1)


@pytest.mark.parametrize("seed", range(5))
def test_milp_equals_exact_dp_equals_brute_force_with_changeover(seed):
    inst = tiny(seed, slots=6, deadline=3, work=3.0 + 0.6 * seed, nmax=2).replace(changeover="on")
    bf = brute_force(inst)
    dp, od, sp = exact_optimum(inst)
    milp = aisched.offline(inst)
    assert milp.status == "optimal"
    assert dp == pytest.approx(bf, abs=1e-7)
    assert milp.objective == pytest.approx(bf, abs=1e-6)
    assert verify_plan(inst, make_plan(inst, od, sp)) == pytest.approx(dp)


def test_the_optimal_plan_stops_relying_on_free_switching():
    off, on = switching_market("off"), switching_market("on")
    u_off, od_off, sp_off = exact_optimum(off)
    u_on, od_on, sp_on = exact_optimum(on)
    assert u_on == pytest.approx(brute_force(on)) and u_off == pytest.approx(brute_force(off))
    # without changeover the optimum swaps spot and on-demand at a constant total (free)
    np.testing.assert_array_equal(sp_off[:3], [2, 1, 2])
    np.testing.assert_array_equal(od_off[:3], [0, 1, 0])
    # with it, that plan loses work (it no longer finishes in time) and the optimum keeps one split
    assert plan_utility(off, od_off, sp_off)[1] == 2
    assert plan_utility(on, od_off, sp_off)[1] == -1  # 4.8 of 5.6 units: unfinished
    np.testing.assert_array_equal(sp_on[:3], [1, 1, 1])
    np.testing.assert_array_equal(od_on[:3], [1, 1, 1])
    assert u_on < u_off
    assert aisched.offline(on).objective == pytest.approx(u_on)


def test_every_policy_verifies_under_changeover_and_msu_pays_for_its_switches():
    on, off = switching_market("on"), switching_market("off")
    outcomes: dict = {}
    table = aisched.compare(on, NAMES, outcomes=outcomes)
    opt = table.loc["offline", "objective"]
    for name in NAMES:
        assert outcomes[name].verify(on) == pytest.approx(table.loc[name, "objective"])
        assert table.loc[name, "objective"] <= opt + 1e-6
    # MSU makes the same switches; charged for them it finishes later and earns less
    assert aisched.run("msu", on).objective < aisched.run("msu", off).objective


@pytest.mark.parametrize("seed", range(3))
def test_policies_under_changeover_on_random_markets(seed):
    inst = tiny(seed, slots=12, deadline=5, work=12.0, nmax=4).replace(changeover="on")
    outcomes: dict = {}
    table = aisched.compare(inst, NAMES, outcomes=outcomes)
    assert table.loc["offline", "status"] == "optimal"
    for name in NAMES:
        assert outcomes[name].verify(inst) == pytest.approx(table.loc[name, "objective"])
        assert table.loc[name, "objective"] <= table.loc["offline", "objective"] + 1e-6
    assert aisched.run("ahap", inst).info["engine"] == "kernel"  # the split kernels carry the changeover (S7)


def test_changeover_option_validation_and_round_trip():
    with pytest.raises(InvalidInstanceError, match="changeover"):
        switching_market("sometimes")
    on = switching_market("on")
    assert SpotInstance.from_dataset(on.to_dataset()) == on
    assert switching_market().changeover == "off"
    with pytest.raises(InvalidScenarioError, match="flow"):
        build(on, "flow")
    # with it on in every job the pool runs the jitted engine over splits (S7); with it on in some jobs
    # only, the NumPy references (which plan the window (10) with the changeover): the same utilities
    pool = aisched.online.spot.paper_pool(windows=(1,), sigmas=(0.5,))
    u, info = aisched.online.spot.evaluate_pool([on], pool)
    assert info["engine"] == "batched" and u.shape == (1, 2) and np.isfinite(u).all()
    mixed, mixed_info = aisched.online.spot.evaluate_pool([on, switching_market()], pool)
    assert mixed_info["engine"] == "reference"
    np.testing.assert_allclose(u[0], mixed[0], rtol=1e-9, atol=1e-9)
