"""The MILP of problem (5) against the exact DP and brute force; the MILP of (10)."""

from __future__ import annotations

import time

import numpy as np
import pytest
from spot_tiny import brute_force, tiny

import aisched
from aisched.errors import InvalidScenarioError, SolverError
from aisched.models.spot import exact_optimum
from aisched.solvers import solve


@pytest.mark.parametrize("seed", range(4))
def test_milp_equals_exact_dp(seed):
    inst = tiny(seed, slots=6, deadline=3, work=7.0, nmax=3)
    off = aisched.offline(inst)
    assert off.status == "optimal"
    dp, od, sp = exact_optimum(inst)
    assert off.objective == pytest.approx(dp, abs=1e-6)
    assert off.verify(inst) == pytest.approx(off.objective)
    plan = aisched.models.spot.make_plan(inst, od, sp)
    assert inst.verify_plan(plan) == pytest.approx(dp, abs=1e-9)


@pytest.mark.parametrize("seed", range(2))
def test_exact_dp_equals_brute_force(seed):
    inst = tiny(seed, slots=5, deadline=2, work=3.0, nmax=2)
    assert exact_optimum(inst)[0] == pytest.approx(brute_force(inst), abs=1e-9)


def test_offline_of_paper_job_is_fast_and_optimal():
    inst = aisched.scenarios.spot.generate(seed=0, deadline=10)
    aisched.offline(inst)  # warm up the solver interface
    t = time.perf_counter()
    off = aisched.offline(inst)
    elapsed = time.perf_counter() - t
    assert off.status == "optimal"
    assert elapsed < 30  # the <= 1 s figure is measured in benchmarks/bench_spot.py


def test_time_limit_returns_status_not_exception():
    inst = aisched.scenarios.spot.generate(seed=1, deadline=10)
    off = aisched.offline(inst, time_limit=1e-3)
    assert off.status in ("optimal", "time_limit")
    assert off.bound >= (off.objective if off.objective == off.objective else -1e300) - 1e-6


@pytest.mark.parametrize("seed", range(2))
def test_flow_formulation_equals_big_m(seed):
    inst = tiny(seed, slots=6, deadline=3, work=7.0, nmax=3)
    flow = aisched.models.spot.solve_offline(inst, formulation="flow")
    big_m = aisched.models.spot.solve_offline(inst, formulation="big_m")
    assert flow.status == big_m.status == "optimal"
    assert flow.objective == pytest.approx(big_m.objective, abs=1e-6)
    assert flow.verify(inst) == pytest.approx(flow.objective)


def _general(seed: int) -> aisched.models.spot.SpotInstance:
    """A tiny instance with an intercept and mu_1 < mu_2 (the paper job has neither)."""
    rng = np.random.default_rng(100 + seed)
    return aisched.models.spot.SpotInstance(
        work=6.5, deadline=3, min_gpus=2, max_gpus=4, value=12.0, hard_deadline_factor=2.0,
        throughput_slope=1.2, throughput_intercept=-0.8, scale_up_efficiency=0.7,
        scale_down_efficiency=0.85, spot_price=np.round(rng.uniform(0.1, 1.3, 6), 2),
        spot_available=rng.integers(0, 5, 6),
    )


@pytest.mark.parametrize("seed", range(3))
def test_strengthenings_and_tight_big_m_keep_the_optimum(seed):
    """With all four strengthenings off, HiGHS's defaults and the exact DP agree with the default."""
    inst = _general(seed)
    default = aisched.offline(inst)
    model = aisched.models.spot.build(inst)
    for name in ("one_direction", "growth_loss", "earliest_done", "no_dear_spot"):
        getattr(model, name).deactivate()
    bare = solve(model, "highs", mip_gap=0.0)
    plain = aisched.offline(inst, solver_options={})
    dp = exact_optimum(inst)[0]
    assert default.status == plain.status == "optimal" and bare.optimal
    assert default.objective == pytest.approx(dp, abs=1e-6)
    assert bare.objective == pytest.approx(dp, abs=1e-6)
    assert plain.objective == pytest.approx(dp, abs=1e-6)


def test_solver_option_errors():
    inst = tiny(0, slots=6, deadline=3, work=7.0, nmax=3)
    with pytest.raises(SolverError, match="no_such_option"):
        aisched.offline(inst, solver_options={"no_such_option": 1})
    with pytest.raises(InvalidScenarioError, match="solver_options") as info:
        aisched.offline(inst, solver_options=["mip_heuristic_run_rins"])
    assert info.value.field == "solver_options"
    with pytest.raises(InvalidScenarioError, match="formulaton") as info:
        aisched.offline(inst, formulaton="flow")
    assert info.value.field == "formulaton"
