"""Section 5.1's metrics: gains in three parts, revenue-fairness ratio alpha_u, performance ratio."""

import math

import numpy as np
import pytest
from conftest import need_data_file
from tenants_tiny import worked_example

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance
from aisched.online.tenants import astraea
from aisched.online.tenants.metrics import fairness, performance_ratio
from aisched.scenarios import tenants as sc


def _lender() -> TenantInstance:
    return TenantInstance(
        num_slots=32, worker_quota=[8, 0], ps_quota=[4, 0], workers=[2, 2, 2, 2],
        parameter_servers=[1, 1, 1, 1], worker_bandwidth=1.0, ps_bandwidth=1.0,
        owner=[0, 1, 1], arrival=[0, 0, 0], epochs=[2, 2, 2], chunks=[2, 2, 2], minibatches=[1, 1, 1],
        compute_time=[0.5] * 3, update_time=[0.5] * 3, gradient_size=[0.5] * 3,
        utility_slope=[-2.0] * 3, utility_intercept=[100.0] * 3,
    )


def test_three_parts_add_up_to_total_revenue():
    inst = _lender()
    out = astraea.run(inst, lam=2, theta_w=16.0, theta_p=16.0)
    fair = fairness(inst, out)
    table = fair.per_user
    assert table["gain"].sum() == pytest.approx(out.objective)
    assert fair.total_revenue == pytest.approx(out.objective)
    # user 0 lends, user 1 only rents: its gain is utility minus what it paid
    assert table.loc[1, "own"] == 0.0 and table.loc[1, "income"] == 0.0
    f = inst.utility_value([1, 2], out.plan["end"].values[[1, 2]] + 1)
    assert table.loc[1, "shared_net"] == pytest.approx(f.sum() - out.payments.sum())
    assert table.loc[0, "income"] == pytest.approx(out.payments.sum())


def test_alpha_and_its_variance():
    inst = worked_example()
    out = astraea.run(inst, lam=2, theta_w=16.0, theta_p=16.0)
    fair = fairness(inst, out)
    alpha = fair.per_user["alpha"].to_numpy()
    # user 0 trains j11 and j12 (86 + 84), user 1 trains j21 (82); both hold half the cluster
    assert alpha == pytest.approx([170 / 252 / 0.5, 82 / 252 / 0.5])
    assert fair.alpha_variance == pytest.approx(np.var(alpha))


def test_baseline_without_accounting_counts_every_job_as_own():
    need_data_file("philly_pollux_2017-10-09.csv")  # skip, not fail, without the data
    inst = sc.generate(seed=0, users=3, servers=6, jobs=10, slot_hours=24.0)
    out = aisched.run("gandiva_fair", inst)
    table = fairness(inst, out).per_user
    assert (table["income"] == 0).all() and (table["shared_net"] == 0).all()
    assert table["own"].sum() == pytest.approx(out.objective)


def test_performance_ratio_needs_a_proven_optimum():
    inst = worked_example(num_slots=16)
    off = aisched.offline(inst)
    out = astraea.run(inst, lam=1)
    assert performance_ratio(out, off) == pytest.approx(out.objective / off.objective)
    assert 0 <= performance_ratio(out, off) <= 1 + 1e-9
    off.status = "time_limit"
    with pytest.raises(InvalidScenarioError, match="not a proven optimum"):
        performance_ratio(out, off)
    assert performance_ratio(out, off, allow_bound=True) == pytest.approx(out.objective / off.bound)
    off.bound = math.nan
    with pytest.raises(InvalidScenarioError):
        performance_ratio(out, off, allow_bound=True)
