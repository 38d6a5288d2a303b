"""TenantInstance: validation (errors name the field), rate (1), utility, netCDF round trip."""

import numpy as np
import pytest
import xarray as xr
from tenants_tiny import random_tiny, worked_example

from aisched.errors import InvalidInstanceError
from aisched.models.tenants import TenantInstance


def _kwargs(inst: TenantInstance) -> dict:
    from dataclasses import fields

    return {f.name: getattr(inst, f.name) for f in fields(inst)}


def test_round_trip_through_netcdf_is_exact(tmp_path):
    for inst in (worked_example(), random_tiny(3, utility="convex")):
        path = tmp_path / f"{inst.utility}.nc"
        inst.to_dataset().to_netcdf(path, engine="netcdf4")
        with xr.open_dataset(path, engine="netcdf4") as ds:
            back = TenantInstance.from_dataset(ds.load())
        assert back == inst
        assert back.utility == inst.utility
        assert back.compute_time.dtype == np.float64 and back.owner.dtype == np.int64


def test_from_dataset_rejects_other_family():
    ds = worked_example().to_dataset()
    ds.attrs["family"] = "lora"
    with pytest.raises(InvalidInstanceError, match="family"):
        TenantInstance.from_dataset(ds)


def test_instance_is_frozen_and_read_only():
    inst = worked_example()
    with pytest.raises(AttributeError):
        inst.num_slots = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        inst.arrival[0] = 1


def test_rate_equation_1_and_duration_of_the_worked_example():
    inst = worked_example()
    # n = 1 centralised, 0.5 distributed (section 4.2)
    assert np.allclose(inst.rate(True), 1.0)
    assert np.allclose(inst.rate(False), 0.5)
    # j11 (job 0): E D M = 4 mini-batches; 2 workers centralised -> 2 slots, distributed -> 4;
    # 1 worker distributed -> 8 (section 4.4's example)
    assert inst.duration(2, True, 0) == 2
    assert inst.duration(2, False, 0) == 4
    assert inst.duration(1, False, 0) == 8


def test_utility_forms_of_theorem_1():
    inst = worked_example()
    assert inst.utility_value(0, 2) == pytest.approx(96.0)  # -2 * 2 + 100
    conv = random_tiny(0, utility="convex")
    c = 3.0
    expected = (conv.utility_scale[1] / c) ** conv.utility_exponent[1]
    assert conv.utility_value(1, c) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("change", "field", "needle"),
    [
        ({"worker_quota": [4, 3]}, "worker_quota", "sums to 7"),
        ({"ps_quota": [2, 3]}, "ps_quota", "sums to 5"),
        ({"worker_bandwidth": 0.0}, "worker_bandwidth", "must be finite and > 0"),
        ({"ps_bandwidth": -1.0}, "ps_bandwidth", "> 0"),
        ({"arrival": [3, -1, 3, 3]}, "arrival", "[1] = -1"),
        ({"compute_time": [0.5, 0.5, -0.5, 0.5]}, "compute_time", "[2] = -0.5"),
        ({"update_time": [0.5, 0.5, 0.5, -1.0]}, "update_time", "[3] = -1.0 is negative"),
        ({"gradient_size": [np.nan, 0.5, 0.5, 0.5]}, "gradient_size", "not finite"),
        ({"owner": [0, 2, 0, 1]}, "owner", "[1] = 2"),
        ({"chunks": [2, 0, 3, 30]}, "chunks", "[1] = 0"),
        ({"utility_slope": [-2.0, 0.5, -2.0, -2.0]}, "utility_slope", "must be < 0"),
        ({"utility_intercept": [100.0, 0.0, 100.0, 100.0]}, "utility_intercept", "[1] = 0.0"),
        ({"utility": "cubic"}, "utility", "cubic"),
        ({"num_slots": 0}, "num_slots", ">= 1"),
        ({"epochs": [2, 2, 2]}, "epochs", "shape"),
        ({"workers": [2, 2, 2, -2], "worker_quota": [2, 2]}, "workers", "[3] = -2"),
    ],
)
def test_bad_input_names_the_field(change, field, needle):
    kwargs = _kwargs(worked_example())
    kwargs.update(change)
    with pytest.raises(InvalidInstanceError) as err:
        TenantInstance(**kwargs)
    assert err.value.field == field
    assert needle in str(err.value)


