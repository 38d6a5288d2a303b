"""Plain NumPy references: the windowed problem (10), AHAP (Algorithm 1) and AHANP (Algorithm 3).

These follow the pseudocode line by line and are what the JAX kernels in
:mod:`~aisched.online.spot.window.kernel` are tested against. Slots are
0-based: the paper's slot ``t`` is ``t - 1`` here, ``Z^exp_t = L t / d`` (6) is
the expected progress at the END of 0-based slot ``t - 1``.

Choices where the paper is open (each is tested):

- **Window.** At slot ``t`` the window is ``t..e`` with ``e = min(t + w, d - 1)``
  (the pseudocode's ``tau in [t, t + w]``, ``w + 1`` slots, clipped at the soft
  deadline because slots from ``d`` on belong to the termination configuration).
- **Terminal value of (10).** ``V~`` of (9) is a function of the progress at the
  deadline; a window ending before the deadline is valued at
  ``V~(Z_end + F)`` where ``F = (L / d)(d - 1 - e)`` is the reference work of
  the slots after the window (uniform slicing (6)). So (10) "compensates the
  shortfall within the window": reaching ``Z^exp`` at the window's end is worth
  the full ``v``; each missing ``H(N_max)`` costs one termination slot.
- **Slot cost.** A count ``n`` uses spot GPUs first when the (predicted) spot
  price is strictly below ``p_o`` (``min(n, n^avail)`` of them), on-demand for
  the rest.
- **Ties.** Both window solvers add the same fixed, generic perturbation
  (``TIE_BREAK``, at most ``1e-7`` per slot) to the cost of each (slot offset,
  count) so that optimal plans are unique; the reported objective is without it.
- **Ahead test** (line 5) uses ``Z^exp_{t+w}`` capped at ``L``.
- **Averaging** (lines 14-15): the pseudocode sums the last ``v`` plans, the
  text says "averaging"; we average over the plans that exist
  (``min(v, t + 1)`` of them) and round half up (``floor(x + 0.5)``).
- **Whose state a plan starts from** (``averaging``). Default ``"chc"``, the
  reading of Theorem 1's proof (appendix B: the slots split by ``t mod v`` and
  ``v`` fixed-horizon trajectories averaged, i.e. CHC): ``v`` sub-trajectories
  FHC^(r), ``r = 0..v-1``; FHC^(r) re-plans (lines 5-13) at the slots
  ``t = r mod v`` from *its own* progress and previous count, and executes
  its own plan (line 16 applied: availability, sigma, limits) in its own
  state; it starts idle (progress 0, count 0) and, once its own progress
  reaches ``L``, decides 0 GPUs. The executed decision of slot ``t`` averages
  the ``v`` sub-trajectories' current plans for ``t`` (those that exist).
  With ``v = 1`` this is exactly ``"actual_state"``. Alternative
  ``"actual_state"`` (the previous reading): every plan is solved from the
  actual (averaged) state.
- **Deadline guard** (``deadline_guard``, default off; an improvement beside the
  paper, not a reading): see :func:`deadline_guard`; applied to the executed
  decision after line 16 (not to the CHC sub-trajectories).
- **sigma in every slot** (section IV-A: "as long as the job has not reached
  its deadline, all spot instances priced below sigma are utilized"): by
  default (``sigma_rule="every_slot"``) the executed decision of every slot
  before completion uses at least ``min(n^avail_t, N_max)`` spot GPUs when the
  slot's spot price is ``<= sigma p_o`` and ``n^avail_t >= N_min`` (line 7's
  test), whichever branch made the plan; ``sigma_rule="ahead_only"`` applies
  sigma only in the "ahead" branch (lines 5-11), the old reading.
- **Limits** (line 16): a total above ``N_max`` drops on-demand GPUs first, then
  spot; a total in ``(0, N_min)`` is topped up with on-demand GPUs; a total of
  0 stays 0 (idling, ``delta_t = 0`` in (5c)-(5d)).
- **Termination configuration.** If the job is not done by the end of slot
  ``d - 1``, ``N_max`` on-demand GPUs run from slot ``d`` until it is.
- **AHANP** (Algorithm 3): ``z^ = Z_{t-1} / Z^exp_{t-1}`` is ``0 / 0`` in the
  first slot; by default (``first_slot="behind"``) it is read as ``0`` (nothing
  done, the job is not "ahead of schedule", so cases 6-7 start it at ``N_min``);
  ``first_slot="on_schedule"`` reads it as 1 (the old reading: case 3 keeps
  ``n_0 = 0`` and the job idles in its first slot); ``n^ = n^avail_t / n^avail_{t-1}`` with
  ``n^avail_{-1} = n^avail_0``, ``0/0 = 0`` and ``x/0 = inf``; "limit to
  ``[N_min, N_max]``" (line 5) keeps an idle 0 of case 1 (and of cases 2-5 when
  the previous count was 0) and lifts cases 6-7 to at least ``N_min``; case 2's
  ``0.5 n_{t-1}`` is rounded down.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from aisched.core.parameters import one_of
from aisched.models.spot import SpotInstance

__all__ = ["TIE_BREAK", "TOL", "slot_costs", "solve_window", "window_splits", "window_terms", "ahap_reference",
           "ahanp_reference", "termination", "round_half_up", "FirstSlot", "SigmaRule",
           "sigma_floor", "Averaging", "deadline_guard", "guard_rest", "check_averaging"]

#: Readings of AHANP's first-slot ``z^ = 0 / 0`` (Algorithm 3, line 3).
FirstSlot = Literal["behind", "on_schedule"]
#: Readings of sigma in AHAP (section IV-A prose vs Algorithm 1 lines 5-11 only).
SigmaRule = Literal["every_slot", "ahead_only"]
#: Readings of the commitment averaging (Algorithm 1 lines 14-15; Theorem 1's proof).
Averaging = Literal["chc", "actual_state"]

#: Tolerance of the progress comparisons (work units).
TOL = 1e-7
#: Fixed generic cost perturbation (slot offset in the window, GPU count) used to break ties.
TIE_BREAK = np.random.default_rng(20251224).random((16, 128)) * 1e-7 / 16


def round_half_up(x: np.ndarray | float) -> np.ndarray:
    """``floor(x + 0.5)`` (with a 1e-9 guard against float error), as int."""
    return np.floor(np.asarray(x) + 0.5 + 1e-9).astype(np.int64)


def slot_costs(price: np.ndarray, available: np.ndarray, counts: np.ndarray, on_demand_price: float):
    """Cost and spot share of each count in each slot: arrays ``(slots, counts)``."""
    price = np.asarray(price, float)[:, None]
    avail = np.asarray(available)[:, None]
    n = np.asarray(counts)[None, :]
    spot = np.where(price < on_demand_price, np.minimum(n, avail), 0)
    return spot * price + (n - spot) * on_demand_price, spot


def window_terms(inst: SpotInstance, t: int, window: int) -> tuple[int, float]:
    """``(e, F)``: the window's last slot and the reference work after it (see module doc)."""
    e = min(t + window, inst.deadline - 1)
    rest = inst.work / inst.deadline * (inst.deadline - 1 - e)
    return e, rest


