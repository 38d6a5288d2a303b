"""HEFT-A, HEFT-MA and Random-A: registration, feasibility, model rules, admission control."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import need_data_file
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
    need_data_file("taskbench_dags.jsonl")  # skip, not fail, without the data
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
    need_data_file("taskbench_dags.jsonl")  # skip, not fail, without the data
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


# --- per-task admission control and Random-A's redraw ---------------------------------------------

from genai_tiny import make_instance  # noqa: E402

from aisched.errors import InvalidScenarioError  # noqa: E402
from aisched.models.genai import job_profit  # noqa: E402
from aisched.online.genai.baselines import task_profits  # noqa: E402


def lopsided_job():
    """Chain of two tasks: a 1 GB model (share 1/4 of revenue 8 = 2) costing 3, a 3 GB one (share 6) costing 1."""
    job = {"arrival": 0, "deadline": 3, "revenue": 8.0, "edges": [(0, 1)], "data": [0.0],
           "models": [[0], [1]], "runtime": [[1], [1]], "compute": [[3.0], [1.0]]}
    return make_instance(slots=4, capacity=[8.0], model_size=[1.0, 3.0], jobs=[job], cost=(1.0, 0.0, 0.0))


def test_task_admission_declines_a_job_with_a_losing_task():
    inst = lopsided_job()
    e, c = np.array([0, 0]), np.array([0, 0])
    np.testing.assert_allclose(task_profits(inst, 0, e, c), [8.0 / 4 - 3.0, 8.0 * 3 / 4 - 1.0])
    for name in ("heft_a", "heft_ma", "random_a"):
        assert not aisched.run(name, inst).admitted[0]  # default admission="task": task 0 loses 1
        job = aisched.run(name, inst, admission="job")  # job profit 8 - 4 = 4 > 0
        assert job.admitted[0] and job.objective == pytest.approx(4.0)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_task_profits_sum_to_the_job_profit(seed):
    inst = random_tiny(seed, jobs=3)
    rng = np.random.default_rng(seed)
    for i in range(inst.num_jobs):
        n = int(inst.num_tasks[i])
        e = rng.integers(0, inst.num_edges, n)
        c = np.array([rng.choice(np.nonzero(inst.candidate_model[i, j] >= 0)[0]) for j in range(n)])
        rev, c1, c2, c3 = job_profit(inst, i, e, c)
        assert task_profits(inst, i, e, c).sum() == pytest.approx(rev - c1 - c2 - c3)


def test_task_admission_never_admits_more_than_job_admission_on_one_job():
    for seed in range(6):
        inst = random_tiny(seed, jobs=1)
        for name in ("heft_a", "heft_ma"):
            assert aisched.run(name, inst).admitted.sum() <= aisched.run(name, inst, admission="job").admitted.sum()


def test_random_a_redraw_finds_the_edge_that_can_host():
    """Edge 0 (1 GB) can never host the 2 GB model: 'decline' loses the job when drawn, 'redraw' never does."""
    job = {"arrival": 0, "deadline": 3, "revenue": 50.0, "edges": [], "data": [],
           "models": [[0]], "runtime": [[1]], "compute": [[1.0]]}
    inst = make_instance(slots=4, capacity=[1.0, 8.0], model_size=[2.0], jobs=[job], cost=(0.1, 0.0, 0.0))
    declined = [not aisched.run("random_a", inst, seed=s).admitted[0] for s in range(12)]
    assert any(declined) and not all(declined)
    for s in range(12):
        out = aisched.run("random_a", inst, seed=s, on_full="redraw")
        assert out.admitted[0] and out.plan["edge"].values[0, 0] == 1


@pytest.mark.parametrize(("name", "params", "needle"), [
    ("heft_a", {"admission": "jobs"}, "admission: = 'jobs'"),
    ("random_a", {"on_full": "retry"}, "on_full: = 'retry'"),
])
def test_bad_baseline_options(name, params, needle):
    with pytest.raises(InvalidScenarioError, match=needle):
        aisched.run(name, random_tiny(0), **params)


def test_heft_communication_option_changes_the_priority():
    """Upward rank with c_bar = h x mean e^p puts the source with the heavy out-edge first (serial edge of 2 GB)."""
    job = {"arrival": 0, "deadline": 5, "revenue": 100.0, "edges": [(0, 2), (1, 2)], "data": [5.0, 0.01],
           "models": [[0], [0], [0]], "runtime": [[1], [2], [1]], "compute": [[1.0], [1.0], [1.0]]}
    inst = make_instance(slots=6, capacity=[2.0], model_size=[2.0], jobs=[job], cost=(0.1, 1.0, 0.0))
    for name in ("heft_a", "heft_ma"):
        plain = aisched.run(name, inst)  # ranks 2 (task 0), 3 (task 1), 1 (task 2): task 1 first
        assert plain.plan["start"].values[0, :3].tolist() == [2, 0, 3]
        comm = aisched.run(name, inst, communication="transfer_cost")  # rank(0) = 1 + 5 x 1 + 1 = 7
        assert comm.plan["start"].values[0, :3].tolist() == [0, 1, 3]
    with pytest.raises(InvalidScenarioError, match="communication: = 'time'"):
        aisched.run("heft_a", inst, communication="time")


def _two_tasks_at_once(edges: int):
    """Two one-task jobs at slot 0 (2 slots each, 2 GB of 8): IP (5) lets both run at once on edge 0."""
    jobs = [{"arrival": 0, "deadline": 3, "revenue": 50.0, "edges": [], "data": [],
             "models": [[0]], "runtime": [[2]], "compute": [[1.0]]} for _ in range(2)]
    return make_instance(slots=4, capacity=[8.0] * edges, model_size=[2.0], jobs=jobs, cost=(0.0, 0.0, 0.0))


@pytest.mark.parametrize("name", ["heft_a", "heft_ma"])
def test_an_edges_gpus_make_heft_spread_or_wait(name):
    """Reading A2c: without a limit HEFT stacks both tasks on edge 0; with one GPU an edge EFT takes edge 1,
    and on one edge the second task waits for the first (HEFT's processor availability)."""
    plain = aisched.run(name, _two_tasks_at_once(2))
    assert plain.plan["edge"].values[:, 0].tolist() == [0, 0] and plain.plan["start"].values[:, 0].tolist() == [0, 0]
    spread = aisched.run(name, _two_tasks_at_once(2), gpus=1)
    assert spread.plan["edge"].values[:, 0].tolist() == [0, 1]
    assert spread.plan["start"].values[:, 0].tolist() == [0, 0] and spread.admitted.all()
    waits = aisched.run(name, _two_tasks_at_once(1), gpus=1)
    assert waits.plan["start"].values[:, 0].tolist() == [0, 2] and waits.admitted.all()
    assert aisched.run(name, _two_tasks_at_once(1), gpus=2).plan["start"].values[:, 0].tolist() == [0, 0]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("gpus", [1, 2])
def test_baselines_with_gpus_never_run_more_tasks_at_once_and_stay_feasible(seed, gpus):
    from aisched.online.genai import metrics

    inst = random_tiny(seed, jobs=5)
    for name in ("heft_a", "heft_ma", "random_a"):
        out = aisched.run(name, inst, gpus=gpus)  # run verifies the plan against IP (5)
        u = metrics.utilisation(inst, out, gpus=gpus)
        assert u["tasks_running_peak"] <= gpus and u["gpu_oversubscribed"] == 0.0
        assert out.info["gpus"] == gpus and aisched.run(name, inst).info["gpus"] == -1


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "4"])
def test_bad_gpus_option_is_refused(bad):
    with pytest.raises(InvalidScenarioError, match=r"gpus"):
        aisched.run("heft_ma", random_tiny(0), gpus=bad)


