"""Baselines of section 5.1 for the `tenants` family: BatchSche, Gandiva_fair, HiveD (emulations).

The paper describes the baselines in one sentence each; these emulations
keep the trait it names and run in our model (no preemption or migration, a
job's workers and PSs fixed while it runs, the bandwidth rule (3i)). Rules
common to the greedy emulations (Gandiva_fair, HiveD): a job is started as
soon as its placement fits (events: releases (``release``) and job ends; capacity never
falls later, as every running job started before) and it ends inside the
horizon (the model's (3f): a job runs to completion within ``T``); no payments.
Admission (``admission``, docs/readings/tenants.md T3): section 5.1 and the
baselines' own papers describe no utility test, so by default (``"none"``) a
job is started whatever it will earn, and a job that finishes late earns what
(3) says, a loss included. ``admission="utility"`` keeps the rule before issue
27: start a job only if its utility at completion is positive (utility-aware
admission the described schedulers do not have).

- ``batchsche`` (Zhang et al. [30], :func:`run_batchsche`): "no notion of users
  and sharing ... We perform this algorithm for each user to schedule its
  jobs in its private cluster". [30] is the batch algorithm Astraea adapts
  (section 1: "we adopt the batch processing techniques in [29], [30]"), so
  each user runs Algorithms 1-5 alone (one user: line 5 never has anything
  to share) on its private cluster (:func:`private_clusters`), with prices
  (8) over that cluster. ``cluster="quota"`` keeps the earlier
  emulation: Astraea on the shared cluster with line 5 switched off.
- ``gandiva_fair`` (Chaudhary et al. [14], :func:`run_gandiva_fair`): fair GPU
  shares with trading, no compensation, placement-unaware. Pending jobs are
  served in order of their owner's current worker use over its quota
  (lowest first; then arrival, index; ``share="tickets"``: Gandiva_fair's
  own stride scheduling over tickets, :mod:`~aisched.online.tenants.gandiva_fair`);
  a job takes as many workers as are
  free, up to ``D_j``, anywhere (work-conserving: users use others' idle
  GPUs for free); the PS goes to the first server with a free PS and workers
  fill servers first-fit in index order, without regard to locality; when
  the PS server cannot cover the remote workers' bandwidth (3i), workers are
  dropped from the last server filled.
- ``hived`` (Zhao et al. [25], :func:`run_hived`): virtual private clusters
  bound to users. A user's jobs use at most its quota of workers and PSs at
  any time (its VC, bound dynamically to physical servers; ``cells="buddy"``:
  HiveD's own cells and buddy cell allocation, :mod:`~aisched.online.tenants.hived`); jobs are packed
  for affinity into the fewest servers: the single server with the fewest
  free workers that fits the job centralised, else the server with the most
  free workers hosts the PSs and the rest fill servers with the most free
  workers first; the placement finishing first is taken. FIFO with
  backfilling inside each VC. HiveD's opportunistic low-priority jobs on
  other VCs' idle GPUs are left out: they rely on preemption, which the
  model (3f)-(3h) forbids.

Timing (``release``, Gandiva_fair and HiveD). The paper does not say when its
simulator lets the baselines start a job; both are real-time schedulers in
their own papers, and section 1 says such fair schedulers "achieve fairness by
real-time resource reallocation". Default ``release="arrival"``: a job may
start at ``r_j``. ``release="batch"``: at the start ``lambda 2^l`` of the
Astraea batch that collects it (:func:`release_times`), the same wait as
Astraea and BatchSche, for a comparison of placement and sharing alone.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Iterator
from typing import Any, Literal, Protocol

import numpy as np

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance, make_plan
from aisched.online.tenants.astraea.algorithm import Admission, Clock, make_params, outcome_of, simulate
from aisched.online.tenants.gandiva_fair import StrideTickets
from aisched.online.tenants.hived import HivedCells
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["GREEDY_ADMISSIONS", "GreedyPolicy", "run_batchsche", "run_gandiva_fair", "run_hived", "greedy", "release_times",
           "private_clusters"]

Placement = tuple[np.ndarray, np.ndarray]
Release = Literal["arrival", "batch"]
Placer = Callable[[TenantInstance, int, np.ndarray, np.ndarray, int, int], "list[Placement]"]
GreedyAdmission = Literal["none", "utility"]
GREEDY_ADMISSIONS: tuple[str, ...] = ("none", "utility")


Cluster = Literal["private", "quota"]


class GreedyPolicy(Protocol):
    """A paper's own ordering and placement plugged into :func:`greedy` (its ``policy``).

    ``released(t, new, pending)`` is called at every event once the jobs
    released at ``t`` (``new``) joined ``pending``; ``order(pending)`` yields
    the pending jobs to try, best first, and may look at the state again
    after each start; ``place`` is a :data:`Placer`; ``started`` and
    ``ended`` follow the jobs the loop starts and ends.
    """

    def released(self, t: int, new: list[int], pending: list[int]) -> None: ...

    def order(self, pending: list[int]) -> Iterator[int]: ...

    def place(self, instance: TenantInstance, j: int, free_w: np.ndarray, free_p: np.ndarray, room_w: int,
              room_p: int) -> list[Placement]: ...

    def started(self, j: int, t: int, d: int, y: np.ndarray, z: np.ndarray) -> None: ...

    def ended(self, j: int) -> None: ...


def private_clusters(instance: TenantInstance) -> tuple[np.ndarray, np.ndarray]:
    """(user, server) workers and PSs of each user's private cluster.

    The servers' workers (PSs) are handed out in server order to user 0 until
    its quota ``q^u_w`` (``q^u_p``) is filled, then to user 1, ...: each user
    owns exactly its quota and a server is split only at a quota boundary.
    (The paper counts quotas from the Philly machines of each virtual
    cluster, which our extract lacks; this is our construction.)
    """
    out = []
    for quota, cap in ((instance.worker_quota, instance.workers), (instance.ps_quota, instance.parameter_servers)):
        mine = np.zeros((instance.num_users, instance.num_servers), dtype=np.int64)
        left = cap.astype(np.int64).copy()
        s = 0
        for u in range(instance.num_users):
            need = int(quota[u])
            while need > 0:  # quotas add up to the capacity (section 3.1), so s stays in range
                take = min(int(left[s]), need)
                mine[u, s] += take
                left[s] -= take
                need -= take
                if left[s] == 0:
                    s += 1
        out.append(mine)
    return out[0], out[1]


def _batchsche_private(
    instance: TenantInstance, lam: int | str, theta_w: float | None, theta_p: float | None, clock: Clock,
    admission: Admission,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Run Algorithms 1-5 for each user alone on its private cluster; results on the full cluster."""
    J, S = instance.num_jobs, instance.num_servers
    cap_w, cap_p = private_clusters(instance)
    out = {"start": np.full(J, -1), "end": np.full(J, -1), "y": np.zeros((J, S), np.int64),
           "z": np.zeros((J, S), np.int64), "admitted": np.zeros(J, bool), "mu": np.full(J, np.nan),
           "batch": np.full(J, -1), "decision_s": np.zeros(J), "worker_cost": np.zeros(J),
           "ps_cost": np.zeros(J)}
    lams: dict[int, int] = {}
    for u in range(instance.num_users):
        jobs = np.nonzero(instance.owner == u)[0]
        servers = np.nonzero((cap_w[u] > 0) | (cap_p[u] > 0))[0]
        if jobs.size == 0 or cap_w[u].sum() < 1 or cap_p[u].sum() < 1:
            continue  # no job, or no worker / PS of its own: nothing can run
        sub = instance.replace(
            worker_quota=[int(cap_w[u].sum())], ps_quota=[int(cap_p[u].sum())],
            workers=cap_w[u, servers], parameter_servers=cap_p[u, servers], owner=np.zeros(jobs.size, int),
            **{name: getattr(instance, name)[jobs] for name in _JOB_FIELDS},
        )
        params = make_params(sub, lam, theta_w, theta_p, clock, False, admission=admission)
        lams[u] = params.lam
        res, _ = simulate(sub, params)
        for key, value in (("start", res.start), ("end", res.end), ("admitted", res.admitted), ("mu", res.mu),
                           ("batch", res.batch), ("decision_s", res.decision_s),
                           ("worker_cost", res.worker_cost), ("ps_cost", res.ps_cost)):
            out[key][jobs] = value
        out["y"][np.ix_(jobs, servers)] = res.y
        out["z"][np.ix_(jobs, servers)] = res.z
    return out, {"lam_per_user": lams}


