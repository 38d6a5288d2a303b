"""``--seeds auto``: seeds added only where a claim is still undecided, at a level valid across the looks.

Three seeds everywhere is at once too many (where a claim is already decided) and too few (where
it is not). :func:`auto_seeds` runs a scenario at the first look (3 seeds), checks its claims at
the sequential level :func:`~aisched.experiments.verdicts.sequential.look_level` (98.75 %: alpha 0.05 spent
evenly over the fixed looks 3, 6, 12, 20, so a verdict stays valid whichever look it is read at),
and adds seeds to the next look only at the points of the claims still inconclusive, until each is
decided or ``max_seeds`` is reached. The extra seeds are ordinary cells of the scenario's folder
(resumable; a later ``--seeds 20`` reuses them). ``auto-seeds.json`` in the results root records,
per scenario, the looks taken and the seeds per point, and the scenario's own folder keeps a copy
of its entry (so a folder copied or linked into another results root keeps its level); the report
and the reproduction page read them and check that scenario's claims at the sequential level
(:func:`levels`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from aisched._files import atomic_write_text
from aisched.errors import InvalidScenarioError
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.spec.scenario import Scenario
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.verdicts.checks import check_claims, claim_points, summarise
from aisched.experiments.verdicts.sequential import LOOKS, look_level

__all__ = ["RECORD", "auto_seeds", "levels", "looks_upto"]

#: The record of the scenarios run with ``--seeds auto`` under a results root.
RECORD = "auto-seeds.json"


def looks_upto(max_seeds: int) -> tuple[int, ...]:
    """The looks taken with at most ``max_seeds`` seeds (the schedule itself stays :data:`LOOKS`)."""
    if isinstance(max_seeds, bool) or not isinstance(max_seeds, int) or max_seeds < LOOKS[0]:
        raise InvalidScenarioError("--max-seeds", f"= {max_seeds!r} must be an integer >= {LOOKS[0]}")
    return tuple(n for n in LOOKS if n <= max_seeds)


def _undecided_points(scenario: Scenario, out: str | os.PathLike[str]) -> tuple[list[int], int]:
    """The point indices of the claims still inconclusive at the sequential level, and how many claims."""
    root = sweeps.folder(out, scenario)
    stored = StoredScenario.read(root)
    table = sweeps.load_table(root)
    checks = check_claims(stored, summarise(table, stored.metric), table, level=look_level())
    open_claims = [c for c in checks if c.status == "inconclusive"]
    labels = list(stored.labels)
    points = {labels.index(x) for c in open_claims for x in claim_points(c.claim, labels) if x in labels}
    return sorted(points), len(open_claims)


def auto_seeds(scenario: Scenario, out: str | os.PathLike[str], *, max_seeds: int = 20, **sweep_options: Any
               ) -> dict[str, Any]:
    """Run ``scenario`` with seeds added at the looks where its claims are undecided (module docstring).

    Parameters
    ----------
    scenario
        What to run.
    out
        Results root (the scenario's folder under it; ``auto-seeds.json`` beside).
    max_seeds
        The most seeds any point gets (the looks up to it: 3, 6, 12, 20).
    **sweep_options
        Passed to each :func:`~aisched.experiments.run.sweep.sweep` (executor, workers, runner, progress, ...).

    Returns
    -------
    dict
        The scenario's entry of ``auto-seeds.json``: the looks taken, per look the points run and the
        claims still open, and the seeds per point at the end.
    """
    looks = looks_upto(max_seeds)
    sweep_options = {**sweep_options, "resume": True}
    sweeps.sweep(scenario, out, seeds=looks[0], **sweep_options)
    taken = [{"seeds": looks[0], "points": list(range(len(scenario.values)))}]
    open_points, open_claims = _undecided_points(scenario, out)
    taken[-1]["claims_open_after"] = open_claims
    for look in looks[1:]:
        if not open_points:
            break
        sweeps.sweep(scenario, out, seeds=look, points=open_points, **sweep_options)
        taken.append({"seeds": look, "points": open_points})
        open_points, open_claims = _undecided_points(scenario, out)
        taken[-1]["claims_open_after"] = open_claims
    table = sweeps.load_table(sweeps.folder(out, scenario))
    per_point = {str(x): int(n) for x, n in table.groupby("x")["seed"].nunique().items()}
    entry = {"looks": list(LOOKS), "max_seeds": max_seeds, "level": look_level(), "taken": taken,
             "seeds_per_point": per_point, "claims_open": open_claims}
    path = Path(out) / RECORD
    record = _read(path)
    record[scenario.name] = entry
    atomic_write_text(path, json.dumps(record, indent=1) + "\n")
    atomic_write_text(sweeps.folder(out, scenario) / RECORD, json.dumps({scenario.name: entry}, indent=1) + "\n")
    return entry


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidScenarioError("auto-seeds", f"{path} is not an auto-seeds record ({exc})") from None
    if not isinstance(data, dict):
        raise InvalidScenarioError("auto-seeds", f"{path} is not an auto-seeds record (not a table)")
    return data


def levels(top: str | os.PathLike[str]) -> dict[str, float]:
    """Per scenario name run with ``--seeds auto`` under ``top``: the level its claims are checked at.

    Read from the root's record and from each scenario folder's copy below ``top`` (a folder linked
    into another root keeps its level; where both exist, the folder's own copy wins).
    """
    top = Path(top)
    found = {name: entry for name, entry in _read(top / RECORD).items()}
    for path in sorted(top.glob(f"*/*/{RECORD}")):  # <root>/<family>/<scenario>/auto-seeds.json
        found.update(_read(path))
    return {name: float(entry.get("level", look_level())) for name, entry in found.items()}
