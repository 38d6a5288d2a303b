"""AHAP's window problem (10) with changeover="on": exact against brute force; the jitted split DP, AHAP and
AHANP kernels equal to the NumPy references; the pool with it on."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spot_tiny import tiny

import aisched
from aisched.models.spot import SpotInstance
from aisched.online.spot import noisy, paper_pool, perfect
from aisched.online.spot.selection import evaluate_pool
from aisched.online.spot.window import kernel as wk
from aisched.online.spot.window import reference as wr


def _on(inst: SpotInstance) -> SpotInstance:
    return replace(inst, changeover="on")


def _brute(inst, price, avail, previous, progress, rest):
    """Best V~(Z_end + rest) - cost over every split sequence of the window, work by split_efficiency."""
    opts = [wr.window_splits(inst, float(p), int(a)) for p, a in zip(price, avail)]
    best = -np.inf
    for combo in itertools.product(*opts):
        z, prev, cost = progress, previous, 0.0
        for i, (o, s) in enumerate(combo):
            z += inst.slot_work(o, s, *prev)
            cost += s * price[i] + o * inst.on_demand_price
            prev = (o, s)
        best = max(best, float(inst.value_after_deadline(z + rest)) - cost)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_window_with_changeover_is_exact(seed):
    rng = np.random.default_rng(seed)
    inst = _on(tiny(seed, slots=8, deadline=4, work=9.0, nmin=1, nmax=3, mu=0.8))
    W = int(rng.integers(1, 4))
    price = np.round(rng.uniform(0.1, 1.3, W), 2)
    avail = rng.integers(0, 4, W)
    n_prev = int(rng.integers(0, 4))
    previous = (n_prev - min(n_prev, 1), min(n_prev, 1))
    progress, rest = float(np.round(rng.uniform(0, 4), 1)), float(np.round(rng.uniform(0, 3), 1))
    val, od, sp = wr.solve_window(inst, price, avail, sum(previous), progress, rest, previous[1])
    assert val == pytest.approx(_brute(inst, price, avail, previous, progress, rest), abs=1e-6)
    # the returned plan has the returned value
    z, prev, cost = progress, previous, 0.0
    for i in range(W):
        z += inst.slot_work(int(od[i]), int(sp[i]), *prev)
        cost += sp[i] * price[i] + od[i] * inst.on_demand_price
        prev = (int(od[i]), int(sp[i]))
    assert float(inst.value_after_deadline(z + rest)) - cost == pytest.approx(val, abs=1e-9)


def _switch_market() -> SpotInstance:
    """docs/readings/spot.md S7's constructed market: the optimum keeps 1 spot + 1 on-demand with changeover on."""
    return SpotInstance(work=5.6, deadline=3, min_gpus=1, max_gpus=2, value=12.0, hard_deadline_factor=2.0,
                        scale_up_efficiency=0.8, scale_down_efficiency=0.8,
                        spot_price=np.array([0.3, 0.3, 0.3, 0.3, 0.3, 0.3]),
                        spot_available=np.array([2, 1, 2, 2, 2, 2]), changeover="on")


def test_ahap_window_plans_with_the_changeover():
    inst = _switch_market()
    out = aisched.run("ahap", inst, window=2, commitment=1, threshold=0.1)
    assert out.info["engine"] == "kernel"
    od, sp = out.plan["on_demand"].values, out.plan["spot"].values
    # planning with the restart cost it keeps one spot + one on-demand GPU and finishes by the deadline
    np.testing.assert_array_equal(od[:3], [1, 1, 1])
    np.testing.assert_array_equal(sp[:3], [1, 1, 1])
    best = aisched.offline(inst).objective
    assert out.objective == pytest.approx(best, abs=1e-6)


@pytest.mark.slow  # ~16 s: the whole pool; the split-window kernel test above is the fast one
def test_pool_runs_with_changeover_on_equal_to_single_runs():
    """The batched pool with the changeover on: bit for bit the vmapped kernel, equal to aisched.run per
    policy (the kernels, tested against the references above); a second workload compiles nothing."""
    from aisched.online.spot import pool as pk

    jobs = [_on(tiny(s, slots=10, deadline=5, work=8.0, nmax=3, mu=0.8)) for s in range(3)]
    pool = paper_pool(windows=(2,), sigmas=(0.3, 0.9))
    u, info = evaluate_pool(jobs[:2], pool, perfect(), seed=0)
    assert info["engine"] == "batched" and info["changeover"]
    u_vmap, _ = evaluate_pool(jobs[:2], pool, perfect(), seed=0, engine="vmap", chunk=2)
    np.testing.assert_array_equal(u, u_vmap)
    for k, inst in enumerate(jobs[:2]):
        for m, p in enumerate(pool):
            if p.algorithm == "ahap":
                out = aisched.run("ahap", inst, window=p.window, commitment=p.commitment, threshold=p.threshold)
            else:
                out = aisched.run("ahanp", inst, threshold=p.threshold)
            assert out.info["engine"] == "kernel"
            assert u[k, m] == pytest.approx(out.objective, abs=1e-9), (k, p.name)
    before = pk.cache_size()
    evaluate_pool(jobs[1:], pool, perfect(), seed=1)
    assert pk.cache_size() == before


