"""Your own online algorithm for the `genai` family, registered and compared with the offline optimum.

Jobs are DAGs of generative-AI tasks (text-to-image, captioning, ...); each
task runs one of its candidate models on one edge cloud, whose GPU memory
holds the models hosted in each slot (IP (5)). The algorithm, "one_edge",
decides each job when it arrives (online) and never moves it later:

- it tries every edge in turn and puts *all* the job's tasks there, so no
  output crosses edges (no communication cost (3));
- in the DAG's execution order, each task takes the candidate model that is
  cheapest to run on that edge (computation (2) plus hosting (4)) among those
  that fit in memory and finish by the job's deadline, at its earliest start
  after its parents;
- the job goes to the edge where its profit is highest, and is admitted only
  if that profit is positive.

Run: ``python examples/genai_own_algorithm.py`` (a few seconds).
"""

from __future__ import annotations

import time

import numpy as np

import aisched
from aisched.models.genai import job_profit, make_plan
from aisched.registry import register


def _earliest(room: np.ndarray, size: float, runtime: int, ready: int, deadline: int) -> int:
    """First slot ``s >= ready`` where the model fits in ``room`` for ``runtime`` slots, ending by the deadline."""
    for s in range(ready, deadline - runtime + 2):
        if np.all(room[s: s + runtime] >= size - 1e-12):
            return s
    return -1


def _on_edge(instance, i: int, k: int, room: np.ndarray):
    """Job ``i``'s tasks all on edge ``k``: (choice, start) per task, or None if one cannot be placed."""
    n = int(instance.num_tasks[i])
    choice, start = np.full(n, -1), np.full(n, -1)
    room = room.copy()
    parents = instance.dag_skeleton(i)
    for j in instance.execution_order(i):  # parents before children
        ready = max([int(instance.arrival[i])]
                    + [int(start[p] + instance.runtime[i, p, choice[p]]) for p in parents.predecessors(j)])
        runtime = instance.runtime[i, j]  # slots with each candidate model
        best = None
        for c in np.flatnonzero(instance.candidate_model[i, j] >= 0):
            size = float(instance.model_size[instance.candidate_model[i, j, c]])
            s = _earliest(room, size, int(runtime[c]), ready, int(instance.deadline[i]))
            cost = runtime[c] * (instance.compute[i, j, c] * instance.compute_cost[k] + size * instance.hosting_cost[k])
            if s >= 0 and (best is None or cost < best[0]):
                best = (cost, c, s, size)
        if best is None:
            return None
        _, choice[j], start[j], size = best
        room[start[j]: start[j] + runtime[choice[j]]] -= size
    return choice, start


@register("genai", "one_edge")
def one_edge(instance) -> aisched.Outcome:
    """Each job on the one edge where it earns most, cheapest feasible model per task; admitted if profitable."""
    started = time.perf_counter()
    shape = (instance.num_jobs, instance.max_tasks)
    edge, model, start = (np.full(shape, -1) for _ in range(3))
    admitted = np.zeros(instance.num_jobs, dtype=bool)
    room = np.repeat(instance.memory_capacity[:, None], instance.num_slots, axis=1).astype(float)  # (edge, slot)
    decision_s = np.zeros(instance.num_jobs)
    profit = 0.0
    for i in np.argsort(instance.arrival, kind="stable"):  # online: in order of arrival
        tic = time.perf_counter()
        n, best = int(instance.num_tasks[i]), None
        for k in range(instance.num_edges):
            placed = _on_edge(instance, int(i), k, room[k])
            if placed is None:
                continue
            revenue, computation, communication, hosting = job_profit(instance, int(i), np.full(n, k), placed[0])
            value = revenue - computation - communication - hosting
            if best is None or value > best[0]:
                best = (value, k, *placed)
        if best is not None and best[0] > 0:
            value, k, choice, first = best
            tasks = np.arange(n)
            edge[i, :n], start[i, :n], admitted[i] = k, first, True
            model[i, :n] = instance.candidate_model[i, tasks, choice]
            for j in tasks:
                runtime = int(instance.runtime[i, j, choice[j]])
                room[k, first[j]: first[j] + runtime] -= instance.model_size[model[i, j]]
            profit += value
        decision_s[i] = time.perf_counter() - tic
    return aisched.Outcome(
        algorithm="one_edge", family="genai", objective=profit, plan=make_plan(instance, edge, model, start, admitted),
        admitted=admitted, runtime_s=time.perf_counter() - started, decision_s=decision_s,
    )


def main() -> None:
    # a small workload, sizes passed explicitly: 12 jobs on 3 edges of 6 GB over 24 five-second slots, with
    # generated DAGs, so no data file is needed (dag_source="taskbench" samples TaskBench's graphs from one)
    instance = aisched.scenarios.genai.generate(seed=0, edges=3, slots=24, jobs=12, capacity=6.0,
                                                dag_source="generator")
    table = aisched.compare(instance, ["one_edge", "comdos", "heft_ma"], time_limit=30)
    print(f"genai: {instance.num_jobs} jobs, {instance.num_edges} edges, {instance.num_slots} slots; "
          "objective: profit (higher is better)")
    print(table[["objective", "ratio", "reference", "admitted", "status"]].to_string(float_format="%.3f"))
    print("ratio: objective / " + ("the offline optimum (proven)" if table.loc["offline", "reference"] == "optimum"
                                   else "the offline solve's proven bound (it stopped at its time limit)"))


if __name__ == "__main__":
    main()
