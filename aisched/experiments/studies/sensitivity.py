"""Every claim's verdict across the silent range: the default, the fit, each silent value in turn.

Calibration (:mod:`aisched.experiments.studies.calibrate`) fits a family's silent parameters to the
relations its paper reports among its baselines. This module asks the other question: does a
claim's verdict depend on those values at all? :func:`sensitivity` reruns each scenario of the
family that has claims (the default kind, ``"compare"``) at

- the **default** (the scenario as it is),
- the **fit** (``calibration.json`` under the same folder, where present and different), and
- every value of each silent parameter's grid **one at a time**, the others at their default
  (a one-at-a-time design: it shows where a single unstated value turns a verdict; it does not
  search the corners, which the fit stands in for),

and checks every claim with the report's own rules (:func:`~aisched.experiments.verdicts.checks.check_claims`:
paired intervals, headroom, the same verdict words). A parameter is varied in a scenario only
where it means something (:attr:`~aisched.families.SilentParameter.scope`, an algorithm
parameter only where that algorithm runs) and is not the figure's own x axis. The runs are
ordinary resumable sweeps in ``out/<family>/silent-*`` (left off the report's figures like the
calibration's) without the scenario's variants, at the reduced sizes by default (``full=True``:
the paper's). ``points="claims"`` runs each scenario only at the x values its claims are made at
(:func:`at_claim_points`): a claim "at 50 nodes" needs the 50-node point, not the figure's whole
axis, and a reduced form never has most of those points; a claim without a point (a trend, "the
best") is left to a run at every point. The paper's sizes at the claims' points cost a fraction of
a full reproduction per setting.

Each run mode keeps its own record (:func:`record_name`: ``sensitivity.json`` for the reduced
sizes at every point, ``sensitivity-full-at-claims.json`` and the like for the others) and its own
sweep folders, so a reduced sweep and one at the paper's sizes live side by side in one results
root; the page reads them all and, per claim, shows the largest size that checked it.

Each claim gets a **sensitivity verdict** (:func:`sensitivity_text`): "holds wherever the text
allows" when every setting gives the same verdict, else the default's verdict and, per parameter,
where it turns ("fails where value <= 110"). ``sensitivity.json`` keeps every verdict; the
reproduction page shows the fit's verdict and the sensitivity beside the default's
(:func:`aisched.experiments.pages.sensitivity.page_entries` and
:func:`~aisched.experiments.pages.sensitivity.summary_lines` read the records).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from aisched import families
from aisched._files import atomic_write_text
from aisched.errors import InvalidScenarioError
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.spec.scenario import Scenario
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.studies.calibrate import (
    SENSITIVITY_PREFIX,
    Setting,
    parameter_key,
    read_record,
    reading_label,
    result_path,
    settings,
)
from aisched.experiments.studies.reading import check_reading, generator_reading, reading_options
from aisched.experiments.verdicts.checks import check_claims, summarise
from aisched.families import Family, SilentParameter

__all__ = ["POINTS", "SENSITIVITY_PREFIX", "at_claim_points", "category", "check_sensitivity_reading", "design",
           "record_name", "sensitivity", "sensitivity_text"]

#: Where a scenario is run: ``"all"`` its every x value, ``"claims"`` only those its claims are made at.
POINTS = ("all", "claims")

#: A verdict word per status, as the sensitivity sentence says it.
_WORDS = {"holds": "holds", "fails": "fails", "inconclusive": "inconclusive", "untestable": "untestable",
          "not checked": "not checked"}


def design(record: Family, fit: Setting | None = None) -> list[tuple[str, Setting]]:
    """The settings run: ``("default", ...)``, ``("fit", ...)`` where it differs, then one value at a time.

    Labels are ``"default"``, ``"fit"`` and ``"<key>=<value>"`` (:func:`~aisched.experiments.studies.calibrate.parameter_key`).
    """
    default = settings(record)[0]
    out: list[tuple[str, Setting]] = [("default", default)]
    if fit is not None and fit != default:
        out.append(("fit", {**default, **fit}))
    for p in record.silent_parameters:
        key = parameter_key(p)
        for value in p.values:
            if value != default[key]:
                out.append((f"{key}={_value(value)}", {**default, key: value}))
    return out


def _value(value: Any) -> str:
    return "own" if value is None else f"{value:g}"


def _varied(parameter: SilentParameter, scenario: Scenario) -> str | None:
    """Why ``parameter`` is not varied in ``scenario`` (None: it is)."""
    if parameter.algorithm is not None:
        if parameter.algorithm not in scenario.algorithms:
            return f"{parameter.algorithm} does not run here"
        return "the figure's x axis" if scenario.x_target == "algorithms" and scenario.x == parameter.name else None
    if scenario.x_target == "generator" and scenario.x == parameter.name:
        return "the figure's x axis"
    for key, wanted in parameter.scope.items():
        here = scenario.values if scenario.x_target == "generator" and scenario.x == key else (scenario.base.get(key),)
        if any(v != wanted for v in here):
            return f"means nothing where {key} is not {wanted!r}"
    return None


def record_name(full: bool = False, points: str = "all", reading: Mapping[str, Any] | None = None,
                regimes: bool = False) -> str:
    """The record's file name in ``out/<family>/`` for a run mode: ``sensitivity.json`` (reduced, every
    point), ``sensitivity-full.json``, ``sensitivity-at-claims.json``, ``sensitivity-full-at-claims.json``;
    ``-regimes`` for a run of the default and the fit only (the page's two regimes, like with like); under a
    ``reading`` its label last (``sensitivity-full-at-claims-gpus=4.json``)."""
    return (f"sensitivity{_mode(full, points)}{'-regimes' if regimes else ''}"
            f"{'-' + reading_label(reading) if reading else ''}.json")


def _mode(full: bool, points: str) -> str:
    """The suffix of a run mode's record and folders (empty for the reduced sizes at every point)."""
    return ("-full" if full else "") + ("-at-claims" if points == "claims" else "")


def at_claim_points(scenario: Scenario) -> Scenario | None:
    """``scenario`` cut to the x values its claims are made at, with those claims only (None: no such claim).

    A claim keeps its place where each point it names (:attr:`~aisched.experiments.spec.scenario.Claim.point`,
    and ``other_point`` for a comparison of two points) is one of the scenario's x values; a claim
    without a point (a trend over the axis, "the best at every point") or at a point the scenario
    does not have is left out, for a run at every point to check.
    """
    labels = scenario.labels
    kept = tuple(c for c in scenario.claims if c.point is not None
                 and all(str(p) in labels for p in (c.point, c.other_point) if p is not None))
    if not kept:
        return None
    wanted = {str(p) for c in kept for p in (c.point, c.other_point) if p is not None}
    values = tuple(v for v in scenario.values if str(v) in wanted)
    return dataclasses.replace(scenario, values=values, claims=kept)


def _with_reading(scenario: Scenario, reading: Mapping[str, Any]) -> Scenario:
    """``scenario`` with the ``reading``'s options given to every algorithm it runs, and to its offline
    solve where it has one (the certified bound keeps the program as printed: a valid upper bound under
    a reading that only restricts, such as genai's ``gpus``; a looser reference, never a wrong one)."""
    if not reading:
        return scenario
    params = {a: dict(p) for a, p in scenario.params.items()}
    for name in (*scenario.algorithms, *(("offline",) if scenario.offline else ())):
        options = reading_options(reading, name)
        if options:
            params.setdefault(name, {}).update(options)
    return dataclasses.replace(scenario, params=params, base={**scenario.base, **generator_reading(reading)})


def _check_offline_reading(family: str, reading: Mapping[str, Any]) -> None:
    """Refuse a reading option the family's offline solve does not take (``reading[name]``)."""
    from aisched.experiments.spec.validation import offline_options

    accepted = offline_options(family)
    for name in (key for key in reading if "." not in key):  # ALGO.NAME is one online algorithm's
        if name not in accepted:
            raise InvalidScenarioError(f"reading[{name!r}]", f"is not an option of {family!r}'s offline solve, "
                                       "which a scenario of the family runs")


def _scenarios(family: str, full: bool, names: Sequence[str] | None, points: str,
               reading: Mapping[str, Any]) -> list[Scenario]:
    """The scenarios :func:`sensitivity` runs; a ``reading`` checked against them first."""
    from aisched.experiments.run.reproduce import plan

    scenarios = [s for s in plan([family], reduced=not full, names=names) if s.claims and s.kind == "compare"]
    if points == "claims":
        scenarios = [cut for s in scenarios if (cut := at_claim_points(s)) is not None]
    if reading:  # before any work: every algorithm that runs takes the option, in its range
        check_reading(family, tuple(dict.fromkeys(a for s in scenarios for a in s.algorithms)), reading,
                      families.record(family).silent_parameters,
                      [{**s.base, s.x: s.values[0]} if s.x_target == "generator" else dict(s.base) for s in scenarios])
        if any(s.offline for s in scenarios):
            _check_offline_reading(family, reading)
    return scenarios


def check_sensitivity_reading(family: str, reading: Mapping[str, Any], *, full: bool = False,
                              names: Sequence[str] | None = None, points: str = "all") -> None:
    """Refuse, before any work (or folder), a ``reading`` that some algorithm :func:`sensitivity` would run
    does not take, takes with another range, or that is a silent parameter too (``reading[name]``)."""
    _scenarios(family, full, names, points, reading)


def _derive(scenario: Scenario, record: Family, setting: Setting, seeds: int,
            mode: str = "", reading: Mapping[str, Any] | None = None) -> tuple[Scenario, str]:
    """``scenario`` at ``setting`` (only the parameters varied here), and a key of what changed.

    ``mode``: the run mode's suffix (:func:`_mode`), part of the folder's name, so the reduced and the
    paper's sizes, or every point and the claims' points, never share a folder. ``reading``: options
    every algorithm runs with (:func:`_with_reading`), in the folder's digest (never the key's text, which
    names the silent values only)."""
    scenario = _with_reading(scenario, reading or {})
    base, params = dict(scenario.base), {a: dict(p) for a, p in scenario.params.items()}
    changed = []
    for p in record.silent_parameters:
        value = setting[parameter_key(p)]
        if _varied(p, scenario) is not None or value == p.default:
            continue
        changed.append(f"{parameter_key(p)}={_value(value)}")
        target = base if p.algorithm is None else params.setdefault(p.algorithm, {})
        if value is None:
            target.pop(p.name, None)
        else:
            target[p.name] = int(value) if p.algorithm is not None and float(value).is_integer() else value
    key = ",".join(changed) or "default"
    short = scenario.name.split("/", 1)[1]
    digest = hashlib.sha1((key + (f"|{reading_label(reading)}" if reading else "")).encode()).hexdigest()[:8]
    under = f"; under {reading_label(reading)}" if reading else ""
    derived = dataclasses.replace(
        scenario, name=f"{record.name}/{SENSITIVITY_PREFIX}{short}{mode}-{digest}", base=base, params=params,
        variants={}, figures=(), seeds=seeds, title=f"{scenario.title} [silent parameters: {key}{under}]")
    return derived, key


def sensitivity(family: Family | str, out: str | os.PathLike[str], *, seeds: int = 3, full: bool = False,
                names: Sequence[str] | None = None, executor: str = "process", workers: int | None = None,
                progress: bool = False, points: str = "all",
                reading: Mapping[str, Any] | None = None, regimes: bool = False) -> dict[str, Any]:
    """Check every claim of ``family`` at each setting of :func:`design`; write its record (:func:`record_name`).

    Parameters
    ----------
    family
        A registered family (its :class:`~aisched.core.family.Family` object or its name) with silent parameters.
    out
        Results root: sweeps in ``out/<family>/silent-*`` (resumed when there); the fit is read from
        ``out/<family>/calibration.json`` when present; the result goes to ``out/<family>/sensitivity.json``
        (another run mode: :func:`record_name`).
    seeds
        Seeds per setting.
    full
        The scenarios at the paper's sizes (default: their reduced forms).
    names
        Only these scenarios (default: every scenario of the family with claims).
    executor, workers, progress
        As for :func:`~aisched.experiments.run.sweep.sweep`.
    points
        ``"all"``: every x value of each scenario; ``"claims"``: only the x values its claims are made
        at (:func:`at_claim_points`; a scenario with no such claim is not run).
    reading
        Options every algorithm of every scenario (and its offline solve) runs with, held fixed at every
        setting, e.g. ``{"gpus": 4}`` (genai: an edge's 4 GPUs, docs/readings/genai.md A2c). The fit is then
        read from the calibration under the same reading (``calibration-gpus=4.json``:
        :func:`~aisched.experiments.studies.calibrate.result_path`), the sweeps get their own folders and the
        record its own name (``sensitivity-gpus=4.json``), which the page shows beside, never instead of,
        the record without a reading. The certified bound stays the printed program's.
    regimes
        Only the default and the fit (the page's two regimes; the headline rule picks one), at the same
        sizes and seeds, into their own record (``sensitivity-full-regimes.json``); the sweeps are the
        other modes' (a run at the same sizes shares their cells).

    Returns
    -------
    dict
        The record written: per scenario, per claim, the verdict at every setting and the sensitivity text.

    Raises
    ------
    InvalidScenarioError
        The family declares no silent parameter, ``seeds`` < 1, ``points`` not in :data:`POINTS`, a
        corrupt ``calibration.json``, or a ``reading`` option an algorithm (or the offline solve) does
        not take, out of its range, or a silent parameter too (``reading[name]``).
    """
    record = families.resolve(family)
    family = record.name
    if not record.silent_parameters:
        raise InvalidScenarioError("family", f"{family!r} declares no silent parameters")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise InvalidScenarioError("seeds", f"= {seeds!r} must be an integer >= 1")
    if points not in POINTS:
        raise InvalidScenarioError("points", f"= {points!r} must be one of {', '.join(POINTS)}")
    reading = dict(reading or {})
    scenarios = _scenarios(family, full, names, points, reading)
    calibration = read_record(result_path(out, family, reading))
    fit = None if calibration is None else calibration["fit"]
    runs = design(record, fit)
    if regimes:
        runs = [(label, setting) for label, setting in runs if label in ("default", "fit")]
    mode = _mode(full, points)
    started = time.perf_counter()
    result: dict[str, Any] = {"family": family, "seeds": seeds, "full": full, "points": points, "fit": fit,
                              "regimes": regimes,
                              "reading": reading or None, "calibration": calibration_identity(
                                  result_path(out, family, reading), calibration),
                              "design": [{"label": label, "setting": s} for label, s in runs], "scenarios": {}}
    runner = sweeps.open_runner(executor, workers)
    try:
        for scenario in scenarios:
            skipped = {parameter_key(p): why for p in record.silent_parameters
                       if (why := _varied(p, scenario)) is not None}
            verdicts: dict[str, dict[str, Any]] = {c.text: {} for c in scenario.claims}
            done: dict[str, dict[str, tuple[str, float]]] = {}  # what changed -> claim -> (status, measured)
            for label, setting in runs:
                derived, key = _derive(scenario, record, setting, seeds, mode, reading)
                if key not in done:
                    table = sweeps.sweep(derived, out, seeds=seeds, resume=True, runner=runner, progress=progress,
                                         outcomes=False)
                    stored = StoredScenario.read(sweeps.folder(out, derived))
                    checks = check_claims(stored, summarise(table, stored.metric), table)
                    done[key] = {c.claim.text: (c.status, _finite(c.measured)) for c in checks}
                for text, (status, measured) in done[key].items():
                    verdicts[text][label] = {"status": status, "measured": measured, "ran": key}
            result["scenarios"][scenario.name] = {
                "skipped": skipped,
                "claims": [{"text": text, "verdicts": by, "sensitivity": sensitivity_text(by, runs, skipped),
                            "category": category(by)} for text, by in verdicts.items()]}
    finally:
        runner.shutdown()
    result["wall_s"] = round(time.perf_counter() - started, 1)
    path = Path(out) / family / record_name(full, points, reading, regimes)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(result, indent=1, default=str) + "\n")
    return result


