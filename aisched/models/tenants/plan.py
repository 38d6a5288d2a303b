"""The `tenants` plan: the decisions of problem (3) as an ``xarray.Dataset``, and its checker.

A plan has, per job (dim ``job``) and server (dim ``server``):

- ``admitted`` (job,) bool: ``o_j``, the job is trained;
- ``start``, ``end`` (job,) int32: ``t-_j`` and the last slot it runs
  (inclusive, 0-based; the job completes at ``t+_j = end + 1``); -1 if rejected;
- ``workers``, ``parameter_servers`` (job, server) int32: ``y_js``, ``z_js``,
  held unchanged in every slot ``start..end`` and 0 elsewhere;
- ``centralized`` (job,) bool: ``zeta_j`` (3j), derived from the placement.

Because allocations are stored once per job, (3f), (3h), (3l)'s "0 outside
``[t-, t+]``", (3m) and (3n) hold by the plan's form. Algorithms that price
(Astraea) add accounting variables, checked when present:

- ``shared`` (job,) bool: the job ran on others' unused resources (``J^u \\ J^u_1``)
  and pays ``worker_cost + ps_cost``; jobs not shared must fit in their owner's
  quota in every slot (the fair-share part of (3a)-(3b));
- ``worker_cost``, ``ps_cost`` (job,): ``c_jw, c_jp``;
- ``income`` (user, job): ``sum_t rho^u_j(t)`` of (2), what user ``u`` receives
  from job ``j``; it must add up to the job's payment (payments received =
  payments made) and be 0 for jobs that do not pay.

:func:`verify_plan` re-checks all of this from the arrays and the instance
alone and returns the total revenue (3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import xarray as xr

from aisched.errors import InfeasiblePlanError

if TYPE_CHECKING:  # pragma: no cover
    from aisched.models.tenants.instance import TenantInstance

__all__ = [
    "make_plan",
    "empty_plan",
    "verify_plan",
    "plan_revenue",
    "usage",
    "centralized_of",
    "ACCOUNTING",
]

#: Relative tolerance on money and work.
RTOL = 1e-9

#: Optional accounting variables written by pricing algorithms.
ACCOUNTING = ("shared", "worker_cost", "ps_cost", "income")


def centralized_of(workers: np.ndarray, parameter_servers: np.ndarray) -> np.ndarray:
    """(job,) ``zeta_j`` (3j): every worker and PS of the job is on one server."""
    used = (workers > 0) | (parameter_servers > 0)
    return used.sum(axis=1) == 1


def make_plan(
    instance: TenantInstance,
    start: Any,
    end: Any,
    workers: Any,
    parameter_servers: Any,
    admitted: Any,
    **accounting: Any,
) -> xr.Dataset:
    """Pack decisions into the plan Dataset (no checking: see :func:`verify_plan`).

    ``accounting`` may hold ``shared``, ``worker_cost``, ``ps_cost`` (job,) and
    ``income`` (user, job).
    """
    y = np.asarray(workers, dtype=np.int32)
    z = np.asarray(parameter_servers, dtype=np.int32)
    ds = xr.Dataset(
        {
            "admitted": ("job", np.asarray(admitted, dtype=bool)),
            "start": ("job", np.asarray(start, dtype=np.int32)),
            "end": ("job", np.asarray(end, dtype=np.int32)),
            "workers": (("job", "server"), y),
            "parameter_servers": (("job", "server"), z),
            "centralized": ("job", centralized_of(y, z)),
        },
        coords={
            "job": np.arange(instance.num_jobs),
            "server": np.arange(instance.num_servers),
            "user": np.arange(instance.num_users),
        },
    )
    for name, value in accounting.items():
        if name not in ACCOUNTING:
            raise KeyError(f"unknown accounting variable {name!r} (known: {ACCOUNTING})")
        if name == "income":
            ds[name] = (("user", "job"), np.asarray(value, dtype=np.float64))
        elif name == "shared":
            ds[name] = ("job", np.asarray(value, dtype=bool))
        else:
            ds[name] = ("job", np.asarray(value, dtype=np.float64))
    return ds


def empty_plan(instance: TenantInstance) -> xr.Dataset:
    """A plan that admits nothing (always feasible, revenue 0)."""
    j, s = instance.num_jobs, instance.num_servers
    return make_plan(
        instance, np.full(j, -1), np.full(j, -1), np.zeros((j, s)), np.zeros((j, s)), np.zeros(j, bool)
    )


def _arrays(instance: TenantInstance, plan: xr.Dataset) -> dict[str, np.ndarray]:
    for name in ("admitted", "start", "end", "workers", "parameter_servers"):
        if name not in plan:
            raise InfeasiblePlanError("plan", f"has no variable {name!r}")
    J, S = instance.num_jobs, instance.num_servers
    out = {
        "admitted": np.asarray(plan["admitted"].values).astype(bool),
        "start": np.asarray(plan["start"].values).astype(np.int64),
        "end": np.asarray(plan["end"].values).astype(np.int64),
        "workers": np.asarray(plan["workers"].transpose("job", "server").values).astype(np.int64),
        "parameter_servers": np.asarray(
            plan["parameter_servers"].transpose("job", "server").values
        ).astype(np.int64),
    }
    for name in ("admitted", "start", "end"):
        if out[name].shape != (J,):
            raise InfeasiblePlanError("plan", f"{name} has shape {out[name].shape}, expected ({J},)")
    for name in ("workers", "parameter_servers"):
        if out[name].shape != (J, S):
            raise InfeasiblePlanError("plan", f"{name} has shape {out[name].shape}, expected ({J}, {S})")
        if (out[name] < 0).any():
            j, s = np.argwhere(out[name] < 0)[0]
            raise InfeasiblePlanError("(3o) integrality", f"job {j} server {s}: {name} = {out[name][j, s]} < 0")
    return out


def usage(
    instance: TenantInstance, plan: xr.Dataset, jobs: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(server, slot) workers and PSs in use by the admitted jobs (optionally a subset mask)."""
    a = _arrays(instance, plan)
    mask = a["admitted"] if jobs is None else a["admitted"] & np.asarray(jobs, dtype=bool)
    return _usage(instance, a["start"], a["end"], a["workers"], a["parameter_servers"], mask)


