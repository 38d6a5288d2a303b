"""Links from a verdict to the reading that explains it."""

from __future__ import annotations

from pathlib import Path

import pytest

from aisched.errors import InvalidScenarioError
from aisched.experiments.spec import catalog
from aisched.experiments.spec.readings import EXPLAINED_STATUSES, ReadingIndex, heading_key, slug
from aisched.experiments.spec.scenario import Claim, Scenario, from_mapping

DOCS = Path(__file__).resolve().parents[2] / "docs"

PAGE = """# Readings

## spot (AHAP / AHANP)

### S3. Averaged commitments: CHC's sub-trajectories (Algorithm 1, line 5)

### S-headroom. Finding: why AHAP ties MSU

### Speed notes without a key

## genai (ComDOS)

### A-bound. Certified upper bound on IP (5) (`aisched.bound`)
"""


def test_keys_and_anchors_are_githubs(tmp_path: Path) -> None:
    path = tmp_path / "readings.md"
    path.write_text(PAGE)
    index = ReadingIndex.read(path, "readings.md")
    assert index.sections == {
        "S3": ("spot", "s3-averaged-commitments-chcs-sub-trajectories-algorithm-1-line-5"),
        "S-headroom": ("spot", "s-headroom-finding-why-ahap-ties-msu"),
        "A-bound": ("genai", "a-bound-certified-upper-bound-on-ip-5-aischedbound"),
    }
    assert index.families == {"spot": "spot-ahap--ahanp", "genai": "genai-comdos"}
    assert heading_key("Speed notes") is None and heading_key("T4. Finding") == "T4"
    assert slug("L5. make run's scenario") == "l5-make-runs-scenario"


def test_a_verdict_that_asks_why_links_its_readings(tmp_path: Path) -> None:
    path = tmp_path / "readings.md"
    path.write_text(PAGE)
    index = ReadingIndex.read(path, "../readings.md")
    for status in EXPLAINED_STATUSES:
        assert index.why_text(("S-headroom", "S3"), status, "spot") == (
            " Why: [S-headroom](../readings.md#s-headroom-finding-why-ahap-ties-msu), "
            "[S3](../readings.md#s3-averaged-commitments-chcs-sub-trajectories-algorithm-1-line-5).")
    assert index.why_text(("S3",), "holds", "spot") == ""
    assert index.why_text(("S3",), "not checked", "spot") == ""
    assert index.why_text(("S9",), "fails", "spot") == " Why: S9 (no such section in readings.md)."
    assert index.why_text((), "fails", "spot") == (
        " Why: no reading names this claim yet ([readings: spot](../readings.md#spot-ahap--ahanp)).")
    assert ReadingIndex.read(None).why_text((), "fails", "lora") == (
        " Why: no reading names this claim yet (readings: lora (no section found)).")


def _scenario(**kwargs: object) -> Scenario:
    return Scenario(name="spot/why-test", family="spot", title="t", x="deadline", values=(8, 10),
                    base={"market": "synthetic"}, algorithms=("ahap", "msu"), **kwargs)


def test_a_scenario_gives_its_why_to_claims_that_name_none() -> None:
    own = Claim("better_than", "AHAP above MSU", "ahap", baseline="msu", why=("S3",))
    plain = Claim("best", "AHAP best", "ahap")
    s = _scenario(claims=(own, plain), why=("S-headroom",))
    assert [c.why for c in s.claims] == [("S3",), ("S-headroom",)]
    assert all("why" not in c for c in s.sweep_record()["claims"])  # documentation: old folders still resume
    assert [c["why"] for c in s.definition()["claims"]] == [["S3"], ["S-headroom"]] and from_mapping(s.definition()) == s
    assert s.reduced().claims == s.claims
    assert Claim("best", "x", "ahap", why="S3").why == ("S3",)
    with pytest.raises(InvalidScenarioError, match=r"^why\[1\]: .*'two words' is not a reading's key"):
        _scenario(why=("S3", "two words"))
    with pytest.raises(InvalidScenarioError, match=r"^claims\[0\]\.why\[0\]: .*'' is not a reading's key"):
        _scenario(claims=(Claim("best", "x", "ahap", why=("",)),))
    with pytest.raises(InvalidScenarioError, match=r"^why: .*= 3 is not a list of readings' keys"):
        _scenario(why=3)
    with pytest.raises(InvalidScenarioError, match=r"^claims\[0\]\.why: .*= 3 is not a list of readings' keys"):
        _scenario(claims=(Claim("best", "x", "ahap", why=3),))
    toml = from_mapping({"name": "spot/t", "family": "spot", "x": "deadline", "values": [8, 10],
                         "algorithms": ["ahap", "msu"], "why": ["S3"],
                         "claims": [{"kind": "best", "algorithm": "ahap", "why": ["S-headroom"]},
                                    {"kind": "best", "algorithm": "msu"}]})
    assert [c.why for c in toml.claims] == [("S-headroom",), ("S3",)]


def test_every_paper_claim_names_readings_that_exist() -> None:
    """Each claim of the catalogue points at sections of the committed docs/readings.md."""
    index = ReadingIndex.read(DOCS / "readings.md", "readings.md")
    unexplained, missing = [], []
    for name in catalog.names():
        for claim in catalog.get(name).claims:
            if not claim.why:
                unexplained.append(f"{name}: {claim.text}")
            missing += [f"{name}: {key}" for key in claim.why if key not in index.sections]
    assert not unexplained, unexplained
    assert not missing, missing
