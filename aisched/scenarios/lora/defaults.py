"""The `lora` generator's light constants: the embedded scenario of ``make run`` and the option choices.

Pure Python (no NumPy), so ``aisched compare lora --help`` reads them without
loading the numerical stack; :mod:`~aisched.scenarios.lora.generator` uses the
same objects.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEADLINE_METHODS", "DEFAULT_SCENARIO", "DEFAULT_TIME_LIMIT", "GPU_MIXES", "PAPER_MEDIUM_LOAD"]

#: method -> slack range (None: uniform between earliest finish and T-1).
DEADLINE_METHODS: dict[str, tuple[float, float] | None] = {
    "slack": (1.5, 3.0),
    "tight": (1.0, 1.5),
    "loose": (3.0, 6.0),
    "uniform": None,
}

#: Node types of a cluster: all A100, all A40, or alternating (paper section 5.1).
GPU_MIXES: tuple[str, ...] = ("a100", "a40", "mixed")

#: The paper's medium workload per compute node and slot: Poisson(50) tasks a slot (section 5.1,
#: "light, medium and high workload ... average value 30, 50 and 80") on its default 100 nodes.
PAPER_MEDIUM_LOAD = 50 / 100

#: The embedded scenario of the project's main job (``make run``): 4 nodes (2 A100, 2 A40), 24
#: slots (4 hours), 2 vendors and 48 tasks, i.e. the paper's medium per-node load
#: (:data:`PAPER_MEDIUM_LOAD` x 4 nodes x 24 slots), the regime its Figs. 4-9 study, so capacity
#: binds. Chosen from the paper's settings, not from which algorithm wins (docs/readings.md, lora
#: "make run's scenario").
DEFAULT_SCENARIO: dict[str, Any] = {
    "seed": 0, "nodes": 4, "slots": 24, "tasks": round(PAPER_MEDIUM_LOAD * 4 * 24), "arrival_rate": None,
    "vendors": 2, "gpu_mix": "mixed", "deadline": "slack",
}

#: Seconds ``aisched compare lora`` gives the offline solve by default: HiGHS does not prove the
#: optimum of the default scenario in this time, so the table's ratios are to the MILP's proven
#: bound (labelled "bound"); the whole command then finishes within 30 s on 2 cores.
DEFAULT_TIME_LIMIT = 10.0
