"""The one registry: families by name, and each family's algorithms, offline solve and bound on its object.

:func:`register` adds a :class:`~aisched.core.family.Family` (a re-import replaces it and keeps its
run functions), :func:`unregister` takes it out with every table it owns, :func:`get` and
:func:`names` read it. Algorithms register on their family (:func:`register_algorithm`, the
decorator :func:`aisched.registry.register` forwards to), with their declared parameters; the
offline solve and the certified bound likewise (:func:`register_offline`, :func:`register_bound`).
An algorithm registered for a family that is not registered yet waits for it (a plug-in package
may import its algorithms before its family record).

The built-in algorithms live in packages that import JAX and Pyomo, so they are imported on the
first look-up, not with ``import aisched``: each family names them in :attr:`Family.modules`, and
every reading function below imports them before it answers. A user's own algorithms come in
through the ecosystem's two usual doors (the way pytest and Dask load plug-ins): a package that
declares an entry point in the group :data:`ENTRY_POINT_GROUP` (``aisched.algorithms``), loaded on
the first look-up like the built-ins, and an explicit module, imported by :func:`load_plugin`
(``aisched ... --plugin my.module``, or ``plugins = [...]`` in a scenario's TOML). :func:`plugins`
lists the modules loaded so far: a sweep's cells carry them, so pool and Dask workers load the
same ones. Registering an algorithm's name a second time (a notebook cell run again) replaces the
first with an :class:`~aisched.errors.AischedWarning`.

This module imports nothing from aisched but the core and :mod:`aisched.errors`, so any layer may register.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, TypeVar

from aisched.core.family import Algorithm, Family, FamilyTables
from aisched.core.parameters import Parameter
from aisched.errors import AischedWarning, InvalidScenarioError, UnknownAlgorithmError

__all__ = ["BUILTIN_PREFIX", "ENTRY_POINT_GROUP", "algorithm", "default_names", "get", "has_plugins", "load", "resolve",
           "load_on_first_use", "load_plugin", "lookup", "lookup_bound", "lookup_offline", "names",
           "algorithm_names", "plugins", "register", "register_algorithm", "register_bound", "register_offline",
           "tables", "unregister"]

#: The entry-point group of packages that register algorithms (``[project.entry-points."aisched.algorithms"]``
#: in a plug-in's pyproject.toml, each entry a module whose import registers them).
ENTRY_POINT_GROUP = "aisched.algorithms"

#: Where the built-in algorithms are defined: a function from here is one of its family's paper
#: algorithms or baselines, which :func:`aisched.compare` runs by default.
BUILTIN_PREFIX = "aisched.online."

F = TypeVar("F", bound=Callable[..., Any])

_FAMILIES: dict[str, Family] = {}
_WAITING: dict[str, FamilyTables] = {}  # run functions registered for a family not registered yet
_PENDING: list[str] = []  # modules named by load_on_first_use, imported on the first look-up
_PLUGINS: list[str] = []  # plug-in modules imported in this process (entry points and load_plugin), in order
_ENTRY_POINTS_LOADED = [False]


# -- families ---------------------------------------------------------------------------------------------

def register(family: Family) -> Family:
    """Add (or, on a re-import, replace) a family; returns it. A replaced family's run functions stay."""
    if not isinstance(family, Family):
        raise TypeError(f"register() takes a Family, got {type(family).__name__}")
    earlier = _FAMILIES.get(family.name)  # replaced in place: it keeps its place in the listings
    if earlier is not None:  # the same tables: its run functions and scenarios stay; its hooks load anew
        object.__setattr__(family, "tables", earlier.tables)
        family.tables.hooks = family.tables.cli = None
    if family.name in _WAITING:
        family.tables.adopt(_WAITING.pop(family.name))
    _FAMILIES[family.name] = family
    return family


def unregister(name: str) -> Family | None:
    """Take family ``name`` out with everything it owns (algorithms, offline solve, bound, scenarios).

    Returns the family taken out, or ``None`` where none was registered under ``name``.
    """
    _WAITING.pop(name, None)
    return _FAMILIES.pop(name, None)


def names() -> list[str]:
    """The registered families, by their ``order``, then in registration order."""
    position = {name: i for i, name in enumerate(_FAMILIES)}
    return sorted(_FAMILIES, key=lambda n: (_FAMILIES[n].order, position[n]))


