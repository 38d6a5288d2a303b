"""``aisched report DIR``: figures, tables and a claims check for every sweep under DIR.

For each sweep folder (one holding ``scenario.json``, see
:mod:`aisched.experiments.run.sweep`) the report draws the scenario's metric
against its x-axis in the paper's form (lines with the spread over seeds for
numeric x values, grouped bars for categories; PNG and SVG beside the
table), a heatmap of the final prices of the primal-dual algorithm where the
family prices (pdFTSP, ComDOS, Astraea), the scenario's extra ``figures``
(e.g. spot's policy-weight heatmap, tenants' alpha_u per user), and writes ``DIR/report.md``: per
scenario the mean (and standard deviation over seeds) of the metric at each
point, and each claim of the paper beside what we measured and whether its
direction holds.

Each claim's verdict comes from :func:`aisched.experiments.verdicts.checks.check_claims`
(paired per-seed differences, the reference's headroom, the idle marks of the
mechanism diagnostics); beside each figure's table stand the diagnostics
(:mod:`aisched.experiments.verdicts.diagnostics`) and, for a regime scenario, its map
(:mod:`aisched.experiments.verdicts.regime`). A reduced run says so in the first line
and in every verdict, and lists the claims at points it lacks once, under
"Not in this run".
Counts are hold / fail / inconclusive / untestable / not checked.
A report taken while a sweep is still writing a folder (it holds the folder's
lock) says ``partial: N of M cells`` at its top, per such folder.
Figures and the page are written atomically (a temporary file beside each, then a rename):
a report killed part way leaves the previous figures and ``report.md`` whole.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import pandas as pd

from aisched import families
from aisched._files import atomic_write_text, folder_holder, holder_text, make_folders, remove_stale_temps
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages.diagnostics import diagnostics_lines, invariant_lines, notes_lines
from aisched.experiments.pages.regime import regime_lines
from aisched.experiments.run.auto_seeds import levels
from aisched.experiments.run.sweep import load_table
from aisched.experiments.spec.catalog import METRICS
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.studies.calibrate import is_calibration_sweep
from aisched.experiments.verdicts.checks import (
    RATIO_METRICS,
    ClaimCheck,
    check_claims,
    summarise,
    variant_checks,
)
from aisched.experiments.verdicts.sequential import ALPHA, LOOKS, PAIRED_KINDS, holm
from aisched.experiments.verdicts.stats import counts_text, new_counts
from aisched.provenance import provenance, provenance_text

__all__ = ["REDUCED_LABEL", "RATIO_METRICS", "ClaimCheck", "check_claims", "mean_table", "measured_text",
           "not_in_run_lines", "reduced_heading", "reference_lines", "report", "summarise", "variant_checks", "verdict_text"]

def _figure(root: Path, stored: StoredScenario, summary: pd.DataFrame,
            table: pd.DataFrame | None = None) -> list[Path]:
    """``figure.png`` and ``figure.svg``: the metric along x in the report's one style (:func:`~aisched.figures.metric_figure`);
    with the per-cell ``table`` its band runs from the lowest to the highest seed."""
    from aisched.figures import metric_figure

    return metric_figure(root / "figure.png", stored, summary, extra_paths=[root / "figure.svg"], table=table)


def _heatmap(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    from aisched.figures import price_heatmap
    from aisched.outcome import Outcome

    record = families.record(stored.family) if stored.family in families.names() else None
    name = record.proposed if record is not None and record.prices else None  # its (node, slot) prices
    rows = table[(table["algorithm"] == name)] if name else table.iloc[0:0]
    if rows.empty:
        return None
    last = rows.sort_values(["point", "seed"]).iloc[-1]
    nc = root / "outcomes" / f"p{int(last['point']):03d}-s{int(last['seed']):03d}-{name}.nc"
    if not nc.is_file():
        return None
    prices = Outcome.from_netcdf(nc).prices
    if not any(v.ndim == 2 and "slot" in v.dims for v in prices.data_vars.values()):
        return None
    return price_heatmap(prices, root / "prices.png", variable=None,
                         title=f"{name}: final prices at {stored.x}={last['x']}, seed {int(last['seed'])}")


def _extra_figures(root: Path, stored: StoredScenario, table: pd.DataFrame) -> list[Path]:
    """The scenario's ``figures``, drawn by the family's registered ``figures``."""
    from aisched.experiments.pages.regime import regime_figure

    available = {**families.hooks(stored.family).figures, "regime": regime_figure}
    paths = []
    for name in stored.figures:
        if name not in available:
            raise InvalidScenarioError("figures", f"{stored.name}: {name!r} is not a figure of "
                                       f"{stored.family!r} (known: {sorted(available)})")
        path = available[name](root, stored, table)
        if path is not None:
            paths.append(path)
    return paths


def _fmt(mean: float, std: float) -> str:
    if not math.isfinite(mean):
        return "n/a"
    spread = "" if not math.isfinite(std) else f" ± {std:.3g}"
    return f"{mean:.4g}{spread}"


def mean_table(stored: StoredScenario, summary: pd.DataFrame) -> list[str]:
    """Markdown table: one row per x label, one column per algorithm, mean ± std over seeds."""
    algos = list(dict.fromkeys(summary["algorithm"]))
    lines = [f"| {stored.x} | " + " | ".join(algos) + " |", "|---" * (len(algos) + 1) + "|"]
    for x in stored.labels:
        cells = []
        for name in algos:
            r = summary[(summary["x"] == x) & (summary["algorithm"] == name)]
            cells.append("" if r.empty else _fmt(float(r["mean"].iloc[0]), float(r["std"].iloc[0])))
        lines.append(f"| {x} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def reference_lines(table: pd.DataFrame, metric: str) -> list[str]:
    """Which reference the ratios are to, per point: the proven optimum or an upper bound."""
    if "reference_kind" not in table:
        return []
    if metric not in ("ratio", "competitive_ratio"):  # the headroom's reference, point by point
        kinds = table.groupby(table["x"].astype(str), sort=False)["reference_kind"].agg(
            lambda k: "optimum" if set(k) == {"optimum"} else "bound" if set(k) - {""} else "")
        if not (kinds != "").any():
            return []
        parts = [f"{what} at {', '.join(kinds.index[kinds == kind])}"
                 for kind, what in (("optimum", "the proven optimum"),
                                    ("bound", "a certified upper bound on the optimum (or the optimum at some seeds)"),
                                    ("", "none")) if (kinds == kind).any()]
        return [f"Reference for the claims' headroom: {'; '.join(parts)}.", ""]
    kinds = table.groupby("x", sort=False)["reference_kind"].agg(lambda k: sorted(set(k) - {""}))
    bound_at = [str(x) for x, k in kinds.items() if "bound" in k]
    if not bound_at:
        return ["Ratios are to the proven offline optimum.", ""]
    return [f"Ratios at {', '.join(bound_at)} are to an upper **bound** on the optimum (the offline solve's at "
            "its limit, or the certified bound), not the optimum: a ratio to a bound is a lower estimate of the "
            "true ratio (a competitive ratio to it, an upper estimate).", ""]


def measured_text(chk: ClaimCheck) -> str:
    """What was measured, for a claim's line: the detail of a decided claim, and its headroom where stated."""
    parts = [chk.detail] if chk.status in ("holds", "fails") else []
    if chk.headroom and chk.headroom not in chk.detail:
        parts.append(chk.headroom)
    return "; ".join(parts)


