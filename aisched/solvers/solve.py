"""Solve a Pyomo model and read its variables back as arrays.

:func:`solve` runs a MILP/LP solver through ``pyomo.contrib.solver`` (HiGHS by
default), falling back to the legacy ``pyomo.environ.SolverFactory`` for names
the new interface does not know, and returns a
:class:`~aisched.solvers.result.SolverResult` that never raises on a time limit,
an infeasible or an unbounded model.  :func:`to_xarray` and :func:`values_dict`
read an (indexed, possibly sparse) ``Var`` back.
"""

from __future__ import annotations

import io
import logging
import math
import numbers
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyomo.environ as pyo  # also registers the contrib solver plugins
import xarray as xr
from pyomo.common.log import LoggingIntercept
from pyomo.contrib.solver.common.factory import SolverFactory
from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition

from aisched.errors import InvalidScenarioError, SolverError, SolverUnavailableError
from aisched.solvers.highs import check_highs_options
from aisched.solvers.result import SolveResult, SolverResult, relative_gap
from aisched.solvers.status import Status

__all__ = ["Status", "SolverResult", "SolveResult", "solve", "to_xarray", "values_dict"]


_CONTRIB_MAP: dict[TerminationCondition, Status] = {
    TerminationCondition.maxTimeLimit: Status.TIME_LIMIT,
    TerminationCondition.iterationLimit: Status.TIME_LIMIT,
    TerminationCondition.objectiveLimit: Status.TIME_LIMIT,
    TerminationCondition.provenInfeasible: Status.INFEASIBLE,
    TerminationCondition.locallyInfeasible: Status.INFEASIBLE,
    TerminationCondition.infeasibleOrUnbounded: Status.INFEASIBLE,
    TerminationCondition.unbounded: Status.UNBOUNDED,
}
_LEGACY_MAP: dict[str, Status] = {
    **dict.fromkeys(("optimal", "globallyOptimal", "locallyOptimal"), Status.OPTIMAL),
    **dict.fromkeys(
        ("maxTimeLimit", "maxIterations", "maxEvaluations", "minFunctionValue"), Status.TIME_LIMIT
    ),
    **dict.fromkeys(("infeasible", "infeasibleOrUnbounded"), Status.INFEASIBLE),
    "unbounded": Status.UNBOUNDED,
}
# legacy solver name -> its option names for (time_limit, mip_gap, threads)
_LEGACY_OPTIONS: dict[str, tuple[str | None, str | None, str | None]] = {
    "appsi_highs": ("time_limit", "mip_rel_gap", "threads"),
    "glpk": ("tmlim", "mipgap", None),
    "cbc": ("sec", "ratio", "threads"),
    "cplex": ("timelimit", "mipgap", "threads"),
    "gurobi": ("TimeLimit", "MIPGap", "Threads"),
    "scip": ("limits/time", "limits/gap", "parallel/maxnthreads"),
}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def check_options(
    time_limit: float | None, mip_gap: float | None, threads: int | None,
    solver_options: Mapping[str, Any] | None = None,
) -> None:
    """Validate solver options; raise ``InvalidScenarioError`` naming the bad one.

    Callers that build a model first (``solve_offline``, Titan) call this
    before any work, so bad options never cost a model build.
    """
    for name, val, positive in (("time_limit", time_limit, True), ("mip_gap", mip_gap, False)):
        ok = isinstance(val, numbers.Real) and not isinstance(val, bool) and math.isfinite(val)
        if val is not None and (not ok or (val <= 0 if positive else val < 0)):
            hint = (f" (a string: pass the number itself, {name}={val.strip()})" if isinstance(val, str)
                    and _is_number(val) else "")
            raise InvalidScenarioError(
                name, f"must be a finite number {'> 0' if positive else '>= 0'}, got {val!r}{hint}"
            )
    if threads is not None and (
        not isinstance(threads, numbers.Integral) or isinstance(threads, bool) or threads <= 0
    ):
        raise InvalidScenarioError("threads", f"must be a positive integer, got {threads!r}")
    if solver_options is not None and (
        not isinstance(solver_options, Mapping) or not all(isinstance(k, str) for k in solver_options)
    ):
        raise InvalidScenarioError(
            "solver_options", f"must be a mapping of option names to values, got {solver_options!r}")


def _message(status: Status, termination: str, has_solution: bool) -> str:
    if status is Status.TIME_LIMIT:
        found = "incumbent loaded" if has_solution else "no incumbent found"
        return f"limit reached ({termination}); {found}"
    if status is Status.INFEASIBLE and termination == "infeasibleOrUnbounded":
        return "model is infeasible or unbounded"
    return {
        Status.OPTIMAL: "optimal solution found",
        Status.INFEASIBLE: f"model is infeasible ({termination})",
        Status.UNBOUNDED: "model is unbounded",
    }.get(status, f"solver terminated with {termination}")


