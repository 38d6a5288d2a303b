"""The batched pool engine (aisched.online.spot.pool) == the vmapped kernel == the NumPy reference."""

from __future__ import annotations

import numpy as np
import pytest
from spot_tiny import tiny

import aisched
from aisched.errors import InvalidScenarioError
from aisched.online.spot import noisy, paper_pool, perfect
from aisched.online.spot import pool as pk
from aisched.online.spot.selection import evaluate_pool
from aisched.online.spot.window import batched as wb
from aisched.online.spot.window import kernel as wk
from aisched.online.spot.window import reference as wr

KEYS = ("on_demand", "spot", "utility", "completion_time", "termination_slots", "windows_solved")


def _arrays(insts, pred, lead, size=None):
    q = wk.work_quantum(insts)
    fcs = [pred.forecast(i.spot_price, i.spot_available, i.deadline, lead, seed=k) for k, i in enumerate(insts)]
    return wk.stack([wk.job_arrays(i, pf, af, q, lead=lead, size=size) for i, (pf, af) in zip(insts, fcs)]), fcs, q


def _pool_arrays(pool):
    return (np.array([p.window for p in pool]), np.array([p.commitment for p in pool]),
            np.array([p.threshold for p in pool]))


def _insts(seed=0, k=8):
    return [tiny(seed + s, slots=14, deadline=6, work=float(12 + 2 * s), nmin=1 + s % 2, nmax=4) for s in range(k)]


SMALL_POOL = paper_pool(windows=(1, 2), sigmas=(0.3, 0.6, 0.9), ahanp=False)


@pytest.mark.parametrize("pred", [
    perfect(), noisy(0.3, seed=3),
    pytest.param(noisy(0.5, kind="magnitude", dist="heavy", seed=1), marks=pytest.mark.slow)],
    ids=["perfect", "noisy-fixed", "noisy-heavy"])
def test_batched_engine_equals_vmap_kernel_and_reference(pred):
    _check_engines(pred, "every_slot")


def test_engines_agree_under_the_ahead_only_sigma_reading():
    _check_engines(perfect(), "ahead_only")


@pytest.mark.parametrize("averaging,guard", [("actual_state", False), ("chc", True), ("actual_state", True)])
def test_engines_agree_under_each_averaging_and_the_guard(averaging, guard):
    _check_engines(noisy(0.3, seed=3), "every_slot", averaging, guard)


def _check_engines(pred, rule, averaging="chc", guard=False):
    insts = _insts()
    pool = SMALL_POOL
    stacked, fcs, q = _arrays(insts, pred, 2)
    win, com, thr = _pool_arrays(pool)
    step = wk.lattice_size(insts, 0, q)
    new = pk.ahap_pool(stacked, win, com, thr, lattice_step=step, shifts=wk.shifts_of(insts[0], q),
                       sigma_rule=rule, averaging=averaging, deadline_guard=guard)
    assert new["stats"]["windows_unique"] < new["stats"]["windows_needed"]  # deduplication happened
    assert new["stats"]["windows_needed"] == new["windows_solved"].sum()
    for w in (1, 2):
        m = np.flatnonzero(win == w)
        old = wk.ahap_batch(stacked, com[m], thr[m], window=w, lattice=wk.lattice_size(insts, w, q),
                            shifts=wk.shifts_of(insts[0], q), sigma_rule=rule, averaging=averaging,
                            deadline_guard=guard)
        for key in KEYS:
            np.testing.assert_array_equal(new[key][:, m], old[key], err_msg=f"w={w} {key}")
    for k, inst in enumerate(insts):
        for m, p in enumerate(pool):
            od, sp, info = wr.ahap_reference(inst, *fcs[k], p.window, p.commitment, p.threshold, rule,
                                             averaging, guard)
            d = inst.deadline
            np.testing.assert_array_equal(new["on_demand"][k, m], od[:d], err_msg=f"job {k} {p.name}")
            np.testing.assert_array_equal(new["spot"][k, m], sp[:d], err_msg=f"job {k} {p.name}")
            assert new["windows_solved"][k, m] == info["windows_solved"]


