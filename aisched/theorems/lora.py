"""The LoRA paper's guarantees (pdFTSP) as checks: Lemmas 1-4, Theorems 3, 4 and 5.

Each function takes an instance (and a pdFTSP outcome, or runs one) and returns a
:class:`~aisched.theorems.core.TheoremCheck`. The run itself records Lemma 1's
step inequality and the dual objective (6) (:mod:`aisched.online.lora.pdftsp.invariants`);
this module adds what needs more work than one run:

- :func:`dual_certificate`: Lemma 4 (is ``(mu, lambda^(I), phi^(I))`` feasible for
  the dual (6)?) and a dual solution that *is* feasible -- the final prices with
  ``mu-hat_i = max{0, max_l b_il - sum_{(k,t) in l} (s_kt(il) lambda_kt^(I) + r_kt(il) phi_kt^(I))}``,
  one dynamic programme (13) per task at the final prices -- whose objective
  bounds the optimum of (4) on every run (weak duality for the LP relaxation of (5));
- :func:`lemma3` (``P_1^I >= P~_1^I / rho``) and :func:`theorem5` (``P^I >= OPT / gamma``,
  ``gamma = rho (1 + max{alpha, beta})``), with Lemma 2's premises (:func:`lemma2_premises`);
- :func:`theorem3` (truthfulness: full re-runs with a deviating bid) and
  :func:`theorem4` (individual rationality).

Readings (docs/theorems.md): ``b-bar_il`` and ``rho`` are taken over the schedules
the run chose for ``S_a`` (the tasks with ``F(il) > 0``); the paper's maxima "over
(i, l)" include schedules of negative welfare, for which ``rho`` is not defined.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from aisched.core import runner
from aisched.errors import InvalidScenarioError, InvariantViolatedError
from aisched.models.lora import LoraInstance
from aisched.online.lora.audit import audit_reruns, audited_tasks
from aisched.online.lora.pdftsp import invariants, kernel
from aisched.online.lora.pdftsp.algorithm import run as run_pdftsp
from aisched.online.lora.pdftsp.params import work_unit_of
from aisched.outcome import Outcome
from aisched.theorems.core import Premise, TheoremCheck, check, load_instance, not_checkable

__all__ = ["long_task_blocked", "energy_above_value", "cases", "dual_certificate", "lemma1", "lemma2_premises", "lemma3", "lemma4", "theorem3", "theorem4",
           "theorem5", "assert_invariants", "checks", "FAMILY"]

FAMILY = "lora"


def _outcome(instance: LoraInstance, outcome: Outcome | None, options: dict[str, Any]) -> Outcome:
    if outcome is None:
        return run_pdftsp(instance, **options)
    if outcome.algorithm != "pdftsp" or "dual_objective" not in outcome.info:
        raise InvalidScenarioError("outcome", f"is a {outcome.algorithm!r} outcome without pdFTSP's "
                                   "recorded invariants (run aisched.online.lora.pdftsp.run)")
    return outcome


def _pow2(n: int, least: int = 1) -> int:
    return 1 << max(least - 1, int(n) - 1).bit_length()


def dual_certificate(instance: LoraInstance, outcome: Outcome) -> dict[str, Any]:
    """A feasible solution of the dual (6) from the run's final prices, and Lemma 4's slack.

    For each task, the least cost of a schedule at the final prices,
    ``min_l sum_{(k,t) in l} (s_ik lambda_kt^(I) + r_i phi_kt^(I) + e_ikt) + q_in``,
    is found by DP (13) per vendor option (the kernel of ``selection="cell_prices"``);
    ``mu-hat_i = max{0, b_i - that}``. With ``(mu-hat, lambda^(I), phi^(I))`` every
    constraint (6a) holds, so its objective bounds the LP relaxation of (5) and hence
    ``OPT`` of (4). Where work and throughput are not whole multiples of one unit the DP
    is run on a relaxation (throughput rounded up, work down), which can only lower the
    least cost: ``mu-hat`` stays an over-estimate and the bound stays valid.

    Returns
    -------
    dict
        ``dual_bound`` (``D-hat``), ``mu_hat`` (task,), ``mu`` (task,, (11) as run),
        ``lemma4_gap``: ``max_i (mu-hat_i - mu_i)`` (<= 0 when the paper's own
        ``(mu, lambda^(I), phi^(I))`` is dual feasible, Lemma 4), ``lemma4_tasks``: how many
        tasks break (6a) at the paper's ``mu``, ``units_exact``.
    """
    lam = np.asarray(outcome.prices["compute_price"].values, float)
    phi = np.asarray(outcome.prices["memory_price"].values, float)
    unit, exact = work_unit_of(instance)
    if exact:
        work_units = np.ceil(instance.work / unit - 1e-9)
        units = np.floor(instance.throughput / unit + 1e-9)
    else:  # a relaxation: every true schedule still gathers the (rounded-down) work
        work_units = np.maximum(np.floor(instance.work / unit + 1e-9), 1)
        units = np.ceil(instance.throughput / unit - 1e-9)
    units = np.minimum(units, work_units[:, None]).astype(np.int32)
    work_units = work_units.astype(np.int32)
    w_max = _pow2(int(work_units.max()) if instance.num_tasks else 1, 4)
    distinct = max((np.unique(u[u > 0]).size for u in units), default=1)
    g_max = _pow2(max(distinct, 1))
    energy_use, energy_price = instance.energy_factors()
    earliest = np.minimum(instance.earliest_start(), instance.num_slots) if instance.num_vendors else None
    room = instance.memory_capacity - instance.base_memory
    mu_hat = np.zeros(instance.num_tasks)
    for i in range(instance.num_tasks):
        if instance.num_vendors and instance.needs_preprocessing[i]:
            start, fee = earliest[i].astype(np.int32), instance.vendor_price[i].astype(float)
            valid = np.ones(instance.num_vendors, bool)
        else:
            start = np.array([instance.arrival[i]], np.int32)
            fee, valid = np.zeros(1), np.ones(1, bool)
        group, group_units = kernel.node_groups(units[i], g_max)
        _, costs, _ = kernel.cell_prices_options(
            lam, phi, energy_price, energy_use[i], instance.throughput[i], units[i], group, group_units,
            float(instance.memory_need[i]), int(work_units[i]), start, int(instance.deadline[i]), fee,
            valid, float(instance.bid[i]), max_work_units=w_max)
        best = float(instance.bid[i]) - fee - np.asarray(costs, float)
        mu_hat[i] = max(0.0, float(np.max(np.where(valid & np.isfinite(best), best, 0.0))))
    surplus = np.asarray(outcome.plan["surplus"].values, float)
    mu = np.where(np.isfinite(surplus) & (surplus > 0), surplus, 0.0)
    prices_part = float(np.sum(instance.compute_capacity[:, None] * lam) + np.sum(room[:, None] * phi))
    gap = mu_hat - mu
    return {"dual_bound": float(mu_hat.sum()) + prices_part, "mu_hat": mu_hat, "mu": mu,
            "lemma4_gap": float(gap.max()) if gap.size else 0.0,
            "lemma4_tasks": int(np.sum(gap > 1e-9 * max(1.0, float(np.max(instance.bid, initial=0))))),
            "units_exact": bool(exact)}


def lemma1(instance: LoraInstance, outcome: Outcome | None = None, **options: Any) -> TheoremCheck:
    """Lemma 1's step inequality, ``D_1^i - D_1^(i-1) <= (1 + max{alpha, beta}) b_il`` for all ``i in S_a``.

    Measured: the largest ``(D_1^i - D_1^(i-1)) / b_il`` of the run (exact: it is the
    run's own arithmetic). Lemma 1 itself (``P~_1^I >= D_1^I / (1 + max{alpha, beta})``)
    is the sum of these steps.
    """
    out = _outcome(instance, outcome, options)
    factor = 1.0 + max(out.info["alpha"], out.info["beta"])
    slack = out.info["lemma1_slack"]
    statement = "D_1^i - D_1^(i-1) <= (1 + max{alpha, beta}) b_il for every task with F(il) > 0"
    if math.isnan(slack):
        return not_checkable(FAMILY, "Lemma 1", statement, "no task had F(il) > 0 (S_a is empty)")
    measured = factor * (1.0 - slack)
    return check(FAMILY, "Lemma 1", statement, [], bound=factor, measured=measured,
                 margin=factor - measured, unit="ratio", exact="exact", scale=factor,
                 detail=f"D_1^I = {out.info['dual_objective']:.6g}, "
                        f"P~_1^I = {out.info['almost_feasible_welfare']:.6g}",
                 dual_objective=out.info["dual_objective"],
                 almost_feasible_welfare=out.info["almost_feasible_welfare"])


def lemma4(instance: LoraInstance, outcome: Outcome | None = None, *, certificate: dict[str, Any] | None = None,
           **options: Any) -> TheoremCheck:
    """Lemma 4: ``(mu, lambda^(I), phi^(I))`` with ``mu_i = max{0, F(il)}`` (11) is feasible for (6).

    Measured: ``max_i (mu-hat_i - mu_i)`` (:func:`dual_certificate`), in units of the
    largest bid; margin ``-`` that (>= 0: feasible). Exact where the DP's work unit is exact.
    """
    out = _outcome(instance, outcome, options)
    cert = certificate if certificate is not None else dual_certificate(instance, out)
    scale = max(1.0, float(np.max(instance.bid, initial=0.0)))
    statement = "mu_i >= b_il - sum_(k,t) in l (s_kt lambda_kt^(I) + r_kt phi_kt^(I)) for all i, l (6a)"
    return check(FAMILY, "Lemma 4", statement, [], bound=0.0, measured=cert["lemma4_gap"] / scale,
                 margin=-cert["lemma4_gap"] / scale, unit="x largest bid",
                 exact="exact" if cert["units_exact"] else "bound only",
                 detail=f"{cert['lemma4_tasks']} task(s) break (6a) at the paper's mu; the repaired dual "
                        f"bound is {cert['dual_bound']:.6g} (D_1^I as run: {out.info['dual_objective']:.6g})",
                 dual_bound=cert["dual_bound"], lemma4_tasks=cert["lemma4_tasks"])


def _beta_least(instance: LoraInstance, beta_unit: str) -> float:
    ratios = instance.value_per_unit()
    key = "max_value_per_gb_slot" if beta_unit == "gb_slot" else "max_value_per_gb"
    return float(np.max(ratios[key], initial=0.0))


def lemma2_premises(instance: LoraInstance, outcome: Outcome) -> tuple[Premise, ...]:
    """Lemma 2's premises on the instance and run: ``b-bar_il >= 1``, ``alpha >= max b_i / M_i``,
    ``beta >= max b_i / r_i`` (or per GB-slot, ``b_i / (r_i n_i)``, under ``beta_unit="gb_slot"``).

    ``b-bar_il >= 1`` is checked over the schedules the run chose for ``S_a`` (the paper
    asks it of every schedule; a schedule with idle overshoot or of negative welfare breaks
    it on any instance, so only the chosen ones are read).
    """
    info = outcome.info
    per_unit = info.get("welfare_per_unit_min", float("nan"))
    alpha_least = float(np.max(instance.bid / instance.work, initial=0.0))
    beta_unit = info.get("beta_unit", "gb_slot")
    beta_least = _beta_least(instance, beta_unit)
    return (
        Premise("b-bar_il >= 1 (Lemma 2)", None if math.isnan(per_unit) else bool(per_unit >= 1 - 1e-12),
                f"min b-bar_il over S_a's schedules = {per_unit:.4g}"),
        Premise("alpha >= max_i b_i / M_i (Lemma 2)", bool(info["alpha"] >= alpha_least * (1 - 1e-12)),
                f"alpha = {info['alpha']:.4g}, max b_i / M_i = {alpha_least:.4g}"),
        Premise(f"beta >= max_i b_i / r_i{' n_i' if beta_unit == 'gb_slot' else ''} (Lemma 2, "
                f"beta_unit={beta_unit})", bool(info["beta"] >= beta_least * (1 - 1e-12)),
                f"beta = {info['beta']:.4g}, least allowed {beta_least:.4g}"),
    )


def rho(instance: LoraInstance, outcome: Outcome) -> float:
    """Lemma 3's ``rho = 1 + max{b-bar_max s_max / (b-bar_min s_min), b-bar_max r_max / (b-bar_min r_min)}``.

    ``b-bar`` over ``S_a``'s schedules (from the run's record), ``s_ik`` over the positive
    throughputs, ``r_i`` over all tasks. NaN when ``S_a`` is empty.
    """
    lo, hi = outcome.info["welfare_per_unit_min"], outcome.info["welfare_per_unit_max"]
    positive = instance.throughput[instance.throughput > 0]
    if math.isnan(lo) or lo <= 0 or positive.size == 0:
        return float("nan")
    spread_s = float(positive.max() / positive.min())
    spread_r = float(instance.memory_need.max() / instance.memory_need.min())
    return 1.0 + hi / lo * max(spread_s, spread_r)


def lemma3(instance: LoraInstance, outcome: Outcome | None = None, **options: Any) -> TheoremCheck:
    """Lemma 3: ``P_1^I >= P~_1^I / rho`` (measured ``P~_1^I / P_1^I`` against ``rho``), under Lemma 2's premises."""
    out = _outcome(instance, outcome, options)
    statement = "P~_1^I / P_1^I <= rho"
    r = rho(instance, out)
    premises = lemma2_premises(instance, out)
    if math.isnan(r):
        return not_checkable(FAMILY, "Lemma 3", statement, "S_a is empty: rho is not defined", premises)
    p_tilde, p = out.info["almost_feasible_welfare"], out.objective
    measured = p_tilde / p if p > 0 else math.inf
    return check(FAMILY, "Lemma 3", statement, premises, bound=r, measured=measured,
                 margin=(r * p - p_tilde) / p_tilde, unit="fraction of P~", exact="exact",
                 detail=f"P~_1^I = {p_tilde:.6g}, P_1^I = {p:.6g}", rho=r)


