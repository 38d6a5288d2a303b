"""Tenants' silent parameters, regime targets and workload options (tiny, fast)."""

import hashlib
import json
import math

import numpy as np
import pytest

import aisched
from aisched import families
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.experiments.studies.calibrate import _groups
from aisched.scenarios import tenants as sc
from aisched.scenarios.tenants import silent
from aisched.scenarios.tenants.workload_options import past_window, trace_widths

DAY = data_file(sc.TRACES["day"], required=False)
TINY = {"seed": 0, "users": 2, "servers": 3, "jobs": 4}


def _need_data():
    if DAY is None:
        pytest.skip(f"Philly extract {sc.TRACES['day']} absent from every data folder")


def _digest(instance):
    ds = instance.to_dataset()
    h = hashlib.sha1()
    for k in sorted(ds.data_vars):
        h.update(np.ascontiguousarray(ds[k].values).tobytes())
    h.update(json.dumps({k: str(v) for k, v in sorted(ds.attrs.items())}).encode())
    return h.hexdigest()


def test_declarations_are_registered_and_valid():
    record = families.record("tenants")
    assert record.silent_parameters == silent.SILENT_PARAMETERS
    assert record.regime_targets == silent.REGIME_TARGETS
    for p in record.silent_parameters:
        assert p.quote and p.where and p.argument
        assert p.default is None or p.low <= p.default <= p.high
    baselines = {"batchsche", "gandiva_fair", "hived"}
    for t in record.regime_targets:
        assert "astraea" not in t.algorithms and set(t.algorithms) <= baselines
        assert t.quote and t.where and t.derivation
    ratios = {t.name: t.value for t in record.regime_targets if t.kind == "ratio"}
    assert [round(v, 3) for v in ratios.values()] == [1.274, 1.170, 1.336, 1.116]


def test_calibration_never_runs_or_fits_astraea():
    record = families.record("tenants")
    for group in _groups(record):
        assert "astraea" not in group.algorithms
        assert all(p.algorithm != "astraea" for p in group.rest)
        assert group.axis is not None and group.axis.algorithm is None
    theta = next(p for p in record.silent_parameters if p.algorithm == "astraea")
    assert theta.name == "theta_scale" and theta.values[0] == 1.0  # the default first: ties keep it


def test_default_options_reproduce_the_workload_from_before_the_options():
    _need_data()
    inst = sc.generate(**TINY)
    assert _digest(inst) == "0245997a4e4aeb09c9817fac6423797135f5c9dd"  # measured before the workload options existed
    same = sc.generate(**TINY, width_from_trace=0, duration_scale=1.0, demand_shares=None)
    assert same == inst
    before = {"astraea": 797.870222176, "batchsche": 797.870222176, "gandiva_fair": 1113.232703014,
              "hived": 570.495604503}
    for name, value in before.items():
        params = {"theta_estimate": "all_jobs"} if name == "astraea" else {}
        assert aisched.run(name, inst, **params).objective == pytest.approx(value, abs=1e-6)


def test_synthetic_default_is_unchanged():
    inst = sc.generate(seed=2, users=3, servers=4, jobs=10, trace=None)
    assert _digest(inst) == "87ac356bcf0a28d05a4f64ef2a434ca6a3bbb5d3"


def test_widths_from_the_trace_cap_workers_and_keep_the_work():
    _need_data()
    base = sc.generate(seed=1, users=2, servers=3, jobs=12)
    wide = sc.generate(seed=1, users=2, servers=3, jobs=12, width_from_trace=1)
    frame = sc.load_philly(DAY)
    assert (wide.chunks <= base.chunks).all()
    assert wide.chunks.max() <= frame["num_gpus"].max()
    work0, work1 = base.total_minibatches(), wide.total_minibatches()
    assert np.all(np.abs(work1 - work0) <= 0.5 * base.epochs * wide.chunks + 1e-9)
    assert (wide.widest_run()[0] <= wide.chunks).all()
    chunks, per = trace_widths(np.array([35, 20]), np.array([30, 11]), np.array([1, 4]))
    assert chunks.tolist() == [1, 4] and per.tolist() == [1050, 55]
    with pytest.raises(InvalidScenarioError, match="width_from_trace"):
        sc.generate(seed=0, users=2, servers=3, jobs=4, trace=None, width_from_trace=1)


def test_duration_scale_shortens_every_run():
    inst = sc.generate(seed=0, users=2, servers=3, jobs=6, trace=None)
    half = sc.generate(seed=0, users=2, servers=3, jobs=6, trace=None, duration_scale=0.5)
    assert np.allclose(half.compute_time, 0.5 * inst.compute_time)
    assert (half.fastest_run() <= inst.fastest_run()).all()
    with pytest.raises(InvalidScenarioError, match="duration_scale"):
        sc.generate(seed=0, users=2, servers=3, jobs=4, duration_scale=0.0)


def test_demand_shares_weigh_the_quotas():
    inst = sc.generate(seed=0, users=3, servers=6, jobs=9, trace=None, demand_shares=0.0)
    assert inst.worker_quota.tolist() == [16, 16, 16]
    with pytest.raises(InvalidScenarioError, match="demand_shares"):
        sc.generate(seed=0, users=3, servers=6, jobs=9, trace=None, demand_shares=2.0)


def test_the_past_window_is_disjoint_from_the_scheduled_one():
    rows = past_window(list(range(10)), 1, 4)
    assert sorted(rows.tolist()) == [0, 7, 8, 9] and not set(rows.tolist()) & {1, 2, 3, 4}
    assert past_window(list(range(5)), 0, 4).tolist() == [4]  # shortened: only one row outside the window
    assert math.isclose(len(past_window(list(range(1352)), 600, 200)), 200)
