"""The data of a `lora` problem: :class:`LoraInstance` (pdFTSP, section 2.1).

Conventions: slots are 0-based, ``0..num_slots-1`` (the paper's ``[T]`` shifted
by one); a task may run in slots ``arrival..deadline`` inclusive, and, when it
needs pre-processing by vendor ``n``, from ``arrival + vendor_delay[i, n]`` on
(constraint (4c) read in 0-based slots). Work and throughput are in samples,
memory in GB, money (bids, vendor prices, energy cost) in one currency unit.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np
import xarray as xr

from aisched.errors import InvalidInstanceError
from aisched.models._instance import (
    IN_SLOTS,
    INT32_MAX,
    Count,
    Field,
    Range,
    Rule,
    Scalar,
    Size,
    Sizes,
    ValidatedInstance,
    deadline_not_before_arrival,
)
from aisched.models._validate import first_bad
from aisched.models.lora.plan import verify_plan

__all__ = ["LoraInstance"]

_PUBLIC = (
    "num_slots",
    "compute_capacity",
    "memory_capacity",
    "base_memory",
    "gpu_type",
    "arrival",
    "deadline",
    "memory_need",
    "work",
    "needs_preprocessing",
    "bid",
    "throughput",
    "vendor_price",
    "vendor_delay",
    "max_value_per_sample",
    "max_value_per_gb_slot",
    "max_value_per_gb",
)

#: The declared bounds on value per unit of resource (optional fields, ``None`` = not declared).
VALUE_BOUNDS = ("max_value_per_sample", "max_value_per_gb_slot", "max_value_per_gb")


#: Largest total of bids (or of vendor prices) an instance may have. Welfare is a sum of money
#: amounts in float64 (integers exact to 2**53, about 9e15) and the MILP solver reads 1e20 as
#: infinity (HiGHS); at 1e20 a bid made ``offline`` report a bound below its objective.
MAX_TOTAL_MONEY = 1e15


def _check_money_scale(name: str, values: np.ndarray) -> None:
    total = float(np.sum(values))
    if total >= MAX_TOTAL_MONEY:
        idx = np.unravel_index(int(np.argmax(values)), values.shape)
        where = ", ".join(str(int(j)) for j in idx)
        raise InvalidInstanceError(
            name,
            f"[{where}] = {values[idx]:.6g}: the {name} values sum to {total:.6g}, at or above "
            f"{MAX_TOTAL_MONEY:.0e}; rescale the money unit (welfare must stay exact in float64 "
            "and below the MILP solver's infinity)",
        )


def _bound(name: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_, str, bytes)) or not isinstance(value, (numbers.Real, np.ndarray)):
        raise InvalidInstanceError(name, f"must be a number or None, got {value!r}")  # '3' is not read as 3
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise InvalidInstanceError(name, f"must be a number or None, got {value!r}") from None
    if not np.isfinite(out) or out <= 0:
        raise InvalidInstanceError(name, f"= {out} must be finite and > 0 (or None)")
    return out


def _base_memory(name: str, base_memory: Any) -> float:
    if not np.issubdtype(np.asarray(base_memory).dtype, np.number):  # no boolean or text read as a number
        raise InvalidInstanceError(name, f"must be a number, got {base_memory!r}")
    try:
        rb = float(base_memory)
    except (TypeError, ValueError):
        raise InvalidInstanceError(name, f"must be a number, got {base_memory!r}") from None
    if not np.isfinite(rb) or rb < 0:
        raise InvalidInstanceError(name, f"= {rb} must be finite and >= 0")
    return rb


def _memory_above_base(inst: LoraInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    low = inst.memory_capacity <= inst.base_memory
    if low.any():
        k = first_bad(low)[0]
        raise InvalidInstanceError(
            "memory_capacity",
            f"[{k}] = {inst.memory_capacity[k]} is not above base_memory = {inst.base_memory}",
        )


def _vendors_for_preprocessing(inst: LoraInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    if sizes["vendor"] == 0 and inst.needs_preprocessing.any():
        i = first_bad(inst.needs_preprocessing)[0]
        raise InvalidInstanceError(
            "needs_preprocessing", f"[{i}] = True but the instance has no vendors"
        )


#: The fields and their checks, in the order they are checked (:mod:`aisched.models._instance`).
_SPEC = (
    # --- sizes -------------------------------------------------------
    Count("num_slots", 1, dim="slot"),
    Size("compute_capacity", ("node",), "must be a non-empty 1-d array (node,), got shape {shape}",
         nonempty=("node",)),
    Size("arrival", ("task",), "must be 1-d (task,), got shape {shape}"),
    Size("vendor_price", ("task", "vendor"), "has shape {shape}, expected ({task}, vendors)"),
    # --- nodes -------------------------------------------------------
    Field("compute_capacity", ("node",), float, "positive"),
    Field("memory_capacity", ("node",), float, "positive"),
    Scalar("base_memory", _base_memory),
    Rule(_memory_above_base),
    Field("gpu_type", ("node",), str),
    # --- tasks -------------------------------------------------------
    Field("arrival", ("task",), int, IN_SLOTS),
    Field("deadline", ("task",), int, IN_SLOTS),
    Rule(deadline_not_before_arrival),
    Field("memory_need", ("task",), float, "positive"),
    Field("work", ("task",), float, "positive"),
    Field("needs_preprocessing", ("task",), bool),
    Field("bid", ("task",), float, "nonneg", extra=_check_money_scale),
    Field("throughput", ("task", "node"), float, "nonneg"),
    Field("vendor_price", ("task", "vendor"), float, "nonneg", extra=_check_money_scale),
    Field("vendor_delay", ("task", "vendor"), int, Range(0, INT32_MAX, ">= 0")),
    Rule(_vendors_for_preprocessing),
    *(Scalar(name, _bound) for name in VALUE_BOUNDS),
    Field("energy_use", ("task", "node"), float, "nonneg", attr="_energy_use"),
    Field("energy_price", ("node", "slot"), float, "nonneg", attr="_energy_price"),
)


@dataclass(frozen=True, eq=False, init=False)
class LoraInstance(ValidatedInstance):
    """One multi-LoRA fine-tuning auction: nodes, slots, tasks and vendors.

    Every field maps to a symbol of the paper (section 2.1, IP (4)); arrays are
    read-only numpy arrays. Build with keywords; every field is validated and a
    bad one raises :class:`~aisched.errors.InvalidInstanceError` naming it.

    Parameters
    ----------
    num_slots
        ``T``: number of time slots (10 minutes each in section 5.1).
    compute_capacity
        ``C_kp`` (node,): samples a node can process per slot, all tasks together.
    memory_capacity
        ``C_km`` (node,): GPU memory of a node, GB.
    base_memory
        ``r_b``: memory of the shared pre-trained model, GB, held once per node.
    gpu_type
        (node,): labels, e.g. ``"A100-80GB"``; informative only.
    arrival, deadline
        ``a_i, d_i`` (task,): 0-based slots; the task may run in
        ``arrival..deadline`` inclusive.
    memory_need
        ``r_i`` (task,): GPU memory of the task's adapter and activations, GB.
    work
        ``M_i`` (task,): samples to process (epochs x dataset size).
    needs_preprocessing
        ``f_i`` (task,): whether a labour vendor must pre-process the data.
    bid
        ``b_i`` (task,): the bid, read as the true valuation.
    throughput
        ``s_ik`` (task, node): samples of task ``i`` processed per slot on node
        ``k``; 0 means the task cannot run there.
    vendor_price, vendor_delay
        ``q_in``, ``h_in`` (task, vendor): price charged and delay in slots of
        vendor ``n`` for task ``i``'s pre-processing.
    energy_use, energy_price
        Factorisation of the operational cost ``e_ikt`` (section 2.1):
        ``e_ikt = energy_use[i, k] * energy_price[k, t]`` with ``energy_use``
        (task, node) the energy a slot of task ``i`` draws on node ``k`` and
        ``energy_price`` (node, slot) the price of energy per unit. Memory is
        O(I*K + K*T). Read back with :meth:`energy_cost` or
        :meth:`energy_factors`.

    max_value_per_sample, max_value_per_gb_slot, max_value_per_gb
        Optional bounds on a task's value per unit of resource, declared by the
        platform BEFORE bids arrive (Lemma 2's ``alpha``/``beta`` rest on such
        bounds): every admissible bid should satisfy ``b_i <= max_value_per_sample
        * M_i``, ``b_i <= max_value_per_gb_slot * r_i * n_i`` (``n_i`` the fewest
        slots the task can finish in, :meth:`fewest_slots`) and ``b_i <=
        max_value_per_gb * r_i``. pdFTSP reads them as its ``alpha`` and ``beta``
        so that no bid moves the prices (truthfulness). ``None``: not declared.
        A bid above a bound is allowed (a misreport may be one); it voids Lemma
        2's capacity guarantee for that task, see :meth:`bids_above_bounds`.

    Notes
    -----
    ``vendor_price`` and ``vendor_delay`` matter only for tasks with
    ``needs_preprocessing``; the other tasks run from ``arrival`` and pay no
    vendor. Validation also rejects ``memory_capacity <= base_memory`` (the
    dual update (8) divides by ``C_km - r_b``).
    """

    family: ClassVar[str] = "lora"
    _SPEC = _SPEC

    num_slots: int
    compute_capacity: np.ndarray
    memory_capacity: np.ndarray
    base_memory: float
    gpu_type: np.ndarray
    arrival: np.ndarray
    deadline: np.ndarray
    memory_need: np.ndarray
    work: np.ndarray
    needs_preprocessing: np.ndarray
    bid: np.ndarray
    throughput: np.ndarray
    vendor_price: np.ndarray
    vendor_delay: np.ndarray
    max_value_per_sample: float | None
    max_value_per_gb_slot: float | None
    max_value_per_gb: float | None
    _energy_use: np.ndarray
    _energy_price: np.ndarray

    def __init__(
        self,
        *,
        num_slots: int,
        compute_capacity: Any,
        memory_capacity: Any,
        base_memory: float,
        gpu_type: Any,
        arrival: Any,
        deadline: Any,
        memory_need: Any,
        work: Any,
        needs_preprocessing: Any,
        bid: Any,
        throughput: Any,
        vendor_price: Any,
        vendor_delay: Any,
        energy_use: Any,
        energy_price: Any,
        max_value_per_sample: float | None = None,
        max_value_per_gb_slot: float | None = None,
        max_value_per_gb: float | None = None,
    ) -> None:
        self._validate(locals())

    # ------------------------------------------------------------------ sizes
    @property
    def num_tasks(self) -> int:
        """``I``: number of tasks."""
        return int(self.arrival.shape[0])

    @property
    def num_nodes(self) -> int:
        """``K``: number of GPU nodes."""
        return int(self.compute_capacity.shape[0])

    @property
    def num_vendors(self) -> int:
        """``N``: number of labour vendors."""
        return int(self.vendor_price.shape[1])

    # ------------------------------------------------------------------ energy
    def energy_cost(self, task: int) -> np.ndarray:
        """``e_ikt`` of one task as a (node, slot) array.

        Parameters
        ----------
        task
            Task index ``i``.
        """
        if not 0 <= int(task) < self.num_tasks:
            raise InvalidInstanceError("task", f"= {task} is outside 0..{self.num_tasks - 1}")
        return self._energy_use[int(task)][:, None] * self._energy_price

    def energy_factors(self) -> tuple[np.ndarray, np.ndarray]:
        """``(energy_use (task, node), energy_price (node, slot))``; ``e_ikt`` is their product."""
        return self._energy_use, self._energy_price

    # ------------------------------------------------------------ derivations
    def earliest_start(self) -> np.ndarray:
        """(task, vendor) earliest slot a task may run with each vendor, by (4c).

        For tasks without pre-processing every column equals ``arrival``.
        """
        delay = np.where(self.needs_preprocessing[:, None], self.vendor_delay, 0)
        return self.arrival.astype(np.int64)[:, None] + delay.astype(np.int64)

    def fewest_slots(self) -> np.ndarray:
        """(task,) ``ceil(M_i / max_k s_ik)``: the fewest slots a task can finish in.

        A task gathers at most ``max_k s_ik`` samples per slot (4b). Tasks that
        can run on no node get 0.
        """
        fastest = np.max(self.throughput, axis=1) if self.num_nodes else np.zeros(self.num_tasks)
        safe = np.where(fastest > 0, fastest, 1.0)
        return np.where(fastest > 0, np.ceil(self.work / safe - 1e-9), 0).astype(np.int64)

    def value_per_unit(self) -> dict[str, np.ndarray]:
        """(task,) each bid per unit of resource, keyed like the declared bounds.

        ``b_i / M_i``, ``b_i / (r_i n_i)`` (``n_i`` = :meth:`fewest_slots`, at least 1)
        and ``b_i / r_i``.
        """
        slots = np.maximum(self.fewest_slots(), 1)
        return {
            "max_value_per_sample": self.bid / self.work,
            "max_value_per_gb_slot": self.bid / (self.memory_need * slots),
            "max_value_per_gb": self.bid / self.memory_need,
        }

    def bids_above_bounds(self) -> dict[str, int]:
        """Number of bids above each declared bound (bounds not declared are left out)."""
        ratios = self.value_per_unit()
        return {
            name: int(np.sum(ratios[name] > getattr(self, name) * (1 + 1e-12)))
            for name in VALUE_BOUNDS
            if getattr(self, name) is not None
        }

    def subset(self, tasks: Any, vendor: Any | None = None) -> LoraInstance:
        """A new instance with only ``tasks`` (in the given order).

        Parameters
        ----------
        tasks
            Indices of the tasks to keep.
        vendor
            Optional (len(tasks),) vendor per kept task: the result then has a
            single vendor column holding each task's chosen vendor (used by
            Titan, which fixes a random vendor per task).
        """
        idx = np.asarray(tasks, dtype=np.int64)
        vp, vd = self.vendor_price[idx], self.vendor_delay[idx]
        if vendor is not None:
            col = np.asarray(vendor, dtype=np.int64)
            vp = vp[np.arange(idx.size), col][:, None]
            vd = vd[np.arange(idx.size), col][:, None]
        return self.replace(
            arrival=self.arrival[idx],
            deadline=self.deadline[idx],
            memory_need=self.memory_need[idx],
            work=self.work[idx],
            needs_preprocessing=self.needs_preprocessing[idx],
            bid=self.bid[idx],
            throughput=self.throughput[idx],
            vendor_price=vp,
            vendor_delay=vd,
            energy_use=self._energy_use[idx],
        )

    def replace(self, **changes: Any) -> LoraInstance:
        """A validated copy with some fields changed (keywords as in the constructor)."""
        kwargs = {name: getattr(self, name) for name in _PUBLIC}
        kwargs["energy_use"] = self._energy_use
        kwargs["energy_price"] = self._energy_price
        unknown = set(changes) - set(kwargs)
        if unknown:
            raise InvalidInstanceError(sorted(unknown)[0], "is not a LoraInstance field")
        kwargs.update(changes)
        return LoraInstance(**kwargs)

    def with_bid(self, task: int, value: float) -> LoraInstance:
        """A copy where ``task`` bids ``value`` (all else fixed)."""
        bid = np.array(self.bid, copy=True)
        bid[int(task)] = value
        return self.replace(bid=bid)

    # ------------------------------------------------------------------ xarray
    def to_dataset(self) -> xr.Dataset:
        """The instance as an ``xarray.Dataset`` (exact round trip through netCDF)."""
        ds = xr.Dataset(
            {
                "compute_capacity": ("node", self.compute_capacity),
                "memory_capacity": ("node", self.memory_capacity),
                "gpu_type": ("node", self.gpu_type.astype(object)),
                "arrival": ("task", self.arrival),
                "deadline": ("task", self.deadline),
                "memory_need": ("task", self.memory_need),
                "work": ("task", self.work),
                "needs_preprocessing": ("task", self.needs_preprocessing.astype(np.int8)),
                "bid": ("task", self.bid),
                "throughput": (("task", "node"), self.throughput),
                "vendor_price": (("task", "vendor"), self.vendor_price),
                "vendor_delay": (("task", "vendor"), self.vendor_delay),
                "energy_use": (("task", "node"), self._energy_use),
                "energy_price": (("node", "slot"), self._energy_price),
            },
            coords={
                "task": np.arange(self.num_tasks),
                "node": np.arange(self.num_nodes),
                "slot": np.arange(self.num_slots),
                "vendor": np.arange(self.num_vendors),
            },
            attrs={"family": "lora", "num_slots": self.num_slots, "base_memory": self.base_memory},
        )
        for name in VALUE_BOUNDS:  # netCDF attributes cannot hold None: left out when undeclared
            if getattr(self, name) is not None:
                ds.attrs[name] = getattr(self, name)
        return ds

    @classmethod
    def from_dataset(cls, ds: xr.Dataset) -> LoraInstance:
        """Inverse of :meth:`to_dataset`."""
        if ds.attrs.get("family") != "lora":
            raise InvalidInstanceError("family", f"dataset is of family {ds.attrs.get('family')!r}")
        v = lambda name: ds[name].values  # noqa: E731
        return cls(
            num_slots=int(ds.attrs["num_slots"]),
            compute_capacity=v("compute_capacity"),
            memory_capacity=v("memory_capacity"),
            base_memory=float(ds.attrs["base_memory"]),
            gpu_type=v("gpu_type").astype(str),
            arrival=v("arrival"),
            deadline=v("deadline"),
            memory_need=v("memory_need"),
            work=v("work"),
            needs_preprocessing=v("needs_preprocessing").astype(bool),
            bid=v("bid"),
            throughput=v("throughput"),
            vendor_price=v("vendor_price"),
            vendor_delay=v("vendor_delay"),
            energy_use=v("energy_use"),
            energy_price=v("energy_price"),
            **{name: float(ds.attrs[name]) for name in VALUE_BOUNDS if name in ds.attrs},
        )

    # ------------------------------------------------------------------ plans
    def verify_plan(self, plan: xr.Dataset) -> float:
        """Check a plan against IP (4); return its social welfare (3).

        See :func:`aisched.models.lora.plan.verify_plan`.
        """
        return verify_plan(self, plan)

    # ---------------------------------------------------------------- equality
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LoraInstance):
            return NotImplemented
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"LoraInstance(tasks={self.num_tasks}, nodes={self.num_nodes}, "
            f"slots={self.num_slots}, vendors={self.num_vendors})"
        )
