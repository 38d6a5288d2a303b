"""The status of a solve, shared by :mod:`aisched.solvers.solve` (Pyomo) and
:mod:`aisched.solvers.highs` (HiGHS in matrix form)."""

from __future__ import annotations

import enum

__all__ = ["Status"]


class Status(str, enum.Enum):
    """Outcome of a solve: :func:`aisched.solvers.solve` maps Pyomo's ``TerminationCondition``
    (the table), :mod:`aisched.solvers.highs` maps HiGHS's model status the same way.

    ==========  ==================================================================
    OPTIMAL     ``convergenceCriteriaSatisfied`` with solution status ``optimal``
                (legacy: ``optimal``, ``globallyOptimal``, ``locallyOptimal``)
    TIME_LIMIT  ``maxTimeLimit``, ``iterationLimit``, ``objectiveLimit`` (legacy:
                ``maxTimeLimit``, ``maxIterations``, ``maxEvaluations``,
                ``minFunctionValue``); may or may not carry an incumbent
    INFEASIBLE  ``provenInfeasible``, ``locallyInfeasible``, and
                ``infeasibleOrUnbounded`` (message says "infeasible or unbounded")
    UNBOUNDED   ``unbounded``
    ERROR       everything else (including convergence without an optimal
                solution status)
    ==========  ==================================================================
    """

    OPTIMAL = "optimal"
    TIME_LIMIT = "time_limit"
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    ERROR = "error"
