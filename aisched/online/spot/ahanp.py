"""AHANP: Adaptive Hybrid Allocation for Non-Predictive scenarios (Algorithm 3, appendix A).

Seven cases on the progress ratio ``z^``, the availability change ``n^`` and
the price ratio ``p^`` (see :func:`~aisched.online.spot.window.reference.ahanp_reference`
for the exact reading of each case and of the limits). Uses only the current
and past market, never a forecast.
"""

from __future__ import annotations

import time

import numpy as np

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance
from aisched.online.spot.ahap import finish_plan, outcome
from aisched.online.spot.window import kernel as wk
from aisched.online.spot.window import reference as wr
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["run"]


@register("spot", "ahanp")
def run(inst: SpotInstance, *, threshold: float = 0.6, engine: str = "kernel",
        first_slot: wr.FirstSlot = "behind") -> Outcome:
    """Run AHANP (Algorithm 3) with price threshold ``sigma = threshold``.

    ``first_slot``: how the first slot's ``z^ = Z_0 / Z^exp_0 = 0 / 0`` (line 3)
    is read: ``"behind"`` (default; nothing is done yet, cases 6-7) or
    ``"on_schedule"`` (``z^ = 1``; case 3 keeps ``n_0 = 0``, the job idles).
    """
    if not (np.isfinite(threshold) and threshold > 0):
        raise InvalidScenarioError("threshold", f"= {threshold} must be > 0")
    one_of("engine", engine, ("kernel", "reference"))
    one_of("first_slot", first_slot, wr.FirstSlot)
    started, compiled = time.perf_counter(), wk.compile_seconds()
    if engine == "kernel":
        zeros = np.zeros((inst.deadline, 6))
        job = wk.stack([wk.job_arrays(inst, zeros, zeros, 1.0)])
        out = wk.ahanp_batch(job, np.array([threshold]), first_slot=first_slot,
                             changeover=inst.changeover == "on")
        od = out["on_demand"][0, 0].round().astype(np.int64)
        sp = out["spot"][0, 0].round().astype(np.int64)
    else:
        od, sp = wr.ahanp_reference(inst, threshold, first_slot)
    od, sp = finish_plan(inst, od, sp)
    return outcome("ahanp", inst, od, sp, started, compiled=compiled,
                   info={"threshold": float(threshold), "engine": engine, "first_slot": first_slot})
