"""The family-free experiment machinery: scenarios as data, the catalogue, sweeps, reports, reproduction.

Six rooms, one concern each; a room imports only the rooms before it (``tests/test_layout.py``):

- :mod:`~aisched.experiments.spec`: what a scenario is: :class:`Scenario` and :class:`Claim`
  and their TOML form (``spec.scenario``), what a scenario may name and its check
  (``spec.validation``), the named scenarios (``spec.catalog``), the readings index (``spec.readings``);
- :mod:`~aisched.experiments.store`: what a sweep folder holds: :class:`StoredScenario`
  (``scenario.json``, as the report side reads it; ``store.stored``) and the folder's state (``store.sweep_state``);
- :mod:`~aisched.experiments.verdicts`: what a table says about a claim: paired intervals and
  headroom (``verdicts.stats``), sequential looks, claim checks, diagnostics, regime maps;
- :mod:`~aisched.experiments.run`: running: a scenario's cells (local processes or Dask),
  resumably (``run.sweep``), progress, shared cells, every figure of a paper in one run
  (``run.reproduce``), added seeds, refreshed metrics;
- :mod:`~aisched.experiments.studies`: calibration and sensitivity to the silent parameters;
- :mod:`~aisched.experiments.pages`: rendering: the report (``pages.report``), the reproduction
  page, their figures and Markdown sections, and ``aisched reproduce`` as one call (``pages.reproduce``).

Every family reaches it through :mod:`aisched.families` (the typed family registry);
nothing here imports or names a family. Shared plotting helpers are :mod:`aisched.figures`;
where the real-data files are found and how to fetch them, :mod:`aisched.data`.
The old flat module paths (``aisched.experiments.sweep``) still import, with a
:class:`DeprecationWarning` (:mod:`aisched._moved`); the old attributes of this package
(``aisched.experiments.sweep``) read the new modules without one.

Imports go one way: ``aisched.scenarios -> aisched.experiments``, never back.
The submodules load on first use (:mod:`aisched._lazy`).
"""

import importlib

from aisched._lazy import attach

#: The old attributes of this package (its flat modules until they moved into the rooms) -> their new modules.
_MOVED = {"catalog": "aisched.experiments.spec.catalog", "data": "aisched.data", "figures": "aisched.figures",
          "report": "aisched.experiments.pages.report", "reproduce": "aisched.experiments.pages.reproduce",
          "reproduction": "aisched.experiments.pages.reproduction", "scenario": "aisched.experiments.spec.scenario",
          "stored": "aisched.experiments.store.stored", "sweep": "aisched.experiments.run.sweep",
          "validation": "aisched.experiments.spec.validation"}

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["pages", "run", "spec", "store", "studies", "verdicts"],
    names={"Claim": "spec.scenario", "Scenario": "spec.scenario", "StoredScenario": "store.stored"},
    computed={old: (lambda new=new: importlib.import_module(new)) for old, new in _MOVED.items()},
)
