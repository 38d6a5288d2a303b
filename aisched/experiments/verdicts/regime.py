"""Regime maps: where along a scarcity knob does the paper's claim hold?

A regime scenario sweeps one knob from idle to saturated (a capacity scale,
the load, the servers, the spot market's supply), running the paper's
algorithm, its baselines and the reference (the proven optimum or a certified
bound). It names the ``"regime"`` figure; for it the report draws, per baseline,
the improvement of the family's proposed algorithm over that baseline along the
knob (mean over seeds of ``(proposed - baseline) / |baseline|``, ``proposed /
baseline - 1`` for a positive baseline; its bars run from the lowest to the highest seed's value, where a
mean +- std could reach below -100 %, which no seed can) and the reference's headroom over the baseline
(``reference / baseline - 1``, :class:`aisched.experiments.verdicts.Headroom`) as a band from 0 up to it, and states the region
where the claim's direction holds, decided as every comparison claim is: on the
paired per-seed differences (:func:`aisched.experiments.verdicts.paired`; "above"
where the 95 % t interval is above 0). The region is given with the family's
first deciding mechanism diagnostic (:class:`aisched.families.Diagnostic`)
at each point, the largest mean over seeds of any algorithm there (how scarce the
workload is: a primal-dual algorithm may keep its own use below capacity where a
greedy baseline fills it), so it reads "pdftsp above eft at arrival_rate 8, 32 (node-slots at
compute capacity 12.5 % to 61.0 %); nowhere else".

This module computes the map's points (:func:`regime_points`); its sentences, table and
figure are drawn by :mod:`aisched.experiments.pages.regime`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from aisched import families
from aisched.experiments.spec.scenario import METRICS
from aisched.experiments.verdicts.stats import direction, headroom, paired

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["RegimePoint", "proposed_runs", "regime_points"]


def proposed_runs(stored: StoredScenario) -> list[str]:
    """The family's proposed algorithm and each scenario variant of it (``"comdos@full-cell"``), in order.

    A variant that changes the proposed algorithm's options (an improvement beside the paper, or
    another reading) gets its own map against the same baselines and reference.
    """
    proposed = families.record(stored.family).proposed
    if not proposed or proposed not in stored.algorithms:
        return []
    return [proposed, *(f"{proposed}@{v}" for v, by in stored.variants.items() if proposed in by)]


@dataclass(frozen=True)
class RegimePoint:
    """The proposed algorithm against one baseline at one knob value."""

    x: str
    baseline: str
    improvement: float        # mean over seeds of (proposed - baseline) / |baseline|
    spread: float             # std over seeds of that ratio
    verdict: str              # "better", "worse", "tie" or "inconclusive" (paired 95 % interval)
    room: float               # reference / baseline - 1 (nan: no reference at this point)
    reference_kind: str       # "optimum", "bound" or ""
    diagnostic: float         # the family's first deciding diagnostic: the largest mean over seeds of any algorithm
    seeds: int = 0            # seeds paired
    proposed: str = ""        # the compared run: the family's proposed algorithm or "<it>@<variant>"
    low: float = math.nan     # the lowest seed's ratio (the figure's bar runs from it ...
    high: float = math.nan    # ... to the highest seed's; NaN: no seed)


def _ratio_per_seed(rows: pd.DataFrame, proposed: str, baseline: str, x: str, metric: str) -> np.ndarray:
    at = rows[rows["x"].astype(str) == x]
    mine = at[at["algorithm"] == proposed].groupby("seed")[metric].mean()
    theirs = at[at["algorithm"] == baseline].groupby("seed")[metric].mean()
    both = pd.concat([mine, theirs], axis=1, join="inner").to_numpy(dtype=float)
    if not both.size:
        return np.zeros(0)
    with np.errstate(divide="ignore", invalid="ignore"):  # relative to |baseline|: a negative baseline too
        ratio = np.where(both[:, 1] != 0, (both[:, 0] - both[:, 1]) / np.abs(both[:, 1]), np.nan)
    return ratio[np.isfinite(ratio)]


def regime_points(stored: StoredScenario, table: pd.DataFrame, proposed: str | None = None) -> list[RegimePoint]:
    """Per (knob value, baseline): improvement, paired verdict, headroom and diagnostic (x in run order).

    ``proposed``: the run compared with the baselines, one of :func:`proposed_runs` (default: the
    family's proposed algorithm under the default readings).
    """
    family, hooks = families.record(stored.family), families.hooks(stored.family)
    runs = proposed_runs(stored)
    metric = stored.metric
    proposed = proposed or (runs[0] if runs else None)
    if not runs or proposed not in runs or metric not in table.columns:
        return []
    higher = METRICS[metric]
    names = table["algorithm"].astype(str)
    rows = table[~names.str.contains("@", regex=False) | (names == proposed)]
    deciding = next((d for d in hooks.diagnostics if d.acts_above is not None and d.column in rows.columns), None)
    baselines = [a for a in stored.algorithms if a != family.proposed]
    out = []
    for x in stored.labels:
        if not (rows["x"].astype(str) == x).any():
            continue
        at = rows[(rows["x"].astype(str) == x) & ~rows["algorithm"].isin(["offline", "bound"])]
        means = at.groupby("algorithm")[deciding.column].mean() if deciding is not None else pd.Series(dtype=float)
        diag = float(means.max()) if means.notna().any() else math.nan
        for b in baselines:
            ratio = _ratio_per_seed(rows, proposed, b, x, metric)
            room = headroom(rows, b, x) if metric == "objective" else None
            interval = paired(rows, metric, higher, proposed, b, x)
            out.append(RegimePoint(
                x=x, baseline=b, seeds=interval.n,
                improvement=float(ratio.mean()) if ratio.size else math.nan,
                spread=float(ratio.std(ddof=1)) if ratio.size > 1 else 0.0,
                verdict=direction(interval),
                room=room.room if room is not None and room.available else math.nan,
                reference_kind=room.kind if room is not None and room.available else "",
                diagnostic=diag, proposed=proposed,
                low=float(ratio.min()) if ratio.size else math.nan,
                high=float(ratio.max()) if ratio.size else math.nan,
            ))
    return out
