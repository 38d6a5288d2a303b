"""Write the ``*Measured:*`` line of each section of ``docs/readings.md`` from ``git blame``.

The numbers quoted in ``docs/readings.md`` say which run they
come from. Each ``###`` section with measured figures (three or more lines holding
a decimal, a percentage or a thousands-separated number) gets, right under its
heading, one line naming the date and the commits that last wrote those lines
(lines not yet committed are "this change"); the seeds and sizes stand beside
each figure in the text. Run it from the repository root after editing the page
(``python tools/readings_provenance.py``); it replaces the lines it wrote before.
``tests/test_docs_links.py`` checks that every such section has one.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

PATH = Path("docs/readings.md")
MARK = "*Measured:*"
NUMBER = re.compile(r"\d+\.\d+|\d+ ?%|\d{1,3}(?:,\d{3})+")
MIN_LINES = 3


def _blame(path: Path) -> list[tuple[str, str]]:
    """(commit, date) of each line of ``path`` in the working tree."""
    text = subprocess.run(["git", "blame", "--line-porcelain", str(path)], capture_output=True, text=True,
                          check=True).stdout
    dates: dict[str, str] = {}
    rows: list[tuple[str, str]] = []
    commit = ""
    for line in text.split("\n"):
        head = re.match(r"^([0-9a-f]{40}) \d+ \d+", line)
        if head:
            commit = head.group(1)
        elif line.startswith("committer-time "):
            dates[commit] = dt.datetime.fromtimestamp(int(line.split()[1]), dt.timezone.utc).strftime("%Y-%m-%d")
        elif line.startswith("\t"):
            rows.append(("this change", dt.date.today().isoformat()) if set(commit) == {"0"}
                        else (commit[:7], dates[commit]))
    return rows


def provenance_lines(lines: list[str], blame: list[tuple[str, str]]) -> dict[int, str]:
    """Heading index -> its ``*Measured:*`` line, for the sections with measured figures."""
    heads = [i for i, line in enumerate(lines) if line.startswith("### ")]
    found: dict[int, str] = {}
    for n, head in enumerate(heads):
        end = heads[n + 1] if n + 1 < len(heads) else len(lines)
        end = next((k for k in range(head + 1, end) if lines[k].startswith("## ")), end)
        numeric = [k for k in range(head + 1, end) if NUMBER.search(lines[k]) and not lines[k].startswith(MARK)]
        if len(numeric) < MIN_LINES:
            continue
        by_date: dict[str, set[str]] = {}
        for k in numeric:
            commit, date = blame[k] if k < len(blame) else ("this change", dt.date.today().isoformat())
            by_date.setdefault(date, set()).add(commit)
        written = "; ".join(f"{d} ({', '.join(sorted(by_date[d]))})" for d in sorted(by_date))
        found[head] = (f"{MARK} the figures in this section were last written {written} (date, commits); "
                       "seeds and sizes as stated beside each figure.")
    return found


def main(path: Path = PATH) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    found = provenance_lines(lines, _blame(path))
    for head in sorted(found, reverse=True):
        if head + 2 < len(lines) and lines[head + 1] == "" and lines[head + 2].startswith(MARK):
            lines[head + 2] = found[head]
        else:
            lines[head + 1:head + 1] = ["", found[head]]
    path.write_text("\n".join(lines), encoding="utf-8")
    print(f"{len(found)} sections carry a {MARK} line")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else PATH))
