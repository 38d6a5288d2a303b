"""aisched.dag: validation, dummy tasks, rank (10), execution order, HEFT upward rank, options H."""

from __future__ import annotations

import functools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aisched import dag
from aisched.errors import InvalidInstanceError, InvalidScenarioError


def fig3_graph() -> nx.DiGraph:
    """Fig. 3 of the ComDOS paper: tasks 1-4 between dummy entry 0 and exit 5.

    Reading of the figure: rank(1) = f1 + max(rank(2), rank(3)), rank(3) = f3 + f4,
    so 1 -> 2, 1 -> 3, 3 -> 4. The printed "rank(2) = f2 + f3 = 7" is a typo:
    f2 + f3 = 3 + 7 = 10, while the printed value 7 and the printed execution
    order (1, 3, 2, 4) both need rank(2) = f2 + f4 = 3 + 4 = 7, i.e. 2 -> 4.
    """
    g = nx.DiGraph([(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 5)])
    g.nodes[0]["dummy"] = g.nodes[5]["dummy"] = True
    return g


# runtimes of the candidate models: means 5, 3, 7, 4 as in Fig. 3
FIG3_RUNTIMES = {1: [4, 6], 2: [3], 3: [6, 7, 8], 4: [3, 5]}


def test_fig3_ranks_and_order_golden():
    """Golden values of the paper's worked example (Fig. 3), with rank(2) read as f2 + f4."""
    g = fig3_graph()
    mean = dag.mean_runtime(FIG3_RUNTIMES)
    assert mean == {1: 5.0, 2: 3.0, 3: 7.0, 4: 4.0}
    r = dag.ranks(g, mean)
    assert {j: r[j] for j in (1, 2, 3, 4)} == {1: 16.0, 2: 7.0, 3: 11.0, 4: 4.0}
    assert r[0] == 16.0 and r[5] == 0.0  # dummies: zero runtime
    assert [j for j in dag.execution_order(g, mean) if j not in (0, 5)] == [1, 3, 2, 4]
    assert dag.execution_order(g, mean)[0] == 0 and dag.execution_order(g, mean)[-1] == 5
    assert dag.rank(g, mean, 3) == 11.0


def test_fig3_schedule_options_with_two_edges():
    """Task 1 is the only task with several children: H = 2 edges x 2 models = 4 options."""
    g = fig3_graph()
    models = {1: ["m0", "m1"], 2: ["m2"], 3: ["m3", "m4", "m5"], 4: ["m6", "m7"]}
    assert dag.multi_child_tasks(g) == [1]
    h = dag.schedule_options(g, ["k1", "k2"], models)
    assert h == [{1: ("k1", "m0")}, {1: ("k1", "m1")}, {1: ("k2", "m0")}, {1: ("k2", "m1")}]
    assert dag.count_schedule_options(g, 2, models) == 4
    with pytest.raises(InvalidInstanceError, match="exceeds the limit 3"):
        dag.schedule_options(g, ["k1", "k2"], models, limit=3)
    assert dag.schedule_options(dag.chain(3), [0, 1], {}) == [{}]


def test_cycle_and_unknown_nodes_rejected():
    with pytest.raises(InvalidInstanceError, match=r"has a cycle 'a' -> 'b' -> 'c' -> 'a'|cycle"):
        dag.from_edges(["a", "b", "c"], [("a", "b"), ("b", "c"), ("c", "a")])
    with pytest.raises(InvalidInstanceError, match="unknown task 'z'"):
        dag.from_edges(["a", "b"], [("a", "z")])
    with pytest.raises(InvalidInstanceError, match="depends on itself"):
        dag.from_edges(["a"], [("a", "a")])
    with pytest.raises(InvalidInstanceError, match="listed twice"):
        dag.from_edges(["a", "a"], [])
    with pytest.raises(InvalidInstanceError, match="must be a networkx.DiGraph"):
        dag.validate(nx.Graph())
    cyc = nx.DiGraph([(1, 2), (2, 1)])
    with pytest.raises(InvalidInstanceError) as err:
        dag.ranks(cyc, {1: 1.0, 2: 1.0})
    assert "cycle" in str(err.value) and "1" in str(err.value)


