"""Mechanism diagnostics in the report: did the paper's mechanism act at each point? (issue 25, point 3)

A claim is a statement about a regime: pdFTSP's prices matter where capacity
binds, ComDOS's where memory is scarce, Astraea's where jobs share other
tenants' resources and pay, AHAP's where spot GPUs are used. Each family
registers the cell columns that say so (:class:`aisched.experiments.families.Diagnostic`)
and its proposed algorithm; every sweep cell records them. This module turns
them into the report's lines:

- :func:`diagnostics_lines`: a table beside each figure's, per point the mean over
  seeds of each diagnostic for every algorithm of the scenario that has them (the
  proposed algorithm first), and which points were idle;
- :func:`notes_lines`: the family's own lines after them (``Family.notes``);
- :func:`aisched.experiments.checks.mark_idle`: a claim about the proposed algorithm whose points include an
  idle one gets the mark in its verdict ("mechanism idle at 50: ..."), so a
  verdict there reads as what it is. The mark never changes the verdict.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from aisched.experiments import families

__all__ = ["diagnostics_lines", "idle", "notes_lines"]


def idle(definition: dict[str, Any], table: pd.DataFrame) -> dict[str, str]:
    """x label -> reason, for the points where the family's proposed algorithm's mechanism was idle."""
    if definition.get("family") not in families.names():  # a hand-made definition: no family, no diagnostics
        return {}
    family = families.get(definition["family"])
    if family.proposed not in definition.get("algorithms", []):
        return {}
    return families.idle_points(family, table)


def diagnostics_lines(definition: dict[str, Any], table: pd.DataFrame) -> list[str]:
    """Markdown: the mechanism diagnostics per point (mean over seeds), the idle points marked."""
    if definition.get("family") not in families.names():
        return []
    family = families.get(definition["family"])
    shown = [d for d in family.diagnostics if d.column in table.columns and table[d.column].notna().any()]
    if not shown:
        return []
    algorithms = [a for a in definition.get("algorithms", []) if a in set(table["algorithm"])]
    if family.proposed in algorithms:
        algorithms.remove(family.proposed)
        algorithms.insert(0, family.proposed)
    idle_at = idle(definition, table)
    header = f"| {definition['x']} | algorithm | " + " | ".join(d.label for d in shown) + " |"
    lines = ["Mechanism diagnostics (mean over seeds; "
             + (f"**idle** marks a point where {family.proposed}'s mechanism never acted):" if family.proposed
                else "no proposed algorithm registered):"), "",
             header, "|---" * (len(shown) + 2) + "|"]
    xs = table["x"].astype(str)
    for x in definition.get("labels", list(dict.fromkeys(xs))):
        for name in algorithms:
            rows = table[(xs == str(x)) & (table["algorithm"] == name)]
            if rows.empty:
                continue
            mark = " **idle**" if name == family.proposed and str(x) in idle_at else ""
            cells = [d.text(float(rows[d.column].astype(float).mean())) for d in shown]
            lines.append(f"| {x} | {name}{mark} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def notes_lines(definition: dict[str, Any], table: pd.DataFrame) -> list[str]:
    """Markdown: the family's own lines about a figure (``Family.notes``), empty when it has none."""
    if definition.get("family") not in families.names() or table.empty:
        return []
    notes = families.get(definition["family"]).notes
    return list(notes(definition, table)) if notes is not None else []
