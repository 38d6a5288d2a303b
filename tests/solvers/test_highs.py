"""HiGHS in matrix form (aisched.solvers.highs): known optima, statuses, errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from aisched.errors import SolverError
from aisched.solvers import SolveResult, SolverResult
from aisched.solvers.highs import ColumnLP, LPSolution, MilpResult, check_highs_options, solve_milp
from aisched.solvers.status import Status

# max 5a + 4b + 3c  s.t.  2a + 3b + c <= 5,  4a + b + 2c <= 11,  3a + 4b + 2c <= 8,  a, b, c in {0, 1, 2, ...}
# (Chvatal's LP): LP optimum 13 at (2, 0, 1), which is integral, so the MILP optimum is 13 too.
COST = -np.array([5.0, 4.0, 3.0])
A = np.array([[2.0, 3.0, 1.0], [4.0, 1.0, 2.0], [3.0, 4.0, 2.0]])
UPPER = np.array([5.0, 11.0, 8.0])


@pytest.mark.parametrize("engine", ["scipy", "highspy"])
def test_tiny_milp_has_its_known_optimum(engine: str) -> None:
    res = solve_milp(COST, sp.csr_matrix(A), -np.inf, UPPER, integrality=np.ones(3), engine=engine)
    assert res.status is Status.OPTIMAL
    assert res.objective == pytest.approx(-13.0)
    assert res.bound == pytest.approx(-13.0)
    np.testing.assert_allclose(res.solution, [2.0, 0.0, 1.0], atol=1e-9)
    assert res.engine == engine
    assert isinstance(res, SolverResult) and res.sense == "min" and res.solver == "highs"
    assert res.has_solution and res.gap == 0.0 and res.row_dual is None and res.wall_time_s >= 0
    assert res.termination == ("0" if engine == "scipy" else "kOptimal")


@pytest.mark.parametrize("engine", ["scipy", "highspy"])
def test_knapsack_brute_force(engine: str) -> None:
    rng = np.random.default_rng(3)
    value, weight = rng.integers(1, 20, 10).astype(float), rng.integers(1, 10, 10).astype(float)
    best = max(value @ np.array(bits) for bits in np.ndindex(*(2,) * 10) if weight @ np.array(bits) <= 15)
    res = solve_milp(-value, weight[None, :], -np.inf, 15.0, col_lower=0, col_upper=1,
                     integrality=np.ones(10), engine=engine)
    assert res.status is Status.OPTIMAL and -res.objective == pytest.approx(best)


def test_highspy_start_is_accepted_and_optimum_unchanged() -> None:
    res = solve_milp(COST, A, -np.inf, UPPER, integrality=np.ones(3), start=[0.0, 0.0, 0.0], engine="highspy")
    assert res.status is Status.OPTIMAL and res.objective == pytest.approx(-13.0)


@pytest.mark.parametrize("engine", ["scipy", "highspy"])
def test_infeasible_is_a_status_not_an_exception(engine: str) -> None:
    # x >= 2 and x <= 1
    res = solve_milp([1.0], [[1.0], [1.0]], [2.0, -np.inf], [np.inf, 1.0], integrality=[1], engine=engine)
    assert res.status is Status.INFEASIBLE
    assert res.solution is None and not res.has_solution and np.isnan(res.objective)
    assert np.isnan(res.bound) and res.bound_or_trivial == -np.inf and np.isnan(res.gap)


@pytest.mark.parametrize("engine", ["scipy", "highspy"])
def test_lp_without_integrality(engine: str) -> None:
    res = solve_milp(COST, A, -np.inf, UPPER, engine=engine)
    assert res.status is Status.OPTIMAL and res.objective == pytest.approx(-13.0)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"A": np.ones((3, 2))}, "2 columns for 3 costs"),
    ({"row_upper": np.ones(2)}, "row_upper"),
    ({"integrality": [1, 1]}, "integrality"),
    ({"time_limit": -1.0}, "time_limit"),
    ({"mip_gap": float("nan")}, "mip_gap"),
    ({"engine": "gurobi"}, "engine"),
    ({"start": [0.0, 0.0, 0.0]}, "engine='highspy'"),
    ({"cost": np.ones((3, 1))}, "cost"),
])
def test_bad_input_raises_solver_error(kwargs: dict, match: str) -> None:
    args = {"cost": COST, "A": A, "row_lower": -np.inf, "row_upper": UPPER, **kwargs}
    with pytest.raises(SolverError, match=match):
        solve_milp(args.pop("cost"), args.pop("A"), args.pop("row_lower"), args.pop("row_upper"), **args)


def test_column_lp_warm_starts_and_reports_duals() -> None:
    # max x1 + 2 x2  s.t.  x1 + x2 <= 1 (row 0), x2 <= 0.5 (row 1), 0 <= x <= 1; columns added in two rounds
    lp = ColumnLP([1.0, 0.5])
    lp.add_columns([-1.0], [0.0], [1.0], [0], [0], [1.0])
    first = lp.solve()
    assert first.status is Status.OPTIMAL and first.objective == pytest.approx(-1.0)
    lp.add_columns([-2.0], 0.0, 1.0, [0], [0, 1], [1.0, 1.0])
    second = lp.solve()
    assert second.status is Status.OPTIMAL and second.objective == pytest.approx(-1.5)
    np.testing.assert_allclose(second.solution, [0.5, 0.5])
    np.testing.assert_allclose(-second.row_dual, [1.0, 1.0])  # prices of the two binding rows
    assert second.bound == second.objective and second.has_solution and second.sense == "min"
    assert second.engine == "highspy" and second.termination == "kOptimal"
    assert lp.num_cols == 2


def test_column_lp_rejects_a_row_outside_the_model() -> None:
    lp = ColumnLP([1.0])
    with pytest.raises(SolverError, match="row index"):
        lp.add_columns([-1.0], [0.0], [1.0], [0], [3], [1.0])


def test_check_highs_options() -> None:
    check_highs_options({"presolve": "off"})
    with pytest.raises(SolverError, match="'no_such_option'"):
        check_highs_options({"no_such_option": 1})


@pytest.mark.parametrize("engine", ["scipy", "highspy"])
def test_time_limit_is_a_status_not_an_exception(engine: str) -> None:
    rng = np.random.default_rng(0)
    n, m = 60, 30
    a = rng.integers(1, 30, (m, n)).astype(float)
    res = solve_milp(-rng.integers(1, 50, n).astype(float), a, -np.inf, a.sum(axis=1) / 3, col_lower=0,
                     col_upper=1, integrality=np.ones(n), time_limit=1e-3, engine=engine)
    assert res.status is Status.TIME_LIMIT
    assert res.solution is None and not res.has_solution and np.isnan(res.objective)
    assert np.isnan(res.bound) and res.bound_or_trivial == -np.inf and np.isnan(res.gap)


def test_old_names_and_attributes_still_work() -> None:
    assert MilpResult is SolverResult and LPSolution is SolverResult and SolveResult is SolverResult
    res = solve_milp(COST, A, -np.inf, UPPER, integrality=np.ones(3))
    with pytest.warns(DeprecationWarning, match="solution"):
        assert res.x is res.solution
    lp = ColumnLP([1.0])
    lp.add_columns([-1.0], [0.0], [1.0], [0], [0], [1.0])
    sol = lp.solve()
    with pytest.warns(DeprecationWarning, match="solution"):
        assert sol.col_value is sol.solution
