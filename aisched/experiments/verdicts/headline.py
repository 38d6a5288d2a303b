"""Which regime heads a family's page, the default or the fit: one rule, in code.

:func:`headline` reads a calibration record (``calibration.json``, written by
:func:`aisched.experiments.studies.calibrate.calibrate`) and names the regime whose verdicts the
page leads with. The fit heads the page only where all four hold:

(a) **confirmed**: every target the fit meets on the fitting seeds is also met on the held-out
    confirmation seeds (seeds no figure and no fit uses);
(b) **stable**: a refit on a second, disjoint seed set picks the same setting or a grid neighbour
    (:func:`aisched.experiments.verdicts.fit.neighbours`);
(c) **the paper's stated values kept**: no parameter of the fit leaves the range the paper states
    (``SilentParameter.stated``; a grid that does is a named reading, recorded as such);
(d) **much closer**: on the held-out seeds, the fit's score is at least :data:`SCORE_FACTOR` times
    lower than the default's (the score of :func:`aisched.experiments.verdicts.fit.score`).

Otherwise, and where the fit *is* the default, the default heads the page; the other regime keeps
its verdicts beside it as a named regime. :func:`misfit_lines` are the sentences both the CLI and the
page print under a calibration (one text, so the two never disagree).

Nothing here reads the proposed algorithm, a claim or a verdict.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["SCORE_FACTOR", "Condition", "Headline", "headline", "misfit_lines", "setting_text"]

#: How much lower than the default's the fit's held-out score must be for the fit to head the page.
SCORE_FACTOR = 10.0


@dataclass(frozen=True)
class Condition:
    """One condition of the rule: its letter, whether it holds, and why in words."""

    key: str
    label: str
    holds: bool
    detail: str


@dataclass(frozen=True)
class Headline:
    """The regime heading a family's page and the conditions that chose it."""

    family: str
    regime: Literal["fit", "default"]
    conditions: tuple[Condition, ...]
    reason: str

    def text(self) -> str:
        """``lora: the default heads the page: the fit is not confirmed (...)``."""
        return f"{self.family}: the {self.regime} heads the page: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        """A plain record (for the page's verdict record)."""
        return {"family": self.family, "regime": self.regime, "reason": self.reason,
                "conditions": [{"key": c.key, "label": c.label, "holds": c.holds, "detail": c.detail}
                               for c in self.conditions]}


def setting_text(setting: Mapping[str, Any]) -> str:
    """``value = 120, up.gpus = (own)``."""
    return ", ".join(f"{k} = {'(own)' if v is None else format(v, 'g')}" for k, v in setting.items()) or "(none)"


def _statuses(rows: Any) -> dict[str, str]:
    return {row["name"]: row["status"] for row in rows or ()}


def headline(record: Mapping[str, Any]) -> Headline:
    """The regime that heads ``record``'s family page (module docstring).

    Parameters
    ----------
    record
        A calibration record (the JSON of :meth:`aisched.experiments.studies.calibrate.Calibration.to_json`).
    """
    family = str(record.get("family", "?"))
    fit, default = record.get("fit") or {}, record.get("default") or {}
    confirmation = record.get("confirmation") or {}
    at_fit_seeds = _statuses(record.get("fit_estimates"))
    held_out = _statuses(confirmation.get("fit"))
    met_then = [name for name, status in at_fit_seeds.items() if status == "met"]
    lost = [f"{name} ({held_out.get(name, 'not measured')})" for name in met_then if held_out.get(name) != "met"]
    n_held = confirmation.get("seeds") or 0
    a = Condition("a", "confirmed on held-out seeds", bool(met_then) and not lost and bool(held_out),
                  (f"{len(met_then)} target(s) met on the fitting seeds, all met again on {n_held} held-out seeds"
                   if met_then and not lost and held_out else
                   "the fit meets no target on the fitting seeds" if not met_then else
                   f"not met on {n_held} held-out seeds: " + "; ".join(lost)))
    stability = record.get("stability") or {}
    stable = bool(stability.get("same_or_neighbour"))
    b = Condition("b", "stable on a second seed set", stable,
                  ("a refit on seeds " + str(stability.get("first_seed", "?")) + "+ picks "
                   + ("the same setting" if stability.get("fit") == fit else
                      f"a grid neighbour ({setting_text(stability.get('fit') or {})})" if stable else
                      f"another setting ({setting_text(stability.get('fit') or {})})")) if stability
                  else "no refit recorded")
    outside = list((record.get("stated") or {}).get("outside") or [])
    c = Condition("c", "keeps the paper's stated values", not outside,
                  "every parameter inside the range the paper states" if not outside else
                  "leaves the paper's stated range: " + "; ".join(outside))
    s_default, s_fit = confirmation.get("score_default"), confirmation.get("score_fit")
    if isinstance(s_default, (int, float)) and isinstance(s_fit, (int, float)) and math.isfinite(s_default):
        much = s_fit * SCORE_FACTOR <= s_default
        d_detail = f"held-out score {s_default:.3g} at the default, {s_fit:.3g} at the fit " + (
            f"(at least {SCORE_FACTOR:g}x lower)" if much else f"(needs {SCORE_FACTOR:g}x lower)")
    else:
        much, d_detail = False, "no held-out score recorded"
    d = Condition("d", f"score at least {SCORE_FACTOR:g}x lower", much, d_detail)
    conditions = (a, b, c, d)
    if fit == default:
        return Headline(family, "default", conditions, "the fit is the default itself")
    failed = [cond for cond in conditions if not cond.holds]
    if not failed:
        return Headline(family, "fit", conditions, "; ".join(f"({x.key}) {x.detail}" for x in conditions))
    return Headline(family, "default", conditions,
                    "; ".join(f"({x.key}) not {x.label}: {x.detail}" for x in failed))


def _number(value: Any) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def misfit_lines(record: Mapping[str, Any]) -> list[str]:
    """The sentences under a calibration, the same in ``aisched calibrate`` and on the page.

    What the fit meets on the held-out seeds (with intervals), whether some setting meets every target
    but another scores better, and each target no setting meets (the closest, its interval and where).
    """
    lines = []
    held = (record.get("confirmation") or {}).get("fit") or []
    n_held = (record.get("confirmation") or {}).get("seeds") or 0
    counts = {s: sum(1 for r in held if r["status"] == s) for s in ("met", "missed", "undecided")}
    if held:
        lines.append(f"On {n_held} held-out seeds the fit meets {counts['met']} of {len(held)} relations "
                     f"({counts['missed']} missed, {counts['undecided']} undecided at 90 % intervals).")
    grid = record.get("grid") or []
    meets_all = [row for row in grid if row.get("estimates") and all(e["status"] == "met" for e in row["estimates"])]
    if record.get("fit_meets_all"):
        lines.append("The fit meets every relation on the fitting seeds.")
    elif meets_all:
        lines.append("A setting meets every relation on the fitting seeds, but another scores better: "
                     + setting_text(meets_all[0]["setting"]) + ".")
    else:
        lines.append("No setting in the range meets every relation at once; the fit is the closest.")
    for t in record.get("targets") or []:
        if not t.get("meetable", True):
            closest = t.get("closest") or {}
            lines.append(f"No setting in the range meets {t['name']!r}: closest {_number(closest.get('estimate'))} "
                         f"[{_number(closest.get('low'))}, {_number(closest.get('high'))}] (paper "
                         f"{_number(t.get('paper')) if t.get('paper') is not None else 'an order'}) at "
                         f"{setting_text(t.get('closest_setting') or {})}.")
    return lines
