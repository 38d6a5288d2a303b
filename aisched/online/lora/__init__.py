"""Online algorithms of the `lora` family (pdFTSP paper, Zheng et al., ICPP'24).

Importing this package registers, for family "lora" and in this order:
"pdftsp" (Algorithms 1-2, :mod:`~aisched.online.lora.pdftsp`), "titan"
(per-slot MILP, :mod:`~aisched.online.lora.titan`), "eft" and "ntm"
(:mod:`~aisched.online.lora.greedy`). The jitted per-task dynamic program is
:mod:`~aisched.online.lora.pdftsp_kernel`; its plain NumPy oracle of the
pseudocode is :mod:`~aisched.online.lora.pdftsp_reference`. A certified upper bound on
IP (4)'s optimum (column generation, Lagrangian) is :mod:`~aisched.online.lora.bound`.
"""

from aisched.online.lora import pdftsp, titan  # noqa: I001  (registration order = listing order)
from aisched.online.lora import greedy
from aisched.online.lora import bound, pdftsp_kernel, pdftsp_reference

__all__ = ["bound", "greedy", "pdftsp", "pdftsp_kernel", "pdftsp_reference", "titan"]
