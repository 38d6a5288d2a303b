"""The plan of a `spot` job and its checker.

A plan is an ``xarray.Dataset`` with

- ``on_demand`` (slot,) int: ``n^o_t`` on-demand GPUs in slot ``t``;
- ``spot`` (slot,) int: ``n^s_t`` spot GPUs in slot ``t``;
- ``completion`` (scalar int): the 0-based slot in which the work is done
  (the paper's ``T`` is ``completion + 1``);
- ``admitted`` (job,) bool of length 1 (always True: the job must be done, (5a));
- ``work_done`` (slot,) float: ``mu_t H(n_t)``, informative (recomputed by the checker).

:func:`verify_plan` recomputes everything from ``on_demand`` and ``spot``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import xarray as xr

from aisched.errors import InfeasiblePlanError

if TYPE_CHECKING:  # pragma: no cover
    from aisched.models.spot.instance import SpotInstance

__all__ = ["make_plan", "progress", "verify_plan", "plan_utility"]

#: Tolerance on the work constraint (5a) (absolute, in work units).
WORK_TOL = 1e-7


def progress(inst: SpotInstance, gpus: np.ndarray, spot: np.ndarray | None = None) -> np.ndarray:
    """Work done per slot, ``mu_t H(n_t)`` with (1) and (2); ``n_{-1} = 0``.

    ``gpus``: total counts; with ``spot`` (the spot share of each total) the
    efficiency is the instance's :meth:`~SpotInstance.split_efficiency` (the
    same as (2) unless the instance's ``changeover`` is "on").
    """
    n = np.asarray(gpus, dtype=np.int64)
    prev = np.concatenate([[0], n[:-1]])
    if spot is None or inst.changeover == "off":
        return inst.efficiency(n, prev) * inst.throughput(n)
    s = np.asarray(spot, dtype=np.int64)
    o = n - s
    return inst.split_efficiency(o, s, np.concatenate([[0], o[:-1]]), np.concatenate([[0], s[:-1]])) \
        * inst.throughput(n)


def plan_utility(inst: SpotInstance, on_demand: np.ndarray, spot: np.ndarray) -> tuple[float, int, float, float]:
    """``(utility, completion_slot, value, cost)`` of an allocation; completion -1 if unfinished."""
    on_demand = np.asarray(on_demand, dtype=np.int64)
    spot = np.asarray(spot, dtype=np.int64)
    done = np.cumsum(progress(inst, on_demand + spot, spot))
    finished = np.nonzero(done >= inst.work - WORK_TOL)[0]
    completion = int(finished[0]) if finished.size else -1
    cost = float(np.sum(on_demand * inst.on_demand_price + spot * inst.spot_price))
    value = float(inst.value_at(completion + 1)) if completion >= 0 else 0.0
    return value - cost, completion, value, cost


def make_plan(inst: SpotInstance, on_demand: Any, spot: Any) -> xr.Dataset:
    """A plan Dataset from per-slot GPU counts (padded with zeros to ``num_slots``)."""
    out = []
    for name, arr in (("on_demand", on_demand), ("spot", spot)):
        a = np.asarray(arr, dtype=np.int64).ravel()
        if a.size > inst.num_slots:
            raise InfeasiblePlanError(name, f"has {a.size} slots, the market has {inst.num_slots}")
        out.append(np.concatenate([a, np.zeros(inst.num_slots - a.size, np.int64)]))
    od, sp = out
    _, completion, _, _ = plan_utility(inst, od, sp)
    return xr.Dataset(
        {
            "on_demand": ("slot", od),
            "spot": ("slot", sp),
            "work_done": ("slot", progress(inst, od + sp, sp)),
            "completion": ((), np.int64(completion)),
            "admitted": ("job", np.array([completion >= 0])),
        },
        coords={"slot": np.arange(inst.num_slots), "job": [0]},
    )


def verify_plan(inst: SpotInstance, plan: xr.Dataset) -> float:
    """Re-check a plan against problem (5) and return ``V(T) - C`` ((3), (4)).

    Checks, in order: variables present with the right shape; (5e) integer,
    non-negative counts; (5b) ``n^s_t <= n^avail_t``; (5c)/(5d) total in
    ``{0} u [N_min, N_max]``; (5a) the work is done within the horizon, at the
    slot the plan declares; no GPU is bought after completion (the cost (3)
    runs to ``T``).

    Raises
    ------
    InfeasiblePlanError
        Naming the first violated constraint and slot.
    """
    for name in ("on_demand", "spot", "completion"):
        if name not in plan:
            raise InfeasiblePlanError("plan", f"variable {name!r} is missing")
    n_slots = inst.num_slots
    arrays = {}
    for name in ("on_demand", "spot"):
        raw = np.asarray(plan[name].values, dtype=float)
        if raw.shape != (n_slots,):
            raise InfeasiblePlanError(name, f"has shape {raw.shape}, expected ({n_slots},)")
        bad = ~np.isfinite(raw) | (raw < 0) | (raw != np.round(raw))
        if bad.any():
            t = int(np.argmax(bad))
            raise InfeasiblePlanError("(5e) integrality", f"{name}[{t}] = {raw[t]} is not a count >= 0")
        arrays[name] = raw.astype(np.int64)
    od, sp = arrays["on_demand"], arrays["spot"]
    over = sp > inst.spot_available
    if over.any():
        t = int(np.argmax(over))
        raise InfeasiblePlanError(
            "(5b) spot_available", f"slot {t}: {sp[t]} spot GPUs > {inst.spot_available[t]} available")
    total = od + sp
    high = total > inst.max_gpus
    if high.any():
        t = int(np.argmax(high))
        raise InfeasiblePlanError("(5c) max_gpus", f"slot {t}: {total[t]} GPUs > N_max = {inst.max_gpus}")
    low = (total > 0) & (total < inst.min_gpus)
    if low.any():
        t = int(np.argmax(low))
        raise InfeasiblePlanError("(5d) min_gpus", f"slot {t}: {total[t]} GPUs < N_min = {inst.min_gpus}")
    utility, completion, _, _ = plan_utility(inst, od, sp)
    if completion < 0:
        done = float(np.sum(progress(inst, total, sp)))
        raise InfeasiblePlanError("(5a) work", f"{done:.6g} of {inst.work:.6g} work units done in the horizon")
    declared = int(np.asarray(plan["completion"].values))
    if declared != completion:
        raise InfeasiblePlanError("completion", f"plan says slot {declared}, the work is done in slot {completion}")
    after = total[completion + 1:] > 0
    if after.any():
        t = completion + 1 + int(np.argmax(after))
        raise InfeasiblePlanError("(3) completion", f"slot {t}: GPUs bought after completion in slot {completion}")
    return utility
