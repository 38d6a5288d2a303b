"""Tests of aisched.solvers: solve() status mapping, options, and to_xarray."""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pyomo.environ as pyo
import pytest

from aisched.errors import InvalidScenarioError, SolverError, SolverUnavailableError
from aisched.solvers import SolveResult, Status, solve, to_xarray, values_dict

WEIGHTS = [12, 7, 11, 8, 9, 6, 5, 14]
VALUES = [24, 13, 23, 15, 16, 11, 9, 30]
CAPACITY = 30


def knapsack() -> pyo.ConcreteModel:
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, len(WEIGHTS) - 1)
    m.x = pyo.Var(m.I, domain=pyo.Binary)
    m.cap = pyo.Constraint(expr=sum(WEIGHTS[i] * m.x[i] for i in m.I) <= CAPACITY)
    m.obj = pyo.Objective(expr=sum(VALUES[i] * m.x[i] for i in m.I), sense=pyo.maximize)
    return m


def brute_force_knapsack() -> int:
    best = 0
    for pick in itertools.product((0, 1), repeat=len(WEIGHTS)):
        if sum(w * p for w, p in zip(WEIGHTS, pick)) <= CAPACITY:
            best = max(best, sum(v * p for v, p in zip(VALUES, pick)))
    return best


def lp_min() -> pyo.ConcreteModel:
    # min 2x + 3y  s.t. x + y >= 4, x <= 3, y >= 0  ->  x = 3, y = 1, obj = 9
    m = pyo.ConcreteModel()
    m.x = pyo.Var(bounds=(0, 3))
    m.y = pyo.Var(domain=pyo.NonNegativeReals)
    m.c = pyo.Constraint(expr=m.x + m.y >= 4)
    m.obj = pyo.Objective(expr=2 * m.x + 3 * m.y)
    return m


def multi_knapsack(n: int = 150, k: int = 20, seed: int = 0) -> pyo.ConcreteModel:
    rng = np.random.default_rng(seed)
    w = rng.integers(1, 1000, size=(k, n))
    p = rng.integers(1, 1000, size=n)
    cap = (w.sum(axis=1) // 2).tolist()
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, n - 1)
    m.J = pyo.RangeSet(0, k - 1)
    m.x = pyo.Var(m.I, domain=pyo.Binary)
    m.c = pyo.Constraint(m.J, rule=lambda m, j: sum(int(w[j, i]) * m.x[i] for i in m.I) <= cap[j])
    m.obj = pyo.Objective(expr=sum(int(p[i]) * m.x[i] for i in m.I), sense=pyo.maximize)
    return m


def test_knapsack_optimal_and_loaded() -> None:
    m = knapsack()
    res = solve(m, time_limit=30, mip_gap=0.0, threads=1)
    assert isinstance(res, SolveResult)
    assert res.status is Status.OPTIMAL and res.optimal
    assert res.termination == "convergenceCriteriaSatisfied"
    assert res.has_solution and res.solver == "highs"
    assert res.sense == "max" and res.engine == "pyomo" and res.solution is None and res.row_dual is None
    best = brute_force_knapsack()
    assert res.objective == pytest.approx(best, abs=1e-6)
    assert res.bound == pytest.approx(res.objective, abs=1e-6)
    assert res.gap == 0.0
    assert res.wall_time_s > 0
    picked = {i: round(m.x[i].value) for i in m.I}
    assert sum(WEIGHTS[i] * picked[i] for i in m.I) <= CAPACITY
    assert sum(VALUES[i] * picked[i] for i in m.I) == best
    assert pyo.value(m.obj) == pytest.approx(best)


def test_lp_minimise() -> None:
    m = lp_min()
    res = solve(m)
    assert res.status is Status.OPTIMAL
    assert res.objective == pytest.approx(9.0)
    assert res.bound == pytest.approx(9.0)
    assert m.x.value == pytest.approx(3.0) and m.y.value == pytest.approx(1.0)


