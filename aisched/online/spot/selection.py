"""Online policy selection (Algorithm 2 of the spot-market paper) over a policy pool.

The pool (section VI-A): 105 AHAP policies over ``w in 1..5``, ``v in 1..w``,
``sigma in {0.3, ..., 0.9}`` and 7 AHANP policies over the same ``sigma``.
:func:`evaluate_pool` runs every policy on every job with the JAX kernels, never
a Python loop over policies or jobs: by default (``engine="batched"``,
:mod:`~aisched.online.spot.pool`) all (job, AHAP policy) lanes advance slot by
slot and the distinct windows (10) that Algorithm 1 needs are solved in one
jitted, vmapped call per slot and window length; ``engine="vmap"`` runs the
kernel vmapped over jobs x policies (one compiled kernel per window length
``w``, none per job), solving (10) in every slot. Both give identical results. :func:`select` runs the exponentiated-gradient update
``w_{k+1} ~ w_k exp(eta u_k)`` with ``eta = sqrt(2 ln M / K)`` (jitted
``lax.scan``, in log space) and reports the regret against the best fixed
policy in hindsight with the bound ``sqrt(2 K ln M)`` of Theorem 2.

Choices: utilities are normalised to ``[0, 1]`` per job, by default over the
pool (``(u - min_m u) / (max_m u - min_m u)``, 1 for all when equal), or with
the fixed range ``[-N_max sum_t max(p_o, p^s_t), v]`` (``normalise="range"``);
either way each ``u_k`` lies in ``[0, 1]`` as Theorem 2 requires. The policy
"selected for job k" (line 6) is drawn from ``w_k`` with a seeded generator
(``choice="sample"``) or is its argmax (``"greedy"``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import xarray as xr

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.online.spot import pool as pk
from aisched.online.spot.predictors import Predictor, perfect
from aisched.online.spot.window import kernel as wk
from aisched.online.spot.window import reference as wr

__all__ = ["Policy", "SelectionResult", "paper_pool", "evaluate_pool", "select", "eg_weights",
           "normalise_utilities", "pool_memory_bytes", "MAX_POOL_BYTES"]

SIGMAS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
#: Largest estimated working memory of :func:`evaluate_pool` (bytes) before it refuses (size guard).
MAX_POOL_BYTES = 4 * 2**30


@dataclass(frozen=True)
class Policy:
    """One pool member: ``algorithm`` "ahap" (``window, commitment, threshold``) or "ahanp"."""

    algorithm: str
    threshold: float
    window: int = 0
    commitment: int = 0

    @property
    def name(self) -> str:
        if self.algorithm == "ahap":
            return f"ahap(w={self.window},v={self.commitment},s={self.threshold:.1f})"
        return f"ahanp(s={self.threshold:.1f})"


def paper_pool(windows: Sequence[int] = (1, 2, 3, 4, 5), sigmas: Sequence[float] = SIGMAS,
               ahanp: bool = True) -> list[Policy]:
    """The paper's pool: AHAP over (w, v <= w, sigma), then AHANP over sigma (112 by default)."""
    pool = [Policy("ahap", float(s), int(w), int(v)) for w in windows for v in range(1, w + 1)
            for s in sigmas]
    if ahanp:
        pool += [Policy("ahanp", float(s)) for s in sigmas]
    return pool


def _forecasts(jobs: Sequence[SpotInstance], predictors: Sequence[Predictor], lead: int, seed: int):
    out = []
    for k, (inst, pred) in enumerate(zip(jobs, predictors)):
        out.append(pred.forecast(inst.spot_price, inst.spot_available, inst.deadline, lead,
                                 seed=seed * 1_000_003 + k))
    return out