_JOB_FIELDS = ("arrival", "epochs", "chunks", "minibatches", "compute_time", "update_time", "gradient_size",
               "utility_slope", "utility_intercept", "utility_scale", "utility_exponent")


@register("tenants", "batchsche")
def run_batchsche(
    instance: TenantInstance,
    *,
    lam: int | str = 2,
    theta_w: float | None = None,
    theta_p: float | None = None,
    clock: Clock = "batch",
    admission: Admission = "real_revenue",
    cluster: Cluster = "private",
) -> Outcome:
    """BatchSche emulation: the batch algorithm run for each user on its own cluster (no sharing).

    Parameters
    ----------
    cluster
        ``"private"`` (default, section 5.1: "we perform this algorithm for
        each user to schedule its jobs in its private cluster"): each user
        runs Algorithms 1-5 alone on the servers of :func:`private_clusters`,
        with its own prices (8) over its own capacity (``theta`` by
        :func:`~aisched.online.tenants.astraea.default_thetas` of that
        cluster unless given). ``"quota"`` (the earlier emulation): Astraea on the
        shared cluster with line 5 of Algorithm 2 (sharing) switched off,
        each user confined to its quota in aggregate on any server.
    lam, theta_w, theta_p, clock, admission
        As in :func:`aisched.online.tenants.astraea.run`.
    """
    started = time.perf_counter()
    one_of("cluster", cluster, Cluster)
    if cluster == "quota":
        params = make_params(instance, lam, theta_w, theta_p, clock, False, admission=admission)
        res, info = simulate(instance, params)
        out = outcome_of(instance, res, params, "batchsche", started, info)
        out.info["cluster"] = "quota"
        return out
    r, info = _batchsche_private(instance, lam, theta_w, theta_p, clock, admission)
    plan = make_plan(instance, r["start"], r["end"], r["y"], r["z"], r["admitted"],
                     shared=np.zeros(instance.num_jobs, bool), worker_cost=r["worker_cost"], ps_cost=r["ps_cost"],
                     income=np.zeros((instance.num_users, instance.num_jobs)))
    plan["mu"] = ("job", r["mu"])
    plan["batch"] = ("job", r["batch"].astype(np.int32))
    revenue = float(instance.verify_plan(plan))
    return Outcome(
        algorithm="batchsche", family="tenants", objective=revenue, plan=plan, admitted=r["admitted"].copy(),
        payments=np.zeros(instance.num_jobs), runtime_s=time.perf_counter() - started,
        decision_s=r["decision_s"].copy(),
        info={"cluster": "private", "clock": clock, "admission": admission, **info},
    )


