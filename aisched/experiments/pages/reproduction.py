"""``docs/reproduction.md``: per paper figure, the claim, what we measured and whether it holds.

:func:`write` reads the sweeps under a results folder (an ``aisched
reproduce`` run) and writes one page a reader can trust: for every scenario
(paper figure) its size, seeds and wall time; for every claim of the paper the
measurement (mean over seeds; the table gives mean +- std per point), the verdict
("holds", "fails", "inconclusive at N seeds", "untestable on this workload" with the
reference's headroom, or "not checked: <reason>"; :mod:`aisched.experiments.verdicts`), the verdict under each of the
scenario's variants (other readings of the paper, listed under the claim and
gathered in "Claims a reading carries" where a variant turns a verdict), a
link to the family's readings in ``docs/readings.md`` and, beside each verdict that
fails, is untestable or inconclusive, links to the readings that explain it
(:attr:`Claim.why <aisched.experiments.spec.scenario.Claim.why>`,
:mod:`aisched.experiments.spec.readings`), and a time-budget table
(per single-family run: seeds, wall minutes, the machine's load average,
against the budget of 90 minutes for 3 seeds on 2 cores). Nothing is typed by hand: the page is
regenerated from the run (``aisched report DIR --reproduction docs/reproduction.md``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aisched import families as family_records
from aisched._files import atomic_write_text
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages.diagnostics import diagnostics_lines, invariant_lines, notes_lines
from aisched.experiments.pages.fidelity import fidelity_lines
from aisched.experiments.pages.headline import Regimes, regimes_of
from aisched.experiments.pages.page_figures import scenario_svg
from aisched.experiments.pages.regime import regime_figure, regime_lines, regime_summary
from aisched.experiments.pages.report import (
    REDUCED_LABEL,
    ClaimCheck,
    check_claims,
    mean_table,
    measured_text,
    not_in_run_lines,
    reduced_heading,
    reference_lines,
    summarise,
    variant_checks,
    verdict_text,
)
from aisched.experiments.pages.sensitivity import page_entries, summary_lines
from aisched.experiments.pages.theorems import theorem_lines
from aisched.experiments.run.auto_seeds import levels
from aisched.experiments.run.reproduce import read_records
from aisched.experiments.run.sweep import load_table
from aisched.experiments.spec import catalog
from aisched.experiments.spec.readings import ReadingIndex, slug
from aisched.experiments.spec.scenario import METRICS
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.studies.calibrate import is_calibration_sweep
from aisched.experiments.verdicts.regime import proposed_runs, regime_points
from aisched.experiments.verdicts.sequential import (
    PAIRED_KINDS,  # noqa: F401 (named here before)
    holm,
)
from aisched.experiments.verdicts.stats import counts_text, new_counts
from aisched.provenance import provenance_text

__all__ = ["write"]

def _why(name: str) -> dict[str, tuple[str, ...]]:
    """claim text -> the readings that explain it (:attr:`Claim.why`), from the catalogue's scenario ``name``.

    The keys are documentation, not part of a sweep's record: a page regenerated from
    an older run still links the readings named today. Empty for a scenario the catalogue lacks.
    """
    try:
        scenario = catalog.get(name)
    except InvalidScenarioError:
        return {}
    return {c.text: c.why for c in scenario.claims}


def _natural(path: Path) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.as_posix())]


def _size(stored: StoredScenario) -> str:
    base = ", ".join(f"{k}={v}" for k, v in stored.base.items())
    return f"{stored.x} in {list(stored.labels)}" + (f"; {base}" if base else "")


#: The time budgets on 2 cores: ``aisched reproduce FAMILY`` with >= 3 seeds within 90 minutes,
#: ``aisched reproduce all --seeds 3`` within 3 hours, ``--seeds auto`` for one family within 2 hours.
BUDGET_MIN = 90.0
BUDGET_ALL_MIN = 180.0
BUDGET_AUTO_MIN = 120.0
BUDGET_SEEDS = 3


def _kind(check: ClaimCheck) -> str:
    return check.status


def _variant_lines(stored: StoredScenario, text: str, by_variant: dict[str, list[ClaimCheck]],
                   counts: dict[str, int], reduced: bool = False) -> list[str]:
    """Sub-bullets: the claim ``text`` under each variant that re-checks it (counted in ``counts``)."""
    lines: list[str] = []
    for variant, checks in by_variant.items():
        for chk in checks:
            if chk.claim.text != text or chk.absent:
                continue
            counts[_kind(chk)] += 1
            changed = "; ".join(f"{a}: " + ", ".join(f"{k}={v!r}" for k, v in params.items())
                                for a, params in stored.variants[variant].items())
            measured = measured_text(chk)
            lines.append(f"  - under `{variant}` ({changed}): {verdict_text(chk, reduced)}"
                         + (f" (measured: {measured})" if measured else ""))
    return lines


def _load(run: dict[str, Any]) -> str:
    start, end = run.get("load_start"), run.get("load_end")
    if not start or not end:
        return ""
    return (f"; load average {start[0]:.1f} at the start, {end[0]:.1f} at the end "
            f"({end[2]:.1f} over the last 15 min)")


def _budget_of(run: dict[str, Any]) -> tuple[float | None, str]:
    """The run's budget in minutes (None: no budget stated for its kind) and why (or why not checked)."""
    seeds, families = run.get("seeds"), run.get("families", [])
    one = len(families) == 1 and families != ["all"]  # `reproduce all` records its families as ["all"]
    if seeds == "auto":
        return (BUDGET_AUTO_MIN, "") if one else (None, "not checked: no budget for several families "
                                                        "with --seeds auto")
    if seeds is None or seeds < BUDGET_SEEDS:
        return None, f"not checked: {seeds or 'default'} seed(s) < {BUDGET_SEEDS}"
    return (BUDGET_MIN, "") if one else (BUDGET_ALL_MIN, "")