def window_splits(inst: SpotInstance, price: float, available: int) -> list[tuple[int, int]]:
    """The ``(on_demand, spot)`` choices of one window slot with ``changeover="on"``: every split.

    Every count ``n`` in ``{0} u [N_min, N_max]`` with every spot share
    ``0..min(n, n^avail)`` (keeping a split can avoid a restart, so the
    cheapest split is not always optimal; the exact DP of problem (5) does the same).
    """
    return [(int(n) - s, s) for n in inst.gpu_options() for s in range(min(int(n), int(available)) + 1)]


def _pareto(states: list) -> list:
    """The states ``(work, cost, tie, history)`` not dominated in (more work, less cost + tie)."""
    states.sort(key=lambda s: (-s[0], s[1] + s[2]))
    kept, best = [], np.inf
    for s in states:
        if s[1] + s[2] < best - 1e-13:
            kept.append(s)
            best = s[1] + s[2]
    return kept


def _best_terminal(inst: SpotInstance, frontier: dict, rest: float) -> tuple[float, tuple]:
    """``(value, history)`` of the best final state: terminal value minus cost, ties broken by ``tie``."""
    best_val, best_key, best_hist = -np.inf, -np.inf, ()
    for states in frontier.values():
        for z, cc, tt, hist in states:
            val = float(inst.value_after_deadline(z + rest)) - cc
            if val - tt > best_key:
                best_val, best_key, best_hist = val, val - tt, hist
    return best_val, best_hist