def release_times(instance: TenantInstance, release: Release, lam: int = 2) -> np.ndarray:
    """(job,) first slot a baseline may start each job.

    ``"arrival"``: ``r_j``. ``"batch"``: ``lam * 2^l`` with ``l >= 1`` the
    Astraea batch collecting ``j`` (``2^(l-1) <= r_j < 2^l``, Algorithm 1 line
    4), capped at ``T`` (never schedulable then).
    """
    one_of("release", release, Release)
    if isinstance(lam, bool) or not isinstance(lam, (int, np.integer)) or lam < 1:
        raise InvalidScenarioError("lam", f"= {lam!r} must be an integer >= 1")
    if release == "arrival":
        return instance.arrival.astype(np.int64)
    level = np.array([max(1, int(r).bit_length()) for r in instance.arrival], dtype=np.int64)
    return np.minimum(int(lam) * 2**level, instance.num_slots)


def _ps_cover(instance: TenantInstance, remote: int) -> int:
    """PSs one server needs for ``remote`` workers elsewhere by (3i) (at least 1)."""
    ratio = instance.worker_bandwidth / instance.ps_bandwidth
    return max(1, math.ceil(remote * ratio - 1e-9))


def _gandiva_place(
    instance: TenantInstance, j: int, free_w: np.ndarray, free_p: np.ndarray, room_w: int, room_p: int
) -> list[Placement]:
    S = instance.num_servers
    hosts = np.nonzero(free_p > 0)[0]
    if hosts.size == 0 or room_p < 1:
        return []
    host = int(hosts[0])
    want = min(int(instance.chunks[j]), int(free_w.sum()), room_w)
    y = np.zeros(S, dtype=np.int64)
    order: list[int] = []
    for s in range(S):  # first fit in index order
        if want == 0:
            break
        take = min(int(free_w[s]), want)
        if take:
            y[s] = take
            want -= take
            order.append(s)
    while y.sum() > 0:
        remote = int(y.sum() - y[host])
        need = _ps_cover(instance, remote) if remote else 1
        if need <= min(int(free_p[host]), room_p):
            z = np.zeros(S, dtype=np.int64)
            z[host] = need
            return [(y, z)]
        last = next(s for s in reversed(order) if y[s] > 0 and s != host) if remote else host
        y[last] -= 1
    return []


