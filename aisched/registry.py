"""The algorithm registry: names -> run functions, per family.

Online algorithms and baselines register themselves with :func:`register`;
each family's offline solve registers with :func:`register_offline`. Tables are keyed
by the family names of :mod:`aisched.families` (a family's result columns are its
``metrics`` hook there, not registered here). The
public :func:`aisched.run`, :func:`aisched.offline` and
:func:`aisched.algorithms` read this table. This module imports nothing else
from aisched but errors, so any layer may register.

The built-in algorithms live in packages that import JAX and Pyomo, so they
are imported on the first look-up, not with ``import aisched``: the package
names them with :func:`load_on_first_use` (the way a plug-in names an entry
point), and every reading function below imports them before it answers.

Registering a name a second time (a notebook cell run again) replaces the
first registration with an :class:`~aisched.errors.AischedWarning`.

A user's own algorithms come in through the ecosystem's two usual doors
(the way pytest and Dask load plug-ins): a package that declares an entry
point in the group :data:`ENTRY_POINT_GROUP` (``aisched.algorithms``), loaded
on the first look-up like the built-ins, and an explicit module, imported by
:func:`load_plugin` (``aisched ... --plugin my.module``, or ``plugins = [...]``
in a scenario's TOML). :func:`plugins` lists the modules loaded so far: a
sweep's cells carry them, so pool and Dask workers load the same ones.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, TypeVar

from aisched.errors import AischedWarning, InvalidScenarioError, UnknownAlgorithmError

__all__ = ["ENTRY_POINT_GROUP", "default_names", "has_plugins", "load", "load_on_first_use", "load_plugin", "plugins", "register",
           "register_bound", "register_offline", "lookup", "lookup_bound", "lookup_offline", "names"]

#: The entry-point group of packages that register algorithms (``[project.entry-points."aisched.algorithms"]``
#: in a plug-in's pyproject.toml, each entry a module whose import registers them).
ENTRY_POINT_GROUP = "aisched.algorithms"

F = TypeVar("F", bound=Callable[..., Any])

_ONLINE: dict[str, dict[str, Callable[..., Any]]] = {}
_OFFLINE: dict[str, Callable[..., Any]] = {}
_BOUNDS: dict[str, Callable[..., Any]] = {}
_READY: dict[str, set[str]] = {}
_PENDING: list[str] = []  # modules that register the built-in algorithms, imported on first look-up
_PLUGINS: list[str] = []  # plug-in modules imported in this process (entry points and load_plugin), in order
_ENTRY_POINTS_LOADED = [False]

#: Where the built-in algorithms are defined: a function from here is one of its family's paper
#: algorithms or baselines, which :func:`aisched.compare` runs by default.
BUILTIN_PREFIX = "aisched.online."


def load_on_first_use(*modules: str) -> None:
    """Name modules whose import registers algorithms; the first look-up imports them (once)."""
    _PENDING.extend(m for m in modules if m not in _PENDING)


def load() -> None:
    """Import the modules named by :func:`load_on_first_use` now (a pool worker does, before its first cell)."""
    _load()


def _load() -> None:
    while _PENDING:
        importlib.import_module(_PENDING[0])
        _PENDING.pop(0)
    if not _ENTRY_POINTS_LOADED[0]:
        _ENTRY_POINTS_LOADED[0] = True
        for point in entry_points(group=ENTRY_POINT_GROUP):
            load_plugin(point.value.split(":", 1)[0], field=f"entry point {point.name!r} of {ENTRY_POINT_GROUP}")


def load_plugin(module: str, *, field: str = "--plugin") -> None:
    """Import ``module`` (a dotted name) so that its ``@register`` decorators run; once per process.

    Raises
    ------
    InvalidScenarioError
        Naming ``field`` and the module, when it cannot be imported (with the import's own error).
    """
    if module in _PLUGINS:
        return
    if not isinstance(module, str) or not module.strip():
        raise InvalidScenarioError(field, f"= {module!r} is not a module name")
    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise InvalidScenarioError(field, f"plug-in module {module!r} cannot be imported ({exc})") from None
    _PLUGINS.append(module)


def has_plugins() -> bool:
    """Whether a plug-in is loaded or installed (an entry point), without importing any algorithm."""
    return bool(_PLUGINS) or any(True for _ in entry_points(group=ENTRY_POINT_GROUP))


def plugins() -> tuple[str, ...]:
    """The plug-in modules imported in this process so far (a sweep's cells carry them to the workers)."""
    return tuple(_PLUGINS)


def register(family: str, name: str, *, ready: bool | None = None) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, **params) -> Outcome`` as ``name`` of ``family``.

    Parameters
    ----------
    family, name
        Where :func:`aisched.run` finds it: ``aisched.run(name, instance_of_family)``.
    ready
        Whether :func:`aisched.compare` runs it when called without a list of
        names. ``None`` (default): yes for the family's own algorithms (defined
        under ``aisched.online``), no for any other, so an experiment in a
        notebook joins the default comparison only when it says ``ready=True``.

    A name registered again replaces the earlier function, with an
    :class:`~aisched.errors.AischedWarning` (re-running a notebook cell works).
    """

    def deco(fn: F) -> F:
        table = _ONLINE.setdefault(family, {})
        if name in table and table[name] is not fn:
            warnings.warn(f"algorithm {name!r} of family {family!r} was already registered; "
                          f"{getattr(fn, '__qualname__', fn)!r} replaces it", AischedWarning, stacklevel=2)
        table[name] = fn
        builtin = str(getattr(fn, "__module__", "")).startswith(BUILTIN_PREFIX)
        ready_set = _READY.setdefault(family, set())
        if (builtin if ready is None else bool(ready)):
            ready_set.add(name)
        else:
            ready_set.discard(name)
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
    _load()
    return list(_ONLINE.get(family, {}))


def default_names(family: str) -> list[str]:
    """The names :func:`aisched.compare` runs without a list: built-in ones and those registered ``ready``."""
    _load()
    ready = _READY.get(family, set())
    return [n for n in _ONLINE.get(family, {}) if n in ready]


def lookup(family: str, name: str) -> Callable[..., Any]:
    """The run function of ``name`` for ``family``.

    Raises
    ------
    UnknownAlgorithmError
        Naming the known algorithms of the family.
    """
    _load()
    table = _ONLINE.get(family, {})
    if name not in table:
        known = ", ".join(table) or "none"
        raise UnknownAlgorithmError(
            f"unknown algorithm {name!r} for family {family!r} (known: {known})"
        )
    return table[name]


def lookup_offline(family: str) -> Callable[..., Any]:
    """The offline solve of ``family``."""
    _load()
    if family not in _OFFLINE:
        raise UnknownAlgorithmError(f"no offline program registered for family {family!r}")
    return _OFFLINE[family]


def register_bound(family: str) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, *, time_limit, ...) -> Outcome``, a certified upper bound."""

    def deco(fn: F) -> F:
        _BOUNDS[family] = fn
        return fn

    return deco


def lookup_bound(family: str) -> Callable[..., Any]:
    """The family's certified-bound method."""
    _load()
    if family not in _BOUNDS:
        have = ", ".join(_BOUNDS) or "none"
        raise UnknownAlgorithmError(f"no certified bound for family {family!r} yet (families with one: {have})")
    return _BOUNDS[family]
