"""The calibration rendered: per family, the paper's baseline relations against ours (Markdown).

Read from ``<results root>/<family>/calibration.json`` (the declared grid under the paper's program as
printed), written by :func:`aisched.experiments.studies.calibrate.calibrate`; records under a reading
or a user's grid (``calibration-*.json``) are listed beside it, never read instead. Every number comes
with its 90 % interval over seeds; the headline rule's decision
(:func:`aisched.experiments.verdicts.headline.headline`) and the sentences under it
(:func:`~aisched.experiments.verdicts.headline.misfit_lines`) are the CLI's own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from aisched import families
from aisched.experiments.studies.calibrate import (
    SEED_SETS,
    _value,
    estimate_text,
    read_record,
    result_path,
)
from aisched.experiments.verdicts.headline import headline, misfit_lines, setting_text

__all__ = ["fidelity_lines", "headline_of"]


def headline_of(top: str | os.PathLike[str], family: str) -> dict[str, Any] | None:
    """The headline rule's decision for ``family`` under ``top`` (its JSON), or None: not calibrated."""
    record = read_record(result_path(top, family))
    return None if record is None else headline(record).to_json()


def _full_points(family: str) -> str:
    """``nodes 50, arrival_rate 50; nodes 100, arrival_rate 80`` (what the full-size points change)."""
    points = {}
    for t in families.record(family).regime_targets if family in families.names() else ():
        if t.full_at is not None:
            changed = ", ".join(f"{k} {v:g}" if isinstance(v, (int, float)) else f"{k} {v}"
                                for k, v in t.full_at.items() if t.at.get(k) != v)
            points[changed] = None
    return "; ".join(points) or "as declared"


def _beside(top: Path, family: str) -> list[str]:
    """The other calibration records of ``family`` (a reading, a user's grid): named, with their fit."""
    lines = []
    for path in sorted((top / family).glob("calibration-*.json")):
        record = read_record(path)
        if record is None:
            continue
        what = [f"at the paper's own sizes: {_full_points(family)}"] if record.get("full") else []
        if record.get("reading"):
            what.append("reading " + ", ".join(f"{k}={v}" for k, v in sorted(record["reading"].items())))
        if record.get("grid_override"):
            what.append("a user's grid (" + "; ".join(f"{k} = {', '.join(_value(v) for v in vs)}"
                                                     for k, vs in record["grid_override"].items()) + ")")
        outside = (record.get("stated") or {}).get("outside") or []
        conf = record.get("confirmation") or {}
        held, held_default = conf.get("fit") or [], conf.get("default") or []
        met = sum(1 for r in held if r["status"] == "met")
        met_default = sum(1 for r in held_default if r["status"] == "met")
        decision = headline(record)
        lines.append(f"- `{path.name}` ({', '.join(what) or 'another record'}), beside, not the headline: fit "
                     f"{setting_text(record['fit'])}; on {conf.get('seeds', '?')} held-out seeds the fit meets {met} "
                     f"of {len(held)} relations, the default {met_default}"
                     + (f"; leaves the paper's stated values ({'; '.join(outside)})" if outside else "")
                     + f"; the headline rule on this record alone: the {decision.regime} ({decision.reason}).")
    return lines


def fidelity_lines(top: str | os.PathLike[str], family_names: list[str]) -> list[str]:
    """Markdown: per family, the paper's baseline relations against ours, and which regime heads the page.

    Read from ``top/<family>/calibration.json`` (:func:`calibrate`); a family that declares regime targets
    but has no record under ``top`` reads "not calibrated", with the command.

    Raises
    ------
    InvalidScenarioError
        A record that is not a calibration record of this aisched's layout (naming the file).
    """
    lines: list[str] = []
    top = Path(top)
    for family in family_names:
        if family not in families.names() or not families.record(family).regime_targets:
            continue
        record_of = families.record(family)
        path = result_path(top, family)
        lines += [f"### {family}: regime fidelity", ""]
        data = read_record(path)
        if data is None:
            lines += [f"Not calibrated under this folder, so the default heads the page: `aisched calibrate "
                      f"{family} --out <this folder>` fits its {len(record_of.silent_parameters)} silent "
                      f"parameters to its {len(record_of.regime_targets)} regime targets.", ""]
            continue
        conf = data.get("confirmation") or {}
        seeds = data.get("seeds") or {}
        fit_seeds = (seeds.get("fit") or {}).get("seeds", "?")
        changed = [f"{k} = {_value(v)} (default {_value(data['default'].get(k))})"
                   for k, v in data["fit"].items() if v != data["default"].get(k)]
        decision = headline(data)
        lines += [f"**Headline regime: the {decision.regime}.** {decision.reason[0].upper()}{decision.reason[1:]}.",
                  "", f"The paper's relations among its baselines against ours (baselines only: "
                  f"{', '.join(data.get('baselines', []))}), each with its 90 % paired bootstrap interval over seeds "
                  f"and read as met (ours inside the band around the paper's value), missed (the whole interval "
                  f"outside) or undecided. Fitted on {fit_seeds} seeds a setting (seeds {SEED_SETS['fit']}+), refit "
                  f"on seeds {SEED_SETS['stability']}+, confirmed on {conf.get('seeds', '?')} held-out seeds "
                  f"({SEED_SETS['confirmation']}+); no figure uses these seeds. Fit: "
                  + ("; ".join(changed) if changed else "the default itself") + ".", ""]
        shared = {a: why for a, why in record_of.shared_code.items() if a in data.get("baselines", [])}
        lines += [f"Note: {a} {why}." for a, why in shared.items()] + ([""] if shared else [])
        lines += ["| relation | paper | band | default, held out | fit, fitting seeds | fit, held out |",
                  "|---|---|---|---|---|---|"]
        held = {r["name"]: r for r in conf.get("fit") or ()}
        held_default = {r["name"]: r for r in conf.get("default") or ()}
        for t in data["targets"]:
            ordering = t.get("kind") == "ordering"
            paper = "in this order" if ordering else f"{t['paper']:.3f}"
            band = "every gap > 0" if ordering else f"±{t['tolerance']:.3f}"
            lines.append(f"| {t['name']} | {paper} | {band} | {estimate_text(held_default.get(t['name']))} | "
                         f"{estimate_text(t['fit'])} | {estimate_text(held.get(t['name']))} |")
        lines += ["", *misfit_lines(data), ""]
        lines += [f"- ({c.key}) {c.label}: {'yes' if c.holds else 'no'}, {c.detail}" for c in decision.conditions]
        lines.append("")
        beside = _beside(top, family)
        if beside:
            lines += ["Other calibrations under this folder:", *beside, ""]
    return lines
