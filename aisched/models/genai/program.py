"""IP (5) of the ComDOS paper as a time-indexed Pyomo model, and the offline optimum.

``build(instance)`` returns a ``pyomo.environ.ConcreteModel``. The decision
``x_ijkt y_ijm`` of (5) is written through start variables::

    z[i, j, c, k, s]   task j of job i runs with its c-th candidate model m on
                       edge k in slots s .. s + f_{m,i,j} - 1            (5f), (5i)
    u[i]               job i admitted                                    (5b), (5i)
    w[i, e, k]         >= 1 when DAG edge e = (j, j') leaves edge k, i.e.
                       j runs on k and j' does not (linearised I(a_ij != a_ij') of (3))

so consecutive execution on one edge with one model (5c), (5f), (5g) holds by
construction. ``z`` exists only for starts with ``t_i <= s`` and
``s + f - 1 <= d_i`` (deadline (5d) by construction). Components::

    profit                 objective (5): sum b u - (2) - (3) - (4), cost-weighted
    one_schedule[i, j]     (5b) + (5g): sum_{c,k,s} z = u_i (one model, one edge, one start)
    precedence[i, e, t]    (5e): j' started by slot t  =>  j finished by slot t - 1
                           (sum_{s' <= t} z_j' <= sum_{s + f <= t} z_j)
    capacity[k, t]         (5h): hosted model size on edge k in slot t <= c^s_k
    leaves[i, e, k]        w_iek >= sum_{c,s} z[i, j, c, k, s] - sum_{c,s} z[i, j', c, k, s]
    gpus_at_once[k, t]     only with ``gpus=G`` (an extension outside IP (5), docs/readings/genai.md
                           genai A2c): tasks running on edge k in slot t <= G

Transfer cost (3) is charged on the sending edge: ``h_{jj'} e^p_k`` for the
edge ``k`` of the predecessor ``j``. With ``w >= 0`` and a positive cost,
``w_iek = 1`` exactly when ``j`` runs on ``k`` and ``j'`` elsewhere, so
``sum_k e^p_k w_iek = I(a_ij != a_ij') e^p_{a_ij}`` at every optimum.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from aisched.errors import InvalidScenarioError, SolverError
from aisched.models._offline import early_outcome, solve_with
from aisched.models.genai.instance import GenaiInstance
from aisched.models.genai.plan import empty_plan, make_plan, verify_plan
from aisched.outcome import Outcome
from aisched.registry import register_offline
from aisched.solvers import Status, solve

__all__ = ["build", "check_gpus", "extract_plan", "solve_offline", "count_starts", "capacity_free_bound",
           "MAX_START_VARIABLES"]

#: Largest number of start variables ``z`` :func:`solve_offline` builds (a paper-scale instance,
#: 10 edges x 200 slots x ~1,000 jobs, would need tens of millions).
MAX_START_VARIABLES = 1_000_000


def count_starts(instance: GenaiInstance) -> int:
    """Number of start variables ``z[i, j, c, k, s]`` :func:`build` would create (without building)."""
    inst = instance
    window = inst.deadline[:, None, None] - inst.arrival[:, None, None] - inst.runtime + 2
    return int(np.sum(np.where(inst.candidate_model >= 0, np.maximum(window, 0), 0)) * inst.num_edges)


def capacity_free_bound(instance: GenaiInstance) -> float:
    """An upper bound on the optimum of IP (5): each job alone, without capacity (5h) or transfers.

    Job ``i`` contributes ``max(0, b_i - sum_j min_{k,m} f (w_f r^f e^f_k + w_h r^s_m e^h_k))``
    if its critical path at the fastest models fits ``[t_i, d_i]``, else 0. Dropping
    constraints and non-negative costs can only raise the optimum.
    """
    inst = instance
    from aisched import dag

    total = 0.0
    for i in range(inst.num_jobs):
        n = int(inst.num_tasks[i])
        valid = inst.candidate_model[i, :n] >= 0
        size = inst.model_size[np.maximum(inst.candidate_model[i, :n], 0)]
        rate = (inst.cost_weight[0] * inst.compute[i, :n, :, None] * inst.compute_cost
                + inst.cost_weight[2] * size[:, :, None] * inst.hosting_cost) * inst.runtime[i, :n, :, None]
        cheapest = np.where(valid[:, :, None], rate, np.inf).min(axis=(1, 2)).sum()
        fastest = {j: float(inst.runtime[i, j][valid[j]].min()) for j in range(n)}
        if max(dag.ranks(inst.dag_skeleton(i), fastest).values()) <= inst.deadline[i] - inst.arrival[i] + 1:
            total += max(0.0, float(inst.revenue[i]) - float(cheapest))
    return total


def _profit_rule(m: pyo.ConcreteModel) -> Any:
    return (
        sum(m.revenue[i] * m.u[i] for i in m.JOBS)
        - sum(m.run_cost[key] * m.z[key] for key in m.START)
        - sum(m.leave_cost[i, e, k] * m.w[i, e, k] for (i, e, k) in m.LEAVE)
    )


def _one_schedule_rule(m: pyo.ConcreteModel, i: int, j: int) -> Any:
    keys = m.STARTS_OF[i, j]
    if not keys:
        return m.u[i] == 0  # the task cannot finish by the deadline: the job cannot be admitted
    return sum(m.z[key] for key in keys) == m.u[i]


def _precedence_rule(m: pyo.ConcreteModel, i: int, e: int, t: int) -> Any:
    j, jn = m.EDGE_ENDS[i, e]
    started = [key for key in m.STARTS_OF[i, jn] if key[4] <= t]
    if not started:
        return pyo.Constraint.Skip
    finished = [key for key in m.STARTS_OF[i, j] if key[4] + m.F[key] <= t]
    return sum(m.z[key] for key in started) <= sum(m.z[key] for key in finished)


def _capacity_rule(m: pyo.ConcreteModel, k: int, t: int) -> Any:
    keys = m.RUNNING[k, t]
    if not keys:
        return pyo.Constraint.Skip
    return sum(m.size[key] * m.z[key] for key in keys) <= m.memory_capacity[k]


def _gpus_rule(m: pyo.ConcreteModel, k: int, t: int) -> Any:
    keys = m.RUNNING[k, t]
    if len(keys) <= m.gpus:
        return pyo.Constraint.Skip  # cannot bind
    return sum(m.z[key] for key in keys) <= m.gpus


def check_gpus(gpus: Any) -> None:
    """Refuse a ``gpus`` that is neither None (IP (5) as printed) nor a whole number >= 1, naming the field."""
    if gpus is not None and (isinstance(gpus, bool) or not isinstance(gpus, (int, np.integer)) or gpus < 1):
        raise InvalidScenarioError("gpus", f"= {gpus!r} must be None (IP (5): no limit) or a whole number >= 1")


def _leaves_rule(m: pyo.ConcreteModel, i: int, e: int, k: int) -> Any:
    j, jn = m.EDGE_ENDS[i, e]
    here = [key for key in m.STARTS_OF[i, j] if key[3] == k]
    there = [key for key in m.STARTS_OF[i, jn] if key[3] == k]
    return m.w[i, e, k] >= sum(m.z[key] for key in here) - sum(m.z[key] for key in there)


def build(instance: GenaiInstance, *, gpus: int | None = None) -> pyo.ConcreteModel:
    """The time-indexed Pyomo model of IP (5) for ``instance`` (see the module docstring).

    Parameters
    ----------
    instance
        The instance.
    gpus
        None (default): IP (5) as printed. ``G``: also at most ``G`` tasks running at once on
        an edge in any slot (``gpus_at_once``; an extension outside the paper's program).

    Returns
    -------
    pyomo.environ.ConcreteModel
        ``m.instance`` is the instance; ``m.START`` lists ``(i, j, c, k, s)``.
    """
    check_gpus(gpus)
    inst = instance
    wc, wn, wh = (float(x) for x in inst.cost_weight)
    starts: list[tuple[int, int, int, int, int]] = []
    run_cost: dict[tuple, float] = {}
    size: dict[tuple, float] = {}
    dur: dict[tuple, int] = {}
    starts_of: dict[tuple[int, int], list[tuple]] = {}
    running: dict[tuple[int, int], list[tuple]] = {
        (k, t): [] for k in range(inst.num_edges) for t in range(inst.num_slots)}
    for i in range(inst.num_jobs):
        a, d = int(inst.arrival[i]), int(inst.deadline[i])
        for j in range(int(inst.num_tasks[i])):
            starts_of[i, j] = []
            for c in np.nonzero(inst.candidate_model[i, j] >= 0)[0].tolist():
                model = int(inst.candidate_model[i, j, c])
                f = int(inst.runtime[i, j, c])
                r = float(inst.model_size[model])
                for k in range(inst.num_edges):
                    cost = f * (wc * inst.compute[i, j, c] * inst.compute_cost[k] + wh * r * inst.hosting_cost[k])
                    for s in range(a, d - f + 2):
                        key = (i, j, c, k, s)
                        starts.append(key)
                        starts_of[i, j].append(key)
                        run_cost[key], size[key], dur[key] = float(cost), r, f
                        for t in range(s, s + f):
                            running[k, t].append(key)
    edge_ends: dict[tuple[int, int], tuple[int, int]] = {}
    prec_index, leave_index, leave_cost = [], [], {}
    for i in range(inst.num_jobs):
        src, dst, h = inst.dag_edges(i)
        for e, (j, jn, hh) in enumerate(zip(src.tolist(), dst.tolist(), h.tolist(), strict=True)):
            edge_ends[i, e] = (j, jn)
            prec_index.extend((i, e, t) for t in range(int(inst.arrival[i]), int(inst.deadline[i]) + 1))
            for k in range(inst.num_edges):
                leave_index.append((i, e, k))
                leave_cost[i, e, k] = wn * hh * float(inst.transfer_cost[k])

    m = pyo.ConcreteModel(name="genai_IP5")
    m.instance = inst
    m.JOBS = pyo.Set(initialize=range(inst.num_jobs), ordered=True)
    m.EDGES = pyo.Set(initialize=range(inst.num_edges), ordered=True)
    m.SLOTS = pyo.Set(initialize=range(inst.num_slots), ordered=True)
    m.TASKS = pyo.Set(dimen=2, initialize=sorted(starts_of), ordered=True)
    m.START = pyo.Set(dimen=5, initialize=starts, ordered=True)
    m.PREC = pyo.Set(dimen=3, initialize=prec_index, ordered=True)
    m.LEAVE = pyo.Set(dimen=3, initialize=leave_index, ordered=True)
    m.STARTS_OF = starts_of
    m.RUNNING = running
    m.EDGE_ENDS = edge_ends
    m.F = dur
    m.revenue = pyo.Param(m.JOBS, initialize=dict(enumerate(inst.revenue.tolist())))
    m.memory_capacity = pyo.Param(m.EDGES, initialize=dict(enumerate(inst.memory_capacity.tolist())))
    m.run_cost = pyo.Param(m.START, initialize=run_cost)
    m.size = pyo.Param(m.START, initialize=size)
    m.leave_cost = pyo.Param(m.LEAVE, initialize=leave_cost)

    m.u = pyo.Var(m.JOBS, within=pyo.Binary)
    m.z = pyo.Var(m.START, within=pyo.Binary)
    m.w = pyo.Var(m.LEAVE, bounds=(0.0, 1.0))

    m.profit = pyo.Objective(rule=_profit_rule, sense=pyo.maximize)
    m.one_schedule = pyo.Constraint(m.TASKS, rule=_one_schedule_rule)
    m.precedence = pyo.Constraint(m.PREC, rule=_precedence_rule)
    m.capacity = pyo.Constraint(m.EDGES, m.SLOTS, rule=_capacity_rule)
    m.leaves = pyo.Constraint(m.LEAVE, rule=_leaves_rule)
    if gpus is not None:
        m.gpus = int(gpus)
        m.gpus_at_once = pyo.Constraint(m.EDGES, m.SLOTS, rule=_gpus_rule)
    return m


def extract_plan(model: pyo.ConcreteModel, instance: GenaiInstance) -> xr.Dataset:
    """Read the (rounded) ``u`` and ``z`` into a plan Dataset; unset variables read as 0."""
    shape = (instance.num_jobs, instance.max_tasks)
    edge, mod, start = (np.full(shape, -1, dtype=np.int32) for _ in range(3))
    admitted = np.array([model.u[i].value is not None and model.u[i].value > 0.5
                         for i in range(instance.num_jobs)], dtype=bool)
    for (i, j, c, k, s), var in model.z.items():
        if admitted[i] and var.value is not None and var.value > 0.5:
            edge[i, j], mod[i, j], start[i, j] = k, instance.candidate_model[i, j, c], s
    return make_plan(instance, edge, mod, start, admitted)


@register_offline("genai")
def solve_offline(instance: GenaiInstance, *, solver: str = "highs", time_limit: float | None = None,
                  mip_gap: float | None = 0.0, threads: int | None = None, gpus: int | None = None) -> Outcome:
    """The offline optimum of IP (5) (``aisched.offline`` for the `genai` family).

    ``status`` is "optimal" only when the solver proved it; on a time limit
    the incumbent's plan (or the empty plan) with ``bound`` the solver's best
    bound (or the sum of revenues when it has none: ``info["bound_source"]``).
    ``objective`` is the profit of the extracted plan recomputed by
    :func:`~aisched.models.genai.plan.verify_plan`.

    Instances whose model would exceed :data:`MAX_START_VARIABLES` start
    variables are not built: with a ``time_limit`` the result is status
    "time_limit", the empty plan (profit 0) and :func:`capacity_free_bound`;
    without one, :class:`~aisched.errors.SolverError` says so.

    ``gpus``: None (IP (5) as printed) or at most that many tasks at once on an edge
    (:func:`build`; an extension, docs/readings/genai.md A2c).
    """
    def too_large(started: float) -> Outcome | None:
        starts = count_starts(instance)
        if starts <= MAX_START_VARIABLES:
            return None
        if time_limit is None:
            raise SolverError(
                f"IP (5) would need {starts:,} start variables (> MAX_START_VARIABLES = "
                f"{MAX_START_VARIABLES:,}); use a smaller scenario, or pass time_limit= to get the "
                "empty incumbent with the capacity-free bound")
        # building alone would outlast any time limit: stop before it, with a valid bound
        return early_outcome("genai", empty_plan(instance), started=started, status=Status.TIME_LIMIT.value,
                             admitted=np.zeros(instance.num_jobs, dtype=bool), bound=capacity_free_bound(instance),
                             info={"solver": "not built", "bound_source": "capacity_free_bound", "starts": starts})

    # nothing to decide: the empty plan is optimal (no solver call)
    empty = lambda started: early_outcome(  # noqa: E731
        "genai", empty_plan(instance), started=started, info={"solver": "none (no jobs)"})
    return solve_with(
        "genai", build=lambda: build(instance, gpus=gpus), extract=lambda model: extract_plan(model, instance),
        verify=lambda plan: verify_plan(instance, plan), fallback_bound=lambda: float(np.sum(instance.revenue)),
        fallback_source="sum_of_revenues", solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
        check=lambda: check_gpus(gpus), empty=empty if instance.num_jobs == 0 else None, guard=too_large,
        solve=solve)
