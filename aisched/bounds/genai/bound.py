"""A certified upper bound on IP (5)'s optimum (ComDOS): the configuration LP ``P1`` by column generation.

IP (5) couples jobs only through the memory capacity (5h) of every (edge,
slot). The paper's reformulation ``P1`` (6) (section III-A) makes each job
choose one schedule ``l in zeta_i`` (an assignment meeting (5a)-(5g)) with
value ``b_il`` (revenue minus the weighted costs (2)-(4)); (6b) is (5h).
Relaxing (6b) with prices ``lambda_kt >= 0`` (the duals of ``D1`` (7), the
prices ComDOS keeps online) splits it per job::

    L(lambda) = sum_i max(0, max_{l in zeta_i} [ b_il - sum_kt r_kt(il) lambda_kt ])
                + sum_kt c^s_k lambda_kt   >=  OPT(5)     for every lambda >= 0

(weak Lagrangian duality; the inner max is (8)), so every round's ``L`` is a
certified bound and the least one seen is returned: a time limit still
gives a certified bound. The prices are the duals of the restricted master
LP (``P1`` with ``x_il >= 0`` over the generated columns: the paper's relaxed
``P1``, whose dual is ``D1``), solved by HiGHS (:class:`aisched.solvers.highs.ColumnLP`, columns added to
the same model so each round warm-starts). Pricing is (8) solved exactly per
job (:mod:`aisched.bounds.genai.pricing`, wrapping
:mod:`~aisched.online.genai.comdos.exact`; a job with a cyclic skeleton that
exhausts its ``max_states`` exact solves contributes a certified *upper* bound
on its (8) instead, counted in ``info["relaxed_jobs"]``). Generation stops when
no job has a column of positive reduced profit: with exact pricing the LP is
then optimal and ``L`` equals its value (status "lp_optimal").

Relation to the Pyomo model's LP relaxation (:func:`aisched.models.genai.build`
with integrality dropped): every schedule of ``zeta_i`` is an integer point of
that LP's per-job rows (one_schedule, precedence, leaves with ``w`` at the
transfer indicator) with the same objective and capacity use, so convex
combinations of columns are feasible there: the configuration LP's value is
never above that LP relaxation (tested), and usually below it (the LP
relaxation mixes fractional starts across precedence).

Option ``drop_oversized``: beside ``zeta_i`` as the paper defines it, leave out
schedules with a task whose model alone exceeds its edge's capacity
(no plan of IP (5) uses them, so the bound stays certified; off by default).

A primal value comes from the MILP restricted to the generated columns
(``scipy.optimize.milp``) and from greedy rounding (columns by decreasing LP
weight, then value, each kept when its job is free and (5h) holds), the
better one; its plan passes :func:`aisched.models.genai.verify_plan`, so
``bound - objective`` is a proven gap. The ``bound`` returned is ``max(L, objective)``:
equal to the least ``L`` except for float rounding when the plan is optimal.
"""

from __future__ import annotations

import math
import numbers
import time
from typing import Literal

import numpy as np
import xarray as xr
from scipy.sparse import csr_matrix

from aisched.bounds.genai.pricing import Column, JobPricer, max_parents
from aisched.core.parameters import one_of
from aisched.errors import InfeasiblePlanError, InvalidScenarioError
from aisched.models.genai import GenaiInstance
from aisched.models.genai.plan import empty_plan, make_plan, verify_plan
from aisched.outcome import Outcome
from aisched.registry import register_bound
from aisched.solvers import check_options
from aisched.solvers.highs import ColumnLP, solve_milp

__all__ = ["bound", "MILP_COLUMNS"]

Primal = Literal["auto", "milp", "greedy", "none"]

#: ``primal="auto"`` solves the restricted MILP up to this many columns (greedy rounding always runs).
MILP_COLUMNS = 20_000
#: Re-pricings of one job in the greedy repair (:func:`_repair`) when its own tasks overfill a cell.
REPAIR_TRIES = 8


