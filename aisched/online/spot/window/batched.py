"""The batched window solver of (10) for the policy pool: many window problems per jitted call.

Computation only (no orchestration): :mod:`~aisched.online.spot.pool` decides
which problems to solve in a slot and calls :func:`solve_windows` (one problem
per lane) or :mod:`~aisched.online.spot.window.groups` (problems sharing one
forward pass); both use the forward step
(:func:`~aisched.online.spot.window.core.pointer_step`) and backtracking
(:func:`~aisched.online.spot.window.core.backtrack`) of
:mod:`~aisched.online.spot.window.core`, and :func:`finish` computes the utility (9)
with the kernel's own :func:`~aisched.online.spot.window.core.finish_utility`.
Everything here calls down into :mod:`~aisched.online.spot.window.core` and
:mod:`~aisched.online.spot.window.split` only.

The DP is the kernel's (:func:`~aisched.online.spot.window.core.window_dp`:
same value updates, same first-index argmax), restructured for a batch
(:func:`_batched_dp`: unrolled slots, reachable lattice prefix only, int8
back-pointers instead of value tables), tested bit for bit against the
kernel (``tests/online/spot/test_pool.py``).
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from aisched.online.spot.window import core
from aisched.online.spot.window.split import NEG, split_window_prefix

__all__ = ["BATCH", "FINISH_CHUNK", "SOLVER_KEYS", "cache_size", "finish", "padded_size", "solve_windows",
           "solve_windows_split"]

#: Problems per call of the batched window solver (one compiled kernel per window length). Small on
#: purpose: a batch's DP tables (16 x 17 x G doubles) stay in cache; per window 8x faster than 256
#: on the 2-core machine (identical results; benchmarks/bench_spot.py).
BATCH = 16
#: Problems per call of the split solver (:func:`solve_windows_split`): a problem's tables are
#: ``S^2 = 289`` rows of the lattice, so two already leave the cache (16 was ~3x slower per cell).
SPLIT_BATCH = 2
#: Lanes per call of :func:`finish` (every call has this shape: one compiled kernel for any run).
FINISH_CHUNK = 1024
SOLVER_KEYS = ("counts", "valid", "wq_up", "wq_down", "wq_same", "tie", "price_fc", "avail_fc", "scalars")


def _batched_dp(cost, tie, wq_up, wq_down, wq_same, prev_idx, term, shifts):
    """:func:`~aisched.online.spot.window.core.window_dp` for a batch (leading axis), ``mu_1 = mu_2``.

    Unrolled over the window's ``W`` slots (static, at most 6) with the batch
    inside each step, int8 back-pointers instead of value tables, and only the
    reachable lattice prefix per step: after ``i + 1`` slots the progress is at
    most ``(i + 1) G / W`` steps (``G = W x`` the per-slot maximum, see
    :func:`~aisched.online.spot.window.kernel.lattice_size`); the kernel's cells
    beyond it hold exactly ``NEG``, so the values, the argmax and the chosen
    counts are the kernel's (same first-index tie rule).
    """
    B, W, S = cost.shape
    G1 = term.shape[1]
    per = (G1 - 1) // W
    best = jnp.full((B, S, 1), NEG).at[jnp.arange(B), prev_idx, 0].set(0.0)
    keys = cost + tie
    step = jax.vmap(lambda b, k: core.pointer_step(b, k, shifts))
    pointers = []
    for i in range(W):
        width = (i + 1) * per + 1 if i < W - 1 else G1
        x = jnp.concatenate([best, jnp.full((B, S, width - best.shape[2]), NEG)], axis=2)
        best, ptr = step(x, keys[:, i])
        pointers.append(ptr)
    total = best + term[:, None, :]
    flat = jnp.argmax(total.reshape(B, -1), axis=1)
    n, g = flat // G1, flat % G1
    lane = jnp.arange(B)
    chosen = []
    for i in reversed(range(W)):
        chosen.append(n)
        p = core.backtrack(pointers[i], n, g, wq_up[lane, n], lane)
        w = jnp.where(p < n, wq_up[lane, n], jnp.where(p > n, wq_down[lane, n], wq_same[lane, n]))
        n, g = p, g - w
    return jnp.stack(chosen[::-1], axis=1), flat % G1


@partial(jax.jit, static_argnames=("W", "G", "shifts"))
def _solve_batch(jobs, t, z, prev, *, W: int, G: int, shifts):
    def inputs(job, z1, prev1):
        c = core.unpack_scalars(job["scalars"])
        return core.window_inputs(c, job, t, z1, prev1, W, G)

    if shifts[:2] != shifts[2:4] or jobs["counts"].shape[1] > 127:  # mu_1 != mu_2 (or no int8): the kernel's DP
        def one(job, z1, prev1):
            o, s, _ = core.solve_window_traced(core.unpack_scalars(job["scalars"]), job, t, z1, prev1, W, G, shifts)
            return o, s

        return jax.vmap(one)(jobs, z, prev)
    cost, tie, spot, term, prev_idx = jax.vmap(inputs)(jobs, z, prev)
    chosen, _ = _batched_dp(cost, tie, jobs["wq_up"], jobs["wq_down"], jobs["wq_same"], prev_idx, term,
                            shifts)
    n = jnp.take_along_axis(jobs["counts"], chosen, axis=1).astype(float)
    ns = jnp.take_along_axis(spot, chosen[:, :, None], axis=2)[:, :, 0]
    return n - ns, ns


def padded_size(n: int) -> int:
    """Problems actually solved for ``n`` distinct ones (whole batches of :data:`BATCH`)."""
    return -(-int(n) // BATCH) * BATCH


def solve_windows(stacked: dict[str, np.ndarray], job: np.ndarray, t: int, z: np.ndarray,
                  prev: np.ndarray, *, window: int, lattice: int,
                  shifts: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Exact optima of (10) for problems ``(job[i], t, z[i], prev[i])``: ``(on_demand, spot)`` ``(n, w + 1)``.

    ``stacked`` holds :func:`~aisched.online.spot.window.kernel.job_arrays` of
    all jobs along a leading axis. The problems go in batches of exactly
    :data:`BATCH` (the last one padded), dispatched before any result is read.
    ``lattice`` must be at least ``(window + 1)`` times the largest lattice steps
    of one slot (as :func:`~aisched.online.spot.window.kernel.lattice_size`
    gives); else ValueError.
    """
    job = np.asarray(job, np.int64)
    valid = stacked["valid"][job]
    per = max(int(np.where(valid, stacked[k][job], 0).max(initial=0)) for k in ("wq_up", "wq_down", "wq_same"))
    if per > lattice // (window + 1):  # _batched_dp keeps only the reachable lattice prefix per slot
        raise ValueError(f"lattice {lattice} < (window + 1) x the largest work per slot {per} (use lattice_size)")
    n = len(job)
    size = padded_size(n)
    pad = np.zeros(size, np.int64)
    pad[:n] = job
    zz = np.zeros(size)
    zz[:n] = z
    pp = np.zeros(size)
    pp[:n] = prev
    jobs = {k: stacked[k][pad] for k in SOLVER_KEYS}
    with jax.enable_x64(True):
        # NumPy arguments go straight to the jitted call (jit's own transfer; a jnp.asarray per argument
        # went through a staged primitive each, ~1/5 of the pool's time)
        tt = np.int64(t)
        outs = [_solve_batch({k: v[i:i + BATCH] for k, v in jobs.items()}, tt, zz[i:i + BATCH],
                             pp[i:i + BATCH], W=window + 1, G=lattice, shifts=tuple(shifts))
                for i in range(0, size, BATCH)]
        o = np.concatenate([np.asarray(x[0]) for x in outs])
        s = np.concatenate([np.asarray(x[1]) for x in outs])
        return o[:n], s[:n]


