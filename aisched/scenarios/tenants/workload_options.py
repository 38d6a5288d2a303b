"""What section 5.1 leaves open about the `tenants` workload, as options of the generator.

:func:`~aisched.scenarios.tenants.generator.generate` reads three workload values the paper
does not pin down, and draws a **past window** for Astraea's estimate of ``theta`` (section 4.4).
Each option's default reproduces the workload from before these options exactly;
:mod:`~aisched.scenarios.tenants.silent` declares them with the paper's words and ranges.

- **Job width** (:func:`trace_widths`). Section 5.1: "the number of GPUs requested by jobs is
  regarded as their demand for workers", while ``D_j in [20, 50]`` data chunks cap the workers by
  (3e). ``width_from_trace=1``: the cap becomes ``min(D_j, requested GPUs)`` and the job keeps
  section 5.1's work ``E_j D_j M_j`` (mini-batches per chunk rescaled); ``0`` (default): the cap is
  ``D_j`` alone (and the PS bandwidth rule (3i)), as before.
- **Duration scale** (:func:`scale_durations`). Section 5.1 gives ``m_j in [0.001, 0.05]`` hour,
  ``G_j in [10, 100]`` ms and ``epsilon_j in [30, 575]`` MB against one-hour slots; with them a
  job's fastest run takes about 88 hours at the median, the trace's own jobs 0.77
  hours (the day extract; 0.70 the week). ``duration_scale`` multiplies the per-mini-batch times
  ``m_j``, ``G_j`` and the transfer ``2 epsilon_j / b_w`` (through ``epsilon_j``), so every run
  length (1) scales by it; 1 (default): section 5.1's values as stated.
- **Shares** (:func:`demand_weights`). Section 5.1 counts "each user's fair share" from the
  machines of its virtual cluster, which no readable source gives. ``demand_shares=a`` makes the
  quotas proportional to ``(1 - a) / U + a * (the user's requested GPUs) / (all requested GPUs)``;
  ``None`` (default): each window rule's own quotas (the draw: equal, ``a = 0``; the trace
  windows: ``a = 1/2``).
- **Parameter servers per server** (:func:`ps_count`). Section 5.1: "Since there is only one CPU
  in each machine, we set the number of PSs to 1"; with (3i) a job's PS server then covers
  ``floor(b_p / b_w)`` workers elsewhere, which at the drawn bandwidths is far below section
  5.1's ``D_j`` of up to 50. ``ps_per_server=1`` (default): the text's ``C_sp = 1``; an integer
  ``k``: ``C_sp = k``; ``"widest_job"``: the fewest PSs per server that let the instance's widest
  job (``max_j D_j``, :data:`WIDEST_CHUNKS` at section 5.1's ranges) run at its full width under (3i)
  at the instance's ``b_w``, ``b_p`` (docs/readings/tenants.md T12).
- **Shares of the virtual clusters** (:func:`cluster_shares_of`). Section 5.1 maps the trace's
  virtual clusters to tenants and counts "each user's fair share" from their machines, which no
  readable source gives. ``cluster_shares="gpu_time"``: each tenant's share is its clusters' share
  of the extract's GPU time (column ``gpu_time``, the whole extract), quotas follow it and the
  draw spreads owners by it; needs ``users`` at most the extract's clusters (8 in the day extract,
  10 in the week; the paper has 14). ``None`` (default): each window rule's own (T8, T14).
- **Past window** (:func:`past_window`): the ``J`` trace submissions before the scheduled window
  (cyclically before the extract's start), with section 5.1's settings drawn after every draw of
  the scheduled instance, on the same cluster. Astraea estimates ``theta`` from it
  (:func:`aisched.online.tenants.theta.attach_past_window`), as an operator estimates from past
  jobs (section 6: "estimated based on past experiments"); no scheduled job enters it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance

__all__ = ["CLUSTER_SHARES", "MAX_PS_PER_SERVER", "WIDEST_CHUNKS", "check_capacity_options", "check_options", "cluster_shares_of",
           "demand_weights", "past_window", "ps_count", "scale_durations", "trace_widths"]

#: Section 5.1's largest ``D_j`` ("D_j in [20, 50]"): the widest job of its ranges.
WIDEST_CHUNKS = 50
#: Size guard of ``ps_per_server`` (``"widest_job"`` needs at most ``WIDEST_CHUNKS``, as ``b_p >= b_w``).
MAX_PS_PER_SERVER = 1_024
#: Values of ``cluster_shares`` besides None: the virtual clusters' shares of the extract's GPU time.
CLUSTER_SHARES: tuple[str, ...] = ("gpu_time",)


def check_options(width_from_trace: Any, duration_scale: Any, demand_shares: Any, has_trace: bool) -> None:
    """Raise :class:`InvalidScenarioError` naming the first bad workload option."""
    if isinstance(width_from_trace, bool) or width_from_trace not in (0, 1):
        raise InvalidScenarioError("width_from_trace", f"= {width_from_trace!r} must be 0 (chunks cap the width) "
                                   "or 1 (the trace's requested GPUs cap it too)")
    if width_from_trace and not has_trace:
        raise InvalidScenarioError("width_from_trace", "= 1 needs a trace (trace=None has no requested GPUs)")
    if isinstance(duration_scale, bool) or not isinstance(duration_scale, (int, float)) \
            or not math.isfinite(duration_scale) or duration_scale <= 0:
        raise InvalidScenarioError("duration_scale", f"= {duration_scale!r} must be a finite number > 0")
    if demand_shares is not None and (isinstance(demand_shares, bool) or not isinstance(demand_shares, (int, float))
                                      or not 0.0 <= demand_shares <= 1.0):
        raise InvalidScenarioError("demand_shares", f"= {demand_shares!r} must be None or a number in [0, 1]")


def check_capacity_options(ps_per_server: Any, cluster_shares: Any, demand_shares: Any, has_trace: bool) -> None:
    """Raise :class:`InvalidScenarioError` naming the first bad capacity or share option."""
    if not (ps_per_server == "widest_job" or (isinstance(ps_per_server, (int, np.integer))
                                              and not isinstance(ps_per_server, (bool, np.bool_))
                                              and ps_per_server >= 1)):
        raise InvalidScenarioError("ps_per_server", f"= {ps_per_server!r} must be an integer >= 1 (C_sp; section "
                                   "5.1 sets 1) or 'widest_job' (the fewest PSs that let the widest "
                                   f"job, D_j up to {WIDEST_CHUNKS}, meet (3i))")
    if ps_per_server != "widest_job" and ps_per_server > MAX_PS_PER_SERVER:
        raise InvalidScenarioError("ps_per_server", f"= {ps_per_server!r} is more than the limit {MAX_PS_PER_SERVER} "
                                   "(aisched.scenarios.tenants.workload_options.MAX_PS_PER_SERVER)")
    if cluster_shares is not None and cluster_shares not in CLUSTER_SHARES:
        raise InvalidScenarioError("cluster_shares", f"= {cluster_shares!r} must be None (each window rule's "
                                   f"own quotas) or one of {list(CLUSTER_SHARES)}")
    if cluster_shares is not None and not has_trace:
        raise InvalidScenarioError("cluster_shares", f"= {cluster_shares!r} needs a trace (trace=None has no "
                                   "virtual clusters)")
    if cluster_shares is not None and demand_shares is not None:
        raise InvalidScenarioError("cluster_shares", f"= {cluster_shares!r} and demand_shares = "
                                   f"{demand_shares!r} both set the quotas: give one of them")


def ps_count(ps_per_server: int | str, workers_per_server: int, widest: int, worker_bandwidth: float,
             ps_bandwidth: float) -> int:
    """``C_sp``: parameter servers on each server under the ``ps_per_server`` reading.

    Parameters
    ----------
    ps_per_server
        An integer ``k >= 1`` (``C_sp = k``; section 5.1's is 1), or ``"widest_job"``.
    workers_per_server
        ``C_sw``.
    widest
        The most workers any job may use, ``max_j D_j`` (3e): section 5.1's ``D_j`` reach
        :data:`WIDEST_CHUNKS`; with ``width_from_trace=1``, the widest request of the window.
    worker_bandwidth, ps_bandwidth
        ``b_w`` and ``b_p`` (one unit).

    Returns
    -------
    int
        ``k``; for ``"widest_job"``, ``max(1, ceil((widest - C_sw) b_w / b_p))``: a job of ``widest``
        workers with ``C_sw`` of them beside its PSs has ``widest - C_sw`` elsewhere, which (3i),
        ``sum_{s' != s} y_js' b_w <= z_js b_p``, lets ``z_js`` PSs on one server cover only when
        ``z_js >= (widest - C_sw) b_w / b_p`` (Algorithm 4, line 8's ``ceil((D_w - D_sw) b_w / b_p)``).
    """
    if ps_per_server != "widest_job":
        return int(ps_per_server)
    remote = max(0, int(widest) - int(workers_per_server))
    return max(1, math.ceil(remote * float(worker_bandwidth) / float(ps_bandwidth) - 1e-9))


def cluster_shares_of(frame: Any, users: int) -> np.ndarray:
    """(user,) each tenant's share of the extract's GPU time, its virtual clusters summed.

    Clusters are ranked by jobs and cluster ``k`` is tenant ``k mod users``, as the generator maps
    owners (docs/readings/tenants.md T8), so with ``users`` equal to the extract's clusters each tenant is
    one virtual cluster.

    Raises
    ------
    InvalidScenarioError
        ``users`` exceeds the extract's virtual clusters (a tenant would have no cluster and no share;
        the day extract has 8, the week 10, the paper's Philly trace 14).
    """
    counts = frame["cluster"].value_counts()
    if users > len(counts):
        raise InvalidScenarioError("users", f"= {users} exceeds the {len(counts)} virtual clusters of the extract: "
                                   "cluster_shares='gpu_time' gives each tenant its clusters' share, so it needs "
                                   "users <= clusters (the paper's 14 clusters are in no extract we hold)")
    rank = {c: k for k, c in enumerate(counts.index)}
    time = frame.groupby("cluster")["gpu_time"].sum() if "gpu_time" in frame \
        else frame.groupby("cluster")["num_gpus"].sum()
    shares = np.zeros(users)
    for cluster, value in time.items():
        shares[rank[cluster] % users] += float(value)
    if not shares.sum() > 0:
        raise InvalidScenarioError("trace", "has no GPU time to share (column gpu_time sums to 0)")
    return shares / shares.sum()


def trace_widths(chunks: np.ndarray, minibatches: np.ndarray, requested: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Chunks capped by the requested GPUs, mini-batches per chunk rescaled to keep ``E D M``.

    Parameters
    ----------
    chunks, minibatches
        (job,) section 5.1's ``D_j`` and ``M_j``.
    requested
        (job,) the GPUs each job requested in the trace (section 5.1: "their demand for workers").

    Returns
    -------
    (chunks, minibatches)
        ``D'_j = min(D_j, requested_j)`` (the most workers (3e)) and ``M'_j = round(D_j M_j / D'_j)``,
        so the work ``E_j D'_j M'_j`` differs from ``E_j D_j M_j`` by less than half a chunk's
        mini-batches (none where ``D'_j`` divides ``D_j M_j``).
    """
    cap = np.maximum(np.minimum(chunks, np.asarray(requested, dtype=np.int64)), 1)
    per_chunk = np.maximum(np.rint(chunks * minibatches / cap), 1).astype(np.int64)
    return cap.astype(np.int64), per_chunk


def scale_durations(scale: float, *times: np.ndarray) -> tuple[np.ndarray, ...]:
    """``times`` (``m_j``, ``G_j``, ``epsilon_j``) times ``scale``; unchanged (the same arrays) at 1."""
    return times if scale == 1.0 else tuple(t * float(scale) for t in times)


def demand_weights(owner: np.ndarray, requested: np.ndarray, users: int, share: float) -> np.ndarray:
    """(user,) quota weights ``(1 - share) / U + share * demand_u / sum demand``.

    ``demand_u`` is the GPUs requested by user ``u``'s jobs (one per job without a trace).
    """
    demand = np.bincount(owner, weights=np.asarray(requested, dtype=float), minlength=users)
    total = demand.sum()
    spread = demand / total if total > 0 else np.full(users, 1.0 / users)
    return (1.0 - share) / users + share * spread


def past_window(frame: Any, first: int, jobs: int) -> np.ndarray:
    """Trace rows of the ``jobs`` submissions before row ``first`` (cyclically), disjoint from the window.

    The window scheduled is rows ``first .. first + jobs - 1``; the past window ends just before it.
    Where the extract has fewer than ``jobs`` rows before ``first``, the rest come from its end
    (the extract stands in for the days before it). Rows of the scheduled window are never
    taken when the extract has at least ``2 jobs`` rows; otherwise the past window is shortened to
    the rows outside the scheduled one.
    """
    n = len(frame)
    size = min(jobs, n - jobs)
    return (first - size + np.arange(size)) % n if size > 0 else np.zeros(0, dtype=np.int64)


def past_instance(instance: TenantInstance, rng: np.random.Generator, requested: np.ndarray | None,
                  slot_hours: float, duration_scale: float, width_from_trace: int) -> TenantInstance:
    """The past window's jobs on ``instance``'s cluster, section 5.1's settings drawn from ``rng``.

    Parameters
    ----------
    instance
        The scheduled instance (its cluster, quotas and utility form are kept; its jobs are not read).
    rng
        Drawn after every draw of ``instance``, so the scheduled jobs do not depend on the past ones.
    requested
        (past job,) GPUs requested by the past window's trace rows, or None (synthetic: one job per
        scheduled job, no widths).
    slot_hours, duration_scale, width_from_trace
        As for the scheduled jobs.
    """
    count = instance.num_jobs if requested is None else int(len(requested))
    epochs = rng.integers(50, 101, size=count)
    chunks = rng.integers(20, 51, size=count)
    minibatches = rng.integers(10, 51, size=count)
    compute_time = rng.uniform(0.001, 0.05, size=count) / slot_hours
    update_time = rng.uniform(10.0, 100.0, size=count) / 1000.0 / 3600.0 / slot_hours
    gradient_size = rng.uniform(30.0, 575.0, size=count) * 8.0
    compute_time, update_time, gradient_size = scale_durations(duration_scale, compute_time, update_time,
                                                               gradient_size)
    if width_from_trace and requested is not None:
        chunks, minibatches = trace_widths(chunks, minibatches, requested)
    if instance.utility == "linear":
        extra = {"utility_slope": rng.uniform(-2.0, -0.1, size=count) * slot_hours,
                 "utility_intercept": rng.uniform(100.0, 1000.0, size=count)}
    else:
        extra = {"utility_scale": rng.uniform(100.0, 1000.0, size=count) / slot_hours,
                 "utility_exponent": rng.uniform(1.0, 2.0, size=count)}
    zeros = np.zeros(count)
    return instance.replace(
        owner=np.zeros(count, dtype=np.int64), arrival=np.zeros(count, dtype=np.int64), epochs=epochs,
        chunks=chunks, minibatches=minibatches, compute_time=compute_time, update_time=update_time,
        gradient_size=gradient_size, utility_slope=extra.get("utility_slope", zeros),
        utility_intercept=extra.get("utility_intercept", zeros), utility_scale=extra.get("utility_scale", zeros),
        utility_exponent=extra.get("utility_exponent", zeros), workload=f"{instance.workload}-past-window")
