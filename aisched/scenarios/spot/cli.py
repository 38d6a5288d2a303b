"""The `aisched compare spot` and `aisched select spot` protocols (see :mod:`aisched.cli`).

Options, the instance, the one-line description, and ``aisched select spot``
(Algorithm 2 over the paper's pool, printed and written to files).

:class:`SpotCli` is the protocol. The module-level functions ``add_cli_arguments``, ``instance_from_cli``,
``describe``, ``add_select_arguments`` and ``run_select`` are deprecated aliases of its methods (kept for
one release; they warn); the constants ``CLI_*`` equal its class attributes.
"""

from __future__ import annotations

import argparse
import functools
import math
from pathlib import Path
from typing import TYPE_CHECKING

from aisched.cli_support import deprecated_alias, silent_generator_kwargs
from aisched.errors import InvalidScenarioError
from aisched.families import FamilyCli
from aisched.scenarios.spot.defaults import CHANGEOVERS, DEFAULT_SCENARIO, MARKETS, MAX_SLOTS, NOISE_SETTINGS

if TYPE_CHECKING:
    from aisched.models.spot import SpotInstance

__all__ = ["SpotCli", "CLI_HELP", "CLI_ALGORITHMS", "add_cli_arguments", "instance_from_cli", "describe",
           "add_select_arguments", "run_select"]


