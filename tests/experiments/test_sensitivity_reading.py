"""Sensitivity under a reading: an option every algorithm (and the offline solve) runs with (genai's ``gpus``)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from aisched import families
from aisched.cli import main
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import reproduction
from aisched.experiments.pages import sensitivity as sens_page
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.spec import catalog
from aisched.experiments.studies import sensitivity as sens

_COMPETITIVE = "genai/fig9-competitive"  # reduced: 2 edges, 12 slots, 4 jobs, ComDOS and the offline solve


@pytest.fixture
def one_setting(swap_family, monkeypatch):
    """genai's silent parameters each at its default only: one setting a scenario, the cheapest run."""
    record = families.record("genai")
    params = tuple(dataclasses.replace(p, grid=(p.default,)) for p in record.silent_parameters)
    swap_family(dataclasses.replace(record, silent_parameters=params))


def _scenario_files(top):
    return {p.parent.name: json.loads(p.read_text()) for p in (top / "genai").glob("silent-*/scenario.json")}


def test_a_reading_reaches_every_algorithm_and_the_offline_solve_in_its_own_folders_and_record(
        one_setting, tmp_path) -> None:
    plain = sens.sensitivity("genai", tmp_path, seeds=1, names=[_COMPETITIVE], executor="serial")
    before = set(_scenario_files(tmp_path))
    held = sens.sensitivity("genai", tmp_path, seeds=1, names=[_COMPETITIVE], executor="serial",
                            reading={"gpus": 1})
    assert plain["reading"] is None and held["reading"] == {"gpus": 1}
    files = _scenario_files(tmp_path)
    (new,) = set(files) - before  # its own folder, beside the one without the reading
    assert files[new]["params"] == {"comdos": {"gpus": 1}, "offline": {"gpus": 1}}
    assert "under gpus=1" in files[new]["title"]
    (old,) = before
    assert files[old]["params"] == {}
    table = sweeps.load_table(tmp_path / "genai" / new)
    assert set(table["algorithm"]) == {"comdos", "offline"}
    # one GPU on each of 2 edges: at most 2 tasks at once, so the offline solve, given the reading, proves a
    # smaller optimum on this instance (0.0470 against 0.0608): it would be equal had the reading not reached it
    plain_table = sweeps.load_table(tmp_path / "genai" / old)
    opt = {name: float(t[t["algorithm"] == "offline"]["objective"].iloc[0]) for name, t in
           (("plain", plain_table), ("held", table))}
    assert opt["held"] < opt["plain"] - 1e-6
    record = json.loads((tmp_path / "genai" / "sensitivity-gpus=1.json").read_text())
    assert record["reading"] == {"gpus": 1} and record["scenarios"] == held["scenarios"]
    assert json.loads((tmp_path / "genai" / "sensitivity.json").read_text())["reading"] is None  # not replaced
    assert sens.record_name(True, "claims", {"gpus": 4}) == "sensitivity-full-at-claims-gpus=4.json"
    sweeps.sweep(catalog.get(_COMPETITIVE).reduced(), tmp_path, seeds=1, executor="serial", progress=False,
                 outcomes=False)
    page = reproduction.write(tmp_path, tmp_path / "page.md", readings=None, figures=False).read_text()
    claim = held["scenarios"][_COMPETITIVE]["claims"][0]
    status = claim["verdicts"]["default"]["status"]
    assert (f"  - under the reading gpus=1 (reduced sizes, 1 seeds): {status} at the default, "
            f"the fit is the default at the fit; across the silent range: {claim['sensitivity']}") in page
    assert "| genai | " in page and "reduced sizes, 1 seeds, under gpus=1 |" in page


def test_the_fit_is_read_from_the_calibration_under_the_same_reading(one_setting, tmp_path) -> None:
    (tmp_path / "genai").mkdir()
    (tmp_path / "genai" / "calibration.json").write_text(json.dumps({"fit": {}}))
    (tmp_path / "genai" / "calibration-gpus=1.json").write_text("{not json")
    with pytest.raises(InvalidScenarioError, match=r"calibration-gpus=1.json is not a calibration record"):
        sens.sensitivity("genai", tmp_path, seeds=1, names=[_COMPETITIVE], executor="serial", reading={"gpus": 1})
    assert not list((tmp_path / "genai").glob("silent-*"))  # refused before any sweep


