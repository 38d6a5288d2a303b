"""Titan, adapted online as in section 5.1 of the pdFTSP paper; and ``titan_welfare``.

Titan (Gao, Sun, Wen, Zhang, "Titan: A Scheduler for Foundation Model
Fine-tuning Workloads", SoCC'22, pp. 348-354) is a GPU-cluster scheduler for
fine-tuning jobs. The pdFTSP paper (section 5.1) compares against it as a
scheduler that "schedules fine-tuning tasks based on solving an offline MILP",
solved "at the beginning of each time slot for the tasks arrived at the
beginning of the time slot", with the labour vendor chosen at random; its
related work says Titan "ignores the pricing, deadline, and data
pre-processing".

What Titan optimises. The paper's abstract (SoCC'22) gives Titan's aim as
efficiency of fine-tuning jobs, i.e. job completion time (JCT). Its public
simulator, https://github.com/gaow0007/TitanSched (``alg/scheduler/titan.py``,
``alg/scheduler/titan_solver.py``, ``alg/scheduler/titan_utils.py``), solves at
every scheduling round a MILP (python-mip, Gurobi/CBC) that gives each job
exactly one GPU allocation (``xsum(X[j]) == 1`` over the job's candidate
allocations), keeps the GPUs within the cluster's capacity, and maximises
``sum X[j] * weight[j]`` with ``weight = throughput / remaining work`` (the
inverse of the predicted remaining time; later versions "FAIR": fair
remaining time / predicted remaining time): short remaining times first, a
proxy for the least average JCT. It has no admission control and no deadlines:
every submitted job is meant to run. We found no other text of the paper.

Our reading (``objective="jct"``, the default of ``titan``), on IP (4)'s
constraints (the plan must be valid for (4), deadlines included, so that its
welfare (4) can be measured like every other algorithm's):

1. schedule as many of the slot's tasks as (4) allows (Titan runs every job;
   only (4)'s constraints -- capacity, the task's work, its window between the
   vendor-delayed start (4c) and the deadline (4d) -- can keep one out);
2. among those plans, the least total JCT, ``sum_i (C_i - a_i + 1)`` slots with
   ``C_i`` the task's last slot.

Bids, vendor prices and energy costs play no part (Titan "ignores the
pricing"); the deadline enters only as (4d)'s feasibility. Welfare (4) of the
plan is what :class:`~aisched.outcome.Outcome` reports, as for every algorithm.
``objective="welfare"`` (registered as ``titan_welfare``) keeps the former
baseline: per slot, the welfare-maximising plan of (4) on the residual capacity
-- a myopic welfare optimiser the paper did not compare against, kept as a
strong extra baseline.

Slot by slot:

1. draw a vendor uniformly at random for every task arriving in the slot (one
   draw per task, in task order, from ``numpy.random.default_rng(seed)``);
2. solve the slot's program on the capacity the committed tasks leave
   (:func:`aisched.online.lora.titan.model.solve_slot`: nodes with identical data
   aggregated into classes, then packed back onto nodes, exact when the packing
   succeeds; ``formulation="nodes"`` solves the node program itself); when the
   count stage stops at its limit with fewer tasks than the earliest-finish plan
   of the slot's tasks in TitanSched's shortest-first order, that plan is
   committed instead (:mod:`aisched.online.lora.titan.greedy`; status
   ``heuristic``; ``info["slots_count_fallback"]`` counts those slots);
3. commit the scheduled tasks (no payments).

``info["slot_status"]`` lists, per slot with arrivals, ``optimal`` (proved
within ``mip_gap`` for the node program), ``gap`` (time limit, feasible, bound
known), ``heuristic`` (a packing repair changed the answer, bound known),
``empty`` (no task can run) or ``failed`` (no solution; nothing committed);
``info["slot_status_counts"]`` counts them and ``info["slots_not_optimal"]`` is
the number not ``optimal``/``empty``; ``info["slots_optimal"]`` etc. and
``info["slot_gap_max"]`` are the scalars :meth:`Outcome.to_netcdf` keeps.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable

import numpy as np

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.lora import LoraInstance, make_plan, node_usage
from aisched.online.lora.titan.model import (
    BUDGETS,
    COUNT_FALLBACKS,
    FORMULATIONS,
    JCT_FORMS,
    OBJECTIVES,
    SlotResult,
    solve_slot,
)
from aisched.outcome import Outcome
from aisched.registry import register
from aisched.solvers import check_options

__all__ = ["run", "run_welfare"]

_STATUSES = ("optimal", "gap", "heuristic", "empty", "failed")


def _check(objective: str, formulation: str, slot_time_limit: float | None, mip_gap: float | None,
           threads: int | None, repair_rounds: int, solver: str, slot_budget: str = "limit",
           jct_form: str = "completion", count_fallback: str = "greedy") -> None:
    one_of("count_fallback", count_fallback, COUNT_FALLBACKS)
    one_of("jct_form", jct_form, JCT_FORMS)
    one_of("slot_budget", slot_budget, BUDGETS)
    one_of("objective", objective, OBJECTIVES)
    one_of("formulation", formulation, FORMULATIONS)
    if slot_time_limit is not None and not (
        isinstance(slot_time_limit, (int, float)) and math.isfinite(slot_time_limit) and slot_time_limit > 0
    ):
        raise InvalidScenarioError("slot_time_limit", f"= {slot_time_limit!r} must be > 0")
    if isinstance(repair_rounds, bool) or not isinstance(repair_rounds, (int, np.integer)) or repair_rounds < 0:
        raise InvalidScenarioError("repair_rounds", f"= {repair_rounds!r} must be an integer >= 0")
    if solver != "highs":
        raise InvalidScenarioError("solver", f"= {solver!r}: Titan's slot program runs on HiGHS only ('highs')")
    check_options(slot_time_limit, mip_gap, threads)


@register("lora", "titan")
def run(
    instance: LoraInstance,
    *,
    seed: int = 0,
    objective: str = "jct",
    formulation: str = "classes",
    solver: str = "highs",
    slot_time_limit: float | None = 30.0,
    mip_gap: float | None = 1e-4,
    threads: int | None = None,
    repair_rounds: int = 2,
    slot_budget: str = "limit",
    jct_form: str = "completion",
    count_fallback: str = "greedy",
    progress: Callable[[int, SlotResult], None] | None = None,
) -> Outcome:
    """Run the per-slot Titan baseline.

    Parameters
    ----------
    instance
        The problem.
    seed
        Seed of the random vendor choice.
    objective
        ``"jct"`` (Titan's: most tasks scheduled, then least total job
        completion time) or ``"welfare"`` (IP (4)'s objective, ``titan_welfare``).
    formulation
        ``"classes"`` (nodes with identical data aggregated, packed back onto
        nodes; exact when the packing succeeds) or ``"nodes"`` (one class per
        node: the node program itself, slow at paper scale).
    solver
        ``"highs"`` (``scipy.optimize.milp``), the only one supported.
    slot_time_limit
        Time limit of each MILP solve, seconds (``None``: no limit). A slot
        makes two solves for ``"jct"`` (count, then JCT), one for
        ``"welfare"``, times (1 + packing repairs). With ``slot_budget="sized"``
        the most any solve gets.
    slot_budget
        ``"limit"`` (default; SciPy's HiGHS, every solve ``slot_time_limit``:
        the form every scenario runs) or ``"sized"`` (experimental:
        HiGHS through ``highspy``, the count stage as ``"limit"``, the JCT stage
        limited to 0.5 s per 1,000 columns, at least 0.5 s, at most
        ``slot_time_limit``, started from the count stage's plan).
        ``"warm"``: the count stage as ``"limit"``, the JCT stage on
        ``highspy`` with ``slot_time_limit``, started from the count stage's plan.
        The program (objective, constraints) is the same; only how long a hard
        slot may search differs (docs/readings/lora.md, lora, "Titan's day").
    jct_form
        How the JCT stage writes each task's last slot: ``"completion"``
        (default, ``C_i >= t sum_c y_ict``), ``"running"`` (still-running
        indicators ``z_it``) or ``"running_work"`` (with work rows).
        The same problem, proved in :mod:`aisched.online.lora.titan.running`;
        a tie between optimal plans may be broken differently.
    count_fallback
        ``"greedy"`` (default): when a slot's count stage stops at its
        limit with fewer tasks than the earliest-finish plan in TitanSched's
        shortest-first order, commit that plan
        (:mod:`~aisched.online.lora.titan.greedy`); ``"none"``: keep the stopped
        solve's answer (before 2026-11-27; it scheduled none of the 2,317 tasks of
        a Helios slot). Slots whose count stage is proved are the same either way.
    mip_gap
        Relative gap of each solve (1e-4 is Gurobi's default, which the paper
        used).
    threads
        Accepted for compatibility; HiGHS through SciPy picks its own.
    repair_rounds
        Class-program re-solves after a failed packing (>= 0); tasks still
        unpacked then get an earliest-finish placement on nodes (or none).
    progress
        Optional ``progress(slot, result)`` called after each solved slot
        (benchmarks print from it).

    Returns
    -------
    Outcome
        ``objective`` is the plan's welfare (4). ``decision_s`` of a task is its
        slot's time divided by the number of tasks in the slot (as the paper's
        Fig. 13 averages it). ``info``: per-slot ``slot_status``,
        ``slot_seconds``, ``slot_bound``, ``slot_rounds``, ``slot_gap`` (see
        :class:`~aisched.online.lora.titan.model.SlotResult`), the counts and
        ``total_jct`` (slots, scheduled tasks).
    """
    _check(objective, formulation, slot_time_limit, mip_gap, threads, repair_rounds, solver, slot_budget, jct_form,
           count_fallback)
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    n, T, K = instance.num_tasks, instance.num_slots, instance.num_nodes
    vendor_draw = np.full(n, -1, dtype=np.int64)
    if instance.num_vendors:
        vendor_draw = rng.integers(0, instance.num_vendors, size=n)
    needs = instance.needs_preprocessing
    rows = np.arange(n)
    delay = np.where(needs, instance.vendor_delay[rows, np.maximum(vendor_draw, 0)], 0) if instance.num_vendors \
        else np.zeros(n, np.int64)
    vendor_cost = np.where(needs, instance.vendor_price[rows, np.maximum(vendor_draw, 0)], 0.0) \
        if instance.num_vendors else np.zeros(n)
    start = instance.arrival.astype(np.int64) + delay.astype(np.int64)
    assignment = np.full((n, T), -1, dtype=np.int32)
    admitted = np.zeros(n, dtype=bool)
    decision_s = np.zeros(n)
    compute_room = np.broadcast_to(instance.compute_capacity[:, None], (K, T)).astype(float).copy()
    memory_room = np.broadcast_to(
        (instance.memory_capacity - instance.base_memory)[:, None], (K, T)).astype(float).copy()
    slots, status, seconds, bounds, rounds, gaps = [], [], [], [], [], []
    total_jct = 0.0
    fallback_slots = 0
    for slot in range(T):
        tasks = np.nonzero(instance.arrival == slot)[0]
        if tasks.size == 0:
            continue
        res = solve_slot(
            instance, tasks, start[tasks], vendor_cost[tasks], compute_room, memory_room,
            objective=objective, formulation=formulation, time_limit=slot_time_limit,
            mip_gap=mip_gap, repair_rounds=repair_rounds, budget=slot_budget, jct_form=jct_form,
            fallback=count_fallback == "greedy",
        )
        chosen = np.where(res.admitted[:, None], res.assignment, -1)
        assignment[tasks] = chosen
        admitted[tasks] = res.admitted
        full = np.full((n, T), -1, dtype=np.int64)
        full[tasks] = chosen
        used_c, used_m = node_usage(instance, full)
        compute_room = np.maximum(compute_room - used_c, 0.0)
        memory_room = np.maximum(memory_room - used_m, 0.0)
        decision_s[tasks] = res.seconds / tasks.size
        slots.append(slot)
        status.append(res.status)
        seconds.append(res.seconds)
        bounds.append(res.bound)
        rounds.append(res.rounds)
        gaps.append(float(res.detail.get("gap", 0.0)))
        total_jct += res.total_jct
        fallback_slots += int(res.detail.get("fallback_tasks", 0) > 0)
        if progress is not None:
            progress(slot, res)
    vendor = np.where(admitted & needs, vendor_draw, -1).astype(np.int32)
    plan = make_plan(instance, assignment, vendor, admitted)
    welfare = float(instance.verify_plan(plan))
    counts = dict(Counter(status))
    return Outcome(
        algorithm="titan" if objective == "jct" else "titan_welfare",
        family="lora",
        objective=welfare,
        plan=plan,
        admitted=admitted,
        payments=None,
        runtime_s=time.perf_counter() - started,
        decision_s=decision_s,
        info={
            "seed": seed, "solver": solver, "objective": objective, "formulation": formulation,
            "slot_budget": slot_budget, "jct_form": jct_form, "count_fallback": count_fallback,
            "solved_slots": slots, "slot_status": status, "slot_seconds": seconds,
            "slot_bound": bounds, "slot_rounds": rounds, "slot_gap": gaps, "slot_status_counts": counts,
            "slots_not_optimal": sum(v for k, v in counts.items() if k not in ("optimal", "empty")),
            "total_jct": total_jct,
            # scalars, kept by Outcome.to_netcdf (lists are not)
            **{f"slots_{name}": int(counts.get(name, 0)) for name in _STATUSES},
            "slot_gap_max": float(max(gaps, default=0.0)),
            "slots_count_fallback": fallback_slots,  # slots that committed the count stage's fallback plan
        },
    )


def run_welfare(
    instance: LoraInstance,
    *,
    seed: int = 0,
    formulation: str = "classes",
    solver: str = "highs",
    slot_time_limit: float | None = 30.0,
    mip_gap: float | None = 1e-4,
    threads: int | None = None,
    repair_rounds: int = 2,
    slot_budget: str = "limit",
    progress: Callable[[int, SlotResult], None] | None = None,
) -> Outcome:
    """``titan_welfare``: Titan's per-slot loop with IP (4)'s welfare as objective.

    The earlier baseline (a myopic per-slot welfare optimiser, stronger
    than the paper's Titan). Same parameters as :func:`run` except ``objective``
    (spelled out, so :func:`aisched.api.check_params` names a wrong one).
    """
    return run(instance, seed=seed, objective="welfare", formulation=formulation, solver=solver,
               slot_time_limit=slot_time_limit, mip_gap=mip_gap, threads=threads,
               repair_rounds=repair_rounds, slot_budget=slot_budget, progress=progress)
