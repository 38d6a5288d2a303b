"""The UP / MSU readings' measurement (``aisched.scenarios.spot.up_msu``; docs/readings/spot.md S11)."""

from __future__ import annotations

import pytest
from conftest import SHARED_DATA

from aisched.core import runner
from aisched.errors import InvalidScenarioError
from aisched.scenarios.spot import up_msu


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
def test_reads_only_baselines_and_reference_up_is_od_only(monkeypatch, forbid_algorithms):
    forbid_algorithms("spot", "ahap", "ahanp")
    called: list[str] = []
    real = runner.run

    def spy(name, inst, **params):
        called.append(name)
        return real(name, inst, **params)

    monkeypatch.setattr(runner, "run", spy)
    rows = up_msu.measure([3000, 3001], [{}], up_readings=("reference", "paper"), msu_readings=("spot_first",))
    assert set(called) == {"od_only", "msu", "up"}          # never AHAP or AHANP
    by_up = {r["up"]: {t["name"]: t for t in r["targets"]} for r in rows}
    ref = by_up["reference"]["UP / OD-Only at deadline 10"]
    assert ref["estimate"] == pytest.approx(1.0) and ref["low"] == pytest.approx(1.0)   # S4's finding
    # the two rows share MSU's runs, so its relation is the same number under both UP readings
    msu = [by_up[u]["MSU / OD-Only at deadline 10"]["estimate"] for u in ("reference", "paper")]
    assert msu[0] == msu[1]
    assert by_up["paper"]["UP / OD-Only at deadline 10"]["estimate"] > 1.0


def test_refuses_no_seeds_and_bad_counts():
    with pytest.raises(InvalidScenarioError, match=r"^seeds: = \[\] must name at least one seed"):
        up_msu.measure([], [{}])
    with pytest.raises(InvalidScenarioError, match=r"^count: = 0 must be >= 1"):
        up_msu.main(["--count", "0"])
    with pytest.raises(InvalidScenarioError, match=r"^confirm: = -1 must be >= 0"):
        up_msu.main(["--confirm", "-1"])