def _find_solver(name: str) -> tuple[Any, bool, str]:
    """Return ``(solver, is_contrib, why_not)``; ``solver`` is ``None`` if unavailable."""
    why = []
    try:
        opt = SolverFactory(name)
        avail = opt.available() if opt is not None else "unknown name"
        if opt is not None and avail:
            return opt, True, ""
        why.append(f"pyomo.contrib.solver: {avail}")
    except Exception as exc:  # noqa: BLE001 - a broken plugin only means "unavailable"
        why.append(f"pyomo.contrib.solver: {exc}")
    try:  # the legacy factory logs a warning for unknown names: keep it quiet
        with LoggingIntercept(io.StringIO(), "pyomo", logging.WARNING):
            opt = pyo.SolverFactory(name)
            if opt is not None and opt.available(exception_flag=False):
                return opt, False, ""
        why.append("legacy SolverFactory: not available")
    except Exception as exc:  # noqa: BLE001
        why.append(f"legacy SolverFactory: {exc}")
    return None, False, "; ".join(why)


def _run_contrib(
    opt: Any, model: pyo.Block, name: str, maximise: bool, options: dict[str, Any]
) -> tuple[str, Status, Callable[[], Any] | None, float | None, float | None]:
    """Solve through pyomo.contrib.solver; return ``(termination, status, load, value, bound)``."""
    extra = options.pop("solver_options")
    if extra and name == "highs":
        check_highs_options(extra)
    kwargs = {("rel_gap" if k == "mip_gap" else k): v for k, v in options.items() if v is not None}
    if extra:
        kwargs["solver_options"] = dict(extra)
    res = opt.solve(
        model, load_solutions=False, raise_exception_on_nonoptimal_result=False, **kwargs
    )
    tc, ss = res.termination_condition, res.solution_status
    if tc is TerminationCondition.convergenceCriteriaSatisfied:
        status = Status.OPTIMAL if ss is SolutionStatus.optimal else Status.ERROR
    else:
        status = _CONTRIB_MAP.get(tc, Status.ERROR)
    feasible = ss in (SolutionStatus.feasible, SolutionStatus.optimal)
    load = res.solution_loader.load_vars if feasible else None
    return tc.name, status, load, res.incumbent_objective, res.objective_bound


def _run_legacy(
    opt: Any, model: pyo.Block, name: str, maximise: bool, options: dict[str, Any]
) -> tuple[str, Status, Callable[[], Any] | None, float | None, float | None]:
    """Solve through the legacy SolverFactory; same return as :func:`_run_contrib`."""
    names = _LEGACY_OPTIONS.get(name.split(":")[0], (None, None, None))
    for opt_name, label in zip(names, ("time_limit", "mip_gap", "threads")):
        val = options[label]
        if val is not None and opt_name is None:
            raise SolverError(f"solver {name!r}: option {label!r} is not supported")
        elif val is not None:
            opt.options[opt_name] = math.ceil(val) if opt_name == "tmlim" else val
    for key, val in (options["solver_options"] or {}).items():
        opt.options[key] = val
    res = opt.solve(model, load_solutions=False)
    tc = res.solver.termination_condition
    termination = str(getattr(tc, "name", tc))
    load = (lambda: model.solutions.load_from(res)) if len(res.solution) > 0 else None
    return (termination, _LEGACY_MAP.get(termination, Status.ERROR), load, None,
            res.problem.upper_bound if maximise else res.problem.lower_bound)