def theorem5(instance: LoraInstance, outcome: Outcome | None = None, *, time_limit: float | None = 60.0,
             certificate: dict[str, Any] | None = None, **options: Any) -> TheoremCheck:
    """Theorem 5: ``P^I >= OPT / gamma`` with ``gamma = rho (1 + max{alpha, beta})``.

    ``OPT`` is the offline optimum of (4) where HiGHS proves it (``exact``); otherwise
    the least of the offline solve's bound and the repaired dual bound of
    :func:`dual_certificate` stands in (``bound only``). Margin ``(gamma P^I - OPT) / OPT``.
    """
    out = _outcome(instance, outcome, options)
    statement = "P^I >= OPT / gamma, gamma = rho (1 + max{alpha, beta})"
    premises = lemma2_premises(instance, out)
    r = rho(instance, out)
    cert = certificate if certificate is not None else dual_certificate(instance, out)
    offline = runner.offline(instance, time_limit=time_limit)
    if offline.status == "optimal":
        opt, exact, source = offline.objective, "exact", "offline optimum (HiGHS, proved)"
    else:
        opt = min(v for v in (offline.bound, cert["dual_bound"]) if not math.isnan(v))
        exact, source = "bound only", f"upper bound on OPT (offline status {offline.status})"
    if math.isnan(r):
        return not_checkable(FAMILY, "Theorem 5", statement, "S_a is empty: rho is not defined", premises)
    gamma = r * (1.0 + max(out.info["alpha"], out.info["beta"]))
    p = out.objective
    if opt <= 0:
        return check(FAMILY, "Theorem 5", statement, premises, bound=gamma, measured=1.0, margin=0.0,
                     unit="fraction of OPT", exact=exact, detail="OPT = 0: nothing to lose", gamma=gamma)
    return check(FAMILY, "Theorem 5", statement, premises, bound=gamma,
                 measured=opt / p if p > 0 else math.inf, margin=(gamma * p - opt) / opt,
                 unit="fraction of OPT", exact=exact,
                 detail=f"OPT = {opt:.6g} ({source}), P^I = {p:.6g}, rho = {r:.4g}; dual bound "
                        f"{cert['dual_bound']:.6g} ({cert['dual_bound'] / opt:.4g} x OPT)",
                 gamma=gamma, rho=r, optimum=opt, dual_bound=cert["dual_bound"],
                 dual_objective=out.info["dual_objective"])


