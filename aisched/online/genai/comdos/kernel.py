"""ComDOS per-job schedule selection (Algorithm 2) as a jit-compiled JAX dynamic program.

For one arriving job ``i`` and the current prices ``lambda_kt`` (memory price
per GB and slot on edge ``k``), for every schedule option ``h in H`` the DP
runs over the tasks in the execution order ``S`` (descending rank (10)).
Slots are 0-based; a task with model ``m`` may start in ``s in [t_i, d_i - f_{m,i,j} + 1]``
(Algorithm 2's line 8 ``t in [t_i, d_i - f]`` with ``d_i`` the last usable slot).

Line 9, as implemented (``E`` = cost when task ``j`` starts exactly at ``s``,
``F`` = its prefix minimum over starts, "starts no later than ``s``", lines 10-13)::

    E_j[k, m, s] = f (w_f r^f e^f_k + w_h r^s_m e^h_k) + r^s_m sum_{t=s}^{s+f-1} lambda_kt
                   + sum_{j' parent of j} min_{k', m'} { I(j == R_j') F_j'[k', m', s - f_{m',i,j'}]
                                                       + w_p h_{j'j} e^p_{k'} I(k' != k) }
    F_j[k, m, s] = min_{s' <= s} E_j[k, m, s']
    P            = b_i - sum_{j sink} min_{k, m} F_j[k, m, T-1]     (the dummy exit, lines 14-15)

Readings of the printed pseudocode (the NumPy transcription
:mod:`aisched.online.genai.comdos.reference` makes the same ones):

* the price term ``r^s_m lambda_kt`` of (8) is part of the task cost (Algorithm
  2 takes ``lambda_kt`` as input; without it ``mu_i`` would not be (8));
* line 9 prints ``F_j'k'm'(t - f_{m,i,j})`` -- the *child's* runtime. The
  parent must have *finished* before ``s`` (precedence (5e)), i.e. started no
  later than ``s - f_{m',i,j'}``: we read the parent's runtime (a typo);
* a parent's entry in a term of a child other than ``R_j'`` still requires
  the parent to be schedulable before ``s`` (a finite ``F``), adds the
  transfer cost, and adds 0 for the parent's own cumulative cost.
  ``R_j'`` is the child of ``j'`` first in ``S``;
* the dummy entry costs 0 and has no edge; the dummy exit's parents are the
  sinks; a multi-child task fixed by option ``h`` has ``h_j^K``, ``h_j^M`` singletons;
* the transfer cost (3) is charged on the sending edge ``k'``.

Ties: options by lowest index (first maximum of ``P``); starts keep the
earlier one (line 10's strict ``<``).

Static shapes per instance: tasks ``J``, parents ``P``, choices ``C``,
edges ``K``, slots ``T`` and an option chunk ``O``; options beyond ``O`` run
in further chunks of the same shape, so a job never recompiles
(``cache_size()``). Float64 under ``jax.enable_x64(True)`` inside the public
function only.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

__all__ = ["JobData", "JOB_DTYPES", "ChunkResult", "evaluate_chunk", "cache_size"]

_INF = np.inf


class JobData(NamedTuple):
    """One job, tasks in execution order ``S`` (position ``p``), padded (NumPy arrays).

    Attributes
    ----------
    task_valid : (J,) bool -- real task at position p.
    choice_valid : (J, C) bool -- candidate model c exists.
    runtime : (J, C) int32 -- ``f_{m,i,j}`` (0 for padding).
    size : (J, C) float64 -- ``r^s_m`` of the candidate.
    run_rate : (J, C, K) float64 -- weighted cost per slot ``w_f r^f e^f_k + w_h r^s_m e^h_k``.
    parent : (J, P) int32 -- positions of the parents, -1 pads.
    parent_is_r : (J, P) bool -- ``I(j == R_j')``: this task accumulates the parent's cost.
    comm : (J, P, K) float64 -- ``w_p h_{j'j} e^p_{k'}``: the transfer cost when the parent
        on edge ``k'`` sends to another edge (charged on the sender, (3)).
    sink : (J,) bool -- real task without children (parent of the dummy exit).
    arrival, deadline : int32 -- ``t_i``, ``d_i`` (0-based, inclusive).
    revenue : float64 -- ``b_i``.
    """

    task_valid: Any
    choice_valid: Any
    runtime: Any
    size: Any
    run_rate: Any
    parent: Any
    parent_is_r: Any
    comm: Any
    sink: Any
    arrival: Any
    deadline: Any
    revenue: Any


class ChunkResult(NamedTuple):
    """Result of one chunk of options.

    profit : (O,) float64 -- ``P`` of each option (``-inf`` if infeasible or padding).
    best : int32 -- index of the first maximum within the chunk.
    table : (J, K, C, T) float64 -- ``E`` of the best option (start-exact costs).
    """

    profit: Any
    best: Any
    table: Any


def _own_costs(job: JobData, cum_price, room):
    """(J, K, C, T): option-free cost of each task starting at ``s`` (``inf`` outside its window or room).

    ``f (w_f r^f e^f_k + w_h r^s_m e^h_k) + r^s_m sum_{t=s}^{s+f-1} lambda_kt``; window sums of
    prices and of room shortfalls are read from cumulative sums with static-size slices at the
    dynamic runtime offsets (no gathers). Computed once per job, outside the vmap over options.
    """
    n_tasks, n_choices = job.runtime.shape
    n_edges, n_slots = cum_price.shape[0], cum_price.shape[1] - 1
    slots = jnp.arange(n_slots)
    f = job.runtime
    cum_pad = jnp.concatenate([cum_price, jnp.zeros((n_edges, n_slots)) + cum_price[:, -1:]], axis=1)  # (K, 2T+1)

    def one(p):
        fp = f[p]
        end = slots[None, :] + fp[:, None] - 1  # (C, T)
        window = (slots[None, :] >= job.arrival) & (end <= job.deadline) & job.choice_valid[p][:, None]
        cols = []
        for c in range(n_choices):  # C is small and static
            price_sum = lax.dynamic_slice_in_dim(cum_pad, fp[c], n_slots, axis=1) - cum_price[:, :n_slots]
            short = jnp.cumsum((room < job.size[p, c]).astype(jnp.int32), axis=1)
            short = jnp.concatenate([jnp.zeros((n_edges, 1), jnp.int32), short,
                                     jnp.zeros((n_edges, n_slots), jnp.int32) + short[:, -1:]], axis=1)
            blocked = lax.dynamic_slice_in_dim(short, fp[c], n_slots, axis=1) - short[:, :n_slots] > 0
            cost = fp[c] * job.run_rate[p, c][:, None] + job.size[p, c] * price_sum  # (K, T)
            cols.append(jnp.where(window[c][None, :] & ~blocked, cost, _INF))
        return jnp.stack(cols, axis=1)

    n_real = jnp.sum(job.task_valid.astype(jnp.int32))
    init = jnp.full((n_tasks, n_edges, n_choices, n_slots), _INF)
    return lax.fori_loop(0, n_real, lambda p, acc: acc.at[p].set(one(p)), init)


def _dp_one_option(job: JobData, own_all, opt_edge, opt_choice):
    """E tables (J, K, C, T) and P for one option (``opt_edge``/``opt_choice`` (J,), -1 = free).

    A loop over the real tasks only (padding positions stay ``inf``).
    """
    n_tasks, n_edges, n_choices, n_slots = own_all.shape
    f = job.runtime  # (J, C)
    edge_ids = jnp.arange(n_edges)

    def own_cost(p):
        """(K, C, T) cost of task p starting at s (inf outside the window / option / room)."""
        edge_ok = (opt_edge[p] < 0) | (opt_edge[p] == edge_ids)  # (K,)
        choice_ok = (opt_choice[p] < 0) | (opt_choice[p] == jnp.arange(n_choices))  # (C,)
        return jnp.where(edge_ok[:, None, None] & choice_ok[None, :, None], own_all[p], _INF)

    def via_parent(table_f, p, q):
        """(K, T) cheapest contribution of parent q of task p when p starts on edge k at s."""
        pq = jnp.maximum(job.parent[p, q], 0)
        pf = lax.dynamic_index_in_dim(table_f, pq, axis=0, keepdims=False)  # (K', C', T) prefix minima
        padded = jnp.concatenate([jnp.full_like(pf, _INF), pf], axis=2)  # F at s - f: read from T - f on
        shifted = jnp.stack([lax.dynamic_slice_in_dim(padded[:, c], n_slots - f[pq, c], n_slots, axis=1)
                             for c in range(n_choices)], axis=1)  # (K', C', T)
        carried = jnp.where(job.parent_is_r[p, q], shifted, jnp.where(jnp.isfinite(shifted), 0.0, _INF))
        best = jnp.min(carried, axis=1)  # (K', T)
        # min_{k'} best[k'] + comm[k'] I(k' != k) = min(best[k], min_{k' != k} (best + comm)[k'])
        moved = best + job.comm[p, q][:, None]
        first = jnp.argmin(moved, axis=0)  # (T,)
        is_first = edge_ids[:, None] == first[None, :]
        second = jnp.min(jnp.where(is_first, _INF, moved), axis=0)
        other = jnp.where(is_first, second[None, :], jnp.min(moved, axis=0)[None, :])
        return jnp.minimum(best, other)

    def step(p, carry):
        table_f, table_e = carry
        arrive = jnp.zeros((n_edges, n_slots))
        for q in range(job.parent.shape[1]):  # P is small and static; padding parents are skipped
            arrive = lax.cond(job.parent[p, q] >= 0, lambda a, q=q: a + via_parent(table_f, p, q),
                              lambda a: a, arrive)
        e = own_cost(p) + arrive[:, None, :]
        fmin = lax.cummin(e, axis=2)
        return table_f.at[p].set(fmin), table_e.at[p].set(e)

    init = jnp.full((n_tasks, n_edges, n_choices, n_slots), _INF)
    n_real = jnp.sum(job.task_valid.astype(jnp.int32))  # real tasks come first in S
    table_f, table_e = lax.fori_loop(0, n_real, step, (init, init))
    last = jnp.min(table_f[:, :, :, -1], axis=(1, 2))  # (J,)
    total = jnp.sum(jnp.where(job.sink, last, 0.0))
    profit = jnp.where(jnp.isfinite(total), job.revenue - total, -_INF)
    return profit, table_e


@jax.jit
def own_costs(job: JobData, price, room):
    """(J, K, C, T) option-free own costs (:func:`_own_costs`), one jitted call per job.

    Kept apart from the DP so that every evaluation of a job's options (chunks
    here, shared keys in :mod:`aisched.online.genai.comdos.batched`) reads the
    same values bit for bit (a fused compilation may round differently).
    """
    cum = jnp.concatenate([jnp.zeros((price.shape[0], 1)), jnp.cumsum(price, axis=1)], axis=1)
    return _own_costs(job, cum, room)


@jax.jit
def _chunk(job: JobData, own_all, opt_edge, opt_choice, opt_valid):
    profit, tables = jax.vmap(_dp_one_option, in_axes=(None, None, 0, 0))(job, own_all, opt_edge, opt_choice)
    profit = jnp.where(opt_valid, profit, -_INF)
    best = jnp.argmax(profit).astype(jnp.int32)
    return ChunkResult(profit, best, tables[best])


#: The dtype of each :class:`JobData` field, in order (the kernel casts to these; so does
#: :mod:`~aisched.online.genai.comdos.batched`).
JOB_DTYPES = (np.bool_, np.bool_, np.int32, np.float64, np.float64, np.int32, np.bool_, np.float64,
           np.bool_, np.int32, np.int32, np.float64)


def evaluate_chunk(job: JobData, price: Any, room: Any, opt_edge: Any, opt_choice: Any,
                   opt_valid: Any, own_all: Any = None) -> ChunkResult:
    """Algorithm 2's DP for one chunk of options (vmapped), returning ``P`` per option.

    Parameters
    ----------
    job
        The job's arrays (see :class:`JobData`).
    price
        (K, T) float64: ``lambda_kt``.
    room
        (K, T) float64: memory left per cell; a start whose run meets a cell
        with ``room < r^s_m`` is excluded. ``inf`` everywhere is the paper's
        Algorithm 2 (no capacity in the DP; the ``room_aware`` option of
        :func:`aisched.online.genai.comdos.run` passes the real room).
    opt_edge, opt_choice
        (O, J) int32: the option's edge / candidate index per task position, -1 = free.
    opt_valid
        (O,) bool: padding options are invalid.

    own_all
        The job's :func:`own_costs` at ``price`` and ``room`` if already computed (the same values).

    Returns
    -------
    ChunkResult
        NumPy arrays.
    """
    args = JobData(*(np.asarray(v, dtype=d) for v, d in zip(job, JOB_DTYPES, strict=True)))
    with jax.enable_x64(True):
        if own_all is None:
            own_all = own_costs(args, np.asarray(price, dtype=np.float64), np.asarray(room, dtype=np.float64))
        out = _chunk(args, own_all, np.asarray(opt_edge, dtype=np.int32),
                     np.asarray(opt_choice, dtype=np.int32), np.asarray(opt_valid, dtype=np.bool_))
        return ChunkResult(np.asarray(out.profit), int(out.best), np.asarray(out.table))


def cache_size() -> int:
    """Compiled variants of the jitted kernel (for no-recompile tests)."""
    return _chunk._cache_size() + own_costs._cache_size()
