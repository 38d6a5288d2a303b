"""Algorithm 2 as printed (line 13's running maxima): the one implementation of ``selection="faithful"``.

Algorithm 2 (lines 8-15) runs, per labour-vendor option ``n``, the forward DP

    dp[t, w] = min{ dp[t-1, w],  min_k dp[t-1, w - s_ik] + Delta_kt }          (13)

with ``dp[t, 0] = 0`` and ``lambda-hat = phi-hat = 0`` at the start (line 9), and line 13
computes ``Delta_kt = s_ik * lambda-hat_kt + r_i * phi-hat_kt + e_ikt`` "based on
``dp[t-1, w - s_ik]`` and ``lambda_kt^(i-1)``, ``phi_kt^(i-1)``": ``lambda-hat`` and
``phi-hat`` are the variables of (12c)-(12d), the largest dual price on the schedule. They
are carried with each DP state: the state reached from ``dp[t-1, w - s_ik]`` through cell
``(k, t)`` has ``lambda-hat[t, w] = max(lambda-hat[t-1, w - s_ik], lambda_kt)`` (same for
``phi-hat``), and an idle slot keeps the predecessor's maxima. This DP is a heuristic for
(12) (a cell is not re-priced when a later cell raises the maximum), as the paper prints
it; :func:`aisched.online.lora.pdftsp.kernel.select_exact` maximises (10) exactly and
``select_cell_prices`` prices each cell at its own duals. The option of largest true F (10)
wins (line 5). Tie-breaking (the NumPy oracle
:func:`aisched.online.lora.pdftsp.reference.select_faithful_reference` does the same): a
state stays idle when idling costs no more than running; among nodes of equal cost the
lowest index; among options the largest F, then the lowest index.

Run over every node ``k`` and every work level ``w = 0..W_i`` this is ``O(N * window * K *
W_i)`` per task (a 200-node, 1,000-unit task took ~0.1 s). This module computes the SAME
table entries, with the same floating-point operations in the same order, on fewer of them:

1. **Node fronts.** Call two nodes of one *class* when they have the same
   throughput ``s_ik`` and energy use for every task (so the same units and
   the same ``s_ik``, ``e_ikt = energy_use_ik * energy_price_kt``). In slot
   ``t``, node ``j`` is *dominated* when a node ``k < j`` of its class has
   ``lambda_kt <= lambda_jt``, ``phi_kt <= phi_jt`` and ``energy_price_kt <=
   energy_price_jt``. From any DP state, line 13's cost through ``k``,
   ``dp[t-1, p] + s max(lhat, lambda_kt) + r max(phat, phi_kt) + e_kt``, is then
   ``<=`` that through ``j`` (floating-point rounding is monotone), and on a tie
   the lower index ``k`` wins; so ``j`` is never the node the DP picks and can
   be left out. The front (the undominated nodes) is kept per slot and updated
   only where Algorithm 1 raised prices (prices only rise, (7)-(8)).
2. **Reachable work.** ``dp[t, w]`` reads only ``dp[t-1, max(0, w - u)]`` for
   the task's units values ``u``, so ``dp[d_i, W_i]`` depends only on the
   levels ``R = {max(0, W_i - sum of units)}``: with two GPU kinds about 50
   levels instead of ``W_i + 1 = 1,000``. The DP runs on ``R``.

Together: ``O(distinct starts * window * |front| * |R|)`` per task. F (10) of
each option's schedule and the option choice (line 5) are computed in NumPy
exactly as the oracle :func:`aisched.online.lora.pdftsp.reference.select_faithful_reference`
does, so plans and payments are bit-identical to it (tests). The DP values
themselves may differ from the oracle's in the last bit: XLA:CPU contracts
``a * b + c`` into a fused multiply-add; on
integer-valued prices (exact products) they are identical, ties included.

Static shapes: the kernel compiles once per (T, front width ``C``, level width,
``G``, ``N``); ``C`` starts at 64 (or ``K``'s power of two) and only grows
(doubling) when a front outgrows it, and the level width is fixed per instance
(``MAX_WORK_UNITS``-sized blocks), so a paper-scale day compiles once.

Entry points: :class:`Fronts` plus :func:`select_with_fronts` (what
:class:`~aisched.online.lora.pdftsp.PdftspState` runs, fronts kept across tasks), and
:func:`select_faithful` / :func:`faithful_options` for one task with
:func:`~aisched.online.lora.pdftsp.kernel.select_cell_prices`'s arguments (fronts built
for that task alone).

Around the kernel (same results, less per-task work): :meth:`Fronts.raised`
updates only the raised node's class, in all the schedule's slots at once; F
(10)'s schedule parts are computed once per distinct start; node classes come
from a fingerprint checked exactly (:func:`node_classes`).
"""

