"""The offline solve shared by every family's ``solve_offline``: :func:`solve_with` and its Outcome.

:func:`solve_with` runs the steps every family repeats: check the solver
options, return early when there is nothing to decide, build, solve, extract,
verify, and package the result with a trivially valid fallback bound
(:func:`offline_outcome`). The family's registered ``solve_offline`` keeps its
signature and passes its own build / extract / verify.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from aisched.outcome import Outcome
from aisched.solvers import SolveResult, Status, check_options
from aisched.solvers import solve as _solve

__all__ = ["early_outcome", "offline_outcome", "solve_with"]

#: ``solver_options`` not passed at all (the family has no such option).
_NOT_GIVEN: Any = object()


def offline_outcome(
    family: str,
    model: pyo.ConcreteModel,
    result: SolveResult,
    plan: xr.Dataset,
    objective: float,
    *,
    started: float,
    built: float,
    fallback_bound: float,
    fallback_source: str,
    info: dict[str, Any] | None = None,
) -> Outcome:
    """Package a solved program as an :class:`Outcome`.

    ``bound`` is the solver's best bound; when the solver proved optimality
    without reporting one it is ``objective``; when it stopped with none it is
    ``fallback_bound`` (a trivially valid upper bound of the family, e.g. the
    sum of bids), recorded in ``info["bound_source"]``.

    Parameters
    ----------
    family
        The family name.
    model, result
        The Pyomo model and its :class:`~aisched.solvers.SolveResult`.
    plan, objective
        The extracted plan and its objective recomputed by the family's ``verify_plan``
        (``nan`` without an incumbent).
    started, built
        ``time.perf_counter()`` at the start and after building the model.
    fallback_bound, fallback_source
        The bound (and its name) used when the solver gave none.
    info
        Extra family-specific entries of ``Outcome.info``.
    """
    bound, source = result.bound, "solver"
    if result.status is Status.OPTIMAL and math.isnan(bound):
        bound = objective
    elif math.isnan(bound):
        bound, source = float(fallback_bound), fallback_source
    return Outcome(
        algorithm="offline",
        family=family,
        objective=objective,
        plan=plan,
        admitted=plan["admitted"].values.astype(bool),
        status=result.status.value,
        bound=bound,
        runtime_s=time.perf_counter() - started,
        info={
            "solver": result.solver,
            "termination": result.termination,
            "solver_objective": result.objective,
            "gap": result.gap,
            "bound_source": source,
            "build_s": built - started,
            "solve_s": result.wall_time_s,
            "variables": model.nvariables(),
            "constraints": model.nconstraints(),
            **(info or {}),
        },
    )


def early_outcome(
    family: str,
    plan: xr.Dataset,
    *,
    started: float,
    objective: float = 0.0,
    bound: float = 0.0,
    status: str = Status.OPTIMAL.value,
    admitted: np.ndarray | None = None,
    info: dict[str, Any] | None = None,
) -> Outcome:
    """The Outcome of an offline solve that stopped before the solver: nothing to decide, or too large.

    ``admitted`` defaults to no task (an empty boolean array); ``runtime_s`` is
    measured from ``started`` now.
    """
    return Outcome(
        algorithm="offline",
        family=family,
        objective=objective,
        plan=plan,
        admitted=np.zeros(0, dtype=bool) if admitted is None else admitted,
        status=status,
        bound=bound,
        runtime_s=time.perf_counter() - started,
        info={} if info is None else info,
    )


def solve_with(
    family: str,
    *,
    build: Callable[[], pyo.ConcreteModel],
    extract: Callable[[pyo.ConcreteModel], xr.Dataset],
    verify: Callable[[xr.Dataset], float],
    fallback_bound: Callable[[], float],
    fallback_source: str,
    solver: str,
    time_limit: float | None,
    mip_gap: float | None,
    threads: int | None,
    solver_options: Any = _NOT_GIVEN,
    default_solver_options: Callable[[], Any] | None = None,
    check: Callable[[], None] | None = None,
    empty: Callable[[float], Outcome] | None = None,
    guard: Callable[[float], Outcome | None] | None = None,
    unsolved_plan: Callable[[], xr.Dataset] | None = None,
    solve: Callable[..., SolveResult] = _solve,
    info: dict[str, Any] | None = None,
) -> Outcome:
    """The offline optimum of one family's program, in the steps every family shares.

    In order: :func:`~aisched.solvers.check_options` (with ``solver_options``
    when the family has them) and the family's ``check``, before any work; the
    clock starts; ``empty(started)`` is returned when given (the family passes it
    only when the instance has nothing to decide); ``guard(started)`` may raise
    or return an Outcome instead of building (a model too large); then
    ``build()``, ``solve(model, solver, ...)``, ``extract(model)`` (or
    ``unsolved_plan()`` when given and the solver found no solution), ``verify(plan)``
    when there is a solution (``nan`` otherwise), and :func:`offline_outcome` with
    ``fallback_bound()`` when the solver gave no bound.

    ``solver_options`` is passed to the solver only when given, after replacing
    None by ``default_solver_options()`` when that is given. ``solve`` is the
    solving function (the family passes its module's own, so that it can be replaced).
    """
    if solver_options is _NOT_GIVEN:
        check_options(time_limit, mip_gap, threads)  # fail before building anything
    else:
        check_options(time_limit, mip_gap, threads, solver_options)
    if check is not None:
        check()
    started = time.perf_counter()
    if empty is not None:
        return empty(started)
    if guard is not None:
        early = guard(started)
        if early is not None:
            return early
    model = build()
    built = time.perf_counter()
    options: dict[str, Any] = {}
    if solver_options is not _NOT_GIVEN:
        if solver_options is None and default_solver_options is not None:
            solver_options = default_solver_options()
        options["solver_options"] = solver_options
    result = solve(model, solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads, **options)
    if unsolved_plan is not None and not result.has_solution:
        plan = unsolved_plan()
    else:
        plan = extract(model)
    objective = verify(plan) if result.has_solution else math.nan
    return offline_outcome(family, model, result, plan, objective, started=started, built=built,
                           fallback_bound=fallback_bound(), fallback_source=fallback_source, info=info)
