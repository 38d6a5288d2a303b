"""The `aisched compare lora` protocol (see :mod:`aisched.cli`): options, instance, description, figures.

:class:`LoraCli` is the protocol. The module-level functions ``add_cli_arguments``, ``instance_from_cli``,
``describe`` and ``cli_figures`` are deprecated aliases of its methods (kept for one release; they warn);
the constants ``CLI_*`` equal its class attributes.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched.cli_support import deprecated_alias, silent_generator_kwargs
from aisched.errors import InvalidScenarioError
from aisched.families import FamilyCli
from aisched.scenarios.lora.defaults import (
    DEADLINE_METHODS,
    DEFAULT_SCENARIO,
    DEFAULT_TIME_LIMIT,
    DEFAULT_TRACE_RATE,
    GPU_MIXES,
)

if TYPE_CHECKING:
    import pandas as pd

    from aisched.models.lora.instance import LoraInstance

__all__ = ["LoraCli", "CLI_ALGORITHMS", "CLI_HELP", "CLI_KNOWN", "CLI_TIME_LIMIT", "add_cli_arguments", "cli_figures", "describe",
           "instance_from_cli"]


# --- the `aisched compare lora` protocol (see aisched.cli) ---------------------------------------

class LoraCli(FamilyCli):
    """``aisched compare lora``: the family's :class:`~aisched.families.FamilyCli` protocol."""

    help = "multi-LoRA fine-tuning auction (pdFTSP)"
    algorithms: tuple[str, ...] = ("pdftsp", "titan", "eft", "ntm")
    #: Every algorithm ``--algorithms`` accepts: the registered names (``tests/test_cli.py`` checks them).
    known: tuple[str, ...] = (*algorithms, "titan_welfare")
    #: Default ``--time-limit`` of the offline solve (see :data:`~aisched.scenarios.lora.defaults.DEFAULT_TIME_LIMIT`).
    time_limit = DEFAULT_TIME_LIMIT

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the options of :func:`generate` to ``parser`` (defaults: :data:`DEFAULT_SCENARIO`).

        Parameters
        ----------
        parser
            The ``aisched compare lora`` parser.
        """
        d = DEFAULT_SCENARIO
        parser.add_argument("--nodes", type=int, default=d["nodes"], help="GPU nodes (default %(default)s)")
        parser.add_argument("--slots", type=int, default=d["slots"], help="10-minute slots (default %(default)s)")
        parser.add_argument(
            "--arrival-rate", type=float, default=None,
            help=f"tasks per slot: the Poisson mean, or with --trace the mean the trace's counts are rescaled to "
                 f"(default: none, {d['tasks']} tasks exactly; with --trace {DEFAULT_TRACE_RATE:g} a slot)",
        )
        parser.add_argument(
            "--tasks", type=int, default=None,
            help=f"exact task count, arrivals uniform over the slots (default {d['tasks']} unless --arrival-rate or "
                 "--trace is given)",
        )
        parser.add_argument(
            "--trace", metavar="FILE", default=d["trace"],
            help="arrivals per slot from a trace: a CSV file with a timestamp column (date-times or epoch seconds, one "
                 "job a row), a creation_time column (seconds) or time, total_job_num snapshots, or a shipped trace "
                 "(philly, philly-week, alibaba, helios; `aisched data list`). The trace's jobs are placed from slot 0: "
                 "its slot 0 starts at midnight of its first arrival's day and becomes the instance's slot 0 (a "
                 "trace shorter than --slots repeats); its counts are rescaled to --arrival-rate and keep their shape "
                 "(default: none, Poisson arrivals)",
        )
        parser.add_argument(
            "--trace-start", type=int, default=None, metavar="SLOT",
            help="with --trace: the trace's slot that becomes slot 0 (10-minute slots), e.g. 84 to start at 14:00 of "
                 f"its first day; a window without jobs is refused with the slot of the trace's next job "
                 f"(default {d['trace_start']})",
        )
        parser.add_argument("--vendors", type=int, default=d["vendors"], help="labour vendors (default %(default)s)")
        parser.add_argument("--gpu-mix", choices=GPU_MIXES, default=d["gpu_mix"],
                            help="node types: all A100, all A40 or alternating (default %(default)s)")
        parser.add_argument("--deadline", choices=tuple(DEADLINE_METHODS), default=d.get("deadline", "slack"),
                            help="deadline method of section 5.1 (default %(default)s)")
        parser.add_argument("--seed", type=int, default=d["seed"], help="generator seed (default %(default)s)")

    def instance(self, args: argparse.Namespace) -> LoraInstance:
        """The instance of ``aisched compare lora``'s options (validated by :func:`generate`).

        Parameters
        ----------
        args
            The parsed options.

        Returns
        -------
        LoraInstance
            The generated instance.

        Raises
        ------
        InvalidScenarioError
            For options that do not combine (``--tasks`` with ``--arrival-rate`` or ``--trace``,
            ``--trace-start`` without ``--trace``) or a negative ``--trace-start``.
        """
        from aisched.scenarios.lora.generator import generate

        tasks = args.tasks
        trace = getattr(args, "trace", None)
        given_start = getattr(args, "trace_start", None)
        trace_start = DEFAULT_SCENARIO["trace_start"] if given_start is None else given_start
        if tasks is not None and args.arrival_rate is not None:
            raise InvalidScenarioError("--tasks", f"= {tasks} cannot be combined with --arrival-rate "
                                       f"{args.arrival_rate:g}: give an exact count or a Poisson rate")
        if tasks is not None and trace is not None:
            raise InvalidScenarioError("--tasks", f"= {tasks} cannot be combined with --trace {trace!r}: the trace "
                                       "gives the arrivals (scale them with --arrival-rate)")
        if trace is None and given_start is not None:
            raise InvalidScenarioError("--trace-start", f"= {trace_start} needs --trace: it says where a trace starts")
        if trace_start < 0:
            raise InvalidScenarioError("--trace-start", f"= {trace_start} must be a slot >= 0")
        # neither --tasks, --arrival-rate nor --trace: generate() draws DEFAULT_SCENARIO's task count, as the API does
        return generate(
            seed=args.seed,
            nodes=args.nodes,
            slots=args.slots,
            arrival_rate=args.arrival_rate,
            tasks=tasks,
            trace=trace,
            trace_start=trace_start,
            vendors=args.vendors,
            gpu_mix=args.gpu_mix,
            deadline=args.deadline,
            **silent_generator_kwargs(args, "lora"),
        )

    def describe(self, inst: LoraInstance, args: argparse.Namespace) -> str:
        """One line describing the generated scenario (and its trace, when ``--trace`` gave the arrivals).

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
        trace, start, rate = getattr(args, "trace", None), getattr(args, "trace_start", None), args.arrival_rate
        source = "" if trace is None else (
            f" (trace {trace} from its slot {DEFAULT_SCENARIO['trace_start'] if start is None else start}, rescaled to "
            f"{DEFAULT_TRACE_RATE if rate is None else rate:g} a slot)")
        return (
            f"lora scenario: {inst.num_tasks} tasks{source}, {inst.num_nodes} nodes ({args.gpu_mix}), "
            f"{inst.num_slots} slots, {inst.num_vendors} vendors, seed {args.seed}"
        )

    def figures(self, outcomes: dict[str, Any], table: pd.DataFrame, out: Path) -> list[str]:
        """pdFTSP's final compute price (node x slot) as a heatmap, when pdFTSP ran.

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
            The file names written (none when pdFTSP did not run).
        """
        from aisched import figures

        if "pdftsp" not in outcomes:
            return []
        figures.price_heatmap(
            outcomes["pdftsp"].prices, out / "lora_pdftsp_compute_price.png",
            title="pdFTSP final compute price lambda (node x slot)",
        )
        return ["lora_pdftsp_compute_price.png"]


CLI_HELP = LoraCli.help
CLI_ALGORITHMS: tuple[str, ...] = LoraCli.algorithms
#: Every algorithm ``--algorithms`` accepts: the registered names (``tests/test_cli.py`` checks them).
CLI_KNOWN: tuple[str, ...] = LoraCli.known
#: Default ``--time-limit`` of the offline solve (see :data:`~aisched.scenarios.lora.defaults.DEFAULT_TIME_LIMIT`).
CLI_TIME_LIMIT = LoraCli.time_limit


# --- deprecated module-level aliases of LoraCli's methods (kept for one release) ------------------

_alias = functools.partial(deprecated_alias, __name__, LoraCli)
add_cli_arguments = _alias("add_cli_arguments", "add_arguments")
instance_from_cli = _alias("instance_from_cli", "instance")
describe = _alias("describe", "describe")
cli_figures = _alias("cli_figures", "figures")
