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
(node, slot); solved by HiGHS (``highspy``, columns added to the same model so
each round warm-starts) -- ``method="colgen"``; or, without an LP, by projected
subgradient steps (``method="subgradient"``). Pricing is the per-task problem
above, solved exactly by a dynamic program over (slot, work units) -- the
per-cell-priced DP (13) of pdFTSP: batched and jitted over all tasks
(``pricing="jax"``, :mod:`aisched.online.lora.bound_pricing`) or task by task
in NumPy (``pricing="numpy"``, :func:`price_task`, the reference). When work and throughput are
not whole multiples of one unit, the DP rounds throughput *up* and work
*down*, a relaxation: the bound stays valid, only looser (``info["exact_units"]``).
Generation stops when no task has a column of positive reduced profit (the LP
is then optimal and ``L`` equals its value), or at the limits.

A primal value comes from the MILP restricted to the generated columns that
meet (4e) exactly (``scipy.optimize.milp``, HiGHS), or at scale from greedy
rounding of those columns (``primal=``); its plan passes
:func:`aisched.models.lora.verify_plan`, so ``bound - primal`` is a proven gap.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Literal

import highspy
import numpy as np
import xarray as xr
from scipy.optimize import LinearConstraint, milp
from scipy.sparse import csr_matrix, vstack

from aisched.errors import InvalidScenarioError
from aisched.models.lora import LoraInstance
from aisched.models.lora.plan import make_plan, verify_plan
from aisched.online.lora.bound_pricing import BatchPricer, Priced
from aisched.outcome import Outcome
from aisched.registry import register_bound

__all__ = ["Column", "bound", "price_task"]

#: Work units a task may need in the NumPy pricing DP (above this the unit grows and the DP relaxes).
MAX_UNITS = 400
#: The same for the batched JAX pricing (``pricing="jax"``): paper scale needs 1,000 units of 100 samples.
MAX_UNITS_BATCHED = 4096

Method = Literal["colgen", "subgradient"]
Pricing = Literal["jax", "numpy"]
Primal = Literal["auto", "milp", "greedy", "none"]


@dataclass(frozen=True)
class Column:
    """One schedule of one task: vendor (-1 for none), cells (node per slot, -1 idle), value, work."""

    task: int
    vendor: int
    nodes: tuple[int, ...]  # per slot of the horizon: node or -1
    value: float  # b_i - q_in - sum e_ikt
    work: float  # samples processed (true, not rounded)


def _units(instance: LoraInstance, most: int = MAX_UNITS) -> tuple[float, bool]:
    """The DP's work unit (the gcd of work and throughput when whole and small enough) and whether exact."""
    values = np.concatenate([instance.work, instance.throughput[instance.throughput > 0]])
    if values.size and np.all(values == np.round(values)) and np.all(values < 2**53):
        unit = float(np.gcd.reduce(values.astype(np.int64)))
        if unit > 0 and float(np.max(instance.work, initial=0.0)) / unit <= most:
            return unit, True
    return max(float(np.max(instance.work, initial=1.0)) / most, 1e-12), False


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


def _price_numpy(instance: LoraInstance, compute_price: np.ndarray, memory_price: np.ndarray,
                 unit: float) -> Priced:
    """Every task priced by :func:`price_task` (the NumPy reference), as a :class:`Priced`."""
    n, T = instance.num_tasks, instance.num_slots
    profit, vendor = np.full(n, -math.inf), np.full(n, -1)
    assignment, value, work = np.full((n, T), -1), np.full(n, -math.inf), np.zeros(n)
    for i in range(n):
        profit[i], col = price_task(instance, i, compute_price, memory_price, unit)
        if col is not None:
            vendor[i], assignment[i], value[i], work[i] = col.vendor, col.nodes, col.value, col.work
    return Priced(profit, vendor, assignment, value, work)


