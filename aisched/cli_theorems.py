"""``aisched theorems FAMILY``: each of the paper's guarantees checked, and a search for its worst case.

Runs the family's checks (``aisched.theorems.<family>``) on the paper's scenarios at reduced
size, on random small instances and on instances found by local moves that lower each
theorem's margin (:func:`aisched.theorems.search.search`); prints one line per theorem and
writes ``theorems.json`` and each theorem's worst instance (netCDF) to ``--out``.
``--instance FILE`` re-runs the checks on one saved instance instead.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from pathlib import Path
from typing import Any

from aisched.errors import InvalidScenarioError

__all__ = ["add_arguments", "theorems", "checked_families"]


def checked_families() -> list[str]:
    """The registered families that have a theorem module (``aisched.theorems.<family>``)."""
    from aisched import families

    return [f for f in families.names() if importlib.util.find_spec(f"aisched.theorems.{f}") is not None]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument("family", choices=checked_families(), metavar="FAMILY",
                        help=f"one of: {', '.join(checked_families())}")
    parser.add_argument("--budget", type=int, default=20,
                        help="instances beyond the paper's: half random, half local moves (default %(default)s)")
    parser.add_argument("--out", type=Path, default=Path("theorems"),
                        help="folder for theorems.json and the worst instances (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random instances and moves")
    parser.add_argument("--no-paper", action="store_true", help="skip the paper's scenarios at reduced size")
    parser.add_argument("--instance", type=Path, default=None, metavar="FILE",
                        help="only re-run the checks on this saved instance (a *-worst.nc of an earlier search)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="an option of the family's checks, e.g. beta_unit=gb or time_limit=10 (repeatable)")


def _options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for i, pair in enumerate(pairs):
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise InvalidScenarioError(f"--set[{i}]", f"= {pair!r} must be KEY=VALUE")
        for cast in (int, float):
            try:
                options[key] = cast(value)
                break
            except ValueError:
                continue
        else:
            options[key] = {"true": True, "false": False}.get(value.lower(), value)
    return options


def theorems(args: argparse.Namespace) -> int:
    """Run the command; 0 when no guarantee was found violated, 1 when one was."""
    from aisched.theorems import search

    module = importlib.import_module(f"aisched.theorems.{args.family}")
    suite = module.suite()
    options = _options(args.set)
    if args.instance is not None:
        if not args.instance.is_file():
            raise InvalidScenarioError("--instance", f"= {args.instance} is not a file")
        found = suite.checks(suite.load(args.instance), **options)
        for check in found:
            print(check.line())
            if check.detail:
                print(f"    {check.detail}")
        return int(any(c.verdict == "violated" for c in found))
    record = search.search(suite, budget=args.budget, seed=args.seed, out=args.out, paper=not args.no_paper,
                           options=options)
    for line in search.lines(record):
        print(line)
    print(f"wrote {search.RECORD} and the worst instances to {args.out}/ ({record['seconds']:.0f} s)")
    return int(any(row["verdict"] == "violated" for row in record["theorems"]))
