"""The calibration rendered: per family, the paper's baseline relations against ours (Markdown).

Read from ``<results root>/<family>/calibration.json``, written by
:func:`aisched.experiments.studies.calibrate.calibrate`; the reproduction page shows these lines.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.studies.calibrate import _value

__all__ = ["fidelity_lines"]


def _order(pairs_out_of_order: float) -> str:
    """An ordering target's value in words: ``in this order`` or how many pairs are out of it."""
    if math.isnan(pairs_out_of_order):
        return "not measured"
    n = int(round(pairs_out_of_order))
    return "in this order" if n == 0 else f"{n} pair{'s' if n != 1 else ''} out of order"


def fidelity_lines(top: str | os.PathLike[str], family_names: list[str]) -> list[str]:
    """Markdown: per family, the paper's baseline relations against ours at the default and at the fit.

    Read from ``top/<family>/calibration.json`` (:func:`calibrate`); a family that declares regime targets
    but was not calibrated under ``top`` says so, with the command.
    """
    lines: list[str] = []
    for family in family_names:
        if family not in families.names() or not families.record(family).regime_targets:
            continue
        path = Path(top) / family / "calibration.json"
        lines += [f"### {family}: regime fidelity", ""]
        if not path.is_file():
            lines += [f"Not calibrated under this folder: `aisched calibrate {family} --out <this folder>` "
                      f"fits its {len(families.record(family).silent_parameters)} silent parameters to its "
                      f"{len(families.record(family).regime_targets)} regime targets.", ""]
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            targets, fit, default = data["targets"], data["fit"], data["default"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InvalidScenarioError("calibration", f"{path} is not a calibration record ({exc})") from None
        changed = [f"{k} = {_value(v)} (default {_value(default.get(k))})" for k, v in fit.items() if v != default.get(k)]
        lines += [f"The paper's relations among its baselines against ours ({data.get('seeds', '?')} seeds a setting, "
                  f"baselines only: {', '.join(data.get('baselines', []))}). Fit: "
                  + ("; ".join(changed) if changed else "the default itself") + ".", "",
                  "| relation | paper | ours at the default | residual | ours at the fit | residual | met at the fit |",
                  "|---|---|---|---|---|---|---|"]
        orderings = {t["name"] for t in targets if math.isnan(t["paper"])}  # an ordering has no paper number
        for t in targets:
            if t["name"] in orderings:  # ours: how many pairs are out of the paper's order (0 meets it)
                lines.append(f"| {t['name']} | in this order | {_order(t['default'])} | | {_order(t['fit'])} | | "
                             f"{'yes' if t['met_at_fit'] else 'no'} |")
                continue
            lines.append(f"| {t['name']} | {t['paper']:.3f} | {t['default']:.3f} | {t['default'] - t['paper']:+.3f} | "
                         f"{t['fit']:.3f} | {t['fit'] - t['paper']:+.3f} | {'yes' if t['met_at_fit'] else 'no'} |")
        lines.append("")
        if data.get("fit_meets_all"):
            lines.append("The fit meets every relation (within 0.05, or 15 % where that is tighter).")
        else:
            lines.append("The fit does not meet every relation, so the scenarios keep the default; "
                         "the closest each comes on its own:")
            lines += [f"- {t['name']}: {_order(t['closest']) if t['name'] in orderings else format(t['closest'], '.3f')} at "
                      + ", ".join(f"{k} = {_value(v)}" for k, v in t["closest_setting"].items())
                      + ("" if t["meetable"] else " (no setting in the range meets it)") for t in targets]
        lines.append("")
    return lines
