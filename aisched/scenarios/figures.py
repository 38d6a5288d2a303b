"""Figures of a comparison: welfare by algorithm, and a dual-price heatmap (node x slot)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import xarray as xr

__all__ = ["welfare_bars", "price_heatmap"]


def _pyplot():  # imported lazily: matplotlib is the optional `plot` extra
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("figures need matplotlib: pip install 'aisched[plot]'") from exc
    return plt


def welfare_bars(table: pd.DataFrame, path: str | Path, *, title: str = "Social welfare") -> Path:
    """Bar chart of ``table["objective"]`` by algorithm, the offline optimum (or bound) as a line."""
    plt = _pyplot()
    path = Path(path)
    online = table.drop(index="offline", errors="ignore")
    fig, ax = plt.subplots(figsize=(6, 3.6))
    bars = ax.bar(online.index, online["objective"], color="#4C72B0")
    ax.bar_label(bars, fmt="%.4g", fontsize=8)
    if "offline" in table.index:
        ref = table.loc["offline"]
        label = "offline optimum" if ref["status"] == "optimal" else f"offline ({ref['status']})"
        ax.axhline(ref["objective"], color="#C44E52", linestyle="--", label=label)
        ax.legend(loc="lower right", fontsize=8)
    ax.set_ylabel("social welfare")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def price_heatmap(
    prices: xr.Dataset, path: str | Path, *, variable: str = "compute_price", title: str | None = None
) -> Path:
    """Heatmap of a (node, slot) price variable."""
    plt = _pyplot()
    path = Path(path)
    data = prices[variable].transpose("node", "slot")
    fig, ax = plt.subplots(figsize=(7, 3.6))
    mesh = ax.imshow(data.values, aspect="auto", origin="lower", cmap="viridis", interpolation="nearest")
    fig.colorbar(mesh, ax=ax, label=variable.replace("_", " "))
    ax.set_xlabel("slot")
    ax.set_ylabel("node")
    if data.sizes["node"] <= 16:
        ax.set_yticks(range(data.sizes["node"]))
    ax.set_title(title or f"final {variable.replace('_', ' ')} (node x slot)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
