"""A feasible plan for Titan's count stage when its MILP stops without a better one.

:mod:`aisched.online.lora.titan.model` solves each slot's program in two stages: (1) the
most tasks, (2) at that count the least total JCT. On a slot where a trace puts
thousands of tasks at once (Fig. 7's Helios trace has slots of 2,164 and 2,317 tasks on
100 nodes), stage 1's MILP has over 120,000 columns; at the slot's time limit HiGHS has
not finished the root LP and returns the all-zero plan, and stage 2 on SciPy's HiGHS
then ran 73 s past its 20 s limit without a plan: Titan scheduled none of the slot's
2,317 tasks although its LP bound allows 2,156. That is the solver stopping, not
Titan's rule ("every submitted job is meant to run").

The module also holds the class plan's packing onto nodes (:func:`pack_cells`, best-fit
decreasing per class and slot), the other greedy step of a slot's solve.

This module gives the count stage a fallback it is compared with: every task of the
slot placed earliest-finish (the fastest node with room, slot by slot from its start,
as :func:`earliest_finish`), in the order TitanSched's own scheduler ranks runnable
jobs before its MILP (``alg/scheduler/titan.py``, ``flush_runnable_jobs``:
``sorted(runnable_jobs, key=lambda job: job.predict_remaining_time(1))``, shortest
predicted remaining time first; here ``fewest_i``, the fewest slots that can do the
task's work, ties by task order). The plan is feasible for the node program, so for
the class program too, and a stage-1 solve that is proved optimal is never below it:
the fallback replaces stage 1's answer only when the solve stopped at its limit with
fewer tasks (``titan.model._solve_program``). Every slot whose stage 1 is proved
optimal is solved exactly as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched.models.lora import LoraInstance

__all__ = ["COUNT_FALLBACKS", "earliest_finish", "greedy_rows", "pack_cells"]

#: ``titan``'s ``count_fallback``: commit the greedy plan when it beats a stopped count stage, or not.
COUNT_FALLBACKS = ("greedy", "none")

_EPS = 1e-9


def earliest_finish(instance: LoraInstance, task: int, start: int, compute_room: np.ndarray,
                    memory_room: np.ndarray) -> np.ndarray | None:
    """Place one task slot by slot from ``start`` on the fastest node with room
    (ties: least room left), until its work is done; ``None`` if it cannot finish
    by its deadline. Takes its use from the rooms when it succeeds."""
    s, r = instance.throughput[task], instance.memory_need[task]
    row = np.full(instance.num_slots, -1, np.int64)
    done = 0.0
    for t in range(start, int(instance.deadline[task]) + 1):
        fits = (s > 0) & (compute_room[:, t] >= s * (1 - _EPS)) & (memory_room[:, t] >= r * (1 - _EPS))
        if not fits.any():
            continue
        score = np.where(fits, s * 1e6 - (compute_room[:, t] - s), -np.inf)
        k = int(np.argmax(score))
        row[t] = k
        done += s[k]
        if done >= instance.work[task] * (1 - 1e-9):
            ts = np.nonzero(row >= 0)[0]
            np.subtract.at(compute_room, (row[ts], ts), s[row[ts]])
            np.subtract.at(memory_room, (row[ts], ts), r)
            return row
    return None


def greedy_rows(instance: LoraInstance, tasks: np.ndarray, start: np.ndarray, fewest: np.ndarray,
                compute_room: np.ndarray, memory_room: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Earliest-finish placement of the slot's tasks, shortest first (TitanSched's order).

    Parameters
    ----------
    instance
        The problem.
    tasks, start
        The slot's tasks and their earliest slots (arrival plus the drawn vendor's delay).
    fewest
        (len(tasks),) fewest slots that can do each task's work (0: cannot run); the
        rank ``predict_remaining_time(1)`` of TitanSched's scheduler.
    compute_room, memory_room
        (node, slot) rooms left by committed tasks; not modified.

    Returns
    -------
    (rows, admitted)
        ``rows[j, t]`` the node of task ``tasks[j]`` in slot ``t`` or -1, and which
        tasks were placed (all their work done by the deadline).
    """
    n = tasks.size
    rows = np.full((n, instance.num_slots), -1, np.int64)
    admitted = np.zeros(n, bool)
    compute_room, memory_room = compute_room.copy(), memory_room.copy()
    runnable = np.nonzero(fewest > 0)[0]
    for j in runnable[np.argsort(fewest[runnable], kind="stable")]:
        row = earliest_finish(instance, int(tasks[j]), int(start[j]), compute_room, memory_room)
        if row is not None:
            rows[j], admitted[j] = row, True
    return rows, admitted


def pack_cells(prog: Any, y: np.ndarray, compute_room: np.ndarray, memory_room: np.ndarray,
          ) -> tuple[np.ndarray, list[tuple[int, int, int]], dict[tuple[int, int], float]]:
    """Best-fit decreasing of the chosen cells of a class program (``titan.model._Program``)
    onto nodes, per (class, slot).

    Returns the (task, slot) node array, the cells that did not fit
    ``(task, class, slot)`` and per failing (class, slot) the work that packed.
    """
    n, T = prog.tasks.size, prog.instance.num_slots
    node = np.full((n, T), -1, dtype=np.int64)
    chosen = np.nonzero(y > 0.5)[0]
    failed: list[tuple[int, int, int]] = []
    packed_work: dict[tuple[int, int], float] = {}
    order = np.lexsort((-prog.size[chosen], prog.col_slot[chosen], prog.col_class[chosen]))
    chosen = chosen[order]
    start = 0
    while start < chosen.size:
        c, t = prog.col_class[chosen[start]], prog.col_slot[chosen[start]]
        stop = start
        while stop < chosen.size and prog.col_class[chosen[stop]] == c and prog.col_slot[chosen[stop]] == t:
            stop += 1
        members = prog.members[c]
        room_c = compute_room[members, t].astype(float).copy()
        room_m = memory_room[members, t].astype(float).copy()
        ok_work = 0.0
        bad = False
        for cell in chosen[start:stop]:
            need_c, need_m = prog.size[cell], prog.memory[cell]
            fits = (room_c >= need_c * (1 - _EPS)) & (room_m >= need_m * (1 - _EPS))
            if not fits.any():
                failed.append((int(prog.col_task[cell]), int(c), int(t)))
                bad = True
                continue
            left = np.where(fits, room_c - need_c, np.inf)
            b = int(np.argmin(left))
            room_c[b] -= need_c
            room_m[b] -= need_m
            node[prog.col_task[cell], t] = members[b]
            ok_work += need_c
        if bad:
            packed_work[(int(c), int(t))] = ok_work
        start = stop
    return node, failed, packed_work
