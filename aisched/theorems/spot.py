"""The spot-market paper's guarantees as checks: Theorem 1 (AHAP's gap to OPT) and Theorem 2 (regret).

- :func:`theorem1` -- ``U(OPT) - U(AHAP) <= (2/v) sum_{k=1}^v G_{k,d} + (sigma p_o d / v) sum_{k=1}^v D_{k,sigma}``
  (12), under the prediction budget (11). Checked with the perfect predictor, where every
  prediction error is 0 and so ``G_{k,d} = 0`` exactly; ``D_{k,sigma}`` is then the largest
  spot availability in a slot priced at most ``sigma p_o`` (the range the predictions of
  availability below sigma lie in). ``OPT`` is the offline optimum of (5) where HiGHS proves it.
  With a noisy predictor ``G`` needs ``sup_x |u(x, y_t) - u(x, y_t|t-w)|`` of a per-slot utility
  the paper does not define for (9): not checkable here.
- :func:`theorem2` -- the exponentiated-gradient selection (Algorithm 2, ``eta = sqrt(2 ln M / K)``)
  on normalised utilities ``u_k in [0, 1]^M`` has regret ``<= sqrt(2 K ln M)`` (13).

The search's instance is a :class:`SpotCase`: one job with its market (Theorem 1) and a
``(K, M)`` utility matrix (Theorem 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr

from aisched.core import runner
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.online.spot.selection import eg_weights
from aisched.theorems.core import Premise, TheoremCheck, check, not_checkable

__all__ = ["SpotCase", "theorem1", "theorem2", "checks", "suite", "POLICIES", "FAMILY"]

FAMILY = "spot"
#: AHAP policies ``(w, v, sigma)`` Theorem 1 is checked for on every job: the default and two corners.
POLICIES = ((3, 2, 0.6), (1, 1, 0.3), (5, 5, 0.9))


def theorem1(instance: SpotInstance, *, window: int = 3, commitment: int = 2, threshold: float = 0.6,
             time_limit: float | None = 30.0, optimum: Any = None, **options: Any) -> TheoremCheck:
    """Theorem 1 with the perfect predictor (``G_{k,d} = 0``); margin ``(bound - gap) / max(bound, |OPT|)``."""
    statement = "U(OPT) - U(AHAP) <= (2/v) sum_k G_k,d + (sigma p_o d / v) sum_k D_k,sigma"
    name = f"Theorem 1 (w={window}, v={commitment}, sigma={threshold:g})"
    predictor = options.pop("predictor", None)
    premises = (Premise("prediction budget (11) with G_k,d = 0 (perfect predictor)", predictor is None,
                        "perfect predictions" if predictor is None else "a noisy predictor: G_k,d unknown"),)
    if predictor is not None:
        return not_checkable(FAMILY, name, statement, "G_k,d needs a per-slot utility u(x, y_t) the paper does "
                             "not define for (9)", premises)
    out = runner.run("ahap", instance, window=window, commitment=commitment, threshold=threshold, **options)
    off = optimum if optimum is not None else runner.offline(instance, time_limit=time_limit)
    exact = "exact" if off.status == "optimal" else "bound only"
    opt = off.objective if exact == "exact" else off.bound
    if math.isnan(opt):
        return not_checkable(FAMILY, name, statement, f"the offline solve gave no bound ({off.status})", premises)
    cheap = instance.spot_price <= threshold * instance.on_demand_price
    d_sigma = float(np.max(np.where(cheap, instance.spot_available, 0), initial=0))
    bound = threshold * instance.on_demand_price * instance.deadline * d_sigma  # (sigma p_o d / v) * v * D
    gap = opt - out.objective
    scale = max(abs(bound), abs(opt), 1.0)
    return check(FAMILY, name, statement, premises, bound=bound, measured=gap, margin=(bound - gap) / scale,
                 unit="x max(bound, |OPT|)", exact=exact,
                 detail=f"OPT = {opt:.6g} ({off.status}), AHAP = {out.objective:.6g}, D_sigma = {d_sigma:g}, "
                        f"d = {instance.deadline}", optimum=opt)


def theorem2(utilities: Any, eta: float | None = None) -> TheoremCheck:
    """Theorem 2: ``max_y sum_k u_k(y) - sum_k E_{w_k}[u_k] <= sqrt(2 K ln M)`` for ``u_k in [0, 1]^M``.

    ``eta`` defaults to the theorem's ``sqrt(2 ln M / K)`` (a premise). Margin ``(bound - regret) / bound``.
    """
    u = np.asarray(utilities, float)
    if u.ndim != 2 or u.shape[0] < 1 or u.shape[1] < 2:
        raise InvalidScenarioError("utilities", f"must be (K >= 1, M >= 2), got shape {u.shape}")
    k_jobs, m = u.shape
    chosen_eta = math.sqrt(2 * math.log(m) / k_jobs) if eta is None else float(eta)
    premises = (Premise("u_k normalised to [0, 1]", bool(u.min() >= 0 and u.max() <= 1),
                        f"u in [{u.min():.3g}, {u.max():.3g}]"),
                Premise("eta = sqrt(2 ln M / K)", bool(math.isclose(chosen_eta, math.sqrt(2 * math.log(m) / k_jobs))),
                        f"eta = {chosen_eta:.4g}"))
    weights = eg_weights(u, chosen_eta)
    regret = float(u.sum(axis=0).max() - np.sum(weights * u))
    bound = math.sqrt(2 * k_jobs * math.log(m))
    return check(FAMILY, "Theorem 2", "regret of Algorithm 2 <= sqrt(2 K ln M)", premises, bound=bound,
                 measured=regret, margin=(bound - regret) / bound, unit="fraction of the bound", exact="exact",
                 detail=f"K = {k_jobs}, M = {m}, regret {regret:.4g} of {bound:.4g}")


@dataclass(frozen=True)
class SpotCase:
    """The search's instance: a job with its market and a ``(K, M)`` matrix of normalised utilities."""

    job: SpotInstance
    utilities: np.ndarray

    def to_dataset(self) -> xr.Dataset:
        ds = self.job.to_dataset()
        ds["selection_utilities"] = (("selection_job", "policy"), np.asarray(self.utilities, float))
        return ds


