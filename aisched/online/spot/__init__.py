"""Online algorithms of the `spot` family (spot-market paper, sections IV-V).

Importing this package registers, for family "spot" and in this order:
"ahap" (Algorithm 1), "ahanp" (Algorithm 3), "od_only", "msu", "up" (section VI-A).
Also exposes the predictors (:func:`perfect`, :func:`noisy`, :func:`constant`,
:func:`arima`) and online policy selection (:func:`select`, Algorithm 2) over
:func:`paper_pool` (112 policies).
"""

from aisched.online.spot import ahap  # noqa: I001  (registration order)
from aisched.online.spot import ahanp
from aisched.online.spot import baselines
from aisched.online.spot import pool, predictors, selection, window
from aisched.online.spot.predictors import arima, constant, noisy, perfect
from aisched.online.spot.selection import Policy, SelectionResult, evaluate_pool, paper_pool, select

__all__ = [
    "Policy",
    "SelectionResult",
    "ahanp",
    "ahap",
    "arima",
    "baselines",
    "constant",
    "evaluate_pool",
    "noisy",
    "paper_pool",
    "perfect",
    "pool",
    "predictors",
    "select",
    "selection",
    "window",
]

from aisched._moved import old_submodules as _old_submodules  # noqa: E402

#: The old names of modules that moved into sub-packages (one release, with a DeprecationWarning).
__getattr__ = _old_submodules(__name__, ['window_batched', 'window_core', 'window_groups', 'window_kernel', 'window_reference', 'window_split'])
