"""Online algorithms and baselines; JAX kernels live here only.

Importing this package registers every algorithm with :mod:`aisched.registry`.

- `lora`: :mod:`~aisched.online.pdftsp` (pdFTSP, Algorithm 1 + 2),
  :mod:`~aisched.online.titan` (per-slot MILP), :mod:`~aisched.online.lora_greedy` (EFT and NTM).
- `spot`: :mod:`~aisched.online.spot` (AHAP, AHANP, OD-Only, MSU, UP, predictors, policy selection).
- `genai`: :mod:`~aisched.online.comdos` (ComDOS), :mod:`~aisched.online.genai_baselines`
  (HEFT-A, HEFT-MA, Random-A).
- `tenants`: :mod:`~aisched.online.astraea` (Astraea), :mod:`~aisched.online.tenants_baselines`
  (BatchSche, Gandiva_fair, HiveD), :mod:`~aisched.online.tenants_metrics` (fairness).
"""

from aisched.online import pdftsp, titan  # noqa: I001  (registration order = listing order)
from aisched.online import lora_greedy
from aisched.online import spot
from aisched.online import comdos, genai_baselines
from aisched.online import astraea, tenants_baselines, tenants_metrics

__all__ = [
    "astraea",
    "comdos",
    "genai_baselines",
    "lora_greedy",
    "pdftsp",
    "spot",
    "tenants_baselines",
    "tenants_metrics",
    "titan",
]
