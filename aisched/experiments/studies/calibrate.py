"""Calibration: fit a family's silent parameters to its paper's baseline-only relations, on seeds no
figure uses, and confirm the fit on held-out seeds.

A family declares the values its paper leaves unstated
(:class:`~aisched.families.SilentParameter`, each with the range the text allows and a grid) and
the relations among its baselines that the paper reports
(:class:`~aisched.families.RegimeTarget`, never involving the paper's own algorithms: the record
refuses one that does, and :func:`calibrate` refuses to run one). :func:`calibrate`

1. runs the targets' baselines, and only them, at every setting of the silent grid (the product of
   the parameters the targets' baselines can feel: a parameter of an algorithm no target runs is
   held at its default, so no setting is a duplicate; a value outside the range the paper states is
   left out unless a user's grid asks for it) on the **fitting seeds** (:data:`SEED_SETS`);
2. reads each target with a 90 % paired interval over seeds and as met / missed / undecided, and
   picks the setting of least score (:mod:`aisched.experiments.verdicts.fit`: one scale for the score
   and for "met"; ties go to the setting met first in the grid's order, whose first is the default);
3. **refits** on a second, disjoint seed set (stability: the same setting or a grid neighbour?);
4. **confirms** the default and the fit on :data:`CONFIRM_SEEDS` further held-out seeds (to
   :data:`MAX_CONFIRM_SEEDS` where a target is still undecided);
5. writes the record (:func:`result_path`), with its provenance (commit, seed sets, grid, sizes)
   and the headline rule's decision (:func:`aisched.experiments.verdicts.headline.headline`).

The runs are ordinary sweeps (:func:`aisched.experiments.run.sweep.sweep`): one scenario per target
point and setting of all silent parameters but one, that one along the scenario's x axis. So they
are cached and resumable in ``out/<family>/calibrate-*`` and run on the same executors (serial,
process pool, Dask).
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
from aisched.experiments.studies.reading import (
    GENERATOR,
    check_reading,
    generator_reading,
    held_by_reading,
    option_value,
    parameter_key,
    reading_label,
    reading_options,
)
from aisched.experiments.verdicts import fit as fits
from aisched.experiments.verdicts.headline import Headline, headline, misfit_lines
from aisched.families import Family, RegimeTarget, SilentParameter
from aisched.provenance import provenance

__all__ = ["CALIBRATION_PREFIX", "CONFIRM_SEEDS", "GENERATOR", "MAX_CONFIRM_SEEDS", "RECORD_SCHEMA",
           "SEED_SETS", "SENSITIVITY_PREFIX", "Calibration", "TargetFit", "at_full_size", "calibrate",
           "check_reading", "generator_reading", "is_calibration_sweep", "parameter_key", "read_record",
           "reading_label", "result_path", "settings"]

#: The first seed of each seed set (counts: ``calibrate(seeds=...)``, :data:`CONFIRM_SEEDS`). The figures
#: use seeds 0-19 (``--seeds auto`` stops at 20), so no fit reads a seed a verdict reads.
SEED_SETS = {"fit": 1000, "stability": 2000, "confirmation": 3000}
#: Held-out seeds that confirm the default and the fit, and the most a still-undecided target gets.
CONFIRM_SEEDS = 10
MAX_CONFIRM_SEEDS = 20
#: The calibration record's layout (2: seed sets, intervals, stability, confirmation, provenance).
RECORD_SCHEMA = 2

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


def settings(record: Family, *, keep_outside_stated: bool = False) -> list[Setting]:
    """Every setting calibration tries, the default first.

    The product of the grids of the parameters the targets' baselines feel (a generator parameter, or
    a parameter of an algorithm some target runs); every other parameter stays at its default, so no
    two settings run the same cells. A value outside the range the paper states
    (:attr:`SilentParameter.stated`) is left out unless ``keep_outside_stated`` (a user's grid).
    """
    params = record.silent_parameters
    default = {parameter_key(p): p.default for p in params}
    baselines = {a for t in record.regime_targets for a in t.algorithms}
    felt = [p for p in params if p.algorithm is None or p.algorithm in baselines]
    values = [tuple(v for v in p.values if keep_outside_stated or p.keeps_stated(v) or v == p.default)
              for p in felt]
    grid = [{**default, **dict(zip([parameter_key(p) for p in felt], combo))} for combo in itertools.product(*values)]
    return [default, *(s for s in grid if s != default)]


@dataclass(frozen=True)
class TargetFit:
    """One regime target on the fitting seeds: ours at the default, at the fit, and the closest any
    setting comes (each a :class:`~aisched.experiments.verdicts.fit.TargetEstimate` with its interval)."""

    target: RegimeTarget
    default: fits.TargetEstimate
    fit: fits.TargetEstimate
    closest: fits.TargetEstimate
    closest_setting: Setting

    @property
    def meetable(self) -> bool:
        """Whether some setting in the range meets this target on its own (on the fitting seeds)."""
        return self.closest.status == "met"


@dataclass(frozen=True)
class Calibration:
    """The result of :func:`calibrate` (also written as its record, :func:`result_path`)."""

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
    #: The refit on the second seed set: ``first_seed``, ``seeds``, ``fit``, ``score``, ``same_or_neighbour``.
    stability: dict[str, Any] | None = None
    #: The held-out confirmation: ``first_seed``, ``seeds``, ``default`` / ``fit`` (estimates), their scores.
    confirmation: dict[str, Any] | None = None
    #: Parameters of the fit outside the range the paper states (``"duration_scale = 0.3 (stated: [1, 1])"``).
    stated_outside: tuple[str, ...] = ()
    #: Where the record came from (:func:`aisched.provenance.provenance`) and the target points' sizes.
    provenance: dict[str, Any] | None = None
    #: Whether the targets ran at the paper's own sizes (:meth:`RegimeTarget.at_full_size`), not reduced ones.
    full: bool = False
    #: Silent values of a baseline that the reading rules out, left out of the grid (``"up.gpus = 6"``).
    ruled_out: tuple[str, ...] = ()

    @property
    def fit_meets_all(self) -> bool:
        """Whether the fitted setting meets every target on the fitting seeds."""
        return all(t.fit.status == "met" for t in self.targets)

    @property
    def headline(self) -> Headline:
        """Which regime heads the family's page (:func:`aisched.experiments.verdicts.headline.headline`)."""
        return headline(self.to_json(with_headline=False))

    def to_json(self, *, with_headline: bool = True) -> dict[str, Any]:
        """A plain, JSON-able record (schema :data:`RECORD_SCHEMA`)."""
        out: dict[str, Any] = {
            "schema": RECORD_SCHEMA, "family": self.family, "provenance": self.provenance or {},
            "seeds": {"fit": {"first_seed": SEED_SETS["fit"], "seeds": self.seeds},
                      "stability": {k: (self.stability or {}).get(k) for k in ("first_seed", "seeds")},
                      "confirmation": {k: (self.confirmation or {}).get(k) for k in ("first_seed", "seeds")}},
            "sizes": [json.loads(at) for at in dict.fromkeys(
                json.dumps(dict(t.target.at), sort_keys=True, default=str) for t in self.targets)],
            "full": self.full, "ruled_out": list(self.ruled_out),
            "default": self.default, "fit": self.fit, "fit_meets_all": self.fit_meets_all,
            "baselines": list(self.baselines), "grid_override": self.grid_override, "reading": self.reading,
            "parameters": [{"key": parameter_key(p), "low": p.low, "high": p.high, "default": p.default,
                            "stated": p.stated, "evidence": p.evidence} for p in self.parameters],
            "fit_estimates": [t.fit.to_json() for t in self.targets],
            "targets": [{"name": t.target.name, "kind": t.target.kind,
                         "paper": t.target.value if t.target.kind != "ordering" else None,
                         "tolerance": t.target.tolerance() if t.target.kind != "ordering" else fits.ORDERING_TOLERANCE,
                         "default": t.default.to_json(), "fit": t.fit.to_json(), "closest": t.closest.to_json(),
                         "closest_setting": t.closest_setting, "meetable": t.meetable} for t in self.targets],
            "stability": self.stability, "confirmation": self.confirmation,
            "stated": {"outside": list(self.stated_outside)},
            "grid": list(self.grid),
        }
        if with_headline:
            out["headline"] = headline(out).to_json()
        return out

    def text(self) -> str:
        """What ``aisched calibrate`` prints: the setting, target vs ours with intervals, the rule's decision."""
        record = self.to_json()
        conf = self.confirmation or {}
        lines = [f"calibration of {self.family}: {len(self.parameters)} silent parameters, {len(self.grid)} settings "
                 f"x {self.seeds} seeds (seeds {SEED_SETS['fit']}+, none a figure uses); runs the baselines only "
                 f"({', '.join(self.baselines)})"
                 + (f"; under the reading {reading_label(self.reading)} (held fixed)" if self.reading else "")
                 + (f"; left out of the grid, which the reading rules out: {', '.join(self.ruled_out)}"
                    if self.ruled_out else "") + ("; the targets at the paper's own sizes" if self.full else ""), "",
                 f"{'silent parameter':<22} {'range':>15} {'default':>9} {'fit':>9}"]
        for p in self.parameters:
            key = parameter_key(p)
            lines.append(f"{key:<22} {f'[{p.low:g}, {p.high:g}]':>15} {_value(self.default[key]):>9} "
                         f"{_value(self.fit[key]):>9}")
        held = {row["name"]: row for row in conf.get("fit") or ()}
        held_default = {row["name"]: row for row in conf.get("default") or ()}
        lines += ["", f"ours with 90 % intervals; fitting seeds x{self.seeds}, held-out seeds x{conf.get('seeds', 0)}",
                  f"{'regime target':<34} {'paper':>6}  {'default (held out)':<28} {'fit (fitting seeds)':<28} "
                  f"{'fit (held out)':<28}", "-" * 130]
        for t in self.targets:
            paper = f"{t.target.value:.3f}" if t.target.kind != "ordering" else "order"
            lines.append(f"{t.target.name:<34} {paper:>6}  {estimate_text(held_default.get(t.target.name)):<28} "
                         f"{estimate_text(t.fit.to_json()):<28} {estimate_text(held.get(t.target.name)):<28}")
        lines += ["", *misfit_lines(record), "", headline(record).text()]
        return "\n".join(lines)


def estimate_text(row: Mapping[str, Any] | None) -> str:
    """``1.041 [1.02, 1.06] met`` (an ordering: its smallest gap, ``+3.1% [+1.0%, +5.2%] met``)."""
    if not row:
        return "not measured"
    est, low, high = row.get("estimate"), row.get("low"), row.get("high")
    if est is None:
        return f"n/a {row.get('status', '')}"
    if row.get("kind") == "ordering":
        return f"{est:+.1%} [{_pct(low)}, {_pct(high)}] {row['status']}"
    return f"{est:.3f} [{_num(low)}, {_num(high)}] {row['status']}"


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.1%}"


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"

