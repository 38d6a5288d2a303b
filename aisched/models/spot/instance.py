"""The data of a `spot` problem: :class:`SpotInstance` (spot-market paper, section III).

One fine-tuning job and the market it runs in. Conventions: slots are 0-based,
``0..num_slots-1``; the paper's slot ``t`` (1-based) is slot ``t-1`` here, and a
job whose work is done at the end of 0-based slot ``s`` completes at the
paper's time ``T = s + 1``. The soft deadline ``d`` is met when ``T <= d``
(the job finishes in slots ``0..d-1``). Work is in the paper's unit (one A100
for one slot does ``throughput_slope + throughput_intercept`` units), money in
units of the on-demand price (the paper sets ``p_o = 1``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np
import xarray as xr

from aisched.errors import InvalidInstanceError
from aisched.models._instance import Field, OneOf, Rule, Scalar, Size, Sizes, ValidatedInstance
from aisched.models.spot.plan import verify_plan

__all__ = ["SpotInstance"]

_SCALARS = (
    "work", "deadline", "hard_deadline_factor", "min_gpus", "max_gpus", "value",
    "throughput_slope", "throughput_intercept", "scale_up_efficiency",
    "scale_down_efficiency", "on_demand_price",
)


def _scalar(name: str, value: Any, kind: type) -> Any:
    try:
        raw = np.asarray(value)
    except Exception:  # pragma: no cover
        raise InvalidInstanceError(name, f"cannot be read as a number ({value!r})") from None
    if raw.shape != ():
        raise InvalidInstanceError(name, f"must be a scalar, got shape {raw.shape}")
    if raw.dtype == bool:  # True is not 1 here (a silent reinterpretation)
        raise InvalidInstanceError(name, f"= {value!r} is a boolean, not a number")
    if not np.issubdtype(raw.dtype, np.number):
        raise InvalidInstanceError(name, f"must be numeric, got {value!r}")
    x = float(raw)
    if not math.isfinite(x):
        raise InvalidInstanceError(name, f"= {x} is not finite")
    if kind is int:
        if x != round(x):
            raise InvalidInstanceError(name, f"= {x} is not an integer")
        return int(round(x))
    return x


def _scalar_checks(inst: SpotInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    vals = {k: getattr(inst, k) for k in _SCALARS}
    checks = (
        ("work", vals["work"] > 0, "must be > 0"),
        ("deadline", vals["deadline"] >= 1, "must be >= 1"),
        ("hard_deadline_factor", vals["hard_deadline_factor"] > 1, "must be > 1 (gamma)"),
        ("min_gpus", vals["min_gpus"] >= 1, "must be >= 1"),
        ("max_gpus", vals["max_gpus"] >= vals["min_gpus"],
         f"must be >= min_gpus = {vals['min_gpus']}"),
        ("value", vals["value"] >= 0, "must be >= 0"),
        ("throughput_slope", vals["throughput_slope"] > 0, "must be > 0 (alpha)"),
        ("throughput_intercept",
         vals["throughput_slope"] * vals["min_gpus"] + vals["throughput_intercept"] > 0,
         "gives H(min_gpus) <= 0"),
        ("scale_up_efficiency", 0 < vals["scale_up_efficiency"] <= 1, "must be in (0, 1]"),
        ("scale_down_efficiency",
         vals["scale_up_efficiency"] <= vals["scale_down_efficiency"] <= 1,
         "must be in [scale_up_efficiency, 1] (mu_1 <= mu_2 <= 1)"),
        ("on_demand_price", vals["on_demand_price"] > 0, "must be > 0"),
    )
    for name, ok, what in checks:
        if not ok:
            raise InvalidInstanceError(name, f"= {vals[name]} {what}")


def _horizon(inst: SpotInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    n = sizes["slot"]
    gd = inst.hard_deadline_factor * inst.deadline
    hard = math.ceil(gd - 1e-9) if math.isfinite(gd) else gd  # inf: no series is that long
    if n < hard:
        raise InvalidInstanceError(
            "spot_available", f"has {n} slots, shorter than the hard deadline "
            f"ceil(gamma d) = {hard}")
    full = float(inst.throughput(inst.max_gpus))
    if not (full > 0 and math.isfinite(inst.work / full)) or inst.work / full > n:  # before an int cast overflows
        raise InvalidInstanceError(
            "work", f"= {inst.work:g} needs {inst.work / full if full > 0 else math.inf:.4g} slots at max_gpus "
            f"on demand, more than the series' {n} slots")
    need = inst.deadline + inst.termination_slots(inst.work)
    if n < need:
        raise InvalidInstanceError(
            "spot_available", f"has {n} slots; the termination configuration needs {need} "
            f"(deadline {inst.deadline} + slots to do all work at max_gpus on demand)")


_INTEGERS = ("deadline", "min_gpus", "max_gpus")

#: The fields and their checks, in the order they are checked (:mod:`aisched.models._instance`).
_SPEC = (
    OneOf("changeover", ("off", "on"), "= {value!r} is not 'off' or 'on'"),
    *(Scalar(k, lambda name, v: _scalar(name, v, int if name in _INTEGERS else float)) for k in _SCALARS),
    Rule(_scalar_checks),
    Size("spot_price", ("slot",), "must be 1-d (slot,), got shape {shape}"),
    Field("spot_price", ("slot",), float, "nonneg"),
    Field("spot_available", ("slot",), int, "nonneg"),
    Rule(_horizon),
)


@dataclass(frozen=True, eq=False, init=False)
class SpotInstance(ValidatedInstance):
    """One LoRA fine-tuning job on a market of on-demand and spot GPUs (problem (5)).

    Parameters
    ----------
    work
        ``L``: total work (dataset size x epochs), in work units (> 0).
    deadline
        ``d``: soft deadline, slots (int >= 1); met when the job finishes in
        slots ``0..d-1``.
    hard_deadline_factor
        ``gamma > 1``: the value drops to 0 at the hard deadline ``gamma * d`` (4).
    min_gpus, max_gpus
        ``N_min <= N_max``: the GPU count of a running slot lies in
        ``[N_min, N_max]`` ((5c), (5d)).
    value
        ``v``: value of finishing by the soft deadline (>= 0), currency units.
    throughput_slope, throughput_intercept
        ``alpha > 0, beta``: ``H(n) = alpha * n + beta`` work units per slot for
        ``n >= 1`` GPUs, ``H(0) = 0`` (1). ``H(N_min) > 0`` is required.
    scale_up_efficiency, scale_down_efficiency
        ``mu_1 <= mu_2`` in ``(0, 1]``: share of a slot that computes when the
        GPU count grows (``mu_1``) or shrinks (``mu_2``) (2); 1 otherwise. The
        count before slot 0 is 0, so the first running slot scales up.
    on_demand_price
        ``p_o > 0``: price of one on-demand GPU for one slot.
    changeover
        ``"off"`` (default, the paper's model (2): only a change of the GPU
        count costs a reconfiguration) or ``"on"``: a slot in which the job
        starts new instances of either kind (its spot count or its on-demand
        count grows, e.g. a move between spot and on-demand at an unchanged
        total) computes at ``mu_1``, as ``sky_spot`` charges a restart each
        time the job changes instances (:meth:`split_efficiency`).
    spot_price
        ``p^s_t`` (slot,): price of one spot GPU in slot ``t`` (>= 0).
    spot_available
        ``n^avail_t`` (slot,): spot GPUs available in slot ``t`` (int >= 0).

    Notes
    -----
    ``num_slots`` (the market length) must cover the hard deadline
    (``>= ceil(gamma d)``) and the termination configuration from the deadline
    on (``>= d + termination_slots(work)``: the paper's fallback runs ``N_max``
    on-demand GPUs from slot ``d`` until the job is done, section III-E), so
    that every algorithm's plan fits in the horizon.
    """

    family: ClassVar[str] = "spot"
    _SPEC = _SPEC

    work: float
    deadline: int
    hard_deadline_factor: float
    min_gpus: int
    max_gpus: int
    value: float
    throughput_slope: float
    throughput_intercept: float
    scale_up_efficiency: float
    scale_down_efficiency: float
    on_demand_price: float
    spot_price: np.ndarray
    spot_available: np.ndarray
    changeover: str

    def __init__(
        self, *, work: float, deadline: int, min_gpus: int, max_gpus: int, value: float,
        spot_price: Any, spot_available: Any, hard_deadline_factor: float = 1.5,
        throughput_slope: float = 1.0, throughput_intercept: float = 0.0,
        scale_up_efficiency: float = 0.9, scale_down_efficiency: float = 0.9,
        on_demand_price: float = 1.0, changeover: str = "off",
    ) -> None:
        self._validate(locals())

    # ---------------------------------------------------------------- model
    @property
    def num_slots(self) -> int:
        """Length of the market series (the planning horizon)."""
        return int(self.spot_price.shape[0])

    @property
    def hard_deadline(self) -> float:
        """``gamma * d`` (slots)."""
        return self.hard_deadline_factor * self.deadline

    def throughput(self, gpus: Any) -> np.ndarray:
        """``H(n)`` of (1): ``alpha n + beta`` for ``n >= 1``, 0 for ``n = 0``."""
        n = np.asarray(gpus, dtype=float)
        return np.where(n > 0, self.throughput_slope * n + self.throughput_intercept, 0.0)

    def efficiency(self, gpus: Any, previous: Any) -> np.ndarray:
        """``mu_t`` of (2) from the GPU counts of this and the previous slot."""
        n, p = np.asarray(gpus), np.asarray(previous)
        return np.where(n > p, self.scale_up_efficiency,
                        np.where(n < p, self.scale_down_efficiency, 1.0))

    def split_efficiency(self, on_demand: Any, spot: Any, previous_on_demand: Any,
                         previous_spot: Any) -> np.ndarray:
        """``mu_t`` from the spot / on-demand split of this and the previous slot.

        ``changeover="off"``: (2) on the totals (:meth:`efficiency`). ``"on"``:
        ``mu_1`` when either count grows (new instances start), else ``mu_2``
        when the total shrinks, else 1.
        """
        o, s = np.asarray(on_demand), np.asarray(spot)
        po, ps = np.asarray(previous_on_demand), np.asarray(previous_spot)
        if self.changeover == "off":
            return self.efficiency(o + s, po + ps)
        return np.where((o > po) | (s > ps), self.scale_up_efficiency,
                        np.where(o + s < po + ps, self.scale_down_efficiency, 1.0))

    def slot_work(self, on_demand: int, spot: int, previous_on_demand: int, previous_spot: int) -> float:
        """Work of one slot, ``mu_t H(n_t)``, with :meth:`split_efficiency`."""
        return float(self.split_efficiency(on_demand, spot, previous_on_demand, previous_spot)
                     * self.throughput(on_demand + spot))

    def value_at(self, completion: Any) -> np.ndarray:
        """``V(T)`` of (4) for the paper's (1-based) completion time ``T``."""
        t = np.asarray(completion, dtype=float)
        d, g, v = self.deadline, self.hard_deadline_factor, self.value
        mid = v * (1.0 - (t - d) / ((g - 1.0) * d))
        return np.where(t <= d, v, np.where(t < g * d, mid, 0.0))

    def termination_slots(self, remaining: Any, first_efficiency: float | None = None) -> np.ndarray:
        """Slots the termination configuration (``N_max`` on demand) needs for ``remaining`` work.

        The first slot computes at ``first_efficiency`` (default ``mu_1``: the
        count grows to ``N_max``), the next ones at full speed.
        """
        r = np.asarray(remaining, dtype=float)
        full = float(self.throughput(self.max_gpus))
        mu = self.scale_up_efficiency if first_efficiency is None else first_efficiency
        rest = np.ceil(np.maximum(r - mu * full, 0.0) / full - 1e-9)
        return np.where(r <= 1e-9, 0, 1 + np.maximum(rest, 0)).astype(np.int64)

    def value_after_deadline(self, progress: Any) -> np.ndarray:
        """``V~(Z_ddl)`` of (9): value minus the termination configuration's cost.

        With ``Z_ddl`` done by the deadline, the termination configuration runs
        ``k`` slots of ``N_max`` on-demand GPUs (:meth:`termination_slots`,
        first slot at ``mu_1``) and the job completes at ``T = d + k``, so
        ``V~ = V(d + k) - k N_max p_o``.
        """
        k = self.termination_slots(self.work - np.asarray(progress, dtype=float))
        return self.value_at(self.deadline + k) - k * self.max_gpus * self.on_demand_price

    def terminal_steps(self, rest: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """``V~`` of (9) as a step function: ``(thresholds, values)`` over ``k = 0..K``.

        ``V~(Z + rest) = values[k]`` for the smallest ``k`` with
        ``Z >= thresholds[k]``, where ``thresholds[k] = L - rest - cap_k``,
        ``cap_0 = 0`` and ``cap_k = mu_1 H(N_max) + (k - 1) H(N_max)`` is what ``k``
        termination slots do, and ``values[k] = V(d + k) - k N_max p_o``.
        ``K = termination_slots(L)``, so the last threshold is ``<= 0``.
        """
        full = float(self.throughput(self.max_gpus))
        last = int(self.termination_slots(self.work))
        k = np.arange(last + 1)
        cap = np.where(k == 0, 0.0, self.scale_up_efficiency * full + (k - 1) * full)
        values = self.value_at(self.deadline + k) - k * self.max_gpus * self.on_demand_price
        return self.work - rest - cap, values.astype(float)

    def gpu_options(self) -> np.ndarray:
        """The feasible GPU counts of one slot: ``0, N_min..N_max`` ((5c)-(5e))."""
        return np.concatenate([[0], np.arange(self.min_gpus, self.max_gpus + 1)]).astype(np.int64)

    # ------------------------------------------------------------------ copies
    def replace(self, **changes: Any) -> SpotInstance:
        """A validated copy with some fields changed."""
        kwargs = {f.name: getattr(self, f.name) for f in fields(self)}
        unknown = set(changes) - set(kwargs)
        if unknown:
            raise InvalidInstanceError(sorted(unknown)[0], "is not a SpotInstance field")
        kwargs.update(changes)
        return SpotInstance(**kwargs)

    # ------------------------------------------------------------------ xarray
    def to_dataset(self) -> xr.Dataset:
        """The instance as an ``xarray.Dataset`` (exact round trip through netCDF)."""
        attrs: dict[str, Any] = {"family": "spot"}
        attrs.update({k: getattr(self, k) for k in _SCALARS})
        attrs["changeover"] = self.changeover
        return xr.Dataset(
            {"spot_price": ("slot", self.spot_price), "spot_available": ("slot", self.spot_available)},
            coords={"slot": np.arange(self.num_slots)}, attrs=attrs,
        )

    @classmethod
    def from_dataset(cls, ds: xr.Dataset) -> SpotInstance:
        """Inverse of :meth:`to_dataset`."""
        if ds.attrs.get("family") != "spot":
            raise InvalidInstanceError("family", f"dataset is of family {ds.attrs.get('family')!r}")
        missing = [k for k in _SCALARS if k not in ds.attrs]
        if missing:
            raise InvalidInstanceError(missing[0], "is missing from the dataset's attributes")
        kw = {k: ds.attrs[k] for k in _SCALARS}
        kw["changeover"] = str(ds.attrs.get("changeover", "off"))
        return cls(spot_price=ds["spot_price"].values, spot_available=ds["spot_available"].values,
                   **kw)

    # ------------------------------------------------------------------ plans
    def verify_plan(self, plan: xr.Dataset) -> float:
        """Check a plan against (5b)-(5e) and (5a); return its utility ``V(T) - C``."""
        return verify_plan(self, plan)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SpotInstance):
            return NotImplemented
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"SpotInstance(work={self.work}, deadline={self.deadline}, "
                f"gpus={self.min_gpus}..{self.max_gpus}, slots={self.num_slots})")
