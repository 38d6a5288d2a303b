"""Tests of the EFT and NTM baselines (pdFTSP section 5.1) in aisched.online.lora.greedy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aisched.models.lora.instance import LoraInstance
from aisched.online.lora.greedy import run_eft, run_ntm
from aisched.registry import lookup

TOL = 1e-9


def _inst(**over: Any) -> LoraInstance:
    """A tiny instance: 1 node (compute 10, memory 40, base 10), 2 slots, 1 task, 2 vendors."""
    n_tasks = len(over.get("arrival", [0]))
    k = len(over.get("compute_capacity", [10.0]))
    t = over.get("num_slots", 2)
    kw: dict[str, Any] = dict(
        num_slots=t,
        compute_capacity=[10.0] * k,
        memory_capacity=[40.0] * k,
        base_memory=10.0,
        gpu_type=["A100"] * k,
        arrival=[0] * n_tasks,
        deadline=[t - 1] * n_tasks,
        memory_need=[10.0] * n_tasks,
        work=[5.0] * n_tasks,
        needs_preprocessing=[False] * n_tasks,
        bid=[100.0] * n_tasks,
        throughput=np.full((n_tasks, k), 5.0),
        vendor_price=np.ones((n_tasks, 2)),
        vendor_delay=np.zeros((n_tasks, 2), dtype=int),
        energy_use=np.ones((n_tasks, k)),
        energy_price=np.ones((k, t)),
    )
    kw.update(over)
    return LoraInstance(**kw)


def _check_plan(inst: LoraInstance, plan: Any) -> float:
    """Assert the plan meets IP (4) of the paper; return its social welfare (3)."""
    a = plan["assignment"].values
    v = plan["vendor"].values
    adm = plan["admitted"].values.astype(bool)
    n_tasks, n_slots = inst.num_tasks, inst.num_slots
    assert a.shape == (n_tasks, n_slots) and v.shape == adm.shape == (n_tasks,)
    assert np.array_equal(plan["task"].values, np.arange(n_tasks))
    assert np.array_equal(plan["slot"].values, np.arange(n_slots))
    used_p = np.zeros((inst.num_nodes, n_slots))
    used_m = np.zeros((inst.num_nodes, n_slots))
    total = 0.0
    for i in range(n_tasks):
        cells = np.flatnonzero(a[i] >= 0)
        if not adm[i]:
            assert cells.size == 0 and v[i] == -1, f"rejected task {i} holds resources"
            continue
        assert a[i].max() < inst.num_nodes
        if inst.needs_preprocessing[i]:  # (4a)
            assert 0 <= v[i] < inst.num_vendors
        else:
            assert v[i] == -1
        start = inst.arrival[i] + (inst.vendor_delay[i, v[i]] if v[i] >= 0 else 0)
        assert cells.size == 0 or cells.min() >= start  # (4c)
        assert cells.size == 0 or cells.max() <= inst.deadline[i]  # (4d)
        nodes = a[i, cells]
        assert inst.work[i] * (1 - TOL) <= inst.throughput[i, nodes].sum()  # (4e)
        used_p[nodes, cells] += inst.throughput[i, nodes]
        used_m[nodes, cells] += inst.memory_need[i]
        e = inst.energy_cost(i)
        total += inst.bid[i] - (inst.vendor_price[i, v[i]] if v[i] >= 0 else 0.0)
        total -= e[nodes, cells].sum()
    assert (used_p <= inst.compute_capacity[:, None] * (1 + TOL)).all()  # (4f)
    occupied = used_m > 0
    cap_m = inst.memory_capacity[:, None] * (1 + TOL)
    assert (used_m + inst.base_memory <= cap_m)[occupied].all()  # (4g)
    return total


def _run_both(inst: LoraInstance, **kw: Any) -> tuple[Any, Any]:
    eft, ntm = run_eft(inst, **kw), run_ntm(inst, **kw)
    for out in (eft, ntm):
        assert out.objective == pytest.approx(_check_plan(inst, out.plan), rel=1e-9, abs=1e-9)
        out.verify(inst)
        assert np.array_equal(out.admitted, out.plan["admitted"].values)
        assert out.family == "lora" and out.status == "online" and out.payments is None
        assert out.decision_s.shape == (inst.num_tasks,)
    return eft, ntm


def test_registered() -> None:
    assert lookup("lora", "eft") is run_eft
    assert lookup("lora", "ntm") is run_ntm


def test_eft_merges_ntm_does_not() -> None:
    # two nodes; node 0 is faster (5 vs 4); both tasks need 4 samples
    inst = _inst(
        arrival=[0, 0],
        compute_capacity=[10.0, 10.0],
        throughput=[[5.0, 4.0], [5.0, 4.0]],
        work=[4.0, 4.0],
    )
    eft, ntm = _run_both(inst)
    assert eft.plan["assignment"].values.tolist() == [[0, -1], [0, -1]]  # merged on node 0
    assert ntm.plan["assignment"].values.tolist() == [[0, -1], [1, -1]]  # second elsewhere
    assert eft.objective == pytest.approx(200 - 2) and ntm.objective == pytest.approx(198)


def test_ntm_goes_later_on_single_node() -> None:
    inst = _inst(arrival=[0, 0])
    eft, ntm = _run_both(inst)
    assert eft.plan["assignment"].values.tolist() == [[0, -1], [0, -1]]
    assert ntm.plan["assignment"].values.tolist() == [[0, -1], [-1, 0]]


def test_eft_respects_memory_and_compute() -> None:
    # memory: 10 + 20 + 20 > 40, so the second task waits for slot 1
    inst = _inst(arrival=[0, 0], memory_need=[20.0, 20.0])
    assert run_eft(inst).plan["assignment"].values.tolist() == [[0, -1], [-1, 0]]
    # compute: 6 + 6 > 10
    inst = _inst(arrival=[0, 0], throughput=[[6.0], [6.0]])
    eft, _ = _run_both(inst)
    assert eft.plan["assignment"].values.tolist() == [[0, -1], [-1, 0]]


def test_eft_takes_fastest_node_ties_to_cheaper_energy() -> None:
    inst = _inst(
        compute_capacity=[10.0, 10.0, 10.0],
        throughput=[[3.0, 5.0, 5.0]],
        energy_price=[[1.0, 1.0], [3.0, 3.0], [2.0, 2.0]],
        work=[8.0],
    )
    eft, ntm = _run_both(inst)
    assert eft.plan["assignment"].values.tolist() == [[2, 2]]
    assert ntm.plan["assignment"].values.tolist() == [[2, 2]]
    assert eft.objective == pytest.approx(100 - 4)


def test_eft_vendor_min_delay_then_price_then_index() -> None:
    inst = _inst(
        num_slots=4,
        needs_preprocessing=[True],
        vendor_price=[[1.0, 5.0, 2.0, 2.0]],
        vendor_delay=[[3, 1, 1, 1]],
        energy_price=np.ones((1, 4)),
    )
    eft, _ = _run_both(inst)
    assert int(eft.plan["vendor"][0]) == 2
    assert eft.plan["assignment"].values.tolist() == [[-1, 0, -1, -1]]  # starts at 0 + delay 1
    assert eft.objective == pytest.approx(100 - 2 - 1)


def test_delay_pushes_past_deadline_rejects() -> None:
    inst = _inst(needs_preprocessing=[True], vendor_delay=[[2, 5]])
    eft, ntm = _run_both(inst)
    assert not eft.admitted[0] and not ntm.admitted[0]
    assert int(eft.plan["vendor"][0]) == -1 and eft.objective == 0.0


def test_unfinishable_task_rejected_reserves_nothing() -> None:
    # task 0 needs 20 samples but can do 5 per slot over 2 slots: rejected
    inst = _inst(arrival=[0, 0], work=[20.0, 5.0], throughput=[[5.0], [10.0]])
    eft, ntm = _run_both(inst)
    for out in (eft, ntm):
        assert out.admitted.tolist() == [False, True]
        assert out.plan["assignment"].values[0].tolist() == [-1, -1]
        # task 1 then gets the full node in slot 0, as if task 0 did not exist
        assert out.plan["assignment"].values[1].tolist() == [0, -1]


def test_online_order_is_arrival_not_index() -> None:
    # task 1 arrives first and takes both slots; task 0 (arriving at 1) finds no room
    inst = _inst(arrival=[1, 0], throughput=[[10.0], [10.0]], work=[10.0, 20.0])
    eft, ntm = _run_both(inst)
    for out in (eft, ntm):
        assert out.admitted.tolist() == [False, True]
        assert out.plan["assignment"].values[1].tolist() == [0, 0]


def test_negative_welfare_admitted_by_default_only() -> None:
    inst = _inst(arrival=[0, 0], bid=[1.0, 100.0], energy_use=[[5.0], [1.0]])
    eft, ntm = _run_both(inst)
    assert eft.admitted.all() and ntm.admitted.all()
    assert eft.objective == pytest.approx(1 - 5 + 100 - 1)
    eft, ntm = _run_both(inst, require_positive_welfare=True)
    for out in (eft, ntm):
        assert out.admitted.tolist() == [False, True]
        assert out.plan["assignment"].values[1].tolist() == [0, -1]  # nothing held by task 0
        assert out.objective == pytest.approx(99)
        assert out.info["require_positive_welfare"] is True


def test_ntm_vendor_draws_follow_seed() -> None:
    inst = _inst(
        num_slots=6,
        arrival=[0, 0, 0, 0],
        needs_preprocessing=[True, False, True, True],
        compute_capacity=[10.0] * 4,
        throughput=np.full((4, 4), 5.0),
        vendor_price=np.ones((4, 3)),
        vendor_delay=np.ones((4, 3), dtype=int),
        energy_use=np.ones((4, 4)),
        energy_price=np.ones((4, 6)),
    )
    out = run_ntm(inst, seed=7)
    assert out.admitted.all() and out.info["seed"] == 7
    draws = np.random.default_rng(7).integers(0, 3, size=3)
    assert out.plan["vendor"].values.tolist() == [draws[0], -1, draws[1], draws[2]]


# ----------------------------------------------------------------- properties
@st.composite
def instances(draw: st.DrawFn) -> LoraInstance:
    n_tasks = draw(st.integers(1, 8))
    k = draw(st.integers(1, 3))
    t = draw(st.integers(1, 6))
    n_v = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    arrival = rng.integers(0, t, n_tasks)
    deadline = np.minimum(t - 1, arrival + rng.integers(0, t, n_tasks))
    throughput = rng.choice([0.0, 1.0, 2.5, 4.0, 7.0], size=(n_tasks, k))
    return LoraInstance(
        num_slots=t,
        compute_capacity=rng.choice([4.0, 8.0, 10.0], k),
        memory_capacity=rng.choice([30.0, 48.0, 80.0], k),
        base_memory=20.0,
        gpu_type=["g"] * k,
        arrival=arrival,
        deadline=deadline,
        memory_need=rng.choice([5.0, 10.0, 15.0, 30.0], n_tasks),
        work=rng.choice([1.0, 3.0, 5.5, 9.0, 14.0], n_tasks),
        needs_preprocessing=rng.random(n_tasks) < 0.5,
        bid=rng.uniform(0, 30, n_tasks),
        throughput=throughput,
        vendor_price=rng.uniform(0, 5, (n_tasks, n_v)),
        vendor_delay=rng.integers(0, 3, (n_tasks, n_v)),
        energy_use=rng.uniform(0, 2, (n_tasks, k)),
        energy_price=rng.uniform(0, 2, (k, t)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inst=instances(), seed=st.integers(0, 5), positive=st.booleans())
def test_plans_feasible(inst: LoraInstance, seed: int, positive: bool) -> None:
    eft = run_eft(inst, require_positive_welfare=positive)
    ntm = run_ntm(inst, seed=seed, require_positive_welfare=positive)
    for out in (eft, ntm):
        welfare = _check_plan(inst, out.plan)
        assert out.objective == pytest.approx(welfare, rel=1e-9, abs=1e-9)
        out.verify(inst)
    a = ntm.plan["assignment"].values
    for t in range(inst.num_slots):  # NTM: never two tasks on one node-slot
        col = a[:, t][a[:, t] >= 0]
        assert col.size == np.unique(col).size
    again = run_ntm(inst, seed=seed, require_positive_welfare=positive)
    assert again.plan.equals(ntm.plan) and again.objective == ntm.objective
    if positive:  # every admitted task has positive welfare, so the total does too
        assert eft.objective >= 0 and ntm.objective >= 0


@settings(max_examples=100, deadline=None)
@given(inst=instances())
def test_eft_first_task_finishes_earliest(inst: LoraInstance) -> None:
    """The first task on an empty cluster: EFT admits it iff some schedule exists, at the
    earliest finish slot (computed here by brute force over per-slot best nodes)."""
    i = int(np.argsort(inst.arrival, kind="stable")[0])
    start = inst.earliest_start()[i]
    s0 = int(start.min()) if inst.needs_preprocessing[i] else int(inst.arrival[i])
    fits = (inst.memory_need[i] + inst.base_memory <= inst.memory_capacity) & (
        inst.throughput[i] <= inst.compute_capacity
    )
    per_slot = float(np.where(fits, inst.throughput[i], 0).max())
    finish = None
    for t in range(s0, int(inst.deadline[i]) + 1):
        if per_slot * (t - s0 + 1) >= inst.work[i] * (1 - TOL) and per_slot > 0:
            finish = t
            break
    out = run_eft(inst)
    assert bool(out.admitted[i]) == (finish is not None)
    if finish is not None:
        assert np.flatnonzero(out.plan["assignment"].values[i] >= 0).max() == finish
