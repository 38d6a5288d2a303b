"""The certified upper bound of IP (4): column generation with a Lagrangian bound."""

from __future__ import annotations

import re

import numpy as np
import pyomo.environ as pyo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lora_tiny import brute_force_optimum, random_tiny

import aisched
from aisched.bounds.lora import bound as lb
from aisched.errors import InvalidScenarioError
from aisched.online.lora.bound import pricing as bound_pricing
from aisched.online.lora.bound import twoclass as bound_twoclass
from aisched.online.lora.bound.pricing import BatchPricer
from aisched.online.lora.bound.twoclass import TwoClassPricer
from aisched.solvers import solve


def _optimum(inst) -> float:
    found = brute_force_optimum(inst)
    return float(found[0] if isinstance(found, tuple) else found)


def _lp_relaxation(inst) -> float:
    m = aisched.models.lora.build(inst)
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    return float(solve(m, time_limit=30).objective)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.sampled_from(["jax", "numpy"]))
def test_bound_between_optimum_and_lp_relaxation(seed: int, tasks: int, pricing: str) -> None:
    inst = random_tiny(seed, tasks=tasks)
    out = aisched.bound(inst, time_limit=30, pricing=pricing)
    opt = _optimum(inst)
    assert out.status == "lp_optimal" and out.info["exact_units"]
    assert out.bound >= opt - 1e-6  # certified: never below the optimum
    assert out.bound <= _lp_relaxation(inst) + 1e-6  # never looser than the compact LP relaxation
    assert out.info["lagrangian_bound"] >= out.info["lp_value"] - 1e-6 or np.isnan(out.info["lp_value"])
    assert out.objective == pytest.approx(out.verify(inst)) and out.objective <= opt + 1e-6


def test_pricing_equals_brute_force_best_schedule() -> None:
    """With zero prices, a task's best reduced profit is its best welfare alone (brute force on one task)."""
    for seed in range(12):
        inst = random_tiny(seed, tasks=3)
        unit, exact = lb._units(inst)
        assert exact
        K, T = inst.num_nodes, inst.num_slots
        for i in range(inst.num_tasks):
            alone = inst.subset([i])
            profit, col = lb.price_task(inst, i, np.zeros((K, T)), np.zeros((K, T)), unit)
            assert max(profit, 0.0) == pytest.approx(max(_optimum(alone), 0.0), abs=1e-9)
            if col is not None:
                assert col.work >= inst.work[i] - 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6), st.floats(0.0, 3.0))
def test_batched_pricing_equals_numpy_pricing(seed: int, tasks: int, scale: float) -> None:
    """The jitted batched DP finds every task's best reduced profit exactly as the NumPy DP does."""
    inst = random_tiny(seed, tasks=tasks, slots=5)
    unit, _ = lb._units(inst)
    cp, mp = _random_duals(seed, (inst.num_nodes, inst.num_slots), scale)
    _assert_priced_like_numpy(inst, BatchPricer(inst, unit).price(cp, mp), cp, mp, unit)


def test_batched_pricing_does_not_recompile_across_rounds() -> None:
    inst = random_tiny(3, tasks=6)
    pricer = BatchPricer(inst, lb._units(inst)[0])
    zeros = np.zeros((inst.num_nodes, inst.num_slots))
    pricer.price(zeros, zeros)
    before = bound_pricing.cache_size()
    pricer.price(zeros + 0.5, zeros + 0.25)
    assert bound_pricing.cache_size() == before


@pytest.mark.parametrize("method", ["colgen", "subgradient"])
def test_every_method_is_certified_on_small_instances(method: str) -> None:
    """Small instances (8 tasks, 3 nodes, 6 slots): bound >= the MILP's proven optimum >= primal."""
    for seed in range(3):
        inst = random_tiny(seed, tasks=8, nodes=3, slots=6)
        off = aisched.offline(inst, time_limit=60)
        assert off.status == "optimal"
        out = aisched.bound(inst, method=method, max_iterations=40, primal="greedy")
        assert out.bound >= off.objective - 1e-6
        assert out.objective == pytest.approx(out.verify(inst)) and out.objective <= off.objective + 1e-6
        history = out.info["lagrangian_history"]
        assert out.bound == pytest.approx(min(history))  # the least L(pi) seen


