"""Scenarios as data: :class:`Scenario`, :class:`Claim`, their validation and TOML form.

A :class:`Scenario` is a frozen description of an experiment: the family, the
generator parameters of each point on the x-axis, the algorithms, the metric,
the number of seeds, whether to solve the offline program, and the paper's
claims about the figure (checked by :mod:`aisched.experiments.report`). It holds
no code: :mod:`aisched.experiments.sweep` runs it. Users write their own in
Python or in a TOML file (:func:`load`, format in :func:`from_mapping`);
:mod:`aisched.experiments.catalog` names them.

Every scenario also carries a *reduced* form (smaller generator parameters
and x-values, one seed) that runs in seconds: the test suite runs every
named scenario that way, and ``aisched sweep NAME --reduced`` does too.
"""

from __future__ import annotations

import inspect
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.readings import check_reading_keys, reading_keys

__all__ = [
    "CLAIM_KINDS",
    "Add",
    "COMMON_FIGURES",
    "COMMON_METRICS",
    "kinds",
    "METRICS",
    "Claim",
    "Scenario",
    "improvement_claims",
    "from_mapping",
    "load",
]


#: Metrics every scenario may plot: a column of the sweep's table, and whether higher is better.
COMMON_METRICS: dict[str, bool] = {
    "objective": True,            # the paper's objective (welfare, utility, profit, revenue)
    "ratio": True,                # objective / offline optimum (or bound)
    "competitive_ratio": False,   # offline optimum (or bound) / objective (>= 1, the papers' CR)
    "admitted": True,             # admitted jobs
    "runtime_s": False,           # wall time of the whole run
    "decision_median_s": False,   # median seconds per job decision
}


class _Metrics(Mapping[str, bool]):
    """:data:`COMMON_METRICS` and every registered family's ``metric_columns``, read when asked."""

    def _table(self) -> dict[str, bool]:
        return {**COMMON_METRICS, **families.metric_directions()}

    def __getitem__(self, name: str) -> bool:
        return self._table()[name]

    def __iter__(self) -> Any:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


#: Metrics a scenario may plot (common and the families' own), and whether higher is better.
METRICS: Mapping[str, bool] = _Metrics()

#: Report figures every family has, drawn by the machinery itself: ``"regime"``
#: (:mod:`aisched.experiments.regime`, the regime map of a scarcity knob).
COMMON_FIGURES: tuple[str, ...] = ("regime",)

#: The scenario kind every family has: what its cell runs. Other kinds are a family's own
#: (:attr:`aisched.families.FamilyHooks.kinds`, e.g. a policy-selection kind).
COMPARE_KIND = "an algorithm (or the offline program) on the generated instance of (point, seed)"


def kinds(family: str) -> dict[str, str]:
    """The scenario kinds of ``family`` (``"compare"`` and its own), each with what a cell runs."""
    own = families.hooks(family).kinds if family in families.names() else {}
    return {"compare": COMPARE_KIND, **{name: kind.description for name, kind in own.items()}}


#: Claim kinds and what they assert (``m(a, p)``: mean metric of algorithm ``a`` at point ``p``).
CLAIM_KINDS: dict[str, str] = {
    "improvement": "m(algorithm, point) / m(baseline, point) - 1 has the sign of value (paper: value)",
    "best": "algorithm has the best mean metric at every point",
    "at_most": "m(algorithm, p) <= value at every point",
    "increasing": "m(algorithm, p) does not decrease along the x-axis",
    "greater": "m(algorithm, point) > m(algorithm, other_point)",
    "at_least": "m(algorithm, p) >= value at every point",
    "better_than": "m(algorithm, p) is better than m(baseline, p) at every point",
    "decreasing": "m(algorithm, p) does not increase along the x-axis",
    "gentler_decline": "the relative drop (m(point) - m(other_point)) / |m(point)| of algorithm is smaller "
                       "than baseline's",
    "spread_at_most": "max_p m(algorithm, p) / min_p m(algorithm, p) <= value (all means > 0)",
}


