"""Baselines of the ComDOS paper (section IV-A): HEFT-A, HEFT-MA and Random-A.

All three handle jobs one by one in order of arrival and place a job's
tasks one at a time in a priority order, each at its earliest feasible start
``s >= max(t_i, end of every parent)`` on its edge, where the model fits the
memory left in every slot of its run (5h), finishing by ``d_i`` (5d). A job
whose task cannot be placed, or whose profit ``b_i - costs`` (1)-(4) is not
positive, is declined (admission control); nothing of it is committed.

- ``heft_a``: HEFT (Topcuoglu et al. 2002) with admission control. Priority:
  descending upward rank (:func:`aisched.dag.upward_rank`; computation =
  the runtime of the task's model, communication time 0 since the model has
  no transfer delay). Edge: the one with the earliest finish time (ties:
  lowest index). No model selection: every task uses its *first listed*
  candidate model (the default model of its task type).
- ``heft_ma``: HEFT-A plus model selection: each task runs its candidate
  with the shortest runtime. Ties (``tie=``): the paper says "the model with the
  shortest execution time" and nothing of ties, which decide most tasks on sourced
  runtimes (one 5-second slot for 95 % of candidates). Default ``"first"``: the first
  listed (the pools' order puts the small default model first); ``"random"``: a uniformly
  random one of the equally fast candidates (``seed``), the neutral reading.
- ``random_a``: priority by rank (10) (the execution order ``S``); each task
  goes to a uniformly random edge (``seed``), at its earliest feasible start
  there; the first listed model; admission control as above.

HEFT's rank (``communication=``, reading A5): HEFT's ``c_bar(n, s)`` is the
mean communication *time* of an edge (startup plus data / bandwidth). IP (5)
gives transfers no time ((5e) only orders the tasks), so the default
``"none"`` takes ``c_bar = 0``, HEFT's definition applied to this model.
``"transfer_cost"``: ``c_bar = h_{jj'}`` times the mean unit transfer cost
``e^p``, the money a cross-edge transfer costs, read as a weight beside runtimes.

HEFT-A's model (reading A6): the paper gives HEFT-A no model selection
(HEFT-MA adds it), so each task runs one fixed model; we use the first listed
candidate, the default model of the task's type in :data:`aisched.scenarios.genai.MODEL_POOLS`.

Admission control (``admission=``, genai reading A3 in ``docs/readings/genai.md``):
the paper says "when the profit for executing a task is negative, the task is
directly declined". Default ``"task"``: each task's profit is its share of
the job's revenue, split in proportion to the task's resource demand (mean
candidate model size, GB, the demand section IV.A prices revenue by), minus
the task's weighted computation (2) and hosting (4) costs and the
communication cost (3) of the DAG edges into it; a task with negative profit
is declined, and since revenue (1) is earned only when every task of the job
runs, so is its job. ``"job"`` (the earlier rule): the job is declined when
``b_i`` minus all its costs is not positive.

An edge's GPUs (``gpus=``, reading A2c; an extension outside IP (5), not the
paper's program): IP (5) limits an edge by memory alone (5h), so any number of
tasks may run on it at once, and HEFT's processor availability (Topcuoglu et
al.'s ``avail[j]`` in the earliest start time) never delays a task: every edge
offers the same earliest finish and HEFT-A / HEFT-MA put every task on edge 0
(the lowest index), up to 45 tasks at once on section IV.A's 4 GPUs. Default
``None``: no such limit (IP (5) as printed). An integer ``G``: a task also
needs fewer than ``G`` tasks already running on its edge in every slot of its
run (one GPU a task, as our runtimes are one GPU's), so a busy edge delays it
and EFT spreads tasks; the plan still satisfies IP (5).

HEFT's processors (``processors=``, reading A2d; a reading of the baselines, not a change to IP
(5)): Topcuoglu et al. (2002) define ``EFT(n_i, p_j) = w_ij + EST(n_i, p_j)`` with
``EST = max(avail[j], max_{m in pred} (AFT(n_m) + c_mi))`` and an insertion policy: a task may take
"the earliest idle time slot between two already-scheduled tasks on a processor" that is long enough.
Section IV.A sizes an edge as "a server with 4 NVIDIA GeForce RTX 3060, 4090, and Tesla V100", so an
integer ``P`` (section IV.A's 4) makes each edge ``P`` processors (its GPUs): a task goes to the
(edge, GPU) pair with the earliest finish, at the first idle gap of that GPU (insertion) that is long
enough and where the edge's memory (5h) holds in every slot of the run; ties go to the lowest (edge,
GPU). One GPU runs one task at a time; a task holds one GPU (our runtimes are one GPU's). The GPUs of an
edge are identical: IP (5)'s runtime ``f_{m,i,j}`` has no edge index (one reference GPU, reading A2b),
so a GPU's type cannot change a runtime and EFT reduces to the earliest start. Random-A keeps its random
edge and takes that edge's earliest-starting GPU. Default ``None``: no processors (IP (5) as printed,
bit for bit today's plans). Unlike ``gpus=G`` (a count of tasks per edge-slot), a task here needs one
GPU idle over its whole run, so idle slots scattered over several GPUs do not host it. The plan is
still IP (5)'s and is verified against it.

Random-A's edge (``on_full=``, reading A4): the text only says tasks are
randomly assigned to edges. Default ``"decline"``: a task whose random edge
has no feasible start before the deadline is declined (with its job);
``"redraw"``: draw again among the edges not yet tried, in random order.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from aisched import dag
from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.genai import GenaiInstance, job_profit, make_plan, verify_plan
from aisched.models.genai.program import check_gpus
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["heft_a", "heft_ma", "random_a", "check_processors", "earliest_on_processors", "earliest_start",
           "list_schedule", "task_profits"]

ModelRule = Literal["first", "fastest"]
EdgeRule = Literal["eft", "random"]
Admission = Literal["task", "job"]
OnFull = Literal["decline", "redraw"]
Communication = Literal["none", "transfer_cost"]
Tie = Literal["first", "random"]
TIES: tuple[str, ...] = ("first", "random")
ADMISSIONS: tuple[str, ...] = ("task", "job")
COMMUNICATIONS: tuple[str, ...] = ("none", "transfer_cost")
ON_FULL: tuple[str, ...] = ("decline", "redraw")


def earliest_start(room: np.ndarray, size: float, runtime: int, ready: int, deadline: int) -> int:
    """First ``s >= ready`` with ``room[s .. s+runtime-1] >= size`` and ``s + runtime - 1 <= deadline``; -1 if none."""
    last = deadline - runtime + 1
    if last < ready:
        return -1
    ok = (room[ready: deadline + 1] >= size - 1e-12).astype(np.int64)
    window = np.convolve(ok, np.ones(runtime, dtype=np.int64), mode="valid")  # window[x] = ok-count of run at ready+x
    hits = np.nonzero(window[: last - ready + 1] == runtime)[0]
    return int(ready + hits[0]) if hits.size else -1


def check_processors(processors: Any) -> None:
    """Refuse a ``processors`` that is neither None (no processors, IP (5) as printed) nor a whole number >= 1."""
    if processors is not None and (isinstance(processors, bool) or not isinstance(processors, (int, np.integer))
                                   or processors < 1):
        raise InvalidScenarioError("processors", f"= {processors!r} must be None (no processors: IP (5) as "
                                   "printed) or a whole number >= 1 (GPUs per edge, HEFT's processors)")


def earliest_on_processors(room: np.ndarray, idle: np.ndarray, size: float, runtime: int, ready: int,
                           deadline: int) -> tuple[int, int]:
    """HEFT's insertion policy on one edge: ``(gpu, start)`` of the earliest start over its GPUs, or ``(-1, -1)``.

    ``room``: the edge's free memory per slot (5h); ``idle``: (gpu, slot) True where a GPU runs no task.
    A GPU hosts the task at ``s`` if it is idle and the memory fits in every slot ``s .. s+runtime-1``,
    the first such idle gap (possibly between two scheduled tasks) being its ``EST``; ties: lowest GPU.
    """
    best = (-1, -1)
    for g in range(idle.shape[0]):
        s = earliest_start(np.where(idle[g], room, -np.inf), size, runtime, ready, deadline)
        if s >= 0 and (best[1] < 0 or s < best[1]):
            best = (g, s)
    return best


def list_schedule(inst: GenaiInstance, i: int, used: np.ndarray, *, model_rule: ModelRule,
                  edge_rule: EdgeRule, priority: str, rng: np.random.Generator | None = None,
                  on_full: OnFull = "decline", communication: Communication = "none", tie: Tie = "first",
                  running: np.ndarray | None = None, gpus: int | None = None, idle: np.ndarray | None = None):
    """Place job ``i``'s tasks one by one; return ``(edge, choice, start, usage, tasks, gpu)`` or ``None``.

    ``tie`` (with ``model_rule="fastest"``): ``"first"`` takes the first listed of the equally
    fast candidates, ``"random"`` one drawn uniformly from them with ``rng``. ``gpus`` (with
    ``running``, the (edge, slot) count of tasks already placed): a slot of an edge already
    running ``gpus`` tasks hosts no further one (module docstring). ``tasks``: the (edge, slot)
    count of this job's tasks, to add to ``running`` when the job is admitted. ``idle`` (HEFT's
    processors, reading A2d): (edge, gpu, slot) True where the GPU runs no admitted task; each task then
    takes the (edge, GPU) of earliest finish by :func:`earliest_on_processors`, and ``gpu`` says which
    (-1 everywhere without ``idle``). ``idle`` itself is not changed.
    """
    n = int(inst.num_tasks[i])
    g = inst.dag_skeleton(i)
    valid = inst.candidate_model[i, :n] >= 0
    if model_rule == "fastest" and tie == "random":
        masked = np.where(valid, inst.runtime[i, :n], np.iinfo(np.int64).max)
        fastest = masked == masked.min(axis=1, keepdims=True)
        choice = np.array([int(rng.choice(np.flatnonzero(row))) for row in fastest], dtype=np.int64)
    elif model_rule == "fastest":
        choice = np.argmin(np.where(valid, inst.runtime[i, :n], np.iinfo(np.int64).max), axis=1)
    else:
        choice = np.argmax(valid, axis=1)  # the first listed candidate
    f = inst.runtime[i, np.arange(n), choice]
    size = inst.model_size[inst.candidate_model[i, np.arange(n), choice]]
    if priority == "upward":
        comm = None
        if communication == "transfer_cost":
            src, dst, h = inst.dag_edges(i)
            mean_ep = float(np.mean(inst.transfer_cost))
            comm = {(int(a), int(b)): float(x) * mean_ep for a, b, x in zip(src, dst, h, strict=True)}
        up = dag.upward_rank(g, {j: float(f[j]) for j in g}, comm)
        topo = {j: p for p, j in enumerate(dag.execution_order(g, {j: float(f[j]) for j in g}))}
        order = sorted(g, key=lambda j: (-up[j], topo[j]))
    else:
        order = inst.execution_order(i)
    room = inst.memory_capacity[:, None] - used
    busy = np.zeros_like(used) if running is None else running.copy()
    if gpus is not None:
        room[busy >= gpus] = -np.inf  # a full edge-slot: no memory offered to a further task
    edge = np.full(n, -1, np.int64)
    start = np.full(n, -1, np.int64)
    gpu = np.full(n, -1, np.int64)
    free = None if idle is None else idle.copy()
    usage = np.zeros_like(used)
    for j in order:
        ready = max([int(inst.arrival[i])] + [int(start[p] + f[p]) for p in g.predecessors(j)])
        if edge_rule == "random" and on_full == "redraw":
            edges = rng.permutation(inst.num_edges).tolist()
        elif edge_rule == "random":
            edges = [int(rng.integers(inst.num_edges))]
        else:
            edges = list(range(inst.num_edges))
        best = None
        for k in edges:
            if free is None:
                p, s = -1, earliest_start(room[k], float(size[j]), int(f[j]), ready, int(inst.deadline[i]))
            else:
                p, s = earliest_on_processors(room[k], free[k], float(size[j]), int(f[j]), ready,
                                              int(inst.deadline[i]))
            if s >= 0 and (best is None or s < best[1]):  # one runtime f on every GPU: EFT = earliest start
                best = (k, s, p)
            if s >= 0 and edge_rule == "random":
                break  # the first random edge that can host the task
        if best is None:
            return None
        k, s, p = best
        edge[j], start[j], gpu[j] = k, s, p
        if free is not None:
            free[k, p, s: s + f[j]] = False
        room[k, s: s + f[j]] -= size[j]
        usage[k, s: s + f[j]] += size[j]
        busy[k, s: s + f[j]] += 1
        if gpus is not None:
            room[k, s: s + f[j]][busy[k, s: s + f[j]] >= gpus] = -np.inf
    tasks = busy - (0.0 if running is None else running)
    return edge, choice, start, usage, tasks, gpu


def task_profits(inst: GenaiInstance, i: int, edge: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Per task of job ``i``: revenue share (by mean candidate model size) minus the task's weighted costs.

    Computation (2) and hosting (4) of the task's own run, plus the
    communication (3) of each DAG edge into it; the shares sum to ``b_i`` and
    the profits to the job's profit (:func:`aisched.models.genai.job_profit`).
    """
    n = int(inst.num_tasks[i])
    j = np.arange(n)
    w = inst.cost_weight
    valid = inst.candidate_model[i, :n] >= 0
    mean_size = np.where(valid, inst.model_size[np.maximum(inst.candidate_model[i, :n], 0)], 0.0).sum(axis=1) \
        / np.maximum(valid.sum(axis=1), 1)
    share = inst.revenue[i] * (mean_size / mean_size.sum() if mean_size.sum() > 0 else np.full(n, 1.0 / n))
    f = inst.runtime[i, j, choice]
    size = inst.model_size[inst.candidate_model[i, j, choice]]
    cost = w[0] * f * inst.compute[i, j, choice] * inst.compute_cost[edge] + w[2] * f * size * inst.hosting_cost[edge]
    src, dst, h = inst.dag_edges(i)
    np.add.at(cost, dst, w[1] * np.where(edge[src] != edge[dst], h * inst.transfer_cost[edge[src]], 0.0))
    return share - cost


