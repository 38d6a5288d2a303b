"""Algorithm 2 as printed (line 13's running maxima, selection="faithful", :mod:`pdftsp.fronts`) against
its NumPy oracle."""

from __future__ import annotations

import numpy as np
import pytest

from aisched.online.lora.pdftsp import fronts as pf
from aisched.online.lora.pdftsp import kernel as pk
from aisched.online.lora.pdftsp import reference as ref
from tests.online.lora.test_pdftsp_kernel import (
    MID,
    TINY,
    check_schedule,
    kernel_args,
    make_task,
    recomputed_surplus,
    ref_args,
)


def running_max_cost(assign, task):
    """Sum over the schedule's cells, in slot order, of s*lhat + r*phat + e (line 13), recomputed."""
    energy, _ = ref.cell_costs(*(task[k] for k in ("compute_price", "memory_price", "energy_price",
                                                    "energy_use", "throughput")), task["memory_need"])
    lhat = phat = total = 0.0
    for t in np.nonzero(np.asarray(assign) >= 0)[0]:
        k = int(assign[t])
        lhat = max(lhat, task["compute_price"][k, t])
        phat = max(phat, task["memory_price"][k, t])
        total += task["throughput"][k] * lhat + task["memory_need"] * phat + energy[k, t]
    return total


@pytest.mark.parametrize("seed", range(20))
def test_faithful_matches_the_literal_dp_without_ties(seed):
    task = make_task(np.random.default_rng(seed), **MID)
    choice, cost, assign = pf.faithful_options(*kernel_args(task, 3), max_work_units=MID["w_max"])
    oracle = ref.select_faithful_reference(*ref_args(task))
    np.testing.assert_allclose(np.asarray(cost), oracle.option_cost, rtol=1e-9)
    np.testing.assert_array_equal(np.asarray(assign), oracle.option_assignment)
    assert int(choice.option) == oracle.option
    np.testing.assert_allclose(np.asarray(choice.option_surplus), oracle.option_surplus, rtol=1e-9)
    check_schedule(choice.assignment, task, int(choice.option))
    for n in range(MID["n_options"]):  # the DP value is the line-13 cost of its own schedule
        if np.isfinite(oracle.option_cost[n]):
            assert running_max_cost(oracle.option_assignment[n], task) == pytest.approx(
                oracle.option_cost[n], rel=1e-9)
    if int(choice.option) >= 0:
        assert float(choice.surplus) == pytest.approx(
            recomputed_surplus(choice.assignment, task, int(choice.option)), rel=1e-9)


@pytest.mark.parametrize("prices", ["zero", "integer"])
@pytest.mark.parametrize("seed", range(6))
def test_faithful_tie_heavy_costs_agree(seed, prices):
    task = make_task(np.random.default_rng(300 + seed), prices=prices, **MID)
    _, cost, assign = pf.faithful_options(*kernel_args(task, 3), max_work_units=MID["w_max"])
    oracle = ref.select_faithful_reference(*ref_args(task))
    np.testing.assert_allclose(np.asarray(cost), oracle.option_cost, rtol=1e-9, atol=1e-12)
    for n in range(MID["n_options"]):
        if np.isfinite(oracle.option_cost[n]):
            check_schedule(np.asarray(assign[n]), task, n)
            assert running_max_cost(np.asarray(assign[n]), task) == pytest.approx(
                oracle.option_cost[n], abs=1e-12)


def test_running_maxima_differ_from_cell_prices_and_never_beat_exact():
    """The two readings of line 13 pick different schedules on some tasks; exact bounds both."""
    differ = 0
    for seed in range(40):
        task = make_task(np.random.default_rng(700 + seed), **TINY)
        args = kernel_args(task, 2)
        faithful = pf.select_faithful(*args, max_work_units=TINY["w_max"])
        cells = pk.select_cell_prices(*args, max_work_units=TINY["w_max"])
        exact = pk.select_exact(*args, max_work_units=TINY["w_max"])
        assert float(faithful.surplus) <= float(exact.surplus) + 1e-9
        differ += not np.array_equal(np.asarray(faithful.assignment), np.asarray(cells.assignment))
    assert differ > 0


def test_handmade_running_max_prices_a_late_cheap_cell_at_the_earlier_maximum():
    """One node, W = 2 units in slots 0..1 only: line 13 charges slot 1 at max(lambda_0, lambda_1)."""
    lam = np.array([[3.0, 1.0]])
    task = dict(compute_price=lam, memory_price=np.zeros((1, 2)), energy_price=np.zeros((1, 2)),
                energy_use=np.zeros(1), throughput=np.ones(1), throughput_units=np.ones(1, np.int32),
                memory_need=1.0, work_units=2, start=np.array([0], np.int32), deadline=1,
                fee=np.zeros(1), valid=np.ones(1, bool), bid=10.0)
    _, cost, _ = pf.faithful_options(*kernel_args(task, 1), max_work_units=4)
    _, cell_cost, _ = pk.cell_prices_options(*kernel_args(task, 1), max_work_units=4)
    assert float(cost[0]) == pytest.approx(3.0 + 3.0)  # running maximum
    assert float(cell_cost[0]) == pytest.approx(3.0 + 1.0)  # each cell at its own price
    # F (10) charges max lambda * sum s = 3 * 2 either way
    assert float(pf.select_faithful(*kernel_args(task, 1), max_work_units=4).surplus) == pytest.approx(4.0)


def test_no_recompile_for_a_second_task():
    rng = np.random.default_rng(9)
    first, second = make_task(rng, **MID), make_task(rng, **MID)
    pf.select_faithful(*kernel_args(first, 3), max_work_units=MID["w_max"])
    before = pf.cache_size()
    pf.select_faithful(*kernel_args(second, 3), max_work_units=MID["w_max"])
    assert pf.cache_size() == before
