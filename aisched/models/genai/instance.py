"""The data of a `genai` problem: :class:`GenaiInstance` (ComDOS paper, section II).

Conventions: slots are 0-based, ``0..num_slots-1`` (the paper's ``[T]``
shifted by one, 5 seconds each in section IV-A); a job may run in slots
``arrival..deadline`` inclusive: every task of job ``i`` starts at or after
``t_i`` and its last slot is at most ``d_i`` (constraint (5d)). Model sizes
and capacities in GB, computation in compute units per slot (TFLOP per slot
in the scenarios), data sizes in MB, money in one currency unit.

Job DAGs are stored padded: ``max_tasks`` tasks per job (the first
``num_tasks[i]`` are real), ``max_choices`` candidate models per task
(``candidate_model = -1`` pads) and ``max_dag_edges`` DAG edges per job
(``dag_edge = -1`` pads). Dummy entry / exit tasks are *not* stored; they are
added by :func:`aisched.dag.with_entry_exit` where an algorithm needs them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import networkx as nx
import numpy as np
import xarray as xr

from aisched import dag
from aisched.errors import InvalidInstanceError
from aisched.models._instance import (
    IN_SLOTS,
    Count,
    Field,
    Range,
    Rule,
    Size,
    Sizes,
    ValidatedInstance,
    deadline_not_before_arrival,
)
from aisched.models._validate import first_bad
from aisched.models.genai.plan import verify_plan

__all__ = ["GenaiInstance"]

#: The most (edge, slot) cells an instance may have: every algorithm keeps an
#: (edge, slot) array of used memory and prices; raise it if you mean more.
MAX_EDGE_SLOTS = 100_000_000

_FIELDS = (
    "num_slots", "memory_capacity", "compute_cost", "transfer_cost", "hosting_cost", "model_size",
    "model_name", "arrival", "deadline", "revenue", "num_tasks", "task_type", "candidate_model",
    "runtime", "compute", "dag_edge", "data_size", "cost_weight",
)


def _edge_slots(inst: GenaiInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    K, T = sizes["edge"], sizes["slot"]
    if K * T > MAX_EDGE_SLOTS:
        raise InvalidInstanceError(
            "num_slots", f"= {T} with {K} edges is {K * T:,} (edge, slot) cells, more than the limit "
            f"MAX_EDGE_SLOTS = {MAX_EDGE_SLOTS:,} (raise aisched.models.genai.instance.MAX_EDGE_SLOTS "
            "if you mean it)")


def _candidates(inst: GenaiInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    J, C = sizes["task"], sizes["choice"]
    real = np.arange(J)[None, :] < inst.num_tasks[:, None]
    valid = inst.candidate_model >= 0
    stray = valid & ~real[:, :, None]
    if stray.any():
        i, j, c = first_bad(stray)
        raise InvalidInstanceError("candidate_model", f"[{i}, {j}, {c}] = {inst.candidate_model[i, j, c]} "
                                   f"but job {i} has only {inst.num_tasks[i]} tasks")
    none = real & ~valid.any(axis=2)
    if none.any():
        i, j = first_bad(none)
        raise InvalidInstanceError("candidate_model", f"[{i}, {j}] job {i} task {j} has no candidate model")
    bad = valid & (inst.runtime < 1)
    if bad.any():
        idx = first_bad(bad)
        raise InvalidInstanceError("runtime", f"{list(idx)} = {inst.runtime[idx]} must be >= 1 slot")
    pad = ~valid & ((inst.runtime != 0) | (inst.compute != 0))
    if pad.any():
        idx = first_bad(pad)
        raise InvalidInstanceError("runtime", f"{list(idx)}: padding choice must have runtime and compute 0")
    srt = np.sort(np.where(valid, inst.candidate_model, -1 - np.arange(C)[None, None, :]), axis=2)
    dup = (srt[:, :, 1:] == srt[:, :, :-1]) & (srt[:, :, 1:] >= 0)
    if dup.any():
        i, j, _ = first_bad(dup)
        raise InvalidInstanceError("candidate_model", f"[{i}, {j}] lists a model twice")


def _dags(inst: GenaiInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    used = inst.dag_edge[:, :, 0] >= 0
    half = (inst.dag_edge[:, :, 0] >= 0) != (inst.dag_edge[:, :, 1] >= 0)
    if half.any():
        i, e = first_bad(half)
        raise InvalidInstanceError("dag_edge", f"[{i}, {e}] = {inst.dag_edge[i, e].tolist()} is half padding")
    out = used[:, :, None] & ((inst.dag_edge < 0) | (inst.dag_edge >= inst.num_tasks[:, None, None]))
    if out.any():
        i, e, _ = first_bad(out)
        raise InvalidInstanceError("dag_edge", f"[{i}, {e}] = {inst.dag_edge[i, e].tolist()} names a task "
                                   f"outside 0..{inst.num_tasks[i] - 1} of job {i}")
    pad_h = ~used & (inst.data_size != 0)
    if pad_h.any():
        i, e = first_bad(pad_h)
        raise InvalidInstanceError("data_size", f"[{i}, {e}] = {inst.data_size[i, e]} on a padding DAG edge")
    graphs = []
    for i in range(sizes["job"]):
        pairs = [tuple(p) for p in inst.dag_edge[i][used[i]].tolist()]
        if len(set(pairs)) != len(pairs):
            raise InvalidInstanceError(f"dag_edge[{i}]", "lists a DAG edge twice")
        g = dag.from_edges(range(int(inst.num_tasks[i])), pairs, field=f"dag_edge[{i}]")
        graphs.append(g)
    object.__setattr__(inst, "_graphs", graphs)


#: The fields and their checks, in the order they are checked (:mod:`aisched.models._instance`).
_SPEC = (
    Count("num_slots", 1, dim="slot"),
    Size("memory_capacity", ("edge",), "must be a non-empty 1-d array (edge,), got {shape}", nonempty=("edge",)),
    Rule(_edge_slots),
    Size("model_size", ("model",), "must be a non-empty 1-d array (model,), got {shape}", nonempty=("model",)),
    Size("arrival", ("job",), "must be 1-d (job,), got shape {shape}"),
    Size("candidate_model", ("job", "task", "choice"), "has shape {shape}, expected ({job}, tasks, choices)",
         nonempty=("task", "choice")),
    Size("dag_edge", ("job", "arc", 2), "has shape {shape}, expected ({job}, dag_edges, 2)"),
    # --- edges and models -------------------------------------------------
    Field("memory_capacity", ("edge",), float, "positive"),
    Field("compute_cost", ("edge",), float, "nonneg"),
    Field("transfer_cost", ("edge",), float, "nonneg"),
    Field("hosting_cost", ("edge",), float, "nonneg"),
    Field("model_size", ("model",), float, "positive"),
    Field("model_name", ("model",), str),
    # --- jobs -------------------------------------------------------------
    Field("arrival", ("job",), int, IN_SLOTS),
    Field("deadline", ("job",), int, IN_SLOTS),
    Rule(deadline_not_before_arrival),
    Field("revenue", ("job",), float, "nonneg"),
    Field("num_tasks", ("job",), int, Range(1, lambda s: s["task"], lambda s: f"1..{s['task']} (max_tasks)")),
    Field("task_type", ("job", "task"), str),
    # --- tasks and candidate models ---------------------------------------
    Field("candidate_model", ("job", "task", "choice"), int,
          Range(-1, lambda s: s["model"] - 1, lambda s: f"-1..{s['model'] - 1} (model index or -1)")),
    Field("runtime", ("job", "task", "choice"), int),
    Field("compute", ("job", "task", "choice"), float, "nonneg"),
    Rule(_candidates),
    # --- DAGs -------------------------------------------------------------
    Field("dag_edge", ("job", "arc", 2), int),
    Field("data_size", ("job", "arc"), float, "nonneg"),
    Rule(_dags),
    Field("cost_weight", (3,), float, "nonneg"),
)


@dataclass(frozen=True, eq=False, init=False)
class GenaiInstance(ValidatedInstance):
    """Generative-AI job DAGs on edge clouds with model selection (IP (5)).

    Parameters
    ----------
    num_slots
        ``T``: number of slots.
    memory_capacity
        ``c^s_k`` (edge,): GPU memory of edge ``k`` for hosted models, GB (5h).
    compute_cost
        ``e^f_k`` (edge,): cost per compute unit on edge ``k`` (2).
    transfer_cost
        ``e^p_k`` (edge,): cost per MB sent between edges; charged on the
        sending edge (see :mod:`aisched.models.genai.plan`) (3).
    hosting_cost
        ``e^h_k`` (edge,): cost per GB of hosted model per slot (4).
    model_size
        ``r^s_m`` (model,): size of model ``m`` in memory, GB.
    model_name
        (model,): labels (``"stable-diffusion-v1-5"``); informative only.
    arrival, deadline
        ``t_i, d_i`` (job,): 0-based slots, inclusive window.
    revenue
        ``b_i`` (job,): the price charged if job ``i`` is admitted (1).
    num_tasks
        ``|F_i|`` (job,): real tasks of job ``i`` (>= 1).
    task_type
        (job, task): task labels (``"text-to-image"``), ``""`` for padding.
    candidate_model
        ``M_ij`` (job, task, choice): global model indices, -1 pads.
    runtime
        ``f_{m,i,j}`` (job, task, choice): slots the task runs with that model (>= 1).
    compute
        ``r^f_{m,i,j}`` (job, task, choice): compute units per slot.
    dag_edge
        ``E_i`` (job, arc, 2): ``(j, j')`` task pairs, -1 pads (dim ``arc`` in the dataset).
    data_size
        ``h_{jj'}`` (job, arc): MB sent from ``j`` to ``j'``.
    cost_weight
        (3,): weights of the computation (2), communication (3) and hosting (4)
        costs in the objective (the cost weights of Fig. 8); default ones.
    """

    family: ClassVar[str] = "genai"
    _SPEC = _SPEC

    num_slots: int
    memory_capacity: np.ndarray
    compute_cost: np.ndarray
    transfer_cost: np.ndarray
    hosting_cost: np.ndarray
    model_size: np.ndarray
    model_name: np.ndarray
    arrival: np.ndarray
    deadline: np.ndarray
    revenue: np.ndarray
    num_tasks: np.ndarray
    task_type: np.ndarray
    candidate_model: np.ndarray
    runtime: np.ndarray
    compute: np.ndarray
    dag_edge: np.ndarray
    data_size: np.ndarray
    cost_weight: np.ndarray

    def __init__(self, *, num_slots: int, memory_capacity: Any, compute_cost: Any, transfer_cost: Any,
                 hosting_cost: Any, model_size: Any, model_name: Any, arrival: Any, deadline: Any,
                 revenue: Any, num_tasks: Any, task_type: Any, candidate_model: Any, runtime: Any,
                 compute: Any, dag_edge: Any, data_size: Any, cost_weight: Any = (1.0, 1.0, 1.0)) -> None:
        self._validate(locals())

    # ------------------------------------------------------------------ sizes
    @property
    def num_jobs(self) -> int:
        """``I``: number of jobs."""
        return int(self.arrival.shape[0])

    @property
    def num_edges(self) -> int:
        """``K``: number of edge clouds."""
        return int(self.memory_capacity.shape[0])

    @property
    def num_models(self) -> int:
        """Number of distinct models."""
        return int(self.model_size.shape[0])

    @property
    def max_tasks(self) -> int:
        """Padded tasks per job."""
        return int(self.candidate_model.shape[1])

    @property
    def max_choices(self) -> int:
        """Padded candidate models per task."""
        return int(self.candidate_model.shape[2])

    # ------------------------------------------------------------------ DAGs
    def graph(self, job: int) -> nx.DiGraph:
        """Job ``job``'s DAG (a fresh copy): nodes ``0..n_i-1`` with ``task`` and
        ``models`` attributes, edges with ``data_size``."""
        i = int(job)
        if not 0 <= i < self.num_jobs:
            raise InvalidInstanceError("job", f"= {job} is outside 0..{self.num_jobs - 1}")
        g = self._graphs[i].copy()  # type: ignore[attr-defined]
        for j in g:
            valid = self.candidate_model[i, j] >= 0
            g.nodes[j]["task"] = str(self.task_type[i, j])
            g.nodes[j]["models"] = self.candidate_model[i, j][valid].tolist()
        src, dst, h = self.dag_edges(i)
        for a, b, size in zip(src.tolist(), dst.tolist(), h.tolist(), strict=True):
            g.edges[a, b]["data_size"] = size
        return g

    def dag_skeleton(self, job: int) -> nx.DiGraph:
        """Job ``job``'s bare DAG (nodes ``0..n_i-1``, edges, no attributes): the graph the
        instance built when it validated ``dag_edge``, shared, not copied (read it, do not
        change it; :meth:`graph` gives an annotated copy)."""
        return self._graphs[job]  # type: ignore[attr-defined]

    def dag_edges(self, job: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(src, dst, data_size)`` arrays of job ``job``'s DAG edges."""
        used = self.dag_edge[job, :, 0] >= 0
        return self.dag_edge[job, used, 0], self.dag_edge[job, used, 1], self.data_size[job, used]

    def mean_runtime(self, job: int) -> dict[int, float]:
        """``f_bar_j`` per task of a job: mean runtime over its candidate models (10)."""
        out = {}
        for j in range(int(self.num_tasks[job])):
            valid = self.candidate_model[job, j] >= 0
            out[j] = float(np.mean(self.runtime[job, j][valid]))
        return out

    def execution_order(self, job: int) -> list[int]:
        """Algorithm 2's order ``S`` of the job's tasks (descending rank (10))."""
        return [int(j) for j in dag.execution_order(self._graphs[job], self.mean_runtime(job))]  # type: ignore[attr-defined]

    # --------------------------------------------------------------- copies
    def replace(self, **changes: Any) -> GenaiInstance:
        """A validated copy with some fields changed."""
        kwargs = {name: getattr(self, name) for name in _FIELDS}
        unknown = set(changes) - set(kwargs)
        if unknown:
            raise InvalidInstanceError(sorted(unknown)[0], "is not a GenaiInstance field")
        kwargs.update(changes)
        return GenaiInstance(**kwargs)

    def subset(self, jobs: Any) -> GenaiInstance:
        """A new instance with only ``jobs`` (in the given order)."""
        idx = np.asarray(jobs, dtype=np.int64)
        per_job = ("arrival", "deadline", "revenue", "num_tasks", "task_type", "candidate_model",
                   "runtime", "compute", "dag_edge", "data_size")
        return self.replace(**{name: getattr(self, name)[idx] for name in per_job})

    # ------------------------------------------------------------------ xarray
    def to_dataset(self) -> xr.Dataset:
        """The instance as an ``xarray.Dataset`` (exact round trip through netCDF)."""
        return xr.Dataset(
            {
                "memory_capacity": ("edge", self.memory_capacity),
                "compute_cost": ("edge", self.compute_cost),
                "transfer_cost": ("edge", self.transfer_cost),
                "hosting_cost": ("edge", self.hosting_cost),
                "model_size": ("model", self.model_size),
                "model_name": ("model", self.model_name.astype(object)),
                "arrival": ("job", self.arrival),
                "deadline": ("job", self.deadline),
                "revenue": ("job", self.revenue),
                "num_tasks": ("job", self.num_tasks),
                "task_type": (("job", "task"), self.task_type.astype(object)),
                "candidate_model": (("job", "task", "choice"), self.candidate_model),
                "runtime": (("job", "task", "choice"), self.runtime),
                "compute": (("job", "task", "choice"), self.compute),
                "dag_edge": (("job", "arc", "end"), self.dag_edge),
                "data_size": (("job", "arc"), self.data_size),
                "cost_weight": ("cost_term", self.cost_weight),
            },
            coords={
                "edge": np.arange(self.num_edges), "model": np.arange(self.num_models),
                "job": np.arange(self.num_jobs), "task": np.arange(self.max_tasks),
                "choice": np.arange(self.max_choices), "arc": np.arange(self.dag_edge.shape[1]),
                "end": np.array(["source", "target"], dtype=object),
                "cost_term": np.array(["computation", "communication", "hosting"], dtype=object),
            },
            attrs={"family": "genai", "num_slots": self.num_slots},
        )

    @classmethod
    def from_dataset(cls, ds: xr.Dataset) -> GenaiInstance:
        """Inverse of :meth:`to_dataset`."""
        if ds.attrs.get("family") != "genai":
            raise InvalidInstanceError("family", f"dataset is of family {ds.attrs.get('family')!r}")
        v = lambda name: ds[name].values  # noqa: E731
        text = lambda name: np.where(ds[name].isnull().values, "", ds[name].values).astype(str)  # noqa: E731
        return cls(
            num_slots=int(ds.attrs["num_slots"]),
            memory_capacity=v("memory_capacity"), compute_cost=v("compute_cost"),
            transfer_cost=v("transfer_cost"), hosting_cost=v("hosting_cost"),
            model_size=v("model_size"), model_name=text("model_name"), arrival=v("arrival"),
            deadline=v("deadline"), revenue=v("revenue"), num_tasks=v("num_tasks"),
            task_type=text("task_type"), candidate_model=v("candidate_model"), runtime=v("runtime"),
            compute=v("compute"), dag_edge=v("dag_edge"), data_size=v("data_size"),
            cost_weight=v("cost_weight"),
        )

    # ------------------------------------------------------------------ plans
    def verify_plan(self, plan: xr.Dataset) -> float:
        """Check a plan against IP (5); return its profit. See :func:`aisched.models.genai.plan.verify_plan`."""
        return verify_plan(self, plan)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GenaiInstance):
            return NotImplemented
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"GenaiInstance(jobs={self.num_jobs}, edges={self.num_edges}, slots={self.num_slots}, "
                f"models={self.num_models}, max_tasks={self.max_tasks})")
