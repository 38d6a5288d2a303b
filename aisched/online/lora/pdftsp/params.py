"""pdFTSP's parameters fixed before the auction: Lemma 2's ``alpha`` and ``beta``, the DP's work unit.

Split from :mod:`aisched.online.lora.pdftsp` (which re-exports every name here).
See that module's docstring for the readings (``parameters``, ``beta_unit``).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from aisched.core.parameters import one_of
from aisched.models.lora import LoraInstance

__all__ = ["PRICE_ATTRS", "UNDECLARED_BOUNDS", "MAX_WORK_UNITS", "BetaUnit", "Parameters", "default_alpha_beta",
           "slot_consistent_alpha_beta", "lemma2_alpha_beta", "work_unit_of"]

BetaUnit = Literal["gb_slot", "gb"]
Parameters = Literal["declared", "from_bids"]

#: Largest number of work units the dynamic program's table may have.
MAX_WORK_UNITS = 8192


def default_alpha_beta(instance: LoraInstance) -> tuple[float, float]:
    """Lemma 2's ``alpha = max_i b_i / M_i`` and ``beta = max_i b_i / r_i``."""
    if instance.num_tasks == 0:
        return 1.0, 1.0
    alpha = float(np.max(instance.bid / instance.work))
    beta = float(np.max(instance.bid / instance.memory_need))
    return alpha, beta


def slot_consistent_alpha_beta(instance: LoraInstance) -> tuple[float, float]:
    """Lemma 2's ``alpha`` with ``beta`` per GB-slot, an option beside the paper.

    ``phi_kt`` is a price per GB *and slot*: (10) charges
    ``max phi x sum_t r_i``, i.e. the price times ``r_i`` times the number of
    slots used. Lemma 2's ``beta = max_i b_i / r_i`` is a price per GB, so a
    single full cell already prices every multi-slot task out many times over.
    Here ``beta = max_i b_i / (r_i * n_i)`` with ``n_i = ceil(M_i / max_k s_ik)``
    the fewest slots task ``i`` can run in: a task whose every cell is at the
    price ``beta`` pays at least its bid, which is what Lemma 2's proof needs
    of a full cell. Measured (closing note of the `lora` issue): on
    ``generate(seed=0, nodes=50, slots=144, arrival_rate=20, vendors=5)`` it
    lowers beta from 39,445 to 848 and raises pdFTSP's welfare from 1.28e7 to
    3.46e7 (EFT: 1.97e7), admitting 853 tasks instead of 344.
    Pass the values explicitly: ``run(inst, alpha=a, beta=b)``.
    """
    alpha, _ = default_alpha_beta(instance)
    if instance.num_tasks == 0:
        return alpha, 1.0
    slots = np.maximum(instance.fewest_slots(), 1)  # tasks that cannot run count as 1 slot
    beta = float(np.max(instance.bid / (instance.memory_need * slots)))
    return alpha, beta


def lemma2_alpha_beta(
    instance: LoraInstance, *, beta_unit: BetaUnit = "gb_slot", parameters: Parameters = "declared"
) -> tuple[float, float, str]:
    """Lemma 2's ``alpha`` and ``beta`` under the chosen readings, and where they came from.

    ``alpha`` bounds the value per sample (``b_i / M_i``); ``beta`` the value per
    GB-slot (``b_i / (r_i n_i)``, ``beta_unit="gb_slot"``) or per GB (``b_i / r_i``,
    ``"gb"``, as printed). ``parameters="declared"`` reads the instance's declared
    bounds (known before bids arrive); ``"from_bids"`` takes the maxima over the bids.

    Returns
    -------
    (alpha, beta, source)
        ``source`` is ``"declared"``, ``"from_bids"``, or
        ``"from_bids (not declared)"`` when the instance lacks a needed bound.
    """
    one_of("beta_unit", beta_unit, BetaUnit)
    one_of("parameters", parameters, Parameters)
    beta_name = "max_value_per_gb_slot" if beta_unit == "gb_slot" else "max_value_per_gb"
    declared = (instance.max_value_per_sample, getattr(instance, beta_name))
    if parameters == "declared" and None not in declared:
        return float(declared[0]), float(declared[1]), "declared"
    source = "from_bids" if parameters == "from_bids" else "from_bids (not declared)"
    if instance.num_tasks == 0:
        return 1.0, 1.0, source
    ratios = instance.value_per_unit()
    return float(np.max(ratios["max_value_per_sample"])), float(np.max(ratios[beta_name])), source


def work_unit_of(instance: LoraInstance) -> tuple[float, bool]:
    """The work unit of the dynamic program and whether it is exact.

    The DP (13) indexes work in whole units. When every ``work`` and positive
    ``throughput`` is an integer number of samples, the unit is their greatest
    common divisor and the DP is exact. Otherwise (or when the largest task
    would need more than ``MAX_WORK_UNITS`` units) the unit is
    ``max(work) / MAX_WORK_UNITS`` and the DP is conservative: throughput is
    rounded down and work up to whole units, so every schedule it returns
    still meets (4e), but it may miss schedules that need the slack.

    Returns
    -------
    (unit, exact)
    """
    values = np.concatenate([instance.work, instance.throughput[instance.throughput > 0]])
    if values.size and np.all(values == np.round(values)) and np.all(values < 2**62):
        unit = int(np.gcd.reduce(values.astype(np.int64)))
        if unit > 0 and np.max(instance.work) / unit <= MAX_WORK_UNITS:
            return float(unit), True
    top = float(np.max(instance.work)) if instance.num_tasks else 1.0
    return top / MAX_WORK_UNITS, False


#: The units of pdFTSP's (node, slot) price arrays (their attrs).
PRICE_ATTRS = {"compute_price": {"units": "money units per sample processed in the cell", "symbol": "lambda_kt"},
               "memory_price": {"units": "money units per GB held in the cell (per slot)", "symbol": "phi_kt"}}
#: The warning when an instance declares no value bounds (Lemma 2's alpha, beta then come from the bids).
UNDECLARED_BOUNDS = ("pdftsp: the instance declares no value bounds (max_value_per_sample, max_value_per_gb_slot), "
                     "so Lemma 2's alpha and beta are taken from the bids (parameters='from_bids': not truthful); "
                     "declare them on the instance, or pass alpha and beta")