from __future__ import annotations

from functools import lru_cache

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from aisched.online.lora.pdftsp.kernel import ScheduleChoice, task_arrays

__all__ = ["node_classes", "Fronts", "reachable_levels", "level_width", "select_with_fronts",
           "select_faithful", "faithful_options", "cache_size"]

_INF = np.inf


def node_classes(throughput: np.ndarray, energy_use: np.ndarray) -> np.ndarray:
    """Class id (K,) int32: nodes with the same throughput and energy use for every task.

    ``throughput`` and ``energy_use`` are (tasks, K) or (K,) for one task.
    """
    s = np.atleast_2d(np.asarray(throughput, float)) + 0.0  # -0.0 -> 0.0
    e = np.atleast_2d(np.asarray(energy_use, float)) + 0.0
    n_nodes = s.shape[1]
    if s.shape[0] == 0:
        return np.zeros(n_nodes, np.int32)
    # np.unique(axis=0) on the (K, 2 x tasks) columns sorts long rows (~1 s at paper scale);
    # instead group nodes by a fingerprint (equal columns give equal sums: same values, same
    # operations), check that each node's columns equal its group's first node's (else group
    # by the columns' bytes), then label the few distinct nodes in lexicographic order (np.unique's)
    rng = np.random.default_rng(0)
    finger = ((s * (rng.random((s.shape[0], 1)) + 0.5)).sum(axis=0)
              + (e * (rng.random((e.shape[0], 1)) + 0.5)).sum(axis=0))
    first: dict = {}
    row_of = np.array([first.setdefault(float(f), k) for k, f in enumerate(finger)])
    if not (np.array_equal(s, s[:, row_of]) and np.array_equal(e, e[:, row_of])):
        first = {}  # a fingerprint collision (or NaN): the exact way
        row_of = np.array([first.setdefault(s[:, k].tobytes() + e[:, k].tobytes(), k)
                           for k in range(n_nodes)])
    distinct = np.unique(row_of)
    cols = np.concatenate([s[:, distinct].T, e[:, distinct].T], axis=1)
    label = np.empty(distinct.size, np.int64)  # lexicographic rank, as np.unique(axis=0)
    label[np.lexsort(cols.T[::-1])] = np.arange(distinct.size)
    return label[np.searchsorted(distinct, row_of)].astype(np.int32)


def _dominated(cp, mp, ep, cls, cand, nodes):
    """``dominated[i]``: some candidate ``j < nodes[i]`` of its class has all three values ``<=``.

    ``cp``, ``mp``, ``ep`` are (K,) values of one slot; ``cand`` and ``nodes`` index arrays.
    """
    c = cand[None, :]
    n = nodes[:, None]
    dom = ((c < n) & (cls[c] == cls[n]) & (cp[c] <= cp[n]) & (mp[c] <= mp[n]) & (ep[c] <= ep[n]))
    return dom.any(axis=1)


