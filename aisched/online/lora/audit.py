"""Full re-run truthfulness audit of pdFTSP (the paper's Fig. 10, Theorem 3).

:func:`aisched.online.lora.pdftsp.audit` holds ``alpha`` and ``beta`` fixed
and replays the state once: fast, but blind to any way a bid acts on the
mechanism's parameters. :func:`audit_reruns` re-runs the whole auction from
scratch for every candidate bid (``run(instance.with_bid(task, b))``), so every
channel through which a bid can act -- alpha and beta computed from the bids
(``parameters="from_bids"``), earlier prices, the admission test -- is seen.
:func:`best_misreport` searches the largest utility gain over a grid of bids.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from aisched.errors import InvalidScenarioError
from aisched.models.lora import LoraInstance
from aisched.online.lora.pdftsp import algorithm as pdftsp
from aisched.online.lora.pdftsp.algorithm import audit_bids, run

__all__ = ["audit_reruns", "best_misreport", "audit_summary", "audited_tasks", "AUDIT_FACTORS"]

#: Bids of the summary audit, as multiples of the true value (0 .. 2).
AUDIT_FACTORS = np.linspace(0.0, 2.0, 11)


def audit_reruns(instance: LoraInstance, task: int, bids: Any, **options: Any) -> pd.DataFrame:
    """``task`` bids each value; the whole pdFTSP auction is re-run for each.

    Parameters
    ----------
    instance
        The auction; ``instance.bid[task]`` is the task's true value ``v_i``.
    task
        The bidder audited.
    bids
        Candidate bids (finite, >= 0).
    **options
        Passed to :func:`aisched.online.lora.pdftsp.run` (``selection``,
        ``payment``, ``beta_unit``, ``parameters``, ``alpha``, ``beta``).

    Returns
    -------
    pandas.DataFrame
        One row per bid: ``bid``, ``admitted``, ``payment``, ``utility`` (eq.
        (15): ``v_i - p_i`` if admitted, else 0), ``alpha``, ``beta`` (those of
        that run).
    """
    values = audit_bids(instance, task, bids)
    true_value = float(instance.bid[int(task)])
    rows = []
    for value in values:
        out = run(instance.with_bid(int(task), float(value)), **options)
        won = bool(out.admitted[int(task)])
        pay = float(out.payments[int(task)]) if won else 0.0
        rows.append({"bid": float(value), "admitted": won, "payment": pay,
                     "utility": true_value - pay if won else 0.0,
                     "alpha": out.info["alpha"], "beta": out.info["beta"]})
    return pd.DataFrame(rows)


def best_misreport(instance: LoraInstance, task: int, factors: Any = None, **options: Any) -> dict[str, float]:
    """The most profitable misreport of ``task`` on a grid of ``factors`` times its true value.

    Returns
    -------
    dict
        ``truthful_utility``, ``best_bid``, ``best_utility`` and ``gain``
        (``best_utility - truthful_utility``; > 0 means a misreport pays).
    """
    grid = np.linspace(0.0, 2.0, 21) if factors is None else np.asarray(factors, dtype=float)
    true_value = float(instance.bid[int(task)]) if 0 <= int(task) < instance.num_tasks else 0.0
    bids = np.concatenate([[true_value], grid * true_value])
    table = audit_reruns(instance, task, bids, **options)
    j = int(np.argmax(table["utility"].values))
    truthful = float(table.loc[0, "utility"])
    return {"truthful_utility": truthful, "best_bid": float(table.loc[j, "bid"]),
            "best_utility": float(table.loc[j, "utility"]),
            "gain": float(table.loc[j, "utility"]) - truthful}


def audited_tasks(outcome: Any, count: int) -> np.ndarray:
    """``count`` tasks to audit, fixed by the outcome: evenly spaced (by index) among the
    admitted tasks (half, rounded up) and among the rejected tasks that had a schedule."""
    if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)) or count < 0:
        raise InvalidScenarioError("audit_tasks", f"= {count!r} must be an integer >= 0")
    admitted = np.nonzero(outcome.admitted)[0]
    surplus = outcome.plan["surplus"].values
    rejected = np.nonzero(~outcome.admitted & np.isfinite(surplus))[0]
    want_in = min(admitted.size, -(-count // 2))
    want_out = min(rejected.size, count - want_in)
    want_in = min(admitted.size, count - want_out)
    pick = lambda pool, k: pool[np.linspace(0, pool.size - 1, k).round().astype(int)] if k else pool[:0]  # noqa: E731
    return np.unique(np.concatenate([pick(admitted, want_in), pick(rejected, want_out)]))


def audit_summary(instance: LoraInstance, outcome: Any, count: int, **options: Any) -> dict[str, Any]:
    """Full re-run audit of ``count`` tasks (:func:`audited_tasks`) on :data:`AUDIT_FACTORS`.

    Returns
    -------
    dict
        ``misreport_gain``: the largest utility gain of a misreport over the audited
        tasks, relative to the task's true value (0 when truthful bidding is best;
        NaN when no task was audited); ``misreport_gain_abs`` the same in money;
        ``audit_curves``: JSON ``{task: {"value", "bids", "utility", "admitted"}}``
        (the paper's Fig. 10, utility against bid).
    """
    tasks = audited_tasks(outcome, count)
    curves, gains, rel = {}, [], []
    for task in tasks:
        task = int(task)
        value = float(instance.bid[task])
        table = audit_reruns(instance, task, np.concatenate([[value], AUDIT_FACTORS * value]), **options)
        gain = float(table["utility"].max() - table.loc[0, "utility"])
        gains.append(gain)
        rel.append(gain / value if value > 0 else gain)
        curves[str(task)] = {"value": value, "bids": table["bid"].tolist(),
                             "utility": table["utility"].tolist(), "admitted": table["admitted"].tolist()}
    return {"audit_tasks": int(tasks.size),
            "misreport_gain": float(max(rel)) if rel else float("nan"),
            "misreport_gain_abs": float(max(gains)) if gains else float("nan"),
            "audit_curves": json.dumps(curves)}


pdftsp.AUDIT_SUMMARY[:] = [audit_summary]  # run(audit_tasks=n) calls it
