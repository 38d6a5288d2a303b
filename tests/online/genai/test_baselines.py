"""HEFT-A, HEFT-MA and Random-A: registration, feasibility, model rules, admission control."""

from __future__ import annotations

import numpy as np
import pytest
from genai_tiny import random_tiny
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
from aisched.online.genai.baselines import earliest_start


def test_registered_in_order():
    assert aisched.algorithms("genai") == ["comdos", "heft_a", "heft_ma", "random_a"]


@pytest.mark.parametrize("seed", range(4))
def test_baselines_verify_and_stay_below_the_optimum(seed):
    inst = random_tiny(seed, jobs=3)
    opt = aisched.offline(inst)
    for name in ("heft_a", "heft_ma", "random_a"):
        out = aisched.run(name, inst)
        assert out.verify(inst) <= opt.objective + 1e-9


def test_model_rules():
    inst = aisched.scenarios.genai.generate(seed=1, edges=3, slots=40, jobs=6, capacity="homo-L")
    first = aisched.run("heft_a", inst)
    fast = aisched.run("heft_ma", inst)
    assert first.num_admitted > 0 and fast.num_admitted > 0
    for out, rule in ((first, "first"), (fast, "fastest")):
        for i in np.nonzero(out.admitted)[0]:
            for j in range(int(inst.num_tasks[i])):
                valid = inst.candidate_model[i, j] >= 0
                want = (np.argmax(valid) if rule == "first"
                        else np.argmin(np.where(valid, inst.runtime[i, j], 10**9)))
                assert out.plan["model"].values[i, j] == inst.candidate_model[i, j, want]


def test_admission_control_declines_unprofitable_jobs():
    inst = random_tiny(2)
    free = inst.replace(revenue=np.zeros(inst.num_jobs))
    for name in ("heft_a", "heft_ma", "random_a"):
        out = aisched.run(name, free)
        assert not out.admitted.any() and out.objective == 0.0


def test_random_a_is_seeded():
    inst = aisched.scenarios.genai.generate(seed=2, edges=4, slots=30, jobs=8, capacity="homo-S")
    a = aisched.run("random_a", inst, seed=3)
    b = aisched.run("random_a", inst, seed=3)
    assert a.plan.equals(b.plan)
    edges = {tuple(aisched.run("random_a", inst, seed=s).plan["edge"].values.ravel()) for s in range(4)}
    assert len(edges) > 1


def test_earliest_start():
    room = np.array([5.0, 1.0, 5.0, 5.0, 5.0, 0.0])
    assert earliest_start(room, 2.0, 2, 0, 5) == 2
    assert earliest_start(room, 1.0, 2, 0, 5) == 0
    assert earliest_start(room, 2.0, 3, 0, 4) == 2
    assert earliest_start(room, 2.0, 3, 0, 3) == -1  # would end after the deadline
    assert earliest_start(room, 6.0, 1, 0, 5) == -1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_hypothesis_baselines_respect_capacity_and_precedence(seed):
    inst = random_tiny(seed, jobs=4)
    for name in ("heft_a", "heft_ma", "random_a"):
        aisched.run(name, inst).verify(inst)
