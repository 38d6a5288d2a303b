"""The family-free experiment machinery: scenarios as data, the catalogue, sweeps, reports, reproduction.

- :mod:`~aisched.experiments.scenario`: :class:`Scenario` and :class:`Claim` and their
  TOML form; :mod:`~aisched.experiments.validation`: what a scenario may name, and its check;
- :mod:`~aisched.experiments.stored`: :class:`StoredScenario`, what a sweep folder recorded
  (``scenario.json``), as the report side reads it;
- every family reaches it through :mod:`aisched.families` (the typed family registry);
  nothing here imports or names a family;
- :mod:`~aisched.experiments.catalog`: named scenarios (the papers' figures and a user's);
- :mod:`~aisched.experiments.sweep`: runs a scenario's cells (local processes or Dask),
  resumably; :mod:`~aisched.experiments.report`: tables, figures, claim checks;
- :mod:`~aisched.experiments.reproduce` and :mod:`~aisched.experiments.reproduction`:
  every figure of a paper in one run, and the reproduction page;
- :mod:`~aisched.experiments.figures`: shared plotting helpers;
  :mod:`~aisched.experiments.data`: where the real-data files are found and how to fetch them.

Imports go one way: ``aisched.scenarios -> aisched.experiments``, never back.
The submodules load on first use (:mod:`aisched._lazy`).
"""

from aisched._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["catalog", "data", "figures", "report", "reproduce", "reproduction", "scenario",
                "stored", "sweep", "validation", "verdicts"],
    names={"Claim": "scenario", "Scenario": "scenario", "StoredScenario": "stored"},
)