def _run(inst: GenaiInstance, name: str, *, model_rule: ModelRule, edge_rule: EdgeRule, priority: str,
         seed: int | None = None, admission: Admission = "task", on_full: OnFull = "decline",
         communication: Communication = "none", tie: Tie = "first", gpus: int | None = None,
         processors: int | None = None) -> Outcome:
    check_gpus(gpus)
    check_processors(processors)
    one_of("tie", tie, TIES)
    one_of("admission", admission, ADMISSIONS)
    one_of("communication", communication, COMMUNICATIONS)
    one_of("on_full", on_full, ON_FULL)
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    shape = (inst.num_jobs, inst.max_tasks)
    edge, model, start = (np.full(shape, -1, np.int32) for _ in range(3))
    admitted = np.zeros(inst.num_jobs, bool)
    used = np.zeros((inst.num_edges, inst.num_slots))
    running = np.zeros_like(used)  # tasks placed per (edge, slot), for ``gpus``
    idle = None if processors is None else np.ones((inst.num_edges, int(processors), inst.num_slots), bool)
    gpu = np.full(shape, -1, np.int32)  # HEFT's processor of each task (reading A2d), -1 without
    decision_s = np.zeros(inst.num_jobs)
    for i in np.lexsort((np.arange(inst.num_jobs), inst.arrival)).tolist():
        t0 = time.perf_counter()
        placed = list_schedule(inst, i, used, model_rule=model_rule, edge_rule=edge_rule,
                               priority=priority, rng=rng, on_full=on_full,
                               communication=communication, tie=tie, running=running, gpus=gpus,
                               idle=idle)
        if placed is not None:
            e, c, s, usage, tasks, g = placed
            rev, c1, c2, c3 = job_profit(inst, i, e, c)
            if admission == "task":
                ok = bool(np.all(task_profits(inst, i, e, c) >= 0))  # a task with negative profit is declined
            else:
                ok = rev - c1 - c2 - c3 > 0
            if ok:  # admission control
                n = int(inst.num_tasks[i])
                admitted[i] = True
                used += usage
                running += tasks
                edge[i, :n], start[i, :n], gpu[i, :n] = e, s, g
                if idle is not None:
                    for j in range(n):
                        idle[e[j], g[j], s[j]: s[j] + inst.runtime[i, j, c[j]]] = False
                model[i, :n] = inst.candidate_model[i, np.arange(n), c]
        decision_s[i] = time.perf_counter() - t0
    plan = make_plan(inst, edge, model, start, admitted)
    info = {"seed": -1 if seed is None else int(seed), "admission": admission, "on_full": on_full,
            "tie": tie, "gpus": -1 if gpus is None else int(gpus),
            "processors": -1 if processors is None else int(processors)}
    if processors is not None:
        info["gpu"] = gpu  # (job, task) GPU of each admitted task on its edge (not saved: an array)
    return Outcome(algorithm=name, family="genai", objective=verify_plan(inst, plan), plan=plan,
                   admitted=admitted, runtime_s=time.perf_counter() - started, decision_s=decision_s, info=info)


