"""Every tenant in the workload (window rule, documented draw), slot defaults."""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
import pytest

import aisched
from aisched.data import data_file
from aisched.errors import InvalidScenarioError, ModelTooLargeError
from aisched.scenarios import tenants as sc
from aisched.scenarios.tenants.cli import TenantsCli
from aisched.scenarios.tenants.metrics import sharing


def _trace(tmp_path, clusters: list[str], minutes: list[float], gpus: list[int] | None = None):
    """A Philly-format CSV: one submission per entry (minutes after 2017-10-09 00:00)."""
    stamp = pd.Timestamp("2017-10-09") + pd.to_timedelta(minutes, unit="min")
    frame = pd.DataFrame({"timestamp": stamp.strftime("%Y-%m-%d %H:%M:%S"), "duration": 60.0,
                          "num_gpus": gpus or [1] * len(clusters), "gpu_time": 60.0, "cluster": clusters})
    path = tmp_path / "philly.csv"
    frame.to_csv(path, index=False)
    return path


def test_window_rule_finds_the_shortest_window_holding_every_tenant(tmp_path):
    """Hand-made trace: cluster 'a' floods the log; of the 4-job windows holding a, b and c the shortest is picked."""
    clusters = ["a"] * 6 + ["b", "a", "c", "a"] + ["a"] * 6 + ["b", "b", "a", "c"]  # a: 15, b: 3, c: 2 jobs
    minutes = [10.0 * k for k in range(10)] + [100.0 + k for k in range(6)] + [200.0, 260.0, 300.0, 400.0]
    path = _trace(tmp_path, clusters, minutes)
    for seed in range(4):
        inst = sc.generate(seed=seed, users=3, servers=2, jobs=4, trace=path, slot_hours=1.0)
        assert inst.workload == "trace-window"
        assert sorted(np.unique(inst.owner)) == [0, 1, 2]  # every tenant has a job
        assert inst.owner.tolist() == [0, 1, 0, 2]  # jobs 5-8 (30 min, tied with 6-9: the earlier); a, b, c -> 0, 1, 2
        assert sharing(inst, aisched.run("astraea", inst).plan)["users_with_jobs"] == 3
    # the consecutive rule (the earlier one) stays selectable and misses tenants on some seeds
    missing = [np.unique(sc.generate(seed=s, users=3, servers=2, jobs=4, trace=path, slot_hours=1.0,
                                     window="consecutive").owner).size for s in range(10)]
    assert min(missing) < 3
    # the kernel of the rule, against a brute force over every window
    seconds = np.asarray(minutes) * 60.0
    rank = {c: k for k, c in enumerate(pd.Series(clusters).value_counts().index)}
    user = np.array([rank[c] for c in clusters])
    for jobs in range(1, len(clusters) + 1):
        ok = [i for i in range(len(clusters) - jobs + 1) if np.unique(user[i:i + jobs]).size == 3]
        want = min(ok, key=lambda i: (seconds[i + jobs - 1] - seconds[i], i)) if ok else None
        assert sc.every_tenant_window(user, seconds, jobs, 3) == want, jobs


def test_too_few_clusters_fall_back_to_the_documented_draw(tmp_path):
    """Two virtual clusters, four tenants: owners spread evenly over all four, quotas the equal shares."""
    path = _trace(tmp_path, ["a", "b"] * 10, [5.0 * k for k in range(20)])
    inst = sc.generate(seed=3, users=4, servers=4, jobs=10, trace=path, slot_hours=1.0)
    assert inst.workload == "trace-draw"
    assert sorted(np.bincount(inst.owner, minlength=4).tolist()) == [2, 2, 3, 3]
    assert inst.worker_quota.tolist() == [8, 8, 8, 8] and inst.ps_quota.tolist() == [1, 1, 1, 1]
    forced = sc.generate(seed=3, users=2, servers=4, jobs=10, trace=path, slot_hours=1.0, window="draw")
    assert forced.workload == "trace-draw" and np.bincount(forced.owner).tolist() == [5, 5]
    # the draw keeps the window's arrivals and, at the same seed, the jobs' settings of the old rule
    old = sc.generate(seed=3, users=4, servers=4, jobs=10, trace=path, slot_hours=1.0, window="consecutive")
    assert old.workload == "trace-consecutive"
    assert np.array_equal(old.arrival, inst.arrival) and np.array_equal(old.chunks, inst.chunks)
    assert np.array_equal(old.utility_slope, inst.utility_slope)
    assert sc.spread_owners(3, np.ones(5), np.random.default_rng(0)).size == 3  # fewer jobs than tenants


