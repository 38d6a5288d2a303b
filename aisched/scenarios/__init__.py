"""Seeded generators of each family's instances, trace loaders, named scenarios, sweeps and reports."""

from aisched.scenarios import genai, lora, tenants

__all__ = ["genai", "lora", "tenants"]
