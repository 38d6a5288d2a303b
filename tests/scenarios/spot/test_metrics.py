"""spot's mechanism diagnostics of a cell, by hand."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import xarray as xr

from aisched.scenarios import spot as spot_sc
from aisched.scenarios.spot.metrics import gpus_needed, market_statistics


def _market(available, price, *, deadline, work=12.0, min_gpus=1, max_gpus=6):
    return SimpleNamespace(spot_available=np.array(available), spot_price=np.array(price, float),
                           on_demand_price=2.0, deadline=deadline, work=work, min_gpus=min_gpus,
                           max_gpus=max_gpus, throughput=lambda n: np.asarray(n, float))


def test_spot_share_switches_and_preemptions_by_hand() -> None:
    plan = xr.Dataset({"on_demand": ("slot", [2, 2, 0, 0, 1, 0]), "spot": ("slot", [0, 3, 3, 4, 0, 0])})
    instance = _market([5, 5, 4, 2, 6, 6], [0.5] * 6, deadline=4)
    got = spot_sc.cell_metrics(instance, SimpleNamespace(plan=plan))
    assert got["spot_share"] == pytest.approx(10 / 15)
    # kinds: od, both, spot, spot, od, idle -> od>both>spot, spot>od: 3 changes among the busy slots
    assert got["switches"] == 3.0
    # spot held in slot t vs offered in t+1: 0/5, 3/4, 3/2 (taken away), 4/6, 0/6
    assert got["preemptions"] == 1.0


def test_market_statistics_by_hand() -> None:
    # work 12 by deadline 4 at H(n) = n: 3 GPUs needed; slots before the deadline: 5, 5, 4, 2
    inst = _market([5, 5, 4, 2, 6, 1, 0], [0.5, 1.0, 1.5, 1.0, 9.0, 9.0, 9.0], deadline=4)
    assert gpus_needed(inst) == 3
    got = market_statistics(inst)
    assert got["spot_price_ratio"] == pytest.approx((0.5 + 1.0 + 1.5 + 1.0) / 4 / 2.0)
    assert got["spot_above_need"] == pytest.approx((2 + 2 + 1 - 1) / 4)
    assert got["spot_covers_need"] == pytest.approx(3 / 4)
    # drops over the whole horizon: 5->4, 4->2, 6->1, 1->0 = 4 in 6 steps, per 48 slots
    assert got["drops_per_day"] == pytest.approx(4 * 48 / 6)
    # no GPU count finishes in time: N_max is the need
    assert gpus_needed(_market([1] * 3, [0.1] * 3, deadline=1, work=100.0)) == 6


def test_market_statistics_of_the_paper_job() -> None:
    inst = spot_sc.generate(seed=0, deadline=10, market="synthetic")
    got = spot_sc.cell_metrics(inst, SimpleNamespace(plan=xr.Dataset(
        {"on_demand": ("slot", np.zeros(inst.num_slots, int)), "spot": ("slot", np.zeros(inst.num_slots, int))})))
    assert gpus_needed(inst) == 8
    assert got["spot_price_ratio"] == pytest.approx(inst.spot_price[:10].mean())
    assert got["spot_above_need"] == pytest.approx(inst.spot_available[:10].mean() - 8)
