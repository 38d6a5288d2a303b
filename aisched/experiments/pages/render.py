"""Pages from verdict records: a family's page and the index across families.

Every reproduction page is a function of the committed records (:mod:`aisched.experiments.pages.records`)
and of nothing else: :func:`family_page` and :func:`index_page` return Markdown, :func:`pages` names
each file, and ``tests/test_docs_pages.py`` checks that the pages under ``docs/`` are what the
records render to. A family's page opens with what a reader came for (what was run, then the glance
table: claim, the paper's number, ours with its interval, the verdict and a one-phrase reason), then
its figures, then the details; the index holds the summary across families, one line per family and
the findings that cross families, and copies no section of a family page.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aisched.errors import InvalidScenarioError
from aisched.experiments.pages.records import SCHEMA
from aisched.experiments.verdicts.stats import VERDICTS

__all__ = ["BUDGET_ALL_MIN", "BUDGET_AUTO_MIN", "BUDGET_MIN", "BUDGET_SEEDS", "budget_lines", "family_page",
           "claims_page", "index_page", "page_name", "pages", "run_line", "summary_lines"]

#: The time budgets on 2 cores: ``aisched reproduce FAMILY`` with >= 3 seeds within 90 minutes,
#: ``aisched reproduce all --seeds 3`` within 3 hours, ``--seeds auto`` for one family within 2 hours.
BUDGET_MIN = 90.0
BUDGET_ALL_MIN = 180.0
BUDGET_AUTO_MIN = 120.0
BUDGET_SEEDS = 3

_HEADS = ("hold", "fail", "inconclusive", "untestable", "not checked")


def _budget_of(run: Mapping[str, Any]) -> tuple[float | None, str]:
    """The run's budget in minutes (None: no budget stated for its kind) and why (or why not checked)."""
    seeds, families = run.get("seeds"), run.get("families", [])
    one = len(families) == 1 and families != ["all"]  # `reproduce all` records its families as ["all"]
    if seeds == "auto":
        return (BUDGET_AUTO_MIN, "") if one else (None, "not checked: no budget for several families "
                                                        "with --seeds auto")
    if seeds is None or seeds < BUDGET_SEEDS:
        return None, f"not checked: {seeds or 'default'} seed(s) < {BUDGET_SEEDS}"
    return (BUDGET_MIN, "") if one else (BUDGET_ALL_MIN, "")


def budget_lines(runs: list[Mapping[str, Any]]) -> list[str]:
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


def run_line(run: Mapping[str, Any]) -> str:
    """One line on what was run: the command, when, at which commit, how long, and what a resumed run added."""
    seeds = f" --seeds {run['seeds']}" if run.get("seeds") else ""
    if run.get("seeds") == "auto":
        seeds += f" --max-seeds {run.get('max_seeds', '?')}"
    command = f"aisched reproduce {' '.join(run.get('families', []))}{seeds}" + (" --reduced" if run.get("reduced") else "")
    total, kept = int(run.get("cells_total") or 0), int(run.get("cells_already_done") or 0)
    commit = str((run.get("provenance") or {}).get("commit", ""))
    commit = commit if commit.startswith("not") or not commit else f"commit {commit[:7]}"
    cpus = (run.get("machine") or {}).get("cpus", "?")
    when = str(run.get("finished", "?"))[:10]
    if kept and kept >= total:
        work = f"every one of its {total} cells kept from an earlier run (it added none)"
    elif kept:
        work = f"added {total - kept} cells to {kept} kept from an earlier run, in {run.get('wall_s', 0) / 60:.1f} min"
    else:
        work = f"{total} cells in {run.get('wall_s', 0) / 60:.1f} min"
    return f"`{command}`, finished {when}, " + (f"{commit}, " if commit else "") + f"on {cpus} CPUs: {work}"


def summary_lines(rows: Mapping[str, Mapping[str, Any]], link: Mapping[str, str] | None = None) -> list[str]:
    """The summary table: per family the five verdict counts of its headline regime and Holm's count.

    ``rows`` maps family -> a record's ``summary``; ``link`` family -> the page to link its name to.
    """
    lines = ["| family | headline regime | claims | hold | hold after Holm | fail | inconclusive at the seeds run | "
             "untestable on our workload | not checked |", "|---|---|---|---|---|---|---|---|---|"]
    for family, row in rows.items():
        c = row["counts"]
        name = f"[{family}]({link[family]})" if link and family in link else family
        lines.append(f"| {name} | {row['regime']} | {sum(c.values())} | {c['holds']} | {row['holm']} | {c['fails']} "
                     f"| {c['inconclusive']} | {c['untestable']} | {c['not checked']} |")
    return lines


