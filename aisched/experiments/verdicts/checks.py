"""Each paper claim of a sweep beside the measurement: :func:`check_claims` and its verdicts.

A claim "holds" as :data:`aisched.experiments.spec.catalog.CLAIM_KINDS` defines it.
For an ``improvement`` claim only the *direction* is checked (our instances
are generated, not the paper's, so the size of an improvement is reported,
not asserted). A claim comparing algorithms ("improvement", "better_than",
"best") is decided on the paired per-seed differences and states the
reference's headroom over the baseline (:mod:`aisched.experiments.verdicts`):
its verdict may be "inconclusive at N seeds" (the 95 % interval includes 0) or
"untestable on this workload" (even the optimum, or a certified bound on it,
cannot reach the claimed size, or is within the seeds' noise of the baseline).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from aisched import families
from aisched.experiments.spec.catalog import METRICS, Claim
from aisched.experiments.spec.validation import RATIO_METRICS
from aisched.experiments.verdicts.diagnostics import idle
from aisched.experiments.verdicts.sequential import one_sided_p
from aisched.experiments.verdicts.stats import VERDICTS, differences, direction, headroom, paired_interval

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["RATIO_METRICS", "ClaimCheck", "check_claims", "claim_points", "mark_idle", "summarise", "variant_checks"]


@dataclass(frozen=True)
class ClaimCheck:
    """One claim beside the measurement.

    ``status`` is one of :data:`~aisched.experiments.verdicts.VERDICTS`; where it
    is left empty it follows ``holds`` (True: "holds", False: "fails", None: "not
    checked"). ``holds`` stays True / False only for a decided claim.
    ``headroom`` states the reference's headroom over the baseline for a claim
    comparing algorithms (whatever the verdict), ``""`` for the others.
    ``idle`` names the claim's points where the proposed algorithm's mechanism
    never acted (:func:`mark_idle`), ``""`` where it did. ``absent`` names a point of
    the claim the run does not contain (``"nodes=200"``; a reduced run): the claim is
    "not checked" and the report lists it once under "not in this run".
    """

    claim: Claim
    measured: float
    holds: bool | None  # None: not decided (not checked, inconclusive or untestable)
    detail: str
    status: str = ""
    headroom: str = ""
    idle: str = ""
    absent: str = ""
    p_value: float = math.nan  # one-sided paired t p-value of a claim decided on per-seed pairs (Holm's input)

    def __post_init__(self) -> None:  # numpy comparisons give np.bool_: keep a plain True / False / None
        if self.holds is not None:
            object.__setattr__(self, "holds", bool(self.holds))
        if not self.status:
            object.__setattr__(self, "status", {True: "holds", False: "fails"}.get(self.holds, "not checked"))
        if self.status not in VERDICTS:
            raise ValueError(f"status {self.status!r} is not one of {VERDICTS}")

    @property
    def verdict(self) -> str:
        """"holds", "fails", or the status with its reason ("inconclusive at 3 seeds: ...")."""
        if self.status in ("holds", "fails"):
            return self.status
        if self.status == "untestable":
            return f"untestable on this workload: {self.detail}"
        return f"{self.status}: {self.detail}" if self.status == "not checked" else self.detail




def summarise(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Mean, std and count of ``metric`` per (point, x, algorithm), online algorithms only.

    For the ratio metrics, ``by_bound`` counts the cells whose reference is a
    certified bound rather than a proven optimum (their ratio is a one-sided
    estimate: ``ratio`` a lower one, ``competitive_ratio`` an upper one).
    """
    online = table[~table["algorithm"].isin(["offline", "bound"])]
    grouped = online.groupby(["point", "x", "algorithm"], sort=True)[metric]
    summary = grouped.agg(["mean", "std", "count"]).reset_index()
    if metric in RATIO_METRICS and "reference_kind" in online.columns:
        by_bound = (online["reference_kind"] == "bound").groupby(
            [online["point"], online["x"], online["algorithm"]], sort=True).sum()
        summary["by_bound"] = by_bound.to_numpy(dtype=int)
    return summary


#: Claims comparing algorithms at one point: decided whatever the (shared) reference is.
_SAME_REFERENCE = ("best", "better_than", "improvement")


def _against_bounds(stored: StoredScenario, summary: pd.DataFrame, checks: list[ClaimCheck]) -> list[ClaimCheck]:
    """Verdicts that a ratio to a bound cannot give become "not checked".

    A bound ``B >= OPT`` makes ``ALG / B`` a lower estimate of ``ALG / OPT`` and
    ``B / ALG`` an upper estimate of ``OPT / ALG``. So a claim "competitive ratio
    <= c" (or "ratio >= c") that holds against the bound holds on the optimum,
    but one that fails against it is undecided; trends along x (the bound's
    slack differs from point to point) decide nothing either way. Comparisons
    of algorithms at the same point ("best", "better_than", "improvement")
    stand: every algorithm of a (point, seed) shares its reference, so their
    ratios order as their objectives do.
    """
    if stored.metric not in RATIO_METRICS or "by_bound" not in summary.columns:
        return checks
    out = []
    for chk in checks:
        rows = summary[summary["algorithm"] == chk.claim.algorithm]
        if chk.holds is None or int(rows["by_bound"].sum()) == 0 or chk.claim.kind in _SAME_REFERENCE:
            out.append(chk)
            continue
        safe = (chk.claim.kind == "at_most" and stored.metric == "competitive_ratio") or (
            chk.claim.kind == "at_least" and stored.metric == "ratio")
        if safe and chk.holds:
            out.append(ClaimCheck(chk.claim, chk.measured, True, chk.detail + " (against a certified bound: "
                                  "it holds on the optimum too)"))
        else:
            out.append(ClaimCheck(chk.claim, chk.measured, None, f"{chk.detail} against a certified bound, not a "
                                  "proven optimum: a one-sided estimate that cannot decide this claim"))
    return out


def _mean(summary: pd.DataFrame, algorithm: str, x: str | None = None) -> pd.Series:
    rows = summary[summary["algorithm"] == algorithm]
    if x is not None:
        rows = rows[rows["x"] == x]
    return rows.set_index("x")["mean"]


def check_claims(stored: StoredScenario, summary: pd.DataFrame,
                 table: pd.DataFrame | None = None, level: float = 0.95) -> list[ClaimCheck]:
    """Check each claim of a sweep's scenario against the summary of its sweep.

    With the sweep's ``table`` (one row per cell), a claim comparing algorithms
    ("improvement", "better_than", "best") is decided on the paired per-seed
    differences at ``level`` (95 %; a sweep whose seeds were added where claims were
    undecided uses :func:`~aisched.experiments.verdicts.sequential.look_level`, valid across its
    looks) and gets the reference's headroom (:mod:`aisched.experiments.verdicts`):
    it may then be "inconclusive" or "untestable", and a claim about the proposed
    algorithm at a point where its mechanism was idle is marked (:func:`mark_idle`).
    Without it, on the means only.
    """
    higher = METRICS[stored.metric]
    summary = summary[~summary["algorithm"].astype(str).str.contains("@", regex=False)]  # variants: see below
    checks = []
    labels = stored.labels
    for c in stored.claims:
        absent = [p for p in (c.point, c.other_point) if p is not None and p not in labels]
        if absent:
            checks.append(ClaimCheck(c, math.nan, None, f"point {stored.x}={absent[0]} is not "
                                     f"in this run (its points: {', '.join(labels)})",
                                     absent=f"{stored.x}={absent[0]}"))
            continue
        mine = _mean(summary, c.algorithm)
        if mine.empty or not np.isfinite(mine.to_numpy(dtype=float)).all():
            checks.append(ClaimCheck(c, math.nan, None, "no finite measurement"))
            continue
        lacking = [str(x) for x in summary["x"].unique() if x not in mine.index]
        if lacking and c.kind not in ("improvement", "greater"):  # a claim over every point: all must be measured
            checks.append(ClaimCheck(c, math.nan, None, f"no measurement of {c.algorithm} at {', '.join(lacking)}"))
            continue
        if c.kind == "improvement":
            base = _mean(summary, str(c.baseline), c.point)
            ours = mine.get(str(c.point), math.nan)
            theirs = float(base.iloc[0]) if not base.empty else math.nan
            if not (math.isfinite(ours) and math.isfinite(theirs)) or theirs == 0:
                checks.append(ClaimCheck(c, math.nan, None, "baseline missing or zero"))
                continue
            change = ours / theirs - 1.0 if theirs > 0 else (ours - theirs) / abs(theirs)
            holds = (change > 0) == (float(c.value or 0) > 0)
            checks.append(ClaimCheck(c, change, holds, f"paper {c.value:+.2%}, measured {change:+.2%}"))
        elif c.kind == "best":
            worse, missing = [], []
            for x, ours in mine.items():
                at = summary[summary["x"] == x].set_index("algorithm")["mean"]
                absent = [a for a in stored.algorithms if a not in at.index or not np.isfinite(at[a])]
                if absent:
                    missing.append(f"{x}: {', '.join(absent)}")
                    continue
                best = at.max() if higher else at.min()
                tol = 1e-9 * max(abs(best), 1.0)  # ties count as best
                if (ours < best - tol) if higher else (ours > best + tol):
                    worse.append(f"{x}: {at.idxmax() if higher else at.idxmin()}")
            if missing:
                checks.append(ClaimCheck(c, math.nan, None, "no measurement of " + "; ".join(missing)))
                continue
            checks.append(ClaimCheck(
                c, float(len(mine) - len(worse)) / len(mine), not worse,
                "best at every point" if not worse else "beaten at " + ", ".join(worse),
            ))
        elif c.kind == "at_most":
            worst = float(mine.max())
            checks.append(ClaimCheck(c, worst, worst <= float(c.value), f"largest {worst:.4g} vs {c.value}"))
        elif c.kind == "at_least":
            least = float(mine.min())
            checks.append(ClaimCheck(c, least, least >= float(c.value), f"smallest {least:.4g} vs {c.value}"))
        elif c.kind == "better_than":
            theirs = _mean(summary, str(c.baseline)).reindex(mine.index)
            if not np.isfinite(theirs.to_numpy(dtype=float)).all():
                absent = [str(x) for x, v in theirs.items() if not np.isfinite(v)]
                checks.append(ClaimCheck(c, math.nan, None, f"no measurement of {c.baseline} at {', '.join(absent)}"))
                continue
            wins = (mine > theirs) if higher else (mine < theirs)
            lost = [str(x) for x, ok in wins.items() if not ok]
            checks.append(ClaimCheck(
                c, float(wins.mean()), not lost,
                f"better than {c.baseline} at every point" if not lost else "not better at " + ", ".join(lost),
            ))
        elif c.kind == "increasing":
            order = summary[summary["algorithm"] == c.algorithm].sort_values("point")["mean"].to_numpy()
            drops = int(np.sum(np.diff(order) < 0))
            checks.append(ClaimCheck(c, float(drops), drops == 0, f"{drops} decrease(s) along x"))
        elif c.kind == "decreasing":
            order = summary[summary["algorithm"] == c.algorithm].sort_values("point")["mean"].to_numpy()
            rises = int(np.sum(np.diff(order) > 0))
            checks.append(ClaimCheck(c, float(rises), rises == 0, f"{rises} increase(s) along x"))
        elif c.kind == "gentler_decline":
            theirs = _mean(summary, str(c.baseline))
            drops = []
            for m in (mine, theirs):
                a, b = m.get(str(c.point), math.nan), m.get(str(c.other_point), math.nan)
                drops.append((a - b) / abs(a) if math.isfinite(a) and math.isfinite(b) and a != 0 else math.nan)
            if not all(math.isfinite(d) for d in drops):
                checks.append(ClaimCheck(c, math.nan, None, f"no finite drop of {c.algorithm} or {c.baseline}"))
                continue
            sign = 1.0 if higher else -1.0  # a drop is a loss: a rise of a lower-is-better metric
            ok = bool(sign * drops[0] < sign * drops[1])
            checks.append(ClaimCheck(c, drops[0] - drops[1], ok, f"relative drop {c.point} -> {c.other_point}: "
                                     f"{drops[0]:+.2%} vs {c.baseline}'s {drops[1]:+.2%}"))
        elif c.kind == "spread_at_most":
            values = mine.to_numpy(dtype=float)
            if (values <= 0).any():
                checks.append(ClaimCheck(c, math.nan, None, "a mean <= 0: max / min undefined"))
                continue
            spread = float(values.max() / values.min())
            checks.append(ClaimCheck(c, spread, spread <= float(c.value), f"max / min {spread:.4g} vs {c.value}"))
        elif c.kind == "greater":
            a, b = mine.get(str(c.point), math.nan), mine.get(str(c.other_point), math.nan)
            ok = None if not (math.isfinite(a) and math.isfinite(b)) else bool(a > b)
            checks.append(ClaimCheck(c, a - b, ok, f"{c.point}: {a:.4g} vs {c.other_point}: {b:.4g}"))
    checks = _against_bounds(stored, summary, checks)
    return checks if table is None else mark_idle(stored, table, _paired_verdicts(stored, table, checks, level))


def _compact(rooms: list[Any], baseline: str) -> str:
    """One line of headroom over ``baseline`` at several points."""
    have = [r for r in rooms if r.available]
    if not have:
        return (f"headroom over {baseline} unknown at {', '.join(r.x for r in rooms)} (no optimum or certified bound "
                "was run there)")
    kind = "optimum" if all(r.kind == "optimum" for r in have) else "certified bound on the optimum"
    parts = [f"{r.x}: {r.room:+.1%}" if r.available else f"{r.x}: no reference" for r in rooms]
    return f"headroom of the {kind} over {baseline}: " + ", ".join(parts)


def _paired_verdicts(stored: StoredScenario, table: pd.DataFrame, checks: list[ClaimCheck],
                     level: float = 0.95) -> list[ClaimCheck]:
    """Re-decide the comparison claims on paired per-seed differences, with headroom (see :func:`check_claims`)."""
    metric = stored.metric
    higher = METRICS[metric]
    if metric not in table.columns:
        return checks
    rows = table[~table["algorithm"].astype(str).str.contains("@", regex=False)]
    out = []
    for chk in checks:
        c = chk.claim
        if chk.status not in ("holds", "fails") or c.kind not in ("improvement", "better_than", "best"):
            out.append(chk)
            continue
        if c.kind == "improvement":
            room = headroom(rows, str(c.baseline), str(c.point))
            note = room.text()
            size = float(c.value or 0.0)
            if room.available and size > 0 and room.room < size:
                out.append(ClaimCheck(c, chk.measured, None, f"{note}; the claim needs {size:+.1%} (measured "
                                      f"{chk.measured:+.2%})", "untestable", note))
                continue
            interval = paired_interval(differences(rows, metric, higher, c.algorithm, str(c.baseline), str(c.point)),
                                       level)
            got = direction(interval)
            if got == "inconclusive":
                out.append(ClaimCheck(c, chk.measured, None, f"inconclusive at {interval.n} seed(s): {chk.detail}; "
                                      f"{interval.text()}", "inconclusive", note))
            else:
                ok = got == ("better" if size > 0 else "worse")
                d = differences(rows, metric, higher, c.algorithm, str(c.baseline), str(c.point))
                out.append(ClaimCheck(c, chk.measured, ok, f"{chk.detail}; {interval.text()}", headroom=note,
                                      p_value=one_sided_p(d if size > 0 else -d)))
            continue
        points = [str(x) for x in dict.fromkeys(rows.loc[rows["algorithm"] == c.algorithm, "x"].astype(str))]
        others = [str(c.baseline)] if c.kind == "better_than" else [
            a for a in stored.algorithms if a != c.algorithm]
        worse, unsure, untestable, rooms = [], [], [], []
        for x in points:
            if c.kind == "better_than":
                room = headroom(rows, str(c.baseline), x)
                rooms.append(room)
                if room.within_noise:
                    untestable.append(x)
            else:  # "best": headroom over the strongest other algorithm (ties count as best: never untestable)
                at = rows[rows["x"].astype(str) == x].groupby("algorithm")["objective"].mean().reindex(others)
                if at.notna().any():
                    rooms.append(headroom(rows, str(at.idxmax()), x))
            for other in others:
                got = direction(paired_interval(differences(rows, metric, higher, c.algorithm, other, x), level))
                if got == "worse" or (got == "tie" and c.kind == "better_than"):
                    worse.append((x, other))
                elif got == "inconclusive":
                    unsure.append((x, other))
        note = "; ".join(_compact([r for r in rooms if r.baseline == b], b)
                         for b in dict.fromkeys(r.baseline for r in rooms))
        seeds = int(rows.loc[rows["algorithm"] == c.algorithm, "seed"].nunique())
        tested_worse = [f"{x}: {other}" for x, other in worse if x not in untestable]
        if tested_worse:
            out.append(ClaimCheck(c, chk.measured, False, f"worse ({100 * level:g} % paired interval below 0, or a tie) at "
                                  f"{', '.join(tested_worse)}", headroom=note))
        elif untestable:
            out.append(ClaimCheck(c, chk.measured, None, f"the reference is within the seeds' noise of {c.baseline} "
                                  f"at {', '.join(untestable)} ({note})", "untestable", note))
        elif unsure:
            out.append(ClaimCheck(c, chk.measured, None, f"inconclusive at {seeds} seed(s): the paired {100 * level:g} % interval "
                                  f"includes 0 at {', '.join(f'{x}: {o}' for x, o in unsure)} (means: {chk.detail})", "inconclusive", note))
        else:  # intersection-union: the claim's p-value is its weakest pair's
            p_value = max((one_sided_p(differences(rows, metric, higher, c.algorithm, other, x))
                           for x in points for other in others), default=math.nan)
            out.append(ClaimCheck(c, chk.measured, True, chk.detail + f" ({100 * level:g} % paired intervals above 0)",
                                  headroom=note, p_value=p_value))
    return out


def variant_checks(stored: StoredScenario, summary: pd.DataFrame,
                   table: pd.DataFrame | None = None) -> dict[str, list[ClaimCheck]]:
    """Each variant's checks of the claims it can change (those about an algorithm it re-runs, and "best").

    Under variant ``v`` the rows ``"<a>@v"`` stand in for algorithm ``a``; the
    other algorithms keep their default rows (in ``table`` too, when given).
    """
    out: dict[str, list[ClaimCheck]] = {}
    algorithms = list(stored.algorithms)
    for variant, by in stored.variants.items():
        rename = {f"{a}@{variant}": a for a in by}
        keep = [a for a in algorithms if a not in by] + list(rename)
        rows = summary[summary["algorithm"].isin(keep)].copy()
        rows["algorithm"] = rows["algorithm"].replace(rename)
        cells = None
        if table is not None:
            cells = table[table["algorithm"].isin(keep)].copy()
            cells["algorithm"] = cells["algorithm"].replace(rename)
        claims = tuple(c for c in stored.claims if c.algorithm in by or c.baseline in by or c.kind == "best")
        out[variant] = check_claims(dataclasses.replace(stored, claims=claims), rows, cells)
    return out


def claim_points(claim: Any, labels: list[str]) -> list[str]:
    """The points (x labels) a claim is about: its ``point``/``other_point``, else every point."""
    named = [str(p) for p in (claim.point, claim.other_point) if p is not None]
    return named or [str(x) for x in labels]


def mark_idle(stored: StoredScenario, table: pd.DataFrame, checks: list[ClaimCheck]) -> list[ClaimCheck]:
    """The checks, each claim about the proposed algorithm at an idle point marked (verdicts unchanged)."""
    idle_at = idle(stored, table)
    if not idle_at:
        return checks
    proposed = families.record(stored.family).proposed
    labels = list(stored.labels)
    out = []
    for chk in checks:
        about = proposed in (chk.claim.algorithm, chk.claim.baseline)
        points = [x for x in claim_points(chk.claim, labels) if x in idle_at]
        if about and points:
            by_reason: dict[str, list[str]] = {}  # one clause per distinct reason: "at 100, 200: ..."
            for x in points:
                by_reason.setdefault(idle_at[x], []).append(x)
            note = f"{proposed}'s mechanism idle " + "; ".join(
                f"at {', '.join(xs)}: {reason}" for reason, xs in by_reason.items())
            chk = dataclasses.replace(chk, idle=note)
        out.append(chk)
    return out
