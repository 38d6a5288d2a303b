"""ComDOS: online primal-dual scheduling of generative-AI job DAGs (Algorithm 1 with Algorithm 2).

Jobs are handled one by one in order of arrival (ties by index). For job ``i``:

1. Algorithm 2 (:mod:`aisched.online.genai.comdos.kernel`, jit-compiled and
   vectorised over the schedule options ``H``) returns the option of largest
   DP profit ``P``; its schedule ``l_i`` is read back by
   :func:`aisched.online.genai.comdos.reference.backtrack` and scored exactly by (8)::

       mu_i = b_il - sum_{k,t} r_kt(il) lambda_kt,
       b_il = b_i - w_f Cost^p_i - w_p Cost^c_i - w_h Cost^m_i   (the schedule's profit)

   with ``r_kt(il)`` the GB of models the schedule hosts on edge ``k`` in slot ``t``.
2. If ``mu_i > 0`` the prices are raised by (9)::

       lambda_kt <- lambda_kt (1 + r_kt(il) / c^s_k) + alpha * b_bar_il * r_kt(il) / c^s_k,
       b_bar_il = b_il / sum_{k,t} r_kt(il),   alpha = max_i b_i / r_{i,min}

   (``r_{i,min}``: the smallest model size among job ``i``'s candidates, GB;
   by default ``alpha`` is read as a pure number, that ratio over the lowest
   revenue per GB-slot, see :func:`default_alpha`);
   *then* the resource check (Algorithm 1, line 6) runs, and the job is
   admitted only if every cell still has room. As in Algorithm 1 the prices
   are raised even when the check then declines the job. ``mu_i > 0``
   implies ``b_il > 0``, so prices never decrease.

Beside the paper, ``room_aware=True`` lets the DP skip starts that meet a
cell without room for the model (see :func:`run`).

Known limitation of the paper's design, kept as is: Algorithm 2 ignores
capacity (5h), so a job whose own tasks overlap on one edge beyond its
memory, or a model larger than an edge, is priced and then declined by the
resource check (test: ``test_prices_rise_even_when_the_resource_check_declines``).

Beside the paper, ``gpus=G`` (docs/readings/genai.md A2c; an extension outside
IP (5), whose edges are limited by memory alone): the resource check also needs
at most ``G`` tasks running at once on an edge in every slot, and with
``room_aware`` the DP offers no room in a cell already running ``G`` tasks.

Beyond the paper, ``gpu_price_beyond_paper=True`` (with ``gpus=G``; docs/readings/genai.md A2e):
IP (5) extended by a computation capacity, at most ``G`` tasks on edge ``k`` in slot ``t``
(``aisched.offline(inst, gpus=G)``'s ``gpus_at_once[k, t]``), gets its own dual price
``nu_kt`` per task-slot beside the memory price, in (8) and with (9)'s form::

    mu_i = b_il - sum_{k,t} r_kt(il) lambda_kt - sum_{k,t} n_kt(il) nu_kt,
    nu_kt <- nu_kt (1 + n_kt(il) / G) + alpha * b_hat_il * n_kt(il) / G,   b_hat_il = b_il / sum_{k,t} n_kt(il)

with ``n_kt(il)`` the tasks the schedule runs on edge ``k`` in slot ``t``. The paper has no such
constraint or price. Algorithm 2's DP still plans with the memory price alone (``nu`` enters the
admission score (8), the update and the dual objective, not the choice of schedule), and ``alpha``
is the memory price's (unit-free under ``density_ratio``). Off by default.

Cost weights (Fig. 8): the instance's ``cost_weight`` (computation,
communication, hosting) weight the objective; ``cost_weights=`` makes ComDOS
*plan* with other weights (the reported objective stays the instance's).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import xarray as xr

from aisched import dag
from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.genai import GenaiInstance, job_profit, make_plan, verify_plan
from aisched.models.genai.program import check_gpus
from aisched.online.genai.comdos import batched as comdos_batched
from aisched.online.genai.comdos import exact as comdos_exact
from aisched.online.genai.comdos import kernel
from aisched.online.genai.comdos.reference import backtrack, r_child
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["ALPHA_READINGS", "AlphaReading", "FULL_CELL_ALPHA", "FULL_CELL_OPTIONS", "SELECTIONS", "Selection", "default_alpha", "job_data", "ComdosState", "Decision", "run"]


AlphaReading = Literal["density_ratio", "gb", "full_cell"]
ALPHA_READINGS: tuple[str, ...] = ("density_ratio", "gb", "full_cell")

#: ``alpha`` of the ``"full_cell"`` scale: ``1 / (e - 1)`` (see :func:`default_alpha`).
FULL_CELL_ALPHA: float = 1.0 / (math.e - 1.0)

#: The named option set "a ComDOS that works" beside the paper's two readings of alpha
#: (``docs/readings/genai.md`` A10): (9) unchanged with the ``full_cell`` price scale, and the
#: capacity-aware selection. Never the default; the figures draw it as the variant ``full-cell``.
FULL_CELL_OPTIONS: dict[str, Any] = {"alpha_reading": "full_cell", "room_aware": True}
Selection = Literal["algorithm2", "exact"]
SELECTIONS: tuple[str, ...] = ("algorithm2", "exact")
OptionEval = Literal["shared", "chunks"]
OPTION_EVALS: tuple[str, ...] = ("shared", "chunks")


def _revenue_densities(instance: GenaiInstance) -> tuple[np.ndarray, np.ndarray]:
    """Per job: ``U_i = b_i / r_{i,min}`` (GB) and ``L_i = b_i / R_{i,max}`` (GB-slots).

    ``r_{i,min}`` is the smallest candidate model size of any task of job
    ``i`` (the least memory a task of the job can hold in one cell (k, t));
    ``R_{i,max} = sum_j max_m r_m^s f_{m,i,j}`` the most GB-slots a schedule
    of the job can hold (the largest denominator of ``b_bar_il``).
    """
    cand = instance.candidate_model
    valid = cand >= 0
    sizes = np.where(valid, instance.model_size[np.maximum(cand, 0)], np.nan)
    r_min = np.nanmin(sizes.reshape(instance.num_jobs, -1), axis=1)
    gb_slots = np.where(valid, sizes * instance.runtime, -np.inf).max(axis=2)  # (I, J): max_m r f per task
    r_max = np.where(np.isfinite(gb_slots), gb_slots, 0.0).sum(axis=1)
    return instance.revenue / r_min, instance.revenue / r_max


def default_alpha(instance: GenaiInstance, reading: AlphaReading = "density_ratio") -> float:
    """(9)'s ``alpha = max_i b_i / r_{i,min}`` under a reading of its unit (``docs/readings/genai.md`` A1).

    Parameters
    ----------
    reading
        ``"density_ratio"`` (default): ``alpha`` is a pure number, the
        highest revenue per GB of one cell, ``U = max_i b_i / r_{i,min}``
        (``r_{i,min}`` in GB), measured in units of the lowest revenue per
        GB-slot ``L = min_i b_i / R_{i,max}``: ``alpha = U / L``. This is
        what (9) needs: the dual objective grows by ``(1 + alpha) b_il`` per
        admitted job (ratio ``1 + alpha`` must be unit-free, and ``lambda``
        keeps the unit of (8), currency per GB-slot), and property (ii)
        (a full cell takes no more tasks) needs ``lambda_kt >= alpha * L >= U``
        once ``sum r_kt = c^s_k``. Invariant under a change of currency or memory unit.
        ``"gb"``: the printed ratio taken as a number in the instance's own
        units (currency per GB, ``r_{i,min}`` the smallest candidate model in
        GB): the earlier reading; it changes with the units.
        ``"full_cell"`` (beside the paper): ``alpha = 1 / (e - 1)``,
        the scale at which a cell's price reaches the highest profit density
        per GB-slot of the jobs that filled it only when the cell is full.
        Unrolling (9) over the jobs ``n`` that put ``r_n`` GB on a cell of
        capacity ``c`` with densities ``b_bar_n``::

            lambda = alpha sum_n b_bar_n (r_n / c) prod_{n' > n} (1 + r_n' / c),

            alpha b_min (prod_n (1 + r_n / c) - 1) <= lambda <= alpha b_max (prod_n (1 + r_n / c) - 1)

        (the sum telescopes), and ``prod (1 + r_n / c) <= e^u`` at fill
        ``u = sum r_n / c``; so ``lambda <= alpha b_max (e^u - 1) < b_max``
        for every ``u < 1`` exactly when ``alpha <= 1 / (e - 1)``, and with
        ``alpha = 1 / (e - 1)`` a cell filled in small steps by jobs of density
        ``b`` is priced ``b`` when full: a later job whose GB-slots all fall on
        such cells has ``mu <= 0`` unless its density is higher (property (ii)
        read on the price per GB-slot, the unit of (8)). A pure number, like
        ``density_ratio``; unit-free by construction.

    Returns 1.0 for an instance without jobs or without positive revenue.
    """
    one_of("alpha_reading", reading, ALPHA_READINGS)
    if instance.num_jobs == 0:
        return 1.0
    if reading == "full_cell":
        return FULL_CELL_ALPHA
    high, low = _revenue_densities(instance)
    if reading == "gb":
        return float(np.max(high))
    positive = low > 0
    if not positive.any():
        return 1.0
    return float(np.max(high) / np.min(low[positive]))


def job_data(instance: GenaiInstance, i: int, weights: np.ndarray, max_parents: int):
    """The kernel's arrays of job ``i`` (tasks in execution order) and its options.

    Returns
    -------
    (JobData, order, opt_edge (|H|, J), opt_choice (|H|, J))
    """
    inst = instance
    J, C, K = inst.max_tasks, inst.max_choices, inst.num_edges
    g = inst.dag_skeleton(i)
    order = inst.execution_order(i)
    pos = {j: p for p, j in enumerate(order)}
    n = len(order)
    valid = np.zeros((J, C), bool)
    runtime = np.zeros((J, C), np.int32)
    size = np.zeros((J, C))
    rate = np.zeros((J, C, K))
    cand = inst.candidate_model[i][order]
    valid[:n] = cand >= 0
    runtime[:n] = inst.runtime[i][order]
    size[:n] = np.where(valid[:n], inst.model_size[np.maximum(cand, 0)], 0.0)
    comp = inst.compute[i][order]
    rate[:n] = weights[0] * comp[:, :, None] * inst.compute_cost[None, None, :] \
        + weights[2] * size[:n, :, None] * inst.hosting_cost[None, None, :]
    parent = np.full((J, max_parents), -1, np.int32)
    is_r = np.zeros((J, max_parents), bool)
    comm = np.zeros((J, max_parents, K))
    children = {j: list(g.successors(j)) for j in g}
    rmap = r_child(order, children)
    src, dst, data = inst.dag_edges(i)
    h_of = {(int(a), int(b)): float(h) for a, b, h in zip(src, dst, data, strict=True)}
    for j in order:
        for q, jp in enumerate(sorted(g.predecessors(j), key=pos.__getitem__)):
            parent[pos[j], q] = pos[jp]
            is_r[pos[j], q] = rmap[jp] == j
            comm[pos[j], q] = weights[1] * h_of[jp, j] * inst.transfer_cost
    sink = np.zeros(J, bool)
    sink[:n] = [not children[j] for j in order]
    task_valid = np.arange(J) < n
    data_ = kernel.JobData(task_valid, valid, runtime, size, rate, parent, is_r, comm, sink,
                           int(inst.arrival[i]), int(inst.deadline[i]), float(inst.revenue[i]))
    choices = {j: np.nonzero(inst.candidate_model[i, j] >= 0)[0].tolist() for j in g}
    options = dag.schedule_options(g, list(range(K)), choices)
    opt_edge = np.full((len(options), J), -1, np.int32)
    opt_choice = np.full((len(options), J), -1, np.int32)
    for o, h in enumerate(options):
        for j, (k, c) in h.items():
            opt_edge[o, pos[j]], opt_choice[o, pos[j]] = k, c
    return data_, order, opt_edge, opt_choice


@dataclass(frozen=True)
class Decision:
    """Algorithm 1's decision for one job (before it is committed).

    ``mu`` is (8) of the chosen schedule (``-inf`` when no option is
    feasible); ``profit`` is ``b_il``; ``usage`` (K, T) is ``r_kt(il)``.
    """

    job: int
    mu: float
    dp_profit: float
    option: int
    num_options: int
    edge: np.ndarray
    model: np.ndarray
    start: np.ndarray
    profit: float
    usage: np.ndarray
    fits: bool
    admitted: bool
    tasks: np.ndarray | None = None  # (K, T) tasks of the schedule running per edge and slot


class ComdosState:
    """Prices ``lambda_kt`` and committed usage, updated job by job (Algorithm 1).

    Attributes
    ----------
    price : (K, T) float64 -- ``lambda_kt``, GB-slot price, starting at 0.
    used : (K, T) float64 -- GB hosted by admitted jobs.
    running : (K, T) float64 -- tasks of admitted jobs running (for ``gpus``).
    gpu_price : (K, T) float64 or None -- ``nu_kt``, the task-slot price of the computation-capacity
        extension (beyond the paper; only with ``gpu_price_beyond_paper``), starting at 0.
    """

    def __init__(self, instance: GenaiInstance, *, alpha: float | None = None,
                 cost_weights: Any = None, chunk: int = 8, room_aware: bool = False,
                 alpha_reading: AlphaReading = "density_ratio", selection: Selection = "algorithm2",
                 option_eval: OptionEval = "shared", gpus: int | None = None,
                 gpu_price_beyond_paper: bool = False) -> None:
        self.instance = instance
        check_gpus(gpus)
        self.gpus = None if gpus is None else int(gpus)
        check_gpu_price(gpu_price_beyond_paper, gpus)
        one_of("option_eval", option_eval, OPTION_EVALS)
        self.option_eval = option_eval
        one_of("selection", selection, SELECTIONS)
        self.selection = selection
        one_of("alpha_reading", alpha_reading, ALPHA_READINGS)
        self.alpha_reading = alpha_reading
        self.alpha = default_alpha(instance, alpha_reading) if alpha is None else float(alpha)
        if not math.isfinite(self.alpha) or self.alpha < 0:
            raise InvalidScenarioError("alpha", f"= {alpha!r} must be a finite number >= 0")
        try:  # text, containers of text, booleans: named below, never a raw ValueError
            bad = cost_weights is not None and np.asarray(cost_weights).dtype.kind not in "iuf"
            w = instance.cost_weight if cost_weights is None else np.asarray(cost_weights, dtype=float)
        except (TypeError, ValueError):
            bad, w = True, np.zeros(0)
        if bad:
            w = np.zeros(0)
        if w.shape != (3,) or not np.all(np.isfinite(w)) or np.any(w < 0):
            raise InvalidScenarioError("cost_weights", f"= {cost_weights!r} must be 3 finite numbers >= 0")
        self.weights = w
        if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
            raise InvalidScenarioError("chunk", f"= {chunk!r} must be an integer >= 1")
        self.chunk = chunk
        self.room_aware = bool(room_aware)
        K, T = instance.num_edges, instance.num_slots
        self.price = np.zeros((K, T))
        self.used = np.zeros((K, T))
        self.running = np.zeros((K, T))
        self.gpu_price = np.zeros((K, T)) if gpu_price_beyond_paper else None
        self.max_parents = max([max((d for _, d in g.in_degree()), default=0)
                                for g in map(instance.dag_skeleton, range(instance.num_jobs))] + [1])

    def decide(self, i: int) -> Decision:
        """Algorithms 2 and the admission test for job ``i``; the state is unchanged."""
        inst = self.instance
        job, order, opt_edge, opt_choice = job_data(inst, i, self.weights, self.max_parents)
        n_opt = opt_edge.shape[0]
        if self.selection == "exact":
            return self._decide_exact(i, job, order, n_opt)
        room = self._room() if self.room_aware else np.full_like(self.price, np.inf)
        if self.option_eval == "shared" and n_opt > self.chunk:
            profits, own = comdos_batched.evaluate_options(job, self.price, room, opt_edge, opt_choice)
            best_o = int(np.argmax(profits))  # the first maximum, as over chunks
            if not math.isfinite(profits[best_o]):
                return self._finish(i, order, -math.inf, -1, n_opt, None)
            res = kernel.evaluate_chunk(job, self.price, room, opt_edge[best_o: best_o + 1],
                                        opt_choice[best_o: best_o + 1], np.ones(1, bool), own_all=own)
            return self._finish(i, order, float(profits[best_o]), best_o, n_opt, res.table)
        size = 1 if n_opt == 1 else self.chunk  # two compiled variants per instance at most
        best_p, best_o, best_table = -math.inf, -1, None
        for lo in range(0, n_opt, size):
            e = np.full((size, inst.max_tasks), -1, np.int32)
            c = np.full((size, inst.max_tasks), -1, np.int32)
            ok = np.zeros(size, bool)
            take = min(size, n_opt - lo)
            e[:take], c[:take], ok[:take] = opt_edge[lo: lo + take], opt_choice[lo: lo + take], True
            res = kernel.evaluate_chunk(job, self.price, room, e, c, ok)
            p = float(res.profit[res.best])
            if p > best_p:  # strict: the first maximum over chunks
                best_p, best_o, best_table = p, lo + res.best, res.table
        return self._finish(i, order, best_p, best_o, n_opt, best_table)

    def _decide_exact(self, i: int, job: kernel.JobData, order: list[int], n_opt: int) -> Decision:
        """``selection="exact"``: the schedule maximising (8) (:mod:`aisched.online.genai.comdos.exact`)."""
        room = self._room() if self.room_aware else None
        profit, by_pos = comdos_exact.select(job, self.price, room)
        sched = None
        if by_pos is not None:
            n = len(order)
            sched = tuple(np.zeros(n, np.int64) for _ in range(3))
            for p, j in enumerate(order):
                for arr, val in zip(sched, by_pos, strict=True):
                    arr[j] = val[p]
        return self._decision(i, profit, -1, n_opt, sched)

    def _room(self) -> np.ndarray:
        """Free GB per (edge, slot); none in a cell already running ``gpus`` tasks."""
        room = self.instance.memory_capacity[:, None] - self.used
        return room if self.gpus is None else np.where(self.running >= self.gpus, 0.0, room)

    def _finish(self, i: int, order: list[int], dp_profit: float, option: int, n_opt: int,
                table: np.ndarray | None) -> Decision:
        inst = self.instance
        sched = None
        if table is not None and math.isfinite(dp_profit):
            pos = {j: p for p, j in enumerate(order)}
            sched = backtrack(inst, i, order, {j: table[pos[j]] for j in order}, self.weights)
        return self._decision(i, dp_profit, option, n_opt, sched)

    def _decision(self, i: int, dp_profit: float, option: int, n_opt: int, sched) -> Decision:
        """Score a schedule ``(edge, choice, start)`` (or ``None``) by (8) and the resource check."""
        inst = self.instance
        K, T, n = inst.num_edges, inst.num_slots, int(inst.num_tasks[i])
        none = np.full(n, -1, np.int64)
        if sched is None:
            return Decision(i, -math.inf, dp_profit, -1, n_opt, none, none, none, 0.0, np.zeros((K, T)),
                            False, False)
        edge, choice, start = sched
        rev, c1, c2, c3 = job_profit(inst, i, edge, choice, self.weights)
        profit = rev - c1 - c2 - c3
        model = inst.candidate_model[i, np.arange(n), choice]
        usage = np.zeros((K, T + 1))  # r_kt(il): hosted GB per edge and slot
        f = inst.runtime[i, np.arange(n), choice]
        np.add.at(usage, (edge, start), inst.model_size[model])
        np.add.at(usage, (edge, start + f), -inst.model_size[model])
        usage = np.cumsum(usage, axis=1)[:, :T]
        tasks = np.zeros((K, T + 1))
        np.add.at(tasks, (edge, start), 1.0)
        np.add.at(tasks, (edge, start + f), -1.0)
        tasks = np.cumsum(tasks, axis=1)[:, :T]
        mu = profit - float(np.sum(usage * self.price))
        if self.gpu_price is not None:  # beyond the paper: the task-slot price nu_kt in (8)
            mu -= float(np.sum(tasks * self.gpu_price))
        fits = bool(np.all(self.used + usage <= inst.memory_capacity[:, None] * (1 + 1e-12)))
        if self.gpus is not None:
            fits = fits and bool(np.all(self.running + tasks <= self.gpus))
        return Decision(i, mu, dp_profit, option, n_opt, edge, model, start, profit, usage, fits,
                        mu > 0 and fits, tasks)

    def update_prices(self, d: Decision) -> None:
        """The dual update (9) for a job with ``mu > 0`` (Algorithm 1, line 5)."""
        cap = self.instance.memory_capacity[:, None]
        total = float(d.usage.sum())
        b_bar = d.profit / total if total > 0 else 0.0
        self.price = self.price * (1 + d.usage / cap) + self.alpha * b_bar * d.usage / cap
        if self.gpu_price is not None and d.tasks is not None:  # beyond the paper: (9)'s form for nu_kt
            n = float(d.tasks.sum())
            b_hat = d.profit / n if n > 0 else 0.0
            self.gpu_price = self.gpu_price * (1 + d.tasks / self.gpus) + self.alpha * b_hat * d.tasks / self.gpus

    def step(self, i: int) -> Decision:
        """Decide job ``i``, raise prices if ``mu_i > 0``, commit it if admitted."""
        d = self.decide(i)
        if d.mu > 0:
            self.update_prices(d)
            if d.fits:
                self.used += d.usage
                if d.tasks is not None:
                    self.running += d.tasks
        return d


@register("genai", "comdos")
def run(instance: GenaiInstance, *, alpha: float | None = None, cost_weights: Any = None,
        chunk: int = 8, room_aware: bool = False, alpha_reading: AlphaReading = "density_ratio",
        selection: Selection = "algorithm2", option_eval: OptionEval = "shared",
        gpus: int | None = None, gpu_price_beyond_paper: bool = False) -> Outcome:
    """ComDOS (Algorithm 1) on ``instance``.

    Parameters
    ----------
    alpha
        (9)'s scale; default :func:`default_alpha` under ``alpha_reading``.
    alpha_reading
        ``"density_ratio"`` (default, unit-free ``U / L``), ``"gb"`` (the
        earlier reading) or ``"full_cell"`` (``1 / (e - 1)``, beside
        the paper: with ``room_aware=True`` the option set :data:`FULL_CELL_OPTIONS`);
        see :func:`default_alpha`.
    cost_weights
        Weights of (computation, communication, hosting) costs ComDOS plans
        with; default the instance's ``cost_weight``.
    chunk
        Options per kernel call (static shape) under ``option_eval="chunks"``,
        and for jobs with at most ``chunk`` options.
    option_eval
        How Algorithm 2 evaluates a job with more than ``chunk`` options:
        ``"shared"`` (default; each task once per distinct fixing of its
        fan-out ancestors, :mod:`aisched.online.genai.comdos.batched`) or
        ``"chunks"`` (every option's full DP, ``chunk`` at a time). Both give
        the same ``P`` bit for bit, hence the same decisions.
    selection
        ``"algorithm2"`` (default, the paper's DP over options ``H``) or
        ``"exact"`` (beside the paper: the schedule maximising (8) over edges,
        models and starts, :mod:`aisched.online.genai.comdos.exact`;
        ``docs/readings/genai.md`` A8).
    room_aware
        Beside the paper: the DP skips starts whose run meets a cell without
        room for the model (Algorithm 2 as printed ignores capacity and
        leaves it to the prices and the resource check; default ``False``).
    gpus
        Beside the paper (an extension outside IP (5)): None (default, no limit)
        or the most tasks running at once on an edge (module docstring).
    gpu_price_beyond_paper
        Beyond the paper (needs ``gpus``): price the computation capacity ``gpus`` with a
        dual ``nu_kt`` per task-slot in (8) and (9)'s update form (module docstring). Default False.

    Returns
    -------
    Outcome
        ``prices["memory_price"]`` (edge, slot) the final ``lambda_kt``;
        ``info["mu"]`` the ``mu_i`` of (8) per job; with ``gpu_price_beyond_paper``,
        ``prices["gpu_price_beyond_paper"]`` (edge, slot) the final ``nu_kt``.
    """
    started = time.perf_counter()
    state = ComdosState(instance, alpha=alpha, cost_weights=cost_weights, chunk=chunk, room_aware=room_aware,
                        alpha_reading=alpha_reading, selection=selection, option_eval=option_eval, gpus=gpus,
                        gpu_price_beyond_paper=gpu_price_beyond_paper)
    inst = instance
    shape = (inst.num_jobs, inst.max_tasks)
    edge, model, start = (np.full(shape, -1, np.int32) for _ in range(3))
    admitted = np.zeros(inst.num_jobs, bool)
    decision_s = np.zeros(inst.num_jobs)
    mu = np.zeros(inst.num_jobs)
    # the primal-dual step of each job with mu > 0 (aisched.theorems.genai): b_il and the dual's growth
    profit, step = np.zeros(inst.num_jobs), np.zeros(inst.num_jobs)
    for i in np.lexsort((np.arange(inst.num_jobs), inst.arrival)).tolist():
        t0 = time.perf_counter()
        before = state.price.copy()
        before_gpu = None if state.gpu_price is None else state.gpu_price.copy()
        d = state.step(i)
        if d.mu > 0:
            profit[i] = d.profit
            step[i] = d.mu + float(np.sum(inst.memory_capacity[:, None] * (state.price - before)))
            if before_gpu is not None:
                step[i] += float(state.gpus * np.sum(state.gpu_price - before_gpu))
        decision_s[i] = time.perf_counter() - t0
        mu[i] = max(d.mu, 0.0)  # Algorithm 1: a declined job keeps mu_i = 0
        if d.admitted:
            n = int(inst.num_tasks[i])
            admitted[i] = True
            edge[i, :n], model[i, :n], start[i, :n] = d.edge, d.model, d.start
    plan = make_plan(inst, edge, model, start, admitted)
    objective = verify_plan(inst, plan)
    prices = xr.Dataset({"memory_price": (("edge", "slot"), state.price,
                                          {"units": "money units per GB-slot", "symbol": "lambda_kt"})},
                        coords={"edge": np.arange(inst.num_edges), "slot": np.arange(inst.num_slots)})
    dual = float(mu.sum() + np.sum(inst.memory_capacity[:, None] * state.price))
    if state.gpu_price is not None:
        prices["gpu_price_beyond_paper"] = (("edge", "slot"), state.gpu_price,
                                            {"units": "money units per task-slot", "symbol": "nu_kt",
                                             "note": "beyond the paper: computation-capacity extension"})
        dual += float(state.gpus * state.gpu_price.sum())
    return Outcome(algorithm="comdos", family="genai", objective=objective, plan=plan, prices=prices,
                   admitted=admitted, runtime_s=time.perf_counter() - started, decision_s=decision_s,
                   info={"alpha": state.alpha, "mu": mu, "room_aware": int(state.room_aware),
                         "gpus": -1 if state.gpus is None else state.gpus, "dual_objective": dual,
                         **_step_record(mu, profit, step, state.alpha)})


def _step_record(mu: np.ndarray, profit: np.ndarray, step: np.ndarray, alpha: float) -> dict[str, float]:
    """The construction's per-job inequality ``D^i - D^(i-1) <= (1 + alpha) b_il`` (from (8)-(9)):
    ``dual_step_slack``, its least relative slack over jobs with ``mu_i > 0`` (NaN if none), and
    ``almost_feasible_welfare``, the sum of their ``b_il``."""
    on = mu > 0
    bound = (1.0 + alpha) * profit[on]
    ratio = np.divide(step[on], bound, out=np.full(bound.shape, np.inf), where=bound > 0)
    slack = float(np.min(1.0 - ratio)) if on.any() else float("nan")
    return {"dual_step_slack": slack, "almost_feasible_welfare": float(profit[on].sum())}


def check_gpu_price(gpu_price_beyond_paper: Any, gpus: Any) -> None:
    """Refuse a ``gpu_price_beyond_paper`` that is not a bool, or True without ``gpus`` (nothing to price)."""
    if not isinstance(gpu_price_beyond_paper, (bool, np.bool_)):
        raise InvalidScenarioError("gpu_price_beyond_paper", f"= {gpu_price_beyond_paper!r} must be True or False")
    if gpu_price_beyond_paper and gpus is None:
        raise InvalidScenarioError("gpu_price_beyond_paper", "= True needs gpus=G (the computation capacity it "
                                   "prices, beyond the paper); got gpus=None")


def _check_values(params: Mapping[str, object]) -> None:
    """The range checks :func:`aisched.api.check_params` runs before any work (``gpus`` >= 1 or None)."""
    if "gpus" in params:
        check_gpus(params["gpus"])
    if "gpu_price_beyond_paper" in params:
        check_gpu_price(params["gpu_price_beyond_paper"], params.get("gpus"))


run.check_values = _check_values  # type: ignore[attr-defined]
