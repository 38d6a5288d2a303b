"""Scenarios of the `lora` family (pdFTSP paper, section 5): generator, traces, paper figures, report hooks.

- :mod:`~aisched.scenarios.lora.generator`: :func:`generate` (section 5.1's workload) and
  :func:`default_instance` (the embedded scenario of ``make run``);
- :mod:`~aisched.scenarios.lora.traces`: per-slot arrival counts of the Philly, Alibaba
  and Helios traces;
- :mod:`~aisched.scenarios.lora.paper`: Figs. 4-13 as named scenarios;
- :mod:`~aisched.scenarios.lora.metrics` and :mod:`~aisched.scenarios.lora.figures`:
  a sweep cell's family metrics and the report's extra figures (Figs. 10-11);
- :mod:`~aisched.scenarios.lora.cli`: the ``aisched compare lora`` options.

Importing the package registers the family with :mod:`aisched.experiments.families`.
"""

from aisched.experiments import families
from aisched.scenarios.lora import cli, figures, generator, metrics, paper, traces
from aisched.scenarios.lora.cli import (
    CLI_ALGORITHMS,
    CLI_HELP,
    add_cli_arguments,
    cli_figures,
    describe,
    instance_from_cli,
)
from aisched.scenarios.lora.figures import FIGURES
from aisched.scenarios.lora.generator import (
    A40_A100_RATIO,
    BASE_MODELS,
    BATCH_SHARE,
    DATA_DIR,
    DEADLINE_METHODS,
    DEFAULT_SCENARIO,
    ENERGY_COST_PER_SAMPLE,
    EPOCHS,
    GPU_TYPES,
    MAX_NODE_SLOTS,
    MAX_TASKS,
    MAX_VENDORS,
    PEAK_FACTOR,
    PEAK_HOURS,
    PHILLY_TRACE,
    SAMPLES,
    SLOT_SECONDS,
    SLOTS_PER_HOUR,
    VALUE_PER_SAMPLE,
    VENDOR_DELAY_MAX,
    VENDOR_PRICE_EXPONENT,
    VENDOR_UNIT_PRICE,
    BaseModelProfile,
    arrival_counts_from_trace,
    declared_value_bounds,
    default_instance,
    generate,
)
from aisched.scenarios.lora.metrics import cell_metrics

__all__ = [
    "BATCH_SHARE",
    "ENERGY_COST_PER_SAMPLE",
    "EPOCHS",
    "PEAK_FACTOR",
    "PEAK_HOURS",
    "SAMPLES",
    "SLOTS_PER_HOUR",
    "VALUE_PER_SAMPLE",
    "VENDOR_DELAY_MAX",
    "VENDOR_PRICE_EXPONENT",
    "VENDOR_UNIT_PRICE",
    "CLI_ALGORITHMS",
    "CLI_HELP",
    "add_cli_arguments",
    "cli_figures",
    "describe",
    "instance_from_cli",
    "A40_A100_RATIO",
    "BASE_MODELS",
    "DATA_DIR",
    "DEADLINE_METHODS",
    "DEFAULT_SCENARIO",
    "FIGURES",
    "GPU_TYPES",
    "MAX_NODE_SLOTS",
    "MAX_TASKS",
    "MAX_VENDORS",
    "PHILLY_TRACE",
    "SLOT_SECONDS",
    "BaseModelProfile",
    "arrival_counts_from_trace",
    "cell_metrics",
    "cli",
    "declared_value_bounds",
    "default_instance",
    "figures",
    "generate",
    "generator",
    "metrics",
    "paper",
    "traces",
]

families.register(families.Family(
    name="lora", generate=generate, scenarios=paper.add_scenarios, figures=FIGURES,
    cell_metrics=cell_metrics, cli=cli, proposed="pdftsp",
    diagnostics=(
        families.Diagnostic("compute_util_binding", "node-slots at compute capacity", acts_above=0.0),
        families.Diagnostic("memory_util_binding", "node-slots at memory capacity", acts_above=0.0),
        families.Diagnostic("compute_util_peak", "peak compute utilisation"),
        families.Diagnostic("memory_util_peak", "peak memory utilisation"),
        families.Diagnostic("compute_util_mean", "mean compute utilisation"),
    ),
))
