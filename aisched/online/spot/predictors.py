"""Forecasts of the spot price and availability (section II-C, VI-A "Prediction Noise").

A predictor turns the true market series of a job into a forecast table:
``forecast(price, available, slots, lead) -> (price_fc, available_fc)``, both of
shape ``(slots, lead + 1)``, where row ``t`` holds what is known at slot ``t``
about slots ``t, t+1, ..., t+lead`` (the paper's ``p^s_{t+tau|t}``,
``n^avail_{t+tau|t}``). Choices (the paper leaves them open):

- the current slot (``tau = 0``) is observed, not predicted: column 0 is the
  truth for every predictor (section III-E: "we only have access to the
  current and historical prices and availability");
- availability forecasts are rounded to integers and clipped to ``>= 0``;
  price forecasts are clipped to ``>= 0``;
- slots past the end of the series repeat its last value.

Noise settings (:func:`noisy`), with ``e`` the error level and ``eps`` a draw:
``kind="magnitude"``: ``x (1 + e eps)`` (magnitude-dependent);
``kind="fixed"``: ``x + e s eps`` with ``s`` the series' mean (fixed magnitude);
``dist="uniform"``: ``eps ~ U[-1, 1]``; ``dist="heavy"``: ``eps`` Student-t
with 2 degrees of freedom scaled by ``1/2`` and clipped to ``[-10, 10]``
(heavy-tailed, same median absolute size as U[-1, 1] roughly). Draws are
seeded; one draw per (slot, lead) entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError

__all__ = ["Predictor", "perfect", "noisy", "constant", "arima", "truth_table"]


class Predictor(Protocol):
    """What AHAP needs of a forecaster."""

    name: str

    def forecast(self, price: np.ndarray, available: np.ndarray, slots: int, lead: int,
                 *, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]: ...


def truth_table(series: np.ndarray, slots: int, lead: int) -> np.ndarray:
    """``out[t, tau] = series[min(t + tau, len - 1)]`` (shape ``(slots, lead + 1)``)."""
    series = np.asarray(series)
    idx = np.minimum(np.arange(slots)[:, None] + np.arange(lead + 1)[None, :], series.size - 1)
    return series[idx]


def _finish(price: np.ndarray, avail: np.ndarray, true_p: np.ndarray, true_a: np.ndarray):
    price = np.maximum(price, 0.0)
    avail = np.maximum(np.round(avail), 0).astype(np.int64)
    price[:, 0], avail[:, 0] = true_p[:, 0], true_a[:, 0]
    return price, avail


@dataclass(frozen=True)
class _Perfect:
    name: str = "perfect"

    def forecast(self, price, available, slots, lead, *, seed=None):
        return truth_table(price, slots, lead).astype(float), truth_table(available, slots, lead)


def perfect() -> _Perfect:
    """Perfect foresight: the forecast is the truth."""
    return _Perfect()


@dataclass(frozen=True)
class _Noisy:
    error: float
    kind: str
    dist: str
    seed: int
    name: str = "noisy"

    def forecast(self, price, available, slots, lead, *, seed=None):
        rng = np.random.default_rng(self.seed if seed is None else [self.seed, seed])
        tp = truth_table(price, slots, lead).astype(float)
        ta = truth_table(available, slots, lead).astype(float)
        out = []
        for table, series in ((tp, price), (ta, available)):
            if self.dist == "uniform":
                eps = rng.uniform(-1.0, 1.0, size=table.shape)
            else:
                eps = np.clip(rng.standard_t(2.0, size=table.shape) / 2.0, -10.0, 10.0)
            if self.kind == "magnitude":
                out.append(table * (1.0 + self.error * eps))
            else:
                out.append(table + self.error * float(np.mean(series)) * eps)
        return _finish(out[0], out[1], tp, ta.astype(np.int64))


def noisy(error: float, kind: str = "fixed", dist: str = "uniform", seed: int = 0) -> _Noisy:
    """The paper's four noise settings: ``kind`` "fixed" | "magnitude", ``dist`` "uniform" | "heavy".

    Raises
    ------
    InvalidScenarioError
        For a negative or non-finite ``error`` or an unknown ``kind`` / ``dist``.
    """
    if not (np.isfinite(error) and error >= 0):
        raise InvalidScenarioError("error", f"= {error} must be a finite number >= 0")
    one_of("kind", kind, ("fixed", "magnitude"))
    one_of("dist", dist, ("uniform", "heavy"))
    return _Noisy(float(error), kind, dist, int(seed))


@dataclass(frozen=True)
class _Constant:
    price: float | None
    available: int | None
    name: str = "constant"

    def forecast(self, price, available, slots, lead, *, seed=None):
        tp = truth_table(price, slots, lead).astype(float)
        ta = truth_table(available, slots, lead)
        p = np.repeat(tp[:, :1], lead + 1, axis=1) if self.price is None else np.full_like(tp, self.price)
        a = (np.repeat(ta[:, :1], lead + 1, axis=1) if self.available is None
             else np.full_like(ta, self.available))
        return _finish(p, a.astype(float), tp, ta)


def constant(price: float | None = None, available: int | None = None) -> _Constant:
    """A constant forecast (Fig. 4 uses 6 available spot GPUs); ``None`` repeats the current value."""
    if price is not None and not (np.isfinite(price) and price >= 0):
        raise InvalidScenarioError("price", f"= {price} must be >= 0")
    if available is not None and not (int(available) == available and available >= 0):
        raise InvalidScenarioError("available", f"= {available} must be an integer >= 0")
    return _Constant(price, None if available is None else int(available))


@dataclass(frozen=True)
class _Arima:
    order: tuple[int, int, int]
    history_price: np.ndarray | None
    history_available: np.ndarray | None
    min_history: int
    name: str = "arima"

    def _one(self, history: np.ndarray | None, series: np.ndarray, slots: int, lead: int) -> np.ndarray:
        import warnings

        from statsmodels.tsa.arima.model import ARIMA

        hist = np.zeros(0) if history is None else np.asarray(history, float)
        table = truth_table(series, slots, lead).astype(float)
        fitted = None
        for t in range(slots):
            observed = np.concatenate([hist, np.asarray(series[: t + 1], float)])
            if observed.size < self.min_history or np.ptp(observed) == 0:
                table[t, 1:] = observed[-1]  # too little (or flat) history: persistence
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if fitted is None:
                    fitted = ARIMA(observed, order=self.order).fit()
                    res = fitted
                else:
                    res = fitted.apply(observed)  # same parameters, state filtered on all data
                table[t, 1:] = res.forecast(lead)
        return table

    def forecast(self, price, available, slots, lead, *, seed=None):
        tp = truth_table(price, slots, lead).astype(float)
        ta = truth_table(available, slots, lead)
        p = self._one(self.history_price, price, slots, lead)
        a = self._one(self.history_available, available, slots, lead)
        return _finish(p, a, tp, ta)


def arima(order: tuple[int, int, int] = (2, 0, 1), history_price: np.ndarray | None = None,
          history_available: np.ndarray | None = None, min_history: int = 8) -> _Arima:
    """ARIMA forecasts (statsmodels) fitted once on the history before the job plus its first slot.

    Parameters are fitted on ``history + [slot 0]``; at later slots the same
    parameters are re-filtered on everything observed (``ARIMAResults.apply``).
    With fewer than ``min_history`` observations the forecast is persistence.
    """
    if len(order) != 3 or any(int(o) != o or o < 0 for o in order):
        raise InvalidScenarioError("order", f"= {order!r} must be three integers >= 0")
    return _Arima(tuple(int(o) for o in order), history_price, history_available, int(min_history))
