"""HiGHS in matrix form: the one module through which aisched calls HiGHS directly.

Pyomo models go through :func:`aisched.solvers.solve` (``pyomo.contrib.solver``'s
``highs``); everything that hands HiGHS matrices itself goes through here:

* :func:`solve_milp` minimises ``cost @ x`` subject to ``row_lower <= A x <= row_upper``,
  ``col_lower <= x <= col_upper`` and integrality, on HiGHS through
  ``scipy.optimize.milp`` (``engine="scipy"``, the HiGHS bundled with SciPy) or through
  ``highspy`` (``engine="highspy"``, which also takes a starting point);
* :class:`ColumnLP` is an LP kept in one ``highspy.Highs`` object to which columns are
  added between solves (column generation: each solve warm-starts from the last basis);
* :func:`check_highs_options` rejects an option name or value HiGHS does not accept.

Both return a :class:`~aisched.solvers.result.SolverResult` (``sense="min"``, an unknown
bound ``nan``).  Outcomes of a solve (a limit, infeasible, unbounded, a solver error) come
back as a :class:`~aisched.solvers.status.Status`, never as an exception; malformed input raises
:class:`~aisched.errors.SolverError`, a missing ``highspy``
:class:`~aisched.errors.SolverUnavailableError`.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from aisched.errors import SolverError, SolverUnavailableError
from aisched.solvers.result import LPSolution, MilpResult, SolverResult, relative_gap
from aisched.solvers.status import Status

__all__ = ["Engine", "SolverResult", "MilpResult", "LPSolution", "ColumnLP", "solve_milp", "check_highs_options"]

Engine = Literal["scipy", "highspy"]

#: ``scipy.optimize.milp``'s ``res.status`` -> Status (0 optimal, 1 iteration or time
#: limit, 2 infeasible, 3 unbounded, 4 anything else).
_SCIPY_STATUS = {0: Status.OPTIMAL, 1: Status.TIME_LIMIT, 2: Status.INFEASIBLE, 3: Status.UNBOUNDED}
#: ``highspy.HighsModelStatus`` names -> Status (as :func:`aisched.solvers.solve` maps Pyomo's).
_HIGHS_STATUS = {
    "kOptimal": Status.OPTIMAL,
    "kTimeLimit": Status.TIME_LIMIT, "kIterationLimit": Status.TIME_LIMIT,
    "kSolutionLimit": Status.TIME_LIMIT, "kObjectiveBound": Status.TIME_LIMIT,
    "kObjectiveTarget": Status.TIME_LIMIT, "kInterrupt": Status.TIME_LIMIT,
    "kInfeasible": Status.INFEASIBLE, "kUnboundedOrInfeasible": Status.INFEASIBLE,
    "kUnbounded": Status.UNBOUNDED,
}
#: ``HighsInfo.primal_solution_status`` of a feasible point (``kSolutionStatusFeasible``).
_FEASIBLE = 2


def _highspy() -> Any:
    try:
        import highspy
    except ImportError as exc:  # pragma: no cover - highspy is a dependency
        raise SolverUnavailableError(f"HiGHS through highspy is not installed: {exc}") from exc
    return highspy


def _model_status(highspy: Any, h: Any) -> tuple[Status, str]:
    model = h.getModelStatus()
    return _HIGHS_STATUS.get(model.name, Status.ERROR), h.modelStatusToString(model)


def check_highs_options(options: Mapping[str, Any]) -> None:
    """Raise :class:`~aisched.errors.SolverError` for an option HiGHS does not know or a
    value it rejects.

    HiGHS only logs these (and Pyomo ignores its status), so a typo would silently
    solve with the default.

    Parameters
    ----------
    options
        HiGHS option names to values (``{"presolve": "off"}``).
    """
    highspy = _highspy()
    probe = highspy.Highs()
    probe.setOptionValue("output_flag", False)
    for key, val in options.items():
        if probe.setOptionValue(key, val) != highspy.HighsStatus.kOk:
            raise SolverError(f"solver 'highs': option {key!r} = {val!r} is unknown or invalid")


def _vector(name: str, value: ArrayLike, size: int) -> np.ndarray:
    try:
        out = np.broadcast_to(np.asarray(value, dtype=float), (size,))
    except (TypeError, ValueError) as exc:
        shape = np.shape(value)
        raise SolverError(f"HiGHS input {name!r}: expected {size} numbers (or one), got shape {shape}") from exc
    if np.isnan(out).any():
        raise SolverError(f"HiGHS input {name!r}: NaN at index {int(np.flatnonzero(np.isnan(out))[0])}")
    return out


def _check_limit(name: str, value: float | None) -> None:
    """A number HiGHS accepts for ``time_limit`` / ``mip_rel_gap``: ``>= 0`` (``inf`` allowed), not NaN."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and not math.isnan(value)
    if value is not None and (not ok or value < 0):
        raise SolverError(f"HiGHS option {name!r}: must be a number >= 0, got {value!r}")


