"""EFT and NTM: the greedy baselines of pdFTSP for the ``lora`` family (section 5.1).

Section 5.1 of the pdFTSP paper ("Algorithms for Comparison") compares pdFTSP
with two online heuristics:

* **EFT** (Earliest Finish Time): the labour vendor with the lowest delay, and
  the task's computation placed so that it finishes as soon as possible; tasks
  share (merge on) a node as long as its compute (4f) and memory (4g) allow.
* **NTM** (No Task Merging): a random labour vendor, at most one task per node
  and slot, and again the computation placed as early as possible.

Both handle tasks online in order of arrival (ties by task index), keep the
used compute and memory of every (node, slot) and never revise a decision.

Admission. Section 5.1 describes no admission control for these baselines, so
by default (the faithful reading) they admit every task they can finish by its
deadline, even one whose welfare ``b_i - q_in - sum e_ikt`` is negative. The
option ``require_positive_welfare=True``, beside the paper, rejects such a task
before reserving anything.

Plan (the ``lora`` contract): ``assignment`` (task, slot) int32, the node a task
runs on in a slot or -1; ``vendor`` (task,) int32, -1 if none; ``admitted``
(task,) bool. Capacities and the work (4e) are compared with a relative
tolerance (``aisched.models.lora.plan.RTOL``, as :meth:`Outcome.verify` uses)
to absorb floating-point sums.
"""

from __future__ import annotations

import time

import numpy as np
import xarray as xr

from aisched.models.lora.instance import LoraInstance
from aisched.models.lora.plan import RTOL as _RTOL
from aisched.models.lora.plan import make_plan
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["run_eft", "run_ntm"]


def _eft_vendors(inst: LoraInstance) -> np.ndarray:
    """EFT's vendor per task: lowest delay, ties by lower price, then lower index; -1 if none."""
    vendor = np.full(inst.num_tasks, -1, dtype=np.int64)
    if inst.num_vendors == 0:
        return vendor
    delay = inst.vendor_delay
    price = np.where(delay == delay.min(axis=1, keepdims=True), inst.vendor_price, np.inf)
    best = np.argmin(price, axis=1)  # argmin returns the first (lowest-index) minimum
    return np.where(inst.needs_preprocessing, best, -1)


def _ntm_vendors(inst: LoraInstance, seed: int) -> np.ndarray:
    """NTM's vendor per task: uniform among the vendors, -1 if no pre-processing.

    One draw per task needing pre-processing, taken up front as
    ``default_rng(seed).integers(0, N, size=n)`` over those tasks in task-index
    order, so the draws do not depend on which tasks end up admitted.
    """
    vendor = np.full(inst.num_tasks, -1, dtype=np.int64)
    need = np.flatnonzero(inst.needs_preprocessing)
    if need.size:
        vendor[need] = np.random.default_rng(seed).integers(0, inst.num_vendors, size=need.size)
    return vendor


