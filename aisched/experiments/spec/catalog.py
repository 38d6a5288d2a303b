"""The catalogue of named scenarios: the papers' figures and a user's own.

:func:`names` lists the registered scenarios, :func:`get` returns one by
name (or reads a TOML file by path, see :func:`aisched.experiments.spec.scenario.load`),
:func:`register` adds a user's. The papers' figures
(each family's ``scenarios`` hook in :mod:`aisched.families`) are registered on first use. Each
scenario is kept on its family's object (:attr:`aisched.core.family.FamilyTables.scenarios`), so a
family taken out of the registry takes its scenarios with it.
The scenario types themselves live in :mod:`aisched.experiments.spec.scenario` and
are re-exported here.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence
from pathlib import Path

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.spec.scenario import (
    CLAIM_KINDS,
    METRICS,
    Claim,
    Scenario,
    from_mapping,
    load,
)

__all__ = [
    "CLAIM_KINDS",
    "METRICS",
    "Claim",
    "Scenario",
    "from_mapping",
    "get",
    "load",
    "names",
    "paper_loaded",
    "paper_scenario_names",
    "register",
    "scenario_from",
    "unregister",
]


def _registered() -> dict[str, Scenario]:
    """Every registered family's scenarios in the catalogue, by full name."""
    found: dict[str, Scenario] = {}
    for family in families.names():
        found.update(families.get(family).tables.scenarios)
    return found


def paper_scenario_names() -> list[str]:
    """Every family's paper scenarios as ``<family>/<name>``, known without building them.

    Each family's record lists them (:attr:`aisched.families.Family.paper_scenarios`); building
    them imports every family's stack (seconds), so an unknown name is refused at once from this list.
    """
    return [f"{family}/{short}" for family in families.names() for short in families.record(family).paper_scenarios]


def register(scenario: Scenario, *, replace_existing: bool = False) -> Scenario:
    """Add a scenario to the catalogue (``aisched scenarios`` lists it)."""
    _load_paper_scenarios()
    if scenario.name in _registered() and not replace_existing:
        raise InvalidScenarioError("name", f"scenario {scenario.name!r} is already registered")
    families.get(scenario.family).tables.scenarios[scenario.name] = scenario
    return scenario


def unregister(name: str) -> Scenario | None:
    """Take scenario ``name`` out of the catalogue; returns it (``None`` where it was not registered)."""
    for family in families.names():
        found = families.get(family).tables.scenarios.pop(name, None)
        if found is not None:
            return found
    return None


def names(family: str | None = None) -> list[str]:
    """Registered scenario names (of one family if given), sorted."""
    _load_paper_scenarios()
    chosen = [n for n, s in _registered().items() if family is None or s.family == family]
    return sorted(chosen, key=lambda n: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", n)])


def get(name: str) -> Scenario:
    """The registered scenario ``name``, or the scenario in the TOML file at path ``name``.

    A name that is neither a paper figure (:func:`paper_scenario_names`), nor registered, nor a
    TOML file is refused before the papers' scenarios are built.
    """
    is_path = name.endswith(".toml") or os.path.sep in name and Path(name).is_file()
    paper = paper_scenario_names()
    if not is_path and name not in _registered() and name not in paper:
        raise _unknown(name, [*paper, *_registered()])
    _load_paper_scenarios()
    registered = _registered()
    if name in registered:
        return registered[name]
    if is_path:
        return load(name)
    raise _unknown(name, list(registered))


def _unknown(name: str, known: list[str]) -> InvalidScenarioError:
    close = [n for n in known if n.split("/")[-1] == name.split("/")[-1]]
    close = close or difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else "; `aisched scenarios` lists them"
    return InvalidScenarioError("scenario", f"unknown scenario {name!r}{hint}")


def paper_loaded() -> list[str]:
    """The families whose paper scenarios are built into the catalogue (each on first use)."""
    return [name for name in families.names() if families.get(name).tables.paper_loaded]


def _load_paper_scenarios() -> None:
    """Register each family's paper figures once (built lazily: validating them imports the family)."""
    new = [name for name in families.names() if not families.get(name).tables.paper_loaded]
    for name in new:  # before registering: register() calls back here
        families.get(name).tables.paper_loaded = True
    for scenario in _paper_scenarios(new) if new else []:
        register(scenario)


def scenario_from(names_or_paths: Sequence[str]) -> list[Scenario]:
    """Resolve several names or TOML paths (helper of the CLI)."""
    return [get(n) for n in names_or_paths]


def _paper_scenarios(names: Sequence[str] | None = None) -> list[Scenario]:
    """The paper figures of ``names`` (default: every registered family) as validated :class:`Scenario`
    objects, families in order."""
    found: list[Scenario] = []
    for name in families.names() if names is None else names:
        add_scenarios = families.hooks(name).scenarios
        if add_scenarios is not None:
            add_scenarios(found.append)
    return found
