"""Exact pricing of IP (4)'s Lagrangian / configuration LP, batched over tasks (JAX).

For prices ``pi^c_kt, pi^m_kt >= 0`` on (4f)-(4g), task ``i``'s pricing problem is::

    max over vendors n and schedules l of  b_i - q_in - sum_{(k,t) in l} (e_ikt + pi^c_kt s_ik + pi^m_kt r_i)

over the schedules IP (4) allows the task alone: at most one node per slot
(4b), slots in ``[a_i + h_in, d_i]`` (4c)-(4d), work ``>= M_i`` (4e). This is
DP (13) of pdFTSP with each cell at its own price, which
:mod:`aisched.online.lora.pdftsp.kernel` already implements (``_cell_prices``:
one backward DP ``g[t, w]`` serving every option, nodes grouped by their work
units). Here it is ``jax.vmap``-ed over a fixed-size batch of tasks: the prices
(K, T) are shared, the task data are stacked and padded, so one compilation
serves every batch and every round (``cache_size()``).

Units: throughput is rounded *up* and work *down* to whole units of ``unit``
(at least one unit, since (4e) with ``M_i > 0`` needs one cell): every
schedule IP (4) allows stays allowed, so the DP optimum is an upper bound on
the task's true best (exact when work and throughput are whole multiples of
``unit``, the case of :func:`aisched.scenarios.lora.generate`).
"""

from __future__ import annotations

import math
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from aisched.models.lora import LoraInstance
from aisched.online.lora.pdftsp import kernel

__all__ = ["BatchPricer", "NodeClasses", "Priced", "cache_size", "node_classes"]


class Priced(NamedTuple):
    """Every task's best schedule under the prices (NumPy arrays over tasks).

    profit : (I,) -- best reduced profit, ``-inf`` if the task has no schedule.
    vendor : (I,) int -- chosen vendor, -1 for a task without pre-processing (or none).
    assignment : (I, T) int -- node per slot, -1 idle.
    value : (I,) -- ``b_i - q_in - sum e_ikt`` of that schedule (its welfare alone).
    work : (I,) -- samples the schedule processes (true throughput).
    """

    profit: np.ndarray
    vendor: np.ndarray
    assignment: np.ndarray
    value: np.ndarray
    work: np.ndarray


@partial(jax.jit, static_argnames=("width", "max_work_units"))
def _price_window(cp, mp, ep, task, *, width: int, max_work_units: int):
    """Exact pricing of a batch of tasks over windows of ``width`` slots and ``max_work_units`` units.

    Per task: ``delta[k, j] = e_k,lo+j + pi^c s_k + pi^m r`` on the window
    ``lo..lo+width-1`` (``inf`` past the deadline or on unusable nodes), its
    minimum per node group (same units), the backward DP (13)
    ``g[j, w] = min(g[j+1, w], min_groups g[j+1, max(0, w - u)] + dmin[group, j])``
    (a ``lax.scan``), each option's cost ``g[start_n - lo, need]``, and one
    forward backtrack of the best option.
    """
    W = max_work_units
    pad = jnp.full((cp.shape[0], width), jnp.inf)
    cpp, mpp, epp = (jnp.concatenate([a, pad], axis=1) for a in (cp, mp, ep))

    def one(eu, s, group, gunits, r, need, start, lo, deadline, fee, valid, bid):
        n_groups = gunits.shape[0]
        win = lambda a: lax.dynamic_slice_in_dim(a, lo, width, axis=1)  # noqa: E731
        slot_ok = (lo + jnp.arange(width)) <= deadline
        usable = s > 0
        delta = eu[:, None] * win(epp) + s[:, None] * win(cpp) + r * win(mpp)
        delta = jnp.where(usable[:, None] & slot_ok[None, :], delta, jnp.inf)
        dmins, amins = [], []
        for g in range(n_groups):
            x = jnp.where((group == g)[:, None], delta, jnp.inf)
            d = jnp.min(x, axis=0)
            dmins.append(jnp.where(gunits[g] > 0, d, jnp.inf))
            amins.append(jnp.argmin(x, axis=0).astype(jnp.int32))
        dmin, amin = jnp.stack(dmins, axis=1), jnp.stack(amins, axis=1)  # (width, G)
        base = jnp.full(W + 1, jnp.inf).at[0].set(0.0)
        zeros = jnp.zeros(W)

        def back(g_next, d_j):
            padded = jnp.concatenate([zeros, g_next])  # padded[W + w] = g_next[w]; w < 0 -> 0
            run = jnp.full(W + 1, jnp.inf)
            for g in range(n_groups):
                shifted = lax.dynamic_slice(padded, (W - gunits[g],), (W + 1,))
                run = jnp.minimum(run, shifted + d_j[g])
            g_now = jnp.minimum(g_next, run)
            return g_now, g_now

        _, rows = lax.scan(back, base, dmin, reverse=True)
        table = jnp.concatenate([rows, base[None, :]])  # (width + 1, W + 1): table[j] = g[j]
        first = jnp.clip(start - lo, 0, width)
        cost = table[first, need]
        ok = valid & (start <= deadline) & jnp.isfinite(cost)
        profit = jnp.where(ok, bid - fee - cost, -jnp.inf)
        best = jnp.argmax(profit)
        j0 = first[best]

        def forward(w, j):
            d_j, g_next = dmin[j], table[j + 1]
            w_after = jnp.maximum(w - gunits, 0)
            vals = g_next[w_after] + d_j
            pick = jnp.argmin(vals)
            run = (j >= j0) & (w > 0) & (vals[pick] < g_next[w])
            k = jnp.where(run, amin[j, pick], -1)
            return jnp.where(run, w_after[pick], w), k

        _, nodes = lax.scan(forward, jnp.where(jnp.isfinite(profit[best]), need, 0), jnp.arange(width))
        return profit[best], best, nodes

    return jax.vmap(one)(*task)


