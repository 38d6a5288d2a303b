"""Titan's per-slot program: IP (4)'s constraints on node classes, solved with HiGHS.

One slot of the Titan baseline (:mod:`aisched.online.lora.titan`) decides the
tasks that arrived in that slot, each with the vendor drawn for it, on the
capacity the committed tasks leave. This module builds that program as sparse
matrices for HiGHS (:func:`aisched.solvers.highs.solve_milp`), far faster to build than
the Pyomo model of :func:`aisched.models.lora.build` at paper scale.

Node classes (exact aggregation of the objective, relaxation of capacity)
-------------------------------------------------------------------------
Nodes whose data the slot's program can tell apart only through capacity (same
throughput ``s_ik`` and energy use of every task of the slot, same energy price
``p_kt`` over the horizon, same capacities ``C_kp``, ``C_km``) form one class
``c``. A binary ``y_ict`` says task ``i`` runs on *some* node of class ``c`` in
slot ``t``; each class keeps (4f)/(4g) as one row per (class, slot) with the sum of
its nodes' residual capacity on the right. The program on classes is therefore a
relaxation of the program on nodes with the same objective (objective
coefficients do not depend on which node of a class is used), so

- its optimum is an upper bound (maximisation) on the node program's optimum;
- a class solution that packs onto the nodes (per class and slot, a bin packing
  of ``s_ik`` and ``r_i`` into each node's residual room: best-fit decreasing)
  is a feasible node solution of the same objective, hence *optimal* for the
  node program whenever the class program was solved to optimality.

When a packing fails, the tasks whose cells all packed are kept (their use is
taken from the rooms) and the class program is solved again for the others
only (``repair_rounds`` times at most); a task still unpacked then gets an
earliest-finish placement on nodes (:func:`~aisched.online.lora.titan.greedy.earliest_finish`) or is not
scheduled. The first round's bound stays a valid bound on the node program, so
the slot's status says how far the committed plan may be from the node
program's optimum: ``optimal`` (the plan meets the first round's bound, within
``mip_gap``: proved), ``gap`` (a solve stopped at its time limit; feasible,
bound known) or ``heuristic`` (the repair changed the answer; bound known).
``formulation="nodes"`` makes every node its own class (no packing needed: the
exact node program, for small instances and cross-checks).

The class row of (class, slot) sums only the rooms of nodes that can hold the
smallest candidate of that (class, slot) (a node with less room can host none
of them), which keeps the relaxation valid and tighter.

Cells: ``y_ict`` exists only for slots ``t`` in ``[start_i, d_i]`` (``start_i`` the
arrival plus the drawn vendor's delay, (4c), (4d)) and classes where some node
has room for the task at ``t`` (compute ``s_ic`` and memory ``r_i`` left): no other
cell can be used by any node solution, so dropping them is exact.

Objectives
----------
``"welfare"``: (4), ``sum_i (b_i - q_i,n(i) f_i) u_i - sum e_ict y_ict``.

``"jct"``: Titan's. Lexicographic: (1) schedule as many tasks as possible,
``max sum_i u_i`` (Titan has no admission control, every job it is given runs;
only (4)'s constraints, the deadline among them, can keep a task out), then
(2) with that many tasks, ``min sum_i JCT_i`` where ``JCT_i = C_i - a_i + 1`` and
``C_i >= t sum_c y_ict`` is the task's last slot (completion). Two solves; the
second fixes ``sum_i u_i >= `` the first's count. ``jct_form="running"`` writes the
second stage with still-running indicators instead (same problem,
:mod:`aisched.online.lora.titan.running`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from aisched.models.lora import LoraInstance
from aisched.online.lora.titan.greedy import COUNT_FALLBACKS, earliest_finish, greedy_rows, pack_cells
from aisched.online.lora.titan.running import JCT_FORMS, running_stage
from aisched.online.lora.titan.sized import least_completion, sized_limit
from aisched.solvers.highs import Engine, solve_milp
from aisched.solvers.status import Status

__all__ = ["OBJECTIVES", "FORMULATIONS", "BUDGETS", "JCT_FORMS", "COUNT_FALLBACKS", "SlotResult", "node_classes",
           "solve_slot"]

OBJECTIVES = ("jct", "welfare")
FORMULATIONS = ("classes", "nodes")
BUDGETS = ("limit", "sized", "warm")
_EPS = 1e-9
_TRACE = False


@dataclass
class SlotResult:
    """What one slot's solve commits and how sure it is.

    Attributes
    ----------
    assignment
        (task of the slot, slot) node index or -1.
    admitted
        (task of the slot,) whether the task is scheduled.
    status
        ``"optimal"``, ``"gap"``, ``"heuristic"`` or ``"empty"`` (no task can run).
    objective
        The committed plan's welfare for ``"welfare"``, its number of tasks for
        ``"jct"`` (its total JCT is ``total_jct``).
    bound
        Proven upper bound on the node program's optimum: welfare, or the
        number of tasks for ``"jct"`` (the JCT lower bound at that count is
        ``detail["jct_bound"]``).
    count, total_jct
        Scheduled tasks and their total completion time (slots), for ``"jct"``.
    seconds
        Wall time of the slot (build, solves, packing).
    rounds
        Class-program solves (1 + packing repairs).
    detail
        ``welfare``, ``total_jct``, ``failed_cells`` (cells that did not pack,
        all rounds), ``greedy_tasks`` (placed by a greedy step), ``fallback_tasks``
        (of those, committed from the count stage's fallback plan), ``jct_bound``,
        ``gap``: relative distance to the bound (welfare; for ``"jct"`` the
        share of the provable task count that is missing, or, with the count
        proved, the total JCT above its lower bound over the total JCT).
    """

    assignment: np.ndarray
    admitted: np.ndarray
    status: str
    objective: float
    bound: float
    count: int = 0
    total_jct: float = 0.0
    seconds: float = 0.0
    rounds: int = 0
    detail: dict = field(default_factory=dict)


def node_classes(instance: LoraInstance, tasks: np.ndarray, formulation: str = "classes") -> np.ndarray:
    """(node,) class label of every node for the program of ``tasks``.

    Two nodes share a class when every task of ``tasks`` has the same throughput
    and energy use on both, their energy prices over all slots are equal, and so
    are their compute and memory capacities. ``formulation="nodes"``: node k is
    class k.
    """
    if formulation == "nodes":
        return np.arange(instance.num_nodes)
    use, price = instance.energy_factors()
    signature = np.hstack([
        instance.throughput[tasks].T, use[tasks].T, price,
        instance.compute_capacity[:, None], instance.memory_capacity[:, None],
    ])
    _, label = np.unique(signature, axis=0, return_inverse=True)
    return label.reshape(-1)


class _Program:
    """Columns and rows of one slot's class program (before the objective)."""

    def __init__(self, instance: LoraInstance, tasks: np.ndarray, start: np.ndarray,
                 vendor_cost: np.ndarray, label: np.ndarray,
                 compute_room: np.ndarray, memory_room: np.ndarray) -> None:
        self.instance, self.tasks, self.start = instance, tasks, start
        n = tasks.size
        n_class = int(label.max()) + 1
        self.label, self.n_class = label, n_class
        self.members = [np.nonzero(label == c)[0] for c in range(n_class)]
        rep = np.array([m[0] for m in self.members])
        self.rep = rep
        # class capacity rows: sum of node rooms (relaxation of per-node packing)
        self.class_compute = np.stack([compute_room[m].sum(axis=0) for m in self.members])
        self.class_memory = np.stack([memory_room[m].sum(axis=0) for m in self.members])
        max_compute = np.stack([compute_room[m].max(axis=0) for m in self.members])
        max_memory = np.stack([memory_room[m].max(axis=0) for m in self.members])
        use, price = instance.energy_factors()
        s = instance.throughput[tasks][:, rep]  # (task, class)
        r = instance.memory_need[tasks]
        col_task, col_class, col_slot = [], [], []
        for j in range(n):
            lo, hi = int(start[j]), int(instance.deadline[tasks[j]])
            if lo > hi:
                continue
            ts = np.arange(lo, hi + 1)
            for c in range(n_class):
                if s[j, c] <= 0:
                    continue
                fits = (max_compute[c, ts] >= s[j, c] * (1 - _EPS)) & (max_memory[c, ts] >= r[j] * (1 - _EPS))
                ok = ts[fits]
                col_task.append(np.full(ok.size, j))
                col_class.append(np.full(ok.size, c))
                col_slot.append(ok)
        cat = lambda parts: np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)  # noqa: E731
        self.col_task, self.col_class, self.col_slot = cat(col_task), cat(col_class), cat(col_slot)
        self.n_cells = self.col_task.size
        self.size = s[self.col_task, self.col_class]
        self.memory = r[self.col_task]
        self.energy = use[tasks[self.col_task], rep[self.col_class]] * price[rep[self.col_class], self.col_slot]
        self.vendor_cost = vendor_cost
        self.work = instance.work[tasks].astype(float)
        best = np.zeros(n)
        np.maximum.at(best, self.col_task, self.size)
        self.fewest = np.where(best > 0, np.ceil(self.work / np.where(best > 0, best, 1) - 1e-9), 0)
        # a node whose room is below every candidate's need at (c, t) hosts nothing there:
        # leave its room out of the class row (still a relaxation of the node program)
        T = instance.num_slots
        key = self.col_class * T + self.col_slot
        small_c = np.full(n_class * T, np.inf)
        small_m = np.full(n_class * T, np.inf)
        np.minimum.at(small_c, key, self.size)
        np.minimum.at(small_m, key, self.memory)
        small_c, small_m = small_c.reshape(n_class, T), small_m.reshape(n_class, T)
        for c, mem in enumerate(self.members):
            usable = (compute_room[mem] >= small_c[c] * (1 - _EPS)) & (memory_room[mem] >= small_m[c] * (1 - _EPS))
            self.class_compute[c] = np.where(usable, compute_room[mem], 0.0).sum(axis=0)
            self.class_memory[c] = np.where(usable, memory_room[mem], 0.0).sum(axis=0)
        done = np.zeros(n)
        np.add.at(done, self.col_task, self.size)
        self.can_run = done >= self.work * (1 - 1e-9)  # enough cells for the work at all

    # ------------------------------------------------------------------ rows
    def matrix(self, objective: str, compute_rhs: np.ndarray, memory_rhs: np.ndarray,
               ) -> tuple[int, sp.csr_matrix, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(number of columns, A, row lb, row ub, col lb, col ub); columns y | u | (C)."""
        n, m = self.tasks.size, self.n_cells
        jct = objective == "jct"
        n_cols = m + n + (n if jct else 0)
        u0 = m
        rows, cols, vals, lb, ub = [], [], [], [], []
        r = 0

        def add(rr: np.ndarray, cc: np.ndarray, vv: np.ndarray) -> None:
            rows.append(rr)
            cols.append(cc)
            vals.append(vv)

        cells = np.arange(m)
        # (4e) work: sum s y - M u >= 0
        add(r + self.col_task, cells, self.size)
        add(r + np.arange(n), u0 + np.arange(n), -self.work)
        lb.append(np.zeros(n))
        ub.append(np.full(n, np.inf))
        r += n
        # min_slots cut: sum y - fewest u >= 0
        add(r + self.col_task, cells, np.ones(m))
        add(r + np.arange(n), u0 + np.arange(n), -self.fewest)
        lb.append(np.zeros(n))
        ub.append(np.full(n, np.inf))
        r += n
        # (4b) + run only if admitted: sum_c y_ict - u_i <= 0, one row per (task, slot)
        T = self.instance.num_slots
        key = self.col_task * T + self.col_slot
        uniq, row_of = np.unique(key, return_inverse=True)
        k = uniq.size
        add(r + row_of, cells, np.ones(m))
        add(r + np.arange(k), u0 + uniq // T, -np.ones(k))
        lb.append(np.full(k, -np.inf))
        ub.append(np.zeros(k))
        r += k
        # (4f), (4g) per (class, slot) used by some cell
        ckey = self.col_class * T + self.col_slot
        cuniq, crow = np.unique(ckey, return_inverse=True)
        kc = cuniq.size
        add(r + crow, cells, self.size)
        lb.append(np.full(kc, -np.inf))
        ub.append(compute_rhs[cuniq // T, cuniq % T])
        r += kc
        add(r + crow, cells, self.memory)
        lb.append(np.full(kc, -np.inf))
        ub.append(memory_rhs[cuniq // T, cuniq % T])
        r += kc
        if jct:
            c0 = m + n
            # C_i - t sum_c y_ict >= 0 per (task, slot)
            add(r + row_of, cells, -self.col_slot.astype(float))
            add(r + np.arange(k), c0 + uniq // T, np.ones(k))
            lb.append(np.zeros(k))
            ub.append(np.full(k, np.inf))
            r += k
            # C_i - (start_i + fewest_i - 1) u_i >= 0
            add(r + np.arange(n), c0 + np.arange(n), np.ones(n))
            add(r + np.arange(n), u0 + np.arange(n), -(self.start + self.fewest - 1).astype(float))
            lb.append(np.zeros(n))
            ub.append(np.full(n, np.inf))
            r += n
            # C_i - sum_ct y_ict - (start_i - 1) u_i >= 0: the slots used are distinct, from start_i on
            add(r + self.col_task, cells, -np.ones(m))
            add(r + np.arange(n), c0 + np.arange(n), np.ones(n))
            add(r + np.arange(n), u0 + np.arange(n), -(self.start - 1).astype(float))
            lb.append(np.zeros(n))
            ub.append(np.full(n, np.inf))
            r += n
        A = sp.csr_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(r, n_cols)
        )
        col_lb = np.zeros(n_cols)
        col_ub = np.ones(n_cols)
        col_ub[u0:u0 + n] = self.can_run.astype(float)
        if jct:
            col_ub[m + n:] = float(T)
        return n_cols, A, np.concatenate(lb), np.concatenate(ub), col_lb, col_ub


def _milp(cost: np.ndarray, n_int: int, A: sp.csr_matrix, lb: np.ndarray, ub: np.ndarray,
          col_lb: np.ndarray, col_ub: np.ndarray, time_limit: float | None, mip_gap: float | None,
          start: np.ndarray | None = None, engine: Engine = "scipy",
          ) -> tuple[str, np.ndarray | None, float, float]:
    """Minimise ``cost @ x`` (the first ``n_int`` columns integer) on HiGHS through
    :func:`aisched.solvers.highs.solve_milp`; (status, x, objective, dual bound), the
    dual bound ``-inf`` when HiGHS proved none (``SolverResult.bound_or_trivial``).

    ``engine="scipy"``: ``scipy.optimize.milp`` (HiGHS bundled with SciPy; no
    starting point). ``engine="highspy"``: HiGHS through ``highspy``, given
    ``start`` (a feasible point) as its first incumbent. Status ``"optimal"``,
    ``"time_limit"`` (an incumbent, not proved) or ``"failed"`` (none; objective ``inf``).
    """
    integrality = np.zeros(cost.size)
    integrality[:n_int] = 1
    tic = time.perf_counter()
    res = solve_milp(cost, A, lb, ub, col_lower=col_lb, col_upper=col_ub, integrality=integrality,
                     time_limit=time_limit, mip_gap=mip_gap, start=start, engine=engine)
    if _TRACE:  # pragma: no cover - debugging aid
        print(f"    {engine} {cost.size} cols {A.shape[0]} rows: {time.perf_counter() - tic:.2f} s {res.message}")
    x = res.solution
    status = "optimal" if res.status is Status.OPTIMAL else ("time_limit" if x is not None else "failed")
    return status, x, (res.objective if x is not None else np.inf), res.bound_or_trivial


def _solve_program(prog: _Program, objective: str, time_limit: float | None, mip_gap: float | None,
                   budget: str = "limit", jct_form: str = "completion",
                   rooms: tuple[np.ndarray, np.ndarray] | None = None,
                   ) -> tuple[str, np.ndarray | None, tuple[float, float]]:
    """Solve a class program; (solver status, x, bound) with bound the welfare
    upper bound, or (count upper bound, total JCT lower bound at that count).

    ``budget="limit"``: every solve on ``scipy.optimize.milp`` with ``time_limit``.
    ``budget="sized"``: ``highspy``; the count stage as above (``time_limit``),
    the JCT stage limited to a time tied to the program's size
    (:func:`~aisched.online.lora.titan.sized.sized_limit`, at most ``time_limit``) and started from the count
    stage's plan (feasible for it: same rows, the count row holds), so a stop
    at the limit keeps a plan at least as good as that one.
    ``budget="warm"``: the count stage as ``"limit"`` (SciPy), the JCT stage on
    ``highspy`` with ``time_limit``, started from the count stage's plan.
    ``jct_form``: how stage 2 writes the JCT (see :func:`solve_slot`).
    ``rooms``: the (compute, memory) rooms the program was built on; when stage 1
    stops at its limit (not proved) with fewer tasks than the earliest-finish plan of
    :func:`~aisched.online.lora.titan.greedy.greedy_rows` on them, the result is
    ``("greedy", node rows of that plan, (count bound, -inf))``: the caller commits
    that node plan as it is (no stage 2, no packing). Slots whose stage 1 is proved
    optimal are never affected (the plan is feasible, so an optimum has as many tasks).
    """
    instance, tasks, n, m = prog.instance, prog.tasks, prog.tasks.size, prog.n_cells
    n_cols, A, lb, ub, col_lb, col_ub = prog.matrix(objective, prog.class_compute, prog.class_memory)
    n_int = m + n
    engine = "highspy" if budget == "sized" else "scipy"  # the count stage (and welfare)
    engine2 = "scipy" if budget == "limit" else "highspy"  # the JCT stage
    limit = time_limit
    cost = np.zeros(n_cols)
    if objective == "welfare":
        cost[:m] = prog.energy
        cost[m:m + n] = -(instance.bid[tasks] - prog.vendor_cost)
        st, x, _, bnd = _milp(cost, n_int, A, lb, ub, col_lb, col_ub, limit, mip_gap, engine=engine)
        return st, x, (-bnd, 0.0)
    cost[m:m + n] = -1.0
    st, x, fun, bnd = _milp(cost, n_int, A, lb, ub, col_lb, col_ub, limit, mip_gap, engine=engine)
    if st != "optimal" and rooms is not None:  # stopped at the limit: compare the fallback (titan.greedy)
        rows, placed = greedy_rows(instance, tasks, prog.start, prog.fewest, *rooms)
        if placed.any() and placed.sum() > (round(-fun) if x is not None else 0):  # an empty plan is no fallback
            count_bound = float(np.floor(-bnd + 1e-6)) if np.isfinite(bnd) else float(n)
            return "greedy", rows, (count_bound, -np.inf)
    if x is None:
        return st, None, (np.inf, -np.inf)
    count = int(round(-fun))
    count_bound = float(np.floor(-bnd + 1e-6))
    # stage 2: at least `count` tasks, least total JCT = sum_i (C_i - a_i + 1) u_i
    A2 = sp.vstack([A, sp.csr_matrix(
        (np.ones(n), (np.zeros(n, np.int64), m + np.arange(n))), shape=(1, n_cols))]).tocsr()
    cost2 = np.zeros(n_cols)
    cost2[m + n:] = 1.0
    cost2[m:m + n] = 1.0 - instance.arrival[tasks]
    start = None
    if jct_form != "completion":  # same stage 2 on still-running indicators (titan.running)
        A2, lb2, ub2, col_lb, col_ub, cost2, start = running_stage(prog, A, lb, ub, col_lb, col_ub, x, count,
                                                                     jct_form, engine2)
        n_cols = cost2.size
    else:
        lb2, ub2 = np.append(lb, count - 0.5), np.append(ub, np.inf)
        if engine2 == "highspy":  # stage 1's plan, integers rounded, C_i at its least value
            start = np.round(x)
            start[m + n:] = least_completion(prog.col_task, prog.col_slot, prog.start, prog.fewest,
                                             start[:m], start[m:m + n])
    limit2 = sized_limit(n_cols, time_limit) if budget == "sized" else limit
    # running forms: z integer too (0/1 at every optimum anyway), so the JCT is integral on
    # integer columns and HiGHS rounds its bound up to the next whole slot
    n_int2 = cost2.size if jct_form != "completion" else n_int
    st2, x2, _, bnd2 = _milp(cost2, n_int2, A2, lb2, ub2, col_lb, col_ub, limit2, mip_gap,
                             start=start, engine=engine2)
    if x2 is None:  # keep stage 1's plan, JCT unproven
        return "time_limit", x, (count_bound, -np.inf)
    return (st2 if st == "optimal" else st), x2, (count_bound, bnd2)


def solve_slot(
    instance: LoraInstance,
    tasks: np.ndarray,
    start: np.ndarray,
    vendor_cost: np.ndarray,
    compute_room: np.ndarray,
    memory_room: np.ndarray,
    *,
    objective: str = "jct",
    formulation: str = "classes",
    time_limit: float | None = 30.0,
    mip_gap: float | None = 1e-4,
    repair_rounds: int = 2,
    budget: str = "limit",
    jct_form: str = "completion",
    fallback: bool = True,
) -> SlotResult:
    """Solve one slot's program (see the module docstring).

    Parameters
    ----------
    instance
        The whole problem (tasks are indices into it).
    tasks
        Indices of the slot's tasks.
    start
        (len(tasks),) earliest slot of each task: arrival plus the drawn vendor's
        delay when it needs pre-processing (4c).
    vendor_cost
        (len(tasks),) ``q_in`` of the drawn vendor (0 without pre-processing).
    compute_room, memory_room
        (node, slot) residual compute (samples) and adapter memory (GB, after
        the base model ``r_b``) left by committed tasks; not modified.
    objective, formulation, time_limit, mip_gap, repair_rounds
        See :func:`aisched.online.lora.titan.run`. ``time_limit`` bounds each
        solve (two per round for ``"jct"``).
    budget
        ``"limit"`` (each solve ``time_limit``, SciPy) or ``"sized"`` (HiGHS
        via ``highspy``, limits tied to the program's size, warm-started JCT
        stage; see :func:`_solve_program`) or ``"warm"`` (the count stage as
        ``"limit"``, the JCT stage on ``highspy`` with ``time_limit`` from the
        count stage's plan). Same program either way.
    jct_form
        ``"completion"`` (default), ``"running"`` or ``"running_work"``: how the
        JCT stage writes each task's last slot
        (:mod:`~aisched.online.lora.titan.running`). Same program either way.
    fallback
        Compare a stopped count stage with the greedy plan (``count_fallback``).

    Notes
    -----
    Repair: after a failed packing, the tasks whose cells all packed are kept
    (their use is taken from the rooms) and the program is solved again for
    the others only, at most ``repair_rounds`` times; tasks still unpacked
    after that are not scheduled. The first round's bound stays valid for the
    node program of all the slot's tasks.
    """
    tic = time.perf_counter()
    n, T = tasks.size, instance.num_slots
    node = np.full((n, T), -1, np.int64)
    admitted = np.zeros(n, bool)
    compute_room = compute_room.copy()
    memory_room = memory_room.copy()
    active = np.arange(n)
    first_bound: tuple[float, float] | None = None
    timed_out = False
    rounds = 0
    failed_cells = 0
    greedy_plan = 0  # tasks of a stage-1 fallback plan (titan.greedy)
    status = "optimal"
    while active.size:
        sub = tasks[active]
        label = node_classes(instance, sub, formulation)
        prog = _Program(instance, sub, start[active], vendor_cost[active], label, compute_room, memory_room)
        if prog.n_cells == 0 or not prog.can_run.any():
            if first_bound is None:
                first_bound = (0.0, 0.0)
            break
        rounds += 1
        st, x, bound = _solve_program(prog, objective, time_limit, mip_gap, budget, jct_form,
                                      rooms=(compute_room, memory_room) if fallback else None)
        if first_bound is None:
            first_bound = bound
        if st == "greedy":  # the stage-1 solve stopped below the earliest-finish plan: commit that plan
            placed = x.max(axis=1) >= 0
            node[active[placed]] = x[placed]
            admitted[active[placed]] = True
            greedy_plan = int(placed.sum())
            active = active[:0]
            break
        if x is None:
            if rounds == 1:
                status = "failed"
            break
        timed_out |= st != "optimal"
        sub_node, failed, _ = pack_cells(prog, x[:prog.n_cells], compute_room, memory_room)
        sub_admitted = x[prog.n_cells:prog.n_cells + active.size] > 0.5
        bad = np.zeros(active.size, bool)
        for j, _c, _t in failed:
            bad[j] = True
        failed_cells += len(failed)
        if _TRACE:  # pragma: no cover - debugging aid
            print(f"  round {rounds}: {active.size} tasks, {len(failed)} cells did not pack")
        keep = sub_admitted & ~bad
        node[active[keep]] = sub_node[keep]
        admitted[active[keep]] = True
        kept = np.where(keep[:, None], sub_node, -1)
        kk, tt = np.nonzero(kept >= 0)
        np.subtract.at(compute_room, (kept[kk, tt], tt), instance.throughput[sub[kk], kept[kk, tt]])
        np.subtract.at(memory_room, (kept[kk, tt], tt), instance.memory_need[sub[kk]])
        active = active[sub_admitted & bad]  # re-solve only the admitted tasks that did not pack
        if rounds > repair_rounds:
            break
    greedy = 0
    if active.size and status != "failed":  # still unpacked: earliest-finish placement on nodes
        for j in active:
            row = earliest_finish(instance, int(tasks[j]), int(start[j]), compute_room, memory_room)
            if row is not None:
                node[j], admitted[j] = row, True
                greedy += 1
    out = SlotResult(node, admitted, status, 0.0, 0.0, rounds=rounds)
    out.detail["greedy_tasks"] = greedy + greedy_plan
    out.detail["fallback_tasks"] = greedy_plan  # committed from a stopped count stage's fallback plan
    runs = node >= 0
    ii, tt = np.nonzero(runs)
    use, price = instance.energy_factors()
    energy = float(np.sum(use[tasks[ii], node[ii, tt]] * price[node[ii, tt], tt]))
    welfare = float(np.sum((instance.bid[tasks] - vendor_cost)[admitted])) - energy
    last = np.where(runs.any(axis=1), T - 1 - np.argmax(runs[:, ::-1], axis=1), -1)
    jct = float(np.sum((last - instance.arrival[tasks] + 1)[admitted]))
    out.count, out.total_jct = int(admitted.sum()), jct
    if first_bound is None:
        first_bound = (0.0, 0.0)
    gap = mip_gap or 0.0
    if objective == "welfare":
        out.objective, out.bound = welfare, float(first_bound[0])
        proved = welfare >= out.bound - max(abs(out.bound), 1.0) * gap - 1e-6
        out.detail["gap"] = max(out.bound - welfare, 0.0) / max(abs(out.bound), 1.0)
    else:
        cb, jb = first_bound
        out.objective, out.bound = float(out.count), float(cb)
        out.detail["jct_bound"] = float(jb)
        proved = out.count >= cb and jct <= jb + max(abs(jb), 1.0) * gap + 1e-6
        if out.count < cb:  # short of the provable count: the share of tasks that may be missing
            out.detail["gap"] = (cb - out.count) / max(cb, 1.0)
        else:  # the count is proved; how far the total JCT may be above the optimum
            out.detail["gap"] = max(jct - jb, 0.0) / max(abs(jct), 1.0) if np.isfinite(jb) else np.inf
    out.detail.update(welfare=welfare, total_jct=jct, failed_cells=failed_cells)
    if status != "failed":
        if rounds == 0:
            out.status = "empty"
        elif proved:
            out.status = "optimal"
        elif rounds > 1 or greedy_plan:
            out.status = "heuristic"
        else:
            out.status = "gap"
    out.seconds = time.perf_counter() - tic
    return out
