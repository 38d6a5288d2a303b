"""Predictors: shapes, truth at lead 0, noise settings, seeding, ARIMA (small)."""

from __future__ import annotations

import numpy as np
import pytest

from aisched.errors import InvalidScenarioError
from aisched.online.spot import arima, constant, noisy, perfect

PRICE = np.round(0.5 + 0.2 * np.sin(np.arange(40) / 3), 3)
AVAIL = (8 + 4 * np.sin(np.arange(40) / 5)).round().astype(int)


def test_perfect_is_the_truth():
    p, a = perfect().forecast(PRICE, AVAIL, 10, 3)
    assert p.shape == (10, 4) and a.shape == (10, 4)
    assert p[2, 3] == PRICE[5] and a[4, 1] == AVAIL[5]


@pytest.mark.parametrize("kind", ["fixed", "magnitude"])
@pytest.mark.parametrize("dist", ["uniform", "heavy"])
def test_noise_settings(kind, dist):
    pred = noisy(0.2, kind=kind, dist=dist, seed=3)
    p, a = pred.forecast(PRICE, AVAIL, 10, 3)
    tp, ta = perfect().forecast(PRICE, AVAIL, 10, 3)
    np.testing.assert_array_equal(p[:, 0], tp[:, 0])  # current slot observed
    assert (p >= 0).all() and (a >= 0).all() and a.dtype.kind == "i"
    assert not np.allclose(p[:, 1:], tp[:, 1:])
    p2, _ = pred.forecast(PRICE, AVAIL, 10, 3)
    np.testing.assert_array_equal(p, p2)  # seeded
    if kind == "fixed" and dist == "uniform":
        assert np.abs(p - tp).max() <= 0.2 * PRICE.mean() + 1e-12


def test_magnitude_noise_scales_with_error():
    tp, _ = perfect().forecast(PRICE, AVAIL, 10, 3)
    small, _ = noisy(0.05, kind="magnitude", seed=1).forecast(PRICE, AVAIL, 10, 3)
    big, _ = noisy(0.5, kind="magnitude", seed=1).forecast(PRICE, AVAIL, 10, 3)
    assert np.abs(small - tp).mean() < np.abs(big - tp).mean()


def test_constant_forecast():
    p, a = constant(available=6).forecast(PRICE, AVAIL, 5, 2)
    assert (a[:, 1:] == 6).all() and a[0, 0] == AVAIL[0]
    np.testing.assert_allclose(p[:, 1], PRICE[:5])


def test_arima_small():
    pred = arima(order=(1, 0, 0), history_price=PRICE[:20], history_available=AVAIL[:20])
    p, a = pred.forecast(PRICE[20:], AVAIL[20:], 3, 2)
    assert p.shape == (3, 3) and np.isfinite(p).all()
    assert np.abs(p[:, 1:] - PRICE[21:24][:, None].mean()).max() < 1.0


def test_bad_predictor_parameters():
    with pytest.raises(InvalidScenarioError, match="error"):
        noisy(-0.1)
    with pytest.raises(InvalidScenarioError, match="kind"):
        noisy(0.1, kind="weird")
    with pytest.raises(InvalidScenarioError, match="dist"):
        noisy(0.1, dist="cauchy")