def _hived_place(
    instance: TenantInstance, j: int, free_w: np.ndarray, free_p: np.ndarray, room_w: int, room_p: int
) -> list[Placement]:
    S = instance.num_servers
    out: list[Placement] = []
    want = min(int(instance.chunks[j]), room_w)
    if want < 1 or room_p < 1:
        return out
    hosts = np.nonzero(free_p > 0)[0]
    if hosts.size == 0:
        return out
    # centralised: best fit on one server, as many workers as fit there
    cen_w = min(want, int(free_w[hosts].max()))
    if cen_w >= 1:
        fits = hosts[free_w[hosts] >= cen_w]
        s = int(fits[np.argmin(free_w[fits])])
        y, z = np.zeros(S, dtype=np.int64), np.zeros(S, dtype=np.int64)
        y[s], z[s] = cen_w, 1
        out.append((y, z))
    # distributed, packed: PS on the server with most free workers, then fullest-first
    host = int(hosts[np.argmax(free_w[hosts])])
    y = np.zeros(S, dtype=np.int64)
    y[host] = min(int(free_w[host]), want)
    rest = want - int(y[host])
    for s in np.argsort(-free_w, kind="stable").tolist():
        if rest == 0:
            break
        if s == host:
            continue
        take = min(int(free_w[s]), rest)
        y[s] += take
        rest -= take
    cap_ps = min(int(free_p[host]), room_p)
    while y.sum() > y[host]:
        if _ps_cover(instance, int(y.sum() - y[host])) <= cap_ps:
            break
        s = int(np.nonzero(y * (np.arange(S) != host))[0][-1])
        y[s] -= 1
    if y.sum() > y[host] and y.sum() > 0:
        z = np.zeros(S, dtype=np.int64)
        z[host] = _ps_cover(instance, int(y.sum() - y[host]))
        out.append((y, z))
    return out


