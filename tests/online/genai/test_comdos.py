"""ComDOS (Algorithm 1): feasibility, <= optimum, dual update (9), mu of (8), prices never decrease."""

from __future__ import annotations

import numpy as np
import pytest
from genai_tiny import make_instance, random_tiny
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aisched
from aisched.errors import InvalidScenarioError
from aisched.online.genai import comdos


@pytest.mark.parametrize("seed", range(6))
def test_outcomes_verify_and_stay_below_the_optimum(seed):
    inst = random_tiny(seed)
    opt = aisched.offline(inst)
    assert opt.status == "optimal"
    for params in ({}, {"room_aware": True}, {"cost_weights": (0.0, 0.0, 0.0)}):
        out = aisched.run("comdos", inst, **params)
        value = out.verify(inst)
        assert value <= opt.objective + 1e-9
        assert out.prices["memory_price"].dims == ("edge", "slot")
        assert np.all(out.prices["memory_price"].values >= 0)
        assert out.decision_s.shape == (inst.num_jobs,)


def one_task_instance(revenue=20.0):
    """One job, one task, model of 2 GB running 2 slots; edges of 4 and 8 GB."""
    job = {"arrival": 0, "deadline": 3, "revenue": revenue, "edges": [], "data": [],
           "models": [[0]], "runtime": [[2]], "compute": [[1.0]]}
    return make_instance(slots=4, capacity=[4.0, 8.0], model_size=[2.0], jobs=[job, dict(job)],
                         cost=(0.5, 0.0, 0.25))


@pytest.mark.parametrize(("reading", "alpha"), [("gb", 20.0 / 2.0), ("density_ratio", (20.0 / 2.0) / (20.0 / 4.0))])
def test_dual_update_9_by_hand(reading, alpha):
    """``"gb"``: alpha = max_i b_i / r_i,min = 20 / 2 GB; ``"density_ratio"``: that over min_i b_i / R_i,max = 20 / 4."""
    inst = one_task_instance()
    state = comdos.ComdosState(inst, alpha_reading=reading)
    assert state.alpha == pytest.approx(alpha)
    d = state.step(0)
    # both edges cost the same: the DP keeps the first (edge 0), the earliest start (slot 0)
    assert (d.edge.tolist(), d.start.tolist()) == ([0], [0])
    cost = 2 * (1.0 * 0.5 + 2.0 * 0.25)  # f (r^f e^f + r^s e^h), weights 1; e^f = 0.5, e^h = 0.25
    assert d.profit == pytest.approx(20.0 - cost)
    assert d.mu == pytest.approx(d.profit)  # prices start at 0
    b_bar = d.profit / 4.0  # b_il / sum r_kt (2 GB x 2 slots)
    want = np.zeros((2, 4))
    want[0, :2] = 0 * (1 + 2 / 4) + state.alpha * b_bar * 2.0 / 4.0
    np.testing.assert_allclose(state.price, want)
    d2 = state.decide(1)  # slots 0-1 of edge 0 are now priced: the second job avoids them
    assert (d2.edge.tolist(), d2.start.tolist()) == ([0], [2]) and d2.mu == pytest.approx(d.profit)
    state.step(1)
    assert state.price[0, 0] == pytest.approx(want[0, 0])  # untouched cells keep their price


def test_job_without_value_is_declined_and_prices_stay():
    inst = one_task_instance(revenue=0.01)
    out = aisched.run("comdos", inst)
    assert not out.admitted.any() and out.objective == 0.0
    assert np.all(out.prices["memory_price"].values == 0.0)
    assert np.all(out.info["mu"] == 0.0)


def test_prices_rise_even_when_the_resource_check_declines():
    """Algorithm 1, lines 4-8: (9) runs before the check; an oversized schedule raises prices but is declined."""
    job = {"arrival": 0, "deadline": 1, "revenue": 30.0, "edges": [], "data": [],
           "models": [[0], [0]], "runtime": [[1], [1]], "compute": [[1.0], [1.0]]}
    job["edges"], job["data"] = [], []
    inst = make_instance(slots=2, capacity=[3.0], model_size=[2.0], jobs=[job], cost=(0.0, 0.0, 0.0))
    out = aisched.run("comdos", inst)  # both tasks start in slot 0 on the only edge: 4 GB > 3 GB
    assert not out.admitted[0]
    assert out.prices["memory_price"].values[0, 0] > 0
    out.verify(inst)


