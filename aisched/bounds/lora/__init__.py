"""The certified upper bound on IP (4) of the `lora` family.

:mod:`~aisched.bounds.lora.bound` (registered as ``aisched.bound`` for "lora") runs
column generation on the configuration LP, or projected subgradient steps, with a
Lagrangian bound valid at any stop; its columns are priced by the JAX pricing kernels,
which stay in ``online`` with the other kernels (JAX lives there only):
:mod:`~aisched.online.lora.bound.pricing` (pdFTSP's batched kernel) or, for two node
classes, :mod:`~aisched.online.lora.bound.twoclass`; its primal plans are packed by
:mod:`~aisched.bounds.lora.primal`.
"""

from aisched.bounds.lora import bound, primal

__all__ = ["bound", "primal"]