def _value(value: Any) -> str:
    return "(own)" if value is None else f"{value:g}"


def result_path(out: str | os.PathLike[str], family: str, reading: Mapping[str, Any] | None = None,
                grid: Mapping[str, Sequence[Any]] | None = None, full: bool = False) -> Path:
    """Where :func:`calibrate` writes its record: ``calibration.json``; at the paper's own sizes
    ``calibration-full.json``; under a reading ``calibration-<name>=<value>.json``; with a user's grid
    ``calibration-grid-<digest>.json`` (so the fit on the declared grid under the paper's program as
    printed, the one the sensitivity sweeps and the page read, is never replaced by another)."""
    parts = (["full"] if full else []) + ([reading_label(reading)] if reading else []) + (
        [f"grid-{_digest({k: list(v) for k, v in sorted(grid.items())})}"] if grid else [])
    name = "calibration.json" if not parts else f"calibration-{'-'.join(parts)}.json"
    return Path(out) / family / name


def read_record(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """A calibration record, or None where there is none (a family not calibrated).

    Raises
    ------
    InvalidScenarioError
        The file is not a calibration record of :data:`RECORD_SCHEMA` (naming the file): an older
        record must be made again (``aisched calibrate``), never read as another layout.
    """
    path = Path(path)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data["fit"], dict):
            raise TypeError("'fit' is not a table of silent parameters")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidScenarioError("calibration", f"{path} is not a calibration record ({exc})") from None
    if data.get("schema") != RECORD_SCHEMA:
        raise InvalidScenarioError("calibration", f"{path} is a calibration record of another layout (schema "
                                   f"{data.get('schema', 1)!r}, this aisched reads {RECORD_SCHEMA}): run "
                                   f"`aisched calibrate {data.get('family', 'FAMILY')}` again")
    return data


