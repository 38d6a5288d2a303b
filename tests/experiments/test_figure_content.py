"""What the report and page figures say, read off the drawn matplotlib Figure (not just that a file exists).

Every sweep figure must say what it measures: the scenario's caption as its title (wrapped,
never cut), the metric's words and unit on the y axis, the x parameter's words on the x
axis, whole-number ticks on an axis of counts, a band over seeds that never leaves the
quantity's range (a ratio to the optimum stays in [0, 1]) and says what it is, and a claim
marked as the paper's only where the paper makes it. The tables here are tiny and made by
hand: no sweep runs.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd
import pytest

import aisched  # noqa: F401  (registers the families)
from aisched import families, figures
from aisched.experiments.pages import regime as regime_page
from aisched.experiments.spec.scenario import Claim
from aisched.experiments.store.stored import StoredScenario
from aisched.experiments.verdicts import regime
from aisched.experiments.verdicts.checks import ClaimCheck, summarise

pytest.importorskip("matplotlib")

CAPTION = ("Fig. 9: empirical competitive ratio of ComDOS, HEFT-MA and HEFT-A against the proven offline optimum "
           "on instances the MILP solves [cost: full 3 seeds 90 s; reduced 1 seed 10 s]")

#: Per-seed ratios to the optimum that spread so much that mean +- std leaves [0, 1] at every point.
SPREAD_RATIOS = {"comdos": [0.02, 1.0, 1.0, 1.0], "heft_ma": [0.0, 0.0, 0.0, 0.95]}


def _table(values: list[Any], per_seed: dict[str, list[float]], metric: str = "ratio") -> pd.DataFrame:
    """A sweep table: one row per (point, seed, algorithm), ``metric`` the same per-seed values at every point."""
    rows = [{"point": p, "x": str(v), "seed": s, "algorithm": a, metric: y, "objective": y,
             "reference": 1.0, "reference_kind": "optimum"}
            for p, v in enumerate(values) for a, ys in per_seed.items() for s, y in enumerate(ys)]
    return pd.DataFrame(rows)


def _bars(ax: Any) -> list[tuple[float, float]]:
    """The (bottom, top) of every error bar drawn on ``ax`` (errorbar's vertical line segments)."""
    from matplotlib.collections import LineCollection

    out = []
    for collection in ax.collections:
        if isinstance(collection, LineCollection):
            for seg in collection.get_segments():
                ys = np.asarray(seg)[:, 1]
                out.append((float(ys.min()), float(ys.max())))
    return out


def _words(text: str) -> str:
    return " ".join(text.split())


def _close(fig: Any) -> None:
    figures._pyplot().close(fig)


def _legend_texts(ax: Any) -> list[str]:
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] + [legend.get_title().get_text()]


def test_a_ratio_sweep_figure_says_what_it_measures_and_keeps_its_band_in_0_1() -> None:
    stored = StoredScenario(name="genai/my-ratio", family="genai", title=CAPTION, x="edges", values=[2, 3, 4],
                            metric="ratio", algorithms=["comdos", "heft_ma"])
    table = _table([2, 3, 4], SPREAD_RATIOS)
    summary = summarise(table, "ratio")
    assert ((summary["mean"] + summary["std"] > 1) | (summary["mean"] - summary["std"] < 0)).all()  # the test's premise
    fig = figures.metric_plot(stored, summary)
    (ax, *_) = fig.axes
    try:
        assert _words(ax.get_title()) == figures.clean_title(CAPTION)  # the caption, cost note left out
        assert "\n" in ax.get_title() and figures.title_fits(fig)  # wrapped, never cut off
        assert _words(ax.get_ylabel()) == "ratio of profit to the offline optimum (or a bound on it)"
        assert ax.get_xlabel() == "edge clouds"
        assert list(ax.get_xticks()) == [2, 3, 4]  # a tick at each number of edge clouds run, none between
        bars = _bars(ax)
        assert len(bars) == 6 and all(0.0 <= lo <= hi <= 1.0 for lo, hi in bars), bars
        assert max(hi for _, hi in bars) == pytest.approx(1.0) and min(lo for lo, _ in bars) == pytest.approx(0.0)
        assert "mean ± std over seeds, cut to [0, 1]" in _words(ax.get_legend().get_title().get_text())
    finally:
        _close(fig)


