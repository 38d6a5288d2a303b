"""Each claim's verdict across the silent range: the design, the sentence, where a parameter is varied, the page."""

from __future__ import annotations

import dataclasses
import json

import pytest

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import reproduction
from aisched.experiments.pages import sensitivity as sens_page
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.spec import catalog
from aisched.experiments.studies import sensitivity as sens


def _record(grids):
    record = families.record("spot")
    return dataclasses.replace(record, silent_parameters=tuple(
        dataclasses.replace(p, grid=grids[p.name]) for p in record.silent_parameters if p.name in grids))


def test_the_design_is_the_default_the_fit_and_one_value_at_a_time() -> None:
    record = _record({"value": (96.0, 120.0, 160.0), "gpus": (None, 12.0)})
    runs = sens.design(record)
    assert [label for label, _ in runs] == ["default", "value=96", "value=160", "up.gpus=12"]
    assert runs[0][1] == {"value": 120.0, "up.gpus": None}
    assert dict(runs)["value=96"] == {"value": 96.0, "up.gpus": None}  # the others at their default
    with_fit = sens.design(record, {"value": 160.0, "up.gpus": 12.0})
    assert with_fit[1] == ("fit", {"value": 160.0, "up.gpus": 12.0}) and len(with_fit) == 5
    assert len(sens.design(record, {"value": 120.0, "up.gpus": None})) == 4  # a fit equal to the default: no extra run


def _verdicts(default, **others):
    return {"default": {"status": default}, **{k.replace("_", "="): {"status": v} for k, v in others.items()}}


def test_the_sensitivity_sentence_names_where_a_verdict_turns() -> None:
    record = _record({"value": (96.0, 110.0, 120.0, 160.0), "gpus": (None, 12.0)})
    runs = sens.design(record)
    same = {label: {"status": "holds"} for label, _ in runs}
    assert sens.sensitivity_text(same, runs) == "holds wherever the text allows"
    assert sens.category(same) == "holds everywhere"
    low = {**same, "value=96": {"status": "fails"}, "value=110": {"status": "fails"}}
    assert sens.sensitivity_text(low, runs) == "holds at the default; fails where value <= 110"
    assert sens.category(low) == "depends"
    high = {**same, "value=160": {"status": "inconclusive"}}
    assert sens.sensitivity_text(high, runs) == "holds at the default; inconclusive where value >= 160"
    middle = {**same, "value=110": {"status": "fails"}}
    assert sens.sensitivity_text(middle, runs) == "holds at the default; fails where value = 110"
    own = {**same, "up.gpus=12": {"status": "untestable"}}  # 'own' has no place in an order: listed, no threshold
    assert sens.sensitivity_text(own, runs) == "holds at the default; untestable where up.gpus = 12"
    fit_runs = sens.design(record, {"value": 160.0, "up.gpus": None})
    at_fit = {**{label: {"status": "holds"} for label, _ in fit_runs}, "fit": {"status": "fails"}}
    assert sens.sensitivity_text(at_fit, fit_runs) == "holds at the default; fails at the fit"
    skipped = sens.sensitivity_text(low, runs, {"value": "the figure's x axis"})
    assert skipped == "holds at the default"  # a skipped parameter's rows are never read


