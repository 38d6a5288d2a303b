"""Where a scheduler's revenue (3) comes from: the split is exact and T4's class is right."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
from aisched.experiments.spec.scenario import Claim
from aisched.experiments.store.stored import StoredScenario
from aisched.models.tenants import TenantInstance
from aisched.scenarios import tenants as tenants_sc
from aisched.scenarios.tenants.breakdown import (
    BREAKDOWN_COLUMNS,
    beyond_rounds,
    earliest_round_completion,
    gap_lines,
    revenue_breakdown,
)
from tests.tenants_tiny import random_tiny

ALGORITHMS = ("astraea", "batchsche", "gandiva_fair", "hived")


def _completion_by_levels(inst: TenantInstance, lam: int = 2) -> np.ndarray:
    """Algorithm 1 read level by level: the first batch that holds the job, fits its run in a round and the horizon."""
    out = np.full(inst.num_jobs, np.inf)
    fastest = inst.fastest_run()
    for j in range(inst.num_jobs):
        for level in range(1, 64):
            start = lam * 2**level
            if start >= inst.num_slots:
                break
            if inst.arrival[j] < 2**level and fastest[j] <= 2**level and start + fastest[j] <= inst.num_slots:
                out[j] = start + fastest[j] - inst.arrival[j]
                break
    return out


def test_the_split_adds_up_to_the_revenue_and_astraea_never_takes_a_job_beyond_its_rounds() -> None:
    inst = tenants_sc.generate(seed=1, users=3, servers=2, jobs=12)
    earliest = earliest_round_completion(inst)
    np.testing.assert_array_equal(earliest, _completion_by_levels(inst))
    for name in ALGORITHMS:
        out = aisched.run(name, inst)
        got = revenue_breakdown(inst, out.plan)
        assert set(got) == set(BREAKDOWN_COLUMNS)
        assert got["ideal_t4"] + got["ideal_other"] - got["wait_loss"] == pytest.approx(out.objective, abs=1e-6)
        assert got["wait_loss"] >= -1e-9, name
        cell = tenants_sc.cell_metrics(inst, out)
        assert {k: cell[k] for k in BREAKDOWN_COLUMNS} == pytest.approx(got, nan_ok=True)  # the cell's columns
    astraea = aisched.run("astraea", inst)
    admitted = astraea.plan["admitted"].values.astype(bool)
    assert not (beyond_rounds(inst) & admitted).any()
    completion = astraea.plan["end"].values + 1 - inst.arrival
    assert (completion[admitted] >= earliest[admitted]).all()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), slots=st.integers(4, 40))
def test_astraea_admits_no_job_of_t4s_class_on_random_tiny_instances(seed: int, slots: int) -> None:
    inst = random_tiny(seed, jobs=4, servers=2, slots=slots)
    np.testing.assert_array_equal(earliest_round_completion(inst), _completion_by_levels(inst))
    out = aisched.run("astraea", inst)
    admitted = out.plan["admitted"].values.astype(bool)
    assert not (beyond_rounds(inst) & admitted).any()
    assert revenue_breakdown(inst, out.plan)["ideal_t4"] == 0.0


def _one_job(slope: float, intercept: float) -> TenantInstance:
    return TenantInstance(
        num_slots=64, worker_quota=[1], ps_quota=[1], workers=[1], parameter_servers=[1], worker_bandwidth=1.0,
        ps_bandwidth=1.0, owner=[0], arrival=[0], epochs=[3], chunks=[2], minibatches=[1], compute_time=[0.5],
        update_time=[0.5], gradient_size=[0.5], utility="linear", utility_slope=[slope], utility_intercept=[intercept])


def test_a_job_profitable_at_arrival_but_not_after_astraeas_batch_wait_is_t4s_and_only_the_greedy_earns_it() -> None:
    probe = _one_job(-1.0, 100.0)
    d = int(probe.fastest_run()[0])
    level = max(1, int(np.ceil(np.log2(d))))
    assert earliest_round_completion(probe)[0] == 2 * 2**level + d  # batch l starts at lambda 2^l, lambda = 2
    inst = _one_job(-10.0, 10.0 * (d + 1))  # earns 10 if it ends at d; a loss after any batch wait
    assert bool(beyond_rounds(inst)[0])
    greedy = aisched.run("gandiva_fair", inst)
    assert greedy.plan["admitted"].values.tolist() == [True]
    assert revenue_breakdown(inst, greedy.plan) == pytest.approx(
        {"ideal_t4": 10.0, "ideal_other": 0.0, "wait_loss": 0.0, "mean_delay": 0.0})
    astraea = aisched.run("astraea", inst)
    assert astraea.plan["admitted"].values.tolist() == [False] and astraea.objective == 0.0
    assert not bool(beyond_rounds(_one_job(-1.0, 100.0))[0])


def test_the_gap_table_splits_each_baselines_gap_with_no_residue() -> None:
    rows = []
    for seed in (0, 1):
        inst = tenants_sc.generate(seed=seed, users=3, servers=2, jobs=12)
        for name in ALGORITHMS:
            out = aisched.run(name, inst)
            rows.append({"x": "12", "seed": seed, "algorithm": name, "objective": out.objective,
                         **revenue_breakdown(inst, out.plan)})
    table = pd.DataFrame(rows)
    definition = StoredScenario(name="tenants/t", family="tenants", metric="objective", x="jobs", values=(12,),
                                algorithms=ALGORITHMS,
                                claims=(Claim("better_than", "", "astraea", baseline="hived", point="12"),))
    lines = gap_lines(definition, table)
    body = [line for line in lines if line.startswith("| 12 |")]
    assert [line.split(" | ")[1] for line in body] == ["batchsche", "gandiva_fair", "hived"]
    for line in body:
        cells = [float(c.replace(",", "")) for c in line.strip("| ").split(" | ")[2:6]]
        assert cells[0] == pytest.approx(cells[1] + cells[2] + cells[3], abs=2.0)  # rounded to units
        base = line.split(" | ")[1]
        mean = table.groupby("algorithm")["objective"].mean()
        assert cells[0] == pytest.approx(mean["astraea"] - mean[base], abs=0.5)
    assert gap_lines(replace(definition, metric="alpha_variance"), table) == []
    assert gap_lines(definition, table.drop(columns=["wait_loss"])) == []  # a folder from before the split


def test_t4s_lambda_is_astraeas_default() -> None:
    import inspect

    from aisched.online.tenants import astraea
    from aisched.scenarios.tenants.breakdown import DEFAULT_LAMBDA

    assert inspect.signature(astraea.run).parameters["lam"].default == DEFAULT_LAMBDA
