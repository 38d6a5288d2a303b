"""The sensitivity records rendered: per claim, the fit's verdict and the sensitivity, and the page's summary.

:func:`aisched.experiments.studies.sensitivity.sensitivity` runs the claims across the silent
range and keeps every verdict in its records (``sensitivity*.json``); this module reads them
for the reproduction page: :func:`page_entries` (per scenario and claim) and
:func:`summary_lines` (Markdown, per family).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from aisched.errors import InvalidScenarioError
from aisched.experiments.studies.calibrate import read_record, reading_label, result_path
from aisched.experiments.studies.sensitivity import calibration_identity, record_name

__all__ = ["load_record", "page_entries", "summary_lines"]


#: The run modes, smallest first: a later mode's verdict on a claim is the one the page shows.
_MODES = ((False, "all"), (False, "claims"), (True, "all"), (True, "claims"))


def load_record(top: Path, family: str, path: Path, flags: str = "") -> dict[str, Any]:
    """One sensitivity record, checked: it has its scenarios and ran the fit of the calibration the page
    shows (:func:`_same_calibration`); otherwise one :class:`InvalidScenarioError` naming the file and the
    command (``aisched sensitivity FAMILY FLAGS--out TOP``) that writes it anew."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        data["scenarios"]  # noqa: B018  (the required field)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidScenarioError("sensitivity", f"{path} is not a sensitivity record ({exc}); "
                                   f"rerun `aisched sensitivity {family} {flags}--out {top}`") from None
    if data.get("reading") or not flags.startswith("--reading"):
        _same_calibration(top, family, path, data)
    return data


def _records(top: Path, family: str) -> list[dict[str, Any]]:
    """Every sensitivity record of ``family`` under ``top``, smallest run mode first (:data:`_MODES`)."""
    found = []
    for full, points in _MODES:
        path = top / family / record_name(full, points)
        if path.is_file():
            flags = ("--full " if full else "") + ("--points claims " if points == "claims" else "")
            found.append(load_record(top, family, path, flags))
    return found


def _same_calibration(top: Path, family: str, path: Path, data: Mapping[str, Any]) -> None:
    """Refuse a sensitivity record whose fit is not the calibration the page shows (another fit or grid,
    a calibration made since, or one removed), naming both files."""
    calibration_path = result_path(top, family, data.get("reading"))
    now = calibration_identity(calibration_path, read_record(calibration_path))
    then = data.get("calibration")
    if now == then:
        return
    if then is None:
        why = "it ran before the family was calibrated"
    elif now is None:
        why = "it ran the fit of a calibration that is no longer there"
    else:
        why = "it ran the fit of another calibration: another fit, grid or run"
    raise InvalidScenarioError("sensitivity", f"{path} does not match {calibration_path} ({why}): the page does "
                               f"not combine records of different fits; rerun `aisched sensitivity {family} --out "
                               f"{top}` (with the same options) after the calibration")


def _reading_records(top: Path, family: str) -> list[dict[str, Any]]:
    """The records of runs under a reading (``sensitivity*-gpus=4.json``), smallest run mode first."""
    found = [data for path in sorted((top / family).glob("sensitivity*=*.json"))
             if (data := load_record(top, family, path, "--reading ... ")).get("reading")]
    rank = {mode: i for i, mode in enumerate(_MODES)}
    return sorted(found, key=lambda d: (rank.get((bool(d.get("full")), d.get("points", "all")), 0),
                                        reading_label(d["reading"])))


def _swept_at(data: Mapping[str, Any]) -> str:
    """Where a record's runs were: ``"full sizes at the claims' points, 3 seeds"`` and the like."""
    points = " at the claims' points" if data.get("points") == "claims" else ""
    under = f", under {reading_label(data['reading'])}" if data.get("reading") else ""
    return f"{'full' if data.get('full') else 'reduced'} sizes{points}, {data.get('seeds', '?')} seeds{under}"