@register("genai", "heft_a")
def heft_a(instance: GenaiInstance, *, admission: Admission = "task", communication: Communication = "none",
           gpus: int | None = None, processors: int | None = None) -> Outcome:
    """HEFT-A: upward-rank priority, earliest-finish edge, first listed model, admission control (``admission``).

    ``gpus``: None (IP (5), no limit) or tasks at once an edge (an extension, module docstring).
    ``processors``: None (default, no processors) or GPUs per edge as HEFT's processors with insertion
    (reading A2d, module docstring); ``info["gpu"]`` then holds each task's GPU.
    """
    return _run(instance, "heft_a", model_rule="first", edge_rule="eft", priority="upward", admission=admission,
                communication=communication, gpus=gpus, processors=processors)


@register("genai", "heft_ma")
def heft_ma(instance: GenaiInstance, *, admission: Admission = "task", communication: Communication = "none",
            tie: Tie = "first", seed: int = 0, gpus: int | None = None, processors: int | None = None) -> Outcome:
    """HEFT-MA: HEFT-A with the shortest-runtime model per task (section IV.A).

    ``tie``: ``"first"`` (default) the first listed of equally fast candidates, ``"random"`` a seeded
    (``seed``) uniform draw among them (module docstring). ``gpus``: None (IP (5), no limit) or tasks
    at once an edge (an extension, module docstring). ``processors``: None (default) or GPUs per edge
    as HEFT's processors with insertion (reading A2d, module docstring).
    """
    return _run(instance, "heft_ma", model_rule="fastest", edge_rule="eft", priority="upward", admission=admission,
                communication=communication, tie=tie, seed=seed if tie == "random" else None, gpus=gpus,
                processors=processors)


@register("genai", "random_a")
def random_a(instance: GenaiInstance, *, seed: int = 0, admission: Admission = "task",
             on_full: OnFull = "decline", gpus: int | None = None, processors: int | None = None) -> Outcome:
    """Random-A: rank (10) priority, a random edge per task (``seed``), first listed model, admission control.

    ``on_full``: ``"decline"`` (default) or ``"redraw"`` when the random edge cannot host the task.
    ``gpus``: None (IP (5), no limit) or tasks at once an edge (an extension, module docstring).
    ``processors``: None (default) or GPUs per edge; the random edge's earliest-starting GPU (reading A2d).
    """
    return _run(instance, "random_a", model_rule="first", edge_rule="random", priority="rank", seed=seed,
                admission=admission, on_full=on_full, gpus=gpus, processors=processors)


def _check_values(params: Mapping[str, object]) -> None:
    """The range checks :func:`aisched.api.check_params` runs before any work (``gpus``, ``processors``)."""
    if "gpus" in params:
        check_gpus(params["gpus"])
    if "processors" in params:
        check_processors(params["processors"])


for _algorithm in (heft_a, heft_ma, random_a):
    _algorithm.check_values = _check_values  # type: ignore[attr-defined]
