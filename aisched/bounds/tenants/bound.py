"""A certified upper bound on problem (3)'s optimum (Astraea): a cluster-level configuration LP.

Relaxation. Every feasible plan of problem (3) trains job ``j`` with at most one
option ``k = (w_k, zeta_k, t-_k)`` (:func:`aisched.models.tenants.options`, the
compact form (5c)), running in slots ``t-_k .. t-_k + d_k - 1`` and earning
``f_j(t+_k - r_j)``; summing the per-server capacities (3c)-(3d) over servers
gives, in every slot ``t``::

    sum_{(j,k) running at t} w_k o_jk <= sum_s C_sw,   sum_{(j,k) running at t} p_k o_jk <= sum_s C_sp,

with ``p_k`` the fewest PSs option ``k`` can run with (the model's
``cluster_workers`` / ``cluster_ps`` valid cuts, :mod:`aisched.models.tenants.program`).
Dropping the placement (servers, (3i)-(3j)) leaves a relaxation; its LP over
the options is solved by column generation and Lagrangian pricing with
per-slot prices ``pi^w_t, pi^p_t >= 0``::

    L(pi) = sum_j max(0, max_k [ f_jk - sum_{t in k} (pi^w_t w_k + pi^p_t p_k) ])
            + sum_t pi^w_t sum_s C_sw + pi^p_t sum_s C_sp   >=  OPT(3)   for every pi >= 0.

Pricing is exact by enumeration: per job and (workers, placement kind) of
distinct duration (the options :func:`~aisched.models.tenants.options` keeps),
every start at once with prefix sums of the prices (NumPy, vectorised over
starts; 4.6 M options at paper scale in well under a second). The LP (HiGHS,
:class:`aisched.solvers.highs.ColumnLP`) gains the best column of each job per round; the least ``L`` seen is
returned, so a time limit still gives a certified bound.

Primal: the generated *centralised* columns by decreasing LP weight, each
placed on the first server with a free worker slot set and a PS (first fit),
checked by :func:`aisched.models.tenants.verify_plan`.

Being cluster-level, the bound ignores placement: it is never tighter than the
model's LP relaxation with its cluster cuts (that LP contains these rows).
"""

from __future__ import annotations

import math
import time

import numpy as np
import xarray as xr

from aisched.models.tenants import TenantInstance
from aisched.models.tenants.plan import make_plan, verify_plan
from aisched.models.tenants.program import run_shapes
from aisched.outcome import Outcome
from aisched.registry import register_bound
from aisched.solvers.highs import ColumnLP

__all__ = ["bound", "option_families", "price_jobs"]


def option_families(instance: TenantInstance, job: int) -> list[tuple[int, bool, int, int]]:
    """``(w, centralized, duration, ps)`` of ``job``: the fewest workers per distinct duration.

    The same families :func:`aisched.models.tenants.options` enumerates (every
    start ``r_j .. T - d`` of each), with ``ps`` the model's ``p_k``.
    """
    c_max = int(instance.workers.max())
    ratio = instance.worker_bandwidth / instance.ps_bandwidth
    return [(w, centralized, d, 1 if w <= c_max else max(1, math.ceil((w - c_max) * ratio - 1e-9)))
            for w, centralized, d in run_shapes(instance, job)]


Option = tuple[int, bool, int, int, int, float]  # (w, centralized, start, duration, ps, utility)


def price_jobs(instance: TenantInstance, families: list[np.ndarray], worker_price: np.ndarray,
               ps_price: np.ndarray, candidates: list[list[tuple[float, Option]]] | None = None,
               ) -> tuple[np.ndarray, list[Option | None]]:
    """Each job's best reduced profit and option ``(w, centralized, start, duration, ps, utility)``.

    ``families[j]`` is ``option_families`` as an (F, 4) array. Options of
    utility <= 0 are not options (as in :func:`~aisched.models.tenants.options`).
    ``candidates``, if given, receives per job the best (reduced profit, option) of every family.
    """
    T = instance.num_slots
    cw = np.concatenate([[0.0], np.cumsum(worker_price)])
    cp = np.concatenate([[0.0], np.cumsum(ps_price)])
    profit = np.full(instance.num_jobs, -math.inf)
    best: list[tuple[int, bool, int, int, int, float] | None] = [None] * instance.num_jobs
    for j, fam in enumerate(families):
        r = int(instance.arrival[j])
        for w, cen, d, ps in fam.tolist():
            starts = np.arange(r, T - d + 1)
            if starts.size == 0:
                continue
            f = instance.utility_value(j, starts + d - r)
            red = f - w * (cw[starts + d] - cw[starts]) - ps * (cp[starts + d] - cp[starts])
            red = np.where(f > 0, red, -math.inf)
            a = int(np.argmax(red))
            option = (int(w), bool(cen), int(starts[a]), int(d), int(ps), float(f[a]))
            if candidates is not None and np.isfinite(red[a]):
                candidates[j].append((float(red[a]), option))
            if red[a] > profit[j]:
                profit[j], best[j] = float(red[a]), option
    return profit, best


