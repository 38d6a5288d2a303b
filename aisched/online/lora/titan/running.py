"""Titan's JCT stage with "still running" indicators (``jct_form="running"``).

:mod:`aisched.online.lora.titan.model` solves each slot's program in two stages: (1)
the most tasks, (2) at that count the least total JCT ``sum_i (C_i - a_i + 1) u_i``
with ``C_i`` the task's last slot. Its default (``jct_form="completion"``) writes the
last slot with one continuous ``C_i`` per task and the rows

    C_i >= t * sum_c y_ict                      (every slot t of a cell of i)
    C_i >= (start_i + fewest_i - 1) u_i
    C_i >= sum_ct y_ict + (start_i - 1) u_i

whose LP relaxation is weak: a fractional ``y_ict`` of a late slot costs only its
fraction of ``t``. This module writes the same last slot with per-slot indicators
``z_it`` ("task i still runs at or after slot t"), defined for the slots ``t`` in
``[start_i + fewest_i, last_i]`` (``last_i`` the task's last slot with a cell;
``fewest_i`` the fewest slots that can do its work, ``titan.model._Program.fewest``):

    z_it - sum_c y_ict >= 0                     (it runs at t, so it runs at or after t)
    z_it - z_i,t+1     >= 0                     (monotone: runs after t+1 => runs after t)
    W_i z_it - W_i u_i + sum_{t' < t, c} s_ic y_ict' >= 0       (``"running_work"`` only:
                                                 its work W_i is not done before t)

    JCT_i = (start_i + fewest_i - a_i) u_i + sum_t z_it,      z_it in {0, 1}.

Same optimisation problem (proof). Both forms keep every row of the slot program on
``(y, u)`` ((4b)-(4g) on classes, the count row) and add only rows that involve their
own auxiliary columns, so it suffices that for every feasible ``(y, u)`` the least
auxiliary part gives the same total JCT, ``sum_i (L_i - a_i + 1) u_i`` with ``L_i``
the last slot of task i's cells (then the projections onto ``(y, u)`` are the same set,
and the objectives agree on it, so both stages have the same optimal value and the same
optimal ``(y, u)``).

- Completion form: a task with ``u_i = 0`` has no cell ((4b) rows ``sum_c y_ict <= u_i``),
  so ``C_i >= 0`` is its least value and it adds 0. With ``u_i = 1`` the least ``C_i`` is
  ``max(L_i, start_i + fewest_i - 1, n_i + start_i - 1)``, ``n_i`` its number of slots;
  its slots are distinct, all in ``[start_i, L_i]``, and at least ``fewest_i`` of them
  (the min-slots row), so ``L_i >= n_i + start_i - 1 >= start_i + fewest_i - 1`` and the
  least is ``L_i``: JCT ``L_i - a_i + 1``.
- Running form: with ``u_i = 0`` every ``y_ict = 0``, ``z = 0`` is feasible (the work row
  reads ``W_i z_it >= 0``) and least, adding 0. With ``u_i = 1`` the rows force
  ``z_it >= max_{t' >= t} sum_c y_ict'``, which is 1 exactly for ``t <= L_i``; ``z_it = 1[t <=
  L_i]`` meets the monotone rows and the work rows (for ``t > L_i`` every cell of i lies
  before t, so ``sum_{t'<t} s y >= W_i`` by (4e)). So the least ``sum_t z_it`` is ``L_i -
  (start_i + fewest_i) + 1`` (``L_i >= start_i + fewest_i - 1`` as above) and
  ``JCT_i = start_i + fewest_i - a_i + L_i - start_i - fewest_i + 1 = L_i - a_i + 1``.

The least ``z`` is 0/1, so declaring ``z`` integer cuts nothing off; it makes the JCT an
integer-valued function of integer columns only (its costs ``start_i + fewest_i - a_i`` and
1 are whole numbers), so HiGHS rounds its dual bound up to the next whole slot and proves
a plan optimal once the bound passes ``JCT - 1``. That, more than the tighter rows, is what
closes the JCT stage: on Fig. 4's 50-node slots the completion form's stage 2 stops at its
time limit one or two slots above a bound it cannot raise (651 against 649 after 58 s),
while the running form proves 650 in about 2 s (docs/readings/lora.md, L8, "Titan's day").
The rows themselves are not much tighter: the two forms' dual bounds after the same search
were close on the slot measured (649.00 and 649.08); no dominance of one LP bound over
the other is claimed here. Tested against the brute force
and against the completion form on random tiny slots (``tests/online/lora/test_titan_running.py``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["JCT_FORMS", "running_rows", "running_stage", "running_start"]

#: ``"completion"``: ``C_i >= t y`` (the form of every scenario); ``"running"``: still-running
#: indicators (integer); ``"running_work"``: the same with the work rows.
JCT_FORMS = ("completion", "running", "running_work")


def _z_index(col_task: np.ndarray, col_slot: np.ndarray, start: np.ndarray, fewest: np.ndarray,
             can_run: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(task, slot) of every ``z`` column, tasks in order, slots increasing."""
    n = start.size
    last = np.full(n, -1, np.int64)
    np.maximum.at(last, col_task, col_slot)
    tasks, slots = [], []
    for i in range(n):
        if not can_run[i] or fewest[i] < 1:
            continue
        lo = int(start[i] + fewest[i])
        if lo > last[i]:
            continue
        ts = np.arange(lo, last[i] + 1)
        tasks.append(np.full(ts.size, i))
        slots.append(ts)
    cat = lambda parts: np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)  # noqa: E731
    return cat(tasks), cat(slots)