@dataclass(frozen=True)
class Claim:
    """A statement of the paper about a figure, checked against the measured means.

    Attributes
    ----------
    kind
        One of :data:`CLAIM_KINDS`.
    text
        The paper's words (quoted or paraphrased, with its figure).
    algorithm
        The algorithm the claim is about.
    baseline
        ``improvement`` / ``better_than``: the algorithm compared against.
    point
        ``improvement`` / ``greater`` / ``gentler_decline``: the x label the claim is made at
        (``gentler_decline``: where the drop starts).
    other_point
        ``greater`` / ``gentler_decline``: the x label compared with (where the drop ends).
    value
        ``improvement``: the paper's relative change (0.4899 for +48.99%);
        ``at_most`` / ``at_least``: the bound; ``spread_at_most``: the largest max / min ratio.
    why
        Keys of the sections of ``docs/readings.md`` that explain the claim's verdict where it
        fails or cannot be tested here: a section's key is its heading's first word (``"S3"`` for
        ``### S3. Averaged commitments ...``, ``"L8"``, ``"A-bound"``). The reproduction page links
        each key's section beside such a verdict (issue 29, item 11); empty: the page says that no
        reading explains it yet.
    """

    kind: str
    text: str
    algorithm: str
    baseline: str | None = None
    point: str | None = None
    other_point: str | None = None
    value: float | None = None
    why: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "why", reading_keys(self.why))