def test_with_the_cells_the_band_runs_from_the_lowest_to_the_highest_seed() -> None:
    stored = StoredScenario(name="genai/my-ratio", family="genai", title=CAPTION, x="edges", values=[2, 3, 4],
                            metric="ratio", algorithms=["comdos", "heft_ma"])
    table = _table([2, 3, 4], SPREAD_RATIOS)
    fig = figures.metric_plot(stored, summarise(table, "ratio"), table)
    try:
        (ax, *_) = fig.axes
        ends = sorted({(round(lo, 9), round(hi, 9)) for lo, hi in _bars(ax)})
        assert ends == [(0.0, 0.95), (0.02, 1.0)]  # heft_ma's seeds 0 .. 0.95, comdos' 0.02 .. 1
        assert "lowest to highest seed" in _words(ax.get_legend().get_title().get_text())
    finally:
        _close(fig)


def test_the_band_is_cut_to_the_range_of_each_bounded_metric() -> None:
    summary = pd.DataFrame({"point": [0, 0, 0], "algorithm": ["a", "b", "c"], "x": ["1"] * 3,
                            "mean": [0.5, 1.2, 3.0], "std": [0.9, 0.5, float("nan")]})
    ratio, text = figures.spread(summary, "ratio")
    assert ratio["low"].iloc[0] == 0.0 and ratio["high"].iloc[0] == 1.0 and "[0, 1]" in text
    assert ratio["low"].iloc[1] == pytest.approx(0.7) and ratio["high"].iloc[1] == 1.2  # a mean above 1 keeps its point
    assert math.isnan(ratio["low"].iloc[2])  # one seed: no band
    competitive, _ = figures.spread(summary, "competitive_ratio")
    assert competitive["low"].tolist()[:2] == [pytest.approx(0.5), 1.0]  # never below 1 unless the mean is
    objective, text = figures.spread(summary, "objective")  # any sign: not cut
    assert objective["low"].iloc[0] == pytest.approx(-0.4) and "cut" not in text
    single, text = figures.spread(summary.assign(std=float("nan")), "ratio")
    assert text == "one seed: no spread"


@pytest.mark.parametrize("family", ["lora", "spot", "genai", "tenants"])
def test_every_familys_objective_is_named_with_its_unit(family: str) -> None:
    objective = families.record(family).objective
    assert figures.label("objective", family=family) == f"{objective.name} ({objective.unit})"
    assert "money units" in figures.label("objective", family=family)


def test_crowded_integer_axes_and_count_metrics_get_whole_number_ticks() -> None:
    from matplotlib.ticker import MaxNLocator

    values = [1, 2, 4, 8, 16, 32, 64]  # ticks at each would crowd at the left
    stored = StoredScenario(name="tenants/my-load", family="tenants", title="Admitted jobs vs servers", x="servers",
                            values=values, metric="admitted", algorithms=["astraea", "hived"])
    table = _table(values, {"astraea": [3.0, 4.0, 6.0], "hived": [1.0, 2.0, 2.0]}, metric="admitted")
    fig = figures.metric_plot(stored, summarise(table, "admitted"))
    try:
        (ax, *_) = fig.axes
        assert isinstance(ax.xaxis.get_major_locator(), MaxNLocator)
        assert isinstance(ax.yaxis.get_major_locator(), MaxNLocator)  # admitted jobs: whole numbers too
        for ticks in (ax.get_xticks(), ax.get_yticks()):
            assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
        assert ax.get_xlabel() == "servers" and ax.get_ylabel() == "admitted jobs"
        assert all(lo >= 0.0 for lo, _ in _bars(ax))
    finally:
        _close(fig)


def test_a_categorical_ratio_figure_keeps_its_bars_in_0_1() -> None:
    stored = StoredScenario(name="genai/my-capacity", family="genai", title=CAPTION, x="capacity",
                            values=["homo-S", "hetero"], metric="ratio", algorithms=["comdos", "heft_ma"])
    fig = figures.metric_plot(stored, summarise(_table(["homo-S", "hetero"], SPREAD_RATIOS), "ratio"))
    try:
        (ax, *_) = fig.axes
        assert [t.get_text() for t in ax.get_xticklabels()] == ["homo-S", "hetero"]
        assert ax.get_xlabel() == "edge capacity"
        assert _bars(ax) and all(0.0 <= lo <= hi <= 1.0 for lo, hi in _bars(ax))
    finally:
        _close(fig)


def _checks(claims: tuple[Claim, ...]) -> list[ClaimCheck]:
    return [ClaimCheck(claim=c, measured=math.nan, holds=None, detail="") for c in claims]


def _edges_summary(values: list[int]) -> pd.DataFrame:
    per_seed = {"comdos": [10.0, 12.0, 14.0], "heft_ma": [8.0, 9.0, 10.0], "heft_a": [5.0, 6.0, 7.0],
                "random_a": [1.0, 2.0, 3.0]}
    return summarise(_table(values, per_seed, metric="objective"), "objective")


