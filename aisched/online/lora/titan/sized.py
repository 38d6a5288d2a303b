"""Titan's ``slot_budget="sized"`` (experimental): the JCT stage's time limit tied to
the program's size, and its starting point (solved by HiGHS through ``highspy``, given that point,
via :func:`aisched.solvers.highs.solve_milp` with ``engine="highspy"``).

:mod:`aisched.online.lora.titan.model` builds the same slot program either way; under
``budget="sized"`` it solves the count stage as the default does (up to the slot limit)
and the JCT stage from the count stage's plan (feasible for it: same rows, and the
count row holds), for at most :func:`sized_limit` seconds, so a stop at the limit
keeps a plan at least as good as that start. Measured in docs/readings/lora.md (lora,
"Titan's day"): 7x less CPU than the 20 s form on Fig. 4's 50-node day, 7.5 % less
welfare; no scenario uses it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sized_limit", "least_completion"]


#: ``budget="sized"``: seconds of the JCT stage per 1,000 columns, and the least (wall clock).
SIZED_SECONDS_PER_1000_COLUMNS = 0.5
SIZED_FLOOR_S = 0.5


def sized_limit(n_columns: int, cap: float | None) -> float:
    """Time limit of the JCT stage under ``budget="sized"``: 0.5 s per 1,000 columns, at
    least 0.5 s, at most ``cap`` (the slot time limit)."""
    limit = max(SIZED_FLOOR_S, SIZED_SECONDS_PER_1000_COLUMNS * n_columns / 1000.0)
    return limit if cap is None else min(limit, float(cap))


def least_completion(col_task: np.ndarray, col_slot: np.ndarray, start: np.ndarray, fewest: np.ndarray,
                     y: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Least ``C_i`` meeting the JCT rows of ``titan.model`` for cells ``y`` (columns
    ``col_task``, ``col_slot``) and admissions ``u``: a feasible starting point."""
    n = start.size
    last = np.zeros(n)
    used = y > 0.5
    np.maximum.at(last, col_task[used], col_slot[used].astype(float))
    count = np.bincount(col_task[used], minlength=n).astype(float)
    return np.maximum.reduce([last, (start + fewest - 1) * u, count + (start - 1) * u, np.zeros(n)])
