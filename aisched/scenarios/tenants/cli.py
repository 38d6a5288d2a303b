"""The `aisched compare tenants` protocol (see :mod:`aisched.cli`): options, instance, description, figures.

:class:`TenantsCli` is the protocol. The module-level functions ``add_cli_arguments``, ``instance_from_cli``,
``describe``, ``cli_figures`` and ``cli_params`` are deprecated aliases of its methods (kept for one release;
they warn); the constants ``CLI_*`` equal its class attributes.
"""

from __future__ import annotations

import argparse
import functools
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched.cli_support import deprecated_alias, silent_generator_kwargs
from aisched.errors import InvalidScenarioError
from aisched.families import FamilyCli
from aisched.scenarios.tenants.defaults import (
    DEFAULT_SCENARIO,
    HORIZONS,
    REDUCED_JOBS,
    REDUCED_SLOT_HOURS,
    TRACE_CHOICES,
    UTILITIES,
    WINDOWS,
)

if TYPE_CHECKING:
    import pandas as pd

    from aisched.models.tenants import TenantInstance

__all__ = ["TenantsCli", "CLI_ALGORITHMS", "CLI_HELP", "add_cli_arguments", "cli_figures", "cli_params", "describe",
           "instance_from_cli"]


#: The last instance of :meth:`TenantsCli.instance`, for :meth:`TenantsCli.figures` (the protocol does not pass it).
_CLI_INSTANCE: list[TenantInstance | None] = [None]


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


def _ps_per_server(text: str) -> int | str:
    """``--ps-per-server``: an integer or ``widest_job`` (docs/readings/tenants.md T12)."""
    if text == "widest_job":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer or 'widest_job'") from None


#: ``aisched compare tenants`` option -> (algorithm parameter, algorithms that take it).
_CLI_PARAMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "admission": ("admission", ("astraea", "batchsche")),
    "clock": ("clock", ("astraea", "batchsche")),
    "lam": ("lam", ("astraea", "batchsche", "gandiva_fair", "hived")),
    "theta_scale": ("theta_scale", ("astraea",)),
    "cluster": ("cluster", ("batchsche",)),
    "release": ("release", ("gandiva_fair", "hived")),
    "share": ("share", ("gandiva_fair",)),
    "cells": ("cells", ("hived",)),
}


def _hours(inst: TenantInstance, args: argparse.Namespace) -> float:
    """The slot length in hours the options give (``auto`` resolved as :func:`generate` does)."""
    if args.slot_hours != "auto":
        return float(args.slot_hours)
    return 1.0 if inst.num_jobs > REDUCED_JOBS else REDUCED_SLOT_HOURS


# --- the `aisched compare tenants` protocol (see aisched.cli) ------------------------------------