def greedy(
    instance: TenantInstance,
    name: str,
    place: Placer,
    *,
    within_quota: bool,
    fair_order: bool,
    release: Release = "arrival",
    lam: int = 2,
    admission: GreedyAdmission = "none",
    policy: GreedyPolicy | None = None,
) -> Outcome:
    """Event-driven non-preemptive greedy scheduler shared by the Gandiva_fair and HiveD emulations.

    Parameters
    ----------
    place
        ``place(instance, job, free_w, free_p, room_w, room_p)``: candidate
        ``(workers, ps)`` placements given free capacity per server and the
        room the sharing rule leaves the job's owner.
    within_quota
        Confine each user to its quota (HiveD's VCs); otherwise the whole cluster.
    fair_order
        Serve pending jobs by owner usage / quota (Gandiva_fair); otherwise FIFO.
    release
        When a job becomes schedulable: ``"arrival"`` (at ``r_j``, the
        baselines' own real-time design) or ``"batch"`` (at the start
        ``lam * 2^l`` of the Astraea batch ``l`` that collects it, Algorithm 1
        line 4: the same waiting as Astraea). Utility still counts from ``r_j``.
    lam
        ``lambda`` of the batches for ``release="batch"``.
    admission
        ``"none"`` (default, the described schedulers): start a job whose
        placement fits and that ends within the horizon, whatever its utility;
        ``"utility"``: only if its utility ``f_j`` at completion is positive (the
        earlier rule, kept as an alternative reading).
    policy
        ``None`` (the default emulations, unchanged): order by ``fair_order``
        and place with ``place``. A :class:`GreedyPolicy` (the papers' own
        mechanisms, :mod:`~aisched.online.tenants.hived` and
        :mod:`~aisched.online.tenants.gandiva_fair`) replaces both: the next
        pending job is the one with the least ``policy.key`` (asked again after
        every start), ``policy.place`` gives its candidates, and
        ``policy.started`` / ``policy.ended`` follow each job.

    Raises
    ------
    InvalidScenarioError
        ``admission`` not one of the names above, before any work (``release``,
        ``lam``: :func:`release_times`).
    """
    one_of("admission", admission, GREEDY_ADMISSIONS)
    utility_test = admission == "utility"
    if policy is not None:
        place = policy.place
    started = time.perf_counter()
    J, S, T = instance.num_jobs, instance.num_servers, instance.num_slots
    free_w = instance.workers.astype(np.int64).copy()
    free_p = instance.parameter_servers.astype(np.int64).copy()
    user_w = np.zeros(instance.num_users, dtype=np.int64)
    user_p = np.zeros(instance.num_users, dtype=np.int64)
    start, end = np.full(J, -1), np.full(J, -1)
    ys, zs = np.zeros((J, S), np.int64), np.zeros((J, S), np.int64)
    admitted = np.zeros(J, bool)
    decision_s = np.zeros(J)
    ends: list[tuple[int, int]] = []  # (end slot + 1, job)
    ready = release_times(instance, release, lam)
    events = sorted(set(ready.tolist()))
    pending: list[int] = []
    t_idx = 0
    while t_idx < len(events) or ends:
        t = min(events[t_idx] if t_idx < len(events) else T, ends[0][0] if ends else T)
        if t >= T:
            break
        while ends and ends[0][0] <= t:
            _, k = heapq.heappop(ends)
            u = int(instance.owner[k])
            if policy is not None:
                policy.ended(k)
            free_w += ys[k]
            free_p += zs[k]
            user_w[u] -= int(ys[k].sum())
            user_p[u] -= int(zs[k].sum())
        while t_idx < len(events) and events[t_idx] <= t:
            t_idx += 1
        pending = sorted(set(pending) | set(np.nonzero(ready == t)[0].tolist()))
        quota = np.maximum(instance.worker_quota, 1)
        key = (lambda j: (user_w[instance.owner[j]] / quota[instance.owner[j]], int(instance.arrival[j]), j)) \
            if fair_order else (lambda j: (int(instance.arrival[j]), j))
        if policy is not None:
            policy.released(t, [k for k in pending if ready[k] == t], pending)
        for j in sorted(pending, key=key) if policy is None else policy.order(pending):
            tic = time.perf_counter()
            u = int(instance.owner[j])
            room_w = int(instance.worker_quota[u] - user_w[u]) if within_quota else int(free_w.sum())
            room_p = int(instance.ps_quota[u] - user_p[u]) if within_quota else int(free_p.sum())
            best = None
            for y, z in place(instance, j, free_w, free_p, room_w, room_p):
                cen = bool(((y > 0) | (z > 0)).sum() == 1)
                d = int(instance.duration(int(y.sum()), cen, j))
                earns = not utility_test or float(instance.utility_value(j, t + d - int(instance.arrival[j]))) > 0
                if t + d <= T and earns and (best is None or d < best[0]):
                    best = (d, y, z)
            if best is not None:
                d, y, z = best
                admitted[j], start[j], end[j], ys[j], zs[j] = True, t, t + d - 1, y, z
                free_w -= y
                free_p -= z
                user_w[u] += int(y.sum())
                user_p[u] += int(z.sum())
                heapq.heappush(ends, (t + d, j))
                pending.remove(j)
                if policy is not None:
                    policy.started(j, t, d, y, z)
            decision_s[j] += time.perf_counter() - tic
    plan = make_plan(instance, start, end, ys, zs, admitted)
    revenue = float(instance.verify_plan(plan))
    return Outcome(
        algorithm=name, family="tenants", objective=revenue, plan=plan, admitted=admitted,
        payments=np.zeros(J), runtime_s=time.perf_counter() - started, decision_s=decision_s,
        info={"release": release, "admission": admission, **({"lam": lam} if release == "batch" else {})},
    )


