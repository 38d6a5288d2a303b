"""A search for the instances that come closest to breaking each guarantee.

:func:`search` runs a family's checks (a :class:`Suite`) on

1. the paper's scenarios at reduced size (the catalogue's ``reduced()`` points, seed 0),
2. random small instances (half the budget), then
3. local moves (the other half): hill-climbing on each theorem's worst instance so
   far -- a move (a changed field of the instance) is kept when it lowers that
   theorem's margin -- taking the theorems in turn.

Per theorem it keeps the instances tried, how many were checkable, how many broke
a premise (those say nothing about the theorem and are not candidates for the worst
case), the smallest margin among the instances whose premises hold, and that
instance (saved as netCDF, re-runnable with ``aisched theorems FAMILY --instance FILE``).
The records go to ``theorems.json``.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from aisched.errors import AischedError, InvalidScenarioError
from aisched.theorems.core import TheoremCheck

__all__ = ["Suite", "Worst", "search", "paper_instances", "summary_verdict", "RECORD"]

#: The record file written in ``--out``.
RECORD = "theorems.json"


@dataclass(frozen=True)
class Suite:
    """What the search needs of a family.

    Attributes
    ----------
    family
        The family's name.
    checks
        ``checks(instance, **options) -> list[TheoremCheck]``: every guarantee on one instance.
    random_instance
        ``random_instance(rng) -> instance``: a random small instance.
    mutate
        ``mutate(instance, rng) -> instance``: one local move (may raise an
        :class:`~aisched.errors.AischedError` for a move that makes no valid instance).
    load
        ``load(path) -> instance``: read a saved instance (``instance.to_dataset().to_netcdf``).
    paper
        ``paper() -> [(label, instance)]``: the paper's scenarios at reduced size
        (default: :func:`paper_instances` of the family).
    cases
        ``cases() -> [(label, instance)]``: hand-made instances (the tests' counterexamples), run
        after the paper's; recorded as ``case:<label>``.
    """

    family: str
    checks: Callable[..., list[TheoremCheck]]
    random_instance: Callable[[np.random.Generator], Any]
    mutate: Callable[[Any, np.random.Generator], Any]
    load: Callable[[Path], Any]
    paper: Callable[[], list[tuple[str, Any]]] | None = None
    cases: Callable[[], list[tuple[str, Any]]] | None = None


@dataclass
class Worst:
    """One theorem's tally over the search."""

    theorem: str
    statement: str = ""
    tried: int = 0
    checkable: int = 0
    premise_fails: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    margin: float = math.inf
    check: TheoremCheck | None = None
    instance: Any = None
    source: str = ""
    paper_margins: list[tuple[str, float, str]] = field(default_factory=list)
    #: the worst small instance (random or moved), where the local moves start (paper ones are too big)
    start_margin: float = math.inf
    start: Any = None

    def add(self, found: TheoremCheck, instance: Any, source: str) -> bool:
        """Count ``found``; True when it is the new worst case (premises holding, smaller margin)."""
        self.tried += 1
        self.statement = found.statement
        self.verdicts[found.verdict] = self.verdicts.get(found.verdict, 0) + 1
        if found.verdict == "not checkable":
            return False
        self.checkable += 1
        if not found.premises_hold:
            self.premise_fails += 1
            return False
        if not source.startswith(("paper:", "case:")) and found.margin < self.start_margin:
            self.start_margin, self.start = found.margin, (instance, source)
        if self.check is None or found.margin < self.margin:
            self.margin, self.check, self.instance, self.source = found.margin, found, instance, source
            return True
        return False


def summary_verdict(worst: Worst) -> str:
    """``violated``, ``inconclusive``, ``holds on all tried`` or ``not checkable`` (with why)."""
    if worst.verdicts.get("violated"):
        return "violated"
    if worst.verdicts.get("inconclusive"):
        return "inconclusive (bound only)"
    if worst.verdicts.get("holds"):
        return "holds on all tried"
    if worst.verdicts.get("premise fails"):
        return "not checkable here (a premise fails on every instance tried)"
    return "not checkable here"


def paper_instances(family: str, seed: int = 0) -> list[tuple[str, Any]]:
    """The family's paper scenarios at reduced size: one instance per reduced point (seed ``seed``)."""
    from aisched import families
    from aisched.experiments.spec import catalog

    generate = families.hooks(family).generate
    found = []
    for name in catalog.paper_scenario_names():
        scenario = catalog.get(name)
        if scenario.family != family:
            continue
        reduced = scenario.reduced()
        for point in range(len(reduced.values)):
            try:
                found.append((f"{name}@{reduced.labels[point]}", generate(seed=seed, **reduced.point_params(point))))
            except (AischedError, OSError, TypeError) as exc:  # a trace not at hand, a workload knob: skip, say so
                found.append((f"{name}@{reduced.labels[point]} (not generated: {exc})", None))
    return found


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def search(suite: Suite, *, budget: int = 20, seed: int = 0, out: Path | None = None, paper: bool = True,
           options: dict[str, Any] | None = None, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the checks on the paper's scenarios, ``budget`` random / locally moved instances, and save the worst.

    Parameters
    ----------
    suite
        The family's :class:`Suite`.
    budget
        Instances beyond the paper's: half random, half local moves.
    seed
        Seed of the random instances and moves.
    out
        Folder for ``theorems.json`` and the worst instances (nothing written when None).
    paper
        Also run the paper's scenarios at reduced size.
    options
        Passed to ``suite.checks`` (e.g. the algorithm's readings).

    Returns
    -------
    dict
        The record written to ``theorems.json``.
    """
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise InvalidScenarioError("budget", f"= {budget!r} must be an integer >= 0")
    options = dict(options or {})
    rng = np.random.default_rng(seed)
    tally: dict[str, Worst] = {}
    paper_rows: list[dict[str, Any]] = []
    started = time.perf_counter()

    def evaluate(instance: Any, source: str) -> list[str]:
        try:
            found = suite.checks(instance, **options)
        except AischedError as exc:
            log(f"  {source}: skipped ({exc})")
            return []
        improved = []
        for c in found:
            worst = tally.setdefault(c.theorem, Worst(c.theorem))
            if worst.add(c, instance, source):
                improved.append(c.theorem)
            if source.startswith("paper:"):
                worst.paper_margins.append((source[6:], c.margin, c.verdict))
                paper_rows.append({"instance": source[6:], **c.record()})
        return improved

    if paper:
        for label, instance in (suite.paper or (lambda: paper_instances(suite.family)))():
            if instance is None:
                log(f"  paper {label}")
                continue
            evaluate(instance, f"paper:{label}")
    for label, instance in (suite.cases or list)():
        evaluate(instance, f"case:{label}")
    n_random = budget - budget // 2
    for j in range(n_random):
        evaluate(suite.random_instance(rng), f"random #{j}")
    order = sorted(tally)
    for j in range(budget - n_random):
        candidates = [t for t in order if tally[t].start is not None]
        if not candidates:
            evaluate(suite.random_instance(rng), f"random #{n_random + j}")
            continue
        theorem = candidates[j % len(candidates)]
        instance, source = tally[theorem].start
        try:
            moved = suite.mutate(instance, rng)
        except AischedError:
            continue
        evaluate(moved, f"local #{j} (from {source.split(' (from')[0]}, aiming at {theorem})")
    record = _record(suite.family, tally, paper_rows, budget=budget, seed=seed, options=options,
                     seconds=time.perf_counter() - started, out=out)
    return record


def _record(family: str, tally: dict[str, Worst], paper_rows: list[dict[str, Any]], *, budget: int, seed: int,
            options: dict[str, Any], seconds: float, out: Path | None) -> dict[str, Any]:
    rows = []
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    for theorem in sorted(tally):
        worst = tally[theorem]
        path = None
        if out is not None and worst.instance is not None and hasattr(worst.instance, "to_dataset"):
            path = f"{family}-{_slug(theorem)}-worst.nc"
            worst.instance.to_dataset().to_netcdf(out / path)
        rows.append({
            "theorem": theorem, "statement": worst.statement, "tried": worst.tried, "checkable": worst.checkable,
            "premise_fails": worst.premise_fails, "verdicts": dict(worst.verdicts),
            "smallest_margin": worst.margin if math.isfinite(worst.margin) else None,
            "unit": worst.check.unit if worst.check else "", "worst_source": worst.source, "worst_instance": path,
            "worst": worst.check.record() if worst.check else None, "verdict": summary_verdict(worst),
        })
    record = {"family": family, "budget": budget, "seed": seed, "options": options, "seconds": round(seconds, 1),
              "theorems": rows, "paper": paper_rows}
    if out is not None:
        (out / RECORD).write_text(json.dumps(_jsonable(record), indent=1) + "\n", encoding="utf-8")
    return record


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return _jsonable(value.item())
    return value


def lines(record: dict[str, Any]) -> list[str]:
    """One line per theorem: instances tried, the smallest margin, the instance that gave it, the verdict."""
    out = []
    for row in record["theorems"]:
        margin = "n/a" if row["smallest_margin"] is None else f"{row['smallest_margin']:.4g} {row['unit']}"
        where = f"{row['worst_source']} -> {row['worst_instance']}" if row["worst_instance"] else row["worst_source"]
        premise = f", {row['premise_fails']} broke a premise" if row["premise_fails"] else ""
        out.append(f"{record['family']} {row['theorem']}: {row['verdict']}; {row['tried']} tried "
                   f"({row['checkable']} checkable{premise}); smallest margin {margin}"
                   + (f" at {where}" if where else ""))
        if row["verdict"] == "violated" and row["worst"]:
            out.append(f"    counterexample: {row['worst']['detail']}")
    return out