def test_the_page_figure_marks_the_papers_claims_as_the_papers() -> None:
    from aisched.experiments.pages.page_figures import is_papers_claim, scenario_plot
    from aisched.experiments.spec import catalog

    stored = StoredScenario.of(catalog.get("genai/fig5-edges"))
    assert all(is_papers_claim(stored, c) for c in stored.claims)
    fig = scenario_plot(stored, _edges_summary([5, 10, 20]), _checks(stored.claims))
    try:
        (ax, *_) = fig.axes
        texts = _legend_texts(ax)
        assert "paper's claimed level" in texts and not any("user" in t for t in texts)
        assert _words(ax.get_title()) == figures.clean_title(stored.title) and figures.title_fits(fig)
        assert ax.get_ylabel() == "profit (money units)" and ax.get_xlabel() == "edge clouds"
        assert list(ax.get_xticks()) == [5, 10, 20]
    finally:
        _close(fig)


def test_a_users_claim_is_never_labelled_the_papers() -> None:
    from aisched.experiments.pages.page_figures import is_papers_claim, paper_marks, scenario_plot
    from aisched.experiments.spec import catalog

    paper = StoredScenario.of(catalog.get("genai/fig5-edges"))
    changed = replace(paper.claims[0], value=0.10)  # a user's figure on the paper's scenario
    own = Claim("at_most", "comdos stays under 13", "comdos", value=13.0)
    edited = replace(paper, claims=(changed,))
    assert not is_papers_claim(edited, changed)
    users = replace(paper, name="genai/my-edges", claims=(paper.claims[0], own))  # a TOML scenario not in the catalogue
    assert not any(is_papers_claim(users, c) for c in users.claims)
    summary = _edges_summary([5, 10, 20])
    points, lines = paper_marks(users, summary, _checks(users.claims))
    assert [p[3] for p in points] == ["user's claim: comdos = heft_ma +39%"]
    assert lines == [(13.0, "user's claim: comdos <= 13")]
    for stored in (edited, users):
        fig = scenario_plot(stored, summary, _checks(stored.claims))
        try:
            texts = _legend_texts(fig.axes[0])
            assert "user's claimed level (not the paper's)" in texts
            assert not any(t.startswith("paper") for t in texts), texts
        finally:
            _close(fig)


def test_the_page_figure_of_a_ratio_keeps_its_band_in_0_1() -> None:
    from aisched.experiments.pages.page_figures import scenario_plot

    stored = StoredScenario(name="genai/my-ratio", family="genai", title=CAPTION, x="edges", values=[2, 3, 4],
                            metric="ratio", algorithms=["comdos", "heft_ma"])
    fig = scenario_plot(stored, summarise(_table([2, 3, 4], SPREAD_RATIOS), "ratio"), [])
    try:
        (ax, *_) = fig.axes
        assert _bars(ax) and all(0.0 <= lo <= hi <= 1.0 for lo, hi in _bars(ax))
        assert "cut to [0, 1]" in _words(ax.get_legend().get_title().get_text())
        assert _words(ax.get_ylabel()).startswith("ratio of profit to the offline optimum")
    finally:
        _close(fig)


def test_the_regime_map_bars_run_over_the_seeds_never_below_minus_100_percent() -> None:
    caption = "Regime map (not a paper figure): ComDOS against HEFT-MA as the edge capacity shrinks"
    stored = StoredScenario(name="genai/my-regime", family="genai", title=caption, x="capacity_scale",
                            values=[1.0, 0.25], metric="objective", algorithms=["comdos", "heft_ma"],
                            figures=("regime",))
    per_seed = {"comdos": [0.0, 0.0, 30.0], "heft_ma": [10.0, 10.0, 10.0]}  # -100 %, -100 %, +200 %
    table = _table([1.0, 0.25], per_seed, metric="objective").assign(reference=math.nan, reference_kind="")
    assert regime.regime_points(stored, table)[0].spread > 1.0  # mean - std would be below -100 %
    fig = regime_page.regime_plot(stored, table)
    try:
        (ax,) = fig.axes
        assert caption in _words(fig._suptitle.get_text()) and figures.title_fits(fig)
        assert ax.get_xlabel() == "capacity scale" and ax.get_ylabel() == "profit over the baseline (% change)"
        assert set(_bars(ax)) == {(-100.0, 200.0)}
        assert "bars: lowest to highest seed" in [t.get_text() for t in fig.legends[0].get_texts()]
    finally:
        _close(fig)
