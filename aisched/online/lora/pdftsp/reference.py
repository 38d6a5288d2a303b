"""Plain NumPy oracle for pdFTSP's per-task schedule selection (Algorithm 2, eqs. (9)-(13)).

Written for clarity, not speed: the test oracle of ``aisched.online.lora.pdftsp.kernel`` and
``aisched.online.lora.pdftsp.fronts``.

* ``find_schedule`` -- Algorithm 2's ``findSchedule``: the literal forward DP
  (13) over ``dp[t, w]`` for ONE option, loops in the paper's order (``w``,
  then ``t``, then ``k``), then a backtrack from ``dp[d_i, W_i]``.
* ``select_cell_prices_reference`` -- Algorithm 2 lines 2-5 with each cell at
  its own duals: ``findSchedule`` per option, F (10) of each schedule, the
  option of largest F.
* ``find_schedule_running_max`` / ``select_faithful_reference`` -- the same with
  line 13 as printed: ``Delta_kt`` at the running maxima ``lambda-hat``,
  ``phi-hat`` of the path through ``dp[t-1, w - s_ik]`` (oracle of
  ``aisched.online.lora.pdftsp.fronts``, which runs ``selection="faithful"``).
* ``select_exact_bruteforce`` -- maximises (10) by enumerating every schedule
  (each slot of the window idle or on one node), for tiny cases only.

Conventions (shared with the kernel): 0-based slots, ``deadline`` inclusive,
work in integer units (``units[k] = s_ik / work_unit``, 0 = node unusable),
``e_kt = energy_use[k] * energy_price[k, t]``.

Paper ambiguities, resolved as in the kernel: Algorithm 2 initialises
``dp[t, 0] = 0`` on ``[a+h, d]`` and loops ``t`` from ``a+h+1``, which read
literally never runs slot ``a+h``; constraint (4c) allows it, so the DP gets a
virtual base row (``dp[base, 0] = 0``, ``dp[base, w > 0] = inf``) just before
the first usable slot. ``w - s_ik < 0`` is read as 0 (work (4e) is ``>=``).

Tie-breaking of the backtrack (the kernel uses the same rules, but it runs its
DP backward, so on ties the two may return different optimal schedules): a slot
stays idle when ``dp[t-1, w] <= dp[t, w]``; among nodes whose value equals
``dp[t, w]``, the cheapest ``Delta_kt``, then the lowest node index; among
options, the largest F, then the lowest index.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

__all__ = [
    "ReferenceChoice",
    "cell_costs",
    "find_schedule",
    "schedule_surplus",
    "find_schedule_running_max",
    "select_cell_prices_reference",
    "select_faithful_reference",
    "select_exact_bruteforce",
]


class ReferenceChoice(NamedTuple):
    """The oracle's answer; fields as ``pdftsp.kernel.ScheduleChoice`` plus per-option data.

    ``option_cost`` is the DP optimum (12) per option (``inf`` if invalid or
    infeasible; ``nan`` for brute force) and ``option_assignment`` (N, T) each
    option's schedule.
    """

    option: int
    surplus: float
    assignment: np.ndarray
    compute_max_price: float
    memory_max_price: float
    total_compute: float
    total_memory: float
    energy: float
    option_surplus: np.ndarray
    option_cost: np.ndarray
    option_assignment: np.ndarray


def cell_costs(compute_price, memory_price, energy_price, energy_use, throughput, memory_need):
    """Return ``(e, Delta)``, both (K, T): energy ``e_kt`` and DP cost (13) ``Delta_kt``.

    ``Delta_kt = s_ik * lambda_kt + r_i * phi_kt + e_kt`` (each cell at its own prices).
    """
    energy = np.asarray(energy_use, float)[:, None] * np.asarray(energy_price, float)
    s = np.asarray(throughput, float)[:, None]
    delta = s * np.asarray(compute_price, float) + memory_need * np.asarray(memory_price, float)
    return energy, delta + energy


def find_schedule(delta, units, start: int, deadline: int, work_units: int):
    """Algorithm 2's ``findSchedule``: forward DP (13) for one option.

    Parameters
    ----------
    delta : (K, T) cell costs; units : (K,) int, 0 = unusable node.
    start, deadline : first and last usable slot (``a_i + h_in`` and ``d_i``).
    work_units : ``W_i``.

    Returns
    -------
    cost : float
        ``dp[d_i, W_i]`` (``inf`` if ``W_i`` units cannot be gathered).
    assignment : (T,) int
        Node per slot, -1 idle (all -1 if infeasible).
    """
    delta = np.asarray(delta, float)
    units = np.asarray(units, int)
    n_nodes, n_slots = delta.shape
    assignment = np.full(n_slots, -1, dtype=int)
    lo, hi = max(int(start), 0), min(int(deadline), n_slots - 1)
    if lo > hi:
        return np.inf, assignment
    length = hi - lo + 1
    # row j (1..length) is slot lo + j - 1; row 0 is the virtual base row.
    dp = np.full((length + 1, work_units + 1), np.inf)
    dp[:, 0] = 0.0  # Algorithm 2, line 9
    for w in range(1, work_units + 1):  # line 10
        for j in range(1, length + 1):  # line 11
            t = lo + j - 1
            best = dp[j - 1, w]
            for k in range(n_nodes):  # line 12
                if units[k] <= 0:
                    continue
                best = min(best, dp[j - 1, max(0, w - units[k])] + delta[k, t])  # (13)
            dp[j, w] = best
    cost = dp[length, work_units]
    if not np.isfinite(cost):
        return np.inf, assignment
    w = work_units
    for j in range(length, 0, -1):  # line 16: recover the schedule achieving dp[d, W]
        if w <= 0:
            break
        t = lo + j - 1
        if dp[j - 1, w] <= dp[j, w]:
            continue  # idle
        best_k, best_d = -1, np.inf
        for k in range(n_nodes):
            if units[k] <= 0:
                continue
            if dp[j - 1, max(0, w - units[k])] + delta[k, t] == dp[j, w] and delta[k, t] < best_d:
                best_k, best_d = k, delta[k, t]
        assignment[t] = best_k
        w = max(0, w - units[best_k])
    return float(cost), assignment


def schedule_surplus(assignment, fee: float, bid: float, compute_price, memory_price, energy,
                     throughput, memory_need: float):
    """F (10) of a schedule and its parts.

    Returns
    -------
    (F, cmax, mmax, sum s, r * #cells, sum e); F of an empty schedule is ``-inf``.
    """
    assignment = np.asarray(assignment)
    slots = np.nonzero(assignment >= 0)[0]
    if slots.size == 0:
        return -np.inf, 0.0, 0.0, 0.0, 0.0, 0.0
    nodes = assignment[slots]
    cmax = float(np.max(np.asarray(compute_price)[nodes, slots]))
    mmax = float(np.max(np.asarray(memory_price)[nodes, slots]))
    tot_s = float(np.sum(np.asarray(throughput, float)[nodes]))
    tot_m = float(memory_need * slots.size)
    en = float(np.sum(np.asarray(energy)[nodes, slots]))
    return bid - fee - en - cmax * tot_s - mmax * tot_m, cmax, mmax, tot_s, tot_m, en


def _choice(per_option, costs, assigns, n_slots) -> ReferenceChoice:
    """Algorithm 2, line 5: the option of largest F (ties: lowest index)."""
    surplus = np.array([p[0] for p in per_option], float)
    best = int(np.argmax(surplus)) if surplus.size else 0
    if surplus.size == 0 or not np.isfinite(surplus[best]):
        return ReferenceChoice(-1, -np.inf, np.full(n_slots, -1), 0.0, 0.0, 0.0, 0.0, 0.0,
                               surplus, costs, assigns)
    f, cmax, mmax, tot_s, tot_m, en = per_option[best]
    return ReferenceChoice(best, f, assigns[best].copy(), cmax, mmax, tot_s, tot_m, en, surplus,
                           costs, assigns)


def select_cell_prices_reference(compute_price, memory_price, energy_price, energy_use, throughput,
                                 throughput_units, memory_need, work_units, start, deadline, fee,
                                 valid, bid) -> ReferenceChoice:
    """Algorithm 2 with cells at their own duals: ``findSchedule`` per option, F (10), best (9)."""
    energy, delta = cell_costs(compute_price, memory_price, energy_price, energy_use, throughput,
                               memory_need)
    n_slots = delta.shape[1]
    costs, assigns, per_option = [], [], []
    for n in range(len(start)):
        if valid[n]:
            cost, assign = find_schedule(delta, throughput_units, start[n], deadline, work_units)
        else:
            cost, assign = np.inf, np.full(n_slots, -1)
        costs.append(cost)
        assigns.append(assign)
        if np.isfinite(cost):
            per_option.append(schedule_surplus(assign, fee[n], bid, compute_price, memory_price,
                                               energy, throughput, memory_need))
        else:
            per_option.append((-np.inf, 0.0, 0.0, 0.0, 0.0, 0.0))
    return _choice(per_option, np.array(costs, float), np.array(assigns).reshape(-1, n_slots),
                   n_slots)


def find_schedule_running_max(compute_price, memory_price, energy, throughput, memory_need, units,
                              start: int, deadline: int, work_units: int):
    """Algorithm 2's ``findSchedule`` with line 13 as printed (running maxima of (12c)-(12d)).

    ``dp[t, w] = min(dp[t-1, w], min_k dp[t-1, w - s_ik] + Delta_kt)`` with
    ``Delta_kt = s_ik lhat + r_i phat + e_kt`` where ``lhat = max(lhat[t-1, w - s_ik],
    lambda_kt)`` and ``phat`` likewise; ``lhat = phat = 0`` at ``w = 0`` (line 9);
    an idle slot keeps the predecessor's maxima. Ties: idle, then lowest node.

    Returns
    -------
    (cost, assignment) as :func:`find_schedule`.
    """
    lam_all, phi_all = np.asarray(compute_price, float), np.asarray(memory_price, float)
    energy, s = np.asarray(energy, float), np.asarray(throughput, float)
    units = np.asarray(units, int)
    n_nodes, n_slots = lam_all.shape
    assignment = np.full(n_slots, -1, dtype=int)
    lo, hi = max(int(start), 0), min(int(deadline), n_slots - 1)
    if lo > hi:
        return np.inf, assignment
    length = hi - lo + 1
    dp = np.full((length + 1, work_units + 1), np.inf)
    lhat = np.zeros((length + 1, work_units + 1))
    phat = np.zeros((length + 1, work_units + 1))
    pick = np.full((length + 1, work_units + 1), -1, dtype=int)
    dp[:, 0] = 0.0  # line 9
    for w in range(1, work_units + 1):  # line 10
        for j in range(1, length + 1):  # line 11
            t = lo + j - 1
            dp[j, w], lhat[j, w], phat[j, w] = dp[j - 1, w], lhat[j - 1, w], phat[j - 1, w]
            for k in range(n_nodes):  # line 12
                if units[k] <= 0:
                    continue
                p = max(0, w - units[k])
                lam = max(lhat[j - 1, p], lam_all[k, t])  # line 13
                phi = max(phat[j - 1, p], phi_all[k, t])
                cand = dp[j - 1, p] + s[k] * lam + memory_need * phi + energy[k, t]
                if cand < dp[j, w]:
                    dp[j, w], lhat[j, w], phat[j, w], pick[j, w] = cand, lam, phi, k
    cost = dp[length, work_units]
    if not np.isfinite(cost):
        return np.inf, assignment
    w = work_units
    for j in range(length, 0, -1):
        if w <= 0:
            break
        k = pick[j, w]
        if k >= 0:
            assignment[lo + j - 1] = k
            w = max(0, w - units[k])
    return float(cost), assignment


def select_faithful_reference(compute_price, memory_price, energy_price, energy_use, throughput,
                              throughput_units, memory_need, work_units, start, deadline, fee,
                              valid, bid) -> ReferenceChoice:
    """Algorithm 2 as printed: running-maxima ``findSchedule`` per option, F (10), best (9)."""
    energy, _ = cell_costs(compute_price, memory_price, energy_price, energy_use, throughput,
                           memory_need)
    n_slots = energy.shape[1]
    costs, assigns, per_option = [], [], []
    for n in range(len(start)):
        cost, assign = np.inf, np.full(n_slots, -1)
        if valid[n]:
            cost, assign = find_schedule_running_max(compute_price, memory_price, energy, throughput,
                                                     memory_need, throughput_units, start[n],
                                                     deadline, work_units)
        costs.append(cost)
        assigns.append(assign)
        per_option.append(
            schedule_surplus(assign, fee[n], bid, compute_price, memory_price, energy, throughput,
                             memory_need) if np.isfinite(cost) else (-np.inf, 0.0, 0.0, 0.0, 0.0, 0.0))
    return _choice(per_option, np.array(costs, float), np.array(assigns).reshape(-1, n_slots),
                   n_slots)


def select_exact_bruteforce(compute_price, memory_price, energy_price, energy_use, throughput,
                            throughput_units, memory_need, work_units, start, deadline, fee,
                            valid, bid) -> ReferenceChoice:
    """Maximise F (10) over ALL schedules of every valid option (tiny cases: (K+1)^window)."""
    energy, _ = cell_costs(compute_price, memory_price, energy_price, energy_use, throughput,
                           memory_need)
    units = np.asarray(throughput_units, int)
    n_nodes, n_slots = energy.shape
    usable = [k for k in range(n_nodes) if units[k] > 0]
    assigns, per_option = [], []
    for n in range(len(start)):
        best = ((-np.inf, 0.0, 0.0, 0.0, 0.0, 0.0), np.full(n_slots, -1))
        lo, hi = max(int(start[n]), 0), min(int(deadline), n_slots - 1)
        if valid[n] and lo <= hi:
            for combo in itertools.product([-1] + usable, repeat=hi - lo + 1):
                if sum(units[k] for k in combo if k >= 0) < work_units:
                    continue  # (4e)
                assign = np.full(n_slots, -1)
                assign[lo:hi + 1] = combo
                res = schedule_surplus(assign, fee[n], bid, compute_price, memory_price, energy,
                                       throughput, memory_need)
                if res[0] > best[0][0]:
                    best = (res, assign)
        per_option.append(best[0])
        assigns.append(best[1])
    return _choice(per_option, np.full(len(start), np.nan), np.array(assigns).reshape(-1, n_slots),
                   n_slots)