@dataclass(frozen=True)
class Scenario:
    """One experiment: points on an x-axis x seeds x algorithms.

    Attributes
    ----------
    name
        ``"<family>/<short-name>"``, e.g. ``"lora/fig7-traces"``.
    family
        ``"lora"``, ``"spot"``, ``"genai"`` or ``"tenants"``.
    title
        One line: what the figure shows (and which figure of the paper).
    x
        The generator parameter varied along the x-axis.
    values
        Its values, one per point (labels are ``str(value)``).
    base
        Generator parameters shared by every point (``seed`` comes from the sweep).
    algorithms
        Registered algorithm names of the family.
    metric
        A key of :data:`METRICS`.
    seeds
        Default number of seeds (``0 .. seeds-1``).
    offline
        Also solve the offline program of every (point, seed).
    time_limit
        Seconds for each offline solve (and each certified bound).
    bound
        Also compute the family's certified upper bound (:func:`aisched.bound`,
        cell algorithm ``"bound"``) of every (point, seed): the ratio reference
        wherever the offline program is not proven optimal or not solved
        (``offline = false``, paper-scale points; issue 17).
    bound_at
        With ``bound``: only these x values get a bound cell (the points the
        claims are made at: a reference for their headroom, issue 25); empty (the
        default): every point. A value the (reduced) run does not have is skipped.
    params
        Per-algorithm keyword parameters.
    reduced_base, reduced_values
        Overrides for the reduced (test-size) form.
    claims
        The paper's statements about the figure.
    kind
        ``"compare"`` (default) or one of the family's own kinds (:func:`kinds`).
    x_target
        "generator" (default): ``x`` is a generator parameter; "algorithms": ``x``
        is a keyword parameter of every compared algorithm (e.g. Astraea's
        ``theta_scale`` in tenants Fig. 11), the instance is the same at every point.
    figures
        Extra figures of the report, names from the family's registered ``figures`` (:class:`aisched.families.FamilyHooks`)
        (e.g. "alpha_per_user", "policy_weights") or :data:`COMMON_FIGURES`
        ("regime": the regime map of :mod:`aisched.experiments.regime`, with its region statement).
    variants
        Readings to compare: ``{variant: {algorithm: {parameter: value}}}``, e.g.
        ``{"beta-per-gb": {"pdftsp": {"beta_unit": "per_gb"}}}``. Each variant runs
        the algorithms it names once more with those parameters (their cells and
        table rows are labelled ``"<algorithm>@<variant>"``), and the report checks
        every claim under the default readings and under each variant.
    full_values
        Set by :meth:`reduced`: the full scenario's x values. Claims keep the
        points they are made at; the report says "not checked" for a claim at
        a point the reduced run does not have, rather than dropping it.
    cost
        What a full-size run costs, measured (machine, load, per cell or per
        seed), shown by ``aisched scenarios``. Not part of :meth:`definition`:
        restating a cost never stops a sweep folder from resuming.
    why
        Keys of the ``docs/readings.md`` sections that explain the figure's claims
        (:attr:`Claim.why`), given to every claim that names none of its own. Like
        ``cost``, documentation: the claims' ``why`` is not part of :meth:`definition`
        (the reproduction page looks it up in the catalogue by scenario name and claim).
    """

    name: str
    family: str
    title: str
    x: str
    values: tuple[Any, ...]
    base: Mapping[str, Any]
    algorithms: tuple[str, ...]
    metric: str = "objective"
    seeds: int = 3
    offline: bool = False
    time_limit: float | None = 60.0
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    reduced_base: Mapping[str, Any] = field(default_factory=dict)
    reduced_values: tuple[Any, ...] | None = None
    claims: tuple[Claim, ...] = ()
    kind: str = "compare"
    x_target: str = "generator"
    figures: tuple[str, ...] = ()
    full_values: tuple[Any, ...] | None = None
    variants: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    bound: bool = False
    cost: str = ""
    bound_at: tuple[Any, ...] = ()
    why: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "why", reading_keys(self.why))
        if self.why and isinstance(self.why, tuple):
            object.__setattr__(self, "claims", tuple(c if c.why else replace(c, why=self.why) for c in self.claims))
        _validate(self)

    @property
    def labels(self) -> list[str]:
        """The x labels, ``str(value)`` of each point."""
        return [str(v) for v in self.values]

    def point_params(self, point: int) -> dict[str, Any]:
        """Generator keyword parameters of point ``point`` (without the seed)."""
        if self.x_target == "algorithms":
            return dict(self.base)
        return {**self.base, self.x: self.values[point]}

    @property
    def runs(self) -> list[str]:
        """The labels of every algorithm run: the compared ones, then ``"<algorithm>@<variant>"``."""
        return [*self.algorithms, *(f"{a}@{v}" for v, by in self.variants.items() for a in by)]

    def algorithm_params(self, point: int, algorithm: str) -> dict[str, Any]:
        """Keyword parameters of ``algorithm`` (or a ``"<algorithm>@<variant>"`` label) at point ``point``."""
        name, _, variant = algorithm.partition("@")
        params = {**self.params.get(name, {}), **(self.variants.get(variant, {}).get(name, {}) if variant else {})}
        if self.x_target == "algorithms" and name != "offline":
            params[self.x] = self.values[point]
        return params

    def reduced(self) -> Scenario:
        """The test-size form: reduced parameters and values, one seed, short offline limit.

        Every claim is kept: one made at a point the reduced form does not have is
        reported as "not checked" with that reason (:func:`aisched.experiments.report.check_claims`).
        """
        values = tuple(self.reduced_values if self.reduced_values is not None else self.values)
        limit = None if self.time_limit is None else min(self.time_limit, 20.0)
        return replace(
            self, base={**self.base, **self.reduced_base}, values=values, seeds=1, time_limit=limit,
            reduced_base={}, reduced_values=None,
            full_values=self.full_values if self.full_values is not None else self.values,
        )

    def definition(self) -> dict[str, Any]:
        """A plain, JSON-able description (what a sweep folder records to guard ``--resume``)."""
        return {
            "name": self.name, "family": self.family, "title": self.title, "x": self.x,
            "values": list(self.values), "labels": self.labels, "base": dict(self.base), "algorithms": list(self.algorithms),
            "metric": self.metric, "offline": self.offline, "time_limit": self.time_limit,
            "params": {k: dict(v) for k, v in self.params.items()},
            "claims": [{k: v for k, v in vars(c).items() if k != "why"} for c in self.claims],
            # recorded only when not the default, so that older sweep folders still resume
            **({"kind": self.kind} if self.kind != "compare" else {}),
            **({"bound": True} if self.bound else {}),
            **({"bound_at": list(self.bound_at)} if self.bound_at else {}),
            **({"reduced_form": True} if self.full_values is not None else {}),
            **({"x_target": self.x_target} if self.x_target != "generator" else {}),
            **({"figures": list(self.figures)} if self.figures else {}),
            **({"variants": {v: {a: dict(p) for a, p in by.items()} for v, by in self.variants.items()}}
               if self.variants else {}),
        }


