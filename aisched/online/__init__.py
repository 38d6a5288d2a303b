"""Online algorithms and baselines, one package per family; JAX kernels live here only.

The packages mirror :mod:`aisched.models` (a file's place says which paper it serves):

- :mod:`~aisched.online.lora`: pdFTSP (Algorithms 1-2), Titan (per-slot MILP), EFT and NTM.
- :mod:`~aisched.online.spot`: AHAP, AHANP, OD-Only, MSU, UP, predictors, policy selection.
- :mod:`~aisched.online.genai`: ComDOS, HEFT-A, HEFT-MA, Random-A.
- :mod:`~aisched.online.tenants`: Astraea, BatchSche, Gandiva_fair, HiveD, fairness metrics.

Importing this package registers every algorithm with :mod:`aisched.registry`.
"""

from aisched.online import lora  # noqa: I001  (registration order = listing order)
from aisched.online import spot
from aisched.online import genai
from aisched.online import tenants

__all__ = ["genai", "lora", "spot", "tenants"]
