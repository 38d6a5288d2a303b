"""Errors raised by aisched.

Every bad input gets one of these, with a message naming the field, the index
and the value, so that a user can act on it::

    AischedError
    ├── InvalidInstanceError     an Instance field is malformed
    ├── InvalidScenarioError     a generator / scenario / CLI parameter is malformed
    ├── InfeasiblePlanError      Outcome.verify found a violated constraint
    ├── UnknownAlgorithmError    a name not in the registry
    ├── AlgorithmError           an algorithm returned something that is not an Outcome
    └── SolverError              the MILP solver failed
        ├── SolverUnavailableError   the solver is not installed
        └── ModelTooLargeError       an offline program too large to build (refused before any work)

Warnings: :class:`AischedWarning` (a ``UserWarning``), e.g. when a name is
registered a second time and replaces the first.
"""

from __future__ import annotations

__all__ = [
    "AischedError",
    "InvalidInstanceError",
    "InvalidScenarioError",
    "InfeasiblePlanError",
    "UnknownAlgorithmError",
    "AlgorithmError",
    "AischedWarning",
    "SolverError",
    "SolverUnavailableError",
    "ModelTooLargeError",
    "InvariantViolatedError",
]


class AischedError(Exception):
    """Base class of every error aisched raises on purpose.

    Every subclass pickles with its fields (a pool or Dask worker sends it back to the
    parent, which shows the same one line as a run in one process): a subclass whose
    ``__init__`` takes other arguments than the message names them in ``_fields``, each
    kept as an attribute of that name.
    """

    _fields: tuple[str, ...] = ()

    def __reduce__(self) -> tuple:  # type: ignore[type-arg]
        if not self._fields:
            return super().__reduce__()
        return (type(self), tuple(getattr(self, name) for name in self._fields), self.__dict__)


class InvalidInstanceError(AischedError, ValueError):
    """An Instance field has a wrong shape, sign, type or value.

    Parameters
    ----------
    field
        The Instance field at fault (``"deadline"``).
    message
        What is wrong, naming the index and the value.
    """

    _fields = ("field", "message")

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class InvalidScenarioError(AischedError, ValueError):
    """A scenario or generator parameter is malformed."""

    _fields = ("field", "message")

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class InfeasiblePlanError(AischedError):
    """A plan violates a constraint of the family's program.

    Parameters
    ----------
    constraint
        The constraint's name, after the paper's equation (``"(4f) capacity_compute"``).
    message
        Where (indices) and by how much.
    """

    _fields = ("constraint", "message")

    def __init__(self, constraint: str, message: str) -> None:
        self.constraint = constraint
        self.message = message
        super().__init__(f"{constraint}: {message}")


class UnknownAlgorithmError(AischedError, KeyError):
    """No algorithm of that name is registered (for that family)."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else ""


class AlgorithmError(AischedError):
    """A registered algorithm returned something other than an :class:`~aisched.outcome.Outcome` of its family.

    Parameters
    ----------
    algorithm
        The registered name.
    message
        What it returned instead.
    """

    _fields = ("algorithm", "message")

    def __init__(self, algorithm: str, message: str) -> None:
        self.algorithm = algorithm
        self.message = message
        super().__init__(f"algorithm {algorithm!r}: {message}")


class AischedWarning(UserWarning):
    """Something aisched did that a user may not expect (e.g. a registration replaced)."""


class SolverError(AischedError):
    """The solver failed (crashed, or returned something unusable)."""


class SolverUnavailableError(SolverError):
    """The requested solver is not installed or not licensed."""


class ModelTooLargeError(SolverError):
    """An offline program would be too large to build: refused before any work, with what to do instead."""


class InvariantViolatedError(AischedError):
    """A proof invariant recorded by an online run does not hold (``aisched.theorems``).

    Parameters
    ----------
    invariant
        The invariant, after the paper's lemma (``"Lemma 1 (lora)"``).
    message
        The measured value and by how much it misses.
    """

    _fields = ("invariant", "message")

    def __init__(self, invariant: str, message: str) -> None:
        self.invariant = invariant
        self.message = message
        super().__init__(f"{invariant}: {message}")
