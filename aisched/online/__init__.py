"""Online algorithms and baselines; JAX kernels live here only.

Importing this package registers every algorithm with :mod:`aisched.registry`.

`lora` family: :mod:`~aisched.online.pdftsp` (pdFTSP, Algorithm 1 + 2),
:mod:`~aisched.online.titan` (per-slot MILP), :mod:`~aisched.online.lora_greedy`
(EFT and NTM).
"""

from aisched.online import pdftsp, titan  # noqa: I001  (registration order = listing order)
from aisched.online import lora_greedy

__all__ = ["lora_greedy", "pdftsp", "titan"]
