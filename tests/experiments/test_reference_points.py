"""Offline solves and certified bounds run only where a verdict reads them (Scenario.reference_points)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aisched.errors import InvalidScenarioError
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.experiments.spec.catalog import Claim, Scenario
from aisched.experiments.spec.scenario import from_mapping

BASE = Scenario(
    name="lora/test-references", family="lora", title="tiny", x="nodes", values=(1, 2, 3),
    base={"slots": 8, "tasks": 4, "vendors": 1}, algorithms=("pdftsp", "eft"), seeds=2, offline=True,
    bound=True,
)


def _referenced(scenario: Scenario) -> dict[str, set[str]]:
    """reference algorithm -> the x labels its cells are at."""
    out: dict[str, set[str]] = {"offline": set(), "bound": set()}
    for cell in sweep.cells(scenario):
        if cell.algorithm in out:
            out[cell.algorithm].add(cell.x)
    return out


def test_an_improvement_claim_gets_its_point_only() -> None:
    s = replace(BASE, claims=(Claim("improvement", "pdftsp is 10 % above eft at 2", "pdftsp", baseline="eft",
                                    point="2", value=0.1),
                              Claim("increasing", "welfare grows with nodes", "pdftsp")))
    assert s.reference_points() == (1,)
    assert _referenced(s) == {"offline": {"2"}, "bound": {"2"}}
    online = [c for c in sweep.cells(s) if c.algorithm in s.algorithms]
    assert len(online) == 3 * 2 * 2  # every point and seed of the compared algorithms still runs
    assert _referenced(replace(s, references="all")) == {"offline": {"1", "2", "3"}, "bound": {"1", "2", "3"}}


@pytest.mark.parametrize("change", [
    {"claims": ()},  # a user's sweep against the optimum, no claims: every point
    {"claims": (Claim("better_than", "pdftsp beats eft", "pdftsp", baseline="eft"),)},  # headroom at every point
    {"metric": "ratio", "claims": (Claim("at_least", "ratio above 0.5", "pdftsp", value=0.5),)},
    {"figures": ("regime",), "claims": (Claim("increasing", "grows", "pdftsp"),)},
])
def test_every_point_where_a_verdict_reads_the_reference_there(change: dict) -> None:
    s = replace(BASE, **change)
    assert s.reference_points() == (0, 1, 2)
    assert _referenced(s)["offline"] == {"1", "2", "3"}


def test_best_and_trends_need_no_reference() -> None:
    s = replace(BASE, claims=(Claim("best", "pdftsp is best", "pdftsp"), Claim("increasing", "grows", "pdftsp")))
    assert s.reference_points() == ()
    assert _referenced(s) == {"offline": set(), "bound": set()}


def test_bound_at_still_names_the_bound_points() -> None:
    s = replace(BASE, bound_at=(3,), claims=(Claim("improvement", "at 2", "pdftsp", baseline="eft", point="2",
                                                   value=0.1),))
    assert _referenced(s) == {"offline": {"2"}, "bound": {"3"}}


def test_references_key_round_trips_and_a_bad_value_is_named() -> None:
    s = replace(BASE, references="all")
    assert from_mapping(s.definition()).references == "all"
    assert "references" not in BASE.definition() and "references" not in BASE.sweep_record()
    assert s.sweep_record()["references"] == "all"
    with pytest.raises(InvalidScenarioError) as err:
        replace(BASE, references="some")
    assert err.value.field == "references" and "'some'" in str(err.value)


def test_catalog_drops_references_no_verdict_reads() -> None:
    fig6 = catalog.get("genai/fig6-capacity")  # claims "best" only: the headroom is a note, no verdict
    assert not [c for c in sweep.cells(fig6) if c.algorithm == "bound"]
    fig4 = catalog.get("genai/fig4-slots")  # improvement claims at 500 slots only
    assert {c.x for c in sweep.cells(fig4) if c.algorithm == "bound"} == {"500"}
    spot = catalog.get("spot/fig5-deadline")  # improvement claims at deadline 10
    assert {c.x for c in sweep.cells(spot) if c.algorithm == "offline"} == {"10"}
    ratio = catalog.get("tenants/fig5a-ratio-jobs")  # a ratio to the optimum: every point
    assert {c.x for c in sweep.cells(ratio) if c.algorithm == "offline"} == {"5", "10", "15"}


def test_a_claims_table_is_headed_paper_only_for_the_papers_claims() -> None:
    import math
    from collections import Counter

    from aisched.experiments.pages.report import ClaimCheck, _claim_lines
    from aisched.experiments.store.stored import StoredScenario

    paper = catalog.get("genai/fig5-edges")
    stored = StoredScenario.of(paper)
    check = ClaimCheck(paper.claims[0], math.nan, None, "no finished cells yet")
    assert _claim_lines([check], Counter(), stored=stored)[0].startswith("| paper's claim |")
    own = Claim("at_most", "my own claim", paper.claims[0].algorithm, value=123.0)
    lines = _claim_lines([check, ClaimCheck(own, math.nan, None, "x")], Counter(),
                         stored=StoredScenario.of(replace(paper, claims=(*paper.claims, own))))
    assert lines[0].startswith("| claim |") and "my own claim (user's, not the paper's)" in lines[3]
    user = StoredScenario.of(replace(paper, name="genai/my-edges"))  # a user's scenario, the paper's words
    assert _claim_lines([check], Counter(), stored=user)[0].startswith("| user's claim |")
