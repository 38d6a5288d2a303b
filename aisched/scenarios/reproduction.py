"""``docs/reproduction.md``: per paper figure, the claim, what we measured and whether it holds.

:func:`write` reads the sweeps under a results folder (an ``aisched
reproduce`` run) and writes one page a reader can trust: for every scenario
(paper figure) its size, seeds and wall time; for every claim of the paper the
measurement (mean over seeds; the table gives mean +- std per point), the verdict
("holds", "fails" or "not checked: <reason>"), and a link to the family's
readings in ``docs/readings.md``. Nothing is typed by hand: the page is
regenerated from the run (``aisched report DIR --reproduction docs/reproduction.md``).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from aisched.errors import InvalidScenarioError
from aisched.scenarios.report import check_claims, mean_table, summarise
from aisched.scenarios.scenario import METRICS
from aisched.scenarios.sweep import load_table

__all__ = ["write"]

_FAMILY_HEADINGS = {"lora": "lora", "spot": "spot", "genai": "genai", "tenants": "tenants"}


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _reading_links(readings: Path | None) -> dict[str, str]:
    """family -> anchor of its section in readings.md (``## <family> ...``)."""
    links: dict[str, str] = {}
    if readings is None or not readings.is_file():
        return links
    for line in readings.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            family = line[3:].split()[0]
            if family in _FAMILY_HEADINGS:
                links[family] = _slug(line[3:])
    return links


def _natural(path: Path) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.as_posix())]


def _size(definition: dict[str, Any]) -> str:
    base = ", ".join(f"{k}={v}" for k, v in definition.get("base", {}).items())
    return f"{definition['x']} in {definition['labels']}" + (f"; {base}" if base else "")


def write(directory: str | os.PathLike[str], path: str | os.PathLike[str] = "docs/reproduction.md", *,
          readings: str | os.PathLike[str] | None = "docs/readings.md") -> Path:
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

    Raises
    ------
    InvalidScenarioError
        ``directory`` holds no sweep.
    """
    top = Path(directory)
    roots = sorted((p.parent for p in top.glob("**/scenario.json")), key=_natural)
    if not roots:
        raise InvalidScenarioError("directory", f"{str(top)!r} holds no sweep (no scenario.json below it)")
    out = Path(path)
    readings_path = None if readings is None else Path(readings)
    links = _reading_links(readings_path)
    link_base = "" if readings_path is None else os.path.relpath(readings_path, out.parent)
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(top.glob("reproduce-*.json"))]
    counts = {"holds": 0, "fails": 0, "not checked": 0}
    body: list[str] = []
    for root in roots:
        definition = json.loads((root / "scenario.json").read_text(encoding="utf-8"))
        table = load_table(root)
        timing = json.loads((root / "sweep.json").read_text()) if (root / "sweep.json").is_file() else {}
        family = definition["family"]
        reading = (f"[readings: {family}]({link_base}#{links[family]})" if family in links
                   else f"readings: {family} (no section found)")
        seeds = int(table["seed"].nunique()) if not table.empty else 0
        body += [f"### {definition['name']}", "", definition.get("title", ""), "",
                 f"Size: {_size(definition)}; {seeds} seed(s), {len(table)} cells"
                 + (f", {timing['wall_s']:.0f} s wall ({timing.get('executor', '?')})" if timing else "")
                 + f". {reading}.", ""]
        checks = []
        if not table.empty:
            metric = definition["metric"]
            summary = summarise(table, metric)
            checks = check_claims(definition, summary)
            better = "higher" if METRICS[metric] else "lower"
            body += [f"`{metric}` ({better} is better), mean ± std over seeds:", "",
                     *mean_table(definition, summary)]
        if definition.get("claims"):
            if not checks:  # no finished cells: every claim is still listed
                body += [f"- {c['text']}: **not checked**: no finished cells" for c in definition["claims"]]
                counts["not checked"] += len(definition["claims"])
            for chk in checks:
                kind = {True: "holds", False: "fails", None: "not checked"}[chk.holds]
                counts[kind] += 1
                verdict = "**fails**" if chk.holds is False else chk.verdict
                measured = f" (measured: {chk.detail})" if chk.holds is not None else ""
                body.append(f"- {chk.claim.text}: {verdict}{measured}")
            body.append("")
    head = ["# Reproduction status", "",
            "Generated by `aisched report DIR --reproduction docs/reproduction.md` from the run under "
            f"`{top}`; do not edit by hand. Each claim is checked for its direction (not its size) "
            "against the mean over seeds of our generated instances, under the readings of "
            "`docs/readings.md`.", ""]
    for run in runs:
        machine = run.get("machine", {})
        seeds = f" --seeds {run['seeds']}" if run.get("seeds") else ""
        head += [f"- Run: `aisched reproduce {' '.join(run.get('families', []))}{seeds}`"
                 + (" --reduced" if run.get("reduced") else "")
                 + f", finished {run.get('finished', '?')}, {run.get('wall_s', 0) / 60:.1f} min wall on "
                 f"{machine.get('cpus', '?')} CPUs ({machine.get('platform', '?')}), executor "
                 f"{run.get('executor', '?')} with {run.get('workers', '?')} worker(s); "
                 f"{run.get('cells_total', '?')} cells ({run.get('cells_already_done', 0)} kept from an earlier run)."]
    if runs:
        head.append("")
    head += [f"Claims: {sum(counts.values())} in all: {counts['holds']} hold, {counts['fails']} fail, "
             f"{counts['not checked']} not checked.", ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(head + body) + "\n", encoding="utf-8")
    return out