def test_paper_setting_gives_every_tenant_jobs():
    """Fig. 4a's 14 tenants on the Philly extracts (8 and 10 clusters): the draw runs, every tenant has jobs."""
    if data_file(sc.TRACES["day"], required=False) is None:
        pytest.skip(f"Philly extract {sc.TRACES['day']} absent from every data folder")
    for trace in ("day", "week"):
        inst = sc.generate(seed=0, users=14, servers=100, jobs=200, trace=trace)
        assert inst.workload == "trace-draw" and np.unique(inst.owner).size == 14
        counts = np.bincount(inst.owner, minlength=14)
        assert counts.min() >= 14 and counts.max() <= 15
    eight = sc.generate(seed=0, users=8, servers=100, jobs=200)  # the day's 8 clusters: the window rule
    assert eight.workload == "trace-window" and np.unique(eight.owner).size == 8
    assert sc.generate(seed=0, users=3, servers=4, jobs=10, trace=None).workload == "synthetic"
    with pytest.raises(InvalidScenarioError) as err:
        sc.generate(seed=0, users=2, servers=2, jobs=2, window="longest")
    assert err.value.field == "window"


def test_workload_survives_the_dataset_round_trip():
    inst = sc.generate(seed=0, users=3, servers=4, jobs=10, trace=None)
    back = type(inst).from_dataset(inst.to_dataset())
    assert back == inst and back.workload == "synthetic"
    assert inst.replace(workload="") != inst


def _cli_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    TenantsCli().add_arguments(parser)
    return parser.parse_args(argv)


@pytest.mark.parametrize("jobs", [6, 15, 16, 40])
def test_api_and_cli_agree_on_the_default_slot_length(jobs):
    """Both default to slot_hours='auto' (48 h at <= 15 jobs, 1 h above)."""
    args = _cli_args(["--users", "2", "--servers", "4", "--jobs", str(jobs), "--trace", "synthetic"])
    assert args.slot_hours == "auto" == sc.DEFAULT_SCENARIO["slot_hours"]
    cli = TenantsCli().instance(args)
    api = sc.generate(seed=0, users=2, servers=4, jobs=jobs, trace=None)
    assert cli == api
    hours = 48.0 if jobs <= sc.REDUCED_JOBS else 1.0
    assert api == sc.generate(seed=0, users=2, servers=4, jobs=jobs, trace=None, slot_hours=hours)
    assert f"slots of {hours:g} h" in TenantsCli().describe(cli, args)


def test_small_instance_is_small_and_solves_offline():
    """generate(seed=0, users=2, servers=4, jobs=6) used to have 4,096 slots (15 min, 9 GB offline)."""
    if data_file(sc.TRACES["day"], required=False) is None:
        pytest.skip(f"Philly extract {sc.TRACES['day']} absent from every data folder")
    from aisched.models.tenants.program import MAX_OPTION_SLOTS, option_slots

    inst = sc.generate(seed=0, users=2, servers=4, jobs=6)
    assert inst.num_slots <= 128 and option_slots(inst) <= MAX_OPTION_SLOTS // 100
    out = aisched.offline(inst, time_limit=120)
    assert out.status == "optimal" and out.verify(inst) == pytest.approx(out.objective)
    big = sc.generate(seed=0, users=2, servers=4, jobs=6, slot_hours=1.0)  # refused before building, naming sizes
    with pytest.raises(ModelTooLargeError, match=r"4,096 slots x 6 jobs x 4 servers .*slot_hours='auto'.*aisched.bound"):
        aisched.offline(big)
