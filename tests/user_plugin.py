"""A user's own algorithm in a module of its own: the plug-in the command-line tests load."""

from __future__ import annotations

import dataclasses

import aisched
from aisched.registry import register


@register("lora", "eft_declining")
def eft_declining(instance: object) -> aisched.Outcome:
    """EFT that declines a task whose welfare would not be positive."""
    outcome = aisched.run("eft", instance, require_positive_welfare=True)
    return dataclasses.replace(outcome, algorithm="eft_declining")
