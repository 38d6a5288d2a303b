"""Scenarios of the `spot` family (section VI-A of the spot-market paper).

Settings: A100 GPUs in 30-minute slots, on-demand price 1, spot price
normalised to it, spot availability capped to ``0..16``; the LLaMA2-7B LoRA
job (work 80, deadline 10, ``N_min = 1``, ``N_max = 12``, ``H(n) = n``,
``mu = 0.9`` at 800 Mbps); the 1000-job workload (work ``U{70..120}``,
``N_min in 1..4``, ``N_max in 12..16``).

Choices: the job value ``v`` defaults to ``1.5 L p_o`` (the paper gives no
value; this makes on-demand-only profitable); ``gamma = 1.5``; the horizon is
``d +`` the termination slots of the whole work (so every plan fits);
works are integers so that the JAX window DP is exact with quantum 0.1.

Bandwidth -> efficiency (section II-A): a checkpoint takes 1152 s at
100 Mbps (so ~14.4 GB), i.e. ``1152 * 100 / b`` s at ``b`` Mbps, plus a
fixed start-up of 36 s (so that 800 Mbps gives the paper's 3 minutes);
``mu = 1 - time / 1800 s`` rounded to one decimal (0.9 at 800 Mbps, 0.3 at
100 Mbps), used for both ``mu_1`` and ``mu_2`` as the paper does.

Markets: ``"synthetic"`` (daily pattern: more availability by day, seeded
noise), ``"vast"`` (``gpu_market_price_availability_2025.csv``, A100 SXM4:
median price / the median of the P90 price, availability downscaled
uniformly so the series' maximum is 16, or to a mean level, capped to
``0..16``: :func:`vast_market`; the paper's market, default of Figs. 5-8),
``"aws"`` (an AWS availability trace capped at 16
with GCP's A100 spot/on-demand ratio as price). Trace markets start at a
seeded random slot.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import numpy as np

from aisched.core.parameters import one_of
from aisched.data import DATASETS, data_file
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.scenarios.spot.defaults import (
    CHANGEOVERS,
    DEFAULT_SCENARIO,
    MARKETS,
    MAX_SLOTS,
    NOISE_SETTINGS,
    PAPER_SCENARIO,
)
from aisched.scenarios.spot.traces import load_gcp_ratios, load_market_csv, load_spot_trace

__all__ = ["default_instance", "paper_instance", "generate", "workload", "bandwidth_efficiency", "synthetic_market",
           "trace_market", "vast_market", "predictor", "DEFAULT_SCENARIO", "PAPER_SCENARIO", "MARKETS", "MAX_SLOTS",
           "NOISE_SETTINGS", "MAX_AVAILABLE", "SLOTS_PER_DAY"]

SLOTS_PER_DAY = 48
MAX_AVAILABLE = 16
#: Largest workload :func:`workload` builds (jobs).
MAX_WORKLOAD_JOBS = 100_000


def _check_seed(seed: Any) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidScenarioError("seed", f"= {seed!r} must be an integer >= 0")


def bandwidth_efficiency(mbps: float) -> float:
    """``mu`` of a reconfiguration at ``mbps`` (100-800 Mbps; see the module docstring)."""
    if not (np.isfinite(mbps) and 100 <= mbps <= 800):
        raise InvalidScenarioError("bandwidth", f"= {mbps} Mbps is outside 100..800")
    seconds = 1152.0 * 100.0 / mbps + 36.0
    return round(max(0.1, 1.0 - seconds / 1800.0), 1)


def synthetic_market(rng: np.random.Generator, slots: int, *, mean_price: float = 0.55,
                     mean_available: float = 8.0) -> tuple[np.ndarray, np.ndarray]:
    """A daily-pattern market: ``(spot_price, spot_available)`` over ``slots``."""
    t = np.arange(slots) + rng.integers(0, SLOTS_PER_DAY)
    day = np.sin(2 * np.pi * t / SLOTS_PER_DAY)
    avail = mean_available + 6.0 * day + rng.normal(0.0, 2.0, slots)
    price = mean_price - 0.15 * day + rng.normal(0.0, 0.08, slots)
    return (np.round(np.clip(price, 0.1, 1.5), 2),
            np.clip(np.round(avail), 0, MAX_AVAILABLE).astype(np.int64))


#: The Vast.ai extract's A100 series (section VI-A: "NVIDIA A100 GPUs"): the SXM4 socket, the form of the
#: multi-GPU servers the paper's job runs on (8 A100s in its reference run); ``"PCIe"`` is the other series.
VAST_SOCKET = "SXM4"


@functools.lru_cache(maxsize=8)
def _vast_grid(path: str, socket_type: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    grid = load_market_csv(path, socket_type=socket_type)
    return (grid["price_median"].to_numpy(float), grid["price_p90"].to_numpy(float),
            grid["n_available"].to_numpy(float))


def vast_market(data_dir: Path | None = None, *, mean_price: float | None = None,
                mean_available: float | None = None,
                socket_type: str = VAST_SOCKET) -> tuple[np.ndarray, np.ndarray]:
    """The whole Vast.ai market as section VI-A builds it: ``(spot_price, spot_available)`` per 30-minute slot.

    - Price "normalized from Vast.ai data with the on-demand price set to 1":
      the on-demand price is the series' P90 price (section II-B sets the
      median against the P90 as the price of a reliably rented instance), one
      constant, the median of the P90 series over the trace; the spot price is
      the median price over it. ``mean_price`` (Fig. 8) scales the normalised
      series uniformly so that its mean over the trace is ``mean_price``.
    - Availability "approximated by uniformly downscaling global Vast.ai
      availability and capped within [0, 16]": one factor for the whole trace,
      ``16 / max`` by default (the global peak maps to the cap), or
      ``mean_available / mean`` when ``mean_available`` is given (Fig. 7),
      then rounded and capped to ``0..16``.

    See docs/readings/spot.md S10.
    """
    name = "gpu_market_price_availability_2025.csv"
    path = Path(data_dir) / name if data_dir is not None else data_file(name)
    median, p90, raw = _vast_grid(str(path), socket_type)
    price = median / float(np.median(p90))
    if mean_price is not None:
        price = price * (mean_price / float(price.mean()))
    factor = (MAX_AVAILABLE / max(float(raw.max()), 1.0) if mean_available is None
              else mean_available / max(float(raw.mean()), 1e-9))
    avail = np.clip(np.round(raw * factor), 0, MAX_AVAILABLE).astype(np.int64)
    return np.round(np.clip(price, 0.01, 1.5), 2), avail


def trace_market(rng: np.random.Generator, slots: int, market: str,
                 data_dir: Path | None = None, *, mean_price: float | None = None,
                 mean_available: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``slots`` consecutive slots of a real market (``"vast"`` or ``"aws"``), random start.

    ``mean_price``/``mean_available``: the levels of Figs. 7-8 on the "vast"
    market (:func:`vast_market`); the "aws" market takes none.
    """
    def find(name: str) -> Path:  # data_dir if given, else $AISCHED_DATA, the cache, ../shared/data
        return Path(data_dir) / name if data_dir is not None else data_file(name)  # type: ignore[return-value]

    if market == "vast":
        price, avail = vast_market(data_dir, mean_price=mean_price, mean_available=mean_available)
    elif market == "aws":
        if mean_price is not None or mean_available is not None:
            raise InvalidScenarioError("mean_price" if mean_price is not None else "mean_available",
                                       "market levels apply to the synthetic and vast markets, not 'aws'")
        if data_dir is not None:
            traces = sorted((Path(data_dir) / "spot_traces").glob("availability_*.json"))
            if not traces:
                raise InvalidScenarioError("market", f"{Path(data_dir) / 'spot_traces'}: no availability_*.json")
        else:  # the known availability traces wherever found; none found: data_file says how to fetch them
            names = sorted(f.name for f in DATASETS["spot-traces"].files if "/availability_" in f.name)
            traces = [p for p in (data_file(n, required=False) for n in names) if p is not None] or [
                data_file(names[0])]  # type: ignore[list-item]
        avail = np.clip(load_spot_trace(traces[int(rng.integers(len(traces)))]), 0, MAX_AVAILABLE)
        ratio = float(np.median(load_gcp_ratios(find("gcp_gpu_price_weekly.csv"))))
        price = np.full(avail.size, round(ratio, 2))
    else:
        raise InvalidScenarioError("market", f"= {market!r} is not one of {MARKETS}")
    if avail.size < slots:
        raise InvalidScenarioError("market", f"{market} trace has {avail.size} slots, {slots} needed")
    start = int(rng.integers(0, avail.size - slots + 1))
    return np.asarray(price[start:start + slots], float), np.asarray(avail[start:start + slots], np.int64)