def test_a_bad_reading_is_refused_before_any_work(tmp_path, capsys) -> None:
    with pytest.raises(InvalidScenarioError, match=r"^reading\['gpus'\]: comdos: = 0 must be None"):
        sens.sensitivity("genai", tmp_path, seeds=1, names=[_COMPETITIVE], executor="serial", reading={"gpus": 0})
    with pytest.raises(InvalidScenarioError, match=r"^reading\['tie'\]: comdos: is not a parameter"):
        sens.sensitivity("genai", tmp_path, seeds=1, names=[_COMPETITIVE], executor="serial",
                         reading={"tie": 1})
    with pytest.raises(InvalidScenarioError, match=r"^reading\['tie'\]: is not an option of 'genai''s offline"):
        sens._check_offline_reading("genai", {"tie": 1})
    sens._check_offline_reading("genai", {"gpus": 4})  # IP (5) with the extension's row: taken
    assert not list(tmp_path.iterdir())  # nothing written
    out = tmp_path / "x"
    assert main(["sensitivity", "genai", "--reading", "gpus=0", "--out", str(out)]) == 2
    assert "reading['gpus']: " in capsys.readouterr().err and not out.exists()
    assert main(["sensitivity", "genai", "--reading", "gpus=4", "--reading", "gpus=2", "--out", str(out)]) == 2
    assert "--reading: names an option twice" in capsys.readouterr().err and not out.exists()


def test_the_offline_solve_gets_the_reading_only_where_the_scenario_runs_it() -> None:
    competitive = sens._with_reading(catalog.get(_COMPETITIVE), {"gpus": 4})
    assert competitive.params["offline"] == {"gpus": 4} and competitive.params["comdos"]["gpus"] == 4
    fig7 = sens._with_reading(catalog.get("genai/fig7-workload"), {"gpus": 4})
    assert "offline" not in fig7.params
    assert all(fig7.params[a]["gpus"] == 4 for a in fig7.algorithms)
    assert sens._with_reading(fig7, {}) is fig7


def _record(status: str, sensitivity: str, reading: dict | None, full: bool = True) -> dict:
    return {"family": "genai", "seeds": 3, "full": full, "points": "claims", "reading": reading,
            "design": [{"label": "default"}],
            "scenarios": {"genai/fig7-workload": {"skipped": {}, "claims": [
                {"text": "at Poisson 7", "verdicts": {"default": {"status": status}}, "sensitivity": sensitivity,
                 "category": f"{status} everywhere"}]}}}


def test_the_page_shows_a_reading_beside_never_instead_of_the_plain_record(tmp_path) -> None:
    folder = tmp_path / "genai"
    folder.mkdir()
    key = ("genai/fig7-workload", "at Poisson 7")
    (folder / "sensitivity-full-at-claims-gpus=4.json").write_text(json.dumps(
        _record("fails", "fails wherever the text allows", {"gpus": 4})))
    only = sens_page.page_entries(tmp_path, ["genai"])[key]
    assert only["sensitivity"] is None and only["readings"]["gpus=4"]["default"] == "fails"
    (folder / "sensitivity-full-at-claims.json").write_text(json.dumps(
        _record("holds", "holds wherever the text allows", None)))
    entry = sens_page.page_entries(tmp_path, ["genai"])[key]
    assert entry["default"] == "holds" and entry["sensitivity"] == "holds wherever the text allows"
    assert entry["readings"] == {"gpus=4": {"fit": None, "default": "fails", "sensitivity":
                                            "fails wherever the text allows",
                                            "size": "full sizes at the claims' points, 3 seeds, under gpus=4"}}
    rows = [line for line in sens_page.summary_lines(tmp_path, ["genai"]) if line.startswith("| genai |")]
    assert [row.split(" | ")[3] for row in rows] == ["full sizes at the claims' points, 3 seeds",
                                                    "full sizes at the claims' points, 3 seeds, under gpus=4"]
    (folder / "sensitivity-at-claims-gpus=4.json").write_text(json.dumps(  # a smaller mode never wins
        _record("inconclusive", "inconclusive wherever the text allows", {"gpus": 4}, full=False)))
    assert sens_page.page_entries(tmp_path, ["genai"])[key]["readings"]["gpus=4"]["default"] == "fails"
    (folder / "sensitivity-full-gpus=4.json").write_text("[]")
    with pytest.raises(InvalidScenarioError, match="--reading"):
        sens_page.page_entries(tmp_path, ["genai"])


def test_a_scenario_takes_offline_options_only_where_it_solves_the_offline_program() -> None:
    from aisched.experiments.spec.validation import validate

    competitive = catalog.get(_COMPETITIVE)
    validate(dataclasses.replace(competitive, params={"offline": {"gpus": 2}}))
    with pytest.raises(InvalidScenarioError, match=r"^params.offline.tie: .*is not an option of 'genai''s offline"):
        validate(dataclasses.replace(competitive, params={"offline": {"tie": 1}}))
    with pytest.raises(InvalidScenarioError, match=r"^params: .*parameters for 'offline', which is not compared"):
        validate(dataclasses.replace(catalog.get("genai/fig7-workload"), params={"offline": {"gpus": 2}}))
