"""HEFT's processors measurement (``aisched.scenarios.genai.processors``; docs/readings/genai.md A2d)."""

from __future__ import annotations

import pytest
from conftest import SHARED_DATA

from aisched.core import runner
from aisched.errors import InvalidScenarioError
from aisched.scenarios.genai import processors

#: Fig. 7's Poisson 3 point shrunk to 3 edges and 20 slots (about 40 jobs): seconds, not minutes.
_TINY = {"slots": 20, "edges": 3}


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
def test_reads_only_baselines_and_reports_each_reading(monkeypatch, forbid_algorithms):
    forbid_algorithms("genai", "comdos")
    called: list[str] = []
    real = runner.run

    def spy(name, inst, **params):
        called.append(name)
        return real(name, inst, **params)

    monkeypatch.setattr(runner, "run", spy)
    rows = processors.measure([3000, 3001], [{}, processors.FIT], points=["fig7_p3"], size=_TINY)
    assert set(called) == set(processors.BASELINES)           # never ComDOS
    assert len(called) == 2 * 2 * 3 * 3                        # settings x seeds x readings x baselines
    assert [(r["setting"], r["reading"]) for r in rows] == [
        (setting, reading) for setting in ({}, processors.FIT) for reading in processors.READINGS]
    for row in rows:
        assert row["point"] == "fig7_p3" and row["seeds"] == 2 and 0 <= row["same_models"] <= 2
        assert [t["name"] for t in row["targets"]] == ["HEFT-A / HEFT-MA at Poisson 3",
                                                       "Random-A / HEFT-MA at Poisson 3"]
        for target in row["targets"]:
            assert target["seeds"] == 2 and target["low"] <= target["estimate"] <= target["high"]
        assert set(row["peak"]) == set(processors.BASELINES)
        if row["reading"] != "none":                           # at most 4 tasks at once on an edge
            assert all(high <= 4 for _, high in row["peak"].values())
    default = {r["reading"]: r for r in rows if not r["setting"]}
    # at the default HEFT-A and HEFT-MA choose alike (A2d): same models, ratio exactly 1, under every reading
    for row in default.values():
        assert row["same_models"] == 2 and row["targets"][0]["estimate"] == pytest.approx(1.0)
    text = processors.table(rows)
    assert len(text.splitlines()) == 1 + len(rows) and "processors=4" in text and "fit" in text


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
def test_command_line_prints_the_table(capsys):
    assert processors.main(["--count", "1", "--points", "fig7_p3", "--readings", "none,processors=4",
                            "--slots", "10"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("setting") and len(out) == 1 + 2 + 1
    assert "not the paper's points" in out[-1]


def test_refuses_no_seeds_unknown_names_and_bad_counts():
    with pytest.raises(InvalidScenarioError, match=r"^seeds: = \[\] must name at least one seed"):
        processors.measure([])
    with pytest.raises(InvalidScenarioError, match=r"^points: = \['fig9'\] not known"):
        processors.measure([3000], points=["fig9"])
    with pytest.raises(InvalidScenarioError, match=r"^readings: = \['gpus=8'\] not known"):
        processors.measure([3000], readings=["gpus=8"])
    with pytest.raises(InvalidScenarioError, match=r"^count: = 0 must be >= 1"):
        processors.main(["--count", "0"])
    with pytest.raises(InvalidScenarioError, match=r"^slots: = 0 must be >= 1"):
        processors.main(["--slots", "0"])
    with pytest.raises(InvalidScenarioError, match=r"^points: = 'fig9' must name some of"):
        processors.main(["--points", "fig9"])


def test_the_figures_recheck_the_baselines_claims_under_the_processors_reading() -> None:
    """Figs. 4-8 and the regime maps carry A2d's reading as the variant ``heft-processors`` (4 GPUs an edge, all
    three baselines); the ComDOS-only Fig. 9 scenarios cannot (no baseline runs there) and do not."""
    from aisched.experiments.spec import catalog

    for name in catalog.names("genai"):
        scenario = catalog.get(name)
        if {"heft_a", "heft_ma", "random_a"} <= set(scenario.algorithms):
            assert scenario.variants["heft-processors"] == {a: {"processors": 4}
                                                            for a in ("heft_a", "heft_ma", "random_a")}, name
        else:
            assert "heft-processors" not in scenario.variants, name
