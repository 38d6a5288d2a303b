"""Scenarios of the `genai` family (ComDOS paper, section V): generator, paper figures, Fig. 3.

- :mod:`~aisched.scenarios.genai.generator`: :func:`generate` (section V-A's workload on
  TaskBench / HuggingGPT DAGs) and :func:`default_instance`;
- :mod:`~aisched.scenarios.genai.paper`: Figs. 4-9 as named scenarios;
- :mod:`~aisched.scenarios.genai.figures`: Fig. 3's worked example (ranks, order, options);
- :mod:`~aisched.scenarios.genai.cli`: the ``aisched compare genai`` options.

Importing the package registers the family with :mod:`aisched.experiments.families`.
"""

from aisched.experiments import families
from aisched.scenarios.genai import cli, figures, generator, paper
from aisched.scenarios.genai.cli import (
    CLI_ALGORITHMS,
    CLI_HELP,
    add_cli_arguments,
    cli_figures,
    cli_params,
    describe,
    instance_from_cli,
)
from aisched.scenarios.genai.figures import FIG3_MODELS, fig3_example, fig3_figure, fig3_table
from aisched.scenarios.genai.generator import (
    CAPACITY_GB,
    COMPUTE_PER_GB,
    DATA_MB,
    DEADLINE_RULES,
    DEFAULT_SCENARIO,
    MAX_EDGE_SLOTS,
    MAX_JOBS,
    MODEL_POOLS,
    REVENUE_RATE,
    REVENUE_RULES,
    SLOT_SECONDS,
    UNIT_COST,
    DeadlineRule,
    RevenueRule,
    default_instance,
    generate,
    task_category,
)

__all__ = [
    "COMPUTE_PER_GB",
    "DATA_MB",
    "REVENUE_RATE",
    "SLOT_SECONDS",
    "UNIT_COST",
    "CLI_ALGORITHMS",
    "CLI_HELP",
    "add_cli_arguments",
    "cli_figures",
    "cli_params",
    "describe",
    "instance_from_cli",
    "CAPACITY_GB",
    "DEADLINE_RULES",
    "DEFAULT_SCENARIO",
    "FIG3_MODELS",
    "MAX_EDGE_SLOTS",
    "MAX_JOBS",
    "MODEL_POOLS",
    "REVENUE_RULES",
    "DeadlineRule",
    "RevenueRule",
    "cli",
    "default_instance",
    "fig3_example",
    "fig3_figure",
    "fig3_table",
    "figures",
    "generate",
    "generator",
    "paper",
    "task_category",
]

families.register(families.Family(
    name="genai", generate=generate, scenarios=paper.add_scenarios, cli=cli, proposed="comdos",
    diagnostics=(
        families.Diagnostic("memory_binding", "edge-slots at memory capacity", acts_above=0.0),
        families.Diagnostic("memory_utilisation", "mean memory utilisation"),
        families.Diagnostic("memory_peak", "peak memory utilisation"),
    ),
    findings=(
        "under the paper's alpha (either reading, docs/readings.md A1) the update (9) prices a cell out after "
        "about one job: ComDOS admits 88-117 jobs whatever the load (346-1,221 jobs) or the memory (96-3 GB "
        "an edge) and never fills an edge-slot, while HEFT-MA fills up to 57 % of them (seed 0, 5 edges, "
        "100 slots; measured 2026-11-26).",
    ),
))