def _glance(record: Mapping[str, Any]) -> list[str]:
    """The claims at a glance: one short row per claim, the reason in a phrase, the fit beside where it was run."""
    fit_column = record.get("fit_column")
    head = "| claim | paper | ours | interval | verdict | why | readings |" + (
        f" {fit_column} | across the silent range |" if fit_column else "")
    lines = [head, "|---|---|---|---|---|---|---|" + ("---|---|" if fit_column else "")]
    for row in record["claims"]:
        verdict = f"**{row['verdict']}**" if row["verdict"] == "fails" else row["verdict"]
        claim = f"[{row['figure']}](#{row['anchor']}): {row['claim']}"
        lines.append(f"| {claim} | {row['paper']} | {row['ours']} | {row['interval']} | {verdict} | {row['reason']} | "
                     f"{row['readings']} |" + (f" {row['at_fit']} | {row['silent']} |" if fit_column else ""))
    return lines


def family_page(record: Mapping[str, Any], records_link: str = "records") -> str:
    """A family's page: what was run, the glance table, the figures, then the details (module docstring)."""
    if record.get("schema") != SCHEMA:
        raise InvalidScenarioError("schema", f"= {record.get('schema')!r}, this aisched renders schema {SCHEMA}")
    family, summary = record["family"], record["summary"]
    c = summary["counts"]
    lines = [f"# {family}: the paper's claims against our runs" + record.get("reduced_heading", ""), ""]
    runs = record["run"]["runs"]
    lines += ([f"Run: {run_line(run)}." for run in runs] if runs else
              ["Run: no `aisched reproduce` record in this folder: its scenarios were run one by one (`aisched "
               "sweep`); each figure's section gives its seeds, cells and wall time."])
    lines += ["", f"Rendered from [`{records_link}/{family}.json`]({records_link}/{family}.json) (from the run folder "
              f"`{record['run']['folder']}/`) by `aisched pages`; do not edit by hand. "
              f"The headline regime is the **{summary['regime']}**: " + " / ".join(
                  f"{c[k]} {h}" for k, h in zip(VERDICTS, _HEADS)) + f" of {sum(c.values())} claims.", "",
              "## Claims at a glance", "",
              "The verdict is the figures' run at the default; \"why\" says in a phrase what decides it, and the "
              "readings explain it. Every number, interval and test is in the details below.", "",
              *_glance(record), ""]
    if record["figures"]:
        lines += ["## Figures", ""]
        for figure in record["figures"]:
            lines += [f"![{figure['alt']}]({figure['path']})", "",
                      f"*{figure['alt']}* ([details](#{figure['anchor']}))", ""]
    sections = record["sections"]
    lines += ["## Summary", "", *summary_lines({family: summary}), "", *sections["summary"]]
    lines += [f"- {family}'s regime map: " + (" ".join(record["regime_maps"]) or "not in this run.")]
    lines += [f"- {family}, finding: {text}" for text in record["findings"]] + [""]
    for key in ("fidelity", "sensitivity", "variants", "budget", "theorems"):
        lines += sections.get(key, [])
    lines += ["## Per figure", "", *sections["per_figure"], *sections.get("not_in_run", []),
              *sections.get("not_run", [])]
    return "\n".join(lines).rstrip("\n") + "\n"


def page_name(index: str | os.PathLike[str], family: str) -> Path:
    """A family's page beside the index: ``docs/reproduction.md`` -> ``docs/reproduction-lora.md``."""
    index = Path(index)
    return index.with_name(f"{index.stem}-{family}{index.suffix}")


def _record_links(records: Mapping[str, Any], records_link: str) -> str:
    return ", ".join(f"[`{records_link}/{f}.json`]({records_link}/{f}.json)" for f in records)


def index_page(records: Mapping[str, Mapping[str, Any]], index: str | os.PathLike[str],
               records_link: str = "records") -> str:
    """The index across families: the summary table, one line per family with its link, the findings that cross
    families (:func:`_crossing`)."""
    link = {f: page_name(index, f).name for f in records}
    lines = ["# Reproduction status: every family", "",
             "One line per family; each family's page gives its glance table, figures and details. Rendered from "
             f"the verdict records ({_record_links(records, records_link)}) by `aisched pages`; do not edit by hand.",
             "", "## Summary", "", *summary_lines({f: r["summary"] for f, r in records.items()}, link), "",
             "## The families", ""]
    for family, record in records.items():
        c = record["summary"]["counts"]
        runs = record["run"]["runs"]
        lines.append(f"- [{family}]({link[family]}): {record['summary']['regime']} heads the page, "
                     f"{c['holds']} of {sum(c.values())} claims hold"
                     + (f"; run {run_line(runs[0])}" if runs else "") + ".")
    lines += ["", "## Findings that cross families", "", *_crossing(records)]
    return "\n".join(lines) + "\n"


