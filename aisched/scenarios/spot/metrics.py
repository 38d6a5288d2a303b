"""`spot` sweep metrics of a cell: whether a policy used the spot market (issue 25's diagnostics).

The paper's mechanism (AHAP's committed horizon control with predictions,
Section 4) acts when spot GPUs are used and the mix of spot and on-demand
changes as the market does. :func:`cell_metrics` records, from the plan's
``on_demand`` ``n^o_t`` and ``spot`` ``n^s_t`` and the market's
``spot_available`` ``n^avail_t``:

- ``spot_share``: spot GPU-slots / all GPU-slots used (0 when nothing ran);
- ``switches``: slots whose kinds in use (spot, on-demand, both) differ from the
  previous slot's that used any GPU (on-demand/spot switches);
- ``preemptions``: slots where the spot GPUs held in the slot before exceed what
  the market offers now (``n^s_{t-1} > n^avail_t``: the market took GPUs away).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched.experiments import families

__all__ = ["DIAGNOSTICS", "FINDINGS", "cell_metrics"]


def cell_metrics(instance: Any, outcome: Any) -> dict[str, float]:
    """``spot_share``, ``switches`` and ``preemptions`` of one cell's plan (see the module docstring)."""
    plan = outcome.plan
    on_demand = np.asarray(plan["on_demand"].values, dtype=np.int64)
    spot = np.asarray(plan["spot"].values, dtype=np.int64)
    total = int(on_demand.sum() + spot.sum())
    kinds = (spot > 0).astype(int) + 2 * (on_demand > 0).astype(int)  # 1 spot, 2 on-demand, 3 both
    busy = kinds[kinds > 0]
    available = np.asarray(instance.spot_available, dtype=np.int64)[: spot.size]
    return {
        "spot_share": float(spot.sum() / total) if total else 0.0,
        "switches": float(np.count_nonzero(np.diff(busy))) if busy.size > 1 else 0.0,
        "preemptions": float(np.count_nonzero(spot[:-1] > available[1:])) if spot.size > 1 else 0.0,
    }


#: Issue 25's mechanism diagnostics: the cell columns that say whether ahap's mechanism acted.
DIAGNOSTICS: tuple[families.Diagnostic, ...] = (
    families.Diagnostic("spot_share", "GPU-slots on spot", acts_above=0.0),
    families.Diagnostic("switches", "on-demand/spot switches", "count"),
    families.Diagnostic("preemptions", "preemptions met", "count"),
)

#: Measured findings about the paper, printed in the reproduction page's summary (docs/readings.md).
FINDINGS: tuple[str, ...] = (
    "UP as the reference simulator runs it (docs/readings.md S4) is OD-Only on the paper job: with N = "
    "OD-Only's GPU count the job has less than one slot of slack, so the 2d margin puts it on on-demand "
    "from slot 0 (utility 39.00 = OD-Only's at deadline 10, seeds 0-4); the claims against UP in Figs. "
    "5-8 are claims against OD-Only (variant up-aisched-v1: the earlier rule).",
)
