"""--seeds auto: seeds added only at the points of undecided claims, checked at the sequential level."""

from __future__ import annotations

import dataclasses
import json

import pytest

from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import report, reproduction
from aisched.experiments.pages.report import verdict_text
from aisched.experiments.run import auto_seeds as auto
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.spec import catalog
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.verdicts.checks import check_claims, summarise
from aisched.experiments.verdicts.sequential import PAIRED_KINDS, look_level


def test_the_looks_stop_at_max_seeds() -> None:
    assert auto.looks_upto(20) == (3, 6, 12, 20) and auto.looks_upto(12) == (3, 6, 12) and auto.looks_upto(3) == (3,)
    with pytest.raises(InvalidScenarioError, match="--max-seeds"):
        auto.looks_upto(2)


def test_seeds_are_added_only_where_a_claim_is_undecided(tmp_path) -> None:
    base = catalog.get("spot/fig5-deadline").reduced()  # deadlines 8 and 10; claims at 10 and at every point
    claims = tuple(c for c in base.claims if c.point == "10")
    scenario = dataclasses.replace(base, variants={}, claims=claims, offline=False, figures=())
    entry = auto.auto_seeds(scenario, tmp_path, max_seeds=6, executor="serial", progress=False, outcomes=False)
    first = entry["taken"][0]
    assert first["seeds"] == 3 and first["points"] == [0, 1]
    table = sweeps.load_table(sweeps.folder(tmp_path, scenario))
    per_point = table.groupby("x")["seed"].nunique().to_dict()
    assert entry["seeds_per_point"] == {str(k): int(v) for k, v in per_point.items()}
    if first["claims_open_after"]:  # a claim at deadline 10 was undecided: seeds added there only
        assert entry["taken"][1] == {"seeds": 6, "points": [1], "claims_open_after": entry["claims_open"]}
        assert per_point == {"8": 3, "10": 6}
    else:
        assert len(entry["taken"]) == 1 and set(per_point.values()) == {3}
    record = json.loads((tmp_path / auto.RECORD).read_text())
    assert record[scenario.name]["level"] == pytest.approx(0.9875) == look_level()
    assert auto.levels(tmp_path) == {scenario.name: pytest.approx(0.9875)}
    page = reproduction.write(tmp_path, tmp_path / "page.md", readings=None, figures=False).read_text()
    stored = StoredScenario.read(sweeps.folder(tmp_path, scenario))
    at_level = check_claims(stored, summarise(table, stored.metric), table, level=look_level())
    assert at_level and all(f"- {c.claim.text}: {verdict_text(c, True)}" in page for c in at_level)
    written = report.report(tmp_path, figures=False).read_text()  # the sweep's report says why, and gives Holm
    assert "Verdicts at the 98.75% level: this sweep ran with `--seeds auto`, which looks at 3, 6, 12, 20" in written
    assert "(1 - 0.05/4)" in written
    if any(c.claim.kind in PAIRED_KINDS for c in at_level):
        assert "Hold after Holm: spot " in written
    again = auto.auto_seeds(scenario, tmp_path, max_seeds=6, executor="serial", progress=False, outcomes=False)
    assert again["seeds_per_point"] == entry["seeds_per_point"]  # resumed: nothing more to add


def test_points_restrict_a_sweep_to_some_points(tmp_path) -> None:
    scenario = dataclasses.replace(catalog.get("spot/fig5-deadline").reduced(), variants={}, offline=False,
                                   figures=(), algorithms=("od_only", "msu"), claims=())
    sweeps.sweep(scenario, tmp_path, seeds=1, executor="serial", progress=False, outcomes=False)
    table = sweeps.sweep(scenario, tmp_path, seeds=2, points=[1], resume=True, executor="serial", progress=False,
                         outcomes=False)
    assert table.groupby("x")["seed"].nunique().to_dict() == {"8": 1, "10": 2}
    assert len(sweeps.cells(scenario, 2, points=[1])) == 4


def test_the_command_line_takes_auto_and_checks_max_seeds(capsys) -> None:
    from aisched.cli import main

    assert main(["sweep", "spot/fig5-deadline", "--seeds", "auto", "--max-seeds", "2"]) == 2
    assert "--max-seeds: = 2 must be an integer >= 3" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["reproduce", "spot", "--seeds", "many"])
    assert "'many' is neither a number nor 'auto'" in capsys.readouterr().err


def test_reproduce_auto_records_the_whole_run_and_a_linked_folder_keeps_its_level(tmp_path) -> None:
    """One record for both phases (its seeds "auto", the first look's cells and wall), and the level
    travels with the scenario's folder: a page over a root holding a copy of it checks at 98.75 %."""
    import shutil

    from aisched.experiments.pages import reproduce

    name = "spot/fig5-deadline"
    reproduce.reproduce(["spot"], tmp_path / "run", seeds="auto", max_seeds=6, reduced=True, names=[name],
                        executor="serial", progress=False, outcomes=False, figures=False)
    (record,) = reproduce.read_records(tmp_path / "run" / reproduce.record_name(["spot"], True))
    scenario = catalog.get(name).reduced()
    root = sweeps.folder(tmp_path / "run", scenario)
    table = sweeps.load_table(root)
    assert record["seeds"] == "auto" and record["max_seeds"] == 6 and record["provenance"]["seeds"] == "auto"
    assert record["first_look"]["seeds"] == 3 and record["first_look"]["cells"] == len(sweeps.cells(scenario, 3))
    assert record["cells_total"] == len(table) >= record["first_look"]["cells"]
    assert record["wall_s"] >= record["first_look"]["wall_s"] > 0
    entry = json.loads((tmp_path / "run" / auto.RECORD).read_text())[name]
    assert record["claims_open"] == {name: entry["claims_open"]}
    assert json.loads((root / auto.RECORD).read_text()) == {name: entry}  # the folder's own copy
    shutil.copytree(root, tmp_path / "other" / "spot" / root.name)  # into another root, without its record
    assert not (tmp_path / "other" / auto.RECORD).exists()
    assert auto.levels(tmp_path / "other") == {name: pytest.approx(look_level())}
    page = reproduction.write(tmp_path / "run", tmp_path / "page.md", readings=None, figures=False).read_text()
    assert "Run: `aisched reproduce spot --seeds auto --max-seeds 6 --reduced`, finished " in page
    assert "cells in " in page and "(a first look at 3 seeds, " in page
    again = reproduction.write(tmp_path / "other", tmp_path / "again.md", readings=None, figures=False).read_text()
    def verdicts(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("- ") and "[reduced run]" in line]

    assert verdicts(again) and verdicts(again) == verdicts(page)  # the same verdicts at the same level
