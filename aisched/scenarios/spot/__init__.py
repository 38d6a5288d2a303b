"""Scenarios of the `spot` family (spot-market paper, section VI-A): generator, traces, selection, figures.

- :mod:`~aisched.scenarios.spot.generator`: one job (:func:`generate`; :func:`default_instance`, the
  job of ``generate()`` and ``aisched compare spot``; :func:`paper_instance`, the same job on the
  paper's market) and the paper's workload (:func:`workload`), markets and predictors, with every
  setting and choice;
- :mod:`~aisched.scenarios.spot.traces`: Vast.ai, AWS and GCP trace loaders;
- :mod:`~aisched.scenarios.spot.selection`: online policy selection cells, pools and
  figures (Figs. 9-10);
- :mod:`~aisched.scenarios.spot.paper`: Figs. 5-10 as named scenarios;
- :mod:`~aisched.scenarios.spot.figures`: Figs. 1-3 (throughput, traces, ARIMA forecasts);
- :mod:`~aisched.scenarios.spot.cli`: ``aisched compare spot`` and ``aisched select spot``.

Importing the package registers the family with :mod:`aisched.families` and imports
nothing heavy: the plug-in and the names below load on first use (:mod:`aisched._lazy`).
"""

from __future__ import annotations

from typing import Any

from aisched import families
from aisched._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["cli", "figures", "generator", "metrics", "paper", "selection", "silent", "traces", "up_msu"],
    names={
        "CLI_ALGORITHMS": "cli",
        "cell_metrics": "metrics",
        "CLI_HELP": "cli",
        "add_cli_arguments": "cli",
        "add_select_arguments": "cli",
        "describe": "cli",
        "instance_from_cli": "cli",
        "run_select": "cli",
        "MARKETS": "generator",
        "MAX_AVAILABLE": "generator",
        "MAX_SLOTS": "generator",
        "NOISE_SETTINGS": "generator",
        "SLOTS_PER_DAY": "generator",
        "bandwidth_efficiency": "generator",
        "DEFAULT_SCENARIO": "generator",
        "PAPER_SCENARIO": "generator",
        "default_instance": "generator",
        "paper_instance": "generator",
        "generate": "generator",
        "predictor": "generator",
        "synthetic_market": "generator",
        "trace_market": "generator",
        "vast_market": "generator",
        "workload": "generator",
        "PHASES": "selection",
        "POOLS": "selection",
        "policy_weight_heatmap": "selection",
        "pool_members": "selection",
        "selection_cell": "selection",
    },
    computed={"FIGURES": lambda: {**_figures().FIGURES, **_selection().FIGURES}},
)


def _figures() -> Any:
    from aisched.scenarios.spot import figures

    return figures


def _selection() -> Any:
    from aisched.scenarios.spot import selection

    return selection


def _hooks() -> families.FamilyHooks:
    from aisched.scenarios.spot import figures, generator, metrics, paper, selection

    return families.FamilyHooks(
        generate=generator.generate, metrics=metrics.metrics, scenarios=paper.add_scenarios,
        figures={**figures.FIGURES, **selection.FIGURES}, diagnostics=metrics.DIAGNOSTICS, labels=figures.LABELS,
        kinds={"selection": families.ScenarioKind(
            cell=selection.selection_cell, pools=selection.POOLS, pool_word="policy pool",
            description="online policy selection over a policy pool (the 'algorithm' names the pool) on a "
                        "generated workload (Algorithm 2, Figs. 9-10)")},
    )


def _cli() -> families.FamilyCli:
    from aisched.scenarios.spot import cli

    return cli.SpotCli()


#: The paper's figures as scenario names (``spot/<name>``), known before they are built.
PAPER_SCENARIOS: tuple[str, ...] = (
    "fig1-throughput", "fig2-traces", "fig3-forecast", "fig5-deadline", "fig5-deadline-synthetic",
    "fig6-bandwidth", "fig6-bandwidth-synthetic", "fig7-availability", "fig7-availability-synthetic",
    "fig8-price", "fig8-price-synthetic", "fig9-selection", "fig10-phases", "regime-availability",
)

from aisched.scenarios.spot.silent import REGIME_TARGETS, SILENT_PARAMETERS  # noqa: E402  (light data)

families.register(families.Family(
    name="spot", objective=families.Objective("utility"), proposed="ahap", hooks=_hooks, cli=_cli,
    item="job", paper_scenarios=PAPER_SCENARIOS, metric_columns={"best_fixed": True, "regret": False, "regret_to_bound": False}, prices=False,
    also_proposed=("ahanp",), silent_parameters=SILENT_PARAMETERS, regime_targets=REGIME_TARGETS,
    modules=('aisched.models.spot', 'aisched.online.spot'), order=2,
))
