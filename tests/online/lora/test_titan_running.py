"""Titan's JCT stage in the running form (``jct_form="running"``/``"running_work"``).

The forms are the same optimisation problem (proof in
:mod:`aisched.online.lora.titan.running`): solved to optimality they give the same
count and the same least total JCT as the completion form and as a brute force of
the slot's program; the count stage is built and solved the same way.
"""

from __future__ import annotations

import numpy as np
import pytest
from lora_tiny import random_tiny

import aisched
from aisched.errors import InvalidScenarioError
from aisched.online.lora.titan.model import _Program, node_classes, solve_slot
from aisched.online.lora.titan.running import running_rows, running_start
from aisched.scenarios.lora import generate
from tests.online.lora.test_titan import _brute, _one_slot_tiny, _slot_inputs

FORMS = ("running", "running_work")


@pytest.mark.parametrize("seed", range(8))
def test_running_form_matches_brute_force_and_completion(seed):
    inst = _one_slot_tiny(seed, tasks=3, nodes=2, slots=5)
    (count, neg_jct), _ = _brute(inst)  # one enumeration, both forms
    args = _slot_inputs(inst)
    old = solve_slot(inst, *args, objective="jct", formulation="nodes", mip_gap=0.0)
    assert (old.count, -old.total_jct) == (count, neg_jct)
    for jct_form in FORMS:
        new = solve_slot(inst, *args, objective="jct", formulation="nodes", mip_gap=0.0, jct_form=jct_form)
        assert (new.count, -new.total_jct) == (count, neg_jct)
        assert new.status in ("optimal", "empty")
        assert new.detail["jct_bound"] == pytest.approx(old.detail["jct_bound"], abs=1e-6)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("jct_form", FORMS)
@pytest.mark.parametrize("budget", ["limit", "warm"])
def test_running_form_on_generated_slots(seed, jct_form, budget):
    """Larger slots (several classes, vendors): same count, same optimal total JCT."""
    inst = generate(seed=seed, nodes=4, slots=10, arrival_rate=4, vendors=2, gpu_mix="mixed")
    first = np.nonzero(inst.arrival == inst.arrival.min())[0]
    sub = inst.subset(first, vendor=np.zeros(first.size, int))
    args = _slot_inputs(sub)
    old = solve_slot(sub, *args, objective="jct", formulation="nodes", mip_gap=0.0)
    new = solve_slot(sub, *args, objective="jct", formulation="nodes", mip_gap=0.0,
                     jct_form=jct_form, budget=budget)
    assert old.status in ("optimal", "empty") and new.status in ("optimal", "empty")
    assert (new.count, new.total_jct) == (old.count, old.total_jct)


@pytest.mark.parametrize("seed", range(5))
def test_least_z_is_feasible_and_prices_the_jct(seed):
    """For any feasible (y, u) -- the brute-force-free check: a plan of the count stage --
    the least z of :func:`running_start` meets every running row (work rows included)
    and its cost is the plan's total JCT, ``sum (L_i - a_i + 1)``."""
    inst = _one_slot_tiny(seed, tasks=4, nodes=2, slots=6)
    tasks, start, cost, compute, memory = _slot_inputs(inst)
    res = solve_slot(inst, tasks, start, cost, compute, memory, objective="jct", formulation="nodes", mip_gap=0.0)
    prog = _Program(inst, tasks, start, cost, node_classes(inst, tasks, "nodes"), compute, memory)
    # the plan's cells as program columns
    y = np.zeros(prog.n_cells)
    for q in range(prog.n_cells):
        i, c, t = prog.col_task[q], prog.col_class[q], prog.col_slot[q]
        y[q] = float(res.assignment[i, t] == c and res.admitted[i])
    u = res.admitted.astype(float)
    block, lb, _, price, (z_task, z_slot) = running_rows(prog, inst.arrival.astype(float), work_rows=True)
    x = np.concatenate([y, u, running_start(prog, y, u, z_task, z_slot)])
    assert (block @ x >= lb - 1e-9).all()
    assert price @ x == pytest.approx(res.total_jct)


def test_running_day_is_verified_and_records_the_form():
    inst = generate(seed=1, nodes=4, slots=12, arrival_rate=2, vendors=2)
    out = aisched.run("titan", inst, jct_form="running", slot_budget="warm")
    assert out.verify(inst) == pytest.approx(out.objective)
    assert out.info["jct_form"] == "running" and out.info["slot_budget"] == "warm"
    base = aisched.run("titan", inst)
    assert base.info["jct_form"] == "completion"
    assert out.num_admitted == base.num_admitted  # same count in every slot (tiny slots: all proved)


def test_bad_jct_form_names_the_field():
    with pytest.raises(InvalidScenarioError, match="^jct_form"):
        aisched.run("titan", random_tiny(0), jct_form="makespan")
