"""The `genai` plan: the decisions of IP (5) as an ``xarray.Dataset``, and its checker.

A plan has, over (job, task) (tasks padded to the instance's ``max_tasks``):

- ``edge`` int32: the edge cloud ``a_ij`` running task ``j`` of job ``i``, or -1;
- ``model`` int32: the model ``m`` with ``y_ijm = 1`` (a global model index), or -1;
- ``start`` int32: the first slot of the task's run, or -1;
- ``admitted`` (job,) bool: ``u_i``.

A task runs in slots ``start .. start + f_{m,i,j} - 1`` on one edge, so
consecutive execution (5f), one edge per slot (5c) and no over-allocation
(5g) hold by the plan's form. :func:`verify_plan` re-checks the rest from
these arrays and the instance alone and recomputes the profit (5).

Which edge's transfer cost (3) charges: (3) writes ``e_k^p`` without saying
which ``k``. We charge the **sender**: for ``(j, j')`` on different edges the
cost is ``h_{jj'} e^p_{a_ij}``, the edge of the predecessor ``j`` whose output
is transmitted. The MILP, ComDOS and every baseline use this rule
(tests/models/genai/test_program.py::test_transfer_cost_charges_sender_edge).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import xarray as xr

from aisched.errors import InfeasiblePlanError

if TYPE_CHECKING:  # pragma: no cover
    from aisched.models.genai.instance import GenaiInstance

__all__ = ["make_plan", "empty_plan", "verify_plan", "plan_profit", "edge_usage", "job_profit"]

RTOL = 1e-9


def make_plan(instance: GenaiInstance, edge: np.ndarray, model: np.ndarray, start: np.ndarray,
              admitted: np.ndarray) -> xr.Dataset:
    """Pack decisions into the plan Dataset (no checking: see :func:`verify_plan`).

    Parameters
    ----------
    instance
        The instance planned (``num_jobs`` J, ``max_tasks`` L: the task axis, padded).
    edge, model, start
        (J, L) int: for task ``l`` of job ``i``, the edge it runs on, the model it uses and its start
        slot (0-based); -1 for a task the job does not have or a job not admitted.
    admitted
        (J,) bool: whether job ``i`` is admitted.

    Returns
    -------
    xarray.Dataset
        Variables ``edge``, ``model``, ``start`` (job, task) and ``admitted`` (job), coordinates ``job``
        0..J-1 and ``task`` 0..L-1.
    """
    return xr.Dataset(
        {
            "edge": (("job", "task"), np.asarray(edge, dtype=np.int32)),
            "model": (("job", "task"), np.asarray(model, dtype=np.int32)),
            "start": (("job", "task"), np.asarray(start, dtype=np.int32)),
            "admitted": ("job", np.asarray(admitted, dtype=bool)),
        },
        coords={"job": np.arange(instance.num_jobs), "task": np.arange(instance.max_tasks)},
    )


def empty_plan(instance: GenaiInstance) -> xr.Dataset:
    """A plan that admits nothing (always feasible, profit 0)."""
    shape = (instance.num_jobs, instance.max_tasks)
    neg = np.full(shape, -1, dtype=np.int32)
    return make_plan(instance, neg, neg, neg, np.zeros(instance.num_jobs, dtype=bool))


def _arrays(instance: GenaiInstance, plan: xr.Dataset):
    for name in ("edge", "model", "start", "admitted"):
        if name not in plan:
            raise InfeasiblePlanError("plan", f"has no variable {name!r}")
    shape = (instance.num_jobs, instance.max_tasks)
    edge = np.asarray(plan["edge"].transpose("job", "task").values).astype(np.int64)
    model = np.asarray(plan["model"].transpose("job", "task").values).astype(np.int64)
    start = np.asarray(plan["start"].transpose("job", "task").values).astype(np.int64)
    admitted = np.asarray(plan["admitted"].values).astype(bool)
    for name, arr in (("edge", edge), ("model", model), ("start", start)):
        if arr.shape != shape:
            raise InfeasiblePlanError("plan", f"{name} has shape {arr.shape}, expected {shape}")
    if admitted.shape != (instance.num_jobs,):
        raise InfeasiblePlanError("plan", f"admitted must have shape ({instance.num_jobs},)")
    return edge, model, start, admitted


def _choice(instance: GenaiInstance, model: np.ndarray) -> np.ndarray:
    """(job, task) index into the candidate list of each task's model, -1 if not a candidate."""
    match = (instance.candidate_model == model[:, :, None]) & (model[:, :, None] >= 0)
    return np.where(match.any(axis=2), np.argmax(match, axis=2), -1)


def job_profit(instance: GenaiInstance, i: int, edge: np.ndarray, choice: np.ndarray,
               weights: np.ndarray | None = None) -> tuple[float, float, float, float]:
    """Revenue and the three costs of one admitted job's schedule (no checking).

    Parameters
    ----------
    edge, choice
        (n_i,) edge and candidate index per task.
    weights
        Cost weights (computation, communication, hosting); default the instance's.

    Returns
    -------
    (revenue b_i, weighted computation (2), weighted communication (3), weighted hosting (4))
    """
    w = instance.cost_weight if weights is None else np.asarray(weights, dtype=float)
    n = int(instance.num_tasks[i])
    j = np.arange(n)
    f = instance.runtime[i, j, choice]
    size = instance.model_size[instance.candidate_model[i, j, choice]]
    comp = float(np.sum(f * instance.compute[i, j, choice] * instance.compute_cost[edge]))
    host = float(np.sum(f * size * instance.hosting_cost[edge]))
    src, dst, h = instance.dag_edges(i)
    comm = float(np.sum(np.where(edge[src] != edge[dst], h * instance.transfer_cost[edge[src]], 0.0)))
    return float(instance.revenue[i]), w[0] * comp, w[1] * comm, w[2] * host


