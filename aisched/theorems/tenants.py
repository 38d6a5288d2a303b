"""The Astraea paper's guarantees as checks: Theorems 1, 2, 4, 5 and the sharing incentive.

The paper's proofs are in its online supplement, not in our copy: each check tests the
statement as printed (section 4.5), with the run's own ``lambda`` (rounds per batch),
``L`` (the batch levels the run reached, ``info["last_batch"]``) and ``theta_w, theta_p``.

- :func:`theorem1` -- linear utilities ``k t + g``: ``OPT - Astraea <= (sum_u J^u)((2^L - 1) k_max
  - (2^(L+1) - 1)(2 lambda - 1) k_min)``; convex ``(e / t)^kappa``: ``Astraea / OPT >=
  (1 / (4 lambda))^kappa_max (1 / 2^(L-2))^(kappa_max - kappa_min) e_min^kappa_max / e_max^kappa_min``.
  Premise: ``lambda`` is Lemma 1's (the default run uses ``lam=2``, the worked example's).
- :func:`theorem2` -- the plan is feasible for problem (3) (its constraints re-checked from the plan).
- :func:`sharing_incentive` -- every tenant gains at least what it gains on its own share
  (the same run with ``sharing=False``: line 5 of Algorithm 2 skipped).
- :func:`theorem4` -- strategy-proof: a job that reports a scaled utility does not raise its
  owner's gain, measured with the true utilities.
- :func:`theorem5` -- Pareto efficient: an alternative plan (default the offline optimum) does
  not give every tenant at least its Astraea gain (and one more).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from aisched.core import runner
from aisched.errors import AischedError, InfeasiblePlanError, InvalidScenarioError
from aisched.models.tenants import TenantInstance
from aisched.online.tenants.astraea.algorithm import lemma1_lambda, make_params, outcome_of, simulate
from aisched.online.tenants.astraea.algorithm import run as run_astraea
from aisched.online.tenants.metrics import fairness
from aisched.online.tenants.theta import estimation_jobs
from aisched.outcome import Outcome
from aisched.theorems.core import Premise, TheoremCheck, check, load_instance, not_checkable

__all__ = ["theorem1", "theorem2", "theorem4", "theorem5", "sharing_incentive", "checks", "suite", "FAMILY"]

FAMILY = "tenants"


def _gains(instance: TenantInstance, outcome: Outcome) -> np.ndarray:
    return fairness(instance, outcome).per_user["gain"].to_numpy(dtype=float)


def run_alone(instance: TenantInstance, *, lam: int | str = 2, theta_w: float | None = None,
              theta_p: float | None = None, clock: str = "batch", theta_scale: float = 1.0,
              admission: str = "real_revenue", theta_estimate: str = "past_window") -> Outcome:
    """Astraea with ``sharing=False``: each tenant only on its own fair share (Algorithm 2 without line 5)."""
    import time

    started = time.perf_counter()
    source, _ = estimation_jobs(instance, theta_estimate)
    params = make_params(instance, lam, theta_w, theta_p, clock, False, theta_scale, admission,  # type: ignore[arg-type]
                         estimated_from=source)
    res, info = simulate(instance, params)
    return outcome_of(instance, res, params, "astraea", started, info)


def _lambda_premise(instance: TenantInstance, out: Outcome) -> Premise:
    want = lemma1_lambda(instance, float(out.info["theta_w"]), float(out.info["theta_p"]))
    return Premise("lambda is Lemma 1's", bool(int(out.info["lam"]) == want),
                   f"lambda = {out.info['lam']}, Lemma 1's = {want}")


def _horizon_premise(instance: TenantInstance, lam: int) -> Premise:
    """Algorithm 1 runs batch ``l`` (arrivals in ``[2^(l-1), 2^l)``) in slots ``lambda 2^l .. 2 lambda 2^l - 1``;
    the paper's horizon is unbounded, ours is ``num_slots``: every batch must fit in it."""
    last = int(instance.arrival.max()) if instance.num_jobs else 0
    level = max(1, int(math.floor(math.log2(last))) + 1) if last >= 2 else 1
    need = 2 * lam * 2**level
    return Premise("the horizon holds every batch (T >= 2 lambda 2^L)", bool(instance.num_slots >= need),
                   f"T = {instance.num_slots}, the last batch ends at slot {need}")


