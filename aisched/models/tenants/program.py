"""Problem (3) of the Astraea paper as a linear Pyomo MILP, and the offline optimum.

``build(instance)`` linearises the MINLP (3) for small instances (the paper's
reduced setting of section 5.2: 2 users, 5-15 jobs, 5-45 servers, short
horizons). Components::

    o[j, k]                      job j trained with option k = (w, zeta, t-)      (compact form (5))
    y[j, s], z[j, s]             y_js, z_js: workers / PSs on server s, constant while running (3f)(3h)
    home[j, s]                   the server of a centralised job (3j)
    ps_on[j, s]                  server s hosts PSs of job j (for (3i))
    Y[j, s, t], Z[j, s, t]       y_js(t), z_js(t): usage in slot t (>= y_js when running)
    revenue                      objective (3): sum_j sum_k f_j(t+_k - r_j) o[j, k]
    one_schedule[j]              (5c)  sum_k o <= 1
    total_workers[j]             sum_s y_js = sum_k w_k o[j, k]              ((3e), (3k) through k)
    one_ps[j]                    (3g)  sum_s z_js >= sum_k o[j, k]
    ps_if_trained[j]             sum_s z_js <= sum_s C_sp sum_k o[j, k]
    one_home[j]                  sum_s home_js = sum_{k centralised} o[j, k]
    centralized_workers[j, s]    (3j)  y_js <= D_j (home_js + 1 - zeta_j)
    centralized_ps[j, s]         (3j)  z_js <= C_sp (home_js + 1 - zeta_j)
    ps_flag[j, s]                z_js <= C_sp ps_on_js
    bandwidth[j, s]              (3i)  b_w (sum_s' y_js' - y_js) <= b_p z_js + b_w D_j (1 - ps_on_js)
    usage_workers[j, s, t]       Y >= y_js - C_sw (1 - run_jt),  run_jt = sum_{k covering t} o[j, k]
    usage_ps[j, s, t]            Z >= z_js - C_sp (1 - run_jt)
    capacity_workers[s, t]       (3c)  sum_j Y <= C_sw
    capacity_ps[s, t]            (3d)  sum_j Z <= C_sp
    quota_sharing_workers[u, t]  (3a)  as printed
    quota_sharing_ps[u, t]       (3b)  as printed
    cluster_workers[t]           valid cut: sum_{k running at t} w_k o[j, k] <= sum_s C_sw
    cluster_ps[t]                valid cut: sum_{k running at t} p_k o[j, k] <= sum_s C_sp

Linearisation. An option ``k = (w, zeta, t-)`` fixes the number of workers
``w``, the placement kind ``zeta`` and the start; its duration is
``d = ceil(E D M / (n(zeta) w))`` by (1) and (3k), so the completion time and
the utility are constants of ``k`` and the objective is linear. Only the
fewest workers reaching each duration are kept (more workers with the same
duration only use capacity), and options of utility <= 0 are dropped
(rejecting is always feasible). ``Y >= y - C (1 - run)`` is exact because
``Y`` appears only on the left of capacity rows. A distributed option whose
workers all land on the PS's server is feasible too: its real rate (1) is
higher, so (3k) still holds. (3a)-(3b) reduce to "all usage <= all quotas",
implied by (3c)-(3d) since quotas add up to capacity; they are kept as
printed. The two cluster-wide cuts hold for every integer solution and only
tighten the LP relaxation (HiGHS proves optima much faster with them):
``p_k`` is the fewest PSs option ``k`` can run with, 1, or, when ``w_k``
exceeds the largest server, ``ceil((w_k - max_s C_sw) b_w / b_p)`` by (3i).
Deactivate them (``m.cluster_ps.deactivate()``) to solve the bare problem.
The tests check the model against brute-force enumeration.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from aisched.errors import ModelTooLargeError
from aisched.models._offline import early_outcome, solve_with
from aisched.models.tenants.instance import TenantInstance
from aisched.models.tenants.plan import make_plan, verify_plan
from aisched.outcome import Outcome
from aisched.registry import register_offline
from aisched.solvers import solve

__all__ = ["MAX_OPTION_SLOTS", "build", "options", "option_slots", "run_shapes", "extract_plan", "solve_offline",
           "max_utility"]

#: The largest MILP :func:`solve_offline` builds, in (job, option, slot) terms (:func:`option_slots`:
#: each term is a column entry of the capacity rows (3c)-(3d)). Measured: the 48-hour-slot settings of
#: section 5.2 (Figs. 5-6) have 1,905-22,913 and HiGHS proves them in seconds; 2 users, 4 servers,
#: 6 jobs at one-hour slots (4,096 slots) have 9,243,374 and built for 15 minutes and 9 GB without
#: finishing.
MAX_OPTION_SLOTS = 1_000_000


def run_shapes(instance: TenantInstance, job: int) -> list[tuple[int, bool, int]]:
    """``(w, centralized, duration)`` of ``job``: per placement, the fewest workers of each distinct
    duration that fits between its arrival and the horizon (the families :func:`options` starts)."""
    out: list[tuple[int, bool, int]] = []
    cen_ok = (instance.parameter_servers >= 1)
    max_cen = int(instance.workers[cen_ok].max()) if cen_ok.any() else 0
    w_max = min(int(instance.chunks[job]), instance.total_workers)
    T, r = instance.num_slots, int(instance.arrival[job])
    for centralized in (False, True):
        top = min(w_max, max_cen) if centralized else w_max
        if top < 1:
            continue
        ws = np.arange(1, top + 1)
        ds = instance.duration(ws, centralized, np.full(ws.shape, job))
        seen: set[int] = set()
        for w, d in zip(ws.tolist(), ds.tolist()):
            if d in seen or r + d > T:
                continue
            seen.add(d)
            out.append((w, centralized, d))
    return out


def options(instance: TenantInstance, job: int) -> list[tuple[int, bool, int, int, float]]:
    """Options ``(w, centralized, start, duration, utility)`` of ``job`` kept by :func:`build`."""
    out: list[tuple[int, bool, int, int, float]] = []
    T, r = instance.num_slots, int(instance.arrival[job])
    for w, centralized, d in run_shapes(instance, job):
        for t0 in range(r, T - d + 1):
            f = float(instance.utility_value(job, t0 + d - r))
            if f > 0:
                out.append((w, centralized, t0, d, f))
    return out


def option_slots(instance: TenantInstance) -> int:
    """The (job, option, slot) terms :func:`build` would create: ``sum`` over :func:`options` of ``d``.

    Counted without listing the options (a vector test of ``f_j > 0`` per run
    shape), so it is cheap where :func:`build` is not.
    """
    total = 0
    T = instance.num_slots
    for j in range(instance.num_jobs):
        r = int(instance.arrival[j])
        for _, _, d in run_shapes(instance, j):
            completion = np.arange(d, T - r + 1)  # start t0 = r .. T - d
            if completion.size:
                kept = int(np.count_nonzero(instance.utility_value(np.full(completion.size, j), completion) > 0))
                total += kept * int(d)
    return total


def max_utility(instance: TenantInstance) -> np.ndarray:
    """(job,) the largest utility a job can reach (fastest run from its arrival), >= 0."""
    best = np.zeros(instance.num_jobs)
    for j in range(instance.num_jobs):
        w = min(int(instance.chunks[j]), instance.total_workers)
        d = min(int(instance.duration(w, False, j)), int(instance.duration(min(w, int(instance.workers.max())), True, j)))
        best[j] = max(0.0, float(instance.utility_value(j, d)))
    return best


# --------------------------------------------------------------------- rules
def _revenue_rule(m: pyo.ConcreteModel) -> Any:
    return sum(m.value[j, k] * m.o[j, k] for (j, k) in m.OPTIONS)


def _one_schedule_rule(m: pyo.ConcreteModel, j: int) -> Any:
    if not m.OPTS_OF[j]:
        return pyo.Constraint.Skip
    return sum(m.o[j, k] for k in m.OPTS_OF[j]) <= 1


def _total_workers_rule(m: pyo.ConcreteModel, j: int) -> Any:
    return sum(m.y[j, s] for s in m.SERVERS) == sum(m.width[j, k] * m.o[j, k] for k in m.OPTS_OF[j])


def _one_ps_rule(m: pyo.ConcreteModel, j: int) -> Any:
    return sum(m.z[j, s] for s in m.SERVERS) >= sum(m.o[j, k] for k in m.OPTS_OF[j])


def _ps_if_trained_rule(m: pyo.ConcreteModel, j: int) -> Any:
    return sum(m.z[j, s] for s in m.SERVERS) <= m.all_ps * sum(m.o[j, k] for k in m.OPTS_OF[j])


def _cen(m: pyo.ConcreteModel, j: int) -> Any:
    return sum(m.o[j, k] for k in m.OPTS_OF[j] if m.central[j, k])


def _one_home_rule(m: pyo.ConcreteModel, j: int) -> Any:
    return sum(m.home[j, s] for s in m.SERVERS) == _cen(m, j)


def _centralized_workers_rule(m: pyo.ConcreteModel, j: int, s: int) -> Any:
    return m.y[j, s] <= m.chunks[j] * (m.home[j, s] + 1 - _cen(m, j))


def _centralized_ps_rule(m: pyo.ConcreteModel, j: int, s: int) -> Any:
    return m.z[j, s] <= m.cap_p[s] * (m.home[j, s] + 1 - _cen(m, j))


def _ps_flag_rule(m: pyo.ConcreteModel, j: int, s: int) -> Any:
    return m.z[j, s] <= m.cap_p[s] * m.ps_on[j, s]


def _bandwidth_rule(m: pyo.ConcreteModel, j: int, s: int) -> Any:
    remote = sum(m.y[j, s2] for s2 in m.SERVERS) - m.y[j, s]
    return m.b_w * remote <= m.b_p * m.z[j, s] + m.b_w * m.chunks[j] * (1 - m.ps_on[j, s])


def _run(m: pyo.ConcreteModel, j: int, t: int) -> Any:
    return sum(m.o[j, k] for k in m.COVER[j, t])


def _usage_workers_rule(m: pyo.ConcreteModel, j: int, s: int, t: int) -> Any:
    return m.Y[j, s, t] >= m.y[j, s] - m.y[j, s].ub * (1 - _run(m, j, t))


def _usage_ps_rule(m: pyo.ConcreteModel, j: int, s: int, t: int) -> Any:
    return m.Z[j, s, t] >= m.z[j, s] - m.cap_p[s] * (1 - _run(m, j, t))


def _capacity_workers_rule(m: pyo.ConcreteModel, s: int, t: int) -> Any:
    jobs = m.ACTIVE_AT[t]
    if not jobs:
        return pyo.Constraint.Skip
    return sum(m.Y[j, s, t] for j in jobs) <= m.cap_w[s]


def _capacity_ps_rule(m: pyo.ConcreteModel, s: int, t: int) -> Any:
    jobs = m.ACTIVE_AT[t]
    if not jobs:
        return pyo.Constraint.Skip
    return sum(m.Z[j, s, t] for j in jobs) <= m.cap_p[s]


def _cluster_workers_rule(m: pyo.ConcreteModel, t: int) -> Any:
    running = m.RUNNING_AT[t]
    if not running:
        return pyo.Constraint.Skip
    return sum(m.width[j, k] * m.o[j, k] for (j, k) in running) <= m.all_w


def _cluster_ps_rule(m: pyo.ConcreteModel, t: int) -> Any:
    running = m.RUNNING_AT[t]
    if not running:
        return pyo.Constraint.Skip
    return sum(m.ps_need[j, k] * m.o[j, k] for (j, k) in running) <= m.all_ps


def _quota_rule(var: str, quota: str) -> Any:
    def rule(m: pyo.ConcreteModel, u: int, t: int) -> Any:
        jobs = m.ACTIVE_AT[t]
        if not jobs:
            return pyo.Constraint.Skip
        use = getattr(m, var)
        q = getattr(m, quota)
        mine = sum(use[j, s, t] for j in jobs if m.owner[j] == u for s in m.SERVERS)
        others = sum(
            q[v] - sum(use[j, s, t] for j in jobs if m.owner[j] == v for s in m.SERVERS)
            for v in m.USERS if v != u
        )
        return mine <= q[u] + others

    return rule


# --------------------------------------------------------------------- build
def build(instance: TenantInstance) -> pyo.ConcreteModel:
    """The linear Pyomo MILP of problem (3) for ``instance`` (see the module docstring).

    Meant for small instances: the model has ``jobs x servers x slots`` usage
    variables and one binary per kept option.
    """
    J, S, T = instance.num_jobs, instance.num_servers, instance.num_slots
    opts: list[tuple[int, int]] = []
    width: dict[tuple[int, int], int] = {}
    central: dict[tuple[int, int], bool] = {}
    value: dict[tuple[int, int], float] = {}
    first: dict[tuple[int, int], int] = {}
    length: dict[tuple[int, int], int] = {}
    opts_of: dict[int, list[int]] = {}
    cover: dict[tuple[int, int], list[int]] = {}
    for j in range(J):
        opts_of[j] = []
        for k, (w, c, t0, d, f) in enumerate(options(instance, j)):
            opts.append((j, k))
            opts_of[j].append(k)
            width[j, k], central[j, k], value[j, k], first[j, k], length[j, k] = w, c, f, t0, d
            for t in range(t0, t0 + d):
                cover.setdefault((j, t), []).append(k)
    window = sorted({(j, s, t) for (j, t) in cover for s in range(S)})
    running_at: dict[int, list[tuple[int, int]]] = {t: [] for t in range(T)}
    for (j, t), ks in cover.items():
        running_at[t].extend((j, k) for k in ks)
    c_max = int(instance.workers.max())
    ratio = instance.worker_bandwidth / instance.ps_bandwidth
    ps_need = {
        (j, k): 1 if width[j, k] <= c_max else max(1, math.ceil((width[j, k] - c_max) * ratio - 1e-9))
        for (j, k) in opts
    }
    active_at: dict[int, list[int]] = {t: sorted({j for (j, tt) in cover if tt == t}) for t in range(T)}

    m = pyo.ConcreteModel(name="tenants_problem3")
    m.instance = instance
    m.JOBS = pyo.Set(initialize=range(J), ordered=True)
    m.SERVERS = pyo.Set(initialize=range(S), ordered=True)
    m.SLOTS = pyo.Set(initialize=range(T), ordered=True)
    m.USERS = pyo.Set(initialize=range(instance.num_users), ordered=True)
    m.OPTIONS = pyo.Set(dimen=2, initialize=opts, ordered=True)
    m.WINDOW = pyo.Set(dimen=3, initialize=window, ordered=True)
    m.OPTS_OF = opts_of
    m.COVER = cover
    m.ACTIVE_AT = active_at
    m.RUNNING_AT = running_at
    m.start_of, m.length_of = first, length
    m.central = central

    m.value = pyo.Param(m.OPTIONS, initialize=value)
    m.width = pyo.Param(m.OPTIONS, initialize=width)
    m.chunks = pyo.Param(m.JOBS, initialize=dict(enumerate(instance.chunks.tolist())))
    m.owner = pyo.Param(m.JOBS, initialize=dict(enumerate(instance.owner.tolist())))
    m.cap_w = pyo.Param(m.SERVERS, initialize=dict(enumerate(instance.workers.tolist())))
    m.cap_p = pyo.Param(m.SERVERS, initialize=dict(enumerate(instance.parameter_servers.tolist())))
    m.q_w = pyo.Param(m.USERS, initialize=dict(enumerate(instance.worker_quota.tolist())))
    m.q_p = pyo.Param(m.USERS, initialize=dict(enumerate(instance.ps_quota.tolist())))
    m.all_ps = pyo.Param(initialize=instance.total_parameter_servers)
    m.all_w = pyo.Param(initialize=instance.total_workers)
    m.ps_need = pyo.Param(m.OPTIONS, initialize=ps_need)
    m.b_w = pyo.Param(initialize=instance.worker_bandwidth)
    m.b_p = pyo.Param(initialize=instance.ps_bandwidth)

    m.o = pyo.Var(m.OPTIONS, within=pyo.Binary)
    m.y = pyo.Var(m.JOBS, m.SERVERS, within=pyo.NonNegativeIntegers,
                  bounds=lambda m, j, s: (0, min(int(instance.workers[s]), int(instance.chunks[j]))))
    m.z = pyo.Var(m.JOBS, m.SERVERS, within=pyo.NonNegativeIntegers,
                  bounds=lambda m, j, s: (0, int(instance.parameter_servers[s])))
    m.home = pyo.Var(m.JOBS, m.SERVERS, within=pyo.Binary)
    m.ps_on = pyo.Var(m.JOBS, m.SERVERS, within=pyo.Binary)
    m.Y = pyo.Var(m.WINDOW, within=pyo.NonNegativeReals)
    m.Z = pyo.Var(m.WINDOW, within=pyo.NonNegativeReals)

    m.revenue = pyo.Objective(rule=_revenue_rule, sense=pyo.maximize)
    m.one_schedule = pyo.Constraint(m.JOBS, rule=_one_schedule_rule)
    m.total_workers = pyo.Constraint(m.JOBS, rule=_total_workers_rule)
    m.one_ps = pyo.Constraint(m.JOBS, rule=_one_ps_rule)
    m.ps_if_trained = pyo.Constraint(m.JOBS, rule=_ps_if_trained_rule)
    m.one_home = pyo.Constraint(m.JOBS, rule=_one_home_rule)
    m.centralized_workers = pyo.Constraint(m.JOBS, m.SERVERS, rule=_centralized_workers_rule)
    m.centralized_ps = pyo.Constraint(m.JOBS, m.SERVERS, rule=_centralized_ps_rule)
    m.ps_flag = pyo.Constraint(m.JOBS, m.SERVERS, rule=_ps_flag_rule)
    m.bandwidth = pyo.Constraint(m.JOBS, m.SERVERS, rule=_bandwidth_rule)
    m.usage_workers = pyo.Constraint(m.WINDOW, rule=_usage_workers_rule)
    m.usage_ps = pyo.Constraint(m.WINDOW, rule=_usage_ps_rule)
    m.capacity_workers = pyo.Constraint(m.SERVERS, m.SLOTS, rule=_capacity_workers_rule)
    m.capacity_ps = pyo.Constraint(m.SERVERS, m.SLOTS, rule=_capacity_ps_rule)
    m.quota_sharing_workers = pyo.Constraint(m.USERS, m.SLOTS, rule=_quota_rule("Y", "q_w"))
    m.quota_sharing_ps = pyo.Constraint(m.USERS, m.SLOTS, rule=_quota_rule("Z", "q_p"))
    m.cluster_workers = pyo.Constraint(m.SLOTS, rule=_cluster_workers_rule)
    m.cluster_ps = pyo.Constraint(m.SLOTS, rule=_cluster_ps_rule)
    return m


# ---------------------------------------------------------------- solutions
def extract_plan(model: pyo.ConcreteModel, instance: TenantInstance) -> xr.Dataset:
    """Read the (rounded) values of ``o``, ``y``, ``z`` into a plan Dataset (unset reads as 0)."""
    J, S = instance.num_jobs, instance.num_servers
    start = np.full(J, -1)
    end = np.full(J, -1)
    admitted = np.zeros(J, dtype=bool)
    for (j, k), var in model.o.items():
        if var.value is not None and var.value > 0.5:
            admitted[j] = True
            start[j] = model.start_of[j, k]
            end[j] = model.start_of[j, k] + model.length_of[j, k] - 1
    y = np.zeros((J, S), dtype=np.int64)
    z = np.zeros((J, S), dtype=np.int64)
    for (j, s), var in model.y.items():
        if admitted[j] and var.value is not None:
            y[j, s] = int(round(var.value))
    for (j, s), var in model.z.items():
        if admitted[j] and var.value is not None:
            z[j, s] = int(round(var.value))
    return make_plan(instance, start, end, y, z, admitted)


@register_offline("tenants")
def solve_offline(
    instance: TenantInstance,
    *,
    solver: str = "highs",
    time_limit: float | None = None,
    mip_gap: float | None = 0.0,
    threads: int | None = None,
) -> Outcome:
    """The offline optimum of problem (3) (``aisched.offline`` for the `tenants` family).

    Parameters
    ----------
    instance
        The problem, all jobs known in advance.
    solver, time_limit, mip_gap, threads
        Passed to :func:`aisched.solvers.solve`; ``mip_gap`` defaults to 0 so
        that ``status == "optimal"`` means proven optimal.

    Returns
    -------
    Outcome
        ``status`` "optimal" only when the solver proved it; on a time limit
        the incumbent's plan (or none) with ``bound`` the best proven upper
        bound (the solver's, or ``sum_j`` of each job's largest utility when
        the solver gave none: ``info["bound_source"]``). ``objective`` is
        recomputed from the plan by :func:`~aisched.models.tenants.plan.verify_plan`.

    Raises
    ------
    ModelTooLargeError
        Before building, when the MILP would exceed :data:`MAX_OPTION_SLOTS` terms.
    """
    def empty(started: float) -> Outcome:  # nothing to decide: the empty plan is optimal with revenue 0
        plan = make_plan(instance, np.zeros(0, np.int64), np.zeros(0, np.int64),
                         np.zeros((0, instance.num_servers), np.int64),
                         np.zeros((0, instance.num_servers), np.int64), np.zeros(0, bool))
        objective = verify_plan(instance, plan)
        return early_outcome("tenants", plan, started=started, objective=objective, bound=objective,
                             info={"solver": solver, "termination": "no_jobs", "bound_source": "no_jobs", "gap": 0.0})

    def too_large(started: float) -> None:
        terms = option_slots(instance)
        if terms > MAX_OPTION_SLOTS:
            raise ModelTooLargeError(
                f"problem (3)'s MILP for {instance.num_slots:,} slots x {instance.num_jobs} jobs x "
                f"{instance.num_servers} servers would hold {terms:,} (job, option, slot) terms (> MAX_OPTION_SLOTS = "
                f"{MAX_OPTION_SLOTS:,} of aisched.models.tenants.program): use longer slots (generate(..., "
                "slot_hours='auto'), the default of the API and of `aisched compare tenants`, gives 48-hour slots at "
                "<= 15 jobs; or slot_hours=N), or aisched.bound(instance) for a certified upper bound without the MILP")

    return solve_with(
        "tenants", build=lambda: build(instance), extract=lambda model: extract_plan(model, instance),
        verify=lambda plan: verify_plan(instance, plan), fallback_bound=lambda: float(np.sum(max_utility(instance))),
        fallback_source="sum_of_max_utility", solver=solver, time_limit=time_limit, mip_gap=mip_gap,
        threads=threads, empty=empty if instance.num_jobs == 0 else None, guard=too_large, solve=solve)
