"""Each family's scenarios, one package per paper (mirroring :mod:`aisched.models` and :mod:`aisched.online`).

``aisched.scenarios.<family>`` holds the family's seeded generator (``generate``),
its trace or data loaders, its paper figures as named scenarios, its report
figures and metrics, and its ``aisched compare`` options. Importing a package
registers the family's record with :mod:`aisched.families`, which the
family-free machinery (catalogue, sweep, report, reproduce) reads.
"""

import importlib
import pkgutil

#: The family packages here, found on disk (no hand-kept list); each registers its family on import,
#: and the families' ``order`` (not the import order) sets the catalogue's order.
__all__ = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)
for _name in __all__:
    importlib.import_module(f"{__name__}.{_name}")
