"""The page's two regimes, the default and the fit, and which one heads it.

The headline rule (:func:`aisched.experiments.verdicts.headline.headline`) reads the calibration record;
the claims' verdicts in each regime, at the same sizes and seeds, come from the regimes run
(``aisched sensitivity FAMILY --full --regimes``: ``sensitivity-full-regimes.json``, or the reduced
``sensitivity-regimes.json`` where only that was run). Where the fit heads a family's page, the
summary counts the fit's verdicts from that record and the figures' run (at the default) stays on the
page as the named regime "default"; where no regimes run is under the folder, the page says so and
counts the default's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aisched.experiments.pages.fidelity import headline_of
from aisched.experiments.pages.sensitivity import _swept_at, load_record
from aisched.experiments.studies.sensitivity import record_name

__all__ = ["Regimes", "regimes_of"]


@dataclass(frozen=True)
class Regimes:
    """One family's regimes on the page.

    Attributes
    ----------
    family
        The family.
    headline
        ``"default"`` or ``"fit"`` (the rule's decision), or ``"not calibrated"``.
    reason
        The rule's reason in words.
    verdicts
        ``(scenario, claim text) -> {"default": status, "fit": status}`` from the regimes run (empty: none).
    size
        Where the regimes run ran (``"full sizes, 3 seeds"``), or None.
    """

    family: str
    headline: str
    reason: str
    verdicts: Mapping[tuple[str, str], Mapping[str, str]] = field(default_factory=dict)
    size: str | None = None

    @property
    def fit_heads(self) -> bool:
        """Whether the fit heads the page and its verdicts are here to count."""
        return self.headline == "fit" and bool(self.verdicts)

    def counts(self, kinds: tuple[str, ...]) -> dict[str, int]:
        """The fit's verdicts counted per kind (the summary's row where the fit heads the page)."""
        out = {k: 0 for k in kinds}
        for row in self.verdicts.values():
            out[row["fit"]] = out.get(row["fit"], 0) + 1
        return out

    def line(self) -> str:
        """One sentence for the page's summary: which regime heads it, why, and what the counts are."""
        if self.headline == "not calibrated":
            return f"- {self.family}: not calibrated under this folder; the default heads the page."
        if self.headline == "default":
            return f"- {self.family}: the default heads the page ({self.reason})."
        if not self.verdicts:
            return (f"- {self.family}: the fit heads the page by the rule ({self.reason}), but no regimes run is "
                    f"under this folder (`aisched sensitivity {self.family} --full --regimes --out <this folder>`), "
                    "so the summary still counts the default's verdicts.")
        return (f"- {self.family}: the fit heads the page ({self.reason}); the summary counts the claims at the fit "
                f"({self.size}); the figures' run below is the named regime \"default\".")


def _record(top: Path, family: str) -> dict[str, Any] | None:
    """The regimes run's record, full sizes before reduced, checked by :func:`load_record`."""
    for full in (True, False):
        path = top / family / record_name(full, "all", regimes=True)
        if path.is_file():
            return load_record(top, family, path, ("--full " if full else "") + "--regimes ")
    return None


def regimes_of(top: str | os.PathLike[str], family: str) -> Regimes:
    """``family``'s regimes under ``top`` (module docstring)."""
    top = Path(top)
    decision = headline_of(top, family)
    if decision is None:
        return Regimes(family, "not calibrated", "no calibration record")
    data = _record(top, family)
    verdicts: dict[tuple[str, str], dict[str, str]] = {}
    if data is not None:
        for name, entry in data["scenarios"].items():
            for claim in entry["claims"]:
                by = claim["verdicts"]
                verdicts[(name, claim["text"])] = {"default": by["default"]["status"],
                                                   "fit": by.get("fit", by["default"])["status"]}
    return Regimes(family, decision["regime"], decision["reason"], verdicts,
                   None if data is None else _swept_at(data))
