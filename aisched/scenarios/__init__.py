"""Seeded generators of each family's instances, trace loaders, named scenarios, sweeps and reports."""

from aisched.scenarios import genai, lora, spot, tenants

__all__ = ["genai", "lora", "spot", "tenants"]
