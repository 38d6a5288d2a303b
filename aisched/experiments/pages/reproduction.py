"""The reproduction pages' records: per family, each claim of the paper, what we measured and whether it holds.

:func:`build` reads the sweeps under a results folder (an ``aisched reproduce`` run, with its
calibration, sensitivity, regimes and theorems records) and makes one verdict record per family
(:mod:`aisched.experiments.pages.records`): for every scenario (paper figure) its size, seeds and
wall time; for every claim of the paper the measurement, the verdict ("holds", "fails",
"inconclusive at N seeds", "untestable on this workload" with the reference's headroom, or
"not checked: <reason>"; :mod:`aisched.experiments.verdicts`) with the interval it rests on and a
one-phrase reason, the verdict under each of the scenario's variants (other readings of the paper),
the verdict at the fit and across the silent range, links to the readings that explain a verdict
that fails, is untestable or inconclusive (:attr:`Claim.why
<aisched.experiments.spec.scenario.Claim.why>`, :mod:`aisched.experiments.spec.readings`), the
figures, and the run's time against its budget. :func:`write` stores the records and renders the
pages from them alone (:mod:`aisched.experiments.pages.render`); :func:`render_pages` renders them
again from committed records (``aisched pages``). Nothing is typed by hand.
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
from aisched.experiments.pages.records import SCHEMA, interval_text, reason, write_records
from aisched.experiments.pages.records import read_records as read_verdict_records
from aisched.experiments.pages.regime import regime_figure, regime_lines, regime_summary
from aisched.experiments.pages.render import budget_lines, claims_page, pages, run_line
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

__all__ = ["build", "family_summary", "render_pages", "rendered", "summary_text", "write"]

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


def _family_of(record: Path) -> str | None:
    """The family a sweep folder's ``scenario.json`` names (None where it cannot be read: the page says so later)."""
    try:
        return str(json.loads(record.read_text(encoding="utf-8"))["family"])
    except (OSError, ValueError, KeyError, TypeError):
        return None




def _run_records(top: Path, family: str) -> list[dict[str, Any]]:
    """The ``aisched reproduce`` records under ``top`` that covered ``family`` (the page's "Run" lines)."""
    return [run for p in sorted(top.glob("reproduce-*.json")) for run in read_records(p)
            if {"all", family} & set(run.get("families", []))]


def _run_bullets(runs: list[dict[str, Any]]) -> list[str]:
    """The details of each run: machine, executor, workers, cells, load and provenance."""
    lines = []
    for run in runs:
        machine = run.get("machine", {})
        first = ""
        if run.get("seeds") == "auto":
            look = run.get("first_look") or {}
            kept = int(run.get("cells_already_done") or 0)
            first = (f" (a first look at {look.get('seeds', '?')} seeds"
                     + (f", its {look.get('cells', '?')} cells kept from an earlier run" if kept and
                        not look.get("wall_s") else f", {look.get('cells', '?')} cells in "
                        f"{(look.get('wall_s') or 0) / 60:.1f} min") + ", then seeds added where a claim was undecided)")
        load = ""
        if run.get("load_start") and run.get("load_end"):
            start, end = run["load_start"], run["load_end"]
            load = (f"; load average {start[0]:.1f} at the start, {end[0]:.1f} at the end "
                    f"({end[2]:.1f} over the last 15 min)")
        lines.append(f"- {run_line(run)}{first}; {machine.get('platform', '?')}, executor "
                     f"{run.get('executor', '?')} with {run.get('workers', '?')} worker(s)"
                     + (f", {int(run['cells_shared'])} cells repeating another scenario's, run once"
                        if run.get("cells_shared") else "") + f"{load}.")
        if run.get("provenance"):
            lines.append(f"  Made by {provenance_text(run['provenance'])}.")
    return lines


