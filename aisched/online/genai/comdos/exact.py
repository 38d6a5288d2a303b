"""Exact per-job selection for ComDOS (``selection="exact"``): the schedule maximising (8).

Beside the paper (``docs/readings/genai.md`` A8).
Algorithm 2 fixes a multi-child task's edge and model through an option
``h in H`` but not its start, and charges a parent's cumulative cost only to
its child ``R_j'``; on DAGs with forks or joins its ``P`` is then not the
maximum of (8) over schedules. This module finds that maximum exactly::

    max_{l}  mu_il = b_i - min_{(k_j, m_j, s_j)_j}  sum_j c_j(k_j, m_j, s_j)
                                              + sum_{j' -> j} phi_{j'j}(x_j', x_j)

with the task's own cost ``c_j = f (w_f r^f e^f_k + w_h r^s_m e^h_k) + r^s_m sum_{t=s}^{s+f-1} lambda_kt``
(``inf`` outside the window ``t_i <= s``, ``s + f - 1 <= d_i`` -- (5d) --
or, with ``room_aware``, where a cell lacks room) and, per DAG edge, the
precedence (5e) ``s_j >= s_j' + f_j'`` and the transfer cost (3)
``w_p h_{j'j} e^p_{k'} I(k' != k)`` on the sending edge.

Method: min-sum dynamic programming on the undirected skeleton of the DAG.
On a forest (no undirected cycle: chains, forks, joins, trees of them) one
leaf-to-root pass of messages is exact; each message over an edge costs
``O(K C T)`` (prefix / suffix minima over starts and the first/second
minimum over edges). A DAG whose skeleton has cycles (a diamond) is made a
forest by conditioning on a cycle cutset: every state ``(k, m, s)`` of the
cutset tasks is enumerated and the forest DP solved for each -- exact, but
its cost grows with ``(K C T)^{|cutset|}``; meant for the tiny and reduced
instances (TaskBench's DAGs are mostly forests).

Plain NumPy (not jitted): the paper's default selection remains the jitted
Algorithm 2 (:mod:`aisched.online.genai.comdos.kernel`).
"""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np

from aisched.online.genai.comdos.kernel import JobData

__all__ = ["JobGraph", "own_costs", "select"]

_INF = math.inf


def own_costs(job: JobData, price: np.ndarray, room: np.ndarray | None = None) -> np.ndarray:
    """(n, K, C, T) cost of each real task starting at ``s`` on edge ``k`` with candidate ``c``.

    ``inf`` outside the window ``[t_i, d_i - f + 1]``, for missing candidates
    and (``room`` given) for starts whose run meets a cell with ``room < r^s_m``.
    """
    n = int(np.sum(job.task_valid))
    K, T = price.shape
    C = job.runtime.shape[1]
    cum = np.concatenate([np.zeros((K, 1)), np.cumsum(price, axis=1)], axis=1)
    out = np.full((n, K, C, T), _INF)
    for p in range(n):
        for c in range(C):
            if not job.choice_valid[p, c]:
                continue
            f = int(job.runtime[p, c])
            last = min(int(job.deadline) - f + 1, T - f)
            first = int(job.arrival)
            if last < first:
                continue
            s = np.arange(first, last + 1)
            price_sum = cum[:, s + f] - cum[:, s]  # (K, S)
            cost = f * job.run_rate[p, c][:, None] + job.size[p, c] * price_sum
            if room is not None:
                short = np.concatenate([np.zeros((K, 1)), np.cumsum(room < job.size[p, c], axis=1)], axis=1)
                cost = np.where(short[:, s + f] - short[:, s] > 0, _INF, cost)
            out[p, :, c, first: last + 1] = cost
    return out


