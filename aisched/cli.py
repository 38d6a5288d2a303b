"""The ``aisched`` command.

``aisched compare FAMILY [options]`` compares a family's online algorithms
with the offline optimum on a generated scenario, prints a table and writes
the outcomes (netCDF), the instance, the table (CSV) and figures.
``aisched select spot [options]`` runs online policy selection (spot family).
``aisched calibrate FAMILY`` fits the values a paper leaves unstated to the
relations it reports among its baselines; ``aisched sensitivity FAMILY`` checks every
claim across them. ``aisched scenarios`` lists the named scenarios (the papers' figures),
``aisched sweep NAME`` runs one (every point x seed x algorithm; resumable;
local process pool or ``--dask``) and ``aisched report DIR`` writes figures and
a Markdown report with the papers' claims checked.
Bad options exit with status 2 and a one-line message.

Each family plugs in through its record in :mod:`aisched.families`: the
record's ``cli()`` loader returns a :class:`~aisched.families.FamilyCli` (the
options, the instance, a one-line description, extra figures, the algorithms'
options and, for a family with one, ``aisched select``). The objects are light
(no numerical stack at import): ``aisched --help`` answers within a second.
No family is named here.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from aisched import families, registry
from aisched._files import WriteFailed
from aisched._processes import catch_stop_signals, restore_signals, seen, stopped_by
from aisched.cli_support import family_cli, out_dir, silent_argument
from aisched.errors import AischedError, InvalidScenarioError

__all__ = ["entry", "main"]



class _Help(argparse.HelpFormatter):
    """Help text that shows every option's default (``(default X)``) unless it says it already."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("%(default)" in text or "default" in text or default in (None, False, argparse.SUPPRESS)
                or not action.option_strings):
            return text
        return f"{text} (default %(default)s)".strip()


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and every default shown in ``--help``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"aisched: error: {message}\n")


def _version() -> str:
    """The installed version, read without importing the numerical stack."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("aisched")
    except PackageNotFoundError:  # a source tree on sys.path, not installed
        import aisched

        return aisched.__version__


def _plugin_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="import this module first: its @aisched.registry.register algorithms become known "
                             "(repeatable; installed packages with an 'aisched.algorithms' entry point load by "
                             "themselves)")


def _plugin_words() -> str:
    """What ``--algorithms`` help adds for plug-ins: the installed ones (entry points, named without importing
    them) and ``--plugin``'s."""
    from importlib.metadata import entry_points

    installed = sorted(f"{p.name} ({p.value.split(':', 1)[0]})" for p in entry_points(group=registry.ENTRY_POINT_GROUP))
    where = f", those of the installed plug-in(s) {', '.join(installed)}" if installed else ""
    return f"{where}, or one a --plugin module registers"