def family_summary(counts: dict[str, int], p_values: dict[str, float], heads: Regimes | None) -> dict[str, Any]:
    """A record's ``summary``: the five counts of the headline regime, Holm's count, the regime.

    ``counts`` are the default's (the figures' run), ``p_values`` per comparison claim Holm's input
    (nan: a claim that does not hold); where the fit heads the page, its counts from the regimes run.
    """
    kept = sum(holm(p_values).values()) if p_values else 0
    tested = sum(1 for p in p_values.values() if p == p)  # holding comparisons (a p-value; nan: not holding)
    if heads is not None and heads.fit_heads:
        return {"regime": "fit", "counts": heads.counts(tuple(counts)), "holm": "not computed at the fit",
                "default_counts": dict(counts)}
    return {"regime": "default", "counts": dict(counts), "holm": f"{kept} of {tested}", "default_counts": dict(counts)}


def summary_text(family: str, heads: Regimes | None) -> list[str]:
    """The words under a family's summary table: which regime heads the page and how a comparison holds."""
    lines = [] if heads is None else [
        "Which regime heads the page (the headline rule, `aisched.experiments.verdicts.headline`: the fit heads "
        "only where it is confirmed on held-out seeds, stable on a second seed set, keeps the paper's stated values "
        "and scores at least 10x closer than the default on the held-out seeds):", "", heads.line(), ""]
    return [*lines, "A comparison claim (A improves over B, A is better than B, A is the best) holds where its "
            "paired 95 % t interval (per point, over the seeds run) excludes 0 in the claim's direction. \"Hold after "
            "Holm\": how many of the holding comparisons still hold when all the family's comparison claims are "
            "corrected together (Holm's step-down at a family-wise 5 %, each claim's p-value the largest one-sided "
            "paired t p-value over its points; the claims that do not hold count in the correction and never "
            "pass). Claims on means alone (trends, bounds) are not tests and are left out of it.", ""]


def _claim_row(stored: StoredScenario, check: ClaimCheck, why: str, silent: dict[str, Any] | None,
               at_fit: dict[str, str] | None, swept: bool) -> dict[str, Any]:
    """A claim's entry in the record (the glance table's row)."""
    silent = silent if silent and silent.get("sensitivity") is not None else None
    fit = ""
    if swept and at_fit is not None:
        fit = at_fit["fit"]
    elif swept:
        fit = (silent["fit"] or "the default") + " (" + silent["size"] + ")" if silent else "not swept"
    sensitivity = _short(silent["sensitivity"], 90) if silent else ("not swept" if swept else "")
    verdict = check.status + (f" ({check.idle})" if check.idle else "")
    return {"scenario": stored.name, "figure": stored.name.split("/", 1)[1], "anchor": slug(stored.name),
            "claim": _short(check.claim.text), "kind": check.claim.kind,
            "paper": _value_text(check, check.claim.value),
            "ours": _value_text(check, check.measured) if check.claim.value is not None else "",
            "interval": interval_text(check), "verdict": verdict,
            "reason": _short(reason(check, silent["sensitivity"] if silent else None), 90),
            "readings": why.removeprefix(" Why: ").rstrip("."), "at_fit": fit, "silent": sensitivity}


