"""Seeded DAG generators (chains, fork-joins, random layered DAGs).

Nodes are integers ``0..n-1`` in a topological order. Every generator takes a
``seed`` or a ``numpy.random.Generator``; nothing seeds globally.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from aisched.errors import InvalidScenarioError

__all__ = ["chain", "fork_join", "random_dag"]


def _rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


#: Largest graph a generator builds (tasks); raise it if you mean it.
MAX_TASKS = 2_000  # random_dag draws every pair: quadratic


def _count(name: str, value: int, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise InvalidScenarioError(name, f"= {value!r} must be an integer >= {low}")
    if value > MAX_TASKS:  # a size guard
        raise InvalidScenarioError(name, f"= {value} is more than the limit MAX_TASKS = {MAX_TASKS} "
                                   "(raise aisched.dag.generators.MAX_TASKS if you mean it)")
    return int(value)


def chain(num_tasks: int) -> nx.DiGraph:
    """``0 -> 1 -> ... -> n-1``."""
    n = _count("num_tasks", num_tasks, 1)
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((j, j + 1) for j in range(n - 1))
    return g


def fork_join(width: int, *, join: bool = True) -> nx.DiGraph:
    """``0 -> {1..width}`` (-> ``width+1`` when ``join``): a task with several children."""
    w = _count("width", width, 1)
    g = nx.DiGraph()
    g.add_nodes_from(range(w + 1 + int(join)))
    g.add_edges_from((0, j) for j in range(1, w + 1))
    if join:
        g.add_edges_from((j, w + 1) for j in range(1, w + 1))
    return g


def random_dag(
    num_tasks: int,
    *,
    edge_prob: float = 0.3,
    max_children: int | None = None,
    seed: int | np.random.Generator | None = None,
) -> nx.DiGraph:
    """A random DAG: edge ``j -> j'`` (``j < j'``) with probability ``edge_prob``.

    Parameters
    ----------
    max_children
        Cap on each task's out-degree (bounds the schedule options ``H``).
    """
    n = _count("num_tasks", num_tasks, 1)
    if not 0.0 <= float(edge_prob) <= 1.0:
        raise InvalidScenarioError("edge_prob", f"= {edge_prob!r} must be within [0, 1]")
    cap = n if max_children is None else _count("max_children", max_children, 0)
    rng = _rng(seed)
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for j in range(n):
        targets = [v for v in range(j + 1, n) if rng.random() < edge_prob]
        g.add_edges_from((j, v) for v in targets[:cap])
    return g
