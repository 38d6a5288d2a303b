"""The family object: one typed record per paper's problem, owning everything the machinery asks of it.

A :class:`Family` declares, light (no numerical stack): its name, objective, the paper's algorithm,
the paper's scenario names, its metric columns, silent parameters and regime targets, the modules
that register its algorithms, and two loaders: ``hooks() -> FamilyHooks`` (its functions:
``generate``, the one ``metrics``, paper scenarios, figures, diagnostics) and ``cli() -> FamilyCli``
(the ``aisched compare FAMILY`` protocol). Registered (:func:`aisched.core.registry.register`), it
also owns its tables (:class:`FamilyTables`): its algorithms (:class:`Algorithm`, each with its
declared :class:`~aisched.core.parameters.Parameter` list), its offline solve and certified bound,
and its scenarios in the catalogue. Taking it out (:func:`aisched.core.registry.unregister`) takes
every table with it. The way benchopt keeps its contract as base classes, :class:`FamilyCli` is a
base class whose optional methods have defaults.

This module imports nothing from aisched but the core's declarations and :mod:`aisched.errors`.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from aisched.core.declarations import Diagnostic, Objective, RegimeTarget, ScenarioKind, SilentParameter
from aisched.core.parameters import Parameter, parameters_from_signature
from aisched.errors import InvalidScenarioError

__all__ = ["AddScenarios", "Algorithm", "Family", "FamilyCli", "FamilyHooks", "FamilyTables", "FigureFn", "Generate",
           "Metrics", "Notes"]

FigureFn = Callable[[Path, Any, Any], "Path | None"]
"""A report figure: ``fn(sweep folder, StoredScenario (aisched.experiments.store.stored), table) -> written path or None``."""


class Generate(Protocol):
    """``generate(seed=..., **params) -> Instance``: a family's seeded generator."""

    def __call__(self, *, seed: int = ..., **params: Any) -> Any: ...


class Metrics(Protocol):
    """``metrics(instance, outcome) -> {column: float}``: a family's columns of a result row."""

    def __call__(self, instance: Any, outcome: Any, /) -> dict[str, float]: ...


class AddScenarios(Protocol):
    """``scenarios(add)``: hands each of the paper's figures (a ``Scenario``) to ``add``."""

    def __call__(self, add: Callable[[Any], Any], /) -> None: ...


class Notes(Protocol):
    """``notes(stored, table) -> [Markdown line]``: lines printed after a figure's diagnostics."""

    def __call__(self, stored: Any, table: Any, /) -> list[str]: ...


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

    generate: Generate
    metrics: Metrics | None = None
    scenarios: AddScenarios | None = None
    figures: Mapping[str, FigureFn] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    notes: Notes | None = None
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




@dataclass(frozen=True, eq=False)
class Algorithm:
    """One registered run function of a family: an online algorithm, a baseline, the offline solve or a bound.

    Parameters
    ----------
    family, name
        Where it is found: ``aisched.run(name, instance_of_family)``.
    run
        ``run(instance, **params) -> Outcome``.
    ready
        Whether :func:`aisched.compare` runs it without a list of names.
    declared
        Its parameters as declared at registration; ``None``: read once from ``run``'s signature and
        type hints on first use (:func:`~aisched.core.parameters.parameters_from_signature`; on first
        use, not at registration, so hints naming what the module defines later resolve).
    ranges
        ``{name: (low, high)}``: the declared ranges of numeric parameters (with ``declared=None``).
    """

    family: str
    name: str
    run: Callable[..., Any]
    ready: bool = True
    declared: tuple[Parameter, ...] | None = None
    ranges: Mapping[str, tuple[float | None, float | None]] = field(default_factory=dict)
    takes_any_keyword: bool = False

    @functools.cached_property
    def _read(self) -> tuple[tuple[Parameter, ...], bool]:
        if self.declared is not None:
            return tuple(self.declared), self.takes_any_keyword
        return parameters_from_signature(self.run, self.ranges)

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        """Its keyword parameters (after the instance), in order."""
        return self._read[0]

    @property
    def takes_any(self) -> bool:
        """Whether it takes keywords besides :attr:`parameters` (a ``**options`` run function)."""
        return self._read[1]

    def parameter(self, name: str) -> Parameter | None:
        """The declared parameter ``name``, or ``None``."""
        return next((p for p in self.parameters if p.name == name), None)

    def check(self, params: Mapping[str, Any]) -> None:
        """Refuse, before any work, a parameter it does not take or a value that does not fit.

        Every name must be a declared parameter (unless it takes ``**options``) and every value must
        fit its kind and range (:meth:`Parameter.check`); a ``check_values(params)`` attribute of the
        run function (an algorithm's own checks, e.g. genai's ``gpus`` >= 1) is called last.

        Raises
        ------
        InvalidScenarioError
            Naming the parameter: an unknown name (with the parameters it takes) or a value that does not fit.
        """
        owner = f"{self.family!r} algorithm {self.name!r}"
        known = {p.name: p for p in self.parameters}
        listing = ", ".join(p.describe() for p in self.parameters) or "no parameters"
        for key, value in params.items():
            if key not in known:
                if self.takes_any:
                    continue
                raise InvalidScenarioError(str(key), f"is not a parameter of {owner}; it takes {listing}")
            known[key].check(value, owner=owner)
        value_check = getattr(self.run, "check_values", None)
        if value_check is not None:
            value_check(params)


