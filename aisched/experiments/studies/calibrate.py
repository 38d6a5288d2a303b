"""Calibration: fit a family's silent parameters to its paper's baseline-only relations.

A family declares the values its paper leaves unstated
(:class:`~aisched.families.SilentParameter`, each with the range the text allows and a grid) and
the relations among its baselines that the paper reports
(:class:`~aisched.families.RegimeTarget`, never involving the paper's own algorithms: the record
refuses one that does). :func:`calibrate` runs the targets' baselines, and only them, at every
setting of the silent grid (their product) and picks the setting whose baselines meet the targets
best: the least sum over targets of the squared relative residual ``(ours - paper) / paper``
(an ordering: the pairs out of order). Ties go to the setting met first in the grid's order, whose
first setting is the default.

The runs are ordinary sweeps (:func:`aisched.experiments.run.sweep.sweep`): one scenario per target
point and setting of all silent parameters but one, that one along the scenario's x axis. So they
are cached and resumable in ``out/<family>/calibrate-*`` and run on the same executors (serial,
process pool, Dask). :attr:`Calibration.targets` holds, per target, ours at the default and at the
fit with their residuals, and the closest any setting comes (a target no setting meets is a
finding to state).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from aisched import families
from aisched._files import atomic_write_text
from aisched.errors import InvalidScenarioError
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.spec.scenario import Scenario
from aisched.families import Family, RegimeTarget, SilentParameter

__all__ = ["CALIBRATION_PREFIX", "SENSITIVITY_PREFIX", "Calibration", "TargetFit", "calibrate", "check_reading",
           "is_calibration_sweep", "parameter_key", "reading_label", "result_path", "settings"]

#: The short names of calibration sweeps (``<family>/calibrate-<digest>``): the report and the reproduction
#: page leave their folders out (they are no figure of the paper) and show
#: :func:`aisched.experiments.pages.fidelity.fidelity_lines` instead.
CALIBRATION_PREFIX = "calibrate-"
#: The short names of :mod:`aisched.experiments.studies.sensitivity`'s sweeps (``<family>/silent-<scenario>-<digest>``):
#: off the report too (the page shows their verdicts beside the claims instead).
SENSITIVITY_PREFIX = "silent-"


def is_calibration_sweep(folder: Path) -> bool:
    """Whether a sweep folder (``out/<family>/<short-name>``) holds a calibration or sensitivity sweep."""
    return folder.name.startswith((CALIBRATION_PREFIX, SENSITIVITY_PREFIX))

#: A setting of the silent parameters: parameter key (:func:`parameter_key`) -> value (None: the own default).
Setting = dict[str, Any]


def parameter_key(parameter: SilentParameter) -> str:
    """``"value"`` for a generator parameter, ``"up.gpus"`` for an algorithm's."""
    return parameter.name if parameter.algorithm is None else f"{parameter.algorithm}.{parameter.name}"


def settings(record: Family) -> list[Setting]:
    """Every setting of the family's silent grid (their product), the default first."""
    params = record.silent_parameters
    default = {parameter_key(p): p.default for p in params}
    grid = [dict(zip([parameter_key(p) for p in params], combo))
            for combo in itertools.product(*(p.values for p in params))]
    return [default, *(s for s in grid if s != default)]


@dataclass(frozen=True)
class TargetFit:
    """One regime target: the paper's value, ours at the default and at the fit, the closest we come."""

    target: RegimeTarget
    default: float
    fit: float
    closest: float
    closest_setting: Setting

    @property
    def meetable(self) -> bool:
        """Whether some setting in the range meets this target on its own."""
        return self.target.met(self.closest)