def solve_milp(cost: ArrayLike, A: ArrayLike | sp.spmatrix | sp.sparray, row_lower: ArrayLike,
               row_upper: ArrayLike, *, col_lower: ArrayLike = 0.0, col_upper: ArrayLike = np.inf,
               integrality: ArrayLike | None = None, time_limit: float | None = None,
               mip_gap: float | None = None, start: ArrayLike | None = None,
               engine: Engine = "scipy") -> SolverResult:
    """Minimise ``cost @ x`` subject to ``row_lower <= A @ x <= row_upper`` on HiGHS.

    Parameters
    ----------
    cost
        One cost per column (minimised; negate to maximise).
    A
        The constraint matrix, rows by columns (dense or SciPy sparse).
    row_lower, row_upper
        Row bounds, one per row (or one for all); ``-inf`` / ``inf`` for none.
    col_lower, col_upper
        Column bounds, one per column (or one for all); default ``[0, inf)``.
    integrality
        ``1`` for an integer column, ``0`` for a continuous one; ``None``: an LP.
    time_limit
        Seconds HiGHS may run (``None``: no limit); the incumbent comes back with
        ``TIME_LIMIT``.
    mip_gap
        HiGHS's ``mip_rel_gap`` (``None``: its default).
    start
        A feasible point given as the first incumbent (``engine="highspy"`` only).
    engine
        ``"scipy"``: ``scipy.optimize.milp`` (no starting point); ``"highspy"``: a
        ``highspy.Highs`` model.

    Returns
    -------
    SolverResult
        Status, incumbent (``solution``; ``None`` when HiGHS found none), objective
        (``cost @ x``; ``nan`` without an incumbent) and the proven lower (dual) bound:
        HiGHS's MIP dual bound when finite, else the objective when ``OPTIMAL``, else
        ``-inf`` when ``UNBOUNDED``, else ``nan`` (unknown; ``bound_or_trivial`` gives
        ``-inf`` there, as ``MilpResult.bound`` did).  ``sense="min"``,
        ``solver="highs"``, ``engine`` as given.

    Raises
    ------
    SolverError
        A malformed input (shapes, NaN, a negative or non-numeric limit, an unknown
        engine, ``start`` with ``engine="scipy"``).
    SolverUnavailableError
        ``engine="highspy"`` without ``highspy`` installed.
    """
    if engine not in ("scipy", "highspy"):
        raise SolverError(f"HiGHS engine must be 'scipy' or 'highspy', got {engine!r}")
    c = np.asarray(cost, dtype=float)
    if c.ndim != 1:
        raise SolverError(f"HiGHS input 'cost': expected a vector, got shape {c.shape}")
    matrix = sp.csr_matrix(A)
    if matrix.shape[1] != c.size:
        raise SolverError(f"HiGHS input 'A': {matrix.shape[1]} columns for {c.size} costs")
    rows = matrix.shape[0]
    lb, ub = _vector("row_lower", row_lower, rows), _vector("row_upper", row_upper, rows)
    col_lb, col_ub = _vector("col_lower", col_lower, c.size), _vector("col_upper", col_upper, c.size)
    kinds = None if integrality is None else _vector("integrality", integrality, c.size)
    _check_limit("time_limit", time_limit)
    _check_limit("mip_gap", mip_gap)
    if start is not None:
        if engine != "highspy":
            raise SolverError("HiGHS input 'start': a starting point needs engine='highspy'")
        start = _vector("start", start, c.size)
    if engine == "highspy":
        return _milp_highspy(c, matrix, lb, ub, col_lb, col_ub, kinds, time_limit, mip_gap, start)
    return _milp_scipy(c, matrix, lb, ub, col_lb, col_ub, kinds, time_limit, mip_gap)


