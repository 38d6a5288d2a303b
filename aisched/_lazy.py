"""Lazy package attributes (:pep:`562`): a package names what it re-exports, imported on first use.

``aisched --help`` must answer within a second, so no package imports the
numerical stack (JAX, Pyomo, xarray, pandas) when it is imported; its public
names are resolved from their submodules the first time they are read, like
``scipy``'s and ``lazy_loader``'s packages. ``from package import name`` works
unchanged.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["attach"]


def attach(
    package: str,
    submodules: Iterable[str] = (),
    names: Mapping[str, str] | None = None,
    computed: Mapping[str, Callable[[], Any]] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package``.

    Parameters
    ----------
    package
        The package's ``__name__``.
    submodules
        Submodule names (``"generator"``) read as attributes.
    names
        Public name -> the submodule defining it (``{"generate": "generator"}``).
    computed
        Public name -> a function returning its value (built from several submodules).
    """
    subs = tuple(submodules)
    names = dict(names or {})
    computed = dict(computed or {})
    public = sorted({*subs, *names, *computed})

    def __getattr__(name: str) -> Any:
        if name in names:
            value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
        elif name in subs:
            value = importlib.import_module(f"{package}.{name}")
        elif name in computed:
            value = computed[name]()
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        vars(importlib.import_module(package))[name] = value  # later reads skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(importlib.import_module(package))) | set(public))

    return __getattr__, __dir__, public
