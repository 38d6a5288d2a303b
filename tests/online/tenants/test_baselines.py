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
    """Each user owns exactly its quota; a server is shared only at a quota boundary."""
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
    quota = aisched.run("batchsche", mid, cluster="quota")  # the earlier reading
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


def _queue_of_two(slope_second: float) -> tuple:
    """One server (1 worker, 1 PS), one user, two equal jobs at slot 0: the second waits for the first."""
    from aisched.models.tenants import TenantInstance

    probe = TenantInstance(
        num_slots=40, worker_quota=[1], ps_quota=[1], workers=[1], parameter_servers=[1], worker_bandwidth=1.0,
        ps_bandwidth=1.0, owner=[0, 0], arrival=[0, 0], epochs=[2, 2], chunks=[2, 2], minibatches=[1, 1],
        compute_time=[0.5, 0.5], update_time=[0.5, 0.5], gradient_size=[0.5, 0.5], utility="linear",
        utility_slope=[-1.0, -1.0], utility_intercept=[100.0, 100.0])
    d = int(probe.duration(1, True, 0))
    intercept = -slope_second * d + 5.0  # the second job earns 5 if it ends at d, a loss if it ends at 2d
    inst = probe.replace(utility_slope=np.array([-1.0, slope_second]), utility_intercept=np.array([100.0, intercept]))
    return inst, d, intercept


@pytest.mark.parametrize("name", ["gandiva_fair", "hived"])
def test_greedy_without_a_utility_test_starts_a_losing_job_and_counts_the_loss(name):
    """The described schedulers have no utility test; (3) counts what a late job earns."""
    inst, d, intercept = _queue_of_two(-10.0)
    assert 2 * d <= inst.num_slots
    out = aisched.run(name, inst)
    assert out.admitted.tolist() == [True, True] and out.plan["start"].values.tolist() == [0, d]
    loss = -10.0 * 2 * d + intercept
    assert loss < 0 and out.objective == pytest.approx((100.0 - d) + loss)
    assert out.verify(inst) == pytest.approx(out.objective) and out.info["admission"] == "none"
    kept = aisched.run(name, inst, admission="utility")  # the earlier rule: the late job is left out
    assert kept.admitted.tolist() == [True, False] and kept.objective == pytest.approx(100.0 - d)


def test_greedy_admission_is_validated():
    inst, _, _ = _queue_of_two(-10.0)
    with pytest.raises(InvalidScenarioError, match=r"^admission: = 'maybe' is not valid .* 'none', 'utility'"):
        aisched.run("hived", inst, admission="maybe")
    from aisched.online.tenants.baselines import run_gandiva_fair

    with pytest.raises(InvalidScenarioError, match="^admission: = 'maybe' is not one of 'none', 'utility'$"):
        run_gandiva_fair(inst, admission="maybe")  # called directly, past the API's check


def test_offline_refuses_a_milp_too_large_to_build_before_any_work():
    """One-hour slots make 6 jobs a 4,096-slot MILP (15 min, 9 GB); refused at once."""
    import time

    from aisched.errors import ModelTooLargeError
    from aisched.models.tenants.program import MAX_OPTION_SLOTS, option_slots, options

    big = sc.generate(seed=0, users=2, servers=4, jobs=6, trace=None, slot_hours=1.0)
    tic = time.perf_counter()
    with pytest.raises(ModelTooLargeError, match=r"slots x 6 jobs x 4 servers would hold .* slot_hours='auto'"):
        aisched.offline(big)
    assert time.perf_counter() - tic < 30  # nothing built
    small = sc.generate(seed=0, users=2, servers=4, jobs=6, trace=None, slot_hours="auto")
    terms = option_slots(small)
    assert terms == sum(d for j in range(small.num_jobs) for (_, _, _, d, _) in options(small, j))
    assert terms <= MAX_OPTION_SLOTS  # solved offline in tests/scenarios/tenants/test_workload.py
