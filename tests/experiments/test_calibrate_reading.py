"""Calibration under a reading: an option every baseline runs with, held fixed (genai's ``gpus``)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from aisched import families
from aisched.cli import main
from aisched.errors import InvalidScenarioError
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.studies import calibrate as cal

#: A point small enough for a unit test: 3 edges, 24 slots, a heavy Poisson rate so edges share slots.
_TINY = {"edges": 3, "slots": 24, "arrival_rate": 4.0, "capacity": "homo-M", "workload": "gpu_priced"}


@pytest.fixture
def tiny_genai(swap_family, monkeypatch, forbid_algorithms):
    """genai's declarations at one tiny point, with a two-value revenue grid (never runs ComDOS)."""
    record = families.record("genai")
    grids = {"revenue_scale": (1.0, 0.5), "candidate_shuffle": (0.0,), "transfer_scale": (1.0,),
             "runtime_scale": (1.0,)}
    params = tuple(dataclasses.replace(p, grid=grids[p.name]) for p in record.silent_parameters)
    targets = tuple(dataclasses.replace(t, at=_TINY) for t in record.regime_targets[:2])
    swap_family(dataclasses.replace(record, silent_parameters=params,
                                                                        regime_targets=targets))
    forbid_algorithms("genai", "comdos")


def test_a_reading_reaches_every_baseline_in_its_own_folders_and_file(tiny_genai, tmp_path) -> None:
    printed = cal.calibrate("genai", tmp_path, seeds=1, executor="serial", confirm_seeds=1, max_confirm_seeds=1)
    folders = set(tmp_path.glob("genai/calibrate-*"))
    held = cal.calibrate("genai", tmp_path, seeds=1, executor="serial", reading={"gpus": 1}, confirm_seeds=1,
                         max_confirm_seeds=1)
    assert held.reading == {"gpus": 1} and printed.reading is None
    new = set(tmp_path.glob("genai/calibrate-*")) - folders
    assert len(new) == len(folders) == 1  # one target point, one setting of the rest: one sweep each
    (folder,) = new
    table = sweeps.load_table(folder)
    assert set(table["algorithm"]) == {"heft_a", "heft_ma", "random_a"}
    scenario = json.loads((folder / "scenario.json").read_text())
    assert all(scenario["params"][a] == {"gpus": 1} for a in ("heft_a", "heft_ma", "random_a"))
    assert "under gpus=1" in scenario["title"]
    # one GPU an edge on 3 edges: at most 3 tasks at once anywhere, so HEFT-MA (which stacks tasks on an edge
    # with no limit) earns differently at one setting at least
    ours = [[e["estimate"] for e in row["estimates"]] for row in held.grid]
    theirs = [[e["estimate"] for e in row["estimates"]] for row in printed.grid]
    assert ours != theirs
    written = json.loads((tmp_path / "genai" / "calibration-gpus=1.json").read_text())
    assert written["reading"] == {"gpus": 1} and written["fit"] == held.fit
    assert json.loads((tmp_path / "genai" / "calibration.json").read_text())["reading"] is None  # not replaced
    assert "under the reading gpus=1 (held fixed)" in held.text()


def test_a_bad_reading_is_refused_before_any_work(tiny_genai, tmp_path, capsys) -> None:
    with pytest.raises(InvalidScenarioError, match=r"^reading\['gpus'\]: heft_a: = 0 must be None"):
        cal.calibrate("genai", tmp_path, seeds=1, executor="serial", reading={"gpus": 0})
    with pytest.raises(InvalidScenarioError, match=r"^reading\['gpu'\]: heft_a: is not a parameter"):
        cal.calibrate("genai", tmp_path, seeds=1, executor="serial", reading={"gpu": 4})
    assert not list(tmp_path.iterdir())  # nothing written
    assert main(["calibrate", "genai", "--reading", "gpus=0", "--out", str(tmp_path / "x")]) == 2
    assert "reading['gpus']: heft_a: = 0 must be None" in capsys.readouterr().err
    assert main(["calibrate", "genai", "--reading", "gpus=4", "--reading", "gpus=2",
                 "--out", str(tmp_path / "x")]) == 2
    assert "--reading: names an option twice" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
    assert main(["calibrate", "genai", "--reading", "gpus=four", "--out", str(tmp_path / "x")]) == 2
    assert "reading['gpus']: heft_a: = 'four' is not valid" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["calibrate", "genai", "--reading", "gpus="])
    assert "'gpus=' is not NAME=VALUE" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_a_reading_that_a_silent_parameter_also_sets_is_refused() -> None:
    spot = families.record("spot")
    with pytest.raises(InvalidScenarioError, match=r"^reading\['gpus'\]: is a silent parameter too \(up.gpus\)"):
        cal.check_reading("spot", ("up",), {"gpus": 4}, spot.silent_parameters)


