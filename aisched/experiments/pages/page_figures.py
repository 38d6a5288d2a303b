"""Small SVG figures for the reproduction pages, with the claimed values marked.

:func:`scenario_svg` draws one scenario's metric along its x axis (mean over
seeds, one line or bar group per algorithm, with the band over seeds of
:func:`aisched.figures.spread`) in the report's style: the
scenario's caption as the title (wrapped, never cut), the metric's words and
unit on the y axis, the x parameter's words on the x axis, whole-number ticks
on an axis of counts. Where a claim gives a number it marks what the claim
says:

- an ``improvement`` claim "A improves over B by v at point P": a star at
  ``(P, mean of B at P x (1 + v))`` in A's colour, i.e. where A would be on our
  instances if the claimed improvement held on them;
- an ``at_most`` / ``at_least`` claim: a dashed horizontal line at its value.

A mark is labelled as the paper's only where the claim is one of the paper's
(:func:`is_papers_claim`: the scenario is a paper figure of the catalogue and the
claim is one of the catalogue's claims of it); a claim a user wrote (a TOML scenario,
a registered one, or a paper scenario whose claim was changed) is labelled as the
user's, so that a reader never takes it for the paper's words.

The figures are written as SVG with text kept as text (``svg.fonttype =
"none"``) and no metadata, so a page's figures stay small (a few tens of kB)
and GitHub renders them in place.
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from aisched._files import atomic_save_figure
from aisched.errors import InvalidScenarioError
from aisched.experiments.spec.scenario import Claim
from aisched.experiments.verdicts.checks import ClaimCheck

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["PAPER_MARK", "USER_MARK", "is_papers_claim", "paper_marks", "scenario_plot", "scenario_svg"]

#: How a mark of the paper's claim starts ("paper: comdos = heft_ma +50%").
PAPER_MARK = "paper"
#: How a mark of a claim a user wrote starts: never "paper", which would put words in the paper's mouth.
USER_MARK = "user's claim"


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _substance(claim: Claim) -> Claim:
    """``claim`` without its wording and readings: what it asserts (kind, algorithms, points, value)."""
    return dataclasses.replace(claim, text="", why=())


def is_papers_claim(stored: StoredScenario, claim: Claim) -> bool:
    """Whether ``claim`` is one of the paper's: the catalogue's paper scenario ``stored.name`` makes it.

    A sweep folder records its claims without saying who wrote them, so the catalogue
    decides: the scenario must be one of the families' paper figures
    (:func:`aisched.experiments.spec.catalog.paper_scenario_names`) and the claim must assert what
    one of that figure's claims asserts (the same kind, algorithms, points and value; its
    wording may have been edited since the sweep). A user's TOML or registered scenario,
    or a paper scenario whose claim a user changed, gives False.
    """
    from aisched.experiments.spec import catalog

    if stored.name not in catalog.paper_scenario_names():
        return False
    try:
        scenario = catalog.get(stored.name)
    except InvalidScenarioError:
        return False
    return _substance(claim) in {_substance(c) for c in scenario.claims}


def paper_marks(stored: StoredScenario, summary: pd.DataFrame, checks: list[ClaimCheck]
                ) -> tuple[list[tuple[str, str, float, str]], list[tuple[float, str]]]:
    """The claimed values to draw: ``(x label, algorithm, y, text)`` points and ``(y, text)`` lines.

    Each text starts with :data:`PAPER_MARK` for the paper's claim and :data:`USER_MARK`
    for one a user wrote (:func:`is_papers_claim`).
    """
    points, lines = [], []
    for chk in checks:
        c = chk.claim
        whose = PAPER_MARK if is_papers_claim(stored, c) else USER_MARK
        if c.kind == "improvement" and c.value is not None and c.point is not None and c.baseline:
            rows = summary[(summary["algorithm"] == c.baseline) & (summary["x"].astype(str) == str(c.point))]
            if rows.empty or not math.isfinite(float(rows["mean"].iloc[0])):
                continue
            base = float(rows["mean"].iloc[0])
            y = base + abs(base) * float(c.value)
            points.append((str(c.point), c.algorithm, y, f"{whose}: {c.algorithm} = {c.baseline} {c.value:+.0%}"))
        elif c.kind in ("at_most", "at_least") and c.value is not None:
            lines.append((float(c.value), f"{whose}: {c.algorithm} {'<=' if c.kind == 'at_most' else '>='} {c.value:g}"))
    return points, lines


def scenario_plot(stored: StoredScenario, summary: pd.DataFrame, checks: list[ClaimCheck],
                  table: pd.DataFrame | None = None) -> Any:
    """The page's figure of one scenario (laid out, not written): means, band over seeds and claimed marks.

    Parameters
    ----------
    stored
        The sweep's scenario: its ``title`` is the figure's title, its ``metric`` and ``x``
        the axes (:func:`aisched.figures.label`).
    summary
        Columns ``algorithm``, ``point``, ``x``, ``mean``, ``std``
        (:func:`aisched.experiments.verdicts.checks.summarise`).
    checks
        The scenario's claim checks; a claim with a number is marked (:func:`paper_marks`).
    table
        The sweep's per-cell rows, or None: with them the band runs from the lowest to the
        highest seed, else it is the mean +- std cut to the metric's range
        (:func:`aisched.figures.spread`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from aisched import figures

    metric, labels, values = stored.metric, list(stored.labels), list(stored.values)
    banded, band_text = figures.spread(summary, metric, table)
    algos = list(dict.fromkeys(banded["algorithm"]))
    colours = {a: f"C{i % 10}" for i, a in enumerate(algos)}
    numeric = _numeric(values) and len(values) > 1
    position = {label: (float(v) if numeric else float(i)) for i, (label, v) in enumerate(zip(labels, values))}
    fig, ax = figures.subplots(width=5.6, height=3.0)
    width = 0.8 / max(len(algos), 1)
    for j, name in enumerate(algos):
        rows = banded[banded["algorithm"] == name].copy()
        rows["label"] = rows["x"].astype(str)
        rows = rows[rows["label"].isin(position)]
        rows["position"] = [position[s] for s in rows["label"]]
        rows = rows.sort_values("position")
        xs, ys, err = rows["position"].to_numpy(dtype=float), rows["mean"].to_numpy(dtype=float), figures.band_errors(rows)
        if numeric:
            ax.errorbar(xs, ys, yerr=err, marker="o", ms=3, lw=1.2, capsize=2, color=colours[name], label=name)
        else:
            ax.bar(xs + (j - (len(algos) - 1) / 2) * width, ys, width, yerr=err, capsize=2, color=colours[name],
                   label=name)
    points, lines = paper_marks(stored, banded, checks)
    for label, name, y, _ in points:
        if label in position:
            ax.scatter([position[label]], [y], marker="*", s=90, color=colours.get(name, "k"), edgecolors="k",
                       linewidths=0.5, zorder=4)
    for whose, text in ((PAPER_MARK, "paper's claimed level"), (USER_MARK, "user's claimed level (not the paper's)")):
        if any(t.startswith(f"{whose}:") for *_, t in points):
            ax.scatter([], [], marker="*", s=90, color="w", edgecolors="k", label=text)
    for y, text in lines:
        ax.axhline(y, ls="--", lw=1.0, color="0.3", label=text)
    if not numeric:
        figures.category_ticks(ax, labels)
    elif figures.is_integer_axis(values):
        figures.integer_ticks(ax, values)
    if metric in figures.INTEGER_METRICS:
        figures.integer_ticks(ax, axis="y")
    figures.style_axes(ax, title=stored.title or stored.name, xlabel=figures.label(stored.x, family=stored.family),
                       ylabel=figures.label(metric, family=stored.family))
    figures.legend_outside(ax, title=textwrap.fill(band_text, 28))
    figures.room_for_title(fig)
    figures.fit_titles(fig)
    return fig


def scenario_svg(path: str | Path, stored: StoredScenario, summary: pd.DataFrame,
                 checks: list[ClaimCheck], table: pd.DataFrame | None = None) -> Path:
    """Write ``path`` (SVG): :func:`scenario_plot`'s figure; returns it."""
    from aisched.figures import _pyplot

    plt = _pyplot()
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "none",
                                "svg.hashsalt": "aisched"}):  # the same ids every run: a page diffs only where it changed
        fig = scenario_plot(stored, summary, checks, table)
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_save_figure(fig, out, format="svg", metadata={"Date": None}, bbox_inches="tight",
                           pad_inches=0.05)  # a killed page keeps the old figure
    plt.close(fig)
    return out
