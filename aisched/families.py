"""The families: what every layer may ask of a problem family, read from the one registry.

A family (a paper's problem) is one typed object, :class:`Family` (:mod:`aisched.core.family`),
registered when its scenario package is imported (``import aisched`` imports the built-in ones):
its name, its objective's words, unit and direction, the paper's algorithm, the paper's scenario
names, the metric columns it adds, whether its proposed algorithm posts prices, the values the
paper leaves unstated (:class:`SilentParameter`), the baseline relations it reports
(:class:`RegimeTarget`), the modules that register its algorithms, and two loaders that run on
first use:

- ``hooks() -> FamilyHooks``: the family's functions (``generate``, **one** ``metrics`` function
  that :func:`aisched.compare` and every sweep cell use, its paper scenarios, report figures,
  mechanism diagnostics, notes, axis labels and extra scenario kinds such as spot's ``"selection"``);
- ``cli() -> FamilyCli``: the ``aisched compare FAMILY`` protocol, a light object (no numerical
  stack at import) that ``aisched --help`` reads.

Registered, the object owns its algorithms, offline solve, bound and catalogue scenarios
(:class:`FamilyTables`); :func:`unregister` takes them all out. Nothing outside a family's own
packages names a family: the API, the command line and the experiment machinery read this
registry. This module imports nothing from aisched but the core and :mod:`aisched.errors`, so any
layer may read it.

Adding a family: see the README's "Adding a family" and ``docs/architecture.md``.
"""

from __future__ import annotations

from aisched.core import registry as _registry
from aisched.core.declarations import Diagnostic, Objective, RegimeTarget, ScenarioKind, SilentParameter
from aisched.core.family import Algorithm, Family, FamilyCli, FamilyHooks, FamilyTables, FigureFn
from aisched.core.parameters import Parameter

__all__ = ["Algorithm", "Diagnostic", "Family", "FamilyCli", "FamilyHooks", "FamilyRecord", "FamilyTables", "FigureFn",
           "Objective", "Parameter", "RegimeTarget", "ScenarioKind", "SilentParameter", "cli", "get", "hooks",
           "metric_directions", "metric_families", "names", "record", "register", "resolve", "unregister"]

#: The family object's earlier name (a family "record"); the same class.
FamilyRecord = Family

register = _registry.register
unregister = _registry.unregister
names = _registry.names
get = _registry.get
resolve = _registry.resolve


def record(name: str) -> Family:
    """The family ``name`` (:func:`get`).

    Raises
    ------
    InvalidScenarioError
        (field ``family``) when no package registered ``name``.
    """
    return _registry.get(name)


def hooks(name: str) -> FamilyHooks:
    """The functions of family ``name`` (built on first use): ``get(name).functions()``."""
    return _registry.get(name).functions()


def cli(name: str) -> FamilyCli | None:
    """The ``aisched compare`` protocol of family ``name``; ``None`` where it has none."""
    return _registry.get(name).command()


def metric_families() -> dict[str, str]:
    """Each family metric column a scenario may name -> the family whose metric it is."""
    return {column: name for name in names() for column in get(name).metric_columns}


def metric_directions() -> dict[str, bool]:
    """Each family metric column -> whether higher is better."""
    return {column: higher for name in names() for column, higher in get(name).metric_columns.items()}
