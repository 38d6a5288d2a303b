"""Calibration never runs the paper's own algorithm, in every family: with the proposed algorithm(s) replaced
by functions that fail the test when called, a calibration at a tiny point runs to its record."""

from __future__ import annotations

import dataclasses
import json

import pytest

from aisched import families
from aisched.experiments.run import sweep as sweeps
from aisched.experiments.studies import calibrate as cal

#: Per family, a point small enough for a unit test (the targets moved there; the relations stay the paper's).
TINY = {
    "lora": {"slots": 24, "vendors": 2, "gpu_mix": "mixed", "deadline": "slack", "nodes": 2, "arrival_rate": 1.0},
    "spot": None,  # spot's target point is already milliseconds a cell
    "genai": {"edges": 3, "slots": 24, "arrival_rate": 4.0, "capacity": "homo-M", "workload": "gpu_priced"},
    "tenants": {"users": 2, "servers": 3, "jobs": 5, "trace": None, "utility": "linear"},
}


@pytest.mark.parametrize("family", sorted(TINY))
def test_calibration_of_every_family_runs_its_baselines_only(family, swap_family, forbid_algorithms,
                                                            tmp_path) -> None:
    record = families.record(family)
    params = tuple(dataclasses.replace(p, grid=(p.default,)) for p in record.silent_parameters)
    targets = record.regime_targets if TINY[family] is None else tuple(
        dataclasses.replace(t, at=TINY[family]) for t in record.regime_targets)
    swap_family(dataclasses.replace(record, silent_parameters=params, regime_targets=targets))
    own = (record.proposed, *record.also_proposed)
    forbid_algorithms(family, *own)
    result = cal.calibrate(family, tmp_path, seeds=1, executor="serial", confirm_seeds=1, max_confirm_seeds=1)
    ran = set()
    for table in tmp_path.glob(f"{family}/calibrate-*/table.csv"):
        ran |= set(sweeps.load_table(table.parent)["algorithm"])
    assert ran == set(result.baselines) and not ran & set(own)
    written = json.loads((tmp_path / family / "calibration.json").read_text())
    assert written["fit"] == written["default"] and written["headline"]["regime"] == "default"