def _finite(value: Any) -> float | None:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return value if value == value and abs(value) != float("inf") else None


def calibration_identity(path: Path, calibration: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What a sensitivity record keeps of the calibration whose fit it ran: the file, the fit, the grid and
    when and where it was made (the page refuses a sensitivity record whose calibration is not the one it
    shows). None: the family was not calibrated under the folder."""
    if calibration is None:
        return None
    made = calibration.get("provenance") or {}
    return {"file": path.name, "fit": calibration["fit"], "grid": made.get("grid"), "date": made.get("date"),
            "commit": made.get("commit")}


def category(verdicts: Mapping[str, Mapping[str, Any]]) -> str:
    """``"holds everywhere"`` (and the like) when every setting agrees, else ``"depends"``."""
    statuses = {v["status"] for v in verdicts.values()}
    return f"{next(iter(statuses))} everywhere" if len(statuses) == 1 else "depends"


def sensitivity_text(verdicts: Mapping[str, Mapping[str, Any]], runs: Sequence[tuple[str, Setting]],
                     skipped: Mapping[str, str] | None = None) -> str:
    """The sensitivity verdict of one claim from its verdict at every setting of :func:`design`.

    "holds wherever the text allows" when every setting agrees; else "holds at the default; fails
    where value <= 110; inconclusive at the fit", naming per parameter the grid values where the
    verdict differs from the default's (a threshold where they are the grid's low or high end).
    """
    skipped = skipped or {}
    statuses = {v["status"] for v in verdicts.values()}
    if len(statuses) == 1:
        return f"{_WORDS[next(iter(statuses))]} wherever the text allows"
    base = verdicts["default"]["status"]
    parts = [f"{_WORDS[base]} at the default"]
    if "fit" in verdicts and verdicts["fit"]["status"] != base:
        parts.append(f"{_WORDS[verdicts['fit']['status']]} at the fit")
    by_key: dict[str, list[tuple[Any, str]]] = {}
    default = dict(runs)["default"]
    for label, setting in runs:
        if label in ("default", "fit") or label not in verdicts:
            continue
        key = label.split("=", 1)[0]
        by_key.setdefault(key, []).append((setting[key], verdicts[label]["status"]))
    for key, rows in by_key.items():
        if key in skipped:
            continue
        grid = sorted([*rows, (default[key], base)], key=lambda r: (r[0] is not None, r[0] or 0))
        for status in dict.fromkeys(s for _, s in rows if s != base):
            where = [v for v, s in grid if s == status]
            values = [v for v, _ in grid]
            ordered = None not in values and 0 < len(where) < len(values)  # "own" has no place in the order
            if ordered and where == values[:len(where)]:
                cond = f"{key} <= {where[-1]:g}"
            elif ordered and where == values[-len(where):]:
                cond = f"{key} >= {where[0]:g}"
            else:
                cond = f"{key} = " + ", ".join(_value(v) for v in where)
            parts.append(f"{_WORDS[status]} where {cond}")
    return "; ".join(parts)