def test_missing_or_bad_runtime_rejected():
    g = dag.chain(3)
    with pytest.raises(InvalidInstanceError, match="no value for task 2"):
        dag.ranks(g, {0: 1.0, 1: 1.0})
    with pytest.raises(InvalidInstanceError, match=r"\[1\] = -1.0"):
        dag.ranks(g, {0: 1.0, 1: -1.0, 2: 1.0})
    with pytest.raises(InvalidInstanceError, match="not a node"):
        dag.rank(g, {0: 1, 1: 1, 2: 1}, 7)


def test_with_entry_exit():
    g = nx.DiGraph([(0, 2), (1, 2), (2, 3), (2, 4)])
    h = dag.with_entry_exit(g)
    assert set(h.successors(dag.ENTRY)) == {0, 1}
    assert set(h.predecessors(dag.EXIT)) == {3, 4}
    assert h.nodes[dag.ENTRY]["dummy"] and not h.nodes[2]["dummy"]
    assert len(g) == 5 and dag.ENTRY not in g  # the input is untouched
    assert dag.multi_child_tasks(h) == [2]  # the entry is a dummy, not an option task
    with pytest.raises(InvalidInstanceError, match="already has a node"):
        dag.with_entry_exit(nx.DiGraph([("x", dag.EXIT)]))
    assert list(dag.with_entry_exit(nx.DiGraph()).edges) == [(dag.ENTRY, dag.EXIT)]


def plain_upward_rank(g, w, c):
    """HEFT's rank_u written recursively from Topcuoglu et al. (2002), eq. (8)."""

    @functools.cache
    def ru(n):
        succ = list(g.successors(n))
        return w[n] + (max(c.get((n, s), 0.0) + ru(s) for s in succ) if succ else 0.0)

    return {n: ru(n) for n in g}


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.floats(0.0, 1.0), st.integers(0, 10_000))
def test_upward_rank_matches_plain_recursion(n, p, seed):
    g = dag.random_dag(n, edge_prob=p, seed=seed)
    rng = np.random.default_rng(seed)
    w = {j: float(rng.uniform(0, 5)) for j in g}
    c = {e: float(rng.uniform(0, 3)) for e in g.edges}
    got = dag.upward_rank(g, w, c)
    want = plain_upward_rank(g, w, c)
    assert got == pytest.approx(want)
    assert dag.ranks(g, w) == pytest.approx(plain_upward_rank(g, w, {}))  # (10) = rank_u without communication


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.floats(0.0, 1.0), st.integers(0, 10_000))
def test_execution_order_is_topological_even_with_zero_runtimes(n, p, seed):
    g = dag.with_entry_exit(dag.random_dag(n, edge_prob=p, seed=seed))
    rng = np.random.default_rng(seed)
    mean = {j: float(rng.integers(0, 3)) for j in g if not g.nodes[j]["dummy"]}  # zeros force ties
    order = dag.execution_order(g, mean)
    pos = {j: i for i, j in enumerate(order)}
    assert sorted(order, key=str) == sorted(g, key=str)
    assert all(pos[a] < pos[b] for a, b in g.edges)
    r = dag.ranks(g, mean)
    assert all(r[a] >= r[b] for a, b in zip(order, order[1:]))  # descending rank


def test_generators():
    assert list(dag.chain(3).edges) == [(0, 1), (1, 2)]
    fj = dag.fork_join(3)
    assert dag.multi_child_tasks(fj) == [0] and set(fj.predecessors(4)) == {1, 2, 3}
    assert list(dag.fork_join(2, join=False).edges) == [(0, 1), (0, 2)]
    a = dag.random_dag(8, edge_prob=0.5, seed=3)
    b = dag.random_dag(8, edge_prob=0.5, seed=3)
    assert list(a.edges) == list(b.edges) and nx.is_directed_acyclic_graph(a)
    capped = dag.random_dag(10, edge_prob=1.0, max_children=2, seed=0)
    assert max(d for _, d in capped.out_degree()) == 2
    with pytest.raises(InvalidScenarioError, match="num_tasks"):
        dag.chain(0)
    with pytest.raises(InvalidScenarioError, match="edge_prob"):
        dag.random_dag(3, edge_prob=1.5)
