"""Pricing for the `genai` certified bound: each job's best reduced profit (8) under capacity prices.

The configuration LP of IP (5) is the paper's relaxed ``P1`` (6) (section
III-A: one column per schedule ``l in zeta_i`` of job ``i``, a schedule being
an assignment satisfying (5a)-(5g)); its dual is ``D1`` (7). Its pricing
problem at prices ``lambda_kt >= 0`` (the duals of (6b)) is exactly (8)::

    max_{l in zeta_i}  b_il - sum_{k,t} r_kt(il) lambda_kt

with ``b_il`` revenue minus the weighted costs (2)-(4) of the schedule and
``r_kt(il)`` the GB it hosts on edge ``k`` in slot ``t``.
:func:`aisched.online.genai.comdos.exact.select` maximises exactly this
objective (its task cost is ``f (w_f r^f e^f_k + w_h r^s_m e^h_k) + r^s_m
sum_t lambda_kt``, its pair cost the transfer (3) on the sender, precedence
(5e) and the window (5d) as hard constraints), so it is the pricing oracle;
:class:`JobPricer` reuses its factor graph (``comdos_exact.JobGraph``) and keeps,
per job, what does not change with the prices.

DAG skeletons without an undirected cycle (96-97 % of TaskBench jobs) are
solved by one forest pass. A skeleton with cycles is conditioned on a cycle
cutset, whose full enumeration (``comdos_exact``) costs seconds per job at
paper scale (up to 12,750 states of one task at 10 edges and 500 slots). Here
it is a best-first branch and bound, still exact: the cycles are opened by
giving each closing DAG edge its own *free copy* of one end (own cost 0,
unconstrained), a relaxation whose forest pass yields, for every state ``s``
of the root cutset task ``u``, a lower bound ``M(s)`` on the cost with ``u``
fixed at ``s``. States are solved exactly (``u`` fixed, the rest a forest) in
increasing ``M`` until ``M(s)`` reaches the best cost found: then the best is
the minimum. If ``max_states`` conditional solves do not close the search, the
job's value is the certified *upper* bound ``b_i - min(best, M(next))`` on its
reduced profit (``exact = False``) and its column the best schedule found.
"""

from __future__ import annotations

import copy
import itertools
import math
from dataclasses import dataclass

import networkx as nx
import numpy as np

from aisched.models.genai import GenaiInstance
from aisched.models.genai.plan import job_profit
from aisched.online.genai.comdos import exact as comdos_exact
from aisched.online.genai.comdos.algorithm import job_data

__all__ = ["Column", "JobPricer", "Priced", "max_parents"]

_INF = math.inf


@dataclass(frozen=True)
class Column:
    """One schedule ``l`` of job ``i`` (tasks by their index in the job, not the execution order).

    ``value`` is ``b_il`` (revenue minus weighted costs (2)-(4)); ``cell`` the flat
    ``k * T + t`` indices the schedule hosts models in and ``amount`` the GB there (``r_kt(il)``).
    """

    job: int
    edge: np.ndarray
    choice: np.ndarray
    start: np.ndarray
    value: float
    cell: np.ndarray
    amount: np.ndarray


@dataclass(frozen=True)
class Priced:
    """A job priced at ``lambda``: ``upper`` >= max of (8) (equal when ``exact``), and the best column found.

    ``reduced`` is (8) of ``column`` (``-inf`` without one); ``solves`` the forest passes spent.
    """

    upper: float
    reduced: float
    column: Column | None
    exact: bool
    solves: int


def max_parents(instance: GenaiInstance) -> int:
    """The most DAG parents of any task (the padded width of ``JobData.parent``)."""
    return max([max((d for _, d in g.in_degree()), default=0)
                for g in map(instance.dag_skeleton, range(instance.num_jobs))] + [1])


def _marginal(model: comdos_exact.JobGraph, root: int) -> np.ndarray:
    """(K, C, T) min-marginal of ``root`` in a forest-skeleton model: the least total cost with ``root`` at each state.

    The leaves-to-root pass of ``comdos_exact.JobGraph.solve_forest`` rooted at ``root``; the
    other components add their minima.
    """
    comp = nx.node_connected_component(model.graph, root)
    sub = model.graph.subgraph(comp)
    order = list(nx.bfs_tree(sub, root))
    parent = {root: None}
    for a, b in nx.bfs_edges(sub, root):
        parent[b] = a
    belief = {u: model.own[u] for u in order}
    for u in reversed(order):
        w = parent[u]
        if w is None:
            continue
        e = next(e for e in model.incident[u] if {e[0], e[1]} == {u, w})
        msg = model.to_child(u, belief[u], e[2]) if e[0] == u else model.to_parent(w, belief[u], e[2])
        belief[w] = belief[w] + msg
    others = [v for v in range(model.n) if v not in comp]
    rest = model.solve_forest(others, {})[0] if others else 0.0
    return belief[root] + rest


