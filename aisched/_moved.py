"""Old import paths of moved modules: one release of :class:`DeprecationWarning`, then gone.

A module that moved leaves a two-line file at its old place::

    from aisched._moved import moved
    moved(__name__, "aisched.experiments.run.sweep")

Importing the old name warns once and binds the old name in :data:`sys.modules` to the new
module itself (not a copy), so ``from old import name``, attribute reads and a test's
``monkeypatch.setattr(old_module, ...)`` all reach the one module that the code uses.

Where a module's functions went to two places (its rendering to ``experiments/pages``, the rest
to a lower room), ``also`` names where each of the others went: once the old path is imported, the
new module answers those names too (a :pep:`562` ``__getattr__``, importing them on first read),
so the old path still gives every name it had, and the new module imports none of them.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Mapping
from types import ModuleType
from typing import Any

__all__ = ["moved", "old_submodules"]


def _answer_also(module: ModuleType, also: Mapping[str, str]) -> None:
    """Let ``module`` answer the names in ``also`` (:pep:`562` ``__getattr__``), from their new modules."""
    earlier = module.__dict__.get("__getattr__")

    def __getattr__(name: str) -> Any:
        if name in also:
            return getattr(importlib.import_module(also[name]), name)
        if earlier is not None:
            return earlier(name)
        raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")

    module.__dict__["__getattr__"] = __getattr__


def moved(old: str, new: str, *, also: Mapping[str, str] | None = None, stacklevel: int = 3) -> ModuleType:
    """Make ``old`` an alias of module ``new``, with a :class:`DeprecationWarning` naming both.

    Parameters
    ----------
    old
        The old module's ``__name__`` (the caller passes its own).
    new
        The dotted name of the module's new place.
    also
        ``{name: module}``: names of the old module that went to another module than ``new``.
    stacklevel
        Where the warning points (3: the ``import`` statement that named the old path).

    Returns
    -------
    ModuleType
        The new module, now also ``sys.modules[old]`` and the old name's attribute on its parent package.
    """
    warnings.warn(f"{old} moved to {new}; import it from there ({old} goes in the next release)",
                  DeprecationWarning, stacklevel=stacklevel)
    module = importlib.import_module(new)
    if also:  # read through the old path only: the new module itself imports none of them
        _answer_also(module, dict(also))
    sys.modules[old] = module
    parent, _, leaf = old.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], leaf, module)
    return module


def old_submodules(package: str, names: list[str]) -> Any:
    """A package ``__getattr__`` answering its moved submodules' old names (``package.pdftsp_kernel``).

    Reading one imports the old module path, which warns (:func:`moved`) and gives the new module;
    the package's ``__init__`` then need not import the old paths itself (which would warn on every
    import of the package).
    """
    wanted = set(names)

    def __getattr__(name: str) -> Any:
        if name in wanted:
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
