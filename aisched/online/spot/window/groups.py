"""Windows (10) that share one forward DP: same job, slot and previous count, any progress and length.

In the pool (:mod:`~aisched.online.spot.pool`) the distinct window problems of
a slot ``t`` are ``(W', job, Z, n_prev)``. The forward pass of the window DP
(:func:`~aisched.online.spot.window.batched._batched_dp`) reads only the job, ``t``, the
previous count (the initial row) and the window's slots; the progress ``Z``
and the window's end enter only through the terminal values ``V~(Z + g q + F)``
added after the last step. And the forward pass of a ``W``-slot window, after
its first ``W' <= W`` steps, *is* the forward pass of the ``W'``-slot window:
same slot costs (every slot of an unclipped or deadline-clipped window lies
before the deadline), same tie-break rows, same reachable lattice prefix
``(i + 1) x lattice_step + 1`` after step ``i``. So one forward pass per
``(job, t, n_prev)``, run for the longest window that group needs, serves all
its problems: each reads the tables of its own step ``W' - 1``, adds its own
terminal values, takes the argmax and backtracks through the shared
back-pointers. On the 1000-job benchmark this cuts the DP cells to about 37 %
(benchmarks/bench_spot.py prints the counts).

Same results as solving each problem alone: the values are computed by the
same operations in the same order, and the final argmax over ``(n, g)`` is
taken as "best ``g`` of the per-column maxima, then the first ``n``" instead of
the first flat index; the two differ only on an exact tie between two
different plans, which the generic tie-break perturbation (``TIE_BREAK``)
excludes (tested against the per-problem solver bit for bit, and on the
1000 x 112 benchmark).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from aisched.online.spot.window import core
from aisched.online.spot.window.split import NEG, split_back_lanes, split_init, split_step, split_top2

__all__ = ["LANES", "PROBLEMS", "SPLIT_LANES", "SPLIT_PROBLEMS", "plan_batches", "solve_grouped", "cache_size"]

#: Forward passes (groups) per call: small so a batch's DP tables stay in cache (as ``batched.BATCH``).
LANES = 16
#: Window problems per call (each reads one of the call's forward passes).
PROBLEMS = 64
#: Forward passes and problems per call over splits (changeover on): a pass keeps 217 rows (``S = 17``,
#: folded) of tables for the backtracking, so few passes a call (cache; as ``batched.SPLIT_BATCH``;
#: 2 / 16 was faster than 1 / 8, 4 / 32 and 8 / 64 on 10 jobs before the fold, docs/readings/spot.md S7).
SPLIT_LANES = 2
SPLIT_PROBLEMS = 16
#: Threads that run a slot's calls (an option): each call runs on one core and they are
#: independent, so the results are the same for any number. 1 (default): one thread, as before; the gain
#: of 2 was not shown at 1000 jobs on the loaded 2-core machine (docs/readings/spot.md S9). ``AISCHED_SPOT_THREADS``.
THREADS = max(1, int(os.environ.get("AISCHED_SPOT_THREADS", "1")))


def _forward(cost, tie, prev_idx, G1: int, shifts):
    """Forward pass of the pool's batched DP; per step: back-pointers, column maxima and their first row."""
    B, W, S = cost.shape
    per = (G1 - 1) // W
    best = jnp.full((B, S, 1), NEG).at[jnp.arange(B), prev_idx, 0].set(0.0)
    keys = cost + tie
    step = jax.vmap(lambda b, k: core.pointer_step(b, k, shifts))
    pointers, colmax, colarg = [], [], []
    for i in range(W):
        width = (i + 1) * per + 1
        x = jnp.concatenate([best, jnp.full((B, S, width - best.shape[2]), NEG)], axis=2)
        best, ptr = step(x, keys[:, i])
        pointers.append(ptr)
        colmax.append(jnp.max(best, axis=1))
        colarg.append(jnp.argmax(best, axis=1))
    return pointers, colmax, colarg


