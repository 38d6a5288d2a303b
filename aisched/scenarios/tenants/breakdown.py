"""Where a scheduler's revenue (3) comes from, and where Astraea's gap to a baseline goes.

Each admitted job ``j`` earns ``f_j(c_j)`` with ``c_j = end + 1 - r_j`` slots
from arrival to completion (3). Split per scheduler, exactly:

``revenue = ideal_t4 + ideal_other - wait_loss``

- ``ideal``: what the admitted jobs would earn had each started at arrival on
  its fastest feasible placement, ``f_j(d_j)`` with ``d_j`` =
  :meth:`TenantInstance.fastest_run` ((1), (3e), (3i)-(3k), ignoring other
  jobs): the most the chosen set of jobs can earn;
- ``ideal_t4``: the part of it from jobs Astraea's rounds cannot finish at a
  profit (:func:`beyond_rounds`, docs/readings/tenants.md T4); ``ideal_other``: the rest;
- ``wait_loss``: ``ideal - revenue``, what waiting (and a slower placement than
  the fastest) cost the admitted jobs; ``>= 0`` as ``f`` decreases in ``c``;
- ``mean_delay``: mean over admitted jobs of ``c_j - d_j`` slots.

The gap between two schedulers on one instance then splits, with no residue,
into the jobs that only a scheduler without Algorithm 4's one-round rule can
take (``ideal_t4``), the other jobs each admitted (prices, capacity, admission:
``ideal_other``) and the waiting (``wait_loss``). :func:`gap_lines` writes that
split, mean over seeds, beside each tenants figure in the report
(``Family.notes``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from aisched.models.tenants import TenantInstance

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["BREAKDOWN_COLUMNS", "beyond_rounds", "earliest_round_completion", "gap_lines", "revenue_breakdown"]

#: Astraea's default ``lambda`` (Algorithm 1: rounds per batch and the batches' offset; ``astraea.run(lam=2)``).
DEFAULT_LAMBDA = 2

#: The cell columns :func:`revenue_breakdown` adds.
BREAKDOWN_COLUMNS = ("ideal_t4", "ideal_other", "wait_loss", "mean_delay")


def earliest_round_completion(instance: TenantInstance, lam: int = DEFAULT_LAMBDA) -> np.ndarray:
    """(job,) the fewest slots from arrival to completion Algorithms 1 and 4 allow; ``inf`` if never.

    Algorithm 1 collects a job arriving in ``[2^(l-1), 2^l)`` (``[0, 2)`` for
    ``l = 1``) into batch ``l``, scheduled from slot ``lambda 2^l`` (no batch
    starts at or past the horizon ``T``); a job not scheduled waits for the next
    batch. Algorithm 4, line 4, keeps a run inside one round of ``tau_l = 2^l``
    slots, so the fastest run ``d`` needs ``2^l >= d``. The earliest completion
    is ``lambda 2^L + d`` with ``L`` the least such level, ``inf`` where that
    round starts at or after ``T`` or ends past it.
    """
    arrival = np.asarray(instance.arrival, dtype=np.int64)
    fastest = instance.fastest_run()
    out = np.full(instance.num_jobs, math.inf)
    for j in range(instance.num_jobs):
        d = int(fastest[j])
        if d >= np.iinfo(np.int64).max:  # no feasible placement at all
            continue
        level = max(1, int(arrival[j]).bit_length())  # least l >= 1 with r < 2^l
        while 2**level < d:
            level += 1
        start = lam * 2**level
        if start < instance.num_slots and start + d <= instance.num_slots:
            out[j] = start + d - arrival[j]
    return out


def beyond_rounds(instance: TenantInstance, lam: int = DEFAULT_LAMBDA) -> np.ndarray:
    """(job,) True for jobs Astraea's rounds cannot finish at a profit (docs/readings/tenants.md T4).

    Their utility is ``<= 0`` at :func:`earliest_round_completion` (or they
    cannot finish inside any round before the horizon): no schedule of
    Algorithms 1, 2 and 4 has revenue (3) > 0 for them, whatever the prices, so
    Astraea's admission (revenue > 0, Algorithm 3) never takes them. Convex
    utilities are positive, so there only unservable jobs count.
    """
    completion = earliest_round_completion(instance, lam)
    out = ~np.isfinite(completion)
    ok = np.nonzero(~out)[0]
    out[ok] = instance.utility_value(ok, completion[ok]) <= 0
    return out


def revenue_breakdown(instance: TenantInstance, plan: Any, lam: int = DEFAULT_LAMBDA) -> dict[str, float]:
    """``ideal_t4``, ``ideal_other``, ``wait_loss`` and ``mean_delay`` of one plan (module docstring).

    ``ideal_t4 + ideal_other - wait_loss`` is the plan's revenue (3).
    """
    admitted = np.asarray(plan["admitted"].values, dtype=bool)
    idx = np.nonzero(admitted)[0]
    if idx.size == 0:
        return {"ideal_t4": 0.0, "ideal_other": 0.0, "wait_loss": 0.0, "mean_delay": float("nan")}
    fastest = instance.fastest_run()[idx]
    completion = np.asarray(plan["end"].values)[idx] + 1 - np.asarray(instance.arrival)[idx]
    ideal = instance.utility_value(idx, fastest)
    real = instance.utility_value(idx, completion)
    t4 = beyond_rounds(instance, lam)[idx]
    return {"ideal_t4": float(ideal[t4].sum()), "ideal_other": float(ideal[~t4].sum()),
            "wait_loss": float(ideal.sum() - real.sum()), "mean_delay": float(np.mean(completion - fastest))}


def gap_lines(stored: StoredScenario, table: pd.DataFrame, proposed: str = "astraea") -> list[str]:
    """Markdown: per baseline, the proposed scheduler's revenue gap split as the module docstring says.

    At each point a claim of the figure names (else the last point), mean over
    seeds; only where every run has the breakdown columns. Empty when it cannot
    be drawn (no revenue metric, no proposed run, older sweep folders).
    """
    if stored.metric != "objective" or not set(BREAKDOWN_COLUMNS) <= set(table.columns):
        return []
    if proposed not in stored.algorithms:
        return []
    labels = list(stored.labels)
    points = [str(c.point) for c in stored.claims if c.point is not None]
    points = [p for p in dict.fromkeys(points) if p in labels] or labels[-1:]
    xs = table["x"].astype(str)
    rows: list[str] = []
    for x in points:
        mine = table[(xs == x) & (table["algorithm"] == proposed)]
        if mine.empty or mine[list(BREAKDOWN_COLUMNS)].isna().all().all():
            continue
        for base in stored.algorithms:
            theirs = table[(xs == x) & (table["algorithm"] == base)]
            if base == proposed or theirs.empty:
                continue
            merged = mine.merge(theirs, on="seed", suffixes=("", "_b"))
            if merged.empty:
                continue
            mean = merged.mean(numeric_only=True)
            t4 = mean["ideal_t4"] - mean["ideal_t4_b"]
            other = mean["ideal_other"] - mean["ideal_other_b"]
            wait = mean["wait_loss_b"] - mean["wait_loss"]
            rows.append(f"| {x} | {base} | {mean['objective'] - mean['objective_b']:,.0f} | {t4:,.0f} | "
                        f"{other:,.0f} | {wait:,.0f} | {mean['mean_delay']:,.0f} / {mean['mean_delay_b']:,.0f} |")
    if not rows:
        return []
    return [f"Where {proposed}'s revenue gap goes (mean over the seeds both ran; {proposed} minus baseline, "
            "= the next three columns; docs/readings/tenants.md T10):", "",
            f"| {stored.x} | baseline | gap | jobs beyond one round (T4) | other jobs admitted | "
            f"waiting | mean delay, slots ({proposed} / baseline) |",
            "|---|---|---|---|---|---|---|", *rows, ""]