def test_mu_is_8_of_the_chosen_schedule():
    inst = random_tiny(3, jobs=4)
    state = comdos.ComdosState(inst)
    rng = np.random.default_rng(0)
    state.price = rng.exponential(0.3, state.price.shape)
    for i in range(inst.num_jobs):
        d = state.decide(i)
        if d.option < 0:
            continue
        usage = np.zeros_like(state.price)
        for j in range(int(inst.num_tasks[i])):
            c = int(np.nonzero(inst.candidate_model[i, j] == d.model[j])[0][0])
            usage[d.edge[j], d.start[j]: d.start[j] + inst.runtime[i, j, c]] += inst.model_size[d.model[j]]
        assert d.mu == pytest.approx(d.profit - float(np.sum(usage * state.price)))


def scaled(inst, money=1.0, memory=1.0):
    """``inst`` in other units: currency x ``money``, memory x ``memory`` (GB -> MB is 1000)."""
    import dataclasses

    return dataclasses.replace(
        inst, revenue=inst.revenue * money, compute_cost=inst.compute_cost * money,
        transfer_cost=inst.transfer_cost * money, hosting_cost=inst.hosting_cost * money / memory,
        model_size=inst.model_size * memory, memory_capacity=inst.memory_capacity * memory)


@pytest.mark.parametrize("seed", range(4))
def test_density_ratio_alpha_is_unit_free_and_gb_is_not(seed):
    """Decisions under the default alpha do not depend on the currency or memory unit."""
    inst = random_tiny(seed, jobs=4)
    base = aisched.run("comdos", inst)
    for money, memory in ((10.0, 1.0), (1.0, 1000.0), (0.1, 8.0)):
        other = scaled(inst, money, memory)
        out = aisched.run("comdos", other)
        assert out.info["alpha"] == pytest.approx(base.info["alpha"])
        np.testing.assert_array_equal(out.admitted, base.admitted)
        np.testing.assert_array_equal(out.plan["edge"].values, base.plan["edge"].values)
        assert out.objective == pytest.approx(base.objective * money)
        gb = comdos.default_alpha(other, "gb")
        assert gb == pytest.approx(comdos.default_alpha(inst, "gb") * money / memory)


def test_density_ratio_alpha_blocks_a_full_cell():
    """Property (ii) of (9): once a cell is full, its price makes every job's use of it unprofitable."""
    inst = one_task_instance()
    state = comdos.ComdosState(inst)
    high, low = comdos.algorithm._revenue_densities(inst)
    d = state.step(0)
    b_bar = d.profit / d.usage.sum()
    full = d.usage / inst.memory_capacity[:, None]
    # a single job filling c (usage / c = 1) would push lambda to alpha * b_bar >= alpha * L = U
    assert state.alpha * low.min() == pytest.approx(high.max())
    np.testing.assert_allclose(state.price, state.alpha * b_bar * full)


def test_bad_alpha_reading():
    with pytest.raises(InvalidScenarioError, match="alpha_reading: = 'GB'"):
        aisched.run("comdos", random_tiny(0), alpha_reading="GB")
    with pytest.raises(InvalidScenarioError, match="alpha_reading"):
        comdos.default_alpha(random_tiny(0), "x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("params", "needle"),
    [({"alpha": -1.0}, "alpha"), ({"cost_weights": (1, 2)}, "cost_weights"), ({"chunk": 0}, "chunk")],
)
def test_bad_parameters(params, needle):
    with pytest.raises(InvalidScenarioError, match=needle):
        aisched.run("comdos", random_tiny(0), **params)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.booleans())
def test_hypothesis_prices_never_decrease_and_plans_hold(seed, room_aware):
    inst = random_tiny(seed, jobs=4)
    state = comdos.ComdosState(inst, room_aware=room_aware)
    order = np.lexsort((np.arange(inst.num_jobs), inst.arrival))
    for i in order.tolist():
        before = state.price.copy()
        state.step(i)
        assert np.all(state.price >= before)
        assert np.all(state.used <= inst.memory_capacity[:, None] + 1e-9)  # capacity (5h)
    out = aisched.run("comdos", inst, room_aware=room_aware)
    out.verify(inst)  # precedence (5e), deadline (5d), capacity (5h) from the plan alone


def _two_jobs_that_must_overlap():
    """Two one-task jobs that must both run in slots 0-1 of one edge (readings A2c)."""
    job = {"arrival": 0, "deadline": 1, "revenue": 10.0, "edges": [], "data": [],
           "models": [[0]], "runtime": [[2]], "compute": [[1.0]]}
    return make_instance(slots=3, capacity=[8.0], model_size=[2.0], jobs=[job, job], cost=(0.0, 0.0, 0.0))


