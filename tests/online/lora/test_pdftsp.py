"""pdFTSP (Algorithm 1): feasibility, <= optimum, dual updates, payments, audit, IR."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lora_tiny import brute_force_optimum, random_tiny

import aisched
from aisched.models.lora import LoraInstance
from aisched.online.lora import pdftsp

ALGORITHMS = ["pdftsp", "titan", "eft", "ntm"]


@pytest.mark.parametrize("seed", range(8))
def test_online_outcomes_are_feasible_and_below_the_optimum(seed):
    inst = random_tiny(seed, tasks=3, nodes=2, slots=4, vendors=2)
    best = brute_force_optimum(inst)
    for name in ALGORITHMS:
        out = aisched.run(name, inst)
        value = out.verify(inst)
        assert value <= best + 1e-6, name
    exact = aisched.run("pdftsp", inst, selection="exact")
    assert exact.verify(inst) <= best + 1e-6


def _one_task(bid=10.0, energy=0.0, work=4.0, capacity=4.0, need=2.0):
    return LoraInstance(
        num_slots=2, compute_capacity=[capacity], memory_capacity=[11.0], base_memory=1.0,
        gpu_type=["A100-80GB"], arrival=[0], deadline=[1], memory_need=[need], work=[work],
        needs_preprocessing=[False], bid=[bid], throughput=[[2.0]],
        vendor_price=np.zeros((1, 0)), vendor_delay=np.zeros((1, 0), dtype=int),
        energy_use=[[energy]], energy_price=np.ones((1, 2)),
    )


def test_dual_update_matches_equations_7_and_8_by_hand():
    inst = _one_task(bid=10.0, energy=0.5)
    state = pdftsp.PdftspState(inst, pdftsp.PdftspParams(alpha=2.0, beta=3.0))
    d = state.decide(0)
    assert d.admitted and d.surplus == pytest.approx(10.0 - 1.0)  # prices 0, energy 2 x 0.5
    state.commit(d)
    # b_il = 10 - 1 = 9; sum s + sum r = 4 + 4 = 8; b-bar = 9/8
    b_bar = 9.0 / 8.0
    lam = 0.0 * (1 + 2 / 4) + 2.0 * b_bar * 2 / 4
    phi = 0.0 * (1 + 2 / 10) + 3.0 * b_bar * 2 / 10
    np.testing.assert_allclose(state.prices["compute_price"].values, [[lam, lam]])
    np.testing.assert_allclose(state.prices["memory_price"].values, [[phi, phi]])
    # a second identical decision now pays max price x use
    d2 = state.decide(0)
    assert d2.compute_max_price == pytest.approx(lam)
    assert d2.surplus == pytest.approx(10.0 - 1.0 - lam * 4 - phi * 4)


def test_prices_rise_even_when_the_resource_check_rejects():
    # two identical tasks on a node that fits only one: the second has F > 0
    # (small alpha/beta) but no room; its prices still rise (Algorithm 1, line 7)
    base = _one_task(bid=10.0, capacity=2.0)
    inst = base.subset([0, 0])
    state = pdftsp.PdftspState(inst, pdftsp.PdftspParams(alpha=0.01, beta=0.01))
    first = state.decide(0)
    state.commit(first)
    before = state.prices["compute_price"].values.copy()
    second = state.decide(1)
    assert second.surplus > 0 and not second.fits and not second.admitted
    state.commit(second)
    assert (state.prices["compute_price"].values > before).all()
    assert state.used_compute.max() == pytest.approx(2.0)


def test_payment_paper_and_corrected():
    inst = _one_task(bid=10.0, energy=0.5)
    paper = aisched.run("pdftsp", inst, payment="paper")
    corrected = aisched.run("pdftsp", inst)
    assert paper.payments[0] == pytest.approx(0.0)  # first task: all prices 0, no vendor
    assert corrected.payments[0] == pytest.approx(1.0)  # + its energy cost
    assert paper.objective == corrected.objective


def test_paper_payment_rewards_overbidding_and_corrected_does_not():
    # true value 10.5 lies between p_i (=0 + prices) and p_i + energy (=11): the paper's
    # mechanism rejects the truthful bid but admits an overbid at a profit
    # energy cost: 2 slots x 5.5 x price 1 = 11 > 10.5, so the truthful F < 0
    inst = _one_task(bid=10.5, energy=5.5)
    bids = [10.5, 12.0, 20.0]
    paper = pdftsp.audit(inst, 0, bids, payment="paper")
    assert not paper.loc[0, "admitted"] and paper.loc[0, "utility"] == 0
    assert paper.loc[1, "admitted"] and paper.loc[1, "utility"] > 0  # lying pays
    fixed = pdftsp.audit(inst, 0, bids)
    assert (fixed["utility"] <= fixed.loc[0, "utility"] + 1e-12).all()
    assert (fixed.loc[fixed["admitted"], "utility"] < 0).all()


def test_audit_matches_full_reruns():
    inst = aisched.scenarios.lora.generate(seed=2, nodes=3, slots=8, tasks=10, vendors=2)
    alpha, beta = pdftsp.default_alpha_beta(inst)
    task = 6
    bids = np.linspace(0, 2 * inst.bid[task], 7)
    table = pdftsp.audit(inst, task, bids, alpha=alpha, beta=beta)
    for row in table.itertuples():
        out = aisched.run("pdftsp", inst.with_bid(task, row.bid), alpha=alpha, beta=beta)
        assert out.admitted[task] == row.admitted
        assert out.payments[task] == pytest.approx(row.payment)


def test_individual_rationality_over_admitted_tasks():
    inst = aisched.scenarios.lora.generate(seed=0, nodes=3, slots=10, tasks=16, vendors=2)
    out = aisched.run("pdftsp", inst)
    table = pdftsp.individual_rationality(inst, out)
    assert len(table) == out.num_admitted > 0
    assert table["rational"].all()
    with pytest.raises(aisched.InvalidScenarioError):
        pdftsp.individual_rationality(inst, aisched.run("eft", inst))


def test_default_alpha_beta_is_lemma_2():
    inst = random_tiny(3)
    alpha, beta = pdftsp.default_alpha_beta(inst)
    assert alpha == pytest.approx(np.max(inst.bid / inst.work))
    assert beta == pytest.approx(np.max(inst.bid / inst.memory_need))
    out = aisched.run("pdftsp", inst)
    assert out.info["alpha"] == pytest.approx(alpha)


@pytest.mark.parametrize("bad", [{"alpha": -1.0}, {"beta": float("nan")}, {"selection": "greedy"}, {"payment": "vcg"}])
def test_bad_parameters_are_named(bad):
    with pytest.raises(aisched.InvalidScenarioError, match=next(iter(bad))):
        aisched.run("pdftsp", random_tiny(0), **bad)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), selection=st.sampled_from(["faithful", "cell_prices", "exact"]))
def test_invariants_hold_on_random_instances(seed, selection):
    inst = random_tiny(seed, tasks=4, nodes=2, slots=5, vendors=2)
    params = pdftsp.PdftspParams(*pdftsp.default_alpha_beta(inst), selection=selection)
    state = pdftsp.PdftspState(inst, params)
    for task in np.argsort(inst.arrival, kind="stable"):
        before = state.prices.copy(deep=True)
        d = state.decide(int(task))
        state.commit(d)
        # prices never decrease
        assert (state.prices["compute_price"].values >= before["compute_price"].values).all()
        assert (state.prices["memory_price"].values >= before["memory_price"].values).all()
        if d.admitted:
            # payments <= bids (corrected: F = b - p > 0)
            assert d.payment <= inst.bid[task] + 1e-9
            # window and vendor delay respected
            used = np.nonzero(d.assignment >= 0)[0]
            delay = inst.vendor_delay[task, d.option] if inst.needs_preprocessing[task] else 0
            assert used.min() >= inst.arrival[task] + delay and used.max() <= inst.deadline[task]
    # capacities hold for admitted tasks
    assert (state.used_compute <= inst.compute_capacity[:, None] + 1e-9).all()
    assert (state.used_memory + inst.base_memory <= inst.memory_capacity[:, None] + 1e-9).all()
    out = aisched.run("pdftsp", inst, selection=selection)
    assert out.verify(inst) <= brute_force_optimum(inst) + 1e-6


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), factor=st.floats(0.0, 3.0))
def test_truthful_bid_is_never_beaten(seed, factor):
    inst = random_tiny(seed, tasks=3, nodes=2, slots=4, vendors=2)
    task = int(np.argsort(inst.arrival, kind="stable")[-1])
    true_value = inst.bid[task]
    table = pdftsp.audit(inst, task, [true_value, factor * true_value, true_value + 5.0])
    assert (table["utility"] <= table.loc[0, "utility"] + 1e-9).all()


def test_slot_consistent_beta_divides_by_the_fewest_slots():
    inst = random_tiny(4, tasks=3)
    alpha, beta = pdftsp.slot_consistent_alpha_beta(inst)
    a0, b0 = pdftsp.default_alpha_beta(inst)
    slots = np.ceil(inst.work / inst.throughput.max(axis=1))
    assert alpha == a0
    assert beta == pytest.approx(np.max(inst.bid / (inst.memory_need * slots)))
    assert beta <= b0
    out = aisched.run("pdftsp", inst, alpha=alpha, beta=beta)
    assert out.verify(inst) <= brute_force_optimum(inst) + 1e-6
