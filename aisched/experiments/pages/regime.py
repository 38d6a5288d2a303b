"""The regime map rendered: its region sentences, its Markdown table and its figure.

The points come from :mod:`aisched.experiments.verdicts.regime` (:func:`regime_points`: the
proposed algorithm against each baseline along the scarcity knob, decided on the paired
per-seed differences); this module only writes them: :func:`region_text` and
:func:`regime_summary` (one sentence each), :func:`regime_lines` (Markdown for the report
and the reproduction page), :func:`regime_plot` and :func:`regime_figure` (``regime.svg``
and ``.png``).
"""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from aisched import families
from aisched.experiments.verdicts.regime import RegimePoint, proposed_runs, regime_points

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["regime_figure", "regime_lines", "regime_plot", "regime_summary", "region_text"]


def region_text(stored: StoredScenario, points: list[RegimePoint], baseline: str) -> str:
    """One sentence: where the proposed algorithm is above ``baseline`` along the knob."""
    family, hooks = families.record(stored.family), families.hooks(stored.family)
    deciding = next((d for d in hooks.diagnostics if d.acts_above is not None), None)
    mine = [p for p in points if p.baseline == baseline]
    above = [p for p in mine if p.verdict == "better"]
    knob = stored.x

    def where(ps: list[RegimePoint]) -> str:
        values = [p.diagnostic for p in ps if math.isfinite(p.diagnostic)]
        if deciding is None or not values:
            return ""
        lo, hi = min(values), max(values)
        span = deciding.text(lo) if lo == hi else f"{deciding.text(lo)} to {deciding.text(hi)}"
        return f" ({deciding.label}, the most of any algorithm: {span})"

    head = f"{mine[0].proposed if mine and mine[0].proposed else family.proposed} above {baseline} " \
           "(95 % paired interval above 0)"
    if not above:
        return f"{head}: nowhere along {knob} = {', '.join(p.x for p in mine)}{where(mine)}."
    rest = [p for p in mine if p.verdict != "better"]
    tail = f"; not at {', '.join(p.x for p in rest)}{where(rest)}" if rest else "; at every point"
    return f"{head} at {knob} = {', '.join(p.x for p in above)}{where(above)}{tail}."


def regime_summary(stored: StoredScenario, points: list[RegimePoint]) -> str:
    """One sentence for a page's summary: where the proposed algorithm is above each baseline along the knob."""
    family, hooks = families.record(stored.family), families.hooks(stored.family)
    deciding = next((d for d in hooks.diagnostics if d.acts_above is not None), None)
    knob = stored.x
    xs = list(dict.fromkeys(p.x for p in points))
    above = {b: [p.x for p in points if p.baseline == b and p.verdict == "better"]
             for b in dict.fromkeys(p.baseline for p in points)}
    parts = [f"above {b} at {knob} = {', '.join(at)}" for b, at in above.items() if at]
    never = [b for b, at in above.items() if not at]
    name = points[0].proposed if points and points[0].proposed else family.proposed
    text = f"{name} is " + ("; ".join(parts) if parts else "above no baseline anywhere")
    if parts and never:
        text += f"; above {', '.join(never)} nowhere"
    unsure = [p for p in points if p.verdict == "inconclusive"]
    if unsure:
        seeds = max(p.seeds for p in unsure)
        text += f" (inconclusive at {seeds} seed(s) at {len(unsure)} of {len(points)} (point, baseline) pairs)"
    values = [p.diagnostic for p in points if math.isfinite(p.diagnostic)]
    scarcity = ""
    if deciding is not None and values:
        scarcity = f"; {deciding.label}, the most of any algorithm: {deciding.text(min(values))} to " \
                   f"{deciding.text(max(values))}"
    return f"{text} (95 % paired intervals over {knob} = {', '.join(xs)}{scarcity})."


def regime_lines(stored: StoredScenario, table: pd.DataFrame) -> list[str]:
    """Markdown: the region statement per baseline and a table of the map, for each of :func:`proposed_runs`."""
    lines: list[str] = []
    for run in proposed_runs(stored):
        lines += _regime_lines(stored, regime_points(stored, table, run))
    return lines


def _regime_lines(stored: StoredScenario, points: list[RegimePoint]) -> list[str]:
    if not points:
        return []
    baselines = list(dict.fromkeys(p.baseline for p in points))
    lines = [f"Regime map along `{stored.x}` ({points[0].proposed} against each baseline; headroom: "
             "the proven optimum over the baseline; where only a certified bound is known, the bound over the "
             "baseline is shown as \"at most\": it caps the headroom and may be far above it):", ""]
    lines += [f"- {region_text(stored, points, b)}" for b in baselines]
    lines += ["", f"| {stored.x} | baseline | improvement (mean ± std) | paired verdict | headroom |",
              "|---|---|---|---|---|"]
    for p in points:
        room = ("no reference" if not math.isfinite(p.room) else f"{p.room:+.1%} (optimum)"
                if p.reference_kind == "optimum" else f"at most {p.room:+.1%} (bound)")
        imp = "n/a" if not math.isfinite(p.improvement) else f"{p.improvement:+.1%} ± {p.spread:.1%}"
        lines.append(f"| {p.x} | {p.baseline} | {imp} | {p.verdict} | {room} |")
    return [*lines, ""]


