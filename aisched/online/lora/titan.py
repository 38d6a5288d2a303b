"""Titan, adapted online as in section 5.1 of the pdFTSP paper.

Titan (Gao et al., SoCC'22) schedules fine-tuning tasks by solving an offline
MILP. The paper adapts it online by solving the MILP "at the beginning of
each time slot for the tasks arrived at the beginning of the time slot", with
the labour vendor chosen at random. Our emulation, slot by slot:

1. draw a vendor uniformly at random for every task arriving in the slot
   (one draw per task, in task order, from ``numpy.random.default_rng(seed)``);
2. build IP (4) for those tasks only (:meth:`LoraInstance.subset` with the
   drawn vendor as the single vendor column) on the capacity left by the
   tasks already committed (``residual`` of :func:`aisched.models.lora.build`);
3. solve it with :func:`aisched.solvers.solve` and commit the admitted tasks.

Its objective is the family's social welfare (4), so Titan is the "re-solve
the offline program greedily per slot" baseline: it sees no future arrivals.
A slot solve that stops at its time limit commits its incumbent (counted in
``info["slots_not_optimal"]``). Titan charges no payments.
"""

from __future__ import annotations

import math
import time

import numpy as np
import xarray as xr

from aisched.errors import InvalidScenarioError
from aisched.models.lora import LoraInstance, build, extract_plan, make_plan, node_usage
from aisched.outcome import Outcome
from aisched.registry import register
from aisched.solvers import Status, check_options, solve

__all__ = ["run"]


@register("lora", "titan")
def run(
    instance: LoraInstance,
    *,
    seed: int = 0,
    solver: str = "highs",
    slot_time_limit: float | None = 30.0,
    mip_gap: float | None = 1e-4,
    threads: int | None = None,
) -> Outcome:
    """Run the per-slot Titan baseline.

    Parameters
    ----------
    instance
        The problem.
    seed
        Seed of the random vendor choice.
    solver
        Pyomo solver name of each slot's MILP.
    slot_time_limit
        Time limit of each slot's solve, seconds (``None``: no limit).
    mip_gap
        Relative gap of each slot's solve (1e-4 is Gurobi's default, which the
        paper used).
    threads
        Solver threads.

    Returns
    -------
    Outcome
        ``decision_s`` of a task is its slot's solve time divided by the
        number of tasks in the slot (as the paper's Fig. 13 averages it).
    """
    if slot_time_limit is not None and not (math.isfinite(slot_time_limit) and slot_time_limit > 0):
        raise InvalidScenarioError("slot_time_limit", f"= {slot_time_limit!r} must be > 0")
    check_options(slot_time_limit, mip_gap, threads)
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    n = instance.num_tasks
    vendor_draw = np.full(n, -1, dtype=np.int64)
    if instance.num_vendors:
        vendor_draw = rng.integers(0, instance.num_vendors, size=n)
    assignment = np.full((n, instance.num_slots), -1, dtype=np.int32)
    vendor = np.full(n, -1, dtype=np.int32)
    admitted = np.zeros(n, dtype=bool)
    decision_s = np.zeros(n)
    not_optimal = 0
    used_compute = np.zeros((instance.num_nodes, instance.num_slots))
    used_memory = np.zeros_like(used_compute)
    for slot in range(instance.num_slots):
        tasks = np.nonzero(instance.arrival == slot)[0]
        if tasks.size == 0:
            continue
        tic = time.perf_counter()
        sub = instance.subset(tasks, vendor=vendor_draw[tasks] if instance.num_vendors else None)
        residual = xr.Dataset(
            {
                "compute": (("node", "slot"), np.maximum(instance.compute_capacity[:, None] - used_compute, 0)),
                "memory": (("node", "slot"), np.maximum(instance.memory_capacity[:, None] - used_memory, 0)),
            }
        )
        model = build(sub, residual=residual)
        result = solve(model, solver, time_limit=slot_time_limit, mip_gap=mip_gap, threads=threads)
        if result.status is not Status.OPTIMAL:
            not_optimal += 1
        if result.has_solution:
            sub_plan = extract_plan(model, sub)
            sub_assign = sub_plan["assignment"].values
            sub_admitted = sub_plan["admitted"].values.astype(bool)
            assignment[tasks] = np.where(sub_admitted[:, None], sub_assign, -1)
            admitted[tasks] = sub_admitted
            chosen = sub_admitted & instance.needs_preprocessing[tasks]
            vendor[tasks[chosen]] = vendor_draw[tasks[chosen]]
            compute, memory = node_usage(sub, np.where(sub_admitted[:, None], sub_assign, -1))
            used_compute += compute
            used_memory += memory
        decision_s[tasks] = (time.perf_counter() - tic) / tasks.size
    plan = make_plan(instance, assignment, vendor, admitted)
    welfare = float(instance.verify_plan(plan))
    return Outcome(
        algorithm="titan",
        family="lora",
        objective=welfare,
        plan=plan,
        admitted=admitted,
        payments=None,
        runtime_s=time.perf_counter() - started,
        decision_s=decision_s,
        info={"seed": seed, "solver": solver, "slots_not_optimal": not_optimal},
    )