@partial(jax.jit, static_argnames=("W", "G", "shifts"))
def _solve_grouped(jobs, t, prev, lane, size, z, *, W: int, G: int, shifts):
    """``LANES`` forward passes of ``W`` slots and ``PROBLEMS`` problems ``(lane, size W', progress z)``."""
    def inputs(job, prev1):
        c = core.unpack_scalars(job["scalars"])
        return core.window_inputs(c, job, t, jnp.asarray(0.0), prev1, W, G)

    cost, tie, spot, _, prev_idx = jax.vmap(inputs)(jobs, prev)
    G1 = G + 1
    pointers, colmax, colarg = _forward(cost, tie, prev_idx, G1, shifts)
    per = G // W

    term = _terminal(jobs["scalars"][lane], z, size, t, G1)
    P = lane.shape[0]
    n = jnp.zeros(P, jnp.int64)
    g = jnp.zeros(P, jnp.int64)
    chosen = []
    wq_up, wq_down, wq_same = jobs["wq_up"], jobs["wq_down"], jobs["wq_same"]
    for i in reversed(range(W)):
        width = (i + 1) * per + 1
        total = colmax[i][lane] + term[:, :width]
        g_i = jnp.argmax(total, axis=1)
        n_i = jnp.take_along_axis(colarg[i][lane], g_i[:, None], axis=1)[:, 0]
        start = size == i + 1
        n, g = jnp.where(start, n_i, n), jnp.where(start, g_i, g)
        active = i < size
        chosen.append(jnp.where(active, n, 0))
        p = core.backtrack(pointers[i], n, g, wq_up[lane, n], lane)
        w = jnp.where(p < n, wq_up[lane, n], jnp.where(p > n, wq_down[lane, n], wq_same[lane, n]))
        n, g = jnp.where(active, p, n), jnp.where(active, g - w, g)
    chosen = jnp.stack(chosen[::-1], axis=1)
    inside = jnp.arange(W)[None, :] < size[:, None]
    counts = jnp.take_along_axis(jobs["counts"][lane], chosen, axis=1).astype(float)
    ns = jnp.take_along_axis(spot[lane], chosen[:, :, None], axis=2)[:, :, 0]
    return jnp.where(inside, counts - ns, 0.0), jnp.where(inside, ns, 0.0)


def _terminal(scalars, z, size, t, G1: int):
    """(problem, G1) each problem's terminal value V~ over the lattice (the per-problem solver's term, same operations)."""
    def one(scalars1, z1, w1):
        c = core.unpack_scalars(scalars1)
        e = jnp.minimum(t + w1 - 1, c.d - 1)
        rest = c.work / c.d * (c.d - 1 - e)
        return core.vtilde(c, z1 + jnp.arange(G1) * c.q + rest)

    return jax.vmap(one)(scalars, z, size)


