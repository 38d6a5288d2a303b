"""Resource metrics of a `genai` outcome: memory and compute utilisation.

IP (5) constrains memory only ((5h): hosted model size per edge and slot
``<= c^s_k``); computation enters the objective as a cost (2) and has no
capacity in the model. So memory utilisation is a share of capacity, while
compute is reported as load (compute units per edge-slot, ``r^f`` of the
running tasks) and as a share only when the caller names a compute capacity.

Outside the paper's program, the tasks running at once on an edge are counted
against its GPUs (section IV.A: an edge is a server of 4 GPUs; our runtimes are
one GPU's, docs/readings/genai.md A2c): IP (5) lets any number of tasks run at
once on an edge, and a plan that runs more of them than the edge has GPUs is
one the paper's testbed could not run as timed.
"""

from __future__ import annotations

import numpy as np

from aisched.errors import InvalidScenarioError
from aisched.models.genai import GenaiInstance, edge_usage
from aisched.outcome import Outcome

__all__ = ["GPUS_PER_EDGE", "utilisation", "compute_load", "running_tasks"]

#: Section IV.A: "4 NVIDIA GeForce RTX 3060, 4090, and Tesla V100" an edge cloud.
GPUS_PER_EDGE = 4


def _per_edge_slot(instance: GenaiInstance, edge: np.ndarray, model: np.ndarray, start: np.ndarray,
                   weight: np.ndarray | None) -> np.ndarray:
    """(edge, slot) sum over the running tasks of ``weight[i, j, choice]`` (1 a task where ``weight`` is None)."""
    load = np.zeros((instance.num_edges, instance.num_slots + 1))
    match = (instance.candidate_model == model[:, :, None]) & (model[:, :, None] >= 0)
    choice = np.where(match.any(axis=2), np.argmax(match, axis=2), -1)
    ii, jj = np.nonzero((edge >= 0) & (choice >= 0) & (start >= 0))
    c = choice[ii, jj]
    f = instance.runtime[ii, jj, c]
    rate = 1.0 if weight is None else weight[ii, jj, c]
    s = np.clip(start[ii, jj], 0, instance.num_slots)
    e = np.clip(start[ii, jj] + f, 0, instance.num_slots)
    np.add.at(load, (edge[ii, jj], s), rate)
    np.add.at(load, (edge[ii, jj], e), -rate)
    return np.cumsum(load, axis=1)[:, : instance.num_slots]


def compute_load(instance: GenaiInstance, edge: np.ndarray, model: np.ndarray, start: np.ndarray) -> np.ndarray:
    """(edge, slot) compute units per slot ``sum x_ijkt y_ijm r^f_{m,i,j}`` of the tasks in the arrays."""
    return _per_edge_slot(instance, edge, model, start, instance.compute)


def running_tasks(instance: GenaiInstance, edge: np.ndarray, model: np.ndarray, start: np.ndarray) -> np.ndarray:
    """(edge, slot) number of tasks running ``sum x_ijkt`` over the slots of their runtime ``f``."""
    return np.rint(_per_edge_slot(instance, edge, model, start, None))


def utilisation(instance: GenaiInstance, outcome: Outcome, *,
                compute_capacity: float | np.ndarray | None = None,
                gpus: int | np.ndarray = GPUS_PER_EDGE) -> dict[str, float]:
    """Memory and compute utilisation of ``outcome``'s plan, averaged over every (edge, slot).

    Parameters
    ----------
    instance
        The instance the outcome was computed on.
    outcome
        Any `genai` outcome (ComDOS, a baseline or the offline optimum).
    compute_capacity
        Compute units per slot of each edge (scalar or (edge,)); the model has
        none, so without it ``compute_utilisation`` is NaN.
    gpus
        GPUs of each edge (scalar or (edge,), whole numbers >= 1; default
        section IV.A's 4): what ``gpu_oversubscribed`` counts against.

    Returns
    -------
    dict
        ``memory_utilisation``: mean of hosted GB / ``c^s_k`` over edges and
        slots; ``memory_peak``: its maximum; ``memory_binding``: the share of
        (edge, slot) cells whose free memory is below the smallest model's size
        ``min_m r^s_m`` (no further model fits: (5h) binds there, and ComDOS's
        memory price matters); ``compute_load``: mean compute
        units per edge-slot; ``compute_utilisation``: mean load / capacity;
        ``tasks_running_peak``: the most tasks running at once on one edge;
        ``gpu_oversubscribed``: the share of (edge, slot) cells running more
        tasks than the edge has GPUs (outside IP (5), which has no such limit:
        a plan the testbed could not run as timed where this is above 0).

    Raises
    ------
    InvalidScenarioError
        If ``compute_capacity`` is not positive and finite, or ``gpus`` not whole
        numbers >= 1, or either has the wrong shape.
    """
    numeric = np.asarray(gpus).dtype.kind in "iuf"  # not text, not booleans
    shaped = numeric and (np.ndim(gpus) == 0 or np.shape(gpus) == (instance.num_edges,))
    gpu_count = np.broadcast_to(np.asarray(gpus, dtype=float), (instance.num_edges,)) if shaped else None
    if gpu_count is None or not np.all(np.isfinite(gpu_count)) or np.any(gpu_count < 1) \
            or np.any(gpu_count != np.round(gpu_count)):
        raise InvalidScenarioError("gpus", f"= {gpus!r} must be a whole number >= 1 "
                                   f"or {instance.num_edges} of them (one per edge)")
    plan = outcome.plan
    need = plan["admitted"].values[:, None] & (np.arange(instance.max_tasks)[None, :]
                                                < instance.num_tasks[:, None])
    edge, model, start = (np.where(need, plan[v].transpose("job", "task").values, -1).astype(np.int64)
                          for v in ("edge", "model", "start"))
    hosted = edge_usage(instance, edge, model, start)
    memory = hosted / instance.memory_capacity[:, None]
    smallest = float(instance.model_size.min()) if instance.model_size.size else 0.0
    full = (instance.memory_capacity[:, None] - hosted) < smallest - 1e-9
    load = compute_load(instance, edge, model, start)
    running = running_tasks(instance, edge, model, start)
    out = {"memory_utilisation": float(memory.mean()) if memory.size else 0.0,
           "memory_peak": float(memory.max()) if memory.size else 0.0,
           "memory_binding": float(np.mean(full)) if full.size else 0.0,
           "compute_load": float(load.mean()) if load.size else 0.0,
           "compute_utilisation": float("nan"),
           "tasks_running_peak": float(running.max()) if running.size else 0.0,
           "gpu_oversubscribed": float(np.mean(running > gpu_count[:, None])) if running.size else 0.0}
    if compute_capacity is not None:
        cap = np.broadcast_to(np.asarray(compute_capacity, dtype=float), (instance.num_edges,)) \
            if np.ndim(compute_capacity) == 0 or np.shape(compute_capacity) == (instance.num_edges,) else None
        if cap is None or not np.all(np.isfinite(cap)) or np.any(cap <= 0):
            raise InvalidScenarioError("compute_capacity", f"= {compute_capacity!r} must be a positive number "
                                       f"or {instance.num_edges} positive numbers (one per edge)")
        out["compute_utilisation"] = float((load / cap[:, None]).mean()) if load.size else 0.0
    return out
