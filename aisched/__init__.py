"""aisched: online scheduling and pricing of AI workloads.

Four problem families from four papers share one core: an Instance per
family (``aisched.models``), online algorithms (``aisched.online``), offline
optima through Pyomo and HiGHS (``aisched.solvers``), each family's scenario
generators and paper figures (``aisched.scenarios``), and the family-free
experiment machinery: catalogue, sweeps, reports (``aisched.experiments``).
The entry points::

    aisched.algorithms("lora")            # ['pdftsp', 'titan', 'eft', 'ntm']
    aisched.run("pdftsp", instance)       # -> Outcome
    aisched.offline(instance)             # -> Outcome (status, bound)
    aisched.compare(instance, names)      # -> pandas.DataFrame
"""

from aisched import dag, errors, experiments, models, online, scenarios, solvers
from aisched.api import FAMILIES, algorithms, bound, compare, offline, run
from aisched.errors import (
    AischedError,
    InfeasiblePlanError,
    InvalidInstanceError,
    InvalidScenarioError,
    SolverError,
    SolverUnavailableError,
    UnknownAlgorithmError,
)
from aisched.outcome import Outcome

__version__ = "0.1.0"

__all__ = [
    "FAMILIES",
    "AischedError",
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
    "models",
    "offline",
    "online",
    "run",
    "scenarios",
    "solvers",
]