def _budget(runs: list[dict[str, Any]]) -> list[str]:
    """The time-budget table: per run, families, seeds, cells, wall minutes and the verdict against its budget."""
    lines = ["## Time budget", "",
             f"The time budgets, on a 2-core machine: `aisched reproduce FAMILY --seeds {BUDGET_SEEDS}` (or more "
             f"seeds) within {BUDGET_MIN:.0f} minutes, `aisched reproduce all --seeds {BUDGET_SEEDS}` within "
             f"{BUDGET_ALL_MIN:.0f} minutes, and `aisched reproduce FAMILY --seeds auto` within "
             f"{BUDGET_AUTO_MIN:.0f} minutes. A run on a loaded machine (see its load "
             "average) over-states the quiet figure; a resumed run (cells kept from an earlier run) "
             "under-states it and is not counted.", "",
             "| families | seeds | cells | wall (min) | budget (min) | load average (start, end) | within the budget |",
             "|---|---|---|---|---|---|---|"]
    rows = len(lines)
    for run in runs:
        if run.get("reduced"):
            continue
        seeds = run.get("seeds")
        minutes = run.get("wall_s", 0.0) / 60
        load = (f"{run['load_start'][0]:.1f}, {run['load_end'][0]:.1f}"
                if run.get("load_start") and run.get("load_end") else "not recorded")
        budget, verdict = _budget_of(run)
        if run.get("cells_already_done", 0) > 0:
            verdict = "not counted: resumed run"
        elif budget is not None:
            verdict = "yes" if minutes <= budget else "**no**"
        seeds_text = f"auto (at most {run.get('max_seeds', '?')})" if seeds == "auto" else f"{seeds or 'default'}"
        lines.append(f"| {'+'.join(run.get('families', []))} | {seeds_text} | {run.get('cells_total', '?')} | "
                     f"{minutes:.1f} | {'-' if budget is None else f'{budget:.0f}'} | {load} | {verdict} |")
    if len(lines) == rows:
        lines = [*lines[:-2], "No full-size run under this folder."]
    return [*lines, ""]


