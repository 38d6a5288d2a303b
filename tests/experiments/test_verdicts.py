"""Verdict kinds of comparison claims on hand-made sweep tables: noise (paired) and headroom."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from aisched.experiments.pages.report import ClaimCheck, check_claims, summarise, variant_checks
from aisched.experiments.spec.catalog import Claim
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.verdicts import (
    VERDICTS,
    counts_text,
    direction,
    headroom,
    new_counts,
    paired_interval,
)


def _table(objectives: dict[str, list[float]], reference: list[float] | None, kind: str = "optimum",
           x: str = "1") -> pd.DataFrame:
    """One point ``x``; per algorithm its objective on each seed; the seed's reference (or none)."""
    rows = []
    for name, values in objectives.items():
        for seed, value in enumerate(values):
            ref = math.nan if reference is None else reference[seed]
            rows.append({"scenario": "t/t", "point": 0, "x": x, "seed": seed, "algorithm": name,
                         "objective": value, "reference": ref, "reference_kind": "" if reference is None else kind})
    return pd.DataFrame(rows)


def _definition(*claims: Claim, algorithms: tuple[str, ...] = ("a", "b")) -> StoredScenario:
    return StoredScenario(name="t/t", family="t", x="x", values=(1,), metric="objective", algorithms=algorithms,
                          claims=claims)


def _check(table: pd.DataFrame, claim: Claim, **kw) -> ClaimCheck:
    definition = _definition(claim, **kw)
    (chk,) = check_claims(definition, summarise(table, "objective"), table)
    return chk


IMPROVE = Claim("improvement", "a improves over b by 10%", "a", baseline="b", point="1", value=0.10)
BETTER = Claim("better_than", "a is better than b", "a", baseline="b")


def test_improvement_holds_on_paired_differences_with_its_headroom() -> None:
    table = _table({"a": [120, 131, 125], "b": [100, 110, 104]}, [200, 210, 205])
    chk = _check(table, IMPROVE)
    assert chk.status == "holds" and chk.holds is True
    assert "95 % t interval" in chk.detail and "3 seeds" in chk.detail
    assert chk.headroom == "headroom at 1: the optimum is +95.9% over b"  # 205 / 104.67 - 1


def test_improvement_fails_where_the_reference_leaves_room() -> None:
    table = _table({"a": [90, 99, 95], "b": [100, 110, 104]}, [200, 210, 205])
    chk = _check(table, IMPROVE)
    assert chk.status == "fails" and chk.holds is False


def test_improvement_is_inconclusive_when_the_interval_includes_zero() -> None:
    # a is above b on average (+1 %), but below it on one of three seeds
    table = _table({"a": [110, 100, 107], "b": [100, 104, 110]}, [200, 210, 205])
    chk = _check(table, IMPROVE)
    assert chk.status == "inconclusive" and chk.holds is None
    assert chk.verdict.startswith("inconclusive at 3 seed(s)") and "interval [" in chk.verdict


def test_one_seed_is_inconclusive_not_decided() -> None:
    table = _table({"a": [150], "b": [100]}, [300])
    chk = _check(table, IMPROVE)
    assert chk.status == "inconclusive" and "at 1 seed" in chk.verdict and "no interval" in chk.verdict


def test_improvement_untestable_by_size_whatever_the_direction() -> None:
    # the optimum is only 4 % above b: no algorithm can be 10 % above it
    for a in ([50, 55, 52], [102, 113, 106]):
        table = _table({"a": a, "b": [100, 110, 104]}, [104, 114.4, 108.16])
        chk = _check(table, IMPROVE)
        assert chk.status == "untestable" and chk.holds is None
        assert "the optimum is +4.0% over b" in chk.detail and "the claim needs +10.0%" in chk.detail
        assert chk.verdict.startswith("untestable on this workload: headroom at 1")


def test_a_bound_is_labelled_as_a_bound() -> None:
    table = _table({"a": [50, 55, 52], "b": [100, 110, 104]}, [104, 114.4, 108.16], kind="bound")
    chk = _check(table, IMPROVE)
    assert chk.status == "untestable" and "at most +4.0%" in chk.detail and "certified bound" in chk.detail


