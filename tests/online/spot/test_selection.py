"""Algorithm 2: the pool, the EG weights, regret <= sqrt(2 K ln M), convergence, the pool evaluator."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
from aisched.errors import InvalidScenarioError
from aisched.online.spot import noisy, paper_pool, select
from aisched.online.spot.selection import Policy, eg_weights, evaluate_pool, normalise_utilities


def test_paper_pool_has_112_policies():
    pool = paper_pool()
    assert len(pool) == 112
    assert sum(p.algorithm == "ahap" for p in pool) == 105
    assert len({p.name for p in pool}) == 112
    assert all(1 <= p.commitment <= p.window for p in pool if p.algorithm == "ahap")


def _jobs(k: int):
    return [None] * k  # select() needs only len(jobs) when utilities are given (pool normalisation)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), K=st.integers(2, 300), M=st.integers(2, 20))
def test_weights_are_a_distribution_and_regret_within_bound_random(seed, K, M):
    rng = np.random.default_rng(seed)
    u = rng.random((K, M))
    pool = [Policy("ahanp", 0.5 + i) for i in range(M)]
    res = select(_jobs(K), pool, utilities=u, normalise="pool")
    w = res.weights.values
    assert (w > 0).all() and np.allclose(w.sum(axis=1), 1.0)
    assert res.regret <= res.regret_bound + 1e-9
    assert res.regret_bound == pytest.approx(math.sqrt(2 * K * math.log(M)))


@pytest.mark.parametrize("K", [50, 500])
def test_regret_within_bound_adversarial(K):
    M = 8
    # adversary: utility 1 for the policy with the smallest current weight, 0 for the others
    pool = [Policy("ahanp", 0.1 * (i + 1)) for i in range(M)]
    eta = math.sqrt(2 * math.log(M) / K)
    logw = np.full(M, -math.log(M))
    u = np.zeros((K, M))
    for k in range(K):
        w = np.exp(logw - logw.max())
        u[k, int(np.argmin(w))] = 1.0
        logw += eta * u[k]
    res = select(_jobs(K), pool, utilities=u)
    np.testing.assert_allclose(res.weights.values, eg_weights(normalise_utilities(u)), atol=1e-12)
    assert res.regret <= res.regret_bound


def test_one_dominant_policy_takes_the_weight():
    K, M = 1000, 10
    rng = np.random.default_rng(0)
    u = rng.uniform(0.0, 0.6, (K, M))
    u[:, 3] += 0.4
    res = select(_jobs(K), [Policy("ahanp", 0.1 * i + 0.1) for i in range(M)], utilities=u,
                 choice="greedy")
    assert res.most_weighted == 3 and res.best_policy == 3
    assert res.weights.values[-1, 3] > 0.9
    assert (res.chosen[-100:] == 3).all()


def test_eg_update_matches_the_formula():
    u = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5]])
    w = eg_weights(u, eta=0.7)
    w2 = np.ones(3) / 3 * np.exp(0.7 * u[0])
    np.testing.assert_allclose(w[1], w2 / w2.sum(), atol=1e-12)


def test_evaluate_pool_matches_run_and_nonstationary_phases():
    jobs = aisched.scenarios.spot.workload(seed=2, jobs=3, deadline=6)
    pool = [Policy("ahap", 0.6, 1, 1), Policy("ahap", 0.3, 1, 1), Policy("ahanp", 0.6)]
    pred = noisy(0.2, seed=4)
    u, info = evaluate_pool(jobs, pool, pred, seed=5)
    for k, inst in enumerate(jobs):
        for m, p in enumerate(pool):
            if p.algorithm == "ahap":
                out = aisched.run("ahap", inst, window=p.window, commitment=p.commitment,
                                  threshold=p.threshold, predictor=_Lead(pred, 1), seed=5 * 1_000_003 + k)
            else:
                out = aisched.run("ahanp", inst, threshold=p.threshold)
            assert u[k, m] == pytest.approx(out.verify(inst), abs=1e-9), (k, p.name)
    res = select(jobs, pool, phases=[(2, pred), (1, noisy(2.0, seed=1))])
    assert res.weights.sizes == {"job": 3, "policy": 3}


class _Lead:
    """Forecast with the pool's lead then cut to the run's window (evaluate_pool draws lead = max window)."""

    def __init__(self, pred, lead):
        self.pred, self.lead, self.name = pred, lead, pred.name

    def forecast(self, price, available, slots, lead, *, seed=None):
        p, a = self.pred.forecast(price, available, slots, self.lead, seed=seed)
        return p[:, : lead + 1], a[:, : lead + 1]


def test_bad_selection_input():
    with pytest.raises(InvalidScenarioError, match="phases"):
        select(_jobs(3), [Policy("ahanp", 0.5)] * 2, phases=[(2, noisy(0.1))], utilities=np.zeros((3, 2)))
    with pytest.raises(InvalidScenarioError, match="utilities"):
        select(_jobs(3), [Policy("ahanp", 0.5)] * 2, utilities=np.zeros((2, 2)))


def test_empty_pool_or_workload_is_refused_by_name():
    from spot_tiny import tiny
    jobs = [tiny(0, slots=14, deadline=6, work=12.0, nmin=1, nmax=4)]
    with pytest.raises(InvalidScenarioError, match="^pool: "):
        select(jobs, [])
    with pytest.raises(InvalidScenarioError, match="^pool: "):
        evaluate_pool(jobs, [])
    with pytest.raises(InvalidScenarioError, match="^jobs: "):
        select([], paper_pool(windows=(1,), sigmas=(0.5,)))
    with pytest.raises(InvalidScenarioError, match="^sigma_rule: "):
        evaluate_pool(jobs, paper_pool(windows=(1,), sigmas=(0.5,)), sigma_rule="never")