def _plugins_in(argv: Sequence[str]) -> list[str]:
    """The ``--plugin`` modules of a command line, wherever they stand (loaded before the parser)."""
    found = []
    for i, word in enumerate(argv):
        if word == "--plugin" and i + 1 < len(argv):
            found.append(argv[i + 1])
        elif word.startswith("--plugin="):
            found.append(word.split("=", 1)[1])
    return found


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="aisched", description="Online scheduling and pricing of AI workloads.")
    p.add_argument("--version", action="version", version=f"aisched {_version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cmp_ = sub.add_parser("compare", help="compare online algorithms with the offline optimum")
    fam = cmp_.add_subparsers(dest="family", required=True, parser_class=_Parser)
    compare_families = [f for f in families.names() if family_cli(f) is not None]
    for family in compare_families:
        module = family_cli(family)
        assert module is not None
        fp = fam.add_parser(family, help=module.help)
        module.add_arguments(fp)
        silent_argument(fp, family)
        _plugin_argument(fp)
        fp.add_argument(
            "--algorithms", default=",".join(module.algorithms),
            help="comma-separated, any of " + ", ".join(module.known_algorithms()) + _plugin_words()
                 + " (default %(default)s)",
        )
        fp.add_argument("--time-limit", type=float, default=module.time_limit,
                        help="offline solve limit, seconds; past it the ratios are to the solver's proven "
                             "bound (default %(default)s)")
        fp.add_argument("--no-offline", action="store_true", help="skip the offline optimum")
        fp.add_argument("--out", type=Path, default=Path("results"),
                        help="output folder; a re-run of the same comparison replaces its own files there, "
                             "one holding a different comparison's files needs --overwrite (default %(default)s)")
        fp.add_argument("--overwrite", action="store_true",
                        help="replace the files a different comparison left in --out")
        fp.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    lst = sub.add_parser("scenarios", help="list the named scenarios, one line each")
    lst.add_argument("--family", choices=families.names(), default=None, help="only this family's (default all)")
    lst.add_argument("--long", action="store_true", help="each scenario's full title and measured cost, wrapped")
    swp = sub.add_parser("sweep", help="run a named scenario (or a TOML file): points x seeds x algorithms")
    swp.add_argument("scenario", help="a name from `aisched scenarios` or a path to a .toml file")
    swp.add_argument("--seeds", type=_seeds, default=None,
                     help="number of seeds, or 'auto': 3, then more (6, 12, 20) only at the points of claims still "
                          "undecided (default: the scenario's)")
    swp.add_argument("--max-seeds", type=int, default=20, help="with --seeds auto: the most seeds a point gets "
                                                                  "(default %(default)s)")
    swp.add_argument("--out", type=Path, default=Path("results"), help="results root (default %(default)s)")
    swp.add_argument("--resume", action="store_true", help="continue a sweep; finished cells are kept")
    swp.add_argument("--wait", action="store_true",
                     help="if another sweep is writing the folder, wait for it to end instead of refusing")
    swp.add_argument("--reduced", action="store_true", help="the scenario's small test-size form")
    swp.add_argument("--workers", type=int, default=None, help="local process-pool size (default: CPUs)")
    swp.add_argument("--serial", action="store_true", help="run the cells in this process")
    swp.add_argument("--dask", default=None, metavar="ADDRESS",
                     help="run the cells on a Dask cluster: a scheduler address or local:N")
    swp.add_argument("--no-progress", action="store_true", help="no progress bar")
    _plugin_argument(swp)
    swp.add_argument("--no-outcomes", action="store_true",
                     help="write only the table rows, no netCDF outcome per cell (faster for ms-sized cells)")
    rpr = sub.add_parser("reproduce", help="every named scenario of a family (or all) at full size, then the report")
    rpr.add_argument("family", choices=(*families.names(), "all"))
    rpr.add_argument("--seeds", type=_seeds, default=None,
                     help="seeds per scenario, or 'auto' (as for sweep, after a first run at 3) "
                          "(default: each scenario's)")
    rpr.add_argument("--max-seeds", type=int, default=20, help="with --seeds auto: the most seeds a point gets "
                                                                  "(default %(default)s)")
    rpr.add_argument("--out", type=Path, default=Path("results"), help="results root (default %(default)s)")
    rpr.add_argument("--reduced", action="store_true", help="the scenarios' small test-size forms")
    rpr.add_argument("--workers", type=int, default=None, help="local process-pool size (default: CPUs)")
    rpr.add_argument("--serial", action="store_true", help="run the cells in this process")
    rpr.add_argument("--dask", default=None, metavar="ADDRESS",
                     help="run the cells on a Dask cluster: a scheduler address or local:N")
    rpr.add_argument("--no-progress", action="store_true", help="no progress bar")
    _plugin_argument(rpr)
    rpr.add_argument("--no-outcomes", action="store_true", help="write only the table rows, no netCDF per cell")
    rpr.add_argument("--no-figures", action="store_true", help="no figures in the report")
    rpr.add_argument("--no-share", action="store_true",
                     help="run every cell, also those that repeat another scenario's (same instance and algorithm)")
    rpr.add_argument("--wait", action="store_true",
                     help="if another sweep is writing a scenario's folder, wait for it to end instead of refusing")
    cal = sub.add_parser("calibrate", help="fit a family's silent parameters to its paper's baseline-only "
                                           "relations (runs the baselines only)")
    cal.add_argument("family", choices=[f for f in families.names() if families.record(f).regime_targets])
    cal.add_argument("--seeds", type=int, default=5,
                     help="seeds per setting of the silent grid, for the fit and again for the refit (seeds 1000+ and "
                          "2000+, none a figure uses; default %(default)s)")
    cal.add_argument("--confirm-seeds", type=int, default=10,
                     help="held-out seeds (3000+) that confirm the default and the fit; to twice as many where a "
                          "relation is still undecided (default %(default)s)")
    cal.add_argument("--out", type=Path, default=Path("results"),
                     help="results root: sweeps in OUT/FAMILY/calibrate-*, resumed (default %(default)s)")
    cal.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...", type=_grid_item,
                     help="try these values of one silent parameter instead of its declared grid (repeatable; "
                          "'own' for the generator's own default; the default is always tried), e.g. "
                          "--grid min_batch_share=0.31,0.32,0.33; the record goes to its own file, "
                          "OUT/FAMILY/calibration-grid-DIGEST.json)")
    cal.add_argument("--reading", action="append", default=[], metavar="[ALGO.]NAME=VALUE", type=_reading_item,
                     help="an option every baseline (or ALGO alone; ALGO 'generator': the workload's) runs with, held "
                          "fixed, not fitted (repeatable; a reading of the paper, e.g. genai --reading gpus=4, spot "
                          "--reading up.variant=paper, tenants --reading generator.ps_per_server=widest_job); the sweeps "
                          "get their own folders and the result goes to OUT/FAMILY/calibration-NAME=VALUE.json "
                          "(calibration.json stays the fit the page reads)")
    cal.add_argument("--full", action="store_true",
                     help="the targets at the paper's own sizes where the family fits at reduced ones (lora: 50 and "
                          "100 nodes); the record goes to OUT/FAMILY/calibration-full.json")
    sen = sub.add_parser("sensitivity", help="every claim's verdict at the default, the fit and each silent value in "
                                             "turn (runs the paper's algorithms too)")
    sen.add_argument("family", choices=[f for f in families.names() if families.record(f).silent_parameters])
    sen.add_argument("--seeds", type=int, default=3, help="seeds per setting (default %(default)s)")
    sen.add_argument("--out", type=Path, default=Path("results"),
                     help="results root: sweeps in OUT/FAMILY/silent-*, resumed; the fit read from "
                          "OUT/FAMILY/calibration.json (default %(default)s)")
    sen.add_argument("--full", action="store_true", help="the scenarios at the paper's sizes (default: reduced)")
    sen.add_argument("--regimes", action="store_true",
                     help="only the default and the fit (the page's two regimes, at the same sizes and seeds), into "
                          "OUT/FAMILY/sensitivity[-full]-regimes.json; with --full --seeds N as the figures' run, the "
                          "page's headline regime reads it")
    sen.add_argument("--scenario", action="append", default=None, metavar="NAME", dest="scenarios",
                     help="only this named scenario (repeatable; default: every scenario of the family with "
                          "claims), e.g. lora/fig4-scale")
    sen.add_argument("--points", choices=("all", "claims"), default="all",
                     help="'claims': run each scenario only at the x values its claims are made at (a claim "
                          "without a point, e.g. a trend, is left to a run at every point); with --full, the "
                          "paper's sizes where the reduced forms lack the claims' points (default %(default)s)")
    sen.add_argument("--reading", action="append", default=[], metavar="NAME=VALUE", type=_reading_item,
                     help="an option every algorithm (and the offline solve) runs with at every setting (repeatable; "
                          "e.g. genai --reading gpus=4, docs/readings/genai.md A2c); the fit is read from "
                          "OUT/FAMILY/calibration-NAME=VALUE.json, the sweeps get their own folders and the record "
                          "goes to OUT/FAMILY/sensitivity[-full][-at-claims]-NAME=VALUE.json, shown on the page beside "
                          "the record without a reading")
    for cmd in (cal, sen):
        cmd.add_argument("--workers", type=int, default=None, help="local process-pool size (default: CPUs)")
        cmd.add_argument("--serial", action="store_true", help="run the cells in this process")
        cmd.add_argument("--dask", default=None, metavar="ADDRESS",
                         help="run the cells on a Dask cluster: a scheduler address or local:N")
        cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep = sub.add_parser("report", help="figures and a Markdown report of the sweeps under DIR")
    rep.add_argument("directory", type=Path)
    rep.add_argument("--no-figures", action="store_true", help="tables and claims only, no figures")
    rep.add_argument("--refresh-metrics", action="store_true",
                     help="first recompute every cell's family metrics from its stored outcome (no rerun)")
    rep.add_argument("--reproduction", type=Path, default=None, metavar="FILE",
                     help="also write the reproduction status page (e.g. docs/reproduction.md)")
    rep.add_argument("--family", action="append", default=None, choices=families.names(), metavar="FAMILY",
                     help="the reproduction page of this family only (repeatable; default: every family under "
                          "DIR), e.g. a family's own page from a root that 'aisched reproduce all' filled")
    rep.add_argument("--readings", type=Path, default=Path("docs/readings"),
                     help="the readings (a folder of per-family pages, or one file) the reproduction pages link to "
                          "(default %(default)s)")
    rep.add_argument("--records", type=Path, default=None, metavar="DIR",
                     help="where the verdict records go (default: records/ beside the --reproduction page)")
    pag = sub.add_parser("pages", help="render the reproduction pages from their verdict records (no run is read)")
    pag.add_argument("--records", type=Path, default=Path("docs/records"), help="the records (default %(default)s)")
    pag.add_argument("--out", type=Path, default=Path("docs/reproduction.md"), metavar="FILE",
                     help="the index page; each family's page goes beside it (default %(default)s)")
    pag.add_argument("--claims", type=Path, default=Path("docs/claims.md"), metavar="FILE",
                     help="the page of the claims that do not reproduce (default %(default)s)")
    dat = sub.add_parser("data", help="the real-data files: list them, fetch the public ones")
    dsub = dat.add_subparsers(dest="action", required=True, parser_class=_Parser)
    dsub.add_parser("list", help="each dataset: what it is, source, licence, where found or missing")
    fet = dsub.add_parser("fetch", help="download a dataset's files (pinned commit, sha256) into the cache")
    fet.add_argument("dataset", help="a name from `aisched data list`, or all")
    fet.add_argument("--mirror", default=None, metavar="URL", help="fetch <URL>/<file> instead of the source")
    fet.add_argument("--cache", type=Path, default=None, help="target folder (default: the user cache)")
    sel = sub.add_parser("select", help="online policy selection over a pool of policies (the families that have it)")
    sfam = sel.add_subparsers(dest="family", required=True, parser_class=_Parser)
    for family in compare_families:
        module = family_cli(family)
        if module is None or not module.selects:
            continue
        sp = sfam.add_parser(family, help="policy selection over a workload of jobs")
        module.add_select_arguments(sp)
    from aisched.cli_theorems import add_arguments as theorem_arguments

    theorem_arguments(sub.add_parser("theorems", help="check each of a paper's guarantees and search for "
                                     "the instances that come closest to breaking it"))
    return p


