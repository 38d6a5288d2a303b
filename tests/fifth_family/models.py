"""The fifth family's data and integer program: items with a value and a size, one capacity.

Offline program: ``max sum_i value_i x_i  s.t.  sum_i size_i x_i <= capacity, x_i in {0, 1}``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from aisched import registry
from aisched.errors import InfeasiblePlanError, InvalidInstanceError
from aisched.outcome import Outcome
from aisched.solvers import Status, solve

FAMILY = "knapsack"


@dataclass(frozen=True, eq=False)
class KnapsackInstance:
    """Items in arrival order: ``value`` (money units) and ``size``; one ``capacity``."""

    value: np.ndarray
    size: np.ndarray
    capacity: float
    family: str = FAMILY

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", np.asarray(self.value, dtype=float))
        object.__setattr__(self, "size", np.asarray(self.size, dtype=float))
        if self.value.shape != self.size.shape or self.value.ndim != 1:
            raise InvalidInstanceError("size", f"shape {self.size.shape} differs from value's {self.value.shape}")
        for name in ("value", "size"):
            bad = np.flatnonzero(~(getattr(self, name) > 0))
            if bad.size:
                raise InvalidInstanceError(name, f"item {bad[0]}: {getattr(self, name)[bad[0]]!r} must be > 0")
        if not (math.isfinite(self.capacity) and self.capacity > 0):
            raise InvalidInstanceError("capacity", f"{self.capacity!r} must be > 0")

    @property
    def num_jobs(self) -> int:
        return int(self.value.size)

    def to_dataset(self) -> xr.Dataset:
        return xr.Dataset({"value": ("job", self.value), "size": ("job", self.size)},
                          attrs={"capacity": float(self.capacity), "family": FAMILY})

    def verify_plan(self, plan: xr.Dataset) -> float:
        """The plan's value; raises where it packs more than the capacity."""
        chosen = np.asarray(plan["admitted"].values, bool)
        used = float(self.size[chosen].sum())
        if used > self.capacity + 1e-9:
            raise InfeasiblePlanError("capacity", f"the plan packs {used} > {self.capacity}")
        return float(self.value[chosen].sum())


def plan_of(chosen: np.ndarray) -> xr.Dataset:
    return xr.Dataset({"admitted": ("job", np.asarray(chosen, bool))})


def build(instance: KnapsackInstance) -> pyo.ConcreteModel:
    """The integer program."""
    m = pyo.ConcreteModel()
    m.item = pyo.RangeSet(0, instance.num_jobs - 1)
    m.take = pyo.Var(m.item, domain=pyo.Binary)
    m.capacity = pyo.Constraint(expr=sum(instance.size[i] * m.take[i] for i in m.item) <= instance.capacity)
    m.value = pyo.Objective(expr=sum(instance.value[i] * m.take[i] for i in m.item), sense=pyo.maximize)
    return m


@registry.register_offline(FAMILY)
def solve_offline(instance: KnapsackInstance, *, solver: str = "highs", time_limit: float | None = None,
                  mip_gap: float | None = 0.0, threads: int | None = None) -> Outcome:
    """The optimum (or the incumbent and bound at a limit)."""
    tic = time.perf_counter()
    model = build(instance)
    result = solve(model, solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads)
    chosen = np.array([pyo.value(model.take[i]) > 0.5 for i in model.item], dtype=bool)
    plan = plan_of(chosen)
    objective = instance.verify_plan(plan) if result.has_solution else math.nan
    bound = result.bound if not math.isnan(result.bound) else (
        objective if result.status is Status.OPTIMAL else float(instance.value.sum()))
    return Outcome(algorithm="offline", family=FAMILY, objective=objective, plan=plan, admitted=chosen,
                   status=result.status.value, bound=bound, runtime_s=time.perf_counter() - tic)
