"""Certified upper bounds on the offline programs, one package per family that has one.

A bound is an offline result (it bounds the optimum of the family's program in
:mod:`aisched.models`), but its column generation prices columns with the family's
online dynamic programs (pdFTSP's kernel for ``lora``, ComDOS's exact selection for
``genai``), and ``models`` may import neither JAX nor ``online``; so the bounds are a
layer of their own, above both: ``bounds -> online -> models -> solvers``, and nothing
below imports ``bounds``. JAX kernels stay in ``online`` (lora's pricing kernels are
:mod:`aisched.online.lora.bound.pricing` and :mod:`aisched.online.lora.bound.twoclass`);
this layer imports no JAX itself.

- :mod:`~aisched.bounds.lora`: IP (4), column generation / Lagrangian.
- :mod:`~aisched.bounds.genai`: IP (5), relaxed ``P1`` with exact per-job pricing.
- :mod:`~aisched.bounds.tenants`: MINLP (3), cluster-level configuration LP.

``spot`` has none: its one job's exact DP is already the optimum. Importing this
package registers each bound with :func:`aisched.registry.register_bound`
(:func:`aisched.bound` looks them up).
"""

import pkgutil as _pkgutil

from aisched._lazy import attach as _attach

#: The family packages here, found on disk (no hand-kept list): each is imported on first use.
_FAMILY_PACKAGES = sorted(m.name for m in _pkgutil.iter_modules(__path__) if m.ispkg)
__getattr__, __dir__, __all__ = _attach(__name__, submodules=_FAMILY_PACKAGES)
