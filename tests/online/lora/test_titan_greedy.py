"""Titan's stage-1 fallback (``aisched.online.lora.titan.greedy``).

When the count stage's MILP stops at its time limit with fewer tasks than the
earliest-finish plan (shortest first, TitanSched's order), the slot commits that
plan; a slot whose count stage is proved optimal never calls it.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
import aisched.online.lora.titan.model as titan_model
from aisched.models.lora import make_plan
from aisched.online.lora.titan.greedy import greedy_rows
from aisched.online.lora.titan.model import _Program, node_classes, solve_slot
from aisched.scenarios.lora import generate
from tests.online.lora.test_titan import _slot_inputs


def _slot(seed: int, tasks: int = 12):
    inst = generate(seed=seed, nodes=3, slots=10, arrival_rate=tasks, vendors=0)
    inst = inst.subset(np.nonzero(inst.arrival == 0)[0])
    return inst, _slot_inputs(inst)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_greedy_plan_is_valid_and_leaves_the_rooms_as_they_were(seed):
    inst, (tasks, start, _, compute, memory) = _slot(seed)
    label = node_classes(inst, tasks)
    prog = _Program(inst, tasks, start, np.zeros(tasks.size), label, compute, memory)
    before = compute.copy(), memory.copy()
    rows, placed = greedy_rows(inst, tasks, start, prog.fewest, compute, memory)
    assert np.array_equal(compute, before[0]) and np.array_equal(memory, before[1])  # rooms not modified
    assert np.all(rows[~placed] < 0)
    plan = make_plan(inst, np.where(placed[:, None], rows, -1).astype(np.int32),
                     np.full(tasks.size, -1, np.int32), placed)
    inst.verify_plan(plan)  # capacity, work, windows: raises if any is broken
    # every placed task runs only inside [start, deadline]
    for j in np.nonzero(placed)[0]:
        ts = np.nonzero(rows[j] >= 0)[0]
        assert ts.min() >= start[j] and ts.max() <= inst.deadline[j]


def _stopped_stage_one(monkeypatch):
    """Make every count-stage solve stop at its limit with the all-zero plan (as HiGHS did on
    Fig. 7's Helios slots of 2,000+ tasks); other solves run as usual."""
    real = titan_model._milp
    calls = {"count": 0}

    def fake(cost, n_int, A, lb, ub, col_lb, col_ub, time_limit, mip_gap, start=None, engine="scipy"):
        if np.all(cost[cost != 0] == -1.0):  # the count stage: minimise -sum u
            calls["count"] += 1
            return "time_limit", np.zeros(cost.size), 0.0, float(cost.sum())
        return real(cost, n_int, A, lb, ub, col_lb, col_ub, time_limit, mip_gap, start=start, engine=engine)

    monkeypatch.setattr(titan_model, "_milp", fake)
    return calls


@pytest.mark.parametrize("seed", [0, 3])
def test_stopped_count_stage_commits_the_greedy_plan(monkeypatch, seed):
    inst, (tasks, start, cost, compute, memory) = _slot(seed)
    label = node_classes(inst, tasks)
    prog = _Program(inst, tasks, start, cost, label, compute, memory)
    rows, placed = greedy_rows(inst, tasks, start, prog.fewest, compute, memory)
    assert placed.any()
    calls = _stopped_stage_one(monkeypatch)
    res = solve_slot(inst, tasks, start, cost, compute, memory, objective="jct", jct_form="running")
    assert calls["count"] == 1  # no stage 2, no repair round
    assert res.status == "heuristic" and res.rounds == 1
    assert res.count == int(placed.sum()) and res.detail["greedy_tasks"] == res.detail["fallback_tasks"] == res.count
    assert np.array_equal(res.admitted, placed)
    assert np.array_equal(np.where(res.admitted[:, None], res.assignment, -1), np.where(placed[:, None], rows, -1))
    assert res.bound == tasks.size  # the fake stop gave the trivial bound: every task


def test_proved_slots_never_call_the_fallback(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("greedy fallback called on a proved slot")

    monkeypatch.setattr(titan_model, "greedy_rows", boom)
    inst = generate(seed=1, nodes=4, slots=12, arrival_rate=2, vendors=2)
    out = aisched.run("titan", inst, jct_form="running", mip_gap=0.0)
    assert out.info["slots_gap"] == 0  # every count stage proved: the fallback was never needed
    assert out.info["slots_count_fallback"] == 0
    assert out.verify(inst) == pytest.approx(out.objective)


def test_day_with_stopped_count_stages_is_verified(monkeypatch):
    _stopped_stage_one(monkeypatch)
    inst = generate(seed=2, nodes=3, slots=10, arrival_rate=4, vendors=2)
    out = aisched.run("titan", inst, jct_form="running")
    assert out.verify(inst) == pytest.approx(out.objective)
    assert out.num_admitted > 0
    # a slot whose greedy plan places nothing keeps the stopped solve's answer ("gap")
    assert set(out.info["slot_status"]) <= {"heuristic", "gap", "empty"} and "heuristic" in out.info["slot_status"]
    assert out.info["slots_optimal"] == 0
    assert out.info["slots_count_fallback"] == out.info["slots_heuristic"] > 0


def test_count_fallback_none_keeps_the_stopped_answer(monkeypatch):
    _stopped_stage_one(monkeypatch)
    inst = generate(seed=2, nodes=3, slots=10, arrival_rate=4, vendors=2)
    with_fallback = aisched.run("titan", inst, jct_form="running")
    without = aisched.run("titan", inst, jct_form="running", count_fallback="none")
    assert without.info["count_fallback"] == "none" and with_fallback.info["count_fallback"] == "greedy"
    assert without.verify(inst) == pytest.approx(without.objective)
    assert "heuristic" not in without.info["slot_status"]  # nothing committed from the greedy plan
    assert without.info["slots_count_fallback"] == 0
    assert without.num_admitted < with_fallback.num_admitted


def test_bad_count_fallback_names_the_field():
    inst = generate(seed=2, nodes=3, slots=10, arrival_rate=4, vendors=2)
    with pytest.raises(aisched.errors.InvalidScenarioError, match="count_fallback"):
        aisched.run("titan", inst, count_fallback="lp")


def test_a_failed_count_stage_with_an_empty_greedy_plan_stays_failed(monkeypatch):
    # no solution and nothing the greedy plan can place: the slot is "failed", as without the fallback
    monkeypatch.setattr(titan_model, "_milp", lambda *a, **k: ("failed", None, np.inf, -np.inf))
    monkeypatch.setattr(titan_model, "greedy_rows",
                        lambda instance, tasks, *a: (np.full((tasks.size, instance.num_slots), -1), np.zeros(tasks.size, bool)))
    inst, (tasks, start, cost, compute, memory) = _slot(0)
    res = solve_slot(inst, tasks, start, cost, compute, memory, objective="jct", jct_form="running")
    assert res.status == "failed" and res.count == 0 and res.detail["fallback_tasks"] == 0
