"""Baselines BatchSche, Gandiva_fair, HiveD: registration, feasibility, optimality gap, their rules."""

import numpy as np
import pytest
from tenants_tiny import brute_force, random_tiny

import aisched
from aisched.models.tenants import usage
from aisched.scenarios import tenants as sc

NAMES = ("batchsche", "gandiva_fair", "hived")


def test_registered_in_order_after_astraea():
    assert aisched.algorithms("tenants") == ["astraea", *NAMES]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", NAMES)
def test_feasible_and_at_most_the_optimum(seed, name):
    inst = random_tiny(seed, slots=6)
    out = aisched.run(name, inst)
    assert out.algorithm == name
    assert out.verify(inst) == pytest.approx(out.objective)
    assert out.objective <= brute_force(inst) + 1e-9
    assert (out.payments == 0).all()


@pytest.fixture(scope="module")
def mid():
    return sc.generate(seed=3, users=4, servers=10, jobs=30, slot_hours=12.0)


def _user_usage(inst, plan):
    per_user = []
    for u in range(inst.num_users):
        mask = inst.owner == u
        w, p = usage(inst, plan, mask)
        per_user.append((w.sum(axis=0), p.sum(axis=0)))
    return per_user


@pytest.mark.parametrize("name", ["batchsche", "hived"])
def test_no_sharing_baselines_keep_each_user_in_its_quota(mid, name):
    out = aisched.run(name, mid)
    out.verify(mid)
    assert out.num_admitted > 0
    for u, (w, p) in enumerate(_user_usage(mid, out.plan)):
        assert (w <= mid.worker_quota[u]).all() and (p <= mid.ps_quota[u]).all()
    if name == "batchsche":
        assert not out.plan["shared"].values.any()


def test_gandiva_fair_trades_idle_resources_without_compensation(mid):
    out = aisched.run("gandiva_fair", mid)
    out.verify(mid)
    over = any((w > mid.worker_quota[u]).any() for u, (w, _) in enumerate(_user_usage(mid, out.plan)))
    assert over  # some user runs beyond its quota on others' idle GPUs
    assert (out.payments == 0).all()


def test_hived_packs_for_affinity(mid):
    out = aisched.run("hived", mid)
    y = out.plan["workers"].values[out.admitted]
    servers_used = (y > 0).sum(axis=1)
    ideal = np.ceil(y.sum(axis=1) / mid.workers.max())
    assert (servers_used <= ideal + 1).all()  # fewest servers, at most the PS host beyond
