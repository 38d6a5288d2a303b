"""pdFTSP's readings: beta's unit (Lemma 2), declared alpha/beta and the full re-run audit."""

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from lora_tiny import random_tiny

import aisched
from aisched.errors import AischedWarning, InvalidInstanceError, InvalidScenarioError
from aisched.models.lora import LoraInstance
from aisched.models.lora.instance import VALUE_BOUNDS
from aisched.online.lora import pdftsp
from aisched.online.lora.audit import audit_reruns, best_misreport
from aisched.scenarios.lora import generate


# ------------------------------------------------------------------ beta's unit (point 2)
@pytest.mark.parametrize("seed", range(6))
def test_gb_slot_beta_is_the_smallest_that_makes_lemma_2_hold(seed):
    """Lemma 2 needs: every cell at phi >= beta makes F < 0, i.e. beta * r_i * |l| >= b_i for all l.

    (10) charges max phi * sum_t r_i = phi * r_i * |l| and |l| >= n_i (fewest slots), so
    beta >= b_i / (r_i n_i) for every task suffices, and a smaller beta fails for the argmax task.
    """
    inst = random_tiny(seed, tasks=4)
    _, beta, _ = pdftsp.lemma2_alpha_beta(inst, beta_unit="gb_slot", parameters="from_bids")
    slots = np.maximum(inst.fewest_slots(), 1)
    charge = beta * inst.memory_need * slots  # the least memory charge of any schedule at phi = beta
    assert (charge >= inst.bid * (1 - 1e-12)).all()
    assert (0.99 * charge < inst.bid).any()  # any smaller beta lets some task through a full cell
    _, beta_gb, _ = pdftsp.lemma2_alpha_beta(inst, beta_unit="gb", parameters="from_bids")
    assert beta_gb == pytest.approx(np.max(inst.bid / inst.memory_need)) and beta_gb >= beta


def test_lemma_2_capacity_control_with_gb_slot_beta():
    """Once a cell's memory price reaches beta, no later task is scheduled on it (Lemma 2)."""
    inst = generate(seed=3, nodes=2, slots=12, tasks=30, vendors=2)
    out = aisched.run("pdftsp", inst, selection="exact")
    beta = out.info["beta"]
    assert out.info["beta_unit"] == "gb_slot"
    state = pdftsp.PdftspState(inst, pdftsp.PdftspParams(out.info["alpha"], beta, selection="exact"))
    for task in np.argsort(inst.arrival, kind="stable"):
        full = state._memory_price >= beta
        d = state.decide(int(task))
        state.commit(d)
        if d.surplus > 0:
            used = np.nonzero(d.assignment >= 0)[0]
            assert not full[d.assignment[used], used].any()


# ------------------------------------------------------------ declared parameters (point 1)
def test_declared_parameters_are_read_from_the_instance():
    inst = generate(seed=0, nodes=2, slots=12, arrival_rate=1, vendors=2)
    a, b, source = pdftsp.lemma2_alpha_beta(inst)
    assert (a, b, source) == (inst.max_value_per_sample, inst.max_value_per_gb_slot, "declared")
    _, b_gb, _ = pdftsp.lemma2_alpha_beta(inst, beta_unit="gb")
    assert b_gb == inst.max_value_per_gb
    out = aisched.run("pdftsp", inst)
    assert (out.info["alpha"], out.info["beta"], out.info["parameters"]) == (a, b, "declared")
    # bids do not move them; from_bids follows the bids
    moved = inst.with_bid(0, inst.bid[0] * 0.5)
    assert pdftsp.lemma2_alpha_beta(moved)[:2] == (a, b)
    a1, _, _ = pdftsp.lemma2_alpha_beta(inst, parameters="from_bids")
    assert a1 == pytest.approx(np.max(inst.bid / inst.work)) and a1 <= a


def test_undeclared_bounds_fall_back_to_bids_and_say_so():
    inst = random_tiny(1)
    assert inst.max_value_per_sample is None
    _, _, source = pdftsp.lemma2_alpha_beta(inst)
    assert source == "from_bids (not declared)"
    with pytest.warns(AischedWarning, match="declares no value bounds.*not truthful"):  # said, not silent
        assert aisched.run("pdftsp", inst).info["parameters"] == "from_bids (not declared)"


@pytest.mark.parametrize("base_model", ["gpt2", "llama-2-7b"])
@pytest.mark.parametrize("seed", range(3))
def test_generator_bounds_hold_for_every_drawn_bid(seed, base_model):
    inst = generate(seed=seed, nodes=5, slots=24, arrival_rate=6, vendors=2, base_model=base_model,
                    gpu_mix=["a100", "a40", "mixed"][seed])
    assert inst.bids_above_bounds() == dict.fromkeys(VALUE_BOUNDS, 0)
    ratios = inst.value_per_unit()
    for name in VALUE_BOUNDS:  # not absurdly loose either
        assert ratios[name].max() >= 0.25 * getattr(inst, name), name