def _milp_scipy(cost: np.ndarray, A: sp.csr_matrix, lb: np.ndarray, ub: np.ndarray, col_lb: np.ndarray,
                col_ub: np.ndarray, integrality: np.ndarray | None, time_limit: float | None,
                mip_gap: float | None) -> SolverResult:
    from scipy.optimize import Bounds, LinearConstraint, milp

    options: dict[str, Any] = {"disp": False}
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    if mip_gap is not None:
        options["mip_rel_gap"] = float(mip_gap)
    tic = time.perf_counter()
    try:
        res = milp(cost, integrality=integrality, bounds=Bounds(col_lb, col_ub),
                   constraints=LinearConstraint(A, lb, ub), options=options)
    except ValueError as exc:
        raise SolverError(f"HiGHS (scipy.optimize.milp) rejected the input: {exc}") from exc
    wall = time.perf_counter() - tic
    status = _SCIPY_STATUS.get(int(res.status), Status.ERROR)
    x = None if res.x is None else np.asarray(res.x)
    bound = getattr(res, "mip_dual_bound", None)
    bound = float(bound) if bound is not None and np.isfinite(bound) else (
        float(res.fun) if res.status == 0 else _unknown(status))
    objective = float(res.fun) if x is not None else math.nan
    return _milp_result(status, x, objective, bound, wall, str(int(res.status)), str(res.message), "scipy")


