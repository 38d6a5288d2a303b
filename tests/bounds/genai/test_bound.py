"""The certified upper bound of IP (5): configuration LP, exact pricing of (8)."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import pytest
from conftest import need_data_file
from genai_tiny import job_schedules, make_instance, random_tiny, tiny_dag_job
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
from aisched.bounds.genai.pricing import JobPricer, max_parents
from aisched.errors import InvalidScenarioError
from aisched.online.genai.comdos import exact as comdos_exact
from aisched.solvers import solve


def _lp_relaxation(inst) -> float:
    m = aisched.models.genai.build(inst)
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    return float(solve(m, time_limit=30).objective)


@st.composite
def tiny_dag_job_and_cap(draw: st.DrawFn) -> tuple:
    """genai_tiny's one-job DAG (4 tasks on 5 slots) with a state cap for the pricing's search."""
    inst, price = draw(tiny_dag_job(four_tasks_on_five_slots=True))
    return inst, price, draw(st.sampled_from([1, 2, 200]))


@settings(max_examples=30, deadline=None)
@given(tiny_dag_job_and_cap())
def test_pricing_against_brute_force(case):
    """Exact: the pricing's value is the enumerated max of (8) and its column attains it; capped
    (``max_states`` 1 or 2 on diamonds): still an upper bound, and its column a real schedule below it."""
    inst, price, max_states = case
    schedules = job_schedules(inst, 0)
    values = {combo: value - float(np.sum(usage * price)) for value, usage, combo in schedules}
    best = max(values.values(), default=-np.inf)
    priced = JobPricer(inst, 0, max_parents(inst), max_states).price(price)
    assert priced.upper >= best - 1e-9  # certified whatever the cap
    if not np.isfinite(best):  # no schedule: no column; exact pricing says -inf, a capped one may stay above
        assert priced.column is None and (priced.upper == -np.inf or not priced.exact)
        return
    assert priced.reduced <= best + 1e-9  # the column is a schedule of the job
    assert priced.column is not None or not priced.exact  # exact pricing always returns its maximiser
    if priced.column is None:  # capped before reaching any complete schedule: only the upper bound is owed
        return
    col = priced.column
    combo = tuple((int(k), int(c), int(s), int(inst.runtime[0, j, c]))
                  for j, (k, c, s) in enumerate(zip(col.edge, col.choice, col.start, strict=True)))
    assert values[combo] == pytest.approx(priced.reduced, abs=1e-9)  # (8) of the column, recomputed
    if priced.exact:
        assert priced.upper == pytest.approx(best, abs=1e-9) and priced.reduced == pytest.approx(best, abs=1e-9)


def test_branch_and_bound_is_exact_on_diamonds_and_saves_solves():
    """A diamond (cyclic skeleton) priced exactly -- equal to comdos_exact's full cutset enumeration
    (itself tested against brute force) -- with fewer conditional solves than its cutset states."""
    rng = np.random.default_rng(3)
    for seed in range(8):
        job = {"arrival": 0, "deadline": 7, "revenue": 30.0, "edges": [(0, 1), (0, 2), (1, 3), (2, 3)],
               "data": rng.uniform(0.5, 3, 4).tolist(), "models": [[0, 1]] * 4,
               "runtime": rng.integers(1, 3, (4, 2)).tolist(), "compute": rng.uniform(0.1, 2, (4, 2)).tolist()}
        inst = make_instance(slots=8, capacity=[6.0, 6.0, 6.0], model_size=[1.0, 2.0], jobs=[job],
                             cost=(0.3, 0.0, 0.2), transfer=np.array([0.4, 1.0, 0.7]))
        price = np.random.default_rng(seed).exponential(0.4, (3, 8))
        pricer = JobPricer(inst, 0, max_parents(inst))
        assert pricer.cut  # the diamond's skeleton has a cycle
        priced = pricer.price(price)
        full, _ = comdos_exact.select(pricer.data, price)
        assert priced.exact and priced.upper == pytest.approx(full, abs=1e-9)
        assert priced.reduced == pytest.approx(full, abs=1e-9)
        assert priced.solves < int(np.isfinite(pricer.model.own[pricer.cut[0]]).sum())


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([False, True]))
def test_bound_between_optimum_and_lp_relaxation(seed: int, drop_oversized: bool) -> None:
    inst = random_tiny(seed, jobs=2)
    out = aisched.bound(inst, time_limit=30, drop_oversized=drop_oversized)
    off = aisched.offline(inst, time_limit=60)
    assert off.status == "optimal" and out.status == "lp_optimal"
    assert out.bound >= off.objective - 1e-6  # certified
    assert out.info["lagrangian_bound"] >= out.info["lp_value"] - 1e-6  # L never below the LP
    assert out.bound <= _lp_relaxation(inst) + 1e-6  # never looser than the Pyomo model's LP relaxation
    assert out.objective == pytest.approx(out.verify(inst)) and out.objective <= off.objective + 1e-6


def test_bound_on_small_generated_instances():
    """Fig. 9's size (generator, 12 slots, 6 jobs, 8 GB): the bound holds the proven MILP optimum."""
    need_data_file("taskbench_dags.jsonl")  # the generator's DAGs: skip, not fail, without the data
    for edges in (2, 3):
        inst = aisched.scenarios.genai.generate(0, edges=edges, slots=12, jobs=6, capacity=8.0)
        off = aisched.offline(inst, time_limit=60)
        out = aisched.bound(inst, time_limit=30)
        assert off.status == "optimal"
        assert out.bound >= off.objective - 1e-6 and out.objective <= off.objective + 1e-6
        assert out.bound <= _lp_relaxation(inst) + 1e-6
        assert out.prices["memory_price"].dims == ("edge", "slot")


