"""Certified upper bounds on the offline programs, one package per family that has one.

A bound is an offline result (it bounds the optimum of the family's program in
:mod:`aisched.models`), but its column generation prices columns with the family's
online dynamic programs (pdFTSP's kernel for ``lora``, ComDOS's exact selection for
``genai``), and ``models`` may import neither JAX nor ``online``; so the bounds are a
layer of their own, above both: ``bounds -> online -> models -> solvers``, and nothing
below imports ``bounds``. JAX kernels stay in ``online`` (lora's pricing kernels are
:mod:`aisched.online.lora.bound_pricing` and :mod:`aisched.online.lora.bound_twoclass`);
this layer imports no JAX itself.

- :mod:`~aisched.bounds.lora`: IP (4), column generation / Lagrangian.
- :mod:`~aisched.bounds.genai`: IP (5), relaxed ``P1`` with exact per-job pricing.
- :mod:`~aisched.bounds.tenants`: MINLP (3), cluster-level configuration LP.

``spot`` has none: its one job's exact DP is already the optimum. Importing this
package registers each bound with :func:`aisched.registry.register_bound`
(:func:`aisched.bound` looks them up).
"""

from aisched.bounds import genai, lora, tenants

__all__ = ["genai", "lora", "tenants"]
