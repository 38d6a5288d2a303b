"""A family that lives only in the tests registers and runs everywhere, no shared file edited.

``tests/fifth_family`` (online knapsack) has the three modules a family needs (data and integer
program, one online algorithm, scenarios with the family's record). Registering it is all it takes
for ``aisched.compare``, ``aisched compare``, a sweep, ``report`` and the reproduction page.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import aisched
from aisched import families, registry
from aisched.cli import main
from aisched.experiments.pages import report, reproduce, reproduction
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog

FAMILY = "knapsack"


@pytest.fixture(autouse=True, scope="module")
def _registered():
    """Register the family for this module only (every xdist worker collects this file; other tests'
    loops over the registered families must not meet it), and take it out afterwards."""
    import importlib
    import sys

    for name in ("tests.fifth_family.models", "tests.fifth_family.online", "tests.fifth_family.scenarios"):
        if name in sys.modules:
            importlib.reload(sys.modules[name])  # registers again after an earlier module's clean-up
        else:
            importlib.import_module(name)
    yield
    families.unregister(FAMILY)  # with its algorithms, offline solve and catalogue scenarios


def test_unregistering_takes_every_table_with_the_family() -> None:
    from aisched.errors import InvalidScenarioError, UnknownAlgorithmError

    assert f"{FAMILY}/fig1-capacity" in catalog.names(FAMILY)
    family = families.unregister(FAMILY)
    try:
        assert family is not None and family.tables.algorithms and family.tables.offline is not None
        assert FAMILY not in families.names() and FAMILY not in aisched.FAMILIES
        assert not [n for n in catalog.names() if n.startswith(f"{FAMILY}/")]
        with pytest.raises(UnknownAlgorithmError):
            registry.lookup(FAMILY, "threshold")
        with pytest.raises(InvalidScenarioError, match="not a registered family"):
            families.get(FAMILY)
    finally:
        families.register(family)  # back, with the tables it owns
    assert registry.names(FAMILY) == ["threshold"] and f"{FAMILY}/fig1-capacity" in catalog.names(FAMILY)


def test_it_registers_beside_the_built_in_families() -> None:
    from tests.fifth_family import FAMILY as name

    assert name == FAMILY
    assert FAMILY in families.names() and FAMILY in aisched.FAMILIES
    assert aisched.algorithms(FAMILY) == ["threshold"]
    assert f"{FAMILY}/fig1-capacity" in catalog.names(FAMILY)
    assert catalog.paper_scenario_names()[-1] == f"{FAMILY}/fig1-capacity"


def test_compare_runs_it_with_its_metrics_and_the_proven_optimum() -> None:
    inst = families.hooks(FAMILY).generate(seed=3)
    table = aisched.compare(inst)
    assert list(table.index) == ["offline", "threshold"]
    assert table.loc["offline", "status"] == "optimal" and table.loc["offline", "ratio"] == pytest.approx(1.0)
    assert 0 < table.loc["threshold", "ratio"] <= 1 + 1e-9
    assert 0 < table.loc["threshold", "fill"] <= 1


def test_the_command_line_offers_and_runs_it(tmp_path, capsys) -> None:
    assert main(["compare", FAMILY, "--items", "6", "--capacity", "8", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("knapsack scenario: 6 items, capacity 8, seed 0")
    assert "threshold" in out and "offline optimum proven" in out
    assert (tmp_path / f"{FAMILY}_threshold.nc").is_file() and (tmp_path / f"{FAMILY}_objective.png").is_file()
    record = json.loads((tmp_path / "comparison.json").read_text())
    assert record["family"] == FAMILY


def test_a_sweep_the_report_and_the_reproduction_page(tmp_path) -> None:
    scenario = catalog.get(f"{FAMILY}/fig1-capacity").reduced()
    table = sweep.sweep(scenario, tmp_path, executor="serial", progress=False)
    assert set(table["algorithm"]) == {"offline", "threshold"}
    assert len(table) == len(scenario.values) * scenario.seeds * 2
    assert table["fill"].between(0, 1 + 1e-9).all() and (table.loc[table["algorithm"] == "offline", "fill"] > 0).all()
    page = report.report(tmp_path, figures=False)
    assert "the threshold rule reaches at most the optimum" in page.read_text()
    path = reproduce.reproduce([FAMILY], tmp_path / "r", reduced=True, executor="serial", progress=False,
                               figures=False)
    assert "| the threshold rule reaches at most the optimum | largest" in path.read_text()
    written = reproduction.write(tmp_path / "r", tmp_path / "page.md", readings=None, figures=False)
    page = written.read_text()
    # the summary: one claim, it holds (an "at most" claim on means: no paired test, so none in Holm's count)
    assert f"| {FAMILY} | default | 1 | 1 | 0 of 0 | 0 | 0 | 0 | 0 |" in page
    glance = page.split("## Claims at a glance", 1)[1].split("## Per figure", 1)[0]
    row = next(line for line in glance.splitlines() if line.startswith("| [fig1-capacity]"))
    assert row.startswith(f"| [fig1-capacity](#{FAMILY}fig1-capacity): the threshold rule reaches at most the "
                          "optimum | 1 | 0.") and "| holds | the means move as the paper says |" in row
    assert f"### {FAMILY}/fig1-capacity" in page.split("## Per figure", 1)[1]  # the full text stays below
    again = sweep.sweep(scenario, tmp_path, resume=True, executor="serial", progress=False)  # nothing to rerun
    pd.testing.assert_frame_equal(again, table)
