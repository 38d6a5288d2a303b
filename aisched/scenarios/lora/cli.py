"""The `aisched compare lora` protocol (see :mod:`aisched.cli`): options, instance, description, figures."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched.errors import InvalidScenarioError
from aisched.families import FamilyCli
from aisched.scenarios.lora.defaults import DEADLINE_METHODS, DEFAULT_SCENARIO, DEFAULT_TIME_LIMIT, GPU_MIXES

if TYPE_CHECKING:
    import pandas as pd

    from aisched.models.lora.instance import LoraInstance

__all__ = ["LoraCli", "CLI_ALGORITHMS", "CLI_HELP", "CLI_KNOWN", "CLI_TIME_LIMIT", "add_cli_arguments", "cli_figures", "describe",
           "instance_from_cli"]


# --- the `aisched compare lora` protocol (see aisched.cli) ---------------------------------------

CLI_HELP = "multi-LoRA fine-tuning auction (pdFTSP)"
CLI_ALGORITHMS: tuple[str, ...] = ("pdftsp", "titan", "eft", "ntm")
#: Every algorithm ``--algorithms`` accepts: the registered names (``tests/test_cli.py`` checks them).
CLI_KNOWN: tuple[str, ...] = (*CLI_ALGORITHMS, "titan_welfare")
#: Default ``--time-limit`` of the offline solve (see :data:`~aisched.scenarios.lora.defaults.DEFAULT_TIME_LIMIT`).
CLI_TIME_LIMIT = DEFAULT_TIME_LIMIT


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of :func:`generate` to ``parser`` (defaults: :data:`DEFAULT_SCENARIO`)."""
    d = DEFAULT_SCENARIO
    parser.add_argument("--nodes", type=int, default=d["nodes"], help="GPU nodes (default %(default)s)")
    parser.add_argument("--slots", type=int, default=d["slots"], help="10-minute slots (default %(default)s)")
    parser.add_argument(
        "--arrival-rate", type=float, default=None,
        help="Poisson tasks per slot (default: the embedded scenario's exact task count)",
    )
    parser.add_argument(
        "--tasks", type=int, default=None,
        help=f"exact task count (default {d['tasks']} unless --arrival-rate is given)",
    )
    parser.add_argument("--vendors", type=int, default=d["vendors"], help="labour vendors (default %(default)s)")
    parser.add_argument("--gpu-mix", choices=GPU_MIXES, default=d["gpu_mix"],
                        help="node types: all A100, all A40 or alternating (default %(default)s)")
    parser.add_argument("--deadline", choices=tuple(DEADLINE_METHODS), default=d.get("deadline", "slack"),
                        help="deadline method of section 5.1 (default %(default)s)")
    parser.add_argument("--seed", type=int, default=d["seed"], help="generator seed (default %(default)s)")


def instance_from_cli(args: argparse.Namespace) -> LoraInstance:
    """The instance of ``aisched compare lora``'s options (validated by :func:`generate`)."""
    from aisched.scenarios.lora.generator import generate

    tasks = args.tasks
    if tasks is not None and args.arrival_rate is not None:
        raise InvalidScenarioError("--tasks", f"= {tasks} cannot be combined with --arrival-rate "
                                   f"{args.arrival_rate:g}: give an exact count or a Poisson rate")
    if tasks is None and args.arrival_rate is None:
        tasks = DEFAULT_SCENARIO["tasks"]
    return generate(
        seed=args.seed,
        nodes=args.nodes,
        slots=args.slots,
        arrival_rate=2.0 if args.arrival_rate is None else args.arrival_rate,
        tasks=tasks,
        vendors=args.vendors,
        gpu_mix=args.gpu_mix,
        deadline=args.deadline,
    )


def describe(inst: LoraInstance, args: argparse.Namespace) -> str:
    """One line describing the generated scenario."""
    return (
        f"lora scenario: {inst.num_tasks} tasks, {inst.num_nodes} nodes ({args.gpu_mix}), "
        f"{inst.num_slots} slots, {inst.num_vendors} vendors, seed {args.seed}"
    )


def cli_figures(outcomes: dict[str, Any], table: pd.DataFrame, out: Path) -> list[str]:
    """pdFTSP's final compute price (node x slot) as a heatmap, when pdFTSP ran."""
    from aisched.experiments import figures

    if "pdftsp" not in outcomes:
        return []
    figures.price_heatmap(
        outcomes["pdftsp"].prices, out / "lora_pdftsp_compute_price.png",
        title="pdFTSP final compute price lambda (node x slot)",
    )
    return ["lora_pdftsp_compute_price.png"]


class LoraCli(FamilyCli):
    """``aisched compare lora``: this module's functions as the :class:`~aisched.families.FamilyCli` protocol."""

    help, algorithms = CLI_HELP, CLI_ALGORITHMS
    known, time_limit = CLI_KNOWN, CLI_TIME_LIMIT
    add_arguments = staticmethod(add_cli_arguments)
    instance = staticmethod(instance_from_cli)
    describe = staticmethod(describe)
    figures = staticmethod(cli_figures)
