"""ComDOS's exact selection (``selection="exact"``) against brute force on tiny fork/join DAGs."""

from __future__ import annotations

import numpy as np
import pytest
from genai_tiny import job_schedules, make_instance, tiny_dag_job
from hypothesis import given, settings

from aisched.errors import InvalidScenarioError
from aisched.online.genai import comdos


def brute(inst, i, price):
    """max over every feasible schedule of job i of (8) by enumeration (-inf if none)."""
    return max((value - float(np.sum(usage * price)) for value, usage, _ in job_schedules(inst, i)),
               default=-np.inf)


@settings(max_examples=40, deadline=None)
@given(tiny_dag_job())
def test_exact_equals_brute_force_and_bounds_algorithm2(case):
    inst, price = case
    best = brute(inst, 0, price)
    exact, faithful = comdos.ComdosState(inst, selection="exact"), comdos.ComdosState(inst)
    exact.price = faithful.price = price
    e, f = exact.decide(0), faithful.decide(0)
    if not np.isfinite(best):
        assert e.mu == -np.inf and f.mu == -np.inf
        return
    assert e.mu == pytest.approx(best, rel=1e-9, abs=1e-9)
    assert e.dp_profit == pytest.approx(best, rel=1e-9, abs=1e-9)  # P of the exact selection is (8)
    assert f.mu <= e.mu + 1e-9


def test_exact_finds_what_algorithm2_misses_on_a_fork():
    """A fork whose children both want the parent late: Algorithm 2 charges the parent once (to R)
    but cannot couple the start; the exact selection reaches the enumerated maximum."""
    found = 0
    rng = np.random.default_rng(0)
    for seed in range(40):
        job = {"arrival": 0, "deadline": 5, "revenue": 20.0, "edges": [(0, 1), (0, 2)], "data": [1.0, 1.0],
               "models": [[0, 1], [0, 1], [0, 1]], "runtime": [[1, 2], [1, 2], [2, 1]],
               "compute": rng.uniform(0.1, 3, (3, 2)).tolist()}
        inst = make_instance(slots=6, capacity=[6.0, 6.0], model_size=[1.0, 2.0], jobs=[job],
                             cost=(0.3, 0.0, 0.2), transfer=np.array([0.5, 1.0]))
        price = np.random.default_rng(seed).exponential(0.6, (2, 6))
        exact, faithful = comdos.ComdosState(inst, selection="exact"), comdos.ComdosState(inst)
        exact.price = faithful.price = price
        e, f = exact.decide(0), faithful.decide(0)
        assert e.mu == pytest.approx(brute(inst, 0, price))
        found += f.mu < e.mu - 1e-9
    assert found > 0


def test_exact_respects_room_when_room_aware():
    job = {"arrival": 0, "deadline": 3, "revenue": 20.0, "edges": [(0, 1)], "data": [1.0],
           "models": [[0], [0]], "runtime": [[1], [1]], "compute": [[1.0], [1.0]]}
    inst = make_instance(slots=4, capacity=[2.0, 2.0], model_size=[2.0], jobs=[job])
    state = comdos.ComdosState(inst, selection="exact", room_aware=True)
    state.used[:, :2] = 1.0  # slots 0-1 have 1 GB left on both edges: the tasks must run in slots 2 and 3
    d = state.decide(0)
    assert sorted(d.start.tolist()) == [2, 3] and d.fits


def test_bad_selection():
    job = {"arrival": 0, "deadline": 3, "revenue": 20.0, "edges": [], "data": [],
           "models": [[0]], "runtime": [[1]], "compute": [[1.0]]}
    inst = make_instance(slots=4, capacity=[2.0], model_size=[1.0], jobs=[job])
    with pytest.raises(InvalidScenarioError, match="selection"):
        comdos.ComdosState(inst, selection="best")
