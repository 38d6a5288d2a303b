"""Task ranks: ComDOS's rank (10), the execution order, and HEFT's upward rank.

(10)::

    rank(ij) = (1/|M_ij|) sum_{m in M_ij} f_{m,i,j} + max_{j': (j, j') in E_i} rank(ij')

with the max over an empty set read as 0 (a sink's rank is its mean
runtime). The execution order ``S`` of Algorithm 2 (line 2) is the tasks by
descending rank. Ties (possible with zero runtimes, e.g. the dummy entry /
exit) are broken by a topological position, so that ``S`` is always a
topological order: for an edge ``(j, j')``, ``rank(j) >= rank(j') + f_j >= rank(j')``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import networkx as nx

from aisched.dag.validate import validate
from aisched.errors import InvalidInstanceError

__all__ = ["mean_runtime", "ranks", "rank", "execution_order", "upward_rank"]


def mean_runtime(runtimes: Mapping[Hashable, Sequence[float]]) -> dict[Hashable, float]:
    """``f_bar_j = (1/|M_ij|) sum_m f_{m,i,j}``: mean runtime over each task's candidate models.

    An empty sequence (a dummy task) gives 0.
    """
    out = {}
    for node, values in runtimes.items():
        vals = [_number(v, f"runtimes[{node!r}]") for v in values]
        out[node] = sum(vals) / len(vals) if vals else 0.0
    return out


def _number(value: object, where: str) -> float:
    """``value`` as a float, or an :class:`InvalidInstanceError` naming ``where``."""
    if isinstance(value, bool):
        raise InvalidInstanceError(where, f"= {value!r} is not a number")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise InvalidInstanceError(where, f"= {value!r:.60} is not a number") from None


def _weights(graph: nx.DiGraph, weight: Mapping[Hashable, float], name: str) -> dict[Hashable, float]:
    out = {}
    for node in graph:
        if node in weight:
            value = _number(weight[node], f"{name}[{node!r}]")
        elif graph.nodes[node].get("dummy", False):
            value = 0.0  # dummy entry / exit: zero execution time (section II-C)
        else:
            raise InvalidInstanceError(name, f"has no value for task {node!r}")
        if not value >= 0 or value == float("inf"):
            raise InvalidInstanceError(name, f"[{node!r}] = {value} must be finite and >= 0")
        out[node] = value
    return out


def ranks(graph: nx.DiGraph, mean_runtime: Mapping[Hashable, float]) -> dict[Hashable, float]:
    """``rank(ij)`` of (10) for every task of ``graph``.

    Parameters
    ----------
    graph
        The job's DAG (with or without dummy entry / exit).
    mean_runtime
        ``f_bar_j`` per task, slots (see :func:`mean_runtime`); dummy nodes
        (``dummy=True``) may be omitted and count 0.

    Raises
    ------
    InvalidInstanceError
        On a cycle, or a task without a (finite, >= 0) mean runtime.
    """
    validate(graph)
    f = _weights(graph, mean_runtime, "mean_runtime")
    out: dict[Hashable, float] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        succ = [out[s] for s in graph.successors(node)]
        out[node] = f[node] + (max(succ) if succ else 0.0)
    return out


def rank(graph: nx.DiGraph, mean_runtime: Mapping[Hashable, float], task: Hashable) -> float:
    """``rank(ij)`` of (10) for one task (see :func:`ranks`)."""
    if task not in graph:
        raise InvalidInstanceError("task", f"{task!r} is not a node of the graph")
    return ranks(graph, mean_runtime)[task]


def execution_order(graph: nx.DiGraph, mean_runtime: Mapping[Hashable, float]) -> list[Hashable]:
    """Algorithm 2's execution order ``S``: tasks by descending rank (10).

    Ties go to the task earlier in ``networkx.lexicographical_topological_sort``
    (by ``str`` of the node), which keeps ``S`` a topological order.
    """
    r = ranks(graph, mean_runtime)
    topo = {n: i for i, n in enumerate(nx.lexicographical_topological_sort(graph, key=str))}
    return sorted(graph, key=lambda n: (-r[n], topo[n]))


def upward_rank(
    graph: nx.DiGraph,
    computation: Mapping[Hashable, float],
    communication: Mapping[tuple[Hashable, Hashable], float] | None = None,
) -> dict[Hashable, float]:
    """HEFT's upward rank (Topcuoglu et al. 2002, eq. (8))::

        rank_u(n) = w_bar(n) + max_{s in succ(n)} (c_bar(n, s) + rank_u(s))

    Parameters
    ----------
    computation
        ``w_bar(n)``: mean computation time of each task (dummy nodes may be omitted).
    communication
        ``c_bar(n, s)``: mean communication time per edge; missing edges count 0.
    """
    validate(graph)
    w = _weights(graph, computation, "computation")
    comm = dict(communication or {})
    out: dict[Hashable, float] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        succ = [_number(comm.get((node, s), 0.0), f"communication[{(node, s)!r}]") + out[s] for s in graph.successors(node)]
        out[node] = w[node] + (max(succ) if succ else 0.0)
    return out
