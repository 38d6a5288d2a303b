"""Online algorithms of the `tenants` family (Astraea paper, sections 4-5).

Importing this package registers, for family "tenants" and in this order:
"astraea" (Algorithms 1-5, :mod:`~aisched.online.tenants.astraea`), then
"batchsche", "gandiva_fair" and "hived" (:mod:`~aisched.online.tenants.baselines`).
A_maxIrev (Algorithms 3-5) is jitted in :mod:`~aisched.online.tenants.astraea.kernel`,
with its plain NumPy oracle in :mod:`~aisched.online.tenants.astraea.reference`;
the fairness metrics of section 5.1 are :mod:`~aisched.online.tenants.metrics`;
the certified upper bound is an offline result: :mod:`aisched.bounds.tenants`.
"""

from aisched.online.tenants import astraea  # noqa: I001  (registration order = listing order)
from aisched.online.tenants import baselines
from aisched.online.tenants import metrics
from aisched.online.tenants.metrics import fairness, performance_ratio

__all__ = ["astraea", "baselines", "fairness", "metrics", "performance_ratio"]

from aisched._moved import old_submodules as _old_submodules  # noqa: E402

#: The old names of modules that moved into sub-packages (one release, with a DeprecationWarning).
__getattr__ = _old_submodules(__name__, ['astraea_kernel', 'astraea_reference'])