def running_rows(prog, arrival: np.ndarray, work_rows: bool,
                 ) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """The running form's extra columns and rows for program ``prog`` (``titan.model._Program``).

    Parameters
    ----------
    prog
        The slot's class program (cells ``col_task``, ``col_slot``, ``size``; ``start``,
        ``fewest``, ``work``, ``can_run``).
    arrival
        (task of the slot,) arrival slot ``a_i``.
    work_rows
        Add the work rows (``"running_work"``).

    Returns
    -------
    block, lb, ub, cost, (z_task, z_slot)
        ``block``: rows over columns ``y | u | z`` (``m + n + nz``); ``lb``, ``ub`` its row
        bounds; ``cost``: the JCT objective over ``y | u | z`` (``sum_i JCT_i``); the
        (task, slot) of each ``z``.
    """
    n, m = prog.tasks.size, prog.n_cells
    z_task, z_slot = _z_index(prog.col_task, prog.col_slot, prog.start, prog.fewest, prog.can_run)
    nz = z_task.size
    z0 = m + n
    T = prog.instance.num_slots
    rows, cols, vals, lb = [], [], [], []
    r = 0
    # link: z_it - sum_c y_ict >= 0, one row per z
    rows.append(np.arange(nz))
    cols.append(z0 + np.arange(nz))
    vals.append(np.ones(nz))
    key = prog.col_task * T + prog.col_slot
    z_key = z_task * T + z_slot
    where = np.searchsorted(z_key, key)  # z_key is sorted (tasks in order, slots increasing)
    hit = (where < nz) & (z_key[np.minimum(where, max(nz - 1, 0))] == key) if nz else np.zeros(m, bool)
    rows.append(where[hit])
    cols.append(np.nonzero(hit)[0])
    vals.append(-np.ones(int(hit.sum())))
    lb.append(np.zeros(nz))
    r += nz
    # monotone: z_it - z_i,t+1 >= 0
    nxt = np.nonzero((z_task[:-1] == z_task[1:]))[0] if nz > 1 else np.zeros(0, np.int64)
    k = nxt.size
    rows += [r + np.arange(k), r + np.arange(k)]
    cols += [z0 + nxt, z0 + nxt + 1]
    vals += [np.ones(k), -np.ones(k)]
    lb.append(np.zeros(k))
    r += k
    if work_rows:
        # W_i z_it - W_i u_i + sum_{t' < t} s y_ict' >= 0
        for q in range(nz):
            i, t = int(z_task[q]), int(z_slot[q])
            before = np.nonzero((prog.col_task == i) & (prog.col_slot < t))[0]
            rows += [np.full(before.size + 2, r)]
            cols += [np.concatenate([before, [z0 + q, m + i]])]
            vals += [np.concatenate([prog.size[before], [prog.work[i], -prog.work[i]]])]
            lb.append(np.zeros(1))
            r += 1
    block = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                          shape=(r, m + n + nz))
    lb_all = np.concatenate(lb) if lb else np.zeros(0)
    cost = np.zeros(m + n + nz)
    cost[m:m + n] = prog.start + prog.fewest - arrival
    cost[z0:] = 1.0
    return block, lb_all, np.full(r, np.inf), cost, (z_task, z_slot)


