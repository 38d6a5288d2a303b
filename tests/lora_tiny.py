"""Tiny `lora` instances and a brute-force optimum of IP (4), the tests' oracle.

Brute force: for each task, enumerate every *minimal* schedule (vendor, and a
node or idle per slot of its window, meeting (4e), such that dropping any
used cell breaks (4e)); non-minimal schedules are never better because every
cell costs energy >= 0. Then enumerate combinations task by task with the
capacity checks (4f)-(4g), keeping the best welfare (3).
"""

from __future__ import annotations

import itertools

import numpy as np

from aisched.models.lora import LoraInstance


def random_tiny(seed: int, *, tasks: int = 3, nodes: int = 2, slots: int = 4, vendors: int = 2) -> LoraInstance:
    """A random tiny instance with integer work and throughput (the DP is exact)."""
    rng = np.random.default_rng(seed)
    compute = rng.integers(3, 6, size=nodes).astype(float)
    arrival = rng.integers(0, slots, size=tasks)
    deadline = np.minimum(slots - 1, arrival + rng.integers(1, slots, size=tasks))
    return LoraInstance(
        num_slots=slots,
        compute_capacity=compute,
        memory_capacity=rng.integers(6, 10, size=nodes).astype(float),
        base_memory=1.0,
        gpu_type=np.array(["A100-80GB", "A40-48GB"] * nodes)[:nodes],
        arrival=arrival,
        deadline=deadline,
        memory_need=rng.integers(1, 5, size=tasks).astype(float),
        work=rng.integers(2, 8, size=tasks).astype(float),
        needs_preprocessing=(rng.random(tasks) < 0.5) & (vendors > 0),
        bid=np.round(rng.uniform(0, 20, size=tasks), 2),
        throughput=np.minimum(rng.integers(1, 4, size=(tasks, nodes)), compute[None, :]).astype(float),
        vendor_price=np.round(rng.uniform(0, 4, size=(tasks, vendors)), 2),
        vendor_delay=rng.integers(0, 2, size=(tasks, vendors)),
        energy_use=np.round(rng.uniform(0, 1, size=(tasks, nodes)), 2),
        energy_price=np.round(rng.uniform(0, 1, size=(nodes, slots)), 2),
    )


def task_schedules(inst: LoraInstance, i: int) -> list[tuple[int, tuple[int, ...], float]]:
    """Minimal feasible schedules of task ``i``: (vendor or -1, node per slot, welfare)."""
    options = range(inst.num_vendors) if inst.needs_preprocessing[i] else [-1]
    energy = inst.energy_cost(i)
    out = []
    for n in options:
        start = inst.arrival[i] + (inst.vendor_delay[i, n] if n >= 0 else 0)
        window = list(range(int(start), int(inst.deadline[i]) + 1))
        for choice in itertools.product(range(-1, inst.num_nodes), repeat=len(window)):
            used = [(t, k) for t, k in zip(window, choice) if k >= 0]
            gains = [inst.throughput[i, k] for t, k in used]
            total = sum(gains)
            if total < inst.work[i] or any(total - g >= inst.work[i] for g in gains):
                continue
            row = [-1] * inst.num_slots
            for t, k in used:
                row[t] = k
            welfare = inst.bid[i] - (inst.vendor_price[i, n] if n >= 0 else 0.0)
            welfare -= sum(energy[k, t] for t, k in used)
            out.append((n, tuple(row), float(welfare)))
    return out


def brute_force_optimum(inst: LoraInstance) -> float:
    """The optimal social welfare of IP (4) by enumeration."""
    per_task = [task_schedules(inst, i) for i in range(inst.num_tasks)]
    compute = np.zeros((inst.num_nodes, inst.num_slots))
    memory = np.zeros_like(compute)
    room = inst.memory_capacity - inst.base_memory
    best = 0.0

    def place(i: int, value: float) -> None:
        nonlocal best
        if i == inst.num_tasks:
            best = max(best, value)
            return
        place(i + 1, value)  # reject task i
        for _, row, welfare in per_task[i]:
            if welfare <= 0:
                continue
            cells = [(k, t) for t, k in enumerate(row) if k >= 0]
            ok = all(
                compute[k, t] + inst.throughput[i, k] <= inst.compute_capacity[k] + 1e-9
                and memory[k, t] + inst.memory_need[i] <= room[k] + 1e-9
                for k, t in cells
            )
            if not ok:
                continue
            for k, t in cells:
                compute[k, t] += inst.throughput[i, k]
                memory[k, t] += inst.memory_need[i]
            place(i + 1, value + welfare)
            for k, t in cells:
                compute[k, t] -= inst.throughput[i, k]
                memory[k, t] -= inst.memory_need[i]

    place(0, 0.0)
    return best
