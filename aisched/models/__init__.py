"""Each family's data (Instance) and its Pyomo integer program.

``models`` never imports JAX; it imports only :mod:`aisched.solvers`, :mod:`aisched.dag` and the core.
"""

from aisched.models import genai, lora, spot, tenants

__all__ = ["genai", "lora", "spot", "tenants"]
