"""Scenarios of the `tenants` family (Astraea paper, section 5): generator, Philly traces, paper figures.

- :mod:`~aisched.scenarios.tenants.generator`: :func:`generate` (section 5.1's settings) and
  :func:`default_instance`;
- :mod:`~aisched.scenarios.tenants.traces`: the Philly extracts (quotas and arrivals);
- :mod:`~aisched.scenarios.tenants.paper`: Figs. 4-13 and Table 2 as named scenarios;
- :mod:`~aisched.scenarios.tenants.metrics` and :mod:`~aisched.scenarios.tenants.figures`:
  a sweep cell's family metrics and the report's extra figures (Figs. 7, 12, 13);
- :mod:`~aisched.scenarios.tenants.cli`: the ``aisched compare tenants`` options.

Importing the package registers the family with :mod:`aisched.experiments.families` and imports
nothing heavy: the plug-in and the names below load on first use (:mod:`aisched._lazy`).
"""

from __future__ import annotations

from typing import Any

from aisched._lazy import attach
from aisched.experiments import families

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["cli", "figures", "generator", "metrics", "paper", "traces"],
    names={
        "CLI_ALGORITHMS": "cli",
        "CLI_HELP": "cli",
        "add_cli_arguments": "cli",
        "cli_figures": "cli",
        "cli_params": "cli",
        "describe": "cli",
        "instance_from_cli": "cli",
        "FIGURES": "figures",
        "alpha_bars": "figures",
        "alpha_figure": "figures",
        "revenue_cost_figure": "figures",
        "utilisation_figure": "figures",
        "DEFAULT_SCENARIO": "generator",
        "HORIZONS": "generator",
        "Horizon": "generator",
        "MAX_SIZE": "generator",
        "WINDOWS": "generator",
        "Window": "generator",
        "REDUCED_JOBS": "generator",
        "REDUCED_SLOT_HOURS": "generator",
        "default_instance": "generator",
        "finishable_horizon": "generator",
        "generate": "generator",
        "cell_metrics": "metrics",
        "gpu_utilisation": "metrics",
        "TRACES": "traces",
        "load_philly": "traces",
        "every_tenant_window": "traces",
        "spread_owners": "traces",
    },
)


def _plugin() -> families.Family:
    from aisched.scenarios.tenants import breakdown, cli, figures, generator, metrics, paper

    return families.Family(
        name="tenants", generate=generator.generate, scenarios=paper.add_scenarios, figures=figures.FIGURES,
        cell_metrics=metrics.cell_metrics, cli=cli, labels=figures.LABELS,
        proposed="astraea", diagnostics=metrics.DIAGNOSTICS, findings=metrics.FINDINGS,
        notes=breakdown.gap_lines,
    )


def _cli() -> Any:
    from aisched.scenarios.tenants import cli

    return cli


families.register_lazy("tenants", _plugin, cli=_cli)
