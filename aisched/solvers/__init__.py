"""Solving Pyomo models: a uniform :func:`solve` and Var-to-array readers.

:func:`solve` runs HiGHS (or any ``pyomo.contrib.solver`` / legacy Pyomo solver)
on a model with one active objective and returns a :class:`SolveResult` with a
:class:`Status`, objective, proven bound, gap and wall time; the incumbent is
loaded into the model's variables.  :func:`to_xarray` and :func:`values_dict`
read an indexed ``Var`` back.
"""

from aisched.solvers.solve import SolveResult, Status, check_options, solve, to_xarray, values_dict

__all__ = ["SolveResult", "Status", "check_options", "solve", "to_xarray", "values_dict"]