def test_infeasible() -> None:
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.NonNegativeReals)
    m.y = pyo.Var(domain=pyo.NonNegativeReals)
    m.a = pyo.Constraint(expr=m.x + m.y <= 1)
    m.b = pyo.Constraint(expr=m.x + m.y >= 2)
    m.obj = pyo.Objective(expr=m.x)
    res = solve(m)
    assert res.status is Status.INFEASIBLE and not res.optimal
    assert res.termination == "provenInfeasible"
    assert not res.has_solution
    assert math.isnan(res.objective) and math.isnan(res.bound) and math.isnan(res.gap)
    assert m.x.value is None


def test_infeasible_or_unbounded_maps_to_infeasible() -> None:
    # an unbounded MIP: HiGHS' presolve only says "unbounded or infeasible"
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.NonNegativeIntegers)
    m.y = pyo.Var(domain=pyo.NonNegativeReals)
    m.c = pyo.Constraint(expr=m.x - m.y <= 1)
    m.obj = pyo.Objective(expr=m.x + m.y, sense=pyo.maximize)
    res = solve(m)
    assert res.termination == "infeasibleOrUnbounded"
    assert res.status is Status.INFEASIBLE
    assert "infeasible or unbounded" in res.message
    assert not res.has_solution and math.isnan(res.objective)


def test_unbounded() -> None:
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.NonNegativeReals)
    m.y = pyo.Var(domain=pyo.NonNegativeReals)
    m.c = pyo.Constraint(expr=m.x - m.y <= 1)
    m.obj = pyo.Objective(expr=m.x + m.y, sense=pyo.maximize)
    res = solve(m)
    assert res.termination == "unbounded"
    assert res.status is Status.UNBOUNDED
    assert not res.has_solution and math.isnan(res.objective)
    assert res.bound == math.inf


def test_time_limit_returns_incumbent() -> None:
    m = multi_knapsack()
    start = time.perf_counter()
    res = solve(m, time_limit=0.5)
    elapsed = time.perf_counter() - start
    assert elapsed < 10.0
    assert res.status is Status.TIME_LIMIT and not res.optimal
    assert res.termination == "maxTimeLimit"
    assert res.has_solution
    assert math.isfinite(res.objective) and res.objective > 0
    assert math.isfinite(res.bound) and res.bound >= res.objective - 1e-6
    assert res.gap == pytest.approx((res.bound - res.objective) / res.objective)
    assert res.gap > 0
    # the incumbent is loaded and feasible
    assert pyo.value(m.obj) == pytest.approx(res.objective)
    for j in m.J:
        assert pyo.value(m.c[j].body) <= pyo.value(m.c[j].upper) + 1e-6


def test_legacy_fallback_appsi_highs() -> None:
    m = knapsack()
    res = solve(m, "appsi_highs", time_limit=30, mip_gap=0.0, threads=1)
    assert res.status is Status.OPTIMAL
    assert res.objective == pytest.approx(brute_force_knapsack())
    assert res.bound == pytest.approx(res.objective)
    assert pyo.value(m.obj) == pytest.approx(res.objective)


@pytest.mark.parametrize("name", ["no_such_solver", "gurobi", "gurobi_direct"])
def test_missing_solver(name: str) -> None:
    with pytest.raises(SolverUnavailableError, match=name):
        solve(lp_min(), name)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("time_limit", 0),
        ("time_limit", -1.0),
        ("time_limit", math.inf),
        ("time_limit", math.nan),
        ("time_limit", "10"),
        ("mip_gap", -0.1),
        ("mip_gap", math.nan),
        ("threads", 0),
        ("threads", 1.5),
        ("threads", True),
    ],
)
def test_bad_options(option: str, value: object) -> None:
    with pytest.raises(InvalidScenarioError, match=option) as info:
        solve(lp_min(), **{option: value})
    assert info.value.field == option
    assert repr(value) in str(info.value)


def test_objective_count() -> None:
    m = lp_min()
    m.obj2 = pyo.Objective(expr=m.x)
    with pytest.raises(SolverError, match="exactly one active objective, found 2"):
        solve(m)
    m.obj.deactivate()
    m.obj2.deactivate()
    with pytest.raises(SolverError, match="found 0"):
        solve(m)


