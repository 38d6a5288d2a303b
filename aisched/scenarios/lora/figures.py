"""`lora` report figures (Figs. 10-11), drawn from a sweep's saved outcomes.

:data:`FIGURES` draws ``utility_vs_bid`` (Fig. 10: utility against bid for the
audited tasks) and ``payment_vs_bid`` (Fig. 11: bid against payment of admitted
tasks) from the cells' saved outcomes; the cells' own metrics are
:func:`aisched.scenarios.lora.metrics.cell_metrics`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["FIGURES", "utility_vs_bid_figure", "payment_vs_bid_figure"]


def _outcome_files(root: Path, algorithm: str = "pdftsp") -> list[Path]:
    return sorted((root / "outcomes").glob(f"p*-s*-{algorithm}.nc"))


def utility_vs_bid_figure(root: Path, definition: dict[str, Any], table: pd.DataFrame) -> Path | None:
    """Fig. 10: each audited task's utility against its bid (full re-runs), true value marked."""
    from aisched.experiments.figures import _pyplot, save
    from aisched.outcome import Outcome

    files = [f for f in _outcome_files(root) if "audit_curves" in Outcome.from_netcdf(f).info]
    if not files:
        return None
    curves = json.loads(Outcome.from_netcdf(files[0]).info["audit_curves"])
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.0, 4.0))
    for task, c in curves.items():
        order = np.argsort(c["bids"], kind="stable")
        bids, util = np.asarray(c["bids"])[order], np.asarray(c["utility"])[order]
        line = ax.plot(bids / c["value"], util / c["value"], marker=".", label=f"task {task}")[0]
        ax.axvline(1.0, color=line.get_color(), linewidth=0.5, linestyle=":")
    ax.set_xlabel("bid / true value")
    ax.set_ylabel("utility / true value")
    ax.set_title(f"pdFTSP truthfulness, full re-runs ({files[0].stem})", fontsize=9)
    ax.legend(fontsize=7)
    return save(fig, root / "utility_vs_bid.png")


def payment_vs_bid_figure(root: Path, definition: dict[str, Any], table: pd.DataFrame) -> Path | None:
    """Fig. 11: bid against payment of every admitted task of one cell, with payment = bid."""
    from aisched.experiments.figures import _pyplot, save
    from aisched.outcome import Outcome

    files = _outcome_files(root)
    if not files:
        return None
    outcome = Outcome.from_netcdf(files[0])
    if outcome.payments is None or "bid" not in outcome.plan:
        return None
    won = np.asarray(outcome.admitted, bool)
    bid, pay = outcome.plan["bid"].values[won], np.asarray(outcome.payments)[won]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.8, 4.2))
    ax.scatter(bid, pay, s=10, label="admitted task")
    top = float(max(bid.max(initial=0.0), pay.max(initial=0.0))) or 1.0
    ax.plot([0, top], [0, top], color="black", linewidth=0.8, linestyle="--", label="payment = bid")
    ax.set_xlabel("bid")
    ax.set_ylabel("payment")
    ax.set_title(f"pdFTSP individual rationality ({files[0].stem})", fontsize=9)
    ax.legend(fontsize=7)
    return save(fig, root / "payment_vs_bid.png")


#: Extra report figures of the lora family (``Scenario.figures``).
FIGURES = {"utility_vs_bid": utility_vs_bid_figure, "payment_vs_bid": payment_vs_bid_figure}