def _greedy(
    inst: LoraInstance,
    vendor: np.ndarray,
    *,
    exclusive: bool,
    require_positive_welfare: bool,
) -> tuple[xr.Dataset, np.ndarray, float, np.ndarray]:
    """Place tasks online as early as possible; shared core of EFT and NTM.

    For each task, in order of arrival (stable by index), every slot of its
    window ``arrival + delay .. deadline`` is examined at once (the task uses at
    most one node per slot (4b), and its choice in one slot does not change
    what is feasible in another). In each slot the task takes the feasible
    node with the largest throughput ``s_ik`` (ties: cheaper ``e_ikt``, then
    lower index); slots are used from the earliest on until the cumulative
    throughput covers ``M_i`` (4e). If it cannot by the deadline the task is
    rejected and nothing is reserved.

    Parameters
    ----------
    inst
        The instance.
    vendor
        (task,) vendor per task, -1 for tasks without pre-processing.
    exclusive
        NTM's rule: a node is usable in a slot only if no task runs there yet.
        Otherwise (EFT) a node is usable if its residual compute and memory fit
        the task: ``s_ik <= C_kp - used`` and ``r_i + r_b + used <= C_km``.
    require_positive_welfare
        Reject a task whose welfare would be ``<= 0``.

    Returns
    -------
    plan, welfare per task (0 if rejected), total welfare, decision seconds per task.
    """
    n_tasks, n_nodes, n_slots = inst.num_tasks, inst.num_nodes, inst.num_slots
    cap_p = inst.compute_capacity
    cap_m = inst.memory_capacity - inst.base_memory  # room for adapters beside r_b
    lim_p = cap_p * (1 + _RTOL)
    lim_m = cap_m * (1 + _RTOL)
    energy_use, energy_price = inst.energy_factors()
    price_tk = np.ascontiguousarray(energy_price.T)  # (slot, node): rows are slots
    used_p = np.zeros((n_slots, n_nodes))
    used_m = np.zeros((n_slots, n_nodes))
    busy = np.zeros((n_slots, n_nodes), dtype=bool)

    rows_i = np.arange(n_tasks)
    has_v = vendor >= 0
    delay = np.zeros(n_tasks, dtype=np.int64)
    if has_v.any():
        delay[has_v] = inst.vendor_delay[rows_i[has_v], vendor[has_v]]
    start = inst.arrival.astype(np.int64) + delay
    vendor_cost = np.zeros(n_tasks)
    if has_v.any():
        vendor_cost[has_v] = inst.vendor_price[rows_i[has_v], vendor[has_v]]

    assignment = np.full((n_tasks, n_slots), -1, dtype=np.int32)
    admitted = np.zeros(n_tasks, dtype=bool)
    welfare = np.zeros(n_tasks)
    decision_s = np.zeros(n_tasks)

    for i in np.argsort(inst.arrival, kind="stable"):
        tic = time.perf_counter()
        s0, d = int(start[i]), int(inst.deadline[i])
        thr, r = inst.throughput[i], float(inst.memory_need[i])
        # nodes the task could ever use: positive throughput that fits an empty node
        cols = np.flatnonzero((thr > 0) & (thr <= lim_p) & (r <= lim_m))
        if s0 > d or cols.size == 0:
            decision_s[i] = time.perf_counter() - tic
            continue
        every = cols.size == n_nodes
        th = thr if every else thr[cols]
        win = slice(s0, d + 1)
        if exclusive:
            ok = ~(busy[win] if every else busy[win][:, cols])
        else:
            up = used_p[win] if every else used_p[win][:, cols]
            um = used_m[win] if every else used_m[win][:, cols]
            lp = lim_p if every else lim_p[cols]
            lm = lim_m if every else lim_m[cols]
            ok = (up + th <= lp) & (um + r <= lm)
        val = np.where(ok, th, 0.0)  # 0: node not usable in that slot
        best = val.max(axis=1)  # (window,) the most work the task can do per slot
        done = np.cumsum(best)
        j = int(np.searchsorted(done, inst.work[i] * (1 - _RTOL), side="left"))
        if j == best.size:  # cannot cover M_i by the deadline: reject
            decision_s[i] = time.perf_counter() - tic
            continue
        rows = np.flatnonzero(best[: j + 1] > 0)
        slots = s0 + rows
        cost = energy_use[i, cols] * price_tk[slots][:, cols]  # e_ikt, (used slot, node)
        tied = val[rows] == best[rows, None]
        pick = np.argmin(np.where(tied, cost, np.inf), axis=1)
        nodes = cols[pick]
        w = float(inst.bid[i]) - vendor_cost[i] - float(cost[np.arange(rows.size), pick].sum())
        if require_positive_welfare and w <= 0:
            decision_s[i] = time.perf_counter() - tic
            continue
        used_p[slots, nodes] += thr[nodes]
        used_m[slots, nodes] += r
        busy[slots, nodes] = True
        assignment[i, slots] = nodes
        admitted[i] = True
        welfare[i] = w
        decision_s[i] = time.perf_counter() - tic

    plan = make_plan(inst, assignment, np.where(admitted, vendor, -1), admitted)
    return plan, welfare, float(welfare[admitted].sum()), decision_s