def _optimum(instance: TenantInstance, time_limit: float | None) -> tuple[float, str, Outcome | None]:
    """OPT of (3) where HiGHS proves it; else an upper bound (the solve's, or the certified bound where
    the MILP is too large to build), with no plan."""
    try:
        off = runner.offline(instance, time_limit=time_limit)
    except AischedError:  # the MILP refused (too many terms): the certified bound only
        bound = runner.bound(instance, time_limit=time_limit)
        return bound.bound, "bound only", None
    if off.status == "optimal":
        return off.objective, "exact", off
    return off.bound, "bound only", off


def theorem1(instance: TenantInstance, outcome: Outcome | None = None, *, time_limit: float | None = 30.0,
             optimum: tuple[float, str, Outcome] | None = None, **options: Any) -> TheoremCheck:
    """Theorem 1 (performance guarantee) in the instance's utility form; see the module docstring.

    Linear: margin ``(C - (OPT - P)) / C`` (>= 0 holds). Convex: margin ``P / OPT - r``.
    """
    out = outcome if outcome is not None else run_astraea(instance, **options)
    opt, exact, _ = optimum if optimum is not None else _optimum(instance, time_limit)
    lam, levels, n = int(out.info["lam"]), int(out.info.get("last_batch", 1)), instance.num_jobs
    premises = [_lambda_premise(instance, out), _horizon_premise(instance, lam)]
    p = out.objective
    if n == 0 or math.isnan(opt):
        return not_checkable(FAMILY, "Theorem 1", "OPT - Astraea bounded (linear) / ratio (convex)",
                             "no job, or no bound on OPT", tuple(premises))
    if instance.utility == "linear":
        k = instance.utility_slope
        premises.append(Premise("k_j < 0 < g_j (linear form)", bool(np.all(k < 0) and np.all(instance.utility_intercept > 0)),
                                f"k in [{k.min():.3g}, {k.max():.3g}], g >= {instance.utility_intercept.min():.3g}"))
        constant = n * ((2**levels - 1) * k.max() - (2 ** (levels + 1) - 1) * (2 * lam - 1) * k.min())
        gap = opt - p
        return check(FAMILY, "Theorem 1", "OPT - Astraea <= (sum_u J^u)((2^L-1) k_max - (2^(L+1)-1)(2 lambda-1) k_min)",
                     premises, bound=constant, measured=gap, margin=(constant - gap) / abs(constant),
                     unit="fraction of the bound", exact=exact,
                     detail=f"OPT = {opt:.6g} ({exact}), Astraea = {p:.6g}, L = {levels}, lambda = {lam}",
                     optimum=opt, levels=levels)
    e, kappa = instance.utility_scale, instance.utility_exponent
    premises.append(Premise("e_j, kappa_j > 0 (convex form)", bool(np.all(e > 0) and np.all(kappa > 0)),
                            f"e in [{e.min():.3g}, {e.max():.3g}], kappa in [{kappa.min():.3g}, {kappa.max():.3g}]"))
    ratio = ((1 / (4 * lam)) ** kappa.max() * (1 / 2 ** (levels - 2)) ** (kappa.max() - kappa.min())
             * e.min() ** kappa.max() / e.max() ** kappa.min())
    measured = p / opt if opt > 0 else 1.0
    # with only a bound on OPT, P / bound is a lower estimate of P / OPT: a shortfall is inconclusive
    return check(FAMILY, "Theorem 1", "Astraea / OPT >= (1/(4 lambda))^k_max (1/2^(L-2))^(k_max-k_min) "
                 "e_min^k_max / e_max^k_min", premises, bound=ratio, measured=measured,
                 margin=measured - ratio, unit="ratio", exact=exact,
                 detail=f"OPT = {opt:.6g} ({exact}), Astraea = {p:.6g}, L = {levels}, lambda = {lam}"
                        + ("; the bound exceeds 1, so no algorithm can meet it" if ratio > 1 else ""),
                 optimum=opt, levels=levels)


def theorem2(instance: TenantInstance, outcome: Outcome | None = None, **options: Any) -> TheoremCheck:
    """Theorem 2 (correctness): the plan satisfies every constraint of (3) (:meth:`Outcome.verify`)."""
    out = outcome if outcome is not None else run_astraea(instance, **options)
    statement = "Astraea's schedule is feasible for problem (3)"
    try:
        out.verify(instance)
    except InfeasiblePlanError as exc:
        return check(FAMILY, "Theorem 2", statement, [], bound=0.0, measured=1.0, margin=-1.0,
                     unit="constraints broken", exact="exact", detail=str(exc))
    return check(FAMILY, "Theorem 2", statement, [], bound=0.0, measured=0.0, margin=0.0,
                 unit="constraints broken", exact="exact", detail="every constraint of (3) holds")