class TenantsCli(FamilyCli):
    """``aisched compare tenants``: the family's :class:`~aisched.families.FamilyCli` protocol."""

    help = "fair multi-tenant sharing of distributed ML jobs (Astraea)"
    algorithms: tuple[str, ...] = ("astraea", "batchsche", "gandiva_fair", "hived")

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the options of :func:`generate` to ``parser`` (defaults: :data:`DEFAULT_SCENARIO`).

        Parameters
        ----------
        parser
            The ``aisched compare tenants`` parser.
        """
        d = DEFAULT_SCENARIO
        parser.add_argument("--users", type=int, default=d["users"], help="tenants (default %(default)s)")
        parser.add_argument("--servers", type=int, default=d["servers"], help="servers (default %(default)s)")
        parser.add_argument("--jobs", type=int, default=d["jobs"], help="jobs (default %(default)s)")
        parser.add_argument("--utility", choices=UTILITIES, default=d["utility"],
                            help="the users' utility of completion time, Theorem 1's forms (default %(default)s)")
        parser.add_argument("--trace", choices=TRACE_CHOICES, default=d["trace"],
                            help="arrivals from a day or a week of the Philly trace, or drawn (default %(default)s)")
        parser.add_argument("--slot-hours", type=_slot_hours, default=d["slot_hours"],
                            help="hours per slot, or 'auto' (48 h at <= 15 jobs, else 1 h; the API's default too) "
                                 "(default %(default)s)")
        parser.add_argument("--window", choices=WINDOWS, default="every_tenant",
                            help="how the trace gives arrivals and owners (default %(default)s: the shortest window "
                                 "where every user has a job, else the documented draw; T8)")
        parser.add_argument("--gpus-per-server", type=int, default=d["gpus_per_server"],
                            help="workers (GPUs) per server (default %(default)s)")
        parser.add_argument("--slots", type=int, default=None, help="horizon (default: automatic)")
        parser.add_argument("--horizon", choices=HORIZONS, default="finishable",
                            help="rule of the automatic horizon (default %(default)s; docs/readings/tenants.md T2)")
        parser.add_argument("--ps-per-server", type=_ps_per_server, default=1,
                            help="PSs per server C_sp: an integer or 'widest_job' (enough for the widest job under "
                                 "(3i); default %(default)s, section 5.1; docs/readings/tenants.md T12)")
        parser.add_argument("--cluster-shares", choices=("gpu_time",), default=None,
                            help="tenants' shares from the extract's virtual clusters' GPU time (needs users <= its "
                                 "clusters: 8 day, 10 week; default: each window rule's own; T14)")
        parser.add_argument("--seed", type=int, default=d["seed"], help="generator seed (default %(default)s)")
        # algorithm options (docs/readings/tenants.md): passed to the algorithms that take them
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
        parser.add_argument("--share", choices=("usage", "tickets"), default=None,
                            help="Gandiva_fair's fair share: usage now over quota, or its paper's ticket-based "
                                 "stride scheduling (default usage; docs/readings/tenants.md T13)")
        parser.add_argument("--cells", choices=("quota", "buddy"), default=None,
                            help="HiveD's VCs: a count quota, or its paper's cells bound by buddy allocation "
                                 "(default quota; T13)")

    def params(self, args: argparse.Namespace, names: list[str]) -> dict[str, dict[str, Any]]:
        """Per-algorithm keyword parameters of the options given (the others keep the algorithms' defaults).

        An option that none of ``names`` takes is an error naming it (raised before any work).

        Parameters
        ----------
        args
            The parsed options.
        names
            The compared algorithms.

        Returns
        -------
        dict
            ``{algorithm: {parameter: value}}`` for the options given.

        Raises
        ------
        InvalidScenarioError
            For a ``--theta-scale`` that is not a finite number > 0, a ``--lam`` < 1, or an option none of
            ``names`` takes.
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

    def instance(self, args: argparse.Namespace) -> TenantInstance:
        """The instance of ``aisched compare tenants``'s options (validated by :func:`generate`).

        The instance is remembered for :meth:`figures` (the CLI protocol does not pass it).

        Parameters
        ----------
        args
            The parsed options.

        Returns
        -------
        TenantInstance
            The generated instance.
        """
        from aisched.scenarios.tenants.generator import generate

        inst = generate(
            seed=args.seed, users=args.users, servers=args.servers, jobs=args.jobs, utility=args.utility,
            trace=None if args.trace == "synthetic" else args.trace, slot_hours=args.slot_hours,
            gpus_per_server=args.gpus_per_server, slots=args.slots, horizon=args.horizon,
            window=getattr(args, "window", "every_tenant"),
            ps_per_server=getattr(args, "ps_per_server", 1), cluster_shares=getattr(args, "cluster_shares", None),
            **silent_generator_kwargs(args, "tenants"),
        )
        _CLI_INSTANCE[0] = inst
        return inst

    def describe(self, inst: TenantInstance, args: argparse.Namespace) -> str:
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
        return (
            f"tenants scenario: {inst.num_users} users, {inst.num_servers} servers "
            f"({inst.total_workers} workers, {inst.total_parameter_servers} PSs), {inst.num_jobs} jobs, "
            f"{inst.num_slots} slots of {_hours(inst, args):g} h, {inst.utility} utility, trace {args.trace}"
            f"{f' ({inst.workload})' if inst.workload.startswith('trace-') else ''}, seed {args.seed}"
        )

    def figures(self, outcomes: dict[str, Any], table: pd.DataFrame, out: Path) -> list[str]:
        """Revenue-fairness ratio ``alpha_u`` per user and algorithm (Fig. 7), as a bar chart.

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
            The file names written (none without an instance of :meth:`instance` or outcomes).
        """
        from aisched.online.tenants.metrics import fairness
        from aisched.scenarios.tenants.figures import alpha_bars

        inst = _CLI_INSTANCE[0]
        if inst is None or not outcomes:
            return []
        alphas = {name: fairness(inst, outcome).per_user["alpha"].to_numpy()
                  for name, outcome in outcomes.items() if name != "offline"}
        title = "tenants: revenue-fairness ratio alpha_u per tenant and scheduler (Fig. 7)"
        return [alpha_bars(alphas, out / "tenants_alpha.png", title=title, dpi=100).name] if alphas else []


CLI_HELP = TenantsCli.help
CLI_ALGORITHMS: tuple[str, ...] = TenantsCli.algorithms


# --- deprecated module-level aliases of TenantsCli's methods (kept for one release) -------------

_alias = functools.partial(deprecated_alias, __name__, TenantsCli)
add_cli_arguments = _alias("add_cli_arguments", "add_arguments")
cli_params = _alias("cli_params", "params")
instance_from_cli = _alias("instance_from_cli", "instance")
describe = _alias("describe", "describe")
cli_figures = _alias("cli_figures", "figures")
