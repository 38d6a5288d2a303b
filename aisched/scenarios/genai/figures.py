"""`genai` figures: Fig. 3, the worked example of ranks (10), execution order and schedule options H."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from aisched import dag

__all__ = ["FIG3_MODELS", "LABELS", "fig3_example", "fig3_figure", "fig3_table"]

#: Words with units for the genai family's figure axes (:func:`aisched.figures.label`).
LABELS = {
    "objective": "profit (money units)",
    "slots": "time slots (5 s each)",
    "edges": "edge clouds",
    "capacity": "edge capacity",
    "arrival_rate": "jobs per slot (Poisson mean)",
    "term_weights": "weights of (8)'s terms",
    "competitive_ratio": "competitive ratio (optimum / ComDOS)",
}


# --- Fig. 3: the worked example of ranks (10), execution order and schedule options H -------------

#: Candidate models and runtimes of Fig. 3 (means 5, 3, 7, 4 as printed; the individual runtimes are ours).
FIG3_MODELS: dict[int, dict[str, int]] = {1: {"m0": 4, "m1": 6}, 2: {"m2": 3}, 3: {"m3": 6, "m4": 7, "m5": 8},
                                          4: {"m6": 3, "m7": 5}}


def fig3_example() -> Any:
    """Fig. 3's DAG: dummy entry 0, tasks 1-4, dummy exit 5; edges 1->2, 1->3, 2->4, 3->4.

    The figure prints ``rank(2) = f2 + f3 = 7``; ``f2 + f3 = 10``, while the printed 7 and the order
    (1, 3, 2, 4) need ``rank(2) = f2 + f4``, i.e. the edge 2 -> 4 (read as a typo).
    """
    g = dag.with_entry_exit(dag.from_edges([1, 2, 3, 4], [(1, 2), (1, 3), (2, 4), (3, 4)]), entry=0, exit=5)
    return g


def fig3_table(edges: int = 2) -> pd.DataFrame:
    """Fig. 3's table computed by :mod:`aisched.dag`: candidate models, mean runtime, rank (10), order, options.

    ``options`` is the task's factor of ``|H|`` (``edges x |M_ij|`` for a task with several
    children, else 1); ``|H|`` is their product.
    """
    g = fig3_example()
    mean = dag.mean_runtime({j: list(m.values()) for j, m in FIG3_MODELS.items()})
    rank = dag.ranks(g, mean)
    order = [j for j in dag.execution_order(g, mean) if j in FIG3_MODELS]
    multi = set(dag.multi_child_tasks(g))
    return pd.DataFrame({
        "task": list(FIG3_MODELS),
        "candidate_models": [", ".join(m) for m in FIG3_MODELS.values()],
        "mean_runtime": [mean[j] for j in FIG3_MODELS],
        "rank": [rank[j] for j in FIG3_MODELS],
        "order": [order.index(j) + 1 for j in FIG3_MODELS],
        "options": [edges * len(FIG3_MODELS[j]) if j in multi else 1 for j in FIG3_MODELS],
    })


def fig3_figure(path: str | Path, *, edges: int = 2, dpi: int = 120) -> Path:
    """Draw Fig. 3: the DAG with each task's rank (10) and execution order, and ``|H|`` in the title."""
    from aisched import figures

    g = fig3_example()
    table = fig3_table(edges).set_index("task")
    pos = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (2.0, 0.6), 3: (2.0, -0.6), 4: (3.0, 0.0), 5: (4.0, 0.0)}
    fig, ax = figures.subplots(width=7.0, height=3.2)
    for a, b in g.edges:
        ax.annotate("", xy=pos[b], xytext=pos[a], arrowprops={"arrowstyle": "->", "shrinkA": 14, "shrinkB": 14})
    for j, (x, y) in pos.items():
        dummy = j not in FIG3_MODELS
        ax.scatter([x], [y], s=900, c="lightgrey" if dummy else "lightsteelblue", edgecolors="black", zorder=3)
        ax.text(x, y, str(j), ha="center", va="center", zorder=4)
        if not dummy:
            row = table.loc[j]
            ax.text(x, y - 0.32, f"rank {row['rank']:g}\norder {row['order']}", ha="center", va="top", fontsize=8)
    size = int(np.prod(table["options"]))
    figures.style_axes(ax, title=f"Fig. 3: ranks (10), execution order, |H| = {size} with {edges} edges",
                       grid=False)
    ax.set_xlim(-0.5, 4.5)
    ax.set_ylim(-1.4, 1.0)
    ax.axis("off")
    return figures.save(fig, path, dpi=dpi)