def pool_memory_bytes(jobs: int, pool: Sequence[Policy], deadline: int, options: int = wk.SLOT_OPTIONS,
                      engine: str = "batched", chunk: int = 250) -> int:
    """Estimated working memory (bytes) of :func:`evaluate_pool` for ``jobs`` jobs of ``deadline`` slots.

    Per job the forecasts and tie rows (``2 d (w + 1) + max(16, w + 1) S``
    doubles, ``w`` the longest window); per (job, AHAP policy) lane of the
    batched engine the plan history of the last ``w`` plans (``2 w (w + 1)``),
    the decisions (``2 d``), the CHC sub-trajectories (``3 w``) and about 30
    vectors, doubled for temporaries (the vmap engine holds ``chunk`` jobs'
    lanes with their ``(w + 1) x G`` DP tables instead). An estimate for the
    size guard, not a measurement.
    """
    ahap = [p for p in pool if p.algorithm == "ahap"]
    w = max([p.window for p in ahap], default=1)
    per_job = 2 * deadline * (w + 1) + max(16, w + 1) * options + 4 * deadline
    if engine == "vmap":
        lanes = min(jobs, chunk) * len(ahap)
        per_lane = 2 * w * (w + 1) + 2 * deadline + (w + 1) * options * (w + 1) * 160
    else:
        lanes = jobs * len(ahap)
        per_lane = 2 * (2 * w * (w + 1) + 2 * deadline + 3 * w + 30)
    return int(8 * (jobs * per_job + lanes * per_lane))


