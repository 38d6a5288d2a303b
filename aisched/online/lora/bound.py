"""A certified upper bound on IP (4)'s optimum: configuration LP by column generation, Lagrangian bound.

IP (4) couples tasks only through the capacities (4f) compute and (4g) memory
of every (node, slot). Relaxing them with prices ``pi^c_kt, pi^m_kt >= 0``
(the duals the online pdFTSP also keeps, lambda and phi) splits it per task::

    L(pi) = sum_i max(0, max_l [ b_i - q_in(l) - sum_{(k,t) in l} (e_ikt + pi^c_kt s_ik + pi^m_kt r_i) ])
            + sum_kt pi^c_kt C_kp + pi^m_kt (C_km - r_b),

over the schedules ``l`` of task ``i`` that IP (4) allows on its own (a vendor,
at most one node per slot (4b), inside ``[start_n, d_i]`` (4c)-(4d), work
(4e)). ``L(pi) >= OPT`` for *every* ``pi >= 0`` (weak Lagrangian duality), so a
time limit still returns a certified bound: the least ``L`` seen.

The prices come from the configuration LP (Dantzig-Wolfe master): one column
per generated schedule, ``sum_l lambda_il <= 1`` per task, capacities per
(node, slot); solved by HiGHS (``scipy.optimize.linprog``). Pricing is the
per-task problem above, solved exactly by a dynamic program over (slot, work
units) -- the per-cell-priced DP (13) of pdFTSP. When work and throughput are
not whole multiples of one unit, the DP rounds throughput *up* and work
*down*, a relaxation: the bound stays valid, only looser (``info["exact_units"]``).
Generation stops when no task has a column of positive reduced profit (the LP
is then optimal and ``L`` equals its value), or at the limits.

A primal value comes from the MILP restricted to the generated columns that
meet (4e) exactly (``scipy.optimize.milp``, HiGHS); its plan passes
:func:`aisched.models.lora.verify_plan`, so ``bound - primal`` is a proven gap.

This module prices with NumPy, task by task: it is meant for instances up to a
few hundred tasks. Paper scale (11,755 tasks, 200 nodes) needs the jitted,
batched pricing of issue 17, not yet written.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import xarray as xr
from scipy.optimize import LinearConstraint, linprog, milp
from scipy.sparse import csr_matrix, vstack

from aisched.models.lora import LoraInstance
from aisched.models.lora.plan import make_plan, verify_plan
from aisched.outcome import Outcome
from aisched.registry import register_bound

__all__ = ["Column", "bound", "price_task"]

#: Work units a task may need in the pricing DP (above this the unit grows and the DP relaxes).
MAX_UNITS = 400


@dataclass(frozen=True)
class Column:
    """One schedule of one task: vendor (-1 for none), cells (node per slot, -1 idle), value, work."""

    task: int
    vendor: int
    nodes: tuple[int, ...]  # per slot of the horizon: node or -1
    value: float  # b_i - q_in - sum e_ikt
    work: float  # samples processed (true, not rounded)


def _units(instance: LoraInstance) -> tuple[float, bool]:
    values = np.concatenate([instance.work, instance.throughput[instance.throughput > 0]])
    if values.size and np.all(values == np.round(values)) and np.all(values < 2**53):
        unit = float(np.gcd.reduce(values.astype(np.int64)))
        if unit > 0 and float(np.max(instance.work, initial=0.0)) / unit <= MAX_UNITS:
            return unit, True
    return max(float(np.max(instance.work, initial=1.0)) / MAX_UNITS, 1e-12), False


def _options(instance: LoraInstance, i: int) -> list[tuple[int, int, float]]:
    """(vendor, first usable slot, fee) of task ``i``: one per vendor, or (-1, arrival, 0)."""
    arrival = int(instance.arrival[i])
    if not instance.needs_preprocessing[i]:
        return [(-1, arrival, 0.0)]
    return [(n, arrival + int(instance.vendor_delay[i, n]), float(instance.vendor_price[i, n]))  # (4c)
            for n in range(instance.num_vendors)]


def price_task(instance: LoraInstance, i: int, compute_price: np.ndarray, memory_price: np.ndarray,
               unit: float) -> tuple[float, Column | None]:
    """The task's best schedule under the prices: (reduced profit, column); (-inf, None) if none.

    Reduced profit ``b_i - q_in - sum_(k,t) (e_ikt + pi^c_kt s_ik + pi^m_kt r_i)``, maximised over
    vendors and schedules by a backward DP ``g[t, w]`` = least cost to gather ``>= w`` units in
    slots ``t..d_i`` (throughput rounded up, work down, to ``unit``: exact when both are multiples).
    """
    s = instance.throughput[i]
    usable = np.flatnonzero(s > 0)
    deadline, T = int(instance.deadline[i]), instance.num_slots
    need = int(math.floor(instance.work[i] / unit + 1e-9))
    gain = np.ceil(s[usable] / unit - 1e-9).astype(np.int64)
    if usable.size == 0 or deadline < 0:
        return -math.inf, None
    energy = instance.energy_cost(i)  # e_ikt, (K, T)
    cost = energy + compute_price * s[:, None] + memory_price * instance.memory_need[i]  # (K, T)
    options = _options(instance, i)
    first = min((o[1] for o in options), default=deadline + 1)
    if first > deadline:
        return -math.inf, None
    slots = np.arange(first, deadline + 1)
    g = np.full((slots.size + 1, need + 1), math.inf)
    g[slots.size, 0] = 0.0
    choice = np.full((slots.size, need + 1), -1, dtype=np.int64)
    w = np.arange(need + 1)
    for j in range(slots.size - 1, -1, -1):
        best, pick = g[j + 1].copy(), np.full(need + 1, -1, dtype=np.int64)
        for u, k in zip(gain, usable, strict=True):
            cand = g[j + 1][np.maximum(w - u, 0)] + cost[k, slots[j]]
            better = cand < best - 1e-15
            best, pick = np.where(better, cand, best), np.where(better, k, pick)
        g[j], choice[j] = np.minimum(best, np.inf), pick
    top, column = -math.inf, None
    for vendor, start, fee in options:
        j0 = start - first
        if start > deadline or not math.isfinite(g[j0, need]):
            continue
        profit = float(instance.bid[i]) - fee - g[j0, need]
        if profit > top:
            nodes = np.full(T, -1, dtype=np.int64)
            left, value = need, float(instance.bid[i]) - fee
            for j in range(j0, slots.size):
                k = choice[j, left]
                if left == 0 or k < 0:
                    continue
                nodes[slots[j]] = k
                value -= energy[k, slots[j]]
                left = max(0, left - int(np.ceil(s[k] / unit - 1e-9)))
            work = float(sum(s[k] for k in nodes if k >= 0))
            top, column = profit, Column(i, vendor, tuple(int(k) for k in nodes), value, work)
    return top, column


def _usage(instance: LoraInstance, columns: list[Column]) -> tuple[csr_matrix, csr_matrix]:
    """(task rows, capacity rows) of the master LP: capacity rows are compute (k, t) then memory (k, t)."""
    K, T = instance.num_nodes, instance.num_slots
    trows, tcols, crow, ccol, cval = [], [], [], [], []
    for c, col in enumerate(columns):
        trows.append(col.task)
        tcols.append(c)
        for t, k in enumerate(col.nodes):
            if k >= 0:
                crow += [k * T + t, K * T + k * T + t]
                ccol += [c, c]
                cval += [float(instance.throughput[col.task, k]), float(instance.memory_need[col.task])]
    n = len(columns)
    tasks = csr_matrix((np.ones(n), (trows, tcols)), shape=(instance.num_tasks, n))
    caps = csr_matrix((cval, (crow, ccol)), shape=(2 * K * T, n))
    return tasks, caps


@register_bound("lora")
def bound(instance: LoraInstance, *, time_limit: float | None = 60.0, max_iterations: int = 500,
          tolerance: float = 1e-7, primal: bool = True) -> Outcome:
    """A certified upper bound on IP (4)'s optimum, with the prices that certify it and a primal value.

    Parameters
    ----------
    instance
        The problem.
    time_limit
        Seconds for column generation (the primal MILP gets the same again); the
        bound returned is valid whenever it stops.
    max_iterations
        Column-generation rounds.
    tolerance
        A column enters when its reduced profit exceeds the task's dual by more.
    primal
        Also solve the MILP restricted to the generated (exact) columns.

    Returns
    -------
    Outcome
        ``algorithm="bound"``, ``status`` "lp_optimal" (generation converged: the
        bound is the configuration LP's value) or "limit" (a Lagrangian bound at
        a time or iteration limit); ``bound`` the certified upper bound;
        ``objective`` the primal value (its plan verified; 0, the empty plan,
        without one); ``prices`` the certifying ``compute_price`` and
        ``memory_price`` over (node, slot); ``info``: iterations, columns, LP
        value, Lagrangian bound, exact_units, seconds.
    """
    started = time.perf_counter()
    K, T, n = instance.num_nodes, instance.num_slots, instance.num_tasks
    unit, exact = _units(instance)
    capacity = np.concatenate([np.repeat(instance.compute_capacity, T),
                               np.repeat(instance.memory_capacity - instance.base_memory, T)])
    compute_price, memory_price = np.zeros((K, T)), np.zeros((K, T))
    columns: list[Column] = []
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    best_bound, best_prices = math.inf, (compute_price, memory_price)
    lp_value, status, iterations = math.nan, "limit", 0
    task_dual = np.zeros(n)
    while iterations < max_iterations:
        iterations += 1
        lagrangian = float(np.sum(compute_price * instance.compute_capacity[:, None])
                           + np.sum(memory_price * (instance.memory_capacity - instance.base_memory)[:, None]))
        entering = 0
        for i in range(n):
            profit, col = price_task(instance, i, compute_price, memory_price, unit)
            lagrangian += max(0.0, profit)
            if col is not None and profit > task_dual[i] + tolerance:
                key = (col.task, col.vendor, col.nodes)
                if key not in seen:
                    seen.add(key)
                    columns.append(col)
                    entering += 1
        if lagrangian < best_bound:
            best_bound, best_prices = lagrangian, (compute_price.copy(), memory_price.copy())
        if entering == 0:
            status = "lp_optimal" if iterations > 1 or not columns else status
            break
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
        tasks, caps = _usage(instance, columns)
        values = np.array([c.value for c in columns])
        res = linprog(-values, A_ub=vstack([tasks, caps]).tocsr(), b_ub=np.concatenate([np.ones(n), capacity]),
                      bounds=(0, 1), method="highs")
        lp_value = -float(res.fun)
        duals = -np.asarray(res.ineqlin.marginals)
        task_dual = np.maximum(duals[:n], 0.0)
        compute_price = np.maximum(duals[n:n + K * T], 0.0).reshape(K, T)
        memory_price = np.maximum(duals[n + K * T:], 0.0).reshape(K, T)
    objective, plan = 0.0, make_plan(instance, np.full((n, T), -1), np.full(n, -1), np.zeros(n, dtype=bool))
    exact_columns = [c for c in columns if c.work >= instance.work[c.task] - 1e-9 * max(1.0, instance.work[c.task])]
    if primal and exact_columns:
        plan, objective = _restricted_milp(instance, exact_columns, capacity, time_limit)
    prices = xr.Dataset(
        {"compute_price": (("node", "slot"), best_prices[0]), "memory_price": (("node", "slot"), best_prices[1])},
        coords={"node": np.arange(K), "slot": np.arange(T)},
    )
    return Outcome(
        algorithm="bound", family="lora", objective=objective, plan=plan, prices=prices,
        admitted=plan["admitted"].values.copy(), payments=None, status=status, bound=float(best_bound),
        runtime_s=time.perf_counter() - started, decision_s=np.zeros(0),
        info={"iterations": iterations, "columns": len(columns), "lp_value": lp_value,
              "lagrangian_bound": float(best_bound), "exact_units": exact, "work_unit": unit,
              "primal": objective, "gap": float(best_bound - objective)},
    )


def _restricted_milp(instance: LoraInstance, columns: list[Column], capacity: np.ndarray,
                     time_limit: float | None) -> tuple[xr.Dataset, float]:
    """The best plan using only ``columns`` (binary choice), verified; the empty plan if none better."""
    n, T = instance.num_tasks, instance.num_slots
    tasks, caps = _usage(instance, columns)
    values = np.array([c.value for c in columns])
    options = {"time_limit": float(time_limit)} if time_limit is not None else {}
    res = milp(-values, integrality=np.ones(len(columns)), bounds=(0, 1), options=options,
               constraints=LinearConstraint(vstack([tasks, caps]).tocsr(), -np.inf,
                                            np.concatenate([np.ones(n), capacity])))
    assignment, vendor, admitted = np.full((n, T), -1), np.full(n, -1), np.zeros(n, dtype=bool)
    if res.x is None:
        return make_plan(instance, assignment, vendor, admitted), 0.0
    for c, chosen in zip(columns, np.round(res.x), strict=True):
        if chosen > 0.5:
            assignment[c.task] = c.nodes
            vendor[c.task] = c.vendor
            admitted[c.task] = True
    plan = make_plan(instance, assignment, vendor, admitted)
    return plan, float(verify_plan(instance, plan))
