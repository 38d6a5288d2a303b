"""`spot` sweep metrics of a cell: whether a policy used the spot market (the mechanism diagnostics).

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

and the market statistics of the cell's instance (what
decides the room a policy has over on-demand; the same for every algorithm of
a (point, seed)), over the slots before the soft deadline ``t < d``:

- ``spot_price_ratio``: mean spot price / on-demand price ``p^s_t / p_o``;
- ``spot_above_need``: mean ``n^avail_t - N_need``, where ``N_need`` is the
  fewest GPUs in ``N_min..N_max`` that finish the work by the deadline
  without reconfiguration (``d H(N) >= L``; ``N_max`` when none does; 8 for
  the paper job): spot GPUs beyond what the job needs (negative: short);
- ``spot_covers_need``: share of those slots with ``n^avail_t >= N_need``;
- ``drops_per_day``: slots whose availability falls below the previous slot's
  (``n^avail_t < n^avail_{t-1}``, the market's preemption events), per day of
  48 slots, over the instance's whole horizon.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched import families

__all__ = ["DIAGNOSTICS", "metrics", "cell_metrics", "gpus_needed", "market_statistics"]


def metrics(instance: Any, outcome: Any) -> dict[str, float]:
    """The family's columns of a result row (``compare`` and every sweep cell): :func:`cell_metrics`."""
    return cell_metrics(instance, outcome)

#: Slots per day (30-minute slots; :data:`aisched.scenarios.spot.generator.SLOTS_PER_DAY`, kept light here).
SLOTS_PER_DAY = 48


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
        **market_statistics(instance),
    }


def gpus_needed(instance: Any) -> int:
    """``N_need``: the fewest GPUs in ``N_min..N_max`` with ``d H(N) >= L`` (``N_max`` when none)."""
    gpus = np.arange(int(instance.min_gpus), int(instance.max_gpus) + 1)
    enough = instance.deadline * np.asarray(instance.throughput(gpus), float) >= float(instance.work) - 1e-9
    return int(gpus[np.argmax(enough)]) if enough.any() else int(instance.max_gpus)


def market_statistics(instance: Any) -> dict[str, float]:
    """``spot_price_ratio``, ``spot_above_need``, ``spot_covers_need``, ``drops_per_day`` (module docstring)."""
    available = np.asarray(instance.spot_available, dtype=np.int64)
    before = slice(0, max(1, min(int(instance.deadline), available.size)))
    price = np.asarray(instance.spot_price, dtype=float)[before] / float(instance.on_demand_price)
    need = gpus_needed(instance)
    drops = np.count_nonzero(np.diff(available) < 0) if available.size > 1 else 0
    return {
        "spot_price_ratio": float(price.mean()),
        "spot_above_need": float((available[before] - need).mean()),
        "spot_covers_need": float((available[before] >= need).mean()),
        "drops_per_day": float(drops * SLOTS_PER_DAY / max(available.size - 1, 1)),
    }


#: The mechanism diagnostics: the cell columns that say whether ahap's mechanism acted.
DIAGNOSTICS: tuple[families.Diagnostic, ...] = (
    families.Diagnostic("spot_share", "GPU-slots on spot", acts_above=0.0),
    families.Diagnostic("switches", "on-demand/spot switches", "count"),
    families.Diagnostic("preemptions", "preemptions met", "count"),
    # the market of the cell (the same for every algorithm): shown, not deciding
    families.Diagnostic("spot_price_ratio", "spot price / on-demand", ""),
    families.Diagnostic("spot_above_need", "spot GPUs above the job's need", ""),
    families.Diagnostic("spot_covers_need", "slots spot covers the need"),
    families.Diagnostic("drops_per_day", "availability drops per day", ""),
)