def test_clipped_windows_equal_unclipped():
    insts = [tiny(s, slots=14, deadline=6, work=16.0, nmax=4) for s in range(4)]
    stacked, _, q = _arrays(insts, noisy(0.2, seed=2), 2)
    win, com, thr = _pool_arrays(paper_pool(windows=(2,), sigmas=(0.5,), ahanp=False))
    args = dict(lattice_step=wk.lattice_size(insts, 0, q), shifts=wk.shifts_of(insts[0], q))
    a = pk.ahap_pool(stacked, win, com, thr, clip=True, **args)
    b = pk.ahap_pool(stacked, win, com, thr, clip=False, **args)
    for key in KEYS:
        np.testing.assert_array_equal(a[key], b[key])


def test_solve_windows_matches_single_window_solver():
    insts = [tiny(s, slots=14, deadline=6, work=15.0, nmax=4) for s in range(3)]
    stacked, _, q = _arrays(insts, noisy(0.2, seed=5), 2)
    rng = np.random.default_rng(0)
    job = rng.integers(0, 3, 5)
    z = np.round(rng.uniform(0, 8, 5), 1)
    prev = rng.integers(0, 5, 5)
    G, sh = wk.lattice_size(insts, 2, q), wk.shifts_of(insts[0], q)
    o, s = wb.solve_windows(stacked, job, 1, z, prev, window=2, lattice=G, shifts=sh)
    for i in range(5):
        one = {k: v[job[i]] for k, v in stacked.items()}
        _, o1, s1 = wk.solve_window(one, 1, z[i], int(prev[i]), window=2, lattice=G, shifts=sh)
        np.testing.assert_array_equal(o[i], o1)
        np.testing.assert_array_equal(s[i], s1)


def test_batched_solver_does_not_recompile_for_a_second_workload():
    win, com, thr = _pool_arrays(SMALL_POOL)

    def run(seed):
        insts = _insts(10 * seed, k=3)
        stacked, _, q = _arrays(insts, noisy(0.2, seed=seed), 2, size=17)
        return pk.ahap_pool(stacked, win, com, thr, lattice_step=wk.lattice_size(insts, 0, q),
                            shifts=wk.shifts_of(insts[0], q))

    run(0)
    before = pk.cache_size()
    run(1)
    assert pk.cache_size() == before
    assert pk.bucket(1) == pk.MIN_BUCKET and pk.bucket(65) == 128 and wb.padded_size(wb.BATCH + 1) == 2 * wb.BATCH


def test_evaluate_pool_engines_agree_and_bad_engine():
    jobs = _insts(20)
    pool = paper_pool(windows=(1, 2), sigmas=(0.3, 0.6, 0.9))
    pred = noisy(0.2, seed=1)
    u1, i1 = evaluate_pool(jobs, pool, pred, seed=2, engine="batched")
    u2, i2 = evaluate_pool(jobs, pool, pred, seed=2, engine="vmap")
    np.testing.assert_array_equal(u1, u2)
    assert i1["windows_solved"] == i2["windows_solved"] and i1["windows_unique"] <= i1["windows_solved"]
    with pytest.raises(InvalidScenarioError, match="engine"):
        evaluate_pool(jobs, pool, pred, engine="loop")


@pytest.mark.slow
@pytest.mark.parametrize("pred", [perfect(), noisy(0.1, seed=0), noisy(0.3, kind="magnitude", dist="heavy")],
                         ids=["perfect", "noisy", "noisy-heavy"])
def test_full_paper_pool_on_eight_paper_jobs_identical(pred):
    jobs = aisched.scenarios.spot.workload(seed=7, jobs=8, deadline=10)
    u1, _ = evaluate_pool(jobs, paper_pool(), pred, seed=1, engine="batched")
    u2, _ = evaluate_pool(jobs, paper_pool(), pred, seed=1, engine="vmap", chunk=8)
    np.testing.assert_array_equal(u1, u2)


@pytest.mark.slow  # the rule itself is checked fast in test_sigma_floor_uses_every_cheap_spot_gpu
def test_sigma_gives_the_pool_more_than_15_behaviours():
    # section IV-A: "all spot instances priced below sigma are utilized" in every slot, so sigma
    # changes plans in the window branch too; with sigma only in the "ahead" branch the 105 AHAP
    # policies collapsed to 15 (w, v) behaviours on the paper's workload.
    from aisched.scenarios.spot import workload
    jobs = workload(seed=0, jobs=12)
    pool = paper_pool(ahanp=False)
    distinct = {}
    for rule in ("every_slot", "ahead_only"):
        u, _ = evaluate_pool(jobs, pool, sigma_rule=rule)
        distinct[rule] = len({tuple(np.round(col, 9)) for col in u.T})
    assert distinct["ahead_only"] <= 15 < distinct["every_slot"]


