"""Exact pricing over at most two node classes without work units (JAX).

With prices equal on identical nodes (:func:`~aisched.online.lora.bound.pricing.node_classes`),
a task of the generator's mixed cluster sees two kinds of cell per slot ``j``: class 0
(gain ``s_0`` samples, cost ``c_0j``) and class 1 (``s_1``, ``c_1j``), every cost
``e + pi^c s + pi^m r >= 0``. Its pricing problem (one cell per slot (4b), slots from the
option's start to ``d_i`` (4c)-(4d), ``a s_0 + b s_1 >= M_i`` (4e) for ``a`` cells of class 0
and ``b`` of class 1) is solved exactly by counting cells instead of work units:

* costs are >= 0, so for ``a`` cells of class 0 the best uses exactly
  ``b(a) = ceil((M_i - a s_0) / s_1)`` of class 1 (none if ``a s_0 >= M_i``);
* exchange: sort the slots by ``c_0j - c_1j``; some optimal schedule has all its
  class-0 cells before its class-1 cells in that order (swapping a class-1 cell
  ``j`` before a class-0 cell ``j'`` changes the cost by ``d_j - d_j' <= 0``), so for
  a split ``p`` the class-0 cells are the ``a`` cheapest ``c_0`` among the first ``p``
  and the class-1 cells the ``b`` cheapest ``c_1`` among the rest;
* cost ``= min_{p, a} P[p, a] + S[p, b(a)]`` with ``P``/``S`` the prefix / suffix sums of
  the sorted costs: ``O(W^2 log W)`` per start slot for a window of ``W`` slots,
  against ``O(W M_i / unit)`` for the unit DP, and no rounding of work or
  throughput (exact for any real data).

Tasks are bucketed by window length (powers of two up to the horizon) and
vmapped in fixed-size batches; distinct option starts are evaluated once each.
The NumPy DP :func:`aisched.bounds.lora.bound.price_task` is the reference (tests).
"""

from __future__ import annotations

import math
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from aisched.models.lora import LoraInstance
from aisched.online.lora.bound.pricing import Priced

__all__ = ["TwoClassPricer", "cache_size"]


def _least_sums(c, reverse: bool = False):
    """``out[p, a]``: least sum of ``a`` entries of ``c[:p]`` (``c[p:]`` if ``reverse``), ``inf`` if fewer.

    A scan over the entries: ``row' = min(row, shift(row) + c_j)`` (take entry ``j`` or not).
    """
    W = c.shape[0]
    first = jnp.full(W + 1, jnp.inf).at[0].set(0.0)

    def step(row, cj):
        took = jnp.concatenate([jnp.full(1, jnp.inf), row[:-1] + cj])
        nxt = jnp.minimum(row, took)
        return nxt, nxt

    _, rows = jax.lax.scan(step, first, c, reverse=reverse)
    if reverse:  # rows[j] covers c[j:]; row W (nothing) is first
        return jnp.concatenate([rows, first[None, :]])
    return jnp.concatenate([first[None, :], rows])  # rows[j] covers c[:j + 1]