def _summary(by_family: dict[str, dict[str, int]], regimes: dict[str, list[str]],
             findings: dict[str, list[str]], p_values: dict[str, dict[str, float]] | None = None,
             headlines: dict[str, Regimes] | None = None) -> list[str]:
    """The section on top: per family the five verdict counts of its headline regime (and how many hold
    after Holm's family-wise correction), which regime heads the page and why, and what its regime map found."""
    headlines = headlines or {}
    lines = ["## Summary", "",
             "| family | headline regime | claims | hold | hold after Holm | fail | inconclusive at the seeds run | "
             "untestable on our workload | not checked |", "|---|---|---|---|---|---|---|---|---|"]
    for family, c in by_family.items():
        ps = (p_values or {}).get(family, {})
        kept = sum(holm(ps).values()) if ps else 0
        tested = sum(1 for p in ps.values() if p == p)  # holding comparisons (a p-value; nan: not holding)
        heads = headlines.get(family)
        holm_text = f"{kept} of {tested}"
        if heads is not None and heads.fit_heads:
            c, holm_text = heads.counts(tuple(c)), "not computed at the fit"
        regime = "fit" if heads is not None and heads.fit_heads else "default"
        lines.append(f"| {family} | {regime} | {sum(c.values())} | {c['holds']} | {holm_text} | {c['fails']} | "
                     f"{c['inconclusive']} | {c['untestable']} | {c['not checked']} |")
    if headlines:
        lines += ["", "Which regime heads each page (the headline rule, `aisched.experiments.verdicts.headline`: the "
                  "fit heads only where it is confirmed on held-out seeds, stable on a second seed set, keeps the "
                  "paper's stated values and scores at least 10x closer than the default on the held-out seeds):", "",
                  *(h.line() for h in headlines.values())]
    lines += ["", "A comparison claim (A improves over B, A is better than B, A is the best) holds where its paired "
              "95 % t interval (per point, over the seeds run) excludes 0 in the claim's direction. \"Hold after "
              "Holm\": how many of the holding comparisons still hold when all the family's comparison claims are "
              "corrected together (Holm's step-down at a family-wise 5 %, each claim's p-value the largest one-sided "
              "paired t p-value over its points; the claims that do not hold count in the correction and never "
              "pass): at 95 % each, a page of many claims would otherwise carry some false verdicts. Both assume "
              "roughly normal per-seed differences. Claims on means alone (trends, bounds) are not tests and are "
              "left out of it.", ""]
    for family in by_family:
        found = regimes.get(family)
        lines.append(f"- {family}'s regime map: " + (" ".join(found) if found else "not in this run."))
        lines += [f"- {family}, finding: {text}" for text in findings.get(family, [])]
    return [*lines, ""]


def _timing(timing: dict[str, Any], cells: int) -> str:
    """", N s wall (executor)" of a scenario's last sweep; when that sweep ran only some of
    the cells (a resumed sweep), how many, so its wall is not read as the whole scenario's."""
    text = f", {timing['wall_s']:.0f} s wall ({timing.get('executor', '?')})"
    run = timing.get("cells_run")
    if run is not None and int(run) == 0 and cells:
        text = ", every cell kept from an earlier sweep"
    elif run is not None and int(run) < cells:
        text = f", the last {int(run)} re-run in {timing['wall_s']:.0f} s wall ({timing.get('executor', '?')})"
    shared = int(timing.get("cells_shared") or 0)
    if shared:  # experiments.sharing: the same day as another scenario's cell, run once
        text += f"; {shared} of its cells repeat another scenario's (same day and algorithm) and took that result"
    return text


def _short(text: str, width: int = 80) -> str:
    """``text`` cut at a word before ``width`` characters (with an ellipsis), table pipes escaped."""
    text = " ".join(text.split()).replace("|", "/")
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " ..."


