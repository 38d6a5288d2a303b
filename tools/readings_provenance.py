"""Keep the ``*Measured:*`` line of each section of the readings (``docs/readings/*.md``) dated.

The numbers quoted in the readings say which run they come from. Each ``###`` section with
measured figures (three or more lines holding a decimal, a percentage or a thousands-separated
number) carries, right under its heading, one line::

    *Measured:* 2026-11-23, 2026-11-28; reproduce: `aisched ...`; seeds and sizes as stated beside each figure.

the dates the figures were measured or last rewritten, and the command (or the ``aisched`` call)
that reproduces them; the seeds and sizes stand beside each figure in the text. The command is
written by hand. Run this from the repository root after editing a page
(``python tools/readings_provenance.py [FOLDER_OR_FILE]``): it refreshes the dates of every such
line from ``git blame -M -C -C`` (which follows lines moved between files; lines not yet committed
count as today), keeps the rest of the line, and lists the sections that lack a line or a
``reproduce:`` command (exit status 1 when there are any). ``tests/test_docs_links.py`` checks
that every such section has one.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

PATH = Path("docs/readings")
MARK = "*Measured:*"
NUMBER = re.compile(r"\d+\.\d+|\d+ ?%|\d{1,3}(?:,\d{3})+")
MIN_LINES = 3
#: A stamp: the mark, the dates, then "; reproduce: " and a command in backticks.
STAMP = re.compile(r"^\*Measured:\* (\d{4}-\d\d-\d\d(?:, \d{4}-\d\d-\d\d)*); reproduce: .*`[^`]+`")


def _blame(path: Path) -> list[str]:
    """The date of the commit that last wrote each line of ``path`` in the working tree (today if none)."""
    today = dt.date.today().isoformat()
    run = subprocess.run(["git", "blame", "-M", "-C", "-C", "--line-porcelain", str(path)],
                         capture_output=True, text=True)
    if run.returncode != 0:  # a file git does not know yet: every line is new
        return [today] * len(path.read_text(encoding="utf-8").split("\n"))
    dates: dict[str, str] = {}
    rows: list[str] = []
    commit = ""
    for line in run.stdout.split("\n"):
        head = re.match(r"^([0-9a-f]{40}) \d+ \d+", line)
        if head:
            commit = head.group(1)
        elif line.startswith("committer-time "):
            dates[commit] = dt.datetime.fromtimestamp(int(line.split()[1]), dt.timezone.utc).strftime("%Y-%m-%d")
        elif line.startswith("\t"):
            rows.append(today if set(commit) == {"0"} else dates[commit])
    return rows


def provenance_lines(lines: list[str], blame: list[str]) -> dict[int, str]:
    """Heading index -> the dates (``"2026-11-23, 2026-11-28"``) of the sections with measured figures."""
    heads = [i for i, line in enumerate(lines) if line.startswith("### ")]
    found: dict[int, str] = {}
    for n, head in enumerate(heads):
        end = heads[n + 1] if n + 1 < len(heads) else len(lines)
        end = next((k for k in range(head + 1, end) if lines[k].startswith(("## ", "# "))), end)
        numeric = [k for k in range(head + 1, end) if NUMBER.search(lines[k]) and not lines[k].startswith(MARK)]
        if len(numeric) < MIN_LINES:
            continue
        today = dt.date.today().isoformat()
        found[head] = ", ".join(sorted({blame[k] if k < len(blame) else today for k in numeric}))
    return found


def refresh(path: Path) -> list[str]:
    """Refresh the dates of ``path``'s stamps; the headings of the sections that lack a complete one."""
    lines = path.read_text(encoding="utf-8").split("\n")
    missing = []
    for head, dates in provenance_lines(lines, _blame(path)).items():
        stamp = lines[head + 2] if head + 2 < len(lines) and lines[head + 1] == "" else ""
        match = STAMP.match(stamp)
        if match is None:
            missing.append(f"{path.name}: {lines[head]}")
            continue
        written = sorted(set(match.group(1).split(", ")) | set(dates.split(", ")))
        lines[head + 2] = f"{MARK} {', '.join(written)}" + stamp[match.end(1):]
    path.write_text("\n".join(lines), encoding="utf-8")
    return missing


def main(path: Path = PATH) -> int:
    pages = sorted(path.glob("*.md")) if path.is_dir() else [path]
    missing = [line for page in pages for line in refresh(page)]
    for line in missing:
        print(f"no {MARK} line with a date and a 'reproduce:' command: {line}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else PATH))