class Fronts:
    """Per-slot fronts of undominated nodes (reduction 1), sorted by node index.

    Attributes
    ----------
    nodes : (T, C) int32 -- front nodes per slot, ascending, padded with ``K``.
    compute_price, memory_price, energy_price : (T, C) float64 -- their prices (0 on padding).
    """

    def __init__(self, compute_price, memory_price, energy_price, node_class, width: int = 64) -> None:
        self.cp, self.mp, self.ep = compute_price, memory_price, energy_price  # (K, T), live views
        self.cls = np.asarray(node_class, np.int32)
        n_nodes, n_slots = self.cp.shape
        self.n_nodes = n_nodes
        width = min(width, 1 << max(0, int(n_nodes - 1).bit_length()))  # a front has <= K nodes
        self.width = width
        self.nodes = np.full((n_slots, width), n_nodes, np.int32)
        self.compute_price = np.zeros((n_slots, width))
        self.memory_price = np.zeros((n_slots, width))
        self.energy_price = np.zeros((n_slots, width))
        # class members (n_classes, largest class), ascending, padded with K: :meth:`raised`
        sizes = np.bincount(self.cls) if n_nodes else np.zeros(1, np.int64)
        self._members = np.full((sizes.size, max(int(sizes.max()), 1)), n_nodes, np.int64)
        for c in range(sizes.size):
            self._members[c, : sizes[c]] = np.nonzero(self.cls == c)[0]
        everyone = np.arange(n_nodes)
        for t in range(n_slots):
            cp, mp, ep = self.cp[:, t], self.mp[:, t], self.ep[:, t]
            # a node equal to a lower one of its class is dominated: test against the
            # first node of each distinct (class, prices) first, then the survivors
            key = np.stack([self.cls, cp, mp, ep], axis=1)
            first = np.unique(key, axis=0, return_index=True)[1]
            keep = np.zeros(n_nodes, bool)
            keep[first] = True
            alive = everyone[keep]
            alive = alive[~_dominated(cp, mp, ep, self.cls, alive, alive)]
            self._store(t, alive)

    def _grow(self, size: int) -> None:
        if size > self.width:
            width = 1 << int(size - 1).bit_length()
            grow = width - self.width
            self.nodes = np.pad(self.nodes, ((0, 0), (0, grow)), constant_values=self.n_nodes)
            for name in ("compute_price", "memory_price", "energy_price"):
                setattr(self, name, np.pad(getattr(self, name), ((0, 0), (0, grow))))
            self.width = width

    def _store(self, t: int, alive: np.ndarray) -> None:
        self._grow(alive.size)
        m = alive.size
        self.nodes[t, :m] = alive
        self.nodes[t, m:] = self.n_nodes
        self.compute_price[t, :m] = self.cp[alive, t]
        self.memory_price[t, :m] = self.mp[alive, t]
        self.energy_price[t, :m] = self.ep[alive, t]
        self.compute_price[t, m:] = self.memory_price[t, m:] = self.energy_price[t, m:] = 0.0

    def raised(self, nodes, slots) -> None:
        """Fronts after Algorithm 1 raised the prices of the cells ``(nodes[i], slots[i])`` only.

        Same result as :meth:`update` (``slots``), computed for all slots at once and only
        for the raised node's class: with one raised node ``j`` per slot, a node of
        another class keeps its status (dominance is within a class); if ``j`` was
        not in the front, nothing changes (its dominator's prices did not move); else
        the class's new front is found as in :meth:`update`. Falls back to
        :meth:`update` when a slot has more than one raised cell.
        """
        nodes = np.asarray(nodes, np.int64).ravel()
        slots = np.asarray(slots, np.int64).ravel()
        if slots.size == 0:
            return
        if np.unique(slots).size != slots.size:
            self.update(slots)
            return
        n_nodes = self.n_nodes
        hit = (self.nodes[slots] == nodes[:, None]).any(axis=1)
        ts, c = slots[hit], self.cls[nodes[hit]]
        if ts.size == 0:
            return
        col = ts[:, None]
        members = self._members[c]  # (U, Kc), K on padding
        mok = members < n_nodes
        mem = np.where(mok, members, 0)
        price = lambda idx: (self.cp[idx, col], self.mp[idx, col], self.ep[idx, col])  # noqa: E731
        old = self.nodes[ts]  # (U, C)
        width = int((old < n_nodes).sum(axis=1).max())
        old = old[:, :width]
        oreal = old < n_nodes
        oidx = np.where(oreal, old, 0)
        ok_old = oreal & (self.cls[oidx] == c[:, None])  # the old front's members of the class
        # superset: class members no old member of the class dominates (current prices)
        dom = _dominated_rows(price(oidx), ok_old, oidx, price(mem), mem)
        sup = mok & ~dom
        size = max(int(sup.sum(axis=1).max()), 1)
        order = np.argsort(~sup, axis=1, kind="stable")[:, :size]  # superset first, ascending
        sidx = np.take_along_axis(mem, order, axis=1)
        sok = np.take_along_axis(sup, order, axis=1)
        sprice = price(sidx)
        alive = sok & ~_dominated_rows(sprice, sok, sidx, sprice, sidx)
        merged = np.concatenate([np.where(oreal & ~ok_old, old, n_nodes),
                                 np.where(alive, sidx, n_nodes)], axis=1)
        merged = np.sort(merged, axis=1)
        count = (merged < n_nodes).sum(axis=1)
        self._grow(int(count.max()))
        merged = merged[:, : self.width]
        if merged.shape[1] < self.width:
            merged = np.pad(merged, ((0, 0), (0, self.width - merged.shape[1])),
                            constant_values=n_nodes)
        real = merged < n_nodes
        midx = np.where(real, merged, 0)
        self.nodes[ts] = merged
        for name, values in zip(("compute_price", "memory_price", "energy_price"), price(midx)):
            getattr(self, name)[ts] = np.where(real, values, 0.0)

    def update(self, slots) -> None:
        """Recompute the fronts of ``slots`` after their prices rose (any prices may have changed).

        Nodes not dominated by the old front's members (a subset of all nodes) are a
        superset of the new front; the new front is that superset less the nodes a
        lower member of it dominates (a dominated node is dominated by a front node).
        """
        everyone = np.arange(self.n_nodes)
        for t in np.unique(np.asarray(slots)):
            t = int(t)
            cp, mp, ep = self.cp[:, t], self.mp[:, t], self.ep[:, t]
            old = self.nodes[t][self.nodes[t] < self.n_nodes]
            superset = everyone[~_dominated(cp, mp, ep, self.cls, old, everyone)]
            self._store(t, superset[~_dominated(cp, mp, ep, self.cls, superset, superset)])


