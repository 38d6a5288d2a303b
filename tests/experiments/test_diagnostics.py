"""Mechanism diagnostics, idle marks and regime maps on hand-made sweep tables."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import aisched  # noqa: F401  (registers the families)
from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import regime as regime_page
from aisched.experiments.pages.diagnostics import diagnostics_lines
from aisched.experiments.pages.report import REDUCED_LABEL, verdict_text
from aisched.experiments.spec.catalog import Claim, Scenario
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.verdicts import regime
from aisched.experiments.verdicts.checks import check_claims, summarise
from aisched.experiments.verdicts.diagnostics import idle, idle_points


def _rows(x: str, algorithm: str, objectives: list[float], **columns: list[float]) -> list[dict]:
    out = []
    for seed, value in enumerate(objectives):
        row = {"scenario": "genai/t", "point": 0, "x": x, "seed": seed, "algorithm": algorithm,
               "objective": value, "reference": math.nan, "reference_kind": ""}
        row.update({k: v[seed] for k, v in columns.items()})
        out.append(row)
    return out


def _genai(labels: list[str], claims: tuple[Claim, ...] = ()) -> StoredScenario:
    return StoredScenario(name="genai/t", family="genai", x="capacity_scale", values=[float(x) for x in labels],
                          labels=labels, metric="objective", algorithms=["comdos", "heft_ma"], claims=claims)


def _table() -> pd.DataFrame:
    """At 1.0 no edge-slot is ever full under ComDOS (idle); at 0.25 some are (acting)."""
    rows = (_rows("1.0", "comdos", [10, 11, 12], memory_binding=[0, 0, 0], memory_utilisation=[.05, .06, .07])
            + _rows("1.0", "heft_ma", [12, 13, 14], memory_binding=[.1, 0, 0], memory_utilisation=[.1, .1, .1])
            + _rows("0.25", "comdos", [9, 10, 11], memory_binding=[.2, .3, .1], memory_utilisation=[.5, .6, .7])
            + _rows("0.25", "heft_ma", [5, 6, 7], memory_binding=[.4, .4, .4], memory_utilisation=[.8, .8, .8]))
    table = pd.DataFrame(rows)
    table.loc[table["x"] == "0.25", ["reference", "reference_kind"]] = [12.0, "bound"]
    return table


def test_idle_points_follow_the_proposed_algorithms_cells_only() -> None:
    table = _table()
    marks = idle(_genai(["1.0", "0.25"]), table)
    assert list(marks) == ["1.0"]  # heft_ma filled a cell at 1.0: it is not ComDOS's mechanism
    assert marks["1.0"] == "edge-slots at memory capacity 0.0% (largest over 3 seed(s))"
    diagnostics = families.hooks("genai").diagnostics
    assert idle_points("comdos", diagnostics, table.drop(columns=["memory_binding"])) == {}  # no column: not judged


def test_a_claim_at_an_idle_point_is_marked_and_its_verdict_kept() -> None:
    claims = (Claim("improvement", "comdos gains at 1.0", "comdos", baseline="heft_ma", point="1.0", value=0.1),
              Claim("improvement", "comdos gains at 0.25", "comdos", baseline="heft_ma", point="0.25", value=0.1))
    table = _table()
    at_idle, acting = check_claims(_genai(["1.0", "0.25"], claims), summarise(table, "objective"), table)
    assert at_idle.status == "fails" and at_idle.idle.startswith("comdos's mechanism idle at 1.0: edge-slots")
    assert acting.status == "holds" and acting.idle == ""
    assert verdict_text(at_idle).startswith("**fails** (comdos's mechanism idle at 1.0")
    assert verdict_text(acting, reduced=True) == f"holds {REDUCED_LABEL}"


def test_the_diagnostics_table_shows_every_algorithm_and_marks_the_idle_point() -> None:
    lines = diagnostics_lines(_genai(["1.0", "0.25"]), _table())
    assert lines[2] == "| capacity_scale | algorithm | edge-slots at memory capacity | mean memory utilisation |"
    assert "| 1.0 | comdos **idle** | 0.0% | 6.0% |" in lines
    assert "| 0.25 | comdos | 20.0% | 60.0% |" in lines and "| 0.25 | heft_ma | 40.0% | 80.0% |" in lines


def test_regime_points_region_and_headroom() -> None:
    definition = replace(_genai(["1.0", "0.25"]), figures=("regime",))
    points = regime.regime_points(definition, _table())
    by_x = {p.x: p for p in points}
    assert by_x["1.0"].verdict == "worse" and by_x["0.25"].verdict == "better"
    assert by_x["0.25"].improvement == pytest.approx((9 / 5 + 10 / 6 + 11 / 7) / 3 - 1)
    assert by_x["0.25"].room == pytest.approx(12 / 6 - 1) and by_x["0.25"].reference_kind == "bound"
    assert math.isnan(by_x["1.0"].room)
    text = regime_page.region_text(definition, points, "heft_ma")
    assert text == ("comdos above heft_ma (95 % paired interval above 0) at capacity_scale = 0.25 "
                    "(edge-slots at memory capacity, the most of any algorithm: 40.0%); not at 1.0 (edge-slots at "
                    "memory capacity, the most of any algorithm: 3.3%).")
    nowhere = regime_page.region_text(definition, [p for p in points if p.x == "1.0"], "heft_ma")
    assert nowhere.startswith("comdos above heft_ma (95 % paired interval above 0): nowhere along capacity_scale")
    lines = regime_page.regime_lines(definition, _table())
    assert "| 0.25 | heft_ma | +67.9% ± 11.5% | better | at most +100.0% (bound) |" in lines


def test_a_variant_of_the_proposed_algorithm_gets_its_own_map(tmp_path: Path) -> None:
    """The variant (e.g. ComDOS's full-cell option set) is mapped beside ComDOS."""
    definition = replace(_genai(["1.0", "0.25"]), figures=("regime",),
                         variants={"full-cell": {"comdos": {"alpha_reading": "full_cell"}}})
    table = pd.concat([_table(), pd.DataFrame(_rows("1.0", "comdos@full-cell", [13, 14, 15])
                                              + _rows("0.25", "comdos@full-cell", [4, 5, 6]))])
    assert regime.proposed_runs(definition) == ["comdos", "comdos@full-cell"]
    default = regime.regime_points(definition, table)
    variant = regime.regime_points(definition, table, "comdos@full-cell")
    assert [p.proposed for p in default] == ["comdos"] * 2 and {p.baseline for p in variant} == {"heft_ma"}
    by_x = {p.x: p for p in variant}
    assert by_x["1.0"].verdict == "better" and by_x["0.25"].verdict == "worse"
    assert default == regime.regime_points(replace(_genai(["1.0", "0.25"]), figures=("regime",)), table)
    lines = regime_page.regime_lines(definition, table)
    assert sum(line.startswith("Regime map along") for line in lines) == 2
    assert any(line.startswith("- comdos@full-cell above heft_ma (95 % paired interval above 0) at "
                               "capacity_scale = 1.0") for line in lines)
    summary = regime_page.regime_summary(definition, variant)
    assert summary.startswith("comdos@full-cell is above heft_ma at capacity_scale = 1.0")
    pytest.importorskip("matplotlib")
    regime_page.regime_figure(tmp_path, definition, table)
    assert "comdos@full-cell vs the baseline" in (tmp_path / "regime.svg").read_text()


def test_the_regime_figure_is_drawn_from_a_fixture(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    definition = replace(_genai(["1.0", "0.25"]), figures=("regime",))
    png = regime_page.regime_figure(tmp_path, definition, _table())
    svg = tmp_path / "regime.svg"
    assert png == tmp_path / "regime.png" and png.stat().st_size > 1000
    text = svg.read_text()
    assert text.startswith("<?xml") and "over heft_ma" in text and svg.stat().st_size < 200_000


def test_a_regime_scenario_needs_the_proposed_algorithm_and_a_baseline() -> None:
    with pytest.raises(InvalidScenarioError, match=r"^figures\[0\]: .*'regime' compares 'genai'"):
        Scenario(name="genai/r", family="genai", title="", x="capacity_scale", values=(1.0,), base={},
                 algorithms=("heft_ma", "heft_a"), figures=("regime",))
    with pytest.raises(InvalidScenarioError, match=r"^bound_at\[0\]: .*2.0 is not one of the x values"):
        Scenario(name="genai/r", family="genai", title="", x="capacity_scale", values=(1.0,), base={},
                 algorithms=("comdos",), bound=True, bound_at=(2.0,))


def test_bound_cells_only_at_bound_at(tmp_path: Path) -> None:
    from aisched.experiments.run import sweep

    scenario = Scenario(name="genai/b", family="genai", title="", x="edges", values=(2, 3), base={"slots": 10},
                        algorithms=("comdos", "heft_ma"), bound=True, bound_at=(3,), seeds=2)
    bounds = [(c.x, c.seed) for c in sweep.cells(scenario) if c.algorithm == "bound"]
    assert bounds == [("3", 0), ("3", 1)]
    assert scenario.sweep_record()["bound_at"] == [3] and StoredScenario.of(scenario).bound_at == (3,)
    assert scenario.reduced().sweep_record()["reduced_form"] is True and "reduced_form" not in scenario.sweep_record()
    assert StoredScenario.of(scenario.reduced()).reduced_form and not StoredScenario.of(scenario).reduced_form


def test_run_records_are_kept_run_after_run(tmp_path: Path) -> None:
    import json

    from aisched.experiments.run.reproduce import read_records

    path = tmp_path / "reproduce-genai.json"
    assert read_records(path) == []
    path.write_text(json.dumps({"wall_s": 60.0}))  # a record written before they were kept as a list
    assert read_records(path) == [{"wall_s": 60.0}]
    path.write_text(json.dumps({"runs": [{"wall_s": 60.0}, {"wall_s": 5.0, "cells_already_done": 9}]}))
    assert [r["wall_s"] for r in read_records(path)] == [60.0, 5.0]


def test_page_figure_marks_the_papers_values(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from aisched.experiments.pages.page_figures import paper_marks, scenario_svg

    claims = (Claim("improvement", "comdos +50 % over heft_ma at 0.25", "comdos", baseline="heft_ma",
                    point="0.25", value=0.5),
              Claim("at_most", "ratio <= 2", "comdos", value=2.0))
    definition = _genai(["1.0", "0.25"], claims)
    assert definition.values == (1.0, 0.25)
    table = _table()
    summary = summarise(table, "objective")
    checks = check_claims(definition, summary, table)
    points, lines = paper_marks(definition, summary, checks)
    # genai/t is no paper figure: its claims are a user's, never marked as the paper's
    assert points == [("0.25", "comdos", pytest.approx(6.0 * 1.5), "user's claim: comdos = heft_ma +50%")]
    assert lines == [(2.0, "user's claim: comdos <= 2")]
    svg = scenario_svg(tmp_path / "figures" / "genai-t.svg", definition, summary, checks)
    text = svg.read_text().replace("&#39;", "'")
    assert "user's claimed level (not the paper's)" in text and "paper's claimed level" not in text
    assert svg.stat().st_size < 60_000


@pytest.mark.parametrize("family", ["lora", "spot", "genai", "tenants"])
def test_every_family_registers_its_proposed_algorithm_and_a_deciding_diagnostic(family: str) -> None:
    assert families.record(family).proposed in aisched.algorithms(family)
    assert any(d.acts_above is not None for d in families.hooks(family).diagnostics)


def test_a_broken_proof_invariant_is_flagged_on_the_report() -> None:
    import pandas as pd

    from aisched.experiments.pages.diagnostics import invariant_lines

    table = pd.DataFrame({"algorithm": ["pdftsp", "pdftsp", "titan"], "seed": [0, 1, 0],
                          "lemma1_slack": [0.5, -2.0, float("nan")]})
    lines = invariant_lines(table)
    assert lines[0].startswith("- **proof invariant violated**: `lemma1_slack` of pdftsp is below 0 in 1 cell(s) "
                               "(least -2; seeds 1)")
    assert invariant_lines(table.assign(lemma1_slack=[0.0, 1.0, float("nan")])) == []