@dataclass(frozen=True)
class Calibration:
    """The result of :func:`calibrate` (also written as ``calibration.json``)."""

    family: str
    seeds: int
    parameters: tuple[SilentParameter, ...]
    default: Setting
    fit: Setting
    targets: tuple[TargetFit, ...]
    grid: tuple[dict[str, Any], ...]
    baselines: tuple[str, ...]
    #: The user's grid per parameter (``calibrate(grid=...)``), or None: the family's declared grid.
    grid_override: dict[str, list[Any]] | None = None
    #: Options every baseline ran with (``calibrate(reading=...)``, e.g. ``{"gpus": 4}``), or None: their defaults.
    reading: dict[str, Any] | None = None

    @property
    def fit_meets_all(self) -> bool:
        """Whether the fitted setting meets every target."""
        return all(t.target.met(t.fit) for t in self.targets)

    def to_json(self) -> dict[str, Any]:
        """A plain, JSON-able record."""
        from datetime import datetime, timezone
        from importlib.metadata import PackageNotFoundError, version

        try:
            installed = version("aisched")
        except PackageNotFoundError:  # a source tree on sys.path
            installed = "not installed"
        return {
            "aisched": installed, "written": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "family": self.family, "seeds": self.seeds, "default": self.default, "fit": self.fit,
            "fit_meets_all": self.fit_meets_all, "baselines": list(self.baselines),
            "grid_override": self.grid_override, "reading": self.reading,
            "targets": [{"name": t.target.name, "paper": t.target.value, "default": t.default, "fit": t.fit,
                         "met_at_default": t.target.met(t.default), "met_at_fit": t.target.met(t.fit),
                         "closest": t.closest, "closest_setting": t.closest_setting, "meetable": t.meetable}
                        for t in self.targets],
            "grid": list(self.grid),
        }

    def text(self) -> str:
        """What ``aisched calibrate`` prints: the fitted setting, then target vs ours, then the misfits."""
        lines = [f"calibration of {self.family}: {len(self.parameters)} silent parameters, {len(self.grid)} settings "
                 f"x {self.seeds} seeds; runs the baselines only ({', '.join(self.baselines)})"
                 + (f"; every baseline with {reading_label(self.reading)} (a reading, held fixed)" if self.reading
                    else ""), "",
                 f"{'silent parameter':<22} {'range':>15} {'default':>9} {'fit':>9}"]
        for p in self.parameters:
            key = parameter_key(p)
            lines.append(f"{key:<22} {f'[{p.low:g}, {p.high:g}]':>15} {_value(self.default[key]):>9} "
                         f"{_value(self.fit[key]):>9}")
        lines += ["", f"{'regime target':<32} {'paper':>7} {'default':>8} {'resid':>7} {'fit':>7} {'resid':>7}  met "
                      "at fit", "-" * 84]
        for t in self.targets:
            r = t.target
            lines.append(f"{r.name:<32} {r.value:>7.3f} {t.default:>8.3f} {r.residual(t.default):>+7.3f} "
                         f"{t.fit:>7.3f} {r.residual(t.fit):>+7.3f}  {'yes' if r.met(t.fit) else 'no'}")
        lines.append("")
        lines.append("the fit meets every target (within 0.05, or 15 % where that is tighter)" if self.fit_meets_all
                     else "the fit does not meet every target: keep the default and state the misfit")
        if not self.fit_meets_all and any(all(t.target.met(row["measured"][t.target.name]) for t in self.targets)
                                          for row in self.grid):
            lines.append("(a setting meets every target, but another scores better: see calibration.json)")
        elif not self.fit_meets_all:
            lines.append("no setting in the range meets every target at once; the fit above is the closest")
        for t in self.targets:
            if not t.meetable:
                setting = ", ".join(f"{k}={_value(v)}" for k, v in t.closest_setting.items())
                lines.append(f"no setting in the range meets {t.target.name!r}: closest {t.closest:.3f} (paper "
                             f"{t.target.value:.3f}) at {setting}")
        return "\n".join(lines)


def _value(value: Any) -> str:
    return "(own)" if value is None else f"{value:g}"


def reading_label(reading: Mapping[str, Any]) -> str:
    """``gpus=4`` (``name=value`` joined by commas, sorted): a reading's name in text and file names."""
    return ",".join(f"{k}={v}" for k, v in sorted(reading.items()))


def result_path(out: str | os.PathLike[str], family: str, reading: Mapping[str, Any] | None = None) -> Path:
    """Where :func:`calibrate` writes its result: ``calibration.json``, or under a reading
    ``calibration-<name>=<value>.json`` (so the fit under the paper's program as printed, the one the
    sensitivity sweeps and the page read, is never replaced by a fit under another reading)."""
    name = "calibration.json" if not reading else f"calibration-{reading_label(reading)}.json"
    return Path(out) / family / name


def check_reading(family: str, baselines: Sequence[str], reading: Mapping[str, Any],
                  silent: Sequence[SilentParameter] = ()) -> None:
    """Refuse, before any work, a reading option that a baseline does not take (or takes with another
    range), or that a silent parameter of that baseline also sets, naming ``reading[name]``."""
    from aisched.core.runner import check_params

    for name, value in reading.items():
        for algorithm in baselines:
            try:
                check_params(family, algorithm, {name: value})
            except InvalidScenarioError as exc:
                raise InvalidScenarioError(f"reading[{name!r}]", f"{algorithm}: {exc.message}") from None
        clash = [parameter_key(p) for p in silent if p.algorithm in baselines and p.name == name]
        if clash:
            raise InvalidScenarioError(f"reading[{name!r}]", f"is a silent parameter too ({', '.join(clash)}): "
                                       "fit it or hold it, not both")


def _digest(data: Any) -> str:
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:10]


@dataclass(frozen=True)
class _Group:
    """The targets at one point, the baselines they need and the silent parameters that matter there."""

    at: Mapping[str, Any]
    targets: tuple[RegimeTarget, ...]
    algorithms: tuple[str, ...]
    axis: SilentParameter | None
    rest: tuple[SilentParameter, ...]


