"""The "Theorems" section of a family's page, rendered from ``theorems.json`` records (``aisched theorems``).

Records only: this module runs nothing. For each family with a record under a results root
it lists each guarantee with its verdict over the instances tried, the smallest margin and
the instance that gave it, and -- from the paper's scenarios at reduced size -- the bound on
the paper's setting beside the measured value, so that a reader sees how far the empirical
ratios sit from the theorem's bound.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

__all__ = ["read_records", "theorem_section", "theorem_lines"]

#: The record file ``aisched theorems --out DIR`` writes.
RECORD = "theorems.json"


def read_records(directory: str | Path) -> dict[str, dict[str, Any]]:
    """``family -> record`` of every ``theorems.json`` under ``directory`` (the newest file per family)."""
    found: dict[str, tuple[float, dict[str, Any]]] = {}
    for path in sorted(Path(directory).glob(f"**/{RECORD}")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        family = record.get("family")
        if not isinstance(family, str) or not isinstance(record.get("theorems"), list):
            continue
        stamp = path.stat().st_mtime
        if family not in found or stamp > found[family][0]:
            found[family] = (stamp, {**record, "path": str(path)})
    return {family: record for family, (_, record) in found.items()}


def _num(value: Any) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    return f"{value:.4g}" if isinstance(value, (int, float)) else str(value)


def _span(values: list[float]) -> str:
    finite = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if not finite:
        return "n/a"
    lo, hi = min(finite), max(finite)
    return _num(lo) if math.isclose(lo, hi, rel_tol=1e-9) else f"{_num(lo)} .. {_num(hi)}"


def theorem_section(record: dict[str, Any]) -> list[str]:
    """Markdown lines of one family's "Theorems" section."""
    family = record["family"]
    lines = [f"## {family}: theorems", "",
             f"Each guarantee of the paper checked by `aisched theorems {family}` (budget {record.get('budget')}, "
             f"seed {record.get('seed')}, {record.get('seconds', '?')} s): on the paper's scenarios at reduced "
             "size, on hand-made cases, on random small instances and on local moves that lower each margin. "
             "A margin >= 0 means the guarantee holds; instances that break a premise are counted, not "
             "candidates for the worst case. See docs/theorems.md.", "",
             "| guarantee | verdict | tried (premise broken) | smallest margin | worst instance | "
             "bound on the paper's scenarios | measured there |",
             "|---|---|---|---|---|---|---|"]
    paper: dict[str, list[dict[str, Any]]] = {}
    for row in record.get("paper", []):
        paper.setdefault(row["theorem"], []).append(row)
    for row in record["theorems"]:
        rows = paper.get(row["theorem"], [])
        bounds = _span([r.get("bound") for r in rows]) if rows else "not run"
        measured = _span([r.get("measured") for r in rows]) if rows else "not run"
        exact = {r.get("exact") for r in rows}
        if rows and exact != {"exact"}:
            measured += f" ({', '.join(sorted(str(e) for e in exact))})"
        margin = "n/a" if row.get("smallest_margin") is None else f"{_num(row['smallest_margin'])} {row.get('unit', '')}"
        lines.append(f"| {row['theorem']} | {row['verdict']} | {row['tried']} ({row.get('premise_fails', 0)}) | "
                     f"{margin} | {row.get('worst_source') or 'n/a'} | {bounds} | {measured} |")
    lines.append("")
    for row in record["theorems"]:
        worst = row.get("worst") or {}
        if row["verdict"] == "violated":
            lines.append(f"- **{row['theorem']} violated**: {worst.get('detail', '')} (instance "
                         f"`{row.get('worst_instance')}`, re-run: `aisched theorems {family} --instance FILE`).")
    lines.append("")
    return lines


def theorem_lines(directory: str | Path, families: list[str] | None = None) -> list[str]:
    """The "Theorems" sections of ``families`` (default all) found under ``directory``; [] when none."""
    records = read_records(directory)
    out: list[str] = []
    for family in sorted(records):
        if families is None or family in families:
            out += theorem_section(records[family])
    return out
