"""Mechanism diagnostics as Markdown: the table beside each figure's, and the family's own notes.

- :func:`diagnostics_lines`: per point the mean over seeds of each diagnostic for every algorithm
  of the scenario that has them (the proposed algorithm first), the idle points marked
  (:func:`aisched.experiments.verdicts.diagnostics.idle`);
- :func:`notes_lines`: the family's own lines after them (``FamilyHooks.notes``);
- :func:`invariant_lines`: a flagged line per proof invariant a run recorded below 0 (a ``*_slack``
  column: pdFTSP's Lemma 1, ComDOS's dual step; :mod:`aisched.theorems`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from aisched import families
from aisched.experiments.verdicts.diagnostics import idle

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["diagnostics_lines", "invariant_lines", "notes_lines"]


def diagnostics_lines(stored: StoredScenario, table: pd.DataFrame) -> list[str]:
    """Markdown: the mechanism diagnostics per point (mean over seeds), the idle points marked."""
    if stored.family not in families.names():
        return []
    family, hooks = families.record(stored.family), families.hooks(stored.family)
    shown = [d for d in hooks.diagnostics if d.column in table.columns and table[d.column].notna().any()]
    if not shown:
        return []
    algorithms = [a for a in stored.algorithms if a in set(table["algorithm"])]
    if family.proposed in algorithms:
        algorithms.remove(family.proposed)
        algorithms.insert(0, family.proposed)
    idle_at = idle(stored, table)
    header = f"| {stored.x} | algorithm | " + " | ".join(d.label for d in shown) + " |"
    lines = ["Mechanism diagnostics (mean over seeds; "
             + (f"**idle** marks a point where {family.proposed}'s mechanism never acted):" if family.proposed
                else "no proposed algorithm registered):"), "",
             header, "|---" * (len(shown) + 2) + "|"]
    xs = table["x"].astype(str)
    for x in stored.labels:
        for name in algorithms:
            rows = table[(xs == str(x)) & (table["algorithm"] == name)]
            if rows.empty:
                continue
            mark = " **idle**" if name == family.proposed and str(x) in idle_at else ""
            cells = [d.text(float(rows[d.column].astype(float).mean())) for d in shown]
            lines.append(f"| {x} | {name}{mark} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def notes_lines(stored: StoredScenario, table: pd.DataFrame) -> list[str]:
    """Markdown: the family's own lines about a figure (``FamilyHooks.notes``), empty when it has none."""
    if stored.family not in families.names() or table.empty:
        return []
    notes = families.hooks(stored.family).notes
    return list(notes(stored, table)) if notes is not None else []


def invariant_lines(table: pd.DataFrame) -> list[str]:
    """Markdown: a flagged line per algorithm and ``*_slack`` column (a proof invariant the run recorded,
    :mod:`aisched.theorems`) that is below 0 in some cell, naming how many cells, the least value and the
    seeds; empty where every recorded invariant holds."""
    lines = []
    for column in sorted(c for c in table.columns if str(c).endswith("_slack")):
        values = pd.to_numeric(table[column], errors="coerce")
        broken = table[values < -1e-9]
        for name, rows in broken.groupby("algorithm"):
            seeds = ", ".join(str(s) for s in sorted(set(rows["seed"].astype(int)))[:8])
            lines.append(f"- **proof invariant violated**: `{column}` of {name} is below 0 in {len(rows)} cell(s) "
                         f"(least {float(values[rows.index].min()):.4g}; seeds {seeds}); "
                         "`aisched theorems` traces it (docs/theorems.md)")
    return [*lines, ""] if lines else []