class JobPricer:
    """Exact pricing of one job under any prices (see the module docstring).

    Parameters
    ----------
    instance, job
        The problem and the job index.
    parents
        :func:`max_parents` of the instance.
    max_states
        Exact conditional solves a job with a cyclic skeleton may spend per pricing call
        before it falls back to the certified relaxation bound.
    """

    def __init__(self, instance: GenaiInstance, job: int, parents: int, max_states: int = 200) -> None:
        self.instance, self.job, self.max_states = instance, int(job), int(max_states)
        self.data, order, _, _ = job_data(instance, self.job, instance.cost_weight, parents)
        self.order = np.asarray(order, dtype=np.int64)
        n, K, T = len(order), instance.num_edges, instance.num_slots
        self.model = comdos_exact.JobGraph(self.data, np.zeros((n, K, instance.max_choices, T)))
        self.cut = self.model.cutset()
        self.relaxed: comdos_exact.JobGraph | None = None
        self.copies: list[int] = []  # original position of each free copy
        if self.cut:
            self._open_cycles()

    def _open_cycles(self) -> None:
        """The relaxed model: closing DAG edges re-attached to free copies, the root cutset task kept whole."""
        model, root = self.model, self.cut[0]
        n = model.n
        parent = list(range(n))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        edges = []
        for a, b, comm in sorted(model.edges, key=lambda e: root in (e[0], e[1])):  # root's edges last
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
                edges.append((a, b, comm))
                continue
            loose = b if a == root else a if b == root else (a if a in self.cut else b)
            self.copies.append(loose)
            twin = n + len(self.copies) - 1
            edges.append((twin, b, comm) if loose == a else (a, twin, comm))
        rel = copy.copy(model)
        rel.n = n + len(self.copies)
        rel.runtime = np.concatenate([model.runtime, model.runtime[self.copies]])
        rel.edges = edges
        rel.graph = nx.Graph()
        rel.graph.add_nodes_from(range(rel.n))
        rel.graph.add_edges_from((a, b) for a, b, _ in edges)
        rel.incident = {u: [] for u in range(rel.n)}
        for e in edges:
            rel.incident[e[0]].append(e)
            rel.incident[e[1]].append(e)
        self.relaxed = rel

    # ----------------------------------------------------------------------------------------------
    def price(self, price: np.ndarray, room: np.ndarray | None = None, extra: np.ndarray | None = None) -> Priced:
        """The job's best reduced profit (8) at ``price`` (K, T).

        ``room`` (K, T) drops starts whose run meets a cell with less room than the model;
        ``extra`` (n, K, C, T), by execution-order position, is added to the task costs (``inf``
        bans a start; the primal repair uses it).
        """
        own = comdos_exact.own_costs(self.data, price, room)
        if extra is not None:
            own = own + extra
        model = self.model
        model.own = own
        revenue = float(self.data.revenue)
        if model.n == 0:
            return Priced(-_INF, -_INF, None, True, 0)
        if not self.cut:
            cost, states = model.solve_forest(list(range(model.n)), {})
            return self._priced(revenue, cost, cost, states, True, 1, price)
        rel = self.relaxed
        assert rel is not None
        rel.own = np.concatenate([own, np.where(np.isfinite(own[self.copies]), 0.0, _INF)])
        root = self.cut[0]
        bound = _marginal(rel, root).ravel()
        order = np.argsort(bound, kind="stable")
        best, best_states, lower, solves = _INF, {}, None, 0
        for flat in order.tolist():
            if not bound[flat] < best:
                lower = best  # every remaining state costs at least its M >= best: best is the minimum
                break
            if solves >= self.max_states:
                lower = min(best, float(bound[flat]))
                break
            state = tuple(int(x) for x in np.unravel_index(flat, own[root].shape))
            value, states, complete, used = self._solve_fixed({root: state}, self.max_states - solves)
            solves += used
            if value < best:
                best, best_states = value, states
            if not complete:
                lower = min(best, float(bound[flat]))
                break
        if lower is None:  # every state solved (or none finite)
            lower = best
        exact = lower == best
        return self._priced(revenue, lower, best, best_states, exact, solves, price)

    def _solve_fixed(self, fixed: dict[int, tuple], budget: int) -> tuple[float, dict, bool, int]:
        """Exact least cost with ``fixed`` states, enumerating the other cutset tasks (``comdos_exact.JobGraph.solve``).

        Returns (cost, states, complete, states examined): ``complete`` False when ``budget``
        ran out (the cost is then the best found, a feasible value).
        """
        model = self.model
        more = [u for u in self.cut if u not in fixed]
        finite = [list(zip(*np.nonzero(np.isfinite(model.own[u])), strict=True)) for u in more]
        best, best_states, used = _INF, {}, 0
        for combo in itertools.product(*finite):
            if used >= budget:
                return best, best_states, False, used
            used += 1  # every state of the other cutset tasks examined counts, solved or pruned
            pinned = {**fixed, **{u: tuple(int(x) for x in s) for u, s in zip(more, combo, strict=True)}}
            value, unary = model.pinned_terms(pinned)
            if not value < best:
                continue
            rest = [u for u in range(model.n) if u not in pinned]
            rest_value, states = model.solve_forest(rest, unary) if rest else (0.0, {})
            if value + rest_value < best:
                best, best_states = value + rest_value, {**states, **pinned}
        return best, best_states, True, used

    def _priced(self, revenue: float, lower: float, cost: float, states: dict, exact: bool, solves: int,
                price: np.ndarray) -> Priced:
        upper = revenue - lower if math.isfinite(lower) else -_INF
        if not math.isfinite(cost):
            return Priced(upper, -_INF, None, exact, solves)
        inst, i, T = self.instance, self.job, self.instance.num_slots
        n = self.model.n
        edge, choice, start = (np.zeros(n, dtype=np.int64) for _ in range(3))
        for p in range(n):
            j = int(self.order[p])
            edge[j], choice[j], start[j] = states[p]
        rev, c1, c2, c3 = job_profit(inst, i, edge, choice)
        usage = np.zeros((inst.num_edges, T))
        for j in range(n):  # r_kt(il): each task hosts its model on its edge for its run
            c = int(choice[j])
            usage[edge[j], start[j]: start[j] + int(inst.runtime[i, j, c])] += inst.model_size[inst.candidate_model[i, j, c]]
        cell = np.flatnonzero(usage > 0)
        amount = usage.ravel()[cell]
        value = rev - c1 - c2 - c3
        reduced = value - float(np.sum(amount * price.ravel()[cell]))
        return Priced(upper, reduced, Column(i, edge, choice, start, value, cell, amount), exact, solves)
