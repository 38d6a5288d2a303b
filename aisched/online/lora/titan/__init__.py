"""Titan, adapted online as in section 5.1 of the pdFTSP paper; and ``titan_welfare``.

One module per piece of the baseline:

- :mod:`~aisched.online.lora.titan.algorithm`: the slot-by-slot loop (random vendor per
  task, commit the slot's plan); :func:`run` (registered as "titan") and
  :func:`run_welfare` (``objective="welfare"``, registered as "titan_welfare").
- :mod:`~aisched.online.lora.titan.model`: one slot's program, IP (4)'s constraints on
  node classes, solved with HiGHS (count stage, then JCT or welfare stage).
- :mod:`~aisched.online.lora.titan.greedy`: a feasible plan for the count stage when its
  MILP stops without a better one (the count-stage fallback).
- :mod:`~aisched.online.lora.titan.running`: the JCT stage with "still running"
  indicators (``jct_form="running"``).
- :mod:`~aisched.online.lora.titan.sized`: ``slot_budget="sized"`` (experimental).

This package re-exports the public names of :mod:`~aisched.online.lora.titan.algorithm`
(``titan.run``, ``titan.run_welfare``). To monkeypatch a global that the loop reads
(``solve_slot``), patch :mod:`~aisched.online.lora.titan.algorithm`, not this package.
"""

from aisched.online.lora.titan import algorithm, greedy, model, running, sized  # noqa: F401
from aisched.online.lora.titan.algorithm import run, run_welfare  # noqa: F401  (re-exported)
from aisched.online.lora.titan.model import (  # noqa: F401  (re-exported: the loop's options)
    BUDGETS,
    COUNT_FALLBACKS,
    FORMULATIONS,
    JCT_FORMS,
    OBJECTIVES,
    SlotResult,
)

__all__ = list(algorithm.__all__)  # the algorithm module's public names, not a second list