def _horizon(work: float, deadline: int, max_gpus: int, mu: float, gamma: float) -> int:
    rest = max(0, math.ceil((work - mu * max_gpus) / max_gpus - 1e-9))
    return max(deadline + 1 + rest, math.ceil(gamma * deadline))


def generate(seed: int = DEFAULT_SCENARIO["seed"], deadline: int = DEFAULT_SCENARIO["deadline"],
             market: str = DEFAULT_SCENARIO["market"], *, work: float = DEFAULT_SCENARIO["work"],
             min_gpus: int = DEFAULT_SCENARIO["min_gpus"], max_gpus: int = DEFAULT_SCENARIO["max_gpus"],
             value: float | None = None, bandwidth: float = DEFAULT_SCENARIO["bandwidth"],
             hard_deadline_factor: float = 1.5, data_dir: Path | None = None, rng: np.random.Generator | None = None,
             mean_price: float | None = None, mean_available: float | None = None,
             changeover: str = DEFAULT_SCENARIO["changeover"]) -> SpotInstance:
    """One job and its market (defaults: ``aisched compare spot``'s, :data:`DEFAULT_SCENARIO`: the paper's
    LLaMA2-7B job at 800 Mbps on the synthetic market; :func:`paper_instance` runs it on the paper's market).

    ``mean_price`` (spot price as a fraction of on-demand) and ``mean_available``
    (GPUs) set the market's level (Figs. 7-8 vary them): on the synthetic
    market the daily pattern's means (``None``: 0.55 and 8), on the "vast"
    market the uniform scale of the normalised price and the uniform
    downscaling factor of the availability (:func:`vast_market`; ``None``: the
    trace as normalised); the "aws" market takes none. ``changeover``: "off" (the
    paper's model) or "on" (a restart when the job moves between spot and
    on-demand; :class:`~aisched.models.spot.SpotInstance`).

    Raises
    ------
    InvalidScenarioError
        For an unknown market, a bad bandwidth, market level, or a trace too short.
    """
    one_of("market", market, MARKETS)
    one_of("changeover", changeover, CHANGEOVERS)
    if mean_price is not None and not (isinstance(mean_price, (int, float, np.integer, np.floating))
                                       and np.isfinite(mean_price) and 0 < mean_price <= 1.5):
        raise InvalidScenarioError("mean_price", f"= {mean_price} must be in (0, 1.5]")
    if mean_available is not None and not (isinstance(mean_available, (int, float, np.integer, np.floating))
                                           and np.isfinite(mean_available) and 0 <= mean_available <= MAX_AVAILABLE):
        raise InvalidScenarioError("mean_available", f"= {mean_available} must be in [0, {MAX_AVAILABLE}]")
    if market == "aws" and (mean_price is not None or mean_available is not None):
        raise InvalidScenarioError("mean_price" if mean_price is not None else "mean_available",
                                   f"market levels apply to the synthetic and vast markets, not {market!r}")
    if (isinstance(deadline, bool) or not isinstance(deadline, (int, float, np.integer, np.floating))
            or not math.isfinite(deadline) or deadline != int(deadline) or deadline < 1):
        raise InvalidScenarioError("deadline", f"= {deadline} must be an integer >= 1")
    if rng is None:
        _check_seed(seed)
    if not (isinstance(work, (int, float, np.integer, np.floating)) and math.isfinite(work) and work > 0):
        raise InvalidScenarioError("work", f"= {work} must be a finite number > 0")
    for name, val in (("min_gpus", min_gpus), ("max_gpus", max_gpus)):
        if isinstance(val, bool) or not isinstance(val, (int, np.integer)) or val < 1:
            raise InvalidScenarioError(name, f"= {val!r} must be an integer >= 1")
    if min_gpus > max_gpus:
        raise InvalidScenarioError("min_gpus", f"= {min_gpus} exceeds max_gpus = {max_gpus}")
    if not (math.isfinite(hard_deadline_factor) and hard_deadline_factor > 1):
        raise InvalidScenarioError("hard_deadline_factor", f"= {hard_deadline_factor} must be finite and > 1")
    mu = bandwidth_efficiency(bandwidth)
    if hard_deadline_factor * deadline > MAX_SLOTS:
        raise InvalidScenarioError("deadline", f"= {deadline} with gamma {hard_deadline_factor} needs more than "
                                   f"{MAX_SLOTS} slots (size guard)")
    if float(work) / (mu * max_gpus) > MAX_SLOTS:
        raise InvalidScenarioError("work", f"= {work:g} with deadline {deadline} and max_gpus {max_gpus} "
                                   f"needs more than {MAX_SLOTS} slots (size guard)")
    rng = np.random.default_rng(seed) if rng is None else rng
    slots = _horizon(float(work), int(deadline), int(max_gpus), mu, hard_deadline_factor)
    if slots > MAX_SLOTS:
        raise InvalidScenarioError("work", f"= {work:g} needs {slots} slots, more than {MAX_SLOTS} (size guard)")
    if market == "synthetic":
        price, avail = synthetic_market(rng, slots, mean_price=0.55 if mean_price is None else mean_price,
                                        mean_available=8.0 if mean_available is None else mean_available)
    else:
        price, avail = trace_market(rng, slots, market, data_dir, mean_price=mean_price,
                                    mean_available=mean_available)
    return SpotInstance(
        work=work, deadline=int(deadline), hard_deadline_factor=hard_deadline_factor,
        min_gpus=min_gpus, max_gpus=max_gpus, value=1.5 * work if value is None else value,
        throughput_slope=1.0, throughput_intercept=0.0, scale_up_efficiency=mu,
        scale_down_efficiency=mu, on_demand_price=1.0, spot_price=price, spot_available=avail,
        changeover=changeover,
    )