class JobGraph:
    """The factor graph of one job: own costs per task and the DAG edges with their transfer costs."""

    def __init__(self, job: JobData, own: np.ndarray) -> None:
        self.own = own
        self.n, self.K, self.C, self.T = own.shape
        self.runtime = np.asarray(job.runtime[: self.n], dtype=np.int64)  # (n, C)
        self.edges: list[tuple[int, int, np.ndarray]] = []  # (parent, child, comm (K,) by sender edge)
        for p in range(self.n):
            for q in range(job.parent.shape[1]):
                if job.parent[p, q] >= 0:
                    self.edges.append((int(job.parent[p, q]), p, np.asarray(job.comm[p, q], dtype=float)))
        self.graph = nx.Graph()
        self.graph.add_nodes_from(range(self.n))
        for a, b, _ in self.edges:
            self.graph.add_edge(a, b)
        self.incident: dict[int, list[tuple[int, int, np.ndarray]]] = {u: [] for u in range(self.n)}
        for e in self.edges:
            self.incident[e[0]].append(e)
            self.incident[e[1]].append(e)

    # pairwise factor with the other end fixed --------------------------------------------------
    def fixed_factor(self, u: int, edge: tuple[int, int, np.ndarray], state: tuple[int, int, int]) -> np.ndarray:
        """(K, C, T) cost on ``u``'s states of the edge whose other end is fixed at ``state``."""
        a, b, comm = edge
        k_v, c_v, s_v = state
        K, C, T = self.K, self.C, self.T
        ks = np.arange(K)
        if a == u:  # u is the parent, the child starts at s_v: u must end by s_v
            ends = np.arange(T)[None, :] + self.runtime[u][:, None]  # (C, T)
            ok = ends <= s_v
            cost = np.where(ks != k_v, comm, 0.0)  # sender u's edge
            return np.where(ok[None], cost[:, None, None], _INF) * np.ones((K, C, T))
        ok = np.arange(T) >= s_v + self.runtime[a][c_v]  # u is the child: it starts after the parent ends
        cost = np.where(ks != k_v, comm[k_v], 0.0)  # sender v's edge
        return np.where(ok[None, None, :], cost[:, None, None], _INF) * np.ones((K, C, T))

    # messages over a tree edge -------------------------------------------------------------------
    def to_child(self, u: int, belief: np.ndarray, comm: np.ndarray) -> np.ndarray:
        """(K, 1, T) message from DAG parent ``u`` to its child: min over ``u`` ending by the child's start."""
        K, C, T = self.K, self.C, self.T
        pre = np.minimum.accumulate(belief, axis=2)  # (K, C, T)
        g = np.full((K, T), _INF)
        for c in range(C):
            f = int(self.runtime[u, c])
            if f < T:
                g[:, f:] = np.minimum(g[:, f:], pre[:, c, : T - f])  # the child at t reads u started by t - f
        moved = g + comm[:, None]
        other = np.array([np.min(np.delete(moved, k, axis=0), axis=0) if K > 1 else np.full(T, _INF)
                          for k in range(K)])
        return np.minimum(g, other)[:, None, :]

    def to_parent(self, w: int, belief: np.ndarray, comm: np.ndarray) -> np.ndarray:
        """(K, C, T) message from a DAG child to its parent ``w``: min over the child starting after ``w`` ends."""
        K, C, T = self.K, self.C, self.T
        h = np.minimum.accumulate(belief[:, :, ::-1], axis=2)[:, :, ::-1].min(axis=1)  # (K, T) suffix minima
        other = np.array([np.min(np.delete(h, k, axis=0), axis=0) if K > 1 else np.full(T, _INF)
                          for k in range(K)])
        val = np.minimum(h, other + comm[:, None])  # (K_w, T): child at t, w on edge k_w
        out = np.full((K, C, T), _INF)
        for c in range(C):
            f = int(self.runtime[w, c])
            if f < T:
                out[:, c, : T - f] = val[:, f:]  # w starts at s, the child at s + f or later
        return out

    # forest DP -----------------------------------------------------------------------------------
    def solve_forest(self, nodes: list[int], unary: dict[int, np.ndarray]) -> tuple[float, dict[int, tuple]]:
        """Exact min over the states of ``nodes`` (a forest in the skeleton) with extra unary costs."""
        total, states = 0.0, {}
        sub = self.graph.subgraph(nodes)
        for comp in nx.connected_components(sub):
            root = min(comp)
            order = list(nx.bfs_tree(sub, root))
            parent = {root: None}
            for a, b in nx.bfs_edges(sub, root):
                parent[b] = a
            belief = {u: self.own[u] + unary.get(u, 0.0) for u in order}
            edge_of = {}
            for u in order:
                w = parent[u]
                if w is None:
                    continue
                e = next(e for e in self.incident[u] if {e[0], e[1]} == {u, w})
                edge_of[u] = e
            for u in reversed(order):  # leaves first
                w = parent[u]
                if w is None:
                    continue
                e = edge_of[u]
                msg = self.to_child(u, belief[u], e[2]) if e[0] == u else self.to_parent(w, belief[u], e[2])
                belief[w] = belief[w] + msg
            best = float(belief[root].min())
            if not math.isfinite(best):
                return _INF, {}
            total += best
            states[root] = np.unravel_index(int(np.argmin(belief[root])), belief[root].shape)
            for u in order[1:]:  # decode downwards: u's subtree belief + the factor with its placed tree parent
                w = parent[u]
                cost = belief[u] + self.fixed_factor(u, edge_of[u], tuple(int(x) for x in states[w]))
                states[u] = np.unravel_index(int(np.argmin(cost)), cost.shape)
        return total, {u: tuple(int(x) for x in s) for u, s in states.items()}

    def cutset(self) -> list[int]:
        """A cycle cutset of the skeleton (greedy: the task on most cycles first)."""
        g = self.graph.copy()
        cut = []
        while True:
            cycles = nx.cycle_basis(g)
            if not cycles:
                return cut
            count: dict[int, int] = {}
            for cyc in cycles:
                for u in cyc:
                    count[u] = count.get(u, 0) + 1
            u = max(sorted(count), key=lambda v: (count[v], g.degree(v)))
            cut.append(u)
            g.remove_node(u)

    def pair_cost(self, edge: tuple[int, int, np.ndarray], sa: tuple, sb: tuple) -> float:
        """The factor of a DAG edge between two fixed states (parent ``sa``, child ``sb``)."""
        a, _, comm = edge
        if sb[2] < sa[2] + self.runtime[a][sa[1]]:
            return _INF
        return float(comm[sa[0]]) if sa[0] != sb[0] else 0.0

    def pinned_terms(self, pinned: dict[int, tuple]) -> tuple[float, dict[int, np.ndarray]]:
        """The cost of the ``pinned`` tasks' states (their own and the edges among them), and the unary factors
        the edges from them put on the other tasks (what :meth:`solve_forest` takes)."""
        value = sum(float(self.own[u][s]) for u, s in pinned.items())
        unary: dict[int, np.ndarray] = {}
        for e in self.edges:
            a, b, _ = e
            if a in pinned and b in pinned:
                value += self.pair_cost(e, pinned[a], pinned[b])
            elif a in pinned:
                unary[b] = unary.get(b, 0.0) + self.fixed_factor(b, e, pinned[a])
            elif b in pinned:
                unary[a] = unary.get(a, 0.0) + self.fixed_factor(a, e, pinned[b])
        return value, unary

    def solve(self) -> tuple[float, dict[int, tuple]]:
        cut = self.cutset()
        rest = [u for u in range(self.n) if u not in cut]
        if not cut:
            return self.solve_forest(rest, {})
        finite = [list(zip(*np.nonzero(np.isfinite(self.own[u])), strict=True)) for u in cut]
        best, best_states = _INF, {}
        for combo in itertools.product(*finite):
            fixed = {u: tuple(int(x) for x in s) for u, s in zip(cut, combo, strict=True)}
            value, unary = self.pinned_terms(fixed)
            if not value < best:
                continue
            rest_value, states = self.solve_forest(rest, unary)
            if value + rest_value < best:
                best, best_states = value + rest_value, {**states, **fixed}
        return best, best_states


def select(job: JobData, price: np.ndarray, room: np.ndarray | None = None
           ) -> tuple[float, tuple[np.ndarray, np.ndarray, np.ndarray] | None]:
    """The exact maximiser of (8) for one job (tasks at their execution-order positions).

    Parameters
    ----------
    job
        The job's arrays from :func:`aisched.online.genai.comdos.job_data`.
    price
        (K, T) ``lambda_kt``.
    room
        (K, T) memory left, or ``None`` for the paper's capacity-free selection.

    Returns
    -------
    (P, schedule)
        ``P = b_i - min cost`` (``-inf`` when no schedule exists) and
        ``(edge, choice, start)`` per position, or ``None``.
    """
    own = own_costs(job, np.asarray(price, dtype=float), None if room is None else np.asarray(room, dtype=float))
    model = JobGraph(job, own)
    if model.n == 0:
        return -_INF, None
    cost, states = model.solve()
    if not math.isfinite(cost):
        return -_INF, None
    edge = np.array([states[p][0] for p in range(model.n)])
    choice = np.array([states[p][1] for p in range(model.n)])
    start = np.array([states[p][2] for p in range(model.n)])
    return float(job.revenue) - cost, (edge, choice, start)