def test_a_parameter_is_varied_only_where_it_means_something() -> None:
    record = families.record("spot")
    by = {p.name: p for p in record.silent_parameters}
    fig5, fig7 = catalog.get("spot/fig5-deadline"), catalog.get("spot/fig7-availability")
    synthetic = catalog.get("spot/fig5-deadline-synthetic")
    assert sens._varied(by["value"], fig5) is None and sens._varied(by["mean_available"], fig5) is None
    assert sens._varied(by["mean_available"], fig7) == "the figure's x axis"
    assert sens._varied(by["mean_available"], synthetic) == "means nothing where market is not 'vast'"
    assert sens._varied(by["value"], synthetic) is None
    assert sens._varied(by["gpus"], fig5) is None  # UP runs in Fig. 5
    derived, key = sens._derive(fig5, record, {"value": 96.0, "mean_available": 8.0, "mean_price": None,
                                               "up.gpus": 12.0}, seeds=2)
    assert key == "value=96,mean_available=8,up.gpus=12"
    assert derived.base["value"] == 96.0 and derived.base["mean_available"] == 8.0
    assert derived.params["up"]["gpus"] == 12 and isinstance(derived.params["up"]["gpus"], int)
    assert derived.variants == {} and derived.seeds == 2 and derived.claims == fig5.claims
    assert derived.name.startswith("spot/silent-fig5-deadline-")
    same, key = sens._derive(fig5, record, sens.design(record)[0][1], seeds=2)
    assert key == "default" and same.base == fig5.base and same.params == fig5.params


def test_sensitivity_runs_the_claims_at_each_setting_and_the_page_shows_it(swap_family, tmp_path, monkeypatch) -> None:
    swap_family(_record({"value": (96.0, 120.0)}))
    name = "spot/fig5-deadline"
    result = sens.sensitivity("spot", tmp_path, seeds=1, names=[name], executor="serial")
    entry = result["scenarios"][name]
    claims = catalog.get(name).claims
    assert [c["text"] for c in entry["claims"]] == [c.text for c in claims]
    for claim in entry["claims"]:
        assert set(claim["verdicts"]) == {"default", "value=96"}
        assert claim["verdicts"]["value=96"]["ran"] == "value=96"
    on_disk = json.loads((tmp_path / "spot" / "sensitivity.json").read_text())
    assert on_disk["scenarios"][name]["claims"] == entry["claims"]
    folders = sorted(p.name for p in (tmp_path / "spot").iterdir() if p.is_dir())
    assert len(folders) == 2 and all(f.startswith("silent-fig5-deadline-") for f in folders)
    again = sens.sensitivity("spot", tmp_path, seeds=1, names=[name], executor="serial")  # resumed: the same
    assert again["scenarios"] == result["scenarios"]
    sweeps.sweep(catalog.get(name).reduced(), tmp_path, seeds=1, executor="serial", progress=False, outcomes=False)
    page = reproduction.write(tmp_path, tmp_path / "page.md", readings=None, figures=False).read_text()
    assert "## Sensitivity to the silent parameters" in page
    assert "| claim | paper | ours | interval | verdict | why | readings | at the fit | across the silent range |" in page
    assert "### spot/silent" not in page and page.count("### spot/fig5-deadline\n") == 1  # no section of its own
    first = entry["claims"][0]
    assert f"across the silent range (reduced sizes, 1 seeds; `spot/silent-*`): {first['sensitivity']}" in page


def test_sensitivity_refuses_bad_input(tmp_path) -> None:
    with pytest.raises(InvalidScenarioError, match="seeds"):
        sens.sensitivity("spot", tmp_path, seeds=0)
    (tmp_path / "spot").mkdir()
    (tmp_path / "spot" / "calibration.json").write_text("{not json")
    with pytest.raises(InvalidScenarioError, match="calibration.json is not a calibration record"):
        sens.sensitivity("spot", tmp_path, seeds=1, names=["spot/fig5-deadline"], executor="serial")
    (tmp_path / "spot" / "sensitivity.json").write_text("[]")
    with pytest.raises(InvalidScenarioError, match="sensitivity.json is not a sensitivity record"):
        sens_page.summary_lines(tmp_path, ["spot"])


