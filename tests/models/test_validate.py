"""The shared Instance validation: a number field never reads a boolean as 0 or 1."""

from __future__ import annotations

import numpy as np
import pytest
from lora_tiny import random_tiny

from aisched.errors import InvalidInstanceError
from aisched.models import lora
from aisched.models._validate import as_array


@pytest.mark.parametrize("dtype", [int, float])
@pytest.mark.parametrize(("value", "where"), [
    ([1, True, 3], "[1] = True"), (np.array([False, True]), "[0] = False"), ([[2.0, 1.0], [0.5, False]], "[1, 1] = False"),
])
def test_booleans_are_not_numbers(dtype: type, value: object, where: str) -> None:
    with pytest.raises(InvalidInstanceError) as info:
        as_array("work", value, np.asarray(value).shape, dtype)
    assert str(info.value) == f"work: {where} is a boolean, not a number"


def test_plain_numbers_and_boolean_fields_still_read() -> None:
    assert as_array("work", [1, 2], (2,), float).tolist() == [1.0, 2.0]
    assert as_array("flag", [True, 0], (2,), bool).tolist() == [True, False]


def test_an_instance_names_the_boolean_field() -> None:
    inst = random_tiny(0, tasks=3)
    fields = {name: getattr(inst, name) for name in ("num_slots", "compute_capacity", "memory_capacity",
                                                     "base_memory", "gpu_type", "arrival", "deadline",
                                                     "memory_need", "work", "needs_preprocessing", "bid",
                                                     "throughput", "vendor_price", "vendor_delay")}
    use, price = inst.energy_factors()
    bids = [True, *inst.bid[1:].tolist()]
    with pytest.raises(InvalidInstanceError, match=r"^bid: \[0\] = True is a boolean, not a number"):
        lora.LoraInstance(**{**fields, "bid": bids}, energy_use=use, energy_price=price)