def evaluate_pool(jobs: Sequence[SpotInstance], pool: Sequence[Policy],
                  predictor: Predictor | Sequence[Predictor] | None = None, *, seed: int = 0,
                  chunk: int = 250, engine: str = "batched", sigma_rule: wr.SigmaRule = "every_slot",
                  first_slot: wr.FirstSlot = "behind", averaging: wr.Averaging = "chc",
                  deadline_guard: bool = False) -> tuple[np.ndarray, dict[str, Any]]:
    """Utilities ``(job, policy)`` of every policy on every job (the realised utility (9)).

    ``predictor`` may be one predictor or one per job (non-stationary runs).
    All jobs must share the deadline; work per slot must have a decimal quantum.
    ``engine``: ``"batched"`` (default; :func:`~aisched.online.spot.pool.ahap_pool`
    solves only the needed, distinct windows (10)) or ``"vmap"`` (the kernel
    :func:`~aisched.online.spot.window.kernel.ahap_batch`, vmapped over ``chunk``
    jobs x policies, solving (10) in every slot of every lane). Both give
    identical results. With ``changeover="on"`` in every job the same engines run
    with the changeover (AHAP's (10) over splits,
    :mod:`~aisched.online.spot.window.split`; ``info["changeover"]``); with it
    on in some jobs only, the NumPy references run instead (``info["engine"]``
    is ``"reference"``; a Python loop, for small pools). The returned info has the plans' statistics: the (10)
    solves needed (``windows_solved``) and, for "batched", the distinct ones
    (``windows_unique``), the padded ones (``windows_padded``) and the seconds
    in the window solver (``window_s``). ``sigma_rule`` (AHAP) and ``first_slot``
    (AHANP), ``averaging`` and ``deadline_guard`` (AHAP): the readings and the
    option of :mod:`~aisched.online.spot.window.reference`.
    """
    one_of("sigma_rule", sigma_rule, wr.SigmaRule)
    one_of("first_slot", first_slot, wr.FirstSlot)
    wr.check_averaging(averaging)
    one_of("engine", engine, ("batched", "vmap"))
    if not jobs:
        raise InvalidScenarioError("jobs", "is empty")
    if not pool:
        raise InvalidScenarioError("pool", "is empty")
    d = jobs[0].deadline
    need = pool_memory_bytes(len(jobs), pool, d, engine=engine, chunk=chunk)
    if need > MAX_POOL_BYTES:
        w = max([p.window for p in pool if p.algorithm == "ahap"], default=0)
        raise InvalidScenarioError("pool", f"needs about {need / 2**30:.1f} GiB ({len(jobs)} jobs x {len(pool)} "
                                   f"policies, windows up to {w}); the limit MAX_POOL_BYTES is "
                                   f"{MAX_POOL_BYTES / 2**30:.0f} GiB: use fewer or shorter windows, or fewer jobs")
    for k, inst in enumerate(jobs):
        if inst.deadline != d:
            raise InvalidScenarioError("jobs", f"[{k}] has deadline {inst.deadline}, job 0 has {d}")
    preds = ([perfect()] * len(jobs) if predictor is None else
             list(predictor) if isinstance(predictor, (list, tuple)) else [predictor] * len(jobs))
    if len(preds) != len(jobs):
        raise InvalidScenarioError("predictor", f"{len(preds)} predictors for {len(jobs)} jobs")
    changeover = jobs[0].changeover == "on"
    if any((inst.changeover == "on") != changeover for inst in jobs):  # mixed: one kernel flag per call
        lead = max([p.window for p in pool if p.algorithm == "ahap"], default=1)
        t0 = time.perf_counter()
        fcs = _forecasts(jobs, preds, lead, seed)
        t1 = time.perf_counter()
        utility, solved = _evaluate_reference(jobs, pool, fcs, sigma_rule, first_slot, averaging, deadline_guard)
        return utility, {"forecast_s": t1 - t0, "kernel_s": time.perf_counter() - t1,
                         "windows_solved": int(solved.sum()), "quantum": None, "engine": "reference",
                         "windows_unique": 0, "windows_padded": 0, "window_s": 0.0, "forward_passes": 0}
    q = wk.work_quantum(list(jobs))
    if q is None:
        raise InvalidScenarioError("jobs", "work per slot has no decimal quantum (see work_quantum)")
    try:
        shift_set = {wk.shifts_of(inst, q) for inst in jobs}
    except ValueError as exc:
        raise InvalidScenarioError("jobs", f"no lattice for the window DP ({exc})") from None
    if len(shift_set) != 1:
        raise InvalidScenarioError("jobs", "jobs differ in efficiency or throughput (one kernel per batch)")
    shifts = shift_set.pop()
    size = max(wk.options_size(inst) for inst in jobs)
    lead = max([p.window for p in pool if p.algorithm == "ahap"], default=1)
    t0 = time.perf_counter()
    fcs = _forecasts(jobs, preds, lead, seed)
    arrays = [wk.job_arrays(inst, pf, af, q, lead=lead, size=size) for inst, (pf, af) in zip(jobs, fcs)]
    t1 = time.perf_counter()
    K, M = len(jobs), len(pool)
    utility = np.zeros((K, M))
    solved = np.zeros((K, M), np.int64)
    groups: dict[int, list[int]] = {}
    for m, p in enumerate(pool):
        groups.setdefault(p.window if p.algorithm == "ahap" else 0, []).append(m)
    stats = {"windows_unique": 0, "windows_padded": 0, "window_s": 0.0, "forward_passes": 0}
    if engine == "batched":
        ahap = [m for m, p in enumerate(pool) if p.algorithm == "ahap"]
        if ahap:
            out = pk.ahap_pool(wk.stack(arrays), np.array([pool[m].window for m in ahap]),
                               np.array([pool[m].commitment for m in ahap]),
                               np.array([pool[m].threshold for m in ahap]),
                               lattice_step=wk.lattice_size(list(jobs), 0, q), shifts=shifts,
                               sigma_rule=sigma_rule, averaging=averaging,
                               deadline_guard=deadline_guard, changeover=changeover)
            solved[:, ahap] = out["windows_solved"]
            utility[:, ahap] = out["utility"]
            for key in stats:
                stats[key] += out["stats"][key]
        groups = {0: groups[0]} if 0 in groups else {}
    for start in range(0, K, chunk):
        batch = wk.stack(arrays[start:start + chunk])
        n = min(chunk, K - start)
        if n < chunk and (K > chunk or engine == "batched"):  # pad the last chunk: same shape, no recompile
            batch = {k: np.concatenate([v, np.repeat(v[-1:], chunk - n, 0)]) for k, v in batch.items()}
        for w, members in groups.items():
            thr = np.array([pool[m].threshold for m in members])
            if w == 0:
                out = wk.ahanp_batch(batch, thr, first_slot=first_slot, changeover=changeover)
            else:
                com = np.array([pool[m].commitment for m in members])
                out = wk.ahap_batch(batch, com, thr, window=w, lattice=wk.lattice_size(list(jobs), w, q),
                                    shifts=shifts, sigma_rule=sigma_rule, averaging=averaging,
                                    deadline_guard=deadline_guard, changeover=changeover)
                solved[start:start + n, members] = out["windows_solved"][:n]
            utility[start:start + n, members] = out["utility"][:n]
    t2 = time.perf_counter()
    return utility, {"forecast_s": t1 - t0, "kernel_s": t2 - t1, "windows_solved": int(solved.sum()),
                     "quantum": q, "engine": engine, "changeover": changeover, **stats}


