"""The report figures' one style, and the figures of a comparison and a sweep.

Every report figure (here and in ``aisched.scenarios.<family>.figures``) is drawn
the same way:

- :func:`style_axes`: a title that fits the axes (wrapped, never clipped; cost
  notes such as ``[cost: ...]`` left out), axis labels in words with units
  (:func:`label`: the family's words for its objective and parameters, e.g.
  "social welfare (money units)" rather than ``objective``), light grid;
- :func:`legend_outside`: the legend to the right of the axes, never over the
  data, one column per 12 entries;
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

import re
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched._files import atomic_save_figure

if TYPE_CHECKING:
    import pandas as pd
    import xarray as xr

    from aisched.experiments.stored import StoredScenario

__all__ = ["COLORS", "GENERIC_LABELS", "clean_title", "fit_titles", "label", "series_style", "legend_outside", "metric_figure", "price_heatmap", "save",
           "style_axes", "subplots", "title_fits", "welfare_bars"]

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
    if family is None:
        return {}
    from aisched import families

    if family not in families.names():
        return {}
    return families.hooks(family).labels


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
    if ylabel is not None:
        ax.set_ylabel(ylabel, fontsize=LABEL_SIZE)
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
                     ncols=1 + (len(handles) - 1) // 12)


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


def metric_figure(
    path: str | Path, stored: StoredScenario, summary: pd.DataFrame, *, extra_paths: Sequence[str | Path] = (),
) -> list[Path]:
    """A sweep's metric against its x-axis: mean and standard deviation over seeds per algorithm.

    ``stored`` is the sweep's scenario (:class:`~aisched.experiments.stored.StoredScenario`:
    its ``family``, ``name``, ``title``, ``x``, ``values``, ``labels``, ``metric``); ``summary`` has columns
    ``algorithm``, ``point``, ``x``, ``mean``, ``std``. Numeric x-values give
    lines (one style per series, so ten series stay apart), others grouped bars.
    Written to ``path`` and each of ``extra_paths`` (e.g. an SVG beside the PNG).
    """
    import numpy as np

    family, metric, values = stored.family, stored.metric, list(stored.values)
    names = list(stored.labels)
    fig, ax = subplots()
    algos = list(dict.fromkeys(summary["algorithm"]))
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    if numeric:
        for j, name in enumerate(algos):
            rows = summary[summary["algorithm"] == name].sort_values("point")
            xs = [values[int(p)] for p in rows["point"]]
            ax.errorbar(xs, rows["mean"], yerr=rows["std"].fillna(0.0), capsize=3, markersize=4, linewidth=1.2,
                        label=name, **series_style(j))
    else:
        width = 0.8 / max(len(algos), 1)
        for j, name in enumerate(algos):
            rows = summary[summary["algorithm"] == name].set_index("x").reindex(names)
            pos = np.arange(len(names)) + (j - (len(algos) - 1) / 2) * width
            ax.bar(pos, rows["mean"], width, yerr=rows["std"].fillna(0.0), capsize=2, label=name,
                   color=series_style(j)["color"])
        ax.set_xticks(np.arange(len(names)), names)
    style_axes(ax, title=stored.title or stored.name, xlabel=label(stored.x, family=family),
               ylabel=label(metric, family=family))
    legend_outside(ax)
    fit_titles(fig)
    paths = [Path(path), *(Path(p) for p in extra_paths)]
    for p in paths[:-1]:
        atomic_save_figure(fig, p, dpi=120, bbox_inches="tight", pad_inches=0.1)
    save(fig, paths[-1])
    return paths
