"""AHAP (Algorithm 1) over a whole policy pool, solving only the needed, distinct windows (10).

The vmapped kernel :func:`~aisched.online.spot.window.kernel.ahap_batch`
computes both branches of Algorithm 1's if/else in every slot of every
(job, policy) lane, so the window DP of (10) runs ``K M d`` times although AHAP
solves (10) only when behind the expected progress (line 12), and many lanes
share the same window problem (e.g. at ``t = 0`` every policy with the same
window ``w`` sees the same job, forecasts, progress 0 and previous count 0).

Bit for bit the same results without that waste: :func:`ahap_pool` steps
all lanes of all AHAP policies slot by slot at the Python level (``d`` steps).
In slot ``t`` it

1. finds the lanes that are not done and behind (line 5's test fails; only
   these use (10), line 12),
2. deduplicates their window problems by the exact key
   ``(window slots, job, progress bits, previous count)`` (``t`` is fixed in
   the step; the progress is compared bit for bit, so two lanes share a solve
   only when the DP's inputs are identical). A window cut by the deadline to
   ``W' < w + 1`` slots is solved as a ``W'``-slot window (the kernel's longer
   one only appends idle slots past the deadline and unreachable lattice
   steps), so it is shared by the policies of every ``w``,
3. solves the distinct problems in ONE jitted call per window length
   (:func:`~aisched.online.spot.window.batched.solve_windows`), in batches of exactly
   :data:`~aisched.online.spot.window.batched.BATCH` problems (the
   last one padded), so a sweep compiles one kernel per ``W'`` and none per
   job or workload. The DP is
   the kernel's (:func:`~aisched.online.spot.window.core.window_dp`: same
   value updates, same first-index argmax), restructured for a batch
   (:func:`~aisched.online.spot.window.batched._batched_dp`: unrolled slots, reachable lattice prefix only, int8
   back-pointers instead of value tables). By default (``shared_forward``) the
   distinct problems that share the job and previous count share one forward
   pass instead (:mod:`~aisched.online.spot.window.groups`, same plans),
4. scatters the plans back and does the cheap parts (the "ahead" plan, the
   averaging of the last ``v`` plans, the limits, the progress update) in NumPy
   with the same float operations, in the same order, as the kernel; the
   utility (9) uses the kernel's own
   :func:`~aisched.online.spot.window.core.finish_utility`
   (:func:`~aisched.online.spot.window.batched.finish`).

The result equals ``ahap_batch``'s exactly (plans, utilities, completion,
termination slots, windows solved), tested bit for bit against it and against
the NumPy reference (``tests/online/spot/test_pool.py``); only the amount of
work differs.

This module orchestrates only (which lanes, which problems, NumPy bookkeeping);
the jitted computation lives below it: :mod:`~aisched.online.spot.window.groups`
and :mod:`~aisched.online.spot.window.batched`, which call the traced pieces they share
with :mod:`~aisched.online.spot.window.kernel` in :mod:`~aisched.online.spot.window.core`.
Calls go one way, selection -> pool -> (window.groups ->) window.batched -> window.core
(window.kernel -> window.core too).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from aisched.online.spot.window import batched as wb
from aisched.online.spot.window import groups as wg
from aisched.online.spot.window.reference import TOL

__all__ = ["ahap_pool", "cache_size", "bucket", "grouped", "precompile", "MIN_BUCKET"]

#: Smallest padded batch of :func:`bucket`.
MIN_BUCKET = 64
def bucket(n: int) -> int:
    """Padded batch size for ``n`` problems: the next power of two, at least :data:`MIN_BUCKET`."""
    return max(MIN_BUCKET, 1 << max(int(n) - 1, 0).bit_length())


def cache_size() -> int:
    """Compiled entries of the batched window solver (a sweep of equal shape must not grow it)."""
    return wb.cache_size() + wg.cache_size()


_COMPILED: set[tuple] = set()


def grouped(stacked: dict[str, np.ndarray], shifts: tuple[int, ...]) -> bool:
    """Whether the shared-forward solver (:mod:`~aisched.online.spot.window.groups`) applies.

    It needs the int8 back-pointers of :func:`~aisched.online.spot.window.core.pointer_step`: ``mu_1 = mu_2`` and at most 127 counts.
    """
    return tuple(shifts[:2]) == tuple(shifts[2:4]) and stacked["counts"].shape[1] <= 127


def precompile(stacked: dict[str, np.ndarray], window_max: int, lattice_step: int,
               shifts: tuple[int, ...], shared_forward: bool = False, changeover: bool = False) -> int:
    """Compile the batched (10) solver for every window length ``1..window_max + 1`` not yet compiled.

    A window cut by the deadline has any length up to ``w + 1``; compiling
    them all before a run means no compilation during it. Returns the number
    of kernels compiled now (one dummy batch each).
    """
    shapes = tuple((k, v.shape[1:]) for k, v in sorted(stacked.items()) if k in wb.SOLVER_KEYS)
    new = 0
    for W1 in range(1, int(window_max) + 2):
        key = (W1, W1 * int(lattice_step), tuple(shifts), shapes, shared_forward, changeover)
        if key in _COMPILED:
            continue
        if shared_forward:
            wg.solve_grouped(stacked, wb.SOLVER_KEYS, np.zeros(1, np.int64), 0, np.zeros(1), np.zeros(1),
                             np.array([W1]), lattice_step=int(lattice_step), shifts=shifts,
                             prev_spot=np.zeros(1) if changeover else None)
        elif changeover:
            wb.solve_windows_split(stacked, np.zeros(1, np.int64), 0, np.zeros(1), np.zeros(1), np.zeros(1),
                                   window=W1 - 1, lattice=W1 * int(lattice_step), shifts=shifts)
        else:
            wb.solve_windows(stacked, np.zeros(1, np.int64), 0, np.zeros(1), np.zeros(1), window=W1 - 1,
                          lattice=W1 * int(lattice_step), shifts=shifts)
        _COMPILED.add(key)
        new += 1
    return new


def _line16(o, s, now_a, now_p, thr, p_o, nmin, nmax, sigma_rule):
    """The kernel's ``_line16`` in NumPy (same operations, same order)."""
    s = np.minimum(s, now_a)
    if sigma_rule == "every_slot":  # section IV-A: all spot priced <= sigma p_o is used
        now_cheap = (now_p <= thr * p_o) & (now_a >= nmin)
        s = np.where(now_cheap, np.maximum(s, np.minimum(now_a, nmax)), s)
    total = o + s
    s2 = np.where(total > nmax, np.minimum(s, nmax), s)
    o2 = np.where(total > nmax, np.maximum(nmax - s2, 0.0),
                  np.where((total > 0) & (total < nmin), o + nmin - total, o))
    return o2, s2