def page_entries(top: str | os.PathLike[str], family_names: Sequence[str]) -> dict[tuple[str, str], dict[str, Any]]:
    """``(scenario name, claim text) -> {"fit": status or None, "sensitivity": text, "size": words}``.

    Where several run modes checked a claim, the largest one that checked it at the default wins (a
    reduced run reports a claim at a point it lacks as "not checked"; the paper's sizes then speak).
    Runs under a reading (``sensitivity(reading=...)``) never replace those: they go, per reading label,
    to the entry's ``"readings"`` (the same fields), the largest run mode that checked the claim winning
    (an entry swept only under a reading has ``"sensitivity"`` None).
    """
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for family in family_names:
        for data in _records(Path(top), family):
            size = _swept_at(data)
            for name, entry in data["scenarios"].items():
                for claim in entry["claims"]:
                    default = claim["verdicts"]["default"]["status"]
                    if default == "not checked" and (name, claim["text"]) in out:
                        continue
                    fit = claim["verdicts"].get("fit")
                    out[(name, claim["text"])] = {"fit": None if fit is None else fit["status"],
                                                  "default": default, "sensitivity": claim["sensitivity"],
                                                  "size": size}
        for data in _reading_records(Path(top), family):
            label, size = reading_label(data["reading"]), _swept_at(data)
            for name, entry in data["scenarios"].items():
                for claim in entry["claims"]:
                    default = claim["verdicts"]["default"]["status"]
                    row = out.setdefault((name, claim["text"]), {"fit": None, "default": None, "sensitivity": None,
                                                                 "size": None})
                    readings = row.setdefault("readings", {})
                    if default == "not checked" and label in readings:
                        continue
                    fit = claim["verdicts"].get("fit")
                    readings[label] = {"fit": None if fit is None else fit["status"], "default": default,
                                       "sensitivity": claim["sensitivity"], "size": size}
    return out


def summary_lines(top: str | os.PathLike[str], family_names: Sequence[str]) -> list[str]:
    """Markdown: per family, the claims' verdicts at the default and the fit, and by sensitivity."""
    from aisched.experiments.verdicts.stats import VERDICTS

    rows = []
    for family, data in ((f, d) for f in family_names
                         for d in (*_records(Path(top), f), *_reading_records(Path(top), f))):
        claims = [c for e in data["scenarios"].values() for c in e["claims"]]
        default = {k: sum(c["verdicts"]["default"]["status"] == k for c in claims) for k in VERDICTS}
        has_fit = any("fit" in c["verdicts"] for c in claims)
        fit = {k: sum(c["verdicts"].get("fit", c["verdicts"]["default"])["status"] == k for c in claims)
               for k in VERDICTS}
        same = {k: sum(c["category"] == f"{k} everywhere" for c in claims) for k in VERDICTS}
        depends = sum(c["category"] == "depends" for c in claims)
        counts = "/".join(str(default[k]) for k in VERDICTS)
        fit_counts = ("/".join(str(fit[k]) for k in VERDICTS) if has_fit else
                      "not calibrated" if data.get("calibration") is None else "the fit is the default")
        same_text = ", ".join(f"{n} {k}" for k, n in same.items() if n) or "none"
        rows.append(f"| {family} | {len(claims)} | {len(data['design'])} | {_swept_at(data)} | {counts} | "
                    f"{fit_counts} | {same_text} | {depends} |")
    if not rows:
        return []
    return ["## Sensitivity to the silent parameters", "",
            "Every claim rerun at the default, at the fit and at each value of each silent parameter's grid "
            "in turn, the others at their default (`aisched sensitivity FAMILY`; "
            "`aisched.experiments.sensitivity`). Counts are hold/fail/inconclusive/untestable/not checked at the "
            "sizes swept (which may differ from the figures' own run below); a run at the claims' points "
            "(`--points claims`) checks only the claims made at a point. Where a claim was swept at several "
            "sizes, its lines below give the largest that checked it.", "",
            "| family | claims | settings | swept at | at the default | at the fit | same verdict at every setting "
            "| verdict depends on a silent value |", "|---|---|---|---|---|---|---|---|", *rows, ""]
