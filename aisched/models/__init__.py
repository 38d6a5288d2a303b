"""Each family's data (Instance) and its Pyomo integer program.

``models`` never imports JAX; it imports only :mod:`aisched.solvers`, :mod:`aisched.dag` and the core.
"""

import pkgutil as _pkgutil

from aisched._lazy import attach as _attach

#: The family packages here, found on disk (no hand-kept list): each is imported on first use.
_FAMILY_PACKAGES = sorted(m.name for m in _pkgutil.iter_modules(__path__) if m.ispkg)
__getattr__, __dir__, __all__ = _attach(__name__, submodules=_FAMILY_PACKAGES)
