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
- ``cli``: the ``aisched compare FAMILY`` protocol (a module with
  ``CLI_HELP``, ``CLI_ALGORITHMS``, ``add_cli_arguments``, ``instance_from_cli``,
  ``describe``, ``cli_figures`` and optionally ``cli_params``,
  ``add_select_arguments``, ``run_select``), read by :mod:`aisched.cli` only.
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

__all__ = ["Family", "FigureFn", "get", "names", "register"]

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

    def __post_init__(self) -> None:
        object.__setattr__(self, "figures", MappingProxyType(dict(self.figures)))
        object.__setattr__(self, "pools", MappingProxyType(dict(self.pools)))


_FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add (or, on a re-import, replace) a family's plug-in; returns it."""
    if not isinstance(family, Family):
        raise TypeError(f"register() takes a Family, got {type(family).__name__}")
    _FAMILIES[family.name] = family
    return family


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
    return _FAMILIES[name]
