"""Verdicts of a comparison claim from per-seed cells: paired noise and headroom against the reference.

A claim comparing algorithms ("A improves over B by X %", "A is better than
B", "A is the best") is decided here on the sweep's table, not on means
alone:

- **Noise.** Every algorithm of a (point, seed) runs on the same instance, so
  the verdict on a direction uses the *paired* per-seed differences
  ``d_s = m(A, s) - m(B, s)`` (sign flipped for a lower-is-better metric). The
  95 % interval of their mean is Student's t with ``n - 1`` degrees of freedom
  (:func:`paired_interval`; other levels: :func:`t_quantile`, and the
  sequential level that survives looks at 3, 6, 12, 20 seeds:
  :mod:`aisched.experiments.verdicts.sequential`). The direction is decided only where the
  interval excludes zero; else the verdict is **inconclusive at n seeds**
  (one seed gives no interval at all). Exact ties (every ``d_s = 0``) are
  ties, not noise.
- **Headroom.** The reference of a (point, seed) is the sweep's ``reference``
  column: the proven optimum, or the least certified upper bound
  (``reference_kind`` says which). Headroom of the reference over ``B`` is
  ``mean(reference) / mean(objective of B) - 1`` (``(R - B) / |B|`` when
  ``B <= 0``). An improvement claim of size ``X > 0`` whose headroom is below
  ``X`` cannot hold for *any* algorithm: **untestable on this workload**. A
  strict direction claim ("better than B") is untestable where the reference
  is within the seeds' noise of ``B`` (every per-seed gap ``R_s - B_s`` zero,
  or, with two seeds or more, its 95 % interval reaching zero). A point
  without a reference says so and is never counted as untestable.

Headroom is a measurement, never an excuse: a claim the reference shows
possible keeps its verdict ("fails" stays "fails").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["VERDICTS", "counts_text", "new_counts", "Headroom", "Interval", "differences", "direction", "headroom",
           "paired",
           "paired_interval", "t_quantile", "t_sf"]

#: Every verdict a claim can get, in the order the report counts them.
VERDICTS = ("holds", "fails", "inconclusive", "untestable", "not checked")

def new_counts() -> dict[str, int]:
    """A zero count per verdict kind."""
    return dict.fromkeys(VERDICTS, 0)


def counts_text(counts: dict[str, int]) -> str:
    """``"12 hold, 3 fail, 2 inconclusive, 1 untestable, 4 not checked"``."""
    words = {"holds": "hold", "fails": "fail"}
    return ", ".join(f"{counts.get(k, 0)} {words.get(k, k)}" for k in VERDICTS)


#: The 97.5 % quantiles of Student's t by degrees of freedom (1..30), rounded to 3 decimals (the numbers the
#: pages have always used for 95 % intervals); other levels and more degrees of freedom: :func:`t_quantile`.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom (``t_quantile(0.975, 2) = 4.303``).

    scipy (a declared dependency) computes it; imported here, not at module import
    (``scipy.stats`` costs about a second, and most commands never need it).
    """
    if not 0.0 < q < 1.0 or not df > 0:
        raise ValueError(f"t_quantile(q={q}, df={df}): needs 0 < q < 1 and df > 0")
    from scipy.stats import t

    return float(t.ppf(q, df))


def t_sf(x: float, df: float) -> float:
    """``P(T > x)`` for Student's t with ``df`` degrees of freedom (a one-sided p-value)."""
    from scipy.stats import t

    return float(t.sf(x, df))


@dataclass(frozen=True)
class Interval:
    """Mean of ``n`` paired differences and its t interval at ``level`` (``nan`` bounds when ``n < 2``)."""

    mean: float
    low: float
    high: float
    n: int
    level: float = 0.95

    @property
    def tie(self) -> bool:
        """Every difference exactly zero (``low = high = mean = 0``)."""
        return self.n > 0 and self.mean == 0.0 and self.low == 0.0 and self.high == 0.0

    def text(self) -> str:
        if self.n < 2:
            return f"mean difference {self.mean:+.4g} at {self.n} seed (no interval)"
        return (f"mean difference {self.mean:+.4g}, {100 * self.level:g} % t interval [{self.low:+.4g}, "
                f"{self.high:+.4g}], {self.n} seeds")


