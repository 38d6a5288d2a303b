"""One style for every report figure: titles that fit, legends outside the data, words on the axes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from aisched import figures
from aisched.experiments.store.stored import StoredScenario

LONG = ("Fig. 8: social welfare of pdFTSP, Titan, EFT and NTM under light, medium and high Poisson workloads "
        "on the paper's mixed cluster [cost: full 5 seeds 191 s; reduced 1 seed 25 s]")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """Every figure :func:`figures.save` writes, measured after its layout, before it is closed."""
    seen: list[dict[str, object]] = []
    real = figures.save

    def save(fig, path, dpi=120):  # type: ignore[no-untyped-def]
        figures.fit_titles(fig)  # what save lays out first
        renderer = (fig.canvas.draw(), fig.canvas.get_renderer())[1]
        overlaps = []
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is not None:
                overlaps.append(legend.get_window_extent(renderer).overlaps(ax.get_window_extent(renderer)))
        seen.append({"path": Path(path), "fits": figures.title_fits(fig), "legend_over_axes": any(overlaps),
                     "titles": [ax.get_title() for ax in fig.axes] + [fig._suptitle.get_text() if fig._suptitle else ""],
                     "xlabels": [ax.get_xlabel() for ax in fig.axes], "ylabels": [ax.get_ylabel() for ax in fig.axes]})
        return real(fig, path, dpi=dpi)

    monkeypatch.setattr(figures, "save", save)
    return seen


def _summary(algorithms: list[str], points: int) -> pd.DataFrame:
    rows = [{"algorithm": a, "point": p, "x": str(p), "mean": 10.0 * j + p, "std": 1.0}
            for j, a in enumerate(algorithms) for p in range(points)]
    return pd.DataFrame(rows)


def _check(drawn: list[dict[str, object]]) -> None:
    assert drawn
    for fig in drawn:
        assert fig["fits"], f"{fig['path'].name}: a title is wider than its axes: {fig['titles']}"
        assert not fig["legend_over_axes"], f"{fig['path'].name}: the legend covers the data"
        assert not any("[cost" in t or "cost:" in t for t in fig["titles"]), fig["titles"]


def test_the_sweep_figure_of_ten_series(drawn, tmp_path: Path) -> None:
    algorithms = ["pdftsp", "titan", "eft", "ntm", "pdftsp@cell-prices", "pdftsp@beta-per-gb", "pdftsp@from-bids",
                  "titan_welfare", "eft@positive", "ntm@seed-1"]
    definition = StoredScenario(family="lora", name="lora/fig8-load", title=LONG, x="arrival_rate",
                                values=[30, 50, 80], metric="objective")
    paths = figures.metric_figure(tmp_path / "figure.png", definition, _summary(algorithms, 3),
                                  extra_paths=[tmp_path / "figure.svg"])
    assert [p.suffix for p in paths] == [".png", ".svg"] and all(p.stat().st_size > 1000 for p in paths)
    _check(drawn)
    (fig,) = drawn
    assert fig["xlabels"][0] == "tasks per slot (Poisson mean)"  # words, not `arrival_rate`
    assert fig["ylabels"][0] == "social welfare (money units)"  # the family's objective, with its unit


def test_categorical_sweep_figure_and_the_comparison_figures(drawn, tmp_path: Path) -> None:
    definition = StoredScenario(family="spot", name="spot/fig5-deadline", title=LONG, x="market",
                                values=["synthetic", "vast", "aws"], metric="objective")
    figures.metric_figure(tmp_path / "m.png", definition, _summary(["ahap", "msu"], 3).assign(
        x=lambda d: d["point"].map({0: "synthetic", 1: "vast", 2: "aws"})))
    table = pd.DataFrame({"objective": [10.0, 8.0, 6.0], "status": ["time_limit", "online", "online"],
                          "bound": [11.0, np.nan, np.nan]}, index=pd.Index(["offline", "pdftsp", "eft"]))
    figures.welfare_bars(table, tmp_path / "w.png", title=LONG, family="lora")
    prices = xr.Dataset({"compute_price": (("node", "slot"), np.random.default_rng(0).random((4, 24)))})
    figures.price_heatmap(prices, tmp_path / "p.png", title=LONG)
    _check(drawn)
    assert drawn[0]["ylabels"][0] == "utility (money units)"
    assert drawn[1]["ylabels"][0] == "social welfare (money units)"


def test_family_figures_share_the_style(drawn, tmp_path: Path) -> None:
    from aisched.scenarios.genai.figures import fig3_figure
    from aisched.scenarios.spot.figures import throughput_figure
    from aisched.scenarios.spot.selection import policy_weight_heatmap
    from aisched.scenarios.tenants.figures import alpha_bars

    alpha_bars({f"scheduler {k}": np.linspace(0.5, 1.5, 6) for k in range(4)}, tmp_path / "a.png")
    throughput_figure(tmp_path, StoredScenario(name="spot/t", family="spot", x="bandwidth",
                                               values=[100, 200, 400, 800]), pd.DataFrame())
    weights = xr.DataArray(np.full((50, 12), 1 / 12), dims=("job", "policy"))
    policy_weight_heatmap(weights, tmp_path / "w.png", title=LONG)
    fig3_figure(tmp_path / "f3.png")
    _check(drawn)
    assert drawn[0]["titles"][0], "the tenants alpha figure has a title"


def test_labels_fall_back_to_words() -> None:
    assert figures.label("runtime_s") == "run time (s)"
    assert figures.label("nodes", family="lora") == "compute nodes"
    assert figures.label("some_parameter") == "some parameter"
    assert figures.clean_title("Fig. 5 [cost: full 5 seeds 191 s; reduced 1 seed 25 s] AHAP") == "Fig. 5 AHAP"
