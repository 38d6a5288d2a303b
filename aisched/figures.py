"""The report figures' one style, and the figures of a comparison and a sweep.

Every report figure (here and in ``aisched.scenarios.<family>.figures``) is drawn
the same way:

- :func:`style_axes`: a title that fits the axes (wrapped, never clipped; cost
  notes such as ``[cost: ...]`` left out), axis labels in words with units
  (:func:`label`: the family's words for its objective and parameters, e.g.
  "social welfare (money units)" rather than ``objective``), light grid;
- :func:`legend_outside`: the legend to the right of the axes, never over the
  data, one column per 12 entries;
- :func:`integer_ticks`: whole-number ticks on an axis of counts (nodes, jobs,
  servers, seeds; an ``admitted`` metric): a tick at 2.5 servers reads as a
  measurement that cannot exist;
- :func:`spread`: the band over seeds drawn around a mean, never outside the
  range the quantity lies in by definition (:data:`METRIC_RANGES`: a ratio to the
  optimum or to an upper bound on it is in [0, 1]), its meaning said in the legend;
- :func:`save`: lays the figure out (:func:`fit_titles` re-wraps a title the
  layout left too wide) so that nothing is cut, and writes it atomically
  (:func:`aisched._files.atomic_save_figure`: a killed report keeps the old figure whole).

Use them for a new figure::

    fig, ax = figures.subplots()
    ax.plot(...)
    figures.style_axes(ax, title="...", xlabel=figures.label("nodes", family="lora"),
                       ylabel=figures.label("objective", family="lora"))
    figures.legend_outside(ax)
    figures.save(fig, path)
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched._files import atomic_save_figure

if TYPE_CHECKING:
    import pandas as pd
    import xarray as xr

    from aisched.experiments.store.stored import StoredScenario

__all__ = ["COLORS", "GENERIC_LABELS", "INTEGER_METRICS", "METRIC_RANGES", "band_errors", "category_ticks", "clean_title",
           "fit_titles", "integer_ticks", "is_integer_axis", "label", "legend_outside", "metric_figure", "metric_plot",
           "price_heatmap", "room_for_title", "save", "series_style", "spread", "style_axes", "subplots", "title_fits",
           "welfare_bars"]

#: Colours of the series, in order (colour-blind safe; markers and line styles also differ).
COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_LINES = ("-", "--", "-.", ":")
TITLE_SIZE, LABEL_SIZE, TICK_SIZE, LEGEND_SIZE = 10, 9, 8, 8

#: Words (with units) for the metrics and parameters every family shares; a family's own words
#: (``Family.labels``: its objective, its generator's parameters) come first in :func:`label`.
GENERIC_LABELS: dict[str, str] = {
    "objective": "objective (money units)",
    "ratio": "ratio to the offline optimum (or bound)",
    "competitive_ratio": "competitive ratio (optimum / online)",
    "admitted": "admitted jobs",
    "runtime_s": "run time (s)",
    "decision_median_s": "median decision time (s)",
    "slot": "time slot",
    "seed": "seed",
}

_INF = math.inf

#: The range each metric lies in by definition; a band over seeds (:func:`spread`) is cut to it, so that
#: no figure shows a spread the quantity cannot take. Every family maximises its objective and the
#: reference of a ratio is the proven optimum or an upper bound on it, so ``objective / reference`` is
#: in [0, 1] and its inverse at least 1; counts, times, shares and variances are not negative. A metric
#: not named here (the objective, a regret, a surplus: any sign) is not cut.
METRIC_RANGES: dict[str, tuple[float, float]] = {
    "ratio": (0.0, 1.0),
    "competitive_ratio": (1.0, _INF),
    "admitted": (0.0, _INF),
    "runtime_s": (0.0, _INF),
    "decision_median_s": (0.0, _INF),
    "makespan": (0.0, _INF),
    "alpha_variance": (0.0, _INF),
    "gpu_util_peak": (0.0, 1.0),
}

#: Metrics that count whole things (jobs, slots): their axis gets whole-number ticks (:func:`integer_ticks`).
INTEGER_METRICS: frozenset[str] = frozenset({"admitted", "makespan"})


def _pyplot():  # imported lazily: matplotlib is the optional `plot` extra
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("figures need matplotlib: pip install 'aisched[plot]'") from exc
    return plt


def label(name: str, *, family: str | None = None, labels: Mapping[str, str] | None = None) -> str:
    """Words with units for a metric or parameter ``name`` (``"arrival_rate"`` -> ``"tasks per slot ..."``).

    Looks in ``labels``, then the registered family's ``labels``, then
    :data:`GENERIC_LABELS`; else the name with spaces for underscores.
    """
    for table in (labels or {}, _family_labels(family), GENERIC_LABELS):
        if name in table:
            return table[name]
    return name.replace("_", " ")


def _family_labels(family: str | None) -> Mapping[str, str]:
    """The family's axis words: its ``labels`` hook, else its objective's name and unit (and a ratio of it, no unit)."""
    if family is None:
        return {}
    from aisched import families

    if family not in families.names():
        return {}
    objective = families.record(family).objective
    return {"objective": objective.label,
            "ratio": f"ratio of {objective.name} to the offline optimum (or a bound on it)",
            **families.hooks(family).labels}


_COST_NOTE = re.compile(r"\s*[\[(]cost:[^\])]*[\])]", re.IGNORECASE)


def clean_title(title: str) -> str:
    """``title`` without cost notes (``[cost: full 5 seeds 191 s; ...]``) and doubled spaces."""
    return re.sub(r"\s+", " ", _COST_NOTE.sub("", title)).strip()


def subplots(nrows: int = 1, ncols: int = 1, *, width: float = 6.4, height: float = 3.8, **kwargs: Any):
    """``plt.subplots`` at the report's size (inches)."""
    plt = _pyplot()
    return plt.subplots(nrows, ncols, figsize=(width, height), **kwargs)


