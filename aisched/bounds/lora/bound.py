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
(node, slot); solved by HiGHS (:class:`aisched.solvers.highs.ColumnLP`, columns added to the same model so
each round warm-starts) -- ``method="colgen"``; or, without an LP, by projected
subgradient steps (``method="subgradient"``). Pricing is the per-task problem
above, solved exactly by a dynamic program over (slot, work units) -- the
per-cell-priced DP (13) of pdFTSP: batched and jitted over all tasks
(``pricing="jax"``, :mod:`aisched.online.lora.bound.pricing`) or task by task
in NumPy (``pricing="numpy"``, :func:`price_task`, the reference). When work and throughput are
not whole multiples of one unit, the DP rounds throughput *up* and work
*down*, a relaxation: the bound stays valid, only looser (``info["exact_units"]``).
Generation stops when no task has a column of positive reduced profit (the LP
is then optimal and ``L`` equals its value), or at the limits.

Identical nodes (``symmetry=True``, :func:`~aisched.online.lora.bound.pricing.node_classes`:
the A100 and A40 classes of the generator's mixed cluster) get equal prices: the
master's capacity rows are summed per (class, slot) and pricing runs over one
representative per class, which leaves the configuration LP's optimum unchanged
(its duals average over a class) and makes it small enough for paper scale; over
two classes pricing counts cells instead of work units
(:mod:`aisched.online.lora.bound.twoclass`, exact). Column generation is
stabilised by Wentges smoothing (``smoothing=``).

A primal value comes from the MILP restricted to the generated columns that
meet (4e) exactly (HiGHS, :func:`aisched.solvers.highs.solve_milp`), or at scale from greedy
rounding of those columns (``primal=``), packed onto real nodes
(:mod:`aisched.bounds.lora.primal`), or from an ``incumbent`` plan; the
plan passes :func:`aisched.models.lora.verify_plan`, so ``bound - primal`` is a
proven gap.
"""

from __future__ import annotations

import math
import time
from typing import Literal

import numpy as np
import xarray as xr
from scipy.sparse import vstack

from aisched.bounds.lora.primal import Column, columns_of_plan, greedy, restricted_milp, usage
from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.lora import LoraInstance
from aisched.models.lora.plan import make_plan
from aisched.online.lora.bound.pricing import BatchPricer, NodeClasses, Priced, node_classes
from aisched.online.lora.bound.twoclass import TwoClassPricer
from aisched.outcome import Outcome
from aisched.registry import register_bound
from aisched.solvers.highs import ColumnLP

__all__ = ["Column", "bound", "price_task"]

#: Work units a task may need in the NumPy pricing DP (above this the unit grows and the DP relaxes).
MAX_UNITS = 400
#: The same for the batched JAX pricing (``pricing="jax"``): paper scale needs 1,000 units of 100 samples.
MAX_UNITS_BATCHED = 4096

#: ``primal="auto"``: the restricted MILP up to this many exact columns, else the greedy.
MILP_COLUMNS = 5000

Method = Literal["colgen", "subgradient"]
Pricing = Literal["jax", "dp", "numpy"]
Primal = Literal["auto", "milp", "greedy", "none"]


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
    """The configuration LP (restricted master), kept in HiGHS (:class:`aisched.solvers.highs.ColumnLP`)
    so each round warm-starts.

    Rows: ``sum_l lambda_il <= 1`` per task, then compute (c, t) and memory (c, t) capacities summed
    over the nodes of each class ``c`` (one class per node without ``symmetry``).
    """

    def __init__(self, instance: LoraInstance, classes: NodeClasses, capacity: np.ndarray) -> None:
        self.instance, self.classes, self.n = instance, classes, instance.num_tasks
        self.lp = ColumnLP(np.concatenate([np.ones(self.n), capacity]))

    def add(self, columns: list[Column]) -> None:
        if not columns:
            return
        tasks, caps = usage(self.instance, self.classes, columns)
        a = vstack([tasks, caps]).tocsc()
        m = len(columns)
        self.lp.add_columns(-np.array([c.value for c in columns]), np.zeros(m), np.ones(m),
                            a.indptr[:-1], a.indices[:a.nnz], a.data[:a.nnz])

    def solve(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(LP value, task duals, compute prices (C, T), memory prices (C, T), column values)."""
        C, T = self.classes.count.size, self.instance.num_slots
        sol = self.lp.solve()
        duals = np.maximum(-sol.row_dual, 0.0)
        value = -sol.objective
        return (value, duals[:self.n], duals[self.n:self.n + C * T].reshape(C, T),
                duals[self.n + C * T:].reshape(C, T), sol.solution)


@register_bound("lora")
def bound(instance: LoraInstance, *, method: Method = "colgen", pricing: Pricing = "jax",
          time_limit: float | None = 60.0, max_iterations: int = 500, tolerance: float = 1e-7,
          primal: Primal = "auto", prices: xr.Dataset | None = None, incumbent: Outcome | None = None,
          symmetry: bool = True, smoothing: float = 0.5) -> Outcome:
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
        ``"jax"``: all tasks per round in jitted batches (paper scale): over at
        most two node classes :class:`~aisched.online.lora.bound.twoclass.TwoClassPricer`
        (exact, no work units), else as ``"dp"``. ``"dp"``:
        :class:`~aisched.online.lora.bound.pricing.BatchPricer`, the unit DP.
        ``"numpy"``: the reference :func:`price_task`, task by task (small instances).
    time_limit
        Seconds for the rounds (the primal heuristic gets the same again); the
        bound returned is valid whenever it stops.
    max_iterations
        Rounds (pricing passes).
    tolerance
        A column enters when its reduced profit exceeds the task's dual by more.
    primal
        The incumbent: ``"milp"`` (the MILP restricted to the generated columns
        that meet (4e), its choice packed onto nodes), ``"greedy"`` (those
        columns by decreasing LP weight, then value, each packed when its task
        is free and (4f)-(4g) hold: :mod:`~aisched.bounds.lora.primal`),
        ``"auto"`` (milp up to 5,000 columns, else greedy), ``"none"``.
    prices
        Starting ``compute_price`` and ``memory_price`` over (node, slot), e.g.
        pdFTSP's final duals (``aisched.run("pdftsp", instance).prices``): the
        first round's ``L`` is taken at them, averaged over each class of
        identical nodes under ``symmetry`` (``L`` there is no larger; any
        prices >= 0 certify a bound).
    incumbent
        A plan of IP (4) (an Outcome, e.g. pdFTSP's): verified, its schedules
        enter the configuration LP as first columns and it is the primal value
        when no heuristic plan is better.
    symmetry
        ``True``: prices equal on identical nodes
        (:func:`~aisched.online.lora.bound.pricing.node_classes`), so pricing
        and the LP run over classes (two at the generator's mixed nodes); the
        configuration LP's optimum is unchanged (its duals can be averaged
        over each class). ``False``: one price per node (the plain reading).
    smoothing
        ``colgen`` only: Wentges smoothing weight ``alpha`` in [0, 1): each
        round prices at ``alpha`` times the best-``L`` prices plus ``1 - alpha``
        times the master's duals (which alone oscillate and give poor ``L``);
        a round that finds no column entering at the duals (a mispricing)
        prices at the duals next, so convergence is kept. 0: plain colgen.

    Returns
    -------
    Outcome
        ``algorithm="bound"``, ``status`` "lp_optimal" (generation converged: the
        bound is the configuration LP's value) or "limit" (a Lagrangian bound at
        a time or iteration limit); ``bound`` the certified upper bound;
        ``objective`` the primal value (its plan verified; 0, the empty plan,
        without one); ``prices`` the certifying ``compute_price`` and
        ``memory_price`` over (node, slot); ``info``: iterations, columns, LP
        value, Lagrangian bound, exact_units, classes, seconds per phase, primal.
    """
    for name, value, allowed in (("method", method, Method), ("pricing", pricing, Pricing), ("primal", primal, Primal),
                                 ("symmetry", symmetry, (True, False))):
        one_of(name, value, allowed)
    if isinstance(smoothing, bool) or not isinstance(smoothing, (int, float)) or not 0 <= smoothing < 1:
        raise InvalidScenarioError("smoothing", f"= {smoothing!r}, use a number in [0, 1)")
    if incumbent is not None and not isinstance(incumbent, Outcome):
        raise InvalidScenarioError("incumbent", f"= {type(incumbent).__name__}, expected an Outcome with a plan")
    started = time.perf_counter()
    K, T, n = instance.num_nodes, instance.num_slots, instance.num_tasks
    classes = node_classes(instance, merge=symmetry)
    C = classes.count.size
    if pricing == "jax" and C <= 2:  # exact without work units: counts cells of each class
        unit, exact = math.nan, True
        price_all = TwoClassPricer(instance, classes.representative).price
    elif pricing in ("jax", "dp"):
        unit, exact = _units(instance, MAX_UNITS_BATCHED)
        price_all = BatchPricer(instance, unit, nodes=classes.representative).price
    else:
        unit, exact = _units(instance)
        price_all = lambda cp, mp: _price_numpy(  # noqa: E731
            instance, cp[classes.of_node], mp[classes.of_node], unit)
    rep = classes.representative
    compute_room = classes.count * instance.compute_capacity[rep]  # (4f) summed over a class
    memory_room = classes.count * (instance.memory_capacity[rep] - instance.base_memory)  # (4g)
    capacity = np.concatenate([np.repeat(compute_room, T), np.repeat(memory_room, T)])
    compute_price, memory_price = np.zeros((C, T)), np.zeros((C, T))
    if prices is not None:
        given = []
        for name in ("compute_price", "memory_price"):
            arr = np.asarray(prices[name].transpose("node", "slot").values, dtype=float) if name in prices else None
            if arr is None or arr.shape != (K, T) or not np.all(np.isfinite(arr)) or np.any(arr < 0):
                raise InvalidScenarioError(f"prices.{name}", f"must be finite and >= 0 over (node, slot) = ({K}, {T})")
            given.append(arr)
        compute_price, memory_price = (_class_mean(classes, arr) for arr in given)
    columns: list[Column] = []
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    incumbent_value, incumbent_plan = -math.inf, None
    if incumbent is not None:
        start_columns, incumbent_value = columns_of_plan(instance, incumbent.plan)
        incumbent_plan = incumbent.plan
        for col in start_columns:
            seen.add((col.task, col.vendor, _class_key(classes, col.nodes)))
        columns += start_columns
    best_bound, best_prices = math.inf, (compute_price, memory_price)
    lp_value, status, iterations = math.nan, "limit", 0
    task_dual = np.zeros(n)
    master = _Master(instance, classes, capacity) if method == "colgen" else None
    if master is not None:
        master.add(columns)
    pricing_s = lp_s = 0.0
    history: list[float] = []
    target = max(incumbent_value, 0.0)
    have_lp = False  # compute_price / memory_price are the master's duals ("out" prices)
    weight = smoothing
    while iterations < max_iterations:
        iterations += 1
        tick = time.perf_counter()
        if have_lp and weight > 0:  # Wentges smoothing: price between the best-L prices and the LP's duals
            sep = (weight * best_prices[0] + (1 - weight) * compute_price,
                   weight * best_prices[1] + (1 - weight) * memory_price)
        else:
            sep = (compute_price, memory_price)
        priced = price_all(*sep)
        pricing_s += time.perf_counter() - tick
        lagrangian = float(np.sum(sep[0] * compute_room[:, None]) + np.sum(sep[1] * memory_room[:, None])
                           + np.sum(np.maximum(priced.profit, 0.0)))
        history.append(lagrangian)
        if lagrangian < best_bound:
            best_bound, best_prices = lagrangian, (sep[0].copy(), sep[1].copy())
        # a column enters when its reduced profit at the master's duals beats the task's dual
        profit_out = priced.profit if sep[0] is compute_price else _reduced_profit(
            instance, classes, priced, compute_price, memory_price)
        new = []
        for i in np.flatnonzero(np.isfinite(profit_out) & (profit_out > task_dual + tolerance)):
            nodes = tuple(int(k) for k in priced.assignment[i])
            key = (int(i), int(priced.vendor[i]), _class_key(classes, nodes))
            if key not in seen:
                seen.add(key)
                new.append(Column(int(i), key[1], nodes, float(priced.value[i]), float(priced.work[i])))
        columns += new
        if method == "colgen" and not new:
            if sep[0] is not compute_price:  # a mispricing: price at the duals themselves next
                weight = 0.0
                continue
            status = "lp_optimal" if iterations > 1 or not columns else status
            break
        weight = smoothing
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
        tick = time.perf_counter()
        if master is not None:
            master.add(new)
            lp_value, task_dual, compute_price, memory_price, _ = master.solve()
            have_lp = True
        else:
            compute_price, memory_price = _subgradient_step(
                instance, classes, priced, compute_price, memory_price, compute_room, memory_room,
                best_bound, target, iterations)
        lp_s += time.perf_counter() - tick
    generation_s = time.perf_counter() - started
    objective, plan = 0.0, make_plan(instance, np.full((n, T), -1), np.full(n, -1), np.zeros(n, dtype=bool))
    exact_columns = [c for c in columns if c.work >= instance.work[c.task] - 1e-9 * max(1.0, instance.work[c.task])]
    how = primal if primal != "auto" else ("milp" if len(exact_columns) <= MILP_COLUMNS else "greedy")
    if exact_columns and how == "milp":
        plan, objective = restricted_milp(instance, classes, exact_columns, capacity, time_limit)
    elif exact_columns and how == "greedy":
        weight = master.solve()[4] if master is not None else np.zeros(len(columns))
        lp_weight = dict(zip((id(c) for c in columns), weight, strict=False))
        plan, objective = greedy(instance, classes, exact_columns,
                                 np.array([lp_weight.get(id(c), 0.0) for c in exact_columns]))
    source = how
    if incumbent_plan is not None and incumbent_value > objective:
        plan, objective, source = incumbent_plan, incumbent_value, "incumbent"
    prices = xr.Dataset(
        {"compute_price": (("node", "slot"), best_prices[0][classes.of_node]),
         "memory_price": (("node", "slot"), best_prices[1][classes.of_node])},
        coords={"node": np.arange(K), "slot": np.arange(T)},
    )
    return Outcome(
        algorithm="bound", family="lora", objective=objective, plan=plan, prices=prices,
        admitted=plan["admitted"].values.copy(), payments=None, status=status, bound=float(best_bound),
        runtime_s=time.perf_counter() - started, decision_s=np.zeros(0),
        info={"method": method, "pricing": pricing, "iterations": iterations, "columns": len(columns),
              "lp_value": lp_value, "lagrangian_bound": float(best_bound), "lagrangian_history": history,
              "exact_units": exact, "work_unit": unit, "node_classes": C, "primal": objective,
              "primal_method": how, "primal_source": source, "gap": float(best_bound - objective),
              "pricing_s": pricing_s, "master_s": lp_s, "generation_s": generation_s,
              "primal_s": time.perf_counter() - started - generation_s},
    )


def _class_mean(classes: NodeClasses, price: np.ndarray) -> np.ndarray:
    """(C, T) mean of (K, T) prices over each class (``L`` at it is no larger, by convexity and symmetry)."""
    total = np.zeros((classes.count.size, price.shape[1]))
    np.add.at(total, classes.of_node, price)
    return total / classes.count[:, None]


def _reduced_profit(instance: LoraInstance, classes: NodeClasses, priced: Priced, compute_price: np.ndarray,
                    memory_price: np.ndarray) -> np.ndarray:
    """Each priced schedule's reduced profit at other (C, T) prices: value - sum of its cells' charges."""
    n, T = instance.num_tasks, instance.num_slots
    used = priced.assignment >= 0
    k = np.maximum(priced.assignment, 0)
    c, t = classes.of_node[k], np.arange(T)[None, :]
    charge = compute_price[c, t] * instance.throughput[np.arange(n)[:, None], k] \
        + memory_price[c, t] * np.asarray(instance.memory_need, float)[:, None]
    return np.where(np.isfinite(priced.profit), priced.value - np.where(used, charge, 0.0).sum(axis=1), -math.inf)


def _class_key(classes: NodeClasses, nodes: tuple[int, ...]) -> tuple[int, ...]:
    """A schedule up to renaming identical nodes: its class per slot (-1 idle)."""
    return tuple(int(classes.of_node[k]) if k >= 0 else -1 for k in nodes)


def _subgradient_step(instance: LoraInstance, classes: NodeClasses, priced: Priced, compute_price: np.ndarray,
                      memory_price: np.ndarray, compute_room: np.ndarray, memory_room: np.ndarray,
                      best_bound: float, target: float, iteration: int) -> tuple[np.ndarray, np.ndarray]:
    """One projected subgradient step on ``L(pi)`` over (class, slot) prices (Polyak step)."""
    C, T = compute_price.shape
    take = priced.profit > 0
    used = (priced.assignment >= 0) & take[:, None]
    rows, slots = np.nonzero(used)
    nodes = priced.assignment[rows, slots]
    compute_use, memory_use = np.zeros((C, T)), np.zeros((C, T))
    np.add.at(compute_use, (classes.of_node[nodes], slots), instance.throughput[rows, nodes])
    np.add.at(memory_use, (classes.of_node[nodes], slots), instance.memory_need[rows])
    # L(pi) has slope capacity - usage of the priced schedules: move pi along usage - capacity
    g_c = compute_use - compute_room[:, None]
    g_m = memory_use - memory_room[:, None]
    g_c = np.where((compute_price <= 0) & (g_c < 0), 0.0, g_c)  # projected onto pi >= 0
    g_m = np.where((memory_price <= 0) & (g_m < 0), 0.0, g_m)
    norm = float(np.sum(g_c ** 2) + np.sum(g_m ** 2))
    if norm == 0.0:
        return compute_price, memory_price
    aim = max(target, 0.9 * best_bound)  # Polyak step towards an estimate below the best bound
    step = (best_bound - aim) / norm * (2.0 / (1.0 + iteration / 20.0))
    return np.maximum(compute_price + step * g_c, 0.0), np.maximum(memory_price + step * g_m, 0.0)
