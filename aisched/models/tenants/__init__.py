"""The `tenants` family: fair multi-tenant sharing of distributed ML jobs (Astraea paper, problem (3)).

- :class:`TenantInstance`: the data (section 3.1).
- :func:`build`: the linear Pyomo MILP of problem (3); :func:`solve_offline`: its optimum.
- :func:`verify_plan`, :func:`make_plan`: the plan contract and its checker.
"""

from aisched.models.tenants.instance import UTILITIES, TenantInstance
from aisched.models.tenants.plan import (
    centralized_of,
    empty_plan,
    make_plan,
    plan_revenue,
    usage,
    verify_plan,
)
from aisched.models.tenants.program import build, extract_plan, max_utility, options, solve_offline

__all__ = [
    "UTILITIES",
    "TenantInstance",
    "build",
    "centralized_of",
    "empty_plan",
    "extract_plan",
    "make_plan",
    "max_utility",
    "options",
    "plan_revenue",
    "solve_offline",
    "usage",
    "verify_plan",
]
