"""Seeded generators of each family's instances (and, later, named scenarios and sweeps)."""

from aisched.scenarios import lora

__all__ = ["lora"]
