"""How a setting of the silent parameters meets the paper's baseline relations: an interval over seeds,
a three-way reading and one scale for the score and for "met".

Pure computation on per-seed objectives (no sweep runs here): :mod:`aisched.experiments.studies.calibrate`
measures, this module reads.

- :func:`estimate` gives one :class:`~aisched.core.declarations.RegimeTarget`'s value from the seeds'
  objectives of its baselines, with a 90 % paired bootstrap interval over seeds (the seeds are the
  pairing: every baseline of a seed runs on that seed's instance), and reads it as

  * **met**: the estimate lies inside the tolerance band around the paper's value (*firmly* met where
    the whole interval does);
  * **missed**: the whole interval lies outside the band;
  * **undecided**: the estimate is outside, the interval reaches into the band (more seeds decide).

- An **ordering** (``algorithms`` from worst to best) is tested pair by pair on the relative gap
  ``(mean of the better - mean of the worse) / |mean of the worse|``: met where every pair's gap is
  above 0, missed where some pair's whole interval is at or below 0 (a tie at every seed included:
  "ties count as met" no longer), undecided otherwise.

- **One scale**: each target's normalised residual ``z`` is in units of its tolerance
  (:meth:`~aisched.core.declarations.RegimeTarget.tolerance`): ``(ours - paper) / tolerance`` for a ratio
  or a value, so *met* is ``|z| <= 1``; for an ordering each pair out of order (or tied) counts
  ``1 + |gap| / ORDERING_TOLERANCE``, just outside the band plus how far out of order. The score
  of a setting (:func:`score`) is the sum of ``z**2``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from aisched.core.declarations import RegimeTarget

__all__ = ["LEVEL", "ORDERING_TOLERANCE", "RESAMPLES", "Status", "TargetEstimate", "estimate", "neighbours",
           "score"]

#: The interval's level: 90 %, two-sided (a 5 % tail each side).
LEVEL = 0.90
#: Bootstrap resamples per interval (a fixed generator seed: the same cells give the same interval).
RESAMPLES = 2000
#: The scale of an ordering's gaps: a pair 5 % out of order weighs as a ratio one tolerance further out.
ORDERING_TOLERANCE = 0.05

Status = Literal["met", "missed", "undecided"]


@dataclass(frozen=True)
class TargetEstimate:
    """One regime target read from the seeds' objectives.

    Attributes
    ----------
    name, kind, paper
        The target's name, kind and the paper's value (``nan`` for an ordering).
    estimate, low, high
        Ours (ratio of means, mean value, or an ordering's smallest pair gap) and its 90 % interval.
    status
        ``"met"``, ``"missed"`` or ``"undecided"`` (module docstring).
    firm
        Met with the whole interval inside the band.
    z
        The normalised residual (module docstring); ``inf`` where ours is not finite.
    seeds
        How many seeds it was read from.
    pairs
        An ordering's pairs: ``{"worse": a, "better": b, "gap": .., "low": .., "high": ..}``.
    """

    name: str
    kind: str
    paper: float
    estimate: float
    low: float
    high: float
    status: Status
    firm: bool
    z: float
    seeds: int
    pairs: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """A plain, JSON-able record (non-finite numbers as ``None``)."""
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None
        return {"name": self.name, "kind": self.kind, "paper": num(self.paper), "estimate": num(self.estimate),
                "low": num(self.low), "high": num(self.high), "status": self.status, "firm": self.firm,
                "z": num(self.z), "seeds": self.seeds,
                "pairs": [{k: (num(v) if isinstance(v, float) else v) for k, v in p.items()} for p in self.pairs]}


def _paired(objectives: Mapping[str, Mapping[int, float]], algorithms: Sequence[str]) -> np.ndarray:
    """``(seeds, algorithms)``: the objectives of the seeds every one of ``algorithms`` ran on."""
    common = sorted(set.intersection(*(set(objectives.get(a, {})) for a in algorithms)))
    return np.array([[float(objectives[a][s]) for a in algorithms] for s in common], dtype=float).reshape(
        len(common), len(algorithms))


def _resampled(values: np.ndarray) -> np.ndarray:
    """``(RESAMPLES, seeds, algorithms)``: seeds drawn with replacement, the same draw for every algorithm."""
    rng = np.random.default_rng(0)
    index = rng.integers(0, len(values), size=(RESAMPLES, len(values)))
    return values[index]


def _interval(samples: np.ndarray) -> tuple[float, float]:
    finite = samples[np.isfinite(samples)]
    if not len(finite):
        return math.nan, math.nan
    tail = (1.0 - LEVEL) / 2.0
    return float(np.quantile(finite, tail)), float(np.quantile(finite, 1.0 - tail))


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, num / np.where(den != 0, den, 1.0), np.nan)


def estimate(target: RegimeTarget, objectives: Mapping[str, Mapping[int, float]]) -> TargetEstimate:
    """``target`` read from per-seed objectives (module docstring).

    Parameters
    ----------
    target
        The relation.
    objectives
        Per algorithm, seed -> objective; only the seeds every algorithm of ``target`` has count.
    """
    values = _paired(objectives, target.algorithms)
    n = len(values)
    if n == 0:
        return TargetEstimate(target.name, target.kind, target.value, math.nan, math.nan, math.nan, "missed",
                              False, math.inf, 0)
    boot = _resampled(values).mean(axis=1)  # (RESAMPLES, algorithms)
    means = values.mean(axis=0)
    if target.kind != "ordering":
        if target.kind == "ratio":
            est = float(_ratio(np.array(means[0]), np.array(means[1])))
            low, high = _interval(_ratio(boot[:, 0], boot[:, 1]))
        else:
            est = float(means[0])
            low, high = _interval(boot[:, 0])
        tol = target.tolerance()
        if not math.isfinite(est):
            return TargetEstimate(target.name, target.kind, target.value, est, low, high, "missed", False,
                                  math.inf, n)
        z = (est - target.value) / tol
        lo_band, hi_band = target.value - tol - 1e-12, target.value + tol + 1e-12
        if abs(z) <= 1 + 1e-9:
            status: Status = "met"
        elif (math.isfinite(low) and low > hi_band) or (math.isfinite(high) and high < lo_band):
            status = "missed"
        else:
            status = "undecided"
        firm = status == "met" and lo_band <= low and high <= hi_band
        return TargetEstimate(target.name, target.kind, target.value, est, low, high, status, firm, z, n)
    pairs = []
    z_squares = 0.0
    statuses = []
    for i in range(len(target.algorithms)):
        for j in range(i + 1, len(target.algorithms)):
            gap = float(_ratio(np.array(means[j] - means[i]), np.array(abs(means[i]))))
            g_low, g_high = _interval(_ratio(boot[:, j] - boot[:, i], np.abs(boot[:, i])))
            if math.isfinite(gap) and gap > 0:
                pair_status = "met"
            elif math.isfinite(g_high) and g_high <= 0:
                pair_status = "missed"
            elif not math.isfinite(gap):
                pair_status = "missed"
            else:
                pair_status = "undecided"
            statuses.append(pair_status)
            if pair_status != "met":
                z_squares += (1.0 + abs(gap) / ORDERING_TOLERANCE) ** 2 if math.isfinite(gap) else math.inf
            pairs.append({"worse": target.algorithms[i], "better": target.algorithms[j], "gap": gap,
                          "low": g_low, "high": g_high, "status": pair_status})
    status = "missed" if "missed" in statuses else "undecided" if "undecided" in statuses else "met"
    tightest = min(pairs, key=lambda p: p["gap"] if math.isfinite(p["gap"]) else -math.inf)
    firm = status == "met" and all(math.isfinite(p["low"]) and p["low"] > 0 for p in pairs)
    return TargetEstimate(target.name, target.kind, target.value, tightest["gap"], tightest["low"],
                          tightest["high"], status, firm, math.sqrt(z_squares), n, tuple(pairs))


def score(estimates: Sequence[TargetEstimate]) -> float:
    """The sum of the targets' ``z**2`` (one scale with "met": a ratio met contributes at most 1)."""
    total = 0.0
    for e in estimates:
        if not math.isfinite(e.z):
            return math.inf
        total += e.z ** 2
    return total


def neighbours(a: Mapping[str, Any], b: Mapping[str, Any], grids: Mapping[str, Sequence[Any]]) -> bool:
    """Whether two settings are the same or grid neighbours: at most one parameter differs, by one step
    of its grid in numeric order (the own default, ``None``, has no place in the order: no neighbour)."""
    differ = [k for k in grids if a.get(k) != b.get(k)]
    if not differ:
        return True
    if len(differ) > 1:
        return False
    key = differ[0]
    if a.get(key) is None or b.get(key) is None:
        return False
    ordered = sorted(v for v in grids[key] if v is not None)
    try:
        return abs(ordered.index(a[key]) - ordered.index(b[key])) == 1
    except ValueError:
        return False
