"""Scenarios of the `tenants` family: section 5.1's settings, Philly quotas and arrivals.

:func:`generate` draws a :class:`~aisched.models.tenants.TenantInstance`:

- servers: ``gpus_per_server`` workers (GPUs; Philly machines have 8) and one
  PS each (section 5.1: one CPU per machine); ``ps_per_server`` another count
  or ``"widest_job"`` (docs/readings/tenants.md T12);
- bandwidths: ``b_w ~ U[100, 5120]`` Mbps, ``b_p ~ U[5, 20]`` Gbps, one draw
  per instance, stored in megabits per slot;
- jobs: ``E ~ U{50..100}``, ``D ~ U{20..50}``, ``M ~ U{10..50}``,
  ``m ~ U[0.001, 0.05]`` hours, ``G ~ U[10, 100]`` ms, ``epsilon ~ U[30, 575]`` MB
  (stored in megabits), times converted to slots of ``slot_hours`` hours;
- utility: linear ``k ~ U[-2, -0.1]``, ``g ~ U[100, 1000]``, or convex
  ``e ~ U[100, 1000]``, ``kappa ~ U[1, 2]`` (section 5.1), with completion
  counted in hours from arrival (so the slot length does not change ``f``):
  the instance stores ``k`` per slot (``k * slot_hours``) and ``e`` in slots
  (``e / slot_hours``);
- users, quotas, arrivals (``trace="day"`` or ``"week"``): the Microsoft
  Philly extract found by ``data_file`` (Jeon et al., USENIX ATC 2019; see
  PROVENANCE.md), a window of ``jobs`` consecutive submissions giving the
  arrivals (one slot = ``slot_hours`` hours). Virtual clusters are ranked by
  jobs, cluster ``k`` -> user ``k mod users``. ``window`` picks the window and
  the owners (docs/readings/tenants.md T8; the rule that ran is the instance's
  ``workload``):

  - ``"every_tenant"`` (default): the shortest window (in time) in which
    every user has a job (:func:`~aisched.scenarios.tenants.traces.every_tenant_window`;
    with ``users`` equal to the trace's clusters, every virtual cluster is
    present), owners from the clusters: ``workload="trace-window"``. Where no
    window holds every user (our extracts have 8 and 10 of Philly's 14
    clusters), the documented draw below runs instead;
  - ``"draw"``: the seeded window of ``"consecutive"`` gives arrivals; owners
    are spread over the ``users`` in proportion to their shares of machines
    (:func:`~aisched.scenarios.tenants.traces.spread_owners`), equal shares
    because no readable source gives Philly's machines per virtual cluster,
    and quotas are those shares: ``workload="trace-draw"``;
  - ``"consecutive"``: the earlier rule, a seeded start, owners from
    the clusters: ``workload="trace-consecutive"``.

  Outside the draw, the paper counts quotas from the machines of each virtual
  cluster, which the extract lacks; we make each user's worker and PS quota
  proportional to one base unit plus the GPUs its jobs request in the window
  (largest remainders, so quotas add up to the capacity exactly).
  ``trace=None``: synthetic, uniform arrivals over ``arrival_span`` slots and
  Dirichlet(1) quotas (``workload="synthetic"``).
- slots: ``slot_hours="auto"`` by default, in the API and the CLI alike
  : one hour (section 5.1: "setting one time slot to one
  hour long") above 15 jobs, 48 hours at 15 jobs or fewer, so that a small
  instance's MILP stays small; any number of hours can be given (the paper's
  figures pass one hour, or 48 for the offline settings, explicitly).
- horizon: ``slots`` or, by default (``horizon="finishable"``), ``4 * 2^L``,
  the end of Astraea's batch ``L`` with ``lambda = 2`` (batch ``l`` runs in
  slots ``2^(l+1) .. 2^(l+2) - 1`` in rounds of ``2^l``), with ``L`` the
  least level such that every job has arrived before ``2^L`` and its fastest
  feasible run (:meth:`~aisched.models.tenants.TenantInstance.fastest_run`:
  workers capped by ``D_j`` and by the PS bandwidth rule (3i)) fits a round
  of ``2^L`` slots: every job that can be finished at all is considered by
  some batch. ``horizon="ignore_bandwidth"``: the earlier rule, the
  longest run at ``D_j`` workers at the distributed rate, ignoring (3i).
- what section 5.1 leaves open (:mod:`~aisched.scenarios.tenants.workload_options`,
  declared in :mod:`~aisched.scenarios.tenants.silent`): ``width_from_trace`` (the trace's
  requested GPUs cap a job's workers), ``duration_scale`` (multiplies every run length) and
  ``demand_shares`` (quotas from the users' requested GPUs); the defaults give the workload
  as before these options exactly.
- past window: after every draw above, the generator draws the jobs of the ``jobs`` trace
  submissions before the window (section 5.1's settings, the same cluster) and attaches them to
  the instance (:func:`aisched.online.tenants.theta.attach_past_window`): Astraea estimates
  ``theta`` from them (section 5.2: "estimated based on past experiments").
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Literal

import numpy as np

from aisched.core.parameters import one_of
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.models.tenants import UTILITIES, TenantInstance
from aisched.online.tenants.theta import attach_past_window
from aisched.scenarios.tenants.defaults import (
    DEFAULT_SCENARIO,
    DEFAULT_SLOT_HOURS,
    HORIZONS,
    PAPER_SCENARIO,
    REDUCED_JOBS,
    REDUCED_SLOT_HOURS,
    WINDOWS,
)
from aisched.scenarios.tenants.traces import TRACES, every_tenant_window, load_philly, spread_owners
from aisched.scenarios.tenants.workload_options import (
    check_capacity_options,
    check_options,
    cluster_shares_of,
    demand_weights,
    past_instance,
    past_window,
    ps_count,
    scale_durations,
    trace_widths,
)

__all__ = [
    "generate",
    "DEFAULT_SCENARIO",
    "PAPER_SCENARIO",
    "default_instance",
    "paper_instance",
    "finishable_horizon",
    "HORIZONS",
    "MAX_SIZE",
    "WINDOWS",
]


#: Horizon rules of :func:`generate`.
Horizon = Literal["finishable", "ignore_bandwidth"]
#: Window rules of :func:`generate` (:data:`WINDOWS`).
Window = Literal["every_tenant", "draw", "consecutive"]


def _split(total: int, weights: np.ndarray) -> np.ndarray:
    """Integers proportional to ``weights`` adding up to ``total`` (largest remainders)."""
    raw = total * weights / weights.sum()
    out = np.floor(raw).astype(np.int64)
    rest = total - int(out.sum())
    order = np.argsort(-(raw - out), kind="stable")
    out[order[:rest]] += 1
    return out


def finishable_horizon(instance: TenantInstance, lam: int = 2) -> int:
    """``2 lam 2^L``: the end of Astraea's batch ``L`` (Algorithm 1, ``tau_l = 2^l``).

    ``L >= 1`` is the least level with every arrival ``< 2^L`` (line 4) and
    every job's fastest feasible run (:meth:`TenantInstance.fastest_run`) at
    most ``2^L`` slots, the length of batch ``L``'s rounds (Algorithm 4, line 4).
    """
    level = max(1, int(instance.arrival.max(initial=0)).bit_length())
    if instance.num_jobs:
        level = max(level, (int(instance.fastest_run().max()) - 1).bit_length())
    return 2 * lam * 2**level


#: Size guards of :func:`generate` (paper scale: 14 users, 100 servers, 200 jobs); raise one if you mean it.
MAX_SIZE: dict[str, int] = {"users": 10_000, "servers": 100_000, "jobs": 100_000, "gpus_per_server": 1_024,
                            "arrival_span": 10_000_000, "slots": 10_000_000}


def _check(name: str, value: Any, low: float, integer: bool = True) -> None:
    ok = (isinstance(value, (int, np.integer)) if integer else isinstance(value, (int, float))) \
        and not isinstance(value, (bool, np.bool_))
    if not ok or not math.isfinite(value) or value < low:
        raise InvalidScenarioError(name, f"= {value!r} must be {'an integer' if integer else 'a number'} >= {low}")


def generate(
    seed: int = DEFAULT_SCENARIO["seed"],
    users: int = DEFAULT_SCENARIO["users"],
    servers: int = DEFAULT_SCENARIO["servers"],
    jobs: int = DEFAULT_SCENARIO["jobs"],
    utility: str = DEFAULT_SCENARIO["utility"],
    *,
    trace: str | Path | None = DEFAULT_SCENARIO["trace"],
    slot_hours: float | Literal["auto"] = DEFAULT_SLOT_HOURS,
    gpus_per_server: int = DEFAULT_SCENARIO["gpus_per_server"],
    slots: int | None = None,
    arrival_span: int = 4,
    rng: np.random.Generator | None = None,
    horizon: Horizon = "finishable",
    window: Window = "every_tenant",
    width_from_trace: int = 0,
    duration_scale: float = 1.0,
    demand_shares: float | None = None,
    ps_per_server: int | Literal["widest_job"] = 1,
    cluster_shares: Literal["gpu_time"] | None = None,
) -> TenantInstance:
    """A seeded instance with section 5.1's settings (see the module docstring).

    The defaults are ``aisched compare tenants``'s (:data:`DEFAULT_SCENARIO`: section 5.2's reduced
    setting, 2 users, 5 servers, 8 jobs); section 5.1's sizes are :func:`paper_instance`'s.

    Parameters
    ----------
    seed, rng
        Randomness (``rng`` wins when given).
    users, servers, jobs
        ``U``, ``S`` and the number of jobs (default 2, 5 and 8).
    utility
        ``"linear"`` or ``"convex"``.
    trace
        ``"day"``, ``"week"``, a CSV path, or None for synthetic users and arrivals.
    slot_hours
        Length of a slot in hours, or ``"auto"`` (default, as ``aisched compare
        tenants``): 1 for more than 15 jobs (section 5.1) and 48 for at most 15
        jobs (the reduced setting of section 5.2 with few slots, so the MILP
        stays small; docs/readings/tenants.md T2).
    gpus_per_server
        Workers per server ``C_sw``.
    slots
        Horizon ``T`` (default: set by ``horizon``).
    horizon
        ``"finishable"`` (default): long enough for Astraea (``lambda = 2``)
        to consider every job in a batch whose rounds fit its fastest feasible
        run; ``"ignore_bandwidth"``: the earlier rule (see the module
        docstring).
    arrival_span
        Synthetic arrivals are uniform over ``0..arrival_span-1``.
    window
        How a trace gives the window and the owners: ``"every_tenant"``
        (default), ``"draw"`` or ``"consecutive"`` (the module docstring;
        docs/readings/tenants.md T8). Ignored when ``trace`` is None.
    width_from_trace
        1: a job's workers are capped by the GPUs it requested in the trace too (section 5.1: "the
        number of GPUs requested by jobs is regarded as their demand for workers"), its work
        ``E D M`` kept; 0 (default): by its ``D_j`` chunks alone (the earlier rule).
    duration_scale
        Multiplies ``m_j``, ``G_j`` and ``epsilon_j``, hence every run length (default 1:
        section 5.1's values; docs/readings/tenants.md T-silent).
    demand_shares
        Quotas proportional to ``(1 - a) / U + a * requested GPUs share`` (``a`` this value); None
        (default): the window rule's own (equal for the draw).
    ps_per_server
        ``C_sp``: 1 (default, section 5.1: "we set the number of PSs to 1"), an integer, or
        ``"widest_job"``: the fewest that let the widest job (``max_j D_j``, 50 at section 5.1's ranges)
        meet (3i) at the drawn bandwidths
        (:func:`~aisched.scenarios.tenants.workload_options.ps_count`; docs/readings/tenants.md
        T12). Quotas ``q_p^u`` split the ``S C_sp`` PSs as before.
    cluster_shares
        ``"gpu_time"``: tenants' shares (quotas, and the draw's owners) are their virtual clusters'
        shares of the extract's GPU time; needs ``users`` at most the extract's clusters (8 day, 10
        week). None (default): each window rule's own (T8; docs/readings/tenants.md T14).
    """
    if rng is None:
        _check("seed", seed, 0)
    for name, value, low in (("users", users, 1), ("servers", servers, 1), ("jobs", jobs, 0),
                             ("gpus_per_server", gpus_per_server, 1), ("arrival_span", arrival_span, 1)):
        _check(name, value, low)
    for name, value in (("users", users), ("servers", servers), ("jobs", jobs),
                        ("gpus_per_server", gpus_per_server), ("arrival_span", arrival_span), ("slots", slots)):
        if isinstance(value, (int, np.integer)) and value > MAX_SIZE[name]:  # size guards (types checked above or below)
            raise InvalidScenarioError(name, f"= {value!r} is more than the limit MAX_SIZE[{name!r}] = "
                                       f"{MAX_SIZE[name]} (raise aisched.scenarios.tenants.MAX_SIZE[{name!r}] "
                                       "if you mean it)")
    one_of("horizon", horizon, HORIZONS)
    one_of("window", window, WINDOWS)
    if slot_hours == "auto":
        slot_hours = 1.0 if jobs > REDUCED_JOBS else REDUCED_SLOT_HOURS
    _check("slot_hours", slot_hours, 1e-9, integer=False)
    if slots is not None:
        _check("slots", slots, 1)
    one_of("utility", utility, UTILITIES)
    check_options(width_from_trace, duration_scale, demand_shares, trace is not None)
    check_capacity_options(ps_per_server, cluster_shares, demand_shares, trace is not None)
    rng = np.random.default_rng(seed) if rng is None else rng
    U, S, J, h = int(users), int(servers), int(jobs), float(slot_hours)
    workers = np.full(S, int(gpus_per_server))
    ps = np.ones(S, dtype=np.int64)

    # --- users, arrivals, quotas ------------------------------------------------
    if trace is not None:
        path = data_file(TRACES[trace]) if trace in TRACES else Path(trace)  # says how to get a missing one
        frame = load_philly(path)
        if J > len(frame):
            raise InvalidScenarioError("jobs", f"= {J} exceeds the {len(frame)} jobs of {path.name}")
        first = int(rng.integers(0, len(frame) - J + 1))  # drawn by every rule: one stream for all three
        rank = {c: k for k, c in enumerate(frame["cluster"].value_counts().index)}
        user_of_job = np.array([rank[c] % U for c in frame["cluster"]], dtype=np.int64)
        rule = "trace-consecutive" if window == "consecutive" else "trace-draw"
        if window == "every_tenant":
            seconds = (frame["timestamp"] - frame["timestamp"].iloc[0]).dt.total_seconds().to_numpy()
            best = every_tenant_window(user_of_job, seconds, J, U)
            if best is not None:
                first, rule = best, "trace-window"
        chosen = frame.iloc[first : first + J]
        requested = chosen["num_gpus"].to_numpy(np.int64)
        past_requested = frame["num_gpus"].to_numpy(np.int64)[past_window(frame, first, J)]
        owner = user_of_job[first : first + J]
        if J:
            hours = (chosen["timestamp"] - chosen["timestamp"].iloc[0]).dt.total_seconds().to_numpy() / 3600.0
        else:  # no jobs: an empty window (valid; every algorithm returns an empty plan)
            hours = np.zeros(0)
        arrival = np.floor(hours / h + 1e-9).astype(np.int64)
        if rule == "trace-draw":  # owners drawn after the jobs' settings below; quotas: the machine shares
            weights = np.full(U, 1.0 / U)
        else:
            demand = np.bincount(owner, weights=chosen["num_gpus"].to_numpy(float), minlength=U)
            weights = 1.0 + demand / max(1.0, demand.sum()) * U
        if cluster_shares is not None:  # the virtual clusters' shares: quotas, and the draw's owners below
            weights = cluster_shares_of(frame, U)
    else:
        rule = "synthetic"
        requested, past_requested = np.ones(J, dtype=np.int64), None
        owner = rng.integers(0, U, size=J)
        arrival = np.sort(rng.integers(0, int(arrival_span), size=J))
        weights = rng.dirichlet(np.ones(U)) + 1e-9
    worker_quota = _split(int(workers.sum()), weights)
    ps_quota = _split(int(ps.sum()), weights)

    # --- section 5.1's job and network settings ----------------------------------
    b_w = rng.uniform(100.0, 5120.0) * 3600.0 * h  # Mb per slot
    b_p = rng.uniform(5.0, 20.0) * 1024.0 * 3600.0 * h
    epochs = rng.integers(50, 101, size=J)
    chunks = rng.integers(20, 51, size=J)
    minibatches = rng.integers(10, 51, size=J)
    compute_time = rng.uniform(0.001, 0.05, size=J) / h
    update_time = rng.uniform(10.0, 100.0, size=J) / 1000.0 / 3600.0 / h
    gradient_size = rng.uniform(30.0, 575.0, size=J) * 8.0
    if utility == "linear":
        extra = {"utility_slope": rng.uniform(-2.0, -0.1, size=J) * h,
                 "utility_intercept": rng.uniform(100.0, 1000.0, size=J)}
    else:
        extra = {"utility_scale": rng.uniform(100.0, 1000.0, size=J) / h,
                 "utility_exponent": rng.uniform(1.0, 2.0, size=J)}

    if rule == "trace-draw":  # last, so the jobs' settings are those of the other rules at this seed
        owner = spread_owners(J, weights, rng)
    compute_time, update_time, gradient_size = scale_durations(duration_scale, compute_time, update_time,
                                                               gradient_size)
    if width_from_trace:
        chunks, minibatches = trace_widths(chunks, minibatches, requested)
    if ps_per_server != 1:  # after every draw it reads (no draw of its own): the stream is the default's
        widest = int(chunks.max(initial=1))
        ps = np.full(S, ps_count(ps_per_server, int(gpus_per_server), widest, b_w, b_p), dtype=np.int64)
        ps_quota = _split(int(ps.sum()), weights)
    if demand_shares is not None:
        weights = demand_weights(owner, requested, U, float(demand_shares))
        worker_quota = _split(int(workers.sum()), weights)
        ps_quota = _split(int(ps.sum()), weights)

    probe = TenantInstance(
        num_slots=int(arrival.max(initial=0)) + 1, worker_quota=worker_quota, ps_quota=ps_quota,
        workers=workers, parameter_servers=ps, worker_bandwidth=b_w, ps_bandwidth=b_p, owner=owner,
        arrival=arrival, epochs=epochs, chunks=chunks, minibatches=minibatches,
        compute_time=compute_time, update_time=update_time, gradient_size=gradient_size,
        utility=utility, workload=rule, **extra,
    )
    if slots is None and horizon == "ignore_bandwidth":
        need = int(arrival.max(initial=0)) + 1
        if J:
            w = np.minimum(chunks, workers.sum())
            need = max(need, int(probe.duration(w, False).max()))
        level = max(1, (need - 1).bit_length())
        slots = 4 * 2**level
    elif slots is None:
        slots = finishable_horizon(probe)
    if int(arrival.max(initial=0)) >= slots:
        raise InvalidScenarioError("slots", f"= {slots} ends before the last arrival {int(arrival.max())}")
    instance = probe.replace(num_slots=int(slots))
    # the past window last: no draw of the scheduled instance depends on it
    past = past_instance(instance, rng, past_requested, h, float(duration_scale), int(width_from_trace))
    return attach_past_window(instance, past)


def default_instance() -> TenantInstance:
    """``generate(**DEFAULT_SCENARIO)``: the small scenario of ``aisched compare tenants`` and of ``generate()``."""
    return generate(**DEFAULT_SCENARIO)


def paper_instance(seed: int = 0) -> TenantInstance:
    """Section 5.1's setting with 200 jobs: ``generate(seed, **PAPER_SCENARIO)``.

    14 tenants of the Philly day extract, 100 servers of 8 GPUs and one PS, 200 jobs, one-hour slots:
    the base point of the paper's figures (``tenants/fig4a-jobs-linear`` and the others).

    Parameters
    ----------
    seed
        Seed of the draw (>= 0).
    """
    return generate(seed=seed, **PAPER_SCENARIO)