def _evaluate_reference(jobs: Sequence[SpotInstance], pool: Sequence[Policy], fcs: list, sigma_rule: str,
                        first_slot: str, averaging: str, deadline_guard: bool) -> tuple[np.ndarray, np.ndarray]:
    """Utilities and (10) solves of every (job, policy) with the NumPy references (changeover on in some jobs).

    The references plan the window (10) with the changeover
    (:func:`~aisched.online.spot.window.reference.solve_window`); the utility is
    :func:`~aisched.models.spot.plan_utility` of the full-horizon plan, as
    ``aisched.run`` reports it. A loop over jobs and policies: slow, for small pools.
    """
    from aisched.models.spot import plan_utility
    from aisched.online.spot.ahap import finish_plan

    utility = np.zeros((len(jobs), len(pool)))
    solved = np.zeros((len(jobs), len(pool)), np.int64)
    for k, (inst, (pf, af)) in enumerate(zip(jobs, fcs)):
        for m, p in enumerate(pool):
            if p.algorithm == "ahap":
                od, sp, extra = wr.ahap_reference(inst, pf, af, p.window, p.commitment, p.threshold, sigma_rule,
                                                  averaging, bool(deadline_guard))
                od, sp = finish_plan(inst, od, sp)
                solved[k, m] = extra["windows_solved"]
            else:
                od, sp = wr.ahanp_reference(inst, p.threshold, first_slot)
            utility[k, m] = plan_utility(inst, od, sp)[0]
    return utility, solved


def normalise_utilities(utility: np.ndarray, jobs: Sequence[SpotInstance] | None = None,
                        how: str = "pool") -> np.ndarray:
    """Per-job normalisation to ``[0, 1]`` (see the module docstring)."""
    u = np.asarray(utility, float)
    if how == "pool":
        lo, hi = u.min(axis=1, keepdims=True), u.max(axis=1, keepdims=True)
        span = np.where(hi > lo, hi - lo, 1.0)
        return np.where(hi > lo, (u - lo) / span, 1.0)
    if how == "range":
        if jobs is None:
            raise InvalidScenarioError("normalise", "'range' needs the jobs")
        lo = np.array([-i.max_gpus * np.sum(np.maximum(i.on_demand_price, i.spot_price)) for i in jobs])
        hi = np.array([i.value for i in jobs])
        return np.clip((u - lo[:, None]) / (hi - lo)[:, None], 0.0, 1.0)
    raise InvalidScenarioError("normalise", f"= {how!r} is not 'pool' or 'range'")


@jax.jit
def _eg(u: jax.Array, eta: jax.Array) -> jax.Array:
    M = u.shape[1]

    def step(logw, uk):
        w = jax.nn.softmax(logw)
        return logw + eta * uk, w

    _, weights = jax.lax.scan(step, jnp.full(M, -jnp.log(M)), u)
    return weights


def eg_weights(normalised: np.ndarray, eta: float | None = None) -> np.ndarray:
    """Weights ``w_k`` used for job ``k`` (``(K, M)``), lines 2-11 of Algorithm 2."""
    u = np.asarray(normalised, float)
    K, M = u.shape
    eta = math.sqrt(2 * math.log(M) / K) if eta is None else eta
    with jax.enable_x64(True):
        return np.asarray(_eg(jnp.asarray(u), jnp.asarray(eta)))


