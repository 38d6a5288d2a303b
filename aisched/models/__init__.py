"""Each family's data (Instance) and its Pyomo integer program.

``models`` never imports JAX; it imports only :mod:`aisched.solvers` and the core.
"""

from aisched.models import lora

__all__ = ["lora"]
