"""Resource metrics of a `lora` outcome, registered for ``compare`` and every sweep cell.

Compute and memory utilisation over (node, slot): mean, peak and the share of
cells at capacity (:func:`aisched.models.lora.utilisation`), so that a reader
sees whether capacity binds (the dual prices only matter where it does).
"""

from __future__ import annotations

from aisched.models.lora import LoraInstance, utilisation
from aisched.outcome import Outcome
from aisched.registry import register_metrics

__all__ = ["resource_metrics"]


@register_metrics("lora")
def resource_metrics(instance: LoraInstance, outcome: Outcome) -> dict[str, float]:
    """``compute_util_mean/peak/binding`` and ``memory_util_mean/peak/binding`` of the outcome's plan."""
    return utilisation(instance, outcome.plan)
