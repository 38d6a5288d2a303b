"""Readings held fixed while calibration fits the silent parameters: whose option each names, and the checks.

A reading is a choice among the paper's readings, never fitted: ``calibrate(reading=...)`` and
``sensitivity(reading=...)`` (``--reading`` on the command line) run every cell with it. A key names

- ``name``: an option every baseline takes (genai's ``gpus``);
- ``algorithm.name``: one baseline's option (spot's ``up.variant``);
- ``generator.name``: the workload's (tenants' ``generator.ps_per_server``), at every point.

:func:`check_reading` refuses a bad one before any work; :func:`held_by_reading` leaves out of the
grid a baseline's silent value the reading rules out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.families import Family, SilentParameter

__all__ = ["GENERATOR", "check_reading", "generator_reading", "held_by_reading", "option_value", "parameter_key",
           "reading_label", "reading_options"]


def parameter_key(parameter: SilentParameter) -> str:
    """``"value"`` for a generator parameter, ``"up.gpus"`` for an algorithm's."""
    return parameter.name if parameter.algorithm is None else f"{parameter.algorithm}.{parameter.name}"


def reading_label(reading: Mapping[str, Any]) -> str:
    """``gpus=4`` (``name=value`` joined by commas, sorted): a reading's name in text and file names."""
    return ",".join(f"{k}={v}" for k, v in sorted(reading.items()))


#: The owner in ``reading`` keys that names a generator option (``generator.ps_per_server``), not an algorithm's.
GENERATOR = "generator"


def reading_options(reading: Mapping[str, Any], algorithm: str) -> dict[str, Any]:
    """The options ``reading`` gives ``algorithm``: every plain ``name`` (an option of every baseline) and
    each ``algorithm.name`` (that baseline's alone, e.g. ``up.variant``); ``generator.name`` is the
    workload's (:func:`generator_reading`)."""
    out = {}
    for key, value in reading.items():
        owner, dot, name = key.rpartition(".")
        if not dot or owner == algorithm:
            out[name] = value
    return out


def generator_reading(reading: Mapping[str, Any]) -> dict[str, Any]:
    """The generator options ``reading`` sets at every point (its ``generator.name`` keys)."""
    return {key.partition(".")[2]: value for key, value in reading.items() if key.startswith(GENERATOR + ".")}


def _check_generator_reading(family: str, key: str, name: str, value: Any, points: Sequence[Mapping[str, Any]],
                             silent: Sequence[SilentParameter]) -> None:
    """A ``generator.name`` reading: an option of the family's generator, not a silent parameter, not a value
    a point sets; its value checked by drawing one instance at the first point (in memory, nothing written)."""
    import inspect

    generate = families.hooks(family).generate
    taken = set(inspect.signature(generate).parameters) - {"seed", "rng"}
    if name not in taken:
        raise InvalidScenarioError(f"reading[{key!r}]", f"is not an option of {family!r}'s generator (it takes "
                                   f"{', '.join(sorted(taken))})")
    if any(p.algorithm is None and p.name == name for p in silent):
        raise InvalidScenarioError(f"reading[{key!r}]", "is a silent parameter too: fit it or hold it, not both")
    if any(name in at for at in points):
        raise InvalidScenarioError(f"reading[{key!r}]", "is set by a target's point: the reading would move the point")
    if points:
        try:
            generate(seed=0, **{**points[0], name: value})
        except InvalidScenarioError as exc:
            raise InvalidScenarioError(f"reading[{key!r}]", exc.message) from None
        except (TypeError, ValueError) as exc:  # a generator that checks a type by using it
            raise InvalidScenarioError(f"reading[{key!r}]", f"= {value!r} is refused by the generator ({exc})") from None


def check_reading(family: str, baselines: Sequence[str], reading: Mapping[str, Any],
                  silent: Sequence[SilentParameter] = (), points: Sequence[Mapping[str, Any]] = ()) -> None:
    """Refuse, before any work, a reading option that a baseline does not take (or takes with another
    range), one of a baseline that does not run (``up.variant`` where no target runs UP), one that a
    silent parameter of that baseline also sets, or a generator option (``generator.name``) that the
    generator does not take, that a silent parameter or a target's point (``points``) sets, or whose value
    it refuses at the first point, naming ``reading[name]``."""
    from aisched.core.runner import check_params

    for key, value in reading.items():
        owner, dot, name = key.rpartition(".")
        if owner == GENERATOR:
            _check_generator_reading(family, key, name, value, points, silent)
            continue
        if dot and owner not in baselines:
            raise InvalidScenarioError(f"reading[{key!r}]", f"{owner!r} is not among the algorithms that run "
                                       f"({', '.join(baselines)})")
        takers = [owner] if dot else list(baselines)
        for algorithm in takers:
            try:
                check_params(family, algorithm, {name: value})
            except InvalidScenarioError as exc:
                raise InvalidScenarioError(f"reading[{key!r}]", f"{algorithm}: {exc.message}") from None
        clash = [parameter_key(p) for p in silent if p.algorithm in takers and p.name == name]
        if clash:
            raise InvalidScenarioError(f"reading[{key!r}]", f"is a silent parameter too ({', '.join(clash)}): "
                                       "fit it or hold it, not both")


def held_by_reading(family: str, record: Family, reading: Mapping[str, Any]) -> tuple[Family, tuple[str, ...]]:
    """``record`` with each baseline's silent value that ``reading`` rules out left out of its grid (the
    baseline refuses it beside the reading's options, e.g. UP's ``gpus`` under ``up.variant=paper``, which
    sizes itself), and what was left out (``"up.gpus = 6"``)."""
    from aisched.core.runner import check_params

    params, dropped = [], []
    for p in record.silent_parameters:
        if p.algorithm is not None and reading:
            options = reading_options(reading, p.algorithm)
            kept = []
            for value in p.values:
                try:
                    if value is not None and options:
                        check_params(family, p.algorithm, {**options, p.name: option_value(value)})
                    kept.append(value)
                except InvalidScenarioError:
                    dropped.append(f"{parameter_key(p)} = {'(own)' if value is None else format(value, 'g')}")
            if len(kept) < len(p.values):
                p = replace(p, grid=tuple(kept))
        params.append(p)
    return replace(record, silent_parameters=tuple(params)), tuple(dropped)


def option_value(value: Any) -> Any:
    """A grid value as an algorithm's option (a whole number as an int)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value