@partial(jax.jit, static_argnames=("W", "G", "shifts"))
def _solve_batch_split(jobs, t, z, prev_n, prev_s, *, W: int, G: int, shifts):
    def one(job, z1, pn, ps):
        c = core.unpack_scalars(job["scalars"])
        cost, tie, term = core.split_inputs(c, job, t, z1, W, G)
        cn, cs = split_window_prefix(cost, tie, job["wq_up"], job["wq_down"], job["wq_same"],
                                     pn.astype(jnp.int32), ps.astype(jnp.int32), term, shifts)
        n, s = job["counts"][cn].astype(float), cs.astype(float)
        return n - s, s

    return jax.vmap(one)(jobs, z, prev_n, prev_s)


def solve_windows_split(stacked: dict[str, np.ndarray], job: np.ndarray, t: int, z: np.ndarray,
                        prev: np.ndarray, prev_spot: np.ndarray, *, window: int, lattice: int,
                        shifts: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`solve_windows` with the changeover on: (10) over splits from ``(prev - prev_spot, prev_spot)``.

    The DP is :func:`~aisched.online.spot.window.split.split_window_prefix`
    (the kernel's split DP on the reachable lattice prefix), in batches of
    exactly :data:`SPLIT_BATCH` problems (one compiled kernel per window length).
    """
    job = np.asarray(job, np.int64)
    n = len(job)
    size = -(-n // SPLIT_BATCH) * SPLIT_BATCH
    pad = np.zeros(size, np.int64)
    pad[:n] = job
    zz, pn, ps = np.zeros(size), np.zeros(size), np.zeros(size)
    zz[:n], pn[:n], ps[:n] = z, prev, prev_spot
    jobs = {k: stacked[k][pad] for k in SOLVER_KEYS}
    with jax.enable_x64(True):
        tt = np.int64(t)
        B = SPLIT_BATCH
        outs = [_solve_batch_split({k: v[i:i + B] for k, v in jobs.items()}, tt, zz[i:i + B], pn[i:i + B],
                                   ps[i:i + B], W=window + 1, G=lattice, shifts=tuple(shifts))
                for i in range(0, size, B)]
        o = np.concatenate([np.asarray(x[0]) for x in outs])
        s = np.concatenate([np.asarray(x[1]) for x in outs])
        return o[:n], s[:n]


@jax.jit
def _finish_batch(scalars, price, od, sp, z, prev, done, completion):
    def one(s, p, *args):
        return core.finish_utility(core.unpack_scalars(s), {"price": p}, *args)

    return jax.vmap(one)(scalars, price, od, sp, z, prev, done, completion)


def finish(stacked: dict[str, np.ndarray], job: np.ndarray, od: np.ndarray, sp: np.ndarray, z: np.ndarray,
           prev: np.ndarray, done: np.ndarray, completion: np.ndarray) -> tuple[np.ndarray, ...]:
    """Utility (9) with the termination configuration per lane: ``(utility, T, k)``.

    The kernel's own :func:`~aisched.online.spot.window.core.finish_utility` (jitted, in chunks of exactly
    :data:`FINISH_CHUNK` lanes, the last one padded, so any run uses one
    compiled kernel), so the floating-point result is the kernel's.
    """
    n = len(job)
    size = -(-max(n, 1) // FINISH_CHUNK) * FINISH_CHUNK
    idx = np.zeros(size, np.int64)
    idx[:n] = np.arange(n)
    args = (stacked["scalars"][job][idx], stacked["price"][job][idx], od[idx], sp[idx], z[idx], prev[idx],
            done[idx], completion[idx])
    with jax.enable_x64(True):
        outs = [_finish_batch(*(jnp.asarray(a[i:i + FINISH_CHUNK]) for a in args))
                for i in range(0, size, FINISH_CHUNK)]
        return tuple(np.concatenate([np.asarray(o[k]) for o in outs])[:n] for k in range(3))


def cache_size() -> int:
    """Compiled entries of the batched solver and the utility (a sweep of equal shape must not grow it)."""
    return _solve_batch._cache_size() + _solve_batch_split._cache_size() + _finish_batch._cache_size()