@dataclass
class SelectionResult:
    """What :func:`select` returns.

    Attributes
    ----------
    weights
        ``xarray.DataArray`` (job, policy): the weights ``w_k`` used for job ``k``.
    utility, normalised
        ``xarray.DataArray`` (job, policy): raw utilities (9) and their ``[0, 1]`` version.
    chosen
        (job,) index of the policy selected for each job (line 6).
    realised
        (job,) raw utility of the chosen policy.
    expected
        (job,) ``<w_k, u_k>`` (normalised).
    regret, regret_bound
        ``max_m sum_k u_k^m - sum_k <w_k, u_k>`` and ``sqrt(2 K ln M)`` (Theorem 2).
    best_policy
        Index of the best fixed policy in hindsight.
    """

    weights: xr.DataArray
    utility: xr.DataArray
    normalised: xr.DataArray
    chosen: np.ndarray
    realised: np.ndarray
    expected: np.ndarray
    regret: float
    regret_bound: float
    best_policy: int
    eta: float
    pool: list[Policy]
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def policy_names(self) -> list[str]:
        return [p.name for p in self.pool]

    @property
    def most_weighted(self) -> int:
        """Policy with the largest final weight."""
        return int(np.argmax(self.weights.values[-1]))


def select(jobs: Sequence[SpotInstance], pool: Sequence[Policy] | None = None,
           predictor: Predictor | Sequence[Predictor] | None = None, *,
           phases: Sequence[tuple[int, Predictor]] | None = None, normalise: str = "pool",
           choice: str = "sample", seed: int = 0, utilities: np.ndarray | None = None,
           eta: float | None = None, engine: str = "batched") -> SelectionResult:
    """Algorithm 2 over ``pool`` on the workload ``jobs``.

    Parameters
    ----------
    jobs
        The K jobs, in arrival order.
    pool
        Candidate policies (default :func:`paper_pool`, M = 112).
    predictor
        Forecaster for AHAP (default perfect), or one per job.
    phases
        Non-stationary run (Fig. 10): ``[(n_jobs, predictor), ...]`` covering all jobs.
    normalise, choice, seed
        See the module docstring.
    utilities
        Precomputed raw utilities ``(K, M)`` (skips the pool evaluation).
    eta
        Learning rate (default ``sqrt(2 ln M / K)``).
    engine
        Pool evaluator, see :func:`evaluate_pool`.
    """
    pool = paper_pool() if pool is None else list(pool)
    if not pool:
        raise InvalidScenarioError("pool", "is empty (Algorithm 2 needs at least one policy)")
    if not jobs:
        raise InvalidScenarioError("jobs", "is empty")
    one_of("choice", choice, ("sample", "greedy"))
    if phases is not None:
        counts = [int(n) for n, _ in phases]
        if sum(counts) != len(jobs) or min(counts) < 1:
            raise InvalidScenarioError("phases", f"cover {sum(counts)} jobs, the workload has {len(jobs)}")
        predictor = [p for n, p in phases for _ in range(int(n))]
    info: dict[str, Any] = {}
    if utilities is None:
        utilities, info = evaluate_pool(jobs, pool, predictor, seed=seed, engine=engine)
    u = np.asarray(utilities, float)
    if u.shape != (len(jobs), len(pool)):
        raise InvalidScenarioError("utilities", f"has shape {u.shape}, expected {(len(jobs), len(pool))}")
    t0 = time.perf_counter()
    norm = normalise_utilities(u, jobs, normalise)
    K, M = norm.shape
    eta = math.sqrt(2 * math.log(M) / K) if eta is None else float(eta)
    weights = eg_weights(norm, eta)
    info["selection_s"] = time.perf_counter() - t0
    expected = np.sum(weights * norm, axis=1)
    totals = norm.sum(axis=0)
    best = int(np.argmax(totals))
    regret = float(totals[best] - expected.sum())
    if choice == "greedy":
        chosen = np.argmax(weights, axis=1)
    else:
        rng = np.random.default_rng(seed)
        cum = np.cumsum(weights, axis=1)
        chosen = np.minimum((cum < rng.random(K)[:, None] * cum[:, -1:]).sum(axis=1), M - 1)
    coords = {"job": np.arange(K), "policy": [p.name for p in pool]}
    da = lambda x, name: xr.DataArray(x, dims=("job", "policy"), coords=coords, name=name)  # noqa: E731
    return SelectionResult(
        weights=da(weights, "weight"), utility=da(u, "utility"), normalised=da(norm, "normalised"),
        chosen=chosen, realised=u[np.arange(K), chosen], expected=expected, regret=regret,
        regret_bound=math.sqrt(2 * K * math.log(M)), best_policy=best, eta=eta, pool=pool, info=info)
