"""Titan's ``slot_budget="sized"`` (issue 30, experimental): HiGHS through ``highspy`` with a
starting point, and the JCT stage's time limit tied to the program's size.

:mod:`aisched.online.lora.titan_model` builds the same slot program either way; under
``budget="sized"`` it solves the count stage as the default does (up to the slot limit)
and the JCT stage from the count stage's plan (feasible for it: same rows, and the
count row holds), for at most :func:`sized_limit` seconds, so a stop at the limit
keeps a plan at least as good as that start. Measured in docs/readings.md (lora,
"Titan's day"): 7x less CPU than the 20 s form on Fig. 4's 50-node day, 7.5 % less
welfare; no scenario uses it.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

__all__ = ["milp_highspy", "sized_limit", "least_completion"]

_TRACE = False


def milp_highspy(cost, n_int, A, lb, ub, col_lb, col_ub, time_limit, mip_gap, start):
    """Minimise ``cost @ x`` on HiGHS through ``highspy``, ``start`` (a feasible point) as
    the first incumbent; (status, x, objective, dual bound) as ``titan_model._milp``."""
    import highspy

    tic = time.perf_counter()
    A = sp.csr_matrix(A)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if mip_gap is not None:
        h.setOptionValue("mip_rel_gap", float(mip_gap))
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = int(cost.size), int(A.shape[0])
    lp.col_cost_ = np.asarray(cost, float)
    lp.col_lower_, lp.col_upper_ = np.asarray(col_lb, float), np.asarray(col_ub, float)
    lp.row_lower_ = np.where(np.isfinite(lb), lb, -inf).astype(float)
    lp.row_upper_ = np.where(np.isfinite(ub), ub, inf).astype(float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    kinds = [highspy.HighsVarType.kInteger] * n_int + [highspy.HighsVarType.kContinuous] * (cost.size - n_int)
    lp.integrality_ = kinds
    h.passModel(lp)
    if start is not None:
        sol = highspy.HighsSolution()
        sol.col_value = list(np.asarray(start, float))
        sol.value_valid = True
        h.setSolution(sol)
    h.run()
    model = h.getModelStatus()
    info = h.getInfo()
    optimal = model == highspy.HighsModelStatus.kOptimal
    has_x = info.primal_solution_status == 2  # kSolutionStatusFeasible
    x = np.asarray(h.getSolution().col_value) if has_x else None
    if _TRACE:  # pragma: no cover - debugging aid
        print(f"    highspy {cost.size} cols {A.shape[0]} rows: {time.perf_counter() - tic:.2f} s "
              f"{h.modelStatusToString(model)}")
    fun = float(info.objective_function_value) if x is not None else np.inf
    bound = float(info.mip_dual_bound)
    if not np.isfinite(bound):
        bound = fun if optimal else -np.inf
    status = "optimal" if optimal else ("time_limit" if x is not None else "failed")
    return status, x, fun, bound


#: ``budget="sized"``: seconds of the JCT stage per 1,000 columns, and the least (wall clock).
SIZED_SECONDS_PER_1000_COLUMNS = 0.5
SIZED_FLOOR_S = 0.5


def sized_limit(n_columns: int, cap: float | None) -> float:
    """Time limit of the JCT stage under ``budget="sized"``: 0.5 s per 1,000 columns, at
    least 0.5 s, at most ``cap`` (the slot time limit)."""
    limit = max(SIZED_FLOOR_S, SIZED_SECONDS_PER_1000_COLUMNS * n_columns / 1000.0)
    return limit if cap is None else min(limit, float(cap))


def least_completion(col_task: np.ndarray, col_slot: np.ndarray, start: np.ndarray, fewest: np.ndarray,
                     y: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Least ``C_i`` meeting the JCT rows of ``titan_model`` for cells ``y`` (columns
    ``col_task``, ``col_slot``) and admissions ``u``: a feasible starting point."""
    n = start.size
    last = np.zeros(n)
    used = y > 0.5
    np.maximum.at(last, col_task[used], col_slot[used].astype(float))
    count = np.bincount(col_task[used], minlength=n).astype(float)
    return np.maximum.reduce([last, (start + fewest - 1) * u, count + (start - 1) * u, np.zeros(n)])
