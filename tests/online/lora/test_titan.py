"""Titan (``titan``: most tasks then least total JCT) and ``titan_welfare`` (welfare (4)).

Oracles: a brute force of one slot's program on tiny instances (every minimal
schedule of every task, all combinations, (4f)/(4g) checked per node), the
node program (``formulation="nodes"``) against the class program, and the
Pyomo model of IP (4) (:func:`aisched.models.lora.build`) for the welfare.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from lora_tiny import random_tiny, task_schedules

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.lora import LoraInstance, build, extract_plan
from aisched.online.lora.titan.model import node_classes, solve_slot
from aisched.scenarios.lora import generate
from aisched.solvers import Status, solve


def _slot_inputs(inst: LoraInstance) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All tasks of a one-vendor instance as one slot's program on empty nodes."""
    tasks = np.arange(inst.num_tasks)
    needs = inst.needs_preprocessing
    delay = np.where(needs, inst.vendor_delay[:, 0], 0) if inst.num_vendors else np.zeros(inst.num_tasks, int)
    cost = np.where(needs, inst.vendor_price[:, 0], 0.0) if inst.num_vendors else np.zeros(inst.num_tasks)
    shape = (inst.num_nodes, inst.num_slots)
    compute = np.broadcast_to(inst.compute_capacity[:, None], shape).astype(float).copy()
    memory = np.broadcast_to((inst.memory_capacity - inst.base_memory)[:, None], shape).astype(float).copy()
    return tasks, inst.arrival + delay, cost, compute, memory


def _one_slot_tiny(seed: int, tasks: int = 3, nodes: int = 2, slots: int = 4) -> LoraInstance:
    """A tiny instance whose tasks all arrive in slot 0, one vendor each (Titan's draw)."""
    inst = random_tiny(seed, tasks=tasks, nodes=nodes, slots=slots, vendors=2)
    inst = inst.replace(arrival=np.zeros(tasks, int), deadline=np.maximum(inst.deadline, 1))
    return inst.subset(np.arange(tasks), vendor=np.zeros(tasks, int))


def _brute(inst: LoraInstance) -> tuple[tuple[int, int], float]:
    """(best (count, -total JCT), best welfare) of one slot's program by enumeration."""
    options = [[None] + task_schedules(inst, i) for i in range(inst.num_tasks)]
    room = inst.memory_capacity - inst.base_memory
    best_lex: tuple[int, int] = (0, 0)
    best_welfare = 0.0
    for combo in itertools.product(*options):
        compute = np.zeros((inst.num_nodes, inst.num_slots))
        memory = np.zeros_like(compute)
        count, jct, welfare = 0, 0, 0.0
        for i, choice in enumerate(combo):
            if choice is None:
                continue
            _, row, value = choice
            used = [(k, t) for t, k in enumerate(row) if k >= 0]
            for k, t in used:
                compute[k, t] += inst.throughput[i, k]
                memory[k, t] += inst.memory_need[i]
            count += 1
            jct += max(t for _, t in used) - int(inst.arrival[i]) + 1
            welfare += value
        if (compute > inst.compute_capacity[:, None] + 1e-9).any() or (memory > room[:, None] + 1e-9).any():
            continue
        best_lex = max(best_lex, (count, -jct))
        best_welfare = max(best_welfare, welfare)
    return best_lex, best_welfare


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("formulation", ["nodes", "classes"])
def test_slot_program_matches_brute_force(seed, formulation):
    inst = _one_slot_tiny(seed)
    (count, neg_jct), welfare = _brute(inst)
    args = _slot_inputs(inst)
    jct = solve_slot(inst, *args, objective="jct", formulation=formulation, mip_gap=0.0)
    assert (jct.count, -jct.total_jct) == (count, neg_jct)
    assert jct.status in ("optimal", "empty")
    wel = solve_slot(inst, *args, objective="welfare", formulation=formulation, mip_gap=0.0)
    assert wel.detail.get("welfare", 0.0) == pytest.approx(welfare, abs=1e-6)


def test_classes_group_identical_nodes_only():
    inst = generate(seed=3, nodes=6, slots=6, arrival_rate=3, vendors=3, gpu_mix="mixed")
    tasks = np.arange(inst.num_tasks)
    label = node_classes(inst, tasks)
    assert len(set(label.tolist())) == 2  # A100 and A40: same throughput, energy and capacity per type
    assert (label[::2] == label[0]).all() and (label[1::2] == label[1]).all()
    assert (node_classes(inst, tasks, "nodes") == np.arange(6)).all()


@pytest.mark.parametrize("seed", range(3))
def test_classes_and_nodes_agree_on_small_slots(seed):
    inst = generate(seed=seed, nodes=4, slots=10, arrival_rate=3, vendors=2)
    first = np.nonzero(inst.arrival == inst.arrival.min())[0]
    sub = inst.subset(first, vendor=np.zeros(first.size, int))
    args = _slot_inputs(sub)
    compared = 0
    for objective in ("jct", "welfare"):
        a = solve_slot(sub, *args, objective=objective, formulation="classes", mip_gap=0.0)
        b = solve_slot(sub, *args, objective=objective, formulation="nodes", mip_gap=0.0)
        assert b.status in ("optimal", "empty")  # the node program needs no packing
        if a.status == "optimal":
            compared += 1
            assert a.count == b.count
            if objective == "jct":
                assert a.total_jct == b.total_jct
            else:
                assert a.detail["welfare"] == pytest.approx(b.detail["welfare"], rel=1e-9, abs=1e-6)
        else:  # a repaired class answer is never better than the node program's optimum
            assert a.status == "heuristic" and a.count <= b.count
    assert compared >= 1


