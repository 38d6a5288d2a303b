"""The `genai` family: generative-AI job DAGs with model selection (ComDOS paper, IP (5)).

- :class:`GenaiInstance`: the data (section II).
- :func:`build`: the time-indexed Pyomo model of IP (5); :func:`solve_offline`: its optimum.
- :func:`verify_plan`, :func:`make_plan`: the plan contract and its checker.
"""

from aisched.models.genai.instance import GenaiInstance
from aisched.models.genai.plan import (
    edge_usage,
    empty_plan,
    job_profit,
    make_plan,
    plan_profit,
    verify_plan,
)
from aisched.models.genai.program import build, extract_plan, solve_offline

__all__ = [
    "GenaiInstance",
    "build",
    "edge_usage",
    "empty_plan",
    "extract_plan",
    "job_profit",
    "make_plan",
    "plan_profit",
    "solve_offline",
    "verify_plan",
]
