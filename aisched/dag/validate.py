"""Building and validating task graphs (networkx ``DiGraph``), dummy entry / exit tasks.

A job's DAG ``D_i = {F_i, E_i, M_i}`` (section II-C of the ComDOS paper) is a
``networkx.DiGraph`` whose nodes are tasks and whose edges ``(j, j')`` carry
the data flow (``j'`` runs after ``j``). Node and edge attributes are free;
the functions here only read the structure.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

import networkx as nx

from aisched.errors import InvalidInstanceError

__all__ = ["ENTRY", "EXIT", "from_edges", "validate", "with_entry_exit", "multi_child_tasks"]

#: Default names of the dummy entry and exit tasks added by :func:`with_entry_exit`.
ENTRY = "__entry__"
EXIT = "__exit__"


def validate(graph: nx.DiGraph, *, field: str = "dag") -> None:
    """Check that ``graph`` is a directed acyclic graph without self-loops.

    Parameters
    ----------
    graph
        The task graph.
    field
        Name used in the error message (e.g. ``"dag[3]"`` for job 3).

    Raises
    ------
    InvalidInstanceError
        If ``graph`` is not a ``DiGraph``, has a self-loop, or has a cycle; the
        message names the cycle (``a -> b -> a``).
    """
    if not isinstance(graph, nx.DiGraph) or isinstance(graph, nx.MultiDiGraph):
        raise InvalidInstanceError(field, f"must be a networkx.DiGraph, got {type(graph).__name__}")
    loops = list(nx.selfloop_edges(graph))
    if loops:
        raise InvalidInstanceError(field, f"task {loops[0][0]!r} depends on itself (self-loop)")
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    path = " -> ".join(repr(u) for u, _ in cycle) + f" -> {cycle[0][0]!r}"
    raise InvalidInstanceError(field, f"has a cycle {path}")


def from_edges(
    nodes: Iterable[Hashable],
    edges: Iterable[tuple[Hashable, Hashable]],
    *,
    data_size: Mapping[tuple[Hashable, Hashable], float] | None = None,
    field: str = "dag",
) -> nx.DiGraph:
    """A validated DAG from a node list and an edge list.

    Parameters
    ----------
    nodes
        Task identifiers, in order (kept as the graph's node order).
    edges
        ``(j, j')`` pairs; both ends must be in ``nodes``.
    data_size
        Optional ``h_{jj'}`` per edge, stored as edge attribute ``data_size``.
    field
        Name used in error messages.

    Raises
    ------
    InvalidInstanceError
        Naming an edge end that is not a known node, a duplicated node, or a cycle.
    """
    g = nx.DiGraph()
    for node in nodes:
        if node is None or not isinstance(node, Hashable):  # networkx would raise its own error
            raise InvalidInstanceError(field, f"task {node!r} cannot be a task identifier")
        if node in g:
            raise InvalidInstanceError(field, f"task {node!r} is listed twice")
        g.add_node(node)
    for n, edge in enumerate(edges):
        if len(edge) != 2:
            raise InvalidInstanceError(field, f"edge {n} = {edge!r} is not a pair")
        u, v = edge
        for end in (u, v):
            if end not in g:
                raise InvalidInstanceError(field, f"edge {n} ({u!r}, {v!r}) names unknown task {end!r}")
        g.add_edge(u, v)
        if data_size is not None and (u, v) in data_size:
            g.edges[u, v]["data_size"] = float(data_size[u, v])
    validate(g, field=field)
    return g


def with_entry_exit(graph: nx.DiGraph, *, entry: Hashable = ENTRY, exit: Hashable = EXIT) -> nx.DiGraph:
    """A copy of ``graph`` with a dummy entry task before every source and a dummy exit after every sink.

    Section II-C: the dummies have zero execution time, so the DAG has one
    entry and one exit node. They are marked with node attribute ``dummy=True``;
    every other node gets ``dummy=False``. An empty graph gets ``entry -> exit``.

    Raises
    ------
    InvalidInstanceError
        If ``graph`` is not a DAG, or already has a node named ``entry`` / ``exit``.
    """
    validate(graph)
    for name in (entry, exit):
        if name in graph:
            raise InvalidInstanceError("dag", f"already has a node named {name!r}")
    g = nx.DiGraph()
    g.add_node(entry, dummy=True)
    g.add_nodes_from((n, {**d, "dummy": False}) for n, d in graph.nodes(data=True))
    g.add_node(exit, dummy=True)
    g.add_edges_from(graph.edges(data=True))
    sources = [n for n in graph if graph.in_degree(n) == 0]
    sinks = [n for n in graph if graph.out_degree(n) == 0]
    g.add_edges_from((entry, n) for n in sources)
    g.add_edges_from((n, exit) for n in sinks)
    if not len(graph):
        g.add_edge(entry, exit)
    return g


def multi_child_tasks(graph: nx.DiGraph) -> list[Hashable]:
    """Tasks with several children (Algorithm 2, line 3), in the graph's node order.

    Dummy nodes (``dummy=True``) are never listed: they have no edge or model.
    """
    return [n for n in graph if graph.out_degree(n) > 1 and not graph.nodes[n].get("dummy", False)]
