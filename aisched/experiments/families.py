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
- ``proposed`` and ``diagnostics``: the paper's algorithm and the cell columns
  (:class:`Diagnostic`, from ``cell_metrics`` or the family's registered
  resource metrics) that say whether its mechanism acted (capacity binding,
  sharing, spot use); the report shows them beside each figure's table and marks
  the points where the mechanism was idle (:func:`idle_points`);
- ``findings``: measured statements about the paper (docs/readings.md), one
  sentence each with the reading's name; the reproduction page prints them in
  its summary, beside the family's counts;
- ``notes(definition, table) -> list[str]``: Markdown lines the report prints
  after a figure's diagnostics (tenants: where Astraea's revenue gap goes);
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

__all__ = ["COMMON_FIGURES", "Diagnostic", "Family", "FigureFn", "cli", "get", "idle_points", "names",
           "register", "register_lazy"]

FigureFn = Callable[[Path, dict[str, Any], "pd.DataFrame"], "Path | None"]
"""A report figure: ``fn(sweep folder, scenario definition, table) -> written path or None``."""


@dataclass(frozen=True)
class Diagnostic:
    """A cell column that says whether the paper's mechanism acted in that cell.

    Parameters
    ----------
    column
        The column of a sweep cell (``cell_metrics`` or the family's resource metrics).
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
    proposed: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()
    findings: tuple[str, ...] = ()
    notes: Callable[[dict[str, Any], pd.DataFrame], list[str]] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "figures", MappingProxyType(dict(self.figures)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))
        object.__setattr__(self, "pools", MappingProxyType(dict(self.pools)))


_FAMILIES: dict[str, Family | Callable[[], Family]] = {}
_CLI: dict[str, Callable[[], Any]] = {}

#: Report figures every family has, drawn by the machinery itself: ``"regime"``
#: (:mod:`aisched.experiments.regime`, the regime map of a scarcity knob).
COMMON_FIGURES: tuple[str, ...] = ("regime",)


def register(family: Family) -> Family:
    """Add (or, on a re-import, replace) a family's plug-in; returns it."""
    if not isinstance(family, Family):
        raise TypeError(f"register() takes a Family, got {type(family).__name__}")
    _FAMILIES[family.name] = family
    _CLI.pop(family.name, None)
    return family


def idle_points(family: Family, table: pd.DataFrame, algorithm: str | None = None) -> dict[str, str]:
    """Points (x labels) where ``algorithm``'s mechanism was idle, each with the deciding values.

    ``algorithm`` defaults to the family's ``proposed`` algorithm. A point is idle
    when every cell of ``algorithm`` there has each deciding diagnostic
    (``acts_above`` set) at or below its value (:class:`Diagnostic`); a point
    whose cells lack every deciding column is not judged (absent from the result).
    """
    name = algorithm or family.proposed
    deciding = [d for d in family.diagnostics if d.acts_above is not None and d.column in table.columns]
    if not name or not deciding or "algorithm" not in table.columns:
        return {}
    rows = table[table["algorithm"] == name]
    out: dict[str, str] = {}
    for x, at in rows.groupby(rows["x"].astype(str), sort=False):
        values = {d: at[d.column].astype(float) for d in deciding}
        if all(v.isna().all() for v in values.values()):
            continue
        if all(bool((v.fillna(-float("inf")) <= float(d.acts_above)).all()) for d, v in values.items()):
            parts = [f"{d.label} {d.text(float(v.max()))}" for d, v in values.items()]
            out[str(x)] = ", ".join(parts) + f" (largest over {len(at)} seed(s))"
    return out


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
