"""The `lora` family: multi-LoRA fine-tuning auction (pdFTSP paper, IP (4)).

- :class:`LoraInstance`: the data (section 2.1).
- :func:`build`: the Pyomo model of IP (4); :func:`solve_offline`: its optimum.
- :func:`verify_plan`, :func:`make_plan`: the plan contract and its checker;
  :func:`utilisation`: compute and memory utilisation of a plan (mean, peak).
"""

from aisched.models.lora.instance import LoraInstance
from aisched.models.lora.plan import (
    empty_plan,
    make_plan,
    node_usage,
    plan_welfare,
    utilisation,
    verify_plan,
)
from aisched.models.lora.program import build, extract_plan, solve_offline

__all__ = [
    "LoraInstance",
    "build",
    "empty_plan",
    "extract_plan",
    "make_plan",
    "node_usage",
    "plan_welfare",
    "solve_offline",
    "utilisation",
    "verify_plan",
]
