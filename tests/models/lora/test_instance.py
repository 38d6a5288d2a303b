"""LoraInstance: fields, validation naming the field, energy factorisation, round trips."""

from dataclasses import fields

import numpy as np
import pytest
import xarray as xr
from lora_tiny import random_tiny

from aisched.errors import InvalidInstanceError
from aisched.models.lora import LoraInstance
from aisched.models.lora.instance import VALUE_BOUNDS

PUBLIC = {
    "num_slots", "compute_capacity", "memory_capacity", "base_memory", "gpu_type", "arrival",
    "deadline", "memory_need", "work", "needs_preprocessing", "bid", "throughput",
    "vendor_price", "vendor_delay",
}


def _kwargs(inst: LoraInstance) -> dict:
    kw = {name: getattr(inst, name) for name in PUBLIC}
    kw["energy_use"], kw["energy_price"] = inst.energy_factors()
    return kw


def test_public_fields_are_exactly_the_papers():
    """The paper's symbols, plus the declared value-per-unit bounds Lemma 2's alpha/beta rest on."""
    names = {f.name for f in fields(LoraInstance) if not f.name.startswith("_")}
    assert names == PUBLIC | set(VALUE_BOUNDS)


def test_energy_cost_is_the_product_of_its_factors():
    inst = random_tiny(3)
    use, price = inst.energy_factors()
    for i in range(inst.num_tasks):
        np.testing.assert_allclose(inst.energy_cost(i), use[i][:, None] * price)
        assert inst.energy_cost(i).shape == (inst.num_nodes, inst.num_slots)
    with pytest.raises(InvalidInstanceError, match="task"):
        inst.energy_cost(inst.num_tasks)


def test_arrays_are_read_only():
    inst = random_tiny(0)
    with pytest.raises(ValueError):
        inst.bid[0] = 1.0


@pytest.mark.parametrize(
    ("field", "bad", "needle"),
    [
        ("compute_capacity", lambda kw: np.array([-1.0, 4.0]), "compute_capacity: [0] = -1.0"),
        ("memory_capacity", lambda kw: np.array([0.5, 8.0]), "memory_capacity"),
        ("memory_capacity", lambda kw: np.array([1.0, 8.0]), "not above base_memory"),
        ("deadline", lambda kw: np.where(np.arange(3) == 1, -0, kw["arrival"] - 1), "deadline"),
        ("bid", lambda kw: np.array([1.0, np.nan, 2.0]), "bid: [1] = nan is not finite"),
        ("bid", lambda kw: np.array([1.0, 2.0, -3.0]), "bid: [2] = -3.0 is negative"),
        ("throughput", lambda kw: np.ones((3, 3)), "throughput: has shape (3, 3), expected (3, 2)"),
        ("work", lambda kw: np.array([1.0, 0.0, 2.0]), "work: [1] = 0.0 must be > 0"),
        ("memory_need", lambda kw: np.array([1.0, 2.0]), "memory_need: has shape (2,)"),
        ("arrival", lambda kw: np.array([0, 9, 1]), "arrival: [1] = 9 is outside slots 0..3"),
        ("vendor_delay", lambda kw: np.full((3, 2), 1.5), "vendor_delay: [0, 0] = 1.5 is not an integer"),
        ("vendor_delay", lambda kw: np.full((3, 2), -1), "vendor_delay: [0, 0] = -1"),
        ("vendor_price", lambda kw: np.full((3, 2), np.inf), "vendor_price: [0, 0] = inf"),
        ("energy_price", lambda kw: np.ones((2, 5)), "energy_price: has shape (2, 5)"),
        ("energy_use", lambda kw: -np.ones((3, 2)), "energy_use: [0, 0] = -1.0 is negative"),
        ("base_memory", lambda kw: float("nan"), "base_memory"),
        ("needs_preprocessing", lambda kw: np.array([0, 2, 1]), "needs_preprocessing: [1] = 2"),
        ("num_slots", lambda kw: 0, "num_slots"),
    ],
)
def test_each_invalid_field_is_named(field, bad, needle):
    inst = random_tiny(1, tasks=3, nodes=2, slots=4, vendors=2)
    kw = _kwargs(inst)
    kw[field] = bad(kw)
    if field == "deadline":
        kw["arrival"] = np.array([1, 2, 3])
        kw["deadline"] = np.array([1, 1, 3])
        needle = "deadline: [1] = 1 is before arrival[1] = 2"
    with pytest.raises(InvalidInstanceError) as info:
        LoraInstance(**kw)
    assert needle in str(info.value)
    assert info.value.field == field


def test_preprocessing_without_vendors_is_rejected():
    inst = random_tiny(2, vendors=0)
    kw = _kwargs(inst)
    kw["needs_preprocessing"] = np.array([False, True, False])
    with pytest.raises(InvalidInstanceError, match=r"needs_preprocessing: \[1\] = True but the instance has no vendors"):
        LoraInstance(**kw)


def test_netcdf_round_trip_is_exact(tmp_path):
    inst = random_tiny(4)
    path = tmp_path / "inst.nc"
    inst.to_dataset().to_netcdf(path, engine="netcdf4")
    with xr.open_dataset(path, engine="netcdf4") as ds:
        back = LoraInstance.from_dataset(ds.load())
    assert back == inst
    assert back.gpu_type.tolist() == inst.gpu_type.tolist()
    assert back.needs_preprocessing.dtype == bool


def test_subset_and_with_bid():
    inst = random_tiny(5, tasks=3)
    sub = inst.subset([2, 0], vendor=[1, 0])
    assert sub.num_tasks == 2 and sub.num_vendors == 1
    assert sub.vendor_price[0, 0] == inst.vendor_price[2, 1]
    assert sub.vendor_delay[1, 0] == inst.vendor_delay[0, 0]
    np.testing.assert_array_equal(sub.energy_cost(0), inst.energy_cost(2))
    rebid = inst.with_bid(1, 123.0)
    assert rebid.bid[1] == 123.0 and inst.bid[1] != 123.0
    assert rebid.bid[0] == inst.bid[0]


def test_earliest_start_applies_delay_only_with_preprocessing():
    inst = random_tiny(6, tasks=3)
    start = inst.earliest_start()
    for i in range(3):
        expect = inst.arrival[i] + (inst.vendor_delay[i] if inst.needs_preprocessing[i] else 0)
        np.testing.assert_array_equal(start[i], expect)


def test_fewest_slots_is_work_over_the_fastest_node():
    inst = random_tiny(8, tasks=3)
    expect = np.ceil(inst.work / inst.throughput.max(axis=1))
    np.testing.assert_array_equal(inst.fewest_slots(), expect)
    stuck = inst.replace(throughput=np.zeros_like(inst.throughput))
    np.testing.assert_array_equal(stuck.fewest_slots(), [0, 0, 0])
