"""The `lora` generator's light constants: the embedded scenario of ``make run`` and the option choices.

Pure Python (no NumPy), so ``aisched compare lora --help`` reads them without
loading the numerical stack; :mod:`~aisched.scenarios.lora.generator` uses the
same objects.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEADLINE_METHODS", "DEFAULT_SCENARIO", "DEFAULT_TIME_LIMIT", "DEFAULT_TRACE_RATE", "GPU_MIXES",
           "PAPER_MEDIUM_LOAD", "PAPER_SCENARIO"]

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

#: The embedded scenario of the project's main job (``make run``), the default of ``aisched compare
#: lora`` and of :func:`~aisched.scenarios.lora.generator.generate` alike: 4 nodes (2 A100, 2 A40), 24
#: slots (4 hours), 2 vendors and 48 tasks, i.e. the paper's medium per-node load
#: (:data:`PAPER_MEDIUM_LOAD` x 4 nodes x 24 slots), the regime its Figs. 4-9 study, so capacity
#: binds. Chosen from the paper's settings, not from which algorithm wins (docs/readings/lora.md, lora
#: "make run's scenario"). The task count applies when neither ``tasks``, ``arrival_rate`` nor a
#: trace is given; a trace starts at its slot ``trace_start``.
DEFAULT_SCENARIO: dict[str, Any] = {
    "seed": 0, "nodes": 4, "slots": 24, "tasks": round(PAPER_MEDIUM_LOAD * 4 * 24), "arrival_rate": None,
    "vendors": 2, "gpu_mix": "mixed", "deadline": "slack", "trace": None, "trace_start": 0,
}

#: Mean tasks a slot a trace is rescaled to when no ``arrival_rate`` is given: the default scenario's
#: 48 tasks over its 24 slots (2 a slot), so a trace changes the shape of the load, not its volume.
DEFAULT_TRACE_RATE: float = DEFAULT_SCENARIO["tasks"] / DEFAULT_SCENARIO["slots"]

#: Section 5.1's default setting as the paper's figures run it (Figs. 5-9's base point): 100 mixed nodes,
#: a day of 144 ten-minute slots, Poisson(50) tasks a slot (the medium load), 3 vendors, slack
#: deadlines: :func:`~aisched.scenarios.lora.generator.paper_instance` draws it.
PAPER_SCENARIO: dict[str, Any] = {
    "nodes": 100, "slots": 144, "arrival_rate": 50.0, "vendors": 3, "gpu_mix": "mixed", "deadline": "slack",
}

#: Seconds ``aisched compare lora`` gives the offline solve by default: HiGHS does not prove the
#: optimum of the default scenario in this time, so the table's ratios are to the MILP's proven
#: bound (labelled "bound"). Since the batch shares moved to U(0.33, 0.73) (issue 60) HiGHS finds no
#: incumbent but the empty plan within 30 s on 2 cores (it did within 10 s under U(0.1, 0.5)); at 60 s it
#: stops about 3 % from its bound, and the whole command finishes within about 75 s.
DEFAULT_TIME_LIMIT = 60.0