def test_a_limit_still_returns_a_certified_bound():
    for seed in range(4):
        inst = random_tiny(seed, jobs=3)
        off = aisched.offline(inst, time_limit=60)
        out = aisched.bound(inst, max_iterations=1)
        assert out.bound >= off.objective - 1e-6
        assert out.info["iterations"] == 1 and out.status in ("limit", "lp_optimal")


def test_capped_pricing_keeps_the_bound_certified():
    """Every job a diamond, one conditional solve allowed: the bound still holds the optimum."""
    rng = np.random.default_rng(1)
    jobs = [{"arrival": 0, "deadline": 5, "revenue": float(rng.uniform(8, 20)),
             "edges": [(0, 1), (0, 2), (1, 3), (2, 3)], "data": rng.uniform(0.5, 3, 4).tolist(),
             "models": [[0, 1]] * 4, "runtime": [[1, 1]] * 4, "compute": rng.uniform(0.1, 2, (4, 2)).tolist()}
            for _ in range(2)]
    inst = make_instance(slots=6, capacity=[3.0, 2.0], model_size=[1.0, 2.0], jobs=jobs,
                         cost=(0.3, 0.0, 0.2), transfer=np.array([0.4, 1.0]))
    off = aisched.offline(inst, time_limit=60)
    out = aisched.bound(inst, max_states=1)
    assert off.status == "optimal" and out.bound >= off.objective - 1e-6
    assert out.info["cyclic_jobs"] == 2


def test_starting_prices_and_bad_options():
    inst = random_tiny(0, jobs=2)
    start = aisched.run("comdos", inst).prices
    out = aisched.bound(inst, prices=start, max_iterations=1)
    expect = float(np.sum(np.maximum([JobPricer(inst, i, max_parents(inst)).price(
        start["memory_price"].values).upper for i in range(2)], 0.0))
        + np.sum(start["memory_price"].values * inst.memory_capacity[:, None]))
    assert out.info["lagrangian_history"][0] == pytest.approx(expect)
    with pytest.raises(InvalidScenarioError, match="prices.memory_price"):
        aisched.bound(inst, prices=start.assign(memory_price=-start["memory_price"] - 1))
    with pytest.raises(InvalidScenarioError, match="depth"):
        aisched.bound(inst, depth=3)
    for name, value in (("max_states", 0), ("max_iterations", 1.5), ("tolerance", -1.0), ("primal", "lp"),
                        ("time_limit", -2)):
        with pytest.raises(InvalidScenarioError, match=name):
            aisched.bound(inst, **{name: value})