def _milp_highspy(cost: np.ndarray, A: sp.csr_matrix, lb: np.ndarray, ub: np.ndarray, col_lb: np.ndarray,
                  col_ub: np.ndarray, integrality: np.ndarray | None, time_limit: float | None,
                  mip_gap: float | None, start: np.ndarray | None) -> SolverResult:
    highspy = _highspy()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if mip_gap is not None:
        h.setOptionValue("mip_rel_gap", float(mip_gap))
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = int(cost.size), int(A.shape[0])
    lp.col_cost_ = cost
    lp.col_lower_, lp.col_upper_ = col_lb, col_ub
    lp.row_lower_ = np.where(np.isfinite(lb), lb, -inf).astype(float)
    lp.row_upper_ = np.where(np.isfinite(ub), ub, inf).astype(float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    if integrality is not None:
        lp.integrality_ = [highspy.HighsVarType.kInteger if k else highspy.HighsVarType.kContinuous
                           for k in integrality]
    h.passModel(lp)
    if start is not None:
        sol = highspy.HighsSolution()
        sol.col_value = list(start)
        sol.value_valid = True
        h.setSolution(sol)
    tic = time.perf_counter()
    h.run()
    wall = time.perf_counter() - tic
    status, message = _model_status(highspy, h)
    info = h.getInfo()
    x = np.asarray(h.getSolution().col_value) if info.primal_solution_status == _FEASIBLE else None
    objective = float(info.objective_function_value) if x is not None else math.nan
    bound = float(info.mip_dual_bound)
    if not np.isfinite(bound):
        bound = objective if status is Status.OPTIMAL else _unknown(status)
    return _milp_result(status, x, objective, bound, wall, h.getModelStatus().name, message, "highspy")


def _unknown(status: Status) -> float:
    """A MILP's lower bound when HiGHS gives none and it is not optimal: ``-inf`` when
    UNBOUNDED, else unknown (``nan``)."""
    return -math.inf if status is Status.UNBOUNDED else math.nan


def _milp_result(status: Status, x: np.ndarray | None, objective: float, bound: float, wall: float,
                 termination: str, message: str, engine: str) -> SolverResult:
    return SolverResult(status, objective, bound, relative_gap(status, objective, bound), wall, "highs",
                        termination, x is not None, message, sense="min", solution=x, engine=engine)


class ColumnLP:
    """An LP built column by column in one ``highspy.Highs`` model (column generation).

    Minimises ``cost @ x`` subject to ``row_lower <= A x <= row_upper``; the rows are
    fixed at construction, columns come with :meth:`add_columns`, and each
    :meth:`solve` warm-starts from the previous basis.

    Parameters
    ----------
    row_upper
        One upper bound per row.
    row_lower
        One lower bound per row (or one for all); ``None``: ``-inf``.
    """

    def __init__(self, row_upper: ArrayLike, row_lower: ArrayLike | None = None) -> None:
        highspy = _highspy()
        upper = np.asarray(row_upper, dtype=float)
        if upper.ndim != 1:
            raise SolverError(f"HiGHS input 'row_upper': expected a vector, got shape {upper.shape}")
        lower = (np.full(upper.size, -highspy.kHighsInf) if row_lower is None
                 else _vector("row_lower", row_lower, upper.size))
        self._highspy = highspy
        self.num_rows = int(upper.size)
        self.num_cols = 0
        self.h = highspy.Highs()
        self.h.setOptionValue("output_flag", False)
        self.h.addRows(upper.size, lower, upper, 0,
                       np.zeros(upper.size, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))

    def add_columns(self, cost: ArrayLike, lower: ArrayLike, upper: ArrayLike, starts: ArrayLike,
                    index: ArrayLike, value: ArrayLike) -> None:
        """Add columns given column-wise (CSC without the last pointer).

        Parameters
        ----------
        cost, lower, upper
            One cost and bounds per new column.
        starts
            Where each column's entries begin in ``index`` / ``value``.
        index, value
            Row index and coefficient of every entry.
        """
        c = np.asarray(cost, dtype=float)
        m = int(c.size)
        starts = np.asarray(starts, dtype=np.int32)
        index = np.asarray(index, dtype=np.int32)
        value = np.asarray(value, dtype=float)
        if starts.size != m or index.size != value.size:
            raise SolverError(f"HiGHS columns: {m} costs, {starts.size} starts, {index.size} indices, "
                              f"{value.size} values")
        if index.size and (index.min() < 0 or index.max() >= self.num_rows):
            raise SolverError(f"HiGHS columns: a row index outside 0..{self.num_rows - 1}")
        self.h.addCols(m, c, _vector("lower", lower, m), _vector("upper", upper, m), int(index.size),
                       starts, index, value)
        self.num_cols += m

    def solve(self) -> SolverResult:
        """Solve (warm-started) and return the status, value, row duals and column values.

        ``objective`` (``cost @ x``, ``sense="min"``), ``solution`` (column values) and
        ``row_dual`` are HiGHS's, whatever the status; ``has_solution`` says whether the
        point is primal feasible; ``bound`` is the objective when OPTIMAL (LP duality),
        else ``nan``.
        """
        tic = time.perf_counter()
        self.h.run()
        wall = time.perf_counter() - tic
        status, message = _model_status(self._highspy, self.h)
        sol = self.h.getSolution()
        info = self.h.getInfo()
        objective = float(info.objective_function_value)
        bound = objective if status is Status.OPTIMAL else math.nan
        return SolverResult(status, objective, bound, relative_gap(status, objective, bound), wall, "highs",
                            self.h.getModelStatus().name, info.primal_solution_status == _FEASIBLE, message,
                            sense="min", solution=np.asarray(sol.col_value), row_dual=np.asarray(sol.row_dual),
                            engine="highspy")