def get(name: str) -> Family:
    """The family ``name``.

    Raises
    ------
    InvalidScenarioError
        (field ``family``) when no package registered ``name``.
    """
    if name not in _FAMILIES:
        raise InvalidScenarioError(
            "family", f"{name!r} is not a registered family (registered: {', '.join(names()) or 'none'}; "
            "`import aisched` registers the built-in ones)")
    return _FAMILIES[name]


def resolve(family: Family | str) -> Family:
    """The family object of ``family`` (a registered :class:`Family`, or its name): what the machinery's
    entry points call once, then pass the object on.

    Raises
    ------
    InvalidScenarioError
        (field ``family``) a name no package registered, or an object that is not the one registered
        under its name.
    """
    if isinstance(family, Family):
        if _FAMILIES.get(family.name) is not family:
            raise InvalidScenarioError("family", f"{family.name!r} is not the family registered under that name "
                                       "(register it first: aisched.families.register)")
        return family
    return get(family)


def tables(name: str) -> FamilyTables:
    """The run-time tables of family ``name`` (those waiting for it where it is not registered yet)."""
    family = _FAMILIES.get(name)
    return family.tables if family is not None else _WAITING.setdefault(name, FamilyTables())


# -- loading ----------------------------------------------------------------------------------------------

def load_on_first_use(*modules: str) -> None:
    """Name modules whose import registers algorithms; the first look-up imports them (once)."""
    _PENDING.extend(m for m in modules if m not in _PENDING)


def load(family: str | None = None) -> None:
    """Import the modules that register algorithms now: ``family``'s (its :attr:`Family.modules`), or
    every registered family's, the modules named by :func:`load_on_first_use` and the entry points."""
    chosen = [family] if family is not None else list(_FAMILIES)
    for name in chosen:
        record = _FAMILIES.get(name)
        for module in record.modules if record is not None else ():
            importlib.import_module(module)
    while _PENDING:
        importlib.import_module(_PENDING[0])
        _PENDING.pop(0)
    if not _ENTRY_POINTS_LOADED[0]:
        _ENTRY_POINTS_LOADED[0] = True
        for point in entry_points(group=ENTRY_POINT_GROUP):
            load_plugin(point.value.split(":", 1)[0], field=f"entry point {point.name!r} of {ENTRY_POINT_GROUP}")


def load_plugin(module: str, *, field: str = "--plugin", near: str | os.PathLike[str] | None = None) -> None:
    """Import ``module`` (a dotted name) so that its ``@register`` decorators run; once per process.

    ``near``: a folder where a user keeps the module as a file (``my_module.py`` or a package
    ``my_module/``): the current folder for ``--plugin``, the TOML's folder for a scenario's
    ``plugins``. It is searched only when the module is not found on ``sys.path`` (which it is
    then appended to, so that the pool workers, which get the parent's ``sys.path``, find it too);
    no ``PYTHONPATH=.`` is needed.

    Raises
    ------
    InvalidScenarioError
        Naming ``field`` and the module, when it cannot be imported (with the import's own error).
    """
    if module in _PLUGINS:
        return
    if not isinstance(module, str) or not module.strip():
        raise InvalidScenarioError(field, f"= {module!r} is not a module name")
    if module.startswith("."):
        raise InvalidScenarioError(field, f"= {module!r} is a relative module name: give the whole dotted name "
                                   "(e.g. my_package.my_module), or the name of a .py file in the current folder "
                                   "(beside the TOML for a scenario's plugins)")
    top = module.split(".")[0]
    try:
        missing = near is not None and importlib.util.find_spec(top) is None
    except (ImportError, ValueError):
        missing = False
    if missing:
        folder = Path(near).resolve()  # type: ignore[arg-type]
        if (folder / f"{top}.py").is_file() or (folder / top / "__init__.py").is_file():
            if str(folder) not in sys.path:
                sys.path.append(str(folder))
            importlib.invalidate_caches()
    try:
        importlib.import_module(module)
    except ImportError as exc:
        where = f"; looked on sys.path and in {str(Path(near).resolve())!r}" if missing else ""  # type: ignore[arg-type]
        raise InvalidScenarioError(field, f"plug-in module {module!r} cannot be imported ({exc}){where}") from None
    _PLUGINS.append(module)


def has_plugins() -> bool:
    """Whether a plug-in is loaded or installed (an entry point), without importing any algorithm."""
    return bool(_PLUGINS) or any(True for _ in entry_points(group=ENTRY_POINT_GROUP))


