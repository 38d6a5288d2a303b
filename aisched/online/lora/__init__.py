"""Online algorithms of the `lora` family (pdFTSP paper, Zheng et al., ICPP'24).

Importing this package registers, for family "lora" and in this order:
"pdftsp" (Algorithms 1-2, :mod:`~aisched.online.lora.pdftsp`), "titan"
(per-slot MILP, :mod:`~aisched.online.lora.titan`), "eft" and "ntm"
(:mod:`~aisched.online.lora.greedy`), then "titan_welfare" (Titan's loop maximising
welfare (4) per slot, a variant: ``compare`` runs it only when named). The jitted per-task dynamic program of
Algorithm 2 as printed (line 13's running maxima, ``selection="faithful"``) is
:mod:`~aisched.online.lora.pdftsp.fronts`; :mod:`~aisched.online.lora.pdftsp.kernel`
holds the other two selections (cell prices and exact); their plain NumPy oracles of
the pseudocode are in :mod:`~aisched.online.lora.pdftsp.reference`. The full re-run
truthfulness audit is :mod:`~aisched.online.lora.audit`; compute and memory
utilisation (part of the family's result columns) is :mod:`~aisched.online.lora.metrics`.
The certified upper bound on IP (4) is an offline result, :mod:`aisched.bounds.lora`; its
JAX pricing kernels are here: :mod:`~aisched.online.lora.bound.pricing`,
:mod:`~aisched.online.lora.bound.twoclass`.
"""

from aisched.online.lora import pdftsp, titan  # noqa: I001  (registration order = listing order)
from aisched.online.lora import greedy
from aisched.online.lora import audit, metrics
from aisched.registry import register as _register

# a variant (not one of the paper's baselines): listed after the paper's four, run only when named, so that
# aisched.compare(instance) and `aisched compare lora` compare the same list
_register("lora", "titan_welfare", ready=False)(titan.run_welfare)

__all__ = ["audit", "greedy", "metrics", "pdftsp", "titan"]

from aisched._moved import old_submodules as _old_submodules  # noqa: E402

#: The old names of modules that moved into sub-packages (one release, with a DeprecationWarning).
__getattr__ = _old_submodules(__name__, ['pdftsp_fronts', 'pdftsp_kernel', 'pdftsp_params', 'pdftsp_reference', 'pdftsp_screen', 'titan_greedy', 'titan_model', 'titan_running', 'titan_sized', 'bound_pricing', 'bound_twoclass'])
