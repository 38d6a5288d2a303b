"""The `genai` generator's light constants: the embedded scenario and the option choices.

Pure Python (no NumPy), so ``aisched compare genai --help`` reads them without
loading the numerical stack; :mod:`~aisched.scenarios.genai.generator` uses the
same objects. The algorithms' choices are copies of the tuples in
:mod:`aisched.online.genai` (``tests/test_cli.py`` checks they are equal).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ADMISSIONS", "ALPHA_READINGS", "CAPACITY_GB", "COMMUNICATIONS", "DEADLINE_RULES", "DEFAULT_SCENARIO",
           "ON_FULL", "OPTION_EVALS", "PAPER_SCENARIO", "REVENUE_RULES", "SELECTIONS"]

DEADLINE_RULES: tuple[str, ...] = ("arrival", "earliest_finish")
REVENUE_RULES: tuple[str, ...] = ("proportional", "random_factor")
#: The workloads of :func:`~aisched.scenarios.genai.generator.generate` (docs/readings/genai.md A2b).
WORKLOADS: tuple[str, ...] = ("legacy", "gpu_priced")
CAPACITY_GB = {"homo-S": 4 * 12.0, "homo-M": 4 * 24.0, "homo-L": 4 * 32.0}

#: The default scenario of ``aisched compare genai`` and of
#: :func:`~aisched.scenarios.genai.generator.generate` alike: 2 edges of 8 GB, 12 slots, 6 TaskBench
#: jobs (the count applies when neither ``jobs`` nor ``arrival_rate`` is given). Small enough that
#: HiGHS proves the optimum of IP (5) in seconds, with capacity binding (LLM models do not fit twice).
DEFAULT_SCENARIO: dict[str, Any] = {"seed": 0, "edges": 2, "slots": 12, "jobs": 6, "capacity": 8.0,
                                    "dag_source": "taskbench"}

#: Section IV-A's default setting as the paper's figures run it (Figs. 4-8's base point): 10 edges of
#: homo-M memory, 200 five-second slots, Poisson(5) arrivals, on the workload the figures run
#: (``gpu_priced``, docs/readings/genai.md A2b). :func:`~aisched.scenarios.genai.generator.paper_instance`
#: draws it; the API's and the CLI's default is the small :data:`DEFAULT_SCENARIO`.
PAPER_SCENARIO: dict[str, Any] = {"edges": 10, "slots": 200, "arrival_rate": 5.0, "capacity": "homo-M",
                                  "workload": "gpu_priced"}

# the choices of the algorithms' options (aisched.online.genai.comdos and .baselines)
ALPHA_READINGS: tuple[str, ...] = ("density_ratio", "gb", "full_cell")
SELECTIONS: tuple[str, ...] = ("algorithm2", "exact")
OPTION_EVALS: tuple[str, ...] = ("shared", "chunks")
ADMISSIONS: tuple[str, ...] = ("task", "job")
COMMUNICATIONS: tuple[str, ...] = ("none", "transfer_cost")
ON_FULL: tuple[str, ...] = ("decline", "redraw")
