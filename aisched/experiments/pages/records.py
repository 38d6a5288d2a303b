"""Verdict records: what a reproduction run found, per family, in one small JSON file a page is rendered from.

:func:`build` reads the sweeps under a results root (an ``aisched reproduce`` run, its calibration,
sensitivity, regimes and theorems records) and returns one record per family; :func:`write_records`
stores them (``docs/records/<family>.json`` in the repository) and :func:`read_records` reads them back.
Nothing here renders a page: :mod:`aisched.experiments.pages.render` turns records into the family
pages and the index, and nothing else, so a page is always the same function of a committed record.

A record holds

- ``run``: what was run (per ``aisched reproduce`` record: the command, seeds, date, commit, wall
  time, cells added and kept), and the folder it came from (its name only, never a machine path);
- ``summary``: the counts of the five verdicts in the headline regime, Holm's count, the regime and why;
- ``claims``: one entry per claim: scenario, claim, the paper's number, ours, the interval behind the
  verdict, the verdict, a one-phrase reason (:func:`reason`), the readings that explain it, and the
  verdict at the fit and across the silent range where those were run;
- ``figures``: the figure files (paths relative to the page) with their scenario;
- ``findings``: the family's measured findings (from ``docs/readings/findings.toml``, not from prose);
- ``sections``: the details a reader digs into (fidelity, sensitivity, variants, time budget,
  theorems, per figure), as Markdown lines made from the same run.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from aisched._files import atomic_write_text
from aisched.experiments.pages.report import ClaimCheck

__all__ = ["SCHEMA", "interval_text", "read_records", "reason", "record_path", "write_records"]

#: The records' layout version; a renderer refuses a record of another.
SCHEMA = 1

_INTERVAL = re.compile(r"([\d.]+) % t interval \[([^\]]+)\], (\d+) seeds")
_SEEDS = re.compile(r"at (\d+) seed\(s\)")


def interval_text(check: ClaimCheck) -> str:
    """The interval the verdict rests on, short: ``"diff. [-4.36e+06, +1.80e+06] (95 %, 3 seeds)"``.

    Only a claim decided on one paired interval (an improvement at one point) has one; a claim over
    several points or pairs names them in its details.
    """
    found = _INTERVAL.search(check.detail)
    if found is None:
        return ""
    level, bounds, seeds = found.groups()
    return f"difference [{bounds}] ({level} %, {seeds} seeds)"


def reason(check: ClaimCheck, silent: str | None = None) -> str:
    """One phrase on why a claim reads as it does, for the glance table.

    ``silent`` is the claim's verdicts across the silent range (``"fails wherever the text allows"``):
    a claim that reads the same at every silent value says so; where the verdict depends on a silent
    value, the glance table's own column says where.
    """
    status, claim = check.status, check.claim
    if status == "holds":
        if silent == "holds wherever the text allows":
            return "holds at every silent value"
        head = ("the paired intervals exclude 0" if claim.kind in ("improvement", "better_than", "best")
                else "the means move as the paper says")
        return head
    if status == "fails":
        if silent == "fails wherever the text allows":
            return "fails at every silent value"
        if claim.kind == "improvement" and claim.value is not None:
            head = f"ours {check.measured:+.1%} against the paper's {claim.value:+.1%}"
        elif check.detail.startswith("worse"):
            where = check.detail.split(" at ", 1)[-1]
            head = f"worse at {where}" if len(where) < 60 else "worse at several points"
        else:
            head = "the means move the other way"
        return head
    if status == "inconclusive":
        found = _SEEDS.search(check.detail)
        seeds = found.group(1) if found else "the"
        return f"{seeds} seeds do not separate them"
    if status == "untestable":
        room = re.search(r"the optimum is (?:at most )?([+-][\d.]+%)", check.headroom)
        if claim.kind == "improvement" and claim.value is not None and room:
            kind = "a bound on the optimum" if "bound" in check.headroom else "the optimum"
            return f"{kind} leaves {room.group(1)}, the claim needs {claim.value:+.1%}"
        if "within the seeds' noise" in check.detail:
            return f"the optimum is within the seeds' noise of {claim.baseline}"
        return "no headroom to test it"
    return check.detail.split(":", 1)[0].strip().rstrip(";,") if check.detail else "not run"


def record_path(directory: str | os.PathLike[str], family: str) -> Path:
    """Where ``family``'s record lives under a records folder."""
    return Path(directory) / f"{family}.json"


def write_records(records: dict[str, dict[str, Any]], directory: str | os.PathLike[str]) -> list[Path]:
    """Write each record to ``directory/<family>.json`` (atomically; sorted keys, so a diff reads)."""
    out = []
    for family, record in records.items():
        path = record_path(directory, family)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        out.append(path)
    return out


def read_records(directory: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """``family -> record`` of every ``*.json`` record under ``directory``, in the families' order.

    Raises
    ------
    InvalidScenarioError
        A file that is not a record of this schema (naming the file and the field).
    """
    from aisched import families as family_records
    from aisched.errors import InvalidScenarioError

    found: dict[str, dict[str, Any]] = {}
    for path in sorted(Path(directory).glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InvalidScenarioError(str(path), f"is not a JSON verdict record ({exc})") from None
        if not isinstance(record, dict) or record.get("schema") != SCHEMA:
            got = record.get("schema") if isinstance(record, dict) else type(record).__name__
            raise InvalidScenarioError(f"{path.name}: schema", f"= {got!r}, this aisched reads schema {SCHEMA}")
        found[str(record["family"])] = record
    order = {name: i for i, name in enumerate(family_records.names())}
    return dict(sorted(found.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))