#: The label every verdict of a reduced run carries.
REDUCED_LABEL = "[reduced run]"


def verdict_text(chk: ClaimCheck, reduced: bool = False) -> str:
    """The verdict, bold where the claim fails, with its idle mark (:func:`~aisched.experiments.verdicts.checks.mark_idle`).

    A reduced run's verdict carries :data:`REDUCED_LABEL`: it is a test-size run's, not the paper scale's.
    """
    text = "**fails**" if chk.status == "fails" else chk.verdict
    return text + (f" ({chk.idle})" if chk.idle else "") + (f" {REDUCED_LABEL}" if reduced else "")


def reduced_heading(reduced: bool) -> str:
    """The words a page's first line adds for a reduced run."""
    return (": reduced run (test-size forms of the scenarios, 1 seed; its verdicts are not the paper-scale ones)"
            if reduced else "")


def not_in_run_lines(absent: list[tuple[str, ClaimCheck]], counts: dict[str, int]) -> list[str]:
    """The claims at points a (reduced) run does not contain, each listed once; counted as not checked."""
    if not absent:
        return []
    lines = ["## Not in this run", "",
             "Claims made at a point this run does not contain (a reduced run's points are fewer); "
             "each is counted once as not checked:", ""]
    for name, chk in absent:
        counts["not checked"] += 1
        lines.append(f"- {name}: {chk.claim.text} (at {chk.absent})")
    return [*lines, ""]


