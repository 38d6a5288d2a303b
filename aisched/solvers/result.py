"""The one result type of every solve: :class:`SolverResult`.

All three solve paths return it:

* :func:`aisched.solvers.solve` (a Pyomo model; the incumbent is loaded into the model's
  variables, so ``solution`` is ``None``);
* :func:`aisched.solvers.highs.solve_milp` (a MILP in matrix form; minimisation);
* :meth:`aisched.solvers.highs.ColumnLP.solve` (an LP in matrix form; minimisation, with
  ``row_dual``).

Sense convention: ``objective`` and ``bound`` are always in the program's own sense,
named by ``sense`` (``"min"`` or ``"max"``); the matrix paths minimise, so their values
are ``cost @ x`` and a lower bound (callers that maximise negate the costs and the
values).  An unknown value is ``nan`` (never ``-inf``); ``±inf`` is a proven bound of an
UNBOUNDED program.  ``SolveResult``, ``MilpResult`` and ``LPSolution`` are the old names of
this type, kept for one release.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np

from aisched.solvers.status import Status

__all__ = ["Sense", "SolverResult", "SolveResult", "MilpResult", "LPSolution", "relative_gap"]

Sense = Literal["min", "max"]


def relative_gap(status: Status, objective: float, bound: float) -> float:
    """``|bound - objective| / max(1e-9, |objective|)``; ``0`` when OPTIMAL, ``nan`` when
    either value is unknown."""
    if status is Status.OPTIMAL:
        return 0.0
    if math.isnan(objective) or math.isnan(bound):
        return math.nan
    return abs(bound - objective) / max(1e-9, abs(objective))


@dataclass(frozen=True)
class SolverResult:
    """What a solve returned (any path: Pyomo, :func:`~aisched.solvers.highs.solve_milp`,
    :class:`~aisched.solvers.highs.ColumnLP`).

    Attributes
    ----------
    status
        The mapped :class:`~aisched.solvers.status.Status`; ``TIME_LIMIT`` may or may not
        carry an incumbent (see ``has_solution``).
    objective
        The incumbent's objective in the program's own sense (``sense``); ``nan`` without
        an incumbent.  (:class:`~aisched.solvers.highs.ColumnLP`: the LP value as HiGHS
        reports it, whatever the status.)
    bound
        The best proven bound in the program's own sense (lower for ``"min"``, upper for
        ``"max"``); ``nan`` when unknown (also when INFEASIBLE), ``±inf`` when UNBOUNDED;
        the objective when OPTIMAL and the solver gave none.  A matrix MILP keeps HiGHS's
        dual bound whenever it is finite.
    gap
        ``|bound - objective| / max(1e-9, |objective|)``; ``0`` when OPTIMAL (proven
        within the solver's tolerance), ``nan`` when unknown.
    wall_time_s
        Wall-clock seconds spent in the solver call.
    solver
        The solver name (``"highs"`` for the matrix paths; as requested for Pyomo).
    termination
        The solver's raw termination (Pyomo's condition name ``"maxTimeLimit"``, HiGHS's
        model status name ``"kOptimal"``, ``scipy.optimize.milp``'s status code ``"0"``).
    has_solution
        Whether there is an incumbent (Pyomo: loaded into the model's variables; matrix
        paths: in ``solution``).
    message
        A human-readable summary (the solver's own words on the matrix paths).
    sense
        ``"min"`` or ``"max"``: the sense of ``objective`` and ``bound``.
    solution
        The incumbent, one value per column (matrix paths); ``None`` without one, and
        always ``None`` for Pyomo (the values are in the model).
        (:class:`~aisched.solvers.highs.ColumnLP`: HiGHS's column values, whatever the
        status.)
    row_dual
        One dual value per row, HiGHS's sign convention (``<= 0`` on a binding upper row
        of a minimisation); only :class:`~aisched.solvers.highs.ColumnLP`, else ``None``.
    engine
        How the solver was called: ``"pyomo"`` (``pyomo.contrib.solver``),
        ``"pyomo-legacy"`` (``pyomo.environ.SolverFactory``), ``"scipy"``
        (``scipy.optimize.milp``) or ``"highspy"``.
    """

    status: Status
    objective: float
    bound: float
    gap: float
    wall_time_s: float
    solver: str
    termination: str
    has_solution: bool
    message: str
    sense: Sense = "min"
    solution: np.ndarray | None = None
    row_dual: np.ndarray | None = None
    engine: str = ""

    @property
    def optimal(self) -> bool:
        """``True`` when the solve proved optimality."""
        return self.status is Status.OPTIMAL

    @property
    def bound_or_trivial(self) -> float:
        """``bound``, or the trivial bound when it is unknown (``-inf`` for ``"min"``,
        ``inf`` for ``"max"``): the old ``MilpResult.bound``."""
        if math.isnan(self.bound):
            return -math.inf if self.sense == "min" else math.inf
        return self.bound

    @property
    def x(self) -> np.ndarray | None:
        """Deprecated (old ``MilpResult.x``): use ``solution``."""
        warnings.warn("SolverResult.x is deprecated; use .solution", DeprecationWarning, stacklevel=2)
        return self.solution

    @property
    def col_value(self) -> np.ndarray | None:
        """Deprecated (old ``LPSolution.col_value``): use ``solution``."""
        warnings.warn("SolverResult.col_value is deprecated; use .solution", DeprecationWarning, stacklevel=2)
        return self.solution


#: Old names of :class:`SolverResult`, kept for one release.
SolveResult = SolverResult
MilpResult = SolverResult
LPSolution = SolverResult