def _groups(record: Family) -> list[_Group]:
    by_point: dict[str, list[RegimeTarget]] = {}
    for target in record.regime_targets:
        by_point.setdefault(_digest(dict(target.at)), []).append(target)
    out = []
    for targets in by_point.values():
        algorithms = tuple(dict.fromkeys(a for t in targets for a in t.algorithms))
        relevant = [p for p in record.silent_parameters if p.algorithm is None or p.algorithm in algorithms]
        axis = next((p for p in relevant if p.algorithm is None and None not in p.values), None)
        out.append(_Group(targets[0].at, tuple(targets), algorithms, axis, tuple(p for p in relevant if p is not axis)))
    return out


def _scenario(record: Family, group: _Group, sub: Setting, declared: Family | None = None,
              reading: Mapping[str, Any] | None = None) -> Scenario:
    """The sweep of one group at one setting of its parameters but the axis (the axis along x).

    ``declared``: the family's own record when ``record`` carries a user's grid; an axis whose values
    differ from the declared ones then gets its own folder (its values in the digest), so a finer
    grid never collides with a calibration of the declared grid in the same results root.
    ``reading``: options of every baseline (in the digest too: their own folders).
    """
    base = {k: v for k, v in group.at.items() if group.axis is None or k != group.axis.name}
    params: dict[str, dict[str, Any]] = {a: dict(reading) for a in group.algorithms} if reading else {}
    for p in group.rest:
        value = sub[parameter_key(p)]
        if value is None:
            continue
        if p.algorithm is None:
            base[p.name] = value
        else:
            params.setdefault(p.algorithm, {})[p.name] = int(value) if float(value).is_integer() else value
    if group.axis is not None:
        x, values = group.axis.name, tuple(group.axis.values)
    else:
        x = next(iter(group.at))
        values, base = (group.at[x],), {k: v for k, v in base.items() if k != x}
    key: list[Any] = [dict(group.at), sub]
    if group.axis is not None and declared is not None:
        own = next(p for p in declared.silent_parameters if p.name == group.axis.name)
        if own.values != group.axis.values:
            key.append([None if v is None else float(v) for v in group.axis.values])
    if reading:
        key.append({"reading": dict(reading)})
    name = f"{record.name}/{CALIBRATION_PREFIX}{_digest(key)}"
    title = f"calibration of {record.name}: {sub}" + (f" under {reading_label(reading)}" if reading else "")
    return Scenario(name=name, family=record.name, title=title, x=x,
                    values=values, base=base, algorithms=group.algorithms, params=params, seeds=1)


def with_grid(record: Family, grid: Mapping[str, Sequence[float | None]]) -> Family:
    """``record`` with the silent grid of some parameters replaced by a user's (e.g. a finer step).

    Each parameter keeps its default in its grid (added first when missing: calibration reports ours at
    the default beside the fit); each value must lie in the range the parameter declares.

    Raises
    ------
    InvalidScenarioError
        A name that is no silent parameter of the family, an empty grid, or a value outside the range
        (naming the parameter, the index and the value).
    """
    known = {parameter_key(p): p for p in record.silent_parameters}
    for name, values in grid.items():
        if name not in known:
            raise InvalidScenarioError("grid", f"{name!r} is not a silent parameter of {record.name} "
                                               f"(known: {', '.join(known)})")
        if not len(values):
            raise InvalidScenarioError(f"grid[{name!r}]", "is empty")
        p = known[name]
        for i, value in enumerate(values):
            if value is not None and not (isinstance(value, (int, float)) and p.low <= value <= p.high):
                raise InvalidScenarioError(f"grid[{name!r}][{i}]", f"{value!r} is outside the range the paper "
                                           f"allows, [{p.low!r}, {p.high!r}]")
    params = []
    for key, p in known.items():
        if key in grid:
            values = tuple(dict.fromkeys((p.default, *grid[key])))
            p = replace(p, grid=values)  # __post_init__ checks each value against [low, high]
        params.append(p)
    return replace(record, silent_parameters=tuple(params))