def theorem3(instance: LoraInstance, task: int, bids: Any, **options: Any) -> TheoremCheck:
    """Theorem 3 (truthful): ``U_i(v_i) >= U_i(b_i)`` for each deviating bid in ``bids``.

    The whole auction is re-run for every bid (:func:`aisched.online.lora.audit.audit_reruns`),
    so alpha and beta read from the bids are seen. Measured: the largest utility gain of a
    deviation, in units of the true value ``v_i`` (the instance's bid); margin ``-`` that.
    """
    value = float(instance.bid[int(task)]) if 0 <= int(task) < instance.num_tasks else 0.0
    table = audit_reruns(instance, task, np.concatenate([[value], np.atleast_1d(np.asarray(bids, float))]),
                         **options)
    gains = table["utility"].values[1:] - table["utility"].values[0]
    j = int(np.argmax(gains))
    scale = value if value > 0 else 1.0
    return check(FAMILY, "Theorem 3", "U_i(v_i) >= U_i(b_i) for every bid b_i", [],
                 bound=0.0, measured=gains[j] / scale, margin=-gains[j] / scale, unit="x true value",
                 exact="exact", detail=f"task {int(task)}: true value {value:.6g}, best deviation "
                                       f"{table['bid'].values[1 + j]:.6g} gains {gains[j]:.6g}",
                 task=int(task), bid=float(table["bid"].values[1 + j]))