@partial(jax.jit, static_argnames=("width",))
def _price_two(cp, mp, ep, task, *, width: int):
    """Best reduced profit, option and class per window slot (-1 idle) of each task of a batch."""
    W = width
    pad = jnp.full((cp.shape[0], W), jnp.inf)
    cpp, mpp, epp = (jnp.concatenate([a, pad], axis=1) for a in (cp, mp, ep))
    idx = jnp.arange(W)
    counts = jnp.arange(W + 1)

    def one(use, s, r, work, lo, deadline, starts, start_ok, opt_q, opt_fee, opt_ok, bid):
        win = lambda a: jax.lax.dynamic_slice_in_dim(a, lo, W, axis=1)  # noqa: E731
        cost = use[:, None] * win(epp) + s[:, None] * win(cpp) + r * win(mpp)  # (2, W)
        cost = jnp.where((s[:, None] > 0) & ((lo + idx) <= deadline)[None, :], cost, jnp.inf)
        # class-1 cells needed with a class-0 cells: b(a); beyond W (or impossible) -> W + 1
        left = work - counts * s[0]
        need1 = jnp.where(s[1] > 0, jnp.ceil(jnp.maximum(left, 0.0) / jnp.where(s[1] > 0, s[1], 1.0) - 1e-9),
                          jnp.where(left <= 0, 0.0, W + 1.0))
        need1 = jnp.clip(need1, 0, W + 1).astype(jnp.int32)

        def at_start(start):
            c = jnp.where((lo + idx)[None, :] >= start, cost, jnp.inf)
            c0, c1 = c[0], c[1]
            d = jnp.where(jnp.isinf(c0), jnp.inf, jnp.where(jnp.isinf(c1), -jnp.inf, c0 - c1))
            order = jnp.argsort(d, stable=True)
            P = _least_sums(c0[order])  # (W+1, W+1): P[p, a] least sum of a of the first p
            S = _least_sums(c1[order], reverse=True)  # S[p, b]: least sum of b of those from p on
            S = jnp.concatenate([S, jnp.full((W + 1, 1), jnp.inf)], axis=1)  # b = W + 1: impossible
            F = P + S[:, need1]  # (p, a)
            flat = jnp.argmin(F)
            return F.ravel()[flat], flat // (W + 1), flat % (W + 1), order

        costs, ps, As, orders = jax.vmap(at_start)(starts)
        costs = jnp.where(start_ok, costs, jnp.inf)
        profit = jnp.where(opt_ok, bid - opt_fee - costs[opt_q], -jnp.inf)
        option = jnp.argmax(profit)
        q = opt_q[option]
        best, p, a, order = profit[option], ps[q], As[q], orders[q]
        b = need1[a]
        c = jnp.where((lo + idx)[None, :] >= starts[q], cost, jnp.inf)
        c0s, c1s = c[0][order], c[1][order]
        rank0 = jnp.argsort(jnp.argsort(jnp.where(idx < p, c0s, jnp.inf), stable=True), stable=True)
        rank1 = jnp.argsort(jnp.argsort(jnp.where(idx >= p, c1s, jnp.inf), stable=True), stable=True)
        cls_sorted = jnp.where((idx < p) & (rank0 < a), 0, jnp.where((idx >= p) & (rank1 < b), 1, -1))
        cls = jnp.zeros(W, jnp.int32).at[order].set(cls_sorted.astype(jnp.int32))
        cls = jnp.where(jnp.isfinite(best), cls, -1)
        return best, option, cls

    return jax.vmap(one)(*task)


def cache_size() -> int:
    """Compiled variants of the two-class kernel (one per (window, batch) bucket)."""
    return _price_two._cache_size()


def _pow2(x: int) -> int:
    return 1 << max(3, int(max(x, 1) - 1).bit_length())