def _generator(family: str, kind: str = "compare") -> Any:
    hooks = families.hooks(family)
    if kind == "compare":
        return hooks.generate
    if kind not in hooks.kinds:
        raise InvalidScenarioError("kind", f"{family!r} has no {kind!r} scenarios")
    return hooks.kinds[kind].cell


def _validate(s: Scenario) -> None:
    from aisched import registry
    from aisched.api import check_params

    where = f"scenario {s.name!r}: "
    if not isinstance(s.name, str) or s.name.count("/") != 1 or not all(s.name.split("/")):
        raise InvalidScenarioError("name", f"{s.name!r} must look like '<family>/<short-name>'")
    if s.family not in families.names():
        raise InvalidScenarioError("family", f"{where}{s.family!r} is not one of {families.names()}")
    if s.name.split("/")[0] != s.family:
        raise InvalidScenarioError("name", f"{where}must start with its family {s.family!r}/")
    if not s.values:
        raise InvalidScenarioError("values", f"{where}needs at least one x value")
    if s.reduced_values is not None and not s.reduced_values:
        raise InvalidScenarioError("reduced_values", f"{where}must not be empty")
    if s.metric not in METRICS:
        raise InvalidScenarioError("metric", f"{where}{s.metric!r} is not one of {list(METRICS)}")
    if not isinstance(s.seeds, int) or isinstance(s.seeds, bool) or s.seeds < 1:
        raise InvalidScenarioError("seeds", f"{where}= {s.seeds!r} must be an integer >= 1")
    if s.time_limit is not None and not (isinstance(s.time_limit, (int, float)) and s.time_limit > 0
                                         and math.isfinite(s.time_limit)):
        raise InvalidScenarioError("time_limit", f"{where}= {s.time_limit!r} must be > 0 seconds")
    owner = families.metric_families().get(s.metric, s.family)
    if owner != s.family:
        raise InvalidScenarioError("metric", f"{where}{s.metric!r} is a {owner!r} metric")
    check_reading_keys(s.why, "why", where)
    everywhere = [*s.values, *(s.full_values or ())]
    for i, at in enumerate(s.bound_at):
        if not s.bound:
            raise InvalidScenarioError("bound_at", f"{where}needs bound = true")
        if at not in everywhere:
            raise InvalidScenarioError(f"bound_at[{i}]", f"{where}{at!r} is not one of the x values {list(everywhere)}")
    if s.metric in ("ratio", "competitive_ratio") and not (s.offline or s.bound):
        raise InvalidScenarioError("metric", f"{where}{s.metric!r} needs offline = true (or bound = true)")
    known_kinds = kinds(s.family)
    if s.kind not in known_kinds:
        raise InvalidScenarioError("kind", f"{where}{s.kind!r} is not one of {list(known_kinds)} "
                                   f"({s.family!r} has no {s.kind!r} scenarios)")
    if s.x_target not in ("generator", "algorithms"):
        raise InvalidScenarioError("x_target", f"{where}{s.x_target!r} is not 'generator' or 'algorithms'")
    gen = _generator(s.family, s.kind)
    if s.kind != "compare":
        known = list(families.hooks(s.family).kinds[s.kind].pools)
        if s.offline:
            raise InvalidScenarioError("offline", f"{where}a {s.kind} scenario has no offline program")
        if s.x_target != "generator":
            raise InvalidScenarioError("x_target", f"{where}a {s.kind} scenario varies its generator")
    else:
        known = registry.names(s.family)
    if not s.algorithms:
        raise InvalidScenarioError("algorithms", f"{where}needs at least one algorithm")
    for i, name in enumerate(s.algorithms):
        if name not in known:
            what = "algorithm" if s.kind == "compare" else families.hooks(s.family).kinds[s.kind].pool_word
            raise InvalidScenarioError(
                f"algorithms[{i}]", f"{where}{name!r} is not a {what} of {s.family!r} (known: {known})"
            )
    for name in s.params:
        if name not in s.algorithms:
            raise InvalidScenarioError("params", f"{where}parameters for {name!r}, which is not compared")
        if s.kind == "compare":
            try:
                check_params(s.family, name, s.params[name])
            except InvalidScenarioError as exc:
                raise InvalidScenarioError(f"params.{name}.{exc.field}", f"{where}{exc.message}") from None
    if s.x_target == "algorithms":
        for name in s.algorithms:
            taken = inspect.signature(registry.lookup(s.family, name)).parameters
            if s.x not in taken:
                raise InvalidScenarioError(
                    "x", f"{where}{s.x!r} is not a parameter of {s.family!r} algorithm {name!r}")
            for i, value in enumerate(s.values):
                try:
                    check_params(s.family, name, {s.x: value})
                except InvalidScenarioError as exc:
                    raise InvalidScenarioError(f"values[{i}]", f"{where}{exc.message}") from None
    _validate_figures(s, where)
    _validate_variants(s, where)
    accepted = set(inspect.signature(gen).parameters) - {"seed", "rng", "pool"}
    on_x = {} if s.x_target == "algorithms" else {s.x: None}
    for label, mapping in (("base", s.base), ("reduced_base", s.reduced_base), ("x", on_x)):
        for key in mapping:
            if key not in accepted:
                raise InvalidScenarioError(
                    label, f"{where}{key!r} is not a parameter of aisched.scenarios.{s.family}."
                    f"{gen.__name__} (accepted: {sorted(accepted)})"
                )
    labels = [str(v) for v in (*s.values, *(s.full_values or ()))]
    for i, c in enumerate(s.claims):
        if c.kind not in CLAIM_KINDS:
            raise InvalidScenarioError(f"claims[{i}].kind", f"{where}{c.kind!r} is not one of {list(CLAIM_KINDS)}")
        if c.algorithm not in s.algorithms:
            raise InvalidScenarioError(f"claims[{i}].algorithm", f"{where}{c.algorithm!r} is not compared")
        if c.kind == "improvement" and (c.baseline not in s.algorithms or c.value is None):
            raise InvalidScenarioError(
                f"claims[{i}]", f"{where}an improvement claim needs a compared baseline and a value"
            )
        if c.kind in ("at_most", "at_least", "spread_at_most") and c.value is None:
            raise InvalidScenarioError(f"claims[{i}].value", f"{where}an {c.kind} claim needs a value")
        if c.kind in ("better_than", "gentler_decline") and c.baseline not in s.algorithms:
            raise InvalidScenarioError(f"claims[{i}].baseline", f"{where}needs a compared baseline")
        for attr in ("point", "other_point"):
            label = getattr(c, attr)
            if label is not None and label not in labels:
                raise InvalidScenarioError(
                    f"claims[{i}].{attr}", f"{where}{label!r} is not an x label ({labels})"
                )
        if c.kind in ("improvement", "greater") and c.point is None:
            raise InvalidScenarioError(f"claims[{i}].point", f"{where}a {c.kind} claim needs a point")
        if c.kind == "gentler_decline" and (c.point is None or c.other_point is None):
            raise InvalidScenarioError(f"claims[{i}]", f"{where}a gentler_decline claim needs point and other_point")
        if c.kind == "greater" and c.other_point is None:
            raise InvalidScenarioError(f"claims[{i}].other_point", f"{where}a greater claim needs other_point")
        check_reading_keys(c.why, f"claims[{i}].why", where)


