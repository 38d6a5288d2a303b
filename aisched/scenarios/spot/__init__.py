"""Scenarios of the `spot` family (spot-market paper, section VI-A): generator, traces, selection, figures.

- :mod:`~aisched.scenarios.spot.generator`: one job (:func:`generate`) and the paper's
  workload (:func:`workload`), markets and predictors, with every setting and choice;
- :mod:`~aisched.scenarios.spot.traces`: Vast.ai, AWS and GCP trace loaders;
- :mod:`~aisched.scenarios.spot.selection`: online policy selection cells, pools and
  figures (Figs. 9-10);
- :mod:`~aisched.scenarios.spot.paper`: Figs. 5-10 as named scenarios;
- :mod:`~aisched.scenarios.spot.figures`: Figs. 1-3 (throughput, traces, ARIMA forecasts);
- :mod:`~aisched.scenarios.spot.cli`: ``aisched compare spot`` and ``aisched select spot``.

Importing the package registers the family with :mod:`aisched.experiments.families`.
"""

from aisched.experiments import families
from aisched.scenarios.spot import cli, figures, generator, metrics, paper, selection, traces  # noqa: F401
from aisched.scenarios.spot.cli import (
    CLI_ALGORITHMS,
    CLI_HELP,
    add_cli_arguments,
    add_select_arguments,
    describe,
    instance_from_cli,
    run_select,
)
from aisched.scenarios.spot.generator import (
    MARKETS,
    MAX_AVAILABLE,
    MAX_SLOTS,
    NOISE_SETTINGS,
    SLOTS_PER_DAY,
    bandwidth_efficiency,
    generate,
    predictor,
    synthetic_market,
    trace_market,
    workload,
)
from aisched.scenarios.spot.metrics import cell_metrics
from aisched.scenarios.spot.selection import (
    PHASES,
    POOLS,
    policy_weight_heatmap,
    pool_members,
    selection_cell,
)

#: Extra report figures: Figs. 1-3 (:mod:`aisched.scenarios.spot.figures`), Figs. 9-10 (selection).
FIGURES = {**figures.FIGURES, **selection.FIGURES}

__all__ = [
    "CLI_ALGORITHMS",
    "CLI_HELP",
    "add_cli_arguments",
    "add_select_arguments",
    "describe",
    "instance_from_cli",
    "run_select",
    "FIGURES",
    "MARKETS",
    "MAX_AVAILABLE",
    "MAX_SLOTS",
    "NOISE_SETTINGS",
    "PHASES",
    "POOLS",
    "SLOTS_PER_DAY",
    "bandwidth_efficiency",
    "cli",
    "cell_metrics",
    "metrics",
    "figures",
    "generate",
    "generator",
    "paper",
    "policy_weight_heatmap",
    "pool_members",
    "predictor",
    "selection",
    "selection_cell",
    "synthetic_market",
    "trace_market",
    "traces",
    "workload",
]

families.register(families.Family(
    name="spot", generate=generate, scenarios=paper.add_scenarios, figures=FIGURES,
    selection_cell=selection_cell, pools=POOLS, cli=cli, cell_metrics=cell_metrics, proposed="ahap",
    diagnostics=(
        families.Diagnostic("spot_share", "GPU-slots on spot", acts_above=0.0),
        families.Diagnostic("switches", "on-demand/spot switches", "count"),
        families.Diagnostic("preemptions", "preemptions met", "count"),
    ),
    findings=(
        "UP as the reference simulator runs it (docs/readings.md S4) is OD-Only on the paper job: with N = "
        "OD-Only's GPU count the job has less than one slot of slack, so the 2d margin puts it on on-demand "
        "from slot 0 (utility 39.00 = OD-Only's at deadline 10, seeds 0-4); the claims against UP in Figs. "
        "5-8 are claims against OD-Only (variant up-aisched-v1: the earlier rule).",
    ),
))
