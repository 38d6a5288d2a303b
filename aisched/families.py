"""The family registry: what every layer may ask of a problem family, in one typed contract.

A family (a paper's problem) registers a light :class:`FamilyRecord` when its
scenario package is imported (``import aisched`` imports the built-in four):
its name, its objective's words, unit and direction, the paper's algorithm,
the paper's scenario names, the metric columns it adds, whether its proposed
algorithm posts prices, and (for calibration) the values the paper leaves
unstated (:class:`SilentParameter`) and the baseline relations it reports
(:class:`RegimeTarget`). The record names two loaders that run on first use:

- ``hooks() -> FamilyHooks``: the family's functions (``generate``, **one**
  ``metrics`` function that :func:`aisched.compare` and every sweep cell use,
  its paper scenarios, report figures, mechanism diagnostics, notes, axis
  labels and extra scenario kinds such as spot's ``"selection"``);
- ``cli() -> FamilyCli``: the ``aisched compare FAMILY`` protocol, a light
  object (no numerical stack at import) that ``aisched --help`` reads.

The algorithm registry (:mod:`aisched.registry`) keys its tables by the same
names. Nothing outside a family's own packages names a family: the API, the
command line and the experiment machinery read this registry. The way
benchopt keeps its contract as base classes, :class:`FamilyCli` is a base
class whose optional methods have defaults. This module imports nothing from
aisched but :mod:`aisched.errors`, so any layer may read it.

Adding a family: see the README's "Adding a family".
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from aisched.errors import InvalidScenarioError

__all__ = ["Diagnostic", "FamilyCli", "FamilyHooks", "FamilyRecord", "FigureFn", "Objective", "RegimeTarget",
           "ScenarioKind", "SilentParameter", "cli", "hooks", "metric_directions", "metric_families", "names", "record",
           "register"]

FigureFn = Callable[[Path, Any, Any], "Path | None"]
"""A report figure: ``fn(sweep folder, StoredScenario (aisched.experiments.stored), table) -> written path or None``."""


@dataclass(frozen=True)
class Objective:
    """The family's objective: the paper's word for it, its unit and its direction.

    Parameters
    ----------
    name
        The paper's word ("social welfare", "utility", "profit", "total revenue").
    unit
        Its unit ("money units").
    direction
        ``"max"``: higher is better (every family so far maximises).
    """

    name: str
    unit: str = "money units"
    direction: Literal["max", "min"] = "max"

    @property
    def label(self) -> str:
        """``"social welfare (money units)"``: the objective with its unit, for tables and axes."""
        return f"{self.name} ({self.unit})" if self.unit else self.name

    @property
    def headline(self) -> str:
        """``"social welfare (money units, higher is better)"``."""
        better = "higher" if self.direction == "max" else "lower"
        return f"{self.name} ({self.unit + ', ' if self.unit else ''}{better} is better)"


@dataclass(frozen=True)
class SilentParameter:
    """A value the paper leaves unstated (or an algorithm parameter it says is "estimated").

    Parameters
    ----------
    name
        The generator parameter it sets, or (with ``algorithm``) that algorithm's parameter.
    quote
        The paper's words where it is silent or loose.
    where
        Section (and figure) of the quote.
    low, high
        The range the paper's text allows.
    default
        Our first-principles default, inside ``[low, high]``; ``None``: the generator's (or the
        algorithm's) own default, which ``argument`` states.
    argument
        Why the default (and, for an estimated parameter, what an operator could know).
    grid
        The values calibration tries, each inside ``[low, high]`` (``None`` in it: the own default);
        empty: ``low``, ``default`` and ``high``.
    algorithm
        ``None``: a generator parameter; else the algorithm (a baseline) whose parameter it is.
    scope
        The generator settings of the scenarios it means something in (``{"market": "vast"}``: the
        downscaling of the Vast.ai trace means nothing on a synthetic market); empty: every
        scenario. The sensitivity sweep (:mod:`aisched.experiments.sensitivity`) varies it only there.
    """

    name: str
    quote: str
    where: str
    low: float
    high: float
    default: float | None
    argument: str
    grid: tuple[float | None, ...] = ()
    algorithm: str | None = None
    scope: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", MappingProxyType(dict(self.scope)))
        where = f"silent parameter {self.name!r}"
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise InvalidScenarioError(where, f"range [{self.low!r}, {self.high!r}] is not a finite interval")
        if self.default is not None and not self.low <= self.default <= self.high:
            raise InvalidScenarioError(
                where, f"default {self.default!r} is not inside its range [{self.low!r}, {self.high!r}]")
        for i, value in enumerate(self.grid):
            if value is not None and not self.low <= value <= self.high:
                raise InvalidScenarioError(f"{where}.grid[{i}]", f"{value!r} is outside [{self.low!r}, {self.high!r}]")
        if self.grid and self.default not in self.grid:
            raise InvalidScenarioError(f"{where}.grid", f"must hold the default {self.default!r}")

    @property
    def values(self) -> tuple[float | None, ...]:
        """What calibration tries: :attr:`grid`, or ``low``, ``default``, ``high``."""
        return self.grid or tuple(dict.fromkeys((self.low, self.default, self.high)))


@dataclass(frozen=True)
class RegimeTarget:
    """A relation among the paper's *baselines* that the paper reports (never its own algorithm).

    Parameters
    ----------
    name
        A short key ("msu/od_only at deadline 10").
    kind
        ``"ratio"`` (``algorithms[0]``'s objective over ``algorithms[1]``'s), ``"value"``
        (``algorithms[0]``'s objective) or ``"ordering"`` (``algorithms`` from worst to best).
    algorithms
        The baselines the relation involves.
    value
        The paper's ratio or value (``nan`` for an ordering).
    quote, where
        The paper's words and the figure and point where the relation stands.
    at
        The generator parameters of that point (``{"deadline": 10, "market": "vast"}``).
    derivation
        How ``value`` follows from the paper's numbers (two percentages at one point, ...).
    """

    name: str
    kind: Literal["ratio", "value", "ordering"]
    algorithms: tuple[str, ...]
    value: float
    quote: str
    where: str
    at: Mapping[str, Any] = field(default_factory=dict)
    derivation: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", MappingProxyType(dict(self.at)))
        if self.kind not in ("ratio", "value", "ordering"):
            raise InvalidScenarioError(f"regime target {self.name!r}", f"kind {self.kind!r} is not ratio, value "
                                       "or ordering")
        need = {"ratio": 2, "value": 1}.get(self.kind)
        if (need is not None and len(self.algorithms) != need) or len(self.algorithms) < 1:
            raise InvalidScenarioError(f"regime target {self.name!r}",
                                       f"a {self.kind} names {need or 'two or more'} algorithms, got {self.algorithms}")

    def tolerance(self) -> float:
        """How close ours must be to count as met: 0.05, or 15 % of the paper's value where that is tighter."""
        return min(0.05, 0.15 * abs(self.value)) if self.kind != "ordering" else 0.0

    def measure(self, means: Mapping[str, float]) -> float:
        """Our value of the relation from the mean objective per algorithm (an ordering: pairs out of order)."""
        if self.kind == "ratio":
            low = means[self.algorithms[1]]
            return means[self.algorithms[0]] / low if low else math.nan
        if self.kind == "value":
            return float(means[self.algorithms[0]])
        got = [means[a] for a in self.algorithms]
        return float(sum(1 for i in range(len(got)) for j in range(i + 1, len(got)) if got[i] > got[j]))

    def met(self, ours: float) -> bool:
        """Whether ``ours`` (:meth:`measure`) meets the paper's relation."""
        if self.kind == "ordering":
            return ours == 0
        return math.isfinite(ours) and abs(ours - self.value) <= self.tolerance() + 1e-12

    def residual(self, ours: float) -> float:
        """Ours minus the paper's (an ordering: the pairs out of order)."""
        return ours if self.kind == "ordering" else ours - self.value


@dataclass(frozen=True)
class Diagnostic:
    """A cell column that says whether the paper's mechanism acted in that cell.

    Parameters
    ----------
    column
        The column of a sweep cell (from the family's ``metrics``).
    label
        Words for the report ("node-slots at compute capacity").
    unit
        ``"share"`` (printed as a percentage), ``"count"`` or ``""``.
    acts_above
        The mechanism counts as acting in a cell where the column exceeds this
        value (``0.0``: any binding cell, any shared job); ``None``: shown, not used
        to decide. A point is *idle* when no cell of the proposed algorithm there
        has any such column above its value.
    """

    column: str
    label: str
    unit: str = "share"
    acts_above: float | None = None

    def text(self, value: float) -> str:
        """``value`` in this diagnostic's unit."""
        if value != value:  # NaN
            return "n/a"
        if self.unit == "share":
            return f"{value:.1%}"
        return f"{value:.3g}" if self.unit != "count" else f"{value:.1f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class ScenarioKind:
    """A scenario kind other than ``"compare"`` (spot's ``"selection"``: Algorithm 2 over a policy pool).

    Parameters
    ----------
    cell
        ``cell(seed=..., pool=..., **params) -> (row fields, dataset)``: one (point, seed, pool) cell.
    pools
        The pool names a scenario of this kind may list as its "algorithms".
    description
        What a cell of this kind runs (``aisched scenarios`` and the docs show it).
    pool_word
        What a pool is called in messages ("policy pool").
    """

    cell: Callable[..., tuple[dict[str, Any], Any]]
    pools: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    pool_word: str = "pool"

    def __post_init__(self) -> None:
        object.__setattr__(self, "pools", MappingProxyType(dict(self.pools)))


@dataclass(frozen=True)
class FamilyHooks:
    """A family's functions, built on first use (they may import the numerical stack).

    Parameters
    ----------
    generate
        ``generate(seed=..., **params) -> Instance``: one (point, seed) of a ``compare`` scenario.
    metrics
        ``metrics(instance, outcome) -> {column: float}``: the family's columns of a result row,
        the same in :func:`aisched.compare` and in a sweep cell.
    scenarios
        ``scenarios(add)``: hands the paper's figures (``Scenario`` objects) to ``add``.
    figures
        Extra report figures by name (:data:`FigureFn`).
    diagnostics
        The cell columns that say whether the proposed algorithm's mechanism acted.
    notes
        ``notes(stored, table) -> [Markdown line]`` (``stored``: a ``StoredScenario``), printed after a
        figure's diagnostics.
    labels
        Words with units for the objective, metrics and generator parameters on axes.
    kinds
        Scenario kinds besides ``"compare"`` (:class:`ScenarioKind`), by name.
    """

    generate: Callable[..., Any]
    metrics: Callable[[Any, Any], dict[str, float]] | None = None
    scenarios: Callable[[Callable[[Any], Any]], None] | None = None
    figures: Mapping[str, FigureFn] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    notes: Callable[[Any, Any], list[str]] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    kinds: Mapping[str, ScenarioKind] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("figures", "labels", "kinds"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))