class _Master:
    """The configuration LP (restricted master), kept in HiGHS so each round warm-starts.

    Rows: ``sum_l lambda_il <= 1`` per task, then compute (k, t) and memory (k, t) capacities.
    """

    def __init__(self, instance: LoraInstance, capacity: np.ndarray) -> None:
        self.instance, self.n = instance, instance.num_tasks
        self.h = highspy.Highs()
        self.h.setOptionValue("output_flag", False)
        upper = np.concatenate([np.ones(self.n), capacity])
        self.h.addRows(upper.size, np.full(upper.size, -highspy.kHighsInf), upper, 0,
                       np.zeros(upper.size, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))

    def add(self, columns: list[Column]) -> None:
        inst, K, T = self.instance, self.instance.num_nodes, self.instance.num_slots
        starts, index, coef = [], [], []
        for col in columns:
            starts.append(len(index))
            index.append(col.task)
            coef.append(1.0)
            cells = [(k, t) for t, k in enumerate(col.nodes) if k >= 0]
            index += [self.n + k * T + t for k, t in cells] + [self.n + K * T + k * T + t for k, t in cells]
            coef += ([float(inst.throughput[col.task, k]) for k, _ in cells]
                     + [float(inst.memory_need[col.task])] * len(cells))
        m = len(columns)
        self.h.addCols(m, -np.array([c.value for c in columns]), np.zeros(m), np.ones(m), len(index),
                       np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32), np.array(coef))

    def solve(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(LP value, task duals, compute prices (K, T), memory prices (K, T), column values)."""
        K, T = self.instance.num_nodes, self.instance.num_slots
        self.h.run()
        sol = self.h.getSolution()
        duals = np.maximum(-np.asarray(sol.row_dual), 0.0)
        value = -float(self.h.getInfo().objective_function_value)
        return (value, duals[:self.n], duals[self.n:self.n + K * T].reshape(K, T),
                duals[self.n + K * T:].reshape(K, T), np.asarray(sol.col_value))


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
def bound(instance: LoraInstance, *, method: Method = "colgen", pricing: Pricing = "jax",
          time_limit: float | None = 60.0, max_iterations: int = 500, tolerance: float = 1e-7,
          primal: Primal = "auto", prices: xr.Dataset | None = None) -> Outcome:
    """A certified upper bound on IP (4)'s optimum, with the prices that certify it and a primal value.

    Parameters
    ----------
    instance
        The problem.
    method
        ``"colgen"``: prices are the duals of the configuration LP over the
        generated columns (HiGHS, warm-started each round). ``"subgradient"``:
        no LP; prices move along the capacity violation of the priced
        schedules (Polyak step towards the best primal value). Both return the
        least Lagrangian bound ``L(pi)`` seen, certified at every round.
    pricing
        ``"jax"``: :class:`~aisched.online.lora.bound_pricing.BatchPricer`,
        all tasks per round in jitted batches (paper scale). ``"numpy"``: the
        reference :func:`price_task`, task by task (small instances).
    time_limit
        Seconds for the rounds (the primal heuristic gets the same again); the
        bound returned is valid whenever it stops.
    max_iterations
        Rounds (pricing passes).
    tolerance
        A column enters when its reduced profit exceeds the task's dual by more.
    primal
        The incumbent: ``"milp"`` (the MILP restricted to the generated columns
        that meet (4e)), ``"greedy"`` (those columns by decreasing LP value, then
        value, each taken when its task is free and capacity (4f)-(4g) holds),
        ``"auto"`` (milp up to 5,000 columns, else greedy), ``"none"``.
    prices
        Starting ``compute_price`` and ``memory_price`` over (node, slot), e.g.
        pdFTSP's final duals (``aisched.run("pdftsp", instance).prices``): the
        first round's ``L`` is taken at them (any prices >= 0 certify a bound).

    Returns
    -------
    Outcome
        ``algorithm="bound"``, ``status`` "lp_optimal" (generation converged: the
        bound is the configuration LP's value) or "limit" (a Lagrangian bound at
        a time or iteration limit); ``bound`` the certified upper bound;
        ``objective`` the primal value (its plan verified; 0, the empty plan,
        without one); ``prices`` the certifying ``compute_price`` and
        ``memory_price`` over (node, slot); ``info``: iterations, columns, LP
        value, Lagrangian bound, exact_units, seconds per phase, primal.
    """
    for name, value, allowed in (("method", method, ("colgen", "subgradient")), ("pricing", pricing, ("jax", "numpy")),
                                 ("primal", primal, ("auto", "milp", "greedy", "none"))):
        if value not in allowed:
            raise InvalidScenarioError(name, f"= {value!r}, use one of {', '.join(map(repr, allowed))}")
    started = time.perf_counter()
    K, T, n = instance.num_nodes, instance.num_slots, instance.num_tasks
    if pricing == "jax":
        unit, exact = _units(instance, MAX_UNITS_BATCHED)
        pricer = BatchPricer(instance, unit)
        price_all = pricer.price
    else:
        unit, exact = _units(instance)
        price_all = lambda cp, mp: _price_numpy(instance, cp, mp, unit)  # noqa: E731
    room = instance.memory_capacity - instance.base_memory
    capacity = np.concatenate([np.repeat(instance.compute_capacity, T), np.repeat(room, T)])
    compute_price, memory_price = np.zeros((K, T)), np.zeros((K, T))
    if prices is not None:
        for name in ("compute_price", "memory_price"):
            arr = np.asarray(prices[name].transpose("node", "slot").values, dtype=float) if name in prices else None
            if arr is None or arr.shape != (K, T) or not np.all(np.isfinite(arr)) or np.any(arr < 0):
                raise InvalidScenarioError(f"prices.{name}", f"must be finite and >= 0 over (node, slot) = ({K}, {T})")
        compute_price = np.asarray(prices["compute_price"].transpose("node", "slot").values, dtype=float).copy()
        memory_price = np.asarray(prices["memory_price"].transpose("node", "slot").values, dtype=float).copy()
    columns: list[Column] = []
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    best_bound, best_prices = math.inf, (compute_price, memory_price)
    lp_value, status, iterations = math.nan, "limit", 0
    task_dual = np.zeros(n)
    master = _Master(instance, capacity) if method == "colgen" else None
    pricing_s = lp_s = 0.0
    history: list[float] = []
    incumbent = 0.0
    while iterations < max_iterations:
        iterations += 1
        tick = time.perf_counter()
        priced = price_all(compute_price, memory_price)
        pricing_s += time.perf_counter() - tick
        lagrangian = float(np.sum(compute_price * instance.compute_capacity[:, None])
                           + np.sum(memory_price * room[:, None]) + np.sum(np.maximum(priced.profit, 0.0)))
        history.append(lagrangian)
        if lagrangian < best_bound:
            best_bound, best_prices = lagrangian, (compute_price.copy(), memory_price.copy())
        new = []
        for i in np.flatnonzero(np.isfinite(priced.profit) & (priced.profit > task_dual + tolerance)):
            key = (int(i), int(priced.vendor[i]), tuple(int(k) for k in priced.assignment[i]))
            if key not in seen:
                seen.add(key)
                new.append(Column(int(i), key[1], key[2], float(priced.value[i]), float(priced.work[i])))
        columns += new
        if method == "colgen" and not new:
            status = "lp_optimal" if iterations > 1 or not columns else status
            break
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
        tick = time.perf_counter()
        if master is not None:
            master.add(new)
            lp_value, task_dual, compute_price, memory_price, _ = master.solve()
        else:
            compute_price, memory_price, incumbent = _subgradient_step(
                instance, priced, compute_price, memory_price, best_bound, incumbent, iterations)
        lp_s += time.perf_counter() - tick
    generation_s = time.perf_counter() - started
    objective, plan = 0.0, make_plan(instance, np.full((n, T), -1), np.full(n, -1), np.zeros(n, dtype=bool))
    exact_columns = [c for c in columns if c.work >= instance.work[c.task] - 1e-9 * max(1.0, instance.work[c.task])]
    how = "milp" if primal == "milp" or (primal == "auto" and len(exact_columns) <= 5000) else primal
    if exact_columns and how == "milp":
        plan, objective = _restricted_milp(instance, exact_columns, capacity, time_limit)
    elif exact_columns and how == "greedy":
        weight = master.solve()[4] if master is not None else np.zeros(len(columns))
        lp_weight = dict(zip((id(c) for c in columns), weight, strict=False))
        plan, objective = _greedy(instance, exact_columns, [lp_weight.get(id(c), 0.0) for c in exact_columns])
    prices = xr.Dataset(
        {"compute_price": (("node", "slot"), best_prices[0]), "memory_price": (("node", "slot"), best_prices[1])},
        coords={"node": np.arange(K), "slot": np.arange(T)},
    )
    return Outcome(
        algorithm="bound", family="lora", objective=objective, plan=plan, prices=prices,
        admitted=plan["admitted"].values.copy(), payments=None, status=status, bound=float(best_bound),
        runtime_s=time.perf_counter() - started, decision_s=np.zeros(0),
        info={"method": method, "pricing": pricing, "iterations": iterations, "columns": len(columns),
              "lp_value": lp_value, "lagrangian_bound": float(best_bound), "lagrangian_history": history,
              "exact_units": exact, "work_unit": unit, "primal": objective, "primal_method": how,
              "gap": float(best_bound - objective), "pricing_s": pricing_s, "master_s": lp_s,
              "generation_s": generation_s, "primal_s": time.perf_counter() - started - generation_s},
    )


def _subgradient_step(instance: LoraInstance, priced: Priced, compute_price: np.ndarray, memory_price: np.ndarray,
                      best_bound: float, incumbent: float, iteration: int) -> tuple[np.ndarray, np.ndarray, float]:
    """One projected subgradient step on ``L(pi)`` (Polyak step to a target below the best bound)."""
    K, T = instance.num_nodes, instance.num_slots
    take = priced.profit > 0
    used = (priced.assignment >= 0) & take[:, None]
    rows, slots = np.nonzero(used)
    nodes = priced.assignment[rows, slots]
    compute_use, memory_use = np.zeros((K, T)), np.zeros((K, T))
    np.add.at(compute_use, (nodes, slots), instance.throughput[rows, nodes])
    np.add.at(memory_use, (nodes, slots), instance.memory_need[rows])
    room = instance.memory_capacity - instance.base_memory
    # L(pi) has slope capacity - usage of the priced schedules: move pi along usage - capacity
    g_c = compute_use - instance.compute_capacity[:, None]
    g_m = memory_use - room[:, None]
    g_c = np.where((compute_price <= 0) & (g_c < 0), 0.0, g_c)  # projected onto pi >= 0
    g_m = np.where((memory_price <= 0) & (g_m < 0), 0.0, g_m)
    norm = float(np.sum(g_c ** 2) + np.sum(g_m ** 2))
    if norm == 0.0:
        return compute_price, memory_price, incumbent
    target = max(incumbent, 0.9 * best_bound)  # Polyak step towards an estimate below the best bound
    step = (best_bound - target) / norm * (2.0 / (1.0 + iteration / 20.0))
    return np.maximum(compute_price + step * g_c, 0.0), np.maximum(memory_price + step * g_m, 0.0), incumbent


def _greedy(instance: LoraInstance, columns: list[Column], weight: list[float]) -> tuple[xr.Dataset, float]:
    """Columns by decreasing LP weight then value, each kept when its task is free and (4f)-(4g) hold."""
    n, T = instance.num_tasks, instance.num_slots
    compute = np.repeat(instance.compute_capacity[:, None], T, axis=1).astype(float)
    memory = np.repeat((instance.memory_capacity - instance.base_memory)[:, None], T, axis=1).astype(float)
    assignment, vendor, admitted = np.full((n, T), -1), np.full(n, -1), np.zeros(n, dtype=bool)
    order = sorted(range(len(columns)), key=lambda c: (-weight[c], -columns[c].value))
    for c in order:
        col = columns[c]
        if admitted[col.task] or col.value <= 0:
            continue
        nodes = np.asarray(col.nodes)
        slots = np.flatnonzero(nodes >= 0)
        k = nodes[slots]
        s, r = instance.throughput[col.task, k], instance.memory_need[col.task]
        if np.all(compute[k, slots] >= s - 1e-9) and np.all(memory[k, slots] >= r - 1e-9):
            compute[k, slots] -= s
            memory[k, slots] -= r
            assignment[col.task], vendor[col.task], admitted[col.task] = nodes, col.vendor, True
    plan = make_plan(instance, assignment, vendor, admitted)
    return plan, float(verify_plan(instance, plan))


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
