"""Your own online algorithm for the `lora` family, registered and compared with the offline optimum.

The algorithm, "cheapest_slots": tasks arrive in slot order and are decided
one at a time, never revised (online). Each task takes the cheapest labour
vendor whose delay still leaves time to finish; then, instead of running as
early as possible (EFT), it spends its deadline slack on the slots where a
sample of its work costs the least energy, on a node with room left in
compute (4f) and memory (4g). It is admitted only when its welfare
``bid - vendor price - energy`` is positive.

``@register("lora", "cheapest_slots")`` makes it a name that ``aisched.run``,
``aisched.compare`` and sweeps know; ``aisched.run`` re-checks the plan it
returns against every constraint of IP (4) before any number is reported.

Run: ``python examples/lora_own_algorithm.py`` (a few seconds).
"""

from __future__ import annotations

import time

import numpy as np

import aisched
from aisched.models.lora import make_plan, plan_welfare
from aisched.registry import register

RTOL = 1e-9  # the work (4e) and capacities are compared with a relative tolerance, as the checker does


@register("lora", "cheapest_slots")
def cheapest_slots(instance) -> aisched.Outcome:
    """Cheapest vendor, then the cheapest (slot, node) cells with room until the task's work is done."""
    started = time.perf_counter()
    n_tasks, n_slots = instance.num_tasks, instance.num_slots
    energy_use, energy_price = instance.energy_factors()  # e_ikt = energy_use[i, k] * energy_price[k, t]
    room_compute = np.repeat(instance.compute_capacity[:, None], n_slots, axis=1)  # (node, slot)
    room_memory = np.repeat((instance.memory_capacity - instance.base_memory)[:, None], n_slots, axis=1)
    assignment = np.full((n_tasks, n_slots), -1)
    vendor = np.full(n_tasks, -1)
    admitted = np.zeros(n_tasks, dtype=bool)
    decision_s = np.zeros(n_tasks)
    for i in np.argsort(instance.arrival, kind="stable"):  # online: in order of arrival
        tic = time.perf_counter()
        choice, start, fee = -1, int(instance.arrival[i]), 0.0
        if instance.needs_preprocessing[i]:  # the cheapest vendor that leaves a slot before the deadline
            ok = instance.arrival[i] + instance.vendor_delay[i] <= instance.deadline[i]
            if ok.any():
                choice = int(np.argmin(np.where(ok, instance.vendor_price[i], np.inf)))
                start += int(instance.vendor_delay[i, choice])
                fee = float(instance.vendor_price[i, choice])
        window = np.arange(start, int(instance.deadline[i]) + 1)
        if (instance.needs_preprocessing[i] and choice < 0) or window.size == 0:
            decision_s[i] = time.perf_counter() - tic
            continue
        speed = instance.throughput[i]  # samples per slot on each node
        fits = ((speed[:, None] > 0) & (speed[:, None] <= room_compute[:, window] * (1 + RTOL))
                & (instance.memory_need[i] <= room_memory[:, window] * (1 + RTOL)))  # (node, window)
        per_sample = np.where(fits, energy_use[i][:, None] * energy_price[:, window]
                              / np.maximum(speed, 1e-300)[:, None], np.inf)
        best_node = per_sample.argmin(axis=0)  # at most one node per slot (4b)
        order = np.argsort(per_sample[best_node, np.arange(window.size)], kind="stable")
        usable = order[np.isfinite(per_sample[best_node[order], order])]
        done = np.cumsum(speed[best_node[usable]])
        last = int(np.searchsorted(done, instance.work[i] * (1 - RTOL)))
        if last == usable.size:  # cannot do its work by the deadline: declined
            decision_s[i] = time.perf_counter() - tic
            continue
        picked = usable[: last + 1]
        slots, nodes = window[picked], best_node[picked]
        energy = float(np.sum(energy_use[i, nodes] * energy_price[nodes, slots]))
        if instance.bid[i] - fee - energy > 0:  # admission control: positive welfare only
            assignment[i, slots] = nodes
            vendor[i], admitted[i] = choice, True
            room_compute[nodes, slots] -= speed[nodes]
            room_memory[nodes, slots] -= instance.memory_need[i]
        decision_s[i] = time.perf_counter() - tic
    plan = make_plan(instance, assignment, vendor, admitted)
    return aisched.Outcome(
        algorithm="cheapest_slots", family="lora", objective=plan_welfare(instance, plan), plan=plan,
        admitted=admitted, runtime_s=time.perf_counter() - started, decision_s=decision_s,
    )


def main() -> None:
    # a small day, passed explicitly: 24 tasks on 4 GPU nodes over 24 ten-minute slots, 2 labour vendors
    instance = aisched.scenarios.lora.generate(seed=0, nodes=4, slots=24, tasks=24, vendors=2)
    table = aisched.compare(instance, ["cheapest_slots", "pdftsp", "eft"], time_limit=30)
    print(f"lora: {instance.num_tasks} tasks, {instance.num_nodes} nodes, {instance.num_slots} slots; "
          "objective: social welfare (higher is better)")
    print(table[["objective", "ratio", "reference", "admitted", "status"]].to_string(float_format="%.3f"))
    print("ratio: objective / " + ("the offline optimum (proven)" if table.loc["offline", "reference"] == "optimum"
                                   else "the offline solve's proven bound (it stopped at its time limit)"))


if __name__ == "__main__":
    main()