class FamilyCli:
    """The ``aisched compare FAMILY`` protocol; a family subclasses it in a light module.

    Class attributes: ``help`` (one line), ``algorithms`` (compared by default),
    ``known`` (every name ``--algorithms`` accepts; default ``algorithms``),
    ``time_limit`` (default ``--time-limit``, seconds). Methods without a
    default below must be given; ``run_select`` only by a family with the
    ``aisched select`` command.
    """

    help: str = ""
    algorithms: tuple[str, ...] = ()
    known: tuple[str, ...] = ()
    time_limit: float = 60.0

    def known_algorithms(self) -> tuple[str, ...]:
        """What ``--algorithms`` accepts."""
        return tuple(self.known) or tuple(self.algorithms)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the generator's options (``--seed`` included) to ``parser``."""
        raise NotImplementedError

    def instance(self, args: argparse.Namespace) -> Any:
        """The validated instance of the options."""
        raise NotImplementedError

    def describe(self, instance: Any, args: argparse.Namespace) -> str:
        """One line describing the generated scenario."""
        raise NotImplementedError

    def figures(self, outcomes: dict[str, Any], table: Any, out: Path) -> list[str]:
        """Extra figures written to ``out``; the file names (default: none)."""
        return []

    def params(self, args: argparse.Namespace, names: list[str]) -> dict[str, dict[str, Any]]:
        """The algorithms' options given on the command line (default: none)."""
        return {}

    @property
    def selects(self) -> bool:
        """Whether the family has ``aisched select FAMILY`` (it overrides :meth:`run_select`)."""
        return type(self).run_select is not FamilyCli.run_select

    def add_select_arguments(self, parser: argparse.ArgumentParser) -> None:
        """The options of ``aisched select FAMILY``."""
        raise NotImplementedError

    def run_select(self, args: argparse.Namespace) -> int:
        """Run ``aisched select FAMILY``; the exit status."""
        raise NotImplementedError