def theorem3_audit(instance: LoraInstance, outcome: Outcome, count: int = 4, factors: Any = None,
                   **options: Any) -> TheoremCheck:
    """:func:`theorem3` over ``count`` tasks (:func:`aisched.online.lora.audit.audited_tasks`),
    each bidding ``factors`` (default 0, 0.25, ..., 2) times its value; the worst one."""
    grid = np.linspace(0.0, 2.0, 9) if factors is None else np.asarray(factors, float)
    tasks = audited_tasks(outcome, count)
    if tasks.size == 0:
        return not_checkable(FAMILY, "Theorem 3", "U_i(v_i) >= U_i(b_i) for every bid b_i",
                             "no task to audit (none admitted nor rejected with a schedule)")
    found = [theorem3(instance, int(t), grid * float(instance.bid[int(t)]), **options) for t in tasks]
    return min(found, key=lambda c: c.margin)


def theorem4(instance: LoraInstance, outcome: Outcome | None = None, **options: Any) -> TheoremCheck:
    """Theorem 4 (individually rational): ``v_i - p_i >= 0`` for every admitted task, bidding truthfully.

    Measured: the least ``(v_i - p_i) / v_i`` over admitted tasks (margin the same);
    vacuous (margin inf) when none is admitted.
    """
    out = _outcome(instance, outcome, options)
    won = np.nonzero(out.admitted)[0]
    statement = "U_i(v_i) = v_i - p_i >= 0 for every admitted task"
    if won.size == 0:
        return check(FAMILY, "Theorem 4", statement, [], bound=0.0, measured=math.inf, margin=math.inf,
                     unit="x true value", exact="exact", detail="no task admitted (vacuous)")
    value = instance.bid[won]
    utility = (value - np.asarray(out.payments)[won]) / np.where(value > 0, value, 1.0)
    j = int(np.argmin(utility))
    return check(FAMILY, "Theorem 4", statement, [], bound=0.0, measured=float(utility[j]),
                 margin=float(utility[j]), unit="x true value", exact="exact",
                 detail=f"task {int(won[j])} (of {won.size} admitted) keeps {utility[j]:.4g} of its value",
                 task=int(won[j]))


