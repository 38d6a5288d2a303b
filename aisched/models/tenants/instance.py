"""The data of a `tenants` problem: :class:`TenantInstance` (Astraea paper, section 3.1).

Conventions: slots are 0-based, ``0..num_slots-1``; slot ``t`` is the paper's
interval ``(t, t+1]``. A job arriving at ``arrival = r`` may run from slot
``r`` on. A job that runs in slots ``start..end`` (inclusive) completes at
time ``t+ = end + 1``. Times (``compute_time``, ``update_time``) are in slots,
``gradient_size`` in data units (e.g. megabits) and bandwidths in data units
per slot, so that the communication time ``2 epsilon / b_w`` of (1) is in
slots.

Utility of completion. Theorem 1 names two forms, ``k t+ + g`` (linear,
``k < 0 < g``) and ``(e / t+)^kappa`` (convex, ``e, kappa > 0``). Following the
worked example of section 4.2 (``f(t+) = -2 (t+ - r) + 100``), ``t+`` is
measured from the job's arrival: a job completing at time ``end + 1`` has
utility ``f(end + 1 - arrival)`` (see :meth:`TenantInstance.utility`).
"""

from __future__ import annotations

import math
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
    OneOf,
    Range,
    Rule,
    Scalar,
    Size,
    Sizes,
    ValidatedInstance,
)
from aisched.models._validate import check_positive
from aisched.models.tenants.plan import verify_plan

__all__ = ["TenantInstance", "UTILITIES"]

#: The two utility forms of Theorem 1.
UTILITIES = ("linear", "convex")

#: Most (server, slot) cells an instance may have: a size guard checked before any array is built (the
#: online algorithms keep per-(server, slot) state; 10^9 slots grew Astraea by 862 MiB in a minute).
MAX_SERVER_SLOTS = 100_000_000

#: Relative slack when testing "enough mini-batches" (3k) against floating point.
WORK_RTOL = 1e-9


def _no_bools(field: str, value: Any) -> None:
    """Reject booleans where a number is meant (``chunks=[True] * 4`` is not ``[1] * 4``)."""
    if value is None:
        return
    if isinstance(value, (bool, np.bool_)):
        raise InvalidInstanceError(field, f"must be a number, got the boolean {value!r}")
    if isinstance(value, (list, tuple)):  # numpy would turn [1, True] into [1, 1]
        for k, v in enumerate(value):
            if isinstance(v, (bool, np.bool_)):
                raise InvalidInstanceError(field, f"[{k}] = {v!r} is a boolean, not a number")
        return
    if isinstance(value, np.ndarray) and value.dtype == bool and value.size:
        raise InvalidInstanceError(field, f"[0] = {value.flat[0]!r} is a boolean, not a number (dtype bool)")


def _pos_scalar(field: str, value: Any) -> float:
    _no_bools(field, value)
    if not np.issubdtype(np.asarray(value).dtype, np.number):  # no text read as a number
        raise InvalidInstanceError(field, f"must be a number, got {value!r}")
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise InvalidInstanceError(field, f"must be a number, got {value!r}") from None
    if not math.isfinite(out) or out <= 0:
        raise InvalidInstanceError(field, f"= {out} must be finite and > 0")
    return out


