"""Mechanism diagnostics in the report: did the paper's mechanism act at each point?

A claim is a statement about a regime: pdFTSP's prices matter where capacity
binds, ComDOS's where memory is scarce, Astraea's where jobs share other
tenants' resources and pay, AHAP's where spot GPUs are used. Each family
registers the cell columns that say so (:class:`aisched.families.Diagnostic`)
and its proposed algorithm; every sweep cell records them. This module turns
them into verdicts (their Markdown is :mod:`aisched.experiments.pages.diagnostics`):

- :func:`idle`, :func:`idle_points`: the points where the proposed algorithm's mechanism never acted;
- :func:`aisched.experiments.verdicts.checks.mark_idle`: a claim about the proposed algorithm whose points include an
  idle one gets the mark in its verdict ("mechanism idle at 50: ..."), so a
  verdict there reads as what it is. The mark never changes the verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from aisched import families
from aisched.families import Diagnostic

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["idle", "idle_points"]


def idle(stored: StoredScenario, table: pd.DataFrame) -> dict[str, str]:
    """x label -> reason, for the points where the family's proposed algorithm's mechanism was idle."""
    if stored.family not in families.names():  # a family this installation lacks: no diagnostics
        return {}
    proposed = families.record(stored.family).proposed
    if proposed not in stored.algorithms:
        return {}
    return idle_points(proposed, families.hooks(stored.family).diagnostics, table)


def idle_points(algorithm: str, diagnostics: tuple[Diagnostic, ...], table: pd.DataFrame) -> dict[str, str]:
    """Points (x labels) where ``algorithm``'s mechanism was idle, each with the deciding values.

    A point is idle when every cell of ``algorithm`` there has each deciding diagnostic
    (``acts_above`` set) at or below its value (:class:`~aisched.families.Diagnostic`); a point
    whose cells lack every deciding column is not judged (absent from the result).
    """
    deciding = [d for d in diagnostics if d.acts_above is not None and d.column in table.columns]
    if not algorithm or not deciding or "algorithm" not in table.columns:
        return {}
    rows = table[table["algorithm"] == algorithm]
    out: dict[str, str] = {}
    for x, at in rows.groupby(rows["x"].astype(str), sort=False):
        values = {d: at[d.column].astype(float) for d in deciding}
        if all(v.isna().all() for v in values.values()):
            continue
        if all(bool((v.fillna(-float("inf")) <= float(d.acts_above)).all()) for d, v in values.items()):
            parts = [f"{d.label} {d.text(float(v.max()))}" for d, v in values.items()]
            out[str(x)] = ", ".join(parts) + f" (largest over {len(at)} seed(s))"
    return out