def _solve_window_changeover(inst: SpotInstance, price: np.ndarray, available: np.ndarray,
                             previous: tuple[int, int], progress: float,
                             rest: float) -> tuple[float, np.ndarray, np.ndarray]:
    """(10) with ``changeover="on"``: a state is the previous ``(on_demand, spot)`` split."""
    frontier: dict[tuple[int, int], list] = {tuple(map(int, previous)): [(float(progress), 0.0, 0.0, ())]}
    p_o = inst.on_demand_price
    for i in range(len(price)):
        nxt: dict[tuple[int, int], list] = {}
        for prev, states in frontier.items():
            for o, sp in window_splits(inst, float(price[i]), int(available[i])):
                work = inst.slot_work(o, sp, *prev)
                c = float(sp * price[i] + o * p_o)
                # count tie-break as the count-only window, plus a smaller one on the spot share
                tie = float(TIE_BREAK[i % 16, (o + sp) % 128] + 1e-3 * TIE_BREAK[(i + 8) % 16, sp % 128])
                for z, cc, tt, hist in states:
                    nxt.setdefault((o, sp), []).append((z + work, cc + c, tt + tie, (*hist, (o, sp))))
        frontier = {key: _pareto(states) for key, states in nxt.items()}
    best_val, best_hist = _best_terminal(inst, frontier, rest)
    od = np.array([h[0] for h in best_hist], dtype=np.int64)
    sp = np.array([h[1] for h in best_hist], dtype=np.int64)
    return best_val, od, sp


def solve_window(inst: SpotInstance, price: np.ndarray, available: np.ndarray, previous: int,
                 progress: float, rest: float, previous_spot: int = 0) -> tuple[float, np.ndarray, np.ndarray]:
    """Exact optimum of (10) by enumeration with Pareto pruning: ``(value, on_demand, spot)``.

    ``price``, ``available``: the window's (predicted) market; the terminal
    value is ``inst.value_after_deadline(Z_end + rest)``. Exact for any data.
    ``previous``: the GPU count of the slot before the window; with
    ``changeover="on"`` the window's slots are charged by
    :meth:`~aisched.models.spot.SpotInstance.split_efficiency` and every split
    is a choice (:func:`window_splits`), starting from the previous split
    ``(previous - previous_spot, previous_spot)``.
    """
    if inst.changeover == "on":
        return _solve_window_changeover(inst, price, available, (int(previous) - int(previous_spot),
                                        int(previous_spot)), progress, rest)
    counts = inst.gpu_options()
    cost, spot = slot_costs(price, available, counts, inst.on_demand_price)
    frontier: dict[int, list] = {int(previous): [(float(progress), 0.0, 0.0, ())]}
    for i in range(len(price)):
        nxt: dict[int, list] = {}
        for prev, states in frontier.items():
            for j, n in enumerate(counts):
                work = float(inst.efficiency(n, prev) * inst.throughput(n))
                c = float(cost[i, j])
                tie = float(TIE_BREAK[i % 16, int(n) % 128])
                for z, cc, tt, hist in states:
                    nxt.setdefault(int(n), []).append((z + work, cc + c, tt + tie, (*hist, j)))
        frontier = {key: _pareto(states) for key, states in nxt.items()}
    best_val, best_hist = _best_terminal(inst, frontier, rest)
    idx = np.array(best_hist, dtype=np.int64)
    n = counts[idx]
    sp = spot[np.arange(len(idx)), idx]
    return best_val, (n - sp).astype(np.int64), sp.astype(np.int64)


def termination(inst: SpotInstance, progress: float, previous: int, start: int,
                on_demand: np.ndarray, previous_spot: int = 0) -> int:
    """Fill ``on_demand`` with the termination configuration from ``start``; return the slots used.

    ``previous``: the GPU count of the slot before ``start``, ``previous_spot``
    its spot share (for ``changeover="on"``).
    """
    k = 0
    z, prev = progress, (previous - previous_spot, previous_spot)
    while z < inst.work - TOL:
        n = inst.max_gpus
        z += inst.slot_work(n, 0, *prev)
        on_demand[start + k] = n
        prev, k = (n, 0), k + 1
    return k


def _clamp(inst: SpotInstance, od: int, sp: int) -> tuple[int, int]:
    total = od + sp
    if total > inst.max_gpus:
        sp = min(sp, inst.max_gpus)
        od = max(inst.max_gpus - sp, 0)
    elif 0 < total < inst.min_gpus:
        od += inst.min_gpus - total
    return od, sp


def sigma_floor(inst: SpotInstance, t: int, spot: int, threshold: float) -> int:
    """Spot count of slot ``t`` with every spot GPU priced ``<= sigma p_o`` used (section IV-A prose)."""
    avail = int(inst.spot_available[t])
    if inst.spot_price[t] <= threshold * inst.on_demand_price and avail >= inst.min_gpus:
        return max(spot, min(avail, inst.max_gpus))
    return spot