def calibrate(family: Family | str, out: str | os.PathLike[str], *, seeds: int = 3, executor: str = "process",
              workers: int | None = None, progress: bool = False,
              grid: Mapping[str, Sequence[float | None]] | None = None,
              reading: Mapping[str, Any] | None = None) -> Calibration:
    """Fit ``family``'s silent parameters to its regime targets (module docstring); write ``calibration.json``.

    Parameters
    ----------
    family
        A registered family (its :class:`~aisched.core.family.Family` object or its name) with silent
        parameters and regime targets.
    out
        Results root: the sweeps go to ``out/<family>/calibrate-*`` (resumed when there) and the
        result to ``out/<family>/calibration.json``.
    seeds
        Seeds per setting (each target's value is the ratio of means over them).
    executor, workers, progress
        As for :func:`~aisched.experiments.run.sweep.sweep`.
    grid
        Per silent parameter (:func:`parameter_key`), the values to try instead of the declared grid
        (:func:`with_grid`; the default is always tried). The sweeps of a changed axis get their own
        folders, and ``calibration.json`` records the grid used (``grid_override``).
    reading
        Options every baseline runs with, held fixed (a reading of the paper, never fitted), e.g.
        ``{"gpus": 4}``: genai's baselines under an edge's 4 GPUs (docs/readings.md genai A2c). The
        sweeps get their own folders and the result goes to ``calibration-gpus=4.json``
        (:func:`result_path`); ``calibration.json``, which the page and the sensitivity sweeps read,
        stays the fit under the paper's program as printed.

    Raises
    ------
    InvalidScenarioError
        The family declares no silent parameter or no regime target, ``seeds`` < 1, a bad ``grid``, or
        a ``reading`` option a baseline does not take or that is out of its range (``reading[name]``).
    """
    declared = families.resolve(family)
    family = declared.name
    record = declared if not grid else with_grid(declared, grid)
    override = None if not grid else {k: list(v) for k, v in grid.items()}
    if not record.silent_parameters or not record.regime_targets:
        raise InvalidScenarioError("family", f"{family!r} declares no silent parameters and regime targets to fit "
                                   f"({len(record.silent_parameters)} parameters, {len(record.regime_targets)} targets)")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise InvalidScenarioError("seeds", f"= {seeds!r} must be an integer >= 1")
    own = {record.proposed, *record.also_proposed}
    groups = _groups(record)
    reading = dict(reading or {})
    check_reading(family, tuple(dict.fromkeys(a for g in groups for a in g.algorithms)), reading,
                  record.silent_parameters)
    plans: list[tuple[_Group, Setting, Scenario]] = []
    for group in groups:
        keys = [parameter_key(p) for p in group.rest]
        for combo in itertools.product(*(p.values for p in group.rest)):
            sub = dict(zip(keys, combo))
            scenario = _scenario(record, group, sub, declared, reading)
            assert not own & set(scenario.algorithms), "calibration runs baselines only"
            plans.append((group, sub, scenario))
    runner = sweeps.open_runner(executor, workers)
    tables = {}
    try:
        for _group, _sub, scenario in plans:
            tables[scenario.name] = sweeps.sweep(scenario, out, seeds=seeds, resume=True, runner=runner,
                                                 progress=progress, outcomes=False)
    finally:
        runner.shutdown()

    def measured(setting: Setting) -> dict[str, float]:
        found: dict[str, float] = {}
        for group, sub, scenario in plans:
            if any(setting[k] != v for k, v in sub.items()):
                continue
            table = tables[scenario.name]
            x = str(setting[parameter_key(group.axis)]) if group.axis is not None else str(scenario.values[0])
            at = table[table["x"].astype(str) == x]
            means = at.groupby("algorithm")["objective"].mean().to_dict()
            for target in group.targets:
                found[target.name] = target.measure(means)
        return found

    grid = []
    for setting in settings(record):
        values = measured(setting)
        grid.append({"setting": setting, "measured": values, "score": _score(record.regime_targets, values)})
    best = min(range(len(grid)), key=lambda i: (grid[i]["score"], i))
    fits = []
    for target in record.regime_targets:
        near = min(range(len(grid)), key=lambda i: (abs(target.residual(grid[i]["measured"][target.name]))
                                                    if math.isfinite(grid[i]["measured"][target.name]) else math.inf, i))
        fits.append(TargetFit(target, default=grid[0]["measured"][target.name],
                              fit=grid[best]["measured"][target.name], closest=grid[near]["measured"][target.name],
                              closest_setting=grid[near]["setting"]))
    result = Calibration(family=family, seeds=seeds, parameters=record.silent_parameters, default=grid[0]["setting"],
                         fit=grid[best]["setting"], targets=tuple(fits), grid=tuple(grid),
                         baselines=tuple(dict.fromkeys(a for g in groups for a in g.algorithms)),
                         grid_override=override, reading=reading or None)
    path = result_path(out, family, reading)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(result.to_json(), indent=1, default=str) + "\n")
    return result


def _score(targets: tuple[RegimeTarget, ...], values: Mapping[str, float]) -> float:
    """Sum of squared relative residuals (an ordering: its pairs out of order); inf where one is not finite."""
    total = 0.0
    for target in targets:
        ours = values[target.name]
        if not math.isfinite(ours):
            return math.inf
        scale = abs(target.value) if target.kind != "ordering" and target.value else 1.0
        total += (target.residual(ours) / scale) ** 2
    return total