@dataclass(frozen=True)
class FamilyRecord:
    """One family's entry in the registry (light: no numerical stack).

    Parameters
    ----------
    name
        The family's name, the key of every table (``aisched.run`` finds its algorithms by it).
    objective
        Its objective's words, unit and direction.
    proposed
        The paper's own algorithm (the registry name).
    hooks
        Loader of the family's :class:`FamilyHooks` (called once, on first use).
    cli
        Loader of its :class:`FamilyCli` (``None``: no ``aisched compare FAMILY``).
    item
        What one unit of the workload is called ("task", "job").
    paper_scenarios
        The paper's scenario names without the family prefix (known before they are built, so an
        unknown name is refused at once).
    metric_columns
        The family's own result columns a scenario may name as its ``metric``, each with whether
        higher is better.
    prices
        Whether the proposed algorithm keeps (node, slot) prices the report draws.
    also_proposed
        The paper's other own algorithms (a variant it proposes too, such as spot's AHANP): no
        regime target may name them either.
    silent_parameters, regime_targets
        Calibration's data: what the paper leaves unstated, and its baselines' relations.
    """

    name: str
    objective: Objective
    proposed: str
    hooks: Callable[[], FamilyHooks]
    cli: Callable[[], FamilyCli] | None = None
    item: str = "job"
    paper_scenarios: tuple[str, ...] = ()
    metric_columns: Mapping[str, bool] = field(default_factory=dict)
    prices: bool = False
    also_proposed: tuple[str, ...] = ()
    silent_parameters: tuple[SilentParameter, ...] = ()
    regime_targets: tuple[RegimeTarget, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "metric_columns", MappingProxyType(dict(self.metric_columns)))
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise InvalidScenarioError("name", f"a family's name must be an identifier, got {self.name!r}")
        own = {self.proposed, *self.also_proposed}
        for i, target in enumerate(self.regime_targets):
            if own & set(target.algorithms):
                raise InvalidScenarioError(
                    f"regime_targets[{i}]", f"{target.name!r} involves the paper's own algorithm "
                    f"{sorted(own & set(target.algorithms))[0]!r}: a regime target relates baselines only")
        names = [p.name if p.algorithm is None else f"{p.algorithm}.{p.name}" for p in self.silent_parameters]
        if len(set(names)) != len(names):
            raise InvalidScenarioError("silent_parameters", f"a parameter is declared twice: {names}")


