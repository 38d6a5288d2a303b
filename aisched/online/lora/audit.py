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

from typing import Any

import numpy as np
import pandas as pd

from aisched.models.lora import LoraInstance
from aisched.online.lora.pdftsp import audit_bids, run

__all__ = ["audit_reruns", "best_misreport"]


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
