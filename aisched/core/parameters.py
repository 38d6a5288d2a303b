"""An algorithm's declared parameters: name, type, default, choices and range, checked before any work.

An algorithm registers with its parameters (:class:`Parameter`), as benchopt's solvers declare
``parameters``: :meth:`aisched.core.family.Family.algorithm` takes them, or, where a plug-in gives
none, reads them once from the run function's signature and type hints at registration
(:func:`parameters_from_signature`), never again per call. :func:`check_values` refuses a value
that does not fit, naming the parameter, before the algorithm starts.

This module imports nothing from aisched but :mod:`aisched.errors`, and numpy (for its number
types) only when a value is checked, so ``aisched --help`` stays light.
"""

from __future__ import annotations

import collections.abc
import inspect
import math
import numbers
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Union

from aisched.errors import InvalidScenarioError

__all__ = ["NO_DEFAULT", "Parameter", "describe", "fits", "one_of", "parameters_from_signature"]

#: The default of a parameter that has none (a required keyword).
NO_DEFAULT = inspect.Parameter.empty


@dataclass(frozen=True)
class Parameter:
    """One declared parameter of an algorithm (or of a family's offline solve).

    Parameters
    ----------
    name
        The keyword the run function takes.
    kind
        Its type: a plain type (``float``, ``int``, ``bool``, ``str``), a ``Literal[...]`` of the
        choices, a union of those (``float | None``), or any other hint (a predictor protocol,
        a weight vector) that the algorithm checks itself.
    default
        The value used when it is not given (:data:`NO_DEFAULT`: none).
    low, high
        The closed range a number must lie in (``None``: unbounded on that side).
    """

    name: str
    kind: Any = Any
    default: Any = NO_DEFAULT
    low: float | None = None
    high: float | None = None

    @property
    def choices(self) -> tuple[Any, ...]:
        """The ``Literal`` choices (empty where the kind is not a ``Literal``)."""
        return typing.get_args(self.kind) if typing.get_origin(self.kind) is Literal else ()

    def describe(self) -> str:
        """``"alpha (a finite number, default 1.0)"``: for messages and ``--help``."""
        return f"{self.name} ({describe(self.kind)}, default {self.default!r})"

    def check(self, value: Any, *, owner: str) -> None:
        """Refuse ``value`` where it does not fit this parameter's kind or range.

        Raises
        ------
        InvalidScenarioError
            Naming the parameter and the value (``owner``: "'lora' algorithm 'pdftsp'").
        """
        import numpy as np

        if self.name == "seed" and isinstance(value, numbers.Integral) and not isinstance(value, bool) and value < 0:
            raise InvalidScenarioError("seed", f"= {value!r} must be >= 0 (numpy's generators take no negative seed)")
        if not fits(value, self.kind):
            raise InvalidScenarioError(self.name, f"= {value!r} is not valid for {owner}: expected {describe(self.kind)}")
        if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
            if self.low is not None and value < self.low:
                raise InvalidScenarioError(self.name, f"= {value!r} is below {self.low!r}, the least {owner} takes")
            if self.high is not None and value > self.high:
                raise InvalidScenarioError(self.name, f"= {value!r} is above {self.high!r}, the most {owner} takes")


def parameters_from_signature(
    fn: Callable[..., Any], ranges: Mapping[str, tuple[float | None, float | None]] | None = None,
) -> tuple[tuple[Parameter, ...], bool]:
    """The keyword parameters of ``fn`` after its first (the instance), read once, and whether it takes ``**kw``.

    Parameters
    ----------
    fn
        A run function ``fn(instance, *, name=default, ...)``.
    ranges
        ``{name: (low, high)}``: ranges to attach (a name ``fn`` does not take is refused).

    Raises
    ------
    InvalidScenarioError
        A range names no parameter of ``fn``.
    """
    signature = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn)
    except (NameError, TypeError):  # hints that name what only a type checker imports: names only
        hints = {}
    ranges = dict(ranges or {})
    found = []
    for i, p in enumerate(signature.parameters.values()):
        if i == 0 or p.kind not in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        low, high = ranges.pop(p.name, (None, None))
        found.append(Parameter(p.name, hints.get(p.name, Any), p.default, low, high))
    if ranges:
        raise InvalidScenarioError(f"ranges[{next(iter(ranges))!r}]",
                                   f"is not a parameter of {getattr(fn, '__qualname__', fn)!r}")
    takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    return tuple(found), takes_any


def describe(hint: Any) -> str:
    """A reader's name for a type hint: ``float or None``, ``one of 'faithful', 'exact'``."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(repr(v) for v in typing.get_args(hint))
    if origin in (Union, types.UnionType):
        return " or ".join(describe(h) for h in typing.get_args(hint))
    if hint is type(None):
        return "None"
    return {float: "a finite number", int: "an integer", bool: "True or False", str: "a string"}.get(
        hint, getattr(hint, "__name__", str(hint)))


def fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits the type hint; hints other than the plain ones accept anything."""
    import numpy as np

    origin = typing.get_origin(hint)
    if origin is Literal:
        return any(type(value) is type(v) and value == v for v in typing.get_args(hint))
    if origin in (Union, types.UnionType):
        return any(fits(value, h) for h in typing.get_args(hint))
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


def one_of(field: str, value: Any, choices: tuple[Any, ...] | Any) -> Any:
    """``value`` if it is one of ``choices`` (a tuple, or a ``Literal[...]`` type), else a refusal naming ``field``.

    The one "one of" check of every run function called directly (``aisched.run`` and
    :func:`aisched.core.runner.check_params` check ``Literal`` parameters before any work already).

    Raises
    ------
    InvalidScenarioError
        ``"<field>: = 'x' is not one of 'a', 'b'"``.
    """
    allowed = typing.get_args(choices) if typing.get_origin(choices) is Literal else tuple(choices)
    if not any(_same(value, c) for c in allowed):
        raise InvalidScenarioError(field, f"= {value!r} is not one of {', '.join(map(repr, allowed))}")
    return value


def _same(value: Any, choice: Any) -> bool:
    """``value == choice`` for a value of the choice's type (a numpy string counts as a string)."""
    if not isinstance(value, type(choice)):
        return False
    try:
        return bool(value == choice)
    except (TypeError, ValueError):  # an array or an object without a plain equality
        return False
