"""Online algorithms and baselines, one package per family; JAX kernels live here only.

The packages mirror :mod:`aisched.models` (a file's place says which paper it serves):

- :mod:`~aisched.online.lora`: pdFTSP (Algorithms 1-2), Titan (per-slot MILP), EFT and NTM.
- :mod:`~aisched.online.spot`: AHAP, AHANP, OD-Only, MSU, UP, predictors, policy selection.
- :mod:`~aisched.online.genai`: ComDOS, HEFT-A, HEFT-MA, Random-A.
- :mod:`~aisched.online.tenants`: Astraea, BatchSche, Gandiva_fair, HiveD, fairness metrics.

Importing a family's package registers its algorithms on its family (the family names the package in
:attr:`aisched.core.family.Family.modules`; the first look-up imports it).
"""

import pkgutil as _pkgutil

from aisched._lazy import attach as _attach

#: The family packages here, found on disk (no hand-kept list): each is imported on first use.
_FAMILY_PACKAGES = sorted(m.name for m in _pkgutil.iter_modules(__path__) if m.ispkg)
__getattr__, __dir__, __all__ = _attach(__name__, submodules=_FAMILY_PACKAGES)
