"""Scenarios as data: :class:`Scenario`, :class:`Claim` and their TOML form.

A :class:`Scenario` is a frozen description of an experiment: the family, the
generator parameters of each point on the x-axis, the algorithms, the metric,
the number of seeds, whether to solve the offline program, and the paper's
claims about the figure (checked by :mod:`aisched.experiments.pages.report`). It holds
no code: :mod:`aisched.experiments.run.sweep` runs it. Users write their own in
Python or in a TOML file (:func:`load`, format in :func:`from_mapping`);
:mod:`aisched.experiments.spec.catalog` names them. A scenario is checked against the
registered family when it is made (:mod:`aisched.experiments.spec.validation`);
:meth:`Scenario.definition` writes it back in the TOML form, and
:meth:`Scenario.sweep_record` is what a sweep folder records
(:mod:`aisched.experiments.store.stored` reads it back).

Every scenario also carries a *reduced* form (smaller generator parameters
and x-values, one seed) that runs in seconds: the test suite runs every
named scenario that way, and ``aisched sweep NAME --reduced`` does too.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from aisched import registry
from aisched.errors import InvalidScenarioError
from aisched.experiments.spec.readings import reading_keys
from aisched.experiments.spec.validation import (
    CLAIM_KINDS,
    COMMON_FIGURES,
    COMMON_METRICS,
    HEADROOM_CLAIMS,
    METRICS,
    RATIO_METRICS,
    kinds,
    validate,
)

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
        Keys of the sections of the readings (``docs/readings/``) that explain the claim's verdict where it
        fails or cannot be tested here: a section's key is its heading's first word (``"S3"`` for
        ``### S3. Averaged commitments ...``, ``"L8"``, ``"A-bound"``). The reproduction page links
        each key's section beside such a verdict; empty: the page says that no
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
        (``offline = false``, paper-scale points).
    bound_at
        With ``bound``: only these x values get a bound cell (the points the
        claims are made at: a reference for their headroom); empty (the
        default): every point. A value the (reduced) run does not have is skipped.
    params
        Per-algorithm keyword parameters; with ``offline``, ``params["offline"]`` holds options of the
        family's offline solve (e.g. genai's ``gpus``, which a sensitivity run under a reading sets).
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
        ("regime": the regime map of :mod:`aisched.experiments.verdicts.regime`, with its region statement).
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
        seed), shown by ``aisched scenarios``. Not part of :meth:`sweep_record`:
        restating a cost never stops a sweep folder from resuming.
    why
        Keys of the readings' sections (``docs/readings/``) that explain the figure's claims
        (:attr:`Claim.why`), given to every claim that names none of its own. Like
        ``cost``, documentation: the claims' ``why`` is not part of :meth:`sweep_record`
        (the reproduction page looks it up in the catalogue by scenario name and claim).

    :meth:`definition` is the whole scenario in :func:`from_mapping`'s form
    (``from_mapping(s.definition()) == s``); :meth:`sweep_record` is what a sweep
    folder records (``scenario.json``, read back as
    :class:`~aisched.experiments.store.stored.StoredScenario`).
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
    references: str = "needed"

    def __post_init__(self) -> None:
        object.__setattr__(self, "why", reading_keys(self.why))
        if self.why and isinstance(self.why, tuple):
            object.__setattr__(self, "claims", tuple(c if c.why else replace(c, why=self.why) for c in self.claims))
        validate(self)

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

    def reference_points(self) -> tuple[int, ...]:
        """The points (indices) whose every seed gets the reference cells (``offline``, ``bound``).

        With ``references = "needed"`` (the default) a reference is computed only where a
        verdict reads it: at every point of a ratio metric (:data:`RATIO_METRICS`: the
        reference is the denominator), of a regime map (the reference is the map's subject),
        of a scenario with no claims (a user's sweep against the optimum) or of a family's own
        kind; otherwise only at the points of the claims decided against the reference's
        headroom (:data:`HEADROOM_CLAIMS`; a claim without a point: every point). Trends,
        bounds on a metric and "best" (whose headroom is a note, never a verdict) need none.
        ``references = "all"``: every point. ``bound_at`` still narrows the bound cells.
        """
        every = tuple(range(len(self.values)))
        if (self.references == "all" or not self.claims or self.metric in RATIO_METRICS
                or "regime" in self.figures or self.kind != "compare"):
            return every
        labels = self.labels
        needed: set[int] = set()
        for claim in self.claims:
            if claim.kind not in HEADROOM_CLAIMS:
                continue
            if claim.point is None:
                return every
            if str(claim.point) in labels:
                needed.add(labels.index(str(claim.point)))
        return tuple(sorted(needed))

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
        reported as "not checked" with that reason (:func:`aisched.experiments.pages.report.check_claims`).
        """
        values = tuple(self.reduced_values if self.reduced_values is not None else self.values)
        limit = None if self.time_limit is None else min(self.time_limit, 20.0)
        return replace(
            self, base={**self.base, **self.reduced_base}, values=values, seeds=1, time_limit=limit,
            reduced_base={}, reduced_values=None,
            full_values=self.full_values if self.full_values is not None else self.values,
        )

    def definition(self) -> dict[str, Any]:
        """Every field in :func:`from_mapping`'s (TOML) form: ``from_mapping(s.definition()) == s``.

        Plain and JSON-able (tuples as lists, an x value's tuple too; a claim's unset
        fields and an unset ``reduced_values`` / ``full_values`` are left out). The
        round trip through JSON gives the same scenario too wherever the generator and
        algorithm parameters are JSON's own values (numbers, text, lists, tables), as
        the paper scenarios' are.
        """
        return {
            "name": self.name, "family": self.family, "title": self.title, "x": self.x,
            "values": _plain_list(self.values), "base": dict(self.base), "algorithms": list(self.algorithms),
            "metric": self.metric, "seeds": self.seeds, "offline": self.offline, "time_limit": self.time_limit,
            "params": {k: dict(v) for k, v in self.params.items()}, "reduced": dict(self.reduced_base),
            **({"reduced_values": _plain_list(self.reduced_values)} if self.reduced_values is not None else {}),
            "claims": [{**{k: v for k, v in vars(c).items() if v is not None and k != "why"}, "why": list(c.why)}
                       for c in self.claims],
            "kind": self.kind, "x_target": self.x_target, "figures": list(self.figures),
            "variants": {v: {a: dict(p) for a, p in by.items()} for v, by in self.variants.items()},
            "bound": self.bound, "bound_at": _plain_list(self.bound_at), "why": list(self.why), "cost": self.cost,
            **({"references": self.references} if self.references != "needed" else {}),
            **({"full_values": _plain_list(self.full_values)} if self.full_values is not None else {}),
        }

    def sweep_record(self) -> dict[str, Any]:
        """What a sweep folder records (``scenario.json``; its computation keys guard ``--resume``, its text may change).

        Plain and JSON-able; read back by :class:`aisched.experiments.store.stored.StoredScenario`.
        Documentation (``cost``, the claims' ``why``) and the run's size (``seeds``) are left
        out, and every field added since the first sweep folders only where it is not the
        default, so that older folders still resume.
        """
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
            **({"references": self.references} if self.references != "needed" else {}),
            **({"reduced_form": True} if self.full_values is not None else {}),
            **({"x_target": self.x_target} if self.x_target != "generator" else {}),
            **({"figures": list(self.figures)} if self.figures else {}),
            **({"variants": {v: {a: dict(p) for a, p in by.items()} for v, by in self.variants.items()}}
               if self.variants else {}),
        }


_TOP_KEYS = {
    "name", "family", "title", "x", "values", "base", "algorithms", "metric", "seeds", "offline",
    "time_limit", "params", "reduced", "reduced_values", "claims", "kind", "x_target", "figures", "variants",
    "bound", "bound_at", "why", "cost", "full_values", "plugins", "references",
}
_CLAIM_KEYS = {"kind", "text", "algorithm", "baseline", "point", "other_point", "value", "why"}


def from_mapping(data: Mapping[str, Any], *, source: str = "<mapping>",
                 plugin_folder: str | os.PathLike[str] | None = None) -> Scenario:
    """A scenario from a plain mapping (a parsed TOML file).

    ``plugin_folder``: where a ``plugins`` module kept as a file is found when it is not on ``sys.path``
    (:func:`load` gives the TOML's folder).

    Keys: ``name``, ``family``, ``title``, ``x``, ``values`` (list), ``algorithms``
    (list), optional ``base`` (table of generator parameters), ``metric``,
    ``seeds``, ``offline``, ``time_limit``, ``params`` (table per algorithm),
    ``reduced`` (table of generator overrides), ``reduced_values``, ``kind``,
    ``x_target``, ``figures`` (list), ``bound``, ``bound_at`` (list), ``references`` (``"needed"`` or
    ``"all"``: see :meth:`Scenario.reference_points`), ``why`` (list), ``cost``,
    ``full_values`` (list: the full scenario's values of a :meth:`Scenario.reduced` form),
    ``plugins`` (list of modules that register a user's algorithms, imported here and by every
    worker that runs the sweep's cells; not part of the scenario itself) and ``[[claims]]`` tables with the fields of :class:`Claim`. An x value is a number, a name or a
    list of them (read as a tuple: genai's ``term_weights``); ``time_limit`` may be null in a JSON
    mapping (no limit). :meth:`Scenario.definition` writes this form. Example::

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

    for i, module in enumerate(typed("plugins", list, [])):  # a user's algorithms, before they are checked
        registry.load_plugin(module, field=f"plugins[{i}]", near=plugin_folder)

    def points(key: str) -> tuple[Any, ...] | None:
        """The x values under ``key`` (None where absent), a list among them as a tuple."""
        if key not in data:
            return None
        out = []
        for i, item in enumerate(typed(key, list)):
            parts = item if isinstance(item, (list, tuple)) else (item,)
            finite = all(isinstance(v, (str, int, float)) and not (isinstance(v, float) and not math.isfinite(v))
                         for v in parts)
            if not parts or not finite:
                raise InvalidScenarioError(f"{key}[{i}]", f"{source}: = {item!r} is not a number or name "
                                           "(or a list of them)")
            out.append(tuple(item) if isinstance(item, (list, tuple)) else item)
        return tuple(out)

    values, reduced_values, full_values, bound_at = (points(k) for k in ("values", "reduced_values",
                                                                         "full_values", "bound_at"))
    for key in ("algorithms", "figures"):
        for i, item in enumerate(typed(key, list, [])):
            if not isinstance(item, str):
                raise InvalidScenarioError(f"{key}[{i}]", f"{source}: = {item!r} is not a name")
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
            x=typed("x", str), values=values, base=dict(typed("base", Mapping, {})),
            algorithms=tuple(typed("algorithms", list)), metric=typed("metric", str, "objective"),
            seeds=typed("seeds", int, 3), offline=typed("offline", bool, False),
            time_limit=typed("time_limit", (int, float, type(None)), 60.0),
            params={k: dict(v) for k, v in params.items()},
            reduced_base=dict(typed("reduced", Mapping, {})),
            reduced_values=reduced_values, full_values=full_values, cost=typed("cost", str, ""),
            claims=tuple(claims), kind=typed("kind", str, "compare"),
            x_target=typed("x_target", str, "generator"), figures=tuple(typed("figures", list, [])),
            variants={v: {a: dict(p) for a, p in by.items()} for v, by in variants.items()},
            bound=typed("bound", bool, False), bound_at=bound_at or (),
            why=tuple(typed("why", list, [])), references=typed("references", str, "needed"),
        )
    except InvalidScenarioError as exc:  # the source once: typed() names it already
        if exc.message.startswith(f"{source}:"):
            raise
        raise InvalidScenarioError(exc.field, f"{source}: {exc.message}") from None


def _plain_list(items: Any) -> list[Any]:
    """``items`` as a list, a tuple among them (an x value like ``(1, 0, 0)``) as a list too."""
    return [list(v) if isinstance(v, tuple) else v for v in items]


def load(path: str | os.PathLike[str]) -> Scenario:
    """Read a scenario from a TOML file (see :func:`from_mapping`); not registered."""
    p = Path(path)
    if not p.is_file():
        raise InvalidScenarioError("scenario", f"file {str(p)!r} does not exist")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidScenarioError("scenario", f"{str(p)!r} is not valid TOML ({exc})") from None
    return from_mapping(data, source=str(p), plugin_folder=p.parent)


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