_RECORDS: dict[str, FamilyRecord] = {}
_HOOKS: dict[str, FamilyHooks] = {}
_CLI: dict[str, FamilyCli] = {}


def register(family: FamilyRecord) -> FamilyRecord:
    """Add (or, on a re-import, replace) a family's record; returns it."""
    if not isinstance(family, FamilyRecord):
        raise TypeError(f"register() takes a FamilyRecord, got {type(family).__name__}")
    _RECORDS[family.name] = family
    _HOOKS.pop(family.name, None)
    _CLI.pop(family.name, None)
    return family


def names() -> list[str]:
    """The registered families, in registration order."""
    return list(_RECORDS)


def record(name: str) -> FamilyRecord:
    """The record of family ``name``.

    Raises
    ------
    InvalidScenarioError
        (field ``family``) when no package registered ``name``.
    """
    if name not in _RECORDS:
        raise InvalidScenarioError(
            "family", f"{name!r} is not a registered family (registered: {', '.join(_RECORDS) or 'none'}; "
            "`import aisched` registers the built-in ones)")
    return _RECORDS[name]


def hooks(name: str) -> FamilyHooks:
    """The functions of family ``name`` (built on first use)."""
    if name not in _HOOKS:
        built = record(name).hooks()
        if not isinstance(built, FamilyHooks):
            raise TypeError(f"the hooks loader of family {name!r} returned {built!r}, not FamilyHooks")
        _HOOKS[name] = built
    return _HOOKS[name]


def cli(name: str) -> FamilyCli | None:
    """The ``aisched compare`` protocol of family ``name``; ``None`` where it has none."""
    if name not in _CLI:
        loader = record(name).cli
        if loader is None:
            return None
        built = loader()
        if not isinstance(built, FamilyCli):
            raise TypeError(f"the cli loader of family {name!r} returned {built!r}, not a FamilyCli")
        _CLI[name] = built
    return _CLI[name]


def metric_families() -> dict[str, str]:
    """Each family metric column a scenario may name -> the family whose metric it is."""
    return {column: name for name, rec in _RECORDS.items() for column in rec.metric_columns}


def metric_directions() -> dict[str, bool]:
    """Each family metric column -> whether higher is better."""
    return {column: higher for rec in _RECORDS.values() for column, higher in rec.metric_columns.items()}
