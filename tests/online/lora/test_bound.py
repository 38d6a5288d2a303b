"""The certified upper bound of IP (4): column generation with a Lagrangian bound (issue 17, lora)."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import pytest
from conftest import need_data_file
from hypothesis import given, settings
from hypothesis import strategies as st
from lora_tiny import brute_force_optimum, random_tiny

import aisched
from aisched.errors import InvalidScenarioError, UnknownAlgorithmError
from aisched.online.lora import bound as lb
from aisched.solvers import solve


def _optimum(inst) -> float:
    found = brute_force_optimum(inst)
    return float(found[0] if isinstance(found, tuple) else found)


def _lp_relaxation(inst) -> float:
    m = aisched.models.lora.build(inst)
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    return float(solve(m, time_limit=30).objective)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_bound_between_optimum_and_lp_relaxation(seed: int, tasks: int) -> None:
    inst = random_tiny(seed, tasks=tasks)
    out = aisched.bound(inst, time_limit=30)
    opt = _optimum(inst)
    assert out.status == "lp_optimal" and out.info["exact_units"]
    assert out.bound >= opt - 1e-6  # certified: never below the optimum
    assert out.bound <= _lp_relaxation(inst) + 1e-6  # never looser than the compact LP relaxation
    assert out.info["lagrangian_bound"] >= out.info["lp_value"] - 1e-6 or np.isnan(out.info["lp_value"])
    assert out.objective == pytest.approx(out.verify(inst)) and out.objective <= opt + 1e-6


def test_pricing_equals_brute_force_best_schedule() -> None:
    """With zero prices, a task's best reduced profit is its best welfare alone (brute force on one task)."""
    for seed in range(12):
        inst = random_tiny(seed, tasks=3)
        unit, exact = lb._units(inst)
        assert exact
        K, T = inst.num_nodes, inst.num_slots
        for i in range(inst.num_tasks):
            alone = inst.subset([i])
            profit, col = lb.price_task(inst, i, np.zeros((K, T)), np.zeros((K, T)), unit)
            assert max(profit, 0.0) == pytest.approx(max(_optimum(alone), 0.0), abs=1e-9)
            if col is not None:
                assert col.work >= inst.work[i] - 1e-9


def test_a_limit_still_returns_a_certified_bound() -> None:
    inst = random_tiny(6, tasks=5)
    out = aisched.bound(inst, max_iterations=1)
    assert out.status == "limit" and out.bound >= _optimum(inst) - 1e-6
    assert out.prices["compute_price"].dims == ("node", "slot")


def test_bound_errors() -> None:
    with pytest.raises(InvalidScenarioError, match="^depth: is not an option of the bound"):
        aisched.bound(random_tiny(0), depth=3)
    need_data_file("philly_pollux_2017-10-09.csv")  # skip, not fail, without the data
    tenants = aisched.scenarios.tenants.generate(seed=0, users=2, servers=3, jobs=4)
    with pytest.raises(UnknownAlgorithmError, match="no certified bound for family 'tenants' yet"):
        aisched.bound(tenants)