def test_at_claim_points_keeps_the_points_the_claims_are_made_at() -> None:
    fig4 = sens.at_claim_points(catalog.get("lora/fig4-scale"))  # three claims "at 50 nodes", one trend
    assert fig4.values == (50,) and [c.point for c in fig4.claims] == ["50"] * 3
    assert all(c.kind == "improvement" for c in fig4.claims)  # the trend over nodes needs every point: left out
    fig6 = sens.at_claim_points(catalog.get("lora/fig6-capacity"))  # A100 above A40: both points, in their order
    assert fig6.values == ("a100", "a40") and [c.kind for c in fig6.claims] == ["greater"]
    assert sens.at_claim_points(catalog.get("lora/fig5-vendors")) is None  # a trend only: nothing to cut to
    reduced = catalog.get("spot/fig5-deadline").reduced()  # (8, 10); the claims at deadline 10 and one "best"
    cut = sens.at_claim_points(reduced)
    assert cut.values == (10,) and len(cut.claims) == 4 and {c.point for c in cut.claims} == {"10"}
    assert sens.at_claim_points(catalog.get("lora/fig4-scale").reduced()) is None  # no 50 nodes in the reduced form


def test_sensitivity_at_the_claims_points_has_its_own_record_and_folders(swap_family, tmp_path, monkeypatch) -> None:
    swap_family(_record({"value": (96.0, 120.0)}))
    name = "spot/fig5-deadline"
    every = sens.sensitivity("spot", tmp_path, seeds=1, names=[name], executor="serial")
    at = sens.sensitivity("spot", tmp_path, seeds=1, names=[name], executor="serial", points="claims")
    assert at["points"] == "claims" and every["points"] == "all"
    assert [c["text"] for c in at["scenarios"][name]["claims"]] == [
        c.text for c in catalog.get(name).claims if c.point is not None]
    assert (tmp_path / "spot" / "sensitivity.json").is_file()
    assert (tmp_path / "spot" / sens.record_name(False, "claims")).name == "sensitivity-at-claims.json"
    assert json.loads((tmp_path / "spot" / "sensitivity-at-claims.json").read_text())["points"] == "claims"
    folders = sorted(p.name for p in (tmp_path / "spot").iterdir() if p.is_dir())
    cut = [f for f in folders if f.startswith("silent-fig5-deadline-at-claims-")]
    assert len(folders) == 4 and len(cut) == 2  # default and value=96, each mode in its own folders
    for folder in cut:
        assert json.loads((tmp_path / "spot" / folder / "scenario.json").read_text())["values"] == [10]
    for text in (c["text"] for c in at["scenarios"][name]["claims"]):  # the same cells, the same verdicts
        same = next(c for c in every["scenarios"][name]["claims"] if c["text"] == text)
        assert {k: v["status"] for k, v in same["verdicts"].items()} == {
            k: v["status"] for k, v in next(c for c in at["scenarios"][name]["claims"]
                                            if c["text"] == text)["verdicts"].items()}
    rows = [line for line in sens_page.summary_lines(tmp_path, ["spot"]) if line.startswith("| spot |")]
    assert [row.split(" | ")[3] for row in rows] == ["reduced sizes, 1 seeds",
                                                    "reduced sizes at the claims' points, 1 seeds"]
    with pytest.raises(InvalidScenarioError, match="points"):
        sens.sensitivity("spot", tmp_path, seeds=1, names=[name], executor="serial", points="some")


def _claim_record(status: str, full: bool, points: str, sensitivity: str) -> dict:
    return {"family": "lora", "seeds": 3, "full": full, "points": points, "design": [{"label": "default"}],
            "scenarios": {"lora/fig4-scale": {"skipped": {}, "claims": [
                {"text": "at 50 nodes", "verdicts": {"default": {"status": status}}, "sensitivity": sensitivity,
                 "category": f"{status} everywhere"}]}}}


