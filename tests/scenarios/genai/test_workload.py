"""The ``gpu_priced`` workload (docs/readings/genai.md A2b) and its premise metrics."""

from __future__ import annotations

import numpy as np
import pytest

from aisched import dag
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.scenarios import genai
from aisched.scenarios.genai import generator
from aisched.scenarios.genai.metrics import workload_premises
from aisched.scenarios.genai.prices import REFERENCE_GPU_GB, gpu_price


def need_prices():
    if data_file("gcp_gpu_price_weekly.csv", required=False) is None:
        pytest.skip("gcp_gpu_price_weekly.csv absent from every data folder")


def _basis(inst) -> np.ndarray:
    """Per job: sum over tasks of the mean candidate size x the critical path at mean runtimes (rank (10))."""
    out = np.zeros(inst.num_jobs)
    for i in range(inst.num_jobs):
        n = int(inst.num_tasks[i])
        valid = inst.candidate_model[i, :n] >= 0
        size = np.where(valid, inst.model_size[np.maximum(inst.candidate_model[i, :n], 0)], 0.0)
        demand = float((size.sum(axis=1) / valid.sum(axis=1)).sum())
        mean_f = {j: float(inst.runtime[i, j][valid[j]].mean()) for j in range(n)}
        pairs = [tuple(int(v) for v in e) for e in inst.dag_edge[i] if e[0] >= 0]
        out[i] = demand * max(dag.ranks(dag.from_edges(range(n), pairs), mean_f).values())
    return out


def test_bad_workload_is_named():
    with pytest.raises(InvalidScenarioError, match="workload: = 'cheap'"):
        genai.generate(seed=0, edges=2, slots=10, jobs=3, dag_source="generator", workload="cheap")


def test_prices_are_the_files_medians():
    need_prices()
    p = gpu_price()
    assert 0 < p.spot < p.on_demand  # spot is a discount on on-demand
    assert p.versions > 100
    assert p.per_gb_slot(3600.0, 1.0) == pytest.approx(1 / REFERENCE_GPU_GB)


def test_gpu_priced_shares_every_draw_and_sets_the_rate_by_the_markup():
    need_prices()
    kw = {"seed": 3, "edges": 3, "slots": 30, "arrival_rate": 2.0, "dag_source": "generator", "capacity": "homo-M"}
    old, new = genai.generate(**kw), genai.generate(**kw, workload="gpu_priced")
    for name in ("arrival", "deadline", "candidate_model", "dag_edge", "memory_capacity"):
        np.testing.assert_array_equal(getattr(old, name), getattr(new, name))
    # runtimes: the sourced table's slots (tests/scenarios/genai/test_runtimes.py), not the legacy draw
    p = gpu_price()
    per_gb_slot = 100 * p.per_gb_slot(p.spot, generator.SLOT_SECONDS)  # cents
    legacy_per_gb_slot = generator.UNIT_COST["compute"] * generator.COMPUTE_PER_GB + generator.UNIT_COST["hosting"]
    for name in ("compute_cost", "hosting_cost", "transfer_cost"):
        np.testing.assert_allclose(getattr(new, name), getattr(old, name) * per_gb_slot / legacy_per_gb_slot)
    # reference cost: every task at the mean over its candidates, mean unit costs
    valid = new.candidate_model >= 0
    size = np.where(valid, new.model_size[np.maximum(new.candidate_model, 0)], 0.0)
    rate = generator.COMPUTE_PER_GB * new.compute_cost.mean() + new.hosting_cost.mean()
    gb_slots = np.where(valid, new.runtime * size, 0.0).sum(axis=2) / np.maximum(valid.sum(axis=2), 1)
    reference = gb_slots.sum(axis=1) * rate
    basis = _basis(new)  # demand x reference completion time, from the instance's own runtimes
    np.testing.assert_allclose(_basis(old), old.revenue / generator.REVENUE_RATE, rtol=1e-4)  # the helper's check
    per_basis = new.revenue / basis
    np.testing.assert_allclose(per_basis, per_basis[0], rtol=1e-4)  # one rate for every job
    assert per_basis[0] == pytest.approx((1 + p.markup) * np.median(reference / basis), rel=1e-4)
    # the median job's reference schedule is paid at the on-demand price: revenue = (1 + markup) x its cost
    assert np.median(new.revenue / reference) == pytest.approx(1 + p.markup, rel=0.2)


def test_workload_premises_on_a_small_instance():
    need_prices()
    inst = genai.generate(seed=0, edges=2, slots=20, arrival_rate=1.0, dag_source="generator", workload="gpu_priced",
                          capacity="homo-M")
    m = workload_premises(inst, bound_time_limit=20.0)
    assert m["jobs"] == inst.num_jobs
    assert 0.0 <= m["fastest_is_cheapest"] <= 1.0 and m["all_fastest_extra_median"] >= 0.0
    assert m["reference"] >= m["heft_ma"] - 1e-9 and m["reference"] >= m["primal"] - 1e-9
    assert m["headroom"] == pytest.approx(m["reference"] / m["heft_ma"] - 1)
    assert 0.0 <= m["heft_ma_memory"] <= 1.0