def sharing_incentive(instance: TenantInstance, outcome: Outcome | None = None, **options: Any) -> TheoremCheck:
    """Sharing incentive (section 3.2): each tenant's gain with sharing >= its gain on its own share alone.

    Compares whole runs (``sharing=True`` against ``sharing=False``); the paper states it per
    interval ("batch sharing incentive"), which implies this when the same jobs reach each batch.
    Margin: the least ``gain_shared - gain_alone`` over tenants, over the largest gain.
    """
    out = outcome if outcome is not None else run_astraea(instance, **options)
    alone = run_alone(instance, **options)
    shared, own = _gains(instance, out), _gains(instance, alone)
    diff = shared - own
    u = int(np.argmin(diff)) if diff.size else 0
    scale = max(1.0, float(np.max(np.abs(own), initial=0.0)), float(np.max(np.abs(shared), initial=0.0)))
    return check(FAMILY, "Sharing incentive", "every tenant gains at least what its own share alone gives it", [],
                 bound=0.0, measured=float(diff[u]) if diff.size else 0.0,
                 margin=float(diff[u]) / scale if diff.size else 0.0, unit="x largest gain", exact="exact",
                 detail=f"tenant {u}: {shared[u]:.6g} shared, {own[u]:.6g} alone" if diff.size else "no tenant",
                 tenant=u)


def theorem4(instance: TenantInstance, job: int, factor: float, **options: Any) -> TheoremCheck:
    """Theorem 4 (strategy-proof): job ``job`` reports its utility scaled by ``factor``; its owner's
    gain, measured with the true utilities, must not rise. Margin ``(truthful - lying) / |truthful|``."""
    if isinstance(job, bool) or not isinstance(job, (int, np.integer)) or not 0 <= job < instance.num_jobs:
        raise InvalidScenarioError("job", f"= {job!r} must be a job index in 0..{instance.num_jobs - 1}")
    if not (isinstance(factor, (int, float)) and math.isfinite(factor) and factor > 0):
        raise InvalidScenarioError("factor", f"= {factor!r} must be a finite number > 0")
    field = "utility_intercept" if instance.utility == "linear" else "utility_scale"
    values = getattr(instance, field).copy()
    values[job] *= factor
    extra = {"utility_slope": instance.utility_slope * np.where(np.arange(instance.num_jobs) == job, factor, 1.0)} \
        if instance.utility == "linear" else {}
    lie = instance.replace(**{field: values}, **extra)
    owner = int(instance.owner[job])
    truthful = _gains(instance, run_astraea(instance, **options))[owner]
    lied = run_astraea(lie, **options)  # its plan, valued at the true utilities
    lied = dataclasses.replace(lied, objective=float(instance.verify_plan(lied.plan)))
    lying = _gains(instance, lied)[owner]
    scale = max(1.0, abs(truthful))
    return check(FAMILY, "Theorem 4", "no tenant gains by misreporting a job's utility", [], bound=0.0,
                 measured=(lying - truthful) / scale, margin=(truthful - lying) / scale,
                 unit="x truthful gain", exact="exact",
                 detail=f"job {job} (tenant {owner}) reports x{factor:g}: gain {truthful:.6g} -> {lying:.6g}",
                 job=int(job), factor=float(factor))


