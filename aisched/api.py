"""The public entry points: :func:`run`, :func:`offline`, :func:`compare`, :func:`algorithms`."""

from __future__ import annotations

import inspect
import math
from collections.abc import Sequence
from typing import Any

import pandas as pd

from aisched import registry
from aisched.errors import AischedError, InvalidScenarioError, UnknownAlgorithmError
from aisched.outcome import Outcome

__all__ = ["algorithms", "run", "offline", "compare", "FAMILIES"]

#: The families aisched implements (some may have no algorithms registered yet).
FAMILIES = ("lora", "spot", "genai", "tenants")


def _family_of(instance: Any) -> str:
    family = getattr(instance, "family", None)
    if not isinstance(family, str):
        raise AischedError(
            f"expected an aisched Instance (LoraInstance, ...), got {type(instance).__name__}"
        )
    return family


def algorithms(family: str) -> list[str]:
    """Names of the online algorithms and baselines registered for ``family``."""
    if family not in FAMILIES:
        raise UnknownAlgorithmError(f"unknown family {family!r} (known: {', '.join(FAMILIES)})")
    return registry.names(family)


def run(name: str, instance: Any, **params: Any) -> Outcome:
    """Run the online algorithm ``name`` on ``instance``.

    Parameters
    ----------
    name
        A name from :func:`algorithms` for the instance's family.
    instance
        The problem (e.g. a :class:`~aisched.models.lora.LoraInstance`).
    **params
        Algorithm parameters (see each algorithm's ``run`` function).
    """
    fn = registry.lookup(_family_of(instance), name)
    return fn(instance, **params)


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


def compare(
    instance: Any,
    names: Sequence[str] | None = None,
    *,
    offline: bool = True,
    time_limit: float | None = None,
    solver: str = "highs",
    params: dict[str, dict[str, Any]] | None = None,
    outcomes: dict[str, Outcome] | None = None,
) -> pd.DataFrame:
    """Run several algorithms (and the offline optimum) on one instance.

    Parameters
    ----------
    instance
        The problem.
    names
        Algorithms to run (default: all registered for the family).
    offline
        Also solve the offline program and report ratios against it.
    time_limit
        Time limit of the offline solve, seconds.
    solver
        Solver of the offline program.
    params
        Per-algorithm keyword parameters, e.g. ``{"pdftsp": {"selection": "exact"}}``.
    outcomes
        If given, filled with ``name -> Outcome`` (offline under ``"offline"``).

    Returns
    -------
    pandas.DataFrame
        One row per algorithm (index ``algorithm``), columns ``objective``,
        ``ratio`` (objective / reference), ``reference`` ("optimum" when the
        offline solve proved optimality, "bound" when it stopped at a limit,
        empty without it), ``admitted``, ``runtime_s``, ``decision_median_s``,
        ``status``. Every outcome is checked with :meth:`Outcome.verify`.
    """
    family = _family_of(instance)
    chosen = list(names) if names is not None else registry.names(family)
    params = params or {}
    unknown = set(params) - set(chosen)
    if unknown:
        raise UnknownAlgorithmError(f"params given for algorithms not compared: {sorted(unknown)}")
    results: dict[str, Outcome] = {}
    for name in chosen:
        registry.lookup(family, name)  # fail fast on unknown names, before any work
    if offline:
        results["offline"] = globals()["offline"](instance, solver=solver, time_limit=time_limit)
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
    for name, outcome in results.items():
        if not (name == "offline" and math.isnan(outcome.objective)):
            outcome.verify(instance)
        row = outcome.summary()
        row["ratio"] = outcome.objective / reference if reference and not math.isnan(reference) else math.nan
        row["reference"] = kind
        rows.append(row)
    if outcomes is not None:
        outcomes.update(results)
    frame = pd.DataFrame(rows).set_index("algorithm")
    return frame[
        ["objective", "ratio", "reference", "admitted", "runtime_s", "decision_median_s", "status", "bound"]
    ]
