"""Small SVG figures for the reproduction pages, with the paper's values marked (issue 25, point 7).

:func:`scenario_svg` draws one scenario's metric along its x axis (mean over
seeds, one line or bar group per algorithm) and marks, where a claim gives a
number, what the paper reported:

- an ``improvement`` claim "A improves over B by v at point P": a star at
  ``(P, mean of B at P x (1 + v))`` in A's colour, i.e. where A would be on our
  instances if the paper's improvement held on them (labelled "paper: A = B x (1 + v)");
- an ``at_most`` / ``at_least`` claim: a dashed horizontal line at its value.

The figures are written as SVG with text kept as text (``svg.fonttype =
"none"``) and no metadata, so a page's figures stay small (a few tens of kB)
and GitHub renders them in place.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from aisched._files import atomic_save_figure
from aisched.experiments.checks import ClaimCheck

if TYPE_CHECKING:
    from aisched.experiments.stored import StoredScenario

__all__ = ["paper_marks", "scenario_svg"]


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def paper_marks(stored: StoredScenario, summary: pd.DataFrame, checks: list[ClaimCheck]
                ) -> tuple[list[tuple[str, str, float, str]], list[tuple[float, str]]]:
    """The paper's values to draw: ``(x label, algorithm, y, text)`` points and ``(y, text)`` lines."""
    points, lines = [], []
    for chk in checks:
        c = chk.claim
        if c.kind == "improvement" and c.value is not None and c.point is not None and c.baseline:
            rows = summary[(summary["algorithm"] == c.baseline) & (summary["x"].astype(str) == str(c.point))]
            if rows.empty or not math.isfinite(float(rows["mean"].iloc[0])):
                continue
            base = float(rows["mean"].iloc[0])
            y = base + abs(base) * float(c.value)
            points.append((str(c.point), c.algorithm, y, f"paper: {c.algorithm} = {c.baseline} {c.value:+.0%}"))
        elif c.kind in ("at_most", "at_least") and c.value is not None:
            lines.append((float(c.value), f"paper: {c.algorithm} {'<=' if c.kind == 'at_most' else '>='} {c.value:g}"))
    return points, lines


def scenario_svg(path: str | Path, stored: StoredScenario, summary: pd.DataFrame,
                 checks: list[ClaimCheck]) -> Path:
    """Write ``path`` (SVG): the scenario's means per algorithm and the paper's marks; returns it."""
    from aisched.experiments.figures import _pyplot

    plt = _pyplot()
    import matplotlib

    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = "aisched"  # the same ids every run: a regenerated page diffs only where it changed
    metric, labels = stored.metric, list(stored.labels)
    values = list(stored.values)
    algos = list(dict.fromkeys(summary["algorithm"]))
    colours = {a: f"C{i % 10}" for i, a in enumerate(algos)}
    numeric = _numeric(values) and len(values) > 1
    position = {label: (float(v) if numeric else float(i)) for i, (label, v) in enumerate(zip(labels, values))}
    fig, ax = plt.subplots(figsize=(5.6, 3.0))
    width = 0.8 / max(len(algos), 1)
    for j, name in enumerate(algos):
        rows = summary[summary["algorithm"] == name].copy()
        rows["label"] = rows["x"].astype(str)
        rows = rows[rows["label"].isin(position)]
        xs = np.array([position[s] for s in rows["label"]])
        ys = rows["mean"].to_numpy(dtype=float)
        order = np.argsort(xs)
        if numeric:
            ax.plot(xs[order], ys[order], marker="o", ms=3, lw=1.2, color=colours[name], label=name)
        else:
            ax.bar(xs + (j - (len(algos) - 1) / 2) * width, ys, width, color=colours[name], label=name)
    points, lines = paper_marks(stored, summary, checks)
    for label, name, y, _ in points:
        if label in position:
            ax.scatter([position[label]], [y], marker="*", s=90, color=colours.get(name, "k"), edgecolors="k",
                       linewidths=0.5, zorder=4)
    if points:
        ax.scatter([], [], marker="*", s=90, color="w", edgecolors="k", label="paper's claimed level")
    for y, text in lines:
        ax.axhline(y, ls="--", lw=1.0, color="0.3", label=text)
    if not numeric:
        ax.set_xticks(range(len(labels)), labels, fontsize=7)
    ax.set_xlabel(stored.x.replace("_", " "), fontsize=8)
    ax.set_ylabel(metric.replace("_", " "), fontsize=8)
    ax.tick_params(labelsize=7)
    ax.set_title(stored.name, fontsize=9)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_save_figure(fig, out, format="svg", metadata={"Date": None})  # a killed page keeps the old figure
    plt.close(fig)
    return out
