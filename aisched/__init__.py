"""aisched: online scheduling and pricing of AI workloads.

Four problem families from four papers share one core: an Instance per
family (``aisched.models``), online algorithms (``aisched.online``), offline
optima through Pyomo and HiGHS (``aisched.solvers``), each family's scenario
generators and paper figures (``aisched.scenarios``), and the family-free
experiment machinery: catalogue, sweeps, reports (``aisched.experiments``).
The entry points::

    aisched.algorithms("lora")            # ['pdftsp', 'titan', 'eft', 'ntm', 'titan_welfare']
    aisched.run("pdftsp", instance)       # -> Outcome
    aisched.offline(instance)             # -> Outcome (status, bound)
    aisched.compare(instance, names)      # -> pandas.DataFrame

``import aisched`` is quick: it registers the four families' scenario
plug-ins (light modules) and loads the numerical stack (JAX, Pyomo, xarray,
pandas) on first use of a name that needs it (:pep:`562`), so ``aisched
--help`` answers at once. The algorithms register on the first look-up
(each family names its modules: :attr:`aisched.core.family.Family.modules`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from aisched.errors import (
    AischedError,
    AischedWarning,
    AlgorithmError,
    InfeasiblePlanError,
    InvalidInstanceError,
    InvalidScenarioError,
    SolverError,
    SolverUnavailableError,
    UnknownAlgorithmError,
)

if TYPE_CHECKING:  # what the lazy names below resolve to
    from aisched import dag, experiments, models, online, scenarios, solvers
    from aisched.api import FAMILIES, algorithms, bound, compare, offline, run
    from aisched.outcome import Outcome

__version__ = "0.1.0"

_SUBMODULES = ("api", "bounds", "cli", "core", "dag", "errors", "experiments", "families", "models", "online", "outcome", "registry",
               "scenarios", "solvers")
_LAZY = {"FAMILIES": "aisched.api", "algorithms": "aisched.api", "bound": "aisched.api",
         "compare": "aisched.api", "offline": "aisched.api", "run": "aisched.api", "Outcome": "aisched.outcome"}

__all__ = [
    "FAMILIES",
    "AischedError",
    "AischedWarning",
    "AlgorithmError",
    "InfeasiblePlanError",
    "InvalidInstanceError",
    "InvalidScenarioError",
    "Outcome",
    "SolverError",
    "SolverUnavailableError",
    "UnknownAlgorithmError",
    "algorithms",
    "bound",
    "compare",
    "dag",
    "errors",
    "experiments",
    "families",
    "models",
    "offline",
    "online",
    "run",
    "scenarios",
    "solvers",
]


def __getattr__(name: str) -> Any:
    """Import a subpackage or a public name on first use (:pep:`562`)."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"aisched.{name}")
    else:
        raise AttributeError(f"module 'aisched' has no attribute {name!r}")
    if name != "FAMILIES":  # read anew each time: a family registered later joins it
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_SUBMODULES))


# the families' scenario packages: light modules; each registers its record with aisched.families
from aisched import scenarios  # noqa: E402,F401  (after the lazy names: a plug-in may ask for them)