class NodeClasses(NamedTuple):
    """Nodes grouped by identical data (see :func:`node_classes`).

    of_node : (K,) int -- each node's class.
    representative : (C,) int -- the first node of each class.
    count : (C,) int -- nodes per class.
    """

    of_node: np.ndarray
    representative: np.ndarray
    count: np.ndarray


def node_classes(instance: LoraInstance, *, merge: bool = True) -> NodeClasses:
    """Classes of nodes that IP (4) cannot tell apart: equal ``C_kp``, ``C_km`` and, for every task
    and slot, ``s_ik``, energy use and energy price (so ``e_ikt``); ``merge=False``: one class per node.

    Permuting the nodes of a class maps IP (4) to itself; the Lagrangian ``L(pi)`` is convex and
    invariant under such permutations, so the class mean of any prices has ``L`` no larger (Jensen),
    and the configuration LP has optimal duals equal within each class.
    """
    K = instance.num_nodes
    if not merge or K == 0:
        return NodeClasses(np.arange(K), np.arange(K), np.ones(K, np.int64))
    use, price = instance.energy_factors()
    key = np.concatenate([instance.compute_capacity[:, None], instance.memory_capacity[:, None],
                          np.asarray(instance.throughput, float).T, np.asarray(use, float).T,
                          np.asarray(price, float)], axis=1)
    _, first, of_node, count = np.unique(key, axis=0, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first)  # classes numbered by their first node
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return NodeClasses(rank[of_node.ravel()], first[order], count[order])


def cache_size() -> int:
    """Compiled variants of the batched pricing kernel (one per (window, units, batch) bucket)."""
    return _price_window._cache_size()


def _pow2(x: int, least: int = 8) -> int:
    return 1 << max(least.bit_length() - 1, int(max(x, 1) - 1).bit_length())