def test_convex_needs_positive_scale_and_exponent():
    kwargs = _kwargs(random_tiny(1, utility="convex"))
    kwargs["utility_exponent"] = np.zeros(3)
    with pytest.raises(InvalidInstanceError, match="utility_exponent"):
        TenantInstance(**kwargs)


def test_replace_validates_and_rejects_unknown_fields():
    inst = worked_example()
    assert inst.replace(num_slots=40).num_slots == 40
    with pytest.raises(InvalidInstanceError, match="nosuch"):
        inst.replace(nosuch=1)
    with pytest.raises(InvalidInstanceError, match="arrival"):
        inst.replace(arrival=[3, 3, 3, 40])


def test_fair_share_is_the_mean_of_worker_and_ps_shares():
    inst = random_tiny(2)
    share = inst.fair_share()
    assert share.sum() == pytest.approx(1.0)
    assert share[0] == pytest.approx(
        0.5 * (inst.worker_quota[0] / inst.total_workers + inst.ps_quota[0] / inst.total_parameter_servers)
    )


@pytest.mark.parametrize(
    "change, field",
    [({"chunks": [True] * 4}, "chunks"), ({"epochs": [2, 2, True, 2]}, "epochs"),
     ({"workers": np.array([True] * 4)}, "workers"), ({"worker_bandwidth": True}, "worker_bandwidth"),
     ({"compute_time": [0.5, 0.5, 0.5, False]}, "compute_time")],
)
def test_booleans_are_not_numbers(change, field):
    """``chunks=[True] * 4`` was read as ``D = 1``; a bool is rejected, naming the field."""
    kw = {**_kwargs(worked_example()), **change}
    with pytest.raises(InvalidInstanceError, match=field) as info:
        TenantInstance(**kw)
    assert "boolean" in str(info.value)
    assert TenantInstance(**{**kw, field: _kwargs(worked_example())[field]}) == worked_example()


def _fastest_by_enumeration(inst: TenantInstance, j: int) -> int:
    """Fewest slots over every allocation (y, z) obeying (3e), (3g), (3i), (3j) (tiny instances)."""
    import itertools

    best = np.iinfo(np.int64).max
    for y in itertools.product(*[range(int(c) + 1) for c in inst.workers]):
        y = np.array(y)
        W = int(y.sum())
        if W < 1 or W > inst.chunks[j]:
            continue
        for z in itertools.product(*[range(int(c) + 1) for c in inst.parameter_servers]):
            z = np.array(z)
            if z.sum() < 1 or any(z[s] > 0 and (W - y[s]) * inst.worker_bandwidth > z[s] * inst.ps_bandwidth
                                  for s in range(inst.num_servers)):
                continue
            cen = int(((y > 0) | (z > 0)).sum()) == 1
            best = min(best, int(inst.duration(W, cen, j)))
    return best


@pytest.mark.parametrize("seed", range(10))
def test_fastest_run_matches_enumeration(seed):
    """The fastest feasible run respects the PS bandwidth rule (3i)."""
    rng = np.random.default_rng(seed)
    inst = random_tiny(seed, jobs=4, servers=3).replace(
        ps_bandwidth=float(rng.choice([0.4, 1.0, 2.0, 3.0])), parameter_servers=[2, 1, 1], ps_quota=[2, 2],
        chunks=rng.integers(1, 9, size=4))
    got = inst.fastest_run()
    assert got.tolist() == [_fastest_by_enumeration(inst, j) for j in range(inst.num_jobs)]


def test_an_oversized_horizon_is_refused_before_any_array_is_built():
    import tracemalloc

    from aisched.errors import InvalidInstanceError
    from aisched.models.tenants.instance import MAX_SERVER_SLOTS
    from aisched.scenarios.tenants import generate

    inst = generate(seed=0, users=14, servers=100, jobs=200)  # paper scale
    tracemalloc.start()
    with pytest.raises(InvalidInstanceError, match=r"num_slots: = 1000000000 with \d+ servers .* MAX_SERVER_SLOTS"):
        inst.replace(num_slots=10**9)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50 * 2**20  # refused before allocating per-slot state
    assert inst.replace(num_slots=MAX_SERVER_SLOTS // inst.num_servers).num_slots > inst.num_slots