@dataclass
class FamilyTables:
    """What a registered family owns at run time (filled by registration, emptied by unregistering).

    Attributes
    ----------
    algorithms
        Online algorithms and baselines by name, in registration order.
    offline
        The offline solve of the family's program (``aisched.offline``), or ``None``.
    bound
        Its certified upper bound (``aisched.bound``), or ``None``.
    scenarios
        Its named scenarios in the catalogue (``aisched.experiments.spec.catalog``), by full name.
    paper_loaded
        Whether the paper's scenarios were built into :attr:`scenarios`.
    hooks, cli
        The loaded :class:`FamilyHooks` and :class:`FamilyCli` (``None`` until first use).
    """

    algorithms: dict[str, Algorithm] = field(default_factory=dict)
    offline: Algorithm | None = None
    bound: Algorithm | None = None
    scenarios: dict[str, Any] = field(default_factory=dict)
    paper_loaded: bool = False
    hooks: FamilyHooks | None = None
    cli: FamilyCli | None = None

    def adopt(self, other: FamilyTables) -> None:
        """Take ``other``'s run functions (a family registered again keeps its algorithms)."""
        self.algorithms.update(other.algorithms)
        self.offline = self.offline or other.offline
        self.bound = self.bound or other.bound


@dataclass(frozen=True)
class Family:
    """One family: the paper's problem, what the machinery may ask of it, and (registered) its tables.

    Parameters
    ----------
    name
        The family's name, the key of every look-up (``aisched.run`` finds its algorithms by it).
    objective
        Its objective's words, unit and direction.
    proposed
        The paper's own algorithm (the registry name).
    hooks
        Loader of the family's :class:`FamilyHooks` (called once, on first use: :meth:`functions`).
    cli
        Loader of its :class:`FamilyCli` (``None``: no ``aisched compare FAMILY``; :meth:`command`).
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
    shared_code
        Per baseline that runs the paper's own algorithm's code (tenants' BatchSche runs Astraea's
        Algorithms 1-5 per tenant), what it shares and on which words of the paper: the fidelity
        section prints it next to the targets that divide by that baseline.
    modules
        The modules whose import registers its algorithms, offline solve and bound (imported on the
        first look-up of the family's algorithms; empty: they register when their own module is imported).
    order
        Its place in listings (the catalogue, the pages): families sort by it, then by registration.
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
    shared_code: Mapping[str, str] = field(default_factory=dict)
    modules: tuple[str, ...] = ()
    order: float = float("inf")
    tables: FamilyTables = field(default_factory=FamilyTables, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metric_columns", MappingProxyType(dict(self.metric_columns)))
        object.__setattr__(self, "shared_code", MappingProxyType(dict(self.shared_code)))
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

    def functions(self) -> FamilyHooks:
        """The family's functions (:class:`FamilyHooks`), built on first use."""
        if self.tables.hooks is None:
            built = self.hooks()
            if not isinstance(built, FamilyHooks):
                raise TypeError(f"the hooks loader of family {self.name!r} returned {built!r}, not FamilyHooks")
            self.tables.hooks = built
        return self.tables.hooks

    def command(self) -> FamilyCli | None:
        """The ``aisched compare`` protocol (:class:`FamilyCli`); ``None`` where the family has none."""
        if self.tables.cli is None and self.cli is not None:
            built = self.cli()
            if not isinstance(built, FamilyCli):
                raise TypeError(f"the cli loader of family {self.name!r} returned {built!r}, not a FamilyCli")
            self.tables.cli = built
        return self.tables.cli
