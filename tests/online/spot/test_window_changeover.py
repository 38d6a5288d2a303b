"""AHAP's window problem (10) with changeover="on": exact against brute force; AHAP and the pool with it on."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest
from spot_tiny import tiny

import aisched
from aisched.models.spot import SpotInstance
from aisched.online.spot import paper_pool, perfect
from aisched.online.spot import window_reference as wr
from aisched.online.spot.selection import evaluate_pool


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
    """docs/readings.md S7's constructed market: the optimum keeps 1 spot + 1 on-demand with changeover on."""
    return SpotInstance(work=5.6, deadline=3, min_gpus=1, max_gpus=2, value=12.0, hard_deadline_factor=2.0,
                        scale_up_efficiency=0.8, scale_down_efficiency=0.8,
                        spot_price=np.array([0.3, 0.3, 0.3, 0.3, 0.3, 0.3]),
                        spot_available=np.array([2, 1, 2, 2, 2, 2]), changeover="on")


def test_ahap_window_plans_with_the_changeover():
    inst = _switch_market()
    out = aisched.run("ahap", inst, window=2, commitment=1, threshold=0.1)
    assert out.info["engine"] == "reference"
    od, sp = out.plan["on_demand"].values, out.plan["spot"].values
    # planning with the restart cost it keeps one spot + one on-demand GPU and finishes by the deadline
    np.testing.assert_array_equal(od[:3], [1, 1, 1])
    np.testing.assert_array_equal(sp[:3], [1, 1, 1])
    best = aisched.offline(inst).objective
    assert out.objective == pytest.approx(best, abs=1e-6)


def test_pool_runs_with_changeover_on_equal_to_single_runs():
    jobs = [_on(tiny(s, slots=10, deadline=5, work=8.0, nmax=3, mu=0.8)) for s in range(2)]
    pool = paper_pool(windows=(1, 2), sigmas=(0.3, 0.9))
    u, info = evaluate_pool(jobs, pool, perfect(), seed=0)
    assert info["engine"] == "reference"
    for k, inst in enumerate(jobs):
        for m, p in enumerate(pool):
            if p.algorithm == "ahap":
                out = aisched.run("ahap", inst, window=p.window, commitment=p.commitment, threshold=p.threshold)
            else:
                out = aisched.run("ahanp", inst, threshold=p.threshold)
            assert u[k, m] == pytest.approx(out.objective, abs=1e-9), (k, p.name)
