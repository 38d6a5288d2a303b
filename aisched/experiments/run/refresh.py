"""Recompute the family metrics of finished sweep cells from their stored outcomes.

A metric added to a family's ``cell_metrics`` after a sweep ran (the
revenue split, say) need not cost the sweep again: every cell of a ``compare``
scenario keeps its :class:`~aisched.outcome.Outcome` (``outcomes/<cell>.nc``),
and its instance is the generator's at the recorded ``(point, seed)``.
:func:`refresh_metrics` regenerates each instance, re-verifies the stored plan
on it (the objective must come out as recorded: a generator that changed
since the run is refused, naming the cell), recomputes the family and resource
metrics, rewrites the cell's row (timings, status and objective untouched) and
``table.csv``. ``aisched report DIR --refresh-metrics`` runs it before the report.

Cells without a stored outcome (``--no-outcomes``), cells without a plan
(an offline solve with no incumbent) and ``selection`` scenarios are left as
they are and counted.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aisched import families
from aisched._files import atomic_write_text
from aisched.errors import AischedError, InvalidScenarioError
from aisched.experiments.store.stored import StoredScenario

__all__ = ["Refreshed", "refresh_metrics"]


@dataclass(frozen=True)
class Refreshed:
    """What :func:`refresh_metrics` did: cells rewritten, cells left as they were, folders."""

    cells: int
    kept: int
    folders: int


def _generator_params(stored: StoredScenario, point: int) -> dict[str, Any]:
    base = dict(stored.base)
    if stored.x_target == "algorithms":
        return base
    return {**base, stored.x: stored.values[point]}


def refresh_metrics(top: str | os.PathLike[str]) -> Refreshed:
    """Recompute ``cell_metrics`` and resource metrics of every finished cell under ``top``.

    Raises
    ------
    InvalidScenarioError
        ``top`` holds no sweep.
    AischedError
        A stored plan does not verify on its regenerated instance (the
        generator or the data changed since the sweep ran); nothing of that
        folder's later cells is rewritten.
    """
    from aisched.experiments.run.sweep import _plain, load_table
    from aisched.outcome import Outcome

    top = Path(top)
    roots = sorted(p.parent for p in top.glob("**/scenario.json"))
    if not roots:
        raise InvalidScenarioError("directory", f"{str(top)!r} holds no sweep (no scenario.json below it)")
    done = kept = 0
    for root in roots:
        stored = StoredScenario.read(root)
        family = stored.family
        if stored.kind != "compare" or family not in families.names():
            kept += len(list((root / "cells").glob("*.json")))
            continue
        hooks = families.hooks(family)
        instances: dict[tuple[int, int], Any] = {}
        for path in sorted((root / "cells").glob("*.json")):
            row = json.loads(path.read_text(encoding="utf-8"))
            saved = root / "outcomes" / f"{path.stem}.nc"
            objective = row.get("objective")
            if not saved.is_file() or objective is None or not math.isfinite(float(objective)):
                kept += 1
                continue
            key = (int(row["point"]), int(row["seed"]))
            if key not in instances:
                instances.clear()  # cells run point by point: one instance at a time
                instances[key] = hooks.generate(seed=key[1], **_generator_params(stored, key[0]))
            instance = instances[key]
            outcome = Outcome.from_netcdf(saved)
            try:
                outcome.verify(instance)
            except AischedError as exc:
                raise AischedError(
                    f"{path}: the stored plan does not verify on the instance regenerated from "
                    f"{root / 'scenario.json'} (point {key[0]}, seed {key[1]}): {exc}; the generator or its "
                    "data changed since the sweep ran, so rerun it instead") from None
            if hooks.metrics is not None:
                row.update({k: _plain(v) for k, v in hooks.metrics(instance, outcome).items()})
            atomic_write_text(path, json.dumps(row, default=_plain))
            done += 1
        atomic_write_text(root / "table.csv", load_table(root).to_csv(index=False))
    return Refreshed(cells=done, kept=kept, folders=len(roots))
