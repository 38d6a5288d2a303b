"""Astraea: online fair sharing of distributed ML jobs among tenants (Algorithms 1-5).

- Algorithm 1 (:func:`run`): the horizon is cut at ``tau_l = 2^l``; batch
  ``l`` collects the jobs arriving in ``[tau_{l-1}, tau_l)`` (batch 1: arrivals
  ``< 2``, so 0-based slot 0 is served) plus the unprocessed jobs of earlier
  batches, and runs them in ``(lambda tau_l, lambda tau_{l+1}]``, i.e. 0-based
  slots ``lambda tau_l .. 2 lambda tau_l - 1``. The paper prints both
  ``tau_l = 2^(l-1)`` and ``tau_0 = 1, tau_1 = 2``; its worked example (jobs
  arriving at 3 are in ``J_2`` and run in ``(8, 16]`` with ``lambda = 2``)
  needs ``tau_l = 2^l``, which we use.
- Algorithm 2 (A_round, :func:`schedule_batch`): ``lambda`` rounds of
  ``tau_l`` slots each, round ``i`` covering ``((lambda+i-1) tau_l, (lambda+i) tau_l]``.
  In each round every job is first tried within its owner's fair share
  (line 3), then the rest on all unused resources (line 5), paying the
  posted cost, divided among the resource owners by (2) (line 6).
  A job must finish inside its round (Algorithm 4, line 4), so rounds start
  empty. Rounds are cut at the horizon ``num_slots``.
- Algorithm 3 with 4-5 (A_maxIrev): :mod:`aisched.online.tenants.astraea.kernel`.
  A job is admitted iff its best ``mu`` (7) is > 0 (strategy-proof admission)
  and (``admission="real_revenue"``, default) its revenue under (3),
  ``f(t+ - r) - c_w - c_p``, is > 0; ``admission="ideal"``: ``mu > 0`` alone.
- ``lambda``: Lemma 1's ``floor((log f(all) - log f_min) / (log sigma - log(sigma - 1))) + 1``
  with ``sigma = 2 (log theta_w + log theta_p)`` (Lemma 3), natural logs,
  ``f`` each job's largest ideal utility (:func:`lemma1_lambda`), selected by
  ``lam="lemma1"``, or a given integer. The default is ``lam=2``, the worked
  example's value: Lemma 1's lambda is a proof device and large (102 on
  :func:`aisched.scenarios.tenants.default_instance`), and every batch ``l``
  waits until slot ``lambda tau_l``, so with it the schedule leaves any
  horizon a MILP can handle.
- ``theta_w, theta_p`` (8): by section 4.4 ``theta - 1`` must be at least each
  job's utility per worker-slot (PS-slot) and at least 1; the "actual value" is
  the largest such ratio over the jobs' fastest schedules (:func:`default_thetas`).
  Section 5.2 estimates it "based on past experiments": by default
  (``theta_estimate="past_window"``) over the jobs of a past window of the trace
  that the generator attaches to the instance, none of them scheduled;
  ``theta_estimate="all_jobs"``, the earlier rule, over all the jobs
  scheduled (future jobs included) (:mod:`aisched.online.tenants.theta`).

Utility clock. Algorithm 3 scores a schedule by its *ideal* revenue
``f(t+ - (lambda+i-1) tau_l)``, completion counted from the round's start
(``clock="batch"``, faithful, the worked example's 96 = -2*2 + 100). The
objective (3) counts from the job's arrival; ``clock="arrival"`` (beside the
paper) scores with that. With the batch clock alone, ``mu > 0`` admits jobs
whose revenue under (3) is negative (they waited for their batch); the default
``admission="real_revenue"`` also requires ``f(t+ - r) - c_w - c_p > 0``
(docs/readings/tenants.md T1). For linear utilities the two clocks
differ by the constant ``k (r0 - r)``, so the schedule picked is the same and
``admission="real_revenue"`` equals ``clock="arrival"``.

Income division (2): a user's share of a paying job's per-slot cost is its
unused workers (PSs) over all unused workers (PSs) ``a_w(t)`` after the
round's fair-share phase (line 4), so payments received add up to payments
made and a user that lends nothing receives nothing; a user may pay itself.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import xarray as xr

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance, make_plan, usage
from aisched.online.tenants.astraea.kernel import JobSpec, RoundState, Schedule, best_schedule, value_bound
from aisched.online.tenants.theta import ThetaEstimate, estimation_jobs
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = [
    "AstraeaParams",
    "BOUND_MARGIN",
    "make_params",
    "default_thetas",
    "lemma1_lambda",
    "job_spec",
    "schedule_batch",
    "simulate",
    "run",
    "income_division",
    "real_revenue",
]

Clock = Literal["batch", "arrival"]
#: A bound must be below ``-BOUND_MARGIN`` to reject a job unseen (rounding of a value at 0).
BOUND_MARGIN = 1e-7
Admission = Literal["real_revenue", "ideal"]


def _fastest(instance: TenantInstance) -> tuple[np.ndarray, np.ndarray]:
    """(job,) fewest slots of any schedule and fewest worker-slots of any schedule."""
    J = instance.num_jobs
    max_cen = int(instance.workers[instance.parameter_servers >= 1].max())
    d_fast = np.zeros(J, dtype=np.int64)
    worker_slots = np.zeros(J)
    for j in range(J):
        ws = np.arange(1, min(int(instance.chunks[j]), instance.total_workers) + 1)
        dd = instance.duration(ws, False, np.full(ws.shape, j))
        wc = ws[ws <= max_cen]
        dc = instance.duration(wc, True, np.full(wc.shape, j)) if wc.size else np.zeros(0, np.int64)
        d_fast[j] = min(int(dd.min()), int(dc.min()) if dc.size else np.iinfo(np.int64).max)
        worker_slots[j] = min(float((ws * dd).min()), float((wc * dc).min()) if dc.size else math.inf)
    return d_fast, worker_slots


def default_thetas(instance: TenantInstance) -> tuple[float, float]:
    """``theta_w, theta_p`` of section 4.4: ``theta - 1 >= max(1, max_j f_j / (worker- or PS-slots))``.

    ``f_j`` is the job's ideal utility at its fastest completion, the slots
    the fewest a schedule can use (a schedule has at least one PS for its
    whole run).
    """
    if instance.num_jobs == 0:
        return 2.0, 2.0
    d_fast, worker_slots = _fastest(instance)
    f = np.maximum(instance.utility_value(np.arange(instance.num_jobs), d_fast), 0.0)
    theta_w = 1.0 + max(1.0, float(np.max(f / worker_slots)))
    theta_p = 1.0 + max(1.0, float(np.max(f / d_fast)))
    return theta_w, theta_p


def lemma1_lambda(instance: TenantInstance, theta_w: float, theta_p: float) -> int:
    """Lemma 1's ``lambda`` with Lemma 3's ``sigma = 2 (ln theta_w + ln theta_p)``."""
    d_fast, _ = _fastest(instance)
    f = instance.utility_value(np.arange(instance.num_jobs), d_fast)
    f = f[f > 0]
    sigma = 2.0 * (math.log(theta_w) + math.log(theta_p))
    if f.size == 0 or sigma <= 1.0:
        return 1
    return int(math.floor((math.log(f.sum()) - math.log(f.min())) / (math.log(sigma) - math.log(sigma - 1)))) + 1


@dataclass(frozen=True)
class AstraeaParams:
    """Parameters of one run.

    Attributes
    ----------
    lam
        ``lambda`` (Lemma 1): rounds per batch and the batches' offset.
    theta_w, theta_p
        Bases of the price functions (8).
    clock
        ``"batch"`` (faithful ideal revenue) or ``"arrival"``.
    sharing
        Run line 5 (all unused resources); False gives each user only its fair share.
    admission
        ``"real_revenue"`` (default): admit the job's best schedule ``iota*``
        iff ``mu > 0`` (Algorithm 3, line 10) and its revenue under (3),
        ``f(t+ - r) - c_w - c_p``, is > 0 (section 4.1: "if the maximal revenue
        is greater than 0, then the job is admitted"); ``"ideal"``: ``mu > 0``
        alone, ``mu`` counted with ``clock`` (the earlier rule).
    bound_first
        Reject a job without running Algorithm 3 when
        :func:`~aisched.online.tenants.astraea.kernel.value_bound` proves that
        no schedule passes the admission (default True; a speed-up with the
        same decisions, False runs the kernel on every job).
    """

    lam: int
    theta_w: float
    theta_p: float
    clock: Clock = "batch"
    sharing: bool = True
    admission: Admission = "real_revenue"
    bound_first: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.lam, bool) or not isinstance(self.lam, (int, np.integer)) or self.lam < 1:
            raise InvalidScenarioError("lam", f"= {self.lam!r} must be an integer >= 1 or 'lemma1'")
        for name in ("theta_w", "theta_p"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 1:
                raise InvalidScenarioError(name, f"= {v!r} must be a finite number > 1")
        one_of("clock", self.clock, Clock)
        one_of("admission", self.admission, Admission)


def job_spec(instance: TenantInstance, job: int, offset: int, durations: np.ndarray | None = None) -> JobSpec:
    """The kernel's view of ``job`` with completion counted ``offset`` slots after the round's start.

    ``durations`` (2, D_j) may be passed when already computed (they depend on the job only).
    """
    D = int(instance.chunks[job])
    if durations is None:
        ws = np.arange(1, D + 1)
        idx = np.full(D, job)
        durations = np.stack([instance.duration(ws, False, idx), instance.duration(ws, True, idx)])
    return JobSpec(
        job=job,
        owner=int(instance.owner[job]),
        chunks=D,
        durations=durations,
        completion_offset=offset,
        slope=float(instance.utility_slope[job]),
        intercept=float(instance.utility_intercept[job]),
        scale=float(instance.utility_scale[job]),
        exponent=float(instance.utility_exponent[job]),
        linear=instance.utility == "linear",
    )


@dataclass
class _Result:
    J: int
    S: int
    U: int
    start: np.ndarray = field(init=False)
    end: np.ndarray = field(init=False)
    y: np.ndarray = field(init=False)
    z: np.ndarray = field(init=False)
    admitted: np.ndarray = field(init=False)
    shared: np.ndarray = field(init=False)
    worker_cost: np.ndarray = field(init=False)
    ps_cost: np.ndarray = field(init=False)
    income: np.ndarray = field(init=False)
    mu: np.ndarray = field(init=False)
    batch: np.ndarray = field(init=False)
    decision_s: np.ndarray = field(init=False)
    durations: dict[int, np.ndarray] = field(init=False)

    def __post_init__(self) -> None:
        J, S, U = self.J, self.S, self.U
        self.start, self.end = np.full(J, -1), np.full(J, -1)
        self.y, self.z = np.zeros((J, S), np.int64), np.zeros((J, S), np.int64)
        self.admitted, self.shared = np.zeros(J, bool), np.zeros(J, bool)
        self.worker_cost, self.ps_cost = np.zeros(J), np.zeros(J)
        self.income = np.zeros((U, J))
        self.mu = np.full(J, np.nan)
        self.batch = np.full(J, -1)
        self.decision_s = np.zeros(J)
        self.durations = {}


def income_division(
    unused_w: np.ndarray, unused_p: np.ndarray, cost_w: np.ndarray, cost_p: np.ndarray
) -> np.ndarray:
    """Eq. (2): (user,) income ``sum_t rho^u_j(t)`` from one job.

    Parameters
    ----------
    unused_w, unused_p
        (user, slot) ``q^u - sum_j y(t)``: each user's unused workers / PSs in the job's slots.
    cost_w, cost_p
        (slot,) the job's worker / PS cost in each of those slots.
    """
    a_w = unused_w.sum(axis=0)
    a_p = unused_p.sum(axis=0)
    share_w = np.divide(unused_w, a_w, out=np.zeros(unused_w.shape, float), where=a_w > 0)
    share_p = np.divide(unused_p, a_p, out=np.zeros(unused_p.shape, float), where=a_p > 0)
    if ((a_w <= 0) & (cost_w > 0)).any() or ((a_p <= 0) & (cost_p > 0)).any():
        raise InvalidScenarioError("income_division", "a job pays for resources nobody left unused")
    return (share_w * cost_w[None, :]).sum(axis=1) + (share_p * cost_p[None, :]).sum(axis=1)


def real_revenue(instance: TenantInstance, job: int, round_start: int, sched: Schedule) -> float:
    """The job's revenue under (3) with schedule ``sched``: ``f(t+ - r) - c_w - c_p``.

    ``t+ = round_start + start + duration`` (0-based: the job completes at the
    end of its last slot) and ``f`` counts from the arrival ``r`` as in the
    objective (3) (see :meth:`TenantInstance.utility_value`); the cost is the
    posted cost (8) of the schedule, as in (6a).
    """
    completion = round_start + sched.start + sched.duration - int(instance.arrival[job])
    return float(instance.utility_value(job, completion)) - sched.worker_cost - sched.ps_cost


def schedule_batch(
    instance: TenantInstance,
    params: AstraeaParams,
    jobs: list[int],
    tau: int,
    res: _Result,
    batch: int,
) -> list[int]:
    """Algorithm 2 (A_round) for batch ``jobs`` with ``tau = tau_l``; returns the jobs left."""
    lam, T = params.lam, instance.num_slots
    bw_ratio = instance.worker_bandwidth / instance.ps_bandwidth
    left = list(jobs)
    for i in range(1, lam + 1):
        r0, r1 = (lam + i - 1) * tau, min((lam + i) * tau, T)
        if r0 >= T or not left:
            break
        state = RoundState(
            instance.workers, instance.parameter_servers, instance.worker_quota, instance.ps_quota,
            r1 - r0, params.theta_w, params.theta_p,
        )

        def spec(j: int) -> JobSpec:
            if j not in res.durations:
                res.durations[j] = job_spec(instance, j, 0).durations
            offset = 0 if params.clock == "batch" else r0 - int(instance.arrival[j])
            return job_spec(instance, j, offset, res.durations[j])

        def place(j: int, sched: Schedule, shared: bool) -> None:
            res.admitted[j], res.shared[j] = True, shared
            res.start[j] = r0 + sched.start
            res.end[j] = r0 + sched.start + sched.duration - 1
            res.y[j], res.z[j] = sched.workers, sched.parameter_servers
            res.worker_cost[j], res.ps_cost[j] = sched.worker_cost, sched.ps_cost
            res.mu[j], res.batch[j] = sched.mu, batch

        def decide(j: int, fair_share: bool) -> Schedule | None:
            """Algorithm 3 and admission: ``mu > 0`` (kernel) and, by default, revenue under (3) > 0.

            With ``params.bound_first`` a job whose :func:`value_bound` proves
            the admission fails is rejected without the kernel (same decisions).
            """
            job = spec(j)
            if params.bound_first:
                # revenue under (3) counts from the arrival, before the round: its bound is the
                # smaller one (f falls with completion), so it alone decides when it applies
                extra = r0 - int(instance.arrival[j]) - job.completion_offset
                offsets = [0] if params.admission == "ideal" else [extra] if extra >= 0 else [0, extra]
                if any(value_bound(state, job, bw_ratio, x) < -BOUND_MARGIN for x in offsets):
                    return None
            sched = best_schedule(state, job, fair_share, bw_ratio)
            if sched is None or params.admission == "ideal":
                return sched
            return sched if real_revenue(instance, j, r0, sched) > 0 else None

        done: set[int] = set()
        for j in left:  # line 3: within each owner's fair share
            tic = time.perf_counter()
            sched = decide(j, True)
            if sched is not None:
                state.commit(int(instance.owner[j]), sched.start, sched.duration, sched.workers, sched.parameter_servers)
                place(j, sched, False)
                done.add(j)
            res.decision_s[j] += time.perf_counter() - tic
        # line 4: unused resources after the fair-share phase
        unused_w = instance.worker_quota[:, None] - state.user_w
        unused_p = instance.ps_quota[:, None] - state.user_p
        if params.sharing:
            for j in [j for j in left if j not in done]:  # line 5: on all unused resources
                tic = time.perf_counter()
                sched = decide(j, False)
                if sched is not None:
                    sl = slice(sched.start, sched.start + sched.duration)
                    cost_w = state.eta_w[sl] * sched.workers.sum()
                    cost_p = state.eta_p[sl] * sched.parameter_servers.sum()
                    state.commit(int(instance.owner[j]), sched.start, sched.duration, sched.workers, sched.parameter_servers)
                    place(j, sched, True)
                    res.income[:, j] = income_division(unused_w[:, sl], unused_p[:, sl], cost_w, cost_p)  # line 6
                    done.add(j)
                res.decision_s[j] += time.perf_counter() - tic
        left = [j for j in left if j not in done]  # line 7
    return left


def simulate(instance: TenantInstance, params: AstraeaParams) -> tuple[_Result, dict[str, Any]]:
    """Algorithm 1: batches at ``tau_l = 2^l``, each scheduled by :func:`schedule_batch`."""
    res = _Result(instance.num_jobs, instance.num_servers, instance.num_users)
    order = np.lexsort((np.arange(instance.num_jobs), instance.arrival))
    pending: list[int] = []
    last_arrival = int(instance.arrival.max()) if instance.num_jobs else -1
    batches = 0
    level = 1  # l of Algorithm 1
    while True:
        lo, hi = (0 if level == 1 else 2 ** (level - 1)), 2**level
        new = [int(j) for j in order if lo <= instance.arrival[j] < hi]
        jobs = sorted(pending + new, key=lambda j: (int(instance.arrival[j]), j))  # line 4
        if params.lam * hi >= instance.num_slots:
            break  # the batch would start past the horizon: remaining jobs are not served
        if jobs:
            batches += 1
            pending = schedule_batch(instance, params, jobs, hi, res, level)  # lines 5-7
        if not pending and hi > last_arrival:
            break
        level += 1
    return res, {"batches": batches, "last_batch": level}


def make_params(
    instance: TenantInstance,
    lam: int | str,
    theta_w: float | None,
    theta_p: float | None,
    clock: Clock,
    sharing: bool,
    theta_scale: float = 1.0,
    admission: Admission = "real_revenue",
    estimated_from: TenantInstance | None = None,
) -> AstraeaParams:
    """The :class:`AstraeaParams` of a run: ``theta_w``/``theta_p`` defaulted by
    :func:`default_thetas` of ``estimated_from`` (default ``instance`` itself: all its jobs) and
    scaled by ``theta_scale``, ``lam="lemma1"`` resolved by
    :func:`lemma1_lambda`; raises ``InvalidScenarioError`` for a bad value. :func:`run` and the
    baselines of :mod:`~aisched.online.tenants.baselines` build their parameters here."""
    tw, tp = default_thetas(instance if estimated_from is None else estimated_from)
    tw = tw if theta_w is None else theta_w
    tp = tp if theta_p is None else theta_p
    if theta_scale != 1.0:
        if not (isinstance(theta_scale, (int, float)) and math.isfinite(theta_scale) and theta_scale > 0):
            raise InvalidScenarioError("theta_scale", f"= {theta_scale!r} must be a finite number > 0")
        if not (isinstance(tw, (int, float)) and isinstance(tp, (int, float))):
            raise InvalidScenarioError("theta_w", f"= {tw!r} / theta_p = {tp!r} must be numbers")
        tw, tp = tw * theta_scale, tp * theta_scale
        if min(tw, tp) <= 1:
            raise InvalidScenarioError(
                "theta_scale", f"= {theta_scale!r} gives theta_w = {tw:.4g}, theta_p = {tp:.4g}; both must be > 1")
    if lam == "lemma1":
        if not (isinstance(tw, (int, float)) and isinstance(tp, (int, float)) and tw > 1 and tp > 1):
            raise InvalidScenarioError("theta_w", f"= {tw!r} / theta_p = {tp!r} must be > 1")
        lam = lemma1_lambda(instance, float(tw), float(tp))
    elif isinstance(lam, str):
        raise InvalidScenarioError("lam", f"= {lam!r} must be an integer >= 1 or 'lemma1'")
    return AstraeaParams(lam=lam, theta_w=tw, theta_p=tp, clock=clock, sharing=sharing, admission=admission)


def outcome_of(
    instance: TenantInstance, res: _Result, params: AstraeaParams, name: str, started: float, info: dict[str, Any]
) -> Outcome:
    """Pack a simulation's result into a verified :class:`Outcome` with posted prices."""
    plan = make_plan(
        instance, res.start, res.end, res.y, res.z, res.admitted,
        shared=res.shared, worker_cost=res.worker_cost, ps_cost=res.ps_cost, income=res.income,
    )
    plan["mu"] = ("job", res.mu)
    plan["batch"] = ("job", res.batch.astype(np.int32))
    revenue = float(instance.verify_plan(plan))
    T = instance.num_slots
    used_w, used_p = usage(instance, plan)
    h_w, h_p = used_w.sum(axis=0), used_p.sum(axis=0)
    prices = xr.Dataset(
        {
            "worker_price": ("slot", params.theta_w ** (h_w / instance.total_workers) - 1.0,
                             {"units": "money units per worker-slot"}),
            "ps_price": ("slot", params.theta_p ** (h_p / instance.total_parameter_servers) - 1.0,
                         {"units": "money units per parameter-server-slot"}),
            "workers_used": ("slot", h_w),
            "ps_used": ("slot", h_p),
        },
        coords={"slot": np.arange(T)},
        attrs={"theta_w": params.theta_w, "theta_p": params.theta_p},
    )
    payments = np.where(res.shared, res.worker_cost + res.ps_cost, 0.0)
    return Outcome(
        algorithm=name,
        family="tenants",
        objective=revenue,
        plan=plan,
        prices=prices,
        admitted=res.admitted.copy(),
        payments=payments,
        runtime_s=time.perf_counter() - started,
        decision_s=res.decision_s.copy(),
        info={
            "lam": params.lam, "theta_w": params.theta_w, "theta_p": params.theta_p,
            "clock": params.clock, "sharing": int(params.sharing), "admission": params.admission, **info,
        },
    )


@register("tenants", "astraea")
def run(
    instance: TenantInstance,
    *,
    lam: int | str = 2,
    theta_w: float | None = None,
    theta_p: float | None = None,
    clock: Clock = "batch",
    theta_scale: float = 1.0,
    admission: Admission = "real_revenue",
    theta_estimate: ThetaEstimate = "past_window",
) -> Outcome:
    """Run Astraea (Algorithm 1 with Algorithms 2-5) on ``instance``.

    Parameters
    ----------
    instance
        The problem; jobs are revealed batch by batch.
    lam
        ``lambda``: an integer >= 1 (default 2, the worked example) or ``"lemma1"`` (Lemma 1).
    theta_w, theta_p
        Bases of the prices (8); default: section 4.4's actual value by ``theta_estimate``.
    clock
        ``"batch"`` (faithful ideal revenue) or ``"arrival"``.
    theta_scale
        Multiplies both ``theta_w`` and ``theta_p`` (default 1): Fig. 11's
        "percentages of their actual values", an inaccurate estimate of the
        maximal prices. The scaled values must stay > 1.
    admission
        ``"real_revenue"`` (default; never admits a job whose revenue under (3)
        is <= 0) or ``"ideal"`` (``mu > 0`` alone; see :class:`AstraeaParams`).
    theta_estimate
        Which jobs section 4.4's actual value is taken over (section 5.2: "estimated based on
        past experiments"): ``"past_window"`` (default; the past window the generator attaches,
        :func:`aisched.online.tenants.theta.attach_past_window`; all jobs where none is attached)
        or ``"all_jobs"`` (the jobs scheduled, future ones included: the earlier rule).
        ``info["theta_estimate"]`` says which ran.

    Returns
    -------
    Outcome
        ``plan`` (start, end, workers, parameter_servers, centralized, shared,
        worker_cost, ps_cost, income (2), mu, batch), ``prices`` (final posted
        ``worker_price`` and ``ps_price`` per slot), ``payments`` (what
        shared jobs pay), per-job ``decision_s`` (all A_maxIrev calls on the job).
    """
    started = time.perf_counter()
    source, used = estimation_jobs(instance, theta_estimate)
    params = make_params(instance, lam, theta_w, theta_p, clock, True, theta_scale, admission, estimated_from=source)
    res, info = simulate(instance, params)
    if theta_w is not None and theta_p is not None:
        used = "given"
    return outcome_of(instance, res, params, "astraea", started,
                      {**info, "theta_scale": float(theta_scale), "theta_estimate": used})

