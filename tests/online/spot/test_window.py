"""The windowed problem (10): JAX lattice DP == NumPy reference == MILP of (10)."""

from __future__ import annotations

import numpy as np
import pytest
from spot_tiny import tiny

from aisched.models.spot import solve_window_milp
from aisched.online.spot.predictors import noisy
from aisched.online.spot.window import kernel as wk
from aisched.online.spot.window import reference as wr


def _milp(inst, price, avail, prev, z, rest):
    thresholds, values = inst.terminal_steps(rest)
    return solve_window_milp(
        price=price, available=avail, on_demand_price=inst.on_demand_price,
        min_gpus=inst.min_gpus, max_gpus=inst.max_gpus, throughput_slope=inst.throughput_slope,
        throughput_intercept=inst.throughput_intercept, scale_up_efficiency=inst.scale_up_efficiency,
        scale_down_efficiency=inst.scale_down_efficiency, previous_gpus=prev, start_progress=z,
        thresholds=thresholds, values=values)


@pytest.mark.parametrize("seed", range(6))
def test_kernel_reference_and_milp_agree_on_random_windows(seed):
    rng = np.random.default_rng(100 + seed)
    inst = tiny(seed, slots=14, deadline=6, work=float(rng.integers(10, 25)), nmin=int(rng.integers(1, 3)),
                nmax=4, mu=float(rng.choice([0.8, 0.9, 1.0])))
    if seed % 2:  # an intercept beta > 0 exercises the lattice offset b of the shear
        inst = inst.replace(throughput_intercept=0.5, scale_up_efficiency=0.8, scale_down_efficiency=1.0)
    q = wk.work_quantum(inst)
    pf, af = noisy(0.3, seed=seed).forecast(inst.spot_price, inst.spot_available, inst.deadline, 3)
    job = wk.job_arrays(inst, pf, af, q, lead=3)
    window = int(rng.integers(1, 4))
    t = int(rng.integers(0, inst.deadline))
    z = float(np.round(rng.uniform(0, inst.work * 0.6), 1))
    prev = int(rng.choice(inst.gpu_options()))
    e, rest = wr.window_terms(inst, t, window)
    price, avail = pf[t, : e - t + 1], af[t, : e - t + 1]
    ref_val, ref_o, ref_s = wr.solve_window(inst, price, avail, prev, z, rest)
    ker_val, ker_o, ker_s = wk.solve_window(job, t, z, prev, window=window,
                                            lattice=wk.lattice_size(inst, window, q),
                                            shifts=wk.shifts_of(inst, q))
    milp_val, _, _, status = _milp(inst, price, avail, prev, z, rest)
    assert status == "optimal"
    assert ker_val == pytest.approx(ref_val, abs=1e-6)
    assert milp_val == pytest.approx(ref_val, abs=1e-5)
    np.testing.assert_array_equal(ker_o[: e - t + 1], ref_o)
    np.testing.assert_array_equal(ker_s[: e - t + 1], ref_s)
    assert not (ker_o[e - t + 1:].any() or ker_s[e - t + 1:].any())  # past the deadline: nothing


def test_work_quantum():
    assert wk.work_quantum(tiny(0, mu=0.9)) == pytest.approx(0.1)
    assert wk.work_quantum(tiny(0, mu=1.0)) == pytest.approx(1.0)
    assert wk.work_quantum(tiny(0, mu=0.912345)) is None


def test_no_recompile_across_jobs_and_policies():
    insts = [tiny(s, slots=14, deadline=6, work=15.0, nmax=4) for s in range(3)]
    q = 0.1
    arrays = []
    for inst in insts:
        pf, af = noisy(0.2, seed=1).forecast(inst.spot_price, inst.spot_available, inst.deadline, 5)
        arrays.append(wk.job_arrays(inst, pf, af, q))
    G = wk.lattice_size(insts, 2, q)
    sh = wk.shifts_of(insts[0], q)
    wk.ahap_batch(wk.stack(arrays[:2]), np.array([1, 2]), np.array([0.5, 0.7]), window=2, lattice=G,
                  shifts=sh)
    before = wk.cache_size()
    wk.ahap_batch(wk.stack(arrays[1:]), np.array([2, 1]), np.array([0.9, 0.3]), window=2, lattice=G,
                  shifts=sh)
    assert wk.cache_size() == before