def build(directory: str | os.PathLike[str], page_dir: str | os.PathLike[str] = "docs", *,
          readings: str | os.PathLike[str] | None = "docs/readings", figures: bool = True,
          families: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """The verdict record of each family under ``directory`` (:mod:`aisched.experiments.pages.records`).

    ``page_dir`` is where the pages will stand: the figures are drawn into ``page_dir/figures`` and every
    link in a record (figures, readings) is relative to it. The other parameters are :func:`write`'s.
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
    page_dir = Path(page_dir)
    readings_path = None if readings is None else Path(readings)
    link = "" if readings_path is None else os.path.relpath(readings_path, page_dir).replace(os.sep, "/")
    index = ReadingIndex.read(readings_path, link + "/" if readings_path is not None and readings_path.is_dir()
                              else link)
    stored_all = [StoredScenario.read(root) for root in roots]
    reduced = any(stored.reduced_form for stored in stored_all)
    found = [stored.name for stored in stored_all]
    family_names = list(dict.fromkeys(name.split("/")[0] for name in found))
    auto_levels = levels(top)  # scenarios run with --seeds auto: checked at the sequential level
    silent = page_entries(top, family_names)  # per (scenario, claim): the fit's verdict and the sensitivity
    headlines = {f: regimes_of(top, f) for f in family_names
                 if f in family_records.names() and family_records.record(f).regime_targets}
    swept = {name.split("/")[0] for name, _ in silent} | {f for f, h in headlines.items() if h.verdicts}
    records = {}
    for family in family_names:
        pairs = [(root, stored) for root, stored in zip(roots, stored_all) if stored.family == family]
        missing = [n for n in catalog.names(family) if n not in found] if family in family_records.names() else []
        records[family] = _family(top, family, pairs, missing, page_dir, index, silent, headlines.get(family),
                                  family in swept, auto_levels, reduced, figures)
    return records


def _family(top: Path, family: str, pairs: list[tuple[Path, StoredScenario]], missing: list[str], page_dir: Path,
            index: ReadingIndex, silent: dict[tuple[str, str], dict[str, Any]], heads: Regimes | None, swept: bool,
            auto_levels: dict[str, float], reduced: bool, figures: bool) -> dict[str, Any]:
    """One family's record (:func:`build`)."""
    counts, variant_counts = new_counts(), new_counts()
    regimes: list[str] = []
    carried: list[str] = []  # claims whose verdict differs under some variant
    claims: list[dict[str, Any]] = []
    drawn: list[dict[str, str]] = []
    p_values: dict[str, float] = {}  # per claim: Holm's input (nan: not a holding claim)
    absent: list[tuple[str, ClaimCheck]] = []
    body: list[str] = []
    figure_dir = page_dir / "figures"
    for root, stored in pairs:
        table = load_table(root)
        timing = json.loads((root / "sweep.json").read_text()) if (root / "sweep.json").is_file() else {}
        explained = _why(stored.name)
        seeds = int(table["seed"].nunique()) if not table.empty else 0
        body += [f"### {stored.name}", "", stored.title, "",
                 f"Size: {_size(stored)}; {seeds} seed(s), {len(table)} cells"
                 + (_timing(timing, len(table)) if timing else "") + f". {index.family_link(family)}.", ""]
        checks: list[ClaimCheck] = []
        by_variant: dict[str, list[ClaimCheck]] = {}
        if not table.empty:
            metric = stored.metric
            summary = summarise(table, metric)
            checks = check_claims(stored, summary, table, level=auto_levels.get(stored.name, 0.95))
            by_variant = variant_checks(stored, summary, table)
            if figures:
                svg = scenario_svg(figure_dir / f"{stored.name.replace('/', '-')}.svg", stored, summary, checks, table)
                drawn.append({"scenario": stored.name, "anchor": slug(stored.name), "alt": stored.name,
                              "path": os.path.relpath(svg, page_dir).replace(os.sep, "/")})
            body += [f"`{metric}` ({'higher' if METRICS[metric] else 'lower'} is better), mean ± std over seeds:", "",
                     *mean_table(stored, summary), *reference_lines(table, metric),
                     *diagnostics_lines(stored, table), *notes_lines(stored, table), *invariant_lines(table)]
            if "regime" in stored.figures:
                points = regime_points(stored, table)
                proposed = proposed_runs(stored)  # the proposed algorithm, then its variants
                for run in proposed:
                    run_points = points if run == proposed[0] else regime_points(stored, table, run)
                    if run_points:
                        regimes.append(f"{stored.name}: {regime_summary(stored, run_points)}")
                if figures and points:
                    regime_figure(root, stored, table)
                    target = figure_dir / f"{stored.name.replace('/', '-')}-regime.svg"
                    shutil.copyfile(root / "regime.svg", target)
                    drawn.append({"scenario": stored.name, "anchor": slug(stored.name),
                                  "alt": f"regime map of {stored.name}",
                                  "path": os.path.relpath(target, page_dir).replace(os.sep, "/")})
                body += regime_lines(stored, table)
        if stored.claims and not checks:  # no finished cells: every claim is still listed
            body += [f"- {c.text}: **not checked**: no finished cells" for c in stored.claims]
            counts["not checked"] += len(stored.claims)
        for chk in checks:
            if chk.absent:  # listed once, under "Not in this run"
                absent.append((stored.name, chk))
                continue
            counts[chk.status] += 1
            if chk.claim.kind in PAIRED_KINDS:  # decided on paired per-seed differences: Holm's hypotheses
                p_values[f"{stored.name}: {chk.claim.text}"] = chk.p_value if chk.status == "holds" else float("nan")
            measured = measured_text(chk)
            why = index.why_text(chk.claim.why or explained.get(chk.claim.text, ()), chk.status, family)
            body.append(f"- {chk.claim.text}: {verdict_text(chk, reduced)}"
                        + (f" (measured: {measured})" if measured else "") + why)
            entry = silent.get((stored.name, chk.claim.text))
            at_fit = heads.verdicts.get((stored.name, chk.claim.text)) if heads is not None else None
            claims.append(_claim_row(stored, chk, why, entry, at_fit, swept))
            if entry is not None and entry["sensitivity"] is not None:
                body.append(f"  - at the fit: {entry['fit'] or 'the fit is the default'}; across the silent "
                            f"range ({entry['size']}; `{family}/silent-*`): {entry['sensitivity']}")
            for label, under in (entry or {}).get("readings", {}).items():
                size = str(under["size"]).removesuffix(f", under {label}")
                body.append(f"  - under the reading {label} ({size}): {under['default']} at the "
                            f"default, {under['fit'] or 'the fit is the default'} at the fit; across the "
                            f"silent range: {under['sensitivity']}")
            body += _variant_lines(stored, chk.claim.text, by_variant, variant_counts, reduced)
            others = {v: c.holds for v, cs in by_variant.items() for c in cs if c.claim.text == chk.claim.text}
            if any(h is not None and h != chk.holds for h in others.values()) and chk.holds is not None:
                flips = ", ".join(f"`{v}`" for v, h in others.items() if h is not None and h != chk.holds)
                carried.append(f"- {stored.name}: {chk.claim.text}: {chk.status} by default, "
                               f"{'holds' if not chk.holds else 'fails'} under {flips}"
                               + (f" {REDUCED_LABEL}" if reduced else ""))
        body.append("")
    not_in_run = not_in_run_lines(absent, counts)
    not_run: list[str] = []
    if missing:  # the family's named scenarios this folder has no sweep of: their claims are listed, unchecked
        not_run = ["## Not run in this folder", "", "Named scenarios of this family with no sweep under this folder "
                   "(a run stopped before them, or not asked for); every claim is listed as not checked.", ""]
        for name in missing:
            scenario = catalog.get(name)
            not_run += [f"### {name}", "", scenario.title, ""]
            for claim in scenario.claims:
                not_run.append(f"- {claim.text}: not checked: not run (no sweep of {name} under this folder)")
                counts["not checked"] += 1
            not_run.append("")
    fit_column = ""
    if swept:
        fit_column = f"at the fit ({heads.size})" if heads is not None and heads.verdicts else "at the fit"
        if heads is not None and heads.fit_heads:
            fit_column += ": the headline"
    variants: list[str] = []
    if sum(variant_counts.values()):
        variants = ["## Claims a reading carries", "",
                    "Claims whose verdict under a variant (another reading of the paper) differs from the default's:",
                    "", *(carried or ["- none: every variant gives the default's verdicts"]), ""]
    fidelity = fidelity_lines(top, [family])
    runs = _run_records(top, family)
    totals = (f"Claims: {sum(counts.values())} in all: {counts_text(counts)}."
              + (f" Under the scenarios' variants (other readings, listed under each claim): "
                 f"{counts_text(variant_counts)}." if sum(variant_counts.values()) else ""))
    return {
        "schema": SCHEMA, "family": family, "reduced_heading": reduced_heading(reduced),
        "run": {"folder": top.resolve().name, "runs": runs},
        "summary": {**family_summary(counts, p_values, heads), "variant_counts": dict(variant_counts)},
        "claims": claims, "fit_column": fit_column, "figures": drawn, "regime_maps": regimes,
        "findings": list(index.findings.get(family, [])),
        "sections": {
            "summary": [*summary_text(family, heads), totals, ""],
            "fidelity": (["## Regime fidelity", "",
                          "What the paper leaves unstated is declared (silent parameters) and fitted to the relations "
                          "it reports among its *baselines* only (`aisched calibrate`); the figures' runs below are at "
                          "the default (where the fit heads the page, its verdicts are in the glance table's column at "
                          "the fit, at the sizes and seeds it names).", "", *fidelity] if fidelity else []),
            "sensitivity": summary_lines(top, [family]),
            "variants": variants,
            "budget": ["## Runs", "", *_run_bullets(runs), "", *budget_lines(runs)] if runs else [],
            "theorems": theorem_lines(top, [family]),
            "per_figure": body, "not_in_run": not_in_run, "not_run": not_run,
        },
    }


def write(directory: str | os.PathLike[str], path: str | os.PathLike[str] = "docs/reproduction.md", *,
          readings: str | os.PathLike[str] | None = "docs/readings", figures: bool = True,
          families: Sequence[str] | None = None, records: str | os.PathLike[str] | None = None) -> Path:
    """Build the verdict records of the sweeps under ``directory``, store them and render their pages.

    Parameters
    ----------
    directory
        A results root (``aisched reproduce ... --out DIR``); its ``reproduce-*.json`` records
        (date, machine, wall time) are quoted when present.
    path
        The page to write: the family's page where the run holds one family (or ``families`` names
        one), else the index across families, with each family's page beside it
        (:func:`~aisched.experiments.pages.render.page_name`).
    readings
        The readings (``docs/readings``, a folder of per-family pages, or one file), linked per claim.
    figures
        Draw each scenario's figure as a small SVG in ``figures/`` beside the page, with the paper's
        values marked (:mod:`aisched.experiments.pages.page_figures`), and the regime maps.
    families
        Only these families' sweeps, calibration and sensitivity records, and the runs that covered them.
    records
        Where the verdict records go (default: ``records/`` beside the page); the pages are rendered
        from them alone (``aisched pages`` renders them again).

    Raises
    ------
    InvalidScenarioError
        ``directory`` holds no sweep (of ``families``), or ``families`` names an unknown family.
    """
    out = Path(path)
    built = build(directory, out.parent, readings=readings, figures=figures, families=families)
    records_dir = out.parent / "records" if records is None else Path(records)
    write_records(built, records_dir)
    return render_pages(records_dir, out, families=list(built))


def rendered(records_dir: str | os.PathLike[str] = "docs/records", path: str | os.PathLike[str] =
             "docs/reproduction.md", families: Sequence[str] | None = None,
             claims: str | os.PathLike[str] | None = None) -> dict[Path, str]:
    """Every page the records in ``records_dir`` render to (``families``: only these), by path; with
    ``claims``, also the page of the claims that do not reproduce (:func:`~aisched.experiments.pages.render.claims_page`)."""
    found = read_verdict_records(records_dir)
    chosen = {f: r for f, r in found.items() if families is None or f in families}
    if not chosen:
        raise InvalidScenarioError("records", f"{str(records_dir)!r} holds no verdict record"
                                   + (f" of {', '.join(families)}" if families else ""))
    out = pages(chosen, path, records_dir)
    if claims is not None:
        link = Path(os.path.relpath(records_dir, Path(claims).parent)).as_posix()
        out[Path(claims)] = claims_page(chosen, path, link)
    return out


def render_pages(records_dir: str | os.PathLike[str] = "docs/records", path: str | os.PathLike[str] =
                 "docs/reproduction.md", families: Sequence[str] | None = None,
                 claims: str | os.PathLike[str] | None = None) -> Path:
    """Render the pages of the records in ``records_dir`` (:func:`rendered`) and write them; returns ``path``."""
    for page, text in rendered(records_dir, path, families, claims).items():
        page.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(page, text)  # a killed render leaves the old page whole
    return Path(path)
