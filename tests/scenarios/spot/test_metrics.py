"""spot's mechanism diagnostics of a cell (issue 25, point 3), by hand."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import xarray as xr

from aisched.scenarios import spot as spot_sc


def test_spot_share_switches_and_preemptions_by_hand() -> None:
    plan = xr.Dataset({"on_demand": ("slot", [2, 2, 0, 0, 1, 0]), "spot": ("slot", [0, 3, 3, 4, 0, 0])})
    instance = SimpleNamespace(spot_available=np.array([5, 5, 4, 2, 6, 6]))
    got = spot_sc.cell_metrics(instance, SimpleNamespace(plan=plan))
    assert got["spot_share"] == pytest.approx(10 / 15)
    # kinds: od, both, spot, spot, od, idle -> od>both>spot, spot>od: 3 changes among the busy slots
    assert got["switches"] == 3.0
    # spot held in slot t vs offered in t+1: 0/5, 3/4, 3/2 (taken away), 4/6, 0/6
    assert got["preemptions"] == 1.0
