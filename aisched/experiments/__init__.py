"""The family-free experiment machinery: scenarios as data, the catalogue, sweeps, reports, reproduction.

- :mod:`~aisched.experiments.scenario`: :class:`Scenario` and :class:`Claim`, their
  validation and TOML form;
- :mod:`~aisched.experiments.families`: the registry each family's scenario package
  (``aisched.scenarios.<family>``) hands its generator, paper scenarios, figures and
  metrics to; nothing here imports a family;
- :mod:`~aisched.experiments.catalog`: named scenarios (the papers' figures and a user's);
- :mod:`~aisched.experiments.sweep`: runs a scenario's cells (local processes or Dask),
  resumably; :mod:`~aisched.experiments.report`: tables, figures, claim checks;
- :mod:`~aisched.experiments.reproduce` and :mod:`~aisched.experiments.reproduction`:
  every figure of a paper in one run, and the reproduction page;
- :mod:`~aisched.experiments.figures`: shared plotting helpers;
  :mod:`~aisched.experiments.data`: where the real-data files are found and how to fetch them.

Imports go one way: ``aisched.scenarios -> aisched.experiments``, never back.
The submodules load on first use (:mod:`aisched._lazy`), so a family's plug-in
registers with :mod:`~aisched.experiments.families` without importing pandas.
"""

from aisched._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["catalog", "data", "families", "figures", "report", "reproduce", "reproduction", "scenario",
                "sweep", "verdicts"],
    names={"Claim": "scenario", "Scenario": "scenario"},
)
