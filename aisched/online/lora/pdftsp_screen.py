"""An exact screen before Algorithm 2: tasks whose F (10) cannot be positive skip DP (13).

For any schedule ``l`` of task ``i`` under labour-vendor option ``n`` (at most one
node per slot, slots in ``[a_i + h_in, d_i]``, at least ``W_i`` work units),
F (10) is at most the bid less the fee less the schedule's *cell-priced* cost::

    F(il) = b_i - q_in - sum e_kt - max lambda * sum s_ik - max phi * r_i |l|
          <= b_i - q_in - sum_{(k,t) in l} Delta_kt,   Delta_kt = s_ik lambda_kt + r_i phi_kt + e_kt,

since a maximum over the schedule is at least each cell's value. The cell-priced
cost is in turn at least either of two relaxations of DP (13):

* fractional knapsack: a cell gathers ``u_k`` units at ``Delta_kt / u_k`` a unit,
  at most ``u_max`` units a slot, so the cost is at least the ``W_i`` cheapest
  units over the window's slots, each slot priced at its cheapest per-unit cell
  ``rho_t = min_k Delta_kt / u_k`` and holding at most ``u_max`` units;
* slot count: a schedule runs in at least ``ceil(W_i / u_max)`` slots, each
  costing at least ``m_t = min_k Delta_kt``.

So ``U_n = b_i - q_in - max(both) >= F`` of EVERY schedule of option ``n``,
whichever Algorithm 2 (as printed, cell prices, exact) picks. When every option's
``U_n`` is below ``-tol`` (``tol`` a 1e-9 relative margin for rounding), no option
can reach ``F > 0``: Algorithm 1 rejects the task (line 6) and updates no price
((7)-(8) run only when ``F > 0``), whatever the DP would find. Skipping the DP then
changes no decision; what changes is the recorded F, which is ``max_n U_n``, an
upper bound, and is labelled so (``Decision.surplus_is_bound``,
``plan["surplus_is_bound"]``). ``U_n = -inf`` exactly when no schedule of option
``n`` can gather ``W_i`` units by the deadline (the DP's infeasibility).

Jitted with static shapes (K, T, N): one compilation per instance shape.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["surplus_bound", "surplus_bound_reference", "cache_size", "TOLERANCE"]

#: Relative margin: a task is screened out only when every option's bound is below
#: ``-TOLERANCE * (|b| + |q| + cost bound)``, far above the rounding of F or the bound.
TOLERANCE = 1e-9

_INF = np.inf


@jax.jit
def _bound(cp, mp, ep, eu, s, units, r, need, start, deadline, fee, valid, bid):
    n_slots = cp.shape[1]
    usable = units > 0
    u = jnp.minimum(units, need).astype(jnp.float64)  # the DP's units are capped at W_i
    delta = s[:, None] * cp + r * mp + eu[:, None] * ep  # Delta_kt of (13), (K, T)
    rho = jnp.min(jnp.where(usable[:, None], delta / jnp.maximum(u, 1.0)[:, None], _INF), axis=0)
    m = jnp.min(jnp.where(usable[:, None], delta, _INF), axis=0)
    u_max = jnp.max(jnp.where(usable, u, 0.0))
    t = jnp.arange(n_slots)
    hi = jnp.minimum(deadline, n_slots - 1)
    window = (t[None, :] >= start[:, None]) & (t[None, :] <= hi)  # (N, T)
    rho_sorted = jnp.sort(jnp.where(window, rho[None, :], _INF), axis=1)
    m_sorted = jnp.sort(jnp.where(window, m[None, :], _INF), axis=1)
    safe_max = jnp.maximum(u_max, 1.0)
    full = jnp.floor(need / safe_max).astype(jnp.int32)  # slots filled to u_max
    rest = need - full * safe_max  # units in the next slot
    head = jnp.sum(jnp.where(t[None, :] < full, rho_sorted, 0.0), axis=1)
    nxt = jnp.where(full < n_slots, rho_sorted[:, jnp.minimum(full, n_slots - 1)], _INF)
    knapsack = safe_max * head + jnp.where(rest > 0, rest * nxt, 0.0)
    count = jnp.ceil(need / safe_max).astype(jnp.int32)
    slots = jnp.where(count <= n_slots, jnp.sum(jnp.where(t[None, :] < count, m_sorted, 0.0), axis=1), _INF)
    cost = jnp.maximum(knapsack, slots)
    ok = valid & (u_max > 0) & jnp.isfinite(cost)
    bound = jnp.where(ok, bid - fee - cost, -_INF)
    screened = ~ok | (bound < -TOLERANCE * (jnp.abs(bid) + jnp.abs(fee) + jnp.where(ok, cost, 0.0)))
    return bound, jnp.all(screened)


def surplus_bound(compute_price, memory_price, energy_price, energy_use, throughput, throughput_units,
                  memory_need: float, work_units: int, start, deadline: int, fee, valid, bid: float,
                  ) -> tuple[np.ndarray, bool]:
    """Upper bound ``U_n`` (N,) on F (10) of every schedule of each option, and whether the
    task is screened out (every ``U_n`` below ``-tol`` or ``-inf``).

    Arguments as :func:`aisched.online.lora.pdftsp_kernel.select_cell_prices` without the
    node groups (``start`` (N,) first usable slot per option, ``deadline`` inclusive).
    """
    with jax.enable_x64(True):
        bound, screened = _bound(
            np.asarray(compute_price, np.float64), np.asarray(memory_price, np.float64),
            np.asarray(energy_price, np.float64), np.asarray(energy_use, np.float64),
            np.asarray(throughput, np.float64), np.asarray(throughput_units, np.int32),
            np.float64(memory_need), np.int32(work_units), np.asarray(start, np.int32),
            np.int32(deadline), np.asarray(fee, np.float64), np.asarray(valid, np.bool_),
            np.float64(bid))
        return np.asarray(bound), bool(screened)


def surplus_bound_reference(compute_price, memory_price, energy_price, energy_use, throughput,
                            throughput_units, memory_need: float, work_units: int, start, deadline: int,
                            fee, valid, bid: float) -> np.ndarray:
    """The same bound in plain NumPy, slot by slot (the tests' oracle)."""
    cp, mp, ep = (np.asarray(x, float) for x in (compute_price, memory_price, energy_price))
    units = np.minimum(np.asarray(throughput_units), work_units)
    usable = units > 0
    n_slots = cp.shape[1]
    out = np.full(len(start), -np.inf)
    if not usable.any():
        return out
    delta = (np.asarray(throughput, float)[:, None] * cp + memory_need * mp
             + np.asarray(energy_use, float)[:, None] * ep)[usable]
    u = units[usable].astype(float)
    u_max = u.max()
    for n in range(len(start)):
        slots = range(max(int(start[n]), 0), min(int(deadline), n_slots - 1) + 1)
        if not valid[n] or len(slots) * u_max < work_units:
            continue
        rho = sorted(min(delta[:, t] / u) for t in slots)
        m = sorted(min(delta[:, t]) for t in slots)
        left, knapsack = float(work_units), 0.0
        for price in rho:
            take = min(u_max, left)
            knapsack += take * price
            left -= take
            if left <= 0:
                break
        count = -(-int(work_units) // int(u_max))
        out[n] = bid - fee[n] - max(knapsack, sum(m[:count]))
    return out


def cache_size() -> int:
    """Compiled variants of the screen (for no-recompile tests)."""
    return _bound._cache_size()