@register_bound("tenants")
def bound(instance: TenantInstance, *, time_limit: float | None = 60.0, max_iterations: int = 2000,
          tolerance: float = 1e-7, primal: bool = True, columns_per_job: int = 4) -> Outcome:
    """A certified upper bound on problem (3)'s optimum (cluster-level configuration LP).

    Parameters
    ----------
    instance
        The problem.
    time_limit
        Seconds for column generation; the bound returned is valid whenever it stops.
    max_iterations
        Pricing rounds.
    tolerance
        A column enters when its reduced profit exceeds the job's dual by more.
    primal
        Also build a plan from the generated centralised columns (first fit).
    columns_per_job
        Columns a job may enter per round: the best start of each of its
        option families (workers, placement kind), most profitable first.

    Returns
    -------
    Outcome
        ``algorithm="bound"``, ``status`` "lp_optimal" (no column prices out:
        the bound is the LP's value) or "limit"; ``bound`` certified;
        ``objective`` the primal revenue (verified; 0 without one); ``prices``
        ``worker_price`` and ``ps_price`` over ``slot``; ``info``: iterations,
        columns, LP value, Lagrangian bound, seconds.
    """
    started = time.perf_counter()
    J, T = instance.num_jobs, instance.num_slots
    W, P = float(instance.total_workers), float(instance.total_parameter_servers)
    families = [np.array(option_families(instance, j), dtype=np.int64).reshape(-1, 4) for j in range(J)]
    lp = ColumnLP(np.concatenate([np.ones(J), np.full(T, W), np.full(T, P)]))
    worker_price, ps_price, job_dual = np.zeros(T), np.zeros(T), np.zeros(J)
    columns: list[tuple[int, int, bool, int, int, int, float]] = []
    seen: set[tuple[int, int, bool, int]] = set()
    best_bound, best_prices, lp_value, status, iterations = math.inf, (worker_price, ps_price), math.nan, "limit", 0
    weights = np.zeros(0)
    while iterations < max_iterations:
        iterations += 1
        candidates: list[list[tuple[float, Option]]] = [[] for _ in range(J)]
        profit, _ = price_jobs(instance, families, worker_price, ps_price, candidates)
        lagrangian = float(np.sum(np.maximum(profit, 0.0)) + W * worker_price.sum() + P * ps_price.sum())
        if lagrangian < best_bound:
            best_bound, best_prices = lagrangian, (worker_price.copy(), ps_price.copy())
        new = []
        for j in np.flatnonzero(np.isfinite(profit) & (profit > job_dual + tolerance)):
            ranked = sorted(candidates[j], key=lambda c: -c[0])[:max(1, columns_per_job)]
            for red, (w, cen, t0, d, ps, f) in ranked:
                if red > job_dual[j] + tolerance and (int(j), w, cen, t0) not in seen:
                    seen.add((int(j), w, cen, t0))
                    new.append((int(j), w, cen, t0, d, ps, f))
        if not new:
            status = "lp_optimal"
            break
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
        starts, index, coef = [], [], []
        for j, w, _cen, t0, d, ps, _f in new:
            starts.append(len(index))
            slots = np.arange(t0, t0 + d)
            index += [j] + (J + slots).tolist() + (J + T + slots).tolist()
            coef += [1.0] + [float(w)] * d + [float(ps)] * d
        lp.add_columns(-np.array([c[6] for c in new]), np.zeros(len(new)), np.ones(len(new)), starts, index, coef)
        columns += new
        sol = lp.solve()
        duals = np.maximum(-sol.row_dual, 0.0)
        lp_value = -sol.objective
        job_dual, worker_price, ps_price = duals[:J], duals[J:J + T], duals[J + T:]
        weights = np.asarray(sol.solution)
    generation_s = time.perf_counter() - started
    plan, objective = _first_fit(instance, columns, weights) if primal else (None, 0.0)
    if plan is None:
        plan = make_plan(instance, np.full(J, -1), np.full(J, -1), np.zeros((J, instance.num_servers)),
                         np.zeros((J, instance.num_servers)), np.zeros(J, dtype=bool))
    prices = xr.Dataset({"worker_price": ("slot", best_prices[0]), "ps_price": ("slot", best_prices[1])},
                        coords={"slot": np.arange(T)})
    return Outcome(
        algorithm="bound", family="tenants", objective=objective, plan=plan, prices=prices,
        admitted=plan["admitted"].values.copy(), payments=None, status=status, bound=float(best_bound),
        runtime_s=time.perf_counter() - started, decision_s=np.zeros(0),
        info={"iterations": iterations, "columns": len(columns), "lp_value": lp_value,
              "lagrangian_bound": float(best_bound), "primal": objective, "gap": float(best_bound - objective),
              "relaxation": "cluster", "generation_s": generation_s,
              "primal_s": time.perf_counter() - started - generation_s},
    )


def _first_fit(instance: TenantInstance, columns: list, weights: np.ndarray) -> tuple[xr.Dataset | None, float]:
    """Centralised columns by decreasing LP weight then utility, each on the first server that fits."""
    J, S, T = instance.num_jobs, instance.num_servers, instance.num_slots
    free_w = np.repeat(instance.workers[:, None], T, axis=1).astype(np.int64)
    free_p = np.repeat(instance.parameter_servers[:, None], T, axis=1).astype(np.int64)
    start, end = np.full(J, -1), np.full(J, -1)
    y, z, admitted = np.zeros((J, S), np.int64), np.zeros((J, S), np.int64), np.zeros(J, bool)
    weight = np.concatenate([weights, np.zeros(len(columns) - weights.size)]) if columns else weights
    order = sorted(range(len(columns)), key=lambda c: (-weight[c], -columns[c][6]))
    for c in order:
        j, w, cen, t0, d, _ps, _f = columns[c]
        if admitted[j] or not cen:
            continue
        fits = (free_w[:, t0:t0 + d].min(axis=1) >= w) & (free_p[:, t0:t0 + d].min(axis=1) >= 1)
        if not fits.any():
            continue
        s = int(np.argmax(fits))
        free_w[s, t0:t0 + d] -= w
        free_p[s, t0:t0 + d] -= 1
        start[j], end[j], y[j, s], z[j, s], admitted[j] = t0, t0 + d - 1, w, 1, True
    plan = make_plan(instance, start, end, y, z, admitted)
    return plan, float(verify_plan(instance, plan))
