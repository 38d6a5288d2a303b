"""pdFTSP per-task schedule selection (Algorithm 2, eqs. (9)-(13)) as jit-compiled JAX.

For one arriving task ``i`` and the current dual prices ``lambda_kt`` (compute)
and ``phi_kt`` (memory), pick a labour-vendor option ``n`` and a schedule ``l``
(at most one node per slot, eq. (4b); slots in ``[start_n, deadline]``, eqs.
(4c)-(4d); at least ``W_i`` work units, eq. (4e)) and report the surplus (10)::

    F(il) = b_i - q_in - sum_{(k,t) in l} e_kt
            - max_{(k,t) in l} lambda_kt * sum_{(k,t) in l} s_ik
            - max_{(k,t) in l} phi_kt    * r_i * |l|.

Slots are 0-based; ``deadline`` is the last usable slot (inclusive). Work is
counted in integer units (``throughput_units[k] = s_ik / work_unit``; a node
with 0 units cannot run the task). A task without pre-processing is one valid
option with fee 0 and ``start = arrival``.

Two modes, both pure functions (optax style) of arrays:

``select_cell_prices``  -- Algorithm 2 with each cell priced at its OWN duals
    (not line 13's running maxima, which ``pdftsp.fronts.select_faithful``
    implements): per option, DP (13) with cell
    cost ``Delta_kt = s_ik lambda_kt + r_i phi_kt + e_kt`` finds the cheapest schedule; the option with the largest
    true F (10) of its DP schedule wins (line 5). Implementation: ONE backward
    DP from the deadline serves all options, ``g[t, w]`` = least cost to gather
    ``>= w`` units in slots ``t..deadline``::

        g[t, w] = min(g[t+1, w], min_k g[t+1, max(0, w - u_k)] + Delta_kt),

    and option ``n`` costs ``g[start_n, W_i]``. Nodes are grouped by their
    units value, so a slot costs O(G*W), not O(K*W): within a group only the
    cheapest ``Delta_kt`` matters (a segment minimum).
``select_exact``  -- beside the paper: maximises (10) itself. See its docstring.

Paper ambiguities, as resolved here (the NumPy oracle
``aisched.online.lora.pdftsp.reference`` does the same):

* Algorithm 2 sets ``dp[t, 0] = 0`` for ``t in [a+h, d]`` and loops
  ``t`` from ``a+h+1``; read literally, slot ``a+h`` could never run, though
  (4c) allows it. We use a virtual base row just before the first usable slot,
  so slot ``a+h`` is usable (as in the MILP (4)).
* ``w - s_ik < 0`` is read as 0: the work constraint (4e) is ``>=``, so the
  last slot may overshoot.

Tie-breaking (identical in the oracle; forward and backward DPs may still pick
different optimal schedules when costs tie): in each slot, stay idle when
idling costs no more than running (``<=``); among nodes whose run value equals
the optimum, take the cheapest ``Delta_kt``, then the lowest node index; among
options, the largest F, then the lowest option index.

Static shapes: K, T, N, ``max_work_units`` and ``G_max = len(group_units)`` fix
a compilation; all task data are array arguments, so the next task does not
recompile (``cache_size()``). Floats are float64: each public function runs
under ``jax.enable_x64(True)`` without touching the caller's global config.
Costs must be >= 0 (duals, energy), as in the paper.

Usage: ``group, group_units = node_groups(throughput_units, G_max)`` once per
task's node set, then ``choice = select_cell_prices(..., max_work_units=W_max)``;
admit if ``choice.option >= 0 and choice.surplus > 0`` (Algorithm 1, line 6).
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from aisched.errors import InvalidInstanceError

__all__ = ["ScheduleChoice", "TaskArrays", "task_arrays", "select_cell_prices", "select_cell_prices_host",
           "select_exact", "cell_prices_options", "node_groups", "cache_size"]

_INF = np.inf


class ScheduleChoice(NamedTuple):
    """Chosen option and schedule of one task (JAX arrays; ``np.asarray`` is cheap on CPU).

    Attributes
    ----------
    option : int32 () -- best option index, -1 if no option can finish by the deadline.
    surplus : float64 () -- F(il) (10) of the chosen schedule; ``-inf`` if none.
    assignment : int32 (T,) -- node per slot, -1 idle (all -1 if none).
    compute_max_price, memory_max_price : float64 () -- ``max lambda_kt``, ``max phi_kt``
        over the schedule's cells (0 if none).
    total_compute, total_memory, energy : float64 () -- ``sum s_ik``, ``r_i * #cells``,
        ``sum e_kt`` over the cells.
    option_surplus : float64 (N,) -- F of each option's schedule; ``-inf`` if invalid or
        infeasible.
    """

    option: Any
    surplus: Any
    assignment: Any
    compute_max_price: Any
    memory_max_price: Any
    total_compute: Any
    total_memory: Any
    energy: Any
    option_surplus: Any


# The 15 task arguments in ``select_cell_prices``'s order, as one pytree for jit (built by
# :func:`task_arrays`, which :mod:`~aisched.online.lora.pdftsp.fronts` calls too); short
# names: cp, mp, ep = lambda, phi, energy price (K, T); eu, s, su = energy use,
# throughput, units (K,); r = memory_need; need = work_units.
TaskArrays = NamedTuple("TaskArrays", [(name, Any) for name in (
    "cp", "mp", "ep", "eu", "s", "su", "group", "gunits", "r", "need", "start", "deadline",
    "fee", "valid", "bid")])

_DTYPES = (np.float64,) * 5 + (np.int32,) * 3 + (np.float64, np.int32, np.int32, np.int32,
                                                 np.float64, np.bool_, np.float64)
_NAMES = ("compute_price", "memory_price", "energy_price", "energy_use", "throughput",
          "throughput_units", "group", "group_units", "memory_need", "work_units", "start",
          "deadline", "fee", "valid", "bid")


def _group_min(delta: jax.Array, group: jax.Array, gunits: jax.Array, index: bool = True):
    """Per (group, slot): cheapest cell cost ``dmin`` (G, T) and the lowest node attaining it.

    Nodes of one group have the same units, so DP (13) needs only the minimum
    ``Delta_kt`` of each group: O(G*W) work per slot instead of O(K*W).
    ``dmin`` is ``inf`` for empty or unit-less groups; ``amin`` (G, T) int32.
    A masked min per static group (a segment minimum; faster on XLA:CPU than
    ``jax.ops.segment_min``'s scatter).
    """
    n_nodes = delta.shape[0]
    node = jnp.arange(n_nodes, dtype=jnp.int32)[:, None]
    dmins, amins = [], []
    for j in range(gunits.shape[0]):  # G_max is small and static
        x = jnp.where((group == j)[:, None], delta, _INF)
        d = jnp.min(x, axis=0)
        dmins.append(jnp.where(gunits[j] > 0, d, _INF))
        if index:
            amins.append(jnp.min(jnp.where(x == d[None, :], node, n_nodes), axis=0))
    return jnp.stack(dmins), (jnp.stack(amins) if index else None)


def _dp_table(dmin, gunits, w_max: int, lo, hi, column=None) -> jax.Array:
    """Backward DP table ``g`` (T+1, W+1) over the window ``lo..hi``; row T is the base row.

    ``g[t, w] = min(g[t+1, w], min_groups g[t+1, max(0, w - u)] + dmin[group, t])``
    for ``t = hi, ..., lo`` (a loop of dynamic length: slots outside every
    option's window cost nothing). Rows after ``hi`` keep the base row
    (``0`` at ``w = 0``, ``inf`` elsewhere), which is exact since no slot
    after the deadline is usable; rows before ``lo`` are never read.
    With ``column`` (an index), only ``g[:, column]`` (T+1,) is returned.
    """
    n_groups, n_slots = dmin.shape
    base = jnp.full(w_max + 1, _INF).at[0].set(0.0)
    zeros = jnp.zeros(w_max)
    d_rows = dmin.T

    def update(g_next, d_t):
        padded = jnp.concatenate([zeros, g_next])  # padded[w_max + j] = g_next[j]; j < 0 -> 0
        run = jnp.full(w_max + 1, _INF)
        for j in range(n_groups):  # G_max is small and static
            shifted = lax.dynamic_slice(padded, (w_max - gunits[j],), (w_max + 1,))
            run = jnp.minimum(run, shifted + d_t[j])
        return jnp.minimum(g_next, run)  # g[., 0] stays 0 (Algorithm 2, line 9): costs >= 0

    n_iter = jnp.maximum(hi - lo + 1, 0)
    if column is None:
        def body(i, carry):
            g_next, table = carry
            t = hi - i
            g = update(g_next, d_rows[t])
            return g, lax.dynamic_update_index_in_dim(table, g, t, 0)

        return lax.fori_loop(0, n_iter, body, (base, jnp.tile(base, (n_slots + 1, 1))))[1]

    slots = jnp.arange(n_slots + 1)

    def body_col(i, carry):  # records g[t, column] with a select, not a (batched) scatter
        g_next, col = carry
        t = hi - i
        g = update(g_next, d_rows[t])
        return g, jnp.where(slots == t, g[column], col)

    return lax.fori_loop(0, n_iter, body_col, (base, jnp.full(n_slots + 1, base[column])))[1]


def _backtrack(table, dmin, amin, gunits, lo, hi, start, need, feasible) -> jax.Array:
    """Walk ``table`` forward over slots ``lo..hi`` from ``start`` with ``need`` units left.

    Returns (T,) node per slot or -1. Per slot: idle if idling costs no more
    than the best run; else, among groups whose run value is optimal, the
    cheapest ``Delta``, then the lowest node index (``amin`` is already the
    lowest index within a group).
    """
    n_slots = dmin.shape[1]
    big = jnp.iinfo(jnp.int32).max
    d_rows, a_rows = dmin.T, amin.T

    def body(t, carry):
        w, assign = carry
        d_t, a_t = d_rows[t], a_rows[t]
        g_next = table[t + 1]
        w_after = jnp.maximum(w - gunits, 0)  # (G,)
        vals = g_next[w_after] + d_t
        best = jnp.min(vals)
        run = (t >= start) & (w > 0) & (best < g_next[w])  # idle on ties
        tied = vals == best
        cheapest = jnp.min(jnp.where(tied, d_t, _INF))
        pick = tied & (d_t == cheapest)
        j = jnp.argmin(jnp.where(pick, a_t, big))
        k = jnp.where(run, a_t[j], -1).astype(jnp.int32)
        return jnp.where(run, w_after[j], w), assign.at[t].set(k)

    w0 = jnp.where(feasible, need, 0)
    init = (w0, jnp.full(n_slots, -1, jnp.int32))
    return lax.fori_loop(lo, jnp.maximum(hi + 1, lo), body, init)[1]


def _choose(assign, feasible, task: TaskArrays, energy) -> ScheduleChoice:
    """True F (10) of each option's schedule (N, T) and the best option (ties: lowest index)."""
    used = assign >= 0
    k, t = jnp.maximum(assign, 0), jnp.arange(assign.shape[1])[None, :]
    some = jnp.any(used, axis=1)
    cmax = jnp.where(some, jnp.max(jnp.where(used, task.cp[k, t], -_INF), axis=1), 0.0)
    mmax = jnp.where(some, jnp.max(jnp.where(used, task.mp[k, t], -_INF), axis=1), 0.0)
    tot_s = jnp.sum(jnp.where(used, task.s[k], 0.0), axis=1)
    tot_m = task.r * jnp.sum(used, axis=1)
    en = jnp.sum(jnp.where(used, energy[k, t], 0.0), axis=1)
    surplus = task.bid - task.fee - en - cmax * tot_s - mmax * tot_m
    surplus = jnp.where(feasible, surplus, -_INF)
    best = jnp.argmax(surplus)
    ok = jnp.isfinite(surplus[best])
    pick = lambda x: jnp.where(ok, x[best], 0.0)  # noqa: E731
    return ScheduleChoice(
        option=jnp.where(ok, best, -1).astype(jnp.int32),
        surplus=jnp.where(ok, surplus[best], -_INF),
        assignment=jnp.where(ok, assign[best], -1).astype(jnp.int32),
        compute_max_price=pick(cmax), memory_max_price=pick(mmax), total_compute=pick(tot_s),
        total_memory=pick(tot_m), energy=pick(en), option_surplus=surplus)


def _prepare(task: TaskArrays, w_max: int):
    """Group units, usable cells, energy, clipped start / need, widest window [lo, hi]."""
    n_slots = task.cp.shape[1]
    gu = jnp.clip(task.gunits, 0, w_max)  # u >= W_max finishes any w <= W_max in one slot
    usable = (task.su > 0) & (gu[task.group] > 0)
    cell_ok = usable[:, None] & (jnp.arange(n_slots)[None, :] <= task.deadline)
    energy = task.eu[:, None] * task.ep
    st = jnp.clip(task.start, 0, n_slots)
    lo = jnp.min(jnp.where(task.valid, st, n_slots))
    hi = jnp.minimum(task.deadline, n_slots - 1)
    return gu, cell_ok, energy, st, jnp.clip(task.need, 1, w_max), lo, hi


def _pair_delta(task: TaskArrays, cell_ok, energy, lbar, pbar):
    """Cells with ``lambda <= Lbar`` and ``phi <= Pbar``, priced ``s Lbar + r Pbar + e``."""
    ok = cell_ok & (task.cp <= lbar) & (task.mp <= pbar)
    return jnp.where(ok, task.s[:, None] * lbar + task.r * pbar + energy, _INF)


@partial(jax.jit, static_argnames=("max_work_units",))
def _cell_prices(task: TaskArrays, *, max_work_units: int):
    gu, cell_ok, energy, st, wc, lo, hi = _prepare(task, max_work_units)
    delta = task.s[:, None] * task.cp + task.r * task.mp + energy  # Delta_kt of (13)
    dmin, amin = _group_min(jnp.where(cell_ok, delta, _INF), task.group, gu)
    table = _dp_table(dmin, gu, max_work_units, lo, hi)
    cost = table[st, wc]  # (N,) optimum of (12) per option
    feasible = task.valid & jnp.isfinite(cost)
    assign = jax.vmap(_backtrack, in_axes=(None,) * 6 + (0, None, 0))(
        table, dmin, amin, gu, lo, hi, st, wc, feasible)
    return _choose(assign, feasible, task, energy), jnp.where(task.valid, cost, _INF), assign


@partial(jax.jit, static_argnames=("max_work_units",))
def _exact_chunk(carry, lbar, pbar, pvalid, task: TaskArrays, *, max_work_units: int):
    """Fold one chunk of threshold pairs into the running best bound ``V`` per option."""
    gu, cell_ok, energy, st, wc, lo, hi = _prepare(task, max_work_units)

    def pair_cost(lb, pb, ok):
        delta = _pair_delta(task, cell_ok & ok, energy, lb, pb)
        dmin, _ = _group_min(delta, task.group, gu, index=False)
        return _dp_table(dmin, gu, max_work_units, lo, hi, column=wc)[st]  # (N,)

    costs = jax.vmap(pair_cost)(lbar, pbar, pvalid)  # (C, N)
    ok = task.valid[None, :] & jnp.isfinite(costs)
    bound = jnp.where(ok, task.bid - task.fee[None, :] - costs, -_INF)
    j = jnp.argmax(bound, axis=0)  # first pair on ties
    vbest = jnp.take_along_axis(bound, j[None, :], axis=0)[0]
    best_v, best_l, best_p = carry
    better = vbest > best_v
    return (jnp.where(better, vbest, best_v), jnp.where(better, lbar[j], best_l),
            jnp.where(better, pbar[j], best_p))


@partial(jax.jit, static_argnames=("max_work_units",))
def _exact_finish(carry, task: TaskArrays, *, max_work_units: int):
    """Backtrack each option's schedule at its best pair and score it by the true (10)."""
    gu, cell_ok, energy, st, wc, lo, hi = _prepare(task, max_work_units)
    best_v, best_l, best_p = carry
    feasible = task.valid & jnp.isfinite(best_v)

    def per_option(lb, pb, st_n, feas):
        dmin, amin = _group_min(_pair_delta(task, cell_ok, energy, lb, pb), task.group, gu)
        table = _dp_table(dmin, gu, max_work_units, lo, hi)
        return _backtrack(table, dmin, amin, gu, lo, hi, st_n, wc, feas)

    assign = jax.vmap(per_option)(best_l, best_p, st, feasible)
    return _choose(assign, feasible, task, energy)


def task_arrays(*values, max_work_units: int) -> TaskArrays:
    """Cast the 15 arguments to NumPy arrays of the kernel dtypes and check shapes.

    Always NumPy (never a mix with JAX arrays, never weakly typed Python
    scalars): jit keys its cache on the argument kinds, so this keeps one
    compiled entry per instance shape whatever the caller passes.
    """
    out = [np.asarray(v, dtype=d) for v, d in zip(values, _DTYPES, strict=True)]
    (k, t), n = out[0].shape, out[10].shape[0]
    want = {0: (k, t), 1: (k, t), 2: (k, t), 3: (k,), 4: (k,), 5: (k,), 6: (k,), 8: (),
            9: (), 11: (), 12: (n,), 13: (n,), 14: ()}
    for i, shape in want.items():
        if out[i].shape != shape:
            raise InvalidInstanceError(_NAMES[i], f"shape {out[i].shape}, expected {shape}")
    if not 1 <= int(out[9]) <= max_work_units:
        raise InvalidInstanceError(
            "work_units", f"{int(out[9])} outside [1, max_work_units={max_work_units}]")
    return TaskArrays(*out)


def select_cell_prices(compute_price, memory_price, energy_price, energy_use, throughput,
                    throughput_units, group, group_units, memory_need, work_units, start,
                    deadline, fee, valid, bid, *, max_work_units: int) -> ScheduleChoice:
    """DP (13) per option with each cell at its own duals, then the option of largest F (10).

    ``selection="cell_prices"``: ``Delta_kt = s_ik lambda_kt + r_i phi_kt + e_kt``,
    Algorithm 2 with line 13's ``lambda-hat``/``phi-hat`` replaced by the cell's own
    prices (a reading beside the paper; the printed line 13 is
    :func:`aisched.online.lora.pdftsp.fronts.select_faithful`).

    Parameters
    ----------
    compute_price, memory_price : (K, T) float64 -- current duals ``lambda_kt``, ``phi_kt``.
    energy_price : (K, T), energy_use : (K,) float64 -- ``e_kt = energy_use[k] * price``.
    throughput : (K,) float64 -- ``s_ik``, samples per slot.
    throughput_units : (K,) int32 -- ``s_ik / work_unit``; 0: node k cannot run the task.
    group, group_units : (K,), (G_max,) int32 -- from ``node_groups``; node k gathers
        ``group_units[group[k]]`` units (= ``throughput_units[k]`` where that is > 0).
    memory_need : float64 -- ``r_i``.
    work_units : int32 -- ``W_i = ceil(M_i / work_unit)`` in ``[1, max_work_units]``.
    start : (N,) int32 -- first usable slot per option, ``a_i + h_in``.
    deadline : int32 -- last usable slot ``d_i`` (inclusive).
    fee : (N,) float64, valid : (N,) bool -- vendor price ``q_in``; which options exist.
    bid : float64 -- ``b_i``.
    max_work_units : int -- static DP width ``W_max``.

    Returns
    -------
    ScheduleChoice
    """
    args = task_arrays(compute_price, memory_price, energy_price, energy_use, throughput,
                   throughput_units, group, group_units, memory_need, work_units, start, deadline,
                   fee, valid, bid, max_work_units=max_work_units)
    with jax.enable_x64(True):
        return _cell_prices(args, max_work_units=max_work_units)[0]


@partial(jax.jit, static_argnames=("max_work_units",))
def _cell_prices_packed(task: TaskArrays, *, max_work_units: int):
    """``_cell_prices``'s choice as ONE float64 vector (one host copy per task, not nine):
    option, surplus, the five parts, then option_surplus (N) and assignment (T); the
    int32 values are exact in float64."""
    c = _cell_prices(task, max_work_units=max_work_units)[0]
    head = jnp.stack([c.option.astype(jnp.float64), c.surplus, c.compute_max_price,
                      c.memory_max_price, c.total_compute, c.total_memory, c.energy])
    return jnp.concatenate([head, c.option_surplus, c.assignment.astype(jnp.float64)])


def select_cell_prices_host(*args, max_work_units: int) -> ScheduleChoice:
    """``select_cell_prices`` with NumPy values (the same numbers), copied to the host at once.

    Same arguments; what :class:`~aisched.online.lora.pdftsp.PdftspState` calls per task.
    """
    task = task_arrays(*args, max_work_units=max_work_units)
    with jax.enable_x64(True):
        v = np.asarray(_cell_prices_packed(task, max_work_units=max_work_units))
    n_opt = task.start.shape[0]
    return ScheduleChoice(np.int32(v[0]), v[1], v[7 + n_opt:].astype(np.int32), v[2], v[3], v[4],
                          v[5], v[6], v[7:7 + n_opt])


def cell_prices_options(*args, max_work_units: int) -> tuple[ScheduleChoice, jax.Array, jax.Array]:
    """``select_cell_prices`` plus every option's DP cost (12) (``inf`` if none) and schedule (N, T).

    Same arguments as ``select_cell_prices``; used to test each option against the oracle.
    """
    task = task_arrays(*args, max_work_units=max_work_units)
    with jax.enable_x64(True):
        return _cell_prices(task, max_work_units=max_work_units)


def _threshold_pairs(task: TaskArrays, w_max: int):
    """Candidate pairs (Lbar, Pbar) for ``select_exact``, sorted by a cost floor (NumPy).

    Returns ``(lbar, pbar, floor, active)``: ``floor`` lower-bounds the DP cost of
    any schedule under the pair, ``active`` marks the feasible options.
    """
    units = np.where(task.su > 0, np.clip(task.gunits, 0, w_max)[task.group], 0)  # as the DP
    n_slots = task.cp.shape[1]
    hi = min(int(task.deadline), n_slots - 1)
    st = np.clip(task.start, 0, n_slots)
    u_top, need = units.max(initial=0), int(task.need)
    active = task.valid & (np.maximum(hi - st + 1, 0) * u_top >= need)  # (4b)-(4e) can hold
    if not active.any():
        return np.zeros(0), np.zeros(0), np.zeros(0), active
    cells = (units > 0)[:, None] & (np.arange(n_slots) >= st[task.valid].min())[None, :]
    lam, phi = task.cp[:, : hi + 1][cells[:, : hi + 1]], task.mp[:, : hi + 1][cells[:, : hi + 1]]
    lvals, li = np.unique(lam, return_inverse=True)
    pvals, pi = np.unique(phi, return_inverse=True)
    # (L, P) is needed only if some cell has lambda == L and phi <= P and some cell has
    # phi == P and lambda <= L: otherwise a smaller pair admits the same cells.
    phi_at_l, lam_at_p = np.full(lvals.size, np.inf), np.full(pvals.size, np.inf)
    np.minimum.at(phi_at_l, li, phi)
    np.minimum.at(lam_at_p, pi, lam)
    il, ip = np.nonzero((phi_at_l[:, None] <= pvals) & (lam_at_p[None, :] <= lvals[:, None]))
    lb, pb = lvals[il], pvals[ip]
    # every schedule has sum s >= W * min(s/u) and #cells >= ceil(W / max u); e >= 0
    usable = units > 0
    ratio = (task.s[usable] / units[usable]).min()
    floor = lb * ratio * need + pb * float(task.r) * -(-need // u_top)
    order = np.argsort(floor, kind="stable")
    return lb[order], pb[order], floor[order], active


def select_exact(compute_price, memory_price, energy_price, energy_use, throughput,
                 throughput_units, group, group_units, memory_need, work_units, start, deadline,
                 fee, valid, bid, *, max_work_units: int, chunk: int = 64) -> ScheduleChoice:
    """Maximise F (10) exactly (beside the paper; same arguments as ``select_cell_prices``).

    For every threshold pair ``(Lbar, Pbar)`` -- a distinct ``lambda`` times a
    distinct ``phi`` among the usable cells of the widest window
    ``[min valid start, deadline]`` -- restrict to cells with ``lambda <= Lbar``
    and ``phi <= Pbar``, price each at ``s_ik Lbar + r_i Pbar + e_kt`` and run
    the DP; ``V = b_i - q_in - cost`` is a lower bound on the true F (10) of
    the DP's schedule (its real maxima are ``<= Lbar, Pbar``). Exactness: for
    an optimal schedule ``l*`` the pair ``(max lambda(l*), max phi(l*))`` admits
    ``l*`` at cost equal to its charge in (10), so ``max V >= F(l*)``; hence the
    schedule of the pair maximising ``V`` has true ``F >= F(l*)``, i.e. it is
    optimal. So only one backtrack per option is needed. Pairs that admit the
    same cells as a smaller pair are skipped, and pairs run in increasing order
    of a cost floor (``Lbar * W_i * min s/u + Pbar * r_i * ceil(W_i / max u)``),
    stopping once no option's best ``V`` can be beaten (branch and bound).

    Cost: up to ``(K*T)^2`` pairs, each ``O(T*G*W)`` -- meant for small
    instances. Pairs run in fixed-size chunks (``chunk``, vmapped), so the
    number of pairs never triggers a recompile; ties between pairs go to the
    first in that order.

    Returns
    -------
    ScheduleChoice
        With ``option_surplus[n]`` the exact maximum of (10) for option ``n``.
    """
    task = task_arrays(compute_price, memory_price, energy_price, energy_use, throughput,
                   throughput_units, group, group_units, memory_need, work_units, start, deadline,
                   fee, valid, bid, max_work_units=max_work_units)
    lb, pb, floor, active = _threshold_pairs(task, max_work_units)
    n_chunks = -(-lb.size // chunk)
    pad = n_chunks * chunk - lb.size
    ok = np.arange(n_chunks * chunk).reshape(-1, chunk) < lb.size
    lb, pb = (np.concatenate([x, np.zeros(pad)]).reshape(-1, chunk) for x in (lb, pb))
    n_opt = task.start.shape[0]
    with jax.enable_x64(True):
        # JAX arrays throughout (the jit cache keys NumPy and JAX arguments apart),
        # moved to the device once, not once per chunk
        dev = TaskArrays(*(jnp.asarray(a) for a in task))
        zero = np.zeros(n_opt)
        carry = tuple(jnp.asarray(c) for c in (zero - _INF, zero, zero))  # V, Lbar, Pbar
        for c in range(n_chunks):
            # Branch and bound: pairs come in increasing floor, so once no option's
            # incumbent V can be beaten (V <= b - q - floor), no later pair matters.
            if c > 0 and np.all(np.asarray(carry[0])[active]
                                >= task.bid - task.fee[active] - floor[c * chunk]):
                break
            carry = _exact_chunk(carry, lb[c], pb[c], ok[c], dev, max_work_units=max_work_units)
        return _exact_finish(carry, dev, max_work_units=max_work_units)


def node_groups(throughput_units, max_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Group nodes by their positive units value (NumPy helper for the DP's group minimum).

    Returns ``group`` (K,) int32 and ``group_units`` (max_groups,) int32 (0 for
    unused groups). Nodes with 0 units go to group 0 and are masked by
    ``throughput_units`` in the kernels. Raises ``InvalidInstanceError`` when
    there are more distinct positive values than ``max_groups`` (static ``G_max``).
    """
    su = np.asarray(throughput_units)
    if su.ndim != 1 or (su < 0).any():
        raise InvalidInstanceError("throughput_units", "expected a 1-d non-negative array")
    values = np.unique(su[su > 0])
    if values.size > max_groups:
        raise InvalidInstanceError(
            "throughput_units",
            f"{values.size} distinct positive values exceed max_groups={max_groups}")
    group_units = np.zeros(max_groups, np.int32)
    group_units[: values.size] = values
    group = np.zeros(su.shape, np.int32)
    group[su > 0] = np.searchsorted(values, su[su > 0])
    return group, group_units


def cache_size() -> int:
    """Compiled variants held by this module's jitted kernels (for no-recompile tests)."""
    return sum(f._cache_size() for f in (_cell_prices, _cell_prices_packed, _exact_chunk,
                                         _exact_finish))
