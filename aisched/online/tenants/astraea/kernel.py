"""Vectorised one-round scheduling of one job: Algorithm 3 (A_maxIrev) with Algorithms 4-5.

:class:`RoundState` holds the resources of one round of one batch (a window
of ``L`` slots): free workers / PSs per server and slot (``C_sw - h_sw(t)``,
``C_sp - h_sp(t)``), each user's usage, and the posted prices (8).
:func:`best_schedule` enumerates, for one job, every start slot and worker
count ``D_w`` (Algorithm 3, line 3) at once, as numpy arrays over
(worker counts, server groups, starts): window minima of free capacity come
from padded sparse tables, window sums of prices from cumulative sums; it
evaluates MINCOSTD (Algorithm 4) and MINCOSTC (Algorithm 5) on them and
returns the schedule of largest ``mu`` (7). Servers with identical free
profiles form one group (:meth:`RoundState._refresh`), so a fresh round of
100 equal servers is one row.
:mod:`aisched.online.tenants.astraea.reference` is the same pseudocode with plain
loops; the tests compare the two.

Readings of the pseudocode (each documented where it is used):

- Prices (8) read ``eta_w(t) = theta_w^(h_w(t) / sum_s C_sw) - 1`` (and
  likewise for PSs), as the worked example computes ``16^(2/8) - 1 = 1``.
- Cost is the sum over the run's slots of ``eta_w(t) w + eta_p(t) z``
  (Algorithm 4, line 22). Algorithm 5, line 12 prints
  ``d (eta_w(t-) D_w + eta_p(t-))``, the start slot's price times the
  duration; we use the per-slot sum in both, as (6a) and (10) define the cost.
- MINCOSTD line 8 prints ``D_sp = min{ceil((D_w - D_sw) b_w / b_p), C_sp - h_sp, quota}``;
  taking the min could place too few PSs and break (3i). We keep the server
  only when it can host the ``ceil(...)`` PSs the bandwidth rule needs (and
  read the PS quota ``q_p``, where line 8 prints ``q_w``).
- MINCOSTC picks "any" qualified server (line 11); we pick the one with the
  fewest free workers in the window (best fit, lowest index on ties), in the
  spirit of the paper's preference for fragmented resources.
- Ties between placements go to centralised (line 6 uses ``>=``); ties between
  tuples keep the first in (start, D_w) order (line 10 uses ``>``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["RoundState", "JobSpec", "Schedule", "best_schedule", "value_bound", "padded_levels", "sparse_table"]


def sparse_table(a: np.ndarray) -> list[np.ndarray]:
    """Levels ``k`` of ``min(a[..., t : t + 2^k])`` along the last axis."""
    levels = [a]
    k = 1
    while (1 << k) <= a.shape[-1]:
        prev = levels[-1]
        half = 1 << (k - 1)
        levels.append(np.minimum(prev[..., :-half], prev[..., half:]))
        k += 1
    return levels


@dataclass
class JobSpec:
    """What A_maxIrev needs of one job.

    ``durations[c][w-1]`` is the duration with ``w`` workers and placement
    ``c`` (0 distributed, 1 centralised); ``utility(c)`` maps an array of
    completion offsets (slots after the round's start) to ``f``.
    """

    job: int
    owner: int
    chunks: int
    durations: np.ndarray  # (2, chunks) int
    completion_offset: int  # added to t- + d before calling the utility (0 on the batch clock)
    slope: float
    intercept: float
    scale: float
    exponent: float
    linear: bool

    def utility(self, c: np.ndarray) -> np.ndarray:
        """``f`` at completion ``c`` (slots after the clock's origin)."""
        c = np.asarray(c, dtype=np.float64) + self.completion_offset
        if self.linear:
            return self.slope * c + self.intercept
        return (self.scale / np.maximum(c, 1e-300)) ** self.exponent


@dataclass
class Schedule:
    """A job's best schedule ``iota*`` in one round (local slots ``start..start+duration-1``)."""

    mu: float
    start: int
    duration: int
    workers: np.ndarray  # (S,) int
    parameter_servers: np.ndarray  # (S,) int
    centralized: bool
    utility: float
    worker_cost: float
    ps_cost: float


class RoundState:
    """Resources of one round: free capacity, user usage and prices over ``L`` slots.

    Parameters
    ----------
    cap_w, cap_p
        (S,) ``C_sw``, ``C_sp``.
    quota_w, quota_p
        (U,) ``q_w^u``, ``q_p^u``.
    length
        ``L``: slots in the round.
    theta_w, theta_p
        Bases of the price functions (8).
    """

    def __init__(
        self,
        cap_w: np.ndarray,
        cap_p: np.ndarray,
        quota_w: np.ndarray,
        quota_p: np.ndarray,
        length: int,
        theta_w: float,
        theta_p: float,
    ) -> None:
        self.cap_w = np.asarray(cap_w, dtype=np.int64)
        self.cap_p = np.asarray(cap_p, dtype=np.int64)
        self.quota_w = np.asarray(quota_w, dtype=np.int64)
        self.quota_p = np.asarray(quota_p, dtype=np.int64)
        self.length = int(length)
        self.theta_w, self.theta_p = float(theta_w), float(theta_p)
        L = self.length
        self.free_w = np.repeat(self.cap_w[:, None], L, axis=1)
        self.free_p = np.repeat(self.cap_p[:, None], L, axis=1)
        self.user_w = np.zeros((self.quota_w.size, L), dtype=np.int64)
        self.user_p = np.zeros((self.quota_p.size, L), dtype=np.int64)
        self._refresh()

    # ------------------------------------------------------------------ prices
    @property
    def used_w(self) -> np.ndarray:
        """(L,) ``h_w(t)``."""
        return self.cap_w.sum() - self.free_w.sum(axis=0)

    @property
    def used_p(self) -> np.ndarray:
        """(L,) ``h_p(t)``."""
        return self.cap_p.sum() - self.free_p.sum(axis=0)

    def prices(self) -> tuple[np.ndarray, np.ndarray]:
        """(L,) posted prices (8): ``theta^(h(t) / sum_s C) - 1`` for workers and PSs."""
        eta_w = self.theta_w ** (self.used_w / self.cap_w.sum()) - 1.0
        eta_p = self.theta_p ** (self.used_p / self.cap_p.sum()) - 1.0
        return eta_w, eta_p

    def _refresh(self) -> None:
        """Group servers with identical free profiles (one row per group, ordered by first server).

        Servers of a group are interchangeable for Algorithms 3-5, and ties
        go to the lowest server index, i.e. to the group listed first; at a
        round's start all equal servers form one group, so the enumeration
        works on a handful of rows instead of ``S``.
        """
        key = np.concatenate([self.free_w, self.free_p], axis=1)
        _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
        order = np.argsort(first)
        self.group_first = first[order]
        self.group_count = counts[order].astype(np.int64)
        self.lev_w = padded_levels(self.free_w[self.group_first])
        self.lev_p = padded_levels(self.free_p[self.group_first])
        self.eta_w, self.eta_p = self.prices()
        self.csum_w = np.concatenate([[0.0], np.cumsum(self.eta_w)])
        self.csum_p = np.concatenate([[0.0], np.cumsum(self.eta_p)])

    def commit(self, owner: int, start: int, duration: int, y: np.ndarray, z: np.ndarray) -> None:
        """Allocate ``y``, ``z`` in local slots ``start..start+duration-1``."""
        sl = slice(start, start + duration)
        self.free_w[:, sl] -= y[:, None]
        self.free_p[:, sl] -= z[:, None]
        if (self.free_w[:, sl] < 0).any() or (self.free_p[:, sl] < 0).any():  # pragma: no cover
            raise AssertionError("allocation exceeds capacity")
        self.user_w[owner, sl] += int(y.sum())
        self.user_p[owner, sl] += int(z.sum())
        self._refresh()

    def available(self, owner: int, fair_share: bool) -> tuple[np.ndarray, np.ndarray]:
        """(L,) workers / PSs the job may take by the sharing rule.

        Within the fair share (Algorithm 2, line 3, ``a_w = a_p = 0``): the
        owner's unused quota ``q^u - sum_j y``. On all unused resources
        (line 5): ``max{q^u - sum_j y, a_w(t)}`` with ``a_w(t)`` the cluster's
        unused workers, which the server capacities already bound.
        """
        own_w = self.quota_w[owner] - self.user_w[owner]
        own_p = self.quota_p[owner] - self.user_p[owner]
        if fair_share:
            return own_w, own_p
        return np.maximum(own_w, self.free_w.sum(axis=0)), np.maximum(own_p, self.free_p.sum(axis=0))


def padded_levels(a: np.ndarray) -> np.ndarray:
    """:func:`sparse_table` stacked into one array ``(K, ..., L)``, padded with -1 past each level's end."""
    levels = sparse_table(a)
    out = np.full((len(levels), *a.shape), -1, dtype=np.int64)
    for k, lev in enumerate(levels):
        out[k, ..., : lev.shape[-1]] = lev
    return out


def _windows(
    lev: np.ndarray, d: np.ndarray, length: int
) -> tuple[np.ndarray, np.ndarray]:
    """Window minima for many durations at once: ``(len(d), ..., L)`` (-1 where the run overruns)."""
    k = np.floor(np.log2(d)).astype(np.int64)
    t0 = np.arange(length)
    idx = np.minimum(t0[None, :] + (d - (1 << k))[:, None], length - 1)
    valid = t0[None, :] + d[:, None] <= length
    first = lev[k]  # (n, ..., L)
    shape = first.shape
    idx_b = idx.reshape((shape[0],) + (1,) * (len(shape) - 2) + (length,))
    second = np.take_along_axis(first, np.broadcast_to(idx_b, shape), axis=-1)
    out = np.minimum(first, second)
    valid_b = valid.reshape(idx_b.shape)
    return np.where(valid_b, out, -1), valid


def value_bound(state: RoundState, spec: JobSpec, bw_ratio: float, extra_offset: int = 0) -> float:
    """An upper bound on ``f(t- + d + extra_offset) - c_w - c_p`` over every schedule of the round.

    For each placement, worker count ``w`` whose run ``d`` fits the round and
    start ``t-`` with ``t- + d <= L``: ``f(t- + d + extra_offset) - w sum eta_w
    - p sum eta_p`` with ``p`` the fewest PSs a schedule holds (1 centralised;
    ``ceil(b_w / b_p)`` distributed, since ``D_w - D_sw >= 1`` in MINCOSTD
    line 8), ignoring capacity, quotas and sharing. Every schedule
    :func:`best_schedule` can return has ``mu`` (``extra_offset = 0``) at most
    this value, as prices are >= 0 and ``f`` is non-increasing in completion,
    so a bound <= 0 proves that no schedule has ``mu > 0`` (no admission);
    with ``extra_offset = r0 - r - completion_offset`` it bounds the revenue
    under (3) (``admission="real_revenue"``). ``-inf`` when no run fits.
    The cheaper bound ``f(shortest run + extra_offset)`` (started at once, at
    no cost) is returned instead when it is already < 0.
    """
    L = state.length
    runs = [(c, np.nonzero(spec.durations[c] <= L)[0]) for c in (0, 1)]
    runs = [(c, rows) for c, rows in runs if rows.size]
    if not runs:
        return -np.inf
    # first a cheaper bound: the utility of the shortest run started at once, at no cost
    shortest = min(int(spec.durations[c][rows].min()) for c, rows in runs)
    cheap = float(spec.utility(np.array(shortest + extra_offset)))
    if cheap < 0.0:
        return cheap
    need_min = (max(0, math.ceil(bw_ratio - 1e-9)), 1)
    t0 = np.arange(L)
    best = -np.inf
    for c, rows in runs:
        d = spec.durations[c][rows].astype(np.int64)
        w = rows + 1
        end = t0[None, :] + d[:, None]
        fits = end <= L
        value = (spec.utility(end + extra_offset)
                 - w[:, None] * _window_sums(state.csum_w, d) - need_min[c] * _window_sums(state.csum_p, d))
        best = max(best, float(np.where(fits, value, -np.inf).max()))
    return best


def _window_sums(csum: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``sum(eta[t : t + d])`` for every start and duration: ``(len(d), L)`` (clipped at the end).

    ``csum`` is ``[0, cumsum(eta)]``, computed once per round state (:meth:`RoundState._refresh`).
    """
    L = csum.size - 1
    t0 = np.arange(L)
    return csum[np.minimum(t0[None, :] + d[:, None], L)] - csum[t0][None, :]


def best_schedule(
    state: RoundState,
    spec: JobSpec,
    fair_share: bool,
    bw_ratio: float,
) -> Schedule | None:
    """Algorithm 3 for one job: the schedule of largest ``mu`` (7), or None if none has ``mu > 0``.

    Every (start slot, worker count, placement) is evaluated at once: window
    minima of free capacity come from padded sparse tables, window sums of
    prices from cumulative sums, over arrays ``(worker counts, server groups, starts)``.

    Parameters
    ----------
    state
        The round's resources and prices.
    spec
        The job.
    fair_share
        True for Algorithm 2 line 3 (owner's quota only), False for line 5.
    bw_ratio
        ``b_w / b_p``.
    """
    L = state.length
    avail_w, avail_p = state.available(spec.owner, fair_share)
    w_top = min(spec.chunks, int(state.cap_w.sum()), int(avail_w.max()))
    if w_top < 1 or avail_p.max() < 1 or int(spec.durations[:, :w_top].min()) > L:
        return None  # no worker count fits the round (Algorithms 4-5, line 4)
    lev_aw, lev_ap = padded_levels(avail_w), padded_levels(avail_p)
    count = state.group_count[None, :, None]
    max_cen = int(state.cap_w[state.cap_p >= 1].max()) if (state.cap_p >= 1).any() else 0
    ws = np.arange(1, w_top + 1)
    t0 = np.arange(L)
    big = np.iinfo(np.int64).max // 4
    val = np.full((2, w_top, L), -np.inf)  # [distributed, centralised] x w x start

    # --- MINCOSTD (Algorithm 4) for every w with a run that fits the round ---------------
    dd = spec.durations[0, :w_top].astype(np.int64)
    rows = np.nonzero(dd <= L)[0]
    if rows.size:
        w, d = ws[rows], dd[rows]
        wmin, valid = _windows(state.lev_w, d, L)  # (n, G, L)
        pmin, _ = _windows(state.lev_p, d, L)
        aw, _ = _windows(lev_aw, d, L)  # (n, L)
        ap, _ = _windows(lev_ap, d, L)
        wcol = w[:, None, None]
        d_sw = np.minimum(wcol - 1, wmin)
        need = np.ceil((wcol - d_sw) * bw_ratio - 1e-9).astype(np.int64)
        ok = (need <= pmin) & (need <= ap[:, None, :]) & (wmin >= 0)
        need_m = np.where(ok, need, big)
        s1 = np.argmin(need_m, axis=1)[:, None, :]
        need_s1 = np.take_along_axis(need_m, s1, axis=1)[:, 0, :]
        wmin_s1 = np.take_along_axis(wmin, s1, axis=1)[:, 0, :]
        dsw_s1 = np.take_along_axis(d_sw, s1, axis=1)[:, 0, :]
        rest = (count * np.maximum(wmin, 0)).sum(axis=1) - wmin_s1
        feas = valid & ok.any(axis=1) & (aw >= w[:, None]) & (rest >= w[:, None] - dsw_s1)
        cost = w[:, None] * _window_sums(state.csum_w, d) + np.where(feas, need_s1, 0) * _window_sums(state.csum_p, d)
        f = spec.utility(t0[None, :] + d[:, None])
        val[0, rows] = np.where(feas, f - cost, -np.inf)

    # --- MINCOSTC (Algorithm 5) ------------------------------------------------------------
    dc = spec.durations[1, :w_top].astype(np.int64)
    rows = np.nonzero((dc <= L) & (ws <= max_cen))[0]
    if rows.size:
        w, d = ws[rows], dc[rows]
        wmin, valid = _windows(state.lev_w, d, L)
        pmin, _ = _windows(state.lev_p, d, L)
        aw, _ = _windows(lev_aw, d, L)
        ap, _ = _windows(lev_ap, d, L)
        ok = (wmin >= w[:, None, None]) & (pmin >= 1)
        feas = valid & ok.any(axis=1) & (aw >= w[:, None]) & (ap >= 1)
        cost = w[:, None] * _window_sums(state.csum_w, d) + _window_sums(state.csum_p, d)
        f = spec.utility(t0[None, :] + d[:, None])
        val[1, rows] = np.where(feas, f - cost, -np.inf)

    take_c = val[1] >= val[0]  # Algorithm 3, line 6: ties go to centralised
    table = np.where(take_c, val[1], val[0]).T  # (start, w): first maximum in (t-, D_w) order
    k = int(np.argmax(table))
    mu = float(table.flat[k])
    if not mu > 0.0:  # admission by the sign of mu (7)
        return None
    start, wi = divmod(k, w_top)
    return _allocate(state, spec, (start, wi + 1, int(take_c[wi, start])), fair_share, bw_ratio, mu)


def _allocate(
    state: RoundState,
    spec: JobSpec,
    best: tuple[int, int, int],
    fair_share: bool,
    bw_ratio: float,
    mu: float,
) -> Schedule:
    """Rebuild the allocation of the chosen tuple (Algorithms 4-5, lines 7-22 / 7-12)."""
    t0, w, c = best
    S = state.cap_w.size
    d = int(spec.durations[c, w - 1])
    wmin = state.free_w[:, t0 : t0 + d].min(axis=1)
    pmin = state.free_p[:, t0 : t0 + d].min(axis=1)
    y = np.zeros(S, dtype=np.int64)
    z = np.zeros(S, dtype=np.int64)
    if c == 1:
        ok = (wmin >= w) & (pmin >= 1)
        s = int(np.argmin(np.where(ok, wmin, np.iinfo(np.int64).max)))
        y[s], z[s] = w, 1
    else:
        _, avail_p = state.available(spec.owner, fair_share)
        ap = int(avail_p[t0 : t0 + d].min())
        d_sw = np.minimum(w - 1, wmin)
        need_p = np.ceil((w - d_sw) * bw_ratio - 1e-9).astype(np.int64)
        ok = (need_p <= pmin) & (need_p <= ap)
        s1 = int(np.argmin(np.where(ok, need_p, np.iinfo(np.int64).max)))
        y[s1], z[s1] = d_sw[s1], need_p[s1]
        rest = w - int(d_sw[s1])
        others = [s for s in np.argsort(wmin, kind="stable").tolist() if s != s1]
        for s in others:  # Algorithm 4, lines 16-20: fewest free workers first
            if rest == 0:
                break
            take = min(int(wmin[s]), rest)
            y[s] += take
            rest -= take
    eta_w, eta_p = state.eta_w[t0 : t0 + d], state.eta_p[t0 : t0 + d]
    return Schedule(
        mu=mu,
        start=t0,
        duration=d,
        workers=y,
        parameter_servers=z,
        centralized=bool(c == 1),
        utility=float(spec.utility(np.array(t0 + d))),
        worker_cost=float(np.sum(eta_w) * y.sum()),
        ps_cost=float(np.sum(eta_p) * z.sum()),
    )
