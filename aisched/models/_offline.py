"""The Outcome of an offline solve, shared by every family's ``solve_offline``."""

from __future__ import annotations

import math
import time
from typing import Any

import pyomo.environ as pyo
import xarray as xr

from aisched.outcome import Outcome
from aisched.solvers import SolveResult, Status

__all__ = ["offline_outcome"]


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
