"""IP (5) as a time-indexed MILP: brute-force optimum, sender-edge transfer cost, solver status."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import need_data_file
from genai_tiny import brute_force_optimum, make_instance, random_tiny

import aisched
from aisched.models.genai import build, make_plan
from aisched.solvers import solve


@pytest.mark.parametrize("seed", range(4))
def test_milp_optimum_equals_brute_force(seed):
    inst = random_tiny(seed)
    out = aisched.offline(inst)
    assert out.status == "optimal"
    assert out.objective == pytest.approx(brute_force_optimum(inst), abs=1e-6)
    assert out.verify(inst) == pytest.approx(out.objective)
    assert out.bound == pytest.approx(out.objective, abs=1e-6)


def transfer_instance(transfer):
    """One chain job 0 -> 1 (2 MB), no other cost."""
    job = {"arrival": 0, "deadline": 3, "revenue": 100.0, "edges": [(0, 1)], "data": [2.0],
           "models": [[0], [1]], "runtime": [[1], [1]], "compute": [[1.0], [1.0]]}
    return make_instance(slots=4, capacity=[5.0, 5.0], model_size=[4.0, 2.5], jobs=[job], cost=(0.0, 0.0, 0.0),
                         transfer=np.asarray(transfer, float))


@pytest.mark.parametrize("sender", [0, 1])
def test_transfer_cost_charges_sender_edge(sender):
    """(3) charges h_jj' e^p_k with k the edge of the predecessor (the sender), in the MILP and in verify."""
    transfer = [1.0, 10.0]
    inst = transfer_instance(transfer)
    receiver = 1 - sender
    plan = make_plan(inst, [[sender, receiver]], [[0, 1]], [[0, 1]], [True])
    assert inst.verify_plan(plan) == pytest.approx(100.0 - 2.0 * transfer[sender])
    m = build(inst)
    for (i, j, c, k, s) in m.START:  # force task 0 onto the sender's edge, task 1 onto the other
        if (j == 0 and k != sender) or (j == 1 and k != receiver):
            m.z[i, j, c, k, s].fix(0)
    res = solve(m, "highs")
    assert res.status.value == "optimal"
    assert res.objective == pytest.approx(100.0 - 2.0 * transfer[sender])
    assert aisched.offline(inst).objective == pytest.approx(100.0)  # same edge: no transfer at all


def test_cost_weights_scale_each_term():
    inst = random_tiny(3)
    base = aisched.offline(inst)
    heavy = aisched.offline(inst.replace(cost_weight=[0.0, 0.0, 0.0]))
    assert heavy.objective == pytest.approx(float(inst.revenue.sum()))
    assert heavy.objective >= base.objective


def test_build_names_components_and_solves_extended_model():
    inst = random_tiny(1)
    m = build(inst)
    for name in ("profit", "one_schedule", "precedence", "capacity", "leaves", "u", "z", "w"):
        assert hasattr(m, name)
    assert all(key[4] >= inst.arrival[key[0]] for key in m.START)
    m.no_job_one = __import__("pyomo.environ").environ.Constraint(expr=m.u[1] == 0)
    res = solve(m, "highs")
    assert res.status.value == "optimal" and m.u[1].value < 0.5


def test_time_limit_reports_status_not_exception():
    need_data_file("taskbench_dags.jsonl")  # skip, not fail, without the data
    inst = aisched.scenarios.genai.generate(seed=0, edges=3, slots=30, arrival_rate=0.6, capacity=12.0)
    out = aisched.offline(inst, time_limit=0.01)
    assert out.status in ("time_limit", "optimal")
    assert out.bound >= (out.objective if out.objective == out.objective else -np.inf) - 1e-6


def test_no_jobs_is_optimal_without_solver():
    inst = aisched.scenarios.genai.generate(seed=0, edges=2, slots=5, arrival_rate=0.0, capacity="homo-M")
    out = aisched.offline(inst)
    assert inst.num_jobs == 0 and out.status == "optimal" and out.objective == 0.0
    assert aisched.run("comdos", inst).verify(inst) == 0.0


def test_too_large_for_the_milp(monkeypatch):
    from aisched.errors import SolverError
    from aisched.models.genai import program

    inst = random_tiny(3)
    assert program.count_starts(inst) == len(build(inst).z)
    opt = aisched.offline(inst)
    bound = program.capacity_free_bound(inst)
    assert bound >= opt.objective - 1e-9
    monkeypatch.setattr(program, "MAX_START_VARIABLES", 10)
    with pytest.raises(SolverError, match="start variables"):
        aisched.offline(inst)
    out = aisched.offline(inst, time_limit=5)
    assert out.status == "time_limit" and out.objective == 0.0 and out.bound == pytest.approx(bound)
    assert out.verify(inst) == 0.0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gpus", [1, 2])
def test_a_gpu_limit_is_brute_forces_optimum_and_the_plan_meets_it(seed, gpus):
    """The extension of readings A2c: at most ``gpus`` tasks at once an edge, beside IP (5)."""
    from aisched.online.genai import metrics

    inst = random_tiny(seed)
    out = aisched.offline(inst, gpus=gpus)
    assert out.status == "optimal"
    assert out.objective == pytest.approx(brute_force_optimum(inst, gpus=gpus), abs=1e-6)
    assert metrics.utilisation(inst, out, gpus=gpus)["gpu_oversubscribed"] == 0.0
    assert out.objective <= aisched.offline(inst).objective + 1e-9  # a restriction of IP (5)
    assert "gpus_at_once" in {c.local_name for c in build(inst, gpus=gpus).component_objects()}
    assert not hasattr(build(inst), "gpus_at_once")


def test_one_gpu_an_edge_turns_away_the_second_of_two_tasks_that_must_overlap():
    job = {"arrival": 0, "deadline": 1, "revenue": 10.0, "edges": [], "data": [],
           "models": [[0]], "runtime": [[2]], "compute": [[1.0]]}
    inst = make_instance(slots=3, capacity=[8.0], model_size=[2.0], jobs=[job, job], cost=(0.0, 0.0, 0.0))
    assert aisched.offline(inst).objective == pytest.approx(20.0)  # IP (5): both at once
    limited = aisched.offline(inst, gpus=1)
    assert limited.objective == pytest.approx(10.0) and limited.admitted.sum() == 1


@pytest.mark.parametrize("bad", [0, 2.5, True, "4"])
def test_bad_gpus_is_refused_before_the_model_is_built(bad):
    with pytest.raises(aisched.errors.InvalidScenarioError, match=r"^gpus: "):
        aisched.offline(random_tiny(0), gpus=bad)
