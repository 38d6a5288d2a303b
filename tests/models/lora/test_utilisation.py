"""utilisation(): compute and memory use over (node, slot), mean / peak / binding share."""

import numpy as np
import pytest
from lora_tiny import random_tiny

import aisched
from aisched.models.lora import empty_plan, make_plan, utilisation


def _loop_shares(inst, plan):
    """Plain loops: per cell, the admitted tasks' throughput / C_kp and memory / (C_km - r_b)."""
    comp = np.zeros((inst.num_nodes, inst.num_slots))
    mem = np.zeros_like(comp)
    for i in range(inst.num_tasks):
        if not plan["admitted"].values[i]:
            continue
        for t in range(inst.num_slots):
            k = int(plan["assignment"].values[i, t])
            if k >= 0:
                comp[k, t] += inst.throughput[i, k] / inst.compute_capacity[k]
                mem[k, t] += inst.memory_need[i] / (inst.memory_capacity[k] - inst.base_memory)
    return comp, mem


@pytest.mark.parametrize("seed", range(4))
def test_utilisation_matches_loops_for_every_algorithm(seed):
    inst = random_tiny(seed, tasks=4, nodes=2, slots=5, vendors=2)
    outs = [aisched.offline(inst)] + [aisched.run(n, inst) for n in ("pdftsp", "titan", "eft", "ntm")]
    for out in outs:
        got = utilisation(inst, out.plan)
        comp, mem = _loop_shares(inst, out.plan)
        assert got["compute_util_mean"] == pytest.approx(comp.mean())
        assert got["compute_util_peak"] == pytest.approx(comp.max())
        assert got["memory_util_mean"] == pytest.approx(mem.mean())
        assert got["memory_util_peak"] == pytest.approx(mem.max())
        assert got["compute_util_binding"] == pytest.approx(np.mean(comp >= 0.99))
        assert got["memory_util_peak"] <= 1 + 1e-9 and got["compute_util_peak"] <= 1 + 1e-9


def test_rejected_rows_do_not_count_and_empty_is_zero():
    inst = random_tiny(2, tasks=3)
    assert set(utilisation(inst, empty_plan(inst)).values()) == {0.0}
    assignment = np.full((inst.num_tasks, inst.num_slots), -1)
    assignment[0, inst.arrival[0]] = int(np.argmax(inst.throughput[0]))
    admitted = np.zeros(inst.num_tasks, bool)
    assert utilisation(inst, make_plan(inst, assignment, np.full(3, -1), admitted))["compute_util_peak"] == 0
    admitted[0] = True
    got = utilisation(inst, make_plan(inst, assignment, np.full(3, -1), admitted))
    k = assignment[0, inst.arrival[0]]
    assert got["compute_util_peak"] == pytest.approx(inst.throughput[0, k] / inst.compute_capacity[k])
    assert got["compute_util_mean"] == pytest.approx(got["compute_util_peak"] / inst.num_nodes / inst.num_slots)


def test_a_saturating_plan_binds():
    inst = random_tiny(0, tasks=1, nodes=1, slots=2, vendors=0)
    inst = inst.replace(compute_capacity=inst.throughput[0].copy(), arrival=[0], deadline=[1])
    plan = make_plan(inst, np.array([[0, -1]]), np.array([-1]), np.array([True]))
    got = utilisation(inst, plan)
    assert got["compute_util_peak"] == pytest.approx(1.0)
    assert got["compute_util_binding"] == pytest.approx(0.5)
