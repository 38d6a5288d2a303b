"""Scenarios of the `tenants` family: section 5.1's settings, Philly quotas and arrivals.

:func:`generate` draws a :class:`~aisched.models.tenants.TenantInstance`:

- servers: ``gpus_per_server`` workers (GPUs; Philly machines have 8) and one
  PS each (section 5.1: one CPU per machine);
- bandwidths: ``b_w ~ U[100, 5120]`` Mbps, ``b_p ~ U[5, 20]`` Gbps, one draw
  per instance, stored in megabits per slot;
- jobs: ``E ~ U{50..100}``, ``D ~ U{20..50}``, ``M ~ U{10..50}``,
  ``m ~ U[0.001, 0.05]`` hours, ``G ~ U[10, 100]`` ms, ``epsilon ~ U[30, 575]`` MB
  (stored in megabits), times converted to slots of ``slot_hours`` hours;
- utility: linear ``k ~ U[-2, -0.1]``, ``g ~ U[100, 1000]``, or convex
  ``e ~ U[100, 1000]``, ``kappa ~ U[1, 2]`` (section 5.1), with completion
  counted in hours from arrival (so the slot length does not change ``f``):
  the instance stores ``k`` per slot (``k * slot_hours``) and ``e`` in slots
  (``e / slot_hours``);
- users, quotas, arrivals (``trace="day"`` or ``"week"``): the Microsoft
  Philly extract found by ``data_file`` (Jeon et al., USENIX ATC 2019; see
  PROVENANCE.md). A window of ``jobs`` consecutive submissions (seeded start)
  gives arrivals (one slot = ``slot_hours`` hours) and owners (virtual
  clusters ranked by jobs, cluster ``k`` -> user ``k mod users``). The paper
  counts quotas from the machines of each virtual cluster, which the extract
  lacks; we make each user's worker and PS quota proportional to one base
  unit plus the GPUs its jobs request in the window (largest remainders, so
  quotas add up to the capacity exactly). ``trace=None``: synthetic, uniform
  arrivals over ``arrival_span`` slots and Dirichlet(1) quotas.
- slots: one hour each (section 5.1: "setting one time slot to one hour
  long"); ``slot_hours="auto"`` gives the rule before issue 15 (48 hours for
  at most 15 jobs, so the reduced setting's MILP stays small).
- horizon: ``slots`` or, by default (``horizon="finishable"``), ``4 * 2^L``,
  the end of Astraea's batch ``L`` with ``lambda = 2`` (batch ``l`` runs in
  slots ``2^(l+1) .. 2^(l+2) - 1`` in rounds of ``2^l``), with ``L`` the
  least level such that every job has arrived before ``2^L`` and its fastest
  feasible run (:meth:`~aisched.models.tenants.TenantInstance.fastest_run`:
  workers capped by ``D_j`` and by the PS bandwidth rule (3i)) fits a round
  of ``2^L`` slots: every job that can be finished at all is considered by
  some batch. ``horizon="ignore_bandwidth"``: the rule before issue 15, the
  longest run at ``D_j`` workers at the distributed rate, ignoring (3i).
"""

from __future__ import annotations

import argparse
import math
import re
import textwrap
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from aisched.errors import InvalidScenarioError
from aisched.models.tenants import UTILITIES, TenantInstance
from aisched.scenarios.data import data_file

__all__ = [
    "generate",
    "FIGURES",
    "alpha_bars",
    "load_philly",
    "TRACES",
    "DEFAULT_SCENARIO",
    "default_instance",
    "CLI_HELP",
    "CLI_ALGORITHMS",
    "add_cli_arguments",
    "instance_from_cli",
    "describe",
    "cli_figures",
    "finishable_horizon",
    "HORIZONS",
    "gpu_utilisation",
    "cli_params",
]

#: Largest job count of the paper's reduced setting (section 5.2) and its default slot length, hours.
REDUCED_JOBS, REDUCED_SLOT_HOURS = 15, 48.0

#: Horizon rules of :func:`generate`.
Horizon = Literal["finishable", "ignore_bandwidth"]
HORIZONS: tuple[str, ...] = ("finishable", "ignore_bandwidth")