def test_no_reference_is_not_untestable() -> None:
    table = _table({"a": [50, 55, 52], "b": [100, 110, 104]}, None)
    chk = _check(table, IMPROVE)
    assert chk.status == "fails" and chk.headroom == "no reference at 1"


def test_better_than_untestable_by_noise_when_the_baseline_is_near_optimal() -> None:
    # b is at the optimum on two seeds and 1 below it on the third: the gap's interval reaches 0
    table = _table({"a": [90, 95, 93], "b": [100, 110, 103]}, [100, 110, 104])
    chk = _check(table, BETTER)
    assert chk.status == "untestable" and "within the seeds' noise of b" in chk.detail


def test_better_than_holds_and_fails_with_room() -> None:
    up = _table({"a": [120, 131, 125], "b": [100, 110, 104]}, [200, 210, 205])
    down = _table({"a": [90, 99, 95], "b": [100, 110, 104]}, [200, 210, 205])
    assert _check(up, BETTER).status == "holds"
    assert _check(down, BETTER).status == "fails" and "worse" in _check(down, BETTER).detail


def test_best_counts_exact_ties_and_decides_on_every_competitor() -> None:
    claim = Claim("best", "a is the best", "a")
    tie = _table({"a": [100, 110, 104], "b": [100, 110, 104], "c": [80, 85, 90]}, [100, 110, 104])
    assert _check(tie, claim, algorithms=("a", "b", "c")).status == "holds"
    noisy = _table({"a": [101, 110, 104], "b": [100, 111, 103], "c": [80, 85, 90]}, [120, 120, 120])
    assert _check(noisy, claim, algorithms=("a", "b", "c")).status == "inconclusive"


def test_not_checked_stays_not_checked() -> None:
    claim = Claim("improvement", "a over b at 9", "a", baseline="b", point="9", value=0.1)
    table = _table({"a": [120, 131, 125], "b": [100, 110, 104]}, [200, 210, 205])
    chk = _check(table, claim)
    assert chk.status == "not checked" and chk.verdict.startswith("not checked: point x=9")


def test_without_the_table_the_means_decide_as_before() -> None:
    table = _table({"a": [110, 100, 107], "b": [100, 104, 110]}, [200, 210, 205])
    (chk,) = check_claims(_definition(IMPROVE), summarise(table, "objective"))
    assert chk.status == "holds"  # mean +1 %: the old, mean-only verdict


def test_variants_are_decided_on_their_own_rows() -> None:
    table = _table({"a": [90, 99, 95], "a@v": [120, 131, 125], "b": [100, 110, 104]}, [200, 210, 205])
    definition = replace(_definition(IMPROVE), variants={"v": {"a": {"p": 1}}})
    (default,) = check_claims(definition, summarise(table, "objective"), table)
    (under_v,) = variant_checks(definition, summarise(table, "objective"), table)["v"]
    assert default.status == "fails" and under_v.status == "holds"


def test_interval_and_direction() -> None:
    iv = paired_interval(np.array([1.0, 2.0, 3.0]))
    assert iv.mean == 2.0 and iv.low == pytest.approx(2.0 - 4.303 * 1.0 / math.sqrt(3), abs=1e-3)
    assert direction(iv) == "inconclusive"  # t_2 = 4.303: the interval reaches below 0
    assert direction(paired_interval(np.array([1.0, 1.1, 0.9]))) == "better"
    assert direction(paired_interval(np.array([-1.0, -1.1, -0.9]))) == "worse"
    assert direction(paired_interval(np.zeros(3))) == "tie"
    assert direction(paired_interval(np.array([1.0, -2.0, 3.0]))) == "inconclusive"


def test_headroom_of_a_negative_baseline() -> None:
    table = _table({"b": [-10.0, -10.0]}, [5.0, 5.0])
    assert headroom(table, "b", "1").room == pytest.approx(1.5)  # (5 - (-10)) / 10


def test_counts_cover_every_kind() -> None:
    counts = new_counts()
    assert tuple(counts) == VERDICTS
    counts["untestable"] = 2
    assert counts_text(counts) == "0 hold, 0 fail, 0 inconclusive, 2 untestable, 0 not checked"
    with pytest.raises(ValueError, match="status"):
        ClaimCheck(IMPROVE, 0.0, None, "", status="maybe")