class _Master:
    """The restricted master LP (relaxed ``P1``) in HiGHS (:class:`aisched.solvers.highs.ColumnLP`): rows (6a) per job, then (6b) per (edge, slot)."""

    def __init__(self, instance: GenaiInstance) -> None:
        self.n = instance.num_jobs
        self.K, self.T = instance.num_edges, instance.num_slots
        self.lp = ColumnLP(np.concatenate([np.ones(self.n), np.repeat(instance.memory_capacity, self.T)]))

    def add(self, columns: list[Column]) -> None:
        starts, index, coef = [], [], []
        for col in columns:
            starts.append(len(index))
            index += [col.job] + (self.n + col.cell).tolist()
            coef += [1.0] + col.amount.tolist()
        m = len(columns)
        self.lp.add_columns(-np.array([c.value for c in columns]), np.zeros(m), np.ones(m), starts, index, coef)

    def solve(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        """(LP value, job duals mu_i, prices lambda (K, T), column values x_il)."""
        sol = self.lp.solve()
        duals = np.maximum(-sol.row_dual, 0.0)
        value = -sol.objective
        return value, duals[: self.n], duals[self.n:].reshape(self.K, self.T), sol.solution


def _check(time_limit: float | None, max_iterations: int, tolerance: float, max_states: int, primal: str,
           prices: xr.Dataset | None, instance: GenaiInstance) -> np.ndarray:
    """Validate the options before any work; return the starting prices (K, T)."""
    check_options(time_limit, None, None)
    for name, value in (("max_iterations", max_iterations), ("max_states", max_states)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise InvalidScenarioError(name, f"= {value!r} must be an integer >= 1")
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) or not (
            math.isfinite(tolerance) and tolerance >= 0):
        raise InvalidScenarioError("tolerance", f"= {tolerance!r} must be a finite number >= 0")
    one_of("primal", primal, Primal)
    K, T = instance.num_edges, instance.num_slots
    if prices is None:
        return np.zeros((K, T))
    arr = None
    if isinstance(prices, xr.Dataset) and "memory_price" in prices and set(prices["memory_price"].dims) == {
            "edge", "slot"}:
        arr = np.asarray(prices["memory_price"].transpose("edge", "slot").values)
    if arr is None or arr.shape != (K, T) or arr.dtype.kind not in "iuf" or not np.all(np.isfinite(arr)) \
            or np.any(arr < 0):
        raise InvalidScenarioError("prices.memory_price", f"must be finite and >= 0 over (edge, slot) = ({K}, {T})")
    return arr.astype(float).copy()


@register_bound("genai")
def bound(instance: GenaiInstance, *, time_limit: float | None = 60.0, max_iterations: int = 200,
          tolerance: float = 1e-7, max_states: int = 200, drop_oversized: bool = False, primal: Primal = "auto",
          prices: xr.Dataset | None = None) -> Outcome:
    """A certified upper bound on IP (5)'s optimum, with the prices that certify it and a primal value.

    Parameters
    ----------
    instance
        The problem.
    time_limit
        Seconds for the rounds (the restricted MILP gets the same again); the bound is valid
        whenever it stops.
    max_iterations
        Rounds (pricing passes).
    tolerance
        A column enters when its reduced profit (8) exceeds the job's dual ``mu_i`` by more.
    max_states
        Exact conditional solves per job and round for skeletons with cycles (the branch and
        bound of :class:`~aisched.bounds.genai.pricing.JobPricer`); past it the job
        contributes a certified upper bound on (8) (``info["relaxed_jobs"]``).
    drop_oversized
        Leave out schedules with a task whose model alone exceeds its edge's capacity
        (default ``False``: ``zeta_i`` as section III-A defines it, (5a)-(5g) only).
    primal
        ``"auto"`` (restricted MILP up to :data:`MILP_COLUMNS` columns, and greedy rounding;
        the better), ``"milp"``, ``"greedy"``, ``"none"``.
    prices
        Starting ``memory_price`` over (edge, slot), e.g. ComDOS's final ``lambda``: the
        first round's ``L`` is taken at them (any prices >= 0 certify a bound).

    Returns
    -------
    Outcome
        ``algorithm="bound"``; ``status`` "lp_optimal" (no column prices out, every job priced
        exactly: the bound is the configuration LP's value), "relaxed_pricing" (no column prices
        out but some job's pricing hit ``max_states``: the bound is the least ``L``) or "limit"
        (time or rounds); ``bound`` certified; ``objective`` the primal profit (verified; 0, the
        empty plan, without one); ``prices["memory_price"]`` (edge, slot) the certifying
        ``lambda``; ``info``: iterations, columns, LP value, Lagrangian bound and history,
        relaxed_jobs, primal and its method, gap, seconds per phase.
    """
    price = _check(time_limit, max_iterations, tolerance, max_states, primal, prices, instance)
    started = time.perf_counter()
    J, K, T = instance.num_jobs, instance.num_edges, instance.num_slots
    parents = max_parents(instance)
    pricers = [JobPricer(instance, i, parents, max_states) for i in range(J)]
    room = np.repeat(instance.memory_capacity[:, None], T, axis=1) if drop_oversized else None
    master = _Master(instance)
    columns: list[Column] = []
    seen: set[tuple] = set()
    best_bound, best_price = math.inf, price
    lp_value, status, iterations, relaxed_at_best = 0.0, "limit", 0, 0  # the master without columns: 0
    job_dual, weights = np.zeros(J), np.zeros(0)
    history: list[float] = []
    pricing_s = master_s = 0.0
    solves = 0
    while iterations < max_iterations:
        iterations += 1
        tick = time.perf_counter()
        priced = [p.price(price, room) for p in pricers]
        pricing_s += time.perf_counter() - tick
        upper = np.array([p.upper for p in priced])
        relaxed = sum(not p.exact for p in priced)
        solves += sum(p.solves for p in priced)
        lagrangian = float(np.sum(np.maximum(upper, 0.0)) + np.sum(price * instance.memory_capacity[:, None]))
        history.append(lagrangian)
        if lagrangian < best_bound:
            best_bound, best_price, relaxed_at_best = lagrangian, price.copy(), relaxed
        new = []
        for i, p in enumerate(priced):
            if p.column is None or not p.reduced > job_dual[i] + tolerance:
                continue
            key = (i, p.column.edge.tobytes(), p.column.choice.tobytes(), p.column.start.tobytes())
            if key not in seen:
                seen.add(key)
                new.append(p.column)
        columns += new
        if not new:
            status = "lp_optimal" if relaxed == 0 else "relaxed_pricing"
            break
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
        tick = time.perf_counter()
        master.add(new)
        lp_value, job_dual, price, weights = master.solve()
        master_s += time.perf_counter() - tick
    generation_s = time.perf_counter() - started
    if weights.size < len(columns):  # the last round's columns never reached the LP
        weights = np.concatenate([weights, np.zeros(len(columns) - weights.size)])
    plan, objective, how = _primal(instance, columns, weights, primal, time_limit, pricers)
    certified = max(best_bound, objective)  # L >= OPT >= a verified plan's profit; max() only absorbs float noise
    prices_out = xr.Dataset({"memory_price": (("edge", "slot"), best_price)},
                            coords={"edge": np.arange(K), "slot": np.arange(T)})
    return Outcome(
        algorithm="bound", family="genai", objective=objective, plan=plan, prices=prices_out,
        admitted=plan["admitted"].values.copy(), payments=None, status=status, bound=float(certified),
        runtime_s=time.perf_counter() - started, decision_s=np.zeros(0),
        info={"iterations": iterations, "columns": len(columns), "lp_value": lp_value,
              "lagrangian_bound": float(best_bound), "lagrangian_history": history,
              "relaxed_jobs": relaxed_at_best, "cyclic_jobs": sum(bool(p.cut) for p in pricers),
              "conditional_solves": solves, "drop_oversized": bool(drop_oversized), "primal": objective,
              "primal_method": how, "gap": float(certified - objective),
              "proven_optimal": bool(certified - objective <= 1e-9 * max(1.0, abs(certified))), "pricing_s": pricing_s,
              "master_s": master_s, "generation_s": generation_s,
              "primal_s": time.perf_counter() - started - generation_s},
    )


def _plan(instance: GenaiInstance, chosen: list[Column]) -> xr.Dataset:
    shape = (instance.num_jobs, instance.max_tasks)
    edge, model, start = (np.full(shape, -1, dtype=np.int32) for _ in range(3))
    admitted = np.zeros(instance.num_jobs, dtype=bool)
    for col in chosen:
        n = col.edge.size
        edge[col.job, :n], start[col.job, :n] = col.edge, col.start
        model[col.job, :n] = instance.candidate_model[col.job, np.arange(n), col.choice]
        admitted[col.job] = True
    return make_plan(instance, edge, model, start, admitted)


def _greedy(instance: GenaiInstance, columns: list[Column], weights: np.ndarray,
            pricers: list[JobPricer] | None = None, *, by: str = "weight",
            seed: list[Column] = ()) -> list[Column]:  # type: ignore[assignment]
    """Greedy rounding with repair, after the ``seed`` columns (e.g. the restricted MILP's choice).

    Jobs by decreasing LP weight (``by="weight"``, ties by best column value) or best column
    value (``by="value"``); each takes its first generated column (by weight, then value)
    that fits the room left under (5h); failing that (``pricers`` given), its most profitable
    schedule in the room left (:func:`_repair`).
    """
    T = instance.num_slots
    room = np.repeat(instance.memory_capacity, T).astype(float)
    chosen = list(seed)
    for col in chosen:
        room[col.cell] -= col.amount
    done = {col.job for col in chosen}
    by_job: dict[int, list[int]] = {}
    for c in sorted(range(len(columns)), key=lambda c: (-weights[c], -columns[c].value)):
        if columns[c].value > 0 and columns[c].job not in done:
            by_job.setdefault(columns[c].job, []).append(c)
    weight_of = {i: sum(weights[c] for c in cs) for i, cs in by_job.items()}
    value_of = {i: max(columns[c].value for c in cs) for i, cs in by_job.items()}
    key = (lambda i: (-weight_of[i], -value_of[i])) if by == "weight" else (lambda i: (-value_of[i], -weight_of[i]))
    for i in sorted(by_job, key=key):
        fit = next((columns[c] for c in by_job[i]
                    if np.all(room[columns[c].cell] >= columns[c].amount * (1 + 1e-12))), None)
        if fit is None and pricers is not None:
            fit = _repair(instance, pricers[i], room.reshape(instance.num_edges, T))
        if fit is not None:
            room[fit.cell] -= fit.amount
            chosen.append(fit)
    return chosen


def _repair(instance: GenaiInstance, pricer: JobPricer, room: np.ndarray) -> Column | None:
    """The job's most profitable schedule in ``room`` (K, T), or ``None``.

    Exact pricing at zero prices with ``room`` as the per-task screen; where the job's own
    concurrent tasks overfill a cell, the last of them (execution order) is banned from that
    cell and the job re-priced, up to :data:`REPAIR_TRIES` times.
    """
    K, T = instance.num_edges, instance.num_slots
    i = pricer.job
    extra = np.zeros((pricer.model.n, K, instance.max_choices, T))
    zero = np.zeros((K, T))
    position = {int(j): p for p, j in enumerate(pricer.order)}
    for _ in range(REPAIR_TRIES):
        col = pricer.price(zero, room, extra).column
        if col is None or col.value <= 0:
            return None
        over = room.ravel()[col.cell] < col.amount * (1 + 1e-12)
        if not over.any():
            return col
        k, t = divmod(int(col.cell[np.argmax(over)]), T)
        f = instance.runtime[i, np.arange(col.edge.size), col.choice]
        there = [j for j in range(col.edge.size) if col.edge[j] == k and col.start[j] <= t < col.start[j] + f[j]]
        p = max(position[j] for j in there)
        for c in range(instance.max_choices):
            run = int(instance.runtime[i, pricer.order[p], c])
            if run > 0:
                extra[p, k, c, max(0, t - run + 1): t + 1] = np.inf
    return None


def _milp(instance: GenaiInstance, columns: list[Column], time_limit: float | None) -> list[Column]:
    """The best choice of at most one generated column per job under (5h) (HiGHS, :func:`aisched.solvers.highs.solve_milp`)."""
    J, KT = instance.num_jobs, instance.num_edges * instance.num_slots
    rows, cols, vals = [], [], []
    for c, col in enumerate(columns):
        rows += [col.job] + (J + col.cell).tolist()
        cols += [c] * (1 + col.cell.size)
        vals += [1.0] + col.amount.tolist()
    a = csr_matrix((vals, (rows, cols)), shape=(J + KT, len(columns)))
    upper = np.concatenate([np.ones(J), np.repeat(instance.memory_capacity, instance.num_slots)])
    res = solve_milp(-np.array([c.value for c in columns]), a, -np.inf, upper, col_lower=0, col_upper=1,
                     integrality=np.ones(len(columns)), time_limit=time_limit)
    if res.solution is None:
        return []
    return [col for col, x in zip(columns, res.solution, strict=True) if x > 0.5]


def _primal(instance: GenaiInstance, columns: list[Column], weights: np.ndarray, primal: str,
            time_limit: float | None, pricers: list[JobPricer]) -> tuple[xr.Dataset, float, str]:
    """The best verified plan of the methods ``primal`` asks for (the empty plan, profit 0, at worst)."""
    best_plan, best, how = empty_plan(instance), 0.0, "none"
    if not columns or primal == "none":
        return best_plan, best, how
    tries = []
    if primal in ("milp", "auto") and (primal == "milp" or len(columns) <= MILP_COLUMNS):
        tries.append(("milp", lambda: _greedy(instance, columns, weights, pricers,
                                              seed=_milp(instance, columns, time_limit))))
    if primal in ("greedy", "auto"):
        tries.append(("greedy", lambda: _greedy(instance, columns, weights, pricers)))
        tries.append(("greedy-value", lambda: _greedy(instance, columns, weights, pricers, by="value")))
    for name, make in tries:
        plan = _plan(instance, make())
        try:
            value = float(verify_plan(instance, plan))
        except InfeasiblePlanError:  # a MILP answer over capacity by its feasibility tolerance
            continue
        if value > best:
            best_plan, best, how = plan, value, name
    return best_plan, best, how
