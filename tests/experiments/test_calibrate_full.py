"""Calibration at the paper's own sizes (``calibrate(full=True)``, ``aisched calibrate --full``)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from aisched import families
from aisched.cli import main
from aisched.core.declarations import RegimeTarget
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages.fidelity import fidelity_lines
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.spec import catalog
from aisched.experiments.studies import calibrate as cal

_REDUCED = {"edges": 2, "slots": 24, "arrival_rate": 4.0, "capacity": "homo-M", "workload": "gpu_priced"}
_FULL = {**_REDUCED, "edges": 3}


@pytest.fixture
def tiny_genai(swap_family, forbid_algorithms):
    """genai's declarations with two targets at a 2-edge point whose full size is 3 edges, HEFT-A with 1 GPU there."""
    record = families.record("genai")
    grids = {"revenue_scale": (1.0, 0.5), "candidate_shuffle": (0.0,), "transfer_scale": (1.0,),
             "runtime_scale": (1.0,)}
    params = tuple(dataclasses.replace(p, grid=grids[p.name]) for p in record.silent_parameters)
    targets = tuple(dataclasses.replace(t, at=_REDUCED, full_at=_FULL,
                                        full_params={"heft_a": {"gpus": 1}} if "heft_a" in t.algorithms else {})
                    for t in record.regime_targets[:2])
    swap_family(dataclasses.replace(record, silent_parameters=params, regime_targets=targets))
    forbid_algorithms("genai", "comdos")


def test_full_size_runs_the_paper_point_with_its_options_in_its_own_folders_and_file(tiny_genai, tmp_path) -> None:
    reduced = cal.calibrate("genai", tmp_path, seeds=1, executor="serial", confirm_seeds=1, max_confirm_seeds=1)
    before = set(tmp_path.glob("genai/calibrate-*"))
    full = cal.calibrate("genai", tmp_path, seeds=1, executor="serial", confirm_seeds=1, max_confirm_seeds=1,
                         full=True)
    new = set(tmp_path.glob("genai/calibrate-*")) - before
    assert len(new) == len(before) == 1  # a new folder: the point and its options are in the digest
    (folder,) = new
    scenario = json.loads((folder / "scenario.json").read_text())
    assert scenario["base"]["edges"] == 3 and scenario["params"] == {"heft_a": {"gpus": 1}}
    (old,) = before
    assert json.loads((old / "scenario.json").read_text())["base"]["edges"] == 2
    assert set(sweeps.load_table(folder)["algorithm"]) <= {"heft_a", "heft_ma", "random_a"}
    written = json.loads((tmp_path / "genai" / "calibration-full.json").read_text())
    assert written["full"] is True and written["sizes"][0]["edges"] == 3
    assert json.loads((tmp_path / "genai" / "calibration.json").read_text())["full"] is False  # not replaced
    assert "the targets at the paper's own sizes" in full.text() and "paper's own" not in reduced.text()
    beside = [line for line in fidelity_lines(tmp_path, ["genai"]) if "calibration-full.json" in line]
    assert len(beside) == 1 and "(at the paper's own sizes: edges 3), beside, not the headline" in beside[0]
    assert "the headline rule on this record alone: the " in beside[0]
    assert cal.result_path(tmp_path, "genai", full=True).name == "calibration-full.json"
    assert cal.result_path(tmp_path, "genai", {"gpus": 4}, full=True).name == "calibration-full-gpus=4.json"


def test_full_is_refused_where_the_targets_are_at_the_paper_size_already(tmp_path, capsys) -> None:
    with pytest.raises(InvalidScenarioError, match=r"^full: spot's regime targets are at the paper's own sizes"):
        cal.calibrate("spot", tmp_path, full=True)
    assert main(["calibrate", "spot", "--full", "--out", str(tmp_path / "x")]) == 2
    assert "run without --full" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_a_target_refuses_options_for_an_algorithm_it_does_not_run() -> None:
    with pytest.raises(InvalidScenarioError, match=r"full_params: names \['titan'\]"):
        RegimeTarget(name="x", kind="ratio", algorithms=("eft", "ntm"), value=1.0, quote="q", where="w",
                     full_at={"nodes": 50}, full_params={"titan": {"jct_form": "running"}})
    target = RegimeTarget(name="x", kind="ratio", algorithms=("eft", "titan"), value=1.0, quote="q", where="w",
                          at={"nodes": 4}, full_at={"nodes": 50}, full_params={"titan": {"jct_form": "running"}})
    full = target.at_full_size()
    assert dict(full.at) == {"nodes": 50} and full.params["titan"]["jct_form"] == "running"
    assert full.full_at is None and full.at_full_size() is full


def test_lora_declares_figs_4_and_8_at_the_paper_sizes_as_the_figures_run_them() -> None:
    scenarios = {name: catalog.get(name) for name in ("lora/fig4-scale", "lora/fig8-load")}
    figure_titan = dict(scenarios["lora/fig4-scale"].params["titan"])
    assert figure_titan == dict(scenarios["lora/fig8-load"].params["titan"])
    for target in families.record("lora").regime_targets:
        full = target.at_full_size()
        fig4 = "Fig. 4" in target.name
        assert (full.at["nodes"], full.at["arrival_rate"]) == ((50, 50.0) if fig4 else (100, 80.0))
        assert {k: v for k, v in full.at.items() if k not in ("nodes", "arrival_rate")} == \
            {k: v for k, v in target.at.items() if k not in ("nodes", "arrival_rate")}
        # the reduced point keeps the full one's volume per node
        assert target.at["arrival_rate"] / target.at["nodes"] == pytest.approx(
            full.at["arrival_rate"] / full.at["nodes"], rel=1e-9)
        assert {a: dict(o) for a, o in full.params.items()} == (
            {"titan": figure_titan} if "titan" in target.algorithms else {})
