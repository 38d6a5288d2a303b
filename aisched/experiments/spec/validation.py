"""What a scenario may name, and the check of a :class:`~aisched.experiments.spec.scenario.Scenario` against it.

The metrics (common and the families' own), the report figures every family
has, the scenario kinds and the claim kinds, and :func:`validate`: the check
``Scenario.__post_init__`` runs against the registered family, its algorithms,
generator parameters, figures and variants. Re-exported by
:mod:`aisched.experiments.spec.scenario`.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.spec.readings import check_reading_keys

if TYPE_CHECKING:
    from aisched.experiments.spec.scenario import Scenario

__all__ = ["CLAIM_KINDS", "COMMON_FIGURES", "COMMON_METRICS", "COMPARE_KIND", "HEADROOM_CLAIMS", "METRICS",
           "RATIO_METRICS", "REFERENCE_RULES", "kinds", "offline_options", "validate"]


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
#: (:mod:`aisched.experiments.verdicts.regime`, the regime map of a scarcity knob).
COMMON_FIGURES: tuple[str, ...] = ("regime",)

#: The scenario kind every family has: what its cell runs. Other kinds are a family's own
#: (:attr:`aisched.families.FamilyHooks.kinds`, e.g. a policy-selection kind).
COMPARE_KIND = "an algorithm (or the offline program) on the generated instance of (point, seed)"


def kinds(family: str) -> dict[str, str]:
    """The scenario kinds of ``family`` (``"compare"`` and its own), each with what a cell runs."""
    own = families.hooks(family).kinds if family in families.names() else {}
    return {"compare": COMPARE_KIND, **{name: kind.description for name, kind in own.items()}}


#: Claim kinds and what they assert (``m(a, p)``: mean metric of algorithm ``a`` at point ``p``).
#: Metrics measured against a reference (offline optimum, or a certified bound where none is proven).
RATIO_METRICS = ("ratio", "competitive_ratio")

#: Claims whose verdict reads the reference's headroom over the baseline ("untestable" where the
#: optimum leaves less room than the claim needs, or ties the baseline within the seeds' noise).
HEADROOM_CLAIMS = ("improvement", "better_than")

#: A scenario's ``references``: where its offline solve and bound cells run (:meth:`Scenario.reference_points`).
REFERENCE_RULES = ("needed", "all")

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


#: Most seeds a sweep runs, from the command line (``--seeds``), a TOML (``seeds``) or Python alike (a size
#: guard: cells = points x seeds x algorithms, each a row in memory; raise it if you mean it).
MAX_SEEDS = 10_000


def check_seeds(value: Any, field: str = "seeds", where: str = "") -> int:
    """``value`` as a number of seeds: an integer from 1 to :data:`MAX_SEEDS`, else
    :class:`InvalidScenarioError` naming ``field`` (the one check of the CLI, the TOML and :func:`sweep`)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidScenarioError(field, f"{where}= {value!r} must be an integer >= 1")
    if value > MAX_SEEDS:
        raise InvalidScenarioError(field, f"{where}= {value} is more than the limit MAX_SEEDS = {MAX_SEEDS} "
                                   "(raise aisched.experiments.spec.validation.MAX_SEEDS if you mean it)")
    return value


def offline_options(family: str) -> set[str]:
    """The options the family's offline solve takes (its keyword parameters but the instance):
    what a scenario's ``params["offline"]`` may set."""
    from aisched.core.runner import offline_options as options

    return options(family)


def _generator(family: str, kind: str = "compare") -> Any:
    hooks = families.hooks(family)
    if kind == "compare":
        return hooks.generate
    if kind not in hooks.kinds:
        raise InvalidScenarioError("kind", f"{family!r} has no {kind!r} scenarios")
    return hooks.kinds[kind].cell


def validate(s: Scenario) -> None:
    """Raise :class:`InvalidScenarioError` naming the first field of ``s`` that the registered family refuses."""
    from aisched import registry
    from aisched.core.runner import check_params

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
    check_seeds(s.seeds, "seeds", where)
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
    if s.references not in REFERENCE_RULES:
        raise InvalidScenarioError("references", f"{where}{s.references!r} is not one of {list(REFERENCE_RULES)}")
    if s.metric in RATIO_METRICS and not (s.offline or s.bound):
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
        if name == "offline" and s.offline and s.kind == "compare":  # options of the family's offline solve
            taken = offline_options(s.family)
            for key in s.params[name]:
                if key not in taken:
                    raise InvalidScenarioError(f"params.offline.{key}", f"{where}is not an option of "
                                               f"{s.family!r}'s offline solve (it takes {', '.join(sorted(taken))})")
            continue
        if name not in s.algorithms:
            raise InvalidScenarioError("params", f"{where}parameters for {name!r}, which is not compared")
        if s.kind == "compare":
            try:
                check_params(s.family, name, s.params[name])
            except InvalidScenarioError as exc:
                raise InvalidScenarioError(f"params.{name}.{exc.field}", f"{where}{exc.message}") from None
    if s.x_target == "algorithms":
        for name in s.algorithms:
            taken = {p.name for p in registry.algorithm(s.family, name).parameters}
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
    check_files = getattr(gen, "check_files", None)  # a generator's look at the files its parameters name
    if check_files is not None and s.kind == "compare":
        for p in range(len(s.values)):  # before a sweep writes its scenario.json, not when its first cell runs
            try:
                check_files(**s.point_params(p))
            except InvalidScenarioError as exc:
                raise InvalidScenarioError(exc.field, f"{where}{exc.message}") from None
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
    from aisched.core.runner import check_params

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
