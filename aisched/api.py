"""The public entry points: :func:`run`, :func:`offline`, :func:`compare`, :func:`algorithms`."""

from __future__ import annotations

import collections.abc
import inspect
import math
import numbers
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Union

import numpy as np
import pandas as pd

from aisched import families, registry
from aisched.errors import (
    AischedError,
    AlgorithmError,
    InfeasiblePlanError,
    InvalidScenarioError,
    UnknownAlgorithmError,
)
from aisched.outcome import Outcome

__all__ = ["algorithms", "bound", "check_params", "run", "offline", "compare", "FAMILIES"]  # noqa: F822 (module __getattr__)



def __getattr__(name: str) -> Any:
    """``FAMILIES``: the registered families (:func:`aisched.families.names`), read when asked for."""
    if name == "FAMILIES":
        return tuple(families.names())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _family_of(instance: Any) -> str:
    family = getattr(instance, "family", None)
    if not isinstance(family, str):
        raise AischedError(
            f"expected an aisched Instance (LoraInstance, ...), got {type(instance).__name__}"
        )
    return family


def algorithms(family: str) -> list[str]:
    """Names of the online algorithms and baselines registered for ``family``."""
    if family not in families.names():
        raise UnknownAlgorithmError(f"unknown family {family!r} (known: {', '.join(families.names())})")
    return registry.names(family)


