"""pdFTSP's proof invariants, recorded on every run: the dual objective (6) and Lemma 1's per-step inequality.

The proof of Theorem 5 (the paper's appendix) rests on one per-task inequality
(Lemma 1): for every task ``i`` with ``F(il) > 0`` (the almost-feasible set
``S_a``), the dual objective (6) grows by at most ``(1 + max{alpha, beta})``
times the task's welfare ``b_il``::

    D_1^i - D_1^(i-1) = mu_i + sum_kt C_kp (lambda_kt^(i) - lambda_kt^(i-1))
                        + sum_kt (C_km - r_b) (phi_kt^(i) - phi_kt^(i-1))
                      <= (1 + max{alpha, beta}) b_il.

:class:`~aisched.online.lora.pdftsp.PdftspState` records each step's
``D_1^i - D_1^(i-1)`` and ``b_il`` as it raises the prices (7)-(8);
:func:`summary` turns them into the run's ``info`` entries. Lemma 4 (is
``(mu, lambda^(I), phi^(I))`` dual feasible?) needs one dynamic programme per
task at the final prices and is checked by :mod:`aisched.theorems.lora`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["dual_step", "summary", "LEMMA1_TOLERANCE"]

#: Relative slack below which Lemma 1's step inequality counts as violated (rounding).
LEMMA1_TOLERANCE = 1e-9


def dual_step(mu: float, compute_capacity: np.ndarray, memory_room: np.ndarray,
              d_compute_price: np.ndarray, d_memory_price: np.ndarray) -> float:
    """One task's growth of the dual objective (6), ``D_1^i - D_1^(i-1)``.

    Parameters
    ----------
    mu
        ``mu_i = max{0, F(il)}`` (11).
    compute_capacity, memory_room
        ``C_kp`` and ``C_km - r_b`` of the schedule's cells.
    d_compute_price, d_memory_price
        ``lambda_kt^(i) - lambda_kt^(i-1)`` and ``phi_kt^(i) - phi_kt^(i-1)`` on those cells.
    """
    return float(max(mu, 0.0) + np.sum(compute_capacity * d_compute_price)
                 + np.sum(memory_room * d_memory_price))


def summary(instance: Any, prices: Any, surplus: np.ndarray, welfare: np.ndarray, step: np.ndarray,
            size: np.ndarray, alpha: float, beta: float) -> dict[str, float]:
    """The run's invariants, for ``Outcome.info``.

    Parameters
    ----------
    instance
        The :class:`~aisched.models.lora.LoraInstance`.
    prices
        Final ``compute_price`` (``lambda^(I)``) and ``memory_price`` (``phi^(I)``).
    surplus
        (task,) ``F(il)`` of (10) (``-inf`` where no schedule exists).
    welfare, step, size
        (task,) ``b_il`` of the chosen schedule, ``D_1^i - D_1^(i-1)`` and
        ``sum_kt (s_kt(il) + r_kt(il))``, set where ``F > 0``.
    alpha, beta
        The run's scales of (7)-(8).

    Returns
    -------
    dict
        ``dual_objective``: ``D_1^I`` of (6) at ``mu_i = max{0, F(il)}`` (11) and the
        final prices; ``almost_feasible_welfare``: ``P~_1^I = sum_{i in S_a} b_il``;
        ``lemma1_slack``: the least relative slack of Lemma 1's step inequality,
        ``min_{i in S_a} 1 - (D_1^i - D_1^(i-1)) / ((1 + max{alpha, beta}) b_il)``
        (>= 0 when it holds; NaN when ``S_a`` is empty); ``lemma1_ratio``:
        ``(1 + max{alpha, beta}) P~_1^I / D_1^I`` (>= 1 is Lemma 1 itself);
        ``welfare_per_unit_min`` / ``_max``: the least and largest ``b-bar_il`` (below (8))
        over the schedules of ``S_a`` (Lemma 2's premise and Lemma 3's ``rho``).
    """
    almost = np.isfinite(surplus) & (surplus > 0)
    room = instance.memory_capacity - instance.base_memory
    dual = float(np.sum(np.where(almost, surplus, 0.0))
                 + np.sum(instance.compute_capacity[:, None] * prices["compute_price"].values)
                 + np.sum(room[:, None] * prices["memory_price"].values))
    factor = 1.0 + max(alpha, beta)
    p_tilde = float(np.sum(welfare[almost]))
    nan = float("nan")
    slack = float(np.min(1.0 - step[almost] / (factor * welfare[almost]))) if almost.any() else nan
    per_unit = welfare[almost] / size[almost]
    return {"dual_objective": dual, "almost_feasible_welfare": p_tilde, "lemma1_slack": slack,
            "lemma1_ratio": factor * p_tilde / dual if dual > 0 else nan,
            "welfare_per_unit_min": float(per_unit.min()) if per_unit.size else nan,
            "welfare_per_unit_max": float(per_unit.max()) if per_unit.size else nan}
