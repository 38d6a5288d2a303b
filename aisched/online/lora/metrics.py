"""Resource metrics of a `lora` outcome, part of the family's row columns (``aisched.scenarios.lora.metrics.metrics``).

Compute and memory utilisation over (node, slot): mean, peak and the share of
cells at capacity (:func:`aisched.models.lora.utilisation`), so that a reader
sees whether capacity binds (the dual prices only matter where it does).
"""

from __future__ import annotations

from aisched.models.lora import LoraInstance, utilisation
from aisched.outcome import Outcome

__all__ = ["resource_metrics"]


def resource_metrics(instance: LoraInstance, outcome: Outcome) -> dict[str, float]:
    """``compute_util_mean/peak/binding`` and ``memory_util_mean/peak/binding`` of the outcome's plan."""
    return utilisation(instance, outcome.plan)