def _usage(
    instance: TenantInstance,
    start: np.ndarray,
    end: np.ndarray,
    y: np.ndarray,
    z: np.ndarray,
    mask: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    T, S = instance.num_slots, instance.num_servers
    idx = np.nonzero(mask)[0]
    out = []
    for alloc in (y, z):
        diff = np.zeros((T + 1, S), dtype=np.int64)
        np.add.at(diff, start[idx], alloc[idx])
        np.add.at(diff, end[idx] + 1, -alloc[idx])
        out.append(np.cumsum(diff, axis=0)[:T].T)
    return out[0], out[1]


def _revenue(instance: TenantInstance, a: dict[str, np.ndarray]) -> float:
    idx = np.nonzero(a["admitted"])[0]
    completion = a["end"][idx] + 1 - instance.arrival[idx]
    return float(np.sum(instance.utility_value(idx, completion)))


def plan_revenue(instance: TenantInstance, plan: xr.Dataset) -> float:
    """Total revenue (3) of a plan, without checking feasibility."""
    return _revenue(instance, _arrays(instance, plan))


def verify_plan(instance: TenantInstance, plan: xr.Dataset) -> float:
    """Check every constraint of problem (3) on ``plan``; return its total revenue (3).

    Checks, in order: shapes; a rejected job holds nothing; (3l) no run before
    arrival, and the run lies inside the horizon; (3e) at most ``D_j`` and at
    least one worker; (3g) at least one PS; (3i) each server hosting PSs of a
    job covers the bandwidth of the job's workers on other servers; (3j) the
    ``centralized`` flag matches the placement; (3k) enough mini-batches at
    the rate (1) of the actual placement; (3c)-(3d) server capacities per
    slot; (3a)-(3b) quota sharing per user and slot; and, when the plan has
    accounting variables, fair-share quotas of jobs not shared, and the
    income division (2) (incomes >= 0, adding up to each paying job's
    ``worker_cost + ps_cost``, 0 for the others).

    Raises
    ------
    InfeasiblePlanError
        Naming the first violated constraint with its indices and amounts.
    """
    a = _arrays(instance, plan)
    adm, start, end, y, z = a["admitted"], a["start"], a["end"], a["workers"], a["parameter_servers"]
    T = instance.num_slots
    holds = (y.sum(axis=1) > 0) | (z.sum(axis=1) > 0) | (start != -1) | (end != -1)
    ghost = ~adm & holds
    if ghost.any():
        j = int(np.argmax(ghost))
        raise InfeasiblePlanError("(3l) idle_if_rejected", f"rejected job {j} holds resources or a run window")
    idx = np.nonzero(adm)[0]
    for j in idx:
        if start[j] < instance.arrival[j]:
            raise InfeasiblePlanError(
                "(3l) start_after_arrival", f"job {j} starts in slot {start[j]} before arrival {instance.arrival[j]}"
            )
        if end[j] < start[j] or end[j] > T - 1:
            raise InfeasiblePlanError(
                "(3m) completion", f"job {j} runs slots {start[j]}..{end[j]}, outside 0..{T - 1}"
            )
    W = y.sum(axis=1)
    over = adm & (W > instance.chunks)
    if over.any():
        j = int(np.argmax(over))
        raise InfeasiblePlanError("(3e) chunks", f"job {j} has {W[j]} workers > D_j = {instance.chunks[j]}")
    none = adm & (W < 1)
    if none.any():
        j = int(np.argmax(none))
        raise InfeasiblePlanError("(3k) minibatches", f"admitted job {j} has no worker")
    no_ps = adm & (z.sum(axis=1) < 1)
    if no_ps.any():
        j = int(np.argmax(no_ps))
        raise InfeasiblePlanError("(3g) one_ps", f"job {j} has no parameter server")
    remote = (W[:, None] - y) * instance.worker_bandwidth
    short = (z > 0) & (remote > z * instance.ps_bandwidth * (1 + RTOL))
    if short.any():
        j, s = np.argwhere(short)[0]
        raise InfeasiblePlanError(
            "(3i) bandwidth",
            f"job {j} server {s}: {W[j] - y[j, s]} remote workers x b_w = {remote[j, s]:g} "
            f"> {z[j, s]} PSs x b_p = {z[j, s] * instance.ps_bandwidth:g}",
        )
    zeta = centralized_of(y, z)
    if "centralized" in plan:
        flag = np.asarray(plan["centralized"].values).astype(bool)
        bad = adm & (flag != zeta)
        if bad.any():
            j = int(np.argmax(bad))
            raise InfeasiblePlanError("(3j) centralized", f"job {j} is flagged {flag[j]} but placed {zeta[j]}")
    work = W * instance.rate(zeta) * (end - start + 1)
    need = instance.total_minibatches()
    short_w = adm & (work < need * (1 - RTOL))
    if short_w.any():
        j = int(np.argmax(short_w))
        raise InfeasiblePlanError(
            "(3k) minibatches", f"job {j} trains {work[j]:g} of {need[j]:g} mini-batches"
        )
    used_w, used_p = _usage(instance, start, end, y, z, adm)
    for used, cap, label in (
        (used_w, instance.workers, "(3c) capacity_workers"),
        (used_p, instance.parameter_servers, "(3d) capacity_ps"),
    ):
        bad = used > cap[:, None]
        if bad.any():
            s, t = np.argwhere(bad)[0]
            raise InfeasiblePlanError(label, f"server {s} slot {t}: {used[s, t]} > capacity {cap[s]}")
    for used, quota, label in (
        (used_w, instance.worker_quota, "(3a) quota_sharing_workers"),
        (used_p, instance.ps_quota, "(3b) quota_sharing_ps"),
    ):
        total = used.sum(axis=0)
        bad = total > quota.sum()
        if bad.any():
            t = int(np.argmax(bad))
            raise InfeasiblePlanError(label, f"slot {t}: {total[t]} in use > all quotas {quota.sum()}")
    _verify_accounting(instance, plan, a)
    return _revenue(instance, a)


def _verify_accounting(instance: TenantInstance, plan: xr.Dataset, a: dict[str, np.ndarray]) -> None:
    adm = a["admitted"]
    if "shared" in plan:
        shared = np.asarray(plan["shared"].values).astype(bool)
        if (shared & ~adm).any():
            j = int(np.argmax(shared & ~adm))
            raise InfeasiblePlanError("shared", f"rejected job {j} is marked shared")
        for u in range(instance.num_users):
            own = adm & ~shared & (instance.owner == u)
            used_w, used_p = _usage(instance, a["start"], a["end"], a["workers"], a["parameter_servers"], own)
            for used, quota, label in (
                (used_w, instance.worker_quota, "fair_share_workers"),
                (used_p, instance.ps_quota, "fair_share_ps"),
            ):
                total = used.sum(axis=0)
                bad = total > quota[u]
                if bad.any():
                    t = int(np.argmax(bad))
                    raise InfeasiblePlanError(
                        label, f"user {u} slot {t}: its own jobs use {total[t]} > quota {quota[u]}"
                    )
    else:
        shared = np.zeros(instance.num_jobs, dtype=bool)
    if "income" in plan:
        income = np.asarray(plan["income"].transpose("user", "job").values, dtype=np.float64)
        if income.shape != (instance.num_users, instance.num_jobs):
            raise InfeasiblePlanError("(2) income", f"has shape {income.shape}")
        if (income < -RTOL).any():
            u, j = np.argwhere(income < -RTOL)[0]
            raise InfeasiblePlanError("(2) income", f"user {u} receives {income[u, j]:g} < 0 from job {j}")
        cost = np.zeros(instance.num_jobs)
        for name in ("worker_cost", "ps_cost"):
            if name in plan:
                cost = cost + np.asarray(plan[name].values, dtype=np.float64)
        paid = np.where(shared, cost, 0.0)
        received = income.sum(axis=0)
        bad = np.abs(received - paid) > RTOL * np.maximum(1.0, np.abs(paid)) * 1e3
        if bad.any():
            j = int(np.argmax(bad))
            raise InfeasiblePlanError(
                "(2) income_division", f"job {j} pays {paid[j]:g} but users receive {received[j]:g}"
            )