@pytest.mark.parametrize("room_aware", [False, True])
def test_a_gpu_limit_declines_the_job_that_would_run_past_it(room_aware):
    inst = _two_jobs_that_must_overlap()
    plain = aisched.run("comdos", inst, room_aware=room_aware)
    assert plain.admitted.tolist() == [True, True] and plain.info["gpus"] == -1  # IP (5): no limit
    limited = aisched.run("comdos", inst, room_aware=room_aware, gpus=1)
    assert limited.admitted.tolist() == [True, False] and limited.info["gpus"] == 1
    assert limited.objective == pytest.approx(10.0)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("options", [{}, {"room_aware": True}, {"selection": "exact"}, comdos.FULL_CELL_OPTIONS])
def test_comdos_with_gpus_never_runs_more_tasks_at_once(seed, options):
    from aisched.online.genai import metrics

    inst = random_tiny(seed)
    out = aisched.run("comdos", inst, gpus=1, **options)  # run verifies the plan against IP (5)
    assert metrics.utilisation(inst, out, gpus=1)["gpu_oversubscribed"] == 0.0
    assert out.objective <= aisched.offline(inst, gpus=1).objective + 1e-9


def test_bad_gpus_is_refused_by_comdos():
    with pytest.raises(InvalidScenarioError, match=r"^gpus: = 0 "):
        aisched.run("comdos", random_tiny(0), gpus=0)


# Beyond the paper (docs/readings/genai.md A2e): a computation capacity gpus=G priced by nu_kt.

def test_gpu_price_beyond_paper_by_hand():
    """One 2-slot task on edge 0 from slot 0, G = 2: nu rises by (9)'s form, alpha * b_hat * n / G,
    b_hat = b_il / sum n_kt = b_il / 2; the memory price is the paper's, unchanged by the option."""
    inst = one_task_instance()
    plain = comdos.ComdosState(inst, gpus=2)
    state = comdos.ComdosState(inst, gpus=2, gpu_price_beyond_paper=True)
    d, d_plain = state.step(0), plain.step(0)
    assert (d.edge.tolist(), d.start.tolist()) == ([0], [0]) and d.mu == pytest.approx(d_plain.mu)
    np.testing.assert_array_equal(state.price, plain.price)
    want = np.zeros((2, 4))
    want[0, :2] = state.alpha * (d.profit / 2.0) * 1.0 / 2.0
    np.testing.assert_allclose(state.gpu_price, want)
    d2 = state.decide(1)  # the DP avoids the memory-priced cells; (8) would charge nu where it runs
    assert d2.mu == pytest.approx(d2.profit - float(np.sum(d2.usage * state.price))
                                  - float(np.sum(d2.tasks * state.gpu_price)))
    assert plain.gpu_price is None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_gpu_price_beyond_paper_never_decreases_and_plans_hold(seed):
    from aisched.online.genai import metrics

    inst = random_tiny(seed, jobs=4)
    state = comdos.ComdosState(inst, gpus=1, gpu_price_beyond_paper=True)
    before = state.gpu_price.copy()
    for i in np.lexsort((np.arange(inst.num_jobs), inst.arrival)).tolist():
        state.step(i)
        assert np.all(state.gpu_price >= before - 1e-12)
        before = state.gpu_price.copy()
    out = aisched.run("comdos", inst, gpus=1, gpu_price_beyond_paper=True)  # verified against IP (5)
    assert metrics.utilisation(inst, out, gpus=1)["tasks_running_peak"] <= 1
    assert "gpu_price_beyond_paper" in out.prices and "gpu_price_beyond_paper" not in aisched.run(
        "comdos", inst, gpus=1).prices


def test_gpu_price_beyond_paper_off_is_todays_run():
    for seed in range(3):
        inst = random_tiny(seed, jobs=4)
        a = aisched.run("comdos", inst, gpus=1)
        b = aisched.run("comdos", inst, gpus=1, gpu_price_beyond_paper=False)
        assert a.plan.equals(b.plan) and a.prices.equals(b.prices) and a.info["dual_objective"] == b.info[
            "dual_objective"]


@pytest.mark.parametrize(("params", "needle"), [
    ({"gpu_price_beyond_paper": True}, r"gpu_price_beyond_paper: = True needs gpus=G"),
    ({"gpu_price_beyond_paper": 1, "gpus": 2}, r"gpu_price_beyond_paper: = 1"),
])
def test_bad_gpu_price_beyond_paper_is_refused(params, needle):
    with pytest.raises(InvalidScenarioError, match=needle):
        aisched.run("comdos", random_tiny(0), **params)
