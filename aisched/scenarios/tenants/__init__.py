"""Scenarios of the `tenants` family (Astraea paper, section 5): generator, Philly traces, paper figures.

- :mod:`~aisched.scenarios.tenants.generator`: :func:`generate` (section 5.1's settings),
  :func:`default_instance` (``generate()``'s and ``aisched compare tenants``'s default) and
  :func:`paper_instance` (section 5.1's sizes);
- :mod:`~aisched.scenarios.tenants.traces`: the Philly extracts (quotas and arrivals);
- :mod:`~aisched.scenarios.tenants.paper`: Figs. 4-13 and Table 2 as named scenarios;
- :mod:`~aisched.scenarios.tenants.metrics` and :mod:`~aisched.scenarios.tenants.figures`:
  a sweep cell's family metrics and the report's extra figures (Figs. 7, 12, 13);
- :mod:`~aisched.scenarios.tenants.cli`: the ``aisched compare tenants`` options;
- :mod:`~aisched.scenarios.tenants.workload_options` and :mod:`~aisched.scenarios.tenants.silent`:
  what section 5.1 leaves open (job width, duration scale, shares, the past window Astraea
  estimates theta from) and the baselines' relations calibration fits them to.

Importing the package registers the family with :mod:`aisched.families` and imports
nothing heavy: the plug-in and the names below load on first use (:mod:`aisched._lazy`).
"""

from __future__ import annotations

from aisched import families
from aisched._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["cli", "figures", "generator", "metrics", "paper", "silent", "traces", "workload_options"],
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
        "PAPER_SCENARIO": "generator",
        "HORIZONS": "generator",
        "Horizon": "generator",
        "MAX_SIZE": "generator",
        "WINDOWS": "generator",
        "Window": "generator",
        "REDUCED_JOBS": "generator",
        "REDUCED_SLOT_HOURS": "generator",
        "default_instance": "generator",
        "paper_instance": "generator",
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


def _hooks() -> families.FamilyHooks:
    from aisched.scenarios.tenants import breakdown, figures, generator, metrics, paper

    return families.FamilyHooks(
        generate=generator.generate, metrics=metrics.metrics, scenarios=paper.add_scenarios,
        figures=figures.FIGURES, diagnostics=metrics.DIAGNOSTICS, notes=breakdown.gap_lines, labels=figures.LABELS,
    )


def _cli() -> families.FamilyCli:
    from aisched.scenarios.tenants import cli

    return cli.TenantsCli()


#: The paper's figures as scenario names (``tenants/<name>``), known before they are built.
PAPER_SCENARIOS: tuple[str, ...] = (
    "fig4a-jobs-linear", "fig4a-jobs-linear-consecutive", "fig4b-servers-linear", "fig4c-jobs-convex",
    "fig4d-servers-convex", "fig5-ratio-scale", "fig5a-ratio-jobs", "fig5b-ratio-servers",
    "fig6-ratio-schedulers", "fig7-fairness", "fig8-fairness-variance", "fig8-fairness-variance-consecutive",
    "fig9-runtime-jobs", "fig10-runtime-servers", "fig11-theta", "fig12-admission", "fig13-makespan",
    "fig13-utilisation", "regime-servers", "table2-users-alpha-variance", "table2-users-revenue-per-job",
)

from aisched.scenarios.tenants.silent import REGIME_TARGETS, SHARED_CODE, SILENT_PARAMETERS  # noqa: E402

families.register(families.Family(
    name="tenants", objective=families.Objective("total revenue"), proposed="astraea", hooks=_hooks, cli=_cli,
    item="job", paper_scenarios=PAPER_SCENARIOS, prices=True,
    metric_columns={"alpha_variance": False, "min_surplus": True, "gpu_util_peak": True, "makespan": False,
                    "revenue_per_job": True},
    silent_parameters=SILENT_PARAMETERS, regime_targets=REGIME_TARGETS, shared_code=SHARED_CODE,
    modules=('aisched.models.tenants', 'aisched.online.tenants', 'aisched.bounds.tenants'), order=4,
))