def _value_text(check: ClaimCheck, value: float | None) -> str:
    """A claim's figure in its kind's unit: a relative change as a percentage, else the number."""
    if value is None or value != value:  # None or NaN
        return ""
    return f"{value:+.1%}" if check.claim.kind == "improvement" else f"{value:.4g}"


def _glance_row(stored: StoredScenario, check: ClaimCheck, why: str,
                silent: dict[str, Any] | None = None, swept: bool = False,
                at_fit: dict[str, str] | None = None) -> str:
    """One row of a family's claims table: figure (linked), claim, paper, ours, verdict, headroom, readings;
    for a family with a sensitivity record (``swept``), the verdict at the fit (from the regimes run,
    ``at_fit``, where there is one: like with like) and across the silent range."""
    figure = f"[{stored.name.split('/', 1)[1]}](#{slug(stored.name)})"
    headroom = _short(check.headroom.split(": ", 1)[-1], 50) if check.headroom else ""
    ours = _value_text(check, check.measured) if check.claim.value is not None else ""  # same unit as the paper's
    extra = ""
    silent = silent if silent and silent.get("sensitivity") is not None else None  # one swept under a reading only
    if swept and at_fit is not None:
        extra = (f" {at_fit['fit']} | {_short(silent['sensitivity'], 90) if silent else 'not swept'} |")
    elif swept:
        extra = (f" {(silent['fit'] or 'the default') + ' (' + silent['size'] + ')' if silent else 'not swept'} | "
                 f"{_short(silent['sensitivity'], 90) if silent else 'not swept'} |")
    return (f"| {figure} | {_short(check.claim.text)} | {_value_text(check, check.claim.value)} | "
            f"{ours} | {check.status} | {headroom} | "
            f"{why.removeprefix(' Why: ').rstrip('.')} |" + extra)


def _glance(rows: dict[str, list[str]], swept: set[str], headlines: dict[str, Regimes] | None = None) -> list[str]:
    """Per family, one table a row per claim (the full text follows under "Per figure"). The "verdict" column
    is the figures' run (the default); "at the fit" names where it ran (the regimes run's sizes and seeds, or
    each cell its own)."""
    lines: list[str] = []
    for family, family_rows in rows.items():
        more = family in swept
        heads = (headlines or {}).get(family)
        fit_column = f"at the fit ({heads.size})" if heads is not None and heads.verdicts else "at the fit"
        if heads is not None and heads.fit_heads:
            fit_column += ": the headline"
        lines += [f"## {family}: claims at a glance", "",
                  "| figure | claim | paper | ours | verdict (the figures' run, at the default) | headroom | readings |"
                  + (f" {fit_column} | across the silent range |" if more else ""),
                  "|---|---|---|---|---|---|---|" + ("---|---|" if more else ""), *family_rows, ""]
    return lines


