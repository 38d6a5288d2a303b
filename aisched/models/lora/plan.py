"""The `lora` plan: the decisions of IP (4) as an ``xarray.Dataset``, and its checker.

A plan has

- ``assignment`` (task, slot) int32: node running the task in that slot
  (``x_ikt = 1``), or -1. One node per task and slot, so (4b) holds by
  construction; memory stays O(I*T) instead of O(I*K*T).
- ``vendor`` (task,) int32: the labour vendor ``n`` with ``z_in = 1``, or -1.
- ``admitted`` (task,) bool: ``u_i``.

:func:`verify_plan` re-checks (4a)-(4g) and ``x_ikt <= u_i`` from these three
arrays and the instance alone, and returns the social welfare (3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import xarray as xr

from aisched.errors import InfeasiblePlanError

if TYPE_CHECKING:  # pragma: no cover
    from aisched.models.lora.instance import LoraInstance

__all__ = ["make_plan", "empty_plan", "verify_plan", "plan_welfare", "node_usage", "utilisation"]

#: Absolute tolerance on capacities and work, relative to the quantity's scale.
RTOL = 1e-9


def make_plan(
    instance: LoraInstance,
    assignment: np.ndarray,
    vendor: np.ndarray,
    admitted: np.ndarray,
) -> xr.Dataset:
    """Pack decisions into the plan Dataset (no checking: see :func:`verify_plan`).

    Parameters
    ----------
    instance
        The instance planned (its ``num_tasks`` N and ``num_slots`` T give the coordinates).
    assignment
        (N, T) int: the node task ``i`` runs on in slot ``t`` (0-based), -1 where it does not run
        (``x_ikt`` of the paper, one node a slot: (4b)).
    vendor
        (N,) int: the labour vendor that labels task ``i``'s data, -1 for none (``y_in``, (4a)).
    admitted
        (N,) bool: whether task ``i`` is admitted (``z_i``); a task not admitted runs nowhere.

    Returns
    -------
    xarray.Dataset
        Variables ``assignment`` (task, slot), ``vendor`` (task) and ``admitted`` (task), coordinates
        ``task`` 0..N-1 and ``slot`` 0..T-1.
    """
    return xr.Dataset(
        {
            "assignment": (("task", "slot"), np.asarray(assignment, dtype=np.int32)),
            "vendor": ("task", np.asarray(vendor, dtype=np.int32)),
            "admitted": ("task", np.asarray(admitted, dtype=bool)),
        },
        coords={"task": np.arange(instance.num_tasks), "slot": np.arange(instance.num_slots)},
    )


def empty_plan(instance: LoraInstance) -> xr.Dataset:
    """A plan that admits nothing (always feasible, welfare 0)."""
    n, t = instance.num_tasks, instance.num_slots
    return make_plan(
        instance,
        np.full((n, t), -1, dtype=np.int32),
        np.full(n, -1, dtype=np.int32),
        np.zeros(n, dtype=bool),
    )


def _arrays(instance: LoraInstance, plan: xr.Dataset) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    for name in ("assignment", "vendor", "admitted"):
        if name not in plan:
            raise InfeasiblePlanError("plan", f"has no variable {name!r}")
    assignment = np.asarray(plan["assignment"].values)
    vendor = np.asarray(plan["vendor"].values)
    admitted = np.asarray(plan["admitted"].values).astype(bool)
    n, t = instance.num_tasks, instance.num_slots
    if assignment.shape != (n, t):
        raise InfeasiblePlanError("plan", f"assignment has shape {assignment.shape}, expected {(n, t)}")
    if vendor.shape != (n,) or admitted.shape != (n,):
        raise InfeasiblePlanError("plan", f"vendor/admitted must have shape ({n},)")
    bad = (assignment < -1) | (assignment >= instance.num_nodes)
    if bad.any():
        i, s = np.argwhere(bad)[0]
        raise InfeasiblePlanError(
            "(4b) one_node_per_slot", f"task {i} slot {s}: node {assignment[i, s]} does not exist"
        )
    bad_v = (vendor < -1) | (vendor >= instance.num_vendors)
    if bad_v.any():
        i = int(np.argmax(bad_v))
        raise InfeasiblePlanError("(4a) one_vendor", f"task {i}: vendor {vendor[i]} does not exist")
    return assignment.astype(np.int64), vendor.astype(np.int64), admitted


def node_usage(instance: LoraInstance, assignment: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(node, slot) compute and memory used by the tasks of ``assignment``."""
    k_count, t_count = instance.num_nodes, instance.num_slots
    task_idx, slot_idx = np.nonzero(assignment >= 0)
    node_idx = assignment[task_idx, slot_idx]
    flat = node_idx * t_count + slot_idx
    compute = np.bincount(
        flat, weights=instance.throughput[task_idx, node_idx], minlength=k_count * t_count
    ).reshape(k_count, t_count)
    memory = np.bincount(
        flat, weights=instance.memory_need[task_idx], minlength=k_count * t_count
    ).reshape(k_count, t_count)
    return compute, memory


#: A cell counts as binding when its use is at least this share of its capacity.
BINDING_SHARE = 0.99