#: Philly extracts by name (found by :func:`aisched.scenarios.data.data_file`).
TRACES = {"day": "philly_pollux_2017-10-09.csv", "week": "philly_pollux_week_2017-10-09_15.csv"}


def load_philly(path: str | Path) -> pd.DataFrame:
    """The Philly extract, sorted by submission: columns ``timestamp``, ``num_gpus``, ``cluster``."""
    path = Path(path)
    if not path.is_file():
        raise InvalidScenarioError("trace", f"file {str(path)!r} does not exist")
    try:
        frame = pd.read_csv(path)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:  # EmptyDataError is a ValueError
        raise InvalidScenarioError("trace", f"{path.name}: not a readable CSV ({exc})") from None
    missing = {"timestamp", "num_gpus", "cluster"} - set(frame.columns)
    if missing:
        raise InvalidScenarioError("trace", f"{path.name} lacks columns {sorted(missing)}")
    try:
        frame["timestamp"] = pd.to_datetime(frame["timestamp"])
    except (ValueError, TypeError, OverflowError) as exc:
        raise InvalidScenarioError("trace", f"{path.name}: column 'timestamp' is not date-times ({exc})") from None
    return frame.sort_values("timestamp", kind="stable").reset_index(drop=True)


def _split(total: int, weights: np.ndarray) -> np.ndarray:
    """Integers proportional to ``weights`` adding up to ``total`` (largest remainders)."""
    raw = total * weights / weights.sum()
    out = np.floor(raw).astype(np.int64)
    rest = total - int(out.sum())
    order = np.argsort(-(raw - out), kind="stable")
    out[order[:rest]] += 1
    return out


def finishable_horizon(instance: TenantInstance, lam: int = 2) -> int:
    """``2 lam 2^L``: the end of Astraea's batch ``L`` (Algorithm 1, ``tau_l = 2^l``).

    ``L >= 1`` is the least level with every arrival ``< 2^L`` (line 4) and
    every job's fastest feasible run (:meth:`TenantInstance.fastest_run`) at
    most ``2^L`` slots, the length of batch ``L``'s rounds (Algorithm 4, line 4).
    """
    level = max(1, int(instance.arrival.max(initial=0)).bit_length())
    if instance.num_jobs:
        level = max(level, (int(instance.fastest_run().max()) - 1).bit_length())
    return 2 * lam * 2**level


#: Size guards of :func:`generate` (paper scale: 14 users, 100 servers, 200 jobs); raise one if you mean it.
MAX_SIZE: dict[str, int] = {"users": 10_000, "servers": 100_000, "jobs": 100_000, "gpus_per_server": 1_024,
                            "arrival_span": 10_000_000, "slots": 10_000_000}


def _check(name: str, value: Any, low: float, integer: bool = True) -> None:
    ok = (isinstance(value, (int, np.integer)) if integer else isinstance(value, (int, float))) \
        and not isinstance(value, (bool, np.bool_))
    if not ok or not math.isfinite(value) or value < low:
        raise InvalidScenarioError(name, f"= {value!r} must be {'an integer' if integer else 'a number'} >= {low}")