def _seeds(text: str) -> int | str:
    """``--seeds``: a count, or ``auto``."""
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a number nor 'auto'") from None


def _executor_of(args: argparse.Namespace) -> str:
    """The sweep executor that ``--serial`` / ``--dask ADDRESS`` choose (default: the local process pool)."""
    return "serial" if args.serial else (f"dask:{args.dask}" if args.dask else "process")


def _check_run_options(args: argparse.Namespace) -> None:
    """``--seeds``, ``--workers``, ``--dask``, ``--out`` of ``sweep`` and ``reproduce``, before any work."""
    if args.seeds == "auto":
        from aisched.experiments.run.auto_seeds import looks_upto

        looks_upto(args.max_seeds)  # --max-seeds checked before any work
    elif args.seeds is not None:
        from aisched.experiments.spec.validation import check_seeds

        check_seeds(args.seeds, "--seeds")  # the limit a TOML's seeds meets too
    if args.workers is not None and args.workers < 1:
        raise InvalidScenarioError("--workers", f"= {args.workers} must be >= 1")
    if args.serial and args.dask:
        raise InvalidScenarioError("--serial", "cannot be combined with --dask")
    if args.dask is not None:
        local = args.dask[len("local:"):] if args.dask.startswith("local:") else None
        if not args.dask.strip() or (local is not None and not (local.isdigit() and int(local) >= 1)):
            raise InvalidScenarioError("--dask", f"= {args.dask!r}: expected a scheduler address or local:N, N >= 1")