def paired_interval(differences: np.ndarray, level: float = 0.95) -> Interval:
    """The two-sided Student-t interval at ``level`` of the mean of paired differences (finite values only)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"paired_interval: level = {level} must be in (0, 1)")
    d = np.asarray(differences, dtype=float)
    d = d[np.isfinite(d)]
    n = int(d.size)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0, level)
    mean = float(d.mean())
    if np.all(d == 0.0):
        return Interval(0.0, 0.0, 0.0, n, level)
    if n < 2:
        return Interval(mean, math.nan, math.nan, n, level)
    if level == 0.95 and n - 1 <= len(_T975):
        t = _T975[n - 2]
    else:
        t = t_quantile(0.5 + level / 2.0, n - 1)
    half = t * float(d.std(ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, level)


def direction(interval: Interval) -> str:
    """``"better"`` (interval above 0), ``"worse"`` (below 0), ``"tie"`` or ``"inconclusive"``."""
    if interval.tie:
        return "tie"
    if interval.n >= 2 and interval.low > 0:
        return "better"
    if interval.n >= 2 and interval.high < 0:
        return "worse"
    return "inconclusive"


def _per_seed(table: pd.DataFrame, algorithm: str, x: str, column: str) -> pd.Series:
    rows = table[(table["algorithm"] == algorithm) & (table["x"].astype(str) == str(x))]
    return rows.groupby("seed")[column].mean()


def differences(table: pd.DataFrame, metric: str, higher: bool, algorithm: str, baseline: str, x: str) -> np.ndarray:
    """The paired per-seed differences of ``metric`` at point ``x`` (A - B, "better" positive)."""
    a, b = _per_seed(table, algorithm, x, metric), _per_seed(table, baseline, x, metric)
    both = a.index.intersection(b.index)
    d = (a[both] - b[both]).to_numpy(dtype=float)
    return d if higher else -d


def paired(table: pd.DataFrame, metric: str, higher: bool, algorithm: str, baseline: str, x: str) -> Interval:
    """The 95 % interval of the paired per-seed differences at point ``x`` (:func:`differences`)."""
    return paired_interval(differences(table, metric, higher, algorithm, baseline, x))


@dataclass(frozen=True)
class Headroom:
    """The reference of a point against a baseline's objective (means over the seeds having both)."""

    baseline: str
    x: str
    kind: str          # "optimum", "bound" or "" (no reference at this point)
    reference: float
    objective: float
    gap: Interval      # per-seed reference - objective

    @property
    def available(self) -> bool:
        return self.kind != "" and math.isfinite(self.reference) and math.isfinite(self.objective)

    @property
    def room(self) -> float:
        """Relative headroom: ``R / B - 1`` (``(R - B) / |B|`` when ``B <= 0``; ``inf`` when ``B = 0 < R``)."""
        if not self.available:
            return math.nan
        if self.objective > 0:
            return self.reference / self.objective - 1.0
        if self.objective == 0:
            return math.inf if self.reference > 0 else 0.0
        return (self.reference - self.objective) / abs(self.objective)

    @property
    def within_noise(self) -> bool:
        """The reference cannot be told from the baseline at these seeds (see the module docstring)."""
        if not self.available:
            return False
        if self.gap.tie or self.room <= 1e-9:
            return True
        return self.gap.n >= 2 and self.gap.low <= 0.0

    def text(self) -> str:
        if not self.available:
            return f"no reference at {self.x}"
        what = "the optimum" if self.kind == "optimum" else "a certified bound on the optimum"
        if self.kind == "optimum":
            return f"headroom at {self.x}: {what} is {self.room:+.1%} over {self.baseline}"
        return f"headroom at {self.x}: the optimum is at most {self.room:+.1%} over {self.baseline} ({what})"


def headroom(table: pd.DataFrame, baseline: str, x: str) -> Headroom:
    """The headroom of the reference over ``baseline``'s objective at point ``x``."""
    rows = table[(table["algorithm"] == baseline) & (table["x"].astype(str) == str(x))]
    if "reference" not in rows.columns:
        return Headroom(baseline, str(x), "", math.nan, math.nan, Interval(math.nan, math.nan, math.nan, 0))
    rows = rows[np.isfinite(rows["reference"].to_numpy(dtype=float))
                & np.isfinite(rows["objective"].to_numpy(dtype=float))]
    if rows.empty:
        return Headroom(baseline, str(x), "", math.nan, math.nan, Interval(math.nan, math.nan, math.nan, 0))
    kinds = set(rows["reference_kind"].astype(str))
    kind = "optimum" if kinds == {"optimum"} else "bound"
    gap = paired_interval((rows["reference"] - rows["objective"]).to_numpy(dtype=float))
    return Headroom(baseline, str(x), kind, float(rows["reference"].mean()), float(rows["objective"].mean()), gap)