def generate(
    seed: int = 0,
    users: int = 14,
    servers: int = 100,
    jobs: int = 200,
    utility: str = "linear",
    *,
    trace: str | Path | None = "day",
    slot_hours: float | Literal["auto"] = 1.0,
    gpus_per_server: int = 8,
    slots: int | None = None,
    arrival_span: int = 4,
    rng: np.random.Generator | None = None,
    horizon: Horizon = "finishable",
) -> TenantInstance:
    """A seeded instance with section 5.1's settings (see the module docstring).

    Parameters
    ----------
    seed, rng
        Randomness (``rng`` wins when given).
    users, servers, jobs
        ``U``, ``S`` and the number of jobs.
    utility
        ``"linear"`` or ``"convex"``.
    trace
        ``"day"``, ``"week"``, a CSV path, or None for synthetic users and arrivals.
    slot_hours
        Length of a slot in hours: 1 by default (section 5.1), or ``"auto"``:
        1 for more than 15 jobs and 48 for at most 15 jobs (the rule before
        issue 15: the reduced setting of section 5.2 with few slots, so the
        MILP stays small).
    gpus_per_server
        Workers per server ``C_sw``.
    slots
        Horizon ``T`` (default: set by ``horizon``).
    horizon
        ``"finishable"`` (default): long enough for Astraea (``lambda = 2``)
        to consider every job in a batch whose rounds fit its fastest feasible
        run; ``"ignore_bandwidth"``: the rule before issue 15 (see the module
        docstring).
    arrival_span
        Synthetic arrivals are uniform over ``0..arrival_span-1``.
    """
    if rng is None:
        _check("seed", seed, 0)
    for name, value, low in (("users", users, 1), ("servers", servers, 1), ("jobs", jobs, 0),
                             ("gpus_per_server", gpus_per_server, 1), ("arrival_span", arrival_span, 1)):
        _check(name, value, low)
    for name, value in (("users", users), ("servers", servers), ("jobs", jobs),
                        ("gpus_per_server", gpus_per_server), ("arrival_span", arrival_span), ("slots", slots)):
        if isinstance(value, (int, np.integer)) and value > MAX_SIZE[name]:  # size guards (types checked above or below)
            raise InvalidScenarioError(name, f"= {value!r} is more than the limit MAX_SIZE[{name!r}] = "
                                       f"{MAX_SIZE[name]} (raise aisched.scenarios.tenants.MAX_SIZE[{name!r}] "
                                       "if you mean it)")
    if horizon not in HORIZONS:
        raise InvalidScenarioError("horizon", f"= {horizon!r}, use one of {', '.join(HORIZONS)}")
    if slot_hours == "auto":
        slot_hours = 1.0 if jobs > REDUCED_JOBS else REDUCED_SLOT_HOURS
    _check("slot_hours", slot_hours, 1e-9, integer=False)
    if slots is not None:
        _check("slots", slots, 1)
    if utility not in UTILITIES:
        raise InvalidScenarioError("utility", f"= {utility!r}, use 'linear' or 'convex'")
    rng = np.random.default_rng(seed) if rng is None else rng
    U, S, J, h = int(users), int(servers), int(jobs), float(slot_hours)
    workers = np.full(S, int(gpus_per_server))
    ps = np.ones(S, dtype=np.int64)

    # --- users, arrivals, quotas ------------------------------------------------
    if trace is not None:
        path = data_file(TRACES[trace]) if trace in TRACES else Path(trace)  # says how to get a missing one
        frame = load_philly(path)
        if J > len(frame):
            raise InvalidScenarioError("jobs", f"= {J} exceeds the {len(frame)} jobs of {path.name}")
        first = int(rng.integers(0, len(frame) - J + 1))
        window = frame.iloc[first : first + J]
        rank = {c: k for k, c in enumerate(frame["cluster"].value_counts().index)}
        owner = np.array([rank[c] % U for c in window["cluster"]], dtype=np.int64)
        if J:
            hours = (window["timestamp"] - window["timestamp"].iloc[0]).dt.total_seconds().to_numpy() / 3600.0
        else:  # no jobs: an empty window (valid; every algorithm returns an empty plan)
            hours = np.zeros(0)
        arrival = np.floor(hours / h + 1e-9).astype(np.int64)
        demand = np.bincount(owner, weights=window["num_gpus"].to_numpy(float), minlength=U)
        weights = 1.0 + demand / max(1.0, demand.sum()) * U
    else:
        owner = rng.integers(0, U, size=J)
        arrival = np.sort(rng.integers(0, int(arrival_span), size=J))
        weights = rng.dirichlet(np.ones(U)) + 1e-9
    worker_quota = _split(int(workers.sum()), weights)
    ps_quota = _split(int(ps.sum()), weights)

    # --- section 5.1's job and network settings ----------------------------------
    b_w = rng.uniform(100.0, 5120.0) * 3600.0 * h  # Mb per slot
    b_p = rng.uniform(5.0, 20.0) * 1024.0 * 3600.0 * h
    epochs = rng.integers(50, 101, size=J)
    chunks = rng.integers(20, 51, size=J)
    minibatches = rng.integers(10, 51, size=J)
    compute_time = rng.uniform(0.001, 0.05, size=J) / h
    update_time = rng.uniform(10.0, 100.0, size=J) / 1000.0 / 3600.0 / h
    gradient_size = rng.uniform(30.0, 575.0, size=J) * 8.0
    if utility == "linear":
        extra = {"utility_slope": rng.uniform(-2.0, -0.1, size=J) * h,
                 "utility_intercept": rng.uniform(100.0, 1000.0, size=J)}
    else:
        extra = {"utility_scale": rng.uniform(100.0, 1000.0, size=J) / h,
                 "utility_exponent": rng.uniform(1.0, 2.0, size=J)}

    probe = TenantInstance(
        num_slots=int(arrival.max(initial=0)) + 1, worker_quota=worker_quota, ps_quota=ps_quota,
        workers=workers, parameter_servers=ps, worker_bandwidth=b_w, ps_bandwidth=b_p, owner=owner,
        arrival=arrival, epochs=epochs, chunks=chunks, minibatches=minibatches,
        compute_time=compute_time, update_time=update_time, gradient_size=gradient_size,
        utility=utility, **extra,
    )
    if slots is None and horizon == "ignore_bandwidth":
        need = int(arrival.max(initial=0)) + 1
        if J:
            w = np.minimum(chunks, workers.sum())
            need = max(need, int(probe.duration(w, False).max()))
        level = max(1, (need - 1).bit_length())
        slots = 4 * 2**level
    elif slots is None:
        slots = finishable_horizon(probe)
    if int(arrival.max(initial=0)) >= slots:
        raise InvalidScenarioError("slots", f"= {slots} ends before the last arrival {int(arrival.max())}")
    return probe.replace(num_slots=int(slots))


