"""The data page (docs/data.md) is rendered from aisched.data.DATASETS, and the README points into the repository."""

from __future__ import annotations

import re
from pathlib import Path

from aisched.data import DATASETS, provenance_page

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_data_page_is_the_renderers_output() -> None:
    page = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    assert page == provenance_page(), "docs/data.md is stale: write aisched.data.provenance_page() to it"


def test_the_page_names_every_dataset_and_file_once() -> None:
    page = provenance_page()
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert [re.match(r"\| `([^`]+)`", row).group(1) for row in rows] == list(DATASETS)
    for data, row in zip(DATASETS.values(), rows, strict=True):
        assert row.count(" | ") == 5, row[:80]  # six cells: no cell's own '|' splits the row
        assert all(f"`{f.name}`" in row for f in data.files)
        assert ("aisched data fetch" in row) == data.downloadable


def test_the_readme_cites_nothing_outside_the_repository() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for outside in ("PROVENANCE.md", "shared/papers", "ARCHITECTURE.md"):
        assert outside not in text, outside
    assert "docs/data.md" in text
