"""The runner below the facade: run one algorithm, the offline solve or the certified bound, checked.

:func:`check_params` refuses an algorithm's parameters from their declarations
(:class:`~aisched.core.parameters.Parameter`) before any work; :func:`run` runs a registered
algorithm and checks its Outcome against the family's program; :func:`offline` and :func:`bound`
call the family's offline solve and certified bound. :mod:`aisched.api` re-exports them, and the
experiment machinery calls them here (it never imports the facade).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aisched.core import registry
from aisched.errors import AischedError, AlgorithmError, InfeasiblePlanError, InvalidScenarioError
from aisched.outcome import Outcome

__all__ = ["bound", "check_params", "family_of", "offline", "offline_options", "run"]


def family_of(instance: Any) -> str:
    """The family name of an aisched Instance.

    Raises
    ------
    AischedError
        ``instance`` is not an aisched Instance.
    """
    family = getattr(instance, "family", None)
    if not isinstance(family, str):
        raise AischedError(
            f"expected an aisched Instance (LoraInstance, ...), got {type(instance).__name__}"
        )
    return family


def check_params(family: str, name: str, params: Mapping[str, Any]) -> None:
    """Check an algorithm's keyword parameters against its declared parameters, before any work.

    Every name must be a declared parameter of the algorithm, and every value must fit its type
    (a ``Literal`` option, an integer, a finite number, a boolean, a string, or ``None`` where
    allowed) and range; parameters with other types (predictors, weight vectors) are checked by
    the algorithm itself. An algorithm whose function carries a ``check_values(params)`` attribute
    (e.g. genai's ``gpus`` >= 1) has it called last, so a value out of its range is also refused
    here, before any work (:meth:`aisched.core.family.Algorithm.check`).

    Raises
    ------
    UnknownAlgorithmError
        ``name`` is not an algorithm of ``family``.
    InvalidScenarioError
        Naming the parameter: an unknown name (with the parameters the algorithm
        takes) or a value that does not fit.
    """
    registry.algorithm(family, name).check(params)


def offline_options(family: str) -> set[str]:
    """The options the family's offline solve takes besides the instance (empty where it has none)."""
    try:
        solve = registry.offline_solve(family)
    except AischedError:
        return set()
    return {p.name for p in solve.parameters}


def run(name: str, instance: Any, **params: Any) -> Outcome:
    """Run the online algorithm ``name`` on ``instance`` (:func:`aisched.run`).

    Parameters
    ----------
    name
        A name from :func:`aisched.algorithms` for the instance's family.
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
    family = family_of(instance)
    algorithm = registry.algorithm(family, name)
    algorithm.check(params)
    return checked(name, instance, algorithm.run(instance, **params))


def checked(name: str, instance: Any, outcome: Any) -> Outcome:
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


def _refuse_unknown(accepted: list[str], options: Mapping[str, Any], what: str) -> None:
    for name in options:
        if name not in accepted:
            raise InvalidScenarioError(name, f"is not an option of {what} (it takes {', '.join(accepted)})")


def offline(
    instance: Any,
    *,
    solver: str = "highs",
    time_limit: float | None = None,
    mip_gap: float | None = 0.0,
    threads: int | None = None,
    **options: Any,
) -> Outcome:
    """Solve the family's integer program with full knowledge of the input (:func:`aisched.offline`).

    The Outcome's ``status`` is ``"optimal"`` only when the solver proved it;
    on a time limit it holds the incumbent and ``bound``. ``options`` go to the
    family's ``solve_offline`` (e.g. spot's ``formulation`` and
    ``solver_options``); one it does not take is an ``InvalidScenarioError``.
    """
    family = family_of(instance)
    solve = registry.offline_solve(family)
    _refuse_unknown([p.name for p in solve.parameters], options, f"{family!r}'s offline solve")
    return solve.run(instance, solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads, **options)


def bound(instance: Any, *, time_limit: float | None = 60.0, **options: Any) -> Outcome:
    """A certified upper bound on the optimum of the family's program, valid at any stop (:func:`aisched.bound`).

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
    method = registry.certified_bound(family_of(instance))
    _refuse_unknown([p.name for p in method.parameters], options, "the bound")
    return method.run(instance, time_limit=time_limit, **options)