def _outcome(
    name: str,
    inst: LoraInstance,
    vendor: np.ndarray,
    exclusive: bool,
    require_positive_welfare: bool,
    info: dict[str, object],
) -> Outcome:
    t0 = time.perf_counter()
    plan, _, total, decision_s = _greedy(
        inst, vendor, exclusive=exclusive, require_positive_welfare=require_positive_welfare
    )
    return Outcome(
        algorithm=name,
        family="lora",
        objective=total,
        plan=plan,
        prices=xr.Dataset(),
        admitted=plan["admitted"].values.copy(),
        payments=None,
        status="online",
        runtime_s=time.perf_counter() - t0,
        decision_s=decision_s,
        info={"require_positive_welfare": bool(require_positive_welfare), **info},
    )


@register("lora", "eft")
def run_eft(instance: LoraInstance, *, require_positive_welfare: bool = False) -> Outcome:
    """EFT (Earliest Finish Time), the baseline (ii) of pdFTSP section 5.1.

    Each task, online in order of arrival, takes the labour vendor with the
    lowest delay ``h_in`` (ties: lower price ``q_in``, then lower index) if it
    needs pre-processing; then, slot by slot from its earliest start
    ``a_i + h_in`` to ``d_i``, it runs on the node with the largest throughput
    ``s_ik`` among those with enough residual compute (``s_ik <= C_kp - used``)
    and memory (``r_i + r_b + used <= C_km``), ties to cheaper ``e_ikt`` then
    lower index, until ``M_i`` is covered. Tasks merge on a node (LoRA sharing).

    Why this finishes the task as early as possible: by (4b) the task does at
    most ``max_k {s_ik : k feasible at t}`` work in slot ``t``, and which nodes
    are feasible at ``t`` does not depend on its own choices in other slots.
    Taking that maximum in every slot therefore maximises the cumulative work
    at every slot simultaneously, so the first slot where it reaches ``M_i`` is
    the earliest finish time of any placement given the residual capacities.
    Also, the lowest-delay vendor gives the widest window, so a task EFT
    rejects could not be finished with any vendor.

    A task that cannot be finished by its deadline is rejected (vendor -1,
    nothing reserved). As section 5.1 specifies no admission control, every
    finishable task is admitted, even at negative welfare.

    Parameters
    ----------
    instance
        The ``lora`` instance.
    require_positive_welfare
        Beside the paper: also reject a task whose welfare
        ``b_i - q_in - sum e_ikt`` would be ``<= 0``.

    Returns
    -------
    Outcome
        ``algorithm="eft"``, objective the social welfare (3), ``decision_s``
        per task in task-index order.
    """
    return _outcome(
        "eft", instance, _eft_vendors(instance), False, require_positive_welfare, {}
    )


@register("lora", "ntm")
def run_ntm(
    instance: LoraInstance, *, seed: int = 0, require_positive_welfare: bool = False
) -> Outcome:
    """NTM (No Task Merging), the baseline (iii) of pdFTSP section 5.1.

    Each task needing pre-processing gets a vendor uniformly at random
    (``numpy.random.default_rng(seed)``, one draw per such task in task-index
    order, whether or not it is admitted). Then, online in order of arrival,
    the task is placed as early as possible like EFT but with at most one task
    per node and slot: a node is usable in a slot only if no task runs there,
    ``r_i + r_b <= C_km`` and ``0 < s_ik <= C_kp``; among usable nodes the
    largest ``s_ik`` wins (ties: cheaper ``e_ikt``, then lower index). A task
    that cannot finish by its deadline is rejected (nothing reserved); every
    finishable task is admitted, even at negative welfare (no admission
    control in section 5.1).

    Parameters
    ----------
    instance
        The ``lora`` instance.
    seed
        Seed of the vendor draws.
    require_positive_welfare
        Beside the paper: also reject a task whose welfare would be ``<= 0``.

    Returns
    -------
    Outcome
        ``algorithm="ntm"``, objective the social welfare (3).
    """
    return _outcome(
        "ntm",
        instance,
        _ntm_vendors(instance, seed),
        True,
        require_positive_welfare,
        {"seed": int(seed)},
    )
