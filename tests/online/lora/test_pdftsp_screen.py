"""The screen before Algorithm 2 is exact: it bounds F (10) from above and changes no decision."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aisched
from aisched.errors import InvalidScenarioError
from aisched.online.lora import pdftsp
from aisched.online.lora.pdftsp import reference as ref
from aisched.online.lora.pdftsp import screen as scr
from aisched.scenarios.lora import generate
from tests.online.lora.test_pdftsp_kernel import TINY, make_task, ref_args


def _bound(task):
    return scr.surplus_bound(*ref_args(task))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), prices=st.sampled_from(["continuous", "integer", "zero"]),
       bid=st.floats(0.0, 40.0))
def test_bound_is_above_every_schedules_f_brute_force(seed, prices, bid):
    """U_n >= max F over ALL schedules of option n (brute force), so a screened task has no
    schedule with F > 0: the full DP, whichever selection, would reject it too."""
    task = make_task(np.random.default_rng(seed), prices=prices, **TINY)
    task["bid"] = bid  # bids near the costs: both screened and unscreened tasks
    bound, screened = _bound(task)
    best = ref.select_exact_bruteforce(*ref_args(task)).option_surplus
    faithful = ref.select_faithful_reference(*ref_args(task)).option_surplus
    for n in range(len(bound)):
        assert np.isfinite(bound[n]) == np.isfinite(best[n])  # -inf exactly when infeasible
        if np.isfinite(best[n]):
            assert bound[n] >= best[n] - 1e-9 * (1 + abs(best[n]))
            assert bound[n] >= faithful[n] - 1e-9 * (1 + abs(faithful[n]))
    if screened:
        assert not np.any(best > 0)
    np.testing.assert_allclose(bound, scr.surplus_bound_reference(*ref_args(task)), rtol=1e-12)


def test_a_task_with_a_positive_f_is_never_screened():
    """Zero prices: F is the bid less the fee and energy; a feasible task with a large bid passes."""
    passed = 0
    for seed in range(20):
        task = make_task(np.random.default_rng(seed), prices="zero", **TINY)
        task["bid"] = 1e6
        if np.any(ref.select_exact_bruteforce(*ref_args(task)).option_surplus > 0):
            bound, screened = _bound(task)
            assert not screened and bound.max() > 0
            passed += 1
    assert passed > 5


@pytest.mark.parametrize("selection", ["faithful", "cell_prices"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_screened_run_decides_as_the_unscreened_one(seed, selection):
    inst = generate(seed=seed, nodes=6, slots=24, arrival_rate=5.0, vendors=2, gpu_mix="mixed")
    plain = aisched.run("pdftsp", inst, selection=selection)
    fast = aisched.run("pdftsp", inst, selection=selection, screen=True)
    for name in ("assignment", "vendor", "admitted", "fits"):
        np.testing.assert_array_equal(fast.plan[name].values, plain.plan[name].values, err_msg=name)
    np.testing.assert_array_equal(fast.payments, plain.payments)
    for name in ("compute_price", "memory_price"):
        np.testing.assert_array_equal(fast.prices[name].values, plain.prices[name].values)
    bound = fast.plan["surplus_is_bound"].values
    exact, upper = plain.plan["surplus"].values, fast.plan["surplus"].values
    assert bound.sum() == fast.info["screened"] > 0  # the screen did fire
    np.testing.assert_array_equal(upper[~bound], exact[~bound])
    # the bound is valid in exact arithmetic; a tight one (a one-slot schedule) may round an ulp below F
    assert np.all(upper[bound] >= exact[bound] - 1e-9 * (1 + np.abs(exact[bound])))
    assert np.all(upper[bound] <= 0)
    assert not plain.admitted[bound].any()
    assert "surplus_is_bound" not in plain.plan  # the default records every F exactly


def test_screen_adds_no_compilation_to_the_run():
    """The screen is NumPy: a screened day compiles the DP kernel no more than a plain one."""
    from aisched.online.lora.pdftsp import fronts as fr
    inst = generate(seed=4, nodes=5, slots=20, arrival_rate=4.0, vendors=2, gpu_mix="mixed")
    aisched.run("pdftsp", inst)
    before = fr.cache_size()
    out = aisched.run("pdftsp", inst, screen=True)
    assert fr.cache_size() == before and out.info["screened"] > 0


def test_screen_must_be_a_bool():
    with pytest.raises(InvalidScenarioError, match="screen"):
        pdftsp.PdftspParams(alpha=1.0, beta=1.0, screen="yes")
