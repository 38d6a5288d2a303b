"""The fast Algorithm 2 as printed (node fronts, reachable levels) is bit-identical to the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aisched
from aisched.online.lora.pdftsp import algorithm as pdftsp
from aisched.online.lora.pdftsp import fronts as fr
from aisched.online.lora.pdftsp import reference as ref
from aisched.scenarios.lora import generate
from tests.online.lora.test_pdftsp_kernel import MID, kernel_args, make_task, ref_args

FIELDS = ("surplus", "compute_max_price", "memory_max_price", "total_compute", "total_memory",
          "energy")


def assert_identical(choice, cost, assign, oracle):
    """Bit-identical schedules, surpluses, choice and parts; DP costs to an ulp or two
    (XLA:CPU fuses multiply-adds, NumPy does not; exact on integer prices, see below)."""
    np.testing.assert_allclose(np.asarray(cost), oracle.option_cost, rtol=1e-14, atol=0)
    np.testing.assert_array_equal(np.asarray(assign), oracle.option_assignment)
    np.testing.assert_array_equal(np.asarray(choice.option_surplus), oracle.option_surplus)
    assert int(choice.option) == oracle.option
    np.testing.assert_array_equal(np.asarray(choice.assignment), oracle.assignment)
    for field in FIELDS:
        assert float(getattr(choice, field)) == float(getattr(oracle, field)), field


def cloned_task(rng, *, n_kinds=2, copies=4, prices="integer", **kw):
    """A task whose nodes come in kinds of identical throughput / energy use (fronts prune)."""
    task = make_task(rng, n_nodes=n_kinds, prices=prices, **kw)
    kind = np.repeat(np.arange(n_kinds), copies)
    rng.shuffle(kind)
    n_nodes, n_slots = kind.size, task["compute_price"].shape[1]
    for name in ("throughput", "throughput_units", "energy_use"):
        task[name] = task[name][kind]
    if prices == "integer":  # few values: many dominated nodes and many exact ties
        task["compute_price"] = rng.integers(0, 3, (n_nodes, n_slots)).astype(float)
        task["memory_price"] = rng.integers(0, 3, (n_nodes, n_slots)).astype(float)
        task["energy_price"] = rng.integers(0, 2, (n_nodes, n_slots)).astype(float)
    else:
        task["compute_price"] = rng.exponential(1.0, (n_nodes, n_slots))
        task["memory_price"] = rng.exponential(1.0, (n_nodes, n_slots))
        task["energy_price"] = np.repeat(rng.random((1, n_slots)), n_nodes, axis=0)
    return task


@pytest.mark.parametrize("prices", ["continuous", "integer"])
@pytest.mark.parametrize("seed", range(12))
def test_fronts_match_the_literal_dp_bit_for_bit(seed, prices):
    task = cloned_task(np.random.default_rng(900 + seed), prices=prices, **{
        k: v for k, v in MID.items() if k != "n_nodes"})
    out = fr.faithful_options(*kernel_args(task, 3), max_work_units=MID["w_max"])
    oracle = ref.select_faithful_reference(*ref_args(task))
    assert_identical(*out, oracle)
    if prices == "integer":  # exact products: the DP values too are bit-identical
        np.testing.assert_array_equal(out[1], oracle.option_cost)


@pytest.mark.parametrize("seed", range(8))
def test_fronts_match_the_oracle_on_distinct_nodes(seed):
    task = make_task(np.random.default_rng(seed), **MID)
    fast = fr.faithful_options(*kernel_args(task, 3), max_work_units=MID["w_max"])
    assert_identical(*fast, ref.select_faithful_reference(*ref_args(task)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), copies=st.integers(1, 4),
       prices=st.sampled_from(["integer", "zero", "continuous"]), w_max=st.sampled_from([4, 12, 70]))
def test_fronts_bit_identical_hypothesis(seed, copies, prices, w_max):
    rng = np.random.default_rng(seed)
    task = cloned_task(rng, n_kinds=2, copies=copies, prices=prices, n_slots=8, n_options=3,
                       w_max=w_max, max_units=5)
    out = fr.faithful_options(*kernel_args(task, 4), max_work_units=128)
    assert_identical(*out, ref.select_faithful_reference(*ref_args(task)))


def brute_front(cp, mp, ep, cls):
    k = cp.shape[0]
    keep = np.ones(cp.shape, bool)
    for t in range(cp.shape[1]):
        for j in range(k):
            keep[j, t] = not any(cls[i] == cls[j] and cp[i, t] <= cp[j, t] and mp[i, t] <= mp[j, t]
                                 and ep[i, t] <= ep[j, t] for i in range(j))
    return keep


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 6))
def test_front_updates_equal_a_fresh_front(seed, rounds):
    """Prices only rise; after each rise the kept front is the brute-force undominated set."""
    rng = np.random.default_rng(seed)
    n_nodes, n_slots = int(rng.integers(1, 9)), 4
    cls, cp, mp, ep = _small_integer_prices(rng, n_nodes, n_slots, classes=2)
    fronts = fr.Fronts(cp, mp, ep, cls, width=2)
    for _ in range(rounds):
        nodes = rng.integers(0, n_nodes, 3)
        slots = rng.integers(0, n_slots, 3)
        cp[nodes, slots] += rng.integers(0, 3, 3)
        mp[nodes, slots] += rng.integers(0, 3, 3)
        fronts.update(slots)
        want = brute_front(cp, mp, ep, cls)
        for t in range(n_slots):
            got = fronts.nodes[t][fronts.nodes[t] < n_nodes]
            np.testing.assert_array_equal(got, np.nonzero(want[:, t])[0])
            np.testing.assert_array_equal(fronts.compute_price[t, :got.size], cp[got, t])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 6), width=st.sampled_from([1, 2, 64]))
def test_front_after_raised_cells_equals_a_fresh_front(seed, rounds, width):
    """Algorithm 1 raises one cell per slot (the schedule's node); :meth:`Fronts.raised`
    (one class, all slots at once) keeps exactly the brute-force undominated set."""
    rng = np.random.default_rng(seed)
    n_nodes, n_slots = int(rng.integers(1, 12)), 5
    cls, cp, mp, ep = _small_integer_prices(rng, n_nodes, n_slots, classes=3)
    fronts = fr.Fronts(cp, mp, ep, cls, width=width)
    for _ in range(rounds):
        slots = rng.choice(n_slots, int(rng.integers(0, n_slots + 1)), replace=False)
        on_front = rng.random() < 0.7  # as in a run: the raised node is a front node
        nodes = np.array([rng.choice(fronts.nodes[t][fronts.nodes[t] < n_nodes]) if on_front
                          else rng.integers(0, n_nodes) for t in slots], dtype=np.int64)
        cp[nodes, slots] += rng.integers(0, 3, slots.size)
        mp[nodes, slots] += rng.integers(0, 3, slots.size)
        fronts.raised(nodes, slots)
        want = brute_front(cp, mp, ep, cls)
        for t in range(n_slots):
            got = fronts.nodes[t][fronts.nodes[t] < n_nodes]
            np.testing.assert_array_equal(got, np.nonzero(want[:, t])[0])
            np.testing.assert_array_equal(fronts.compute_price[t, :got.size], cp[got, t])
            np.testing.assert_array_equal(fronts.memory_price[t, :got.size], mp[got, t])
            np.testing.assert_array_equal(fronts.energy_price[t, :got.size], ep[got, t])
            assert not fronts.compute_price[t, got.size:].any()


@settings(max_examples=60, deadline=None)
@given(need=st.integers(1, 300), units=st.lists(st.integers(1, 60), min_size=1, max_size=3))
def test_reachable_levels_are_exactly_the_levels_dp_reads(need, units):
    seen, frontier = {need}, [need]
    while frontier:
        w = frontier.pop()
        for u in units:
            v = max(0, w - u)
            if v not in seen:
                seen.add(v)
                frontier.append(v)
    levels = set(fr.reachable_levels(need, units).tolist())
    assert seen | {0} <= levels  # a superset is exact too (the fallback 0..need)
    assert levels <= set(range(need + 1))


def replay_against_oracle(inst, **options):
    """Algorithm 1 task by task: each fast decision equals the oracle's on the same state."""
    params, _ = pdftsp._params(inst, None, None, beta_unit="gb_slot", parameters="declared",
                               **options)
    state = pdftsp.PdftspState(inst, params)
    compiles = None
    for task in pdftsp._order(inst):
        task = int(task)
        d = state.decide(task)
        oracle = ref.select_faithful_reference(
            state._compute_price, state._memory_price, state._energy_price, state._energy_use[task],
            inst.throughput[task], state._units[task], float(inst.memory_need[task]),
            int(state._work_units[task]), state._start[task], int(inst.deadline[task]),
            state._fee[task], state._valid[task], float(inst.bid[task]))
        want = state._decision(task, float(inst.bid[task]), oracle)
        np.testing.assert_array_equal(d.assignment, want.assignment)
        assert (d.option, d.surplus, d.admitted, d.payment) == (
            want.option, want.surplus, want.admitted, want.payment)
        state.commit(d)
        if compiles is None:
            compiles = fr.cache_size()
    assert fr.cache_size() == compiles  # no recompilation after the first task


@pytest.mark.parametrize("seed", range(3))
def test_a_whole_run_decides_as_the_oracle_task_by_task(seed):
    inst = generate(seed=seed, nodes=6, slots=16, arrival_rate=2.0, vendors=2)
    replay_against_oracle(inst, selection="faithful")


def test_run_default_is_faithful_and_deterministic():
    inst = generate(seed=4, nodes=6, slots=16, arrival_rate=2.0, vendors=2)
    a, b = aisched.run("pdftsp", inst), aisched.run("pdftsp", inst)
    assert a.info["selection"] == "faithful"
    np.testing.assert_array_equal(a.plan["assignment"].values, b.plan["assignment"].values)
    np.testing.assert_array_equal(a.payments, b.payments)


def test_starts_in_two_threads_decide_the_same(monkeypatch):
    """``PARALLEL_STARTS``: a task's distinct starts split over two kernel calls, one in a worker
    thread: the same plans, vendors, payments, every F and the final prices; no recompilation."""
    inst = generate(seed=3, nodes=12, slots=48, arrival_rate=6.0, vendors=3, gpu_mix="mixed")
    base = aisched.run("pdftsp", inst)
    compiles = fr.cache_size()
    monkeypatch.setattr(fr, "PARALLEL_STARTS", True)
    calls = []
    monkeypatch.setattr(fr, "_kernel_x64", lambda args, real=fr._kernel_x64: calls.append(
        int(args[-2])) or real(args))
    split = aisched.run("pdftsp", inst)
    assert len(calls) > inst.num_tasks  # some tasks had two or more distinct starts, split in two
    for name in ("assignment", "vendor", "surplus"):
        np.testing.assert_array_equal(split.plan[name].values, base.plan[name].values, err_msg=name)
    np.testing.assert_array_equal(split.payments, base.payments)
    for name in ("compute_price", "memory_price"):
        np.testing.assert_array_equal(split.prices[name].values, base.prices[name].values)
    assert fr.cache_size() == compiles


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tasks=st.integers(0, 4), nodes=st.integers(1, 9))
def test_node_classes_label_as_unique_rows(seed, tasks, nodes):
    """Fingerprinted classes equal np.unique's row labels (nodes alike on every task share one)."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 3, (tasks, nodes)).astype(float)
    e = rng.integers(0, 2, (tasks, nodes)).astype(float)
    cols = np.concatenate([s.T, e.T], axis=1)
    want = (np.unique(cols, axis=0, return_inverse=True)[1].reshape(-1) if cols.shape[1]
            else np.zeros(nodes, int))
    np.testing.assert_array_equal(fr.node_classes(s, e), want)


def _small_integer_prices(rng: np.random.Generator, n_nodes: int, n_slots: int, *, classes: int):
    """Node classes and small integer compute / memory / energy prices: ties and dominance are common."""
    cls = rng.integers(0, classes, n_nodes).astype(np.int32)
    cp = rng.integers(0, 3, (n_nodes, n_slots)).astype(float)
    mp = rng.integers(0, 3, (n_nodes, n_slots)).astype(float)
    ep = rng.integers(0, 2, (n_nodes, n_slots)).astype(float)
    return cls, cp, mp, ep
