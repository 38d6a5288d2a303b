"""tenants' capacity readings (docs/readings/tenants.md T12, T14) and contention metrics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import aisched
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance, make_plan
from aisched.scenarios import tenants as tenants_sc
from aisched.scenarios.tenants.metrics import CONTENTION_COLUMNS, contention, fastest_width, rejections
from aisched.scenarios.tenants.traces import TRACES, load_philly
from aisched.scenarios.tenants.workload_options import WIDEST_CHUNKS, cluster_shares_of, ps_count

PAPER = {"users": 14, "servers": 100, "jobs": 200, "trace": "day", "slot_hours": 1.0}


def _trace(name: str):
    try:
        return data_file(TRACES[name])
    except Exception as exc:  # noqa: BLE001 - any lookup failure means the data is absent here
        pytest.skip(f"Philly {name} extract not available: {exc}")


# --- options: validation ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [0, -1, 1.5, True, "wide", None, np.float64(2.0), 10**6])
def test_bad_ps_per_server_is_refused_naming_the_field(value) -> None:
    with pytest.raises(InvalidScenarioError, match="ps_per_server") as info:
        tenants_sc.generate(seed=0, ps_per_server=value)
    assert repr(value) in str(info.value)


@pytest.mark.parametrize("kwargs, field", [
    ({"cluster_shares": "machines"}, "cluster_shares"),
    ({"cluster_shares": "gpu_time", "trace": None}, "cluster_shares"),
    ({"cluster_shares": "gpu_time", "demand_shares": 0.5}, "cluster_shares"),
])
def test_bad_cluster_shares_is_refused_naming_the_field(kwargs, field) -> None:
    with pytest.raises(InvalidScenarioError, match=field):
        tenants_sc.generate(seed=0, **kwargs)


def test_cluster_shares_needs_at_most_the_extracts_clusters() -> None:
    _trace("day")
    with pytest.raises(InvalidScenarioError, match=r"users.*= 14 exceeds the 8 virtual clusters"):
        tenants_sc.generate(seed=0, cluster_shares="gpu_time", **PAPER)
    tenants_sc.generate(seed=0, cluster_shares="gpu_time", **{**PAPER, "users": 8})  # 8 clusters: one each


# --- options: the default is unchanged, the readings are deterministic ---------------------------------

def test_defaults_are_the_workload_before_the_options() -> None:
    before = tenants_sc.generate(seed=3, **PAPER)
    assert tenants_sc.generate(seed=3, ps_per_server=1, cluster_shares=None, **PAPER) == before
    assert (before.parameter_servers == 1).all()


@pytest.mark.parametrize("kwargs", [{"ps_per_server": "widest_job"}, {"ps_per_server": 3},
                                    {"cluster_shares": "gpu_time", "users": 8}])
def test_readings_are_deterministic_and_keep_the_jobs_draws(kwargs) -> None:
    base = tenants_sc.generate(seed=5, **PAPER)
    one = tenants_sc.generate(seed=5, **{**PAPER, **kwargs})
    assert one == tenants_sc.generate(seed=5, **{**PAPER, **kwargs})
    if "users" not in kwargs:  # same owners and arrivals; the jobs' settings are the default's draws
        for field in ("owner", "arrival", "epochs", "chunks", "minibatches", "compute_time", "utility_slope"):
            np.testing.assert_array_equal(getattr(one, field), getattr(base, field))
        assert one.worker_bandwidth == base.worker_bandwidth and one.ps_bandwidth == base.ps_bandwidth
        assert int(one.ps_quota.sum()) == int(one.parameter_servers.sum())


def test_ps_count_by_hand() -> None:
    assert ps_count(1, 8, 50, 100.0, 5120.0) == 1
    assert ps_count(4, 8, 50, 5120.0, 5120.0) == 4
    assert ps_count("widest_job", 8, 50, 100.0, 5120.0) == 1  # 42 * 100 / 5120 = 0.82
    assert ps_count("widest_job", 8, 50, 1000.0, 10000.0) == 5  # 4.2
    assert ps_count("widest_job", 8, 50, 5120.0, 5120.0) == 42  # b_w = b_p: one PS per remote worker
    assert ps_count("widest_job", 8, 50, 1000.0, 2000.0) == 21  # exactly 21: no rounding up past it
    assert ps_count("widest_job", 8, 16, 1000.0, 2000.0) == 4  # trace widths: 16 GPUs at most
    assert ps_count("widest_job", 8, 6, 5120.0, 5120.0) == 1  # fits one server: the floor of 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_widest_job_reading_makes_fifty_workers_feasible(seed) -> None:
    default = tenants_sc.generate(seed=seed, **PAPER)
    inst = tenants_sc.generate(seed=seed, ps_per_server="widest_job", **PAPER)
    assert default.widest_run()[0].max() < WIDEST_CHUNKS  # C_sp = 1: 8 + floor(b_p / b_w) workers
    assert inst.chunks.max() == WIDEST_CHUNKS
    assert inst.parameter_servers[0] == ps_count("widest_job", 8, WIDEST_CHUNKS, inst.worker_bandwidth,
                                                 inst.ps_bandwidth)
    dist, _ = inst.widest_run()
    np.testing.assert_array_equal(dist, inst.chunks)  # every job may run at its D_j workers (3e), 50 included
    out = aisched.run("gandiva_fair", inst)
    out.verify(inst)  # (3d), (3i) hold on the plan
    used = out.plan["workers"].values.sum(axis=1)[out.plan["admitted"].values]
    assert used.max() > default.widest_run()[0].max()


def test_widest_job_reading_under_trace_widths_covers_the_widest_request() -> None:
    inst = tenants_sc.generate(seed=0, ps_per_server="widest_job", width_from_trace=1, **PAPER)
    assert inst.chunks.max() <= 16  # the extract's widest request
    np.testing.assert_array_equal(inst.widest_run()[0], inst.chunks)
    assert inst.parameter_servers[0] == ps_count("widest_job", 8, int(inst.chunks.max()), inst.worker_bandwidth,
                                                 inst.ps_bandwidth)


def test_cluster_shares_are_the_clusters_gpu_time() -> None:
    frame = load_philly(_trace("week"))
    inst = tenants_sc.generate(seed=7, users=10, servers=100, jobs=200, trace="week", slot_hours=1.0,
                               window="draw", cluster_shares="gpu_time")
    by_cluster = frame.groupby("cluster")["gpu_time"].sum()
    ranked = frame["cluster"].value_counts().index  # cluster k -> tenant k (10 users, 10 clusters)
    shares = np.array([by_cluster[c] for c in ranked]) / by_cluster.sum()
    np.testing.assert_allclose(cluster_shares_of(frame, 10), shares)
    np.testing.assert_array_equal(np.abs(inst.worker_quota - 800 * shares) < 1, True)  # largest remainders
    assert inst.worker_quota.sum() == 800 and inst.ps_quota.sum() == 100
    counts = np.bincount(inst.owner, minlength=10)
    np.testing.assert_array_equal(np.abs(counts - 200 * shares) < 1, True)  # owners drawn by the shares
    equal = tenants_sc.generate(seed=7, users=10, servers=100, jobs=200, trace="week", slot_hours=1.0,
                                window="draw")
    assert (np.abs(np.bincount(equal.owner, minlength=10) - 20) <= 0).all()  # the default: equal shares


def test_cluster_shares_merge_clusters_when_users_are_fewer() -> None:
    frame = pd.DataFrame({"cluster": ["a", "a", "a", "b", "b", "c"], "gpu_time": [1.0, 1.0, 2.0, 3.0, 1.0, 2.0],
                          "num_gpus": [1] * 6})
    np.testing.assert_allclose(cluster_shares_of(frame, 3), [0.4, 0.4, 0.2])
    np.testing.assert_allclose(cluster_shares_of(frame, 2), [0.6, 0.4])  # cluster c (rank 2) -> tenant 0
    with pytest.raises(InvalidScenarioError, match="users"):
        cluster_shares_of(frame, 4)


# --- contention metrics, by hand -------------------------------------------------------------------------

def _hand_instance() -> TenantInstance:
    """1 server (4 workers, 1 PS), 2 users (2 workers each), 10 slots; centralised runs ``ceil(D / w)`` slots.

    ``m + G = 1`` and ``2 epsilon / b_w = 1``: a worker trains one mini-batch a slot centralised, half
    distributed, so each job's fastest run is centralised on ``min(D_j, 4)`` workers for
    ``ceil(E_j D_j / min(D_j, 4))`` slots.
    """
    n = 7
    return TenantInstance(
        num_slots=10, worker_quota=[2, 2], ps_quota=[1, 0], workers=[4], parameter_servers=[1],
        worker_bandwidth=1.0, ps_bandwidth=1.0,
        owner=[0, 1, 0, 1, 1, 0, 1], arrival=[0, 1, 5, 5, 6, 9, 0], epochs=[2, 1, 1, 1, 1, 3, 1],
        chunks=[4, 4, 4, 2, 4, 4, 1], minibatches=[1] * n, compute_time=[0.5] * n, update_time=[0.5] * n,
        gradient_size=[0.5] * n, utility="linear", utility_slope=[-1.0] * n,
        utility_intercept=[10.0, 10.0, 10.0, 10.0, 0.5, 10.0, 5.0],
    )


def _hand_plan(inst: TenantInstance):
    start = np.array([0, -1, -1, -1, -1, -1, 6])
    end = np.array([3, -1, -1, -1, -1, -1, 6])
    y = np.zeros((7, 1), dtype=int)
    z = np.zeros((7, 1), dtype=int)
    y[0, 0], z[0, 0] = 4, 1
    y[6, 0], z[6, 0] = 1, 1
    return make_plan(inst, start, end, y, z, start >= 0)


def test_rejections_by_hand() -> None:
    inst = _hand_instance()
    np.testing.assert_array_equal(fastest_width(inst), [4, 4, 4, 2, 4, 4, 1])
    np.testing.assert_array_equal(inst.fastest_run(), [2, 1, 1, 1, 1, 3, 1])
    got = rejections(inst, _hand_plan(inst))
    # job 1: slot 1 has no free worker (job 0 holds all 4): capacity. job 2: 4 free at slot 5 but its
    # owner's quota is 2 (< 4): quota. job 3: 2 of 4 free and owner 1's 2 free: waiting. job 4:
    # f(1) = -0.5 <= 0; job 5: 9 + 3 > 10 slots: unprofitable.
    assert got == {"rejected_unprofitable": 2.0, "rejected_capacity": 1.0, "rejected_quota": 1.0,
                   "rejected_waiting": 1.0}


def test_contention_by_hand() -> None:
    inst = _hand_instance()
    plan = _hand_plan(inst)
    got = contention(inst, plan)
    assert set(got) == set(CONTENTION_COLUMNS)
    # busy shares: 1, 1, 1, 1 (slots 0-3), 0, 0 (4-5), 0.25 (slot 6); makespan 7
    assert got["gpu_util_busy_mean"] == pytest.approx(4.25 / 7)
    # job 0 ends at 3: f(4) = 6 > 0; job 6 (arrival 0) ends at 6: f(7) = 5 - 7 = -2 <= 0
    assert got["admitted_at_loss"] == 1.0
    empty = make_plan(inst, np.full(7, -1), np.full(7, -1), np.zeros((7, 1)), np.zeros((7, 1)), np.zeros(7, bool))
    got = contention(inst, empty)
    assert np.isnan(got["gpu_util_busy_mean"]) and got["admitted_at_loss"] == 0.0
    assert got["rejected_capacity"] == 0.0 and got["rejected_unprofitable"] == 2.0


def test_cell_metrics_carry_the_contention_columns() -> None:
    inst = tenants_sc.generate(seed=1, users=3, servers=2, jobs=12)
    for name in ("astraea", "batchsche", "gandiva_fair", "hived"):
        out = aisched.run(name, inst)
        cell = tenants_sc.cell_metrics(inst, out)
        rejected = int((~out.plan["admitted"].values.astype(bool)).sum())
        parts = sum(cell[k] for k in ("rejected_unprofitable", "rejected_capacity", "rejected_quota",
                                      "rejected_waiting"))
        assert parts == rejected, name
        assert 0.0 <= cell["gpu_util_busy_mean"] <= cell["gpu_util_peak"] <= 1.0 or np.isnan(cell["gpu_util_busy_mean"])


def test_cli_capacity_options_reach_the_generator(tmp_path, capsys) -> None:
    from aisched.cli import main

    code = main(["compare", "tenants", "--users", "2", "--servers", "3", "--jobs", "4", "--ps-per-server", "3",
                 "--cluster-shares", "gpu_time", "--algorithms", "gandiva_fair", "--no-offline", "--no-figures",
                 "--out", str(tmp_path)])
    assert code == 0
    assert "(24 workers, 9 PSs)" in capsys.readouterr().out
    try:
        code = main(["compare", "tenants", "--no-offline", "--no-figures", "--ps-per-server", "many"])
    except SystemExit as exc:  # argparse's own type check
        code = exc.code
    assert code == 2 and "--ps-per-server" in capsys.readouterr().err