class BatchPricer:
    """Exact pricing of every task of ``instance``, batched by window and work size.

    Tasks are bucketed by (window length, work units), each rounded up to a
    power of two, so a few compilations serve all tasks and every later round
    (the prices are array arguments). A bucket runs in batches of a fixed size
    chosen so a batch's DP tables stay near ``cells`` floats.

    Parameters
    ----------
    instance
        The problem.
    unit
        Work unit of the DP (samples); see the module docstring for rounding.
    nodes
        The nodes the tasks may use (default all): prices are then over
        ``(len(nodes), T)`` and schedules name these nodes. With one
        representative per class of :func:`node_classes` and prices equal
        within each class, the result is the same as over all nodes.
    cells
        Target number of DP-table entries per kernel call (memory per call).
    """

    def __init__(self, instance: LoraInstance, unit: float, *, nodes: np.ndarray | None = None,
                 cells: int = 1 << 22) -> None:
        self.instance, self.unit = instance, float(unit)
        self.nodes = np.arange(instance.num_nodes) if nodes is None else np.asarray(nodes, np.int64)
        n, K = instance.num_tasks, self.nodes.size
        s = np.asarray(instance.throughput, dtype=float)[:, self.nodes]
        units = np.where(s > 0, np.ceil(s / unit - 1e-9), 0).astype(np.int64)  # rounded up: relaxation
        need = np.maximum(np.floor(instance.work / unit + 1e-9), 1).astype(np.int64)  # rounded down
        units = np.minimum(units, need[:, None])  # a node finishing the task in one slot: same DP
        distinct = max((np.unique(u[u > 0]).size for u in units), default=1)
        self.max_groups = 1 << max(0, (max(distinct, 1) - 1).bit_length())
        group = np.zeros((n, K), np.int32)
        gunits = np.zeros((n, self.max_groups), np.int32)
        for i in range(n):
            group[i], gunits[i] = kernel.node_groups(units[i], self.max_groups)
        N = max(instance.num_vendors, 1)
        start = np.repeat(instance.arrival[:, None], N, axis=1).astype(np.int64)
        fee = np.zeros((n, N))
        valid = np.zeros((n, N), bool)
        valid[:, 0] = True
        pre = np.asarray(instance.needs_preprocessing, bool)
        if instance.num_vendors:
            start[pre] = instance.arrival[pre, None] + instance.vendor_delay[pre]  # (4c)
            fee[pre] = instance.vendor_price[pre]
            valid[pre] = True
        self.preprocessed = pre
        use, energy_price = instance.energy_factors()
        use, self.energy_price = np.asarray(use, float)[:, self.nodes], np.asarray(energy_price, float)[self.nodes]
        T = instance.num_slots
        deadline = np.minimum(instance.deadline, T - 1).astype(np.int64)
        lo = np.where(valid, start, T).min(axis=1)
        lo = np.minimum(lo, T - 1)
        length = np.maximum(deadline - lo + 1, 1)
        self._fields = (use, s, group, gunits, np.asarray(instance.memory_need, float),
                        need.astype(np.int32), start.astype(np.int32), lo.astype(np.int32),
                        deadline.astype(np.int32), fee, valid, np.asarray(instance.bid, float))
        self._fill = (0.0, 0.0, 0, 0, 0.0, 1, T, 0, -1, 0.0, False, 0.0)  # padding: a task with no option
        self._lo = lo
        buckets: dict[tuple[int, int], list[int]] = {}
        for i in range(n):
            buckets.setdefault((min(_pow2(int(length[i])), _pow2(T)), _pow2(int(need[i]))), []).append(i)
        self.buckets = {key: (np.array(ids), max(8, _pow2(cells // ((key[0] + 1) * (key[1] + 1)), 8)))
                        for key, ids in sorted(buckets.items())}
        whole = lambda a: bool(np.all(np.abs(a / unit - np.round(a / unit)) <= 1e-9 * np.maximum(1, a / unit)))  # noqa: E731
        self.exact = whole(np.asarray(instance.work, float)) and whole(s[s > 0])

    def price(self, compute_price: np.ndarray, memory_price: np.ndarray) -> Priced:
        """Best reduced profit and schedule of every task under the ``(len(nodes), T)`` prices.

        ``assignment`` names instance nodes (``nodes[j]``), -1 idle.
        """
        inst, n, T = self.instance, self.instance.num_tasks, self.instance.num_slots
        profit = np.full(n, -math.inf)
        option = np.zeros(n, np.int64)
        assignment = np.full((n, T), -1, np.int64)
        with jax.enable_x64(True):
            cp = jnp.asarray(np.asarray(compute_price, float))
            mp = jnp.asarray(np.asarray(memory_price, float))
            ep = jnp.asarray(np.asarray(self.energy_price, float))
            for (width, w_max), (ids, batch) in self.buckets.items():
                batch = min(batch, _pow2(ids.size, 1))
                for b in range(0, ids.size, batch):
                    part = ids[b:b + batch]
                    pad = batch - part.size
                    chunk = tuple(jnp.asarray(np.concatenate([f[part], np.full((pad,) + f.shape[1:], v, f.dtype)]))
                                  for f, v in zip(self._fields, self._fill, strict=True))
                    p, o, nodes = _price_window(cp, mp, ep, chunk, width=width, max_work_units=w_max)
                    p, o, nodes = np.asarray(p)[:part.size], np.asarray(o)[:part.size], np.asarray(nodes)[:part.size]
                    profit[part], option[part] = p, o
                    slots = self._lo[part, None] + np.arange(width)[None, :]
                    inside = (slots < T) & (nodes >= 0)
                    r, c = np.nonzero(inside)
                    assignment[part[r], slots[r, c]] = nodes[r, c]
        ok = np.isfinite(profit)
        assignment[~ok] = -1
        assignment = np.where(assignment >= 0, self.nodes[np.maximum(assignment, 0)], -1)
        vendor = np.where(self.preprocessed & ok, option, -1)
        used = assignment >= 0
        k = np.maximum(assignment, 0)
        rows = np.arange(n)[:, None]
        use, _ = inst.energy_factors()
        energy_price = inst.energy_factors()[1]
        energy = np.where(used, use[rows, k] * energy_price[k, np.arange(T)[None, :]], 0.0)
        fee = (np.where(vendor >= 0, inst.vendor_price[np.arange(n), np.maximum(vendor, 0)], 0.0)
               if inst.num_vendors else np.zeros(n))
        value = np.where(ok, inst.bid - fee - energy.sum(axis=1), -math.inf)
        work = np.where(used, inst.throughput[rows, k], 0.0).sum(axis=1)
        return Priced(profit, vendor, assignment, value, work)