def _digest(data: Any) -> str:
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:10]


@dataclass(frozen=True)
class _Group:
    """The targets at one point, the baselines they need and the silent parameters that matter there."""

    at: Mapping[str, Any]
    params: Mapping[str, Mapping[str, Any]]
    targets: tuple[RegimeTarget, ...]
    algorithms: tuple[str, ...]
    axis: SilentParameter | None
    rest: tuple[SilentParameter, ...]


def _plain(params: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {a: dict(o) for a, o in params.items()}


def _groups(record: Family) -> list[_Group]:
    """The targets by point; the baselines' options at a point are the union of its targets' (each names
    only the algorithms it runs, so EFT / NTM and EFT / Titan at one point share one sweep)."""
    by_point: dict[str, list[RegimeTarget]] = {}
    for target in record.regime_targets:
        by_point.setdefault(_digest(dict(target.at)), []).append(target)
    out = []
    for targets in by_point.values():
        options: dict[str, dict[str, Any]] = {}
        for t in targets:
            for algorithm, given in t.params.items():
                clash = {k for k, v in given.items() if options.get(algorithm, {}).get(k, v) != v}
                if clash:
                    raise InvalidScenarioError(f"regime target {t.name!r}.params",
                                               f"{algorithm}'s {sorted(clash)} differ from another target's at the same point")
                options.setdefault(algorithm, {}).update(given)
        algorithms = tuple(dict.fromkeys(a for t in targets for a in t.algorithms))
        relevant = [p for p in record.silent_parameters if p.algorithm is None or p.algorithm in algorithms]
        axis = next((p for p in relevant if p.algorithm is None and None not in p.values), None)
        out.append(_Group(targets[0].at, options, tuple(targets), algorithms, axis, tuple(p for p in relevant if p is not axis)))
    return out


def _scenario(record: Family, group: _Group, sub: Setting, reading: Mapping[str, Any] | None = None) -> Scenario:
    """The sweep of one group at one setting of its parameters but the axis (the axis along x).

    The axis's values are in the folder's digest: another grid never collides with this one.
    ``reading``: options of every baseline (in the digest too: their own folders).
    """
    base = {k: v for k, v in group.at.items() if group.axis is None or k != group.axis.name}
    base.update(generator_reading(reading or {}))
    params: dict[str, dict[str, Any]] = _plain(group.params)
    for a in group.algorithms if reading else ():
        options = reading_options(reading, a)
        if options:
            params[a] = {**params.get(a, {}), **options}
    for p in group.rest:
        value = sub[parameter_key(p)]
        if value is None:
            continue
        if p.algorithm is None:
            base[p.name] = value
        else:
            params.setdefault(p.algorithm, {})[p.name] = option_value(float(value))
    if group.axis is not None:
        x, values = group.axis.name, tuple(group.axis.values)
    else:
        x = next(iter(group.at))
        values, base = (group.at[x],), {k: v for k, v in base.items() if k != x}
    key: list[Any] = [dict(group.at), sub]
    if group.axis is not None:  # the axis values in the digest: another grid (a user's, the stated range's) never
        key.append([None if v is None else float(v) for v in group.axis.values])  # collides with this one
    if reading:
        key.append({"reading": dict(reading)})
    if group.params:  # the point's own options (a full-size point's): their own folders
        key.append({"params": _plain(group.params)})
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


def calibrate(family: Family | str, out: str | os.PathLike[str], *, seeds: int = 5, executor: str = "process",
              workers: int | None = None, progress: bool = False,
              grid: Mapping[str, Sequence[float | None]] | None = None,
              reading: Mapping[str, Any] | None = None, confirm_seeds: int = CONFIRM_SEEDS,
              max_confirm_seeds: int = MAX_CONFIRM_SEEDS, full: bool = False) -> Calibration:
    """Fit ``family``'s silent parameters to its regime targets, refit, confirm (module docstring);
    write the record.

    Parameters
    ----------
    family
        A registered family (its :class:`~aisched.core.family.Family` object or its name) with silent
        parameters and regime targets.
    out
        Results root: the sweeps go to ``out/<family>/calibrate-*`` (resumed when there) and the
        record to :func:`result_path`.
    seeds
        Seeds per setting for the fit, and again for the refit (the seed sets :data:`SEED_SETS`).
    executor, workers, progress
        As for :func:`~aisched.experiments.run.sweep.sweep`.
    grid
        Per silent parameter (:func:`parameter_key`), the values to try instead of the declared grid
        (:func:`with_grid`; the default is always tried). The sweeps of a changed axis get their own
        folders and the record its own file (``calibration-grid-<digest>.json``); a value outside the
        range the paper states is tried only here, as a named reading.
    reading
        Options every baseline runs with, held fixed (a reading of the paper, never fitted), e.g.
        ``{"gpus": 4}``: genai's baselines under an edge's 4 GPUs (docs/readings/genai.md A2c). The
        sweeps get their own folders and the record its own file (``calibration-gpus=4.json``).
    confirm_seeds, max_confirm_seeds
        Held-out seeds for the confirmation of the default and the fit, and the most it grows to
        (one more look) where a target is still undecided.
    full
        Run each target at the paper's own size (:meth:`RegimeTarget.at_full_size`: lora's Fig. 4 at 50
        nodes and Fig. 8 at 80 a slot on 100 nodes, with Titan as the figures run it) where the family
        declares its calibration points reduced. The sweeps get their own folders and the record its own
        file (``calibration-full.json``), listed beside the reduced fit on the page.

    Raises
    ------
    InvalidScenarioError
        The family declares no silent parameter or no regime target, ``seeds`` < 1, a bad ``grid``, a
        ``reading`` option a baseline does not take or that is out of its range (``reading[name]``),
        ``full`` where no target declares a reduced point, or a target's scenario would run the paper's own
        algorithm (refused, never run).
    """
    declared = at_full_size(families.resolve(family)) if full else families.resolve(family)
    family = declared.name
    record = with_grid(declared, grid) if grid else _within_stated(declared)
    override = None if not grid else {k: list(v) for k, v in grid.items()}
    if not record.silent_parameters or not record.regime_targets:
        raise InvalidScenarioError("family", f"{family!r} declares no silent parameters and regime targets to fit "
                                   f"({len(record.silent_parameters)} parameters, {len(record.regime_targets)} targets)")
    for name, value in (("seeds", seeds), ("confirm_seeds", confirm_seeds), ("max_confirm_seeds", max_confirm_seeds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidScenarioError(name, f"= {value!r} must be an integer >= 1")
    own = {record.proposed, *record.also_proposed}
    groups = _groups(record)
    reading = dict(reading or {})
    check_reading(family, tuple(dict.fromkeys(a for g in groups for a in g.algorithms)), reading,
                  record.silent_parameters, [dict(g.at) for g in groups])
    record, ruled_out = held_by_reading(family, record, reading)
    tried = settings(record, keep_outside_stated=bool(grid))
    plans: list[tuple[_Group, Setting, Scenario]] = []
    for group in groups:
        keys = [parameter_key(p) for p in group.rest]
        for sub in dict.fromkeys(json.dumps({k: s[k] for k in keys}, sort_keys=True) for s in tried):
            scenario = _scenario(record, group, json.loads(sub), reading)
            running = own & set(scenario.algorithms)
            if running:  # a refusal, not an assert: it holds under python -O too
                raise InvalidScenarioError("calibration", f"{scenario.name} would run the paper's own algorithm "
                                           f"{sorted(running)}; calibration runs baselines only")
            plans.append((group, json.loads(sub), scenario))
    runner = sweeps.open_runner(executor, workers)
    tables: dict[str, Any] = {}

    def run(first: int, count: int, only: Sequence[Setting] | None = None) -> None:
        for group, sub, scenario in plans:
            points = None
            if only is not None:
                wanted = [s for s in only if all(s[k] == v for k, v in sub.items())]
                if not wanted:
                    continue
                points = sorted({_axis_index(group, scenario, s) for s in wanted})
            tables[scenario.name] = sweeps.sweep(scenario, out, seeds=count, first_seed=first, resume=True,
                                                 runner=runner, progress=progress, outcomes=False, points=points)

    try:
        n = seeds
        run(SEED_SETS["fit"], n)
        rows = _grid_rows(record, plans, tables, tried, SEED_SETS["fit"], n)
        best = min(range(len(rows)), key=lambda i: (rows[i]["score"], i))
        run(SEED_SETS["stability"], n)
        again = _grid_rows(record, plans, tables, tried, SEED_SETS["stability"], n)
        best_again = min(range(len(again)), key=lambda i: (again[i]["score"], i))
        chosen = [tried[0]] + ([tried[best]] if best else [])
        count = confirm_seeds
        run(SEED_SETS["confirmation"], count, chosen)
        held = _grid_rows(record, plans, tables, chosen, SEED_SETS["confirmation"], count)
        if count < max_confirm_seeds and any(e["status"] == "undecided" for row in held for e in row["estimates"]):
            count = max_confirm_seeds
            run(SEED_SETS["confirmation"], count, chosen)
            held = _grid_rows(record, plans, tables, chosen, SEED_SETS["confirmation"], count)
    finally:
        runner.shutdown()
    grids = {parameter_key(p): p.values for p in record.silent_parameters}
    stability = {"first_seed": SEED_SETS["stability"], "seeds": n, "fit": again[best_again]["setting"],
                 "score": again[best_again]["score"],
                 "same_or_neighbour": fits.neighbours(rows[best]["setting"], again[best_again]["setting"], grids)}
    confirmation = {"first_seed": SEED_SETS["confirmation"], "seeds": count, "default": held[0]["estimates"],
                    "fit": held[-1]["estimates"], "score_default": held[0]["score"], "score_fit": held[-1]["score"]}
    targets = []
    for k, target in enumerate(record.regime_targets):
        near = min(range(len(rows)), key=lambda i: (_distance(rows[i]["_estimates"][k]), i))
        targets.append(TargetFit(target, default=rows[0]["_estimates"][k], fit=rows[best]["_estimates"][k],
                                 closest=rows[near]["_estimates"][k], closest_setting=rows[near]["setting"]))
    outside = tuple(f"{parameter_key(p)} = {_value(rows[best]['setting'][parameter_key(p)])} (stated: "
                    f"[{p.stated[0]:g}, {p.stated[1]:g}])" for p in record.silent_parameters
                    if p.stated is not None and not p.keeps_stated(rows[best]["setting"][parameter_key(p)]))
    sizes = {"points": [dict(g.at) for g in groups]}
    result = Calibration(family=family, seeds=n, parameters=record.silent_parameters, default=rows[0]["setting"],
                         fit=rows[best]["setting"], targets=tuple(targets),
                         grid=tuple({k: v for k, v in row.items() if k != "_estimates"} for row in rows),
                         baselines=tuple(dict.fromkeys(a for g in groups for a in g.algorithms)),
                         grid_override=override, reading=reading or None, stability=stability,
                         confirmation=confirmation, stated_outside=outside, full=full, ruled_out=ruled_out,
                         provenance={**provenance(seeds={"fit": n, "stability": n, "confirmation": count}), **sizes,
                                     "grid": {k: list(v) for k, v in grids.items()}})
    path = result_path(out, family, reading, override, full)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(result.to_json(), indent=1, default=str) + "\n")
    return result


def at_full_size(record: Family) -> Family:
    """``record`` with every regime target at the paper's own size (:meth:`RegimeTarget.at_full_size`).

    Raises
    ------
    InvalidScenarioError
        No target of the family declares a reduced point (its targets are at the paper's sizes already).
    """
    if all(t.full_at is None for t in record.regime_targets):
        raise InvalidScenarioError("full", f"{record.name}'s regime targets are at the paper's own sizes already "
                                   "(none declares a reduced point): run without --full")
    return replace(record, regime_targets=tuple(t.at_full_size() for t in record.regime_targets))


def _within_stated(record: Family) -> Family:
    """``record`` with each silent grid cut to the values the paper's stated range allows (the default kept)."""
    params = tuple(replace(p, grid=tuple(v for v in p.values if p.keeps_stated(v) or v == p.default))
                   if p.stated is not None else p for p in record.silent_parameters)
    return replace(record, silent_parameters=params)


def _axis_index(group: _Group, scenario: Scenario, setting: Setting) -> int:
    """The point of ``scenario`` (one group's sweep) that ``setting`` is measured at."""
    if group.axis is None:
        return 0
    return list(scenario.values).index(setting[parameter_key(group.axis)])


def _distance(e: fits.TargetEstimate) -> float:
    return abs(e.z) if math.isfinite(e.z) else math.inf


def _grid_rows(record: Family, plans: Sequence[tuple[_Group, Setting, Scenario]], tables: Mapping[str, Any],
               tried: Sequence[Setting], first: int, count: int) -> list[dict[str, Any]]:
    """Per setting: each target's estimate on seeds ``first .. first + count - 1`` and the score."""
    seeds = set(range(first, first + count))
    rows = []
    for setting in tried:
        found: dict[str, fits.TargetEstimate] = {}
        for group, sub, scenario in plans:
            if any(setting[k] != v for k, v in sub.items()) or scenario.name not in tables:
                continue
            table = tables[scenario.name]
            x = scenario.labels[_axis_index(group, scenario, setting)]
            at = table[(table["x"].astype(str) == str(x)) & table["seed"].isin(seeds)]
            objectives = {a: dict(zip(g["seed"].astype(int), g["objective"].astype(float)))
                          for a, g in at.groupby("algorithm")}
            for target in group.targets:
                found[target.name] = fits.estimate(target, objectives)
        estimates = [found[t.name] for t in record.regime_targets]
        rows.append({"setting": setting, "estimates": [e.to_json() for e in estimates],
                     "score": fits.score(estimates), "_estimates": estimates})
    return rows