def assert_invariants(outcome: Outcome, tolerance: float = invariants.LEMMA1_TOLERANCE) -> None:
    """Raise :class:`~aisched.errors.InvariantViolatedError` if the run broke Lemma 1's step inequality."""
    slack = outcome.info.get("lemma1_slack", float("nan"))
    if not math.isnan(slack) and slack < -tolerance:
        raise InvariantViolatedError("Lemma 1 (lora)", f"a dual step exceeds (1 + max{{alpha, beta}}) b_il "
                                     f"by {-slack:.3g} of the bound ({outcome.algorithm})")


def checks(instance: LoraInstance, *, time_limit: float | None = 60.0, audit_count: int = 2,
           **options: Any) -> list[TheoremCheck]:
    """Every check of this module on one instance, sharing one run and one dual certificate."""
    out = run_pdftsp(instance, **options)
    cert = dual_certificate(instance, out)
    found = [lemma1(instance, out), lemma3(instance, out), lemma4(instance, out, certificate=cert),
             theorem5(instance, out, time_limit=time_limit, certificate=cert), theorem4(instance, out)]
    if audit_count:
        found.append(theorem3_audit(instance, out, audit_count, **options))
    return found


# ------------------------------------------------------------------ the search (aisched.theorems.search)
def random_instance(rng: np.random.Generator) -> LoraInstance:
    """A random small instance (1-2 nodes, 2-6 slots, 2-5 tasks, whole-number work and throughput, so
    the DP is exact and HiGHS proves the optimum), its money rescaled so that ``b-bar_il >= 1`` on the
    schedules pdFTSP picks (:func:`normalised`): Lemma 2's premise, by the paper's change of units."""
    nodes, slots, tasks = int(rng.integers(1, 3)), int(rng.integers(2, 7)), int(rng.integers(2, 6))
    vendors = int(rng.integers(0, 3))
    compute = rng.integers(3, 9, size=nodes).astype(float)
    arrival = rng.integers(0, slots, size=tasks)
    deadline = np.minimum(slots - 1, arrival + rng.integers(0, slots, size=tasks))
    inst = LoraInstance(
        num_slots=slots, compute_capacity=compute, memory_capacity=rng.integers(6, 14, size=nodes).astype(float),
        base_memory=float(rng.integers(0, 3)), gpu_type=np.array(["A100-80GB"] * nodes), arrival=arrival,
        deadline=deadline, memory_need=rng.integers(1, 5, size=tasks).astype(float),
        work=rng.integers(1, 10, size=tasks).astype(float),
        needs_preprocessing=(rng.random(tasks) < 0.4) & (vendors > 0),
        bid=np.round(rng.uniform(1, 40, size=tasks), 2),
        throughput=np.minimum(rng.integers(0, 7, size=(tasks, nodes)), compute[None, :]).astype(float),
        vendor_price=np.round(rng.uniform(0, 3, size=(tasks, vendors)), 2),
        vendor_delay=rng.integers(0, 2, size=(tasks, vendors)),
        energy_use=np.round(rng.uniform(0, 0.5, size=(tasks, nodes)), 2) * (rng.random() < 0.5),
        energy_price=np.round(rng.uniform(0, 1, size=(nodes, slots)), 2))
    return normalised(inst)