def style_axes(ax: Any, *, title: str | None = None, xlabel: str | None = None, ylabel: str | None = None,
               grid: bool = True) -> Any:
    """The report style on ``ax``: a title wrapped to the axes' width, labels, ticks, grid; returns ``ax``."""
    if xlabel is not None:
        ax.set_xlabel(xlabel, fontsize=LABEL_SIZE)
    if ylabel is not None:  # wrapped to the axes' height: a long label never runs off the figure
        height_in = ax.get_position().height * ax.figure.get_figheight()
        ax.set_ylabel(textwrap.fill(ylabel, max(20, int(height_in * 72 / (0.55 * LABEL_SIZE)))), fontsize=LABEL_SIZE)
    ax.tick_params(labelsize=TICK_SIZE)
    if grid:
        ax.grid(True, linewidth=0.5, alpha=0.4)
        ax.set_axisbelow(True)
    if title is not None:
        text = clean_title(title)
        # characters per line that fit the axes at the title size (about 0.55 em per character)
        width_in = ax.get_position().width * ax.figure.get_figwidth()
        per_line = max(20, int(width_in * 72 / (0.55 * TITLE_SIZE)))
        ax.set_title(textwrap.fill(text, per_line), fontsize=TITLE_SIZE)
    return ax


def legend_outside(ax: Any, *, title: str | None = None) -> Any:
    """The legend of ``ax`` to the right of the axes (never over the data); None when nothing is labelled."""
    handles, names = ax.get_legend_handles_labels()
    if not handles:
        return None
    return ax.legend(handles, names, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                     fontsize=LEGEND_SIZE, title=title, title_fontsize=LEGEND_SIZE, frameon=False,
                     ncols=1 + (len(handles) - 1) // 12, alignment="left")


def is_integer_axis(values: Sequence[Any]) -> bool:
    """Whether ``values`` (an axis' points) are all whole numbers given as integers (nodes, jobs, seeds)."""
    return bool(values) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def integer_ticks(ax: Any, values: Sequence[float] = (), *, axis: str = "x") -> None:
    """Whole-number ticks on ``axis`` of ``ax``: at ``values`` where they stand apart, else a whole-number locator.

    A tick at each point names the values the sweep ran; where they crowd (1, 2, 4, ..., 64
    on a linear axis) or are too many, :class:`matplotlib.ticker.MaxNLocator` with
    ``integer=True`` puts a few whole-number ticks instead.
    """
    from matplotlib.ticker import MaxNLocator

    target = ax.xaxis if axis == "x" else ax.yaxis
    points = sorted({float(v) for v in values})
    span = points[-1] - points[0] if points else 0.0
    apart = len(points) >= 2 and min(b - a for a, b in zip(points, points[1:])) >= span / 12
    if points and len(points) <= 12 and (apart or len(points) == 1):
        target.set_ticks(points, [f"{v:g}" for v in points])
    else:
        target.set_major_locator(MaxNLocator(integer=True))


def category_ticks(ax: Any, labels: Sequence[str]) -> None:
    """A tick at each category ``0 .. n-1`` named by ``labels``; slanted where they would run into each other."""
    ax.set_xticks(range(len(labels)), list(labels))
    width_in = ax.get_position().width * ax.figure.get_figwidth()
    room = width_in * 72 / max(len(labels), 1)  # points per category
    if max((len(str(t)) for t in labels), default=0) * 0.6 * TICK_SIZE > 0.9 * room:
        ax.tick_params(axis="x", labelrotation=25)
        for text in ax.get_xticklabels():
            text.set_horizontalalignment("right")
            text.set_rotation_mode("anchor")


def room_for_title(fig: Any, *, line_in: float = 0.17) -> None:
    """Make ``fig`` taller by ``line_in`` inches per title line beyond two, so that a long caption leaves the axes room."""
    extra = max((ax.get_title().count("\n") - 1 for ax in fig.axes if ax.get_title()), default=0)
    if extra > 0:
        fig.set_figheight(fig.get_figheight() + line_in * extra)


def _range_text(low: float, high: float) -> str:
    if math.isfinite(low) and math.isfinite(high):
        return f", cut to [{low:g}, {high:g}]"
    if math.isfinite(low):
        return f", cut at {low:g}"
    return f", cut at {high:g}" if math.isfinite(high) else ""


def spread(summary: pd.DataFrame, metric: str, table: pd.DataFrame | None = None) -> tuple[pd.DataFrame, str]:
    """The band over seeds around each mean of ``summary``: columns ``low`` and ``high``, and words for the legend.

    With ``table`` (the sweep's rows, one per cell: ``point``, ``algorithm``, ``seed`` and
    ``metric``) the band runs from the lowest to the highest seed's value, which is never
    outside the quantity's range. Without it the band is the mean +- the standard deviation
    over seeds, cut to the metric's range (:data:`METRIC_RANGES`): a ratio to the optimum is
    at most 1 and at least 0 however the seeds spread, and a band reaching -2 would show a
    value no seed can have. A cut band still reaches its mean (a mean outside the range,
    e.g. a negative objective's ratio, keeps its point). One seed: no band (NaN).

    Parameters
    ----------
    summary
        Columns ``point``, ``algorithm``, ``mean``, ``std`` (and ``count``), as
        :func:`aisched.experiments.verdicts.checks.summarise` gives them.
    metric
        The column summarised.
    table
        The per-cell rows, or None.

    Returns
    -------
    tuple of (pandas.DataFrame, str)
        ``summary`` with ``low`` and ``high`` added, and what the band is
        ("bars: lowest to highest seed").
    """
    import numpy as np

    out = summary.copy()
    mean = out["mean"].to_numpy(dtype=float)
    low_limit, high_limit = METRIC_RANGES.get(metric, (-_INF, _INF))
    if table is not None and {"point", "algorithm", "seed", metric} <= set(table.columns):
        values = table[["point", "algorithm", metric]].copy()
        values[metric] = values[metric].astype(float).where(np.isfinite(values[metric].astype(float)))
        ends = values.groupby(["point", "algorithm"])[metric].agg(["min", "max", "count"])
        keys = list(zip(out["point"], out["algorithm"]))
        low = np.array([ends["min"].get(k, np.nan) for k in keys], dtype=float)
        high = np.array([ends["max"].get(k, np.nan) for k in keys], dtype=float)
        counts = np.array([ends["count"].get(k, 0) for k in keys])
        low[counts < 2], high[counts < 2] = np.nan, np.nan
        text = "bars: lowest to highest seed"
    else:
        std = out["std"].to_numpy(dtype=float) if "std" in out else np.full(len(out), np.nan)
        low = np.minimum(np.clip(mean - std, low_limit, None), mean)
        high = np.maximum(np.clip(mean + std, None, high_limit), mean)
        text = "bars: mean ± std over seeds" + _range_text(low_limit, high_limit)
    out["low"], out["high"] = low, high
    if not np.isfinite(low).any():
        text = "one seed: no spread"
    return out, text


def band_errors(rows: pd.DataFrame) -> Any:
    """``yerr`` of matplotlib (below, above) from ``rows``' ``mean``, ``low``, ``high``; 0 where there is no band."""
    import numpy as np

    mean = rows["mean"].to_numpy(dtype=float)
    below = np.nan_to_num(mean - rows["low"].to_numpy(dtype=float), nan=0.0, posinf=0.0, neginf=0.0)
    above = np.nan_to_num(rows["high"].to_numpy(dtype=float) - mean, nan=0.0, posinf=0.0, neginf=0.0)
    return np.vstack([np.maximum(below, 0.0), np.maximum(above, 0.0)])


def series_style(index: int) -> dict[str, Any]:
    """Colour, marker and line style of the ``index``-th series: ten lines stay apart."""
    return {"color": COLORS[index % len(COLORS)], "marker": _MARKERS[index % len(_MARKERS)],
            "linestyle": _LINES[(index // len(COLORS)) % len(_LINES)]}


def title_fits(fig: Any) -> bool:
    """Whether every title is no wider than its axes and inside the figure (and a suptitle inside the figure)."""
    fig.tight_layout()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    texts = [(ax.title, ax.get_window_extent(renderer).width) for ax in fig.axes if ax.title.get_text()]
    if getattr(fig, "_suptitle", None) is not None and fig._suptitle.get_text():
        texts.append((fig._suptitle, box.width))
    for text, room in texts:
        extent = text.get_window_extent(renderer)
        if extent.width > room + 1 or extent.x0 < box.x0 - 0.5 or extent.x1 > box.x1 + 0.5 or extent.y1 > box.y1 + 0.5:
            return False
    return True


def fit_titles(fig: Any) -> None:
    """Lay ``fig`` out and re-wrap every title (and suptitle) that came out wider than its axes (figure)."""
    fig.tight_layout()
    for _ in range(6):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        texts = [(ax.title, ax.get_window_extent(renderer).width) for ax in fig.axes if ax.title.get_text()]
        if getattr(fig, "_suptitle", None) is not None and fig._suptitle.get_text():
            texts.append((fig._suptitle, fig.bbox.width * 0.98))
        changed = False
        for text, room in texts:
            width = text.get_window_extent(renderer).width
            if width > room:
                words = " ".join(text.get_text().split())
                longest = max(len(line) for line in text.get_text().splitlines())
                text.set_text(textwrap.fill(words, max(12, int(longest * room / width * 0.95))))
                changed = True
        if not changed:
            return
        fig.tight_layout()


def save(fig: Any, path: str | Path, dpi: int = 120) -> Path:
    """Lay out (titles re-wrapped to fit, outside legends inside the canvas), write and close ``fig``."""
    plt = _pyplot()
    path = Path(path)
    fit_titles(fig)
    atomic_save_figure(fig, path, dpi=dpi, bbox_inches="tight", pad_inches=0.1)  # a killed report: the old one
    plt.close(fig)
    return path


def welfare_bars(
    table: pd.DataFrame, path: str | Path, *, title: str = "Social welfare", ylabel: str = "objective",
    family: str | None = None,
) -> Path:
    """Bar chart of ``table["objective"]`` by algorithm, the offline optimum (or bound) as a line.

    ``ylabel`` is a metric name or words (:func:`label` with ``family``).
    """
    path = Path(path)
    online = table.drop(index=["offline", "bound"], errors="ignore")
    fig, ax = subplots(width=6.4, height=3.6)
    bars = ax.bar(online.index, online["objective"], color=COLORS[0])
    ax.bar_label(bars, fmt=lambda v: f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}", fontsize=TICK_SIZE)
    if "offline" in table.index:
        ref = table.loc["offline"]
        if ref["status"] == "optimal":
            ax.axhline(ref["objective"], color=COLORS[1], linestyle="--", label="offline optimum (proven)")
        else:
            ax.axhline(ref["objective"], color=COLORS[1], linestyle="--",
                       label=f"offline incumbent ({ref['status']})")
            if ref.get("bound") == ref.get("bound"):  # not NaN
                ax.axhline(ref["bound"], color=COLORS[2], linestyle=":", label="offline proven bound")
    style_axes(ax, title=title, ylabel=label(ylabel, family=family))
    legend_outside(ax)
    return save(fig, path)


def price_heatmap(
    prices: xr.Dataset, path: str | Path, *, variable: str | None = "compute_price", title: str | None = None
) -> Path:
    """Heatmap of a 2-D price variable with a ``slot`` dim (``node x slot``, ``edge x slot``, ...).

    ``variable=None`` takes the first such variable of ``prices``.
    """
    path = Path(path)
    if variable is None:
        two_d = [n for n, v in prices.data_vars.items() if v.ndim == 2 and "slot" in v.dims]
        if not two_d:
            raise ValueError("prices hold no 2-D variable with a 'slot' dim")
        variable = str(two_d[0])
    var = prices[variable]
    if var.ndim != 2 or "slot" not in var.dims:
        raise ValueError(f"{variable!r} has dims {var.dims}; expected (<resource>, slot)")
    row = next(d for d in var.dims if d != "slot")
    data = var.transpose(row, "slot")
    fig, ax = subplots(width=7.0, height=3.6)
    mesh = ax.imshow(data.values, aspect="auto", origin="lower", cmap="viridis", interpolation="nearest")
    bar = fig.colorbar(mesh, ax=ax)
    bar.set_label(f"{variable.replace('_', ' ')} (money units per unit)", fontsize=LABEL_SIZE)
    bar.ax.tick_params(labelsize=TICK_SIZE)
    if data.sizes[row] <= 16:
        ax.set_yticks(range(data.sizes[row]))
    style_axes(ax, title=title or f"final {variable.replace('_', ' ')} ({row} x slot)",
               xlabel=GENERIC_LABELS["slot"], ylabel=str(row), grid=False)
    return save(fig, path)


def metric_plot(stored: StoredScenario, summary: pd.DataFrame, table: pd.DataFrame | None = None) -> Any:
    """The figure of a sweep's metric against its x-axis (laid out, not written): mean and band over seeds per algorithm.

    Its title is the scenario's caption (``stored.title``, cost notes left out, wrapped to
    the axes), its y-label the metric's words with unit (:func:`label`: "social welfare
    (money units)", "ratio to the offline optimum (or bound)"), its x-label the x parameter's
    words. Numeric x-values give lines (one style per series, so ten series stay apart),
    others grouped bars; an axis of whole numbers gets whole-number ticks
    (:func:`integer_ticks`). The bars around each mean are :func:`spread`'s band, named in
    the legend's title.

    Parameters
    ----------
    stored
        The sweep's scenario (:class:`~aisched.experiments.store.stored.StoredScenario`: its
        ``family``, ``name``, ``title``, ``x``, ``values``, ``labels``, ``metric``).
    summary
        Columns ``algorithm``, ``point``, ``x``, ``mean``, ``std``.
    table
        The sweep's per-cell rows: the band is then the lowest to the highest seed.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import numpy as np

    family, metric, values = stored.family, stored.metric, list(stored.values)
    names = list(stored.labels)
    banded, band_text = spread(summary, metric, table)
    fig, ax = subplots()
    algos = list(dict.fromkeys(banded["algorithm"]))
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    if numeric:
        for j, name in enumerate(algos):
            rows = banded[banded["algorithm"] == name].sort_values("point")
            xs = [values[int(p)] for p in rows["point"]]
            ax.errorbar(xs, rows["mean"], yerr=band_errors(rows), capsize=3, markersize=4, linewidth=1.2,
                        label=name, **series_style(j))
        if is_integer_axis(values):
            integer_ticks(ax, values)
    else:
        width = 0.8 / max(len(algos), 1)
        for j, name in enumerate(algos):
            rows = banded[banded["algorithm"] == name].set_index("x").reindex(names)
            pos = np.arange(len(names)) + (j - (len(algos) - 1) / 2) * width
            ax.bar(pos, rows["mean"], width, yerr=band_errors(rows), capsize=2, label=name,
                   color=series_style(j)["color"])
        category_ticks(ax, names)
    if metric in INTEGER_METRICS:
        integer_ticks(ax, axis="y")
    style_axes(ax, title=stored.title or stored.name, xlabel=label(stored.x, family=family),
               ylabel=label(metric, family=family))
    legend_outside(ax, title=textwrap.fill(band_text, 32))
    room_for_title(fig)
    fit_titles(fig)
    return fig


def metric_figure(
    path: str | Path, stored: StoredScenario, summary: pd.DataFrame, *, extra_paths: Sequence[str | Path] = (),
    table: pd.DataFrame | None = None,
) -> list[Path]:
    """Write :func:`metric_plot`'s figure to ``path`` and each of ``extra_paths`` (e.g. an SVG beside the PNG).

    ``table`` (the sweep's per-cell rows), where given, makes the band the lowest to the
    highest seed rather than the mean +- std cut to the metric's range.
    """
    fig = metric_plot(stored, summary, table)
    paths = [Path(path), *(Path(p) for p in extra_paths)]
    for p in paths[:-1]:
        atomic_save_figure(fig, p, dpi=120, bbox_inches="tight", pad_inches=0.1)
    save(fig, paths[-1])
    return paths