def regime_plot(stored: StoredScenario, table: pd.DataFrame) -> Any:
    """The regime map's figure (not written), one panel per baseline; None where nothing is mapped.

    Its title is the scenario's caption (``stored.title``, wrapped to the figure) and what
    is compared; the x-axis the knob in words (:func:`aisched.figures.label`),
    a tick at each value run; the y-axis the relative change of the metric (in %). The
    bars around each mean run from the lowest to the highest seed's improvement (the
    legend says so): a mean +- std would reach below -100 % where the seeds spread widely,
    an improvement no seed can have.
    """
    from aisched.figures import _pyplot, clean_title, label

    runs = {run: regime_points(stored, table, run) for run in proposed_runs(stored)}
    runs = {run: ps for run, ps in runs.items() if ps}
    if not runs:
        return None
    points = next(iter(runs.values()))
    plt = _pyplot()
    baselines = list(dict.fromkeys(p.baseline for p in points))
    xs = list(dict.fromkeys(p.x for p in points))
    width = 3.0 * len(baselines) + 0.6
    fig, axes = plt.subplots(1, len(baselines), figsize=(width, 3.4), squeeze=False, sharey=False)
    proposed = families.record(stored.family).proposed
    measured = re.sub(r"\s*\([^()]*\)$", "", label(stored.metric, family=stored.family))
    for ax, b in zip(axes[0], baselines):
        pos = np.arange(len(xs))
        first = {p.x: p for p in points if p.baseline == b}
        room = np.array([100 * first[x].room if x in first else np.nan for x in xs])
        proven = np.array([x in first and first[x].reference_kind == "optimum" for x in xs])
        if np.isfinite(room[proven]).any():  # headroom measured against the proven optimum: a band
            ax.fill_between(pos, 0.0, np.where(proven & np.isfinite(room), room, np.nan), color="0.85",
                            label="headroom (proven optimum)")
        if np.isfinite(room[~proven]).any():  # only a bound: a cap on the headroom, drawn as a dashed line
            ax.plot(pos, np.where(~proven & np.isfinite(room), room, np.nan), ls="--", color="0.5", lw=1,
                    label="at most (certified bound)")
        ax.axhline(0.0, color="0.4", lw=0.8)
        for i, (run, run_points) in enumerate(runs.items()):  # the proposed algorithm, then its variants
            mine = {p.x: p for p in run_points if p.baseline == b}
            imp = np.array([100 * mine[x].improvement if x in mine else np.nan for x in xs])
            low = np.array([100 * mine[x].low if x in mine else np.nan for x in xs])
            high = np.array([100 * mine[x].high if x in mine else np.nan for x in xs])
            err = np.vstack([np.nan_to_num(np.maximum(imp - low, 0.0)), np.nan_to_num(np.maximum(high - imp, 0.0))])
            ax.errorbar(pos + 0.06 * i, imp, yerr=err, marker="os^v"[i % 4], capsize=3, color=f"C{i}",
                        label=f"{run if i else proposed} vs the baseline")
            better = [k for k, x in enumerate(xs) if x in mine and mine[x].verdict == "better"]
            ax.scatter(pos[better] + 0.06 * i, imp[better], s=60, facecolors="none", edgecolors="C2", zorder=3,
                       label="above (paired 95 %)" if i == 0 else None)
        ax.set_xticks(pos, xs)
        ax.set_xlabel(label(stored.x, family=stored.family), fontsize=8)
        ax.set_title(f"over {b}", fontsize=9)
        ax.set_ylabel(f"{measured} over the baseline (% change)", fontsize=8)
        ax.tick_params(labelsize=7)
    from matplotlib.lines import Line2D

    handles, labels = axes[0][0].get_legend_handles_labels()
    handles.append(Line2D([], [], color="0.3", marker="|", markersize=9, linestyle="none"))
    labels.append("bars: lowest to highest seed")
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=7, frameon=False)
    caption = clean_title(stored.title) or stored.name
    heading = f"{caption}: {proposed} against each baseline"
    fig.suptitle(textwrap.fill(heading, max(30, int(0.95 * width * 72 / (0.6 * 9)))), fontsize=9)
    rows = 1 + (len(handles) - 1) // 3
    fig.tight_layout(rect=(0, 0.04 + 0.045 * rows, 1, 1))  # room for the legend below; the suptitle's is its own
    return fig


def regime_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """``regime.svg`` (and ``.png``) under ``root``: :func:`regime_plot`'s figure; the PNG's path, or None."""
    from aisched.figures import _pyplot, atomic_save_figure

    fig = regime_plot(stored, table)
    if fig is None:
        return None
    paths = [root / "regime.svg", root / "regime.png"]
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "aisched", "svg.fonttype": "none"}):  # same ids every run, small
        for p in paths:
            atomic_save_figure(fig, p, dpi=100, metadata={"Date": None} if p.suffix == ".svg" else None)
    _pyplot().close(fig)
    return paths[1]
