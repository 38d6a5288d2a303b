"""The catalogue of named scenarios: the papers' figures and a user's own.

:func:`names` lists the registered scenarios, :func:`get` returns one by
name (or reads a TOML file by path, see :func:`aisched.experiments.scenario.load`),
:func:`register` adds a user's. The papers' figures
(each family hands them to :mod:`aisched.experiments.families`) are registered on first use.
The scenario types themselves live in :mod:`aisched.experiments.scenario` and
are re-exported here.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence
from pathlib import Path

from aisched.errors import InvalidScenarioError
from aisched.experiments import families
from aisched.experiments.scenario import (
    CLAIM_KINDS,
    FAMILY_METRICS,
    KINDS,
    METRICS,
    Claim,
    Scenario,
    from_mapping,
    load,
)

__all__ = [
    "CLAIM_KINDS",
    "FAMILY_METRICS",
    "KINDS",
    "METRICS",
    "Claim",
    "Scenario",
    "from_mapping",
    "get",
    "load",
    "names",
    "register",
    "scenario_from",
]

_REGISTRY: dict[str, Scenario] = {}

#: The papers' scenario names by family, known without building them (building imports every
#: family's stack, seconds): an unknown name is refused at once (issue 29, item 2: an argument
#: error answers within 1 s). ``tests/experiments/test_catalog.py`` checks it against the families'
#: own lists.
PAPER_SCENARIO_NAMES: dict[str, tuple[str, ...]] = {
    "genai": (
        "fig4-slots", "fig4-slots-legacy", "fig5-edges", "fig5-edges-legacy", "fig6-capacity",
        "fig6-capacity-legacy", "fig7-workload", "fig7-workload-legacy", "fig8-weights", "fig8-weights-legacy",
        "fig9-competitive", "fig9-competitive-scale", "regime-capacity"
    ),
    "lora": (
        "fig4-scale", "fig5-vendors", "fig6-capacity", "fig7-traces", "fig8-load", "fig9-deadlines",
        "fig10-truthfulness", "fig11-rationality", "fig12-competitive", "fig12-competitive-bound",
        "fig13-runtime", "regime-load"
    ),
    "spot": (
        "fig1-throughput", "fig2-traces", "fig3-forecast", "fig5-deadline", "fig5-deadline-synthetic",
        "fig6-bandwidth", "fig6-bandwidth-synthetic", "fig7-availability", "fig7-availability-synthetic",
        "fig8-price", "fig8-price-synthetic", "fig9-selection", "fig10-phases", "regime-availability"
    ),
    "tenants": (
        "fig4a-jobs-linear", "fig4a-jobs-linear-consecutive", "fig4b-servers-linear", "fig4c-jobs-convex",
        "fig4d-servers-convex", "fig5-ratio-scale", "fig5a-ratio-jobs", "fig5b-ratio-servers",
        "fig6-ratio-schedulers", "fig7-fairness", "fig8-fairness-variance",
        "fig8-fairness-variance-consecutive", "fig9-runtime-jobs", "fig10-runtime-servers", "fig11-theta",
        "fig12-admission", "fig13-makespan", "fig13-utilisation", "regime-servers",
        "table2-users-alpha-variance", "table2-users-revenue-per-job"
    ),
}


def register(scenario: Scenario, *, replace_existing: bool = False) -> Scenario:
    """Add a scenario to the catalogue (``aisched scenarios`` lists it)."""
    _load_paper_scenarios()
    if scenario.name in _REGISTRY and not replace_existing:
        raise InvalidScenarioError("name", f"scenario {scenario.name!r} is already registered")
    _REGISTRY[scenario.name] = scenario
    return scenario


def names(family: str | None = None) -> list[str]:
    """Registered scenario names (of one family if given), sorted."""
    _load_paper_scenarios()
    chosen = [n for n, s in _REGISTRY.items() if family is None or s.family == family]
    return sorted(chosen, key=lambda n: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", n)])


def get(name: str) -> Scenario:
    """The registered scenario ``name``, or the scenario in the TOML file at path ``name``.

    A name that is neither a paper figure (:data:`PAPER_SCENARIO_NAMES`), nor registered, nor a
    TOML file is refused before the papers' scenarios are built.
    """
    is_path = name.endswith(".toml") or os.path.sep in name and Path(name).is_file()
    paper = [f"{family}/{short}" for family, shorts in PAPER_SCENARIO_NAMES.items() for short in shorts]
    if not is_path and name not in _REGISTRY and name not in paper:
        raise _unknown(name, [*paper, *_REGISTRY])
    _load_paper_scenarios()
    if name in _REGISTRY:
        return _REGISTRY[name]
    if is_path:
        return load(name)
    raise _unknown(name, list(_REGISTRY))


def _unknown(name: str, known: list[str]) -> InvalidScenarioError:
    close = [n for n in known if n.split("/")[-1] == name.split("/")[-1]]
    close = close or difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else "; `aisched scenarios` lists them"
    return InvalidScenarioError("scenario", f"unknown scenario {name!r}{hint}")


_PAPER_LOADED: list[bool] = []


def _load_paper_scenarios() -> None:
    """Register the papers' figures once (built lazily: validating them imports every family)."""
    if not _PAPER_LOADED:
        _PAPER_LOADED.append(True)
        for scenario in _paper_scenarios():
            register(scenario)



def scenario_from(names_or_paths: Sequence[str]) -> list[Scenario]:
    """Resolve several names or TOML paths (helper of the CLI)."""
    return [get(n) for n in names_or_paths]


def _paper_scenarios() -> list[Scenario]:
    """Every registered family's paper figures as validated :class:`Scenario` objects, families in order."""
    found: list[Scenario] = []
    for name in families.names():
        add_scenarios = families.get(name).scenarios
        if add_scenarios is not None:
            add_scenarios(found.append)
    return found