def check_averaging(averaging: str) -> None:
    """Raise :class:`~aisched.errors.InvalidScenarioError` unless ``averaging`` is ``"chc"`` or ``"actual_state"``."""
    one_of("averaging", averaging, Averaging)


def _executed(inst: SpotInstance, t: int, o: int, s: int, threshold: float,
              sigma_rule: SigmaRule) -> tuple[int, int]:
    """Line 16 on an averaged (or a sub-trajectory's) decision: availability, sigma, limits."""
    s = min(s, int(inst.spot_available[t]))
    if sigma_rule == "every_slot":
        s = sigma_floor(inst, t, s, threshold)
    return _clamp(inst, o, s)


def guard_rest(inst: SpotInstance, t: int, n: int) -> float:
    """Work of ``N_max`` GPUs in slots ``t+1..d-1`` after ``n`` GPUs in slot ``t`` (deadline guard).

    With ``changeover="on"`` every later slot counts at ``mu_1`` (a slot may
    restart whenever the spot share changes).
    """
    if t >= inst.deadline - 1:
        return 0.0
    h = float(inst.throughput(inst.max_gpus))
    if inst.changeover == "on":
        return inst.scale_up_efficiency * h * (inst.deadline - 1 - t)
    return float(inst.efficiency(inst.max_gpus, n)) * h + (inst.deadline - 2 - t) * h


def deadline_guard(inst: SpotInstance, t: int, z: float, prev: tuple[int, int], o: int,
                   s: int) -> tuple[int, int]:
    """Optional deadline guard (not in the paper): ``N_max`` GPUs in slot ``t`` when needed.

    If the decision ``o + s`` followed by ``N_max`` GPUs in every later slot
    before the deadline could not finish the work, slot ``t`` runs ``N_max``
    GPUs (on-demand added to ``s`` spot). If ``N_max`` GPUs from slot 0 finish
    the job by the deadline (true whenever any plan does), the guarded run
    finishes by the deadline: "``N_max`` from now on finishes" holds at every
    slot by induction. ``prev``: the previous slot's ``(on_demand, spot)``.
    With ``changeover="on"`` (:func:`guard_rest`) the guarantee needs
    ``N_max`` GPUs at ``mu_1`` in every slot to finish.
    """
    n = o + s
    work = inst.slot_work(o, s, *prev)
    if z + work + guard_rest(inst, t, n) < inst.work - TOL:
        return inst.max_gpus - s, s
    return o, s


def _plan(inst: SpotInstance, price_fc: np.ndarray, avail_fc: np.ndarray, t: int, w: int,
          threshold: float, z: float, prev: tuple[int, int]) -> tuple[tuple[np.ndarray, np.ndarray], bool]:
    """Lines 5-13 of Algorithm 1 from progress ``z`` and the previous split ``prev``: ``(plan, solved)``."""
    L, d = inst.work, inst.deadline
    expected = min(L, L / d * (t + w + 1))
    if z >= expected - TOL:  # lines 5-11: ahead, cheap spot only
        p, a = price_fc[t, : w + 1], avail_fc[t, : w + 1]
        cheap = (p <= threshold * inst.on_demand_price) & (a >= inst.min_gpus)
        return (np.zeros(w + 1, np.int64), np.where(cheap, np.minimum(a, inst.max_gpus), 0)), False
    e, rest = window_terms(inst, t, w)  # lines 12-13: problem (10)
    _, po, ps = solve_window(inst, price_fc[t, : e - t + 1], avail_fc[t, : e - t + 1], sum(prev), z, rest,
                             prev[1])
    plan = (np.zeros(w + 1, np.int64), np.zeros(w + 1, np.int64))
    plan[0][: e - t + 1], plan[1][: e - t + 1] = po, ps
    return plan, True


