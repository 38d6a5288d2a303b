"""Outcome: the one result type of every online algorithm, baseline and offline solve.

An Outcome holds the decisions (``plan``, an ``xarray.Dataset`` with named
dims), the prices where the family prices (``prices``), per-job admission and
payments, timings and, for offline solves, the solver status and bound.

:meth:`Outcome.verify` re-checks every constraint of the family's program from
the plan alone, through the instance's ``verify_plan`` method, and returns the
recomputed objective; it never trusts the algorithm that made the plan.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import xarray as xr

from aisched._files import private_temp
from aisched.errors import AischedError, InfeasiblePlanError

__all__ = ["Outcome", "VerifiableInstance"]


class VerifiableInstance(Protocol):
    """What :meth:`Outcome.verify` needs of an Instance."""

    family: str

    def verify_plan(self, plan: xr.Dataset) -> float: ...


@dataclass
class Outcome:
    """Result of one algorithm (or offline solve) on one instance.

    Attributes
    ----------
    algorithm
        Registry name (``"pdftsp"``, ``"offline"``, ...).
    family
        ``"lora"``, ``"spot"``, ``"genai"`` or ``"tenants"``.
    objective
        The paper's objective (social welfare for ``lora``); higher is better.
        ``nan`` when an offline solve found no incumbent.
    plan
        Decisions with named dims (``task``, ``node``, ``slot``, ...).
    prices
        Dual or posted prices (e.g. ``compute_price`` over ``node x slot``);
        empty for algorithms that do not price.
    admitted
        (job,) bool.
    payments
        (job,) payment charged, 0 for rejected jobs; ``None`` where the
        algorithm does not price.
    status
        ``"optimal"``, ``"time_limit"``, ``"infeasible"``, ... for offline
        solves (see :class:`aisched.solvers.Status`); ``"online"`` otherwise.
    bound
        Best proven upper bound on the objective (offline only).
    runtime_s
        Wall-clock seconds of the whole run.
    decision_s
        (job,) seconds spent deciding each job (online algorithms); empty for
        offline solves.
    info
        Algorithm-specific scalars (parameters used, gap, ...).
    """

    algorithm: str
    family: str
    objective: float
    plan: xr.Dataset
    prices: xr.Dataset = field(default_factory=xr.Dataset)
    admitted: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    payments: np.ndarray | None = None
    status: str = "online"
    bound: float = math.nan
    runtime_s: float = math.nan
    decision_s: np.ndarray = field(default_factory=lambda: np.zeros(0))
    info: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ checks
    def verify(self, instance: VerifiableInstance, *, rtol: float = 1e-6) -> float:
        """Re-check every constraint from the plan alone; return the objective.

        Parameters
        ----------
        instance
            The instance the plan was made for.
        rtol
            Relative tolerance when comparing the recomputed objective with
            :attr:`objective`.

        Raises
        ------
        InfeasiblePlanError
            Naming the first violated constraint, or when the recomputed
            objective differs from the reported one.
        """
        if math.isnan(self.objective) and self.status != "online":
            raise InfeasiblePlanError(
                "plan", f"the {self.algorithm} outcome holds no plan to verify (status {self.status!r}: the solve "
                "found no incumbent within its limit)")
        if getattr(instance, "family", None) != self.family:
            raise InfeasiblePlanError(
                "family", f"outcome is for {self.family!r}, instance is {instance.family!r}"
            )
        value = float(instance.verify_plan(self.plan))
        if not math.isnan(self.objective):
            scale = max(1.0, abs(value), abs(self.objective))
            if abs(value - self.objective) > rtol * scale:
                raise InfeasiblePlanError(
                    "objective",
                    f"reported {self.objective!r} but the plan yields {value!r}",
                )
        if self.admitted.size:
            plan_admitted = self.plan["admitted"].values.astype(bool)
            if not np.array_equal(plan_admitted, self.admitted):
                raise InfeasiblePlanError("admitted", "differs from the plan's admitted flags")
        if self.payments is not None and self.admitted.size:
            rejected_paying = (~self.admitted) & (self.payments != 0)
            if rejected_paying.any():
                i = int(np.argmax(rejected_paying))
                raise InfeasiblePlanError("payments", f"rejected job {i} pays {self.payments[i]}")
        return value

    # --------------------------------------------------------------- summaries
    @property
    def num_admitted(self) -> int:
        """Number of admitted jobs."""
        return int(np.count_nonzero(self.admitted))

    @property
    def median_decision_s(self) -> float:
        """Median seconds per job decision (``nan`` when not measured)."""
        return float(np.median(self.decision_s)) if self.decision_s.size else math.nan

    def summary(self) -> dict[str, Any]:
        """Scalars of the outcome, one row of :func:`aisched.compare`."""
        return {
            "algorithm": self.algorithm,
            "objective": self.objective,
            "status": self.status,
            "bound": self.bound,
            "admitted": self.num_admitted,
            "runtime_s": self.runtime_s,
            "decision_median_s": self.median_decision_s,
        }

    # ------------------------------------------------------------------ netCDF
    def to_netcdf(self, path: str | os.PathLike[str]) -> Path:
        """Write the outcome to one netCDF4 file (groups ``plan``, ``prices``, ``jobs``).

        The file is written to a temporary name and renamed, so a crash never
        leaves a half-written result behind.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        attrs: dict[str, Any] = {
            "algorithm": self.algorithm,
            "family": self.family,
            "objective": self.objective,
            "status": self.status,
            "bound": self.bound,
            "runtime_s": self.runtime_s,
        }
        for key, value in self.info.items():
            if isinstance(value, (int, float, str, np.integer, np.floating)) and not isinstance(
                value, bool
            ):
                attrs[f"info_{key}"] = value
        jobs = xr.Dataset(
            {
                "admitted": ("job", self.admitted.astype(np.int8)),
                "decision_s": ("decision", self.decision_s),
            },
            attrs=attrs,
        )
        if self.payments is not None:
            jobs["payments"] = ("job", np.asarray(self.payments, dtype=float))
        tmp = private_temp(path, suffix=".nc.tmp")  # mode as the umask gives, not mkstemp's 0600
        try:
            # one DataTree write opens the file once (about 3x faster than one call per group)
            tree = xr.DataTree.from_dict(
                {"/": jobs, "/plan": _plain(self.plan), "/prices": _plain(self.prices)})
            tree.to_netcdf(tmp, mode="w", engine="netcdf4")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def from_netcdf(cls, path: str | os.PathLike[str]) -> Outcome:
        """Read an outcome written by :meth:`to_netcdf`."""
        try:
            with xr.open_dataset(path, engine="netcdf4") as raw:
                jobs = raw.load()
            with xr.open_dataset(path, group="plan", engine="netcdf4") as raw:
                plan = raw.load()
            with xr.open_dataset(path, group="prices", engine="netcdf4") as raw:
                prices = raw.load()
        except (OSError, KeyError) as exc:
            raise AischedError(f"{path}: not an aisched outcome file ({exc})") from None
        if "admitted" in plan:
            plan["admitted"] = plan["admitted"].astype(bool)
        a = jobs.attrs
        info = {k[5:]: v for k, v in a.items() if k.startswith("info_")}
        return cls(
            algorithm=str(a["algorithm"]),
            family=str(a["family"]),
            objective=float(a["objective"]),
            plan=plan,
            prices=prices,
            admitted=jobs["admitted"].values.astype(bool),
            payments=jobs["payments"].values if "payments" in jobs else None,
            status=str(a["status"]),
            bound=float(a["bound"]),
            runtime_s=float(a["runtime_s"]),
            decision_s=jobs["decision_s"].values,
            info=info,
        )


def _plain(ds: xr.Dataset) -> xr.Dataset:
    """Cast bool variables to int8 (netCDF has no bool); keep a marker to undo it."""
    out = ds.copy()
    for name, var in ds.data_vars.items():
        if var.dtype == bool:
            out[name] = var.astype(np.int8)
    return out
