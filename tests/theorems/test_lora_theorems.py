"""The LoRA paper's guarantees as checks (aisched.theorems.lora): each holds where it should and can fail."""

from __future__ import annotations

import numpy as np
import pytest
from lora_tiny import random_tiny

from aisched.core import runner
from aisched.errors import InvariantViolatedError
from aisched.online.lora.pdftsp import invariants
from aisched.online.lora.pdftsp.algorithm import run as run_pdftsp
from aisched.scenarios.lora.generator import generate
from aisched.theorems import lora as theorems
from aisched.theorems.lora import energy_above_value, long_task_blocked


@pytest.mark.parametrize("selection", ["faithful", "cell_prices", "exact"])
def test_every_run_records_lemma1_and_it_holds(selection: str) -> None:
    for seed in range(4):
        out = run_pdftsp(random_tiny(seed, tasks=5), selection=selection)
        for key in ("dual_objective", "almost_feasible_welfare", "lemma1_slack", "lemma1_ratio"):
            assert key in out.info
        theorems.assert_invariants(out)
        if out.info["almost_feasible_welfare"] > 0:
            assert out.info["lemma1_slack"] >= -1e-9 and out.info["lemma1_ratio"] >= 1 - 1e-9


def test_lemma1_is_tight_on_one_task_at_zero_prices() -> None:
    """The first task meets zero prices: its step is exactly (1 + alpha) b_il when alpha = beta."""
    inst = long_task_blocked()
    out = run_pdftsp(inst, alpha=2.0, beta=2.0)
    assert out.info["lemma1_slack"] == pytest.approx(0.0, abs=1e-12)
    assert theorems.lemma1(inst, out).verdict == "holds"


def test_lemma1_catches_a_run_that_steps_past_its_alpha(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken run: prices raised with alpha = 8 while the run declares alpha = beta = 1."""
    real = invariants.summary
    monkeypatch.setattr(invariants, "summary", lambda *a: real(*a[:-2], 1.0, 1.0))
    out = run_pdftsp(long_task_blocked(), alpha=8.0, beta=8.0)
    with pytest.raises(InvariantViolatedError, match="Lemma 1"):
        theorems.assert_invariants(out)


def test_dual_bound_bounds_the_proved_optimum() -> None:
    """Weak duality: the repaired dual solution's objective is >= OPT (HiGHS, proved) on every run."""
    for seed in range(3):
        inst = random_tiny(seed, tasks=4)
        out = run_pdftsp(inst)
        cert = theorems.dual_certificate(inst, out)
        off = runner.offline(inst, time_limit=30)
        assert off.status == "optimal"
        assert cert["dual_bound"] >= off.objective - 1e-6 * max(1.0, off.objective)
        assert np.all(cert["mu_hat"] >= 0)


def test_lemma4_fails_even_when_9_is_maximised() -> None:
    """(11) sets mu_i from F (10), which charges the schedule's LARGEST price on all its work, while (6a)
    charges each cell its own price: a task rejected (mu = 0) or priced out at i-1 can still have a schedule
    of positive surplus at the final per-cell prices. Under Algorithm 2 as printed and under (9) exactly."""
    # the counterexample found under the batch share U(0.1, 0.5) (min_batch_share=0.1, the draw until 2026-12-05)
    inst = generate(seed=0, nodes=2, slots=12, tasks=8, vendors=1, min_batch_share=0.1)
    for selection in ("faithful", "exact"):
        check = theorems.lemma4(inst, run_pdftsp(inst, selection=selection))
        assert check.verdict == "violated" and check.extra["lemma4_tasks"] >= 1, selection


def test_lemma3_and_theorem5_break_on_a_long_blocked_task() -> None:
    """All of Lemma 2's premises hold (b-bar = 1); the long task enters S_a but does not fit."""
    inst = long_task_blocked()
    out = run_pdftsp(inst, parameters="from_bids", beta_unit="gb_slot")
    lemma3 = theorems.lemma3(inst, out)
    assert lemma3.premises_hold and lemma3.verdict == "violated"
    assert lemma3.bound == pytest.approx(2.2) and lemma3.measured == pytest.approx(131 / 11)
    theorem5 = theorems.theorem5(inst, out, time_limit=30)
    assert theorem5.exact == "exact" and theorem5.verdict == "violated"
    assert theorem5.measured == pytest.approx(120 / 11)
    # beta as printed (per GB) is 10x larger here: gamma = 2.2 x 21 covers OPT / P = 10.9
    printed = run_pdftsp(inst, parameters="from_bids", beta_unit="gb")
    assert theorems.theorem5(inst, printed, time_limit=30).verdict == "holds"
    assert theorems.lemma3(inst, printed).verdict == "violated"


def test_theorem3_catches_the_printed_payment() -> None:
    inst = energy_above_value()
    broken = theorems.theorem3(inst, 0, [10.0], payment="paper")
    assert broken.verdict == "violated" and broken.measured == pytest.approx(1.0)
    assert theorems.theorem3(inst, 0, [0.0, 10.0]).verdict == "holds"  # corrected payment: pays E


def test_theorem4_holds_and_catches_an_overcharge() -> None:
    inst = long_task_blocked()
    out = run_pdftsp(inst)
    assert theorems.theorem4(inst, out).verdict == "holds"
    out.payments[:] = np.asarray(inst.bid) * 1.5
    assert theorems.theorem4(inst, out).verdict == "violated"
