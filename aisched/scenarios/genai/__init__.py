"""Scenarios of the `genai` family (ComDOS paper, section V): generator, paper figures, Fig. 3.

- :mod:`~aisched.scenarios.genai.generator`: :func:`generate` (section V-A's workload on
  TaskBench / HuggingGPT DAGs), :func:`default_instance` (``generate()``'s and ``aisched compare
  genai``'s default) and :func:`paper_instance` (section IV-A's sizes);
- :mod:`~aisched.scenarios.genai.paper`: Figs. 4-9 as named scenarios;
- :mod:`~aisched.scenarios.genai.figures`: Fig. 3's worked example (ranks, order, options);
- :mod:`~aisched.scenarios.genai.silent`: the values section IV.A leaves unstated and the paper's
  baseline relations they are fitted to;
- :mod:`~aisched.scenarios.genai.processors`: the baseline relations under HEFT's processors
  (docs/readings/genai.md A2d);
- :mod:`~aisched.scenarios.genai.cli`: the ``aisched compare genai`` options.

Importing the package registers the family with :mod:`aisched.families` and imports
nothing heavy: the plug-in and the names below load on first use (:mod:`aisched._lazy`).
"""

from __future__ import annotations

from aisched import families
from aisched._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["cli", "figures", "generator", "metrics", "paper", "processors", "silent"],
    names={
        "CLI_ALGORITHMS": "cli",
        "CLI_HELP": "cli",
        "add_cli_arguments": "cli",
        "cli_figures": "cli",
        "cli_params": "cli",
        "describe": "cli",
        "instance_from_cli": "cli",
        "FIG3_MODELS": "figures",
        "fig3_example": "figures",
        "fig3_figure": "figures",
        "fig3_table": "figures",
        "CAPACITY_GB": "generator",
        "COMPUTE_PER_GB": "generator",
        "DATA_MB": "generator",
        "DEADLINE_RULES": "generator",
        "DEFAULT_SCENARIO": "generator",
        "PAPER_SCENARIO": "generator",
        "DeadlineRule": "generator",
        "MAX_EDGE_SLOTS": "generator",
        "MAX_JOBS": "generator",
        "MODEL_POOLS": "generator",
        "REVENUE_RATE": "generator",
        "REVENUE_RULES": "generator",
        "RevenueRule": "generator",
        "SLOT_SECONDS": "generator",
        "UNIT_COST": "generator",
        "default_instance": "generator",
        "paper_instance": "generator",
        "generate": "generator",
        "task_category": "generator",
    },
)


def _hooks() -> families.FamilyHooks:
    from aisched.scenarios.genai import figures, generator, metrics, paper

    return families.FamilyHooks(
        generate=generator.generate, metrics=metrics.metrics, scenarios=paper.add_scenarios,
        diagnostics=metrics.DIAGNOSTICS, labels=figures.LABELS,
    )


def _cli() -> families.FamilyCli:
    from aisched.scenarios.genai import cli

    return cli.GenaiCli()


#: The paper's figures as scenario names (``genai/<name>``), known before they are built.
PAPER_SCENARIOS: tuple[str, ...] = (
    "fig4-slots", "fig4-slots-legacy", "fig5-edges", "fig5-edges-legacy", "fig6-capacity",
    "fig6-capacity-legacy", "fig7-workload", "fig7-workload-legacy", "fig8-weights", "fig8-weights-legacy",
    "fig9-competitive", "fig9-competitive-scale", "regime-capacity", "regime-revenue",
)

from aisched.scenarios.genai.silent import REGIME_TARGETS, SILENT_PARAMETERS  # noqa: E402  (light data)

families.register(families.Family(
    name="genai", objective=families.Objective("profit"), proposed="comdos", hooks=_hooks, cli=_cli,
    item="job", paper_scenarios=PAPER_SCENARIOS, metric_columns={}, prices=True,
    silent_parameters=SILENT_PARAMETERS, regime_targets=REGIME_TARGETS,
    modules=('aisched.models.genai', 'aisched.online.genai', 'aisched.bounds.genai'), order=3,
))
