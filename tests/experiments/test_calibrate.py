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


def test_calibration_runs_baselines_only_fits_and_resumes(small_spot, tmp_path) -> None:
    result = cal.calibrate("spot", tmp_path, seeds=1, executor="serial")
    assert result.baselines == ("msu", "od_only", "up")
    assert len(result.grid) == 2 * 2 * 1 * 2 and result.default == {
        "value": 120.0, "mean_available": None, "mean_price": None, "up.gpus": None}
    assert result.grid[0]["setting"] == result.default
    best = min(row["score"] for row in result.grid)
    assert [row["setting"] for row in result.grid if row["score"] == best][0] == result.fit
    for fit in result.targets:  # ours at the default and at the fit, read back from the grid
        assert fit.default == result.grid[0]["measured"][fit.target.name]
        assert min(abs(fit.target.residual(r["measured"][fit.target.name])) for r in result.grid) == pytest.approx(
            abs(fit.target.residual(fit.closest)))
    tables = list(tmp_path.glob("spot/calibrate-*/table.csv"))
    assert tables and all(set(aisched.experiments.run.sweep.load_table(p.parent)["algorithm"]) <= {"msu", "od_only", "up"}
                          for p in tables)
    written = json.loads((tmp_path / "spot" / "calibration.json").read_text())
    assert written["fit"] == result.fit and len(written["targets"]) == 2
    assert written["aisched"] and written["written"].startswith("20")  # where it came from
    text = result.text()
    assert "MSU / OD-Only at deadline 10" in text and "0.963" in text and "runs the baselines only" in text
    again = cal.calibrate("spot", tmp_path, seeds=1, executor="serial")  # every cell kept from the first run
    assert again.fit == result.fit
    runs = [json.loads(p.read_text())["cells_run"] for p in tmp_path.glob("spot/calibrate-*/sweep.json")]
    assert runs and set(runs) == {0}


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


def test_the_page_shows_regime_fidelity_and_leaves_calibration_sweeps_out(small_spot, tmp_path) -> None:
    from aisched.experiments.pages import report, reproduction
    from aisched.experiments.run import sweep
    from aisched.experiments.spec import catalog

    cal.calibrate("spot", tmp_path, seeds=1, executor="serial")
    scenario = catalog.get("spot/fig5-deadline").reduced()
    scenario = dataclasses.replace(scenario, algorithms=("od_only", "msu", "up"), claims=(), offline=False,
                                   variants={}, figures=())
    sweep.sweep(scenario, tmp_path, executor="serial", progress=False, outcomes=False)
    text = report.report(tmp_path, figures=False).read_text()
    assert "spot/fig5-deadline" in text and "calibrate-" not in text
    page = reproduction.write(tmp_path, tmp_path / "page.md", readings=None, figures=False).read_text()
    assert "## Regime fidelity" in page and "calibrate-" not in page
    fidelity = page.split("## Regime fidelity", 1)[1]
    assert "| MSU / OD-Only at deadline 10 | 0.963 |" in fidelity and "| UP / OD-Only at deadline 10 | 1.117 |" in fidelity
    (tmp_path / "spot" / "calibration.json").unlink()
    page = reproduction.write(tmp_path, tmp_path / "page.md", readings=None, figures=False).read_text()
    assert "Not calibrated under this folder: `aisched calibrate spot" in page


def test_an_ordering_relation_reads_in_words_not_nan(tmp_path) -> None:
    """tenants' 'BatchSche < X' targets have no paper number: the table says the order and how many pairs miss it."""
    import json
    import re

    setting = {"duration_scale": 1.0}
    record = {"family": "tenants", "seeds": 3, "default": setting, "fit": {"duration_scale": 0.1},
              "fit_meets_all": False, "baselines": ["gandiva_fair", "batchsche", "hived"],
              "targets": [{"name": "BatchSche < HiveD at 25 servers", "paper": float("nan"), "default": 1.0,
                           "fit": 0.0, "met_at_default": False, "met_at_fit": True, "closest": 0.0,
                           "closest_setting": setting, "meetable": True},
                          {"name": "HiveD / BatchSche, Fig. 4a", "paper": 1.17, "default": 0.959, "fit": 1.091,
                           "met_at_default": False, "met_at_fit": False, "closest": 1.181,
                           "closest_setting": setting, "meetable": True}]}
    (tmp_path / "tenants").mkdir()
    (tmp_path / "tenants" / "calibration.json").write_text(json.dumps(record))
    text = "\n".join(fidelity.fidelity_lines(tmp_path, ["tenants"]))
    assert not re.search(r"\bnan\b", text)
    assert "| BatchSche < HiveD at 25 servers | in this order | 1 pair out of order | | in this order | | yes |" in text
    assert "| HiveD / BatchSche, Fig. 4a | 1.170 | 0.959 | -0.211 | 1.091 | -0.079 | no |" in text
    assert "- BatchSche < HiveD at 25 servers: in this order at duration_scale = 1" in text


def test_a_users_finer_grid_runs_beside_the_declared_one(small_spot, tmp_path) -> None:
    declared = cal.calibrate("spot", tmp_path, seeds=1, executor="serial")
    folders = set(tmp_path.glob("spot/calibrate-*"))
    finer = cal.calibrate("spot", tmp_path, seeds=1, executor="serial", grid={"value": (110.0, 96.0)})
    assert [row["setting"]["value"] for row in finer.grid][:1] == [120.0]  # the default first, always tried
    assert sorted({row["setting"]["value"] for row in finer.grid}) == [96.0, 110.0, 120.0]
    assert len(finer.grid) == 3 * 2 * 1 * 2 and finer.grid_override == {"value": [110.0, 96.0]}
    assert folders < set(tmp_path.glob("spot/calibrate-*"))  # the changed axis: its own folders, no clash
    shared = {json.dumps(r["setting"], sort_keys=True): r["measured"] for r in declared.grid}
    for row in finer.grid:  # the settings both grids hold measure the same (the same cells, seeds and sizes)
        key = json.dumps(row["setting"], sort_keys=True)
        if key in shared:
            assert row["measured"] == pytest.approx(shared[key], nan_ok=True)
    written = json.loads((tmp_path / "spot" / "calibration.json").read_text())
    assert written["grid_override"] == {"value": [110.0, 96.0]}


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