def edge_usage(instance: GenaiInstance, edge: np.ndarray, model: np.ndarray, start: np.ndarray) -> np.ndarray:
    """(edge, slot) hosted model size (GB) of the tasks in the arrays (left side of (5h))."""
    usage = np.zeros((instance.num_edges, instance.num_slots + 1))
    choice = _choice(instance, model)
    run = (edge >= 0) & (choice >= 0) & (start >= 0)
    ii, jj = np.nonzero(run)
    f = instance.runtime[ii, jj, choice[ii, jj]]
    size = instance.model_size[model[ii, jj]]
    s = np.clip(start[ii, jj], 0, instance.num_slots)
    e = np.clip(start[ii, jj] + f, 0, instance.num_slots)
    np.add.at(usage, (edge[ii, jj], s), size)
    np.add.at(usage, (edge[ii, jj], e), -size)
    return np.cumsum(usage, axis=1)[:, : instance.num_slots]


def plan_profit(instance: GenaiInstance, plan: xr.Dataset) -> float:
    """Profit (5) of a plan, without checking feasibility."""
    edge, model, _, admitted = _arrays(instance, plan)
    choice = _choice(instance, model)
    total = 0.0
    for i in np.nonzero(admitted)[0]:
        n = int(instance.num_tasks[i])
        rev, comp, comm, host = job_profit(instance, int(i), edge[i, :n], choice[i, :n])
        total += rev - comp - comm - host
    return total


def verify_plan(instance: GenaiInstance, plan: xr.Dataset) -> float:
    """Check every constraint of IP (5) on ``plan``; return its profit (5) = (1) - (2) - (3) - (4).

    Checks, in this order: shapes; (5b)/(5g) a rejected job and padding tasks
    have no decision, every task of an admitted job has an edge, a candidate
    model and a start; (5d) arrival and deadline: ``arrival_i <= start`` and
    ``start + f - 1 <= deadline_i``; (5e) precedence: ``start_j' >= start_j + f_j``
    for every DAG edge ``(j, j')``; (5h) capacity: hosted model size per edge
    and slot ``<= memory_capacity``. (5c), (5f) hold by the plan's form.

    Raises
    ------
    InfeasiblePlanError
        Naming the first violated constraint with its indices and amounts.
    """
    edge, model, start, admitted = _arrays(instance, plan)
    real = np.arange(instance.max_tasks)[None, :] < instance.num_tasks[:, None]
    decided = (edge >= 0) | (model >= 0) | (start >= 0)
    ghost = decided & ~(real & admitted[:, None])
    if ghost.any():
        i, j = np.argwhere(ghost)[0]
        what = "rejected job" if not admitted[i] else "padding task of job"
        raise InfeasiblePlanError("(5g) run_if_admitted", f"{what} {i} has a decision for task {j}")
    need = real & admitted[:, None]
    bad_edge = need & ((edge < 0) | (edge >= instance.num_edges))
    if bad_edge.any():
        i, j = np.argwhere(bad_edge)[0]
        raise InfeasiblePlanError("(5c) one_edge", f"job {i} task {j}: edge {edge[i, j]} does not exist")
    choice = _choice(instance, model)
    bad_model = need & (choice < 0)
    if bad_model.any():
        i, j = np.argwhere(bad_model)[0]
        raise InfeasiblePlanError(
            "(5b) one_model", f"job {i} task {j}: model {model[i, j]} is not a candidate of the task")
    f = np.where(need, instance.runtime[
        np.arange(instance.num_jobs)[:, None], np.arange(instance.max_tasks)[None, :], np.maximum(choice, 0)], 0)
    early = need & (start < instance.arrival[:, None])
    if early.any():
        i, j = np.argwhere(early)[0]
        raise InfeasiblePlanError(
            "(5d) deadline", f"job {i} task {j} starts in slot {start[i, j]} before arrival {instance.arrival[i]}")
    late = need & (start + f - 1 > instance.deadline[:, None])
    if late.any():
        i, j = np.argwhere(late)[0]
        raise InfeasiblePlanError(
            "(5d) deadline",
            f"job {i} task {j} runs slots {start[i, j]}..{start[i, j] + f[i, j] - 1} past deadline "
            f"{instance.deadline[i]}")
    for i in np.nonzero(admitted)[0]:
        src, dst, _ = instance.dag_edges(int(i))
        bad = start[i, dst] < start[i, src] + f[i, src]
        if bad.any():
            n = int(np.argmax(bad))
            a, b = int(src[n]), int(dst[n])
            raise InfeasiblePlanError(
                "(5e) precedence",
                f"job {i}: task {b} starts in slot {start[i, b]} before task {a} ends "
                f"(slot {start[i, a] + f[i, a] - 1})")
    usage = edge_usage(instance, np.where(need, edge, -1), np.where(need, model, -1), start)
    cap = instance.memory_capacity[:, None]
    over = usage > cap * (1 + RTOL) + 1e-12
    if over.any():
        k, t = np.argwhere(over)[0]
        raise InfeasiblePlanError(
            "(5h) capacity", f"edge {k} slot {t}: hosted models {usage[k, t]:g} GB > capacity {cap[k, 0]:g} GB")
    return plan_profit(instance, plan)
