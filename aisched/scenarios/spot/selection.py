"""Policy-selection scenarios of the `spot` family (Figs. 9-10 of the spot-market paper).

A "selection" scenario (:data:`aisched.experiments.spec.catalog.KINDS`) runs
Algorithm 2 (:func:`aisched.online.spot.select`) over a policy pool on the
paper's workload; the scenario's "algorithms" name pools of :data:`POOLS`.
:func:`selection_cell` is one sweep cell; :data:`FIGURES` draws the
convergence curves (Fig. 9) and the policy-weight heatmap (Fig. 10) from the
cells' netCDF files.

Choices where the paper is silent:

- Fig. 9 fixes "individual hyperparameters in the policy pool, which consists
  of 105 AHAP policies (e.g., fixing v = 1 or sigma = 0.9)": pools
  ``"ahap"`` (105), ``"ahap-v1"`` (35: v = 1), ``"ahap-sigma0.9"`` (15) and
  ``"ahap-w1"`` (7: w = 1), beside the full ``"paper"`` pool (112, with AHANP).
- Fig. 10's four phases (jobs 0-800 Fixed-Mag. + Uniform 10%, 800-1600
  Fixed-Mag. + Heavy-Tail 30%, 1600-2400 Fixed-Mag. + Uniform 50%, 2400-3600
  "increase the noise to 200%") are :data:`PHASES` ``"fig10"``; the last
  phase keeps Fixed-Mag. + Uniform (the paper names no type).
- A cell's ``objective`` is the mean raw utility (9) of the policies
  Algorithm 2 selected, per job; ``best_fixed`` the mean utility of the best
  fixed policy in hindsight; ``regret`` is in normalised utilities, beside
  ``regret_bound = sqrt(2 K ln M)``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import xarray as xr

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.scenarios.spot.generator import NOISE_SETTINGS, predictor, workload

if TYPE_CHECKING:
    from aisched.experiments.store.stored import StoredScenario

__all__ = ["FIGURES", "PHASES", "POOLS", "policy_weight_heatmap", "pool_members", "selection_cell"]


#: Named policy pools (a selection scenario's "algorithms"): which members of
#: :func:`~aisched.online.spot.paper_pool` each keeps.
POOLS: dict[str, Callable[[Any], bool]] = {
    "paper": lambda p: True,
    "ahap": lambda p: p.algorithm == "ahap",
    "ahap-v1": lambda p: p.algorithm == "ahap" and p.commitment == 1,
    "ahap-sigma0.9": lambda p: p.algorithm == "ahap" and abs(p.threshold - 0.9) < 1e-9,
    "ahap-w1": lambda p: p.algorithm == "ahap" and p.window == 1,
}


def pool_members(name: str) -> list[Any]:
    """The policies of the named pool (sizes: paper 112, ahap 105, ahap-v1 35, ahap-sigma0.9 15, ahap-w1 7)."""
    from aisched.online.spot import paper_pool

    one_of("pool", name, tuple(POOLS))
    return [p for p in paper_pool() if POOLS[name](p)]


#: Named non-stationary runs: ``(jobs, noise setting, error)`` per phase.
PHASES: dict[str, tuple[tuple[int, str, float], ...]] = {
    "fig10": ((800, "fixed-uniform", 0.1), (800, "fixed-heavy", 0.3), (800, "fixed-uniform", 0.5),
              (1200, "fixed-uniform", 2.0)),
    "fig10-small": ((12, "fixed-uniform", 0.1), (12, "fixed-heavy", 0.3), (12, "fixed-uniform", 0.5),
                    (12, "fixed-uniform", 2.0)),
}


def selection_cell(
    *, seed: int, pool: str, jobs: int | None = None, deadline: int = 10, market: str = "synthetic",
    noise: str = "fixed-uniform", error: float = 0.1, phases: str | None = None, choice: str = "sample",
) -> tuple[dict[str, Any], xr.Dataset]:
    """One run of Algorithm 2: the pool ``pool`` on ``jobs`` jobs of the paper's workload.

    Parameters
    ----------
    seed
        Seeds the workload, the forecasts and the sampled choices.
    pool
        A key of :data:`POOLS`.
    jobs
        Workload size K (default 1000; with ``phases``, their total).
    deadline, market
        Of :func:`aisched.scenarios.spot.workload`.
    noise, error
        The prediction-noise setting (``aisched.scenarios.spot.generator.NOISE_SETTINGS``) and level.
    phases
        A key of :data:`PHASES`: a non-stationary run (``noise``/``error`` are then unused).
    choice
        "sample" or "greedy" (see :func:`aisched.online.spot.select`).

    Returns
    -------
    (dict, xarray.Dataset)
        The table fields (objective, best_fixed, regret, regret_bound, ...) and
        the weights, utilities, chosen policy and running means per job.
    """
    from aisched.online.spot import select

    members = pool_members(pool)
    one_of("noise", noise, NOISE_SETTINGS)
    if phases is not None:
        one_of("phases", phases, tuple(PHASES))
    plan = PHASES[phases] if phases is not None else None
    total = sum(n for n, _, _ in plan) if plan else 1000
    if jobs is not None and jobs != total and plan:
        raise InvalidScenarioError("jobs", f"= {jobs}, but phases {phases!r} cover {total} jobs")
    K = total if jobs is None else int(jobs)
    work = workload(seed=seed, jobs=K, deadline=deadline, market=market)
    if plan:
        res = select(work, members, phases=[(n, predictor(kind, err, seed)) for n, kind, err in plan],
                     seed=seed, choice=choice)
    else:
        res = select(work, members, predictor(noise, error, seed), seed=seed, choice=choice)
    u = res.utility.values
    steps = np.arange(1, K + 1)
    data = res.weights.to_dataset()
    data["utility"] = res.utility
    data["chosen"] = ("job", res.chosen.astype(np.int64))
    data["realised"] = ("job", res.realised)
    data["running_mean"] = ("job", np.cumsum(res.realised) / steps)
    data["best_fixed_running_mean"] = ("job", np.cumsum(u[:, res.best_policy]) / steps)
    data.attrs.update(pool=pool, regret=res.regret, regret_bound=res.regret_bound, eta=res.eta,
                      best_policy=res.policy_names[res.best_policy],
                      phase_starts=np.cumsum([0] + [n for n, _, _ in plan])[:-1] if plan else np.array([0]))
    fields = {
        "objective": float(res.realised.mean()), "status": "selection", "bound": float("nan"),
        "admitted": K, "runtime_s": float(sum(v for k, v in res.info.items() if k.endswith("_s"))),
        "decision_median_s": float("nan"), "best_fixed": float(u[:, res.best_policy].mean()),
        "regret": res.regret, "regret_bound": res.regret_bound,
        "regret_to_bound": float(res.regret / res.regret_bound) if res.regret_bound > 0 else float("nan"),
        "regret_within_bound": bool(res.regret <= res.regret_bound + 1e-9),
        "best_policy": res.policy_names[res.best_policy], "final_top_policy": res.policy_names[res.most_weighted],
        "policies": len(members), "jobs": K,
    }
    return fields, data


def policy_weight_heatmap(weights: xr.DataArray, path: Path, *, title: str,
                          phase_starts: Any = None) -> Path:
    """Heatmap of ``weights`` (job x policy, policies indexed 1..M as in Fig. 10); phases as lines."""
    from aisched.figures import save, style_axes, subplots

    fig, ax = subplots(width=7.0, height=4.0)
    M = weights.sizes["policy"]
    mesh = ax.imshow(weights.values.T, aspect="auto", origin="lower", cmap="viridis", interpolation="nearest",
                     extent=(0, weights.sizes["job"], 0.5, M + 0.5))
    fig.colorbar(mesh, ax=ax, label="policy weight (probability)")
    for start in np.asarray(phase_starts if phase_starts is not None else [])[1:]:
        ax.axvline(float(start), color="white", linestyle="--", linewidth=1)
    style_axes(ax, title=title, xlabel="job (iteration k)", ylabel="policy index", grid=False)
    return save(fig, path)


def _cells(root: Path, table: pd.DataFrame) -> list[tuple[pd.Series, Path]]:
    rows = table.sort_values(["point", "seed", "algorithm"])
    out = []
    for _, r in rows.iterrows():
        nc = root / "outcomes" / f"p{int(r['point']):03d}-s{int(r['seed']):03d}-{r['algorithm']}.nc"
        if nc.is_file():
            out.append((r, nc))
    return out


def convergence_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 9: running mean utility of Algorithm 2's choices per job, one panel per point.

    Solid: Algorithm 2 (mean over seeds); dotted: the best fixed policy in hindsight.
    """
    from aisched.figures import COLORS, clean_title, legend_outside, save, style_axes, subplots

    found = _cells(root, table)
    if not found:
        return None
    labels = list(stored.labels)
    fig, axes = subplots(1, len(labels), width=3.2 * len(labels), height=3.4, squeeze=False, sharey=True)
    colours = COLORS
    pools = list(dict.fromkeys(table["algorithm"]))
    for p, label in enumerate(labels):
        ax = axes[0, p]
        for i, pool in enumerate(pools):
            runs = [xr.open_dataset(nc).load() for r, nc in found if int(r["point"]) == p and r["algorithm"] == pool]
            if not runs:
                continue
            colour = colours[i % len(colours)]
            ax.plot(np.mean([d["running_mean"].values for d in runs], axis=0), color=colour, label=pool)
            ax.plot(np.mean([d["best_fixed_running_mean"].values for d in runs], axis=0), color=colour,
                    linestyle=":")
        style_axes(ax, title=f"{stored.x} = {label}", xlabel="job k")
    style_axes(axes[0, 0], ylabel="mean utility of jobs 1..k (money units)")
    legend_outside(axes[0, -1])
    title = clean_title(stored.title or stored.name) + " (dotted: best fixed policy)"
    fig.suptitle(textwrap.fill(title, int(14 * 3.2 * len(labels))), fontsize=10)
    return save(fig, root / "convergence.png")


def weights_figure(root: Path, stored: StoredScenario, table: pd.DataFrame) -> Path | None:
    """Fig. 10: the policy weights of the first cell (lowest point, seed and pool name)."""
    found = _cells(root, table)
    if not found:
        return None
    row, nc = found[0]
    with xr.open_dataset(nc) as data:
        data = data.load()
    return policy_weight_heatmap(
        data["weight"], root / "policy_weights.png", phase_starts=data.attrs.get("phase_starts"),
        title=f"Algorithm 2 policy weights: pool {row['algorithm']}, {stored.x} = {row['x']}, "
              f"seed {int(row['seed'])}")


#: Extra report figures of the spot family (``Scenario.figures``).
FIGURES: dict[str, Callable[[Path, StoredScenario, pd.DataFrame], Path | None]] = {
    "convergence": convergence_figure,
    "policy_weights": weights_figure,
}