def _claim_lines(checks: list[ClaimCheck], verdicts: dict[str, int], reduced: bool = False,
                 absent: list[tuple[str, ClaimCheck]] | None = None, name: str = "",
                 stored: StoredScenario | None = None) -> list[str]:
    """The claims table of one sweep (with verdicts, counted in ``verdicts``).

    A claim at a point the run lacks goes to ``absent`` (listed once, by
    :func:`not_in_run_lines`) when a list is given, else it is skipped (a variant's
    table: the default's line already names it). The table is headed "paper's claim"
    only where every claim is the paper's (:func:`~aisched.experiments.pages.page_figures.is_papers_claim`
    of ``stored``); a user's claim is headed, or marked, as the user's.
    """
    from aisched.experiments.pages.page_figures import is_papers_claim

    shown = [c for c in checks if not c.absent]
    if absent is not None:
        absent += [(name, c) for c in checks if c.absent]
    if not shown:
        return []
    papers = [stored is not None and is_papers_claim(stored, c.claim) for c in shown]
    head = "paper's claim" if all(papers) else "user's claim" if not any(papers) else "claim"
    lines = [f"| {head} | measured | verdict |", "|---|---|---|"]
    for chk, paper in zip(shown, papers):
        verdicts[chk.status] += 1
        mark = " (user's, not the paper's)" if head == "claim" and not paper else ""
        lines.append(f"| {chk.claim.text}{mark} | {measured_text(chk)} | {verdict_text(chk, reduced)} |")
    return [*lines, ""]


def look_text(level: float) -> str:
    """Why a ``--seeds auto`` sweep's verdicts use a wider interval than 95 % (the look schedule)."""
    looks = ", ".join(map(str, LOOKS))
    return (f"Verdicts at the {level:.2%} level: this sweep ran with `--seeds auto`, which looks at {looks} seeds "
            f"and adds seeds only where a claim is undecided; alpha = {ALPHA:.0%} is spent evenly over the "
            f"{len(LOOKS)} looks (1 - {ALPHA:g}/{len(LOOKS)}), so a verdict stays valid at whichever look the run "
            "stopped (aisched.experiments.verdicts.sequential).")


def holm_lines(p_values: dict[str, dict[str, float]]) -> list[str]:
    """The Holm reading of the comparison claims, per family, as the reproduction page gives it."""
    parts = []
    for family, ps in p_values.items():
        tested = sum(1 for p in ps.values() if p == p)
        parts.append(f"{family} {sum(holm(ps).values())} of {tested}")
    if not parts:
        return []
    return [f"Hold after Holm: {'; '.join(parts)} holding comparison claims still hold when each family's "
            "comparison claims (A improves over B, is better than B, is the best) are corrected together "
            f"(Holm's step-down at a family-wise {ALPHA:.0%}; the claims that do not hold count in the correction).",
            ""]


def _made_by(root: Path) -> str | None:
    """The provenance line of a sweep folder's last run (``sweep.json``), or None (an older folder)."""
    try:
        record = json.loads((root / "sweep.json").read_text(encoding="utf-8")).get("provenance")
    except (OSError, ValueError, AttributeError):
        return None
    return provenance_text(record) if isinstance(record, dict) else None


def partial_line(name: str, cells: int, holder: dict) -> str:
    """``partial: N of M cells of NAME (...)``: the line of a sweep still running when the report was taken."""
    total = holder.get("cells_total")
    return (f"partial: {cells} of {total if isinstance(total, int) else '?'} cells of {name} (a sweep, "
            f"{holder_text(holder)}, is still writing it); take the report again when it ends.")


