"""The MILP of problem (5) against the exact DP and brute force; the MILP of (10)."""

from __future__ import annotations

import time

import pytest
from spot_tiny import brute_force, tiny

import aisched
from aisched.models.spot import exact_optimum


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