class TwoClassPricer:
    """Exact pricing of every task over (at most) two node classes, batched by window length.

    Parameters
    ----------
    instance
        The problem.
    nodes
        One representative node per class (one or two), e.g.
        ``node_classes(instance).representative``; prices are over ``(len(nodes), T)``.
    cells
        Target number of table entries per kernel call (memory per call).
    """

    def __init__(self, instance: LoraInstance, nodes: np.ndarray, *, cells: int = 1 << 23) -> None:
        nodes = np.asarray(nodes, np.int64)
        if not 1 <= nodes.size <= 2:
            raise ValueError("TwoClassPricer serves one or two node classes")
        self.instance, self.nodes = instance, nodes
        n, T, N = instance.num_tasks, instance.num_slots, instance.num_vendors
        use, price = instance.energy_factors()
        pad = 2 - nodes.size
        self.s = np.pad(np.asarray(instance.throughput, float)[:, nodes], ((0, 0), (0, pad)))  # 0: unusable
        self.use = np.pad(np.asarray(use, float)[:, nodes], ((0, 0), (0, pad)))
        self.energy_price = np.pad(np.asarray(price, float)[nodes], ((0, pad), (0, 0)))
        self.classes = nodes.size
        pre = np.asarray(instance.needs_preprocessing, bool)
        if N:
            option_start = np.where(pre[:, None], instance.arrival[:, None] + instance.vendor_delay, -1)  # (4c)
            option_fee = np.where(pre[:, None], instance.vendor_price, 0.0)
        else:
            option_start, option_fee = np.full((n, 0), -1), np.zeros((n, 0))
        # option 0 .. N-1: vendors (pre-processed tasks); option N: no vendor (the others)
        self.option_start = np.concatenate([option_start, np.where(pre, -1, instance.arrival)[:, None]], axis=1)
        self.option_fee = np.concatenate([option_fee, np.zeros((n, 1))], axis=1)
        self.option_ok = (self.option_start >= 0) & (self.option_start <= instance.deadline[:, None])
        starts = [np.unique(self.option_start[i][self.option_ok[i]]) for i in range(n)]
        width_s = max(1, max((u.size for u in starts), default=1))
        self.starts = np.full((n, width_s), T, np.int64)
        for i, u in enumerate(starts):
            self.starts[i, :u.size] = u
        self.start_ok = self.starts < T
        opt_q = np.argmax(self.option_start[:, :, None] == self.starts[:, None, :], axis=2)  # option -> start
        deadline = np.minimum(instance.deadline, T - 1).astype(np.int64)
        lo = np.where(self.start_ok, self.starts, T).min(axis=1)
        self.lo = np.minimum(lo, T - 1)
        length = np.maximum(deadline - self.lo + 1, 1)
        self._fields = (self.use, self.s, np.asarray(instance.memory_need, float), np.asarray(instance.work, float),
                        self.lo.astype(np.int32), deadline.astype(np.int32), self.starts.astype(np.int32),
                        self.start_ok, opt_q.astype(np.int32), self.option_fee, self.option_ok,
                        np.asarray(instance.bid, float))
        self._fill = (0.0, 0.0, 0.0, 1.0, 0, -1, T, False, 0, 0.0, False, 0.0)
        buckets: dict[int, list[int]] = {}
        for i in range(n):
            buckets.setdefault(min(_pow2(int(length[i])), T), []).append(i)
        self.buckets = {w: (np.array(ids), max(1, min(1 << 12, cells // (width_s * 3 * (w + 1) ** 2))))
                        for w, ids in sorted(buckets.items())}

    def price(self, compute_price: np.ndarray, memory_price: np.ndarray) -> Priced:
        """Best reduced profit and schedule of every task under the ``(len(nodes), T)`` prices."""
        inst, n, T = self.instance, self.instance.num_tasks, self.instance.num_slots
        pad = 2 - self.classes
        cp = np.pad(np.asarray(compute_price, float), ((0, pad), (0, 0)))
        mp = np.pad(np.asarray(memory_price, float), ((0, pad), (0, 0)))
        profit, option = np.full(n, -math.inf), np.zeros(n, np.int64)
        assignment = np.full((n, T), -1, np.int64)
        with jax.enable_x64(True):
            cpj, mpj, epj = (jnp.asarray(a) for a in (cp, mp, self.energy_price))
            for width, (ids, batch) in self.buckets.items():
                batch = 1 << int(min(batch, ids.size) - 1).bit_length() if ids.size > 1 else 1
                for b0 in range(0, ids.size, batch):
                    part = ids[b0:b0 + batch]
                    fill = batch - part.size
                    chunk = tuple(jnp.asarray(np.concatenate([f[part], np.full((fill,) + f.shape[1:], v, f.dtype)]))
                                  for f, v in zip(self._fields, self._fill, strict=True))
                    p, o, cls = _price_two(cpj, mpj, epj, chunk, width=width)
                    profit[part], option[part] = np.asarray(p)[:part.size], np.asarray(o)[:part.size]
                    cls = np.asarray(cls)[:part.size]
                    slots = self.lo[part, None] + np.arange(width)[None, :]
                    r, c = np.nonzero((slots < T) & (cls >= 0))
                    assignment[part[r], slots[r, c]] = self.nodes[cls[r, c]]
        ok = np.isfinite(profit)
        assignment[~ok] = -1
        vendor = np.where(ok & (option < inst.num_vendors), option, -1)
        return _finish(inst, profit, vendor, assignment)


def _finish(inst: LoraInstance, profit: np.ndarray, vendor: np.ndarray, assignment: np.ndarray) -> Priced:
    """Priced from profit, vendor and assignment: each schedule's value and work recomputed."""
    n, T = inst.num_tasks, inst.num_slots
    used = assignment >= 0
    k = np.maximum(assignment, 0)
    rows = np.arange(n)[:, None]
    use, price = inst.energy_factors()
    energy = np.where(used, use[rows, k] * price[k, np.arange(T)[None, :]], 0.0)
    fee = np.where(vendor >= 0, inst.vendor_price[np.arange(n), np.maximum(vendor, 0)], 0.0) if inst.num_vendors \
        else np.zeros(n)
    ok = np.isfinite(profit)
    value = np.where(ok, inst.bid - fee - energy.sum(axis=1), -math.inf)
    work = np.where(used, inst.throughput[rows, k], 0.0).sum(axis=1)
    return Priced(profit, vendor, assignment, value, work)