@pytest.mark.parametrize("averaging", ["chc", "actual_state"])
def test_pool_shared_forward_over_splits_equals_one_dp_per_window(averaging):
    """window.groups' passes over splits (one per job, slot and previous split) == one DP per window."""
    from aisched.online.spot import pool as pk

    jobs = [_on(tiny(s, slots=12, deadline=6, work=12.0, nmax=4, mu=0.8)) for s in range(3)]
    pred = noisy(0.3, seed=3)
    fcs = [pred.forecast(i.spot_price, i.spot_available, i.deadline, 2, seed=k) for k, i in enumerate(jobs)]
    arrays = wk.stack([wk.job_arrays(i, pf, af, 0.1, lead=2) for i, (pf, af) in zip(jobs, fcs)])
    pool = [p for p in paper_pool(windows=(1, 2), sigmas=(0.3, 0.9)) if p.algorithm == "ahap"]
    args = (arrays, np.array([p.window for p in pool]), np.array([p.commitment for p in pool]),
            np.array([p.threshold for p in pool]))
    kw = {"lattice_step": wk.lattice_size(jobs, 0, 0.1), "shifts": wk.shifts_of(jobs[0], 0.1), "changeover": True,
          "averaging": averaging}
    shared = pk.ahap_pool(*args, shared_forward=True, **kw)
    alone = pk.ahap_pool(*args, shared_forward=False, **kw)
    for key in ("on_demand", "spot", "utility", "completion_time", "termination_slots", "windows_solved"):
        np.testing.assert_array_equal(shared[key], alone[key])
    assert shared["stats"]["forward_passes"] < alone["stats"]["forward_passes"]


@pytest.mark.slow
def test_pool_with_changeover_equals_references_and_mixed_workloads_run_them():
    jobs = [_on(tiny(s, slots=10, deadline=5, work=8.0, nmax=3, mu=0.8)) for s in range(2)]
    pool = paper_pool(windows=(1, 2, 3), sigmas=(0.3, 0.9))
    u, _ = evaluate_pool(jobs, pool, perfect(), seed=0, averaging="actual_state", deadline_guard=True)
    ref, info = evaluate_pool([*jobs, tiny(1, slots=10, deadline=5, work=8.0, nmax=3, mu=0.8)], pool,
                              perfect(), seed=0, averaging="actual_state", deadline_guard=True)
    assert info["engine"] == "reference"  # one kernel flag per call: a mixed workload runs the references
    np.testing.assert_allclose(ref[:2], u, atol=1e-9)


def _kernel_instance(seed: int, mu: float, intercept: bool) -> SpotInstance:
    inst = _on(tiny(seed, slots=14, deadline=6, work=float(10 + seed % 15), nmin=1 + seed % 2, nmax=4, mu=mu))
    if intercept:  # beta > 0 and mu_1 != mu_2: the lattice offset b and the distinct up/down shifts
        inst = inst.replace(throughput_intercept=0.5, scale_up_efficiency=0.8, scale_down_efficiency=1.0)
    return inst


def _check_split_window(seed, mu, intercept, window, data):
    """The jitted DP over splits (window.split) == the reference's enumeration: value and plan."""
    inst = _kernel_instance(seed, mu, intercept)
    q = wk.work_quantum(inst)
    pf, af = noisy(0.3, seed=seed).forecast(inst.spot_price, inst.spot_available, inst.deadline, 3)
    job = wk.job_arrays(inst, pf, af, q, lead=3)
    t = data.draw(st.integers(0, inst.deadline - 1))
    z = data.draw(st.integers(0, int(inst.work * 6))) / 10
    prev = data.draw(st.sampled_from([int(n) for n in inst.gpu_options()]))
    prev_spot = data.draw(st.integers(0, prev))
    e, rest = wr.window_terms(inst, t, window)
    price, avail = pf[t, : e - t + 1], af[t, : e - t + 1]
    ref_val, ref_o, ref_s = wr.solve_window(inst, price, avail, prev, z, rest, prev_spot)
    val, o, s = wk.solve_window(job, t, z, prev, window=window, lattice=wk.lattice_size(inst, window, q),
                                shifts=wk.shifts_of(inst, q), previous_spot=prev_spot, changeover=True)
    assert val == pytest.approx(ref_val, abs=1e-6)
    np.testing.assert_array_equal(o[: e - t + 1], ref_o)
    np.testing.assert_array_equal(s[: e - t + 1], ref_s)
    assert not (o[e - t + 1:].any() or s[e - t + 1:].any())  # past the deadline: nothing


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), intercept=st.booleans(), window=st.sampled_from([1, 3]), data=st.data())
def test_split_window_kernel_equals_reference(seed, intercept, window, data):
    _check_split_window(seed, 0.8, intercept, window, data)  # four compiled shapes


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), mu=st.sampled_from([0.8, 0.9, 1.0]), intercept=st.booleans(),
       window=st.integers(1, 3), data=st.data())