def _data(args: argparse.Namespace) -> int:
    from aisched import data

    if args.action == "fetch":
        if args.cache is not None:
            out_dir("--cache", args.cache)
        paths = data.fetch(args.dataset, mirror=args.mirror, cache=args.cache)
        print(f"{len(paths)} file(s) in place (sha256 checked):")
        for path in paths:
            print(f"  {path}")
        return 0
    print("searched, in order: " + ", ".join(str(p) for p in data.search_path()))
    rows = data.status()
    for name, d in data.DATASETS.items():
        print(f"\n{name}: {d.what}\n  source: {d.source}\n  license: {d.license}")
        print(f"  get: `aisched data fetch {name}`" if d.downloadable else f"  get: {d.how}")
        for row in rows:
            if row["dataset"] == name:
                print(f"  {row['file']}: {row['found']}{'' if row['sha256_ok'] != 'no' else ' (sha256 differs)'}")
    return 0


#: Longest line ``aisched scenarios`` prints.
LINE = 120


def _scenarios(args: argparse.Namespace) -> int:
    import textwrap

    from aisched.experiments.spec import catalog

    for name in catalog.names(args.family):
        s = catalog.get(name)
        extra = " + offline" if s.offline else ""
        head = f"{name:<31} {len(s.values):>2} points x {s.seeds} seeds x {len(s.algorithms)} algorithms{extra}"
        if not args.long:  # one line each, at most LINE characters
            line = f"{head}  {s.title}"
            print(line if len(line) <= LINE else line[:LINE - 4].rstrip() + " ...")
            continue
        print(head)
        for text in (s.title, f"cost: {s.cost}" if s.cost else ""):
            if text:
                print(textwrap.fill(text, LINE, initial_indent="    ", subsequent_indent="    "))
    return 0


