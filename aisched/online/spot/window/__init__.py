"""The windowed problem (10) of AHAP (Algorithm 1): plan the GPU counts of the next ``w + 1`` slots.

At every slot ``t`` AHAP looks ahead over a window of slots (the pseudocode's
``tau in [t, t + w]``, here ``t..e`` with ``e = min(t + w, d - 1)``: clipped at the
soft deadline, because the slots from ``d`` on belong to the termination
configuration) and picks a GPU count per slot of the window (its spot/on-demand
split cost-optimal) that maximises the value ``V~`` of (9) at the window's end less
the window's cost; a window ending before the deadline is valued at ``V~(Z_end + F)``
with ``F`` the reference work of the slots after it (uniform slicing (6)), so (10)
"compensates the shortfall within the window". The references of AHANP
(Algorithm 3) live here too.

The modules (calls go one way: groups and batched, like kernel, call down into core and split;
core into split; split and kernel read reference's constants):

- :mod:`~aisched.online.spot.window.reference`: plain NumPy references of (10), AHAP
  and AHANP, line by line (the readings where the paper is open, the tie-break).
- :mod:`~aisched.online.spot.window.kernel`: the JAX kernels, (10) by an exact lattice
  DP, AHAP and AHANP vmapped over decision slots.
- :mod:`~aisched.online.spot.window.split`: (10) with ``changeover="on"``, the lattice
  DP over ``(count, spot)`` splits.
- :mod:`~aisched.online.spot.window.core`: the traced pieces the kernels share
  (scalar helpers, the DP of (10), utility (9)).
- :mod:`~aisched.online.spot.window.batched`: many window problems per jitted call,
  for the policy pool (:mod:`~aisched.online.spot.pool`).
- :mod:`~aisched.online.spot.window.groups`: windows that share one forward DP
  (same job, slot and previous count).
"""