def _dominated_rows(cand_price, cand_ok, cand, node_price, nodes) -> np.ndarray:
    """Per row ``u``: ``dominated[u, i]``, some valid candidate ``j < nodes[u, i]`` has all
    three prices ``<=`` (rows share a class, so no class test). Prices are triples of (U, n)."""
    dom = cand_ok[:, :, None] & (cand[:, :, None] < nodes[:, None, :])
    for a, b in zip(cand_price, node_price):
        dom &= a[:, :, None] <= b[:, None, :]
    return dom.any(axis=1)


@lru_cache(maxsize=16384)
def _levels(need: int, units: tuple[int, ...]) -> np.ndarray:
    """``{need - s : s a sum of units, s < need} | {0, need}``, ascending.

    From ``need``, each step goes to ``max(0, w - u)``: a level above 0 is ``need``
    less a sum of units (any order: the levels on the way stay above 0), and 0 is
    reached once a sum is ``>= need``. The sums are built a unit at a time as arrays
    (at most ``prod(need // u + 1) <= need + 1`` of them, see the caller).
    """
    sums = np.zeros(1, np.int64)
    for u in units:
        sums = (sums[:, None] + u * np.arange(need // u + 1)[None, :]).ravel()
        sums = sums[sums < need]
    levels = np.unique(np.concatenate([need - sums, [0, need]]))
    levels.setflags(write=False)  # cached: shared by the calls
    return levels


def reachable_levels(need: int, units) -> np.ndarray:
    """Work levels ``R`` that ``dp[., need]`` depends on (reduction 2), ascending, with 0 and ``need``.

    ``units``: the task's positive units values. Falls back to ``0..need`` when
    the levels could be nearly all of them anyway.
    """
    units = tuple(sorted({min(int(u), need) for u in units if u > 0}))
    estimate = 1
    for u in units:
        estimate *= need // u + 1
    if not units or estimate > need + 1:
        return np.arange(need + 1)
    return _levels(int(need), units)


#: Work levels per block of the DP's inner loop (static): a task with ``|R|`` levels runs
#: at most ``ceil(|R| / LEVEL_BLOCK)`` blocks per slot, so one compilation serves every ``|R|``.
LEVEL_BLOCK = 64
#: Front nodes per chunk (static): a slot whose front has ``m`` nodes runs ``ceil(m / 8)`` chunks.
NODE_CHUNK = 8


def level_width(max_work_units: int) -> int:
    """Static length of the DP's level arrays: ``max_work_units + 1`` rounded up to whole blocks."""
    return -(-(int(max_work_units) + 1) // LEVEL_BLOCK) * LEVEL_BLOCK


def _rows(stacked, g):
    """``stacked[g]`` for (chunk, 1) group ids ``g``, as a chain of selects (``G`` is static
    and small; faster on XLA:CPU than a gather)."""
    out = jnp.broadcast_to(stacked[0], (g.shape[0], stacked.shape[1]))
    for j in range(1, stacked.shape[0]):
        out = jnp.where(g == j, stacked[j][None, :], out)
    return out


def _forward(start, hi, fnodes, fcp, fmp, fep, s, eu, usable, group, r, nxt, levels, need_i, u_max):
    """DP (13) with line 13's running maxima on levels ``R`` from ``start``.

    Returns ``dp[hi, W_i]`` and the front position chosen per (slot, level index), -1 idle.
    In slot ``t`` only the levels ``w`` with ``W_i - (hi - t) u_max <= w <= (t - start + 1) u_max``
    are computed: a larger ``w`` cannot be reached by slot ``t`` (its value stays ``inf``,
    as computing it would give), and a smaller one is never read on the way to
    ``dp[hi, W_i]``. Within a slot, the front's nodes run in chunks, in index order.
    """
    n_slots, width = fnodes.shape
    n_nodes, n_levels = s.shape[0], nxt.shape[1]
    chunk = min(NODE_CHUNK, width)
    dp0 = jnp.full(n_levels, _INF).at[0].set(0.0)
    zeros = jnp.zeros(n_levels)
    small = jnp.int8 if width < 128 else jnp.int32  # narrow ints keep the choice table small
    choice0 = jnp.full((n_slots, n_levels), -1, small)
    rank = jnp.arange(chunk, dtype=jnp.int32)[:, None]

    def body(t, carry):
        dp, lhat, phat, choice = carry
        fn = fnodes[t]
        real = fn < n_nodes
        fn = jnp.where(real, fn, 0)
        ok, s_c, g_c = real & usable[fn], s[fn], group[fn]
        e_c = jnp.where(ok, eu[fn] * fep[t], _INF)  # an unusable cell costs inf
        cp_c, mp_c = fcp[t], fmp[t]
        n_chunks = (jnp.sum(real) + chunk - 1) // chunk
        find = lambda w, side: jnp.searchsorted(levels, w, side=side, method="compare_all")  # noqa: E731
        first = find(levels[need_i] - (hi - t) * u_max, "left") // LEVEL_BLOCK
        last = jnp.minimum(find((t - start + 1) * u_max, "right") - 1, need_i) // LEVEL_BLOCK

        def block(b, new):  # levels b*B .. b*B+B-1 of slot t; they read slot t-1 only
            dp_new, l_new, p_new, row = new
            at = b * LEVEL_BLOCK
            idx = lax.dynamic_slice_in_dim(nxt, at, LEVEL_BLOCK, axis=1)  # (G, B)
            # per group, the level max(0, w - u): one gather per group, not per node
            shifted = [(dp[idx[g]], lhat[idx[g]], phat[idx[g]]) for g in range(idx.shape[0])]
            old = tuple(lax.dynamic_slice_in_dim(x, at, LEVEL_BLOCK) for x in (dp, lhat, phat))

            stacked = [jnp.stack(x) for x in zip(*shifted)]  # 3 x (G, B)

            def nodes(j, acc):  # front positions j*chunk .. j*chunk+chunk-1, in index order
                best, pos = acc
                at_j = j * chunk
                take = lambda x: lax.dynamic_slice_in_dim(x, at_j, chunk)  # noqa: E731
                g = take(g_c)[:, None]
                d, lh, ph = (_rows(x, g) for x in stacked)  # (chunk, B): each node's group's row
                lam = jnp.maximum(lh, take(cp_c)[:, None])  # line 13
                phi = jnp.maximum(ph, take(mp_c)[:, None])
                cand = d + take(s_c)[:, None] * lam + r * phi + take(e_c)[:, None]  # inf if unusable
                low = jnp.min(cand, axis=0)
                # argmin (the lowest position, i.e. node index, on ties) as two plain
                # reductions: XLA:CPU runs argmin's variadic reduce slowly
                first = jnp.min(jnp.where(cand == low[None, :], rank, chunk), axis=0)
                better = low < best  # strict: idle (and earlier chunks) win ties
                return jnp.where(better, low, best), jnp.where(better, first + at_j, pos)

            best, pos = lax.fori_loop(0, n_chunks, nodes,
                                      (old[0], jnp.full(LEVEL_BLOCK, -1, jnp.int32)))
            # the winner's line-13 maxima, from its group's predecessor row (max: exact)
            ran = pos >= 0
            at_pos = jnp.maximum(pos, 0)
            g_pos = g_c[at_pos][None, :]
            lam_best = jnp.where(ran, jnp.maximum(
                jnp.take_along_axis(stacked[1], g_pos, axis=0)[0], cp_c[at_pos]), old[1])
            phi_best = jnp.where(ran, jnp.maximum(
                jnp.take_along_axis(stacked[2], g_pos, axis=0)[0], mp_c[at_pos]), old[2])
            put = lambda arr, x: lax.dynamic_update_slice_in_dim(arr, x, at, 0)  # noqa: E731
            return (put(dp_new, best), put(l_new, lam_best), put(p_new, phi_best),
                    put(row, pos.astype(small)))

        dp, lhat, phat, row = lax.fori_loop(first, last + 1, block, (dp, lhat, phat, choice[t]))
        return dp, lhat, phat, lax.dynamic_update_index_in_dim(choice, row, t, 0)

    dp, _, _, choice = lax.fori_loop(start, jnp.maximum(hi + 1, start), body,
                                     (dp0, zeros, zeros, choice0))
    return dp[need_i], choice


@jax.jit
def _select(fnodes, fcp, fmp, fep, s, eu, usable, group, r, nxt, levels, need_i, u_max, starts,
            n_starts, hi):
    n_slots = fnodes.shape[0]

    def one_start(i, carry):
        costs, assigns = carry
        cost, choice = _forward(starts[i], hi, fnodes, fcp, fmp, fep, s, eu, usable, group, r,
                                nxt, levels, need_i, u_max)

        def back(j, inner):  # line 16: the schedule achieving dp[d_i, W_i]
            level, assign = inner
            t = hi - j
            c = choice[t, level].astype(jnp.int32)  # front position, -1 idle
            k = fnodes[t, jnp.maximum(c, 0)]
            run = (level > 0) & (c >= 0)
            assign = assign.at[t].set(jnp.where(run, k, -1))
            return jnp.where(run, nxt[group[k], level], level), assign

        feasible = jnp.isfinite(cost)
        init = (jnp.where(feasible, need_i, 0), jnp.full(n_slots, -1, jnp.int32))
        assign = lax.fori_loop(0, jnp.maximum(hi - starts[i] + 1, 0), back, init)[1]
        return costs.at[i].set(cost), assigns.at[i].set(assign)

    n_max = starts.shape[0]
    init = (jnp.full(n_max, _INF), jnp.full((n_max, n_slots), -1, jnp.int32))
    return lax.fori_loop(0, n_starts, one_start, init)


#: Run a task's distinct starts' DPs (13) in two threads when it has two or more: two
#: calls of the same compiled kernel, each on about half the work (starts split by window
#: length). Every start's DP is independent, so the results are the same (tested). Off by
#: default: a wall-time option for an idle second core, measured by
#: ``benchmarks/bench_pdftsp_split.py --threads``.
PARALLEL_STARTS = False
_POOL: list = []  # the one worker thread, made on first use


def _kernel_x64(args) -> tuple[np.ndarray, np.ndarray]:
    """``_select(*args)`` as NumPy; float64 is switched on per thread (a worker sets it itself)."""
    with jax.enable_x64(True):
        c, a = _select(*args)
        return np.asarray(c), np.asarray(a)


def _run_kernel(head, distinct: np.ndarray, n_opt: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct start's DP cost (n,) and schedule (n, T), in ``distinct``'s order."""
    def args_for(part):
        starts = np.zeros(n_opt, np.int32)
        starts[: part.size] = part
        return (*head, starts, np.int32(part.size), np.int32(hi))

    n = distinct.size
    if not PARALLEL_STARTS or n < 2:
        c, a = _kernel_x64(args_for(distinct))
        return c[:n], a[:n]
    if not _POOL:
        from concurrent.futures import ThreadPoolExecutor
        _POOL.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="pdftsp-starts"))
    load = np.zeros(2)
    side = np.zeros(n, np.int64)
    for i in range(n):  # ascending starts: longest window first, each to the lighter side
        side[i] = int(np.argmin(load))
        load[side[i]] += hi - int(distinct[i]) + 1
    mine, theirs = np.nonzero(side == 0)[0], np.nonzero(side == 1)[0]
    future = _POOL[0].submit(_kernel_x64, args_for(distinct[theirs]))
    c0, a0 = _kernel_x64(args_for(distinct[mine]))
    c1, a1 = future.result()
    c = np.empty(n)
    a = np.empty((n, a0.shape[1]), np.int32)
    c[mine], a[mine] = c0[: mine.size], a0[: mine.size]
    c[theirs], a[theirs] = c1[: theirs.size], a1[: theirs.size]
    return c, a


def _schedule_parts(assign, cp, mp, ep, eu, s, r):
    """The parts of F (10) of one schedule, computed as the NumPy oracle does:
    ``max lambda``, ``max phi``, ``sum s``, ``r * #cells``, ``sum e`` (``None`` if empty)."""
    slots = np.nonzero(assign >= 0)[0]
    if slots.size == 0:
        return None
    nodes = assign[slots]
    return (float(np.max(cp[nodes, slots])), float(np.max(mp[nodes, slots])),
            float(np.sum(s[nodes])), float(r * slots.size), float(np.sum(eu[nodes] * ep[nodes, slots])))


def select_with_fronts(fronts: Fronts, energy_use, throughput, throughput_units, memory_need: float,
                       work_units: int, start, deadline: int, fee, valid, bid: float,
                       max_groups: int, max_levels: int) -> tuple[ScheduleChoice, np.ndarray, np.ndarray]:
    """Algorithm 2 as printed for one task on the current fronts; then the option of largest F (10).

    Arguments as :func:`select_faithful` (prices come from ``fronts``). Returns the choice (NumPy values), each option's DP cost
    ``dp[d_i, W_i]`` (N,) and schedule (N, T). Options with the same start share one DP
    and one schedule (the DP does not depend on the fee), so the kernel runs once per
    distinct start and F's schedule parts are computed once per distinct start.
    """
    cp, mp, ep = fronts.cp, fronts.mp, fronts.ep
    n_nodes, n_slots = cp.shape
    units = np.asarray(throughput_units)
    s = np.asarray(throughput, float)
    eu = np.asarray(energy_use, float)
    start = np.asarray(start)
    valid = np.asarray(valid, bool)
    need = int(work_units)
    n_opt = start.shape[0]
    usable = units > 0
    positive = np.unique(np.minimum(units[usable], need))
    if positive.size > max_groups:
        max_groups = 1 << int(positive.size - 1).bit_length()
    levels = reachable_levels(need, positive)
    width = max(max_levels, level_width(need))
    after = np.searchsorted(levels, np.maximum(levels[None, :] - positive[:, None], 0))
    nxt = np.zeros((max_groups, width), np.int32)
    nxt[: positive.size, : levels.size] = after
    padded = np.full(width, np.iinfo(np.int32).max, np.int32)  # sorted: searchsorted in the kernel
    padded[: levels.size] = levels
    group = np.zeros(n_nodes, np.int32)
    group[usable] = np.searchsorted(positive, np.minimum(units[usable], need))
    hi = min(int(deadline), n_slots - 1)
    st = np.clip(start, 0, n_slots)
    distinct = np.unique(st[valid]) if valid.any() else np.zeros(0, st.dtype)
    costs = np.full(n_opt, _INF)
    assigns = np.full((n_opt, n_slots), -1, np.int32)
    surplus = np.full(n_opt, -_INF)
    parts: list = [None] * n_opt
    if distinct.size and positive.size:
        head = (fronts.nodes, fronts.compute_price, fronts.memory_price, fronts.energy_price, s, eu,
                usable, group, np.float64(memory_need), nxt, padded, np.int32(levels.size - 1),
                np.int32(positive.max()))
        c, a = _run_kernel(head, distinct.astype(np.int32), n_opt, hi)
        where = np.minimum(np.searchsorted(distinct, st), distinct.size - 1)
        costs = np.where(valid, c[where], _INF)
        assigns = np.where(valid[:, None] & np.isfinite(costs)[:, None], a[where], -1).astype(np.int32)
        per_start = [_schedule_parts(a[d], cp, mp, ep, eu, s, float(memory_need))
                     if np.isfinite(c[d]) else None for d in range(distinct.size)]
        for n in np.nonzero(np.isfinite(costs))[0]:
            part = per_start[where[n]]
            if part is not None:
                cmax, mmax, tot_s, tot_m, en = part
                surplus[n] = float(bid) - float(fee[n]) - en - cmax * tot_s - mmax * tot_m
                parts[n] = part
    best = int(np.argmax(surplus)) if n_opt else 0
    if n_opt == 0 or not np.isfinite(surplus[best]):
        choice = ScheduleChoice(np.int32(-1), -_INF, np.full(n_slots, -1, np.int32), 0.0, 0.0, 0.0,
                                0.0, 0.0, surplus)
    else:
        cmax, mmax, tot_s, tot_m, en = parts[best]
        choice = ScheduleChoice(np.int32(best), float(surplus[best]), assigns[best].copy(), cmax,
                                mmax, tot_s, tot_m, en, surplus)
    return choice, costs, assigns


def select_faithful(compute_price, memory_price, energy_price, energy_use, throughput,
                    throughput_units, group, group_units, memory_need, work_units, start,
                    deadline, fee, valid, bid, *, max_work_units: int) -> ScheduleChoice:
    """Algorithm 2 as printed (line 13's running maxima) for one task, then the option of largest F (10).

    Same arguments as :func:`aisched.online.lora.pdftsp.kernel.select_cell_prices`; the
    fronts are built for this task alone (NumPy values).
    """
    return faithful_options(compute_price, memory_price, energy_price, energy_use, throughput,
                            throughput_units, group, group_units, memory_need, work_units, start,
                            deadline, fee, valid, bid, max_work_units=max_work_units)[0]


def faithful_options(*args, max_work_units: int) -> tuple[ScheduleChoice, np.ndarray, np.ndarray]:
    """:func:`select_faithful` plus every option's DP cost ``dp[d_i, W_i]`` (N,) and schedule (N, T)."""
    task = task_arrays(*args, max_work_units=max_work_units)
    classes = node_classes(task.s, task.eu)  # one task: its own throughput and energy use
    front = Fronts(task.cp, task.mp, task.ep, classes)
    return select_with_fronts(
        front, task.eu, task.s, np.minimum(task.su, max_work_units), task.r, int(task.need),
        task.start, int(task.deadline), task.fee, task.valid, float(task.bid),
        max_groups=task.gunits.shape[0], max_levels=level_width(max_work_units))


def cache_size() -> int:
    """Compiled variants held by this module's jitted kernel (for no-recompile tests)."""
    return _select._cache_size()