def workload(seed: int = 0, jobs: int = 1000, *, deadline: int = 10, market: str = "synthetic",
             bandwidth: float = 800.0, data_dir: Path | None = None) -> list[SpotInstance]:
    """The paper's workload: ``jobs`` jobs, work ``U{70..120}``, ``N_min in 1..4``, ``N_max in 12..16``."""
    if isinstance(jobs, (bool, np.bool_)) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise InvalidScenarioError("jobs", f"= {jobs!r} must be an integer >= 1")
    if jobs > MAX_WORKLOAD_JOBS:  # a size guard: one instance per job, built one by one
        raise InvalidScenarioError("jobs", f"= {jobs} is more than the limit MAX_WORKLOAD_JOBS = {MAX_WORKLOAD_JOBS} "
                                   "(the paper uses 1,000; raise aisched.scenarios.spot.generator.MAX_WORKLOAD_JOBS "
                                   "if you mean it)")
    _check_seed(seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(int(jobs)):
        work = int(rng.integers(70, 121))
        nmin, nmax = int(rng.integers(1, 5)), int(rng.integers(12, 17))
        out.append(generate(deadline=deadline, market=market, work=work, min_gpus=nmin,
                            max_gpus=nmax, bandwidth=bandwidth, data_dir=data_dir, rng=rng))
    return out




def predictor(noise: str, error: float, seed: int) -> Any:
    """The forecaster of a noise setting (:data:`NOISE_SETTINGS`) at ``error`` (section VI-A)."""
    from aisched.online.spot import noisy, perfect

    if noise == "perfect":
        return perfect()
    kind, dist = noise.split("-")
    return noisy(error, kind=kind, dist=dist, seed=seed)


def default_instance() -> SpotInstance:
    """The job ``aisched compare spot`` runs without options: ``generate(**DEFAULT_SCENARIO)``, :func:`generate`
    at its defaults (the paper's LLaMA2-7B job, deadline 10, the synthetic market, seed 0)."""
    return generate(**DEFAULT_SCENARIO)


def paper_instance(seed: int = 0) -> SpotInstance:
    """Section VI-A's setting: ``generate(seed, **PAPER_SCENARIO)``.

    The paper's LLaMA2-7B LoRA job (work 80, soft deadline 10 slots, 1 to 12 GPUs, 800 Mbps) on the
    Vast.ai A100 market (the trace found by :func:`aisched.data.data_file`), whose window
    the seed draws.

    Parameters
    ----------
    seed
        Seed of the draw (>= 0).
    """
    return generate(seed=seed, **PAPER_SCENARIO)