def test_value_bounds_validate_and_round_trip(tmp_path):
    inst = generate(seed=0, nodes=2, slots=8, tasks=4, vendors=1)
    back = LoraInstance.from_dataset(xr.open_dataset(_save(inst, tmp_path)))
    assert back == inst and back.max_value_per_gb == inst.max_value_per_gb
    plain = random_tiny(0)
    assert LoraInstance.from_dataset(plain.to_dataset()).max_value_per_sample is None
    for bad in (0.0, -1.0, float("inf"), "x", True):
        with pytest.raises(InvalidInstanceError, match="max_value_per_gb_slot"):
            plain.replace(max_value_per_gb_slot=bad)
    low = plain.replace(max_value_per_sample=float(np.min(plain.bid / plain.work)) * 0.999 + 1e-12)
    assert low.bids_above_bounds()["max_value_per_sample"] >= plain.num_tasks - 1


def _save(inst, tmp_path):
    path = tmp_path / "inst.nc"
    inst.to_dataset().to_netcdf(path)
    return path


@pytest.mark.parametrize("bad", [{"beta_unit": "gb_hour"}, {"parameters": "oracle"}])
def test_bad_reading_options_are_named(bad):
    with pytest.raises(InvalidScenarioError, match=next(iter(bad))):
        aisched.run("pdftsp", random_tiny(0), **bad)


# ------------------------------------------------------------------- full re-run audit
UNDERBID_CASE = dict(seed=0, nodes=2, slots=24, arrival_rate=1, vendors=2)  # where a task gains by underbidding


def test_reruns_show_that_bid_derived_parameters_are_not_truthful():
    """The case: under parameters="from_bids" task 13 gains by underbidding (full re-runs)."""
    inst = generate(**UNDERBID_CASE)
    old = dict(parameters="from_bids", beta_unit="gb", selection="cell_prices")
    table = audit_reruns(inst, 13, [inst.bid[13], 27318.4], **old)
    assert table["admitted"].all()
    assert table.loc[1, "utility"] > table.loc[0, "utility"]  # the misreport pays
    assert table.loc[1, "alpha"] < table.loc[0, "alpha"]  # through alpha = max b / M
    # the fixed-parameter audit hides it
    fixed = pdftsp.audit(inst, 13, [inst.bid[13], 27318.4], **old)
    assert fixed.loc[1, "utility"] <= fixed.loc[0, "utility"] + 1e-9
    # declared parameters: the same misreport changes nothing
    table = audit_reruns(inst, 13, [inst.bid[13], 27318.4])
    assert table.loc[1, "payment"] == table.loc[0, "payment"]
    assert table.loc[1, "utility"] == table.loc[0, "utility"]


@pytest.mark.parametrize("selection", ["faithful", "cell_prices"])
def test_no_misreport_gains_under_declared_parameters(selection):
    inst = generate(seed=1, nodes=2, slots=12, arrival_rate=1.5, vendors=2)
    factors = [0.0, 0.3, 0.6, 0.9, 0.99, 1.01, 1.1, 1.5, 2.0, 4.0]
    gains = [best_misreport(inst, task, factors, selection=selection)["gain"]
             for task in range(0, inst.num_tasks, 2)]
    assert max(gains) <= 1e-9


def test_audit_reruns_checks_its_arguments():
    inst = random_tiny(0)
    with pytest.raises(InvalidScenarioError, match="task"):
        audit_reruns(inst, inst.num_tasks, [1.0])
    with pytest.raises(InvalidScenarioError, match="bids"):
        audit_reruns(inst, 0, [1.0, float("nan")])


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), factor=st.floats(0.0, 3.0),
       selection=st.sampled_from(["faithful", "cell_prices", "exact"]))
def test_property_truthful_bid_is_never_beaten_in_full_reruns(seed, factor, selection):
    """Declared bounds (here 3x the tiny instance's largest ratios, fixed before the misreport)."""
    inst = random_tiny(seed, tasks=3, nodes=2, slots=4, vendors=2)
    ratios = inst.value_per_unit()
    inst = inst.replace(**{name: 3 * float(ratios[name].max()) + 1e-9 for name in VALUE_BOUNDS})
    for task in range(inst.num_tasks):
        v = inst.bid[task]
        table = audit_reruns(inst, task, [v, factor * v, v + 5.0], selection=selection)
        assert (table["utility"] <= table.loc[0, "utility"] + 1e-9).all()
