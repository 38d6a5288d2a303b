"""SpotInstance: validation, the value function (4), V~ (9) and the netCDF round trip."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from spot_tiny import tiny

from aisched.errors import InfeasiblePlanError, InvalidInstanceError
from aisched.models.spot import SpotInstance, make_plan


def _kw(**over):
    kw = dict(work=8.0, deadline=3, min_gpus=1, max_gpus=3, value=16.0, hard_deadline_factor=2.0,
              spot_price=np.full(6, 0.5), spot_available=np.full(6, 2))
    kw.update(over)
    return kw


@pytest.mark.parametrize("over, field", [
    ({"min_gpus": 4}, "max_gpus"),
    ({"spot_price": np.array([0.5, -1, 0.5, 0.5, 0.5, 0.5])}, "spot_price"),
    ({"spot_price": np.array([0.5, np.nan, 0.5, 0.5, 0.5, 0.5])}, "spot_price"),
    ({"spot_available": np.array([1, 2, 3])}, "spot_available"),
    ({"spot_price": np.full(4, 0.5), "spot_available": np.full(4, 1)}, "spot_available"),
    ({"hard_deadline_factor": 1.0}, "hard_deadline_factor"),
    ({"work": float("nan")}, "work"),
    ({"scale_up_efficiency": 0.95, "scale_down_efficiency": 0.9}, "scale_down_efficiency"),
    ({"deadline": 2.5}, "deadline"),
])
def test_bad_input_names_the_field(over, field):
    with pytest.raises(InvalidInstanceError) as err:
        SpotInstance(**_kw(**over))
    assert err.value.field == field
    assert field in str(err.value)


def test_short_series_message_mentions_hard_deadline():
    with pytest.raises(InvalidInstanceError, match="hard deadline"):
        SpotInstance(**_kw(spot_price=np.full(5, 0.5), spot_available=np.full(5, 1)))


def test_value_function_pieces():
    inst = SpotInstance(**_kw())
    # (4): v up to d, linear to 0 at gamma d = 6, then 0
    assert inst.value_at(3) == 16.0
    assert inst.value_at(4) == pytest.approx(16.0 * (1 - 1 / 3))
    assert inst.value_at(6) == 0.0


def test_value_after_deadline_matches_termination():
    inst = SpotInstance(**_kw())
    # H(3) = 3; remaining 8 - 2 = 6: first slot 2.7, second 3 -> 5.7 < 6 -> 3 slots
    assert int(inst.termination_slots(6.0)) == 3
    assert inst.value_after_deadline(2.0) == pytest.approx(float(inst.value_at(6)) - 3 * 3)
    thresholds, values = inst.terminal_steps(0.0)
    assert thresholds[0] == 8.0 and values[0] == 16.0 and thresholds[-1] <= 0


def test_netcdf_round_trip(tmp_path):
    inst = tiny(3)
    path = tmp_path / "i.nc"
    inst.to_dataset().to_netcdf(path, engine="netcdf4")
    with xr.open_dataset(path, engine="netcdf4") as ds:
        back = SpotInstance.from_dataset(ds.load())
    assert back == inst


def test_verify_plan_errors():
    inst = SpotInstance(**_kw())
    ok = make_plan(inst, [1, 1, 1, 0, 0, 0], [2, 2, 2, 0, 0, 0])  # work 2.7 + 3 + 3 >= 8
    assert inst.verify_plan(ok) == pytest.approx(16.0 - 3.0 - 3.0)
    with pytest.raises(InfeasiblePlanError, match=r"\(5b\)"):
        inst.verify_plan(make_plan(inst, [0, 0, 0, 0, 0, 0], [3, 3, 3, 0, 0, 0]))
    with pytest.raises(InfeasiblePlanError, match=r"\(5a\)"):
        inst.verify_plan(make_plan(inst, [1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]))
    with pytest.raises(InfeasiblePlanError, match=r"\(5c\)"):
        inst.verify_plan(make_plan(inst, [4, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]))
    bad = ok.copy()
    bad["completion"] = ((), np.int64(1))
    with pytest.raises(InfeasiblePlanError, match="completion"):
        inst.verify_plan(bad)
