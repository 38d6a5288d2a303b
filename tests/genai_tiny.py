"""Tiny `genai` instances and a brute-force optimum of IP (5), the tests' oracle.

Brute force: for each job, enumerate every schedule (candidate model, edge and
start per task) meeting the deadline (5d) and precedence (5e); keep, per
distinct usage pattern (hosted GB per edge and slot), the best profit. Then
enumerate one pattern (or rejection) per job with the capacity check (5h),
keeping the best total profit (5).
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import strategies as st

from aisched.models.genai import GenaiInstance, job_profit

SHAPES = {
    "chain": [(0, 1), (1, 2)],
    "fork": [(0, 1), (0, 2)],
    "join": [(0, 2), (1, 2)],
    "free": [],
}


def make_instance(*, slots, capacity, model_size, jobs, cost=(0.2, 0.5, 0.1), transfer=None,
                  cost_weight=(1.0, 1.0, 1.0)) -> GenaiInstance:
    """An instance from a list of job dicts (arrival, deadline, revenue, edges, models, runtime, compute, data)."""
    K = len(capacity)
    J = max(len(job["models"]) for job in jobs) if jobs else 1
    C = max(len(m) for job in jobs for m in job["models"]) if jobs else 1
    E = max([len(job["edges"]) for job in jobs] + [1])
    n = len(jobs)
    cand = np.full((n, J, C), -1)
    run = np.zeros((n, J, C), dtype=int)
    comp = np.zeros((n, J, C))
    dag = np.full((n, E, 2), -1)
    data = np.zeros((n, E))
    types = np.full((n, J), "", dtype=object)
    for i, job in enumerate(jobs):
        for j, models in enumerate(job["models"]):
            cand[i, j, : len(models)] = models
            run[i, j, : len(models)] = job["runtime"][j]
            comp[i, j, : len(models)] = job["compute"][j]
            types[i, j] = f"type{j}"
        for e, pair in enumerate(job["edges"]):
            dag[i, e] = pair
            data[i, e] = job["data"][e]
    return GenaiInstance(
        num_slots=slots, memory_capacity=np.asarray(capacity, float),
        compute_cost=np.full(K, cost[0]), transfer_cost=np.full(K, cost[1]) if transfer is None else transfer,
        hosting_cost=np.full(K, cost[2]), model_size=np.asarray(model_size, float),
        model_name=np.array([f"m{m}" for m in range(len(model_size))]),
        arrival=[job["arrival"] for job in jobs], deadline=[job["deadline"] for job in jobs],
        revenue=[job["revenue"] for job in jobs], num_tasks=[len(job["models"]) for job in jobs],
        task_type=types.astype(str), candidate_model=cand, runtime=run, compute=comp,
        dag_edge=dag, data_size=data, cost_weight=cost_weight,
    )


def random_tiny(seed: int, *, jobs: int = 2, tasks: int = 3, edges: int = 2, models: int = 2,
                slots: int = 6) -> GenaiInstance:
    """2 jobs of 3-task DAGs, 2 edges, 2 candidate models per task, 6 slots."""
    rng = np.random.default_rng(seed)
    n_models = models + 1
    sizes = rng.integers(1, 5, n_models).astype(float)
    out = []
    for _ in range(jobs):
        shape = list(SHAPES)[int(rng.integers(len(SHAPES)))] if tasks == 3 else "chain"
        pairs = SHAPES[shape] if tasks == 3 else [(j, j + 1) for j in range(tasks - 1)]
        arrival = int(rng.integers(0, slots // 2))
        out.append({
            "arrival": arrival,
            "deadline": int(rng.integers(min(arrival + 2, slots - 1), slots)),
            "revenue": float(np.round(rng.uniform(3, 25), 2)),
            "edges": pairs,
            "data": np.round(rng.uniform(0.5, 4, len(pairs)), 2).tolist(),
            "models": [sorted(rng.choice(n_models, models, replace=False).tolist()) for _ in range(tasks)],
            "runtime": [rng.integers(1, 3, models).tolist() for _ in range(tasks)],
            "compute": [np.round(rng.uniform(0.5, 3, models), 2).tolist() for _ in range(tasks)],
        })
    cap = rng.integers(3, 8, edges).astype(float)
    transfer = np.round(rng.uniform(0.2, 1.5, edges), 2)
    return make_instance(slots=slots, capacity=cap, model_size=sizes, jobs=out,
                         cost=(0.3, 0.0, 0.2), transfer=transfer)


def job_schedules(inst: GenaiInstance, i: int) -> list[tuple[float, tuple[int, ...], tuple]]:
    """Every feasible schedule of job ``i``: (profit, usage pattern, (edge, choice, start) arrays)."""
    n = int(inst.num_tasks[i])
    a, d = int(inst.arrival[i]), int(inst.deadline[i])
    src, dst, _ = inst.dag_edges(i)
    per_task = []
    for j in range(n):
        opts = []
        for c in np.nonzero(inst.candidate_model[i, j] >= 0)[0]:
            f = int(inst.runtime[i, j, c])
            for k in range(inst.num_edges):
                for s in range(a, d - f + 2):
                    opts.append((k, int(c), s, f))
        per_task.append(opts)
    out = []
    for combo in itertools.product(*per_task):
        if any(combo[b][2] < combo[s][2] + combo[s][3] for s, b in zip(src, dst, strict=True)):
            continue
        edge = np.array([x[0] for x in combo])
        choice = np.array([x[1] for x in combo])
        rev, c1, c2, c3 = job_profit(inst, i, edge, choice)
        usage = np.zeros((inst.num_edges, inst.num_slots))
        for j, (k, c, s, f) in enumerate(combo):
            usage[k, s: s + f] += inst.model_size[inst.candidate_model[i, j, c]]
        out.append((rev - c1 - c2 - c3, usage, combo))
    return out


def brute_force_optimum(inst: GenaiInstance, gpus: int | None = None) -> float:
    """The optimal profit of IP (5) by enumeration; ``gpus``: also at most that many tasks at once an edge."""
    per_job = []
    for i in range(inst.num_jobs):
        best: dict[bytes, tuple[float, np.ndarray, np.ndarray]] = {}
        for value, usage, combo in job_schedules(inst, i):
            if value <= 0:
                continue  # never better than rejecting the job
            count = np.zeros_like(usage)
            for k, _, s, f in combo:
                count[k, s: s + f] += 1
            key = usage.tobytes() + count.tobytes()
            if key not in best or best[key][0] < value:
                best[key] = (value, usage, count)
        per_job.append(list(best.values()))
    cap = inst.memory_capacity[:, None]
    best_total = 0.0

    def place(i: int, used: np.ndarray, running: np.ndarray, value: float) -> None:
        nonlocal best_total
        if i == inst.num_jobs:
            best_total = max(best_total, value)
            return
        place(i + 1, used, running, value)
        for v, usage, count in per_job[i]:
            nxt, busy = used + usage, running + count
            if np.all(nxt <= cap + 1e-9) and (gpus is None or np.all(busy <= gpus)):
                place(i + 1, nxt, busy, value + v)

    place(0, np.zeros((inst.num_edges, inst.num_slots)), np.zeros((inst.num_edges, inst.num_slots)), 0.0)
    return best_total


@st.composite
def tiny_dag_job(draw: st.DrawFn, *, four_tasks_on_five_slots: bool = False) -> tuple[GenaiInstance, np.ndarray]:
    """One job on 2 edges, 5-6 slots: a random DAG of 2-4 tasks (forks, joins, diamonds), random prices.

    ``four_tasks_on_five_slots``: a 4-task DAG gets 5 slots (keeps brute force small).
    """
    n = draw(st.integers(2, 4))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if draw(st.booleans())]
    models = 1 if n == 4 else 2
    slots = 5 if (four_tasks_on_five_slots and n == 4) else draw(st.integers(5, 6))
    arrival = draw(st.integers(0, 1))
    job = {
        "arrival": arrival, "deadline": draw(st.integers(arrival + 2, slots - 1)),
        "revenue": draw(st.floats(2, 30)), "edges": pairs,
        "data": [draw(st.floats(0.1, 4)) for _ in pairs],
        "models": [draw(st.lists(st.integers(0, 2), min_size=models, max_size=models, unique=True))
                   for _ in range(n)],
        "runtime": [[draw(st.integers(1, 2)) for _ in range(models)] for _ in range(n)],
        "compute": [[draw(st.floats(0.1, 3)) for _ in range(models)] for _ in range(n)],
    }
    transfer = np.array([draw(st.floats(0.0, 2.0)) for _ in range(2)])
    inst = make_instance(slots=slots, capacity=[6.0, 6.0], model_size=[1.0, 2.0, 3.0], jobs=[job],
                         cost=(0.3, 0.0, 0.2), transfer=transfer)
    price = np.array([[draw(st.floats(0, 2)) for _ in range(slots)] for _ in range(2)])
    return inst, price