def running_start(prog, y: np.ndarray, u: np.ndarray, z_task: np.ndarray, z_slot: np.ndarray) -> np.ndarray:
    """Least ``z`` for cells ``y`` and admissions ``u``: ``z_it = 1[t <= L_i]`` for admitted
    tasks (a feasible starting point of the running form, see the module docstring)."""
    n = prog.tasks.size
    last = np.full(n, -1, np.int64)
    used = y > 0.5
    np.maximum.at(last, prog.col_task[used], prog.col_slot[used])
    return ((u[z_task] > 0.5) & (z_slot <= last[z_task])).astype(float)


def running_stage(prog, A: sp.csr_matrix, lb: np.ndarray, ub: np.ndarray, col_lb: np.ndarray,
                  col_ub: np.ndarray, x: np.ndarray, count: int, jct_form: str, engine: str) -> tuple:
    """Stage 2 in the running form for ``titan.model._solve_program``.

    ``A``, ``lb``, ``ub``: the count stage's rows (completion form); its rows on
    ``y | u`` are kept (the ``C`` columns and their rows dropped), the still-running
    rows of :func:`running_rows` and the count row ``sum_i u_i >= count`` added.
    ``col_lb``, ``col_ub``: the count stage's column bounds; those of ``y | u`` are
    kept and each ``z`` is binary.
    ``x``: the count stage's solution, the starting point when ``engine`` is
    ``"highspy"``. Returns (A2, row lb, row ub, col lb, col ub, cost, start or None).
    """
    n, m = prog.tasks.size, prog.n_cells
    keep = np.asarray((abs(A[:, m + n:]).sum(axis=1) == 0)).ravel()  # rows without a C_i
    base = A[keep][:, :m + n]
    block, blb, bub, cost, (z_task, z_slot) = running_rows(
        prog, prog.instance.arrival[prog.tasks].astype(float), jct_form == "running_work")
    nz = z_task.size
    count_row = sp.csr_matrix((np.ones(n), (np.zeros(n, np.int64), m + np.arange(n))), shape=(1, m + n + nz))
    A2 = sp.vstack([sp.hstack([base, sp.csr_matrix((base.shape[0], nz))]), block, count_row]).tocsr()
    lb2 = np.concatenate([lb[keep], blb, [count - 0.5]])
    ub2 = np.concatenate([ub[keep], bub, [np.inf]])
    col_lb2 = np.concatenate([col_lb[:m + n], np.zeros(nz)])
    col_ub2 = np.concatenate([col_ub[:m + n], np.ones(nz)])
    start = None
    if engine == "highspy":  # stage 1's plan, integers rounded, z at its least value
        yu = np.round(x[:m + n])
        start = np.concatenate([yu, running_start(prog, yu[:m], yu[m:], z_task, z_slot)])
    return A2, lb2, ub2, col_lb2, col_ub2, cost, start
