"""Shared internals of the spot window kernels: the scalar helpers, the DP of (10) and utility (9).

Internal to :mod:`aisched.online.spot`: the pieces that :mod:`~aisched.online.spot.window.kernel`
(AHAP, AHANP, one window), :mod:`~aisched.online.spot.window.batched` (many windows per
call) and :mod:`~aisched.online.spot.window.groups` (windows sharing one forward pass) all
trace, so that every path runs the same operations in the same order (the pool's results
are bit-identical to the kernel's). All functions are traced (called inside ``jit`` /
``vmap``); none is jitted here. Calls go down only: this module imports
:mod:`~aisched.online.spot.window.split` and :mod:`~aisched.online.spot.window.reference`.

- :class:`JobScalars` / :func:`unpack_scalars`: a job's scalars, typed (a NamedTuple, so a
  JAX pytree) instead of a string-keyed dict.
- :func:`slot_throughput`, :func:`efficiency` (2), :func:`value_at`, :func:`term_slots`,
  :func:`vtilde`: the paper's scalar functions.
- :func:`window_dp`, :func:`window_inputs`, :func:`solve_window_traced`: (10) by the exact
  lattice DP (see :mod:`~aisched.online.spot.window.kernel`); :func:`split_inputs`,
  :func:`solve_window_split_traced`: the same over splits (changeover on).
- :func:`finish_utility`: utility (9) with the termination configuration.
- :func:`pointer_step`, :func:`backtrack`: the batched DP's forward step with int8
  back-pointers and its backtracking (``mu_1 = mu_2``).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from aisched.online.spot.window.split import BIG, NEG, shear, split_tie, split_window_dp

__all__ = ["JobScalars", "unpack_scalars", "slot_throughput", "efficiency", "value_at", "term_slots", "vtilde",
           "window_dp", "window_inputs", "solve_window_traced", "split_inputs", "solve_window_split_traced",
           "finish_utility", "pointer_step", "backtrack"]


# ----------------------------------------------------------------- scalar helpers
class JobScalars(NamedTuple):
    """A job's scalars (the ``"scalars"`` row of :func:`~aisched.online.spot.window.kernel.job_arrays`), traced.

    ``work`` (``W``), ``alpha``/``beta`` (``H(n) = alpha n + beta``), ``mu1``/``mu2``
    (scale-up / scale-down efficiency), ``p_o`` (on-demand price), ``nmin``/``nmax``,
    ``value``, ``gamma`` (hard-deadline factor), ``q`` (lattice quantum), ``d`` (deadline).
    """

    work: jax.Array
    alpha: jax.Array
    beta: jax.Array
    mu1: jax.Array
    mu2: jax.Array
    p_o: jax.Array
    nmin: jax.Array
    nmax: jax.Array
    value: jax.Array
    gamma: jax.Array
    q: jax.Array
    d: jax.Array


def unpack_scalars(s: jax.Array) -> JobScalars:
    """The :class:`JobScalars` of a ``"scalars"`` row (same order as ``job_arrays`` writes it)."""
    return JobScalars(*(s[i] for i in range(len(JobScalars._fields))))


def slot_throughput(c: JobScalars, n: jax.Array) -> jax.Array:
    return jnp.where(n > 0, c.alpha * n + c.beta, 0.0)


def efficiency(c: JobScalars, n: jax.Array, prev: jax.Array) -> jax.Array:
    return jnp.where(n > prev, c.mu1, jnp.where(n < prev, c.mu2, 1.0))


def value_at(c: JobScalars, t: jax.Array) -> jax.Array:
    d, g, v = c.d, c.gamma, c.value
    mid = v * (1.0 - (t - d) / ((g - 1.0) * d))
    return jnp.where(t <= d, v, jnp.where(t < g * d, mid, 0.0))


def term_slots(c: JobScalars, r: jax.Array, mu: jax.Array) -> jax.Array:
    full = slot_throughput(c, c.nmax)
    rest = jnp.ceil(jnp.maximum(r - mu * full, 0.0) / full - 1e-9)
    return jnp.where(r <= 1e-9, 0.0, 1.0 + jnp.maximum(rest, 0.0))


def vtilde(c: JobScalars, z: jax.Array) -> jax.Array:
    k = term_slots(c, c.work - z, c.mu1)
    return value_at(c, c.d + k) - k * c.nmax * c.p_o


# ----------------------------------------------------------------- problem (10)
def window_dp(cost, tie, wq_up, wq_down, wq_same, prev_idx, term, shifts):
    """Exact DP of (10): ``cost, tie`` (W, S), ``wq_*`` (S,), ``term`` (G+1,) -> chosen count per slot.

    ``shifts``: static ``(a_up, b_up, a_down, b_down, a_same, b_same)`` with
    ``wq_*[n] = a n + b`` for ``n >= 1`` (see :func:`shifts_of`).
    """
    a_up, b_up, a_down, b_down, a_same, b_same = shifts
    S, G1 = cost.shape[1], term.shape[0]
    init = jnp.full((S, G1), NEG).at[prev_idx, 0].set(0.0)
    neg_row = jnp.full((1, G1), NEG)

    rows = jnp.arange(S)[:, None]

    def step(best, key):
        if (a_up, b_up) == (a_down, b_down):  # mu_1 == mu_2: "count changed" = max over prev != n
            # the largest and second largest value over the previous count (exact maxima)
            top = jnp.argmax(best, axis=0)
            first = jnp.max(best, axis=0)
            second = jnp.max(jnp.where(rows == top[None, :], NEG, best), axis=0)
            others = jnp.where(rows == top[None, :], second[None, :], first[None, :])
            new = jnp.maximum(shear(others, a_up, b_up), shear(best, a_same, b_same)) - key[:, None]
            return jnp.maximum(new, NEG), best
        # prefix / suffix maxima over the previous count (associative_scan: XLA's cummax
        # lowers to an O(S^2) reduce_window on CPU)
        pre = jax.lax.associative_scan(jnp.maximum, best, axis=0)
        suf = jax.lax.associative_scan(jnp.maximum, best, axis=0, reverse=True)
        pre_ex = jnp.concatenate([neg_row, pre[:-1]], 0)
        suf_ex = jnp.concatenate([suf[1:], neg_row], 0)
        changed = jnp.maximum(shear(pre_ex, a_up, b_up), shear(suf_ex, a_down, b_down))
        new = jnp.maximum(changed, shear(best, a_same, b_same)) - key[:, None]
        return jnp.maximum(new, NEG), best

    final, tables = jax.lax.scan(step, init, cost + tie)
    total = final + term[None, :]
    flat = jnp.argmax(total)
    s_end, g_end = flat // G1, flat % G1
    idx = jnp.arange(S)

    def back(carry, table):
        n, g = carry
        w = jnp.where(idx < n, wq_up[n], jnp.where(idx > n, wq_down[n], wq_same[n]))
        gp = g - w
        val = jnp.where(gp >= 0, table[idx, jnp.maximum(gp, 0)], NEG)
        s = jnp.argmax(val)
        return (s, gp[s]), n

    _, chosen = jax.lax.scan(back, (s_end, g_end), tables, reverse=True)
    return chosen, g_end


def window_inputs(c, job, t, z, prev, W: int, G: int):
    """Costs, terminal table and split for the window of slot ``t`` (traced)."""
    counts, valid = job["counts"], job["valid"]
    d = c.d
    tau = jnp.arange(W)
    e = jnp.minimum(t + W - 1, d - 1)
    inside = t + tau <= e
    price = job["price_fc"][t, :W]
    avail = job["avail_fc"][t, :W]
    n = counts[None, :].astype(float)
    spot = jnp.where(price[:, None] < c.p_o, jnp.minimum(n, avail[:, None]), 0.0)
    cost = spot * price[:, None] + (n - spot) * c.p_o
    ok = valid[None, :] & (inside[:, None] | (counts[None, :] == 0))
    cost = jnp.where(ok, jnp.where(inside[:, None], cost, 0.0), BIG)
    spot = jnp.where(inside[:, None], spot, 0.0)
    rest = c.work / d * (d - 1 - e)
    term = vtilde(c, z + jnp.arange(G + 1) * c.q + rest)
    prev_idx = prev.astype(jnp.int32)
    return cost, job["tie"][:W], spot, term, prev_idx


def solve_window_traced(c, job, t, z, prev, W: int, G: int, shifts):
    cost, tie, spot, term, prev_idx = window_inputs(c, job, t, z, prev, W, G)
    chosen, g_end = window_dp(cost, tie, job["wq_up"], job["wq_down"], job["wq_same"], prev_idx, term,
                               shifts)
    n = job["counts"][chosen].astype(float)
    ns = spot[jnp.arange(W), chosen]
    value = term[g_end] - jnp.sum(cost[jnp.arange(W), chosen])
    return n - ns, ns, value


def split_inputs(c, job, t, z, W: int, G: int):
    """Costs ``(W, S, S)`` over the splits ``(n, s)``, their tie-break and the terminal table (changeover on).

    Every split of every count is a choice (as
    :func:`~aisched.online.spot.window.reference.window_splits`): ``s <= min(n,
    n^avail)``; slots past the deadline allow only ``(0, 0)``.
    """
    counts, valid = job["counts"], job["valid"]
    S = counts.shape[0]
    d = c.d
    e = jnp.minimum(t + W - 1, d - 1)
    inside = (t + jnp.arange(W) <= e)[:, None, None]
    price = job["price_fc"][t, :W][:, None, None]
    avail = job["avail_fc"][t, :W][:, None, None]
    n = counts[None, :, None].astype(float)
    s = jnp.arange(S)[None, None, :].astype(float)
    cost = s * price + (n - s) * c.p_o
    ok = valid[None, :, None] & (s <= n) & (s <= avail)
    cost = jnp.where(inside, jnp.where(ok, cost, BIG), jnp.where((n == 0) & (s == 0), 0.0, BIG))
    rest = c.work / d * (d - 1 - e)
    term = vtilde(c, z + jnp.arange(G + 1) * c.q + rest)
    return cost, jnp.asarray(split_tie(W, S)), term


def solve_window_split_traced(c, job, t, z, prev_o, prev_s, W: int, G: int, shifts):
    """(10) with the changeover from the previous split ``(prev_o, prev_s)``: ``(on_demand, spot, value)``."""
    cost, tie, term = split_inputs(c, job, t, z, W, G)
    pn, ps = (prev_o + prev_s).astype(jnp.int32), prev_s.astype(jnp.int32)
    cn, cs, g_end = split_window_dp(cost, tie, job["wq_up"], job["wq_down"], job["wq_same"], pn, ps, term,
                                    shifts)
    value = term[g_end] - jnp.sum(cost[jnp.arange(W), cn, cs])
    n, s = job["counts"][cn].astype(float), cs.astype(float)
    return n - s, s, value


# ----------------------------------------------------------------- utility (9)
def finish_utility(c, job, od, sp, z, prev, done, completion):
    """Utility (9) with the termination configuration; returns ``(utility, T, k)``."""
    mu = jnp.where(prev < c.nmax, c.mu1, 1.0)
    k = jnp.where(done, 0.0, term_slots(c, c.work - z, mu))
    T = jnp.where(done, completion + 1.0, c.d + k)
    slot_cost = od * c.p_o + sp * job["price"]
    # sequential sum (a fori_loop), so that every compiled context adds in the same order
    spent = jax.lax.fori_loop(1, slot_cost.shape[0], lambda i, acc: acc + slot_cost[i], slot_cost[0])
    cost = spent + k * c.nmax * c.p_o
    return value_at(c, T) - cost, T, k


# ----------------------------------------------------------------- the batched DP's step (mu_1 = mu_2)
def pointer_step(best, key, shifts):
    """One forward step of the (10) DP for ``mu_1 = mu_2``: new values and back-pointer data.

    Values: exactly the kernel's ``step`` (max over the previous count ``!= n``
    of the sheared table, max with "same count", minus the slot cost). The
    kernel's backtracking picks, at state ``(n, g)``, the first index ``s``
    maximising ``best[s, g - shift(s, n)]``; it is recovered from ``kind``
    (0: the same count wins, 1: a changed count wins, 2: a tie) and, per
    column ``g'`` of ``best``, the first and second-best previous counts
    ``top[g']``, ``top2[g']`` (:func:`backtrack`).
    """
    a, b, _, _, a_same, b_same = shifts
    S = best.shape[0]
    rows = jnp.arange(S)[:, None]
    top = jnp.argmax(best, axis=0)
    first = jnp.max(best, axis=0)
    hit = rows == top[None, :]
    masked = jnp.where(hit, NEG, best)
    second = jnp.max(masked, axis=0)
    top2 = jnp.argmax(masked, axis=0)
    changed = shear(jnp.where(hit, second[None, :], first[None, :]), a, b)
    same = shear(best, a_same, b_same)
    kind = jnp.where(same > changed, 0, jnp.where(changed > same, 1, 2)).astype(jnp.int8)
    new = jnp.maximum(changed, same) - key[:, None]
    return jnp.maximum(new, NEG), (kind, top.astype(jnp.int8), top2.astype(jnp.int8))


def backtrack(pointer, n, g, chg, lane):
    """Previous count at state ``(n, g)`` (batch of states) from :func:`pointer_step`'s data."""
    kind, top, top2 = pointer
    k = kind[lane, n, g]
    col = jnp.maximum(g - chg, 0)
    t1 = top[lane, col].astype(n.dtype)
    other = jnp.where(t1 != n, t1, top2[lane, col].astype(n.dtype))
    return jnp.where(k == 0, n, jnp.where(k == 1, other, jnp.minimum(n, other)))
