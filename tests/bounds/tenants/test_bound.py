"""The certified upper bound of problem (3): cluster-level configuration LP."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tenants_tiny import random_tiny

import aisched
from aisched.bounds.tenants import bound as tb
from aisched.models.tenants import options
from aisched.solvers import solve


def _lp_relaxation(inst, *, cuts: bool) -> float:
    m = aisched.models.tenants.build(inst)
    if not cuts:
        m.cluster_workers.deactivate()
        m.cluster_ps.deactivate()
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    return float(solve(m, time_limit=30).objective)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.sampled_from(["linear", "convex"]))
def test_bound_between_optimum_and_lp_relaxation(seed: int, jobs: int, utility: str) -> None:
    inst = random_tiny(seed, jobs=jobs, servers=2, slots=6, utility=utility)
    out = aisched.bound(inst, time_limit=30)
    off = aisched.offline(inst, time_limit=60)
    assert off.status == "optimal" and out.status == "lp_optimal"
    assert out.bound >= off.objective - 1e-6  # certified
    assert out.info["lagrangian_bound"] >= out.info["lp_value"] - 1e-6 or np.isnan(out.info["lp_value"])
    # Not asserted: bound <= the bare LP relaxation. Neither dominates (the configuration LP keeps whole
    # columns but pools the servers); see test_neither_relaxation_dominates.
    # a relaxation of the model's own LP (with its cluster cuts): never tighter than it
    assert out.bound >= _lp_relaxation(inst, cuts=True) - 1e-6
    assert out.objective == pytest.approx(out.verify(inst)) and out.objective <= off.objective + 1e-6


def test_neither_relaxation_dominates() -> None:
    """The cluster configuration LP can be looser than the model's bare LP relaxation (found by the property
    test above, seed 144): both stay certified, so a user wanting the tightest takes the smaller."""
    inst = random_tiny(144, jobs=3, servers=2, slots=6, utility="linear")
    out = aisched.bound(inst, time_limit=30)
    off = aisched.offline(inst, time_limit=60)
    bare = _lp_relaxation(inst, cuts=False)
    assert off.status == "optimal" and min(out.bound, bare) >= off.objective - 1e-6
    assert out.bound > bare + 1e-3  # 36.957 against 36.912 (2026-11-28)


def test_pricing_equals_enumeration_of_options() -> None:
    """The prefix-sum pricing finds the best option of the model's enumeration under any prices."""
    rng = np.random.default_rng(0)
    for seed in range(15):
        inst = random_tiny(seed, jobs=3, servers=2, slots=7, utility="linear" if seed % 2 else "convex")
        T = inst.num_slots
        wp, pp = rng.uniform(0, 3, T) * (rng.random(T) < 0.6), rng.uniform(0, 3, T) * (rng.random(T) < 0.6)
        fams = [np.array(tb.option_families(inst, j), dtype=np.int64).reshape(-1, 4) for j in range(inst.num_jobs)]
        profit, _ = tb.price_jobs(inst, fams, wp, pp)
        c_max = int(inst.workers.max())
        ratio = inst.worker_bandwidth / inst.ps_bandwidth
        for j in range(inst.num_jobs):
            best = -np.inf
            for w, _cen, t0, d, f in options(inst, j):
                ps = 1 if w <= c_max else max(1, int(np.ceil((w - c_max) * ratio - 1e-9)))
                best = max(best, f - w * wp[t0:t0 + d].sum() - ps * pp[t0:t0 + d].sum())
            assert profit[j] == pytest.approx(best, abs=1e-9) or (best == -np.inf and profit[j] == -np.inf)


def test_a_limit_still_returns_a_certified_bound() -> None:
    inst = random_tiny(4, jobs=4, servers=2, slots=6)
    off = aisched.offline(inst, time_limit=60)
    out = aisched.bound(inst, max_iterations=1)
    assert out.status == "limit" and out.bound >= off.objective - 1e-6
    assert out.prices["worker_price"].dims == ("slot",)