def _sweep(args: argparse.Namespace) -> int:
    _check_run_options(args)  # before the catalogue and the numerical stack load
    from aisched.experiments.spec import catalog

    scenario = catalog.get(args.scenario)  # an unknown name is refused before the numerical stack loads
    from aisched.experiments.run import sweep

    if args.reduced:
        scenario = scenario.reduced()
    out_dir("--out", args.out)
    executor = _executor_of(args)
    options = dict(executor=executor, workers=args.workers, progress=not args.no_progress,
                   outcomes=not args.no_outcomes, wait=args.wait)
    if args.seeds == "auto":
        from aisched.experiments.run.auto_seeds import auto_seeds

        entry = auto_seeds(scenario, args.out, max_seeds=args.max_seeds, **options)
        print(f"{scenario.name}: looks at " + ", ".join(f"{t['seeds']} seeds ({len(t['points'])} points)"
                                                        for t in entry["taken"])
              + f"; {entry['claims_open']} claim(s) still undecided")
        table = sweep.load_table(sweep.folder(args.out, scenario))
    else:
        table = sweep.sweep(scenario, args.out, seeds=args.seeds, resume=args.resume, **options)
    root = sweep.folder(args.out, scenario)
    print(f"{scenario.name}: {len(table)} cells in {root}/ (table.csv, cells/, outcomes/)")
    return 0


