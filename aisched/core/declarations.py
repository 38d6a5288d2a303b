"""What a family declares about its paper: objective, silent parameters, regime targets, diagnostics, kinds.

Plain frozen records (no numerical stack): :class:`Objective`, :class:`SilentParameter` (a value the
paper leaves unstated), :class:`RegimeTarget` (a relation among the paper's *baselines*),
:class:`Diagnostic` (a cell column that says whether the paper's mechanism acted) and
:class:`ScenarioKind` (a scenario kind besides ``"compare"``). A :class:`aisched.core.family.Family`
holds them. This module imports nothing from aisched but :mod:`aisched.errors`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from aisched.errors import InvalidScenarioError

__all__ = ["Diagnostic", "Objective", "RegimeTarget", "ScenarioKind", "SilentParameter"]


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
        scenario. The sensitivity sweep (:mod:`aisched.experiments.studies.sensitivity`) varies it only there.
    stated
        ``(low, high)``: the values the paper's text itself states (tenants' ``duration_scale`` = 1 is
        section 5.1's m_j in [0.001, 0.05] h as written). Such a value binds: calibration's declared grid
        keeps only the grid values inside it; a user's grid that leaves it (``--grid``) is a named
        reading with its own record, and the headline rule never takes its fit
        (:mod:`aisched.experiments.verdicts.headline`). ``None``: the paper states nothing.
    evidence
        ``(low, high)``: the values our own measured data support (lora's batch share from the measured
        LoRA throughput); the default must lie inside. ``None``: no measurement of ours bears on it.
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
    stated: tuple[float, float] | None = None
    evidence: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", MappingProxyType(dict(self.scope)))
        where = f"silent parameter {self.name!r}"
        for label, span in (("stated", self.stated), ("evidence", self.evidence)):
            if span is not None and not (len(span) == 2 and self.low <= span[0] <= span[1] <= self.high):
                raise InvalidScenarioError(f"{where}.{label}", f"{span!r} is not an interval inside "
                                           f"[{self.low!r}, {self.high!r}]")
        if self.evidence is not None and self.default is not None and not (
                self.evidence[0] <= self.default <= self.evidence[1]):
            raise InvalidScenarioError(f"{where}.default", f"{self.default!r} lies outside our measured evidence "
                                       f"{self.evidence!r}")
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

    def keeps_stated(self, value: float | None) -> bool:
        """Whether ``value`` lies inside the range the paper states (always, where it states none;
        ``None``, the own default, counts as inside)."""
        return self.stated is None or value is None or self.stated[0] <= value <= self.stated[1]


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
    params
        Options of the baselines at that point (``{"titan": {"jct_form": "running"}}``), as the figure runs them.
    full_at, full_params
        Where ``at`` is a reduced form of the paper's point (fewer nodes at the same volume per node, say):
        the point at the paper's own size, and the baselines' options there (as its figure runs them).
        ``calibrate(full=True)`` (``aisched calibrate --full``) runs these instead. None: ``at`` is the
        paper's size already.
    """

    name: str
    kind: Literal["ratio", "value", "ordering"]
    algorithms: tuple[str, ...]
    value: float
    quote: str
    where: str
    at: Mapping[str, Any] = field(default_factory=dict)
    derivation: str = ""
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    full_at: Mapping[str, Any] | None = None
    full_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", MappingProxyType(dict(self.at)))
        for name in ("params", "full_params"):
            object.__setattr__(self, name, MappingProxyType({a: MappingProxyType(dict(o))
                                                             for a, o in getattr(self, name).items()}))
        if self.full_at is not None:
            object.__setattr__(self, "full_at", MappingProxyType(dict(self.full_at)))
        for name in ("params", "full_params"):
            stray = sorted(set(getattr(self, name)) - set(self.algorithms))
            if stray:
                raise InvalidScenarioError(f"regime target {self.name!r}.{name}",
                                           f"names {stray}, which the relation does not run ({self.algorithms})")
        if self.kind not in ("ratio", "value", "ordering"):
            raise InvalidScenarioError(f"regime target {self.name!r}", f"kind {self.kind!r} is not ratio, value "
                                       "or ordering")
        need = {"ratio": 2, "value": 1}.get(self.kind)
        if (need is not None and len(self.algorithms) != need) or len(self.algorithms) < 1:
            raise InvalidScenarioError(f"regime target {self.name!r}",
                                       f"a {self.kind} names {need or 'two or more'} algorithms, got {self.algorithms}")

    def at_full_size(self) -> RegimeTarget:
        """This target at the paper's own size (:attr:`full_at`, :attr:`full_params`); itself where ``at`` is it."""
        if self.full_at is None:
            return self
        return replace(self, at=self.full_at, params=self.full_params, full_at=None, full_params={})

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