def theorem5(instance: TenantInstance, outcome: Outcome | None = None, alternative: Outcome | None = None, *,
             time_limit: float | None = 30.0, **options: Any) -> TheoremCheck:
    """Theorem 5 (Pareto efficient): no alternative plan gives every tenant at least its Astraea gain.

    The alternative (default: the offline optimum of (3)) pays no one: each tenant's gain there
    is its own jobs' revenue. Margin ``max_u (gain_Astraea(u) - gain_alt(u))`` over the largest
    gain when Astraea is strictly better for some tenant, else ``min_u`` of it: < 0 means the
    alternative is at least as good for every tenant and better for one (it Pareto-dominates).
    Against the offline optimum this is the hindsight reading (the alternative knows the future and
    ignores the batches); see docs/theorems.md.
    """
    out = outcome if outcome is not None else run_astraea(instance, **options)
    alt = alternative if alternative is not None else runner.offline(instance, time_limit=time_limit)
    if math.isnan(alt.objective):
        return not_checkable(FAMILY, "Theorem 5", "no plan makes every tenant better off",
                             "the alternative has no plan")
    mine, theirs = _gains(instance, out), _gains(instance, alt)
    diff = mine - theirs
    scale = max(1.0, float(np.max(np.abs(mine), initial=0.0)), float(np.max(np.abs(theirs), initial=0.0)))
    # some tenant strictly better off under Astraea: not dominated (margin its lead); otherwise the
    # alternative is at least as good for all, and dominates when one tenant is strictly better there
    lead = float(diff.max()) / scale
    margin = lead if lead > 1e-9 else float(diff.min()) / scale
    return check(FAMILY, "Theorem 5", "no plan makes every tenant better off (Pareto)", [], bound=0.0,
                 measured=margin, margin=margin, unit="x largest gain",
                 exact="exact", detail=f"gains Astraea {np.round(mine, 3).tolist()} vs {alt.algorithm} "
                                       f"{np.round(theirs, 3).tolist()}")


def checks(instance: TenantInstance, *, time_limit: float | None = 30.0, deviations: int = 2,
           **options: Any) -> list[TheoremCheck]:
    """Every check on one instance, sharing one Astraea run and one offline solve."""
    out = run_astraea(instance, **options)
    opt = _optimum(instance, time_limit)
    found = [theorem1(instance, out, optimum=opt), theorem2(instance, out), sharing_incentive(instance, out, **options)]
    found.append(theorem5(instance, out, opt[2]) if opt[1] == "exact" and opt[2] is not None else not_checkable(
        FAMILY, "Theorem 5", "no plan makes every tenant better off (Pareto)", "the offline optimum was not proved"))
    lies = [theorem4(instance, int(j), f, **options) for j in range(min(deviations, instance.num_jobs))
            for f in (0.5, 2.0)]
    if lies:
        found.append(min(lies, key=lambda c: c.margin))
    return found


# ------------------------------------------------------------------ the search (aisched.theorems.search)
def random_instance(rng: np.random.Generator) -> TenantInstance:
    """A random small instance from the generator (2-3 users, 2-3 servers, 3-6 jobs, either utility form)."""
    from aisched.scenarios.tenants.generator import generate

    return generate(seed=int(rng.integers(0, 2**31 - 1)), users=int(rng.integers(2, 4)),
                    servers=int(rng.integers(2, 4)), jobs=int(rng.integers(3, 7)),
                    utility=str(rng.choice(["linear", "convex"])))


def mutate(instance: TenantInstance, rng: np.random.Generator) -> TenantInstance:
    """One local move: a job's utility parameter scaled, its arrival moved by one, or a quota moved by one."""
    j, u = int(rng.integers(instance.num_jobs)), int(rng.integers(instance.num_users))
    move = rng.choice(["utility", "arrival", "quota"])
    if move == "utility":
        name = str(rng.choice(["utility_slope", "utility_intercept"] if instance.utility == "linear"
                              else ["utility_scale", "utility_exponent"]))
        values = getattr(instance, name).copy()
        values[j] *= float(rng.uniform(0.5, 2.0))
        return instance.replace(**{name: values})
    if move == "arrival":
        arrival = instance.arrival.copy()
        arrival[j] = int(np.clip(arrival[j] + rng.choice([-1, 1]), 0, instance.num_slots - 1))
        return instance.replace(arrival=arrival)
    quota = instance.worker_quota.copy()
    other = (u + 1) % instance.num_users
    if quota[u] == 0:
        raise InvalidScenarioError("worker_quota", f"[{u}] = 0 has nothing to give")
    quota[u] -= 1
    quota[other] += 1
    return instance.replace(worker_quota=quota)


def load(path: Any) -> TenantInstance:
    """A saved instance (``instance.to_dataset().to_netcdf(path)``)."""
    return load_instance(TenantInstance, path)


def suite() -> Any:
    """The search's view of this family (:class:`aisched.theorems.search.Suite`)."""
    from aisched.theorems.search import Suite

    return Suite(FAMILY, checks, random_instance, mutate, load)