# HEFT's processors (reading A2d): each edge's GPUs are processors, insertion into idle gaps.

def _one(arrival: int, runtime: int) -> dict:
    return {"arrival": arrival, "deadline": 9, "revenue": 50.0, "edges": [], "data": [],
            "models": [[0]], "runtime": [[runtime]], "compute": [[1.0]]}


def _insertion_instance():
    """One edge, 1 GB models, 3 GB of memory, 10 slots; every job arrives at slot 0 (handled by index).

    Job 0: one task of 3 slots. Job 1: one of 1 slot. Job 2: a chain a (1 slot) -> b (2 slots).
    Jobs 3, 4, 5: one task of 2, 1, 1 slots.
    """
    chain = {"arrival": 0, "deadline": 9, "revenue": 50.0, "edges": [(0, 1)], "data": [0.0],
             "models": [[0], [0]], "runtime": [[1], [2]], "compute": [[1.0], [1.0]]}
    jobs = [_one(0, 3), _one(0, 1), chain, _one(0, 2), _one(0, 1), _one(0, 1)]
    return make_instance(slots=10, capacity=[3.0], model_size=[1.0], jobs=jobs, cost=(0.0, 0.0, 0.0))


@pytest.mark.parametrize("name", ["heft_a", "heft_ma", "random_a"])
def test_heft_processors_match_a_hand_computed_schedule(name):
    """Reading A2d, 2 GPUs, by hand (EST on each GPU, earliest start, ties to the lowest GPU):
    job 0 -> GPU 0 [0, 3); job 1 -> GPU 1 [0, 1); a -> GPU 1 [1, 2); b (ready 2) -> GPU 1 [2, 4);
    job 3 -> GPU 0 [3, 5) (GPU 1 only from 4); job 4 -> GPU 1 [4, 5); job 5 -> GPU 0 [5, 6).
    Without processors, memory (3 GB) alone: starts 0, 0, a 0, 1 (job 3 at slot 1: 2 GB used), 3, 3."""
    inst = _insertion_instance()
    out = aisched.run(name, inst, processors=2)
    start, gpu = out.plan["start"].values, out.info["gpu"]
    assert out.admitted.all()
    assert [int(start[i, 0]) for i in (0, 1, 3, 4, 5)] == [0, 0, 3, 4, 5] and start[2, :2].tolist() == [1, 2]
    assert [int(gpu[i, 0]) for i in (0, 1, 3, 4, 5)] == [0, 1, 0, 1, 0] and gpu[2, :2].tolist() == [1, 1]
    assert aisched.run(name, inst).plan["start"].values[:, 0].tolist() == [0, 0, 0, 1, 3, 3]


