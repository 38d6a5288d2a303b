"""Figs. 1-3 of the spot paper (aisched.scenarios.spot.figures): drawn from the data, skipped without it."""

from __future__ import annotations

import numpy as np
import pytest

from aisched._paths import DATA_DIR
from aisched.experiments.store.stored import StoredScenario
from aisched.scenarios import spot
from aisched.scenarios.spot import figures as spot_figures

VAST = DATA_DIR / "gpu_market_price_availability_2025.csv"
needs_data = pytest.mark.skipif(not VAST.is_file(), reason=f"{VAST} is missing")


def test_the_family_hook_lists_figs_1_to_3_and_the_selection_figures():
    assert {"throughput", "traces", "forecast", "convergence", "policy_weights"} <= set(spot.FIGURES)


def test_throughput_figure_is_drawn(tmp_path):
    stored = StoredScenario(name="spot/t", family="spot", x="bandwidth", values=[100.0, 800.0])
    path = spot.FIGURES["throughput"](tmp_path, stored, None)
    assert path is not None and path.is_file() and path.stat().st_size > 0


@needs_data
def test_traces_figure_is_drawn(tmp_path):
    path = spot.FIGURES["traces"](tmp_path, StoredScenario(name="spot/t", family="spot", x="market",
                                                           values=["vast"]), None)
    assert path is not None and path.is_file()


def test_figures_are_skipped_with_a_message_without_data(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(spot_figures, "DATA_DIR", tmp_path / "nowhere")
    stored = StoredScenario(name="spot/t", family="spot", x="market", values=["vast"])
    assert spot_figures.traces_figure(tmp_path, stored, None) is None
    assert spot_figures.forecast_figure(tmp_path, stored, None) is None
    out = capsys.readouterr().out
    assert "'traces' skipped" in out and "'forecast' skipped" in out
    assert "gpu_market_price_availability_2025.csv" in out


@needs_data
def test_forecast_data_is_the_truth_and_aligned_arima_forecasts():
    f = spot_figures.forecast_errors(history=40, slots=8, start=100)
    price, avail = spot_figures.vast_series()
    np.testing.assert_array_equal(f["truth_price"], price[140:148])
    np.testing.assert_array_equal(f["truth_avail"], avail[140:148])
    for key in ("price", "avail"):
        assert np.isnan(f[f"{key}_lead1"][:1]).all() and np.isfinite(f[f"{key}_lead1"][1:]).all()
        assert np.isnan(f[f"{key}_lead3"][:3]).all() and np.isfinite(f[f"{key}_lead3"][3:]).all()
    # a forecast is not the truth it forecasts (ARIMA sees only the slots before it)
    assert not np.array_equal(f["price_lead3"][3:], f["truth_price"][3:]) or np.ptp(price[100:148]) == 0


@needs_data
def test_forecast_needs_enough_slots():
    from aisched.errors import InvalidScenarioError

    with pytest.raises(InvalidScenarioError, match="slots"):
        spot_figures.forecast_errors(history=40, slots=8, start=10**7)