@partial(jax.jit, static_argnames=("W", "G", "shifts"))
def _solve_grouped_split(jobs, t, prev, prev_s, lane, size, z, *, W: int, G: int, shifts):
    """:func:`_solve_grouped` over splits (changeover on): passes from ``(prev, prev_s)``, problems as there."""
    def inputs(job):
        c = core.unpack_scalars(job["scalars"])
        return core.split_inputs(c, job, t, jnp.asarray(0.0), W, G)

    cost, tie, _ = jax.vmap(inputs)(jobs)
    B, _, S, _ = cost.shape
    G1 = G + 1
    per = G // W
    best = jax.vmap(lambda n, s: split_init(S, n, s))(prev.astype(jnp.int32), prev_s.astype(jnp.int32))
    keys = cost + tie
    top2 = jax.vmap(split_top2)(best)  # best, its first (n, s) index and the runner-up, per column
    tables, colmax, colarg = [], [], []
    for i in range(W):
        width = (i + 1) * per + 1
        tables.append(best)
        best = jax.vmap(lambda b, k, t2, width=width: split_step(b, k, shifts, t2, width))(best, keys[:, i], top2)
        top2 = jax.vmap(split_top2)(best)  # the next step's "changed" branch and this step's column maxima
        colmax.append(top2[0])
        colarg.append(top2[1])

    term = _terminal(jobs["scalars"][lane], z, size, t, G1)
    P = lane.shape[0]
    n = s = g = jnp.zeros(P, jnp.int64)
    wq = [jobs[k][lane] for k in ("wq_up", "wq_down", "wq_same")]
    chosen_n, chosen_s = [], []
    for i in reversed(range(W)):
        width = (i + 1) * per + 1
        g_i = jnp.argmax(colmax[i][lane] + term[:, :width], axis=1)
        k_i = jnp.take_along_axis(colarg[i][lane], g_i[:, None], axis=1)[:, 0]
        start = size == i + 1
        n, s, g = jnp.where(start, k_i // S, n), jnp.where(start, k_i % S, s), jnp.where(start, g_i, g)
        active = i < size
        chosen_n.append(jnp.where(active, n, 0))
        chosen_s.append(jnp.where(active, s, 0))
        pn, ps, pg = split_back_lanes(tables[i], lane, n, s, g, *wq)
        n, s, g = jnp.where(active, pn, n), jnp.where(active, ps, s), jnp.where(active, pg, g)
    cn = jnp.stack(chosen_n[::-1], axis=1)
    cs = jnp.stack(chosen_s[::-1], axis=1).astype(float)
    inside = jnp.arange(W)[None, :] < size[:, None]
    counts = jnp.take_along_axis(jobs["counts"][lane], cn, axis=1).astype(float)
    return jnp.where(inside, counts - cs, 0.0), jnp.where(inside, cs, 0.0)


def plan_batches(group: np.ndarray, group_size: np.ndarray, lanes_max: int = LANES,
                 problems_max: int = PROBLEMS) -> tuple[np.ndarray, np.ndarray, int]:
    """Pack problems (sorted by ``group``) into calls of at most ``LANES`` passes and ``PROBLEMS`` problems.

    ``group``: the group (forward pass) of each problem, non-decreasing;
    ``group_size``: problems per group. A group of more than ``PROBLEMS``
    problems is split over several passes. Returns ``(call, lane)`` per problem
    and the number of calls. ``lanes_max``, ``problems_max``: the limits
    (:data:`SPLIT_LANES`, :data:`SPLIT_PROBLEMS` over splits).
    """
    LANES, PROBLEMS = lanes_max, problems_max  # noqa: N806
    call = np.zeros(len(group), np.int64)
    lane = np.zeros(len(group), np.int64)
    c = lanes = probs = i = 0
    for size in group_size.tolist():
        while size:
            take = min(size, PROBLEMS)
            if lanes == LANES or probs + take > PROBLEMS:
                c, lanes, probs = c + 1, 0, 0
            call[i:i + take], lane[i:i + take] = c, lanes
            lanes, probs, i, size = lanes + 1, probs + take, i + take, size - take
    return call, lane, c + 1 if len(group) else 0


def solve_grouped(stacked: dict[str, np.ndarray], keys: tuple[str, ...], job: np.ndarray, t: int,
                  z: np.ndarray, prev: np.ndarray, size: np.ndarray, *, lattice_step: int,
                  shifts: tuple[int, ...],
                  prev_spot: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Exact optima of (10) for problems ``(job[i], t, z[i], prev[i])`` of ``size[i]`` slots.

    Returns ``(on_demand, spot)`` of shape ``(n, max(size))`` (zeros past a
    problem's size) and counts: forward passes, calls. ``keys``: the job
    arrays the solver reads. Requires ``mu_1 = mu_2`` (the int8 back-pointers
    of :func:`~aisched.online.spot.window.core.pointer_step`). With
    ``prev_spot`` (changeover on) the problems plan over splits from
    ``(prev - prev_spot, prev_spot)`` and share a pass per ``(job, prev,
    prev_spot)`` (:func:`_solve_grouped_split`, any ``mu_1, mu_2``).
    """
    split = prev_spot is not None
    lanes_max, problems_max = (SPLIT_LANES, SPLIT_PROBLEMS) if split else (LANES, PROBLEMS)
    prev_spot = np.zeros(len(job)) if prev_spot is None else prev_spot
    n = len(job)
    Wg = int(size.max()) if n else 0
    out_o = np.zeros((n, Wg))
    out_s = np.zeros((n, Wg))
    stats = {"passes": 0, "calls": 0}
    if not n:
        return out_o, out_s, stats
    gkey = np.stack([job, prev.view(np.int64), prev_spot.view(np.int64)], 1)
    _, gid = np.unique(gkey, axis=0, return_inverse=True)
    gid = gid.reshape(-1)
    wmax = np.zeros(gid.max() + 1, np.int64)
    np.maximum.at(wmax, gid, size)
    pending = []
    with jax.enable_x64(True):
        for W in np.unique(wmax).tolist():
            sel = np.flatnonzero(wmax[gid] == W)
            sel = sel[np.argsort(gid[sel], kind="stable")]
            _, counts = np.unique(gid[sel], return_counts=True)
            call, lane, ncalls = plan_batches(gid[sel], counts, lanes_max, problems_max)
            first = np.flatnonzero(np.r_[True, (np.diff(call) != 0) | (np.diff(lane) != 0)])
            stats["passes"] += len(first)
            stats["calls"] += ncalls
            lane_job = np.zeros((ncalls, lanes_max), np.int64)
            lane_prev = np.zeros((ncalls, lanes_max))
            lane_prev_s = np.zeros((ncalls, lanes_max))
            lane_job[call[first], lane[first]] = job[sel[first]]
            lane_prev[call[first], lane[first]] = prev[sel[first]]
            lane_prev_s[call[first], lane[first]] = prev_spot[sel[first]]
            bounds = np.searchsorted(call, np.arange(ncalls + 1), side="left")
            slot = np.arange(len(sel)) - bounds[call]
            p_lane = np.zeros((ncalls, problems_max), np.int64)
            p_size = np.ones((ncalls, problems_max), np.int64)
            p_z = np.zeros((ncalls, problems_max))
            p_lane[call, slot], p_size[call, slot], p_z[call, slot] = lane, size[sel], z[sel]
            tt = np.int64(t)

            def call_one(c, W=W, lane_job=lane_job, lane_prev=lane_prev, lane_prev_s=lane_prev_s, p_lane=p_lane,
                         p_size=p_size, p_z=p_z):
                jobs = {k: stacked[k][lane_job[c]] for k in keys}
                with jax.enable_x64(True):  # thread-local: a worker thread sets it itself
                    if split:
                        return _solve_grouped_split(jobs, tt, lane_prev[c], lane_prev_s[c], p_lane[c], p_size[c],
                                                    p_z[c], W=W, G=W * int(lattice_step), shifts=tuple(shifts))
                    return _solve_grouped(jobs, tt, lane_prev[c], p_lane[c], p_size[c], p_z[c], W=W,
                                          G=W * int(lattice_step), shifts=tuple(shifts))

            pending += [(sel[bounds[c]:bounds[c + 1]], W, call_one, c) for c in range(ncalls)]
        if THREADS > 1 and len(pending) > 1:  # XLA runs one call on one core; the calls are independent
            def run(p):
                with jax.enable_x64(True):
                    o, s = p[2](p[3])
                    return np.asarray(o), np.asarray(s)

            with ThreadPoolExecutor(THREADS) as pool:
                results = list(pool.map(run, pending))
        else:  # dispatch every call, then read (JAX's asynchronous dispatch overlaps them with this loop)
            results = [p[2](p[3]) for p in pending]
        for (rows, W, _, _), (o, s) in zip(pending, results):
            k = len(rows)
            out_o[rows, :W] = np.asarray(o)[:k]
            out_s[rows, :W] = np.asarray(s)[:k]
    return out_o, out_s, stats


def cache_size() -> int:
    """Compiled entries of the grouped solver (a sweep of equal shape must not grow it)."""
    return _solve_grouped._cache_size() + _solve_grouped_split._cache_size()
