"""Solving Pyomo models: a uniform :func:`solve` and Var-to-array readers.

:func:`solve` runs HiGHS (or any ``pyomo.contrib.solver`` / legacy Pyomo solver)
on a model with one active objective and returns a :class:`SolverResult` with a
:class:`Status`, objective, proven bound, gap and wall time; the incumbent is
loaded into the model's variables.  :func:`to_xarray` and :func:`values_dict`
read an indexed ``Var`` back.  :class:`SolverResult` is also what the matrix paths
of :mod:`aisched.solvers.highs` return (``SolveResult`` is its old name).
"""

from aisched.solvers.result import SolveResult, SolverResult
from aisched.solvers.solve import Status, check_options, solve, to_xarray, values_dict

__all__ = ["SolverResult", "SolveResult", "Status", "check_options", "solve", "to_xarray", "values_dict"]
