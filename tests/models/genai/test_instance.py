"""GenaiInstance: validation, DAG access, netCDF round trip, and the plan checker verify_plan."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from genai_tiny import make_instance, random_tiny

from aisched.errors import InfeasiblePlanError, InvalidInstanceError
from aisched.models.genai import GenaiInstance, empty_plan, make_plan


def chain_instance(**changes):
    job = {"arrival": 0, "deadline": 5, "revenue": 10.0, "edges": [(0, 1)], "data": [2.0],
           "models": [[0, 1], [2]], "runtime": [[1, 2], [2]], "compute": [[1.0, 0.5], [2.0]]}
    inst = make_instance(slots=6, capacity=[4.0, 6.0], model_size=[2.0, 1.0, 3.0], jobs=[job, dict(job, arrival=2)])
    return inst.replace(**changes) if changes else inst


def test_round_trip_netcdf_exact(tmp_path):
    for inst in (chain_instance(), random_tiny(3)):
        path = tmp_path / "inst.nc"
        inst.to_dataset().to_netcdf(path, engine="netcdf4")
        with xr.open_dataset(path, engine="netcdf4") as ds:
            back = GenaiInstance.from_dataset(ds.load())
        assert back == inst
        assert back.task_type.tolist() == inst.task_type.tolist()
    with pytest.raises(InvalidInstanceError, match="family"):
        GenaiInstance.from_dataset(xr.Dataset(attrs={"family": "lora"}))


def test_graph_and_order():
    inst = chain_instance()
    g = inst.graph(0)
    assert list(g.edges(data="data_size")) == [(0, 1, 2.0)]
    assert g.nodes[0]["models"] == [0, 1] and g.nodes[1]["task"] == "type1"
    assert inst.mean_runtime(0) == {0: 1.5, 1: 2.0}
    assert inst.execution_order(0) == [0, 1]
    assert inst.num_jobs == 2 and inst.max_tasks == 2 and inst.max_choices == 2
    with pytest.raises(InvalidInstanceError, match="job: = 5"):
        inst.graph(5)
    assert inst.subset([1]).arrival.tolist() == [2]


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"deadline": [5, 1]}, "deadline: [1] = 1 is before arrival[1] = 2"),
        ({"memory_capacity": [4.0, -1.0]}, "memory_capacity: [1] = -1.0 must be > 0"),
        ({"num_slots": 0}, "num_slots: = 0 must be >= 1"),
        ({"arrival": [0, 9]}, "arrival: [1] = 9 is outside slots 0..5"),
        ({"revenue": [1.0, np.nan]}, "revenue: [1] = nan is not finite"),
        ({"dag_edge": [[[0, 1]], [[1, 0]]]}, None),  # a reversed edge is fine (1 -> 0)
        ({"dag_edge": [[[0, 3]], [[0, 1]]]}, "dag_edge: [0, 0] = [0, 3] names a task outside 0..1"),
        ({"dag_edge": [[[0, -1]], [[0, 1]]]}, "is half padding"),
        ({"candidate_model": [[[0, 1], [-1, -1]], [[0, 1], [2, -1]]], "runtime": [[[1, 2], [0, 0]], [[1, 2], [2, 0]]],
          "compute": [[[1.0, 0.5], [0, 0]], [[1.0, 0.5], [2.0, 0]]]}, "job 0 task 1 has no candidate model"),
        ({"runtime": [[[1, 0], [2, 0]], [[1, 2], [2, 0]]]}, "must be >= 1 slot"),
        ({"candidate_model": [[[0, 0], [2, -1]], [[0, 1], [2, -1]]]}, "lists a model twice"),
        ({"candidate_model": [[[0, 7], [2, -1]], [[0, 1], [2, -1]]]}, "is outside -1..2"),
        ({"num_tasks": [2, 3]}, "num_tasks: [1] = 3 is outside 1..2"),
        ({"cost_weight": [1.0, -1.0, 1.0]}, "cost_weight: [1] = -1.0 is negative"),
        ({"transfer_cost": [0.1]}, "transfer_cost: has shape (1,), expected (2,)"),
    ],
)
def test_validation_names_field_index_value(changes, needle):
    if needle is None:
        chain_instance(**changes)
        return
    with pytest.raises(InvalidInstanceError) as err:
        chain_instance(**changes)
    assert needle in str(err.value)


def test_cycle_in_job_dag_rejected():
    job = {"arrival": 0, "deadline": 3, "revenue": 1.0, "edges": [(0, 1), (1, 0)], "data": [1.0, 1.0],
           "models": [[0], [0]], "runtime": [[1], [1]], "compute": [[1.0], [1.0]]}
    with pytest.raises(InvalidInstanceError, match=r"dag_edge\[0\]: has a cycle 0 -> 1 -> 0"):
        make_instance(slots=4, capacity=[4.0], model_size=[1.0], jobs=[job])
    with pytest.raises(InvalidInstanceError, match="not a GenaiInstance field"):
        chain_instance(colour=1)


def good_plan(inst):
    """Job 0: task 0 with model 1 (2 slots) on edge 0 at 0, task 1 with model 2 on edge 1 at 2."""
    edge = np.array([[0, 1], [-1, -1]])
    model = np.array([[1, 2], [-1, -1]])
    start = np.array([[0, 2], [-1, -1]])
    return make_plan(inst, edge, model, start, [True, False])


def test_verify_plan_accepts_and_recomputes_profit():
    inst = chain_instance()
    plan = good_plan(inst)
    # revenue 10; compute: 2*0.5*0.2 + 2*2*0.2 = 1.0; hosting: 2*1*0.1 + 2*3*0.1 = 0.8;
    # transfer on the sender's edge 0: 2 MB * 0.5 = 1.0
    assert inst.verify_plan(plan) == pytest.approx(10 - 1.0 - 0.8 - 1.0)
    assert inst.verify_plan(empty_plan(inst)) == 0.0


@pytest.mark.parametrize(
    ("mutate", "constraint"),
    [
        (lambda e, m, s, a: s.__setitem__((0, 1), 1), "(5e) precedence"),
        (lambda e, m, s, a: s.__setitem__((0, 1), 5), "(5d) deadline"),
        (lambda e, m, s, a: (s.__setitem__((1, 0), 1), e.__setitem__((1, 0), 0), m.__setitem__((1, 0), 0),
                             a.__setitem__(1, True), s.__setitem__((1, 1), 3), e.__setitem__((1, 1), 0),
                             m.__setitem__((1, 1), 2)), "(5d) deadline"),
        (lambda e, m, s, a: m.__setitem__((0, 1), 0), "(5b) one_model"),
        (lambda e, m, s, a: e.__setitem__((0, 0), 2), "(5c) one_edge"),
        (lambda e, m, s, a: a.__setitem__(0, False), "(5g) run_if_admitted"),
    ],
)
def test_verify_plan_names_violated_constraint(mutate, constraint):
    inst = chain_instance()
    plan = good_plan(inst)
    e, m, s, a = (plan[v].values.copy() for v in ("edge", "model", "start", "admitted"))
    mutate(e, m, s, a)
    bad = make_plan(inst, e, m, s, a)
    with pytest.raises(InfeasiblePlanError) as err:
        inst.verify_plan(bad)
    assert str(err.value).startswith(constraint)


def test_verify_plan_capacity_counts_two_jobs():
    inst = chain_instance()
    edge = np.array([[0, 0], [0, 0]])
    model = np.array([[1, 2], [0, 2]])
    start = np.array([[0, 2], [2, 3]])
    with pytest.raises(InfeasiblePlanError, match=r"\(5h\) capacity: edge 0 slot 2: hosted models 5 GB > capacity 4 GB"):
        inst.verify_plan(make_plan(inst, edge, model, start, [True, True]))
    with pytest.raises(InfeasiblePlanError, match="has no variable 'model'"):
        inst.verify_plan(xr.Dataset({"edge": ("job", [0])}))
