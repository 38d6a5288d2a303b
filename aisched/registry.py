"""The algorithm registry: names -> run functions, per family.

Online algorithms and baselines register themselves with :func:`register`;
each family's offline solve registers with :func:`register_offline`. The
public :func:`aisched.run`, :func:`aisched.offline` and
:func:`aisched.algorithms` read this table. This module imports nothing else
from aisched but errors, so any layer may register.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from aisched.errors import UnknownAlgorithmError

__all__ = ["register", "register_bound", "register_offline", "register_metrics", "lookup", "lookup_bound",
           "lookup_offline", "metrics", "names"]

F = TypeVar("F", bound=Callable[..., Any])

_ONLINE: dict[str, dict[str, Callable[..., Any]]] = {}
_OFFLINE: dict[str, Callable[..., Any]] = {}
_METRICS: dict[str, Callable[..., Any]] = {}
_BOUNDS: dict[str, Callable[..., Any]] = {}


def register(family: str, name: str) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, **params) -> Outcome`` as ``name`` of ``family``."""

    def deco(fn: F) -> F:
        table = _ONLINE.setdefault(family, {})
        if name in table and table[name] is not fn:
            raise ValueError(f"algorithm {name!r} already registered for family {family!r}")
        table[name] = fn
        return fn

    return deco


def register_offline(family: str) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, *, solver, time_limit, mip_gap, ...) -> Outcome``."""

    def deco(fn: F) -> F:
        _OFFLINE[family] = fn
        return fn

    return deco


def names(family: str) -> list[str]:
    """Registered online algorithm names of ``family``, in registration order."""
    return list(_ONLINE.get(family, {}))


def lookup(family: str, name: str) -> Callable[..., Any]:
    """The run function of ``name`` for ``family``.

    Raises
    ------
    UnknownAlgorithmError
        Naming the known algorithms of the family.
    """
    table = _ONLINE.get(family, {})
    if name not in table:
        known = ", ".join(table) or "none"
        raise UnknownAlgorithmError(
            f"unknown algorithm {name!r} for family {family!r} (known: {known})"
        )
    return table[name]


def lookup_offline(family: str) -> Callable[..., Any]:
    """The offline solve of ``family``."""
    if family not in _OFFLINE:
        raise UnknownAlgorithmError(f"no offline program registered for family {family!r}")
    return _OFFLINE[family]


def register_metrics(family: str) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, outcome) -> dict[str, float]``, the family's resource metrics.

    :func:`aisched.compare` adds them as columns and every sweep cell as table
    columns (e.g. compute and memory utilisation, so a reader sees whether
    capacity binds).
    """

    def deco(fn: F) -> F:
        _METRICS[family] = fn
        return fn

    return deco


def metrics(family: str) -> Callable[..., Any] | None:
    """The family's registered resource metrics, or None."""
    return _METRICS.get(family)


def register_bound(family: str) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, *, time_limit, ...) -> Outcome``, a certified upper bound."""

    def deco(fn: F) -> F:
        _BOUNDS[family] = fn
        return fn

    return deco


def lookup_bound(family: str) -> Callable[..., Any]:
    """The family's certified-bound method."""
    if family not in _BOUNDS:
        have = ", ".join(_BOUNDS) or "none"
        raise UnknownAlgorithmError(f"no certified bound for family {family!r} yet (families with one: {have})")
    return _BOUNDS[family]