def _reproduce(args: argparse.Namespace) -> int:
    _check_run_options(args)  # before the catalogue and the numerical stack load
    from aisched.experiments.pages import reproduce

    out_dir("--out", args.out)
    executor = _executor_of(args)
    path = reproduce.reproduce(
        [args.family], args.out, seeds=args.seeds, max_seeds=args.max_seeds, reduced=args.reduced,
        executor=executor, workers=args.workers, progress=not args.no_progress, outcomes=not args.no_outcomes,
        figures=not args.no_figures, share=not args.no_share, wait=args.wait)
    if args.seeds == "auto":  # the seeds each scenario got, from its record
        import json

        from aisched.experiments.run.auto_seeds import RECORD

        record = json.loads((Path(args.out) / RECORD).read_text(encoding="utf-8"))
        for scenario in reproduce.plan([args.family], reduced=args.reduced):
            entry = record[scenario.name]
            print(f"{scenario.name}: seeds per point {entry['seeds_per_point']}; {entry['claims_open']} undecided")
    print(next(line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("Claims:")))
    print(f"wrote {path}")
    return 0


def _grid_item(text: str) -> tuple[str, tuple[float | None, ...]]:
    """``--grid NAME=V1,V2``: a silent parameter's name and the values to try (``own``: None)."""
    name, sep, values = text.partition("=")
    if not sep or not name.strip() or not values.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=V1,V2,...")
    parsed: list[float | None] = []
    for i, word in enumerate(values.split(",")):
        word = word.strip()
        try:
            parsed.append(None if word == "own" else float(word))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: value {i} {word!r} is neither a number nor 'own'") from None
    return name.strip(), tuple(parsed)


def _reading_item(text: str) -> tuple[str, int | float | str]:
    """``--reading [ALGORITHM.]NAME=VALUE``: an option of every baseline (or of one) and its value: a number
    (a whole number stays an int) or a word (``up.variant=paper``)."""
    name, sep, value = (part.strip() for part in text.partition("="))
    if not sep or not name or not value:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    try:
        number = float(value)
    except ValueError:
        return name, value
    return name, int(number) if number.is_integer() and "." not in value else number


def _calibrate(args: argparse.Namespace) -> int:
    _check_run_options(args)
    from aisched import families as family_records
    from aisched.experiments.studies.calibrate import (
        at_full_size,
        calibrate,
        check_reading,
        result_path,
        with_grid,
    )

    grid = dict(args.grid)
    if len(grid) < len(args.grid):
        raise InvalidScenarioError("--grid", f"names a parameter twice: {[name for name, _ in args.grid]}")
    record = with_grid(family_records.record(args.family), grid)  # a bad name or value refused before any work
    reading = dict(args.reading)
    if len(reading) < len(args.reading):
        raise InvalidScenarioError("--reading", f"names an option twice: {[name for name, _ in args.reading]}")
    record = at_full_size(record) if args.full else record  # refuses targets at the paper's sizes already
    baselines = tuple(dict.fromkeys(a for t in record.regime_targets for a in t.algorithms))
    check_reading(args.family, baselines, reading, record.silent_parameters, [t.at for t in record.regime_targets])
    out_dir("--out", args.out)
    executor = _executor_of(args)
    result = calibrate(args.family, args.out, seeds=args.seeds, executor=executor, workers=args.workers,
                       progress=not args.no_progress, grid=grid or None, reading=reading or None,
                       confirm_seeds=args.confirm_seeds, max_confirm_seeds=2 * args.confirm_seeds, full=args.full)
    print(result.text())
    print(f"wrote {result_path(args.out, args.family, reading, grid or None, args.full)}")
    return 0


