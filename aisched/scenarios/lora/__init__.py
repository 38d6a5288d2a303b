"""Scenarios of the `lora` family (pdFTSP paper, section 5): generator, traces, paper figures, report hooks.

- :mod:`~aisched.scenarios.lora.generator`: :func:`generate` (section 5.1's workload),
  :func:`default_instance` (the embedded scenario of ``make run``: ``generate()``'s and ``aisched
  compare lora``'s default) and :func:`paper_instance` (section 5.1's sizes);
- :mod:`~aisched.scenarios.lora.traces`: per-slot arrival counts of the Philly, Alibaba
  and Helios traces;
- :mod:`~aisched.scenarios.lora.paper`: Figs. 4-13 as named scenarios;
- :mod:`~aisched.scenarios.lora.metrics` and :mod:`~aisched.scenarios.lora.figures`:
  a sweep cell's family metrics and the report's extra figures (Figs. 10-11);
- :mod:`~aisched.scenarios.lora.cli`: the ``aisched compare lora`` options;
- :mod:`~aisched.scenarios.lora.silent`: what section 5 leaves unstated (silent parameters) and
  the relations among its baselines it reports (regime targets), for ``aisched calibrate lora``.

Importing the package registers the family with :mod:`aisched.families` and imports
nothing heavy: the plug-in and the names below load on first use (:mod:`aisched._lazy`).
"""

from __future__ import annotations

from aisched import families
from aisched._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    submodules=["cli", "figures", "generator", "metrics", "paper", "silent", "traces"],
    names={
        "CLI_ALGORITHMS": "cli",
        "CLI_HELP": "cli",
        "add_cli_arguments": "cli",
        "cli_figures": "cli",
        "describe": "cli",
        "instance_from_cli": "cli",
        "FIGURES": "figures",
        "A40_A100_RATIO": "generator",
        "BASE_MODELS": "generator",
        "BATCH_SHARE": "generator",
        "BaseModelProfile": "generator",
        "DATA_DIR": "generator",
        "DEADLINE_METHODS": "generator",
        "DEFAULT_SCENARIO": "generator",
        "DEFAULT_TRACE_RATE": "generator",
        "ENERGY_COST_PER_SAMPLE": "generator",
        "EPOCHS": "generator",
        "GPU_TYPES": "generator",
        "MAX_NODE_SLOTS": "generator",
        "MAX_TASKS": "generator",
        "MAX_VENDORS": "generator",
        "PEAK_FACTOR": "generator",
        "PEAK_HOURS": "generator",
        "PAPER_SCENARIO": "generator",
        "PHILLY_TRACE": "generator",
        "SAMPLES": "generator",
        "SLOTS_PER_HOUR": "generator",
        "SLOT_SECONDS": "generator",
        "VALUE_PER_SAMPLE": "generator",
        "VENDOR_DELAY_MAX": "generator",
        "VENDOR_PRICE_EXPONENT": "generator",
        "VENDOR_UNIT_PRICE": "generator",
        "arrival_counts_from_trace": "generator",
        "declared_value_bounds": "generator",
        "default_instance": "generator",
        "generate": "generator",
        "paper_instance": "generator",
        "cell_metrics": "metrics",
    },
)


def _hooks() -> families.FamilyHooks:
    from aisched.scenarios.lora import figures, generator, metrics, paper

    return families.FamilyHooks(
        generate=generator.generate, metrics=metrics.metrics, scenarios=paper.add_scenarios,
        figures=figures.FIGURES, diagnostics=metrics.DIAGNOSTICS, labels=figures.LABELS,
    )


def _cli() -> families.FamilyCli:
    from aisched.scenarios.lora import cli

    return cli.LoraCli()


#: The paper's figures as scenario names (``lora/<name>``), known before they are built.
PAPER_SCENARIOS: tuple[str, ...] = (
    "fig4-scale", "fig5-vendors", "fig5-vendors-redraw", "fig6-capacity", "fig7-traces", "fig8-load", "fig9-deadlines",
    "fig10-truthfulness", "fig11-rationality", "fig12-competitive", "fig12-competitive-bound", "fig13-runtime",
    "regime-load",
)

from aisched.scenarios.lora.silent import REGIME_TARGETS, SILENT_PARAMETERS  # noqa: E402  (light data)

families.register(families.Family(
    name="lora", objective=families.Objective("social welfare"), proposed="pdftsp", hooks=_hooks, cli=_cli,
    item="task", paper_scenarios=PAPER_SCENARIOS, metric_columns={"misreport_gain": False, "payment_to_bid": False}, prices=True,
    silent_parameters=SILENT_PARAMETERS, regime_targets=REGIME_TARGETS,
    modules=('aisched.models.lora', 'aisched.online.lora', 'aisched.bounds.lora'), order=1,
))
