"""``aisched compare FAMILY``: a family's online algorithms against the offline optimum on one instance.

Split from :mod:`aisched.cli` (which parses the options and dispatches here): the option checks,
the table the terminal shows, and the results folder a comparison writes (``comparison.json`` lists
its files, the comparison's options and its provenance, so that a re-run of the same comparison
replaces its own files and a different one needs ``--overwrite``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path
from typing import Any

from aisched import families, registry
from aisched.cli_support import family_cli, silent_settings
from aisched.errors import InvalidScenarioError, UnknownAlgorithmError
from aisched.families import FamilyCli

__all__ = ["RECORD", "compare"]


#: The record a comparison leaves in its folder: which files it wrote (``--overwrite`` removes them).
RECORD = "comparison.json"
#: File names an earlier comparison (before :data:`RECORD` existed) left, for ``--overwrite``.
_COMPARISON_FILE = re.compile(r"^[A-Za-z0-9]+_[A-Za-z0-9_.@-]+\.(nc|csv|png)$")


def _is_comparison_file(name: str) -> bool:
    """A file name an earlier ``compare`` of a registered family wrote (``<family>_<what>.nc``)."""
    return bool(_COMPARISON_FILE.match(name)) and name.split("_", 1)[0] in families.names()


#: What the status column says of a row (an online row's plan was verified by ``aisched.run``).
_STATUS_WORDS = {"online": "online; plan verified", "optimal": "optimal (proven)",
                 "time_limit": "stopped at the time limit (incumbent)"}
#: What it says of an offline row whose solve ended without a plan (objective NaN): no incumbent to show.
_PLANLESS_WORDS = {"time_limit": "no plan found within the time limit"}


def _status_words(status: str, planless: bool) -> str:
    """The status column of a row: :data:`_STATUS_WORDS`, or that the solve found no plan."""
    if planless:
        return _PLANLESS_WORDS.get(status, f"no plan (status {status})")
    return _STATUS_WORDS.get(status, status)


def _fmt_table(table, objective: str = "objective") -> str:  # type: ignore[no-untyped-def]
    """The comparison as text: objective, ratio, admitted, times, status, and the family's utilisation.

    ``objective`` names the objective with its unit and direction (the line above the table).
    ``X_used`` is the mean share of resource X used over (node, slot) cells, ``X_at_cap``
    the share of cells at capacity: whether capacity binds. The algorithm column is as wide as its
    longest name (a plug-in's long name keeps its row in the columns); without a reference (``--no-offline``)
    there is no ratio column. The second line says what the columns are.
    """
    util = [c for c in table.columns if c.endswith(("_util_mean", "_util_binding"))]
    heads = {c: c.replace("_util_mean", "_used").replace("_util_binding", "_at_cap") for c in util}
    ratios = "offline" in table.index or bool(table["ratio"].notna().any())
    width = max([13, *(len(str(name)) + 1 for name in table.index)])
    header = (
        f"{'algorithm':<{width}} {'objective':>12}" + (f" {'ratio':>7}" if ratios else "") + f" {'admitted':>8} "
        f"{'runtime_s':>10} {'decision_ms':>11}" + "".join(f" {heads[c]:>{max(8, len(heads[c]))}}" for c in util)
        + "  status"
    )
    said = f"objective: {objective}" + ("; ratio: to the offline reference" if ratios else "")
    said += ("; runtime_s: the whole run, seconds; decision_ms: median milliseconds an online algorithm took per "
             "decision (one arriving job)")
    lines = [said, header, "-" * len(header)]
    for name, row in table.iterrows():
        planless = math.isnan(row["objective"]) and row["status"] != "online"  # a solve that found no plan
        value = "none" if planless else f"{row['objective']:.2f}"
        admitted = "" if planless else f"{row['admitted']:d}"
        ratio = "" if math.isnan(row["ratio"]) else f"{row['ratio']:.3f}"
        lat = "" if math.isnan(row["decision_median_s"]) else f"{1e3 * row['decision_median_s']:.3f}"
        shares = "".join(
            f" {'' if math.isnan(row[c]) else format(row[c], '.0%'):>{max(8, len(heads[c]))}}" for c in util)
        lines.append(
            f"{name:<{width}} {value:>12}" + (f" {ratio:>7}" if ratios else "") + f" {admitted:>8} "
            f"{row['runtime_s']:>10.3f} {lat:>11}{shares}  {_status_words(row['status'], planless)}"
        )
    return "\n".join(lines)


def _earlier_comparison(out: Path) -> list[Path]:
    """The files an earlier ``aisched compare`` left in ``out`` (its record's list, or by name)."""
    if not out.is_dir():
        return []
    record = out / RECORD
    if record.is_file():
        try:
            listed = json.loads(record.read_text(encoding="utf-8")).get("files", [])
        except (OSError, ValueError, AttributeError):
            listed = []
        return [record, *(out / name for name in listed if (out / name).is_file() and "/" not in name)]
    return sorted(p for p in out.iterdir() if p.is_file() and _is_comparison_file(p.name))


def _check_compare_options(args: argparse.Namespace, module: FamilyCli) -> list[str]:
    """Every ``compare`` option a parser cannot check, before the numerical stack loads; the names."""
    names = [n.strip() for n in args.algorithms.split(",") if n.strip()]
    known = module.known_algorithms()
    if any(n not in known for n in names) and registry.has_plugins():  # a plug-in's is known too
        known = (*known, *(n for n in registry.names(args.family) if n not in known))
    for name in names:
        if name not in known:
            raise UnknownAlgorithmError(f"unknown algorithm {name!r} for --algorithms (known: {', '.join(known)})")
    if not names:
        raise InvalidScenarioError("--algorithms", f"= {args.algorithms!r} names no algorithm")
    if args.time_limit is not None and not (math.isfinite(args.time_limit) and args.time_limit > 0):
        raise InvalidScenarioError("--time-limit", f"= {args.time_limit} must be > 0")
    if args.out.exists() and not args.out.is_dir():  # before any work (the folder is made when writing)
        raise InvalidScenarioError("--out", f"= {str(args.out)!r} is not a folder")
    return names


#: Options that say where and how a comparison is written, not what is compared.
_WHERE_OPTIONS = frozenset({"out", "overwrite", "no_figures"})


def _comparison_key(args: argparse.Namespace) -> dict[str, Any]:
    """What a comparison is: the family and every option that changes what is computed (not ``--out``)."""
    key = {name: value for name, value in sorted(vars(args).items()) if name not in _WHERE_OPTIONS}
    return json.loads(json.dumps(key, default=str))  # as the record reads back (paths as text, tuples as lists)


def _recorded_key(out: Path) -> dict[str, Any] | None:
    """The comparison recorded in ``out``'s :data:`RECORD`; None if there is none (or an older record)."""
    try:
        key = json.loads((out / RECORD).read_text(encoding="utf-8")).get("comparison")
    except (OSError, ValueError, AttributeError):
        return None
    return key if isinstance(key, dict) else None


def _given(key: dict[str, Any]) -> dict[str, Any]:
    """A comparison's options without those left unset (None): an option added to a family since a folder's
    record was written (unset there, so absent from it) does not make the same comparison another one."""
    return {name: value for name, value in key.items() if value is not None}


def _key_difference(earlier: dict[str, Any], now: dict[str, Any]) -> str:
    """The options in which two comparisons differ, as ``--name earlier -> now`` (at most three)."""
    names = sorted(n for n in set(earlier) | set(now) if earlier.get(n) != now.get(n))
    parts = [f"--{n.replace('_', '-')} {earlier.get(n)!r} there, {now.get(n)!r} here" for n in names[:3]]
    return "; ".join(parts) + ("; ..." if len(names) > 3 else "")


def _check_out_folder(args: argparse.Namespace) -> None:
    """``--out`` holds no other comparison's files, or ``--overwrite`` is given (after the options are valid).

    A re-run of the same comparison (same family and options, recorded in :data:`RECORD`) replaces its own
    files without ``--overwrite``: ``make run`` works every time. The folder is made and a file written
    there (and removed) first: a read-only folder, a file or a place under ``/proc`` is named before any solve.
    """
    from aisched._files import make_folders
    from aisched.cli_support import out_dir

    out_dir("--out", args.out)
    make_folders(args.out, (), field="--out")
    earlier = _earlier_comparison(args.out)
    if not earlier or args.overwrite:
        return
    recorded = _recorded_key(args.out)
    if recorded is not None and _given(recorded) == _given(_comparison_key(args)):
        return
    files = f"{', '.join(p.name for p in earlier[:3])}{', ...' if len(earlier) > 3 else ''}"
    why = (f"differs in {_key_difference(recorded, _comparison_key(args))}" if recorded is not None
           else "its options are not recorded")
    raise InvalidScenarioError(
        "--out", f"= {str(args.out)!r} holds a different comparison's files ({files}; {why}); pass --overwrite "
        "to replace them, or choose another folder")


def _invariant_lines(table, outcomes: dict) -> list[str]:  # type: ignore[no-untyped-def]
    """Lines on the proof invariants a run recorded (``aisched.theorems``): a flagged line for each
    ``*_slack`` column below 0 (the invariant broke), and each run's ``dual_objective`` beside the optimum."""
    lines = []
    for name, row in table.iterrows():
        for column in (c for c in table.columns if str(c).endswith("_slack")):
            value = row[column]
            if isinstance(value, float) and value < -1e-9:
                lines.append(f"! {name}: proof invariant {column} = {value:.4g} < 0: VIOLATED "
                             f"(aisched theorems checks it)")
    off = outcomes.get("offline")
    if "dual_objective" in table.columns and off is not None and off.status == "optimal" and off.objective > 0:
        for name, value in table["dual_objective"].dropna().items():
            lines.append(f"{name}: dual objective of its final prices {value:.2f} = {value / off.objective:.3g} "
                         "x the optimum (a bound on it where the dual solution is feasible; "
                         "`aisched theorems` certifies one)")
    return lines


def compare(args: argparse.Namespace) -> int:
    """Run ``aisched compare`` with parsed ``args``; returns the exit status."""
    family: str = args.family
    module = family_cli(family)
    assert module is not None  # argparse only offers families with a command line
    names = _check_compare_options(args, module)

    from aisched.core.runner import check_params

    # the family's algorithm options, for the algorithms compared, checked before any work
    params = module.params(args, names)
    params = {name: opts for name, opts in params.items() if name in names}
    for i, (key, value) in enumerate(silent_settings(family, getattr(args, "silent", None)).items()):
        algorithm, dot, option = key.partition(".")
        if not dot:  # a generator parameter: the family's FamilyCli.instance passes it (silent_generator_kwargs)
            continue
        if algorithm not in names:
            raise InvalidScenarioError(f"--silent[{i}]", f"{key} sets an option of {algorithm}, which is not "
                                       f"compared here (--algorithms {','.join(names)})")
        params.setdefault(algorithm, {})[option] = int(value) if float(value).is_integer() else value
    for name, given in params.items():
        check_params(family, name, given)
    inst = module.instance(args)
    _check_out_folder(args)  # before any solve; after the generator's checks of the options
    from aisched._files import lock_folder

    # one comparison at a time in a folder (a second one would fail on HDF5's file lock after all its solves)
    with lock_folder(args.out, {"compare": family}, what="compare", name=LOCK_NAME, can_wait=False):
        return _compare(args, module, family, names, params, inst)


#: The lock a comparison holds on its ``--out`` folder while it runs and writes.
LOCK_NAME = ".aisched.compare.lock"


def _compare(args: argparse.Namespace, module: FamilyCli, family: str, names: list[str],
             params: dict[str, dict[str, Any]], inst: Any) -> int:
    """:func:`compare` after its checks, with ``--out`` locked."""
    import aisched
    from aisched import figures

    print(module.describe(inst, args), flush=True)
    outcomes: dict[str, aisched.Outcome] = {}
    table = aisched.compare(
        inst, names, offline=not args.no_offline, time_limit=args.time_limit, params=params or None,
        outcomes=outcomes,
    )
    print(_fmt_table(table, families.record(family).objective.headline))
    if "offline" in outcomes:
        off = outcomes["offline"]
        if off.status == "optimal":
            print(f"offline optimum proven by {off.info.get('solver')} in {off.runtime_s:.2f} s; ratios are to it")
        elif math.isnan(off.objective):
            bound = "no proven bound either" if math.isnan(off.bound) else f"proven bound {off.bound:.2f}"
            print(f"offline solve found no plan within its {args.time_limit:g} s limit (status {off.status}; "
                  f"{bound}); {'ratios are to the bound' if not math.isnan(off.bound) else 'no ratios'}")
        else:
            print(
                f"offline solve stopped at its {args.time_limit:g} s limit: status {off.status}, incumbent "
                f"{off.objective:.2f}, proven bound {off.bound:.2f}; ratios are to the bound (lower estimates "
                "of the ratios to the optimum)"
            )
    for line in _invariant_lines(table, outcomes):
        print(line)
    idle = bool((table["objective"].fillna(0) == 0).all() and (table["admitted"] == 0).all())
    if idle:
        print(f"note: no {families.record(family).item} could run: every algorithm"
              f"{' and the offline optimum' if 'offline' in outcomes else ''} admitted none, so all objectives "
              "are 0 (too few slots for any job to finish by its deadline, or too little capacity?)")
    out: Path = args.out
    for path in _earlier_comparison(out):  # same comparison or --overwrite (checked above): no stale file stays
        path.unlink()
    from aisched._files import atomic_write, atomic_write_text

    # every file through a temporary one and a rename: a full disk or ulimit -f leaves none half-written,
    # and the failure is one line (aisched.cli) naming the file and the cause
    atomic_write(out / f"{family}_instance.nc", lambda tmp: inst.to_dataset().to_netcdf(tmp, engine="netcdf4"))
    for name, outcome in outcomes.items():
        atomic_write(out / f"{family}_{name}.nc", outcome.to_netcdf)
    atomic_write_text(out / f"{family}_comparison.csv", table.to_csv())
    written = [f"{family}_instance.nc", *(f"{family}_{n}.nc" for n in outcomes), f"{family}_comparison.csv"]
    if not args.no_figures and not idle:
        figures.welfare_bars(table, out / f"{family}_objective.png", family=family,
                             title=f"{family}: {families.record(family).objective.name} by algorithm")
        written.append(f"{family}_objective.png")
        written.extend(module.figures(outcomes, table, out))
    from aisched.provenance import provenance

    record = {"family": family, "files": written, "comparison": _comparison_key(args),
              "provenance": provenance(seeds=getattr(args, "seed", None))}
    atomic_write_text(out / RECORD, json.dumps(record, indent=1) + "\n")
    print(f"wrote {', '.join(written)} to {out}/")
    return 0