def test_check_params_refuses_a_gpus_out_of_range_for_every_genai_algorithm() -> None:
    from aisched.api import check_params

    for name in ("comdos", "heft_a", "heft_ma", "random_a"):
        with pytest.raises(InvalidScenarioError, match=r"^gpus: = 0 must be None"):
            check_params("genai", name, {"gpus": 0})
        check_params("genai", name, {"gpus": 4})  # in range: no error


def test_a_reading_of_one_baseline_reaches_it_alone_and_rules_out_the_values_it_forbids() -> None:
    reading = {"up.variant": "paper", "gpus_unused": 1}
    assert cal.reading_options(reading, "up") == {"variant": "paper", "gpus_unused": 1}
    assert cal.reading_options(reading, "msu") == {"gpus_unused": 1}
    spot = families.record("spot")
    cal.check_reading("spot", ("od_only", "msu", "up"), {"up.variant": "paper"}, spot.silent_parameters)
    with pytest.raises(InvalidScenarioError, match=r"^reading\['titan.variant'\]: 'titan' is not among"):
        cal.check_reading("spot", ("od_only", "msu", "up"), {"titan.variant": "paper"})
    with pytest.raises(InvalidScenarioError, match=r"^reading\['up.variant'\]: up: .*'papers'"):
        cal.check_reading("spot", ("od_only", "msu", "up"), {"up.variant": "papers"})
    with pytest.raises(InvalidScenarioError, match=r"^reading\['up.gpus'\]: is a silent parameter too"):
        cal.check_reading("spot", ("up",), {"up.gpus": 4}, spot.silent_parameters)
    # UP's own count is a silent value of the fixed-count variants only: the section VI-A reading sizes itself
    held, dropped = cal.held_by_reading("spot", spot, {"up.variant": "paper"})
    gpus = next(p for p in held.silent_parameters if cal.parameter_key(p) == "up.gpus")
    assert gpus.values == (None,) and dropped and all(d.startswith("up.gpus = ") for d in dropped)
    same, none = cal.held_by_reading("spot", spot, {"msu.near_deadline": "on_demand"})
    assert none == () and same.silent_parameters == spot.silent_parameters


def test_a_word_reading_on_the_command_line(capsys, tmp_path) -> None:
    assert main(["calibrate", "spot", "--reading", "up.variant=papers", "--out", str(tmp_path / "x")]) == 2
    assert "reading['up.variant']: up:" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_a_generator_reading_reaches_every_point_and_is_checked_before_any_work(tmp_path, capsys) -> None:
    tenants = families.record("tenants")
    baselines = tuple(dict.fromkeys(a for t in tenants.regime_targets for a in t.algorithms))
    points = [dict(t.at) for t in tenants.regime_targets]
    reading = {"generator.ps_per_server": "widest_job"}
    cal.check_reading("tenants", baselines, reading, tenants.silent_parameters, points)
    assert cal.generator_reading(reading) == {"ps_per_server": "widest_job"}
    assert cal.reading_options(reading, "hived") == {}  # no algorithm gets a generator option
    with pytest.raises(InvalidScenarioError, match=r"^reading\['generator.ps_per_servers'\]: is not an option"):
        cal.check_reading("tenants", baselines, {"generator.ps_per_servers": 2}, (), points)
    with pytest.raises(InvalidScenarioError, match=r"^reading\['generator.duration_scale'\]: is a silent parameter"):
        cal.check_reading("tenants", baselines, {"generator.duration_scale": 0.5}, tenants.silent_parameters, points)
    point_key = next(iter(points[0]))
    with pytest.raises(InvalidScenarioError, match=r"is set by a target's point"):
        cal.check_reading("tenants", baselines, {f"generator.{point_key}": 1}, (), points)
    with pytest.raises(InvalidScenarioError, match=r"^reading\['generator.ps_per_server'\]: "):
        cal.check_reading("tenants", baselines, {"generator.ps_per_server": "widest"}, (), points)
    assert main(["calibrate", "tenants", "--reading", "generator.ps_per_server=widest", "--out",
                 str(tmp_path / "x")]) == 2
    assert "reading['generator.ps_per_server']" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_a_generator_reading_lands_in_the_sweeps_base() -> None:
    tenants = families.record("tenants")
    group = cal._groups(tenants)[0]
    setting = cal.settings(tenants)[0]
    sub = {cal.parameter_key(p): setting[cal.parameter_key(p)] for p in group.rest}
    plain = cal._scenario(tenants, group, sub)
    held = cal._scenario(tenants, group, sub, {"generator.ps_per_server": "widest_job"})
    assert held.base == {**plain.base, "ps_per_server": "widest_job"} and held.params == plain.params
    assert held.name != plain.name  # its own folder
