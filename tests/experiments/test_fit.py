"""The fit's statistics (intervals, met / missed / undecided, one scale) and the headline rule, on hand-made
numbers whose answers are known."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from aisched import families
from aisched.experiments.studies import calibrate as cal
from aisched.experiments.verdicts import fit
from aisched.experiments.verdicts.headline import SCORE_FACTOR, headline, misfit_lines
from aisched.families import RegimeTarget

RATIO = RegimeTarget(name="a/b", kind="ratio", algorithms=("a", "b"), value=1.0, quote="q", where="w")
ORDER = RegimeTarget(name="a<b<c", kind="ordering", algorithms=("a", "b", "c"), value=math.nan, quote="q", where="w")


def _seeds(values):
    return {s: v for s, v in enumerate(values)}


def test_a_ratio_is_met_missed_or_undecided_by_its_interval() -> None:
    b = _seeds([10.0] * 8)
    met = fit.estimate(RATIO, {"a": _seeds([10.2, 10.3, 10.1, 10.2, 10.3, 10.2, 10.1, 10.2]), "b": b})
    assert met.status == "met" and met.firm and met.seeds == 8
    assert met.low <= met.estimate <= met.high and met.z == pytest.approx((met.estimate - 1.0) / 0.05)
    missed = fit.estimate(RATIO, {"a": _seeds([12.0, 12.1, 11.9, 12.0, 12.1, 11.9, 12.0, 12.0]), "b": b})
    assert missed.status == "missed" and missed.low > 1.05
    # the mean is just outside the band, the seeds spread widely: the interval reaches into the band
    undecided = fit.estimate(RATIO, {"a": _seeds([9.0, 13.0, 9.0, 13.0, 9.5, 12.5, 9.0, 12.6]), "b": b})
    assert undecided.estimate > 1.05 and undecided.low < 1.05 and undecided.status == "undecided"
    # the estimate inside, the interval wider than the band: met, but not firmly
    loose = fit.estimate(RATIO, {"a": _seeds([8.0, 12.0, 8.0, 12.0, 8.5, 11.5, 9.0, 11.0]), "b": b})
    assert loose.status == "met" and not loose.firm


def test_the_seeds_are_paired_and_only_common_seeds_count() -> None:
    # a and b move together across seeds: the ratio is exactly 1.1 at every seed, so the interval is a point
    a, b = _seeds([11.0, 22.0, 33.0, 44.0]), _seeds([10.0, 20.0, 30.0, 40.0])
    e = fit.estimate(RATIO, {"a": a, "b": {**b, 9: 1.0}})
    assert e.seeds == 4 and e.low == pytest.approx(1.1) and e.high == pytest.approx(1.1)
    assert fit.estimate(RATIO, {"a": a, "b": {}}).status == "missed"  # nothing to read: never met


def test_an_ordering_is_tested_pair_by_pair_and_a_tie_is_missed() -> None:
    b = _seeds([10.0, 10.5, 9.5, 10.0, 10.2, 9.8])
    ordered = fit.estimate(ORDER, {"a": _seeds([8.0] * 6), "b": b, "c": _seeds([12.0] * 6)})
    assert ordered.status == "met" and ordered.firm and len(ordered.pairs) == 3 and ordered.z == 0
    tie = fit.estimate(ORDER, {"a": b, "b": b, "c": _seeds([12.0] * 6)})
    assert tie.status == "missed" and tie.z == pytest.approx(1.0)  # just outside the band: one tolerance
    out = fit.estimate(ORDER, {"a": _seeds([12.0] * 6), "b": b, "c": _seeds([13.0] * 6)})
    assert out.status == "missed" and out.estimate < 0  # the tightest pair is out of order
    mixed = fit.estimate(ORDER, {"a": _seeds([9.2, 11.2, 9.2, 11.0, 9.6, 10.3]), "b": b, "c": _seeds([12.0] * 6)})
    assert mixed.status == "undecided"


def test_the_score_is_on_the_tolerance_scale() -> None:
    b = _seeds([10.0] * 3)
    inside = fit.estimate(RATIO, {"a": _seeds([10.4] * 3), "b": b})  # 0.04 off, tolerance 0.05
    outside = fit.estimate(RATIO, {"a": _seeds([11.0] * 3), "b": b})  # 0.10 off: two tolerances
    assert fit.score([inside]) == pytest.approx(0.8 ** 2) and inside.status == "met"
    assert fit.score([outside]) == pytest.approx(4.0) and outside.status == "missed"
    assert fit.score([inside, outside]) == pytest.approx(0.64 + 4.0)
    nan = fit.estimate(RATIO, {"a": b, "b": _seeds([0.0] * 3)})
    assert fit.score([inside, nan]) == math.inf


def test_grid_neighbours() -> None:
    grids = {"v": (120.0, 96.0, 110.0), "g": (None, 10.0)}
    assert fit.neighbours({"v": 110.0, "g": None}, {"v": 110.0, "g": None}, grids)
    assert fit.neighbours({"v": 110.0, "g": None}, {"v": 120.0, "g": None}, grids)  # one step in numeric order
    assert not fit.neighbours({"v": 96.0, "g": None}, {"v": 120.0, "g": None}, grids)  # two steps
    assert not fit.neighbours({"v": 110.0, "g": None}, {"v": 120.0, "g": 10.0}, grids)  # two parameters
    assert not fit.neighbours({"v": 110.0, "g": None}, {"v": 110.0, "g": 10.0}, grids)  # the own default: no order


def _record(**changes):
    target = {"name": "a/b", "status": "met"}
    record = {"family": "toy", "default": {"v": 1.0}, "fit": {"v": 2.0},
              "fit_estimates": [target], "confirmation": {"seeds": 10, "fit": [target], "default": [],
                                                          "score_default": 50.0, "score_fit": 1.0},
              "stability": {"first_seed": 2000, "fit": {"v": 2.0}, "same_or_neighbour": True},
              "stated": {"outside": []}}
    record.update(changes)
    return record


def test_the_headline_rule_takes_the_fit_only_where_all_four_conditions_hold() -> None:
    assert headline(_record()).regime == "fit"
    lost = _record(confirmation={"seeds": 10, "fit": [{"name": "a/b", "status": "undecided"}],
                                 "score_default": 50.0, "score_fit": 1.0})
    assert headline(lost).regime == "default" and "(a) not confirmed" in headline(lost).reason
    assert "a/b (undecided)" in headline(lost).reason
    moved = _record(stability={"first_seed": 2000, "fit": {"v": 7.0}, "same_or_neighbour": False})
    assert headline(moved).regime == "default" and "(b) not stable" in headline(moved).reason
    stated = _record(stated={"outside": ["v = 2 (stated: [1, 1])"]})
    assert headline(stated).regime == "default" and "(c) not keeps the paper's stated values" in headline(stated).reason
    close = _record(confirmation={"seeds": 10, "fit": [{"name": "a/b", "status": "met"}],
                                  "score_default": SCORE_FACTOR * 1.0 - 0.01, "score_fit": 1.0})
    assert headline(close).regime == "default" and "(d)" in headline(close).reason
    same = _record(fit={"v": 1.0})
    assert headline(same).regime == "default" and headline(same).reason == "the fit is the default itself"
    nothing = _record(fit_estimates=[{"name": "a/b", "status": "missed"}])
    assert headline(nothing).regime == "default" and "meets no target" in headline(nothing).reason


def test_the_misfit_sentences_name_the_closest_with_its_interval() -> None:
    record = _record(targets=[{"name": "a/b", "paper": 1.0, "meetable": False, "closest_setting": {"v": 3.0},
                               "closest": {"estimate": 1.2, "low": 1.1, "high": 1.3}}],
                     grid=[{"setting": {"v": 1.0}, "estimates": [{"status": "missed"}]}])
    lines = misfit_lines(record)
    assert "On 10 held-out seeds the fit meets 1 of 1 relations (0 missed, 0 undecided at 90 % intervals)." in lines
    assert "No setting in the range meets 'a/b': closest 1.200 [1.100, 1.300] (paper 1.000) at v = 3." in lines


def test_no_two_settings_run_the_same_cells_and_stated_values_bind() -> None:
    """tenants: Astraea's theta_scale (no target runs Astraea) leaves the grid; duration_scale is stated (section
    5.1's m_j as written), so the declared grid keeps 1 only and a user's grid that leaves it is a named reading."""
    record = families.record("tenants")
    tried = cal.settings(record)
    keys = [json.dumps({k: v for k, v in s.items() if k != "astraea.theta_scale"}, sort_keys=True) for s in tried]
    assert len(set(keys)) == len(keys) and {s["astraea.theta_scale"] for s in tried} == {1.0}
    assert {s["duration_scale"] for s in tried} == {1.0}
    assert {s["duration_scale"] for s in cal.settings(record, keep_outside_stated=True)} == {1.0, 0.45, 0.3, 0.2, 0.1}
    duration = next(p for p in record.silent_parameters if p.name == "duration_scale")
    assert duration.stated == (1.0, 1.0) and duration.keeps_stated(1.0) and not duration.keeps_stated(0.3)
    with pytest.raises(Exception, match="evidence"):
        dataclasses.replace(duration, evidence=(0.5, 0.9))  # the default 1 outside our own evidence: refused
