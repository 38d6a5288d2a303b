"""Links from a verdict to the reading that explains it."""

from __future__ import annotations

from pathlib import Path

import pytest

from aisched import families as family_registry
from aisched.errors import InvalidScenarioError
from aisched.experiments.spec import catalog
from aisched.experiments.spec.readings import (
    EXPLAINED_STATUSES,
    FINDINGS,
    ReadingIndex,
    heading_key,
    read_findings,
    slug,
)
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
    assert set(index.files.values()) == {""} and index.findings == {}  # one file: no file names, no findings.toml
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
    assert index.why_text(("S9",), "fails", "spot") == " Why: S9 (no such section in the readings)."
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
    """Each claim of the catalogue points at sections of the committed docs/readings/ folder."""
    index = ReadingIndex.read(DOCS / "readings", "readings/")
    unexplained, missing = [], []
    for name in catalog.names():
        scenario = catalog.get(name)
        for claim in scenario.claims:
            if not claim.why:
                unexplained.append(f"{name}: {claim.text}")
            missing += [f"{name}: {key}" for key in claim.why if key not in index.sections]
        missing += [f"{name} (scenario): {key}" for key in scenario.why if key not in index.sections]
    assert not unexplained, unexplained
    assert not missing, missing


FOLDER = {
    "index.md": "# Readings of the papers\n\n## Theorems\n\n### TH1. lora Lemma 4 fails\n",
    "spot.md": "# Readings: spot (AHAP / AHANP)\n\n### S-findings. Findings\n\nSee findings.toml.\n\n"
               "### S3. Averaged commitments\n\n### S-headroom. Finding: why AHAP ties MSU\n",
    "genai.md": "# Readings: genai (ComDOS)\n\n### A-bound. Certified upper bound\n",
    FINDINGS: '[[finding]]\nfamily = "spot"\nkey = "S-findings-1"\nreading = "S4"\ntext = "UP is *OD-Only* (S4)."\n\n'
              '[[finding]]\nfamily = "spot"\nkey = "S-findings-2"\ntext = "A second one."\n',
}


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "readings"
    folder.mkdir()
    for name, text in FOLDER.items():
        (folder / name).write_text(text)
    return folder


def test_a_folder_is_read_page_by_page_with_its_findings(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    index = ReadingIndex.read(folder, "readings/")
    assert index.sections == {"TH1": ("", "th1-lora-lemma-4-fails"), "S-findings": ("spot", "s-findings-findings"),
                              "S3": ("spot", "s3-averaged-commitments"),
                              "S-headroom": ("spot", "s-headroom-finding-why-ahap-ties-msu"),
                              "A-bound": ("genai", "a-bound-certified-upper-bound")}
    assert index.files == {"TH1": "index.md", "S-findings": "spot.md", "S3": "spot.md", "S-headroom": "spot.md",
                           "A-bound": "genai.md", "spot": "spot.md", "genai": "genai.md"}
    assert index.findings == {"spot": ["UP is *OD-Only* (S4).", "A second one."]}  # the TOML, not the prose
    assert index.why_text(("S3", "TH1"), "fails", "spot") == (
        " Why: [S3](readings/spot.md#s3-averaged-commitments), [TH1](readings/index.md#th1-lora-lemma-4-fails).")
    assert index.why_text((), "inconclusive", "genai") == (
        " Why: no reading names this claim yet ([readings: genai](readings/genai.md)).")
    assert index.family_link("tenants") == "readings: tenants (no section found)"
    assert ReadingIndex.read(tmp_path / "absent").sections == {}
    assert ReadingIndex.read(str(folder)).link("S3", "x") == "spot.md#x"  # a str path too; no base: the file


def test_a_single_file_takes_the_findings_beside_it(tmp_path: Path) -> None:
    (tmp_path / "readings.md").write_text(PAGE)
    (tmp_path / FINDINGS).write_text(FOLDER[FINDINGS])
    assert ReadingIndex.read(tmp_path / "readings.md").findings == {"spot": ["UP is *OD-Only* (S4).", "A second one."]}


def test_a_finding_without_its_fields_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / FINDINGS
    path.write_text('[[finding]]\nfamily = "spot"\nkey = "k"\ntext = "t"\n\n[[finding]]\nfamily = "spot"\nkey = 3\n')
    with pytest.raises(InvalidScenarioError, match=r"finding\[1\].*key, text missing or not a string"):
        read_findings(path)


def test_the_committed_findings_parse_and_name_registered_families_and_sections() -> None:
    folder = DOCS / "readings"
    findings = read_findings(folder / FINDINGS)
    index = ReadingIndex.read(folder, "readings/")
    assert findings
    assert [f["family"] for f in findings if f["family"] not in family_registry.names()] == []
    keys = [f["key"] for f in findings]
    assert len(keys) == len(set(keys))
    assert [f["reading"] for f in findings if f["reading"] and f["reading"] not in index.sections] == []
    assert [f["reading"] for f in findings if f["reading"] and index.sections[f["reading"]][0] != f["family"]] == []
    assert all(f["text"].strip() and "\n" not in f["text"] for f in findings)
    for family in {f["family"] for f in findings}:  # each family's page says where its findings are
        assert "findings.toml" in (folder / f"{family}.md").read_text(encoding="utf-8")
