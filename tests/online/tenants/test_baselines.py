"""Baselines BatchSche, Gandiva_fair, HiveD: registration, feasibility, optimality gap, their rules."""

import numpy as np
import pytest
from conftest import need_data_file
from hypothesis import given, settings
from hypothesis import strategies as st
from tenants_tiny import brute_force, random_tiny, worked_example

import aisched
from aisched.errors import InvalidScenarioError
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
    need_data_file("philly_pollux_2017-10-09.csv")  # skip, not fail, without the data
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


@settings(max_examples=30, deadline=None)
@given(caps=st.lists(st.integers(0, 8), min_size=1, max_size=6), users=st.integers(1, 4), data=st.data())
def test_private_clusters_split_the_servers_by_quota(caps, users, data):
    """Issue 15 point 3: each user owns exactly its quota; a server is shared only at a quota boundary."""
    from aisched.online.tenants.baselines import private_clusters

    caps = np.array(caps)
    if caps.sum() < 1:
        caps[0] = 1
    cuts = np.sort(data.draw(st.lists(st.integers(0, int(caps.sum())), min_size=users - 1, max_size=users - 1)))
    quota = np.diff(np.concatenate([[0], cuts, [caps.sum()]])).astype(int)
    inst = random_tiny(0, servers=len(caps)).replace(
        workers=caps, parameter_servers=caps, worker_quota=quota, ps_quota=quota,
        owner=np.zeros(3, int))
    w, p = private_clusters(inst)
    assert (w.sum(axis=1) == quota).all() and (w.sum(axis=0) == caps).all() and (w >= 0).all()
    assert np.array_equal(w, p)
    holders = np.nonzero(quota)[0]  # users owning something, in order
    for s in range(len(caps)):  # a server's owners are consecutive holders (handed out in order)
        owners = np.searchsorted(holders, np.nonzero(w[:, s])[0])
        assert owners.size == 0 or np.array_equal(owners, np.arange(owners[0], owners[-1] + 1))


def test_batchsche_keeps_each_user_on_its_private_cluster(mid):
    """Section 5.1: BatchSche schedules each user's jobs "in its private cluster"."""
    from aisched.models.tenants import usage as use
    from aisched.online.tenants.baselines import private_clusters

    out = aisched.run("batchsche", mid)
    assert out.info["cluster"] == "private" and out.verify(mid) == pytest.approx(out.objective)
    assert out.num_admitted > 0 and (out.payments == 0).all()
    cap_w, cap_p = private_clusters(mid)
    for u in range(mid.num_users):
        w, p = use(mid, out.plan, mid.owner == u)
        assert (w <= cap_w[u][:, None]).all() and (p <= cap_p[u][:, None]).all()
    quota = aisched.run("batchsche", mid, cluster="quota")  # the reading before issue 15
    assert quota.info["cluster"] == "quota" and quota.verify(mid) == pytest.approx(quota.objective)


@pytest.mark.parametrize("seed", range(4))
def test_one_user_private_cluster_is_the_whole_cluster(seed):
    """With one user its private cluster is the cluster: both BatchSche readings agree exactly."""
    inst = random_tiny(seed, jobs=4, slots=12)
    one = inst.replace(worker_quota=[inst.total_workers], ps_quota=[inst.total_parameter_servers],
                       owner=np.zeros(inst.num_jobs, int))
    a = aisched.run("batchsche", one)
    b = aisched.run("batchsche", one, cluster="quota")
    assert a.objective == pytest.approx(b.objective)
    for name in ("admitted", "start", "workers", "parameter_servers"):
        assert np.array_equal(a.plan[name].values, b.plan[name].values)


def test_release_batch_is_astraeas_batch_start():
    """Worked example (section 4.2): jobs arriving at 3 are in J_2 and run from 8 (lambda = 2)."""
    from aisched.online.tenants.baselines import release_times

    inst = worked_example()
    assert release_times(inst, "batch").tolist() == [8, 8, 8, 8]  # golden: the paper's (8, 16]
    assert release_times(inst, "arrival").tolist() == [3, 3, 3, 3]
    assert release_times(inst.replace(arrival=[0, 1, 2, 4]), "batch", lam=3).tolist() == [6, 6, 12, 24]


@pytest.mark.parametrize("name", ["gandiva_fair", "hived"])
def test_batch_release_waits_like_astraea(mid, name):
    from aisched.online.tenants.baselines import release_times

    out = aisched.run(name, mid, release="batch")
    assert out.verify(mid) == pytest.approx(out.objective) and out.info["release"] == "batch"
    adm = out.admitted
    assert adm.any()
    assert (out.plan["start"].values[adm] >= release_times(mid, "batch")[adm]).all()
    assert (release_times(mid, "batch") >= mid.arrival).all()
    early = aisched.run(name, mid)
    assert early.info["release"] == "arrival"
    assert (early.plan["start"].values[early.admitted] < release_times(mid, "batch")[early.admitted]).any()
    with pytest.raises(InvalidScenarioError) as err:
        aisched.run(name, mid, release="now")
    assert err.value.field == "release"