def _sensitivity(args: argparse.Namespace) -> int:
    _check_run_options(args)
    from aisched.experiments.pages.sensitivity import summary_lines
    from aisched.experiments.spec import catalog
    from aisched.experiments.studies.sensitivity import check_sensitivity_reading, record_name, sensitivity

    for i, name in enumerate(args.scenarios or ()):
        if name not in catalog.names(args.family):
            raise InvalidScenarioError(f"--scenario[{i}]", f"= {name!r} is not a named scenario of {args.family} "
                                       f"(aisched scenarios lists them)")
    reading = dict(args.reading)
    if len(reading) < len(args.reading):
        raise InvalidScenarioError("--reading", f"names an option twice: {[name for name, _ in args.reading]}")
    if reading:
        check_sensitivity_reading(args.family, reading, full=args.full, names=args.scenarios, points=args.points)
    out_dir("--out", args.out)
    executor = _executor_of(args)
    result = sensitivity(args.family, args.out, seeds=args.seeds, full=args.full, executor=executor,
                         workers=args.workers, progress=not args.no_progress, points=args.points,
                         names=args.scenarios, reading=reading or None, regimes=args.regimes)
    for name, entry in result["scenarios"].items():
        print(name + "".join(f" ({k} not varied: {why})" for k, why in entry["skipped"].items()))
        print("\n".join(f"  - {c['text']}: {c['sensitivity']}" for c in entry["claims"]))
    print("\n".join(summary_lines(args.out, [args.family])[4:]))
    name = record_name(args.full, args.points, reading, args.regimes)
    print(f"wrote {args.out / args.family / name} ({result['wall_s']:.0f} s)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``aisched`` command; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        for module in _plugins_in(words):  # before the parser and the option checks: their names are known
            registry.load_plugin(module, near=Path.cwd())  # a module file in the current folder is found
    except AischedError as exc:
        print(f"aisched: error: {exc}", file=sys.stderr)
        return 2
    args = _parser().parse_args(words)
    previous = catch_stop_signals()
    try:
        return _command(args)
    except AischedError as exc:
        print(f"aisched: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `aisched data list | head`: the reader left (entry says nothing more)
        raise
    except (OSError, WriteFailed) as exc:  # a write (or read) the file system refused: full disk, ulimit -f, ...
        from aisched._files import write_failure

        text = str(exc) if isinstance(exc, WriteFailed) else write_failure(exc)
        print(f"aisched: error: {text}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: one line, status 130 or 143 (a sweep says what it kept)
        seen()
        text = str(exc) if str(exc).startswith("interrupted") else "interrupted"
        if stopped_by() == TERMINATED_BY:
            text = text.replace("interrupted", "terminated (SIGTERM)", 1)
        print(f"\naisched: {text}", file=sys.stderr)
        return TERMINATED if stopped_by() == TERMINATED_BY else INTERRUPTED
    finally:
        restore_signals(previous)


def _command(args: argparse.Namespace) -> int:
    """Run the parsed command; its exit status."""
    if args.command == "compare":
        from aisched.cli_compare import compare

        return compare(args)
    if args.command == "theorems":
        from aisched.cli_theorems import theorems

        return theorems(args)
    if args.command == "select":
        module = family_cli(args.family)
        assert module is not None
        return int(module.run_select(args))
    if args.command in ("report", "pages"):
        from aisched.cli_pages import pages, report

        return report(args) if args.command == "report" else pages(args)
    commands = {"scenarios": _scenarios, "sweep": _sweep, "data": _data,
                "reproduce": _reproduce, "calibrate": _calibrate, "sensitivity": _sensitivity}
    return commands[args.command](args)


#: Exit status after Ctrl-C (128 + SIGINT), as a shell reports it.
INTERRUPTED = 130
#: Exit status after SIGTERM (128 + SIGTERM): what ``timeout``, SLURM and systemd send.
TERMINATED = 143
TERMINATED_BY = 15  # signal.SIGTERM, without importing signal at module import

def entry() -> NoReturn:
    """The console script: :func:`main`, then exit; after Ctrl-C at once.

    Everything is written when :func:`main` returns :data:`INTERRUPTED` (the sweep
    kept its finished cells, atomically); tearing down the loaded numerical stack
    would take another second or two, so the process runs multiprocessing's exit
    hook (unlinking its semaphores) and ends.
    """
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `aisched data list | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python would otherwise complain again when it flushes at exit
        sys.exit(1)
    if code in (INTERRUPTED, TERMINATED):
        import multiprocessing
        import signal
        from multiprocessing import util

        for number in (signal.SIGINT, signal.SIGTERM):  # nothing more stops the exit half way
            signal.signal(number, signal.SIG_IGN)
        sys.stdout.flush()
        sys.stderr.flush()
        from aisched._processes import kill_all

        kill_all(multiprocessing.active_children())  # none is joined while blocked (util's exit hook joins)
        util._exit_function()  # what atexit would run for multiprocessing: no semaphore is left behind
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
