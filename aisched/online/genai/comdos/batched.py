"""Algorithm 2 over many schedule options at once, sharing what the options share.

An option ``h in H`` fixes the edge and model of every multi-child ("fan-out")
task; ``|H| = prod (K |M_ij|)`` over them. In the DP of
:mod:`aisched.online.genai.comdos.kernel` the start-exact costs ``E_j`` of a
task depend on ``h`` only through the fixings of the fan-out tasks among its
ancestors (its *key*); its own fixing only masks ``E_j`` (a select, which
commutes with the prefix minimum ``F_j``). So each task is evaluated once per
distinct key, not once per option: a job with two fan-out tasks of 30
fixings each (900 options) evaluates the first fan-out's children 30 times,
the second's 900 times but only the sinks' minima, never 900 full DPs.

Per task (execution order, a Python loop over at most ``J`` tasks), one
jitted call vmapped over its keys, padded to a power-of-two bucket (static
shapes: a bounded set of compiled variants per instance, none per job):

* the arrival term ``sum_{j'} min_{k', m'} {...}`` (line 9) from the parents'
  contributions, added in parent order as the kernel does;
* a fan-out parent's contribution is read from its ``F`` at the key's fixing
  ``(k', m')``: ``F_j'[k', m', s - f_{m'}]`` (or 0 / inf when ``j != R_j'``), plus
  ``w_p h e^p_{k'}`` on every other edge ``k`` -- the kernel's first/second
  minimum reduces to exactly this sum when one ``(k', m')`` is finite;
* a sink keeps only ``min E`` (its ``F`` at the last slot), a task with one
  child only its contribution to that child, a fan-out task its ``F``.

``P(h) = b_i - sum_{sinks} min E_j[key_j(h)]`` is then summed per option the
way the kernel sums it, so the values (and the first-maximum option) are the
kernel's, bit for bit (tests/online/genai/test_comdos_batched.py); the chosen
option's table for the backtrack is recomputed by the kernel alone.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from aisched.online.genai.comdos import kernel

__all__ = ["evaluate_options", "cache_size"]

_INF = np.inf


def _bucket(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def _carry(shifted, is_r):
    return jnp.where(is_r, shifted, jnp.where(jnp.isfinite(shifted), 0.0, _INF))


def _fanout_rows(table_f, key, fix_edge, fix_choice, runtime, is_r):
    """(U, T): a fan-out parent's carried ``F_j'[k', m', s - f_{m'}]`` (or 0 / inf) per child key.

    ``table_f`` (Uq, K, C, T) the parent's prefix minima per parent key; ``key``,
    ``fix_edge``, ``fix_choice`` (U,) the parent key and fixing of each child key;
    ``runtime`` (C,) the parent's ``f``.
    """
    n_slots = table_f.shape[3]
    row = table_f[key, fix_edge, fix_choice]  # (U, T)
    f = runtime[fix_choice]  # (U,)
    src = jnp.arange(n_slots)[None, :] - f[:, None]
    shifted = jnp.where(src >= 0, jnp.take_along_axis(row, jnp.maximum(src, 0), axis=1), _INF)
    return _carry(shifted, is_r)


def _single_contrib(table_e, runtime, is_r, comm):
    """(K, T): a one-child task's term for its child (the kernel's ``via_parent`` on one key).

    Reads ``E`` (K, C, T), not ``F``: ``min_c F_c[s - f_c] = cummin_s(min_c E_c[s - f_c])``
    (minima only, so the same values bit for bit), one prefix minimum over (K, T).
    """
    n_edges, n_choices, n_slots = table_e.shape
    padded = jnp.concatenate([jnp.full_like(table_e, _INF), table_e], axis=2)
    shifted = jnp.min(jnp.stack([jax.lax.dynamic_slice_in_dim(padded[:, c], n_slots - runtime[c], n_slots, axis=1)
                                 for c in range(n_choices)], axis=1), axis=1)  # (K, T)
    best = _carry(jax.lax.cummin(shifted, axis=1), is_r)
    edge_ids = jnp.arange(n_edges)
    moved = best + comm[:, None]
    first = jnp.argmin(moved, axis=0)
    is_first = edge_ids[:, None] == first[None, :]
    second = jnp.min(jnp.where(is_first, _INF, moved), axis=0)
    other = jnp.where(is_first, second[None, :], jnp.min(moved, axis=0)[None, :])
    return jnp.minimum(best, other)


@partial(jax.jit, static_argnames=("role", "kinds"))
def _task(own_all, position, parents, child, *, role: str, kinds: tuple[str, ...]):
    """One task over its keys: ``E = own + arrive`` (U, K, C, T) and what its children need.

    ``parents``: per real parent (in the kernel's parent order), for ``kinds[q] ==
    "fanout"`` a tuple (parent F (Uq, K, C, T), parent key (U,), fixed edge (U,),
    fixed choice (U,), parent runtime (C,), is_r, comm (K,)) and for ``"single"``
    (the parent's term per parent key (Uq, K, T), parent key (U,)). ``role``: ``"sink"`` -> (U,)
    ``min E``; ``"fanout"`` -> (U, K, C, T) ``F``; ``"single"`` -> (U, K, T) the term
    for the only child (``child`` = its (runtime, is_r, comm)).
    """
    own_p = jax.lax.dynamic_index_in_dim(own_all, position, axis=0, keepdims=False)  # (K, C, T)
    n_edges = own_p.shape[0]
    if role == "sink" and kinds == ("fanout",):  # one fan-out parent: O(U T) instead of O(U K C T)
        table_f, key, fix_edge, fix_choice, runtime, is_r, comm = parents[0]
        g = 0.0 + _fanout_rows(table_f, key, fix_edge, fix_choice, runtime, is_r)  # (U, T)
        own_min = jnp.min(own_p, axis=1)  # (K, T)
        is_k = jnp.arange(n_edges)[:, None] == jnp.arange(n_edges)[None, :]
        other_min = jnp.min(jnp.where(is_k[:, :, None], _INF, own_min[None, :, :]), axis=1)  # (K, T): min_{k != k'}
        same = own_min[fix_edge] + g  # on the parent's edge: no transfer
        moved = other_min[fix_edge] + (g + comm[fix_edge][:, None])  # elsewhere: the transfer, then min over k
        return jnp.min(jnp.minimum(same, moved), axis=1)
    arrive = None
    for kind, par in zip(kinds, parents, strict=True):
        if kind == "fanout":
            table_f, key, fix_edge, fix_choice, runtime, is_r, comm = par
            g = _fanout_rows(table_f, key, fix_edge, fix_choice, runtime, is_r)  # (U, T)
            same = jnp.arange(n_edges)[None, :] == fix_edge[:, None]  # (U, K)
            term = jnp.where(same[:, :, None], g[:, None, :], (g + comm[fix_edge][:, None])[:, None, :])
        else:
            term = par[0][par[1]]
        arrive = (0.0 + term) if arrive is None else arrive + term
    if role == "sink":  # min_c (own_c + a) = min_c own_c + a exactly (rounding is monotone)
        own_min = jnp.min(own_p, axis=1)  # (K, T)
        if arrive is None:
            return jnp.min(own_min)[None]
        return jnp.min(own_min[None] + arrive, axis=(1, 2))
    e = own_p[None] if arrive is None else own_p[None] + arrive[:, :, None, :]
    if role == "fanout":
        return jax.lax.cummin(e, axis=3)
    return jax.vmap(_single_contrib, in_axes=(0, None, None, None))(e, *child)


@jax.jit
def _profits(lasts, sink, revenue):
    """``b_i - sum_{sinks} min E`` per option, summed over positions left to right as the kernel's reduction does."""
    terms = jnp.where(sink[None, :], lasts, 0.0)
    total = terms[:, 0]
    for p in range(1, terms.shape[1]):
        total = total + terms[:, p]
    return jnp.where(jnp.isfinite(total), revenue - total, -_INF)


def _keys(job: kernel.JobData, opt_edge: np.ndarray, opt_choice: np.ndarray):
    """Per position: the fan-out ancestors, the distinct keys and each option's key index."""
    n = int(np.sum(job.task_valid))
    anc: list[set[int]] = []
    for p in range(n):
        a: set[int] = set()
        for q in job.parent[p]:
            if q >= 0:
                a |= anc[q] | {int(q)}
        anc.append(a)
    fanout = [bool(np.any(opt_edge[:, p] >= 0)) for p in range(n)]
    tasks, keys, index = [], [], []
    for p in range(n):
        ts = sorted(q for q in anc[p] if fanout[q])
        cols = np.stack([opt_edge[:, ts], opt_choice[:, ts]], axis=2).reshape(len(opt_edge), -1) if ts \
            else np.zeros((len(opt_edge), 0), np.int32)
        uniq, first, inv = np.unique(cols, axis=0, return_index=True, return_inverse=True)
        tasks.append(ts)
        keys.append(first)  # the first option of each distinct key (it carries the key's fixings)
        index.append(inv.reshape(-1))
    return n, fanout, tasks, keys, index


def evaluate_options(job: kernel.JobData, price: Any, room: Any, opt_edge: np.ndarray,
                     opt_choice: np.ndarray) -> tuple[np.ndarray, Any]:
    """``P`` of every option (|H|,), equal bit for bit to :func:`comdos.kernel.evaluate_chunk`'s.

    Parameters as :func:`aisched.online.genai.comdos.kernel.evaluate_chunk`
    (options unpadded, ``(|H|, J)``). Returns ``(P, own costs)``; the own costs
    (a device array) can be handed back to ``evaluate_chunk`` for the chosen option.
    """
    args = kernel.JobData(*(np.asarray(v, dtype=d) for v, d in zip(job, kernel.JOB_DTYPES, strict=True)))
    n, fanout, tasks, keys, index = _keys(args, opt_edge, opt_choice)
    n_opt, n_pos = opt_edge.shape
    n_parents = args.parent.shape[1]
    with jax.enable_x64(True):
        own = kernel.own_costs(args, np.asarray(price, np.float64), np.asarray(room, np.float64))
        out: list[Any] = [None] * n  # per position: F (fanout), child term (single) or min E (sink)
        lasts = np.zeros((n_opt, n_pos))
        K = own.shape[1]
        for p in range(n):
            n_keys = len(keys[p])
            ub = _bucket(n_keys)
            # a representative option per key, to read the key's fixings and the parents' key indices
            rep = np.zeros(ub, np.int64)
            rep[:n_keys] = keys[p]
            parents, kinds = [], []
            for q in range(n_parents):
                pq = int(args.parent[p, q])
                if pq < 0:
                    continue
                pkey = index[pq][rep].astype(np.int32)
                if fanout[pq]:
                    kinds.append("fanout")
                    parents.append((out[pq], pkey, opt_edge[rep, pq], opt_choice[rep, pq], args.runtime[pq],
                                    args.parent_is_r[p, q], args.comm[p, q]))
                else:
                    kinds.append("single")
                    parents.append((out[pq], pkey))
            role = "sink" if args.sink[p] else "fanout" if fanout[p] else "single"
            child = (args.runtime[p], False, np.zeros(K))
            if role == "single":
                c = next(c for c in range(n) if np.any(args.parent[c] == p))  # the only child
                q = int(np.nonzero(args.parent[c] == p)[0][0])
                child = (args.runtime[p], args.parent_is_r[c, q], args.comm[c, q])
            # a fan-out task's F stays unmasked: its children read it at the option's fixing only
            out[p] = _task(own, p, tuple(parents), child, role=role, kinds=tuple(kinds))
            if role == "sink":
                lasts[:, p] = np.asarray(out[p])[index[p]]
        return np.asarray(_profits(lasts, args.sink, float(args.revenue))), own


def cache_size() -> int:
    """Compiled variants of the jitted pieces (for no-recompile tests)."""
    return sum(f._cache_size() for f in (_task, _profits))
