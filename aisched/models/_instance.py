"""A declarative base for every family's Instance: fields, their dims, dtypes and checks.

An Instance declares ``_SPEC``, a tuple of steps run in order by
:meth:`ValidatedInstance._validate` (the order is the order of the checks, so the
first bad field is the one named):

- :class:`Count`: an integer scalar ``>= low`` that may define a dim (``num_slots``);
- :class:`Size`: reads the sizes of new dims from one field's shape;
- :class:`Field`: one array field, read with :func:`~aisched.models._validate.as_array`
  at the shape its dims give, then checked (positive / nonneg / finite / a
  :class:`Range`) and by an optional extra check;
- :class:`Scalar`: one scalar field read by a family function;
- :class:`OneOf`: a text field taking one of a few choices;
- :class:`Rule`: family code (cross-field checks) run at that point of the order.

Every failure raises :class:`~aisched.errors.InvalidInstanceError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Union

import numpy as np

from aisched.errors import InvalidInstanceError
from aisched.models._validate import (
    as_array,
    check_finite,
    check_nonneg,
    check_positive,
    check_range,
    first_bad,
)

__all__ = [
    "INT32_MAX", "IN_SLOTS", "Count", "Field", "OneOf", "Range", "Rule", "Scalar", "Size", "Sizes",
    "ValidatedInstance", "deadline_not_before_arrival",
]

#: The sizes read so far, by dim name (``{"task": 5, "node": 2, "slot": 24}``).
Sizes = dict[str, int]
#: A dim: a name (its size read by a :class:`Size` or :class:`Count`) or a fixed length.
Dim = Union[str, int]
#: A number, or a function of the sizes giving it.
_BySize = Union[Any, Callable[[Sizes], Any]]

#: Largest value of an int32 (the upper end of the ``>= 0`` and ``>= 1`` integer ranges).
INT32_MAX = int(np.iinfo(np.int32).max)


def _at(value: _BySize, sizes: Sizes) -> Any:
    return value(sizes) if callable(value) else value


def _shape(dims: tuple[Dim, ...], sizes: Sizes) -> tuple[int, ...]:
    return tuple(sizes[d] if isinstance(d, str) else d for d in dims)


@dataclass(frozen=True)
class Range:
    """Entries must lie in ``[low, high]``; ``what`` names the range in the message."""

    low: _BySize
    high: _BySize
    what: _BySize


#: A slot index: ``0..num_slots-1``.
IN_SLOTS = Range(0, lambda s: s["slot"] - 1, lambda s: f"slots 0..{s['slot'] - 1}")

_CHECKS: dict[str, Callable[[str, np.ndarray], None]] = {
    "positive": check_positive, "nonneg": check_nonneg, "finite": check_finite,
}


@dataclass(frozen=True)
class Count:
    """An integer scalar ``>= low`` (not a boolean); ``dim`` names the size it gives."""

    name: str
    low: int = 1
    dim: str | None = None

    def apply(self, inst: Any, given: Mapping[str, Any], sizes: Sizes) -> None:
        value = given[self.name]
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise InvalidInstanceError(self.name, f"must be an integer, got {value!r}")
        if value < self.low:
            raise InvalidInstanceError(self.name, f"= {value} must be >= {self.low}")
        object.__setattr__(inst, self.name, int(value))
        if self.dim is not None:
            sizes[self.dim] = int(value)


@dataclass(frozen=True)
class Size:
    """Read the sizes of the new dims of ``dims`` from field ``name``'s shape.

    The shape must have ``len(dims)`` axes; an axis of a known dim or of a fixed
    length must match it, an axis of a ``nonempty`` dim must be ``>= 1``.
    Otherwise ``message`` is raised, formatted with ``shape`` and the known sizes.
    """

    name: str
    dims: tuple[Dim, ...]
    message: str
    nonempty: tuple[str, ...] = ()

    def apply(self, inst: Any, given: Mapping[str, Any], sizes: Sizes) -> None:
        shape = np.asarray(given[self.name]).shape
        ok = len(shape) == len(self.dims) and all(
            n == (d if isinstance(d, int) else sizes.get(d, n)) and (n >= 1 or d not in self.nonempty)
            for d, n in zip(self.dims, shape, strict=False)
        )
        if not ok:
            raise InvalidInstanceError(self.name, self.message.format(shape=shape, **sizes))
        for d, n in zip(self.dims, shape, strict=True):
            if isinstance(d, str):
                sizes.setdefault(d, int(n))


@dataclass(frozen=True)
class Field:
    """One array field: read at the shape of ``dims`` as ``dtype``, then checked.

    ``check``: "positive", "nonneg", "finite", a :class:`Range` or None; ``extra``:
    a further ``extra(name, array)`` check; ``attr``: the attribute it is stored
    under (default ``name``); ``fill``: when the value given is None, an array of
    that value (default: None is read as given).
    """

    name: str
    dims: tuple[Dim, ...]
    dtype: type
    check: str | Range | None = None
    extra: Callable[[str, np.ndarray], None] | None = None
    attr: str | None = None
    fill: float | None = None

    def apply(self, inst: Any, given: Mapping[str, Any], sizes: Sizes) -> None:
        shape = _shape(self.dims, sizes)
        value = given[self.name]
        if value is None and self.fill is not None:
            value = np.full(shape, self.fill)
        arr = as_array(self.name, value, shape, self.dtype)
        object.__setattr__(inst, self.attr or self.name, arr)
        if isinstance(self.check, Range):
            check_range(self.name, arr, _at(self.check.low, sizes), _at(self.check.high, sizes),
                        _at(self.check.what, sizes))
        elif self.check is not None:
            _CHECKS[self.check](self.name, arr)
        if self.extra is not None:
            self.extra(self.name, arr)


@dataclass(frozen=True)
class Scalar:
    """A scalar field, stored as ``read(name, value)`` (the family's reader raises)."""

    name: str
    read: Callable[[str, Any], Any]

    def apply(self, inst: Any, given: Mapping[str, Any], sizes: Sizes) -> None:
        object.__setattr__(inst, self.name, self.read(self.name, given[self.name]))


@dataclass(frozen=True)
class OneOf:
    """A text field taking one of ``choices``; ``message`` is formatted with ``value``."""

    name: str
    choices: tuple[str, ...]
    message: str

    def apply(self, inst: Any, given: Mapping[str, Any], sizes: Sizes) -> None:
        value = given[self.name]
        if not isinstance(value, str) or value not in self.choices:
            raise InvalidInstanceError(self.name, self.message.format(value=value))
        object.__setattr__(inst, self.name, str(value))


@dataclass(frozen=True)
class Rule:
    """Family code run at this point of the order: ``run(instance, given, sizes)``."""

    run: Callable[[Any, Mapping[str, Any], Sizes], None]

    def apply(self, inst: Any, given: Mapping[str, Any], sizes: Sizes) -> None:
        self.run(inst, given, sizes)


Step = Union[Count, Size, Field, Scalar, OneOf, Rule]


def deadline_not_before_arrival(inst: Any, given: Mapping[str, Any], sizes: Sizes) -> None:
    """``deadline[i] >= arrival[i]`` for every task / job."""
    early = inst.deadline < inst.arrival
    if early.any():
        i = first_bad(early)[0]
        raise InvalidInstanceError(
            "deadline", f"[{i}] = {inst.deadline[i]} is before arrival[{i}] = {inst.arrival[i]}"
        )


class ValidatedInstance:
    """Base of the families' Instances: validates the constructor's keywords against ``_SPEC``."""

    _SPEC: ClassVar[tuple[Step, ...]] = ()

    def _validate(self, given: Mapping[str, Any]) -> None:
        """Run every step of ``_SPEC`` in order on the constructor's keywords ``given``."""
        sizes: Sizes = {}
        for step in self._SPEC:
            step.apply(self, given, sizes)