def checks(case: SpotCase, *, time_limit: float | None = 30.0, **options: Any) -> list[TheoremCheck]:
    """Theorem 1 for :data:`POLICIES` on the job (one offline solve) and Theorem 2 on the matrix."""
    off = runner.offline(case.job, time_limit=time_limit)
    found = [theorem1(case.job, window=w, commitment=v, threshold=s, optimum=off, **options) for w, v, s in POLICIES]
    return [*found, theorem2(case.utilities)]


def _job(rng: np.random.Generator) -> SpotInstance:
    from aisched.scenarios.spot.generator import generate

    return generate(seed=int(rng.integers(0, 2**31 - 1)), deadline=int(rng.integers(4, 11)),
                    work=float(rng.integers(20, 90)), max_gpus=int(rng.integers(4, 13)))


def _matrix(rng: np.random.Generator) -> np.ndarray:
    k, m = int(rng.integers(2, 60)), int(rng.integers(2, 12))
    return rng.random((k, m)) if rng.random() < 0.5 else (rng.random((k, m)) < 0.5).astype(float)


def random_instance(rng: np.random.Generator) -> SpotCase:
    """A random job (deadline 4-10 slots) and a random utility matrix (uniform or 0/1 entries)."""
    return SpotCase(_job(rng), _matrix(rng))


def mutate(case: SpotCase, rng: np.random.Generator) -> SpotCase:
    """A local move: one spot price or availability changed, or one utility entry flipped or a row added."""
    job, u = case.job, case.utilities.copy()
    move = rng.choice(["price", "available", "entry", "row"])
    t = int(rng.integers(job.spot_price.size))
    if move == "price":
        price = job.spot_price.copy()
        price[t] = float(np.clip(price[t] + rng.normal(0, 0.1), 0, 2 * job.on_demand_price))
        return SpotCase(job.replace(spot_price=price), u)
    if move == "available":
        avail = job.spot_available.copy()
        avail[t] = max(0, int(avail[t] + rng.choice([-2, -1, 1, 2])))
        return SpotCase(job.replace(spot_available=avail), u)
    if move == "entry":
        i, j = int(rng.integers(u.shape[0])), int(rng.integers(u.shape[1]))
        u[i, j] = 1.0 - u[i, j]
        return SpotCase(job, u)
    return SpotCase(job, np.vstack([u, u[int(rng.integers(u.shape[0]))][None, :]]))


def paper() -> list[tuple[str, SpotCase]]:
    """The paper's scenarios at reduced size (their jobs), each with one utility matrix of Algorithm 2's
    own: the paper pool's utilities on six jobs of the default market, normalised over the pool."""
    from aisched.online.spot.selection import evaluate_pool, normalise_utilities, paper_pool
    from aisched.scenarios.spot.generator import generate
    from aisched.theorems.search import paper_instances

    jobs = [generate(seed=s, deadline=6) for s in range(6)]
    raw, _ = evaluate_pool(jobs, paper_pool(windows=(1, 2, 3)))
    u = normalise_utilities(raw)
    return [(label, None if job is None else SpotCase(job, u)) for label, job in paper_instances(FAMILY)]


def load(path: Any) -> SpotCase:
    """A saved case (:meth:`SpotCase.to_dataset` written with ``to_netcdf``)."""
    with xr.open_dataset(path) as ds:
        ds = ds.load()
    utilities = ds["selection_utilities"].values
    return SpotCase(SpotInstance.from_dataset(ds.drop_vars("selection_utilities")), utilities)


def suite() -> Any:
    """The search's view of this family (:class:`aisched.theorems.search.Suite`)."""
    from aisched.theorems.search import Suite

    return Suite(FAMILY, checks, random_instance, mutate, load, paper)