def _split_eff(o, s, prev_o, prev_s, mu1, mu2, changeover: bool):
    """The kernel's ``_split_eff`` in NumPy: ``split_efficiency`` (on the totals when off)."""
    n, p = o + s, prev_o + prev_s
    if not changeover:
        return np.where(n > p, mu1, np.where(n < p, mu2, 1.0))
    return np.where((o > prev_o) | (s > prev_s), mu1, np.where(n < p, mu2, 1.0))


def _guard(t, z, prev, o, s, work, alpha, beta, mu1, mu2, nmax, d, prev_s=0.0, changeover: bool = False):
    """The kernel's ``_guard`` (the optional deadline guard) in NumPy."""
    def thr_put(n):
        return np.where(n > 0, alpha * n + beta, 0.0)

    n = o + s
    h = thr_put(nmax)
    if changeover:
        rest = np.where(t < d - 1, mu1 * h * (d - 1 - t), 0.0)
    else:
        rest = np.where(t < d - 1, np.where(nmax > n, mu1, np.where(nmax < n, mu2, 1.0)) * h + (d - 2 - t) * h,
                        0.0)
    short = z + _split_eff(o, s, prev - prev_s, prev_s, mu1, mu2, changeover) * thr_put(n) + rest < work - TOL
    return np.where(short, nmax - s, o), s