def utilisation(instance: LoraInstance, plan: xr.Dataset) -> dict[str, float]:
    """Compute and memory utilisation of a plan over (node, slot): mean, peak and binding share.

    Compute: ``sum_i s_ik x_ikt / C_kp`` ((4f)'s left side over its right side).
    Memory: ``sum_i r_i x_ikt / (C_km - r_b)``, the share of the room (4g) leaves
    for adapters once the shared base model ``r_b`` is held (the denominator of
    the dual update (8)). Only admitted tasks count. Means are over all
    ``K * T`` cells; a peak of 1 means that capacity binds somewhere, and
    ``*_binding`` is the share of cells at or above :data:`BINDING_SHARE` of
    capacity (prices only matter where capacity binds).

    Parameters
    ----------
    instance
        The problem.
    plan
        A plan Dataset (``Outcome.plan``) with ``assignment`` and ``admitted``.

    Returns
    -------
    dict
        ``compute_util_mean``, ``compute_util_peak``, ``compute_util_binding``,
        ``memory_util_mean``, ``memory_util_peak``, ``memory_util_binding``
        (floats in [0, 1] for a feasible plan; 0 when nothing runs).
    """
    assignment, _, admitted = _arrays(instance, plan)
    assignment = np.where(admitted[:, None], assignment, -1)
    compute, memory = node_usage(instance, assignment)
    shares = {
        "compute": compute / instance.compute_capacity[:, None],
        "memory": memory / (instance.memory_capacity - instance.base_memory)[:, None],
    }
    out: dict[str, float] = {}
    for name, share in shares.items():
        out[f"{name}_util_mean"] = float(share.mean()) if share.size else 0.0
        out[f"{name}_util_peak"] = float(share.max()) if share.size else 0.0
        out[f"{name}_util_binding"] = float(np.mean(share >= BINDING_SHARE)) if share.size else 0.0
    return out


def plan_welfare(instance: LoraInstance, plan: xr.Dataset) -> float:
    """Social welfare (3) of a plan, without checking feasibility."""
    assignment, vendor, admitted = _arrays(instance, plan)
    return _welfare(instance, assignment, vendor, admitted)


def _welfare(
    instance: LoraInstance, assignment: np.ndarray, vendor: np.ndarray, admitted: np.ndarray
) -> float:
    use, price = instance.energy_factors()
    task_idx, slot_idx = np.nonzero(assignment >= 0)
    node_idx = assignment[task_idx, slot_idx]
    energy = float(np.sum(use[task_idx, node_idx] * price[node_idx, slot_idx]))
    has_vendor = vendor >= 0
    vendor_cost = float(np.sum(instance.vendor_price[np.nonzero(has_vendor)[0], vendor[has_vendor]]))
    return float(np.sum(instance.bid[admitted])) - vendor_cost - energy


def verify_plan(instance: LoraInstance, plan: xr.Dataset) -> float:
    """Check every constraint of IP (4) on ``plan``; return its social welfare (3).

    Checks, in this order: shapes and indices; ``x_ikt <= u_i`` (a rejected
    task runs nowhere); (4a) an admitted task needing pre-processing has
    exactly one vendor; (4c) no run before ``arrival`` plus the chosen
    vendor's delay; (4d) no run after ``deadline``; (4e) enough work;
    (4f) compute and (4g) memory capacity per node and slot. (4b) holds by
    the plan's form. (4h) holds by the integer dtypes.

    Raises
    ------
    InfeasiblePlanError
        Naming the first violated constraint with its indices and amounts.
    """
    assignment, vendor, admitted = _arrays(instance, plan)
    runs = assignment >= 0
    slots = np.arange(instance.num_slots)[None, :]

    ghost = runs & ~admitted[:, None]
    if ghost.any():
        i, s = np.argwhere(ghost)[0]
        raise InfeasiblePlanError("x_le_u", f"rejected task {i} runs in slot {s}")

    missing = admitted & instance.needs_preprocessing & (vendor < 0)
    if missing.any():
        i = int(np.argmax(missing))
        raise InfeasiblePlanError("(4a) vendor_if_admitted", f"task {i} needs pre-processing but has no vendor")

    delay = np.where(
        instance.needs_preprocessing & (vendor >= 0),
        instance.vendor_delay[np.arange(instance.num_tasks), np.maximum(vendor, 0)]
        if instance.num_vendors
        else 0,
        0,
    )
    start = instance.arrival + delay
    early = runs & (slots < start[:, None])
    if early.any():
        i, s = np.argwhere(early)[0]
        raise InfeasiblePlanError(
            "(4c) start_after_preprocessing",
            f"task {i} runs in slot {s} before its earliest start {start[i]}",
        )
    late = runs & (slots > instance.deadline[:, None])
    if late.any():
        i, s = np.argwhere(late)[0]
        raise InfeasiblePlanError(
            "(4d) deadline", f"task {i} runs in slot {s} after its deadline {instance.deadline[i]}"
        )

    done = np.zeros(instance.num_tasks)
    task_idx, slot_idx = np.nonzero(runs)
    np.add.at(done, task_idx, instance.throughput[task_idx, assignment[task_idx, slot_idx]])
    short = admitted & (done < instance.work * (1 - RTOL))
    if short.any():
        i = int(np.argmax(short))
        raise InfeasiblePlanError(
            "(4e) work_done", f"task {i} gets {done[i]:g} samples of {instance.work[i]:g}"
        )

    compute, memory = node_usage(instance, assignment)
    cap = instance.compute_capacity[:, None]
    over = compute > cap * (1 + RTOL)
    if over.any():
        k, s = np.argwhere(over)[0]
        raise InfeasiblePlanError(
            "(4f) capacity_compute",
            f"node {k} slot {s}: {compute[k, s]:g} samples > capacity {cap[k, 0]:g}",
        )
    room = (instance.memory_capacity - instance.base_memory)[:, None]
    over = memory > room * (1 + RTOL)
    if over.any():
        k, s = np.argwhere(over)[0]
        raise InfeasiblePlanError(
            "(4g) capacity_memory",
            f"node {k} slot {s}: {memory[k, s]:g} GB + base {instance.base_memory:g} GB "
            f"> capacity {instance.memory_capacity[k]:g} GB",
        )
    return _welfare(instance, assignment, vendor, admitted)
