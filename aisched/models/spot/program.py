"""Problem (5) and the windowed problem (10) of the spot-market paper as Pyomo MILPs.

``build(instance)`` returns a ``ConcreteModel`` of problem (5) with the TRUE
completion time (not only the hard deadline). Components (slot ``t`` 0-based)::

    on_demand[t], spot[t]        n^o_t, n^s_t  (integers)                   (5e)
    run[t]                       delta_t, the job runs in slot t            (5e)
    up[t], down[t]               the GPU count grows / shrinks in slot t    (2)
    loss[t]                      work lost to reconfiguration, (1 - mu_t) H(n_t)
    done[t]                      the work is done by the end of slot t
    utility                      objective (5): sum_t V(t+1)(done_t - done_{t-1}) - C   (3), (4)
    spot_available[t]            (5b)
    max_gpus[t], min_gpus[t]     (5c), (5d)
    scale_up[t], scale_down[t]   n_t - n_{t-1} <= N_max up_t, n_{t-1} - n_t <= N_max down_t
    loss_up[t], loss_down[t]     loss_t >= (1 - mu_{1,2}) (H(n_t) - M (1 - up_t / down_t))
    work_done[t]                 (5a): sum_{tau <= t} (alpha n + beta delta - loss) >= L done_t
    done_monotone[t], finish     done is non-decreasing; done at the last slot
    spot_grows[t], od_grows[t]   changeover="on" only: a count of either kind grows (restart, mu_1)
    idle_after_done[t]           delta_t <= 1 - done_{t-1}: cost (3) runs to T

Four strengthenings, valid for every optimal plan's GPU counts, help HiGHS
prove optima faster; deactivate them (``m.earliest_done.deactivate()``) to
solve the bare problem (5):

- ``one_direction[t]``: ``up_t + down_t <= 1`` (a count cannot both grow and shrink);
- ``growth_loss[t]``: ``loss_t >= (1 - mu_1) (H(n_t) - H(n_{t-1}))``; valid
  because ``H >= 0`` on every allowed count and ``H`` grows with ``n`` (``alpha
  > 0``), so the right side is at most ``(1 - mu_1) H(n_t)`` when the count
  grows and at most 0 otherwise;
- ``earliest_done[t]``: ``done_t = 0`` before ``N_max`` GPUs from slot 0 could finish;
- ``no_dear_spot[t]``: ``spot_t = 0`` where ``p^s_t >= p_o`` (an on-demand GPU
  is no dearer, so some optimum buys none there).

Linearisation of (1)-(2): ``H(n_t) = alpha n_t + beta delta_t`` is linear in
``(n_t, delta_t)``; ``mu_t H(n_t) = H(n_t) - loss_t`` where ``loss_t`` is forced
up to ``(1 - mu_1) H(n_t)`` when the count grows (``up_t = 1`` is forced by
``scale_up``) and to ``(1 - mu_2) H(n_t)`` when it shrinks; the maximisation
keeps it no larger. The big-M of ``loss_up``/``loss_down`` is scaled by
``1 - mu`` (``loss_t >= (1 - mu_1)(H(n_t) - M (1 - up_t))`` with ``M = H(N_max)``),
the least M that is valid: ten times tighter than ``M`` alone at ``mu = 0.9``. The value (4) is piecewise in ``T``; with ``done_t`` the
value is the linear sum ``sum_t V(t + 1) (done_t - done_{t-1})``.

``build_window`` is the same model over a prediction window with the
terminal value ``V~`` of (9)-(10) as a step function of the progress at the
window's end (see :func:`aisched.online.spot.window.reference`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models._offline import solve_with
from aisched.models.spot.instance import SpotInstance
from aisched.models.spot.plan import make_plan, verify_plan
from aisched.outcome import Outcome
from aisched.registry import register_offline
from aisched.solvers import solve

__all__ = ["HIGHS_OPTIONS", "build", "build_flow", "build_window", "extract_plan", "solve_offline", "solve_window_milp"]


# ------------------------------------------------------------------ shared rules
def _gpus(m: pyo.ConcreteModel, t: int) -> Any:
    return m.on_demand[t] + m.spot[t]


def _previous(m: pyo.ConcreteModel, t: int) -> Any:
    return _gpus(m, t - 1) if t > m.SLOTS.first() else m.previous_gpus


def _spot_available_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return m.spot[t] <= m.available[t]


def _max_gpus_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return _gpus(m, t) <= m.max_gpus * m.run[t]


def _min_gpus_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return _gpus(m, t) >= m.min_gpus * m.run[t]


def _scale_up_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return _gpus(m, t) - _previous(m, t) <= m.max_gpus * m.up[t]


def _scale_down_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return _previous(m, t) - _gpus(m, t) <= m.max_gpus * m.down[t]


def _raw_work(m: pyo.ConcreteModel, t: int) -> Any:
    return m.slope * _gpus(m, t) + m.intercept * m.run[t]


def _loss_up_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return m.loss[t] >= (1 - m.mu_up) * (_raw_work(m, t) - m.big_m * (1 - m.up[t]))


def _loss_down_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return m.loss[t] >= (1 - m.mu_down) * (_raw_work(m, t) - m.big_m * (1 - m.down[t]))


def _previous_raw_work(m: pyo.ConcreteModel, t: int) -> Any:
    if t > m.SLOTS.first():
        return _raw_work(m, t - 1)
    prev = int(pyo.value(m.previous_gpus))
    return m.slope * prev + m.intercept * int(prev > 0)


def _growth_loss_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return m.loss[t] >= (1 - m.mu_up) * (_raw_work(m, t) - _previous_raw_work(m, t))


def _work(m: pyo.ConcreteModel, t: int) -> Any:
    return _raw_work(m, t) - m.loss[t]


def _cost(m: pyo.ConcreteModel) -> Any:
    return sum(m.on_demand_price * m.on_demand[t] + m.price[t] * m.spot[t] for t in m.SLOTS)


def _common(m: pyo.ConcreteModel, price: np.ndarray, available: np.ndarray, p: dict[str, float]) -> None:
    slots = range(len(price))
    m.SLOTS = pyo.Set(initialize=slots, ordered=True)
    m.price = pyo.Param(m.SLOTS, initialize=dict(enumerate(map(float, price))))
    m.available = pyo.Param(m.SLOTS, initialize=dict(enumerate(map(int, available))))
    for name in ("on_demand_price", "min_gpus", "max_gpus", "slope", "intercept", "mu_up",
                 "mu_down", "previous_gpus"):
        setattr(m, name, pyo.Param(initialize=p[name]))
    m.big_m = pyo.Param(initialize=abs(p["slope"]) * p["max_gpus"] + abs(p["intercept"]))
    nmax = int(p["max_gpus"])
    m.on_demand = pyo.Var(m.SLOTS, within=pyo.NonNegativeIntegers, bounds=(0, nmax))
    m.spot = pyo.Var(m.SLOTS, within=pyo.NonNegativeIntegers, bounds=(0, nmax))
    m.run = pyo.Var(m.SLOTS, within=pyo.Binary)
    m.up = pyo.Var(m.SLOTS, within=pyo.Binary)
    m.down = pyo.Var(m.SLOTS, within=pyo.Binary)
    m.loss = pyo.Var(m.SLOTS, within=pyo.NonNegativeReals)
    m.spot_available = pyo.Constraint(m.SLOTS, rule=_spot_available_rule)
    m.max_gpus_c = pyo.Constraint(m.SLOTS, rule=_max_gpus_rule)
    m.min_gpus_c = pyo.Constraint(m.SLOTS, rule=_min_gpus_rule)
    m.scale_up = pyo.Constraint(m.SLOTS, rule=_scale_up_rule)
    m.scale_down = pyo.Constraint(m.SLOTS, rule=_scale_down_rule)
    m.loss_up = pyo.Constraint(m.SLOTS, rule=_loss_up_rule)
    m.loss_down = pyo.Constraint(m.SLOTS, rule=_loss_down_rule)
    m.one_direction = pyo.Constraint(m.SLOTS, rule=lambda m, t: m.up[t] + m.down[t] <= 1)
    m.growth_loss = pyo.Constraint(m.SLOTS, rule=_growth_loss_rule)


def _params(inst: SpotInstance, previous_gpus: int = 0) -> dict[str, float]:
    return {
        "on_demand_price": inst.on_demand_price, "min_gpus": inst.min_gpus,
        "max_gpus": inst.max_gpus, "slope": inst.throughput_slope,
        "intercept": inst.throughput_intercept, "mu_up": inst.scale_up_efficiency,
        "mu_down": inst.scale_down_efficiency, "previous_gpus": previous_gpus,
    }


# ------------------------------------------------------------------ problem (5)
def _work_done_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return sum(_work(m, s) for s in m.SLOTS if s <= t) >= m.work * m.done[t]


def _done_monotone_rule(m: pyo.ConcreteModel, t: int) -> Any:
    if t == m.SLOTS.first():
        return pyo.Constraint.Skip
    return m.done[t] >= m.done[t - 1]


def _idle_after_done_rule(m: pyo.ConcreteModel, t: int) -> Any:
    if t == m.SLOTS.first():
        return pyo.Constraint.Skip
    return m.run[t] <= 1 - m.done[t - 1]


def _utility_rule(m: pyo.ConcreteModel) -> Any:
    value = sum(m.value_at[t] * (m.done[t] - (m.done[t - 1] if t > 0 else 0)) for t in m.SLOTS)
    return value - _cost(m)


def _changeover(m: pyo.ConcreteModel) -> None:
    """``changeover="on"``: a slot where either count grows loses ``(1 - mu_1) H(n_t)``.

    ``spot_grows[t]``/``od_grows[t]`` are forced to 1 when ``n^s``/``n^o`` grows
    (big-M ``N_max``), and ``loss_spot``/``loss_od`` then force the loss as
    ``loss_up`` does; with ``mu_1 <= mu_2`` the loss is the largest that
    applies, as :meth:`~aisched.models.spot.SpotInstance.split_efficiency` says.
    """
    def prev(var: pyo.Var, t: int) -> Any:
        return var[t - 1] if t > m.SLOTS.first() else 0

    m.spot_grows = pyo.Var(m.SLOTS, within=pyo.Binary)
    m.od_grows = pyo.Var(m.SLOTS, within=pyo.Binary)
    m.spot_grows_c = pyo.Constraint(
        m.SLOTS, rule=lambda m, t: m.spot[t] - prev(m.spot, t) <= m.max_gpus * m.spot_grows[t])
    m.od_grows_c = pyo.Constraint(
        m.SLOTS, rule=lambda m, t: m.on_demand[t] - prev(m.on_demand, t) <= m.max_gpus * m.od_grows[t])
    m.loss_spot = pyo.Constraint(m.SLOTS, rule=lambda m, t: m.loss[t] >= (1 - m.mu_up) * (
        _raw_work(m, t) - m.big_m * (1 - m.spot_grows[t])))
    m.loss_od = pyo.Constraint(m.SLOTS, rule=lambda m, t: m.loss[t] >= (1 - m.mu_up) * (
        _raw_work(m, t) - m.big_m * (1 - m.od_grows[t])))


def build(instance: SpotInstance, formulation: str = "big_m") -> pyo.ConcreteModel:
    """The Pyomo MILP of problem (5) for ``instance``.

    ``formulation="big_m"`` (default): the components of the module docstring (integer
    ``on_demand``/``spot``, big-M reconfiguration losses). ``"flow"``: a shortest-path
    flow over (slot, count), :func:`build_flow` (exact too, slower to build and solve here).
    """
    if formulation == "flow":
        if instance.changeover == "on":
            raise InvalidScenarioError("formulation", "'flow' splits counts cost-optimally; it does not model "
                                       "changeover='on' (use 'big_m')")
        return build_flow(instance)
    one_of("formulation", formulation, ("flow", "big_m"))
    m = pyo.ConcreteModel(name="spot_problem5")
    m.instance = instance
    _common(m, instance.spot_price, instance.spot_available, _params(instance))
    m.max_gpus_c.doc = "(5c)"
    m.min_gpus_c.doc = "(5d)"
    m.work = pyo.Param(initialize=instance.work)
    values = instance.value_at(np.arange(instance.num_slots) + 1)
    m.value_at = pyo.Param(m.SLOTS, initialize=dict(enumerate(map(float, values))))
    m.done = pyo.Var(m.SLOTS, within=pyo.Binary)
    m.work_done = pyo.Constraint(m.SLOTS, rule=_work_done_rule)
    m.done_monotone = pyo.Constraint(m.SLOTS, rule=_done_monotone_rule)
    m.finish = pyo.Constraint(expr=m.done[instance.num_slots - 1] == 1)
    m.idle_after_done = pyo.Constraint(m.SLOTS, rule=_idle_after_done_rule)
    full = float(instance.throughput(instance.max_gpus))
    reach = instance.scale_up_efficiency * full + np.arange(instance.num_slots) * full
    early = [t for t in range(instance.num_slots) if reach[t] < instance.work - 1e-9]
    m.EARLY = pyo.Set(initialize=early, ordered=True)
    m.earliest_done = pyo.Constraint(m.EARLY, rule=lambda m, t: m.done[t] == 0)
    dear = [t for t in range(instance.num_slots) if instance.spot_price[t] >= instance.on_demand_price]
    if instance.changeover == "on":  # dear spot can avoid a restart: no longer valid
        dear = []
        _changeover(m)
    m.DEAR = pyo.Set(initialize=dear, ordered=True)
    m.no_dear_spot = pyo.Constraint(m.DEAR, rule=lambda m, t: m.spot[t] == 0)
    m.utility = pyo.Objective(rule=_utility_rule, sense=pyo.maximize)
    return m


# ------------------------------------------------------------- flow formulation
def _flow_conservation_rule(m: pyo.ConcreteModel, t: int, n: int) -> Any:
    inflow = sum(m.arc[t, p, n] for p in m.COUNTS if (t, p, n) in m.ARCS)
    if t == m.SLOTS.last():
        return pyo.Constraint.Skip
    return inflow == sum(m.arc[t + 1, n, k] for k in m.COUNTS)


def _flow_start_rule(m: pyo.ConcreteModel) -> Any:
    return sum(m.arc[0, 0, n] for n in m.COUNTS) == 1


def _flow_work(m: pyo.ConcreteModel, t: int) -> Any:
    return sum(m.arc_work[p, n] * m.arc[t, p, n] for p in m.COUNTS for n in m.COUNTS if (t, p, n) in m.ARCS)


def _flow_work_done_rule(m: pyo.ConcreteModel, t: int) -> Any:
    return sum(_flow_work(m, s) for s in m.SLOTS if s <= t) >= m.work * m.done[t]


def _flow_idle_rule(m: pyo.ConcreteModel, t: int) -> Any:
    if t == m.SLOTS.first():
        return pyo.Constraint.Skip
    running = sum(m.arc[t, p, n] for p in m.COUNTS for n in m.COUNTS if n > 0 and (t, p, n) in m.ARCS)
    return running <= 1 - m.done[t - 1]


def _flow_utility_rule(m: pyo.ConcreteModel) -> Any:
    value = sum(m.value_at[t] * (m.done[t] - (m.done[t - 1] if t > 0 else 0)) for t in m.SLOTS)
    cost = sum(m.slot_cost[t, n] * m.arc[t, p, n] for (t, p, n) in m.ARCS)
    return value - cost


def build_flow(instance: SpotInstance) -> pyo.ConcreteModel:
    """Problem (5) as a shortest-path flow over (slot, GPU count) with a work-completion side.

    ``arc[t, p, n] = 1`` when the count goes from ``p`` (slot ``t-1``; 0 before
    slot 0) to ``n`` in slot ``t``, with ``n`` in ``{0, N_min..N_max}`` ((5c)-(5e))
    and the work ``mu(p, n) H(n)`` of (1)-(2) on the arc (no linearisation
    needed). A count is split cost-optimally (spot first where
    ``p^s_t < p_o``, at most ``n^avail_t`` of them: (5b)), so ``slot_cost[t, n]``
    is exact for some optimum. ``done``, ``work_done`` (5a), ``idle_after_done``
    and ``utility`` are as in the big-M model; ``flow_start``/``flow_conservation``
    make the arcs one path. ``on_demand``/``spot`` are read back by :func:`extract_plan`.
    """
    opts = [int(n) for n in instance.gpu_options()]
    H = instance.num_slots
    m = pyo.ConcreteModel(name="spot_problem5_flow")
    m.instance = instance
    m.SLOTS = pyo.Set(initialize=range(H), ordered=True)
    m.COUNTS = pyo.Set(initialize=opts, ordered=True)
    arcs = [(0, 0, n) for n in opts] + [(t, p, n) for t in range(1, H) for p in opts for n in opts]
    m.ARCS = pyo.Set(dimen=3, initialize=arcs, ordered=True)
    work = {(p, n): float(instance.efficiency(n, p) * instance.throughput(n)) for p in opts for n in opts}
    m.arc_work = pyo.Param(m.COUNTS, m.COUNTS, initialize=work)
    p_o = instance.on_demand_price
    cost = {}
    for t in range(H):
        ps, av = float(instance.spot_price[t]), int(instance.spot_available[t])
        for n in opts:
            sp = min(n, av) if ps < p_o else 0
            cost[t, n] = sp * ps + (n - sp) * p_o
    m.slot_cost = pyo.Param(m.SLOTS, m.COUNTS, initialize=cost)
    m.work = pyo.Param(initialize=instance.work)
    values = instance.value_at(np.arange(H) + 1)
    m.value_at = pyo.Param(m.SLOTS, initialize=dict(enumerate(map(float, values))))
    m.arc = pyo.Var(m.ARCS, within=pyo.Binary)
    m.done = pyo.Var(m.SLOTS, within=pyo.Binary)
    m.flow_start = pyo.Constraint(rule=_flow_start_rule)
    m.flow_conservation = pyo.Constraint(m.SLOTS, m.COUNTS, rule=_flow_conservation_rule)
    m.work_done = pyo.Constraint(m.SLOTS, rule=_flow_work_done_rule)
    m.done_monotone = pyo.Constraint(m.SLOTS, rule=_done_monotone_rule)
    m.finish = pyo.Constraint(expr=m.done[H - 1] == 1)
    m.idle_after_done = pyo.Constraint(m.SLOTS, rule=_flow_idle_rule)
    full = float(instance.throughput(instance.max_gpus))
    reach = instance.scale_up_efficiency * full + np.arange(H) * full
    m.EARLY = pyo.Set(initialize=[t for t in range(H) if reach[t] < instance.work - 1e-9], ordered=True)
    m.earliest_done = pyo.Constraint(m.EARLY, rule=lambda m, t: m.done[t] == 0)
    m.utility = pyo.Objective(rule=_flow_utility_rule, sense=pyo.maximize)
    return m


def extract_plan(model: pyo.ConcreteModel, instance: SpotInstance) -> Any:
    """The (rounded) GPU counts of a solved model (either formulation) as a plan Dataset."""
    if hasattr(model, "arc"):
        n = np.zeros(instance.num_slots, np.int64)
        for (t, _, k), var in model.arc.items():
            if var.value is not None and var.value > 0.5:
                n[t] = k
        use = (instance.spot_price < instance.on_demand_price)
        sp = np.where(use, np.minimum(n, instance.spot_available), 0)
        return make_plan(instance, n - sp, sp)

    def read(var: pyo.Var) -> np.ndarray:
        return np.array([round(var[t].value or 0.0) for t in model.SLOTS], dtype=np.int64)

    return make_plan(instance, read(model.on_demand), read(model.spot))


#: HiGHS options ``solve_offline`` uses by default: the RINS, RENS and feasibility-jump
#: primal heuristics off. They only look for incumbents; on these small models
#: HiGHS finds the optimum by branching anyway, and without them the paper job's
#: optimum is proven about 35% sooner (``benchmarks/bench_spot.py``). The proof
#: of optimality is unchanged.
HIGHS_OPTIONS: dict[str, Any] = {
    "mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False,
    "mip_heuristic_run_feasibility_jump": False,
}


@register_offline("spot")
def solve_offline(
    instance: SpotInstance, *, solver: str = "highs", time_limit: float | None = None,
    mip_gap: float | None = 0.0, threads: int | None = None, formulation: str = "big_m",
    solver_options: dict[str, Any] | None = None,
) -> Outcome:
    """The offline optimum of problem (5) (``aisched.offline`` for the `spot` family).

    ``formulation``: "big_m" (default) or "flow" (see :func:`build`).
    ``solver_options``: options in the solver's own names; by default
    :data:`HIGHS_OPTIONS` for ``solver="highs"`` and none otherwise (pass ``{}``
    for HiGHS's own defaults).

    ``status`` is "optimal" only when the solver proved it; on a time limit the
    incumbent's plan with ``bound``. ``objective`` is the utility of the
    extracted plan recomputed by :func:`~aisched.models.spot.verify_plan`.
    The bound falls back to ``value`` (utility <= V(T) <= v) when the solver
    stopped without one.
    """
    return solve_with(
        "spot", build=lambda: build(instance, formulation), extract=lambda model: extract_plan(model, instance),
        verify=lambda plan: verify_plan(instance, plan), fallback_bound=lambda: instance.value,
        fallback_source="value", solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
        solver_options=solver_options, default_solver_options=lambda: HIGHS_OPTIONS if solver == "highs" else {},
        unsolved_plan=lambda: make_plan(instance, [], []), solve=solve, info={"formulation": formulation})


# ------------------------------------------------------------------ problem (10)
def _terminal_reached_rule(m: pyo.ConcreteModel, k: int) -> Any:
    need = max(float(m.thresholds[k]) - float(m.start_progress), 0.0)
    return sum(_work(m, t) for t in m.SLOTS) >= need * m.step[k]


def _window_rule(m: pyo.ConcreteModel) -> Any:
    return sum(m.step_value[k] * m.step[k] for k in m.STEPS) - _cost(m)


def build_window(
    price: Any, available: Any, *, on_demand_price: float, min_gpus: int, max_gpus: int,
    throughput_slope: float, throughput_intercept: float, scale_up_efficiency: float,
    scale_down_efficiency: float, previous_gpus: int, start_progress: float,
    thresholds: Any, values: Any,
) -> pyo.ConcreteModel:
    """MILP of the windowed problem (10) over the window's (predicted) market.

    The terminal value is a step function of the progress ``Z`` at the window's
    end: ``values[k]`` when ``Z >= thresholds[k]`` (the best reachable step;
    the last threshold must be reachable with no work). Binaries ``step[k]``
    pick one step (``one_step``), ``terminal_reached[k]`` requires its
    threshold.
    """
    price = np.asarray(price, float)
    m = pyo.ConcreteModel(name="spot_window10")
    _common(m, price, np.asarray(available, int), {
        "on_demand_price": on_demand_price, "min_gpus": min_gpus, "max_gpus": max_gpus,
        "slope": throughput_slope, "intercept": throughput_intercept,
        "mu_up": scale_up_efficiency, "mu_down": scale_down_efficiency,
        "previous_gpus": previous_gpus,
    })
    thresholds, values = np.asarray(thresholds, float), np.asarray(values, float)
    m.STEPS = pyo.Set(initialize=range(len(values)), ordered=True)
    m.thresholds = pyo.Param(m.STEPS, initialize=dict(enumerate(map(float, thresholds))))
    m.step_value = pyo.Param(m.STEPS, initialize=dict(enumerate(map(float, values))))
    m.start_progress = pyo.Param(initialize=float(start_progress))
    m.step = pyo.Var(m.STEPS, within=pyo.Binary)
    m.one_step = pyo.Constraint(expr=sum(m.step[k] for k in m.STEPS) == 1)
    m.terminal_reached = pyo.Constraint(m.STEPS, rule=_terminal_reached_rule)
    m.window_utility = pyo.Objective(rule=_window_rule, sense=pyo.maximize)
    return m


def solve_window_milp(*, solver: str = "highs", **window: Any) -> tuple[float, np.ndarray, np.ndarray, str]:
    """Solve :func:`build_window`; return ``(objective, on_demand, spot, status)``."""
    m = build_window(**window)
    res = solve(m, solver, mip_gap=0.0)
    od = np.array([round(m.on_demand[t].value or 0) for t in m.SLOTS], np.int64)
    sp = np.array([round(m.spot[t].value or 0) for t in m.SLOTS], np.int64)
    return res.objective, od, sp, res.status.value
