"""The algorithm registry's public face: register a run function on its family, look it up.

Each family (:class:`aisched.core.family.Family`) owns its algorithms, offline solve and certified
bound; this module is the decorators and look-ups that reach them by the family's name
(:mod:`aisched.core.registry` holds the one registry). :func:`aisched.run`, :func:`aisched.offline`
and :func:`aisched.algorithms` read it.

Online algorithms and baselines register with :func:`register`, declaring their parameters
(``parameters=``, ``ranges=``) or letting them be read once from the signature; each family's
offline solve registers with :func:`register_offline`, its certified bound with
:func:`register_bound`. Registering a name a second time (a notebook cell run again) replaces the
first registration with an :class:`~aisched.errors.AischedWarning`.

A user's own algorithms come in through the ecosystem's two usual doors (the way pytest and Dask
load plug-ins): a package that declares an entry point in the group :data:`ENTRY_POINT_GROUP`
(``aisched.algorithms``), loaded on the first look-up like the built-ins, and an explicit module,
imported by :func:`load_plugin` (``aisched ... --plugin my.module``, or ``plugins = [...]`` in a
scenario's TOML). :func:`plugins` lists the modules loaded so far: a sweep's cells carry them, so
pool and Dask workers load the same ones.
"""

from __future__ import annotations

from aisched.core.registry import (
    BUILTIN_PREFIX,
    ENTRY_POINT_GROUP,
    algorithm,
    certified_bound,
    default_names,
    has_plugins,
    load,
    load_on_first_use,
    load_plugin,
    lookup,
    lookup_bound,
    lookup_offline,
    offline_solve,
    plugins,
    register_bound,
    register_offline,
)
from aisched.core.registry import algorithm_names as names
from aisched.core.registry import register_algorithm as register

__all__ = ["BUILTIN_PREFIX", "ENTRY_POINT_GROUP", "algorithm", "certified_bound", "default_names", "has_plugins",
           "load", "load_on_first_use", "load_plugin", "lookup", "lookup_bound", "lookup_offline", "names",
           "offline_solve", "plugins", "register", "register_bound", "register_offline"]
