"""IP (4) of the pdFTSP paper as a Pyomo model, and the offline optimum.

``build(instance)`` returns a ``pyomo.environ.ConcreteModel`` a user may
extend (add constraints, change the objective) and solve with
:func:`aisched.solvers.solve`. Components are named after the paper::

    u[i]                     u_i, task admitted                         (4h)
    x[i, k, t]               x_ikt, task i runs on node k in slot t     (4h)
    z[i, n]                  z_in, vendor n pre-processes task i        (4h)
    welfare                  objective (4): sum b u - sum q z - sum e x
    vendor_if_admitted[i]    (4a) left:  f_i u_i <= sum_n z_in
    one_vendor[i]            (4a) right: sum_n z_in <= 1
    one_node_per_slot[i, t]  (4b)
    start_after_preprocessing[i, t, n]   (4c), linearised
    work_done[i]             (4e)
    capacity_compute[k, t]   (4f)
    capacity_memory[k, t]    (4g)
    run_if_admitted[i, t]    sum_k x_ikt <= u_i  (implies x_ikt <= u_i and (4b))
    min_slots[i]             sum_kt x_ikt >= ceil(M_i / max_k s_ik) u_i  (valid cut)

Sparsity: ``x`` exists only for triples in ``window`` (slot between the
task's earliest possible start and its deadline, node with positive
throughput), so (4d) and the arrival part of (4c) hold by construction.
``z`` exists only for tasks that need pre-processing (for the others
``z_in`` has no effect but its cost and is 0 at every optimum).

(4c) linearised: (4c) says ``x_ikt = 1`` implies
``a_i + f_i sum_n h_in z_in <= t``. With at most one vendor (4a), this is
exactly ``sum_k x_ikt + z_in <= 1`` for every vendor ``n`` with
``a_i + h_in > t``: a slot too early for vendor ``n`` cannot be used when ``n``
is chosen. This is tighter than a big-M form and needs no constant.

Two strengthenings, valid for every integer solution of (4), make HiGHS prove
optima faster; neither removes an integer solution:

- ``run_if_admitted`` is written per (task, slot) as ``sum_k x_ikt <= u_i``
  rather than per cell ``x_ikt <= u_i``: with (4b) the two are equivalent on
  integers, the aggregated row is tighter in the LP relaxation.
- ``min_slots``: a task gathers at most ``max_k s_ik`` samples per slot, so an
  admitted task runs in at least ``ceil(M_i / max_k s_ik)`` slots.

Deactivate them (``m.min_slots.deactivate()``) to solve the bare IP (4).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from aisched.errors import InvalidInstanceError
from aisched.models._offline import early_outcome, solve_with
from aisched.models.lora.instance import LoraInstance
from aisched.models.lora.plan import empty_plan, make_plan, verify_plan
from aisched.outcome import Outcome
from aisched.registry import register_offline
from aisched.solvers import solve

__all__ = ["build", "extract_plan", "solve_offline"]


# --------------------------------------------------------------------- rules
def _welfare_rule(m: pyo.ConcreteModel) -> Any:
    return (
        sum(m.bid[i] * m.u[i] for i in m.TASKS)
        - sum(m.vendor_price[i, n] * m.z[i, n] for (i, n) in m.TASK_VENDOR)
        - sum(m.energy[i, k, t] * m.x[i, k, t] for (i, k, t) in m.WINDOW)
    )


def _vendor_if_admitted_rule(m: pyo.ConcreteModel, i: int) -> Any:
    return m.u[i] <= sum(m.z[i, n] for n in m.VENDORS_OF[i])


def _one_vendor_rule(m: pyo.ConcreteModel, i: int) -> Any:
    return sum(m.z[i, n] for n in m.VENDORS_OF[i]) <= 1


def _one_node_per_slot_rule(m: pyo.ConcreteModel, i: int, t: int) -> Any:
    return sum(m.x[i, k, t] for k in m.NODES_OF[i, t]) <= 1


def _start_rule(m: pyo.ConcreteModel, i: int, t: int, n: int) -> Any:
    return sum(m.x[i, k, t] for k in m.NODES_OF[i, t]) + m.z[i, n] <= 1


def _work_done_rule(m: pyo.ConcreteModel, i: int) -> Any:
    return sum(m.throughput[i, k] * m.x[i, k, t] for (k, t) in m.CELLS_OF[i]) >= m.work[i] * m.u[i]


def _capacity_compute_rule(m: pyo.ConcreteModel, k: int, t: int) -> Any:
    users = m.TASKS_AT[k, t]
    if len(users) == 0:
        return pyo.Constraint.Skip
    return sum(m.throughput[i, k] * m.x[i, k, t] for i in users) <= m.compute_room[k, t]


def _capacity_memory_rule(m: pyo.ConcreteModel, k: int, t: int) -> Any:
    users = m.TASKS_AT[k, t]
    if len(users) == 0:
        return pyo.Constraint.Skip
    return sum(m.memory_need[i] * m.x[i, k, t] for i in users) + m.base_memory <= m.memory_room[k, t]


def _run_if_admitted_rule(m: pyo.ConcreteModel, i: int, t: int) -> Any:
    return sum(m.x[i, k, t] for k in m.NODES_OF[i, t]) <= m.u[i]


def _min_slots_rule(m: pyo.ConcreteModel, i: int) -> Any:
    if not m.CELLS_OF[i]:
        return m.u[i] == 0  # no usable cell at all: the task cannot be admitted
    need = int(m.FEWEST_SLOTS[i])
    return sum(m.x[i, k, t] for (k, t) in m.CELLS_OF[i]) >= need * m.u[i]


# --------------------------------------------------------------------- build
def _residual(instance: LoraInstance, residual: xr.Dataset | None) -> tuple[np.ndarray, np.ndarray]:
    shape = (instance.num_nodes, instance.num_slots)
    compute = np.broadcast_to(instance.compute_capacity[:, None], shape)
    memory = np.broadcast_to(instance.memory_capacity[:, None], shape)
    if residual is None:
        return np.array(compute), np.array(memory)
    out = []
    for name, full in (("compute", compute), ("memory", memory)):
        if name not in residual:
            raise InvalidInstanceError(f"residual.{name}", "is missing (need compute and memory)")
        arr = np.asarray(residual[name].transpose("node", "slot").values, dtype=float)
        if arr.shape != shape:
            raise InvalidInstanceError(f"residual.{name}", f"has shape {arr.shape}, expected {shape}")
        bad = ~np.isfinite(arr) | (arr < -1e-9) | (arr > full * (1 + 1e-9))
        if bad.any():
            k, t = np.argwhere(bad)[0]
            raise InvalidInstanceError(
                f"residual.{name}", f"[{k}, {t}] = {arr[k, t]} is not within 0..capacity"
            )
        out.append(arr)
    return out[0], out[1]


def build(instance: LoraInstance, *, residual: xr.Dataset | None = None) -> pyo.ConcreteModel:
    """The Pyomo model of IP (4) for ``instance``.

    Parameters
    ----------
    instance
        The problem.
    residual
        Optional ``xarray.Dataset`` with ``compute`` and ``memory`` over
        (node, slot): the capacity left by tasks already committed (the
        per-slot Titan baseline re-solves on it). ``memory`` is total memory
        left, the base model ``r_b`` is still charged by (4g). Defaults to the
        full capacities.

    Returns
    -------
    pyomo.environ.ConcreteModel
        Components as listed in the module docstring; ``m.instance`` is the
        instance the model was built from.
    """
    compute_room, memory_room = _residual(instance, residual)
    start = instance.earliest_start()  # (task, vendor), (4c)
    needs = instance.needs_preprocessing
    first = np.where(needs, start.min(axis=1) if instance.num_vendors else 0, instance.arrival)
    n_tasks, n_nodes, n_slots = instance.num_tasks, instance.num_nodes, instance.num_slots

    window: list[tuple[int, int, int]] = []
    nodes_of: dict[tuple[int, int], list[int]] = {}
    cells_of: dict[int, list[tuple[int, int]]] = {i: [] for i in range(n_tasks)}
    tasks_at: dict[tuple[int, int], list[int]] = {
        (k, t): [] for k in range(n_nodes) for t in range(n_slots)
    }
    usable = instance.throughput > 0
    for i in range(n_tasks):
        nodes = np.nonzero(usable[i])[0].tolist()
        if not nodes:  # throughput 0 everywhere: no cell, min_slots forces u_i = 0
            continue
        for t in range(int(first[i]), int(instance.deadline[i]) + 1):
            nodes_of[i, t] = nodes
            for k in nodes:
                window.append((i, k, t))
                cells_of[i].append((k, t))
                tasks_at[k, t].append(i)
    task_vendor = [(i, n) for i in range(n_tasks) if needs[i] for n in range(instance.num_vendors)]
    too_early = [
        (i, t, n)
        for (i, n) in task_vendor
        if usable[i].any()
        for t in range(int(first[i]), min(int(start[i, n]), int(instance.deadline[i]) + 1))
    ]

    m = pyo.ConcreteModel(name="lora_IP4")
    m.instance = instance
    m.TASKS = pyo.Set(initialize=range(n_tasks), ordered=True)
    m.NODES = pyo.Set(initialize=range(n_nodes), ordered=True)
    m.SLOTS = pyo.Set(initialize=range(n_slots), ordered=True)
    m.VENDORS = pyo.Set(initialize=range(instance.num_vendors), ordered=True)
    m.WINDOW = pyo.Set(dimen=3, initialize=window, ordered=True)
    m.TASK_SLOT = pyo.Set(dimen=2, initialize=sorted(nodes_of), ordered=True)
    m.TASK_VENDOR = pyo.Set(dimen=2, initialize=task_vendor, ordered=True)
    m.TOO_EARLY = pyo.Set(dimen=3, initialize=too_early, ordered=True)
    m.PREPROCESSED = pyo.Set(initialize=np.nonzero(needs)[0].tolist(), ordered=True)
    m.NODES_OF = nodes_of
    m.CELLS_OF = cells_of
    m.TASKS_AT = tasks_at
    m.VENDORS_OF = {i: list(range(instance.num_vendors)) for i in range(n_tasks)}
    m.FEWEST_SLOTS = instance.fewest_slots()

    m.bid = pyo.Param(m.TASKS, initialize=dict(enumerate(instance.bid.tolist())))
    m.work = pyo.Param(m.TASKS, initialize=dict(enumerate(instance.work.tolist())))
    m.memory_need = pyo.Param(m.TASKS, initialize=dict(enumerate(instance.memory_need.tolist())))
    m.throughput = pyo.Param(
        m.TASKS, m.NODES, initialize=lambda m, i, k: float(instance.throughput[i, k])
    )
    m.vendor_price = pyo.Param(
        m.TASK_VENDOR, initialize=lambda m, i, n: float(instance.vendor_price[i, n])
    )
    use, price = instance.energy_factors()
    m.energy = pyo.Param(m.WINDOW, initialize=lambda m, i, k, t: float(use[i, k] * price[k, t]))
    m.compute_room = pyo.Param(m.NODES, m.SLOTS, initialize=lambda m, k, t: float(compute_room[k, t]))
    m.memory_room = pyo.Param(m.NODES, m.SLOTS, initialize=lambda m, k, t: float(memory_room[k, t]))
    m.base_memory = pyo.Param(initialize=instance.base_memory)

    m.u = pyo.Var(m.TASKS, within=pyo.Binary)
    m.x = pyo.Var(m.WINDOW, within=pyo.Binary)
    m.z = pyo.Var(m.TASK_VENDOR, within=pyo.Binary)

    m.welfare = pyo.Objective(rule=_welfare_rule, sense=pyo.maximize)
    m.vendor_if_admitted = pyo.Constraint(m.PREPROCESSED, rule=_vendor_if_admitted_rule)
    m.one_vendor = pyo.Constraint(m.PREPROCESSED, rule=_one_vendor_rule)
    m.one_node_per_slot = pyo.Constraint(m.TASK_SLOT, rule=_one_node_per_slot_rule)
    m.start_after_preprocessing = pyo.Constraint(m.TOO_EARLY, rule=_start_rule)
    m.work_done = pyo.Constraint(m.TASKS, rule=_work_done_rule)
    m.capacity_compute = pyo.Constraint(m.NODES, m.SLOTS, rule=_capacity_compute_rule)
    m.capacity_memory = pyo.Constraint(m.NODES, m.SLOTS, rule=_capacity_memory_rule)
    m.run_if_admitted = pyo.Constraint(m.TASK_SLOT, rule=_run_if_admitted_rule)
    m.min_slots = pyo.Constraint(m.TASKS, rule=_min_slots_rule)
    return m


# ---------------------------------------------------------------- solutions
def extract_plan(model: pyo.ConcreteModel, instance: LoraInstance) -> xr.Dataset:
    """Read the (rounded) values of ``u``, ``x``, ``z`` into a plan Dataset.

    Unset variables (no incumbent) read as 0.
    """
    n_tasks = instance.num_tasks
    assignment = np.full((n_tasks, instance.num_slots), -1, dtype=np.int32)
    for (i, k, t), var in model.x.items():
        if var.value is not None and var.value > 0.5:
            assignment[i, t] = k
    vendor = np.full(n_tasks, -1, dtype=np.int32)
    for (i, n), var in model.z.items():
        if var.value is not None and var.value > 0.5:
            vendor[i] = n
    admitted = np.array(
        [model.u[i].value is not None and model.u[i].value > 0.5 for i in range(n_tasks)],
        dtype=bool,
    )
    return make_plan(instance, assignment, vendor, admitted)


@register_offline("lora")
def solve_offline(
    instance: LoraInstance,
    *,
    solver: str = "highs",
    time_limit: float | None = None,
    mip_gap: float | None = 0.0,
    threads: int | None = None,
) -> Outcome:
    """The offline optimum of IP (4) (``aisched.offline`` for the `lora` family).

    Parameters
    ----------
    instance
        The problem, all tasks known in advance.
    solver, time_limit, mip_gap, threads
        Passed to :func:`aisched.solvers.solve`. ``mip_gap`` defaults to 0 so
        that ``status == "optimal"`` means proven optimal (HiGHS's own default
        stops at a relative gap of 1e-4).

    Returns
    -------
    Outcome
        ``status`` "optimal" only when the solver proved it; on a time limit,
        the incumbent's plan (or the empty plan) with ``bound`` the best
        proven upper bound (the solver's, or the sum of bids when it stopped
        before proving any: ``info["bound_source"]``). ``objective`` is the welfare of the extracted plan,
        recomputed by :func:`~aisched.models.lora.plan.verify_plan`.
    """
    # nothing to decide: the empty plan is optimal with welfare 0
    empty = lambda started: early_outcome(  # noqa: E731
        "lora", empty_plan(instance), started=started, info={"bound_source": "no_tasks"})
    # when the solver stopped without a bound, welfare <= sum of bids is always valid
    return solve_with(
        "lora", build=lambda: build(instance), extract=lambda model: extract_plan(model, instance),
        verify=lambda plan: verify_plan(instance, plan), fallback_bound=lambda: float(np.sum(instance.bid)),
        fallback_source="sum_of_bids", solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
        empty=empty if instance.num_tasks == 0 else None, solve=solve)
