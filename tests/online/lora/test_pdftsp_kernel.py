"""JAX per-task schedule selection (pdFTSP Algorithm 2, eqs. (9)-(13)) against NumPy oracles.

Shapes stay fixed within each test family so that jit compiles once per family.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aisched.errors import InvalidInstanceError
from aisched.online.lora.pdftsp import kernel as pk
from aisched.online.lora.pdftsp import reference as ref

_COMMON = ("compute_price", "memory_price", "energy_price", "energy_use", "throughput",
           "throughput_units", "memory_need", "work_units", "start", "deadline", "fee", "valid",
           "bid")


def make_task(rng, *, n_nodes, n_slots, n_options, w_max, max_units, prices="continuous"):
    """A random task; ``prices`` is 'continuous' (no ties), 'zero' or 'integer' (tie-heavy)."""
    units = rng.integers(0, max_units + 1, n_nodes)
    units[rng.integers(n_nodes)] = max(1, units.max())  # at least one usable node
    shape = (n_nodes, n_slots)
    if prices == "continuous":
        lam, phi = rng.exponential(1.0, shape), rng.exponential(1.0, shape)
        eprice, euse = rng.random(shape), rng.random(n_nodes) + 0.1
    elif prices == "zero":
        lam, phi, eprice, euse = (np.zeros(shape),) * 3 + (np.zeros(n_nodes),)
    else:
        lam, phi = rng.integers(0, 3, shape).astype(float), rng.integers(0, 2, shape).astype(float)
        eprice, euse = rng.integers(0, 2, shape).astype(float), np.ones(n_nodes)
    arrival = int(rng.integers(0, n_slots // 2))
    start = arrival + rng.integers(0, 3, n_options)
    valid = rng.random(n_options) < 0.8
    valid[rng.integers(n_options)] = True
    return dict(
        compute_price=lam, memory_price=phi, energy_price=eprice, energy_use=euse,
        throughput=units * 2.5, throughput_units=units.astype(np.int32),
        memory_need=float(rng.uniform(0.5, 2.0)),
        work_units=int(rng.integers(1, w_max + 1)), start=start.astype(np.int32),
        deadline=int(rng.integers(arrival, n_slots + 1)),  # may reach T (clipped) or be short
        fee=rng.random(n_options), valid=valid, bid=float(rng.uniform(5.0, 60.0)),
    )


def kernel_args(task, max_groups):
    group, group_units = pk.node_groups(task["throughput_units"], max_groups)
    args = [task[k] for k in _COMMON]
    return args[:6] + [group, group_units] + args[6:]


def ref_args(task):
    return [task[k] for k in _COMMON]


def check_schedule(assign, task, option):
    """Assignment within [start_option, deadline], usable nodes, enough work (4b)-(4e)."""
    assign = np.asarray(assign)
    used = np.nonzero(assign >= 0)[0]
    if option < 0:
        assert used.size == 0
        return
    assert used.size > 0
    assert used.min() >= task["start"][option] and used.max() <= task["deadline"]
    assert (task["throughput_units"][assign[used]] > 0).all()
    assert task["throughput_units"][assign[used]].sum() >= task["work_units"]


def dp_cost(assign, task):
    _, delta = ref.cell_costs(*(task[k] for k in _COMMON[:5]), task["memory_need"])
    used = np.nonzero(np.asarray(assign) >= 0)[0]
    return float(delta[np.asarray(assign)[used], used].sum())


def recomputed_surplus(assign, task, option):
    energy, _ = ref.cell_costs(*(task[k] for k in _COMMON[:5]), task["memory_need"])
    return ref.schedule_surplus(assign, task["fee"][option], task["bid"], task["compute_price"],
                                task["memory_price"], energy, task["throughput"],
                                task["memory_need"])[0]


MID = dict(n_nodes=4, n_slots=10, n_options=3, w_max=12, max_units=3)
TINY = dict(n_nodes=2, n_slots=5, n_options=2, w_max=4, max_units=2)


# --------------------------------------------------------------------------- cell_prices


@pytest.mark.parametrize("seed", range(25))
def test_cell_prices_matches_algorithm2_without_ties(seed):
    task = make_task(np.random.default_rng(seed), **MID)
    choice, cost, assign = pk.cell_prices_options(*kernel_args(task, 3), max_work_units=MID["w_max"])
    oracle = ref.select_cell_prices_reference(*ref_args(task))
    np.testing.assert_allclose(np.asarray(cost), oracle.option_cost, rtol=1e-9)
    np.testing.assert_array_equal(np.asarray(assign), oracle.option_assignment)
    assert int(choice.option) == oracle.option
    np.testing.assert_allclose(np.asarray(choice.option_surplus), oracle.option_surplus, rtol=1e-9)
    np.testing.assert_array_equal(np.asarray(choice.assignment), oracle.assignment)
    for field in ("surplus", "compute_max_price", "memory_max_price", "total_compute",
                  "total_memory", "energy"):
        np.testing.assert_allclose(float(getattr(choice, field)), getattr(oracle, field),
                                   rtol=1e-9, err_msg=field)
    check_schedule(choice.assignment, task, int(choice.option))


@pytest.mark.parametrize("prices", ["zero", "integer"])
@pytest.mark.parametrize("seed", range(8))
def test_cell_prices_tie_heavy_costs_agree(seed, prices):
    task = make_task(np.random.default_rng(100 + seed), prices=prices, **MID)
    _, cost, assign = pk.cell_prices_options(*kernel_args(task, 3), max_work_units=MID["w_max"])
    oracle = ref.select_cell_prices_reference(*ref_args(task))
    np.testing.assert_allclose(np.asarray(cost), oracle.option_cost, rtol=1e-9, atol=1e-12)
    for n in range(MID["n_options"]):
        if not np.isfinite(oracle.option_cost[n]):
            assert (np.asarray(assign[n]) == -1).all() and (oracle.option_assignment[n] == -1).all()
            continue
        for sched in (np.asarray(assign[n]), oracle.option_assignment[n]):
            check_schedule(sched, task, n)
            assert dp_cost(sched, task) == pytest.approx(oracle.option_cost[n], abs=1e-12)


def test_first_usable_slot_is_start_itself():
    """The virtual base row lets slot a+h run (4c); Algorithm 2 as printed would forbid it."""
    lam = np.array([[0.0, 9.0, 9.0]])
    task = dict(compute_price=lam, memory_price=np.zeros((1, 3)), energy_price=np.zeros((1, 3)),
                energy_use=np.zeros(1), throughput=np.ones(1),
                throughput_units=np.ones(1, np.int32), memory_need=1.0, work_units=1,
                start=np.array([0], np.int32), deadline=2, fee=np.zeros(1),
                valid=np.ones(1, bool), bid=5.0)
    for select in (pk.select_cell_prices, pk.select_exact):
        choice = select(*kernel_args(task, 1), max_work_units=2)
        np.testing.assert_array_equal(np.asarray(choice.assignment), [0, -1, -1])
        assert float(choice.surplus) == 5.0


# --------------------------------------------------------------------------- exact


def test_exact_beats_cell_prices_on_handmade_case():
    """Faithful DP prices cells separately; (10) charges the max price on all use.

    Node 0 (s=2, one cell finishes) at lambda 4 costs 2*4 = 8; node 1 (s=1)
    in slots 0 and 1 at lambda 0 and 7 has DP cost 7 < 8, so Algorithm 2 takes
    it, but (10) charges max(0, 7) * 2 = 14. Exact takes node 0: F = 20 - 8.
    """
    task = dict(compute_price=np.array([[4.0, 100.0], [0.0, 7.0]]), memory_price=np.zeros((2, 2)),
                energy_price=np.zeros((2, 2)), energy_use=np.zeros(2),
                throughput=np.array([2.0, 1.0]), throughput_units=np.array([2, 1], np.int32),
                memory_need=1.0, work_units=2, start=np.array([0], np.int32), deadline=1,
                fee=np.zeros(1), valid=np.ones(1, bool), bid=20.0)
    faithful = pk.select_cell_prices(*kernel_args(task, 2), max_work_units=4)
    exact = pk.select_exact(*kernel_args(task, 2), max_work_units=4)
    np.testing.assert_array_equal(np.asarray(faithful.assignment), [1, 1])
    np.testing.assert_array_equal(np.asarray(exact.assignment), [0, -1])
    assert float(faithful.surplus) == pytest.approx(6.0)
    assert float(exact.surplus) == pytest.approx(12.0)
    assert float(faithful.surplus) < float(exact.surplus)
    brute = ref.select_exact_bruteforce(*ref_args(task))
    assert brute.surplus == pytest.approx(12.0)


def test_exact_matches_bruteforce_on_random_tiny_cases():
    differ = 0
    for seed in range(40):
        task = make_task(np.random.default_rng(1000 + seed), **TINY)
        args = kernel_args(task, 2)
        exact = pk.select_exact(*args, max_work_units=TINY["w_max"], chunk=4)
        faithful = pk.select_cell_prices(*args, max_work_units=TINY["w_max"])
        brute = ref.select_exact_bruteforce(*ref_args(task))
        np.testing.assert_allclose(np.asarray(exact.option_surplus), brute.option_surplus,
                                   rtol=1e-9, err_msg=f"seed {seed}")
        assert int(exact.option) == brute.option
        option = int(exact.option)
        check_schedule(exact.assignment, task, option)
        if option >= 0:
            assert recomputed_surplus(exact.assignment, task, option) == pytest.approx(
                float(exact.surplus), rel=1e-9)
        assert float(faithful.surplus) <= float(exact.surplus) + 1e-9
        differ += float(faithful.surplus) < float(exact.surplus) - 1e-9
    assert differ >= 1  # the random set includes cases where Algorithm 2 is not optimal for (10)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), prices=st.sampled_from(["continuous", "integer"]))
def test_property_cell_prices_le_exact_eq_bruteforce(seed, prices):
    task = make_task(np.random.default_rng(seed), prices=prices, **TINY)
    args = kernel_args(task, 2)
    faithful = pk.select_cell_prices(*args, max_work_units=TINY["w_max"])
    exact = pk.select_exact(*args, max_work_units=TINY["w_max"], chunk=4)
    brute = ref.select_exact_bruteforce(*ref_args(task))
    for choice in (faithful, exact):
        check_schedule(choice.assignment, task, int(choice.option))
    if brute.option < 0:
        assert int(faithful.option) == int(exact.option) == -1
        return
    assert float(faithful.surplus) <= float(exact.surplus) + 1e-9
    assert float(exact.surplus) == pytest.approx(brute.surplus, rel=1e-9, abs=1e-9)


# --------------------------------------------------------------------------- edge cases


def _fixed_task(**overrides):
    rng = np.random.default_rng(7)
    task = make_task(rng, **MID)
    task.update(throughput_units=np.array([1, 2, 3, 1], np.int32),
                throughput=np.array([2.5, 5.0, 7.5, 2.5]), valid=np.ones(3, bool))
    task.update(overrides)
    return task


@pytest.mark.parametrize("select", [pk.select_cell_prices, pk.select_exact])
def test_infeasible_window_gives_no_option(select):
    task = _fixed_task(start=np.array([6, 7, 8], np.int32), deadline=7, work_units=12)
    choice = select(*kernel_args(task, 3), max_work_units=MID["w_max"])
    assert int(choice.option) == -1
    assert float(choice.surplus) == -np.inf
    assert (np.asarray(choice.assignment) == -1).all()
    assert np.isneginf(np.asarray(choice.option_surplus)).all()
    assert ref.select_cell_prices_reference(*ref_args(task)).option == -1


@pytest.mark.parametrize("select", [pk.select_cell_prices, pk.select_exact])
def test_invalid_options_are_ignored(select):
    # option 0: earliest start and no fee (best if it existed), but invalid
    task = _fixed_task(start=np.array([0, 4, 5], np.int32), deadline=9, work_units=6,
                       fee=np.array([0.0, 0.5, 0.1]), valid=np.array([False, True, True]))
    choice = select(*kernel_args(task, 3), max_work_units=MID["w_max"])
    assert int(choice.option) in (1, 2)
    assert np.asarray(choice.option_surplus)[0] == -np.inf
    check_schedule(choice.assignment, task, int(choice.option))
    task["valid"] = np.zeros(3, bool)
    none = select(*kernel_args(task, 3), max_work_units=MID["w_max"])
    assert int(none.option) == -1 and (np.asarray(none.assignment) == -1).all()


@pytest.mark.parametrize("select", [pk.select_cell_prices, pk.select_exact])
def test_vendor_delay_and_deadline_respected(select):
    for seed in range(10):
        task = make_task(np.random.default_rng(500 + seed), **MID)
        choice = select(*kernel_args(task, 3), max_work_units=MID["w_max"])
        check_schedule(choice.assignment, task, int(choice.option))
        for n in range(MID["n_options"]):  # each option's F is its own window's best
            if not task["valid"][n] or task["start"][n] > task["deadline"]:
                assert np.asarray(choice.option_surplus)[n] == -np.inf


def test_no_recompile_for_a_second_task():
    x64_before = jax.config.jax_enable_x64
    rng = np.random.default_rng(3)
    first, second = make_task(rng, **MID), make_task(rng, **MID)
    second["work_units"] = np.int32(second["work_units"])  # a numpy scalar instead of an int
    pk.select_cell_prices(*kernel_args(first, 3), max_work_units=MID["w_max"])
    pk.select_exact(*kernel_args(first, 3), max_work_units=MID["w_max"], chunk=16)
    before = pk.cache_size()
    b = pk.select_cell_prices(*kernel_args(second, 3), max_work_units=MID["w_max"])
    pk.select_exact(*kernel_args(second, 3), max_work_units=MID["w_max"], chunk=16)
    assert pk.cache_size() == before
    # JAX arrays and Python scalars from the caller land on the same compiled entry
    third = {k: (jnp.asarray(v) if isinstance(v, np.ndarray) and v.ndim == 2 else v)
             for k, v in make_task(rng, **MID).items()}
    pk.select_cell_prices(*kernel_args(third, 3), max_work_units=MID["w_max"])
    assert pk.cache_size() == before
    assert np.asarray(b.option_surplus).dtype == np.float64  # x64 inside the kernel ...
    assert jax.config.jax_enable_x64 == x64_before  # ... without touching the global config


@pytest.mark.parametrize("seed", range(6))
def test_exact_dominates_cell_prices_on_larger_cases(seed):
    """Exact (with its branch and bound) is never below Algorithm 2, per option too."""
    task = make_task(np.random.default_rng(900 + seed), **MID)
    args = kernel_args(task, 3)
    exact = pk.select_exact(*args, max_work_units=MID["w_max"], chunk=16)
    faithful = pk.select_cell_prices(*args, max_work_units=MID["w_max"])
    f_exact, f_faithful = np.asarray(exact.option_surplus), np.asarray(faithful.option_surplus)
    assert (f_exact >= f_faithful - 1e-9).all()
    np.testing.assert_array_equal(np.isfinite(f_exact), np.isfinite(f_faithful))
    option = int(exact.option)
    check_schedule(exact.assignment, task, option)
    if option >= 0:
        assert recomputed_surplus(exact.assignment, task, option) == pytest.approx(
            float(exact.surplus), rel=1e-9)


def test_node_groups():
    group, units = pk.node_groups(np.array([4, 0, 2, 4, 2]), 3)
    np.testing.assert_array_equal(units, [2, 4, 0])
    np.testing.assert_array_equal(units[group][[0, 2, 3, 4]], [4, 2, 4, 2])
    assert group.dtype == np.int32 and units.dtype == np.int32
    with pytest.raises(InvalidInstanceError, match="exceed max_groups=1"):
        pk.node_groups(np.array([1, 2]), 1)


def test_bad_shapes_and_work_are_rejected():
    task = _fixed_task()
    args = kernel_args(task, 3)
    with pytest.raises(InvalidInstanceError, match=r"work_units: 99 outside \[1, max_work"):
        pk.select_cell_prices(*args[:9], 99, *args[10:], max_work_units=MID["w_max"])
    args[12] = np.zeros(2)  # fee of the wrong length
    with pytest.raises(InvalidInstanceError, match=r"fee: shape \(2,\), expected \(3,\)"):
        pk.select_exact(*args, max_work_units=MID["w_max"])


@pytest.mark.parametrize("seed", range(6))
def test_host_cell_prices_equal_the_kernel_values(seed):
    """The packed host copy (what pdFTSP calls per task) carries the kernel's exact values."""
    task = make_task(np.random.default_rng(4200 + seed), **MID)
    args = kernel_args(task, 3)
    want = pk.select_cell_prices(*args, max_work_units=MID["w_max"])
    got = pk.select_cell_prices_host(*args, max_work_units=MID["w_max"])
    for name, value in want._asdict().items():
        np.testing.assert_array_equal(np.asarray(getattr(got, name)), np.asarray(value), err_msg=name)
    assert got.assignment.dtype == np.int32 and int(got.option) == int(want.option)