def normalised(instance: LoraInstance, **options: Any) -> LoraInstance:
    """``instance`` with every bid (and vendor and energy price) scaled so that the least ``b-bar_il``
    over the schedules pdFTSP picks is at least 1 (Lemma 2's premise; the paper: "we can scale the
    units"). With alpha and beta read from the bids every decision is unchanged by the scaling."""
    out = run_pdftsp(instance, **options)
    least = out.info["welfare_per_unit_min"]
    if math.isnan(least) or least >= 1 or least <= 0:
        return instance
    scale = 1.0 / least * (1 + 1e-9)
    return instance.replace(bid=instance.bid * scale, vendor_price=instance.vendor_price * scale,
                            energy_use=instance._energy_use * scale)


def mutate(instance: LoraInstance, rng: np.random.Generator) -> LoraInstance:
    """One local move on an instance field: a bid scaled, a task's work, throughput, memory, arrival or
    deadline moved by one, a capacity moved by one, or a task dropped or copied; then :func:`normalised`."""
    n, k, t = instance.num_tasks, instance.num_nodes, instance.num_slots
    i, node = int(rng.integers(n)), int(rng.integers(k))
    move = rng.choice(["bid", "work", "throughput", "memory", "arrival", "deadline", "capacity", "drop", "copy"])
    step = int(rng.choice([-1, 1]))
    if move == "bid":
        bid = instance.bid.copy()
        bid[i] *= float(rng.uniform(0.5, 2.0))
        changed = instance.replace(bid=bid)
    elif move in ("work", "memory"):
        field_name = "work" if move == "work" else "memory_need"
        values = getattr(instance, field_name).copy()
        values[i] = max(1.0, values[i] + step)
        changed = instance.replace(**{field_name: values})
    elif move == "throughput":
        values = instance.throughput.copy()
        values[i, node] = float(np.clip(values[i, node] + step, 0, instance.compute_capacity[node]))
        changed = instance.replace(throughput=values)
    elif move in ("arrival", "deadline"):
        arrival, deadline = instance.arrival.copy(), instance.deadline.copy()
        target = arrival if move == "arrival" else deadline
        target[i] = int(np.clip(target[i] + step, 0, t - 1))
        if arrival[i] > deadline[i]:
            raise InvalidScenarioError(move, f"[{i}]: the move puts the arrival after the deadline")
        changed = instance.replace(arrival=arrival, deadline=deadline)
    elif move == "capacity":
        capacity = instance.compute_capacity.copy()
        capacity[node] = max(float(instance.throughput[:, node].max(initial=1.0)), capacity[node] + step)
        changed = instance.replace(compute_capacity=capacity)
    elif move == "drop" and n > 1:
        changed = instance.subset([j for j in range(n) if j != i])
    else:  # copy a task (a second bidder like it)
        changed = instance.subset([*range(n), i])
    return normalised(changed)


