"""Tiny `tenants` instances and a brute-force optimum of problem (3), the tests' oracle.

Brute force: for each job, enumerate every allocation (workers and PSs per
server, at least one of each, at most ``D_j`` workers, bandwidth rule (3i)),
its placement kind (3j) and rate (1), the fewest slots meeting (3k), and
every start from arrival on that ends inside the horizon. Longer runs are
never better (the utility falls with completion time and capacity use only
grows). Then try every combination job by job with the capacity checks
(3c)-(3d), keeping the best total revenue (3). Options of utility <= 0 are
skipped: leaving the job out is always at least as good.
"""

from __future__ import annotations

import itertools

import numpy as np

from aisched.models.tenants import TenantInstance


def worked_example(num_slots: int = 32) -> TenantInstance:
    """The example of sections 4.2-4.4: 2 users, 4 servers (2 workers, 1 PS), 4 jobs.

    Jobs in the order the paper processes them: j11, j21, j12, j22 (owners
    0, 1, 0, 1). ``n = 1`` centralised and 0.5 distributed: ``m + G = 1`` and
    ``2 epsilon / b_w = 1``; ``r = 3``, ``E = 2``, ``M = 1``,
    ``f = -2 (t+ - r) + 100``, ``b_w = b_p = 1``; ``D = 2, 2, 3, 30``.
    """
    return TenantInstance(
        num_slots=num_slots, worker_quota=[4, 4], ps_quota=[2, 2], workers=[2, 2, 2, 2],
        parameter_servers=[1, 1, 1, 1], worker_bandwidth=1.0, ps_bandwidth=1.0,
        owner=[0, 1, 0, 1], arrival=[3, 3, 3, 3], epochs=[2] * 4, chunks=[2, 2, 3, 30],
        minibatches=[1] * 4, compute_time=[0.5] * 4, update_time=[0.5] * 4, gradient_size=[0.5] * 4,
        utility="linear", utility_slope=[-2.0] * 4, utility_intercept=[100.0] * 4,
    )


def random_tiny(seed: int, *, jobs: int = 3, servers: int = 2, slots: int = 5, utility: str = "linear") -> TenantInstance:
    """A random tiny instance (2 users) the brute force can solve."""
    rng = np.random.default_rng(seed)
    workers = rng.integers(1, 3, size=servers)
    ps = np.ones(servers, dtype=np.int64)
    split_w = int(rng.integers(0, workers.sum() + 1))
    split_p = int(rng.integers(0, ps.sum() + 1))
    J = jobs
    kw = {}
    if utility == "linear":
        kw = {"utility_slope": -rng.uniform(0.5, 3.0, J), "utility_intercept": rng.uniform(5.0, 20.0, J)}
    else:
        kw = {"utility_scale": rng.uniform(2.0, 10.0, J), "utility_exponent": rng.uniform(1.0, 2.0, J)}
    return TenantInstance(
        num_slots=slots,
        worker_quota=[split_w, int(workers.sum()) - split_w],
        ps_quota=[split_p, int(ps.sum()) - split_p],
        workers=workers, parameter_servers=ps,
        worker_bandwidth=1.0, ps_bandwidth=float(rng.choice([1.0, 2.0])),
        owner=rng.integers(0, 2, size=J), arrival=rng.integers(0, 2, size=J),
        epochs=rng.integers(1, 3, size=J), chunks=rng.integers(1, 4, size=J),
        minibatches=rng.integers(1, 3, size=J),
        compute_time=rng.choice([0.5, 1.0], size=J), update_time=np.zeros(J),
        gradient_size=rng.choice([0.0, 0.5, 1.0], size=J), utility=utility, **kw,
    )


def job_options(inst: TenantInstance, j: int) -> list[tuple[float, int, int, np.ndarray, np.ndarray]]:
    """Every minimal-length schedule ``(utility, start, end, y, z)`` of job ``j`` with utility > 0."""
    out = []
    S, T = inst.num_servers, inst.num_slots
    ranges_w = [range(int(c) + 1) for c in inst.workers]
    ranges_p = [range(int(c) + 1) for c in inst.parameter_servers]
    for y in itertools.product(*ranges_w):
        y = np.array(y)
        W = int(y.sum())
        if W < 1 or W > inst.chunks[j]:
            continue
        for z in itertools.product(*ranges_p):
            z = np.array(z)
            if z.sum() < 1:
                continue
            if any(z[s] > 0 and (W - y[s]) * inst.worker_bandwidth > z[s] * inst.ps_bandwidth + 1e-12 for s in range(S)):
                continue
            cen = int(((y > 0) | (z > 0)).sum()) == 1
            d = int(inst.duration(W, cen, j))
            for t0 in range(int(inst.arrival[j]), T - d + 1):
                f = float(inst.utility_value(j, t0 + d - inst.arrival[j]))
                if f > 0:
                    out.append((f, t0, t0 + d - 1, y, z))
    return out


def brute_force(inst: TenantInstance) -> float:
    """The optimum of problem (3) by enumeration (0 when nothing can be trained)."""
    S, T = inst.num_servers, inst.num_slots
    opts = [job_options(inst, j) for j in range(inst.num_jobs)]
    best = 0.0

    def rec(j: int, used_w: np.ndarray, used_p: np.ndarray, value: float) -> None:
        nonlocal best
        if j == inst.num_jobs:
            best = max(best, value)
            return
        rec(j + 1, used_w, used_p, value)
        for f, t0, t1, y, z in opts[j]:
            uw, up = used_w.copy(), used_p.copy()
            uw[:, t0 : t1 + 1] += y[:, None]
            up[:, t0 : t1 + 1] += z[:, None]
            if (uw <= inst.workers[:, None]).all() and (up <= inst.parameter_servers[:, None]).all():
                rec(j + 1, uw, up, value + f)

    rec(0, np.zeros((S, T), dtype=np.int64), np.zeros((S, T), dtype=np.int64), 0.0)
    return best
