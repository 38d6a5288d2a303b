"""Verdicts: what a sweep's table says about a claim (paired intervals, headroom, sequential looks, checks, regime maps).

:mod:`~aisched.experiments.verdicts.stats` (the statistics of one comparison, once the module
``aisched.experiments.verdicts``, whose names this package still exports),
:mod:`~aisched.experiments.verdicts.sequential`, :mod:`~aisched.experiments.verdicts.checks`,
:mod:`~aisched.experiments.verdicts.diagnostics` and :mod:`~aisched.experiments.verdicts.regime`.
Computing only: the Markdown and figures of these verdicts are :mod:`aisched.experiments.pages`'.
"""

from aisched.experiments.verdicts.stats import (
    VERDICTS,
    Headroom,
    Interval,
    counts_text,
    differences,
    direction,
    headroom,
    new_counts,
    paired,
    paired_interval,
    t_quantile,
    t_sf,
)

__all__ = ["VERDICTS", "counts_text", "new_counts", "Headroom", "Interval", "differences", "direction", "headroom",
           "paired",
           "paired_interval", "t_quantile", "t_sf"]