def report(directory: str | os.PathLike[str], *, figures: bool = True) -> Path:
    """Write ``report.md`` (and figures) for every sweep under ``directory``; returns its path.

    Raises
    ------
    InvalidScenarioError
        ``directory`` when it holds no sweep.
    """
    top = Path(directory)
    roots = sorted((p.parent for p in top.glob("**/scenario.json") if not is_calibration_sweep(p.parent)),  # natural order: fig5 before fig10
                   key=lambda p: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p.as_posix())])
    if not roots:
        raise InvalidScenarioError("directory", f"{str(top)!r} holds no sweep (no scenario.json below it)")
    stored_all = [StoredScenario.read(root) for root in roots]
    # before any figure: a folder the report cannot write is named now, in one line
    for folder in ([top, *roots] if figures else [top]):
        make_folders(folder, (), field="directory")
    auto_levels = levels(top)  # scenarios run with --seeds auto: checked at the sequential level
    p_values: dict[str, dict[str, float]] = {}  # per family, per comparison claim: Holm's input
    reduced = any(stored.reduced_form for stored in stored_all)
    lines = ["# aisched report" + reduced_heading(reduced), "", f"Sweeps under `{top}`: {len(roots)}.", "",
             f"Report written by {provenance_text(provenance())}.", ""]
    verdicts = new_counts()
    variant_verdicts = new_counts()
    absent: list[tuple[str, ClaimCheck]] = []
    partial: list[str] = []
    for root, stored in zip(roots, stored_all):
        holder = folder_holder(root)  # a sweep still writing it: probed before the cells are read
        table = load_table(root)
        if holder is not None:
            partial.append(partial_line(stored.name, len(table), holder))
        metric = stored.metric
        rel = root.relative_to(top)
        lines += [f"## {stored.name}", "", stored.title, ""]
        if table.empty:
            lines += ["No finished cells yet.", ""]
            lines += _claim_lines([ClaimCheck(claim, math.nan, None, "no finished cells yet")
                                   for claim in stored.claims], verdicts, reduced, stored=stored)
            continue
        summary = summarise(table, metric)
        seeds = int(table["seed"].nunique())
        band = ", the figure's bars and bands run from the lowest to the highest seed" if figures else ""
        lines.append(f"Metric `{metric}` ({'higher' if METRICS[metric] else 'lower'} is better): the table gives "
                     f"the mean ± std over {seeds} seed(s){band}; {len(table)} cells.")
        made = _made_by(root)
        lines += [*([f"Last swept by {made}."] if made else []), ""]
        lines += reference_lines(table, metric)
        if figures:
            remove_stale_temps(root)  # of a report killed while drawing (its figures were kept whole)
            png, _ = _figure(root, stored, summary, table)
            lines += [f"![{stored.name}]({(rel / png.name).as_posix()})", ""]
            heat = _heatmap(root, stored, table)
            if heat is not None:
                lines += [f"![prices]({(rel / heat.name).as_posix()})", ""]
            for path in _extra_figures(root, stored, table):
                lines += [f"![{path.stem}]({(rel / path.name).as_posix()})", ""]
        lines += mean_table(stored, summary)
        lines += diagnostics_lines(stored, table)
        lines += notes_lines(stored, table)
        lines += invariant_lines(table)
        if "regime" in stored.figures:
            lines += regime_lines(stored, table)
        checks = check_claims(stored, summary, table, level=auto_levels.get(stored.name, 0.95))
        if stored.name in auto_levels:  # --seeds auto: say why the intervals are wider than 95 %
            lines += [look_text(auto_levels[stored.name]), ""]
        for chk in checks:  # decided on paired per-seed differences: Holm's hypotheses (as on the page)
            if chk.claim.kind in PAIRED_KINDS and not chk.absent:
                p_values.setdefault(stored.family, {})[f"{stored.name}: {chk.claim.text}"] = (
                    chk.p_value if chk.status == "holds" else math.nan)
        lines += _claim_lines(checks, verdicts, reduced, absent, stored.name, stored)
        for variant, checks in variant_checks(stored, summary, table).items():
            changed = "; ".join(f"{a}: " + ", ".join(f"{k}={v!r}" for k, v in params.items())
                                for a, params in stored.variants[variant].items())
            lines += [f"Under variant `{variant}` ({changed}):", ""]
            lines += _claim_lines(checks, variant_verdicts, reduced, stored=stored)
    lines += not_in_run_lines(absent, verdicts)
    lines[3:3] = [f"Claims: {sum(verdicts.values())} in all: {counts_text(verdicts)}."
                  + (f" Under the scenarios' variants (other readings): {counts_text(variant_verdicts)}."
                     if sum(variant_verdicts.values()) else ""), "", *holm_lines(p_values)]
    if partial:  # at the top: the numbers below are of the cells finished so far
        lines[1:1] = ["", *partial]
    out = top / "report.md"
    atomic_write_text(out, "\n".join(lines) + "\n")  # a killed report keeps the old page whole
    remove_stale_temps(top)
    return out
