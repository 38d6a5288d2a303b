"""Old import paths of moved modules: one release of :class:`DeprecationWarning`, then gone.

A module that moved leaves a two-line file at its old place::

    from aisched._moved import moved
    moved(__name__, "aisched.experiments.run.sweep")

Importing the old name warns once and binds the old name in :data:`sys.modules` to the new
module itself (not a copy), so ``from old import name``, attribute reads and a test's
``monkeypatch.setattr(old_module, ...)`` all reach the one module that the code uses.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from types import ModuleType

__all__ = ["moved"]


def moved(old: str, new: str, *, stacklevel: int = 3) -> ModuleType:
    """Make ``old`` an alias of module ``new``, with a :class:`DeprecationWarning` naming both.

    Parameters
    ----------
    old
        The old module's ``__name__`` (the caller passes its own).
    new
        The dotted name of the module's new place.
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
    sys.modules[old] = module
    parent, _, leaf = old.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], leaf, module)
    return module
