"""docs/readings/ stays citable: anchors resolve, keys are unique, measured figures are dated and reproducible,
and the pages hold reasoning, not development history (that is CHANGELOG.md's)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from aisched.experiments.spec.readings import ReadingIndex, heading_key, slug

ROOT = Path(__file__).resolve().parents[1]
READINGS = ROOT / "docs" / "readings"
PAGES = sorted(READINGS.glob("*.md"))


def _tool():  # tools/ is not a package: load the script as a module
    spec = importlib.util.spec_from_file_location("readings_provenance", ROOT / "tools" / "readings_provenance.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def _anchors(page: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}


def test_the_folder_holds_a_page_per_family_and_the_index() -> None:
    assert {p.name for p in PAGES} >= {"index.md", "lora.md", "spot.md", "genai.md", "tenants.md"}
    for family in ("lora", "spot", "genai", "tenants"):
        first = (READINGS / f"{family}.md").read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(f"# Readings: {family} ("), first
    index = (READINGS / "index.md").read_text(encoding="utf-8")
    assert all(f"]({family}.md)" in index for family in ("lora", "spot", "genai", "tenants"))
    stub = (ROOT / "docs" / "readings.md").read_text(encoding="utf-8")
    assert "readings/index.md" in stub and len(stub.splitlines()) <= 3


def test_every_link_into_readings_lands_on_a_heading() -> None:
    anchors = {page.name: _anchors(page) for page in PAGES}
    outside = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    links = [(page.name, name, anchor) for page in outside
             for name, anchor in re.findall(r"readings/(\w+\.md)#([\w-]+)\)", page.read_text(encoding="utf-8"))]
    for page in PAGES:  # links between the readings' own pages, and within one
        text = page.read_text(encoding="utf-8")
        links += [(page.name, name, anchor) for name, anchor in re.findall(r"\]\((\w+\.md)#([\w-]+)\)", text)]
        links += [(page.name, page.name, anchor) for anchor in re.findall(r"\]\(#([\w-]+)\)", text)]
    assert links
    assert [link for link in links if link[2] not in anchors.get(link[1], set())] == []


def test_no_page_links_into_the_old_single_file() -> None:
    outside = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    old = [page.name for page in outside if re.search(r"readings\.md#", page.read_text(encoding="utf-8"))]
    assert old == []


def test_sections_have_unique_keys_across_the_folder() -> None:
    index = ReadingIndex.read(READINGS, "readings/")
    where: dict[str, list[str]] = {}
    for page in PAGES:
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("### "):
                key = heading_key(line[4:])
                assert key is not None, f"{page.name}: {line}"  # every ### section has a key
                where.setdefault(key, []).append(page.name)
    assert {key: pages for key, pages in where.items() if len(pages) > 1} == {}  # no key in two files, or twice
    assert set(index.sections) == set(where)
    assert all(index.files[key] == pages[0] for key, pages in where.items())


def test_every_section_with_measured_figures_is_dated_with_its_command() -> None:
    tool = _tool()
    needed_in_all = 0
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").split("\n")
        needed = tool.provenance_lines(lines, ["2026-01-01"] * len(lines))
        needed_in_all += len(needed)
        undated = [lines[h] for h in needed if not (lines[h + 1] == "" and tool.STAMP.match(lines[h + 2]))]
        assert undated == [], page.name
        stamps = [line for line in lines if line.startswith(tool.MARK)]
        assert [s for s in stamps if not tool.STAMP.match(s)] == [], page.name  # every stamp: dates and command
    assert needed_in_all >= 40


def test_the_tool_refreshes_dates_and_keeps_the_command(tmp_path: Path, monkeypatch) -> None:
    tool = _tool()
    lines = ["# R", "", "### X1. a", "", "- 1.5 and 2.5", "- 30 %", "- 1,234 jobs", "", "### X2. b", "", "- words"]
    blame = ["2026-11-23"] * 5 + ["2026-11-26"] * 6
    assert tool.provenance_lines(lines, blame) == {2: "2026-11-23, 2026-11-26"}
    page = tmp_path / "x.md"
    page.write_text("\n".join(lines[:3] + ["", "*Measured:* 2026-11-20; reproduce: `aisched compare spot`; as stated."]
                              + lines[3:]))
    monkeypatch.setattr(tool, "_blame", lambda path: ["2026-11-23"] * 7 + ["2026-11-26"] * 6)
    assert tool.refresh(page) == []
    assert page.read_text().split("\n")[4] == ("*Measured:* 2026-11-20, 2026-11-23, 2026-11-26; reproduce: "
                                               "`aisched compare spot`; as stated.")
    bare = tmp_path / "y.md"
    bare.write_text("\n".join(lines))
    assert tool.refresh(bare) == ["y.md: ### X1. a"]


#: Development history, which goes to CHANGELOG.md: commits, issue and branch names, bug-fix notes, machine paths.
HISTORY = re.compile(r"commit [0-9a-f]{7}|#[0-9]+\b|[Bb]ug fixed|/tmp/|/work/|\.\./shared|[Ii]ssue ?[0-9]+|"
                     r"branch issue|issue[0-9]+-|[Bb]efore the fix|[Aa]fter the fix|AISCHED_DATA=|mechanisms issue")
#: A commit hash in a *Measured:* stamp (the stamp carries dates and the command instead).
STAMP_COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")


def test_no_development_history_in_the_readings() -> None:
    found = []
    for page in [*PAGES, READINGS / "findings.toml"]:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if HISTORY.search(line) or (line.startswith("*Measured") and STAMP_COMMIT.search(line)):
                found.append(f"{page.name}:{n}: {line[:100]}")
    assert found == []


def test_the_history_pattern_catches_what_it_should() -> None:
    for text in ("commit e17003f", "before #14", "**Bug fixed:**", "/tmp/lora_cal", "AISCHED_DATA=../shared/data",
                 "issue 61 item 4", "branch issue61-tenants", "the `auto` bug above. After the fix"):
        assert HISTORY.search(text), text
    for text in ("the ahead branch", "branch and bound", "Fig. 5's points", "S-headroom"):
        assert not HISTORY.search(text), text
    assert STAMP_COMMIT.search("*Measured:* 2026-11-23 (6fbd39e)")
    assert not STAMP_COMMIT.search("*Measured:* 2026-11-23; reproduce: `aisched sweep spot/fig5-deadline`")


#: Pages written before verdicts linked their readings (2026-11-23 runs); none left since lora's full-size regeneration.
STALE_PAGES: set[str] = set()


def test_each_verdict_that_asks_why_links_a_reading_on_the_committed_pages() -> None:
    pages = [p for p in sorted((ROOT / "docs").glob("reproduction-*.md")) if p.name not in STALE_PAGES]
    assert len(pages) == 4  # the family pages; the index lists no claim
    for page in pages:
        claims = [line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("- ")
                  and any(k in line for k in ("**fails**", ": untestable", ": inconclusive"))]
        assert claims, page.name
        assert [line for line in claims if "Why: [" not in line] == [], page.name
