"""Algorithm 2 as printed: DP (13) whose cell cost uses the running maxima of (12c)-(12d).

Algorithm 2 (lines 8-15) runs, per labour-vendor option ``n``, the forward DP

    dp[t, w] = min{ dp[t-1, w],  min_k dp[t-1, w - s_ik] + Delta_kt }          (13)

with ``dp[t, 0] = 0`` and ``lambda-hat = phi-hat = 0`` at the start (line 9),
and line 13 computes

    Delta_kt = s_ik * lambda-hat_kt + r_i * phi-hat_kt + e_ikt,

"based on ``dp[t-1, w - s_ik]`` and ``lambda_kt^(i-1)``, ``phi_kt^(i-1)``":
``lambda-hat`` and ``phi-hat`` are the variables of (12c)-(12d), the largest
dual price on the schedule. Here they are carried with each DP state: the
state reached from ``dp[t-1, w - s_ik]`` through cell ``(k, t)`` has

    lambda-hat[t, w] = max(lambda-hat[t-1, w - s_ik], lambda_kt)
    phi-hat[t, w]    = max(phi-hat[t-1, w - s_ik],    phi_kt)

and an idle slot keeps the predecessor's maxima. Each cell is thus priced at
the running maxima of the path up to and including it. This DP is a
heuristic for (12) (a cell is not re-priced when a later cell raises the
maximum), as the paper prints it; :func:`aisched.online.lora.pdftsp_kernel.select_exact`
maximises (10) exactly and ``select_cell_prices`` prices each cell at its own
duals. The option of largest true F (10) wins (line 5), as in the other modes.

Conventions as in :mod:`aisched.online.lora.pdftsp_kernel` (0-based slots,
virtual base row so slot ``a_i + h_in`` is usable, ``w - s_ik < 0`` read as 0,
same arguments). Tie-breaking (the NumPy oracle
``pdftsp_reference.select_faithful_reference`` does the same): a state stays
idle when idling costs no more than running; among nodes of equal cost the
lowest index; among options the largest F, then the lowest index.

Two implementations compute the same DP entries with the same operations:
:func:`faithful_options_dense` (this module's kernel) over every node and
every work level, O(N * window * K * W) per task; and the default
:func:`select_faithful` / :func:`faithful_options`, which run
:mod:`aisched.online.lora.pdftsp_fronts` (undominated nodes only, reachable
work levels only; exact, see there). Both are tested against the oracle.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from aisched.online.lora import pdftsp_fronts as fronts
from aisched.online.lora.pdftsp_kernel import ScheduleChoice, _arrays, _choose, _prepare, _Task

__all__ = ["select_faithful", "faithful_options", "faithful_options_dense", "cache_size"]

_INF = np.inf


def _forward(task: _Task, units, cell_ok, energy, start, hi, need, w_max: int):
    """One option's forward DP (13) with running maxima; returns (cost, assignment (T,))."""
    n_nodes, n_slots = task.cp.shape
    w = jnp.arange(w_max + 1)
    prev = jnp.maximum(w[None, :] - units[:, None], 0)  # (K, W+1): index of dp[t-1, w - s_ik]
    dp0 = jnp.full(w_max + 1, _INF).at[0].set(0.0)
    zeros = jnp.zeros(w_max + 1)
    choice0 = jnp.full((n_slots, w_max + 1), -1, jnp.int32)

    def body(t, carry):
        dp, lhat, phat, choice = carry
        lam = jnp.maximum(lhat[prev], task.cp[:, t][:, None])  # (K, W+1), line 13
        phi = jnp.maximum(phat[prev], task.mp[:, t][:, None])
        cand = dp[prev] + task.s[:, None] * lam + task.r * phi + energy[:, t][:, None]
        cand = jnp.where(cell_ok[:, t][:, None], cand, _INF)
        k = jnp.argmin(cand, axis=0)  # lowest index on ties
        best = jnp.take_along_axis(cand, k[None, :], axis=0)[0]
        run = best < dp  # idle on ties; dp[0] = 0 <= any cost, so w = 0 stays idle (line 9)
        dp = jnp.where(run, best, dp)
        lhat = jnp.where(run, jnp.take_along_axis(lam, k[None, :], axis=0)[0], lhat)
        phat = jnp.where(run, jnp.take_along_axis(phi, k[None, :], axis=0)[0], phat)
        row = jnp.where(run, k, -1).astype(jnp.int32)
        return dp, lhat, phat, lax.dynamic_update_index_in_dim(choice, row, t, 0)

    dp, _, _, choice = lax.fori_loop(start, jnp.maximum(hi + 1, start), body,
                                     (dp0, zeros, zeros, choice0))
    cost = dp[need]

    def back(i, carry):  # line 16: the schedule achieving dp[d_i, W_i]
        left, assign = carry
        t = hi - i
        k = choice[t, left]
        run = (left > 0) & (k >= 0)
        assign = assign.at[t].set(jnp.where(run, k, -1))
        return jnp.where(run, jnp.maximum(left - units[jnp.maximum(k, 0)], 0), left), assign

    feasible = jnp.isfinite(cost)
    init = (jnp.where(feasible, need, 0), jnp.full(n_slots, -1, jnp.int32))
    assign = lax.fori_loop(0, jnp.maximum(hi - start + 1, 0), back, init)[1]
    return cost, assign


