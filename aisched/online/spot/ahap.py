"""AHAP: Adaptive Hybrid Allocation with Prediction (Algorithm 1 of the spot-market paper).

Committed horizon control over a prediction window ``w`` with commitment ``v``
and a spot price threshold ``sigma``; the windowed problem (10) is solved
exactly by the lattice DP of :mod:`~aisched.online.spot.window.kernel` (over
splits, :mod:`~aisched.online.spot.window.split`, with ``changeover="on"``; or by
the NumPy reference, ``engine="reference"``, which is also used when the
work per slot has no decimal quantum). Every choice where the paper is open
is listed in :mod:`~aisched.online.spot.window.reference`.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.spot import SpotInstance, make_plan, progress, verify_plan
from aisched.online.spot.predictors import Predictor, perfect
from aisched.online.spot.window import kernel as wk
from aisched.online.spot.window import reference as wr
from aisched.outcome import Outcome
from aisched.registry import register

__all__ = ["run", "check_policy"]


def check_policy(window: int, commitment: int, threshold: float) -> None:
    """Raise :class:`InvalidScenarioError` unless ``1 <= commitment <= window`` and ``threshold > 0``."""
    if int(window) != window or window < 1:
        raise InvalidScenarioError("window", f"= {window} must be an integer >= 1")
    if int(commitment) != commitment or not 1 <= commitment <= window:
        raise InvalidScenarioError("commitment", f"= {commitment} must be an integer in 1..window={window}")
    if not (np.isfinite(threshold) and threshold > 0):
        raise InvalidScenarioError("threshold", f"= {threshold} must be > 0")


def finish_plan(inst: SpotInstance, od: np.ndarray, sp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Full-horizon counts: decisions of slots ``0..d-1`` plus the termination configuration."""
    d = inst.deadline
    full_o = np.zeros(inst.num_slots, np.int64)
    full_s = np.zeros(inst.num_slots, np.int64)
    full_o[:d], full_s[:d] = od[:d], sp[:d]
    n = full_o + full_s
    z = float(np.sum(progress(inst, n, full_s)[:d]))
    if z < inst.work - wr.TOL:
        wr.termination(inst, z, int(n[d - 1]), d, full_o, int(full_s[d - 1]))
    return full_o, full_s


def outcome(name: str, inst: SpotInstance, od: np.ndarray, sp: np.ndarray, started: float,
            info: dict[str, Any], compiled: float | None = None) -> Outcome:
    """An Outcome from full-horizon counts (the objective is recomputed by the checker).

    ``compiled``: :func:`~aisched.online.spot.window.kernel.compile_seconds` when the
    run started; the JAX compilation since then is ``info["compile_s"]`` and is not
    part of ``decision_s`` (``runtime_s`` keeps the whole run).
    """
    plan = make_plan(inst, od, sp)
    value = verify_plan(inst, plan)
    runtime = time.perf_counter() - started
    compile_s = 0.0 if compiled is None else min(runtime, max(0.0, wk.compile_seconds() - compiled))
    return Outcome(algorithm=name, family="spot", objective=value, plan=plan,
                   admitted=plan["admitted"].values.astype(bool), runtime_s=runtime,
                   decision_s=np.array([runtime - compile_s]), info={**info, "compile_s": compile_s})


@register("spot", "ahap")
def run(inst: SpotInstance, *, window: int = 3, commitment: int = 2, threshold: float = 0.6,
        predictor: Predictor | None = None, seed: int = 0, engine: str = "kernel",
        sigma_rule: wr.SigmaRule = "every_slot", averaging: wr.Averaging = "chc",
        deadline_guard: bool = False) -> Outcome:
    """Run AHAP (Algorithm 1) on one job.

    Parameters
    ----------
    inst
        The job and its market.
    window, commitment, threshold
        ``w``, ``v``, ``sigma`` (``1 <= v <= w``).
    predictor
        Forecaster (default :func:`~aisched.online.spot.predictors.perfect`).
    seed
        Passed to the predictor (noise draws).
    engine
        ``"kernel"`` (JAX, exact lattice DP) or ``"reference"`` (NumPy).
    sigma_rule
        ``"every_slot"`` (default; section IV-A: "as long as the job has not
        reached its deadline, all spot instances priced below sigma are
        utilized") or ``"ahead_only"`` (sigma only in lines 5-11 of Algorithm 1).
    averaging
        ``"chc"`` (default; Theorem 1's proof: ``v`` sub-trajectories, each
        re-planning every ``v`` slots from its own state, their decisions
        averaged) or ``"actual_state"`` (every plan from the actual state).
    deadline_guard
        Optional guard beside the paper (default off): ``N_max`` GPUs in a slot
        whenever fewer could no longer finish by the deadline (see
        :func:`~aisched.online.spot.window.reference.deadline_guard`).
    """
    check_policy(window, commitment, threshold)
    one_of("engine", engine, ("kernel", "reference"))
    one_of("sigma_rule", sigma_rule, wr.SigmaRule)
    wr.check_averaging(averaging)
    started, compiled = time.perf_counter(), wk.compile_seconds()
    pred = perfect() if predictor is None else predictor
    price_fc, avail_fc = pred.forecast(inst.spot_price, inst.spot_available, inst.deadline,
                                       int(window), seed=seed)
    q = wk.work_quantum(inst)
    shifts = None
    if engine == "kernel" and q is not None:
        try:
            shifts = wk.shifts_of(inst, q)
        except ValueError:  # e.g. a negative intercept: no non-negative lattice shear
            shifts = None
    # the kernel's tables grow with the window: a window past the hard deadline (it sees nothing more)
    # runs on the exact NumPy reference instead; with the changeover on, (10) runs over splits
    use_kernel = shifts is not None and int(window) <= inst.num_slots
    if use_kernel:
        job = wk.stack([wk.job_arrays(inst, price_fc, avail_fc, q, lead=int(window))])
        out = wk.ahap_batch(job, np.array([commitment]), np.array([threshold]), window=int(window),
                            lattice=wk.lattice_size(inst, int(window), q), shifts=shifts,
                            sigma_rule=sigma_rule, averaging=averaging,
                            deadline_guard=deadline_guard, changeover=inst.changeover == "on")
        od = out["on_demand"][0, 0].round().astype(np.int64)
        sp = out["spot"][0, 0].round().astype(np.int64)
        solved = int(out["windows_solved"][0, 0])
    else:
        od, sp, extra = wr.ahap_reference(inst, price_fc, avail_fc, window, commitment, threshold,
                                            sigma_rule, averaging, bool(deadline_guard))
        solved = extra["windows_solved"]
    od, sp = finish_plan(inst, od, sp)
    return outcome("ahap", inst, od, sp, started, compiled=compiled, info={
        "window": int(window), "commitment": int(commitment), "threshold": float(threshold),
        "predictor": pred.name, "engine": "kernel" if use_kernel else "reference",
        "windows_solved": solved, "sigma_rule": sigma_rule,
        "averaging": averaging, "deadline_guard": bool(deadline_guard)})