#: The reduced setting of section 5.2 (2 users, 5 servers, 8 jobs) with 48-hour
#: slots, so runs take a few slots and HiGHS proves the optimum in seconds.
DEFAULT_SCENARIO: dict[str, Any] = {
    "seed": 0, "users": 2, "servers": 5, "jobs": 8, "utility": "linear", "trace": "day",
    "slot_hours": 48.0, "gpus_per_server": 8,
}


def default_instance() -> TenantInstance:
    """``generate(**DEFAULT_SCENARIO)``: the small scenario of ``aisched compare tenants``."""
    return generate(**DEFAULT_SCENARIO)


# --- the `aisched compare tenants` protocol (see aisched.cli) ------------------------------------

CLI_HELP = "fair multi-tenant sharing of distributed ML jobs (Astraea)"
CLI_ALGORITHMS: tuple[str, ...] = ("astraea", "batchsche", "gandiva_fair", "hived")
_CLI_INSTANCE: list[TenantInstance | None] = [None]


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of :func:`generate` to ``parser`` (defaults: :data:`DEFAULT_SCENARIO`)."""
    d = DEFAULT_SCENARIO
    parser.add_argument("--users", type=int, default=d["users"], help="tenants (default %(default)s)")
    parser.add_argument("--servers", type=int, default=d["servers"], help="servers (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=d["jobs"], help="jobs (default %(default)s)")
    parser.add_argument("--utility", choices=UTILITIES, default=d["utility"])
    parser.add_argument("--trace", choices=("day", "week", "synthetic"), default=d["trace"])
    parser.add_argument("--slot-hours", type=_slot_hours, default=d["slot_hours"],
                        help="hours per slot, or 'auto' (48 h at <= 15 jobs, else 1 h) (default %(default)s)")
    parser.add_argument("--gpus-per-server", type=int, default=d["gpus_per_server"])
    parser.add_argument("--slots", type=int, default=None, help="horizon (default: automatic)")
    parser.add_argument("--horizon", choices=HORIZONS, default="finishable",
                        help="rule of the automatic horizon (default %(default)s; docs/readings.md T2)")
    parser.add_argument("--seed", type=int, default=d["seed"])
    # algorithm options (docs/readings.md, tenants): passed to the algorithms that take them
    parser.add_argument("--admission", choices=("real_revenue", "ideal"), default=None,
                        help="Astraea's and BatchSche's admission (default real_revenue; T1)")
    parser.add_argument("--clock", choices=("batch", "arrival"), default=None,
                        help="Astraea's and BatchSche's utility clock (default batch)")
    parser.add_argument("--lam", type=_lam, default=None,
                        help="lambda of Astraea and BatchSche: an integer >= 1 or 'lemma1' (default 2)")
    parser.add_argument("--theta-scale", type=float, default=None,
                        help="Astraea's theta_w, theta_p as a share of their values (Fig. 11; default 1)")
    parser.add_argument("--cluster", choices=("private", "quota"), default=None,
                        help="BatchSche's cluster (default private; T3)")
    parser.add_argument("--release", choices=("arrival", "batch"), default=None,
                        help="when Gandiva_fair and HiveD may start a job (default arrival; T3)")


def _slot_hours(text: str) -> float | str:
    """``--slot-hours``: a number or ``auto``."""
    if text == "auto":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number or 'auto'") from None


def _lam(text: str) -> int | str:
    """``--lam``: an integer or ``lemma1``."""
    if text == "lemma1":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer or 'lemma1'") from None


#: ``aisched compare tenants`` option -> (algorithm parameter, algorithms that take it).
_CLI_PARAMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "admission": ("admission", ("astraea", "batchsche")),
    "clock": ("clock", ("astraea", "batchsche")),
    "lam": ("lam", ("astraea", "batchsche", "gandiva_fair", "hived")),
    "theta_scale": ("theta_scale", ("astraea",)),
    "cluster": ("cluster", ("batchsche",)),
    "release": ("release", ("gandiva_fair", "hived")),
}


def cli_params(args: argparse.Namespace, names: list[str]) -> dict[str, dict[str, Any]]:
    """Per-algorithm keyword parameters of the options given (the others keep the algorithms' defaults).

    An option that none of ``names`` takes is an error naming it (raised before any work).
    """
    out: dict[str, dict[str, Any]] = {}
    scale = getattr(args, "theta_scale", None)
    if scale is not None and not (math.isfinite(scale) and scale > 0):
        raise InvalidScenarioError("--theta-scale", f"= {scale!r} must be a finite number > 0")
    lam = getattr(args, "lam", None)
    if isinstance(lam, int) and lam < 1:
        raise InvalidScenarioError("--lam", f"= {lam!r} must be an integer >= 1 or 'lemma1'")
    for option, (param, takers) in _CLI_PARAMS.items():
        value = getattr(args, option, None)
        if value is None:
            continue
        using = [n for n in names if n in takers]
        if not using:
            raise InvalidScenarioError(f"--{option.replace('_', '-')}",
                                       f"= {value!r} applies to {', '.join(takers)}, none of which is compared")
        for name in using:
            out.setdefault(name, {})[param] = value
    return out


def instance_from_cli(args: argparse.Namespace) -> TenantInstance:
    """The instance of ``aisched compare tenants``'s options (validated by :func:`generate`).

    The instance is remembered for :func:`cli_figures` (the CLI protocol does not pass it).
    """
    inst = generate(
        seed=args.seed, users=args.users, servers=args.servers, jobs=args.jobs, utility=args.utility,
        trace=None if args.trace == "synthetic" else args.trace, slot_hours=args.slot_hours,
        gpus_per_server=args.gpus_per_server, slots=args.slots, horizon=args.horizon,
    )
    _CLI_INSTANCE[0] = inst
    return inst


def describe(inst: TenantInstance, args: argparse.Namespace) -> str:
    """One line describing the generated scenario."""
    return (
        f"tenants scenario: {inst.num_users} users, {inst.num_servers} servers "
        f"({inst.total_workers} workers, {inst.total_parameter_servers} PSs), {inst.num_jobs} jobs, "
        f"{inst.num_slots} slots of {_hours(inst, args):g} h, {inst.utility} utility, trace {args.trace}, "
        f"seed {args.seed}"
    )


def _hours(inst: TenantInstance, args: argparse.Namespace) -> float:
    """The slot length in hours the options give (``auto`` resolved as :func:`generate` does)."""
    if args.slot_hours != "auto":
        return float(args.slot_hours)
    return 1.0 if inst.num_jobs > REDUCED_JOBS else REDUCED_SLOT_HOURS


def alpha_bars(alphas: dict[str, np.ndarray], path: Path, *, title: str = "", dpi: int = 120) -> Path:
    """Grouped bars of each user's revenue-fairness ratio ``alpha_u`` per scheduler (Fig. 7)."""
    from aisched.scenarios.figures import _pyplot, save

    plt = _pyplot()
    users = max(len(a) for a in alphas.values())
    fig, ax = plt.subplots(figsize=(max(6.0, 0.25 * users * len(alphas)), 3.6))
    width = 0.8 / max(1, len(alphas))
    for k, (name, alpha) in enumerate(alphas.items()):
        ax.bar(np.arange(len(alpha)) + (k - (len(alphas) - 1) / 2) * width, alpha, width, label=name)
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.set_xticks(np.arange(users), [f"u{u}" for u in range(users)])
    ax.set_xlabel("tenant u")
    ax.set_ylabel("revenue-fairness ratio alpha_u")
    if title:
        ax.set_title(textwrap.fill(title, 80), fontsize=8)
    ax.legend(fontsize=7)
    return save(fig, path, dpi=dpi)


def cli_figures(outcomes: dict[str, Any], table: pd.DataFrame, out: Path) -> list[str]:
    """Revenue-fairness ratio ``alpha_u`` per user and algorithm (Fig. 7), as a bar chart."""
    from aisched.online.tenants.metrics import fairness

    inst = _CLI_INSTANCE[0]
    if inst is None or not outcomes:
        return []
    alphas = {name: fairness(inst, outcome).per_user["alpha"].to_numpy()
              for name, outcome in outcomes.items() if name != "offline"}
    return [alpha_bars(alphas, out / "tenants_alpha.png", dpi=100).name] if alphas else []


def cell_metrics(instance: TenantInstance, outcome: Any) -> dict[str, float]:
    """Family metrics of one sweep cell.

    ``alpha_variance``: the variance of the revenue-fairness ratios (Fig. 8);
    ``alpha_u<k>``: user k's ratio ``alpha_u`` (Fig. 7); ``min_surplus``: the least
    ``mu_j`` = ideal revenue - resource cost over the jobs Astraea admitted
    (Fig. 12; ``nan`` for schedulers without admission prices or no admitted job);
    ``gpu_util_peak``: the largest share of all GPUs busy in one slot (Fig. 13,
    :func:`gpu_utilisation`); ``makespan``: slots from 0 until the last admitted
    job completes (Fig. 13); ``revenue_per_job``: revenue (3) per admitted job
    (Table 2; ``nan`` when none is admitted).
    """
    from aisched.online.tenants.metrics import fairness

    fair = fairness(instance, outcome)
    out = {"alpha_variance": float(fair.alpha_variance)}
    out.update({f"alpha_u{int(u)}": float(a) for u, a in fair.per_user["alpha"].items()})
    plan = outcome.plan
    surplus = plan["mu"].values[plan["admitted"].values] if "mu" in plan else np.array([])
    surplus = surplus[np.isfinite(surplus)]
    out["min_surplus"] = float(surplus.min()) if surplus.size else float("nan")
    util = gpu_utilisation(instance, plan)
    out["gpu_util_peak"] = float(util.max(initial=0.0))
    admitted = plan["admitted"].values.astype(bool)
    out["makespan"] = float(plan["end"].values[admitted].max() + 1) if admitted.any() else float("nan")
    out["revenue_per_job"] = float(outcome.objective) / int(admitted.sum()) if admitted.any() else float("nan")
    return out


def gpu_utilisation(instance: TenantInstance, plan: Any) -> np.ndarray:
    """(slot,) share of all workers (GPUs, ``sum_s C_sw``) in use by the admitted jobs (Fig. 13)."""
    from aisched.models.tenants import usage

    used_w, _ = usage(instance, plan)
    return used_w.sum(axis=0) / max(1, int(instance.total_workers))


def alpha_figure(root: Path, definition: dict[str, Any], table: pd.DataFrame) -> Path | None:
    """Fig. 7 in a sweep: :func:`alpha_bars` of the mean ``alpha_u`` over seeds at the last point."""
    columns = sorted((c for c in table.columns if re.fullmatch(r"alpha_u\d+", c)), key=lambda c: int(c[7:]))
    online = table[table["algorithm"] != "offline"]
    if not columns or online.empty:
        return None
    last = online[online["point"] == online["point"].max()]
    means = last.groupby("algorithm", sort=False)[columns].mean()
    title = f"{definition.get('title') or definition['name']} ({definition['x']} = {last['x'].iloc[0]})"
    return alpha_bars({str(name): row.to_numpy(float) for name, row in means.iterrows()},
                      root / "alpha_per_user.png", title=title)


def revenue_cost_figure(root: Path, definition: dict[str, Any], table: pd.DataFrame) -> Path | None:
    """Fig. 12: ideal revenue (``mu_j`` + cost) against resource cost of each job Astraea admitted."""
    from aisched.outcome import Outcome
    from aisched.scenarios.figures import _pyplot, save

    files = sorted((root / "outcomes").glob("p*-s*-astraea.nc"))
    if not files:
        return None
    plan = Outcome.from_netcdf(files[-1]).plan
    keep = plan["admitted"].values & np.isfinite(plan["mu"].values)
    cost = (plan["worker_cost"].values + plan["ps_cost"].values)[keep]
    ideal = plan["mu"].values[keep] + cost
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.8, 4.2))
    ax.scatter(cost, ideal, s=12, label="admitted job")
    top = float(max(ideal.max(initial=0.0), cost.max(initial=0.0))) or 1.0
    ax.plot([0, top], [0, top], color="black", linewidth=0.8, linestyle="--", label="revenue = cost")
    ax.set_xlabel("resource cost c_w + c_p")
    ax.set_ylabel("ideal revenue")
    ax.set_title(f"Astraea's admitted jobs ({files[-1].stem})", fontsize=9)
    ax.legend(fontsize=7)
    return save(fig, root / "revenue_vs_cost.png")