def test_a_limit_still_returns_a_certified_bound() -> None:
    inst = random_tiny(6, tasks=5)
    out = aisched.bound(inst, max_iterations=1)
    assert out.status == "limit" and out.bound >= _optimum(inst) - 1e-6
    assert out.prices["compute_price"].dims == ("node", "slot")


def test_bound_errors() -> None:
    with pytest.raises(InvalidScenarioError, match="^depth: is not an option of the bound"):
        aisched.bound(random_tiny(0), depth=3)
    for name, value in (("method", "bundle"), ("pricing", "gpu"), ("primal", "round"), ("symmetry", "yes"),
                        ("smoothing", 1.0)):
        with pytest.raises(InvalidScenarioError, match=f"^{name}: = {re.escape(repr(value))}"):
            aisched.bound(random_tiny(0), **{name: value})


def test_compare_uses_the_certified_bound_where_no_optimum_is_proven() -> None:
    inst = random_tiny(5, tasks=5)
    table = aisched.compare(inst, ["pdftsp"], offline=False, bound=True, bound_time_limit=30)
    assert list(table.index) == ["bound", "pdftsp"]
    assert set(table["reference"]) == {"bound"}
    assert table.loc["pdftsp", "ratio"] == pytest.approx(table.loc["pdftsp", "objective"] / table.loc["bound", "bound"])
    # with a proven optimum, the optimum stays the reference and no bound is computed
    proven = aisched.compare(inst, ["pdftsp"], bound=True, time_limit=60)
    assert set(proven["reference"]) == {"optimum"} and "bound" not in proven.index


@pytest.mark.slow  # two pdFTSP and two bound compilations: about a minute on 2 busy cores
def test_a_sweep_with_bound_true_labels_its_ratios_as_to_a_bound(tmp_path) -> None:
    from aisched.experiments.pages import report
    from aisched.experiments.run import sweep
    from aisched.experiments.spec.catalog import Scenario

    scenario = Scenario(
        name="lora/bound-mini", family="lora", title="ratio to the certified bound", x="nodes", values=(2, 4),
        base={"slots": 24, "tasks": 40, "vendors": 2}, algorithms=("pdftsp",), metric="ratio", seeds=1,
        offline=False, bound=True, time_limit=20.0,
    )
    table = sweep.sweep(scenario, tmp_path, executor="serial", progress=False)
    online = table[table["algorithm"] == "pdftsp"].set_index("point")
    assert (online["ratio"] <= 1 + 1e-9).all()
    cells = table[table["algorithm"] == "bound"].set_index("point")
    closed = np.isclose(cells["objective"], cells["bound"], rtol=1e-9)  # its verified plan meets the bound
    assert not closed.all(), "the scenario should have a bound its plan does not meet"
    for point in cells.index:  # a bound its own plan meets is a proven optimum; otherwise the ratio is to the bound
        kind = "optimum" if closed[point] else "bound"
        assert online.loc[point, "reference_kind"] == kind, point
        reference = cells.loc[point, "objective"] if closed[point] else cells.loc[point, "bound"]
        assert online.loc[point, "reference"] == pytest.approx(reference)
    text = report.report(tmp_path, figures=False).read_text(encoding="utf-8")
    assert "upper **bound** on the optimum" in text


def test_starting_prices_give_a_certified_first_round() -> None:
    inst = random_tiny(7, tasks=5)
    start = aisched.run("pdftsp", inst).prices
    out = aisched.bound(inst, prices=start, max_iterations=1, pricing="numpy")
    assert out.bound >= _optimum(inst) - 1e-6
    cp, mp = start["compute_price"].values, start["memory_price"].values
    unit = lb._units(inst)[0]
    expected = sum(max(0.0, lb.price_task(inst, i, cp, mp, unit)[0]) for i in range(inst.num_tasks))
    expected += float(np.sum(cp * inst.compute_capacity[:, None])
                      + np.sum(mp * (inst.memory_capacity - inst.base_memory)[:, None]))
    assert out.info["lagrangian_history"][0] == pytest.approx(expected)
    with pytest.raises(InvalidScenarioError, match="^prices.compute_price"):
        aisched.bound(inst, prices=start.assign(compute_price=-start["compute_price"] - 1))