def test_to_xarray_sparse() -> None:
    m = pyo.ConcreteModel()
    m.S = pyo.Set(initialize=[("b", 2), ("a", 1), ("b", 1), ("c", 3)], dimen=2)
    m.y = pyo.Var(m.S, domain=pyo.NonNegativeReals)
    m.y["a", 1].value = 1.5
    m.y["b", 2].value = 4.0
    m.y["c", 3].value = 7.0  # ("b", 1) stays None
    da = to_xarray(m.y, ("job", "slot"))
    assert da.name == "y"
    assert da.dims == ("job", "slot")
    assert list(da.coords["job"].values) == ["a", "b", "c"]
    assert list(da.coords["slot"].values) == [1, 2, 3]
    assert da.sel(job="a", slot=1).item() == 1.5
    assert da.sel(job="b", slot=2).item() == 4.0
    assert da.sel(job="c", slot=3).item() == 7.0
    assert math.isnan(da.sel(job="b", slot=1).item())  # value None
    assert math.isnan(da.sel(job="a", slot=3).item())  # absent from the index
    assert int(np.isnan(da.values).sum()) == 9 - 3

    da0 = to_xarray(m.y, ["job", "slot"], coords={"slot": [3, 2, 1, 0]}, fill=0.0)
    assert da0.shape == (3, 4)
    assert list(da0.coords["slot"].values) == [3, 2, 1, 0]
    assert da0.sel(job="a", slot=1).item() == 1.5 and da0.sel(job="a", slot=0).item() == 0.0
    assert float(da0.sum()) == pytest.approx(12.5)

    vals = values_dict(m.y)
    assert vals[("a", 1)] == 1.5 and math.isnan(vals[("b", 1)]) and len(vals) == 4

    with pytest.raises(InvalidScenarioError, match="arity 2"):
        to_xarray(m.y, ("job",))
    with pytest.raises(InvalidScenarioError, match="coords"):
        to_xarray(m.y, ("job", "slot"), coords={"slot": [1, 2]})


def test_to_xarray_after_solve_scalar_index() -> None:
    m = knapsack()
    solve(m)
    da = to_xarray(m.x, ["item"])
    assert da.dims == ("item",) and list(da.coords["item"].values) == list(range(len(WEIGHTS)))
    assert float((da * np.array(VALUES)).sum()) == pytest.approx(brute_force_knapsack())


def test_time_limit_without_incumbent() -> None:
    # a market-split instance: equality knapsacks, no easy feasible point
    rng = np.random.default_rng(1)
    a = rng.integers(0, 100, size=(6, 50))
    rhs = (a.sum(axis=1) // 2).tolist()
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, 49)
    m.J = pyo.RangeSet(0, 5)
    m.x = pyo.Var(m.I, domain=pyo.Binary)
    m.c = pyo.Constraint(m.J, rule=lambda m, j: sum(int(a[j, i]) * m.x[i] for i in m.I) == rhs[j])
    m.obj = pyo.Objective(expr=sum(m.x[i] for i in m.I))
    res = solve(m, time_limit=0.3)
    assert res.status is Status.TIME_LIMIT and res.wall_time_s < 5.0
    if not res.has_solution:  # the expected case
        assert math.isnan(res.objective) and math.isnan(res.gap)
        assert "no incumbent" in res.message
        assert all(m.x[i].value is None for i in m.I)
    assert res.bound <= res.objective or math.isnan(res.objective)


def test_solver_exception_is_wrapped() -> None:
    m = pyo.ConcreteModel()
    m.x = pyo.Var(bounds=(0, 2))
    m.obj = pyo.Objective(expr=pyo.exp(m.x))
    with pytest.raises(SolverError, match="highs") as info:
        solve(m)
    assert not isinstance(info.value, SolverUnavailableError)
    assert info.value.__cause__ is not None


def test_to_xarray_scalar_and_unsortable() -> None:
    m = pyo.ConcreteModel()
    m.z = pyo.Var(initialize=2.5)
    da = to_xarray(m.z, ())
    assert da.dims == () and da.item() == 2.5 and da.name == "z"
    m.w = pyo.Var(["b", 1, "a"], initialize=1.0)
    da = to_xarray(m.w, ["k"])
    assert list(da.coords["k"].values) == ["b", 1, "a"]  # first-seen order
    assert da.values.tolist() == [1.0, 1.0, 1.0]