def utilisation_figure(root: Path, definition: dict[str, Any], table: pd.DataFrame) -> Path | None:
    """Fig. 13: GPU utilisation per slot of each scheduler (last point, first seed), makespan marked."""
    from aisched.outcome import Outcome
    from aisched.scenarios.figures import _pyplot, save

    files = sorted((root / "outcomes").glob("p*-s*-*.nc"))
    if not files:
        return None
    cells = [(int(m.group(1)), int(m.group(2)), m.group(3), f) for f in files
             if (m := re.fullmatch(r"p(\d+)-s(\d+)-(.+)\.nc", f.name)) and m.group(3) != "offline"]
    if not cells:
        return None
    last = max(c[0] for c in cells)
    seed = min(c[1] for c in cells if c[0] == last)
    chosen = [(name, f) for p, s, name, f in cells if p == last and s == seed]
    base = dict(definition.get("base", {}))
    if definition.get("x_target", "generator") == "generator":
        base[definition["x"]] = definition["values"][last]
    instance = generate(seed=seed, **base)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    for name, f in chosen:
        plan = Outcome.from_netcdf(f).plan
        util = gpu_utilisation(instance, plan)
        admitted = plan["admitted"].values.astype(bool)
        end = int(plan["end"].values[admitted].max()) + 1 if admitted.any() else 0
        line, = ax.plot(np.arange(util.size), 100.0 * util, linewidth=0.9, label=f"{name} (makespan {end})")
        if end:
            ax.axvline(end, color=line.get_color(), linewidth=0.6, linestyle=":")
    ax.set_xlabel("slot")
    ax.set_ylabel("GPU utilisation (%)")
    ax.set_ylim(0, 105)
    ax.set_title(textwrap.fill(f"{definition.get('title') or definition['name']} (seed {seed})", 80), fontsize=8)
    ax.legend(fontsize=7)
    return save(fig, root / "gpu_utilisation.png")


#: Extra report figures of the tenants family (``Scenario.figures``).
FIGURES = {"alpha_per_user": alpha_figure, "revenue_vs_cost": revenue_cost_figure,
           "gpu_utilisation": utilisation_figure}