def _validate_figures(s: Scenario, where: str) -> None:
    if isinstance(s.figures, str) or not isinstance(s.figures, tuple):
        raise InvalidScenarioError("figures", f"{where}must be a tuple of figure names, got {s.figures!r}")
    available = [*families.hooks(s.family).figures, *COMMON_FIGURES]
    proposed = families.record(s.family).proposed
    for i, name in enumerate(s.figures):
        if name not in available:
            raise InvalidScenarioError(
                f"figures[{i}]", f"{where}{name!r} is not a figure of {s.family!r} (known: {sorted(available)})")
        if name == "regime" and (proposed not in s.algorithms or len(s.algorithms) < 2):
            raise InvalidScenarioError(
                f"figures[{i}]", f"{where}'regime' compares {s.family!r}'s proposed algorithm "
                f"{proposed!r} with baselines: algorithms must hold it and at least one other")


def _validate_variants(s: Scenario, where: str) -> None:
    from aisched.api import check_params

    if not isinstance(s.variants, Mapping):
        raise InvalidScenarioError("variants", f"{where}must be a table of variants, got {s.variants!r}")
    for variant, by in s.variants.items():
        if not isinstance(variant, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", variant):
            raise InvalidScenarioError("variants", f"{where}variant name {variant!r}: use letters, digits, _ . -")
        if s.kind != "compare":
            raise InvalidScenarioError("variants", f"{where}variants need a 'compare' scenario")
        if not isinstance(by, Mapping) or not by:
            raise InvalidScenarioError(f"variants.{variant}", f"{where}must name at least one algorithm")
        for name, params in by.items():
            if name not in s.algorithms:
                raise InvalidScenarioError(f"variants.{variant}.{name}", f"{where}{name!r} is not compared")
            if not isinstance(params, Mapping) or not params:
                raise InvalidScenarioError(f"variants.{variant}.{name}", f"{where}must set at least one parameter")
            try:
                check_params(s.family, name, {**s.params.get(name, {}), **params})
            except InvalidScenarioError as exc:
                raise InvalidScenarioError(f"variants.{variant}.{name}.{exc.field}", f"{where}{exc.message}") from None


_TOP_KEYS = {
    "name", "family", "title", "x", "values", "base", "algorithms", "metric", "seeds", "offline",
    "time_limit", "params", "reduced", "reduced_values", "claims", "kind", "x_target", "figures", "variants",
    "bound", "bound_at", "why",
}
_CLAIM_KEYS = {"kind", "text", "algorithm", "baseline", "point", "other_point", "value", "why"}


def from_mapping(data: Mapping[str, Any], *, source: str = "<mapping>") -> Scenario:
    """A scenario from a plain mapping (a parsed TOML file).

    Keys: ``name``, ``family``, ``title``, ``x``, ``values`` (list), ``algorithms``
    (list), optional ``base`` (table of generator parameters), ``metric``,
    ``seeds``, ``offline``, ``time_limit``, ``params`` (table per algorithm),
    ``reduced`` (table of generator overrides), ``reduced_values``, ``kind``,
    ``x_target``, ``figures`` (list), ``bound``, ``bound_at`` (list) and ``[[claims]]`` tables with the fields
    of :class:`Claim`. Example::

        name = "lora/my-scale"
        family = "lora"
        title = "welfare vs nodes on a small day"
        x = "nodes"
        values = [2, 4, 8]
        algorithms = ["pdftsp", "eft"]
        seeds = 2
        [base]
        slots = 24
        arrival_rate = 1.5

    Raises
    ------
    InvalidScenarioError
        Naming the key (and the file) of the first problem.
    """
    if not isinstance(data, Mapping):
        raise InvalidScenarioError("scenario", f"{source}: expected a table, got {type(data).__name__}")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise InvalidScenarioError(unknown[0], f"{source}: unknown key (known: {sorted(_TOP_KEYS)})")
    for key in ("name", "family", "x", "values", "algorithms"):
        if key not in data:
            raise InvalidScenarioError(key, f"{source}: missing required key")

    def typed(key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        if key not in data:
            return default
        value, kinds = data[key], (kind if isinstance(kind, tuple) else (kind,))
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join(k.__name__ for k in kinds)  # a bool is no number here: TOML's true is not 1
            raise InvalidScenarioError(key, f"{source}: = {value!r} has the wrong type (expected {names})")
        return value

    for key, kinds in (("values", (str, int, float)), ("reduced_values", (str, int, float)),
                       ("algorithms", (str,)), ("figures", (str,))):
        for i, item in enumerate(typed(key, list, [])):
            if not isinstance(item, kinds) or (isinstance(item, float) and not math.isfinite(item)):
                raise InvalidScenarioError(f"{key}[{i}]", f"{source}: = {item!r} is not "
                                           f"{'a name' if str in kinds and len(kinds) == 1 else 'a number or name'}")
    claims = []
    for i, raw in enumerate(typed("claims", list, [])):
        if not isinstance(raw, Mapping):
            raise InvalidScenarioError(f"claims[{i}]", f"{source}: expected a table")
        bad = sorted(set(raw) - _CLAIM_KEYS)
        if bad or not {"kind", "algorithm"} <= set(raw):
            raise InvalidScenarioError(
                f"claims[{i}]", f"{source}: keys {sorted(raw)}; needs kind and algorithm, allows {sorted(_CLAIM_KEYS)}"
            )
        claims.append(Claim(**{"text": "", **raw}))
    params = typed("params", Mapping, {})
    for k, v in params.items():
        if not isinstance(v, Mapping):
            raise InvalidScenarioError(f"params.{k}", f"{source}: expected a table of parameters")
    variants = typed("variants", Mapping, {})
    for v, by in variants.items():
        if not isinstance(by, Mapping) or not all(isinstance(p, Mapping) for p in by.values()):
            raise InvalidScenarioError(f"variants.{v}", f"{source}: expected a table per algorithm")
    try:
        return Scenario(
            name=typed("name", str), family=typed("family", str), title=typed("title", str, ""),
            x=typed("x", str), values=tuple(typed("values", list)), base=dict(typed("base", Mapping, {})),
            algorithms=tuple(typed("algorithms", list)), metric=typed("metric", str, "objective"),
            seeds=typed("seeds", int, 3), offline=typed("offline", bool, False),
            time_limit=typed("time_limit", (int, float), 60.0),
            params={k: dict(v) for k, v in params.items()},
            reduced_base=dict(typed("reduced", Mapping, {})),
            reduced_values=None if "reduced_values" not in data else tuple(typed("reduced_values", list)),
            claims=tuple(claims), kind=typed("kind", str, "compare"),
            x_target=typed("x_target", str, "generator"), figures=tuple(typed("figures", list, [])),
            variants={v: {a: dict(p) for a, p in by.items()} for v, by in variants.items()},
            bound=typed("bound", bool, False), bound_at=tuple(typed("bound_at", list, [])),
            why=tuple(typed("why", list, [])),
        )
    except InvalidScenarioError as exc:
        raise InvalidScenarioError(exc.field, f"{source}: {exc.message}") from None


def load(path: str | os.PathLike[str]) -> Scenario:
    """Read a scenario from a TOML file (see :func:`from_mapping`); not registered."""
    p = Path(path)
    if not p.is_file():
        raise InvalidScenarioError("scenario", f"file {str(p)!r} does not exist")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidScenarioError("scenario", f"{str(p)!r} is not valid TOML ({exc})") from None
    return from_mapping(data, source=str(p))


Add = Callable[[Scenario], object]
"""How a family hands its scenarios to the catalogue (``FamilyHooks.scenarios``, :mod:`aisched.families`)."""


def improvement_claims(algorithm: str, point: str, figures: dict[str, float], where: str,
                       why: tuple[str, ...] = ()) -> tuple[Claim, ...]:
    """One ``improvement`` claim per baseline: ``algorithm`` beats ``base`` by ``value`` at ``point``.

    ``why``: the readings that explain a failing verdict (:attr:`Claim.why`), the same for each.
    """
    return tuple(
        Claim("improvement", f"{where} {algorithm} improves over {base} by {value:.2%}", algorithm,
              baseline=base, point=point, value=value, why=why)
        for base, value in figures.items()
    )