def _family_of(record: Path) -> str | None:
    """The family a sweep folder's ``scenario.json`` names (None where it cannot be read: the page says so later)."""
    try:
        return str(json.loads(record.read_text(encoding="utf-8"))["family"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write(directory: str | os.PathLike[str], path: str | os.PathLike[str] = "docs/reproduction.md", *,
          readings: str | os.PathLike[str] | None = "docs/readings.md", figures: bool = True,
          families: Sequence[str] | None = None) -> Path:
    """Write the reproduction page for the sweeps under ``directory``; returns its path.

    Parameters
    ----------
    directory
        A results root (``aisched reproduce ... --out DIR``); its ``reproduce-*.json`` records
        (date, machine, wall time) are quoted when present.
    path
        The page to write.
    readings
        ``docs/readings.md``, linked per family (relative to the page).
    figures
        Draw each scenario's figure as a small SVG in ``figures/`` beside the page, with
        the paper's values marked (:mod:`aisched.experiments.pages.page_figures`), and the
        regime maps of the regime scenarios, and show them on the page.
    families
        Only these families' sweeps, calibration and sensitivity records, and the runs that
        covered them (a family's own page from a root that ``aisched reproduce all`` filled);
        default: every family under ``directory``.

    Raises
    ------
    InvalidScenarioError
        ``directory`` holds no sweep (of ``families``), or ``families`` names an unknown family.
    """
    top = Path(directory)
    if families is not None:
        for i, name in enumerate(families):
            if name not in family_records.names():
                raise InvalidScenarioError(f"families[{i}]", f"= {name!r} is not a family "
                                           f"(known: {', '.join(family_records.names())})")
    roots = sorted((p.parent for p in top.glob("**/scenario.json") if not is_calibration_sweep(p.parent)
                    and (families is None or _family_of(p) in families)), key=_natural)
    if not roots:
        which = "" if families is None else f" of {', '.join(families)}"
        raise InvalidScenarioError("directory", f"{str(top)!r} holds no sweep{which} (no scenario.json below it)")
    out = Path(path)
    readings_path = None if readings is None else Path(readings)
    index = ReadingIndex.read(readings_path,
                              "" if readings_path is None else os.path.relpath(readings_path, out.parent))
    runs = [run for p in sorted(top.glob("reproduce-*.json")) for run in read_records(p)
            if families is None or {"all", *families} & set(run.get("families", []))]
    counts = new_counts()
    by_family: dict[str, dict[str, int]] = {}  # the summary on top: per family, the same five kinds
    regimes: dict[str, list[str]] = {}  # per family, the regime maps' region sentences
    figure_dir = out.parent / "figures"
    variant_counts = new_counts()
    carried: list[str] = []  # claims whose verdict differs under some variant
    glance: dict[str, list[str]] = {}  # per family, a row per claim for the table on top
    p_values: dict[str, dict[str, float]] = {}  # per family, per claim: Holm's input (nan: not a holding claim)
    body: list[str] = []
    stored_all = [StoredScenario.read(root) for root in roots]
    reduced = any(stored.reduced_form for stored in stored_all)
    absent: list[tuple[str, ClaimCheck]] = []
    found = [stored.name for stored in stored_all]
    family_names = list(dict.fromkeys(name.split("/")[0] for name in found))
    missing = [n for f in family_names for n in catalog.names(f) if n not in found]
    auto_levels = levels(top)  # scenarios run with --seeds auto: checked at the sequential level
    silent = page_entries(top, family_names)  # per (scenario, claim): the fit's verdict and the sensitivity
    headlines = {f: regimes_of(top, f) for f in family_names
                 if f in family_records.names() and family_records.record(f).regime_targets}
    swept = {name.split("/")[0] for name, _ in silent} | {f for f, h in headlines.items() if h.verdicts}
    for root, stored in zip(roots, stored_all):
        table = load_table(root)
        tally = by_family.setdefault(stored.family, new_counts())
        timing = json.loads((root / "sweep.json").read_text()) if (root / "sweep.json").is_file() else {}
        family = stored.family
        reading = index.family_link(family)
        explained = _why(stored.name)
        seeds = int(table["seed"].nunique()) if not table.empty else 0
        body += [f"### {stored.name}", "", stored.title, "",
                 f"Size: {_size(stored)}; {seeds} seed(s), {len(table)} cells"
                 + (_timing(timing, len(table)) if timing else "")
                 + f". {reading}.", ""]
        checks = []
        by_variant: dict[str, list[ClaimCheck]] = {}
        summary = None
        if not table.empty:
            metric = stored.metric
            summary = summarise(table, metric)
            checks = check_claims(stored, summary, table, level=auto_levels.get(stored.name, 0.95))
            by_variant = variant_checks(stored, summary, table)
            better = "higher" if METRICS[metric] else "lower"
            if figures:
                svg = scenario_svg(figure_dir / f"{stored.name.replace('/', '-')}.svg", stored,
                                   summary, checks, table)
                body += [f"![{stored.name}]({os.path.relpath(svg, out.parent)})", ""]
            body += [f"`{metric}` ({better} is better), mean ± std over seeds:", "",
                     *mean_table(stored, summary), *reference_lines(table, metric),
                     *diagnostics_lines(stored, table), *notes_lines(stored, table),
                     *invariant_lines(table)]
            if "regime" in stored.figures:
                points = regime_points(stored, table)
                proposed = proposed_runs(stored)  # the proposed algorithm, then its variants
                for run in proposed:
                    run_points = points if run == proposed[0] else regime_points(stored, table, run)
                    if run_points:
                        regimes.setdefault(family, []).append(
                            f"{stored.name}: {regime_summary(stored, run_points)}")
                if figures and points:
                    regime_figure(root, stored, table)
                    target = figure_dir / f"{stored.name.replace('/', '-')}-regime.svg"
                    shutil.copyfile(root / "regime.svg", target)
                    body += [f"![regime map of {stored.name}]({os.path.relpath(target, out.parent)})", ""]
                body += regime_lines(stored, table)
        if stored.claims:
            if not checks:  # no finished cells: every claim is still listed
                body += [f"- {c.text}: **not checked**: no finished cells" for c in stored.claims]
                counts["not checked"] += len(stored.claims)
                tally["not checked"] += len(stored.claims)
            for chk in checks:
                if chk.absent:  # listed once, under "Not in this run"
                    absent.append((stored.name, chk))
                    tally["not checked"] += 1
                    continue
                kind = chk.status
                counts[kind] += 1
                tally[kind] += 1
                if chk.claim.kind in PAIRED_KINDS:  # decided on paired per-seed differences: Holm's hypotheses
                    p_values.setdefault(family, {})[f"{stored.name}: {chk.claim.text}"] = (
                        chk.p_value if chk.status == "holds" else float("nan"))
                measured = measured_text(chk)
                why = index.why_text(chk.claim.why or explained.get(chk.claim.text, ()), kind, family)
                body.append(f"- {chk.claim.text}: {verdict_text(chk, reduced)}"
                            + (f" (measured: {measured})" if measured else "") + why)
                entry = silent.get((stored.name, chk.claim.text))
                at_fit = headlines[family].verdicts.get((stored.name, chk.claim.text)) if family in headlines else None
                glance.setdefault(family, []).append(_glance_row(stored, chk, why, entry, family in swept, at_fit))
                if entry is not None and entry["sensitivity"] is not None:
                    body.append(f"  - at the fit: {entry['fit'] or 'the fit is the default'}; across the silent "
                                f"range ({entry['size']}; `{family}/silent-*`): {entry['sensitivity']}")
                for label, under in (entry or {}).get("readings", {}).items():
                    body.append(f"  - under the reading {label} ({under['size']}): {under['default']} at the "
                                f"default, {under['fit'] or 'the fit is the default'} at the fit; across the "
                                f"silent range: {under['sensitivity']}")
                body += _variant_lines(stored, chk.claim.text, by_variant, variant_counts, reduced)
                others = {v: c.holds for v, cs in by_variant.items() for c in cs if c.claim.text == chk.claim.text}
                if any(h is not None and h != chk.holds for h in others.values()) and chk.holds is not None:
                    flips = ", ".join(f"`{v}`" for v, h in others.items() if h is not None and h != chk.holds)
                    carried.append(f"- {stored.name}: {chk.claim.text}: {kind} by default, "
                                   f"{'holds' if not chk.holds else 'fails'} under {flips}"
                                   + (f" {REDUCED_LABEL}" if reduced else ""))
            body.append("")
    body += not_in_run_lines(absent, counts)
    if missing:  # a family's named scenarios this folder has no sweep of: their claims are listed, unchecked
        body += ["## Not run in this folder", "",
                 "Named scenarios of the families above with no sweep under this folder (a run stopped "
                 "before them, or not asked for); every claim is listed as not checked.", ""]
        for name in missing:
            scenario = catalog.get(name)
            body += [f"### {name}", "", scenario.title, ""]
            for claim in scenario.claims:
                body.append(f"- {claim.text}: not checked: not run (no sweep of {name} under this folder)")
                counts["not checked"] += 1
                by_family.setdefault(scenario.family, new_counts())["not checked"] += 1
            body.append("")
    head = ["# Reproduction status" + reduced_heading(reduced), "",
            f"Generated by `aisched report DIR --reproduction {Path(path).as_posix()}` from the run under "
            f"`{top.resolve().name}/` (the machine's own path left out); do not edit by hand. Each claim is checked for its direction (not its size) "
            "against the mean over seeds of our generated instances, under the readings of "
            "`docs/readings.md`.", ""]
    for run in runs:
        machine = run.get("machine", {})
        seeds = f" --seeds {run['seeds']}" if run.get("seeds") else ""
        first = ""
        if run.get("seeds") == "auto":
            look = run.get("first_look") or {}
            seeds += f" --max-seeds {run.get('max_seeds', '?')}"
            first = (f" (a first look at {look.get('seeds', '?')} seeds, {look.get('cells', '?')} cells in "
                     f"{(look.get('wall_s') or 0) / 60:.1f} min, then seeds added where a claim was undecided)")
        command = f"aisched reproduce {' '.join(run.get('families', []))}{seeds}" + (
            " --reduced" if run.get("reduced") else "")
        head += [f"- Run: `{command}`{first}"
                 + f", finished {run.get('finished', '?')}, {run.get('wall_s', 0) / 60:.1f} min wall on "
                 f"{machine.get('cpus', '?')} CPUs ({machine.get('platform', '?')}), executor "
                 f"{run.get('executor', '?')} with {run.get('workers', '?')} worker(s); "
                 f"{run.get('cells_total', '?')} cells ({run.get('cells_already_done', 0)} kept from an earlier run"
                 + (f", {int(run['cells_shared'])} repeating another scenario's cell, run once"
                    if run.get("cells_shared") else "") + f"){_load(run)}."]
        if run.get("provenance"):
            head.append(f"  Made by {provenance_text(run['provenance'])}.")
    if not runs:  # sweeps run one by one (``aisched sweep``): each scenario's section gives its seeds
        head.append("- No `aisched reproduce` record in this folder: its scenarios were run one by one "
                    "(`aisched sweep`); each section below gives its seeds, cells and wall time.")
    head.append("")
    head += _summary(by_family, regimes, index.findings, p_values, headlines)
    fidelity = fidelity_lines(top, list(by_family))
    if fidelity:
        head += ["## Regime fidelity", "",
                 "What the papers leave unstated is declared per family (silent parameters) and fitted to the "
                 "relations each paper reports among its *baselines* only (`aisched calibrate`); the figures' "
                 "runs below are at the default (where the fit heads a page, its verdicts are in the glance "
                 "table's column at the fit, at the sizes and seeds it names).", "", *fidelity]
    head += summary_lines(top, list(by_family))
    head += [f"Claims: {sum(counts.values())} in all: {counts_text(counts)}."
             + (f" Under the scenarios' variants (other readings, listed under each claim): "
                f"{counts_text(variant_counts)}." if sum(variant_counts.values()) else ""), ""]
    if sum(variant_counts.values()):
        head += ["## Claims a reading carries", "",
                 "Claims whose verdict under a variant (another reading of the paper, docs/readings.md) "
                 "differs from the default's:", "", *(carried or ["- none: every variant gives the default's verdicts"]),
                 ""]
    if runs:
        head += _budget(runs)
    head += _glance(glance, swept, headlines)
    head += theorem_lines(top, list(by_family))  # `aisched theorems` records under the root, if any
    head += ["## Per figure", ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out, "\n".join(head + body) + "\n")  # a killed report leaves the old page whole
    return out