def load(path: Any) -> LoraInstance:
    """A saved instance (``instance.to_dataset().to_netcdf(path)``)."""
    return load_instance(LoraInstance, path)


# ------------------------------------------------------------------ hand-made cases (tests and the search)

def long_task_blocked(slots: int = 10, memory_capacity: float = 1000.0) -> LoraInstance:
    """One node; task 0 (one slot, 5 of 10 samples, bid 11) arrives first and fills half of slot 0;
    task 1 needs all ``slots`` slots at 6 samples (bid ``10 (6 + 6)``): both have ``b-bar = 1``.

    pdFTSP admits task 0; task 1 then has F > 0 (it enters S_a) but does not fit slot 0, so
    ``P = 11`` while ``OPT = 12 slots``-worth (task 1 alone): ``P~ / P`` and ``OPT / P`` grow
    with ``slots`` while Lemma 3's ``rho = 2.2`` does not.
    """
    return LoraInstance(
        num_slots=slots, compute_capacity=np.array([10.0]), memory_capacity=np.array([memory_capacity]),
        base_memory=0.0, gpu_type=np.array(["A100-80GB"]), arrival=np.array([0, 0]),
        deadline=np.array([0, slots - 1]), memory_need=np.array([6.0, 6.0]),
        work=np.array([5.0, 6.0 * slots]), needs_preprocessing=np.array([False, False]),
        bid=np.array([11.0, 12.0 * slots]), throughput=np.array([[5.0], [6.0]]),
        vendor_price=np.zeros((2, 0)), vendor_delay=np.zeros((2, 0), dtype=int),
        energy_use=np.zeros((2, 1)), energy_price=np.zeros((1, slots)))


def energy_above_value(value: float = 5.0, energy: float = 8.0) -> LoraInstance:
    """One task, one slot, whose energy cost ``energy`` exceeds its value: with (14) as printed
    (``payment="paper"``) it is rejected when truthful (F = v - E < 0) but wins and pays 0 when it
    bids above ``energy`` -- a profitable lie (Theorem 3 broken); the corrected payment charges E."""
    return LoraInstance(
        num_slots=1, compute_capacity=np.array([10.0]), memory_capacity=np.array([100.0]), base_memory=0.0,
        gpu_type=np.array(["A100-80GB"]), arrival=np.array([0]), deadline=np.array([0]),
        memory_need=np.array([1.0]), work=np.array([5.0]), needs_preprocessing=np.array([False]),
        bid=np.array([value]), throughput=np.array([[5.0]]), vendor_price=np.zeros((1, 0)),
        vendor_delay=np.zeros((1, 0), dtype=int), energy_use=np.array([[1.0]]),
        energy_price=np.array([[energy]]))


def cases() -> list[tuple[str, LoraInstance]]:
    """The hand-made instances, run by the search beside the paper's (``case:`` in the records)."""
    return [("long task blocked (Lemma 3, Theorem 5)", long_task_blocked()),
            ("energy above value (Theorem 3 under payment=paper)", energy_above_value())]


def suite() -> Any:
    """The search's view of this family (:class:`aisched.theorems.search.Suite`)."""
    from aisched.theorems.search import Suite

    def family_checks(instance: LoraInstance, **options: Any) -> list[TheoremCheck]:
        limit = options.pop("time_limit", 20.0)
        return checks(instance, time_limit=limit, **options)

    return Suite(FAMILY, family_checks, random_instance, mutate, load, cases=cases)
