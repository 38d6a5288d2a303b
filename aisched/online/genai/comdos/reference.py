"""Plain NumPy transcription of ComDOS's Algorithm 2 (the oracle of the JAX kernel), and the schedule backtrack.

:func:`algorithm2` follows the pseudocode loop by loop -- options ``h in H``,
tasks ``j in S``, edges ``k in h_j^K``, models ``m in h_j^M``, starts
``t in [t_i, d_i - f + 1]`` -- with the readings documented in
:mod:`aisched.online.genai.comdos.kernel` (price term of (8) in the cost, the
parent's runtime in line 9, ``R_j'`` = the child first in ``S``, transfer
cost on the sending edge). It reads the instance directly (ranks via
:func:`aisched.dag.execution_order`, options via :func:`aisched.dag.schedule_options`),
not the kernel's prepared arrays. Meant for tiny jobs.

:func:`backtrack` turns the start-exact costs ``E`` of the chosen option
into a concrete schedule. Algorithm 2 records decisions ``V_jkm`` per task;
on a DAG a task reached from several children needs one consistent decision,
so the schedule is read in *reverse* execution order: the sinks first (by
``min E`` up to their deadline window), then each task with every child
already placed, at its cheapest ``(k, m, s)`` with ``s + f <= `` the earliest
child start, adding the transfer cost to the placed children. Every schedule
it returns meets (5d) and (5e); a finite ``P`` guarantees one exists.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np

from aisched import dag
from aisched.models.genai import GenaiInstance

__all__ = ["algorithm2", "backtrack", "r_child"]


def r_child(order: list[int], children: dict[int, list[int]]) -> dict[int, int]:
    """``R_j'``: for every task with children, its child first in the execution order ``S``."""
    pos = {j: n for n, j in enumerate(order)}
    return {j: min(cs, key=pos.__getitem__) for j, cs in children.items() if cs}


def algorithm2(inst: GenaiInstance, i: int, price: np.ndarray, weights: np.ndarray | None = None,
               room: np.ndarray | None = None):
    """Algorithm 2 for job ``i`` at prices ``price`` (K, T).

    Returns
    -------
    (profits, tables, options, order)
        ``profits`` (|H|,) the ``P`` of each option; ``tables[h]`` a dict
        ``task -> E (K, C, T)``; ``options`` the list of ``{task: (edge, choice)}``;
        ``order`` the execution order ``S``. With ``room`` (K, T), starts whose
        run meets a cell with less room than the model are skipped (the
        ``room_aware`` option beside the paper).
    """
    w = inst.cost_weight if weights is None else np.asarray(weights, float)
    g = inst.graph(i)
    order = [int(j) for j in dag.execution_order(g, inst.mean_runtime(i))]
    K, T, C = inst.num_edges, inst.num_slots, inst.max_choices
    a, d, b = int(inst.arrival[i]), int(inst.deadline[i]), float(inst.revenue[i])
    choices = {j: [int(c) for c in np.nonzero(inst.candidate_model[i, j] >= 0)[0]] for j in g}
    options: list[dict[Hashable, tuple]] = dag.schedule_options(g, list(range(K)), choices)
    children = {j: list(g.successors(j)) for j in g}
    rmap = r_child(order, children)
    profits, tables = [], []
    for h in options:
        E: dict[int, np.ndarray] = {}
        F: dict[int, np.ndarray] = {}
        for j in order:
            E[j] = np.full((K, C, T), math.inf)
            edges = [h[j][0]] if j in h else range(K)
            for k in edges:
                models = [h[j][1]] if j in h else choices[j]
                for c in models:
                    m = int(inst.candidate_model[i, j, c])
                    f = int(inst.runtime[i, j, c])
                    size = float(inst.model_size[m])
                    for t in range(a, d - f + 2):
                        if room is not None and any(room[k, tt] < size for tt in range(t, t + f)):
                            continue
                        cost = f * (w[0] * inst.compute[i, j, c] * inst.compute_cost[k]
                                    + w[2] * size * inst.hosting_cost[k])
                        cost += sum(size * price[k, tt] for tt in range(t, t + f))
                        for jp in g.predecessors(j):
                            h_data = g.edges[jp, j]["data_size"]
                            best = math.inf
                            for kp in range(K):
                                for cp in choices[jp]:
                                    fp = int(inst.runtime[i, jp, cp])
                                    if t - fp < 0 or not math.isfinite(F[jp][kp, cp, t - fp]):
                                        continue
                                    carried = F[jp][kp, cp, t - fp] if rmap[jp] == j else 0.0
                                    comm = w[1] * h_data * inst.transfer_cost[kp] if kp != k else 0.0
                                    best = min(best, carried + comm)
                            cost += best
                        E[j][k, c, t] = cost
            F[j] = np.minimum.accumulate(E[j], axis=2)  # lines 10-13: keep the earlier start on ties
        total = sum(F[j][:, :, T - 1].min() for j in g if not children[j])
        profits.append(b - total if math.isfinite(total) else -math.inf)
        tables.append(E)
    return np.array(profits), tables, options, order


def backtrack(inst: GenaiInstance, i: int, order: list[int], table: dict[int, np.ndarray],
              weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A concrete schedule from the start-exact costs ``table[j]`` (K, C, T) of one option.

    Returns ``(edge, choice, start)`` arrays over the job's tasks, or ``None``
    when some task has no finite entry (the option is infeasible).
    Ties: lowest edge, then lowest candidate, then earliest start.
    """
    w = inst.cost_weight if weights is None else np.asarray(weights, float)
    g = inst.dag_skeleton(i)
    n = int(inst.num_tasks[i])
    edge, choice, start = (np.full(n, -1, dtype=np.int64) for _ in range(3))
    T = inst.num_slots
    src, dst, data = inst.dag_edges(i)
    h_of = {(int(a), int(b)): float(h) for a, b, h in zip(src, dst, data, strict=True)}
    for j in reversed(order):
        kids = list(g.successors(j))
        limit = min((int(start[c]) for c in kids), default=T)  # j must end before every child starts
        e_tab = table[j]  # (K, C, T)
        f = inst.runtime[i, j]  # (C,)
        last = np.minimum(limit - f, T - 1)  # (C,) latest start per candidate
        reach = np.arange(T)[None, :] <= last[:, None]  # (C, T)
        cand = (inst.candidate_model[i, j] >= 0) & (last >= 0)
        best_start = np.where(reach[None], e_tab, np.inf)  # (K, C, T)
        value = best_start.min(axis=2)  # (K, C)
        comm = np.zeros(inst.num_edges)
        for c in kids:  # transfer cost to the placed children, charged on j's edge (the sender)
            comm += np.where(np.arange(inst.num_edges) != edge[c], w[1] * h_of[j, c] * inst.transfer_cost, 0.0)
        value = np.where(cand[None, :], value + comm[:, None], np.inf)
        if not np.isfinite(value).any():
            return None
        k, c = np.unravel_index(int(np.argmin(value)), value.shape)  # lowest edge, then candidate
        edge[j], choice[j], start[j] = k, c, int(np.argmin(best_start[k, c]))  # earliest start on ties
    return edge, choice, start
