"""pdFTSP: the online primal-dual auction of the LoRA paper (Algorithm 1 with Algorithm 2).

One module per piece of the algorithm:

- :mod:`~aisched.online.lora.pdftsp.algorithm`: Algorithm 1, task by task (prices raised by
  (7)-(8), the resource check, payments (14)); :func:`run` (registered as "pdftsp"),
  :func:`audit`, :func:`individual_rationality`.
- :mod:`~aisched.online.lora.pdftsp.params`: the parameters fixed before the auction
  (Lemma 2's ``alpha`` and ``beta``, the DP's work unit).
- :mod:`~aisched.online.lora.pdftsp.fronts`: Algorithm 2 as printed (line 13's running
  maxima, ``selection="faithful"``), jitted.
- :mod:`~aisched.online.lora.pdftsp.kernel`: the other two selections (cell prices and
  exact), jitted.
- :mod:`~aisched.online.lora.pdftsp.screen`: an exact screen before Algorithm 2 (tasks
  whose F (10) cannot be positive skip the DP).
- :mod:`~aisched.online.lora.pdftsp.reference`: plain NumPy oracles of the pseudocode.

This package re-exports the public names of :mod:`~aisched.online.lora.pdftsp.algorithm`
(``pdftsp.run``, ``pdftsp.PdftspState``, ...). To monkeypatch a global that the algorithm
reads, patch :mod:`~aisched.online.lora.pdftsp.algorithm`, not this package.
"""

from aisched.online.lora.pdftsp import algorithm, fronts, kernel, params, reference, screen  # noqa: F401
from aisched.online.lora.pdftsp.algorithm import (  # noqa: F401  (re-exported: the public API)
    AUDIT_SUMMARY,
    MAX_WORK_UNITS,
    BetaUnit,
    Decision,
    Parameters,
    Payment,
    PdftspParams,
    PdftspState,
    Selection,
    audit,
    audit_bids,
    default_alpha_beta,
    individual_rationality,
    lemma2_alpha_beta,
    run,
    slot_consistent_alpha_beta,
    work_unit_of,
)

__all__ = list(algorithm.__all__)  # the algorithm module's public names, not a second list