def _describe(hint: Any) -> str:
    """A reader's name for a type hint: ``float or None``, ``one of 'faithful', 'exact'``."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(repr(v) for v in typing.get_args(hint))
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(h) for h in typing.get_args(hint))
    if hint is type(None):
        return "None"
    return {float: "a finite number", int: "an integer", bool: "True or False", str: "a string"}.get(
        hint, getattr(hint, "__name__", str(hint)))


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits the type hint; hints other than the plain ones accept anything."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return any(type(value) is type(v) and value == v for v in typing.get_args(hint))
    if origin in (Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, (bool, np.bool_))
    if hint is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
    if hint is float:
        return (isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
                and math.isfinite(float(value)))
    if hint is str:
        return isinstance(value, str)
    if origin is collections.abc.Callable or hint is collections.abc.Callable:
        return callable(value)
    if isinstance(hint, type) and hint not in (object, Any):  # a class or protocol (a spot Predictor): its attributes
        if getattr(hint, "_is_protocol", False):
            wanted = [n for n in getattr(hint, "__protocol_attrs__", ()) or vars(hint) if not n.startswith("_")]
            return all(hasattr(value, n) for n in wanted)
        return isinstance(value, hint)
    return True


def check_params(family: str, name: str, params: Mapping[str, Any]) -> None:
    """Check an algorithm's keyword parameters against its signature, before any work.

    Every name must be a parameter of the algorithm's ``run`` function, and every
    value must fit its type hint (a ``Literal`` option, an integer, a finite
    number, a boolean, a string, or ``None`` where allowed); parameters with
    other hints (predictors, weight vectors) are checked by the algorithm itself.
    An algorithm whose function carries a ``check_values(params)`` attribute (e.g.
    genai's ``gpus`` >= 1) has it called last, so a value out of its range is also
    refused here, before any work.

    Raises
    ------
    UnknownAlgorithmError
        ``name`` is not an algorithm of ``family``.
    InvalidScenarioError
        Naming the parameter: an unknown name (with the parameters the algorithm
        takes) or a value that does not fit.
    """
    fn = registry.lookup(family, name)
    signature = inspect.signature(fn)
    taken = [p for i, p in enumerate(signature.parameters.values())
             if i > 0 and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
    takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    try:
        hints = typing.get_type_hints(fn)
    except (NameError, TypeError):  # hints that name what only a type checker imports: names only
        hints = {}
    known = {p.name for p in taken}
    listing = ", ".join(f"{p.name} ({_describe(hints.get(p.name, Any))}, default {p.default!r})"
                        for p in taken) or "no parameters"
    for key, value in params.items():
        if key not in known:
            if takes_any:
                continue
            raise InvalidScenarioError(
                str(key), f"is not a parameter of {family!r} algorithm {name!r}; it takes {listing}")
        hint = hints.get(key, Any)
        if key == "seed" and isinstance(value, numbers.Integral) and not isinstance(value, bool) and value < 0:
            raise InvalidScenarioError("seed", f"= {value!r} must be >= 0 (numpy's generators take no negative seed)")
        if not _fits(value, hint):
            raise InvalidScenarioError(
                str(key), f"= {value!r} is not valid for {family!r} algorithm {name!r}: "
                f"expected {_describe(hint)}")
    value_check = getattr(fn, "check_values", None)  # an algorithm's own checks of its values' ranges
    if value_check is not None:
        value_check(params)


def run(name: str, instance: Any, **params: Any) -> Outcome:
    """Run the online algorithm ``name`` on ``instance``.

    Parameters
    ----------
    name
        A name from :func:`algorithms` for the instance's family.
    instance
        The problem (e.g. a :class:`~aisched.models.lora.LoraInstance`).
    **params
        Algorithm parameters (see each algorithm's ``run`` function), checked
        by :func:`check_params` before the algorithm starts.

    Returns
    -------
    Outcome
        The algorithm's outcome, checked: it is an :class:`Outcome` of the
        instance's family whose plan passes :meth:`Outcome.verify`.

    Raises
    ------
    InvalidScenarioError
        An unknown parameter name or a value of the wrong kind, naming it.
    AlgorithmError
        The algorithm returned something other than an Outcome of the family
        (``None`` from an unfinished ``def run(...): ...``), naming it.
    InfeasiblePlanError
        Its plan violates a constraint of the family's program (the message
        names the algorithm and the constraint).
    """
    family = _family_of(instance)
    check_params(family, name, params)
    return _checked(name, instance, registry.lookup(family, name)(instance, **params))


def _checked(name: str, instance: Any, outcome: Any) -> Outcome:
    """``outcome`` if it is a verified Outcome of the instance's family, else an error naming ``name``."""
    if not isinstance(outcome, Outcome):
        raise AlgorithmError(name, f"returned {type(outcome).__name__} "
                             f"({outcome!r:.60}), not an aisched.Outcome; a registered run function "
                             "must return the Outcome of its plan")
    if outcome.family != instance.family:
        raise AlgorithmError(name, f"returned an Outcome of family {outcome.family!r} for a "
                             f"{instance.family!r} instance")
    try:
        outcome.verify(instance)
    except InfeasiblePlanError as exc:
        raise InfeasiblePlanError(exc.constraint, f"the plan of algorithm {name!r} fails: "
                                  f"{str(exc).partition(': ')[2]}") from None
    return outcome


def offline(
    instance: Any,
    *,
    solver: str = "highs",
    time_limit: float | None = None,
    mip_gap: float | None = 0.0,
    threads: int | None = None,
    **options: Any,
) -> Outcome:
    """Solve the family's integer program with full knowledge of the input.

    The Outcome's ``status`` is ``"optimal"`` only when the solver proved it;
    on a time limit it holds the incumbent and ``bound``. ``options`` go to the
    family's ``solve_offline`` (e.g. spot's ``formulation`` and
    ``solver_options``); one it does not take is an ``InvalidScenarioError``.
    """
    fn = registry.lookup_offline(_family_of(instance))
    accepted = inspect.signature(fn).parameters
    for name in options:
        if name not in accepted:
            raise InvalidScenarioError(
                name, f"is not an option of {_family_of(instance)!r}'s offline solve "
                f"(it takes {', '.join(p for p in accepted if p != 'instance')})")
    return fn(instance, solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
              **options)


def bound(instance: Any, *, time_limit: float | None = 60.0, **options: Any) -> Outcome:
    """A certified upper bound on the optimum of the family's program, valid at any stop.

    ``Outcome.bound`` is the bound, ``status`` how it was obtained ("lp_optimal":
    column generation converged; "limit": a Lagrangian bound at a limit),
    ``prices`` the (node, slot) prices that certify it, ``objective`` the best
    primal value found (its plan verified), so ``bound - objective`` is a
    proven gap. Families: ``lora`` (:func:`aisched.bounds.lora.bound.bound`),
    ``genai`` (:func:`aisched.bounds.genai.bound.bound`, relaxed P1 with exact
    per-job pricing), ``tenants`` (:func:`aisched.bounds.tenants.bound.bound`,
    cluster-level). ``spot`` has none: its one job's exact DP is already the optimum.

    Raises
    ------
    UnknownAlgorithmError
        The family has no bound method yet.
    InvalidScenarioError
        An option the family's method does not take.
    """
    fn = registry.lookup_bound(_family_of(instance))
    accepted = inspect.signature(fn).parameters
    for name in options:
        if name not in accepted:
            raise InvalidScenarioError(name, f"is not an option of the bound (it takes "
                                       f"{', '.join(p for p in accepted if p != 'instance')})")
    return fn(instance, time_limit=time_limit, **options)


def compare(
    instance: Any,
    names: Sequence[str] | None = None,
    *,
    offline: bool = True,
    time_limit: float | None = None,
    solver: str = "highs",
    params: dict[str, dict[str, Any]] | None = None,
    outcomes: dict[str, Outcome] | None = None,
    bound: bool = False,
    bound_time_limit: float | None = 60.0,
) -> pd.DataFrame:
    """Run several algorithms (and the offline optimum) on one instance.

    Parameters
    ----------
    instance
        The problem.
    names
        Algorithms to run: a list, or one string of comma-separated names
        (``"pdftsp,eft"``). Default: the family's paper algorithms and baselines
        plus every algorithm registered with ``ready=True``
        (:func:`aisched.registry.default_names`); one registered without it
        runs only when named.
    offline
        Also solve the offline program and report ratios against it.
    time_limit
        Time limit of the offline solve, seconds.
    solver
        Solver of the offline program.
    params
        Per-algorithm keyword parameters, e.g. ``{"pdftsp": {"selection": "exact"}}``.
    outcomes
        If given, filled with ``name -> Outcome`` (offline under ``"offline"``,
        the certified bound under ``"bound"``).
    bound
        Also compute the family's certified upper bound (:func:`bound`, row
        ``"bound"``: its objective is the bound's primal value). It is the
        reference wherever the offline solve did not prove optimality (or was
        not run, ``offline=False``: the way to compare at paper scale); with
        both, the least of the two upper bounds.
    bound_time_limit
        Seconds for the certified bound.

    Returns
    -------
    pandas.DataFrame
        One row per algorithm (index ``algorithm``), columns ``objective``,
        ``ratio`` (objective / reference), ``reference`` ("optimum" when the
        offline solve proved optimality, "bound" when the reference is an upper
        bound -- the offline solve's at a limit or the certified one -- so the
        ratio is a lower estimate of the true ratio; empty without either), ``admitted``, ``runtime_s``, ``decision_median_s``,
        ``status``, ``bound``, then the family's own columns (its ``metrics``
        hook, :class:`aisched.families.FamilyHooks`: the same columns as a sweep
        cell's, e.g. compute and memory utilisation). Every outcome is checked with :meth:`Outcome.verify`.
    """
    family = _family_of(instance)
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    chosen = list(names) if names is not None else registry.default_names(family)
    params = params or {}
    if not isinstance(params, Mapping) or not all(isinstance(v, Mapping) for v in params.values()):
        raise InvalidScenarioError("params", f"= {params!r} must map algorithm names to dicts of parameters, "
                                   "e.g. {'astraea': {'lam': 2}}")
    unknown = set(params) - set(chosen)
    if unknown:
        raise UnknownAlgorithmError(f"params given for algorithms not compared: {sorted(unknown)}")
    results: dict[str, Outcome] = {}
    for name in chosen:  # fail fast on unknown names and parameters, before any work
        check_params(family, name, params.get(name, {}))
    if offline:
        results["offline"] = globals()["offline"](instance, solver=solver, time_limit=time_limit)
    if bound and not (offline and results["offline"].status == "optimal"):
        results["bound"] = globals()["bound"](instance, time_limit=bound_time_limit)
    for name in chosen:
        results[name] = run(name, instance, **params.get(name, {}))
    rows = []
    reference, kind = math.nan, ""
    if "offline" in results:
        off = results["offline"]
        if off.status == "optimal":
            reference, kind = off.objective, "optimum"
        elif not math.isnan(off.bound):
            reference, kind = off.bound, "bound"
    if "bound" in results and kind != "optimum":
        certified = results["bound"].bound
        if not math.isnan(certified) and (math.isnan(reference) or certified < reference):
            reference, kind = certified, "bound"
    measure = families.hooks(family).metrics if family in families.names() else None
    measured: dict[str, None] = {}  # the family metrics' columns, in first-seen order
    for name, outcome in results.items():  # `run` verified the online ones
        if name in ("offline", "bound") and not math.isnan(outcome.objective):
            outcome.verify(instance)
        row = {**outcome.summary(), "algorithm": name}  # the name compared (a wrapper may reuse another's)
        if measure is not None and not math.isnan(outcome.objective):
            values = measure(instance, outcome)
            measured.update(dict.fromkeys(values))
            row.update(values)
        row["ratio"] = outcome.objective / reference if reference and not math.isnan(reference) else math.nan
        row["reference"] = kind
        rows.append(row)
    if outcomes is not None:
        outcomes.update(results)
    frame = pd.DataFrame(rows).set_index("algorithm")
    columns = ["objective", "ratio", "reference", "admitted", "runtime_s", "decision_median_s", "status", "bound"]
    return frame[columns + [c for c in measured if c not in columns]]
