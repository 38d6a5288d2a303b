"""The `spot` family: deadline-aware fine-tuning on spot and on-demand GPUs (problem (5)).

- :class:`SpotInstance`: one job and its market (section III).
- :func:`build`: the Pyomo MILP of problem (5); :func:`solve_offline`: its optimum.
- :func:`build_window` / :func:`solve_window_milp`: the MILP of the windowed problem (10).
- :func:`exact_optimum`: an exact dynamic program for (5), a cross-check on small cases.
- :func:`make_plan`, :func:`verify_plan`: the plan contract and its checker.
"""

from aisched.models.spot.exact_dp import exact_optimum
from aisched.models.spot.instance import SpotInstance
from aisched.models.spot.plan import make_plan, plan_utility, progress, verify_plan
from aisched.models.spot.program import build, build_window, extract_plan, solve_offline, solve_window_milp

__all__ = [
    "SpotInstance",
    "build",
    "build_window",
    "exact_optimum",
    "extract_plan",
    "make_plan",
    "plan_utility",
    "progress",
    "solve_offline",
    "solve_window_milp",
    "verify_plan",
]