def plugins() -> tuple[str, ...]:
    """The plug-in modules imported in this process so far (a sweep's cells carry them to the workers)."""
    return tuple(_PLUGINS)


# -- run functions ----------------------------------------------------------------------------------------

def register_algorithm(
    family: str,
    name: str,
    *,
    ready: bool | None = None,
    parameters: tuple[Parameter, ...] | None = None,
    ranges: Mapping[str, tuple[float | None, float | None]] | None = None,
) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, **params) -> Outcome`` as algorithm ``name`` of ``family``.

    Parameters
    ----------
    family, name
        Where :func:`aisched.run` finds it: ``aisched.run(name, instance_of_family)``.
    ready
        Whether :func:`aisched.compare` runs it when called without a list of names. ``None``
        (default): yes for the family's own algorithms (defined under ``aisched.online``), no for
        any other, so an experiment in a notebook joins the default comparison only when it says
        ``ready=True``.
    parameters
        Its declared parameters; ``None``: read once from the signature and hints on first use.
    ranges
        ``{parameter: (low, high)}``: declared ranges of its numeric parameters.
    """

    def deco(fn: F) -> F:
        table = tables(family).algorithms
        if name in table and table[name].run is not fn:
            warnings.warn(f"algorithm {name!r} of family {family!r} was already registered; "
                          f"{getattr(fn, '__qualname__', fn)!r} replaces it", AischedWarning, stacklevel=2)
        builtin = str(getattr(fn, "__module__", "")).startswith(BUILTIN_PREFIX)
        table[name] = Algorithm(family, name, fn, ready=builtin if ready is None else bool(ready),
                                declared=parameters, ranges=dict(ranges or {}))
        return fn

    return deco


def register_offline(family: str) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, *, solver, time_limit, mip_gap, ...) -> Outcome``."""

    def deco(fn: F) -> F:
        tables(family).offline = Algorithm(family, "offline", fn)
        return fn

    return deco


def register_bound(family: str) -> Callable[[F], F]:
    """Decorator: register ``fn(instance, *, time_limit, ...) -> Outcome``, a certified upper bound."""

    def deco(fn: F) -> F:
        tables(family).bound = Algorithm(family, "bound", fn)
        return fn

    return deco


def _loaded(family: str) -> FamilyTables:
    load(family)
    return _FAMILIES[family].tables if family in _FAMILIES else _WAITING.get(family, FamilyTables())


def algorithm_names(family: str) -> list[str]:
    """Registered online algorithm names of ``family``, in registration order."""
    return list(_loaded(family).algorithms)


def default_names(family: str) -> list[str]:
    """The names :func:`aisched.compare` runs without a list: built-in ones and those registered ``ready``."""
    return [n for n, a in _loaded(family).algorithms.items() if a.ready]


def algorithm(family: str, name: str) -> Algorithm:
    """The registered :class:`Algorithm` ``name`` of ``family``.

    Raises
    ------
    UnknownAlgorithmError
        Naming the known algorithms of the family.
    """
    table = _loaded(family).algorithms
    if name not in table:
        known = ", ".join(table) or "none"
        raise UnknownAlgorithmError(f"unknown algorithm {name!r} for family {family!r} (known: {known})")
    return table[name]


def lookup(family: str, name: str) -> Callable[..., Any]:
    """The run function of ``name`` for ``family`` (:func:`algorithm`'s ``run``)."""
    return algorithm(family, name).run


def offline_solve(family: str) -> Algorithm:
    """The offline solve of ``family`` as an :class:`Algorithm` (its options as declared parameters)."""
    found = _loaded(family).offline
    if found is None:
        raise UnknownAlgorithmError(f"no offline program registered for family {family!r}")
    return found


def lookup_offline(family: str) -> Callable[..., Any]:
    """The offline solve of ``family``."""
    return offline_solve(family).run


def certified_bound(family: str) -> Algorithm:
    """The certified-bound method of ``family`` as an :class:`Algorithm`."""
    found = _loaded(family).bound
    if found is None:
        load()  # every family's, for the list below
        have = ", ".join(n for n in names() if _FAMILIES[n].tables.bound is not None) or "none"
        raise UnknownAlgorithmError(f"no certified bound for family {family!r} yet (families with one: {have})")
    return found


def lookup_bound(family: str) -> Callable[..., Any]:
    """The family's certified-bound method."""
    return certified_bound(family).run
