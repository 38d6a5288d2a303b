"""`lora` report figures (Figs. 10-11), drawn from a sweep's saved outcomes.

:data:`FIGURES` draws ``utility_vs_bid`` (Fig. 10: utility against bid for the
audited tasks) and ``payment_vs_bid`` (Fig. 11: bid against payment of admitted
tasks) from the cells' saved outcomes; the cells' own metrics are
:func:`aisched.scenarios.lora.metrics.cell_metrics`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["FIGURES", "LABELS", "utility_vs_bid_figure", "payment_vs_bid_figure"]

#: Words with units for the lora family's figure axes (:func:`aisched.figures.label`).
LABELS = {
    "objective": "social welfare (money units)",
    "nodes": "compute nodes",
    "vendors": "labour vendors",
    "arrival_rate": "tasks per slot (Poisson mean)",
    "deadline": "deadline method",
    "gpu_mix": "GPU types",
    "trace": "arrival trace",
    "misreport_gain": "utility gain from misreporting (money units)",
    "payment_to_bid": "payment / bid",
    "decision_median_s": "median decision time per task (s)",
}


def _outcome_files(root: Path, algorithm: str = "pdftsp") -> list[Path]:
    return sorted((root / "outcomes").glob(f"p*-s*-{algorithm}.nc"))


def utility_vs_bid_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 10: each audited task's utility against its bid (full re-runs), true value marked."""
    from aisched.figures import legend_outside, save, series_style, style_axes, subplots
    from aisched.outcome import Outcome

    files = [f for f in _outcome_files(root) if "audit_curves" in Outcome.from_netcdf(f).info]
    if not files:
        return None
    curves = json.loads(Outcome.from_netcdf(files[0]).info["audit_curves"])
    fig, ax = subplots(width=5.6, height=4.0)
    for j, (task, c) in enumerate(curves.items()):
        order = np.argsort(c["bids"], kind="stable")
        bids, util = np.asarray(c["bids"])[order], np.asarray(c["utility"])[order]
        ax.plot(bids / c["value"], util / c["value"], markersize=3, label=f"task {task}", **series_style(j))
    ax.axvline(1.0, color="black", linewidth=0.6, linestyle=":", label="truthful bid")
    style_axes(ax, title=f"pdFTSP truthfulness, full re-runs ({files[0].stem})", xlabel="bid / true value",
               ylabel="utility / true value")
    legend_outside(ax)
    return save(fig, root / "utility_vs_bid.png")


def payment_vs_bid_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 11: bid against payment of every admitted task of one cell, with payment = bid."""
    from aisched.figures import COLORS, legend_outside, save, style_axes, subplots
    from aisched.outcome import Outcome

    files = _outcome_files(root)
    if not files:
        return None
    outcome = Outcome.from_netcdf(files[0])
    if outcome.payments is None or "bid" not in outcome.plan:
        return None
    won = np.asarray(outcome.admitted, bool)
    bid, pay = outcome.plan["bid"].values[won], np.asarray(outcome.payments)[won]
    fig, ax = subplots(width=5.6, height=4.2)
    ax.scatter(bid, pay, s=10, color=COLORS[0], label="admitted task")
    top = float(max(bid.max(initial=0.0), pay.max(initial=0.0))) or 1.0
    ax.plot([0, top], [0, top], color="black", linewidth=0.8, linestyle="--", label="payment = bid")
    style_axes(ax, title=f"pdFTSP individual rationality ({files[0].stem})", xlabel="bid (money units)",
               ylabel="payment (money units)")
    legend_outside(ax)
    return save(fig, root / "payment_vs_bid.png")


#: Extra report figures of the lora family (``Scenario.figures``).
FIGURES = {"utility_vs_bid": utility_vs_bid_figure, "payment_vs_bid": payment_vs_bid_figure}
