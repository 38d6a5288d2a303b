"""The JAX pricing kernels of the certified upper bound on IP (4) (:mod:`aisched.bounds.lora`).

The bound is an offline result; its pricing problem (a task's best schedule at given cell
prices) is DP (13) of pdFTSP, so its kernels live beside pdFTSP's:

- :mod:`~aisched.online.lora.bound.pricing`: exact pricing batched over tasks (pdFTSP's
  cell-price DP, ``jax.vmap``-ed), and the node classes of identical nodes.
- :mod:`~aisched.online.lora.bound.twoclass`: exact pricing over at most two node classes
  without work units (counting cells).
"""
