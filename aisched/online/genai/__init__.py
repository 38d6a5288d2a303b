"""Online algorithms of the `genai` family (ComDOS paper, section III-IV).

Importing this package registers, for family "genai" and in this order:
"comdos" (Algorithms 1-2, :mod:`~aisched.online.genai.comdos`), then
"heft_a", "heft_ma" and "random_a" (:mod:`~aisched.online.genai.baselines`).
The jitted per-job dynamic program is :mod:`~aisched.online.genai.comdos.kernel`;
its plain NumPy oracle is :mod:`~aisched.online.genai.comdos.reference`.
The certified upper bound on IP (5) (``aisched.bound``) is an offline result: :mod:`aisched.bounds.genai`.
"""

from aisched.online.genai import comdos  # noqa: I001  (registration order = listing order)
from aisched.online.genai import baselines
from aisched.online.genai import metrics

__all__ = ["baselines", "comdos", "metrics"]

from aisched._moved import old_submodules as _old_submodules  # noqa: E402

#: The old names of modules that moved into sub-packages (one release, with a DeprecationWarning).
__getattr__ = _old_submodules(__name__, ['comdos_batched', 'comdos_exact', 'comdos_kernel', 'comdos_reference'])
