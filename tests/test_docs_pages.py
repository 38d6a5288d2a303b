"""The reproduction pages under docs/ are what their committed verdict records render to, and nothing else.

A page edited by hand, or a record changed without rendering its pages again (``aisched pages``),
fails here; so does a record whose counts disagree with its own claims, or a page that names a
machine path or lists a family's section twice.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from aisched import families
from aisched.experiments.pages import reproduction
from aisched.experiments.pages.records import SCHEMA, read_records
from aisched.experiments.verdicts.stats import VERDICTS

DOCS = Path(__file__).resolve().parents[1] / "docs"
RECORDS = DOCS / "records"


def test_every_page_is_what_the_records_render_to() -> None:
    pages = reproduction.rendered(RECORDS, DOCS / "reproduction.md", claims=DOCS / "claims.md")
    assert set(pages) == {DOCS / "reproduction.md", DOCS / "claims.md",
                          *(DOCS / f"reproduction-{f}.md" for f in ("lora", "spot", "genai", "tenants"))}
    for path, text in pages.items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is not current: run `aisched pages`"


def test_each_record_agrees_with_itself() -> None:
    records = read_records(RECORDS)
    assert list(records) == [f for f in families.names() if f in records] == ["lora", "spot", "genai", "tenants"]
    for family, record in records.items():
        assert record["schema"] == SCHEMA and record["family"] == family
        summary = record["summary"]
        statuses = [row["verdict"].split(" (")[0] for row in record["claims"]]
        listed = {kind: statuses.count(kind) for kind in VERDICTS}
        unlisted = summary["default_counts"]["not checked"] - listed["not checked"]  # claims of scenarios not run
        assert unlisted >= 0 and {**listed, "not checked": listed["not checked"] + unlisted} == \
            summary["default_counts"], family
        if summary["regime"] == "default":
            assert summary["counts"] == summary["default_counts"], family
        else:  # the fit heads: its counts are the regimes run's, over the claims it covers
            assert 0 < sum(summary["counts"].values()) <= sum(summary["default_counts"].values()), family
            assert all(row["at_fit"] in VERDICTS for row in record["claims"] if row["at_fit"] != "not swept"), family
        assert all(row["reason"] for row in record["claims"]), family  # every row says why in a phrase
        for figure in record["figures"]:
            assert (DOCS / figure["path"]).is_file(), figure["path"]


@pytest.mark.parametrize("name", ["reproduction.md", "reproduction-lora.md", "reproduction-spot.md",
                                  "reproduction-genai.md", "reproduction-tenants.md", "claims.md"])
def test_a_page_names_no_machine_path_and_opens_with_the_glance(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    assert not re.search(r"/work/|/tmp/|/home/|\.\./shared", text), name
    if name.startswith("reproduction-"):
        head = text.split("## Claims at a glance", 1)[0]
        assert head.startswith(f"# {name[13:-3]}: ") and "Run: `aisched reproduce" in head
        assert len(head.splitlines()) < 12  # the glance table comes first, not after the details
        assert "0.0 min" not in text  # a resumed run says what it added


def test_the_index_copies_no_family_section() -> None:
    index = (DOCS / "reproduction.md").read_text(encoding="utf-8")
    assert "## Per figure" not in index and "### " not in index
    assert all(f"(reproduction-{f}.md)" in index for f in ("lora", "spot", "genai", "tenants"))
    assert len(index.splitlines()) < 60


def test_the_records_are_small_and_plain_json() -> None:
    for path in sorted(RECORDS.glob("*.json")):
        json.loads(path.read_text(encoding="utf-8"))
        assert path.stat().st_size < 400_000, path.name
