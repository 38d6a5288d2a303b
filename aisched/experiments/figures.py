"""Figures of a comparison: objective by algorithm, and a price heatmap (node/edge/... x slot)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import xarray as xr

__all__ = ["welfare_bars", "price_heatmap", "save"]


def _pyplot():  # imported lazily: matplotlib is the optional `plot` extra
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("figures need matplotlib: pip install 'aisched[plot]'") from exc
    return plt


def save(fig, path: str | Path, dpi: int = 120) -> Path:
    """Lay out, write and close ``fig``; returns ``path``."""
    plt = _pyplot()
    path = Path(path)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def welfare_bars(
    table: pd.DataFrame, path: str | Path, *, title: str = "Social welfare", ylabel: str = "objective"
) -> Path:
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
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def price_heatmap(
    prices: xr.Dataset, path: str | Path, *, variable: str | None = "compute_price", title: str | None = None
) -> Path:
    """Heatmap of a 2-D price variable with a ``slot`` dim (``node x slot``, ``edge x slot``, ...).

    ``variable=None`` takes the first such variable of ``prices``.
    """
    plt = _pyplot()
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
    fig, ax = plt.subplots(figsize=(7, 3.6))
    mesh = ax.imshow(data.values, aspect="auto", origin="lower", cmap="viridis", interpolation="nearest")
    fig.colorbar(mesh, ax=ax, label=variable.replace("_", " "))
    ax.set_xlabel("slot")
    ax.set_ylabel(str(row))
    if data.sizes[row] <= 16:
        ax.set_yticks(range(data.sizes[row]))
    ax.set_title(title or f"final {variable.replace('_', ' ')} ({row} x slot)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
