"""JAX kernels: the windowed problem (10), AHAP (Algorithm 1) and AHANP (Algorithm 3).

**(10) by an exact lattice DP.** In a window every slot picks a GPU count
``n`` in ``{0, N_min..N_max}`` (its spot/on-demand split is then cost-optimal,
see :mod:`~aisched.online.spot.window.reference`); the work of a slot is
``mu(n_prev, n) H(n)``. When every such work is an integer multiple of a
quantum ``q`` (found by :func:`work_quantum`; e.g. ``q = 0.1`` for the paper's
``mu = 0.9``, ``H(n) = n``), the progress gained inside a window is
``g q`` with ``g`` an integer in ``0..G``, and a forward DP over
``(slot, count, g)`` is exact. The efficiency (2) depends only on whether the
count grows, shrinks or stays, so a transition is the max of shifted
prefix/suffix maxima over the previous count (with ``mu_1 = mu_2``: of the
largest and second-largest value over the previous count): ``O(W S G)`` per
window instead of ``O(W S^2 G)``. With ``H(n) = alpha n + beta`` the shift of row ``n`` is
``a n + b`` (``a = mu alpha / q``, ``b = mu beta / q``, static), so each shift is
a "shear" done with static pads and reshapes, not a gather
(:func:`~aisched.online.spot.window.split.shear`). The best plan is read back by backtracking. Ties are broken
by the shared perturbation ``TIE_BREAK``. Without a quantum (``q`` ``None``) or
with ``beta < 0``, AHAP falls back to the NumPy reference.

Cost: about ``3 W S G`` cell updates per window (``G = (w + 1) H(N_max) / q``,
e.g. 6 x 17 x 1153 for ``w = 5``); under ``vmap`` the DP runs in every decision
slot of every policy (the "ahead" branch is selected afterwards). For a whole
pool, :mod:`~aisched.online.spot.pool` solves only the needed, distinct
windows, with the same results.

**Shapes.** Everything is padded to static sizes: ``S`` rows for the GPU counts
``0..S-1`` (counts outside ``{0} u [N_min, N_max]`` cost ``+inf``), ``W = w + 1`` window slots (slots
past the deadline allow only ``n = 0``), ``G`` lattice steps, ``D`` decision
slots. Hyperparameters ``(v, sigma)`` and all job data are arrays, so a sweep
over jobs or policies does not recompile (:func:`cache_size`). Each public
function runs under ``jax.enable_x64(True)``.

The traced pieces shared with :mod:`~aisched.online.spot.window.batched` and
:mod:`~aisched.online.spot.window.groups` (scalar helpers, the DP of (10), utility (9))
live in :mod:`~aisched.online.spot.window.core`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from aisched.models.spot import SpotInstance
from aisched.online.spot.window.core import (
    efficiency,
    finish_utility,
    slot_throughput,
    solve_window_split_traced,
    solve_window_traced,
    unpack_scalars,
)
from aisched.online.spot.window.reference import TIE_BREAK, TOL

_COMPILE_EVENTS = ("/jax/core/compile/jaxpr_trace_duration", "/jax/core/compile/jaxpr_to_mlir_module_duration",
                   "/jax/core/compile/backend_compile_duration")
_COMPILED = [0.0]


def _on_event(name: str, seconds: float, **_: Any) -> None:
    if name in _COMPILE_EVENTS:
        _COMPILED[0] += float(seconds)


jax.monitoring.register_event_duration_secs_listener(_on_event)


def compile_seconds() -> float:
    """Seconds this process has spent tracing and compiling JAX functions so far (JAX's monitoring events).

    The difference over a call is the part of its run time that a second call of
    the same shapes does not pay; :func:`aisched.online.spot.ahap.run` reports it
    as ``info["compile_s"]`` and leaves it out of ``decision_s``.
    """
    return _COMPILED[0]

__all__ = ["compile_seconds", "work_quantum", "job_arrays", "shifts_of", "options_size", "solve_window", "ahap_batch", "ahanp_batch", "cache_size",
           "lattice_size", "SLOT_OPTIONS"]

#: Least static number of count rows (GPU counts 0..16, the paper's N_max <= 16).
SLOT_OPTIONS = 17


def work_quantum(insts: list[SpotInstance] | SpotInstance, max_decimals: int = 3) -> float | None:
    """Largest ``q = 10^-k`` (``k <= max_decimals``) dividing every slot's work ``mu H(n)``; else None."""
    insts = [insts] if isinstance(insts, SpotInstance) else insts
    for k in range(max_decimals + 1):
        q = 10.0 ** -k
        ok = True
        for inst in insts:
            h = np.concatenate([inst.throughput(inst.gpu_options()[1:]),
                                [inst.throughput_slope, abs(inst.throughput_intercept)]])
            for mu in (1.0, inst.scale_up_efficiency, inst.scale_down_efficiency):
                x = mu * h / q
                if np.any(np.abs(x - np.round(x)) > 1e-9 * np.maximum(1.0, np.abs(x))):
                    ok = False
        if ok:
            return q
    return None


def lattice_size(insts: list[SpotInstance] | SpotInstance, window: int, q: float) -> int:
    """Static ``G``: ``(w + 1)`` slots of the largest ``H(N_max) / q`` rounded up to a multiple of 32.

    The rounding buckets instances of similar size onto one compiled kernel
    (at ``q = 0.1``: ``N_max = 12`` gives 128 per slot, 13..16 give 160).
    """
    insts = [insts] if isinstance(insts, SpotInstance) else insts
    per = max(int(round(float(i.throughput(i.max_gpus)) / q)) for i in insts)
    return int((window + 1) * (-(-per // 32) * 32))


def shifts_of(inst: SpotInstance, q: float) -> tuple[int, int, int, int, int, int]:
    """Static lattice shifts ``(a_up, b_up, a_down, b_down, a_same, b_same)``.

    A slot with ``n >= 1`` GPUs gains ``mu H(n) / q = a n + b`` lattice steps
    with ``a = mu alpha / q`` and ``b = mu beta / q`` (``mu`` of the branch).
    """
    out = []
    for mu in (inst.scale_up_efficiency, inst.scale_down_efficiency, 1.0):
        for x in (mu * inst.throughput_slope / q, mu * inst.throughput_intercept / q):
            if abs(x - round(x)) > 1e-9 * max(1.0, abs(x)) or x < 0:
                raise ValueError(f"{x} is not an integer number of lattice steps")
            out.append(int(round(x)))
    return tuple(out)  # type: ignore[return-value]


def options_size(inst: SpotInstance) -> int:
    """Static ``S``: rows for GPU counts ``0..S-1`` (at least ``SLOT_OPTIONS``)."""
    return max(SLOT_OPTIONS, inst.max_gpus + 1)


def job_arrays(inst: SpotInstance, price_fc: np.ndarray, avail_fc: np.ndarray, q: float,
               lead: int = 5, size: int | None = None) -> dict[str, np.ndarray]:
    """One job's data as fixed-shape arrays: rows are GPU counts ``0..S-1``, ``lead + 1`` forecast columns.

    Counts outside ``{0} u [N_min, N_max]`` are kept as rows that cost ``+inf``.
    """
    S = options_size(inst) if size is None else size
    if S < inst.max_gpus + 1:
        raise ValueError(f"size {S} < N_max + 1 = {inst.max_gpus + 1}")
    counts = np.arange(S)
    valid = (counts == 0) | ((counts >= inst.min_gpus) & (counts <= inst.max_gpus))
    h = np.where(counts > 0, inst.throughput_slope * counts + inst.throughput_intercept, 0.0)
    d = inst.deadline
    f = lambda x: np.asarray(x, float)  # noqa: E731
    return {
        "counts": counts.astype(np.int64), "valid": valid,
        "wq_same": np.round(h / q).astype(np.int64),
        "wq_up": np.round(inst.scale_up_efficiency * h / q).astype(np.int64),
        "wq_down": np.round(inst.scale_down_efficiency * h / q).astype(np.int64),
        # one row per window slot offset, wrapping every 16 as the reference's ``TIE_BREAK[i % 16]``
        "tie": TIE_BREAK[np.arange(max(TIE_BREAK.shape[0], lead + 1)) % TIE_BREAK.shape[0]][:, counts % 128],
        "price_fc": f(price_fc[:d, : lead + 1]), "avail_fc": f(avail_fc[:d, : lead + 1]),
        "price": f(inst.spot_price[:d]), "avail": f(inst.spot_available[:d]),
        "scalars": np.array([
            inst.work, inst.throughput_slope, inst.throughput_intercept,
            inst.scale_up_efficiency, inst.scale_down_efficiency, inst.on_demand_price,
            inst.min_gpus, inst.max_gpus, inst.value, inst.hard_deadline_factor, q,
            inst.deadline,
        ], float),
    }


@partial(jax.jit, static_argnames=("W", "G", "shifts", "changeover"))
def _solve_window_jit(job, t, z, prev, prev_s, *, W: int, G: int, shifts, changeover: bool = False):
    c = unpack_scalars(job["scalars"])
    if changeover:
        return solve_window_split_traced(c, job, t, z, prev - prev_s, prev_s, W, G, shifts)
    return solve_window_traced(c, job, t, z, prev, W, G, shifts)


def solve_window(job: dict[str, np.ndarray], t: int, progress: float, previous: int, *,
                 window: int, lattice: int, shifts: tuple[int, ...], previous_spot: int = 0,
                 changeover: bool = False) -> tuple[float, np.ndarray, np.ndarray]:
    """Exact optimum of (10) at slot ``t``: ``(value, on_demand, spot)`` over ``window + 1`` slots.

    ``changeover``: plan over splits from the previous split ``(previous -
    previous_spot, previous_spot)`` (:mod:`~aisched.online.spot.window.split`).
    """
    with jax.enable_x64(True):
        od, sp, val = _solve_window_jit(job, jnp.asarray(t), jnp.asarray(float(progress)),
                                        jnp.asarray(float(previous)), jnp.asarray(float(previous_spot)),
                                        W=window + 1, G=lattice, shifts=tuple(shifts),
                                        changeover=bool(changeover))
        return float(val), np.asarray(od).round().astype(np.int64), np.asarray(sp).round().astype(np.int64)


# ----------------------------------------------------------------- Algorithm 1
def _round_half_up(x):
    return jnp.floor(x + 0.5 + 1e-9)


def _line16(c, job, t, o, s, threshold, sigma_rule: str):
    """Line 16 on averaged (or sub-trajectory) counts: availability, sigma, limits (broadcasts)."""
    s = jnp.minimum(s, job["avail"][t])
    if sigma_rule == "every_slot":  # section IV-A: all spot priced <= sigma p_o is used
        now_cheap = (job["price"][t] <= threshold * c.p_o) & (job["avail"][t] >= c.nmin)
        s = jnp.where(now_cheap, jnp.maximum(s, jnp.minimum(job["avail"][t], c.nmax)), s)
    total = o + s
    s2 = jnp.where(total > c.nmax, jnp.minimum(s, c.nmax), s)
    o2 = jnp.where(total > c.nmax, jnp.maximum(c.nmax - s2, 0.0),
                   jnp.where((total > 0) & (total < c.nmin), o + c.nmin - total, o))
    return o2, s2


def _split_eff(c, o, s, prev_o, prev_s, changeover: bool):
    """``mu_t`` of a split after the previous split (``split_efficiency``; (2) on the totals when off)."""
    if not changeover:
        return efficiency(c, o + s, prev_o + prev_s)
    return jnp.where((o > prev_o) | (s > prev_s), c.mu1, jnp.where(o + s < prev_o + prev_s, c.mu2, 1.0))


def _guard(c, t, z, prev, o, s, prev_s=0.0, changeover: bool = False):
    """The optional deadline guard (:func:`~aisched.online.spot.window.reference.deadline_guard`)."""
    n = o + s
    h = slot_throughput(c, c.nmax)
    if changeover:  # guard_rest: every later slot at mu_1
        rest = jnp.where(t < c.d - 1, c.mu1 * h * (c.d - 1 - t), 0.0)
    else:
        rest = jnp.where(t < c.d - 1, efficiency(c, c.nmax, n) * h + (c.d - 2 - t) * h, 0.0)
    mu = _split_eff(c, o, s, prev - prev_s, prev_s, changeover)
    short = z + mu * slot_throughput(c, n) + rest < c.work - TOL
    return jnp.where(short, c.nmax - s, o), s


def _ahap_one(job, commitment, threshold, W: int, G: int, shifts, skip_window: bool = False,
              sigma_rule: str = "every_slot", averaging: str = "chc", guard: bool = False,
              changeover: bool = False):
    c = unpack_scalars(job["scalars"])
    D = job["price"].shape[0]
    w = W - 1
    R = max(w, 1)
    ks = jnp.arange(R)
    chc = averaging == "chc"

    def slot(carry, t):
        (z, prev, prev_s, done, completion, hist_o, hist_s, solved, sub_z, sub_prev, sub_prev_s,
         sub_done) = carry
        if chc:  # FHC^(r), r = t mod v, re-plans from its own state
            r = jnp.mod(t, commitment)
            pz, pprev, pprev_s, pdone = sub_z[r], sub_prev[r], sub_prev_s[r], sub_done[r]
        else:
            pz, pprev, pprev_s, pdone = z, prev, prev_s, jnp.asarray(False)
        expected = jnp.minimum(c.work, c.work / c.d * (t + w + 1))
        ahead = pz >= expected - TOL
        p, a = job["price_fc"][t, :W], job["avail_fc"][t, :W]
        cheap = (p <= threshold * c.p_o) & (a >= c.nmin)
        ahead_s = jnp.where(cheap, jnp.minimum(a, c.nmax), 0.0)
        if skip_window:  # benchmark only: measures the time outside (10)
            win_o = win_s = jnp.zeros(W)
        elif changeover:  # (10) over splits from the previous split
            win_o, win_s, _ = solve_window_split_traced(c, job, t, pz, pprev - pprev_s, pprev_s, W, G, shifts)
        else:
            win_o, win_s, _ = solve_window_traced(c, job, t, pz, pprev, W, G, shifts)
        plan_o = jnp.where(ahead | pdone, 0.0, win_o)
        plan_s = jnp.where(pdone, 0.0, jnp.where(ahead, ahead_s, win_s))
        hist_o = jnp.concatenate([plan_o[None], hist_o[:-1]], 0)
        hist_s = jnp.concatenate([plan_s[None], hist_s[:-1]], 0)
        weight = ((ks < commitment) & (ks <= t)).astype(float)
        if chc:  # sub-trajectory of the plan made k slots ago; a finished one decides 0
            res = jnp.mod(t - ks, commitment)
            alive = (~sub_done[res]).astype(float)
        else:
            alive = jnp.ones(R)
        o = _round_half_up(jnp.sum(weight * (alive * hist_o[ks, ks])) / jnp.sum(weight))
        s = _round_half_up(jnp.sum(weight * (alive * hist_s[ks, ks])) / jnp.sum(weight))
        o2, s2 = _line16(c, job, t, o, s, threshold, sigma_rule)
        if guard:
            o2, s2 = _guard(c, t, z, prev, o2, s2, prev_s, changeover)
        o2, s2 = jnp.where(done, 0.0, o2), jnp.where(done, 0.0, s2)
        if chc:  # each sub-trajectory executes its own plan (line 16 applied)
            so, ss = _line16(c, job, t, hist_o[ks, ks], hist_s[ks, ks], threshold, sigma_rule)
            sn = so + ss
            upd = (weight > 0) & (alive > 0)
            oldp, olds = sub_prev[res], sub_prev_s[res]
            nz = sub_z[res] + _split_eff(c, so, ss, oldp - olds, olds, changeover) * slot_throughput(c, sn)
            # residues of the valid k are distinct; invalid k write their residue's current value
            tgt = jnp.where(upd, res, R)
            sub_z = jnp.concatenate([sub_z, jnp.zeros(1)]).at[tgt].set(nz)[:R]
            sub_prev = jnp.concatenate([sub_prev, jnp.zeros(1)]).at[tgt].set(sn)[:R]
            sub_prev_s = jnp.concatenate([sub_prev_s, jnp.zeros(1)]).at[tgt].set(ss)[:R]
            sub_done = jnp.concatenate([sub_done, jnp.zeros(1, bool)]).at[tgt].set(
                nz >= c.work - TOL)[:R]
        n = o2 + s2
        z2 = jnp.where(done, z, z + _split_eff(c, o2, s2, prev - prev_s, prev_s, changeover) * slot_throughput(c, n))
        prev2 = jnp.where(done, prev, n)
        prev_s2 = jnp.where(done, prev_s, s2)
        finished = (~done) & (z2 >= c.work - TOL)
        completion = jnp.where(finished, t, completion)
        solved = solved + ((~done) & (~ahead) & (~pdone)).astype(jnp.int32)
        return (z2, prev2, prev_s2, done | finished, completion, hist_o, hist_s, solved, sub_z, sub_prev,
                sub_prev_s, sub_done), (o2, s2)

    hist = jnp.zeros((R, W))
    init = (jnp.asarray(0.0), jnp.asarray(0.0), jnp.asarray(0.0), jnp.asarray(False), jnp.asarray(-1), hist,
            hist, jnp.asarray(0, jnp.int32), jnp.zeros(R), jnp.zeros(R), jnp.zeros(R), jnp.zeros(R, bool))
    (z, prev, prev_s, done, completion, _, _, solved, *_), (od, sp) = jax.lax.scan(slot, init, jnp.arange(D))
    # the termination configuration's first slot: mu_1 unless N_max already runs (on demand, with changeover)
    utility, T, k = finish_utility(c, job, od, sp, z, prev - prev_s if changeover else prev, done, completion)
    return {"on_demand": od, "spot": sp, "utility": utility, "completion_time": T,
            "termination_slots": k, "windows_solved": solved}


_STATIC = ("W", "G", "shifts", "skip_window", "sigma_rule", "averaging", "guard", "changeover")


@partial(jax.jit, static_argnames=_STATIC)
def _ahap_batch(jobs, commitment, threshold, *, W: int, G: int, shifts, skip_window: bool = False,
                sigma_rule: str = "every_slot", averaging: str = "chc", guard: bool = False,
                changeover: bool = False):
    per_policy = jax.vmap(_ahap_one, in_axes=(None, 0, 0) + (None,) * 8)
    return jax.vmap(per_policy, in_axes=(0, None, None) + (None,) * 8)(
        jobs, commitment, threshold, W, G, shifts, skip_window, sigma_rule, averaging, guard, changeover)


def ahap_batch(jobs: dict[str, np.ndarray], commitment: np.ndarray, threshold: np.ndarray, *,
               window: int, lattice: int, shifts: tuple[int, ...],
               skip_window: bool = False, sigma_rule: str = "every_slot", averaging: str = "chc",
               deadline_guard: bool = False, changeover: bool = False) -> dict[str, np.ndarray]:
    """AHAP for a batch of jobs (stacked :func:`job_arrays`) x policies ``(commitment, threshold)``.

    Every output has leading dims ``(job, policy)``; ``on_demand``/``spot``
    cover slots ``0..d-1`` (the termination configuration is summarised by
    ``termination_slots``). ``skip_window=True`` replaces (10) by an empty plan
    (not AHAP; for the benchmark's time split only). ``sigma_rule``,
    ``averaging``, ``deadline_guard``: see
    :func:`~aisched.online.spot.window.reference.ahap_reference`. ``changeover``:
    the jobs' changeover cost is on (S7): (10) over splits
    (:mod:`~aisched.online.spot.window.split`), the progress by
    ``split_efficiency``; every job of the batch must have it as given.
    """
    with jax.enable_x64(True):
        out = _ahap_batch(jobs, jnp.asarray(commitment, jnp.int32), jnp.asarray(threshold, float),
                          W=window + 1, G=lattice, shifts=tuple(shifts), skip_window=skip_window,
                          sigma_rule=sigma_rule, averaging=averaging, guard=bool(deadline_guard),
                          changeover=bool(changeover))
        return {k: np.asarray(v) for k, v in out.items()}


# ----------------------------------------------------------------- Algorithm 3
def _ahanp_one(job, threshold, first_slot: str = "behind", changeover: bool = False):
    c = unpack_scalars(job["scalars"])
    D = job["price"].shape[0]
    avail, price = job["avail"], job["price"]

    def slot(carry, t):
        z, prev, prev_s, done, completion = carry
        expected = c.work / c.d * t
        first = 1.0 if first_slot == "on_schedule" else 0.0
        z_hat = jnp.where(expected == 0, first, z / jnp.where(expected == 0, 1.0, expected))
        before = jnp.where(t > 0, avail[jnp.maximum(t - 1, 0)], avail[0])
        now = avail[t]
        n_hat = jnp.where(before == 0, jnp.where(now == 0, 0.0, jnp.inf), now / jnp.where(before == 0, 1.0, before))
        p_hat = price[t] / (threshold * c.p_o)
        ahead_n = jnp.where(n_hat == 0, 0.0,
                  jnp.where(n_hat <= 0.5, jnp.maximum(jnp.floor(prev / 2), c.nmin),
                  jnp.where(n_hat <= 1, prev,
                  jnp.where(p_hat > 1, prev, jnp.maximum(prev, now)))))
        ahead_n = jnp.where(ahead_n == 0, 0.0, jnp.clip(ahead_n, c.nmin, c.nmax))
        behind_n = jnp.clip(jnp.where(jnp.isinf(n_hat), c.nmin, 2 * prev), c.nmin, c.nmax)
        n = jnp.where(z_hat >= 1 - 1e-12, ahead_n, behind_n)
        n = jnp.where(done, 0.0, n)
        s = jnp.minimum(now, n)
        z2 = jnp.where(done, z, z + _split_eff(c, n - s, s, prev - prev_s, prev_s, changeover) * slot_throughput(c, n))
        prev2 = jnp.where(done, prev, n)
        prev_s2 = jnp.where(done, prev_s, s)
        finished = (~done) & (z2 >= c.work - TOL)
        completion = jnp.where(finished, t, completion)
        return (z2, prev2, prev_s2, done | finished, completion), (n - s, s)

    init = (jnp.asarray(0.0), jnp.asarray(0.0), jnp.asarray(0.0), jnp.asarray(False), jnp.asarray(-1))
    (z, prev, prev_s, done, completion), (od, sp) = jax.lax.scan(slot, init, jnp.arange(D))
    utility, T, k = finish_utility(c, job, od, sp, z, prev - prev_s if changeover else prev, done, completion)
    return {"on_demand": od, "spot": sp, "utility": utility, "completion_time": T, "termination_slots": k}


@partial(jax.jit, static_argnames=("first_slot", "changeover"))
def _ahanp_batch(jobs, threshold, *, first_slot: str = "behind", changeover: bool = False):
    per_policy = jax.vmap(_ahanp_one, in_axes=(None, 0, None, None))
    return jax.vmap(per_policy, in_axes=(0, None, None, None))(jobs, threshold, first_slot, changeover)


def ahanp_batch(jobs: dict[str, np.ndarray], threshold: np.ndarray,
                first_slot: str = "behind", changeover: bool = False) -> dict[str, np.ndarray]:
    """AHANP for a batch of jobs x thresholds; outputs ``(job, policy, ...)``.

    ``first_slot``: ``"behind"`` or ``"on_schedule"``, the reading of the first
    slot's ``z^ = 0 / 0`` (see :func:`~aisched.online.spot.window.reference.ahanp_reference`).
    """
    with jax.enable_x64(True):
        out = _ahanp_batch(jobs, jnp.asarray(threshold, float), first_slot=first_slot,
                           changeover=bool(changeover))
        return {k: np.asarray(v) for k, v in out.items()}


def stack(jobs: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Stack :func:`job_arrays` of jobs with equal deadlines along a leading ``job`` axis."""
    return {k: np.stack([j[k] for j in jobs]) for k in jobs[0]}


def cache_size() -> int:
    """Compiled entries of the jitted kernels (a sweep must not grow it)."""
    return sum(f._cache_size() for f in (_solve_window_jit, _ahap_batch, _ahanp_batch))


def _unused(*_: Any) -> None:  # pragma: no cover - keeps linters quiet about Any
    return None
