"""What ComDOS's primal-dual construction proves, and Fig. 9's claim, as checks.

The genai paper states no theorem. Its construction (section III-B) gives, per run:

- **the step inequality**: for a job with ``mu_i > 0``, ``mu_i = b_il - sum r lambda^(i-1)`` (8)
  and (9) give ``D^i - D^(i-1) = mu_i + sum_kt c_k (lambda_kt^(i) - lambda_kt^(i-1)) = (1 + alpha) b_il``
  (with equality when (8)'s maximiser is the schedule committed); recorded by every run
  (``info["dual_step_slack"]``, :func:`dual_step`);
- **dual feasibility**: if (8) is maximised exactly, ``(mu, lambda^(I))`` is feasible for (7)
  (prices only rise), so ``D_1^I`` bounds the optimum of (5); :func:`dual_feasibility` re-solves
  (8) exactly at the final prices (:mod:`aisched.online.genai.comdos.exact`) and repairs ``mu``
  into a feasible dual solution whose objective is a certified bound on OPT (:func:`dual_certificate`);
- no competitive ratio: the paper proves no capacity control (a Lemma 2) nor a rounding step
  (a Lemma 3), so ``D / P`` is what one run certifies, not a guarantee.

Fig. 9's "empirical competitive ratios of no more than 2" is a claim, checked as one
(:func:`fig9_claim`, ``OPT / P <= 2`` with the proved optimum).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from aisched.core import runner
from aisched.models.genai import GenaiInstance
from aisched.online.genai.comdos import exact as comdos_exact
from aisched.online.genai.comdos.algorithm import ComdosState, job_data
from aisched.online.genai.comdos.algorithm import run as run_comdos
from aisched.outcome import Outcome
from aisched.theorems.core import TheoremCheck, check, load_instance, not_checkable

__all__ = ["dual_step", "dual_certificate", "dual_feasibility", "fig9_claim", "checks", "suite", "FAMILY"]

FAMILY = "genai"


def dual_step(instance: GenaiInstance, outcome: Outcome) -> TheoremCheck:
    """The construction's step inequality ``D^i - D^(i-1) <= (1 + alpha) b_il`` over the run's jobs."""
    slack = outcome.info.get("dual_step_slack", float("nan"))
    statement = "D^i - D^(i-1) <= (1 + alpha) b_il for every job with mu_i > 0 ((8), (9))"
    if math.isnan(slack):
        return not_checkable(FAMILY, "Dual step (8)-(9)", statement, "no job had mu_i > 0")
    factor = 1.0 + float(outcome.info["alpha"])
    return check(FAMILY, "Dual step (8)-(9)", statement, [], bound=factor, measured=factor * (1 - slack),
                 margin=factor * slack, unit="ratio", exact="exact", scale=factor,
                 detail=f"D_1^I = {outcome.info['dual_objective']:.6g}, "
                        f"P~ = {outcome.info['almost_feasible_welfare']:.6g}")


def dual_certificate(instance: GenaiInstance, outcome: Outcome, **options: Any) -> dict[str, Any]:
    """``mu-hat_i = max{0, max_l b_il - sum r lambda^(I)}`` by the exact selection at the final prices.

    Returns ``dual_bound`` (objective of the feasible ``(mu-hat, lambda^(I))``), ``gap``
    (``max_i mu-hat_i - mu_i``; <= 0 when the run's own duals are feasible) and ``tasks``.
    """
    price = np.asarray(outcome.prices["memory_price"].values, float)
    state = ComdosState(instance, **{k: v for k, v in options.items() if k in ("alpha", "cost_weights")})
    mu_hat = np.zeros(instance.num_jobs)
    for i in range(instance.num_jobs):
        job = job_data(instance, i, state.weights, state.max_parents)[0]
        best, _ = comdos_exact.select(job, price)
        mu_hat[i] = max(0.0, best) if math.isfinite(best) else 0.0
    mu = np.asarray(outcome.info["mu"], float)
    gap = mu_hat - mu
    scale = max(1.0, float(np.max(np.abs(mu_hat), initial=0.0)))
    return {"dual_bound": float(mu_hat.sum() + np.sum(instance.memory_capacity[:, None] * price)),
            "gap": float(gap.max(initial=0.0)), "jobs": int(np.sum(gap > 1e-9 * scale)), "scale": scale}


def dual_feasibility(instance: GenaiInstance, outcome: Outcome, certificate: dict[str, Any] | None = None,
                     **options: Any) -> TheoremCheck:
    """Is the run's ``(mu, lambda^(I))`` feasible for (7)? Margin ``-max_i (mu-hat_i - mu_i)`` / largest mu-hat."""
    cert = certificate if certificate is not None else dual_certificate(instance, outcome, **options)
    return check(FAMILY, "Dual feasibility (7a)", "mu_i >= b_il - sum r lambda^(I) for every job and schedule", [],
                 bound=0.0, measured=cert["gap"] / cert["scale"], margin=-cert["gap"] / cert["scale"],
                 unit="x largest mu-hat", exact="exact",
                 detail=f"{cert['jobs']} job(s) break (7a) at the run's mu; feasible dual bound "
                        f"{cert['dual_bound']:.6g} (D_1^I as run {outcome.info['dual_objective']:.6g})",
                 dual_bound=cert["dual_bound"])


def fig9_claim(instance: GenaiInstance, outcome: Outcome, *, time_limit: float | None = 30.0,
               certificate: dict[str, Any] | None = None) -> TheoremCheck:
    """Fig. 9's claim ``OPT / P <= 2`` (empirical, no theorem), with the certified ratio ``D-hat / P`` beside it."""
    off = runner.offline(instance, time_limit=time_limit)
    statement = "OPT / ComDOS <= 2 (Fig. 9, an empirical claim)"
    cert = certificate
    if off.status != "optimal":
        return not_checkable(FAMILY, "Fig. 9 claim", statement, f"the optimum was not proved ({off.status})")
    opt, p = off.objective, outcome.objective
    extra = {} if cert is None else {"dual_bound": cert["dual_bound"]}
    if opt <= 0:
        return check(FAMILY, "Fig. 9 claim", statement, [], bound=2.0, measured=1.0, margin=1.0, unit="ratio",
                     exact="exact", detail="OPT = 0", **extra)
    ratio = opt / p if p > 0 else math.inf
    certified = "" if cert is None or p <= 0 else f"; the run certifies D-hat / P = {cert['dual_bound'] / p:.4g}"
    return check(FAMILY, "Fig. 9 claim", statement, [], bound=2.0, measured=ratio, margin=(2 * p - opt) / opt,
                 unit="fraction of OPT", exact="exact",
                 detail=f"OPT = {opt:.6g}, ComDOS = {p:.6g}{certified}", optimum=opt, **extra)


def checks(instance: GenaiInstance, *, time_limit: float | None = 30.0, **options: Any) -> list[TheoremCheck]:
    """Every check on one instance, sharing one run and one certificate."""
    out = run_comdos(instance, **options)
    cert = dual_certificate(instance, out, **options)
    return [dual_step(instance, out), dual_feasibility(instance, out, cert),
            fig9_claim(instance, out, time_limit=time_limit, certificate=cert)]


def random_instance(rng: np.random.Generator) -> GenaiInstance:
    """A random small instance of the generator (2-4 jobs, 2-3 edges, few slots)."""
    from aisched.scenarios.genai.generator import generate

    return generate(seed=int(rng.integers(0, 2**31 - 1)), jobs=int(rng.integers(2, 5)), edges=int(rng.integers(2, 4)),
                    slots=int(rng.integers(6, 13)))


def mutate(instance: GenaiInstance, rng: np.random.Generator) -> GenaiInstance:
    """A local move: one job's revenue scaled, or an edge's capacity moved by a tenth."""
    if rng.random() < 0.5:
        revenue = np.array(instance.revenue, float)
        revenue[int(rng.integers(revenue.size))] *= float(rng.uniform(0.5, 2.0))
        return instance.replace(revenue=revenue)
    capacity = np.array(instance.memory_capacity, float)
    k = int(rng.integers(capacity.size))
    capacity[k] = max(1e-3, capacity[k] * float(rng.choice([0.9, 1.1])))
    return instance.replace(memory_capacity=capacity)


def load(path: Any) -> GenaiInstance:
    """A saved instance (``instance.to_dataset().to_netcdf(path)``)."""
    return load_instance(GenaiInstance, path)


def suite() -> Any:
    """The search's view of this family (:class:`aisched.theorems.search.Suite`)."""
    from aisched.theorems.search import Suite

    return Suite(FAMILY, checks, random_instance, mutate, load)
