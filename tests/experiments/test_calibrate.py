"""Calibration fits silent parameters to baseline-only relations, and never runs the paper's own algorithm."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

import aisched
from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import fidelity
from aisched.experiments.studies import calibrate as cal
from aisched.families import FamilyRecord, Objective, RegimeTarget, SilentParameter


def _target(**kw):
    base = dict(name="a/b", kind="ratio", algorithms=("msu", "od_only"), value=0.9, quote="q", where="w")
    return RegimeTarget(**{**base, **kw})


def test_a_regime_target_measures_meets_and_is_checked() -> None:
    t = _target()
    assert t.tolerance() == pytest.approx(0.05)  # 15 % of 0.9 is looser
    assert _target(value=0.2).tolerance() == pytest.approx(0.03)  # 15 % of 0.2 is tighter
    assert t.measure({"msu": 9.0, "od_only": 10.0}) == pytest.approx(0.9) and t.met(0.93) and not t.met(0.96)
    order = _target(kind="ordering", algorithms=("a", "b", "c"), value=math.nan)
    assert order.measure({"a": 1.0, "b": 3.0, "c": 2.0}) == 1 and not order.met(1) and order.met(0)
    with pytest.raises(InvalidScenarioError, match="a ratio names 2 algorithms"):
        _target(algorithms=("msu",))


def test_a_record_refuses_a_target_on_the_papers_own_algorithms() -> None:
    def record(target):
        return FamilyRecord(name="toy", objective=Objective("value"), proposed="ahap", hooks=lambda: None,
                            also_proposed=("ahanp",), regime_targets=(target,))

    with pytest.raises(InvalidScenarioError, match="regime_targets\\[0\\].*'ahap'.*baselines only"):
        record(_target(algorithms=("ahap", "od_only")))
    with pytest.raises(InvalidScenarioError, match="'ahanp'"):
        record(_target(algorithms=("ahanp", "od_only")))
    record(_target())  # baselines only: fine


def test_a_silent_parameter_is_checked() -> None:
    kw = dict(name="value", quote="q", where="w", low=1.0, high=2.0, argument="a")
    assert SilentParameter(**kw, default=1.5).values == (1.0, 1.5, 2.0)
    with pytest.raises(InvalidScenarioError, match="default 3.0 is not inside"):
        SilentParameter(**kw, default=3.0)
    with pytest.raises(InvalidScenarioError, match="grid\\[1\\]"):
        SilentParameter(**kw, default=1.5, grid=(1.5, 2.5))
    with pytest.raises(InvalidScenarioError, match="must hold the default"):
        SilentParameter(**kw, default=1.5, grid=(1.0, 2.0))


@pytest.fixture
def small_spot(swap_family, monkeypatch, forbid_algorithms):
    """spot with a 2 x 2 x 1 x 2 grid, and its own algorithms replaced by ones that fail when run."""
    record = families.record("spot")
    grids = {"value": (96.0, 120.0), "mean_available": (None, 8.0), "mean_price": (None,), "gpus": (None, 12.0)}
    small = tuple(dataclasses.replace(p, grid=grids[p.name]) for p in record.silent_parameters)
    swap_family(dataclasses.replace(record, silent_parameters=small))
    forbid_algorithms("spot", "ahap", "ahanp")
    return record


def test_calibration_fits_refits_and_confirms_on_seeds_no_figure_uses_and_resumes(small_spot, tmp_path) -> None:
    result = cal.calibrate("spot", tmp_path, seeds=2, executor="serial", confirm_seeds=3, max_confirm_seeds=3)
    assert result.baselines == ("msu", "od_only", "up")
    assert len(result.grid) == 2 * 2 * 1 * 2 and result.default == {
        "value": 120.0, "mean_available": None, "mean_price": None, "up.gpus": None}
    assert result.grid[0]["setting"] == result.default
    best = min(row["score"] for row in result.grid)
    assert [row["setting"] for row in result.grid if row["score"] == best][0] == result.fit
    for k, fit in enumerate(result.targets):  # ours at the default and at the fit, read back from the grid
        assert fit.default.to_json() == result.grid[0]["estimates"][k]
        assert fit.default.seeds == 2 and fit.default.low <= fit.default.estimate <= fit.default.high
        assert min(abs(r["estimates"][k]["z"]) for r in result.grid) == pytest.approx(abs(fit.closest.z))
    tables = list(tmp_path.glob("spot/calibrate-*/table.csv"))
    assert tables
    for p in tables:
        table = aisched.experiments.run.sweep.load_table(p.parent)
        assert set(table["algorithm"]) <= {"msu", "od_only", "up"}
        seeds = set(table["seed"])  # the fit's, the refit's and the held-out seeds: none of the figures' 0-19
        assert seeds <= {1000, 1001, 2000, 2001, 3000, 3001, 3002} and {1000, 1001, 2000, 2001} <= seeds
    assert result.stability["first_seed"] == 2000 and result.stability["seeds"] == 2
    assert result.confirmation["seeds"] == 3 and len(result.confirmation["fit"]) == 2
    assert all(row["seeds"] == 3 for row in result.confirmation["default"])
    written = json.loads((tmp_path / "spot" / "calibration.json").read_text())
    assert written["schema"] == cal.RECORD_SCHEMA and written["fit"] == result.fit and len(written["targets"]) == 2
    made = written["provenance"]
    assert made["commit"] and made["date"].startswith("20") and made["grid"]["value"] == [96.0, 120.0]
    assert made["points"] == [dict(t.at) for t in small_spot.regime_targets[:1]]
    assert written["seeds"]["confirmation"] == {"first_seed": 3000, "seeds": 3}
    assert written["headline"]["regime"] in ("default", "fit") and len(written["headline"]["conditions"]) == 4
    text = result.text()
    assert "MSU / OD-Only at deadline 10" in text and "0.963" in text and "runs the baselines only" in text
    assert "held-out seeds x3" in text and "heads the page" in text
    again = cal.calibrate("spot", tmp_path, seeds=2, executor="serial", confirm_seeds=3, max_confirm_seeds=3)
    assert again.fit == result.fit  # every cell kept from the first run
    runs = [json.loads(p.read_text())["cells_run"] for p in tmp_path.glob("spot/calibrate-*/sweep.json")]
    assert runs and set(runs) == {0}


def test_calibration_refuses_to_run_the_papers_own_algorithm_even_under_python_O(small_spot, tmp_path) -> None:
    """The guard is a refusal, not an assert: a target whose baseline is (now) the proposed algorithm stops
    the calibration before any cell runs."""
    record = families.record("spot")
    object.__setattr__(record, "proposed", "msu")  # the swapped copy; the original comes back after the test
    with pytest.raises(InvalidScenarioError, match=r"the paper's own algorithm \[?'msu'"):
        cal.calibrate("spot", tmp_path, seeds=1, executor="serial")
    assert not list(tmp_path.glob("spot/calibrate-*/cells/*"))


@pytest.fixture
def lora_without_targets(swap_family, monkeypatch):
    """lora as it would be without declarations (every family of the papers declares some)."""
    record = families.record("lora")
    swap_family(dataclasses.replace(record, silent_parameters=(),
                                                                        regime_targets=()))


def test_calibration_refuses_a_family_without_targets(tmp_path, lora_without_targets) -> None:
    with pytest.raises(InvalidScenarioError, match="'lora' declares no silent parameters"):
        cal.calibrate("lora", tmp_path)


def test_the_command_line_offers_families_with_targets_only(capsys, lora_without_targets) -> None:
    from aisched.cli import main

    with pytest.raises(SystemExit):
        main(["calibrate", "lora"])
    assert "invalid choice: 'lora'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sensitivity", "lora"])
    assert "invalid choice: 'lora'" in capsys.readouterr().err


def test_the_page_shows_regime_fidelity_with_intervals_and_the_headline(small_spot, tmp_path) -> None:
    from aisched.experiments.pages import report, reproduction
    from aisched.experiments.run import sweep
    from aisched.experiments.spec import catalog

    result = cal.calibrate("spot", tmp_path, seeds=2, executor="serial", confirm_seeds=2, max_confirm_seeds=2)
    scenario = catalog.get("spot/fig5-deadline").reduced()
    scenario = dataclasses.replace(scenario, algorithms=("od_only", "msu", "up"), claims=(), offline=False,
                                   variants={}, figures=())
    sweep.sweep(scenario, tmp_path, executor="serial", progress=False, outcomes=False)
    text = report.report(tmp_path, figures=False).read_text()
    assert "spot/fig5-deadline" in text and "calibrate-" not in text
    page = reproduction.write(tmp_path, tmp_path / "page.md", readings=None, figures=False).read_text()
    assert "## Regime fidelity" in page and "calibrate-" not in page
    section = page.split("## Regime fidelity", 1)[1]
    assert "| MSU / OD-Only at deadline 10 | 0.963 | ±0.050 |" in section
    assert f"**Headline regime: the {result.headline.regime}.**" in section
    for line in cal.misfit_lines(result.to_json()):  # the CLI's sentences, word for word
        assert line in section and line in result.text()
    (tmp_path / "spot" / "calibration.json").unlink()
    page = reproduction.write(tmp_path, tmp_path / "page.md", readings=None, figures=False).read_text()
    assert "Not calibrated under this folder, so the default heads the page: `aisched calibrate spot" in page


def test_an_old_or_corrupt_calibration_record_is_refused_naming_the_file(tmp_path) -> None:
    (tmp_path / "spot").mkdir()
    path = tmp_path / "spot" / "calibration.json"
    path.write_text(json.dumps({"family": "spot", "fit": {}, "default": {}, "targets": []}))
    with pytest.raises(InvalidScenarioError, match=r"calibration.json is a calibration record of another layout "
                                                   r"\(schema 1, this aisched reads 2\)"):
        fidelity.fidelity_lines(tmp_path, ["spot"])
    path.write_text("{")
    with pytest.raises(InvalidScenarioError, match="calibration.json is not a calibration record"):
        fidelity.fidelity_lines(tmp_path, ["spot"])


def test_a_users_finer_grid_runs_beside_the_declared_one_into_its_own_record(small_spot, tmp_path) -> None:
    declared = cal.calibrate("spot", tmp_path, seeds=1, executor="serial", confirm_seeds=1, max_confirm_seeds=1)
    folders = set(tmp_path.glob("spot/calibrate-*"))
    finer = cal.calibrate("spot", tmp_path, seeds=1, executor="serial", grid={"value": (110.0, 96.0)},
                          confirm_seeds=1, max_confirm_seeds=1)
    assert [row["setting"]["value"] for row in finer.grid][:1] == [120.0]  # the default first, always tried
    assert sorted({row["setting"]["value"] for row in finer.grid}) == [96.0, 110.0, 120.0]
    assert len(finer.grid) == 3 * 2 * 1 * 2 and finer.grid_override == {"value": [110.0, 96.0]}
    assert folders < set(tmp_path.glob("spot/calibrate-*"))  # the changed axis: its own folders, no clash
    shared = {json.dumps(r["setting"], sort_keys=True): r["estimates"] for r in declared.grid}
    for row in finer.grid:  # the settings both grids hold measure the same (the same seeds and sizes)
        key = json.dumps(row["setting"], sort_keys=True)
        if key in shared:
            assert [e["estimate"] for e in row["estimates"]] == pytest.approx(
                [e["estimate"] for e in shared[key]], nan_ok=True)
    (own,) = tmp_path.glob("spot/calibration-grid-*.json")  # --grid never overwrites calibration.json
    assert json.loads(own.read_text())["grid_override"] == {"value": [110.0, 96.0]}
    assert json.loads((tmp_path / "spot" / "calibration.json").read_text())["grid_override"] is None
    assert own == cal.result_path(tmp_path, "spot", grid={"value": (110.0, 96.0)})


def test_a_bad_grid_is_refused_naming_the_parameter_and_value(capsys) -> None:
    from aisched.cli import main

    record = families.record("spot")
    with pytest.raises(InvalidScenarioError, match=r"^grid: 'nope' is not a silent parameter of spot \(known: value, "):
        cal.with_grid(record, {"nope": (1.0,)})
    with pytest.raises(InvalidScenarioError, match=r"^grid\['value'\]\[1\]: 300.0 is outside the range the paper "
                                                   r"allows, \[85.0, 240.0\]"):
        cal.with_grid(record, {"value": (100.0, 300.0)})
    with pytest.raises(InvalidScenarioError, match=r"^grid\['value'\]: is empty"):
        cal.with_grid(record, {"value": ()})
    assert cal.with_grid(record, {"up.gpus": (None, 10.0)}).silent_parameters[3].grid == (None, 10.0)
    assert main(["calibrate", "spot", "--grid", "value=100,300"]) == 2
    assert "grid['value'][1]: 300.0 is outside the range the paper allows" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["calibrate", "spot", "--grid", "value=1,x"])
    assert "value 1 'x' is neither a number nor 'own'" in capsys.readouterr().err
    assert main(["calibrate", "spot", "--grid", "value=100", "--grid", "value=110"]) == 2
    assert "--grid: names a parameter twice" in capsys.readouterr().err