def ahap_reference(inst: SpotInstance, price_fc: np.ndarray, avail_fc: np.ndarray, window: int,
                   commitment: int, threshold: float, sigma_rule: SigmaRule = "every_slot",
                   averaging: Averaging = "chc",
                   deadline_guard_on: bool = False) -> tuple[np.ndarray, np.ndarray, dict]:
    """Algorithm 1 (AHAP) in plain NumPy; ``(on_demand, spot, info)`` over all slots.

    ``sigma_rule``: ``"every_slot"`` (default) or ``"ahead_only"``;
    ``averaging``: ``"chc"`` (default) or ``"actual_state"``;
    ``deadline_guard_on``: the optional deadline guard (:func:`deadline_guard`,
    default off). See the module doc.

    ``price_fc[t, tau]``, ``avail_fc[t, tau]``: forecasts made at ``t`` for
    ``t + tau`` (``tau = 0..window`` at least; column 0 is the truth).
    """
    L, d, w, v = inst.work, inst.deadline, int(window), int(commitment)
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    plans: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    z, prev, solved = 0.0, (0, 0), 0  # prev: the last slot's (on_demand, spot)
    # CHC: sub-trajectory FHC^(r) re-plans at slots t = r mod v from its own state
    sub_z, sub_prev, sub_done = [0.0] * v, [(0, 0)] * v, [False] * v
    for t in range(d):
        if averaging == "chc":
            r = t % v
            if sub_done[r]:
                plan, used = (np.zeros(w + 1, np.int64), np.zeros(w + 1, np.int64)), False
            else:
                plan, used = _plan(inst, price_fc, avail_fc, t, w, threshold, sub_z[r], sub_prev[r])
        else:
            plan, used = _plan(inst, price_fc, avail_fc, t, w, threshold, z, prev)
        solved += int(used)
        plans[t] = plan
        ks = [k for k in range(v) if t - k >= 0]
        if averaging == "chc":  # a finished sub-trajectory decides 0 GPUs
            alive = [not sub_done[(t - k) % v] for k in ks]
        else:
            alive = [True] * len(ks)
        o = int(round_half_up(np.mean([plans[t - k][0][k] * a for k, a in zip(ks, alive)])))
        s = int(round_half_up(np.mean([plans[t - k][1][k] * a for k, a in zip(ks, alive)])))
        o, s = _executed(inst, t, o, s, threshold, sigma_rule)
        if deadline_guard_on:
            o, s = deadline_guard(inst, t, z, prev, o, s)
        if averaging == "chc":  # each sub-trajectory executes its own plan (line 16 applied)
            for k, a in zip(ks, alive):
                if a:
                    r = (t - k) % v
                    so, ss = _executed(inst, t, int(plans[t - k][0][k]), int(plans[t - k][1][k]),
                                       threshold, sigma_rule)
                    sub_z[r] += inst.slot_work(so, ss, *sub_prev[r])
                    sub_prev[r] = (so, ss)
                    sub_done[r] = sub_z[r] >= L - TOL
        od[t], sp[t] = o, s
        z += inst.slot_work(o, s, *prev)
        prev = (o, s)
        if z >= L - TOL:
            break
    else:
        termination(inst, z, sum(prev), d, od, prev[1])
    return od, sp, {"windows_solved": solved}


def ahanp_reference(inst: SpotInstance, threshold: float,
                    first_slot: FirstSlot = "behind") -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 3 (AHANP) in plain NumPy (its seven cases); ``(on_demand, spot)``.

    ``first_slot``: the reading of ``z^ = 0 / 0`` in the first slot (see the module doc).
    """
    L, d = inst.work, inst.deadline
    od = np.zeros(inst.num_slots, np.int64)
    sp = np.zeros(inst.num_slots, np.int64)
    z, prev, prev_s = 0.0, 0, 0
    avail, price = inst.spot_available, inst.spot_price
    for t in range(d):
        expected = L / d * t
        z_hat = (1.0 if first_slot == "on_schedule" else 0.0) if expected == 0 else z / expected
        before = avail[t - 1] if t > 0 else avail[0]
        n_hat = (0.0 if avail[t] == 0 else np.inf) if before == 0 else avail[t] / before
        p_hat = price[t] / (threshold * inst.on_demand_price)
        if z_hat >= 1 - 1e-12:
            if n_hat == 0:
                n = 0                                         # case 1
            elif n_hat <= 0.5:
                n = max(prev // 2, inst.min_gpus)             # case 2
            elif n_hat <= 1:
                n = prev                                      # case 3
            elif p_hat > 1:
                n = prev                                      # case 4
            else:
                n = max(prev, int(avail[t]))                  # case 5
            n = 0 if n == 0 else min(max(n, inst.min_gpus), inst.max_gpus)
        else:
            n = inst.min_gpus if np.isinf(n_hat) else 2 * prev   # cases 6, 7
            n = min(max(n, inst.min_gpus), inst.max_gpus)
        s = min(int(avail[t]), n)
        od[t], sp[t] = n - s, s
        z += inst.slot_work(n - s, s, prev - prev_s, prev_s)
        prev, prev_s = n, s
        if z >= L - TOL:
            break
    else:
        termination(inst, z, prev, d, od, prev_s)
    return od, sp
