"""`lora` sweep metrics of a cell (Figs. 10-11): :func:`cell_metrics`.

It adds to each sweep cell of an algorithm that charges payments:

- ``payment_to_bid``: the largest payment / bid over admitted tasks (individual
  rationality, the paper's Fig. 11 and Theorem 4, holds when it is ``<= 1``);
- ``misreport_gain``: when the run audited tasks by full re-runs
  (``pdftsp(audit_tasks=n)``), the largest utility gain of a misreport, relative
  to the task's true value (truthfulness, Fig. 10 and Theorem 3: ``<= 0``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched import families

__all__ = ["DIAGNOSTICS", "metrics", "cell_metrics"]


def metrics(instance: Any, outcome: Any) -> dict[str, float]:
    """The family's columns of a result row (``compare`` and every sweep cell).

    :func:`cell_metrics` (payments), then the resource metrics of
    :func:`aisched.online.lora.metrics.resource_metrics` (does capacity bind?).
    """
    from aisched.online.lora.metrics import resource_metrics

    return {**cell_metrics(instance, outcome), **resource_metrics(instance, outcome)}


def cell_metrics(instance: Any, outcome: Any) -> dict[str, float]:
    """``payment_to_bid`` and ``misreport_gain`` of one cell (NaN where they do not apply), and the
    run's recorded proof invariants where it has them: ``lemma1_slack`` (< 0: Lemma 1's step
    inequality broke) and ``dual_objective`` (``D_1^I`` of (6))."""
    out: dict[str, float] = {}
    if outcome.payments is not None:
        won = np.asarray(outcome.admitted, bool) & (np.asarray(instance.bid) > 0)
        ratio = np.asarray(outcome.payments)[won] / np.asarray(instance.bid)[won]
        out["payment_to_bid"] = float(ratio.max()) if ratio.size else float("nan")
    if "misreport_gain" in outcome.info:
        out["misreport_gain"] = float(outcome.info["misreport_gain"])
    for key in ("lemma1_slack", "dual_objective"):  # pdFTSP's proof invariants (aisched.theorems.lora)
        if key in outcome.info:
            out[key] = float(outcome.info[key])
    return out


#: The mechanism diagnostics: the cell columns that say whether pdftsp's mechanism acted.
DIAGNOSTICS: tuple[families.Diagnostic, ...] = (
    families.Diagnostic("compute_util_binding", "node-slots at compute capacity", acts_above=0.0),
    families.Diagnostic("memory_util_binding", "node-slots at memory capacity", acts_above=0.0),
    families.Diagnostic("compute_util_peak", "peak compute utilisation"),
    families.Diagnostic("memory_util_peak", "peak memory utilisation"),
    families.Diagnostic("compute_util_mean", "mean compute utilisation"),
)