def test_the_page_takes_the_largest_run_that_checked_a_claim(tmp_path) -> None:
    folder = tmp_path / "lora"
    folder.mkdir()
    (folder / "sensitivity.json").write_text(json.dumps(
        _claim_record("not checked", False, "all", "not checked wherever the text allows")))
    entries = sens_page.page_entries(tmp_path, ["lora"])
    assert entries[("lora/fig4-scale", "at 50 nodes")]["size"] == "reduced sizes, 3 seeds"
    (folder / "sensitivity-full-at-claims.json").write_text(json.dumps(
        _claim_record("holds", True, "claims", "holds at the default; fails where value_scale >= 1.1")))
    entry = sens_page.page_entries(tmp_path, ["lora"])[("lora/fig4-scale", "at 50 nodes")]
    assert entry == {"fit": None, "default": "holds", "size": "full sizes at the claims' points, 3 seeds",
                     "sensitivity": "holds at the default; fails where value_scale >= 1.1"}
    rows = [line for line in sens_page.summary_lines(tmp_path, ["lora"]) if line.startswith("| lora |")]
    assert len(rows) == 2 and "full sizes at the claims' points, 3 seeds" in rows[1]
    (folder / "sensitivity.json").write_text(json.dumps(
        _claim_record("inconclusive", False, "all", "inconclusive wherever the text allows")))
    assert sens_page.page_entries(tmp_path, ["lora"])[("lora/fig4-scale", "at 50 nodes")]["default"] == "holds"
    (folder / "sensitivity-full-at-claims.json").write_text(json.dumps(
        _claim_record("not checked", True, "claims", "not checked wherever the text allows")))
    assert sens_page.page_entries(tmp_path, ["lora"])[("lora/fig4-scale", "at 50 nodes")]["default"] == "inconclusive"
    (folder / "sensitivity-full-at-claims.json").write_text("[]")
    with pytest.raises(InvalidScenarioError, match="--full --points claims"):
        sens_page.page_entries(tmp_path, ["lora"])


