"""Primal plans for the certified bound of IP (4): columns packed onto nodes.

The bound's columns are schedules of one task on *representative* nodes (one per
class of identical nodes, :func:`aisched.online.lora.bound.pricing.node_classes`);
a plan needs real nodes. :func:`pack` takes columns in a given order and keeps
one when its task is still free, its value is positive, and in every slot it
uses some node of the column's class has room for it in compute (4f) and
memory (4g) -- the node left with the least compute that still fits (best fit).
Tasks may change node between slots (IP (4) has ``x_ikt`` per slot), so slots
are packed independently. Orders: by the configuration LP's weight then value
(:func:`greedy`), or the restricted MILP's choice first (:func:`restricted_milp`,
the MILP over the columns with capacities summed per class and slot, which is
exact when every class is one node). Every plan is checked by
:func:`aisched.models.lora.plan.verify_plan`, which also gives its welfare.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import xarray as xr
from scipy.sparse import csr_matrix, vstack

from aisched.models.lora import LoraInstance
from aisched.models.lora.plan import make_plan, verify_plan
from aisched.online.lora.bound.pricing import NodeClasses
from aisched.solvers.highs import solve_milp

__all__ = ["Column", "columns_of_plan", "greedy", "pack", "restricted_milp", "usage"]


@dataclass(frozen=True)
class Column:
    """One schedule of one task: vendor (-1 for none), cells (node per slot, -1 idle), value, work."""

    task: int
    vendor: int
    nodes: tuple[int, ...]  # per slot of the horizon: node or -1
    value: float  # b_i - q_in - sum e_ikt
    work: float  # samples processed (true, not rounded)


def columns_of_plan(instance: LoraInstance, plan: xr.Dataset) -> tuple[list[Column], float]:
    """The admitted tasks' schedules of a plan of IP (4) as columns, and its welfare (verified first)."""
    welfare = float(verify_plan(instance, plan))
    assignment = np.asarray(plan["assignment"].values, np.int64)
    vendor = np.asarray(plan["vendor"].values, np.int64)
    use, price = instance.energy_factors()
    out = []
    for i in np.flatnonzero(plan["admitted"].values):
        nodes = assignment[i]
        slots = np.flatnonzero(nodes >= 0)
        k = nodes[slots]
        fee = float(instance.vendor_price[i, vendor[i]]) if vendor[i] >= 0 else 0.0
        value = float(instance.bid[i]) - fee - float(np.sum(use[i, k] * price[k, slots]))
        out.append(Column(int(i), int(vendor[i]), tuple(int(x) for x in nodes), value,
                          float(np.sum(instance.throughput[i, k]))))
    return out, welfare


def usage(instance: LoraInstance, classes: NodeClasses, columns: list[Column]) -> tuple[csr_matrix, csr_matrix]:
    """(task rows, capacity rows) of the master over columns: compute (class, t) rows, then memory."""
    C, T = classes.count.size, instance.num_slots
    trows, tcols, crow, ccol, cval = [], [], [], [], []
    for c, col in enumerate(columns):
        trows.append(col.task)
        tcols.append(c)
        for t, k in enumerate(col.nodes):
            if k >= 0:
                row = int(classes.of_node[k]) * T + t
                crow += [row, C * T + row]
                ccol += [c, c]
                cval += [float(instance.throughput[col.task, k]), float(instance.memory_need[col.task])]
    n = len(columns)
    tasks = csr_matrix((np.ones(n), (trows, tcols)), shape=(instance.num_tasks, n))
    caps = csr_matrix((cval, (crow, ccol)), shape=(2 * C * T, n))
    return tasks, caps


def pack(instance: LoraInstance, classes: NodeClasses, columns: list[Column],
         order: list[int] | np.ndarray) -> tuple[xr.Dataset, float]:
    """Columns in ``order``, each kept when its task is free, its value > 0 and every slot it uses
    has a node of its class with room (best fit); the verified plan and its welfare."""
    n, T = instance.num_tasks, instance.num_slots
    compute = np.repeat(instance.compute_capacity[:, None], T, axis=1).astype(float)
    memory = np.repeat((instance.memory_capacity - instance.base_memory)[:, None], T, axis=1).astype(float)
    members = [np.flatnonzero(classes.of_node == c) for c in range(classes.count.size)]
    assignment, vendor, admitted = np.full((n, T), -1), np.full(n, -1), np.zeros(n, dtype=bool)
    for c in order:
        col = columns[c]
        if admitted[col.task] or col.value <= 0:
            continue
        nodes = np.asarray(col.nodes)
        slots = np.flatnonzero(nodes >= 0)
        placed = np.full(slots.size, -1)
        r = float(instance.memory_need[col.task])
        for cls in np.unique(classes.of_node[nodes[slots]]):
            where = np.flatnonzero(classes.of_node[nodes[slots]] == cls)
            cand, sl = members[cls], slots[where]
            s = float(instance.throughput[col.task, nodes[sl[0]]])  # equal on the whole class
            room = compute[cand[:, None], sl[None, :]]
            fits = (room >= s - 1e-9) & (memory[cand[:, None], sl[None, :]] >= r - 1e-9)
            if not fits.any(axis=0).all():
                placed[:] = -2
                break
            placed[where] = cand[np.argmin(np.where(fits, room, np.inf), axis=0)]
        if (placed < 0).any():
            continue
        compute[placed, slots] -= instance.throughput[col.task, placed]
        memory[placed, slots] -= r
        assignment[col.task, slots] = placed
        vendor[col.task], admitted[col.task] = col.vendor, True
    plan = make_plan(instance, assignment, vendor, admitted)
    return plan, float(verify_plan(instance, plan))


def greedy(instance: LoraInstance, classes: NodeClasses, columns: list[Column],
           weight: np.ndarray) -> tuple[xr.Dataset, float]:
    """:func:`pack` by decreasing configuration-LP weight, then value."""
    order = np.lexsort((-np.array([c.value for c in columns]), -np.asarray(weight, float)))
    return pack(instance, classes, columns, order)


def restricted_milp(instance: LoraInstance, classes: NodeClasses, columns: list[Column], capacity: np.ndarray,
                    time_limit: float | None) -> tuple[xr.Dataset, float]:
    """The MILP over ``columns`` (capacities per class and slot), its choice packed first, then the
    other columns by value (by value alone if the MILP finds nothing in time)."""
    n = instance.num_tasks
    tasks, caps = usage(instance, classes, columns)
    values = np.array([c.value for c in columns])
    res = solve_milp(-values, vstack([tasks, caps]).tocsr(), -np.inf, np.concatenate([np.ones(n), capacity]),
                     col_lower=0, col_upper=1, integrality=np.ones(len(columns)), time_limit=time_limit)
    chosen = np.zeros(len(columns)) if res.solution is None else np.round(res.solution)
    return greedy(instance, classes, columns, chosen)