@pytest.mark.parametrize("seed", range(3))
def test_welfare_slot_matches_pyomo_ip4(seed):
    inst = _one_slot_tiny(seed + 10, tasks=4, nodes=2, slots=5)
    model = build(inst)
    result = solve(model, "highs", mip_gap=0.0)
    assert result.status is Status.OPTIMAL
    expected = inst.verify_plan(extract_plan(model, inst))
    got = solve_slot(inst, *_slot_inputs(inst), objective="welfare", formulation="nodes", mip_gap=0.0)
    assert got.detail.get("welfare", 0.0) == pytest.approx(expected, abs=1e-6)


def test_packing_failure_is_repaired_and_reported():
    # two identical nodes of room 10; the class row allows 6 + 6 + 4 + 4 = 20 but only
    # {6, 4} fits a node: the class answer packs, or is repaired, never over capacity
    inst = LoraInstance(
        num_slots=2, compute_capacity=[10.0, 10.0], memory_capacity=[50.0, 50.0], base_memory=1.0,
        gpu_type=["A100-80GB", "A100-80GB"], arrival=[0, 0, 0, 0, 0], deadline=[0, 0, 0, 0, 0],
        memory_need=[1.0] * 5, work=[6.0, 6.0, 4.0, 4.0, 3.0], needs_preprocessing=[False] * 5,
        bid=[5.0] * 5, throughput=[[6.0, 6.0], [6.0, 6.0], [4.0, 4.0], [4.0, 4.0], [3.0, 3.0]],
        vendor_price=np.zeros((5, 0)), vendor_delay=np.zeros((5, 0), int),
        energy_use=np.zeros((5, 2)), energy_price=np.zeros((2, 2)),
    )
    res = solve_slot(inst, *_slot_inputs(inst), objective="jct", formulation="classes", mip_gap=0.0)
    (count, _), _ = _brute(inst)
    assert count == 4  # {6, 4} and {6, 4}; the 3 does not fit anywhere then
    assert res.count <= count and res.status in ("optimal", "heuristic")
    assert res.status == "optimal" if res.count == count else res.status == "heuristic"


@pytest.mark.parametrize("name", ["titan", "titan_welfare"])
@pytest.mark.parametrize("formulation", ["classes", "nodes"])
def test_runs_give_verified_plans_and_slot_statuses(name, formulation):
    inst = generate(seed=1, nodes=4, slots=12, arrival_rate=2, vendors=2)
    out = aisched.run(name, inst, formulation=formulation)
    assert out.verify(inst) == pytest.approx(out.objective)
    info = out.info
    arrival_slots = sorted(set(inst.arrival.tolist()))
    assert info["solved_slots"] == arrival_slots
    assert len(info["slot_status"]) == len(arrival_slots)
    assert sum(info["slot_status_counts"].values()) == len(arrival_slots)
    assert sum(info[f"slots_{k}"] for k in ("optimal", "gap", "heuristic", "empty", "failed")) == len(arrival_slots)
    assert set(info["slot_status"]) <= {"optimal", "gap", "heuristic", "empty", "failed"}
    assert info["objective"] == ("jct" if name == "titan" else "welfare")
    for st, gap in zip(info["slot_status"], info["slot_gap"], strict=True):
        assert gap >= 0 and (st != "optimal" or gap <= 1e-4 + 1e-9)


def test_titan_schedules_at_least_as_many_tasks_as_each_slot_allows():
    # Titan's first goal is the number of tasks: on one slot it matches the node program's count
    inst = generate(seed=2, nodes=3, slots=8, arrival_rate=4, vendors=0)
    first = np.nonzero(inst.arrival == 0)[0]
    sub = inst.subset(first)
    out = aisched.run("titan", sub, formulation="nodes", mip_gap=0.0)
    res = solve_slot(sub, *_slot_inputs(sub), objective="welfare", formulation="nodes", mip_gap=0.0)
    assert out.num_admitted >= res.count


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"objective": "makespan"}, "objective"),
        ({"formulation": "bins"}, "formulation"),
        ({"repair_rounds": -1}, "repair_rounds"),
        ({"repair_rounds": 1.5}, "repair_rounds"),
        ({"solver": "cbc"}, "solver"),
        ({"slot_time_limit": 0.0}, "slot_time_limit"),
        ({"mip_gap": -1.0}, "mip_gap"),
        ({"slot_budget": "fast"}, "slot_budget"),
    ],
)
def test_bad_options_name_the_field(params, field):
    inst = random_tiny(0)
    with pytest.raises(InvalidScenarioError, match=rf"^{field}"):
        aisched.run("titan", inst, **params)


def test_titan_welfare_fixes_its_objective():
    with pytest.raises(InvalidScenarioError, match="^objective"):
        aisched.run("titan_welfare", random_tiny(0), objective="jct")


@pytest.mark.parametrize("seed", range(4))
def test_sized_budget_solves_the_same_program(seed):
    """``budget="sized"`` (highspy, warm-started JCT stage) finds the brute-force optimum of
    Titan's slot program on small slots, as the default does."""
    inst = _one_slot_tiny(seed)
    (count, neg_jct), _ = _brute(inst)
    res = solve_slot(inst, *_slot_inputs(inst), objective="jct", formulation="nodes", mip_gap=0.0,
                     budget="sized")
    assert (res.count, -res.total_jct) == (count, neg_jct)
    assert res.status in ("optimal", "empty")


def test_sized_budget_day_is_verified():
    inst = generate(seed=1, nodes=4, slots=12, arrival_rate=2, vendors=2)
    out = aisched.run("titan", inst, slot_budget="sized")
    assert out.verify(inst) == pytest.approx(out.objective)
    assert out.info["slot_budget"] == "sized"
