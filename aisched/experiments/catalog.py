"""The catalogue of named scenarios: the papers' figures and a user's own.

:func:`names` lists the registered scenarios, :func:`get` returns one by
name (or reads a TOML file by path, see :func:`aisched.experiments.scenario.load`),
:func:`register` adds a user's. The papers' figures
(each family hands them to :mod:`aisched.experiments.families`) are registered on first use.
The scenario types themselves live in :mod:`aisched.experiments.scenario` and
are re-exported here.
"""

from __future__ import annotations

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
    """The registered scenario ``name``, or the scenario in the TOML file at path ``name``."""
    _load_paper_scenarios()
    if name in _REGISTRY:
        return _REGISTRY[name]
    if name.endswith(".toml") or os.path.sep in name and Path(name).is_file():
        return load(name)
    close = [n for n in _REGISTRY if n.split("/")[-1] == name.split("/")[-1]]
    hint = f"; did you mean {close[0]!r}?" if close else "; `aisched scenarios` lists them"
    raise InvalidScenarioError("scenario", f"unknown scenario {name!r}{hint}")


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
