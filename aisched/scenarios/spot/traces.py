"""Loaders of the real market traces used by :mod:`aisched.scenarios.spot`.

- ``gpu_market_price_availability_2025.csv`` (Vast.ai-like market, ~30 min
  snapshots): price and availability of one GPU type on the paper's 30-minute
  grid (:func:`load_market_csv`);
- ``spot_traces/*.json`` (AWS V100 availability, ``{"metadata": {"gap_seconds"},
  "data": [...]}``) resampled to 30 minutes (:func:`load_spot_trace`);
- ``gcp_gpu_price_weekly.csv``: spot / on-demand price ratios (:func:`load_gcp_ratios`).

Every loader raises :class:`~aisched.errors.InvalidScenarioError` naming the
file and what is wrong (missing file, column, bad value) before returning.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError

__all__ = ["load_market_csv", "load_spot_trace", "load_gcp_ratios", "SLOT_SECONDS", "Resample"]

SLOT_SECONDS = 1800
#: Readings of the 30-minute resampling of a tick trace (see :func:`load_spot_trace`).
Resample = Literal["by_time", "by_ticks"]
_MARKET_COLUMNS = ("timestamp", "gpu_type", "n_available", "price_median", "price_p90")


def _read_csv(path: Path, field: str) -> pd.DataFrame:
    if not Path(path).is_file():
        raise InvalidScenarioError(field, f"{path}: no such file")
    try:
        return pd.read_csv(path)
    except Exception as exc:  # pandas raises many types on malformed files
        raise InvalidScenarioError(field, f"{path}: not a readable CSV ({exc})") from None


def load_market_csv(path: str | Path, gpu_type: str = "A100_80GB", socket_type: str | None = "SXM4") -> pd.DataFrame:
    """Price and availability of ``gpu_type`` (one ``socket_type``) on a 30-minute grid (forward-filled).

    ``socket_type`` selects one series when the file has a ``socket_type``
    column (the extract lists ``A100_80GB`` twice per snapshot, ``"PCIe"`` and
    ``"SXM4"``; mixing them made one series jump between the two, 5-40 GPUs);
    ``None`` keeps every row (files with one series per GPU type). A file
    without the column is read whole. Returns a DataFrame indexed by slot start
    with columns ``price_median``, ``price_p90``, ``n_available``.
    """
    path = Path(path)
    df = _read_csv(path, "market")
    missing = [c for c in _MARKET_COLUMNS if c not in df.columns]
    if missing:
        raise InvalidScenarioError("market", f"{path}: column {missing[0]!r} is missing")
    df = df[df["gpu_type"] == gpu_type]
    if socket_type is not None and "socket_type" in df.columns:
        df = df[df["socket_type"].astype(str) == socket_type]
    if df.empty:
        where = gpu_type if socket_type is None or "socket_type" not in df.columns else f"{gpu_type} {socket_type}"
        raise InvalidScenarioError("gpu_type", f"{path}: no rows for {where!r}")
    ts = pd.to_datetime(df["timestamp"], errors="coerce")
    if ts.isna().any():
        row = int(np.argmax(ts.isna().values))
        raise InvalidScenarioError("market", f"{path}: row {row} has a bad timestamp {df['timestamp'].iloc[row]!r}")
    vals = df[["price_median", "price_p90", "n_available"]].apply(pd.to_numeric, errors="coerce")
    bad = vals.isna().any(axis=1).values | (vals.values < 0).any(axis=1)
    if bad.any():
        row = int(np.argmax(bad))
        raise InvalidScenarioError("market", f"{path}: row {row} has a missing or negative value")
    vals.index = ts.values
    grid = vals.sort_index().resample(f"{SLOT_SECONDS}s").last().ffill()
    return grid


def load_spot_trace(path: str | Path, resample: Resample = "by_time") -> np.ndarray:
    """Availability counts of an AWS spot trace, resampled to 30-minute slots (minimum per slot).

    ``resample``: ``"by_time"`` (default): slot ``k`` is the time
    ``[1800 k, 1800 (k + 1))`` s and takes the minimum of every tick
    ``[gap i, gap (i + 1))`` that overlaps it; only whole slots inside the
    trace are kept. ``"by_ticks"``: the previous reading, groups of
    ``round(1800 / gap)`` ticks (for 195-s ticks, 9 ticks = 29.25-minute
    slots, so time runs 2.5 % fast).
    """
    one_of("resample", resample, Resample)
    path = Path(path)
    if not path.is_file():
        raise InvalidScenarioError("trace", f"{path}: no such file")
    try:
        raw = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidScenarioError("trace", f"{path}: not valid JSON ({exc})") from None
    if not isinstance(raw, dict) or "data" not in raw or "metadata" not in raw:
        raise InvalidScenarioError("trace", f"{path}: expected keys 'metadata' and 'data'")
    gap = raw["metadata"].get("gap_seconds") if isinstance(raw["metadata"], dict) else None
    if not isinstance(gap, (int, float)) or gap <= 0:
        raise InvalidScenarioError("trace", f"{path}: metadata.gap_seconds = {gap!r} must be > 0")
    data = raw["data"]
    if not isinstance(data, list) or not data:
        raise InvalidScenarioError("trace", f"{path}: 'data' must be a non-empty list")
    arr = np.asarray([x if isinstance(x, (int, float)) and not isinstance(x, bool) else np.nan
                      for x in data], float)
    bad = ~np.isfinite(arr) | (arr < 0)
    if bad.any():
        i = int(np.argmax(bad))
        raise InvalidScenarioError("trace", f"{path}: data[{i}] = {data[i]!r} is not a count >= 0")
    if resample == "by_ticks":
        per = max(1, int(round(SLOT_SECONDS / gap)))
        n = arr.size // per
        if n == 0:
            raise InvalidScenarioError("trace", f"{path}: shorter than one 30-minute slot")
        return arr[: n * per].reshape(n, per).min(axis=1).astype(np.int64)
    n = int(math.floor(arr.size * gap / SLOT_SECONDS + 1e-9))
    if n == 0:
        raise InvalidScenarioError("trace", f"{path}: shorter than one 30-minute slot")
    k = np.arange(n)
    first = np.floor(k * SLOT_SECONDS / gap + 1e-9).astype(np.int64)
    stop = np.minimum(np.ceil((k + 1) * SLOT_SECONDS / gap - 1e-9).astype(np.int64), arr.size)
    return np.array([arr[a:b].min() for a, b in zip(first, stop)], np.int64)


def load_gcp_ratios(path: str | Path, machine_prefix: str = "a2-") -> np.ndarray:
    """Spot / on-demand price ratios of GCP machine types starting with ``machine_prefix`` (A100)."""
    path = Path(path)
    df = _read_csv(path, "prices")
    for c in ("machine_type", "hour", "hour_spot"):
        if c not in df.columns:
            raise InvalidScenarioError("prices", f"{path}: column {c!r} is missing")
    df = df[df["machine_type"].astype(str).str.startswith(machine_prefix)]
    hour = pd.to_numeric(df["hour"], errors="coerce").values
    spot = pd.to_numeric(df["hour_spot"], errors="coerce").values
    ok = np.isfinite(hour) & np.isfinite(spot) & (hour > 0) & (spot >= 0)
    if not ok.any():
        raise InvalidScenarioError("prices", f"{path}: no valid rows for {machine_prefix!r}")
    return spot[ok] / hour[ok]