def ahap_pool(stacked: dict[str, np.ndarray], window: np.ndarray, commitment: np.ndarray,
              threshold: np.ndarray, *, lattice_step: int, shifts: tuple[int, ...],
              clip: bool = True, sigma_rule: str = "every_slot", averaging: str = "chc",
              deadline_guard: bool = False, shared_forward: bool = True,
              changeover: bool = False) -> dict[str, Any]:
    """AHAP for every job of ``stacked`` x every policy ``(window[m], commitment[m], threshold[m])``.

    Same outputs as :func:`~aisched.online.spot.window.kernel.ahap_batch`
    (leading dims ``(job, policy)``), plus ``"stats"``: the (10) solves needed
    (``windows_needed``), distinct (``windows_unique``), padded (``windows_padded``)
    and the seconds spent in the batched solver (``window_s``). ``sigma_rule``,
    ``averaging``, ``deadline_guard``: see
    :func:`~aisched.online.spot.window.reference.ahap_reference` (with
    ``averaging="chc"`` a lane's window is solved from its current
    sub-trajectory's own progress and count, and deduplicated on those).

    ``lattice_step``: lattice steps per window slot (``G = (w + 1) lattice_step``,
    as :func:`~aisched.online.spot.window.kernel.lattice_size`). With ``clip``
    (default) a window that the deadline cuts to ``W' = e - t + 1 < w + 1``
    slots is solved as a ``W'``-slot problem with ``G = W' lattice_step``: the
    kernel's ``w + 1``-slot problem only appends idle slots (``n = 0``, cost 0,
    no progress) and lattice steps no plan can reach, so the optimum is the
    same, and such windows are shared by the policies of every ``w``.

    ``shared_forward`` (default): the distinct problems of a slot that share
    the job and previous count share one forward DP pass
    (:mod:`~aisched.online.spot.window.groups`; same plans, fewer DP cells;
    stats ``forward_passes``); ``False``: one DP per distinct problem
    (:func:`solve_windows`). Falls back to ``False`` when ``mu_1 != mu_2``.

    ``changeover``: the jobs' changeover cost is on (``docs/readings/spot.md`` S7):
    lanes and sub-trajectories keep their previous split, the distinct
    problems are keyed on it too and solved over splits (with ``shared_forward``
    one pass per ``(job, previous split)``, :mod:`~aisched.online.spot.window.groups`;
    else :func:`~aisched.online.spot.window.batched.solve_windows_split`, one DP per
    distinct problem), the progress by ``split_efficiency``; equal to
    ``ahap_batch(..., changeover=True)``.
    """
    window = np.asarray(window, np.int64)
    commitment = np.asarray(commitment, np.int64)
    threshold = np.asarray(threshold, float)
    sc = stacked["scalars"]
    K, M = sc.shape[0], len(commitment)
    D = stacked["price"].shape[1]
    wmax = int(window.max())
    W = wmax + 1
    lanes = K * M
    job = np.repeat(np.arange(K), M)
    win = np.tile(window, K)
    com = np.tile(commitment, K)
    thr = np.tile(threshold, K)
    lane_sc = sc[job]
    work, alpha, beta, mu1, mu2, p_o = (lane_sc[:, i] for i in range(6))
    nmin, nmax, d = lane_sc[:, 6], lane_sc[:, 7], lane_sc[:, 11]
    z = np.zeros(lanes)
    prev = np.zeros(lanes)
    prev_s = np.zeros(lanes)  # the previous slot's spot share (changeover)
    done = np.zeros(lanes, bool)
    completion = np.full(lanes, -1, np.int64)
    solved = np.zeros(lanes, np.int64)
    R = max(wmax, 1)
    hist_o = np.zeros((lanes, R, W))
    hist_s = np.zeros((lanes, R, W))
    od = np.zeros((lanes, D))
    sp = np.zeros((lanes, D))
    ks = np.arange(R)
    chc = averaging == "chc"
    sub_z = np.zeros((lanes, R))
    sub_prev = np.zeros((lanes, R))
    sub_prev_s = np.zeros((lanes, R))
    sub_done = np.zeros((lanes, R), bool)
    lane_ix = np.arange(lanes)
    needed = unique = padded = passes = 0
    window_s = 0.0
    changeover = bool(changeover)
    shared_forward = bool(shared_forward) and (changeover or grouped(stacked, shifts))
    # every (clipped) length 1..W: compile now, not mid-run
    precompile(stacked, wmax, lattice_step, shifts, shared_forward, changeover)
    for t in range(D):
        if chc:  # FHC^(r), r = t mod v, re-plans from its own state
            r_now = np.mod(t, com)
            pz, pprev, pdone = sub_z[lane_ix, r_now], sub_prev[lane_ix, r_now], sub_done[lane_ix, r_now]
            pprev_s = sub_prev_s[lane_ix, r_now]
        else:
            pz, pprev, pprev_s, pdone = z, prev, prev_s, np.zeros(lanes, bool)
        expected = np.minimum(work, work / d * (t + win + 1))
        ahead = pz >= expected - TOL
        p = stacked["price_fc"][job, t, :W]
        a = stacked["avail_fc"][job, t, :W]
        cheap = (p <= thr[:, None] * p_o[:, None]) & (a >= nmin[:, None])
        plan_o = np.zeros((lanes, W))
        plan_s = np.where(cheap, np.minimum(a, nmax[:, None]), 0.0)
        plan_s[pdone] = 0.0
        behind = np.flatnonzero(~done & ~ahead & ~pdone)
        if behind.size:
            size = win[behind] + 1
            if clip:
                size = np.minimum(size, D - t)
            keys = np.stack([size, job[behind], pz[behind].view(np.int64), pprev[behind].view(np.int64),
                             pprev_s[behind].view(np.int64)], 1)
            _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
            inverse = inverse.reshape(-1)
            rows = behind[first]
            usize = size[first]
            t0 = time.perf_counter()
            if shared_forward:
                uo, us, st = wg.solve_grouped(stacked, wb.SOLVER_KEYS, job[rows], t, pz[rows], pprev[rows], usize,
                                              lattice_step=lattice_step, shifts=shifts,
                                              prev_spot=pprev_s[rows] if changeover else None)
                Wu = uo.shape[1]
                plan_o[behind, :Wu] = uo[inverse]
                plan_s[behind] = 0.0
                plan_s[behind, :Wu] = us[inverse]
                padded += st["calls"] * (wg.SPLIT_PROBLEMS if changeover else wg.PROBLEMS)
                passes += st["passes"]
            for W1 in ([] if shared_forward else np.unique(usize)):
                sel = np.flatnonzero(usize == W1)
                r = rows[sel]
                if changeover:
                    uo, us = wb.solve_windows_split(stacked, job[r], t, pz[r], pprev[r], pprev_s[r],
                                                    window=int(W1) - 1, lattice=int(W1) * lattice_step,
                                                    shifts=shifts)
                else:
                    uo, us = wb.solve_windows(stacked, job[r], t, pz[r], pprev[r], window=int(W1) - 1,
                                              lattice=int(W1) * lattice_step, shifts=shifts)
                lane_sel = np.isin(inverse, sel)
                pos = np.searchsorted(sel, inverse[lane_sel])
                plan_o[behind[lane_sel], :W1] = uo[pos]
                plan_s[behind[lane_sel], :W1] = us[pos]
                plan_s[behind[lane_sel], W1:] = 0.0
                padded += -(-sel.size // wb.SPLIT_BATCH) * wb.SPLIT_BATCH if changeover else wb.padded_size(sel.size)
            window_s += time.perf_counter() - t0
            needed += behind.size
            unique += rows.size
        hist_o = np.concatenate([plan_o[:, None], hist_o[:, :-1]], 1)
        hist_s = np.concatenate([plan_s[:, None], hist_s[:, :-1]], 1)
        weight = ((ks[None, :] < com[:, None]) & (ks[None, :] <= t)).astype(float)  # v <= w: ks < w
        wsum = np.sum(weight, axis=1)
        raw_o, raw_s = hist_o[:, ks, ks], hist_s[:, ks, ks]
        if chc:  # sub-trajectory of the plan made k slots ago; a finished one decides 0
            res = np.mod(t - ks[None, :], com[:, None])
            alive = (~sub_done[lane_ix[:, None], res]).astype(float)
        else:
            alive = np.ones((lanes, R))
        o = np.floor(np.sum(weight * (alive * raw_o), axis=1) / wsum + 0.5 + 1e-9)
        s = np.floor(np.sum(weight * (alive * raw_s), axis=1) / wsum + 0.5 + 1e-9)
        now_a = stacked["avail"][job, t]
        now_p = stacked["price"][job, t]
        o2, s2 = _line16(o, s, now_a, now_p, thr, p_o, nmin, nmax, sigma_rule)
        if deadline_guard:
            o2, s2 = _guard(t, z, prev, o2, s2, work, alpha, beta, mu1, mu2, nmax, d, prev_s, changeover)
        o2, s2 = np.where(done, 0.0, o2), np.where(done, 0.0, s2)
        if chc:  # each sub-trajectory executes its own plan (line 16 applied)
            col = lambda x: x[:, None]  # noqa: E731
            so, ss = _line16(raw_o, raw_s, col(now_a), col(now_p), col(thr), col(p_o), col(nmin), col(nmax),
                             sigma_rule)
            sn = so + ss
            upd = (weight > 0) & (alive > 0)
            oldp = sub_prev[lane_ix[:, None], res]
            olds = sub_prev_s[lane_ix[:, None], res]
            e2 = _split_eff(so, ss, oldp - olds, olds, col(mu1), col(mu2), changeover)
            nz = sub_z[lane_ix[:, None], res] + e2 * np.where(sn > 0, col(alpha) * sn + col(beta), 0.0)
            li, ki = np.nonzero(upd)
            sub_z[li, res[li, ki]] = nz[li, ki]
            sub_prev[li, res[li, ki]] = sn[li, ki]
            sub_prev_s[li, res[li, ki]] = ss[li, ki]
            sub_done[li, res[li, ki]] = nz[li, ki] >= work[li] - TOL
        n = o2 + s2
        eff = _split_eff(o2, s2, prev - prev_s, prev_s, mu1, mu2, changeover)
        z2 = np.where(done, z, z + eff * np.where(n > 0, alpha * n + beta, 0.0))
        prev = np.where(done, prev, n)
        prev_s = np.where(done, prev_s, s2)
        finished = ~done & (z2 >= work - TOL)
        completion = np.where(finished, t, completion)
        solved += (~done & ~ahead & ~pdone).astype(np.int64)
        done = done | finished
        z = z2
        od[:, t], sp[:, t] = o2, s2
    # the termination's first slot: mu_1 unless N_max already runs (on demand, with the changeover)
    utility, T, k = wb.finish(stacked, job, od, sp, z, prev - prev_s if changeover else prev, done, completion)
    shape = (K, M)
    return {"on_demand": od.reshape(K, M, D), "spot": sp.reshape(K, M, D),
            "utility": utility.reshape(shape), "completion_time": T.reshape(shape),
            "termination_slots": k.reshape(shape), "windows_solved": solved.reshape(shape),
            "stats": {"windows_needed": needed, "windows_unique": unique, "windows_padded": padded,
                      "window_s": window_s, "forward_passes": passes if shared_forward else unique}}