Share = Literal["usage", "tickets"]
Cells = Literal["quota", "buddy"]


@register("tenants", "gandiva_fair")
def run_gandiva_fair(instance: TenantInstance, *, release: Release = "arrival", lam: int = 2,
                     admission: GreedyAdmission = "none", share: Share = "usage") -> Outcome:
    """Gandiva_fair emulation (see the module docstring).

    Parameters
    ----------
    release, admission, lam
        See :func:`greedy`.
    share
        Which user goes first. ``"usage"`` (default, T3's emulation): the owner
        with the least workers in use now over its quota. ``"tickets"``: Gandiva_fair's own
        ticket-based stride scheduling (Chaudhary et al. [14]: "allocates cluster-wide GPU time
        fairly among active users"): the least *pass*, GPU time granted over tickets (the
        quota), charged when a job starts, a (re)joining user taking the least active pass
        (:class:`~aisched.online.tenants.gandiva_fair.StrideTickets`, docs/readings/tenants.md
        T13). Placement (first fit) and work conservation are the default's in both; trading
        between GPU generations has nothing to act on in section 5.1's one-kind cluster.

    Raises
    ------
    InvalidScenarioError
        ``share`` not one of the names above (field ``share``), before any work.
    """
    one_of("share", share, Share)
    policy = StrideTickets(instance, _gandiva_place) if share == "tickets" else None
    out = greedy(instance, "gandiva_fair", _gandiva_place, within_quota=False, fair_order=True,
                 release=release, lam=lam, admission=admission, policy=policy)
    if policy is not None:
        out.info["share"] = share
    return out


@register("tenants", "hived")
def run_hived(instance: TenantInstance, *, release: Release = "arrival", lam: int = 2,
              admission: GreedyAdmission = "none", cells: Cells = "quota") -> Outcome:
    """HiveD emulation (see the module docstring).

    Parameters
    ----------
    release, admission, lam
        See :func:`greedy`.
    cells
        What a tenant's virtual private cluster (VC) reserves. ``"quota"`` (default): a count,
        at most ``q^u_w`` workers and ``q^u_p`` PSs in use, on any free GPUs of the cluster.
        ``"buddy"``: HiveD's own cells (Zhao et al. [25]: "each tenant reserves resources
        through a Virtual Private Cluster (VC), defined in terms of multi-level cell
        structures", bound to physical cells by "buddy cell allocation"): the quota as node
        cells plus power-of-two sub-node cells, bound when first used and released when empty,
        a job placed only on its VC's cells
        (:class:`~aisched.online.tenants.hived.HivedCells`, docs/readings/tenants.md
        T13). FIFO order and affinity packing are the default's in both.

    Raises
    ------
    InvalidScenarioError
        ``cells`` not one of the names above (field ``cells``), or ``"buddy"`` on servers
        that do not all hold the same power-of-two number of workers, before any work.
    """
    one_of("cells", cells, Cells)
    policy = HivedCells(instance, _hived_place) if cells == "buddy" else None
    out = greedy(instance, "hived", _hived_place, within_quota=True, fair_order=False,
                 release=release, lam=lam, admission=admission, policy=policy)
    if policy is not None:
        out.info["cells"] = cells
    return out
