"""Memory and compute utilisation of genai outcomes."""

from __future__ import annotations

import numpy as np
import pytest
from genai_tiny import make_instance, random_tiny

import aisched
from aisched.errors import InvalidScenarioError
from aisched.online.genai import metrics


def one_job():
    """One chain job of two tasks: model 0 (2 GB, 3 compute/slot, 2 slots) then model 1 (1 GB, 5/slot, 1 slot)."""
    job = {"arrival": 0, "deadline": 3, "revenue": 50.0, "edges": [(0, 1)], "data": [0.0],
           "models": [[0], [1]], "runtime": [[2], [1]], "compute": [[3.0], [5.0]]}
    return make_instance(slots=4, capacity=[4.0, 8.0], model_size=[2.0, 1.0], jobs=[job], cost=(0.0, 0.0, 0.0))


def test_utilisation_by_hand():
    inst = one_job()
    out = aisched.run("heft_ma", inst)
    assert out.admitted[0]
    u = metrics.utilisation(inst, out, compute_capacity=[6.0, 10.0])
    # both tasks on edge 0 (earliest finish, lowest index): slots 0-1 host 2 GB, slot 2 hosts 1 GB
    assert u["memory_utilisation"] == pytest.approx((2 / 4 + 2 / 4 + 1 / 4) / 8)
    assert u["memory_peak"] == pytest.approx(0.5)
    assert u["compute_load"] == pytest.approx((3 + 3 + 5) / 8)
    assert u["compute_utilisation"] == pytest.approx((3 / 6 + 3 / 6 + 5 / 6) / 8)
    assert np.isnan(metrics.utilisation(inst, out)["compute_utilisation"])
    assert u["memory_binding"] == 0.0  # edge 0 keeps 2 GB free while hosting: the 1 GB model still fits
    assert u["tasks_running_peak"] == 1.0 and u["gpu_oversubscribed"] == 0.0  # a chain: one task at a time


def test_tasks_running_at_once_are_counted_against_the_edges_gpus():
    """Two one-task jobs at slot 0: IP (5) lets both run at once on edge 0, which one GPU could not."""
    jobs = [{"arrival": 0, "deadline": 3, "revenue": 50.0, "edges": [], "data": [],
             "models": [[0]], "runtime": [[2]], "compute": [[3.0]]} for _ in range(2)]
    inst = make_instance(slots=4, capacity=[8.0, 8.0], model_size=[2.0], jobs=jobs, cost=(0.0, 0.0, 0.0))
    out = aisched.run("heft_ma", inst)
    assert out.plan["edge"].values[:, 0].tolist() == [0, 0] and out.plan["start"].values[:, 0].tolist() == [0, 0]
    u = metrics.utilisation(inst, out, gpus=1)
    assert u["tasks_running_peak"] == 2.0
    assert u["gpu_oversubscribed"] == pytest.approx(2 / 8)  # edge 0, slots 0-1, of 2 edges x 4 slots
    assert metrics.utilisation(inst, out)["gpu_oversubscribed"] == 0.0  # section IV.A's 4 GPUs an edge
    assert metrics.utilisation(inst, out, gpus=[1, 4])["gpu_oversubscribed"] == pytest.approx(2 / 8)
    assert metrics.utilisation(inst, out, gpus=[4, 1])["gpu_oversubscribed"] == 0.0


def test_memory_binding_counts_the_edge_slots_where_no_model_fits():
    """The mechanism diagnostic: free memory below the smallest model (1 GB) on edge 0 in slots 0-1 only."""
    job = {"arrival": 0, "deadline": 3, "revenue": 50.0, "edges": [(0, 1)], "data": [0.0],
           "models": [[0], [1]], "runtime": [[2], [1]], "compute": [[3.0], [5.0]]}
    inst = make_instance(slots=4, capacity=[2.5, 8.0], model_size=[2.0, 1.0], jobs=[job], cost=(0.0, 0.0, 0.0))
    out = aisched.run("heft_ma", inst)
    hosted = [int(e) for e in out.plan["edge"].values.ravel() if e >= 0]
    assert out.admitted[0] and hosted == [0, 0]  # both tasks on edge 0, as in test_utilisation_by_hand
    assert metrics.utilisation(inst, out)["memory_binding"] == pytest.approx(2 / 8)


@pytest.mark.parametrize("seed", range(3))
def test_utilisation_matches_a_loop_over_tasks(seed):
    inst = random_tiny(seed, jobs=4)
    for name in aisched.algorithms("genai"):
        out = aisched.run(name, inst)
        used = np.zeros((inst.num_edges, inst.num_slots))
        load, running = np.zeros_like(used), np.zeros_like(used)
        for i in np.nonzero(out.admitted)[0]:
            for j in range(int(inst.num_tasks[i])):
                m = int(out.plan["model"].values[i, j])
                c = int(np.nonzero(inst.candidate_model[i, j] == m)[0][0])
                k, s = int(out.plan["edge"].values[i, j]), int(out.plan["start"].values[i, j])
                f = int(inst.runtime[i, j, c])
                used[k, s: s + f] += inst.model_size[m]
                load[k, s: s + f] += inst.compute[i, j, c]
                running[k, s: s + f] += 1
        u = metrics.utilisation(inst, out)
        assert u["memory_utilisation"] == pytest.approx((used / inst.memory_capacity[:, None]).mean())
        assert u["compute_load"] == pytest.approx(load.mean())
        assert u["tasks_running_peak"] == running.max()
        assert u["gpu_oversubscribed"] == pytest.approx((running > metrics.GPUS_PER_EDGE).mean())
        assert u["memory_peak"] <= 1 + 1e-9  # capacity (5h)


@pytest.mark.parametrize("bad", [0.0, -1.0, float("inf"), [1.0, 2.0, 3.0]])
def test_bad_compute_capacity(bad):
    inst = one_job()
    out = aisched.run("heft_ma", inst)
    with pytest.raises(InvalidScenarioError, match="compute_capacity"):
        metrics.utilisation(inst, out, compute_capacity=bad)


@pytest.mark.parametrize("bad", [0, 1.5, float("nan"), [1, 2, 3], "4", True, [1, None]])
def test_bad_gpus_are_refused_naming_the_field(bad):
    inst = one_job()
    out = aisched.run("heft_ma", inst)
    with pytest.raises(InvalidScenarioError, match=r"^gpus: = .* must be a whole number >= 1"):
        metrics.utilisation(inst, out, gpus=bad)