def _with_copies(inst, copies: tuple[int, ...]):
    """``inst`` with nodes ``copies`` appended again (identical data): classes of identical nodes."""
    keep = np.concatenate([np.arange(inst.num_nodes), np.asarray(copies, dtype=np.int64)])
    use, price = inst.energy_factors()
    return aisched.models.lora.LoraInstance(
        num_slots=inst.num_slots, compute_capacity=inst.compute_capacity[keep],
        memory_capacity=inst.memory_capacity[keep], base_memory=inst.base_memory, gpu_type=inst.gpu_type[keep],
        arrival=inst.arrival, deadline=inst.deadline, memory_need=inst.memory_need, work=inst.work,
        needs_preprocessing=inst.needs_preprocessing, bid=inst.bid, throughput=inst.throughput[:, keep],
        vendor_price=inst.vendor_price, vendor_delay=inst.vendor_delay, energy_use=use[:, keep],
        energy_price=price[keep])


def test_node_classes_group_exactly_the_identical_nodes() -> None:
    inst = _with_copies(random_tiny(4, tasks=3, nodes=2), (0, 1, 0))
    classes = bound_pricing.node_classes(inst)
    assert list(classes.of_node) == [0, 1, 0, 1, 0] and list(classes.count) == [3, 2]
    assert list(classes.representative) == [0, 1]
    assert list(bound_pricing.node_classes(inst, merge=False).of_node) == list(range(5))
    mixed = aisched.scenarios.lora.generate(0, nodes=6, slots=8, arrival_rate=1.0, vendors=3)
    assert bound_pricing.node_classes(mixed).count.tolist() == [3, 3]  # A100 even, A40 odd


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["jax", "numpy"]))
def test_symmetric_prices_give_the_same_lp_over_classes(seed: int, pricing: str) -> None:
    """Identical nodes priced alike: the configuration LP's value is the per-node one (its duals average
    over a class), and the bound stays between the optimum and the compact LP relaxation."""
    inst = _with_copies(random_tiny(seed, tasks=3, nodes=2, slots=3), (0,))
    by_class = aisched.bound(inst, time_limit=30, pricing=pricing)
    by_node = aisched.bound(inst, time_limit=30, pricing=pricing, symmetry=False)
    assert by_class.info["node_classes"] == 2 and by_node.info["node_classes"] == 3
    assert by_class.status == by_node.status == "lp_optimal"
    assert by_class.bound == pytest.approx(by_node.bound, abs=1e-6)
    assert by_class.bound >= _optimum(inst) - 1e-6
    assert by_class.bound <= _lp_relaxation(inst) + 1e-6
    assert by_class.objective == pytest.approx(by_class.verify(inst)) and by_class.objective <= _optimum(inst) + 1e-6
    cp = by_class.prices["compute_price"].values
    assert np.allclose(cp[0], cp[2])  # equal on the class


def test_starting_prices_are_averaged_over_each_class() -> None:
    """Warm start on identical nodes: round 1's L is taken at the class mean, never above L(given)."""
    inst = _with_copies(random_tiny(8, tasks=4, nodes=2), (0,))
    rng = np.random.default_rng(1)
    cp, mp = rng.uniform(0, 2, (3, inst.num_slots)), rng.uniform(0, 1, (3, inst.num_slots))
    start = aisched.run("pdftsp", inst).prices.assign(compute_price=(("node", "slot"), cp),
                                                      memory_price=(("node", "slot"), mp))
    out = aisched.bound(inst, prices=start, max_iterations=1, pricing="numpy")
    unit = lb._units(inst)[0]

    def lagrangian(c, m):
        total = sum(max(0.0, lb.price_task(inst, i, c, m, unit)[0]) for i in range(inst.num_tasks))
        return total + float(np.sum(c * inst.compute_capacity[:, None])
                             + np.sum(m * (inst.memory_capacity - inst.base_memory)[:, None]))

    mean = lambda a: np.stack([(a[0] + a[2]) / 2, a[1], (a[0] + a[2]) / 2])  # noqa: E731
    assert out.info["lagrangian_history"][0] == pytest.approx(lagrangian(mean(cp), mean(mp)))
    assert out.info["lagrangian_history"][0] <= lagrangian(cp, mp) + 1e-9
    assert out.bound >= _optimum(inst) - 1e-6


