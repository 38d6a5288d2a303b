"""Links from the reproduction page into ``docs/readings.md``.

Every section of ``docs/readings.md`` that a claim can point at carries a key:
its heading's first word, ended by a full stop (``### S3. Averaged commitments
...`` has the key ``S3``; ``### A-bound. Certified ...`` has ``A-bound``). A
claim names the keys that explain its verdict in :attr:`Claim.why
<aisched.experiments.spec.scenario.Claim.why>`; the page links each one beside a
verdict that fails, is untestable on the workload or inconclusive, so a reader
goes from "fails" to the reading or finding behind it in one click.

A family's section may hold a findings section, a ``###`` heading whose key ends
in ``-findings`` (``### S-findings. ...``): its bullets are measured statements
about the paper that the reproduction page prints in its summary
(:attr:`ReadingIndex.findings`).

The anchors are GitHub's: the heading in lower case, characters other than
letters, digits, ``-``, ``_`` and spaces dropped, spaces turned into ``-``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aisched import families as family_registry
from aisched.errors import InvalidScenarioError

__all__ = ["EXPLAINED_STATUSES", "ReadingIndex", "check_reading_keys", "heading_key", "reading_keys", "slug"]

#: The verdicts that get a "why" link: the ones a reader asks "why?" of.
EXPLAINED_STATUSES = ("fails", "untestable", "inconclusive")


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading's text (without the ``#`` marks)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def heading_key(heading: str) -> str | None:
    """The key of a ``###`` heading's text: its first word when that ends with a full stop."""
    first = heading.strip().split(" ", 1)[0]
    return first[:-1] if len(first) > 1 and first.endswith(".") else None


@dataclass
class ReadingIndex:
    """The sections of one ``readings.md``, by key and by family, and the link prefix from a page.

    Attributes
    ----------
    link_base
        The readings file's path relative to the page that links it (``"readings.md"``
        for a page beside it); empty when no file was given.
    sections
        key -> (family, anchor) of each keyed ``###`` section.
    families
        family -> anchor of its ``## <family> ...`` section.
    findings
        family -> the bullets of its findings section (``### X-findings. ...``), one text each.
    """

    link_base: str = ""
    sections: dict[str, tuple[str, str]] = field(default_factory=dict)
    families: dict[str, str] = field(default_factory=dict)
    findings: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path | None, link_base: str = "") -> ReadingIndex:
        """Index the headings of ``path`` (an empty index where it is ``None`` or absent)."""
        index = cls(link_base=link_base)
        if path is None or not path.is_file():
            return index
        family = ""
        registered = family_registry.names()
        in_findings = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("## "):
                word = line[3:].split()[0] if line[3:].split() else ""
                family = word if word in registered else ""
                in_findings = False
                if family:
                    index.families[family] = slug(line[3:])
            elif line.startswith("### "):
                key = heading_key(line[4:])
                in_findings = bool(family and key and key.endswith("-findings"))
                if key is not None and key not in index.sections:
                    index.sections[key] = (family, slug(line[4:]))
            elif in_findings and line.startswith("- "):
                index.findings.setdefault(family, []).append(line[2:].strip())
            elif in_findings and line.startswith("  ") and line.strip() and index.findings.get(family):
                index.findings[family][-1] += " " + line.strip()  # a bullet's continuation line
        return index

    def family_link(self, family: str) -> str:
        """``[readings: family](...)``, or the words saying the section is missing."""
        if family in self.families:
            return f"[readings: {family}]({self.link_base}#{self.families[family]})"
        return f"readings: {family} (no section found)"

    def why_text(self, keys: tuple[str, ...] | list[str], status: str, family: str) -> str:
        """What a verdict of ``status`` adds: the links of ``keys``, or that nothing explains it yet.

        Empty for a verdict that needs no explanation (holds, not checked).
        """
        if status not in EXPLAINED_STATUSES:
            return ""
        if not keys:
            return f" Why: no reading names this claim yet ({self.family_link(family)})."
        links = [f"[{key}]({self.link_base}#{self.sections[key][1]})" if key in self.sections
                 else f"{key} (no such section in readings.md)" for key in keys]
        return " Why: " + ", ".join(links) + "."


def reading_keys(why: Any) -> Any:
    """``why`` as a tuple of keys: one key given as a string, a list read back from JSON or TOML.

    Anything else is left as it is, for :func:`check_reading_keys` to refuse by name.
    """
    if isinstance(why, str):
        return (why,)
    return tuple(why) if isinstance(why, (list, tuple)) else why


def check_reading_keys(why: Any, name: str, where: str) -> None:
    """Refuse ``why`` unless it is a tuple of readings' keys (a heading's first word: no spaces)."""
    if not isinstance(why, tuple):
        raise InvalidScenarioError(name, f"{where}= {why!r} is not a list of readings' keys")
    for j, key in enumerate(why):
        if not isinstance(key, str) or not key or any(ch.isspace() for ch in key):
            raise InvalidScenarioError(f"{name}[{j}]", f"{where}{key!r} is not a reading's key "
                                       "(a heading's first word in docs/readings.md, e.g. 'S3')")