def test_heft_processors_insert_into_an_idle_gap():
    """HEFT's insertion policy: a later job's task takes an idle gap between two scheduled tasks of a GPU.

    2 GPUs, 8 GB. Job 0: one 1-slot task -> GPU 0 [0, 1). Job 1: a (3 slots) -> b (1 slot), s (1 slot) -> b;
    upward ranks a 4, s 2, b 1: a -> GPU 1 [0, 3) (GPU 0 only from 1); s -> GPU 0 [1, 2); b (ready 3) ->
    GPU 0 [3, 4) (tie with GPU 1 at 3, lowest GPU): GPU 0 is idle in [2, 3). Job 2 (one 1-slot task) is
    inserted there: GPU 0 at 2, where appending after each GPU's last task (no insertion) gives
    GPU 1 at 3.
    """
    job1 = {"arrival": 0, "deadline": 9, "revenue": 50.0, "edges": [(0, 1), (2, 1)], "data": [0.0, 0.0],
            "models": [[0], [0], [0]], "runtime": [[3], [1], [1]], "compute": [[1.0], [1.0], [1.0]]}
    inst = make_instance(slots=10, capacity=[8.0], model_size=[1.0], jobs=[_one(0, 1), job1, _one(0, 1)],
                         cost=(0.0, 0.0, 0.0))
    for name in ("heft_a", "heft_ma"):
        out = aisched.run(name, inst, processors=2)
        assert out.plan["start"].values[:, :3].tolist()[:2] == [[0, -1, -1], [0, 3, 1]]
        assert out.info["gpu"][1, :3].tolist() == [1, 0, 0]
        assert int(out.plan["start"].values[2, 0]) == 2 and int(out.info["gpu"][2, 0]) == 0