@partial(jax.jit, static_argnames=("max_work_units",))
def _faithful(task: _Task, *, max_work_units: int):
    gu, cell_ok, energy, st, wc, lo, hi = _prepare(task, max_work_units)
    units = jnp.where(task.su > 0, gu[task.group], 0)
    cell_ok = cell_ok & (units > 0)[:, None]
    cost, assign = jax.vmap(
        lambda s: _forward(task, units, cell_ok, energy, s, hi, wc, max_work_units))(st)
    feasible = task.valid & jnp.isfinite(cost)
    assign = jnp.where(feasible[:, None], assign, -1)
    return _choose(assign, feasible, task, energy), jnp.where(task.valid, cost, _INF), assign


def select_faithful(compute_price, memory_price, energy_price, energy_use, throughput,
                    throughput_units, group, group_units, memory_need, work_units, start,
                    deadline, fee, valid, bid, *, max_work_units: int) -> ScheduleChoice:
    """Algorithm 2 as printed (line 13's running maxima), then the option of largest F (10).

    Same arguments as :func:`aisched.online.lora.pdftsp_kernel.select_cell_prices`;
    computed on the fronts of :mod:`~aisched.online.lora.pdftsp_fronts` (NumPy values).
    """
    return faithful_options(compute_price, memory_price, energy_price, energy_use, throughput,
                            throughput_units, group, group_units, memory_need, work_units, start,
                            deadline, fee, valid, bid, max_work_units=max_work_units)[0]


def faithful_options(*args, max_work_units: int) -> tuple[ScheduleChoice, np.ndarray, np.ndarray]:
    """``select_faithful`` plus every option's DP cost ``dp[d_i, W_i]`` (N,) and schedule (N, T)."""
    task = _arrays(*args, max_work_units=max_work_units)
    classes = fronts.node_classes(task.s, task.eu)  # one task: its own throughput and energy use
    front = fronts.Fronts(task.cp, task.mp, task.ep, classes)
    return fronts.select_with_fronts(
        front, task.eu, task.s, np.minimum(task.su, max_work_units), task.r, int(task.need),
        task.start, int(task.deadline), task.fee, task.valid, float(task.bid),
        max_groups=task.gunits.shape[0], max_levels=fronts.level_width(max_work_units))


def faithful_options_dense(*args, max_work_units: int) -> tuple[ScheduleChoice, jax.Array, jax.Array]:
    """The same over every node and work level (the dense kernel; JAX values)."""
    task = _arrays(*args, max_work_units=max_work_units)
    with jax.enable_x64(True):
        return _faithful(task, max_work_units=max_work_units)


def cache_size() -> int:
    """Compiled variants held by both kernels (for no-recompile tests)."""
    return _faithful._cache_size() + fronts.cache_size()
