"""pdFTSP: the online primal-dual auction of the LoRA paper (Algorithm 1 with Algorithm 2).

Tasks are handled one by one in order of arrival (ties by index). For each
task ``i``:

1. Algorithm 2 picks a schedule ``l_i`` and vendor from the current dual
   prices ``lambda^(i-1)`` (``compute_price``) and ``phi^(i-1)``
   (``memory_price``), see :mod:`aisched.online.lora.pdftsp.kernel`, and returns
   ``F(il)`` of (10).
2. If ``F(il) > 0`` the prices of the schedule's cells are raised by (7) and
   (8); *then* the resource check runs, and the task is admitted only if every
   cell still has compute and memory room. As in Algorithm 1 (lines 6-8) the
   prices are raised even when the check then rejects the task.
3. An admitted task pays (14), or the corrected payment (see below).

Payments. With (10) and (14) as printed, ``F = b_i - p_i - E_i`` where
``E_i = sum e_ikt`` is the schedule's operational (energy) cost, not
``F = b_i - p_i`` as the proof of Theorem 3 assumes. A task whose value lies
in ``(p_i, p_i + E_i)`` is then rejected when truthful, yet gains
``v_i - p_i > 0`` by overbidding. ``payment="paper"`` charges exactly (14);
the default ``payment="corrected"`` charges ``(14) + E_i``, so that
``F = b_i - p_i``: the schedule and the price do not depend on the bid, the
task is admitted iff its bid exceeds its price, and bidding the true value is
a dominant strategy (a posted-price mechanism). :func:`audit` shows both.

Parameters ``alpha`` and ``beta`` (Lemma 2), see :func:`lemma2_alpha_beta`:

- ``parameters="declared"`` (default): read from the bounds on value per unit
  the instance declares before bids arrive (``max_value_per_sample``, ...), so
  no bid can move the prices. ``parameters="from_bids"``: Lemma 2's maxima over
  the bids themselves, as printed; NOT truthful (a task's bid moves alpha and
  beta, and so its own price; :func:`audit_reruns` shows it). An instance that
  declares no bound falls back to ``"from_bids"`` (``info["parameters"]`` says so).
- ``beta_unit="gb_slot"`` (default): ``beta`` bounds the value per GB-slot,
  ``b_i / (r_i n_i)`` with ``n_i`` the fewest slots task ``i`` can run in: the
  unit in which (10) charges ``phi`` and the value that makes Lemma 2's
  inequality ``F <= b_i - beta sum_t r_kt(il) < 0`` hold (see the readings).
  ``beta_unit="gb"``: Lemma 2's ``max_i b_i / r_i`` as printed (per GB).

Pass ``alpha`` and ``beta`` explicitly to hold them at given values.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import jax
import numpy as np
import pandas as pd
import xarray as xr

from aisched.core.parameters import one_of
from aisched.errors import AischedWarning, InvalidScenarioError
from aisched.models.lora import LoraInstance, make_plan
from aisched.online.lora.pdftsp import fronts, invariants, kernel
from aisched.online.lora.pdftsp import screen as screening
from aisched.online.lora.pdftsp.params import (  # noqa: F401  (re-exported)
    MAX_WORK_UNITS,
    BetaUnit,
    Parameters,
    default_alpha_beta,
    lemma2_alpha_beta,
    slot_consistent_alpha_beta,
    work_unit_of,
)
from aisched.online.lora.pdftsp.params import PRICE_ATTRS as _PRICE_ATTRS
from aisched.online.lora.pdftsp.params import UNDECLARED_BOUNDS as _UNDECLARED
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["PdftspParams", "PdftspState", "Decision", "default_alpha_beta", "slot_consistent_alpha_beta",
           "lemma2_alpha_beta", "work_unit_of", "run", "audit", "audit_bids", "individual_rationality"]

Selection = Literal["faithful", "cell_prices", "exact"]
Payment = Literal["corrected", "paper"]
_SELECTIONS = ("faithful", "cell_prices", "exact")

#: ``[audit.audit_summary]``, installed by :mod:`aisched.online.lora.audit` when imported (as the
#: package does): ``run(audit_tasks=n)`` calls it without this module importing that one.
AUDIT_SUMMARY: list[Any] = []


@dataclass(frozen=True)
class PdftspParams:
    """Parameters of one pdFTSP run.

    Attributes
    ----------
    alpha, beta
        Scale factors of the dual updates (7) and (8).
    selection
        ``"faithful"``: Algorithm 2 as printed, line 13's running maxima
        (:mod:`~aisched.online.lora.pdftsp.fronts`); ``"cell_prices"``: the DP
        scores each cell at its own duals; ``"exact"``: the schedule that
        maximises (10) itself.
    payment
        ``"corrected"`` (default) or ``"paper"`` (exactly (14)).
    screen
        Reject without DP (13) a task whose F (10) cannot be positive under any
        option (:mod:`~aisched.online.lora.pdftsp.screen`; exact: the same
        decisions, prices and payments). Such a task's recorded F is then an
        upper bound, flagged ``Decision.surplus_is_bound``.
    """

    alpha: float
    beta: float
    selection: Selection = "faithful"
    payment: Payment = "corrected"
    screen: bool = False

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise InvalidScenarioError(name, f"= {value!r} must be a finite number >= 0")
        one_of("selection", self.selection, _SELECTIONS)
        one_of("payment", self.payment, Payment)
        if not isinstance(self.screen, (bool, np.bool_)):
            raise InvalidScenarioError("screen", f"= {self.screen!r} must be True or False")


@dataclass(frozen=True)
class Decision:
    """Algorithm 1's decision for one task (before it is committed).

    ``surplus`` is ``F(il)`` of (10); ``admitted`` is ``surplus > 0`` and the
    resource check; ``payment`` 0 when rejected. ``surplus_is_bound``: the task
    was screened out (``PdftspParams.screen``) and ``surplus`` is an upper bound
    on F (<= 0), not the F of a schedule; ``option`` is then -1.
    """

    task: int
    surplus: float
    option: int
    assignment: np.ndarray
    admitted: bool
    fits: bool
    payment: float
    welfare: float
    compute_max_price: float
    memory_max_price: float
    total_compute: float
    total_memory: float
    energy: float
    surplus_is_bound: bool = False



class PdftspState:
    """Dual prices and committed usage, updated task by task (Algorithm 1).

    Attributes
    ----------
    prices
        ``xarray.Dataset`` with ``compute_price`` (``lambda_kt``) and
        ``memory_price`` (``phi_kt``) over (node, slot), float64, starting at 0.
    used_compute, used_memory
        (node, slot) samples and GB held by admitted tasks.
    """

    def __init__(self, instance: LoraInstance, params: PdftspParams) -> None:
        self.instance = instance
        self.params = params
        k_count, t_count = instance.num_nodes, instance.num_slots
        zeros = lambda: np.zeros((k_count, t_count), dtype=np.float64)  # noqa: E731
        self.prices = xr.Dataset(
            {name: (("node", "slot"), zeros(), dict(attrs)) for name, attrs in _PRICE_ATTRS.items()},
            coords={"node": np.arange(k_count), "slot": np.arange(t_count)},
        )
        self.used_compute = zeros()
        self.used_memory = zeros()
        # Lemma 1's bookkeeping (invariants.summary), per task with F > 0: b_il, D_1^i - D_1^(i-1)
        # and sum_kt (s_kt(il) + r_kt(il)) (b-bar_il's denominator, for Lemma 3's rho)
        self.step_welfare, self.dual_step, self.step_size = (np.zeros(instance.num_tasks) for _ in range(3))
        self._compute_price = self.prices["compute_price"].values
        self._memory_price = self.prices["memory_price"].values
        self._prepare()

    # -------------------------------------------------------------- per instance
    def _prepare(self) -> None:
        inst = self.instance
        unit, exact = work_unit_of(inst)
        self.work_unit, self.work_unit_exact = unit, exact
        work_units = np.ceil(inst.work / unit - 1e-9)
        # a node gathering more than a task's whole work in one slot is as good as one gathering
        # exactly its work: capping keeps the units in int32 however large the throughput
        units = np.minimum(np.floor(inst.throughput / unit + 1e-9), work_units[:, None])
        self._units = units.astype(np.int32)
        self._work_units = work_units.astype(np.int32)
        top = int(self._work_units.max()) if inst.num_tasks else 1
        self._max_work_units = 1 << max(3, (top - 1).bit_length())  # power of two: fewer recompiles
        distinct = max((np.unique(u[u > 0]).size for u in self._units), default=1)
        self._max_groups = 1 << max(0, (max(distinct, 1) - 1).bit_length())
        n_options = max(inst.num_vendors, 1)
        start = np.full((inst.num_tasks, n_options), 0, dtype=np.int32)
        fee = np.zeros((inst.num_tasks, n_options))
        valid = np.zeros((inst.num_tasks, n_options), dtype=bool)
        pre = inst.needs_preprocessing
        if inst.num_vendors:
            # a start after the last slot is as impossible as one at num_slots (keeps int32 exact)
            start[pre] = np.minimum(inst.earliest_start()[pre], inst.num_slots)
            fee[pre] = inst.vendor_price[pre]
            valid[pre] = True
        start[~pre, 0] = inst.arrival[~pre]
        valid[~pre, 0] = True
        self._start, self._fee, self._valid = start, fee, valid
        self._room_memory = inst.memory_capacity - inst.base_memory
        self._energy_use, self._energy_price = inst.energy_factors()
        self._fronts = None
        if self.params.selection == "faithful":  # undominated nodes per slot, kept as prices rise
            classes = fronts.node_classes(inst.throughput, self._energy_use)
            self._fronts = fronts.Fronts(self._compute_price, self._memory_price, self._energy_price,
                                         classes)

    # -------------------------------------------------------------- Algorithm 1
    def decide(self, task: int, bid: float | None = None) -> Decision:
        """Algorithm 2 and the admission test for ``task``; the state is unchanged.

        Parameters
        ----------
        task
            Task index.
        bid
            Bid to evaluate (default: the instance's). Used by :func:`audit`.
        """
        inst = self.instance
        b = float(inst.bid[task] if bid is None else bid)
        if self.params.screen:
            bound, screened = screening.surplus_bound(
                self._compute_price, self._memory_price, self._energy_price, self._energy_use[task],
                inst.throughput[task], self._units[task], float(inst.memory_need[task]),
                int(self._work_units[task]), self._start[task], int(inst.deadline[task]),
                self._fee[task], self._valid[task], b)
            if screened:  # no option can reach F > 0: rejected, no price update (exact)
                return Decision(task=task, surplus=float(bound.max()), option=-1,
                                assignment=np.full(inst.num_slots, -1, np.int32), admitted=False,
                                fits=False, payment=0.0, welfare=b, compute_max_price=0.0,
                                memory_max_price=0.0, total_compute=0.0, total_memory=0.0,
                                energy=0.0, surplus_is_bound=True)
        if self._fronts is not None:
            choice = fronts.select_with_fronts(
                self._fronts, self._energy_use[task], inst.throughput[task], self._units[task],
                float(inst.memory_need[task]), int(self._work_units[task]), self._start[task],
                int(inst.deadline[task]), self._fee[task], self._valid[task], b,
                max_groups=self._max_groups,
                max_levels=fronts.level_width(self._max_work_units))[0]
        else:
            choice = self._select_dense(task, b)
        return self._decision(task, b, choice)

    def _select_dense(self, task: int, b: float) -> kernel.ScheduleChoice:
        inst = self.instance
        group, group_units = kernel.node_groups(self._units[task], self._max_groups)
        select = {"cell_prices": kernel.select_cell_prices_host, "exact": kernel.select_exact}[
            self.params.selection]
        choice = select(
            self._compute_price,
            self._memory_price,
            self._energy_price,
            self._energy_use[task],
            inst.throughput[task],
            self._units[task],
            group,
            group_units,
            float(inst.memory_need[task]),
            int(self._work_units[task]),
            self._start[task],
            int(inst.deadline[task]),
            self._fee[task],
            self._valid[task],
            b,
            max_work_units=self._max_work_units,
        )
        # one device-to-host copy of the whole choice, not one per field read below
        return choice if self.params.selection == "cell_prices" else kernel.ScheduleChoice(
            *jax.device_get(tuple(choice)))

    def _decision(self, task: int, b: float, choice: kernel.ScheduleChoice) -> Decision:
        inst = self.instance
        option = int(choice.option)
        surplus = float(choice.surplus)
        assignment = np.asarray(choice.assignment, dtype=np.int32)
        energy = float(choice.energy)
        fee = float(self._fee[task, option]) if option >= 0 else 0.0
        fits = False
        if option >= 0 and surplus > 0:
            slots = np.nonzero(assignment >= 0)[0]
            nodes = assignment[slots]
            fits = bool(
                np.all(
                    self.used_compute[nodes, slots] + inst.throughput[task, nodes]
                    <= inst.compute_capacity[nodes] * (1 + 1e-12)
                )
                and np.all(
                    self.used_memory[nodes, slots] + inst.memory_need[task]
                    <= self._room_memory[nodes] * (1 + 1e-12)
                )
            )
        admitted = option >= 0 and surplus > 0 and fits
        payment = 0.0
        if admitted:
            payment = fee + float(choice.compute_max_price) * float(choice.total_compute)
            payment += float(choice.memory_max_price) * float(choice.total_memory)
            if self.params.payment == "corrected":
                payment += energy
        return Decision(
            task=task,
            surplus=surplus,
            option=option,
            assignment=assignment,
            admitted=admitted,
            fits=fits,
            payment=payment,
            welfare=b - fee - energy,
            compute_max_price=float(choice.compute_max_price),
            memory_max_price=float(choice.memory_max_price),
            total_compute=float(choice.total_compute),
            total_memory=float(choice.total_memory),
            energy=energy,
        )

    def commit(self, decision: Decision) -> None:
        """Apply a decision: dual updates (7)-(8) when ``F > 0``, usage when admitted."""
        if decision.option < 0 or not decision.surplus > 0:
            return
        inst = self.instance
        task = decision.task
        slots = np.nonzero(decision.assignment >= 0)[0]
        nodes = decision.assignment[slots]
        s = inst.throughput[task, nodes]
        r = float(inst.memory_need[task])
        # b-bar_il = b_il / sum_k sum_t (s_kt(il) + r_kt(il)), below (8)
        per_unit = decision.welfare / (decision.total_compute + decision.total_memory)
        share_c = s / inst.compute_capacity[nodes]
        share_m = r / self._room_memory[nodes]
        lam, phi = self._compute_price, self._memory_price
        lam0, phi0 = lam[nodes, slots], phi[nodes, slots]  # copies (fancy indexing)
        lam[nodes, slots] = lam0 * (1 + share_c) + self.params.alpha * per_unit * share_c
        phi[nodes, slots] = phi0 * (1 + share_m) + self.params.beta * per_unit * share_m
        self.step_welfare[task] = decision.welfare
        self.step_size[task] = decision.total_compute + decision.total_memory
        self.dual_step[task] = invariants.dual_step(decision.surplus, inst.compute_capacity[nodes],
                                                    self._room_memory[nodes], lam[nodes, slots] - lam0,
                                                    phi[nodes, slots] - phi0)
        if self._fronts is not None:
            self._fronts.raised(nodes, slots)
        if decision.admitted:
            self.used_compute[nodes, slots] += s
            self.used_memory[nodes, slots] += r


def _params(
    instance: LoraInstance,
    alpha: float | None,
    beta: float | None,
    *,
    beta_unit: BetaUnit,
    parameters: Parameters,
    **kw: Any,
) -> tuple[PdftspParams, str]:
    a0, b0, source = lemma2_alpha_beta(instance, beta_unit=beta_unit, parameters=parameters)
    if source == "from_bids (not declared)" and (alpha is None or beta is None):  # a hand-built instance
        warnings.warn(_UNDECLARED, AischedWarning, stacklevel=4)
    if alpha is not None or beta is not None:
        source = "given" if alpha is not None and beta is not None else f"given / {source}"
    params = PdftspParams(alpha=a0 if alpha is None else alpha, beta=b0 if beta is None else beta, **kw)
    return params, source


def _order(instance: LoraInstance) -> np.ndarray:
    return np.argsort(instance.arrival, kind="stable")


@register("lora", "pdftsp")
def run(
    instance: LoraInstance,
    *,
    alpha: float | None = None,
    beta: float | None = None,
    selection: Selection = "faithful",
    payment: Payment = "corrected",
    beta_unit: BetaUnit = "gb_slot",
    parameters: Parameters = "declared",
    audit_tasks: int = 0,
    screen: bool = False,
) -> Outcome:
    """Run pdFTSP (Algorithm 1) on ``instance``.

    Parameters
    ----------
    instance
        The problem; tasks are revealed in order of arrival.
    alpha, beta
        Dual update scales of (7)-(8); default Lemma 2's, see :func:`lemma2_alpha_beta`.
    selection
        ``"faithful"`` (Algorithm 2 as printed: line 13's running maxima),
        ``"cell_prices"`` (each cell at its own duals) or ``"exact"`` (maximise (10)).
    payment
        ``"corrected"`` (default, truthful) or ``"paper"`` (exactly (14)).
    beta_unit
        ``"gb_slot"`` (default) or ``"gb"`` (Lemma 2 as printed).
    parameters
        ``"declared"`` (default: the instance's bounds, fixed before bids) or
        ``"from_bids"`` (maxima over the bids; not truthful).
    audit_tasks
        After the run, audit that many tasks by full re-runs (the paper's Fig. 10,
        :func:`aisched.online.lora.audit.audit_summary`; ``info["misreport_gain"]``
        and the curves). 0 (default): no audit.
    screen
        ``True``: reject without DP (13) the tasks whose F (10) is provably <= 0
        under every option (:mod:`~aisched.online.lora.pdftsp.screen`); the same
        decisions, prices and payments as ``False`` (the default, which records
        every task's F exactly). A screened task's ``plan["surplus"]`` is then an
        upper bound on its F, marked by ``plan["surplus_is_bound"]``;
        ``info["screened"]`` counts them.

    Returns
    -------
    Outcome
        ``plan`` (assignment, vendor, admitted, plus ``surplus`` F(il), ``fits``
        and ``bid``), ``prices`` (final ``compute_price``, ``memory_price``),
        ``payments``, per-task ``decision_s``.
    """
    if isinstance(audit_tasks, (bool, np.bool_)) or not isinstance(audit_tasks, (int, np.integer)) \
            or audit_tasks < 0:
        raise InvalidScenarioError("audit_tasks", f"= {audit_tasks!r} must be an integer >= 0")
    params, source = _params(instance, alpha, beta, selection=selection, payment=payment,
                             beta_unit=beta_unit, parameters=parameters, screen=screen)
    started = time.perf_counter()
    state = PdftspState(instance, params)
    prepared = time.perf_counter()
    select_s = 0.0
    n = instance.num_tasks
    assignment = np.full((n, instance.num_slots), -1, dtype=np.int32)
    vendor = np.full(n, -1, dtype=np.int32)
    admitted = np.zeros(n, dtype=bool)
    payments = np.zeros(n)
    surplus = np.full(n, -np.inf)
    fits = np.zeros(n, dtype=bool)
    is_bound = np.zeros(n, dtype=bool)
    decision_s = np.zeros(n)
    for task in _order(instance):
        tic = time.perf_counter()
        d = state.decide(int(task))
        mid = time.perf_counter()
        state.commit(d)
        decision_s[task] = time.perf_counter() - tic
        select_s += mid - tic
        surplus[task], fits[task], is_bound[task] = d.surplus, d.fits, d.surplus_is_bound
        if d.admitted:
            admitted[task] = True
            assignment[task] = d.assignment
            payments[task] = d.payment
            if instance.needs_preprocessing[task]:
                vendor[task] = d.option
    looped = time.perf_counter()
    plan = make_plan(instance, assignment, vendor, admitted)
    plan["surplus"] = ("task", surplus)
    plan["fits"] = ("task", fits)
    if params.screen:
        plan["surplus_is_bound"] = ("task", is_bound)
    plan["bid"] = ("task", np.asarray(instance.bid, float))
    welfare = float(instance.verify_plan(plan))
    outcome = Outcome(
        algorithm="pdftsp",
        family="lora",
        objective=welfare,
        plan=plan,
        prices=state.prices.copy(deep=True),
        admitted=admitted,
        payments=payments,
        runtime_s=time.perf_counter() - started,
        decision_s=decision_s,
        info={
            "alpha": params.alpha,
            "beta": params.beta,
            "selection": params.selection,
            "payment": params.payment,
            "beta_unit": beta_unit,
            "parameters": source,
            "screen": int(params.screen),
            "screened": int(is_bound.sum()),
            "work_unit": state.work_unit,
            "work_unit_exact": int(state.work_unit_exact),
            # where the run's time went (seconds): the state's set-up (node classes,
            # fronts, units); Algorithm 2 and the admission test (decide); the dual
            # updates (7)-(8) and fronts (commit); plan, verify and Outcome (assemble)
            "prepare_s": prepared - started,
            "decide_s": select_s,
            "commit_s": float(decision_s.sum()) - select_s,
            "assemble_s": 0.0,
        },
    )
    # the proof's invariants (Lemma 1, the dual objective (6)): invariants.summary
    outcome.info.update(invariants.summary(instance, state.prices, surplus, state.step_welfare,
                                           state.dual_step, state.step_size, params.alpha, params.beta))
    outcome.info["assemble_s"] = time.perf_counter() - looped
    if audit_tasks:  # the hook :mod:`aisched.online.lora.audit` installs (it imports this module)
        outcome.info.update(AUDIT_SUMMARY[0](instance, outcome, audit_tasks, alpha=alpha, beta=beta,
                                             selection=selection, payment=payment,
                                             beta_unit=beta_unit, parameters=parameters))
    return outcome


def audit_bids(instance: LoraInstance, task: Any, bids: Any) -> np.ndarray:
    """The bids of an audit as a float array, after checking ``task`` (an index) and ``bids`` (finite, >= 0).

    Raises
    ------
    InvalidScenarioError
        Naming ``task`` or ``bids`` (and the bad entry).
    """
    if isinstance(task, (bool, np.bool_)) or not isinstance(task, (int, np.integer)):
        raise InvalidScenarioError("task", f"must be an integer, got {task!r}")
    if not 0 <= int(task) < instance.num_tasks:
        raise InvalidScenarioError("task", f"= {task} is outside 0..{instance.num_tasks - 1}")
    try:
        values = np.atleast_1d(np.asarray(bids, dtype=float))
    except (TypeError, ValueError):
        raise InvalidScenarioError("bids", f"must be numbers, got {bids!r}") from None
    bad = ~np.isfinite(values) | (values < 0)
    if bad.any():
        j = int(np.argmax(bad))
        raise InvalidScenarioError("bids", f"[{j}] = {values[j]} must be finite and >= 0")
    return values


def audit(
    instance: LoraInstance,
    task: int,
    bids: Any,
    *,
    alpha: float | None = None,
    beta: float | None = None,
    selection: Selection = "faithful",
    payment: Payment = "corrected",
    beta_unit: BetaUnit = "gb_slot",
    parameters: Parameters = "declared",
) -> pd.DataFrame:
    """Fixed-parameter truthfulness audit (the paper's Fig. 10): ``task`` re-bids each value.

    All other bids stay fixed. Alpha and beta are held at the values of the
    original instance (as :func:`run` would pick them for the true bids, or
    the given ones). With ``parameters="from_bids"`` this HIDES the effect of
    a bid on alpha and beta; :func:`audit_reruns` re-runs everything instead. Tasks before ``task``
    (in arrival order) do not depend on its bid, so the state is replayed once
    up to it and each bid is decided from that state.

    Returns
    -------
    pandas.DataFrame
        Columns ``bid``, ``admitted``, ``payment``, ``utility`` where utility is
        the true value (the instance's bid) minus the payment if admitted,
        else 0 (eq. (15)).
    """
    values = audit_bids(instance, task, bids)
    params, _ = _params(instance, alpha, beta, selection=selection, payment=payment,
                        beta_unit=beta_unit, parameters=parameters)
    state = PdftspState(instance, params)
    for other in _order(instance):
        if int(other) == int(task):
            break
        state.commit(state.decide(int(other)))
    true_value = float(instance.bid[task])
    rows = []
    for value in values:
        d = state.decide(int(task), bid=float(value))
        utility = true_value - d.payment if d.admitted else 0.0
        rows.append({"bid": float(value), "admitted": d.admitted, "payment": d.payment, "utility": utility})
    return pd.DataFrame(rows)


def individual_rationality(instance: LoraInstance, outcome: Outcome) -> pd.DataFrame:
    """Individual-rationality check (the paper's Fig. 11) over admitted tasks.

    Returns
    -------
    pandas.DataFrame
        One row per admitted task: ``task``, ``bid``, ``payment``, ``utility``
        (bid - payment, the truthful utility) and ``rational`` (utility >= 0).
    """
    if outcome.payments is None:
        raise InvalidScenarioError("outcome", f"{outcome.algorithm!r} charges no payments")
    tasks = np.nonzero(outcome.admitted)[0]
    bid = instance.bid[tasks]
    pay = np.asarray(outcome.payments)[tasks]
    return pd.DataFrame(
        {"task": tasks, "bid": bid, "payment": pay, "utility": bid - pay, "rational": bid - pay >= 0}
    )