def test_processors_need_one_gpu_idle_over_the_whole_run():
    """Where ``gpus=2`` (a count per slot) and ``processors=2`` differ, by hand. Job 0: A (1 slot) -> GPU 0 [0, 1).
    Job 1: p (2 slots) -> C (1 slot): p -> GPU 1 [0, 2) (GPU 0 only from 1); C (ready 2) -> GPU 0 [2, 3) (tie,
    lowest GPU). Job 2 (arrival 1, 2 slots): slots 1 and 2 each run one task, so the count lets it start at 1;
    but GPU 0 is idle only in [1, 2) and GPU 1 from 2, so with processors it starts at 2 on GPU 1."""
    chain = {"arrival": 0, "deadline": 9, "revenue": 50.0, "edges": [(0, 1)], "data": [0.0],
             "models": [[0], [0]], "runtime": [[2], [1]], "compute": [[1.0], [1.0]]}
    inst = make_instance(slots=10, capacity=[8.0], model_size=[1.0], jobs=[_one(0, 1), chain, _one(1, 2)],
                         cost=(0.0, 0.0, 0.0))
    for name in ("heft_a", "heft_ma"):
        proc = aisched.run(name, inst, processors=2)
        assert proc.plan["start"].values[:, :2].tolist() == [[0, -1], [0, 2], [2, -1]]
        assert proc.info["gpu"][:, :2].tolist() == [[0, -1], [1, 0], [1, -1]]
        assert int(aisched.run(name, inst, gpus=2).plan["start"].values[2, 0]) == 1


def _no_gpu_runs_two_tasks(inst, out):
    gpu, start, model = out.info["gpu"], out.plan["start"].values, out.plan["model"].values
    busy = np.zeros((inst.num_edges, out.info["processors"], inst.num_slots), int)
    for i in np.nonzero(out.admitted)[0]:
        for j in range(int(inst.num_tasks[i])):
            c = int(np.flatnonzero(inst.candidate_model[i, j] == model[i, j])[0])
            k = int(out.plan["edge"].values[i, j])
            busy[k, gpu[i, j], start[i, j]: start[i, j] + inst.runtime[i, j, c]] += 1
    return busy.max(initial=0) <= 1


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("processors", [1, 2])
def test_processors_keep_one_task_per_gpu_and_concurrency_under_the_gpu_count(seed, processors):
    from aisched.online.genai import metrics

    inst = random_tiny(seed, jobs=6)
    for name in ("heft_a", "heft_ma", "random_a"):
        out = aisched.run(name, inst, processors=processors)  # run verifies the plan against IP (5)
        assert metrics.utilisation(inst, out, gpus=processors)["tasks_running_peak"] <= processors
        assert _no_gpu_runs_two_tasks(inst, out) and out.info["processors"] == processors


def test_processors_off_is_todays_plan_bit_for_bit():
    for seed in range(4):
        inst = random_tiny(seed, jobs=6)
        for name in ("heft_a", "heft_ma", "random_a"):
            today, off = aisched.run(name, inst), aisched.run(name, inst, processors=None)
            assert today.plan.equals(off.plan) and today.objective == off.objective
            assert "gpu" not in today.info and today.info["processors"] == -1


@pytest.mark.parametrize("bad", [0, -2, 2.0, True, "4"])
def test_bad_processors_option_is_refused(bad):
    with pytest.raises(InvalidScenarioError, match=r"processors: = "):
        aisched.run("heft_a", random_tiny(0), processors=bad)
