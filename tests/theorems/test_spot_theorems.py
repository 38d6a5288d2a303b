"""The spot paper's guarantees as checks (aisched.theorems.spot): each holds where it should and can fail."""

from __future__ import annotations

import numpy as np
import pytest

from aisched.theorems import spot as theorems


def test_theorem2_holds_on_random_utilities_and_fails_for_a_greedy_learner() -> None:
    rng = np.random.default_rng(0)
    for _ in range(5):
        assert theorems.theorem2(rng.random((int(rng.integers(2, 40)), 4))).verdict == "holds"
    # follow-the-leader (eta far above sqrt(2 ln M / K)) on alternating payoffs: regret grows with K
    u = np.zeros((400, 2))
    u[0, 0] = 0.5
    u[1::2, 1], u[2::2, 0] = 1.0, 1.0
    broken = theorems.theorem2(u, eta=50.0)
    assert broken.margin < 0 and broken.verdict == "premise fails"
    assert theorems.theorem2(u).verdict == "holds"


@pytest.mark.slow
def test_theorem1_fails_without_cheap_spot_for_a_one_slot_window() -> None:
    """With perfect predictions G = 0, and with no spot GPU priced below sigma D_sigma = 0: the bound is 0,
    yet a one-slot window (w = v = 1) cannot see the deadline's value and falls short of OPT."""
    case = theorems.random_instance(np.random.default_rng(0))
    check = theorems.theorem1(case.job, window=1, commitment=1, threshold=0.3, time_limit=30)
    assert check.bound == 0 and check.exact == "exact" and check.verdict == "violated"
    assert theorems.theorem1(case.job, window=3, commitment=2, threshold=0.6, time_limit=30).verdict == "holds"
