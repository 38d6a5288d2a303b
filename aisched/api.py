"""The public entry points: :func:`run`, :func:`offline`, :func:`compare`, :func:`algorithms`.

:func:`run`, :func:`offline`, :func:`bound` and :func:`check_params` live in the core
(:mod:`aisched.core.runner`) and are re-exported here; :func:`compare` and :func:`algorithms` are the facade's own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from aisched import families, registry
from aisched.core.runner import bound, check_params, family_of, offline, run
from aisched.errors import InvalidScenarioError, UnknownAlgorithmError
from aisched.outcome import Outcome

__all__ = ["algorithms", "bound", "check_params", "run", "offline", "compare", "FAMILIES"]  # noqa: F822 (module __getattr__)



def __getattr__(name: str) -> Any:
    """``FAMILIES``: the registered families (:func:`aisched.families.names`), read when asked for."""
    if name == "FAMILIES":
        return tuple(families.names())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def algorithms(family: str) -> list[str]:
    """Names of the online algorithms and baselines registered for ``family``."""
    if family not in families.names():
        raise UnknownAlgorithmError(f"unknown family {family!r} (known: {', '.join(families.names())})")
    return registry.names(family)


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
    family = family_of(instance)
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
