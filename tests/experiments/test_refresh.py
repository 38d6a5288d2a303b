"""Recomputing a finished sweep's metrics from its stored outcomes (``aisched report --refresh-metrics``)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from aisched.cli import main
from aisched.errors import AischedError, InvalidScenarioError
from aisched.experiments.run import sweep
from aisched.experiments.run.refresh import refresh_metrics
from aisched.experiments.spec.catalog import Scenario

TINY = Scenario(
    name="tenants/test-refresh", family="tenants", title="refresh", x="jobs", values=(6, 10),
    base={"users": 3, "servers": 2}, algorithms=("astraea", "gandiva_fair"), seeds=1, metric="objective",
)
METRICS = ["alpha_variance", "wait_loss", "ideal_t4", "ideal_other", "shared_jobs"]


def test_refresh_restores_dropped_metrics_keeps_timings_and_rewrites_the_table(tmp_path) -> None:
    table = sweep.sweep(TINY, tmp_path, executor="serial", progress=False)
    root = sweep.folder(tmp_path, TINY)
    cells = sorted((root / "cells").glob("*.json"))
    before = {p.name: json.loads(p.read_text()) for p in cells}
    for p in cells:  # a folder written before these metrics existed
        row = json.loads(p.read_text())
        p.write_text(json.dumps({k: v for k, v in row.items() if k not in METRICS}))
    (root / "outcomes" / f"{cells[0].stem}.nc").unlink()  # a cell without its outcome stays as it is
    done = refresh_metrics(tmp_path)
    assert (done.cells, done.kept, done.folders) == (len(cells) - 1, 1, 1)
    for p in cells[1:]:
        after = json.loads(p.read_text())
        assert after.keys() == before[p.name].keys()
        for key, value in before[p.name].items():
            assert after[key] == pytest.approx(value, nan_ok=True), (p.name, key)
    assert "wait_loss" not in json.loads(cells[0].read_text())
    refreshed = pd.read_csv(root / "table.csv")
    assert refreshed["wait_loss"].notna().sum() == len(cells) - 1
    assert refreshed["objective"].tolist() == pytest.approx(table["objective"].tolist())


def test_refresh_refuses_a_plan_that_does_not_verify_on_the_regenerated_instance(tmp_path) -> None:
    sweep.sweep(TINY, tmp_path, executor="serial", progress=False)
    root = sweep.folder(tmp_path, TINY)
    definition = json.loads((root / "scenario.json").read_text())
    definition["base"]["servers"] = 1  # the generator now gives another cluster: the stored plans do not fit
    (root / "scenario.json").write_text(json.dumps(definition))
    with pytest.raises(AischedError, match=r"p000-s000-.*does not verify on the instance regenerated .*point 0, seed 0"):
        refresh_metrics(tmp_path)


def test_refresh_needs_a_sweep_and_the_cli_runs_it_before_the_report(tmp_path, capsys) -> None:
    with pytest.raises(InvalidScenarioError, match="^directory: .* holds no sweep"):
        refresh_metrics(tmp_path)
    sweep.sweep(TINY, tmp_path, executor="serial", progress=False)
    assert main(["report", str(tmp_path), "--refresh-metrics", "--no-figures"]) == 0
    out = capsys.readouterr().out
    assert "refreshed the metrics of 4 cells in 1 sweeps (0 left as they were)" in out
    assert "revenue gap goes" in (tmp_path / "report.md").read_text()