def solve(
    model: pyo.Block,
    solver: str = "highs",
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    threads: int | None = None,
    solver_options: Mapping[str, Any] | None = None,
) -> SolverResult:
    """Solve ``model`` and load the incumbent (if any) into its variables.

    Parameters
    ----------
    model
        A constructed Pyomo model with exactly one active objective.
    solver
        A ``pyomo.contrib.solver`` name (``"highs"``) or, failing that, a legacy
        ``pyomo.environ.SolverFactory`` name (``"appsi_highs"``, ``"glpk"``).
    time_limit
        Wall-clock limit in seconds (finite, > 0); reaching it is not an error.
    mip_gap
        Relative MIP gap tolerance (finite, >= 0).
    threads
        Number of solver threads (positive int).
    solver_options
        Further options in the solver's own names (HiGHS:
        ``{"mip_heuristic_run_rins": False}``), passed unchanged; a name the
        solver does not know is a ``SolverError``.

    Returns
    -------
    SolverResult
        Status, objective and bound in the model's own sense (``sense``), gap and
        timing; ``solution`` is ``None``: the incumbent is loaded into the model,
        only for OPTIMAL and TIME_LIMIT.

    Raises
    ------
    InvalidScenarioError
        An option is malformed (the message names it and its value).
    SolverError
        The model has not exactly one active objective, or the solver failed.
    SolverUnavailableError
        Neither interface can provide ``solver``.
    """
    if not isinstance(solver, str) or not solver:
        raise InvalidScenarioError("solver", f"must be a non-empty string, got {solver!r}")
    check_options(time_limit, mip_gap, threads, solver_options)
    if not isinstance(model, pyo.Block):
        raise SolverError(f"expected a Pyomo model (Block), got {type(model).__name__}")
    objectives = list(model.component_data_objects(pyo.Objective, active=True, descend_into=True))
    if len(objectives) != 1:
        raise SolverError(f"model must have exactly one active objective, found {len(objectives)}")
    maximise = objectives[0].sense == pyo.maximize
    opt, is_contrib, why = _find_solver(solver)
    if opt is None:
        raise SolverUnavailableError(f"solver {solver!r} is not available ({why})")
    options = {"time_limit": time_limit and float(time_limit), "threads": threads and int(threads),
               "mip_gap": None if mip_gap is None else float(mip_gap),
               "solver_options": solver_options}
    start = time.perf_counter()
    try:
        termination, status, load, value, bound = (_run_contrib if is_contrib else _run_legacy)(
            opt, model, solver, maximise, options)
    except SolverError:
        raise
    except Exception as exc:
        raise SolverError(f"solver {solver!r} failed: {type(exc).__name__}: {exc}") from exc
    wall = time.perf_counter() - start
    has_solution, extra = False, ""
    if load is not None and status in (Status.OPTIMAL, Status.TIME_LIMIT):
        try:
            load()
            has_solution = True
        except Exception as exc:
            if status is Status.OPTIMAL:
                raise SolverError(f"solver {solver!r}: cannot load the solution: {exc}") from exc
            extra = f" (loading the incumbent failed: {exc})"
    if has_solution and value is None:
        value = pyo.value(objectives[0], exception=False)
    if status is Status.ERROR and termination == "convergenceCriteriaSatisfied":
        extra = " without an optimal solution status"
    obj = float(value) if has_solution and value is not None else math.nan
    bnd = math.nan if bound is None else float(bound)
    if status is Status.UNBOUNDED:
        bnd = math.inf if maximise else -math.inf
    elif status is Status.INFEASIBLE or not math.isfinite(bnd):
        bnd = math.nan
    if status is Status.OPTIMAL and math.isnan(bnd):
        bnd = obj
    return SolverResult(status, obj, bnd, relative_gap(status, obj, bnd), wall, solver, termination, has_solution,
                        _message(status, termination, has_solution) + extra, sense="max" if maximise else "min",
                        engine="pyomo" if is_contrib else "pyomo-legacy")


def values_dict(var: pyo.Var) -> dict[Hashable, float]:
    """Return ``{index: value}`` for every (constructed) entry of ``var``; ``None`` -> ``nan``."""
    return {k: math.nan if v.value is None else float(v.value) for k, v in var.items()}


def to_xarray(
    var: pyo.Var,
    dims: Sequence[str],
    coords: Mapping[str, Sequence[Hashable]] | None = None,
    fill: float = math.nan,
) -> xr.DataArray:
    """Read a (possibly sparse) indexed Pyomo ``Var`` into a dense ``DataArray``.

    Parameters
    ----------
    var
        The variable; scalar (``dims=()``) or indexed by scalars or tuples.
    dims
        One dimension name per index position.
    coords
        Optional ``{dim: values}``; other dims default to the sorted unique
        values at that index position (first-seen order if unsortable).
    fill
        Value for entries absent from the index or whose value is ``None``.

    Returns
    -------
    xarray.DataArray
        Named after ``var.local_name``, with float values.

    Raises
    ------
    InvalidScenarioError
        ``dims`` does not match the index arity, or ``coords`` is malformed or
        lacks an index value.
    """
    dims = tuple(dims)
    items = [((k if isinstance(k, tuple) else (k,)) if var.is_indexed() else (), v.value)
             for k, v in var.items()]
    arities = {len(k) for k, _ in items}
    if not items and var.is_indexed() and isinstance(var.index_set().dimen, int):
        arities = {var.index_set().dimen}
    if len(arities) > 1:
        raise InvalidScenarioError("dims", f"{var.local_name} has mixed index arities {arities}")
    arity = arities.pop() if arities else len(dims)
    if len(dims) != arity:
        raise InvalidScenarioError(
            "dims", f"{var.local_name} has index arity {arity} but got {len(dims)} dims {dims}"
        )
    coords = dict(coords or {})
    if set(coords) - set(dims):
        raise InvalidScenarioError("coords", f"keys {sorted(coords)} are not all among dims {dims}")
    axes: list[list[Hashable]] = []
    for pos, dim in enumerate(dims):
        seen = list(coords[dim]) if dim in coords else list(dict.fromkeys(k[pos] for k, _ in items))
        try:
            axes.append(seen if dim in coords else sorted(seen))
        except TypeError:  # unsortable labels keep their first-seen order
            axes.append(seen)
    lookup = [{c: i for i, c in enumerate(axis)} for axis in axes]
    data = np.full(tuple(len(a) for a in axes), fill, dtype=float)
    for key, val in items:
        try:
            where = tuple(lookup[p][c] for p, c in enumerate(key))
        except KeyError as exc:
            raise InvalidScenarioError(
                "coords", f"{var.local_name}[{key}]: {exc.args[0]!r} missing from the coords"
            ) from None
        if val is not None:
            data[where] = float(val)
    index = {d: pd.Index(a, tupleize_cols=False) for d, a in zip(dims, axes)}  # keeps mixed types
    return xr.DataArray(data, dims=dims, coords=index, name=var.local_name)