class SpotCli(FamilyCli):
    """``aisched compare spot`` and ``aisched select spot``: the family's :class:`~aisched.families.FamilyCli` protocol."""

    help = "deadline-aware fine-tuning on spot and on-demand GPUs (AHAP)"
    algorithms: tuple[str, ...] = ("ahap", "ahanp", "od_only", "msu", "up")

    # --- the `aisched compare spot` protocol (see aisched.cli) ---------------------------------

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Options of :func:`generate` (defaults: :data:`DEFAULT_SCENARIO`, the paper's LLaMA2-7B job).

        Parameters
        ----------
        parser
            The ``aisched compare spot`` parser.
        """
        d = DEFAULT_SCENARIO
        parser.add_argument("--work", type=float, default=d["work"],
                            help="work L, in GPU-slots at full efficiency (default %(default)s)")
        parser.add_argument("--deadline", type=int, default=d["deadline"],
                            help="soft deadline d, in 30-minute slots (default %(default)s)")
        parser.add_argument("--min-gpus", type=int, default=d["min_gpus"], help="N_min, the fewest GPUs the job runs "
                            "on (default %(default)s)")
        parser.add_argument("--max-gpus", type=int, default=d["max_gpus"], help="N_max, the most GPUs the job runs on "
                            "(default %(default)s)")
        parser.add_argument("--market", choices=MARKETS, default=d["market"],
                            help="spot prices and availability: synthetic (a daily pattern), vast (the Vast.ai "
                                 "trace, the paper's market) or aws (an AWS availability trace) (default %(default)s)")
        parser.add_argument("--bandwidth", type=float, default=d["bandwidth"],
                            help="network bandwidth, Mbps (100..800), which sets the reconfiguration efficiency mu "
                                 "(default %(default)s)")
        parser.add_argument("--seed", type=int, default=d["seed"], help="generator seed (default %(default)s)")
        parser.add_argument("--changeover", choices=CHANGEOVERS, default=d["changeover"],
                            help="charge a restart (mu_1) when the job moves between spot and on-demand "
                                 "(default off: the paper's model)")

    def instance(self, args: argparse.Namespace) -> SpotInstance:
        """The instance of ``aisched compare spot``'s options.

        Parameters
        ----------
        args
            The parsed options.

        Returns
        -------
        SpotInstance
            The generated instance.
        """
        from aisched.scenarios.spot.generator import generate

        return generate(seed=args.seed, deadline=args.deadline, market=args.market, work=args.work,
                        min_gpus=args.min_gpus, max_gpus=args.max_gpus, bandwidth=args.bandwidth,
                        changeover=getattr(args, "changeover", DEFAULT_SCENARIO["changeover"]),
                        **silent_generator_kwargs(args, "spot"))

    def describe(self, inst: SpotInstance, args: argparse.Namespace) -> str:
        """One line describing the scenario.

        Parameters
        ----------
        inst
            The instance of :meth:`instance`.
        args
            The parsed options.

        Returns
        -------
        str
            The line.
        """
        return (f"spot scenario: work {inst.work:g}, deadline {inst.deadline}, GPUs "
                f"{inst.min_gpus}..{inst.max_gpus}, mu {inst.scale_up_efficiency}, {args.market} market, "
                f"{inst.num_slots} slots, seed {args.seed}, changeover {inst.changeover}")

    # --- the `aisched select spot` protocol ----------------------------------------------------

    def add_select_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Options of ``aisched select spot``.

        Parameters
        ----------
        parser
            The ``aisched select spot`` parser.
        """
        parser.add_argument("--jobs", type=int, default=1000, help="workload size K")
        parser.add_argument("--deadline", type=int, default=10, help="each job's soft deadline, slots "
                            "(default %(default)s)")
        parser.add_argument("--market", choices=MARKETS, default="synthetic",
                            help="spot prices and availability (default %(default)s)")
        parser.add_argument("--noise", choices=NOISE_SETTINGS, default="fixed-uniform",
                            help="prediction noise: fixed or magnitude-dependent, uniform or heavy-tailed "
                                 "(section VI-A; default %(default)s)")
        parser.add_argument("--error", type=float, default=0.1, help="prediction error level")
        parser.add_argument("--windows", default="1,2,3,4,5",
                            help="AHAP windows w of the pool (comma-separated; default the paper's)")
        parser.add_argument("--thresholds", default="0.3,0.4,0.5,0.6,0.7,0.8,0.9",
                            help="price thresholds sigma of the pool (comma-separated)")
        parser.add_argument("--seed", type=int, default=0, help="workload seed (default %(default)s)")
        parser.add_argument("--out", type=Path, default=Path("results"), help="output folder")
        parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")

    def run_select(self, args: argparse.Namespace) -> int:
        """``aisched select spot``: Algorithm 2 over the paper's pool; prints a summary, writes files.

        Parameters
        ----------
        args
            The parsed options of :meth:`add_select_arguments`.

        Returns
        -------
        int
            The exit status (0).

        Raises
        ------
        InvalidScenarioError
            For a negative ``--error``, malformed, repeated or too long ``--windows``/``--thresholds``, or a
            pool whose evaluation would need more memory than the limit.
        """
        from aisched.online.spot import paper_pool, select
        from aisched.online.spot.selection import MAX_POOL_BYTES, pool_memory_bytes
        from aisched.scenarios.spot.generator import predictor, workload
        from aisched.scenarios.spot.selection import policy_weight_heatmap

        if not (math.isfinite(args.error) and args.error >= 0):
            raise InvalidScenarioError("--error", f"= {args.error} must be >= 0")
        try:
            windows = [int(x) for x in str(args.windows).split(",") if x.strip()]
            sigmas = [float(x) for x in str(args.thresholds).split(",") if x.strip()]
        except ValueError:
            raise InvalidScenarioError("--windows/--thresholds", "must be comma-separated numbers") from None
        if not windows or min(windows) < 1 or not sigmas or min(sigmas) <= 0 or not all(map(math.isfinite, sigmas)):
            raise InvalidScenarioError("--windows/--thresholds", "need windows >= 1 and finite thresholds > 0")
        if max(windows) > MAX_SLOTS:  # a size guard: a window longer than any generated horizon
            raise InvalidScenarioError("--windows", f"= {max(windows)} is longer than the largest horizon MAX_SLOTS = "
                                       f"{MAX_SLOTS} slots")
        for flag, values in (("--windows", windows), ("--thresholds", sigmas)):
            repeated = sorted({x for x in values if values.count(x) > 1})
            if repeated:
                raise InvalidScenarioError(flag, f"repeats {repeated[0]:g} (each pool member must be distinct)")
        pool = paper_pool(windows=windows, sigmas=sigmas)
        need = pool_memory_bytes(max(int(args.jobs), 1), pool, int(args.deadline))
        if need > MAX_POOL_BYTES:  # size guard before any allocation
            raise InvalidScenarioError("--windows", f"= {args.windows} gives {len(pool)} policies (windows up to "
                                       f"{max(windows)}): the pool evaluation on {args.jobs} jobs needs about "
                                       f"{need / 2**30:.1f} GiB, over the limit of {MAX_POOL_BYTES / 2**30:.0f} GiB "
                                       "(use fewer or shorter windows, or fewer --jobs)")
        jobs = workload(seed=args.seed, jobs=args.jobs, deadline=args.deadline, market=args.market)
        res = select(jobs, pool, predictor(args.noise, args.error, args.seed), seed=args.seed)
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
        from aisched._files import atomic_write, atomic_write_text  # never half-written; one line on failure

        atomic_write(out / "spot_select_weights.nc", lambda tmp: ds.to_netcdf(tmp, engine="netcdf4"))
        atomic_write_text(out / "spot_select_weights.csv", res.weights.to_pandas().to_csv())
        written = ["spot_select_weights.nc", "spot_select_weights.csv"]
        if not args.no_figures:
            policy_weight_heatmap(res.weights, out / "spot_select_weights.png",
                                  title="Algorithm 2: policy weights (Fig. 10 style)")
            written.append("spot_select_weights.png")
        print(f"wrote {', '.join(written)} to {out}/")
        return 0


CLI_HELP = SpotCli.help
CLI_ALGORITHMS: tuple[str, ...] = SpotCli.algorithms


# --- deprecated module-level aliases of SpotCli's methods (kept for one release) ----------------

_alias = functools.partial(deprecated_alias, __name__, SpotCli)
add_cli_arguments = _alias("add_cli_arguments", "add_arguments")
instance_from_cli = _alias("instance_from_cli", "instance")
describe = _alias("describe", "describe")
add_select_arguments = _alias("add_select_arguments", "add_select_arguments")
run_select = _alias("run_select", "run_select")