def _no_booleans(inst: TenantInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    """Every array field (all numeric), in declaration order, before anything else."""
    for step in inst._SPEC:
        if isinstance(step, Field):
            _no_bools(step.name, given[step.name])


def _server_slots(inst: TenantInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    S, T = sizes["server"], sizes["slot"]
    if S * T > MAX_SERVER_SLOTS:
        raise InvalidInstanceError(
            "num_slots", f"= {T} with {S} servers is {S * T:,} (server, slot) cells, more than the limit "
            f"MAX_SERVER_SLOTS = {MAX_SERVER_SLOTS:,} (raise aisched.models.tenants.instance.MAX_SERVER_SLOTS "
            "if you mean it)")


def _quotas(inst: TenantInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    for quota, cap in (("worker_quota", "workers"), ("ps_quota", "parameter_servers")):
        q_sum, c_sum = int(getattr(inst, quota).sum()), int(getattr(inst, cap).sum())
        if q_sum != c_sum:
            raise InvalidInstanceError(
                quota, f"sums to {q_sum} but the servers' {cap} sum to {c_sum} (section 3.1)"
            )
    if int(inst.workers.sum()) < 1 or int(inst.parameter_servers.sum()) < 1:
        raise InvalidInstanceError("workers", "the cluster needs at least one worker and one PS")


def _finite_horizon(inst: TenantInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    # the slowest mini-batch time and whole-job work must be finite (a huge value overflows to inf)
    slow = inst.compute_time + inst.update_time + 2.0 * inst.gradient_size / inst.worker_bandwidth
    total = slow * (inst.epochs.astype(float) * inst.chunks * inst.minibatches)
    if sizes["job"] and not np.all(np.isfinite(total) & (total < 2.0**62)):
        j = int(np.argmax(~(np.isfinite(total) & (total < 2.0**62))))
        raise InvalidInstanceError("gradient_size", f"[{j}] = {inst.gradient_size[j]:g} (with compute_time, "
                                   f"update_time, epochs x chunks x minibatches) makes job {j}'s "
                                   f"time {total[j]:g} slots, not a finite horizon")


def _workload(name: str, workload: Any) -> str:
    if not isinstance(workload, str):
        raise InvalidInstanceError(name, f"must be a string, got {workload!r}")
    return workload


def _utility_form(inst: TenantInstance, given: Mapping[str, Any], sizes: Sizes) -> None:
    if inst.utility == "linear":
        bad = inst.utility_slope >= 0
        if bad.any():
            j = int(np.argmax(bad))
            raise InvalidInstanceError("utility_slope", f"[{j}] = {inst.utility_slope[j]} must be < 0 (k < 0)")
        check_positive("utility_intercept", inst.utility_intercept)
    else:
        check_positive("utility_scale", inst.utility_scale)
        check_positive("utility_exponent", inst.utility_exponent)


_NONNEG_INT = Range(0, INT32_MAX, ">= 0")
_AT_LEAST_ONE = Range(1, INT32_MAX, ">= 1")

#: The fields and their checks, in the order they are checked (:mod:`aisched.models._instance`).
_SPEC = (
    Rule(_no_booleans),
    Count("num_slots", 1, dim="slot"),
    Size("worker_quota", ("user",), "must be a non-empty 1-d array (user,), got shape {shape}", nonempty=("user",)),
    Size("workers", ("server",), "must be a non-empty 1-d array (server,), got shape {shape}",
         nonempty=("server",)),
    Rule(_server_slots),
    Size("arrival", ("job",), "must be 1-d (job,), got shape {shape}"),
    # --- servers and quotas --------------------------------------------
    Field("worker_quota", ("user",), int, _NONNEG_INT),
    Field("ps_quota", ("user",), int, _NONNEG_INT),
    Field("workers", ("server",), int, _NONNEG_INT),
    Field("parameter_servers", ("server",), int, _NONNEG_INT),
    Rule(_quotas),
    Scalar("worker_bandwidth", _pos_scalar),
    Scalar("ps_bandwidth", _pos_scalar),
    # --- jobs -------------------------------------------------------------
    Field("owner", ("job",), int, Range(0, lambda s: s["user"] - 1, lambda s: f"users 0..{s['user'] - 1}")),
    Field("arrival", ("job",), int, IN_SLOTS),
    Field("epochs", ("job",), int, _AT_LEAST_ONE),
    Field("chunks", ("job",), int, _AT_LEAST_ONE),
    Field("minibatches", ("job",), int, _AT_LEAST_ONE),
    Field("compute_time", ("job",), float, "positive"),
    Field("update_time", ("job",), float, "nonneg"),
    Field("gradient_size", ("job",), float, "nonneg"),
    Rule(_finite_horizon),
    # --- utility ------------------------------------------------------------
    OneOf("utility", UTILITIES, "= {value!r}, use 'linear' or 'convex'"),
    Scalar("workload", _workload),
    Field("utility_slope", ("job",), float, "finite", fill=0.0),
    Field("utility_intercept", ("job",), float, "finite", fill=0.0),
    Field("utility_scale", ("job",), float, "finite", fill=0.0),
    Field("utility_exponent", ("job",), float, "finite", fill=0.0),
    Rule(_utility_form),
)


@dataclass(frozen=True, eq=False, init=False)
class TenantInstance(ValidatedInstance):
    """A multi-tenant ML cluster: users with quotas, servers, and PS-architecture jobs.

    Every field maps to a symbol of section 3.1 / Table 1; arrays are read-only.
    Build with keywords; a bad field raises
    :class:`~aisched.errors.InvalidInstanceError` naming it.

    Parameters
    ----------
    num_slots
        ``T``: number of time slots (one hour each in section 5.1).
    worker_quota, ps_quota
        ``q^u_w, q^u_p`` (user,): workers and PSs user ``u`` bought (its fair
        share). Their sums must equal the cluster's ``sum_s C_sw`` and
        ``sum_s C_sp`` (section 3.1).
    workers, parameter_servers
        ``C_sw, C_sp`` (server,): workers (GPUs) and parameter servers of server ``s``.
    worker_bandwidth, ps_bandwidth
        ``b_w, b_p``: bandwidth of one worker and of one PS, data units per slot.
    owner
        (job,): the user ``u`` submitting job ``j^u`` (0-based).
    arrival
        ``r_j`` (job,): arrival slot.
    epochs
        ``E_j`` (job,): training epochs.
    chunks
        ``D_j`` (job,): data chunks, also the most workers the job can use (3e).
    minibatches
        ``M_j`` (job,): mini-batches per chunk; the job trains ``E_j D_j M_j``
        mini-batches in all (3k).
    compute_time
        ``m_j`` (job,): slots a worker needs for one mini-batch (> 0).
    update_time
        ``G_j`` (job,): slots the PSs need to update the parameters (>= 0).
    gradient_size
        ``epsilon_j`` (job,): size of gradients (= parameters) in data units (>= 0).
    utility
        ``"linear"`` or ``"convex"`` (Theorem 1).
    utility_slope, utility_intercept
        ``k_j < 0``, ``g_j > 0`` (job,) of the linear form ``f = k c + g``.
    utility_scale, utility_exponent
        ``e_j > 0``, ``kappa_j > 0`` (job,) of the convex form ``f = (e / c)^kappa``.
        The pair of the other form is not used (it defaults to zeros).
    workload
        Where the arrivals and owners came from (provenance only; no algorithm
        reads it): :func:`aisched.scenarios.tenants.generate` writes
        ``"trace-window"``, ``"trace-draw"``, ``"trace-consecutive"`` or
        ``"synthetic"`` (docs/readings/tenants.md T8); ``""`` for a hand-made instance.

    Notes
    -----
    The processing rate (1) is :meth:`rate`: ``n_j = 1 / (m + G + 2 eps / b_w)``
    mini-batches per worker and slot under distributed placement,
    ``1 / (m + G)`` when all workers and PSs share one server.
    """

    family: ClassVar[str] = "tenants"
    _SPEC = _SPEC

    num_slots: int
    worker_quota: np.ndarray
    ps_quota: np.ndarray
    workers: np.ndarray
    parameter_servers: np.ndarray
    worker_bandwidth: float
    ps_bandwidth: float
    owner: np.ndarray
    arrival: np.ndarray
    epochs: np.ndarray
    chunks: np.ndarray
    minibatches: np.ndarray
    compute_time: np.ndarray
    update_time: np.ndarray
    gradient_size: np.ndarray
    utility: str
    utility_slope: np.ndarray
    utility_intercept: np.ndarray
    utility_scale: np.ndarray
    utility_exponent: np.ndarray
    workload: str

    def __init__(
        self,
        *,
        num_slots: int,
        worker_quota: Any,
        ps_quota: Any,
        workers: Any,
        parameter_servers: Any,
        worker_bandwidth: float,
        ps_bandwidth: float,
        owner: Any,
        arrival: Any,
        epochs: Any,
        chunks: Any,
        minibatches: Any,
        compute_time: Any,
        update_time: Any,
        gradient_size: Any,
        utility: str = "linear",
        utility_slope: Any = None,
        utility_intercept: Any = None,
        utility_scale: Any = None,
        utility_exponent: Any = None,
        workload: str = "",
    ) -> None:
        self._validate(locals())

    # ------------------------------------------------------------------ sizes
    @property
    def num_users(self) -> int:
        """``U``."""
        return int(self.worker_quota.shape[0])

    @property
    def num_servers(self) -> int:
        """``S``."""
        return int(self.workers.shape[0])

    @property
    def num_jobs(self) -> int:
        """``sum_u J^u``."""
        return int(self.arrival.shape[0])

    @property
    def total_workers(self) -> int:
        """``sum_s C_sw``."""
        return int(self.workers.sum())

    @property
    def total_parameter_servers(self) -> int:
        """``sum_s C_sp``."""
        return int(self.parameter_servers.sum())

    # ------------------------------------------------------------ derivations
    def total_minibatches(self) -> np.ndarray:
        """(job,) ``E_j D_j M_j``: mini-batches to train (3k)."""
        return (self.epochs * self.chunks * self.minibatches).astype(np.float64)

    def minibatch_time(self, centralized: Any) -> np.ndarray:
        """Slots one worker needs per mini-batch, ``1 / n_j`` of (1).

        Parameters
        ----------
        centralized
            ``zeta_j`` (bool, scalar or (job,)): all workers and PSs on one server.
        """
        slow = self.compute_time + self.update_time + 2.0 * self.gradient_size / self.worker_bandwidth
        fast = self.compute_time + self.update_time
        return np.where(np.asarray(centralized, dtype=bool), fast, slow)

    def rate(self, centralized: Any) -> np.ndarray:
        """Processing rate (1): ``n_j``, mini-batches one worker trains per slot."""
        return 1.0 / self.minibatch_time(centralized)

    def duration(self, workers: Any, centralized: Any, jobs: Any | None = None) -> np.ndarray:
        """Slots needed with ``workers`` workers: ``ceil(E D M / (n_j w))`` (Algorithm 4, line 3).

        ``workers``, ``centralized`` and ``jobs`` broadcast together; ``jobs``
        defaults to all jobs. ``workers`` must be >= 1.
        """
        idx = np.arange(self.num_jobs) if jobs is None else np.asarray(jobs)
        cen = np.asarray(centralized, dtype=bool)
        fast = self.compute_time + self.update_time
        slow = fast + 2.0 * self.gradient_size / self.worker_bandwidth
        per = np.where(cen, fast[idx], slow[idx])
        need = self.total_minibatches()[idx] * per / np.asarray(workers, dtype=np.float64)
        return np.maximum(np.ceil(need * (1 - WORK_RTOL)), 1).astype(np.int64)

    def widest_run(self) -> tuple[np.ndarray, np.ndarray]:
        """(job,) the most workers a feasible schedule can give a job, distributed and centralised.

        Distributed: the PS server ``s`` hosts up to ``C_sw`` workers and its
        ``C_sp`` PSs cover ``floor(C_sp b_p / b_w)`` workers elsewhere (3i)
        (more PS servers do not help: each must cover all workers off it);
        capped by ``D_j`` (3e) and the cluster. Centralised: the largest server
        with a PS (3j). 0 where no placement exists.
        """
        host = self.parameter_servers >= 1
        if not host.any():
            zero = np.zeros(self.num_jobs, dtype=np.int64)
            return zero, zero
        cover = np.floor(self.parameter_servers[host] * self.ps_bandwidth / self.worker_bandwidth * (1 + WORK_RTOL))
        dist = int(min(self.total_workers, float((self.workers[host] + cover).max())))
        cen = int(self.workers[host].max())
        return np.minimum(self.chunks, dist), np.minimum(self.chunks, cen)

    def fastest(self) -> tuple[np.ndarray, np.ndarray]:
        """(job,) workers and slots of the job's fastest feasible run (ignoring other jobs): (1), (3e), (3i)-(3k).

        The job's widest distributed and centralised runs (:meth:`widest_run`), each at
        :meth:`duration`; the shorter one, the distributed one on a tie. Workers 0 (and slots the
        largest int64) where no run is feasible.
        """
        if self.num_jobs == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        dist_w, cen_w = self.widest_run()
        big = np.iinfo(np.int64).max
        d_dist = np.where(dist_w >= 1, self.duration(np.maximum(dist_w, 1), False), big)
        d_cen = np.where(cen_w >= 1, self.duration(np.maximum(cen_w, 1), True), big)
        distributed = d_dist <= d_cen
        return (np.where(distributed, dist_w, cen_w).astype(np.int64),
                np.where(distributed, d_dist, d_cen).astype(np.int64))

    def fastest_run(self) -> np.ndarray:
        """(job,) fewest slots any feasible schedule needs (ignoring other jobs): :meth:`fastest`'s slots."""
        return self.fastest()[1]

    def utility_value(self, jobs: Any, completion: Any) -> np.ndarray:
        """``f_j(c)`` for completion ``c`` slots after arrival (broadcast over ``jobs``).

        Linear: ``k_j c + g_j``; convex: ``(e_j / c)^kappa_j`` (Theorem 1), ``c >= 1``.
        """
        j = np.asarray(jobs)
        c = np.asarray(completion, dtype=np.float64)
        if self.utility == "linear":
            return self.utility_slope[j] * c + self.utility_intercept[j]
        return (self.utility_scale[j] / np.maximum(c, 1e-300)) ** self.utility_exponent[j]

    def fair_share(self) -> np.ndarray:
        """(user,) initial share ``(q_w/sum q_w + q_p/sum q_p) / 2`` (section 5.1)."""
        return 0.5 * (
            self.worker_quota / self.total_workers + self.ps_quota / self.total_parameter_servers
        )

    def replace(self, **changes: Any) -> TenantInstance:
        """A validated copy with some fields changed (keywords as in the constructor)."""
        kwargs = {f.name: getattr(self, f.name) for f in fields(self)}
        unknown = set(changes) - set(kwargs)
        if unknown:
            raise InvalidInstanceError(sorted(unknown)[0], "is not a TenantInstance field")
        kwargs.update(changes)
        return TenantInstance(**kwargs)

    # ------------------------------------------------------------------ xarray
    def to_dataset(self) -> xr.Dataset:
        """The instance as an ``xarray.Dataset`` (exact round trip through netCDF)."""
        job = lambda name: ("job", getattr(self, name))  # noqa: E731
        return xr.Dataset(
            {
                "worker_quota": ("user", self.worker_quota),
                "ps_quota": ("user", self.ps_quota),
                "workers": ("server", self.workers),
                "parameter_servers": ("server", self.parameter_servers),
                **{
                    name: job(name)
                    for name in (
                        "owner", "arrival", "epochs", "chunks", "minibatches", "compute_time",
                        "update_time", "gradient_size", "utility_slope", "utility_intercept",
                        "utility_scale", "utility_exponent",
                    )
                },
            },
            coords={
                "user": np.arange(self.num_users),
                "server": np.arange(self.num_servers),
                "job": np.arange(self.num_jobs),
            },
            attrs={
                "family": "tenants",
                "num_slots": self.num_slots,
                "worker_bandwidth": self.worker_bandwidth,
                "ps_bandwidth": self.ps_bandwidth,
                "utility": self.utility,
                "workload": self.workload,
            },
        )

    @classmethod
    def from_dataset(cls, ds: xr.Dataset) -> TenantInstance:
        """Inverse of :meth:`to_dataset`."""
        if ds.attrs.get("family") != "tenants":
            raise InvalidInstanceError("family", f"dataset is of family {ds.attrs.get('family')!r}")
        names = [f.name for f in fields(cls) if f.name not in ("num_slots", "worker_bandwidth", "ps_bandwidth", "utility",
                                                                   "workload")]
        missing = [n for n in names if n not in ds]
        if missing:
            raise InvalidInstanceError(missing[0], "is missing from the dataset")
        return cls(
            num_slots=int(ds.attrs["num_slots"]),
            worker_bandwidth=float(ds.attrs["worker_bandwidth"]),
            ps_bandwidth=float(ds.attrs["ps_bandwidth"]),
            utility=str(ds.attrs["utility"]),
            workload=str(ds.attrs.get("workload", "")),
            **{n: ds[n].values for n in names},
        )

    # ------------------------------------------------------------------ plans
    def verify_plan(self, plan: xr.Dataset) -> float:
        """Check a plan against problem (3); return its total revenue (3).

        See :func:`aisched.models.tenants.plan.verify_plan`.
        """
        return verify_plan(self, plan)

    # ---------------------------------------------------------------- equality
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TenantInstance):
            return NotImplemented
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"TenantInstance(users={self.num_users}, servers={self.num_servers}, "
            f"jobs={self.num_jobs}, slots={self.num_slots}, utility={self.utility!r})"
        )
