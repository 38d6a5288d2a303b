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
noise), ``"vast"`` (``gpu_market_price_availability_2025.csv``: A100 median
price / the series' 90th percentile of the p90 price, availability scaled so
the series' maximum is 16), ``"aws"`` (an AWS availability trace capped at 16
with GCP's A100 spot/on-demand ratio as price). Trace markets start at a
seeded random slot.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import numpy as np

from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.scenarios._paths import DATA_DIR
from aisched.scenarios.spot_selection import FIGURES, PHASES, POOLS, policy_weight_heatmap, selection_cell
from aisched.scenarios.spot_traces import load_gcp_ratios, load_market_csv, load_spot_trace

__all__ = ["generate", "workload", "bandwidth_efficiency", "synthetic_market", "trace_market",
           "CLI_HELP", "CLI_ALGORITHMS", "add_cli_arguments", "instance_from_cli", "describe",
           "add_select_arguments", "run_select", "NOISE_SETTINGS", "FIGURES", "POOLS", "PHASES",
           "selection_cell"]

SLOTS_PER_DAY = 48
MAX_AVAILABLE = 16
MARKETS = ("synthetic", "vast", "aws")


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


def trace_market(rng: np.random.Generator, slots: int, market: str,
                 data_dir: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``slots`` consecutive slots of a real market (``"vast"`` or ``"aws"``), random start."""
    root = Path(DATA_DIR if data_dir is None else data_dir)
    if market == "vast":
        grid = load_market_csv(root / "gpu_market_price_availability_2025.csv")
        scale = float(np.quantile(grid["price_p90"], 0.9))
        price = np.round(grid["price_median"].values / scale, 2)
        avail_raw = grid["n_available"].values
        avail = np.clip(np.round(avail_raw * MAX_AVAILABLE / max(avail_raw.max(), 1)), 0, MAX_AVAILABLE)
    elif market == "aws":
        traces = sorted((root / "spot_traces").glob("availability_*.json"))
        if not traces:
            raise InvalidScenarioError("market", f"{root / 'spot_traces'}: no availability_*.json")
        avail = np.clip(load_spot_trace(traces[int(rng.integers(len(traces)))]), 0, MAX_AVAILABLE)
        ratio = float(np.median(load_gcp_ratios(root / "gcp_gpu_price_weekly.csv")))
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


def generate(seed: int = 0, deadline: int = 10, market: str = "synthetic", *, work: float = 80,
             min_gpus: int = 1, max_gpus: int = 12, value: float | None = None,
             bandwidth: float = 800.0, hard_deadline_factor: float = 1.5,
             data_dir: Path | None = None, rng: np.random.Generator | None = None,
             mean_price: float = 0.55, mean_available: float = 8.0) -> SpotInstance:
    """One job and its market (defaults: the paper's LLaMA2-7B job at 800 Mbps).

    ``mean_price`` (spot price as a fraction of on-demand) and ``mean_available``
    (GPUs) set the level of the synthetic market (Figs. 7-8 vary them); trace
    markets take their levels from the trace.

    Raises
    ------
    InvalidScenarioError
        For an unknown market, a bad bandwidth, market level, or a trace too short.
    """
    if market not in MARKETS:
        raise InvalidScenarioError("market", f"= {market!r} is not one of {MARKETS}")
    if not (np.isfinite(mean_price) and 0 < mean_price <= 1.5):
        raise InvalidScenarioError("mean_price", f"= {mean_price} must be in (0, 1.5]")
    if not (np.isfinite(mean_available) and 0 <= mean_available <= MAX_AVAILABLE):
        raise InvalidScenarioError("mean_available", f"= {mean_available} must be in [0, {MAX_AVAILABLE}]")
    if market != "synthetic" and (mean_price != 0.55 or mean_available != 8.0):
        raise InvalidScenarioError("mean_price", f"market levels apply to the synthetic market, not {market!r}")
    if int(deadline) != deadline or deadline < 1:
        raise InvalidScenarioError("deadline", f"= {deadline} must be an integer >= 1")
    rng = np.random.default_rng(seed) if rng is None else rng
    mu = bandwidth_efficiency(bandwidth)
    slots = _horizon(float(work), int(deadline), int(max_gpus), mu, hard_deadline_factor)
    if market == "synthetic":
        price, avail = synthetic_market(rng, slots, mean_price=mean_price, mean_available=mean_available)
    else:
        price, avail = trace_market(rng, slots, market, data_dir)
    return SpotInstance(
        work=work, deadline=int(deadline), hard_deadline_factor=hard_deadline_factor,
        min_gpus=min_gpus, max_gpus=max_gpus, value=1.5 * work if value is None else value,
        throughput_slope=1.0, throughput_intercept=0.0, scale_up_efficiency=mu,
        scale_down_efficiency=mu, on_demand_price=1.0, spot_price=price, spot_available=avail,
    )


def workload(seed: int = 0, jobs: int = 1000, *, deadline: int = 10, market: str = "synthetic",
             bandwidth: float = 800.0, data_dir: Path | None = None) -> list[SpotInstance]:
    """The paper's workload: ``jobs`` jobs, work ``U{70..120}``, ``N_min in 1..4``, ``N_max in 12..16``."""
    if int(jobs) != jobs or jobs < 1:
        raise InvalidScenarioError("jobs", f"= {jobs} must be an integer >= 1")
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(int(jobs)):
        work = int(rng.integers(70, 121))
        nmin, nmax = int(rng.integers(1, 5)), int(rng.integers(12, 17))
        out.append(generate(deadline=deadline, market=market, work=work, min_gpus=nmin,
                            max_gpus=nmax, bandwidth=bandwidth, data_dir=data_dir, rng=rng))
    return out


# --- the `aisched compare spot` protocol (see aisched.cli) -------------------------------------

CLI_HELP = "deadline-aware fine-tuning on spot and on-demand GPUs (AHAP)"
CLI_ALGORITHMS: tuple[str, ...] = ("ahap", "ahanp", "od_only", "msu", "up")


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of :func:`generate` (defaults: the paper's LLaMA2-7B job)."""
    parser.add_argument("--work", type=float, default=80.0, help="work L (default %(default)s)")
    parser.add_argument("--deadline", type=int, default=10, help="soft deadline d, slots")
    parser.add_argument("--min-gpus", type=int, default=1)
    parser.add_argument("--max-gpus", type=int, default=12)
    parser.add_argument("--market", choices=MARKETS, default="synthetic")
    parser.add_argument("--bandwidth", type=float, default=800.0, help="Mbps (100..800)")
    parser.add_argument("--seed", type=int, default=0)


def instance_from_cli(args: argparse.Namespace) -> SpotInstance:
    """The instance of ``aisched compare spot``'s options."""
    return generate(seed=args.seed, deadline=args.deadline, market=args.market, work=args.work,
                    min_gpus=args.min_gpus, max_gpus=args.max_gpus, bandwidth=args.bandwidth)


def describe(inst: SpotInstance, args: argparse.Namespace) -> str:
    """One line describing the scenario."""
    return (f"spot scenario: work {inst.work:g}, deadline {inst.deadline}, GPUs "
            f"{inst.min_gpus}..{inst.max_gpus}, mu {inst.scale_up_efficiency}, {args.market} market, "
            f"{inst.num_slots} slots, seed {args.seed}")


# --- the `aisched select spot` protocol --------------------------------------------------------

NOISE_SETTINGS = ("fixed-uniform", "fixed-heavy", "magnitude-uniform", "magnitude-heavy", "perfect")


def add_select_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``aisched select spot``."""
    parser.add_argument("--jobs", type=int, default=1000, help="workload size K")
    parser.add_argument("--deadline", type=int, default=10)
    parser.add_argument("--market", choices=MARKETS, default="synthetic")
    parser.add_argument("--noise", choices=NOISE_SETTINGS, default="fixed-uniform")
    parser.add_argument("--error", type=float, default=0.1, help="prediction error level")
    parser.add_argument("--windows", default="1,2,3,4,5",
                        help="AHAP windows w of the pool (comma-separated; default the paper's)")
    parser.add_argument("--thresholds", default="0.3,0.4,0.5,0.6,0.7,0.8,0.9",
                        help="price thresholds sigma of the pool (comma-separated)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("results"), help="output folder")
    parser.add_argument("--no-figures", action="store_true")


def _predictor(noise: str, error: float, seed: int) -> Any:
    from aisched.online.spot import noisy, perfect

    if noise == "perfect":
        return perfect()
    kind, dist = noise.split("-")
    return noisy(error, kind=kind, dist=dist, seed=seed)


def run_select(args: argparse.Namespace) -> int:
    """``aisched select spot``: Algorithm 2 over the paper's pool; prints a summary, writes files."""
    from aisched.online.spot import paper_pool, select

    if not (math.isfinite(args.error) and args.error >= 0):
        raise InvalidScenarioError("--error", f"= {args.error} must be >= 0")
    try:
        windows = [int(x) for x in str(args.windows).split(",") if x.strip()]
        sigmas = [float(x) for x in str(args.thresholds).split(",") if x.strip()]
    except ValueError:
        raise InvalidScenarioError("--windows/--thresholds", "must be comma-separated numbers") from None
    if not windows or min(windows) < 1 or not sigmas or min(sigmas) <= 0:
        raise InvalidScenarioError("--windows/--thresholds", "need windows >= 1 and thresholds > 0")
    jobs = workload(seed=args.seed, jobs=args.jobs, deadline=args.deadline, market=args.market)
    pool = paper_pool(windows=windows, sigmas=sigmas)
    res = select(jobs, pool, _predictor(args.noise, args.error, args.seed), seed=args.seed)
    names = res.policy_names
    u = res.utility.values
    print(f"spot policy selection: {len(jobs)} jobs, {len(pool)} policies, noise {args.noise} "
          f"error {args.error}, eta {res.eta:.4f}")
    print(f"cumulative utility of the selected policies: {res.realised.sum():.2f}")
    print(f"best fixed policy in hindsight: {names[res.best_policy]} "
          f"(cumulative utility {u[:, res.best_policy].sum():.2f})")
    print(f"regret (normalised) {res.regret:.2f} <= bound sqrt(2 K ln M) = {res.regret_bound:.2f}: "
          f"{'yes' if res.regret <= res.regret_bound else 'NO'}")
    print(f"most-weighted policy at the end: {names[res.most_weighted]} "
          f"(weight {res.weights.values[-1, res.most_weighted]:.3f})")
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    ds = res.weights.to_dataset()
    ds["utility"] = res.utility
    ds["chosen"] = ("job", res.chosen)
    ds.to_netcdf(out / "spot_select_weights.nc", engine="netcdf4")
    res.weights.to_pandas().to_csv(out / "spot_select_weights.csv")
    written = ["spot_select_weights.nc", "spot_select_weights.csv"]
    if not args.no_figures:
        policy_weight_heatmap(res.weights, out / "spot_select_weights.png",
                              title="Algorithm 2: policy weights (Fig. 10 style)")
        written.append("spot_select_weights.png")
    print(f"wrote {', '.join(written)} to {out}/")
    return 0
