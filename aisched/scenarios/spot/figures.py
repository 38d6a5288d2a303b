"""Figs. 1-3 of the spot-market paper, drawn by the report from the data and predictors we have.

- **Fig. 1** (:func:`throughput_figure`): throughput vs GPUs. The paper
  measures LLaMA2-7B LoRA throughput on 1-16 A100s; we have no such
  measurement, so the figure draws the model we run: ``H(n) = alpha n + beta``
  (section II-A; the paper job ``H(n) = n``) and the work of a slot right after
  a reconfiguration, ``mu(b) H(n)``, for every bandwidth ``b`` of the scenario
  (:func:`~aisched.scenarios.spot.generator.bandwidth_efficiency`), beside the
  measured single-A100 LoRA throughputs of ``lora_throughput_reference.csv``
  (samples/s, scaled to ``H(1) = 1``) when that file is present.
- **Fig. 2** (:func:`traces_figure`): spot price and availability traces: the
  Vast.ai-like A100 market (``gpu_market_price_availability_2025.csv``, price
  normalised as the "vast" market does), the AWS V100 availability traces
  (``spot_traces/availability_*.json``, 30-minute slots by time) and GCP's A100
  spot / on-demand price ratios (``gcp_gpu_price_weekly.csv``).
- **Fig. 3** (:func:`forecast_figure`): ARIMA forecasts (:func:`~aisched.online.spot.arima`,
  order (2, 0, 1)) of the Vast.ai price and availability against the truth:
  fitted on :data:`FORECAST_HISTORY` slots, then :data:`FORECAST_SLOTS` slots
  forecast 1 and 3 slots ahead; the title gives the mean absolute errors.

A figure whose data file is missing is skipped: the function prints one line
naming the file and returns ``None`` (the report then has no image for it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from aisched._paths import DATA_DIR
from aisched.errors import InvalidScenarioError
from aisched.scenarios.spot.traces import load_gcp_ratios, load_market_csv, load_spot_trace

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["FIGURES", "throughput_figure", "traces_figure", "forecast_figure", "vast_series",
           "FORECAST_HISTORY", "FORECAST_SLOTS"]

#: Slots of history the ARIMA of Fig. 3 is fitted on, and slots forecast after it.
FORECAST_HISTORY = 96
FORECAST_SLOTS = 48


def _skip(name: str, why: str) -> None:
    print(f"spot figure {name!r} skipped: {why}")


def vast_series(data_dir: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The "vast" market's whole price (normalised) and availability series (30-minute slots)."""
    from aisched.scenarios.spot.generator import VAST_SOCKET

    root = Path(DATA_DIR if data_dir is None else data_dir)
    grid = load_market_csv(root / "gpu_market_price_availability_2025.csv", socket_type=VAST_SOCKET)
    scale = float(np.median(grid["price_p90"]))  # the on-demand price (generator.vast_market)
    return grid["price_median"].values / scale, grid["n_available"].values.astype(float)


def throughput_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 1: throughput ``H(n)`` and ``mu(b) H(n)`` vs GPUs ``n = 1..16`` (see the module doc)."""
    from aisched.figures import legend_outside, save, style_axes, subplots
    from aisched.scenarios.spot.generator import bandwidth_efficiency

    n = np.arange(1, 17)
    fig, ax = subplots(width=6.4, height=3.6)
    ax.plot(n, n, "k-", label="H(n) = n (no reconfiguration)")
    bandwidths = [float(v) for v in stored.values] if stored.x == "bandwidth" else []
    for b in bandwidths or [800.0]:
        mu = bandwidth_efficiency(b)
        ax.plot(n, mu * n, "--", label=f"mu H(n) after a change, {b:g} Mbps (mu = {mu})")
    ref = Path(DATA_DIR) / "lora_throughput_reference.csv"
    if ref.is_file():
        df = pd.read_csv(ref)
        one = df[df["gpu"].astype(str).str.contains("A100") & df["gpu"].astype(str).str.endswith("x1")
                 & df["model"].astype(str).str.contains("Llama-2-7B")]
        vals = pd.to_numeric(one["derived_samples_per_s"], errors="coerce").dropna().values
        if vals.size:
            ax.plot(np.ones(vals.size), vals / vals.min(), "o", label="measured 1 x A100 LoRA (scaled)")
    style_axes(ax, title="Fig. 1: throughput vs GPUs (the model we run)", xlabel="GPUs n",
               ylabel="work per 30-minute slot (work units)")
    legend_outside(ax)
    return save(fig, root / "throughput.png")


def traces_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 2: spot price and availability traces from the data folder (see the module doc)."""
    from aisched.figures import legend_outside, save, style_axes, subplots

    data = Path(DATA_DIR)
    try:
        price, avail = vast_series(data)
        traces = sorted((data / "spot_traces").glob("availability_*.json"))
        if not traces:
            raise InvalidScenarioError("trace", f"{data / 'spot_traces'}: no availability_*.json")
        aws = {p.stem: load_spot_trace(p) for p in traces}
        ratios = load_gcp_ratios(data / "gcp_gpu_price_weekly.csv")
    except InvalidScenarioError as exc:
        _skip("traces", str(exc))
        return None
    fig, axes = subplots(2, 1, width=7.0, height=5.0, sharex=True)
    days = np.arange(price.size) / 48
    axes[0].plot(days, price, lw=0.7, label="Vast.ai A100 median price / p90 scale")
    axes[0].axhline(float(np.median(ratios)), color="C1", ls="--", lw=0.8,
                    label=f"GCP A100 spot/on-demand ratio (median {np.median(ratios):.2f})")
    style_axes(axes[0], title="Fig. 2: spot price and availability traces", ylabel="spot price / on-demand price")
    legend_outside(axes[0])
    axes[1].plot(days, avail, lw=0.7, label="Vast.ai A100 available")
    for i, (name, series) in enumerate(aws.items()):
        axes[1].plot(np.arange(series.size) / 48, series, lw=0.7, color=f"C{i + 1}",
                     label=f"AWS {name.split('_', 2)[-1]}")
    style_axes(axes[1], xlabel="day (30-minute slots)", ylabel="available GPUs")
    legend_outside(axes[1])
    return save(fig, root / "traces.png")