def test_split_window_kernel_equals_reference_every_shape(seed, mu, intercept, window, data):
    _check_split_window(seed, mu, intercept, window, data)


def _check_algorithms(seed, mu, intercept, window, averaging, guard, data):
    inst = _kernel_instance(seed, mu, intercept)
    commitment = data.draw(st.integers(1, window))
    threshold = data.draw(st.sampled_from([0.3, 0.6, 0.9]))
    pred = noisy(0.3, kind="magnitude", dist="heavy", seed=seed)
    kw = {"window": window, "commitment": commitment, "threshold": threshold, "predictor": pred,
          "averaging": averaging, "deadline_guard": guard}
    a = aisched.run("ahap", inst, **kw)
    b = aisched.run("ahap", inst, engine="reference", **kw)
    assert a.info["engine"] == "kernel"
    np.testing.assert_array_equal(a.plan["on_demand"].values, b.plan["on_demand"].values)
    np.testing.assert_array_equal(a.plan["spot"].values, b.plan["spot"].values)
    assert a.objective == pytest.approx(b.objective, abs=1e-9)
    c = aisched.run("ahanp", inst, threshold=threshold)
    d = aisched.run("ahanp", inst, threshold=threshold, engine="reference")
    assert c.info["engine"] == "kernel"
    np.testing.assert_array_equal(c.plan["on_demand"].values, d.plan["on_demand"].values)
    np.testing.assert_array_equal(c.plan["spot"].values, d.plan["spot"].values)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), averaging=st.sampled_from(["chc", "actual_state"]), data=st.data())
def test_ahap_and_ahanp_kernels_equal_references_with_changeover(seed, averaging, data):
    _check_algorithms(seed, 0.8, False, 2, averaging, False, data)  # two compiled AHAP kernels


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), mu=st.sampled_from([0.8, 0.9]), intercept=st.booleans(),
       window=st.integers(1, 3), averaging=st.sampled_from(["chc", "actual_state"]), guard=st.booleans(),
       data=st.data())
def test_ahap_and_ahanp_kernels_equal_references_every_option(seed, mu, intercept, window, averaging, guard,
                                                             data):
    _check_algorithms(seed, mu, intercept, window, averaging, guard, data)


def test_kernels_with_changeover_do_not_recompile_across_jobs():
    """Kernel outputs (utility, completion) equal the references', one compile for all jobs."""
    from aisched.models.spot import plan_utility
    from aisched.online.spot.ahap import finish_plan

    insts = [_on(tiny(s, slots=14, deadline=6, work=15.0, nmax=4, mu=0.8)) for s in range(3)]
    q = 0.1
    arrays = []
    for inst in insts:
        pf, af = noisy(0.2, seed=1).forecast(inst.spot_price, inst.spot_available, inst.deadline, 5)
        arrays.append((pf, af, wk.job_arrays(inst, pf, af, q)))
    G = wk.lattice_size(insts, 2, q)
    sh = wk.shifts_of(insts[0], q)
    kw = {"window": 2, "lattice": G, "shifts": sh, "changeover": True}
    wk.ahap_batch(wk.stack([a[2] for a in arrays[:2]]), np.array([1, 2]), np.array([0.5, 0.7]), **kw)
    wk.ahanp_batch(wk.stack([a[2] for a in arrays[:2]]), np.array([0.5, 0.7]), changeover=True)
    before = wk.cache_size()
    out = wk.ahap_batch(wk.stack([a[2] for a in arrays[1:]]), np.array([2, 1]), np.array([0.9, 0.3]), **kw)
    nout = wk.ahanp_batch(wk.stack([a[2] for a in arrays[1:]]), np.array([0.9, 0.3]), changeover=True)
    assert wk.cache_size() == before
    for j, (inst, (pf, af, _)) in enumerate(zip(insts[1:], arrays[1:])):
        for m, (v, thr) in enumerate([(2, 0.9), (1, 0.3)]):
            od, sp, _ = wr.ahap_reference(inst, pf, af, 2, v, thr)
            u, completion, _, _ = plan_utility(inst, *finish_plan(inst, od, sp))
            assert out["utility"][j, m] == pytest.approx(u, abs=1e-9)
            assert out["completion_time"][j, m] == completion + 1  # the paper's 1-based T
            od, sp = wr.ahanp_reference(inst, thr)
            u, _, _, _ = plan_utility(inst, *finish_plan(inst, od, sp))
            assert nout["utility"][j, m] == pytest.approx(u, abs=1e-9)