def test_the_cli_runs_one_scenario_at_the_claims_points(swap_family, tmp_path, monkeypatch, capsys) -> None:
    from aisched import cli

    swap_family(_record({"value": (96.0, 120.0)}))
    assert cli.main(["sensitivity", "spot", "--scenario", "spot/fig5-deadline", "--points", "claims", "--seeds", "1",
                     "--serial", "--no-progress", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {tmp_path / 'spot' / 'sensitivity-at-claims.json'}" in out
    record = json.loads((tmp_path / "spot" / "sensitivity-at-claims.json").read_text())
    assert list(record["scenarios"]) == ["spot/fig5-deadline"] and record["points"] == "claims"
    assert cli.main(["sensitivity", "spot", "--scenario", "spot/fig99", "--out", str(tmp_path / "x")]) == 2
    assert "--scenario[0]: = 'spot/fig99' is not a named scenario of spot" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()  # refused before any work


def test_the_page_refuses_a_sensitivity_record_of_another_fit_and_says_not_calibrated(tmp_path) -> None:
    """A sensitivity record keeps the calibration whose fit it ran; the page refuses to combine it with another
    (a refit, another grid, a removed calibration), naming both files; with no calibration it says so."""
    from aisched.experiments.pages import sensitivity as pages
    from aisched.experiments.studies import calibrate as cal
    from aisched.experiments.studies.sensitivity import calibration_identity

    (tmp_path / "spot").mkdir()
    claim = {"text": "c", "verdicts": {"default": {"status": "holds"}}, "sensitivity": "s", "category": "depends"}
    record = {"family": "spot", "seeds": 3, "full": False, "points": "all", "fit": None, "reading": None,
              "design": [{"label": "default", "setting": {}}], "calibration": None,
              "scenarios": {"spot/x": {"claims": [claim]}}}
    path = tmp_path / "spot" / "sensitivity.json"
    path.write_text(json.dumps(record))
    assert "| not calibrated |" in "\n".join(pages.summary_lines(tmp_path, ["spot"]))
    calibration = {"schema": cal.RECORD_SCHEMA, "family": "spot", "default": {"value": 120.0},
                   "fit": {"value": 96.0}, "provenance": {"grid": {"value": [96.0, 120.0]}, "date": "d", "commit": "c"}}
    cpath = tmp_path / "spot" / "calibration.json"
    cpath.write_text(json.dumps(calibration))
    with pytest.raises(InvalidScenarioError, match=r"sensitivity.json does not match .*calibration.json \(it ran "
                                                   r"before the family was calibrated\)"):
        pages.page_entries(tmp_path, ["spot"])
    path.write_text(json.dumps({**record, "fit": calibration["fit"],
                                "calibration": calibration_identity(cpath, calibration)}))
    assert pages.page_entries(tmp_path, ["spot"])[("spot/x", "c")]["default"] == "holds"
    cpath.write_text(json.dumps({**calibration, "fit": {"value": 110.0}}))  # refit since
    with pytest.raises(InvalidScenarioError, match=r"another calibration: another fit, grid or run"):
        pages.page_entries(tmp_path, ["spot"])
    cpath.unlink()
    with pytest.raises(InvalidScenarioError, match=r"a calibration that is no longer there"):
        pages.page_entries(tmp_path, ["spot"])


def test_where_the_fit_heads_the_page_the_summary_counts_the_fit_from_the_regimes_run(tmp_path) -> None:
    """The headline rule decides from the calibration record; the regimes run (the default and the fit at the same
    sizes and seeds) gives the fit's verdicts, which the summary then counts and the glance table labels."""
    from aisched.experiments.pages.headline import regimes_of
    from aisched.experiments.pages.render import summary_lines
    from aisched.experiments.pages.reproduction import family_summary, summary_text
    from aisched.experiments.studies import calibrate as cal
    from aisched.experiments.studies.sensitivity import calibration_identity, record_name

    (tmp_path / "spot").mkdir()
    met = [{"name": "r", "status": "met"}]
    calibration = {"schema": cal.RECORD_SCHEMA, "family": "spot", "default": {"value": 120.0}, "fit": {"value": 140.0},
                   "fit_estimates": met, "stated": {"outside": []},
                   "confirmation": {"seeds": 10, "fit": met, "default": [], "score_default": 100.0, "score_fit": 5.0},
                   "stability": {"first_seed": 2000, "fit": {"value": 140.0}, "same_or_neighbour": True},
                   "provenance": {"grid": {"value": [120.0, 140.0]}, "date": "d", "commit": "c"}}
    cpath = tmp_path / "spot" / "calibration.json"
    cpath.write_text(json.dumps(calibration))
    heads = regimes_of(tmp_path, "spot")
    assert heads.headline == "fit" and not heads.fit_heads and "no regimes run is under this folder" in heads.line()

    def claim(text, default, at_fit):
        return {"text": text, "verdicts": {"default": {"status": default}, "fit": {"status": at_fit}},
                "sensitivity": "s", "category": "depends"}

    record = {"family": "spot", "seeds": 3, "full": True, "points": "all", "fit": calibration["fit"],
              "regimes": True, "reading": None, "calibration": calibration_identity(cpath, calibration),
              "design": [{"label": "default", "setting": {}}, {"label": "fit", "setting": {}}],
              "scenarios": {"spot/x": {"claims": [claim("a", "holds", "fails"), claim("b", "fails", "fails")]}}}
    (tmp_path / "spot" / record_name(True, "all", regimes=True)).write_text(json.dumps(record))
    heads = regimes_of(tmp_path, "spot")
    assert heads.fit_heads and heads.size == "full sizes, 3 seeds"
    assert heads.verdicts[("spot/x", "a")] == {"default": "holds", "fit": "fails"}
    counts = {"holds": 1, "fails": 1, "inconclusive": 0, "untestable": 0, "not checked": 0}  # the default's
    lines = [*summary_lines({"spot": family_summary(counts, {"a": 0.01, "b": float("nan")}, heads)}),
             *summary_text("spot", heads)]
    assert "| spot | fit | 2 | 0 | not computed at the fit | 2 | 0 | 0 | 0 |" in lines
    assert any(line.startswith("- spot: the fit heads the page ((a) 1 target(s) met") for line in lines)
    calibration["stated"] = {"outside": ["value = 140 (stated: [120, 120])"]}  # the rule now keeps the default
    cpath.write_text(json.dumps(calibration))
    heads = regimes_of(tmp_path, "spot")
    assert heads.headline == "default" and not heads.fit_heads and "(c) not keeps the paper's stated" in heads.reason