def forecast_errors(history: int = FORECAST_HISTORY, slots: int = FORECAST_SLOTS,
                    start: int = 0) -> dict[str, np.ndarray]:
    """ARIMA forecasts of the Vast.ai series against the truth (Fig. 3's data).

    Returns ``truth_price``, ``truth_avail`` (``slots`` values) and
    ``price_lead1``, ``price_lead3``, ``avail_lead1``, ``avail_lead3``: the
    forecast made ``k`` slots earlier for each slot (NaN where none was made).
    """
    from aisched.online.spot import arima

    price, avail = vast_series()
    if price.size < start + history + slots:
        raise InvalidScenarioError("slots", f"the market has {price.size} slots, {start + history + slots} needed")
    hp, ha = price[start:start + history], avail[start:start + history]
    tp, ta = price[start + history:start + history + slots], avail[start + history:start + history + slots]
    pf, af = arima(history_price=hp, history_available=ha).forecast(tp, ta, slots, 3)
    out = {"truth_price": tp, "truth_avail": ta}
    for k in (1, 3):
        p = np.full(slots, np.nan)
        a = np.full(slots, np.nan)
        p[k:], a[k:] = pf[: slots - k, k], af[: slots - k, k]
        out[f"price_lead{k}"], out[f"avail_lead{k}"] = p, a
    return out


def forecast_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 3: ARIMA forecasts 1 and 3 slots ahead against the truth (see the module doc)."""
    from aisched.figures import legend_outside, save, style_axes, subplots

    try:
        f = forecast_errors()
    except InvalidScenarioError as exc:
        _skip("forecast", str(exc))
        return None
    fig, axes = subplots(2, 1, width=7.0, height=5.0, sharex=True)
    x = np.arange(FORECAST_SLOTS)
    for ax, key, label in ((axes[0], "price", "spot price / on-demand price"), (axes[1], "avail", "available GPUs")):
        ax.plot(x, f[f"truth_{key}"], "k-", lw=1, label="truth")
        for k, style in ((1, "--"), (3, ":")):
            err = np.nanmean(np.abs(f[f"{key}_lead{k}"] - f[f"truth_{key}"]))
            ax.plot(x, f[f"{key}_lead{k}"], style, label=f"ARIMA(2,0,1), {k} slot(s) ahead (MAE {err:.3g})")
        style_axes(ax, ylabel=label)
        legend_outside(ax)
    style_axes(axes[1], xlabel=f"slot after {FORECAST_HISTORY} slots of history")
    style_axes(axes[0], title="Fig. 3: ARIMA forecasts vs the truth (Vast.ai A100 market)")
    return save(fig, root / "forecast.png")


#: Words with units for the spot family's figure axes (:func:`aisched.figures.label`).
LABELS = {
    "objective": "utility (money units)",
    "deadline": "soft deadline d (30-minute slots)",
    "bandwidth": "bandwidth (Mbps)",
    "market": "market",
    "mean_available": "mean available spot GPUs",
    "mean_price": "mean spot price / on-demand price",
    "noise": "prediction noise",
    "phases": "phases of the workload",
    "regret_to_bound": "regret / Theorem 2's bound",
    "best_fixed": "mean utility per job of the best fixed policy in hindsight (money units)",
    "regret": "regret of the selection (normalised utility per job)",
}

#: Figs. 1-3 (``Scenario.figures`` of the spot family; joined with the selection figures in ``spot.FIGURES``).
FIGURES: dict[str, Callable[[Path, StoredScenario, pd.DataFrame], Path | None]] = {
    "throughput": throughput_figure,
    "traces": traces_figure,
    "forecast": forecast_figure,
}
