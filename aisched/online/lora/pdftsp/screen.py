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

Plain NumPy, vectorised over nodes and slots (a loop over the few options): one
call costs about 0.28 ms of CPU on a 50-node, 144-slot day, against 0.85-0.95 ms for
the same bound as a jitted JAX function, whose dispatch and x64 switch dominate at
this size (``benchmarks/bench_pdftsp.py``). Nothing to compile, so nothing
to recompile. :func:`surplus_bound_reference` computes it slot by slot (the tests' oracle).
"""

from __future__ import annotations

import numpy as np

__all__ = ["surplus_bound", "surplus_bound_reference", "TOLERANCE"]

#: Relative margin: a task is screened out only when every option's bound is below
#: ``-TOLERANCE * (|b| + |q| + cost bound)``, far above the rounding of F or the bound.
TOLERANCE = 1e-9

_INF = np.inf


def surplus_bound(compute_price, memory_price, energy_price, energy_use, throughput, throughput_units,
                  memory_need: float, work_units: int, start, deadline: int, fee, valid, bid: float,
                  ) -> tuple[np.ndarray, bool]:
    """Upper bound ``U_n`` (N,) on F (10) of every schedule of each option, and whether the
    task is screened out (every ``U_n`` below ``-tol`` or ``-inf``).

    Arguments as :func:`aisched.online.lora.pdftsp.kernel.select_cell_prices` without the
    node groups (``start`` (N,) first usable slot per option, ``deadline`` inclusive).
    """
    cp, mp, ep = compute_price, memory_price, energy_price
    n_slots = cp.shape[1]
    hi = min(int(deadline), n_slots - 1)
    st = np.clip(np.asarray(start), 0, n_slots)
    valid = np.asarray(valid, bool)
    out = np.full(st.shape[0], -_INF)
    units = np.asarray(throughput_units)
    rows = np.nonzero(units > 0)[0]
    live = np.nonzero(valid & (st <= hi))[0]
    if live.size == 0 or rows.size == 0:
        return out, True
    lo = int(st[live].min())
    need = int(work_units)
    u = np.minimum(units[rows], need).astype(float)  # the DP's units are capped at W_i
    cols = slice(lo, hi + 1)
    delta = (np.asarray(throughput, float)[rows, None] * cp[rows, cols] + memory_need * mp[rows, cols]
             + np.asarray(energy_use, float)[rows, None] * ep[rows, cols])  # Delta_kt of (13)
    rho = (delta / u[:, None]).min(axis=0)  # cheapest per-unit cell of each slot
    cheapest = delta.min(axis=0)  # cheapest cell of each slot
    u_max = u.max()
    full = int(need // u_max)  # slots filled to u_max, then `rest` units in the next one
    rest = need - full * u_max
    count = -(-need // int(u_max))  # fewest slots of any schedule
    screened = True
    for n in live:
        a = int(st[n]) - lo
        if (hi + 1 - int(st[n])) * u_max < need:
            continue  # no schedule gathers W_i units by the deadline: -inf, as the DP's
        by_unit, by_slot = np.sort(rho[a:]), np.sort(cheapest[a:])
        knapsack = u_max * by_unit[:full].sum() + (rest * by_unit[full] if rest > 0 else 0.0)
        cost = max(knapsack, by_slot[:count].sum())
        out[n] = bid - fee[n] - cost
        if out[n] >= -TOLERANCE * (abs(bid) + abs(fee[n]) + cost):
            screened = False
    return out, screened


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

