"""docs/readings.md stays citable: anchors resolve, measured figures are dated."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from aisched.experiments.spec.readings import ReadingIndex, slug

ROOT = Path(__file__).resolve().parents[1]
READINGS = ROOT / "docs" / "readings.md"


def _tool():  # tools/ is not a package: load the script as a module
    spec = importlib.util.spec_from_file_location("readings_provenance", ROOT / "tools" / "readings_provenance.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_every_link_into_readings_lands_on_a_heading() -> None:
    anchors = {slug(line.lstrip("#")) for line in READINGS.read_text(encoding="utf-8").splitlines()
               if line.startswith("#")}
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    links = [(page.name, anchor) for page in pages
             for anchor in re.findall(r"readings\.md#([\w-]+)\)", page.read_text(encoding="utf-8"))]
    assert links
    assert [link for link in links if link[1] not in anchors] == []


def test_sections_have_unique_keys() -> None:
    index = ReadingIndex.read(READINGS)
    heads = [line for line in READINGS.read_text(encoding="utf-8").splitlines() if line.startswith("### ")]
    assert len(index.sections) == len(heads)  # every ### section has a key, none twice


def test_every_section_with_measured_figures_is_dated() -> None:
    tool = _tool()
    lines = READINGS.read_text(encoding="utf-8").split("\n")
    fake = [("0000000", "2026-01-01")] * len(lines)
    needed = tool.provenance_lines(lines, fake)
    assert len(needed) >= 20
    undated = [lines[h] for h in needed
               if not (lines[h + 1] == "" and re.match(r"\*Measured:\* .*\d{4}-\d\d-\d\d \(", lines[h + 2]))]
    assert undated == []


def test_the_tool_writes_one_line_a_section(tmp_path: Path) -> None:
    tool = _tool()
    lines = ["# R", "", "### X1. a", "", "- 1.5 and 2.5", "- 30 %", "- 1,234 jobs", "", "### X2. b", "", "- words"]
    blame = [("abc1234", "2026-11-23")] * 5 + [("def5678", "2026-11-26")] * 6
    found = tool.provenance_lines(lines, blame)
    assert found == {2: "*Measured:* the figures in this section were last written 2026-11-23 (abc1234); "
                        "2026-11-26 (def5678) (date, commits); seeds and sizes as stated beside each figure."}


#: Pages written before verdicts linked their readings (2026-11-23 runs); none left since lora's full-size regeneration.
STALE_PAGES: set[str] = set()


def test_each_verdict_that_asks_why_links_a_reading_on_the_committed_pages() -> None:
    pages = [p for p in sorted((ROOT / "docs").glob("reproduction*.md")) if p.name not in STALE_PAGES]
    assert pages
    for page in pages:
        claims = [line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("- ")
                  and any(k in line for k in ("**fails**", ": untestable", ": inconclusive"))]
        assert claims, page.name
        assert [line for line in claims if "Why: [" not in line] == [], page.name
