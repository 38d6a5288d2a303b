"""The families' scenario plug-ins: what the experiment machinery may ask of a family.

The machinery (:mod:`~aisched.experiments.scenario`, :mod:`~aisched.experiments.sweep`,
:mod:`~aisched.experiments.report`, :mod:`~aisched.experiments.catalog`) never
imports a family by name. Each family's scenario package
(``aisched.scenarios.<family>``) hands it a :class:`Family` with
:func:`register` when it is imported (``import aisched`` imports all four),
the way ``aisched.online`` registers algorithms with :mod:`aisched.registry`:

- ``generate(seed=..., **params)``: the instance of one (point, seed) of a
  ``compare`` scenario;
- ``scenarios(add)``: hands the paper's figures, as :class:`Scenario` objects,
  to ``add`` (the catalogue registers them on first use);
- ``figures``: extra report figures by name, each
  ``fn(root, definition, table) -> Path | None``;
- ``cell_metrics(instance, outcome) -> dict``: family columns of a sweep cell;
- ``selection_cell`` and ``pools``: the ``selection`` scenario kind (spot);
- ``labels``: words with units for the family's objective, metrics and generator
  parameters on figure axes (``{"objective": "social welfare (money units)"}``,
  read by :func:`aisched.experiments.figures.label`);
- ``cli``: the ``aisched compare FAMILY`` protocol (a module with
  ``CLI_HELP``, ``CLI_ALGORITHMS``, ``add_cli_arguments``, ``instance_from_cli``,
  ``describe``, ``cli_figures`` and optionally ``cli_params``,
  ``add_select_arguments``, ``run_select``), read by :mod:`aisched.cli` only.

A family registers either the :class:`Family` itself or, with
:func:`register_lazy`, a function that builds it on first use plus one that
returns its light ``cli`` module: ``import aisched`` then costs no import of
the numerical stack, and ``aisched --help`` reads only the ``cli`` modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from aisched.errors import InvalidScenarioError

if TYPE_CHECKING:
    import pandas as pd

    from aisched.experiments.scenario import Add

__all__ = ["Family", "FigureFn", "cli", "get", "names", "register", "register_lazy"]

FigureFn = Callable[[Path, dict[str, Any], "pd.DataFrame"], "Path | None"]
"""A report figure: ``fn(sweep folder, scenario definition, table) -> written path or None``."""


@dataclass(frozen=True)
class Family:
    """One family's scenario plug-in (see the module docstring for each field's contract)."""

    name: str
    generate: Callable[..., Any]
    scenarios: Callable[[Add], None] | None = None
    figures: Mapping[str, FigureFn] = field(default_factory=dict)
    cell_metrics: Callable[[Any, Any], dict[str, float]] | None = None
    selection_cell: Callable[..., Any] | None = None
    pools: Mapping[str, Any] = field(default_factory=dict)
    cli: Any = None
    labels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "figures", MappingProxyType(dict(self.figures)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))
        object.__setattr__(self, "pools", MappingProxyType(dict(self.pools)))


_FAMILIES: dict[str, Family | Callable[[], Family]] = {}
_CLI: dict[str, Callable[[], Any]] = {}


def register(family: Family) -> Family:
    """Add (or, on a re-import, replace) a family's plug-in; returns it."""
    if not isinstance(family, Family):
        raise TypeError(f"register() takes a Family, got {type(family).__name__}")
    _FAMILIES[family.name] = family
    _CLI.pop(family.name, None)
    return family


def register_lazy(name: str, load: Callable[[], Family], *, cli: Callable[[], Any] | None = None) -> None:
    """Register family ``name`` whose plug-in ``load()`` builds on first use (:func:`get`).

    ``cli()`` returns the family's ``aisched compare`` module without building
    the plug-in (see :func:`cli`).
    """
    if not callable(load):
        raise TypeError(f"register_lazy() takes a function that returns a Family, got {type(load).__name__}")
    _FAMILIES[name] = load
    if cli is not None:
        _CLI[name] = cli


def names() -> list[str]:
    """The registered families, in registration order."""
    return list(_FAMILIES)


def get(name: str) -> Family:
    """The plug-in of family ``name``.

    Raises
    ------
    InvalidScenarioError
        (field ``family``) when no scenario package registered ``name``.
    """
    if name not in _FAMILIES:
        raise InvalidScenarioError(
            "family", f"{name!r} has no scenarios registered (registered: {names()}; `import aisched` loads them)")
    entry = _FAMILIES[name]
    if not isinstance(entry, Family):
        entry = entry()
        if not isinstance(entry, Family) or entry.name != name:
            raise TypeError(f"the plug-in loader of family {name!r} returned {entry!r}, not its Family")
        _FAMILIES[name] = entry
    return entry


def cli(name: str) -> Any:
    """The family's ``aisched compare`` module: its light ``cli`` loader's, else the plug-in's ``cli``."""
    if name in _CLI:
        return _CLI[name]()
    return get(name).cli