def _crossing(records: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What the glance tables say together: the verdicts in all, and the reasons that recur across families."""
    total = {k: sum(r["summary"]["counts"][k] for r in records.values()) for k in VERDICTS}
    lines = [f"- At each family's headline regime, {sum(total.values())} claims: " + ", ".join(
        f"{total[k]} {h}" for k, h in zip(VERDICTS, _HEADS)) + "."]
    kinds = (("fails at every silent value", "fail at every value of the silent parameters the text allows "
              "(no reading of the workload the paper leaves open turns them)"),
             ("leaves", "are untestable because the optimum (or a certified bound on it) leaves less over the "
              "baseline than the claim asks"),
             ("do not separate them", "are inconclusive: the seeds run do not separate the algorithms"))
    for phrase, words in kinds:
        per = {f: sum(phrase in row["reason"] for row in r["claims"]) for f, r in records.items()}
        if sum(per.values()):
            lines.append(f"- In the figures' runs, {sum(per.values())} claims {words}: "
                         + ", ".join(f"{f} {n}" for f, n in per.items()) + ".")
    return lines


def claims_page(records: Mapping[str, Mapping[str, Any]], index: str | os.PathLike[str],
                records_link: str = "records") -> str:
    """Per family, the claims that do not hold in the headline's figures' run, each with its reason, and the runs' times.

    The README keeps one row per paper; this page lists what is behind its counts, claim by claim.
    """
    link = {f: page_name(index, f).name for f in records}
    lines = ["# Claims that do not reproduce, and the runs' times", "",
             "Per family, every claim of the paper that does not hold in the figures' run (at the default), or "
             "at the fit where the fit heads the page, with the paper's number, ours (at the default) and why in a "
             f"phrase; the verdict at the fit stands beside it. Rendered from the verdict records "
             f"({_record_links(records, records_link)}) by "
             "`aisched pages`; do not edit by hand.", ""]
    for family, record in records.items():
        summary = record["summary"]
        c, d = summary["counts"], summary["default_counts"]
        lines += [f"## {family}", "",
                  f"[{family}'s page]({link[family]}). Headline regime: the {summary['regime']}, " + " / ".join(
                      f"{c[k]} {h}" for k, h in zip(VERDICTS, _HEADS)) + f" of {sum(c.values())} claims"
                  + ("" if summary["regime"] == "default" else
                     "; at the default: " + " / ".join(f"{d[k]} {h}" for k, h in zip(VERDICTS, _HEADS)))
                  + f"; hold after Holm: {summary['holm']}.", ""]
        fit = bool(record.get("fit_column"))
        heads_fit = summary["regime"] == "fit"
        rows = [r for r in record["claims"] if not r["verdict"].startswith("holds")
                or (heads_fit and r["at_fit"] not in ("holds", "not swept"))]
        if rows:
            lines += ["| claim | paper | ours | verdict | why |" + (" at the fit |" if fit else ""),
                      "|---|---|---|---|---|" + ("---|" if fit else "")]
            lines += [f"| [{r['figure']}]({link[family]}#{r['anchor']}): {r['claim']} | {r['paper']} | {r['ours']} | "
                      f"{r['verdict']} | {r['reason']} |" + (f" {r['at_fit']} |" if fit else "") for r in rows]
        else:
            lines.append("Every claim holds in the figures' run.")
        lines.append("")
    lines += ["## The runs' times", "",
              "| family | run | seeds | cells | wall (min) | load average (start, end) |", "|---|---|---|---|---|---|"]
    for family, record in records.items():
        for run in record["run"]["runs"]:
            load = (f"{run['load_start'][0]:.1f}, {run['load_end'][0]:.1f}"
                    if run.get("load_start") and run.get("load_end") else "not recorded")
            added = int(run.get("cells_total") or 0) - int(run.get("cells_already_done") or 0)
            lines.append(f"| {family} | `aisched reproduce {' '.join(run.get('families', []))}`, "
                         f"{str(run.get('finished', '?'))[:10]} | {run.get('seeds', 'default')} | {added} run, "
                         f"{int(run.get('cells_already_done') or 0)} kept | {run.get('wall_s', 0) / 60:.1f} | {load} |")
    return "\n".join(lines) + "\n"


def pages(records: Mapping[str, Mapping[str, Any]], index: str | os.PathLike[str],
          records_dir: str | os.PathLike[str]) -> dict[Path, str]:
    """Every page the records render to: one family's page at ``index`` (one record), else the index there
    and each family's page beside it (:func:`page_name`)."""
    index = Path(index)
    link = Path(os.path.relpath(records_dir, index.parent)).as_posix()
    if len(records) == 1:
        (record,) = records.values()
        return {index: family_page(record, link)}
    out = {index: index_page(records, index, link)}
    out.update({page_name(index, f): family_page(r, link) for f, r in records.items()})
    return out
