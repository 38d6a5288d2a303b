"""Schedule options ``H`` of Algorithm 2 (line 3).

For every task with several children, an option fixes one edge cloud and one
model (``h_j^K``, ``h_j^M``); the other tasks keep every edge and candidate
model. ``H`` is the Cartesian product over the multi-child tasks, so its size
is ``prod_j (K * |M_ij|)`` (one empty option when no task has several children).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence

import networkx as nx
import numpy as np

from aisched.dag.validate import multi_child_tasks, validate
from aisched.errors import InvalidInstanceError

__all__ = ["schedule_options", "count_schedule_options"]


def count_schedule_options(graph: nx.DiGraph, num_edges: int, models: Mapping[Hashable, Sequence]) -> int:
    """``|H|`` without building it.

    Raises
    ------
    InvalidInstanceError
        On a cycle, a negative or non-integer ``num_edges``, or a multi-child
        task without candidate models in ``models``.
    """
    validate(graph)
    if isinstance(num_edges, bool) or not isinstance(num_edges, (int, np.integer)) or num_edges < 0:
        raise InvalidInstanceError("num_edges", f"= {num_edges!r} must be an integer >= 0")
    total = 1
    for j in multi_child_tasks(graph):
        if j not in models:
            raise InvalidInstanceError("models", f"has no candidate models for multi-child task {j!r}")
        total *= int(num_edges) * len(models[j])
    return total


def schedule_options(
    graph: nx.DiGraph,
    edges: Sequence[Hashable],
    models: Mapping[Hashable, Sequence[Hashable]],
    *,
    limit: int | None = None,
) -> list[dict[Hashable, tuple[Hashable, Hashable]]]:
    """The schedule options ``H``: one ``{task: (edge, model)}`` per option.

    Parameters
    ----------
    graph
        The job's DAG (dummy nodes are skipped).
    edges
        The edge clouds ``[K]``.
    models
        Candidate models ``M_ij`` per task (needed for the multi-child tasks).
    limit
        Raise if ``|H|`` would exceed it (the DP runs once per option).

    Returns
    -------
    list of dict
        In lexicographic order: the first multi-child task (graph order)
        varies slowest; edges vary slower than models.
    """
    validate(graph)
    tasks = multi_child_tasks(graph)
    choices = []
    for j in tasks:
        if j not in models or not len(models[j]):
            raise InvalidInstanceError("models", f"task {j!r} has no candidate model")
        choices.append([(k, m) for k in edges for m in models[j]])
    count = 1
    for c in choices:
        count *= len(c)
    if limit is not None and count > limit:
        raise InvalidInstanceError("schedule_options", f"|H| = {count} exceeds the limit {limit}")
    return [dict(zip(tasks, combo, strict=True)) for combo in itertools.product(*choices)]
