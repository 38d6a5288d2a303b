"""The fifth family's online algorithm: admit an item when it fits and its value per size is high enough."""

from __future__ import annotations

import time

import numpy as np

from aisched import registry
from aisched.outcome import Outcome
from tests.fifth_family.models import FAMILY, KnapsackInstance, plan_of


@registry.register(FAMILY, "threshold", ready=True)
def threshold(instance: KnapsackInstance, *, density: float = 1.0) -> Outcome:
    """Admit item i on arrival when it fits and ``value_i / size_i >= density``."""
    tic = time.perf_counter()
    chosen = np.zeros(instance.num_jobs, dtype=bool)
    used = 0.0
    decision = np.zeros(instance.num_jobs)
    for i in range(instance.num_jobs):
        start = time.perf_counter()
        if used + instance.size[i] <= instance.capacity and instance.value[i] >= density * instance.size[i]:
            chosen[i] = True
            used += float(instance.size[i])
        decision[i] = time.perf_counter() - start
    return Outcome(algorithm="threshold", family=FAMILY, objective=float(instance.value[chosen].sum()),
                   plan=plan_of(chosen), admitted=chosen, runtime_s=time.perf_counter() - tic, decision_s=decision)
