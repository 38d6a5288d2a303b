"""Inputs that used to crash: each now works or raises an aisched error."""

import numpy as np
import pytest
from lora_tiny import brute_force_optimum, random_tiny

import aisched
from aisched.errors import InvalidInstanceError
from aisched.models.lora.instance import MAX_TOTAL_MONEY

ONLINE = ["pdftsp", "titan", "eft", "ntm"]


def _runs(inst):
    yield "offline", aisched.offline(inst)
    for name in ONLINE:
        yield name, aisched.run(name, inst)
    yield "pdftsp-exact", aisched.run("pdftsp", inst, selection="exact")


@pytest.mark.parametrize("seed", range(3))
def test_a_task_that_can_run_nowhere_is_rejected_and_the_rest_solved(seed):
    inst = random_tiny(seed, tasks=3, nodes=2, slots=4, vendors=2)
    tp = np.array(inst.throughput)
    tp[0] = 0.0
    inst = inst.replace(throughput=tp)
    best = brute_force_optimum(inst)
    for name, out in _runs(inst):
        assert not out.admitted[0], name
        assert out.verify(inst) <= best + 1e-6, name
    assert aisched.offline(inst).objective == pytest.approx(best, abs=1e-6)


def test_a_vendor_delay_near_int32_max_never_starts_the_task():
    inst = random_tiny(1, tasks=3, nodes=2, slots=4, vendors=2)
    pre = np.ones(inst.num_tasks, dtype=bool)
    delay = np.full((inst.num_tasks, inst.num_vendors), 2**31 - 2)
    inst = inst.replace(needs_preprocessing=pre, vendor_delay=delay)
    assert inst.earliest_start().min() == 2**31 - 2 + inst.arrival.min()  # no int32 wrap-around
    for name, out in _runs(inst):
        assert out.verify(inst) == 0.0, name
        assert not out.admitted.any(), name


def test_a_throughput_above_int32_work_units_is_capped_not_rejected():
    inst = random_tiny(2, tasks=3, nodes=2, slots=4, vendors=0)
    inst = inst.replace(
        compute_capacity=np.full(inst.num_nodes, 4e9),
        throughput=np.where(inst.throughput > 0, 3e9, 0.0),
        work=inst.work + 0.5,  # not integers: the DP falls back to max(work) / 8192 per unit
    )
    best = brute_force_optimum(inst)
    for name, out in _runs(inst):
        assert out.verify(inst) <= best + 1e-6, name
    # each task finishes in one slot on any node, so the DP finds a schedule for all of them
    out = aisched.run("pdftsp", inst, selection="exact")
    assert np.isfinite(out.plan["surplus"].values).all()


def test_zero_tasks_offline_is_optimal_with_zero_and_online_plans_are_empty():
    inst = random_tiny(0).subset([])
    off = aisched.offline(inst)
    assert (off.status, off.objective, off.bound) == ("optimal", 0.0, 0.0)
    assert off.verify(inst) == 0.0
    for name in ONLINE:
        out = aisched.run(name, inst)
        assert out.verify(inst) == 0.0 and out.admitted.shape == (0,), name


@pytest.mark.parametrize("value", [1e20, MAX_TOTAL_MONEY])
def test_a_bid_beyond_the_money_scale_is_named(value):
    inst = random_tiny(0)
    bid = np.array(inst.bid)
    bid[1] = value
    with pytest.raises(InvalidInstanceError, match=r"bid.*\[1\] = 1e\+\d\d.*rescale"):
        inst.replace(bid=bid)


def test_a_large_bid_below_the_scale_keeps_bound_above_objective():
    inst = random_tiny(3, tasks=3, nodes=2, slots=4, vendors=2)
    best = aisched.offline(inst)
    j = int(np.argmax(best.admitted)) if best.admitted.any() else 0
    bid = np.array(inst.bid)
    bid[j] = MAX_TOTAL_MONEY / 10
    out = aisched.offline(inst.replace(bid=bid))
    assert out.status == "optimal"
    assert out.bound >= out.objective * (1 - 1e-9)
    assert out.admitted[j]
