"""The `aisched compare genai` protocol (see :mod:`aisched.cli`): options, instance, description, figures.

:class:`GenaiCli` is the protocol. The module-level functions ``add_cli_arguments``, ``instance_from_cli``,
``describe``, ``cli_figures`` and ``cli_params`` are deprecated aliases of its methods (kept for one release;
they warn); the constants ``CLI_*`` equal its class attributes.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched.cli_support import deprecated_alias, silent_generator_kwargs
from aisched.errors import InvalidScenarioError
from aisched.families import FamilyCli
from aisched.scenarios.genai.defaults import (
    ADMISSIONS,
    ALPHA_READINGS,
    CAPACITY_GB,
    COMMUNICATIONS,
    DEADLINE_RULES,
    DEFAULT_SCENARIO,
    ON_FULL,
    OPTION_EVALS,
    REVENUE_RULES,
    SELECTIONS,
    WORKLOADS,
)

if TYPE_CHECKING:
    import pandas as pd

    from aisched.models.genai import GenaiInstance

__all__ = ["GenaiCli", "CLI_ALGORITHMS", "CLI_HELP", "add_cli_arguments", "cli_figures", "cli_params", "describe",
           "instance_from_cli"]


def _capacity(text: str) -> str | float:
    if text in (*CAPACITY_GB, "hetero"):
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: use homo-S, homo-M, homo-L, hetero or GB") from None


# --- the `aisched compare genai` protocol (see aisched.cli) ---------------------------------------

class GenaiCli(FamilyCli):
    """``aisched compare genai``: the family's :class:`~aisched.families.FamilyCli` protocol."""

    help = "generative-AI job DAGs with model selection (ComDOS)"
    algorithms: tuple[str, ...] = ("comdos", "heft_a", "heft_ma", "random_a")

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the options of :func:`generate` (defaults: :data:`DEFAULT_SCENARIO`).

        Parameters
        ----------
        parser
            The ``aisched compare genai`` parser.
        """
        d = DEFAULT_SCENARIO
        parser.add_argument("--edges", type=int, default=d["edges"], help="edge clouds (default %(default)s)")
        parser.add_argument("--slots", type=int, default=d["slots"], help="5-second slots (default %(default)s)")
        parser.add_argument("--arrival-rate", type=float, default=None,
                            help=f"Poisson jobs per slot, instead of --jobs (default: none, {d['jobs']} jobs "
                                 "exactly)")
        parser.add_argument("--jobs", type=int, default=None,
                            help=f"exact job count, arrivals uniform over the slots (default {d['jobs']} unless "
                                 "--arrival-rate is given)")
        parser.add_argument("--capacity", type=_capacity, default=d["capacity"],
                            help="homo-S, homo-M, homo-L, hetero or GB per edge (default %(default)s)")
        parser.add_argument("--dag-source", choices=("taskbench", "hugginggpt", "generator"),
                            default=d["dag_source"],
                            help="where the job DAGs come from: TaskBench's, HuggingGPT's demos or the generator "
                                 "(default %(default)s)")
        parser.add_argument("--seed", type=int, default=d["seed"], help="generator seed (default %(default)s)")
        parser.add_argument("--deadline-rule", choices=DEADLINE_RULES, default="arrival",
                            help="deadline draw (docs/readings/genai.md A2; default %(default)s)")
        parser.add_argument("--revenue-rule", choices=REVENUE_RULES, default="proportional",
                            help="revenue rule (docs/readings/genai.md A2; default %(default)s)")
        parser.add_argument("--workload", choices=WORKLOADS, default="legacy",
                            help="costs, revenue rate and runtimes (genai A2b; the paper figures run gpu_priced; "
                                 "default %(default)s)")
        parser.add_argument("--alpha-reading", choices=ALPHA_READINGS, default="density_ratio",
                            help="ComDOS: unit of (9)'s alpha (genai A1; default %(default)s)")
        parser.add_argument("--selection", choices=SELECTIONS, default="algorithm2",
                            help="ComDOS: per-job selection, the paper's DP or the exact maximiser of (8) "
                                 "(genai A8; default %(default)s)")
        parser.add_argument("--option-eval", choices=OPTION_EVALS, default="shared",
                            help="ComDOS: how Algorithm 2 evaluates many options (same decisions; "
                                 "default %(default)s)")
        parser.add_argument("--admission", choices=ADMISSIONS, default="task",
                            help="baselines: admission control per task or per job (genai A3; default %(default)s)")
        parser.add_argument("--communication", choices=COMMUNICATIONS, default="none",
                            help="HEFT-A/HEFT-MA: communication in the rank and finish times (genai A4; "
                                 "default %(default)s)")
        parser.add_argument("--on-full", choices=ON_FULL, default="decline",
                            help="Random-A when its edge cannot host the task (genai A6; default %(default)s)")

    def params(self, args: argparse.Namespace, names: list[str] | None = None) -> dict[str, dict[str, Any]]:
        """Per-algorithm options of ``aisched compare genai`` (passed to :func:`aisched.compare`).

        ``names`` (the compared algorithms) is accepted for the CLI's family hook; every
        genai option has a default, so all four algorithms' options are returned.

        Parameters
        ----------
        args
            The parsed options.
        names
            The compared algorithms (unused).

        Returns
        -------
        dict
            ``{algorithm: {parameter: value}}`` for all four algorithms.
        """
        return {
            "comdos": {"alpha_reading": args.alpha_reading, "selection": args.selection,
                       "option_eval": args.option_eval},
            "heft_a": {"admission": args.admission, "communication": args.communication},
            "heft_ma": {"admission": args.admission, "communication": args.communication},
            "random_a": {"admission": args.admission, "on_full": args.on_full},
        }

    def instance(self, args: argparse.Namespace) -> GenaiInstance:
        """The instance of ``aisched compare genai``'s options (validated by :func:`generate`).

        Parameters
        ----------
        args
            The parsed options.

        Returns
        -------
        GenaiInstance
            The generated instance.

        Raises
        ------
        InvalidScenarioError
            For ``--jobs`` combined with ``--arrival-rate``.
        """
        from aisched.scenarios.genai.generator import generate

        jobs = args.jobs
        if jobs is not None and args.arrival_rate is not None:
            raise InvalidScenarioError("--jobs", f"= {jobs} cannot be combined with --arrival-rate "
                                       f"{args.arrival_rate:g}: give an exact count or a Poisson rate")
        # neither given: generate() draws DEFAULT_SCENARIO's job count, as the API does
        return generate(seed=args.seed, edges=args.edges, slots=args.slots, arrival_rate=args.arrival_rate,
                        capacity=args.capacity, dag_source=args.dag_source, jobs=jobs,
                        deadline_rule=args.deadline_rule, revenue_rule=args.revenue_rule, workload=args.workload,
                        **silent_generator_kwargs(args, "genai"))

    def describe(self, inst: GenaiInstance, args: argparse.Namespace) -> str:
        """One line describing the generated scenario.

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
        return (f"genai scenario: {inst.num_jobs} jobs ({args.dag_source} DAGs, {int(inst.num_tasks.sum())} tasks), "
                f"{inst.num_edges} edges ({args.capacity}), {inst.num_slots} slots, seed {args.seed}")

    def figures(self, outcomes: dict[str, Any], table: pd.DataFrame, out: Path) -> list[str]:
        """ComDOS's final memory price lambda (edge x slot) as a heatmap, when ComDOS ran.

        Parameters
        ----------
        outcomes
            The compared algorithms' outcomes, by name.
        table
            The comparison table (unused).
        out
            The folder the figure is written to.

        Returns
        -------
        list of str
            The file names written (none when ComDOS did not run).
        """
        from aisched import figures

        if "comdos" not in outcomes:
            return []
        figures.price_heatmap(outcomes["comdos"].prices, out / "genai_comdos_memory_price.png",
                              variable="memory_price", title="ComDOS final memory price lambda (edge x slot)")
        return ["genai_comdos_memory_price.png"]


CLI_HELP = GenaiCli.help
CLI_ALGORITHMS: tuple[str, ...] = GenaiCli.algorithms


# --- deprecated module-level aliases of GenaiCli's methods (kept for one release) ---------------

_alias = functools.partial(deprecated_alias, __name__, GenaiCli)
add_cli_arguments = _alias("add_cli_arguments", "add_arguments")
cli_params = _alias("cli_params", "params")
instance_from_cli = _alias("instance_from_cli", "instance")
describe = _alias("describe", "describe")
cli_figures = _alias("cli_figures", "figures")
