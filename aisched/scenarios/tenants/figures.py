"""`tenants` report figures: fairness ratios per user (Fig. 7), revenue vs cost (Fig. 12), utilisation (Fig. 13)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from aisched.scenarios.tenants.generator import generate
from aisched.scenarios.tenants.metrics import gpu_utilisation

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["FIGURES", "LABELS", "alpha_bars", "alpha_figure", "revenue_cost_figure", "utilisation_figure"]

#: Words with units for the tenants family's figure axes (:func:`aisched.figures.label`).
LABELS = {
    "objective": "total revenue (money units)",
    "ratio": "ratio of total revenue to the offline optimum (or a bound on it)",
    "users": "tenants",
    "servers": "servers",
    "jobs": "jobs",
    "theta_scale": "price bases theta_w, theta_p (share of their values)",
    "alpha_variance": "variance of the revenue-fairness ratios alpha_u",
    "min_surplus": "least tenant surplus (money units)",
    "gpu_util_peak": "peak GPU utilisation (share)",
    "makespan": "makespan (slots)",
    "revenue_per_job": "revenue per admitted job (money units)",
    "decision_median_s": "median decision time per job (s)",
}


def alpha_bars(alphas: dict[str, np.ndarray], path: Path, *, title: str = "", dpi: int = 120) -> Path:
    """Grouped bars of each user's revenue-fairness ratio ``alpha_u`` per scheduler (Fig. 7)."""
    from aisched.figures import legend_outside, save, series_style, style_axes, subplots

    users = max(len(a) for a in alphas.values())
    fig, ax = subplots(width=max(6.4, 0.25 * users * len(alphas)), height=3.6)
    width = 0.8 / max(1, len(alphas))
    for k, (name, alpha) in enumerate(alphas.items()):
        ax.bar(np.arange(len(alpha)) + (k - (len(alphas) - 1) / 2) * width, alpha, width, label=name,
               color=series_style(k)["color"])
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--", label="alpha_u = 1 (fair)")
    ax.set_xticks(np.arange(users), [f"u{u}" for u in range(users)])
    style_axes(ax, title=title or "revenue-fairness ratio alpha_u per tenant and scheduler (Fig. 7)",
               xlabel="tenant u", ylabel="revenue-fairness ratio alpha_u")
    legend_outside(ax)
    return save(fig, path, dpi=dpi)


def alpha_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 7 in a sweep: :func:`alpha_bars` of the mean ``alpha_u`` over seeds at the last point."""
    columns = sorted((c for c in table.columns if re.fullmatch(r"alpha_u\d+", c)), key=lambda c: int(c[7:]))
    online = table[table["algorithm"] != "offline"]
    if not columns or online.empty:
        return None
    last = online[online["point"] == online["point"].max()]
    means = last.groupby("algorithm", sort=False)[columns].mean()
    title = f"{stored.title or stored.name} ({stored.x} = {last['x'].iloc[0]})"
    return alpha_bars({str(name): row.to_numpy(float) for name, row in means.iterrows()},
                      root / "alpha_per_user.png", title=title)


def revenue_cost_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 12: ideal revenue (``mu_j`` + cost) against resource cost of each job Astraea admitted."""
    from aisched.figures import COLORS, legend_outside, save, style_axes, subplots
    from aisched.outcome import Outcome

    files = sorted((root / "outcomes").glob("p*-s*-astraea.nc"))
    if not files:
        return None
    plan = Outcome.from_netcdf(files[-1]).plan
    keep = plan["admitted"].values & np.isfinite(plan["mu"].values)
    cost = (plan["worker_cost"].values + plan["ps_cost"].values)[keep]
    ideal = plan["mu"].values[keep] + cost
    fig, ax = subplots(width=5.6, height=4.2)
    ax.scatter(cost, ideal, s=12, color=COLORS[0], label="admitted job")
    top = float(max(ideal.max(initial=0.0), cost.max(initial=0.0))) or 1.0
    ax.plot([0, top], [0, top], color="black", linewidth=0.8, linestyle="--", label="revenue = cost")
    style_axes(ax, title=f"Astraea's admitted jobs ({files[-1].stem})",
               xlabel="resource cost c_w + c_p (money units)", ylabel="ideal revenue (money units)")
    legend_outside(ax)
    return save(fig, root / "revenue_vs_cost.png")


def utilisation_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 13: GPU utilisation per slot of each scheduler (last point, first seed), makespan marked."""
    from aisched.figures import legend_outside, save, series_style, style_axes, subplots
    from aisched.outcome import Outcome

    files = sorted((root / "outcomes").glob("p*-s*-*.nc"))
    if not files:
        return None
    cells = [(int(m.group(1)), int(m.group(2)), m.group(3), f) for f in files
             if (m := re.fullmatch(r"p(\d+)-s(\d+)-(.+)\.nc", f.name)) and m.group(3) != "offline"]
    if not cells:
        return None
    last = max(c[0] for c in cells)
    seed = min(c[1] for c in cells if c[0] == last)
    chosen = [(name, f) for p, s, name, f in cells if p == last and s == seed]
    base = dict(stored.base)
    if stored.x_target == "generator":
        base[stored.x] = stored.values[last]
    instance = generate(seed=seed, **base)
    fig, ax = subplots(width=7.0, height=3.6)
    for j, (name, f) in enumerate(chosen):
        plan = Outcome.from_netcdf(f).plan
        util = gpu_utilisation(instance, plan)
        admitted = plan["admitted"].values.astype(bool)
        end = int(plan["end"].values[admitted].max()) + 1 if admitted.any() else 0
        style = {**series_style(j), "marker": None}
        ax.plot(np.arange(util.size), 100.0 * util, linewidth=0.9, label=f"{name} (makespan {end})", **style)
        if end:
            ax.axvline(end, color=style["color"], linewidth=0.6, linestyle=":")
    ax.set_ylim(0, 105)
    style_axes(ax, title=f"{stored.title or stored.name} (seed {seed})", xlabel="time slot",
               ylabel="GPU utilisation (%)")
    legend_outside(ax)
    return save(fig, root / "gpu_utilisation.png")


#: Extra report figures of the tenants family (``Scenario.figures``).
FIGURES = {"alpha_per_user": alpha_figure, "revenue_vs_cost": revenue_cost_figure,
           "gpu_utilisation": utilisation_figure}