def test_sigma_floor_uses_every_cheap_spot_gpu():
    inst = tiny(3, slots=14, deadline=6, work=14.0, nmin=1, nmax=4)
    for t in range(inst.deadline):
        for s in range(0, 3):
            got = wr.sigma_floor(inst, t, s, 0.6)
            cheap = inst.spot_price[t] <= 0.6 * inst.on_demand_price and inst.spot_available[t] >= inst.min_gpus
            assert got == (max(s, min(int(inst.spot_available[t]), inst.max_gpus)) if cheap else s)
    pf, af = perfect().forecast(inst.spot_price, inst.spot_available, inst.deadline, 2, seed=0)
    od, sp, _ = wr.ahap_reference(inst, pf, af, 2, 1, 0.6)
    n = od + sp
    for t in range(inst.deadline):
        if n[t] > 0 and inst.spot_price[t] <= 0.6 * inst.on_demand_price and inst.spot_available[t] >= inst.min_gpus:
            assert sp[t] == min(int(inst.spot_available[t]), inst.max_gpus)


@pytest.mark.parametrize("windows, averagings", [
    ((1, 3), ("chc",)),
    pytest.param((1, 3, 5), ("chc", "actual_state"), marks=pytest.mark.slow),
])
def test_shared_forward_equals_one_dp_per_window(windows: tuple[int, ...], averagings: tuple[str, ...]):
    """window.groups (one forward DP per job/slot/previous count) == one DP per distinct window, bit for bit
    (the fast case compiles two window lengths under one averaging; the slow one, three under both)."""
    from aisched.online.spot.selection import _forecasts

    jobs = aisched.scenarios.spot.workload(seed=3, jobs=6, deadline=10)
    pool = paper_pool(windows=windows, sigmas=(0.3, 0.7), ahanp=False)
    q = wk.work_quantum(jobs)
    fcs = _forecasts(jobs, [noisy(0.2, seed=4)] * len(jobs), 5, 0)
    stacked = wk.stack([wk.job_arrays(i, pf, af, q, lead=5, size=17) for i, (pf, af) in zip(jobs, fcs)])
    win, com, thr = _pool_arrays(pool)
    args = dict(lattice_step=wk.lattice_size(jobs, 0, q), shifts=wk.shifts_of(jobs[0], q))
    for averaging in averagings:
        a = pk.ahap_pool(stacked, win, com, thr, averaging=averaging, shared_forward=True, **args)
        b = pk.ahap_pool(stacked, win, com, thr, averaging=averaging, shared_forward=False, **args)
        for key in KEYS:
            np.testing.assert_array_equal(a[key], b[key], err_msg=f"{averaging} {key}")
        assert a["stats"]["forward_passes"] < b["stats"]["forward_passes"] == b["stats"]["windows_unique"]


def test_plan_batches_respects_lanes_and_problems():
    from aisched.online.spot.window import groups as wg

    sizes = np.array([1, wg.PROBLEMS + 3, 2] + [1] * (wg.LANES + 2))
    group = np.repeat(np.arange(len(sizes)), sizes)
    call, lane, n = wg.plan_batches(group, sizes)
    assert n == call.max() + 1
    for c in range(n):
        assert (call == c).sum() <= wg.PROBLEMS and len(np.unique(lane[call == c])) <= wg.LANES
    # a call's lanes hold one group each (a group over PROBLEMS is split over lanes)
    pairs = {(int(c), int(ln)): set() for c, ln in zip(call, lane)}
    for c, ln, g in zip(call, lane, group):
        pairs[(int(c), int(ln))].add(int(g))
    assert all(len(v) == 1 for v in pairs.values())


def test_threads_give_the_same_plans_and_no_recompiles(monkeypatch):
    """window.groups.THREADS > 1 runs a slot's calls on worker threads (x64 set per thread): same results."""
    from aisched.online.spot.window import groups as wg

    jobs = aisched.scenarios.spot.workload(seed=5, jobs=6, deadline=10)
    pool = paper_pool(windows=(1, 3), sigmas=(0.3, 0.7))
    pred = noisy(0.2, seed=1)
    one, _ = evaluate_pool(jobs, pool, pred, seed=0)
    before = pk.cache_size()
    monkeypatch.setattr(wg, "THREADS", 2)
    two, _ = evaluate_pool(jobs, pool, pred, seed=0)
    np.testing.assert_array_equal(one, two)
    assert pk.cache_size() == before  # the worker threads reuse the float64 kernels
