"""Links from the reproduction page into the readings, ``docs/readings/``.

The readings are a folder of Markdown pages: one per family (``docs/readings/lora.md``,
``spot.md``, ``genai.md``, ``tenants.md``; the file's name is the family's), and
``index.md`` with the parts every family shares (the conventions, the calibration and
verdict definitions, the theorems). Every ``###`` section that a claim can point at
carries a key: its heading's first word, ended by a full stop (``### S3. Averaged
commitments ...`` has the key ``S3``; ``### A-bound. Certified ...`` has ``A-bound``);
no key appears in two files. A claim names the keys that explain its verdict in
:attr:`Claim.why <aisched.experiments.spec.scenario.Claim.why>`; the page links each one
beside a verdict that fails, is untestable on the workload or inconclusive, so a reader
goes from "fails" to the reading or finding behind it in one click.

The families' findings, measured statements about the papers that the reproduction page
prints in each family's summary (:attr:`ReadingIndex.findings`), are data, not prose:
``docs/readings/findings.toml``, an array of tables ``[[finding]]`` with ``family``,
``key``, ``text`` (Markdown) and ``reading`` (the key of the section that supports it,
or ``""``).

A single Markdown file is still accepted (the layout before the folder: ``## <family>
...`` sections holding the ``###`` ones); its findings come from a ``findings.toml``
beside it, if any.

The anchors are GitHub's: the heading in lower case, characters other than
letters, digits, ``-``, ``_`` and spaces dropped, spaces turned into ``-``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aisched import families as family_registry
from aisched.errors import InvalidScenarioError

__all__ = ["EXPLAINED_STATUSES", "FINDINGS", "ReadingIndex", "check_reading_keys", "heading_key", "read_findings",
           "reading_keys", "slug"]

#: The verdicts that get a "why" link: the ones a reader asks "why?" of.
EXPLAINED_STATUSES = ("fails", "untestable", "inconclusive")

#: The findings' file name, in the readings' folder.
FINDINGS = "findings.toml"


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading's text (without the ``#`` marks)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def heading_key(heading: str) -> str | None:
    """The key of a ``###`` heading's text: its first word when that ends with a full stop."""
    first = heading.strip().split(" ", 1)[0]
    return first[:-1] if len(first) > 1 and first.endswith(".") else None


def read_findings(path: Path) -> list[dict[str, str]]:
    """The ``[[finding]]`` tables of a findings file (``family``, ``key``, ``text``, ``reading``), in order.

    Raises :class:`~aisched.errors.InvalidScenarioError` naming the entry where one lacks a field or
    holds a value that is not a string.
    """
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    entries = data.get("finding", [])
    if not isinstance(entries, list):
        raise InvalidScenarioError(str(path), "'finding' is not an array of tables ([[finding]])")
    found = []
    for i, entry in enumerate(entries):
        row = {name: entry.get(name, "" if name == "reading" else None) for name in ("family", "key", "text", "reading")}
        bad = [name for name, value in row.items() if not isinstance(value, str)]
        if bad:
            raise InvalidScenarioError(f"{path}: finding[{i}]", f"{', '.join(bad)} missing or not a string")
        found.append(row)
    return found


@dataclass
class ReadingIndex:
    """The keyed sections of the readings, by key and by family, and the link prefix from a page.

    Attributes
    ----------
    link_base
        The readings' path relative to the page that links them: the folder's, ending in ``/``
        (``"readings/"`` for a page beside ``docs/readings``), or the single file's
        (``"readings.md"``); empty when none was given.
    sections
        key -> (family, anchor) of each keyed ``###`` section (family ``""`` on ``index.md``).
    files
        key or family -> the file that holds it, relative to ``link_base`` (``"spot.md"``);
        ``""`` for a single file.
    families
        family -> anchor of its heading (``""`` in a folder: the link is the family's file).
    findings
        family -> the texts of its findings (``findings.toml``), in the file's order.
    """

    link_base: str = ""
    sections: dict[str, tuple[str, str]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    families: dict[str, str] = field(default_factory=dict)
    findings: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path | str | None, link_base: str = "") -> ReadingIndex:
        """Index the readings at ``path``: the folder ``docs/readings`` or one Markdown file.

        An empty index where ``path`` is ``None`` or absent. In a folder every ``.md`` file is read
        (a registered family's name as the file's stem makes its sections that family's) and the
        findings come from ``findings.toml``; beside a single file, from a ``findings.toml`` next to it.
        """
        index = cls(link_base=link_base)
        if path is None:
            return index
        path = Path(path)
        if path.is_dir():
            registered = family_registry.names()
            for page in sorted(path.glob("*.md")):
                family = page.stem if page.stem in registered else ""
                if family:
                    index.families[family] = ""
                    index.files[family] = page.name
                index._read_page(page, family, page.name, registered)
            findings = path / FINDINGS
        elif path.is_file():
            index._read_page(path, "", "", family_registry.names())
            findings = path.parent / FINDINGS
        else:
            return index
        if findings.is_file():
            for entry in read_findings(findings):
                index.findings.setdefault(entry["family"], []).append(entry["text"])
        return index

    def _read_page(self, path: Path, family: str, name: str, registered: tuple[str, ...] | list[str]) -> None:
        """Add the keyed ``###`` sections of one page (a single file's ``## <family>`` sections set the family)."""
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("## ") and not name:
                word = line[3:].split()[0] if line[3:].split() else ""
                family = word if word in registered else ""
                if family:
                    self.families[family] = slug(line[3:])
                    self.files[family] = name
            elif line.startswith("### "):
                key = heading_key(line[4:])
                if key is not None and key not in self.sections:
                    self.sections[key] = (family, slug(line[4:]))
                    self.files[key] = name

    def link(self, name: str, anchor: str = "") -> str:
        """The address of the file holding ``name`` (a key or a family), with ``#anchor`` when given."""
        target = f"{self.link_base}{self.files.get(name, '')}"
        return f"{target}#{anchor}" if anchor else target

    def family_link(self, family: str) -> str:
        """``[readings: family](...)``, or the words saying the section is missing."""
        if family in self.families:
            return f"[readings: {family}]({self.link(family, self.families[family])})"
        return f"readings: {family} (no section found)"

    def why_text(self, keys: tuple[str, ...] | list[str], status: str, family: str) -> str:
        """What a verdict of ``status`` adds: the links of ``keys``, or that nothing explains it yet.

        Empty for a verdict that needs no explanation (holds, not checked).
        """
        if status not in EXPLAINED_STATUSES:
            return ""
        if not keys:
            return f" Why: no reading names this claim yet ({self.family_link(family)})."
        links = [f"[{key}]({self.link(key, self.sections[key][1])})" if key in self.sections
                 else f"{key} (no such section in the readings)" for key in keys]
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
                                       "(a heading's first word in docs/readings/, e.g. 'S3')")