def test_an_incumbent_plan_is_kept_when_no_heuristic_beats_it() -> None:
    inst = random_tiny(9, tasks=6, nodes=2, slots=5)
    online = aisched.run("pdftsp", inst)
    out = aisched.bound(inst, incumbent=online, primal="none", max_iterations=3)
    assert out.objective == pytest.approx(online.objective) and out.info["primal_source"] in ("incumbent", "none")
    assert out.objective == pytest.approx(out.verify(inst)) and out.bound >= out.objective - 1e-9
    with pytest.raises(InvalidScenarioError, match="^incumbent"):
        aisched.bound(inst, incumbent=online.plan)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(1, 2), st.floats(0.0, 3.0))
def test_two_class_pricing_equals_numpy_pricing(seed: int, tasks: int, nodes: int, scale: float) -> None:
    """The cell-counting kernel (sort by cost difference, prefix / suffix least sums) finds every task's
    best reduced profit exactly as the NumPy unit DP does, with a schedule that attains it."""
    inst = random_tiny(seed, tasks=tasks, nodes=nodes, slots=6)
    unit, exact = lb._units(inst)
    assert exact
    cp, mp = _random_duals(seed, (nodes, inst.num_slots), scale)
    _assert_priced_like_numpy(inst, TwoClassPricer(inst, np.arange(nodes)).price(cp, mp), cp, mp, unit)


def test_two_class_pricing_does_not_recompile_across_rounds() -> None:
    inst = random_tiny(3, tasks=6)
    pricer = TwoClassPricer(inst, np.arange(2))
    zeros = np.zeros((2, inst.num_slots))
    pricer.price(zeros, zeros)
    before = bound_twoclass.cache_size()
    pricer.price(zeros + 0.5, zeros + 0.25)
    assert bound_twoclass.cache_size() == before


def test_auto_primal_above_the_milp_size_runs_the_greedy(monkeypatch) -> None:
    """Past ``MILP_COLUMNS`` exact columns "auto" runs the greedy (it once ran nothing: primal 0 at scale)."""
    inst = random_tiny(2, tasks=6, nodes=2, slots=5)
    monkeypatch.setattr(lb, "MILP_COLUMNS", 0)
    out = aisched.bound(inst, max_iterations=3)
    assert out.info["primal_method"] == "greedy"
    assert out.objective > 0 and out.objective == pytest.approx(out.verify(inst))


def _random_duals(seed: int, shape: tuple[int, int], scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Compute and memory prices with zeros (70 % / 50 % of cells priced), as the bound's rounds make."""
    rng = np.random.default_rng(seed)
    cp = scale * rng.uniform(0, 1, shape) * (rng.random(shape) < 0.7)
    mp = scale * rng.uniform(0, 1, shape) * (rng.random(shape) < 0.5)
    return cp, mp


def _assert_priced_like_numpy(inst, priced, cp: np.ndarray, mp: np.ndarray, unit: float) -> None:
    """Every task's best reduced profit equals the NumPy DP's, with a schedule that attains it,
    gathers the work (4e) and stays in its window (4c)-(4d)."""
    for i in range(inst.num_tasks):
        profit, col = lb.price_task(inst, i, cp, mp, unit)
        if col is None:
            assert priced.profit[i] == -np.inf
            continue
        assert priced.profit[i] == pytest.approx(profit, abs=1e-9)
        cells = [(k, t) for t, k in enumerate(priced.assignment[i]) if k >= 0]
        charge = sum(cp[k, t] * inst.throughput[i, k] + mp[k, t] * inst.memory_need[i] for k, t in cells)
        assert priced.value[i] - charge == pytest.approx(priced.profit[i], abs=1e-9)  # the schedule attains it
        assert priced.work[i] >= inst.work[i] - 1e-9  # (4e)
        first = inst.arrival[i] + (inst.vendor_delay[i, priced.vendor[i]] if priced.vendor[i] >= 0 else 0)
        assert all(first <= t <= inst.deadline[i] for _, t in cells)  # (4c)-(4d)
