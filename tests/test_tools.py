"""The maintainers' scripts under tools/: they parse, and every aisched command they run is one the CLI accepts."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from aisched import cli

TOOLS = Path(__file__).resolve().parents[1] / "tools"
#: Sample values for the script's variables (what a call of the script would give them).
VALUES = {"$aisched": "aisched", "$root": "results", "$seeds": "3", "$family": "genai", "$max_seeds": "20"}


def _commands(script: Path) -> list[list[str]]:
    """Each ``"$aisched" ...`` line of ``script`` as the words the CLI gets, the variables filled in."""
    out = []
    for line in script.read_text(encoding="utf-8").splitlines():
        words = shlex.split(line.strip(), comments=True)
        if not words or words[0] != "$aisched":
            continue
        out.append([VALUES.get(w, w.replace("$family", "genai")) for w in words[1:]])
    return out


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_regenerate_pages_parses_and_runs_only_commands_the_cli_accepts() -> None:
    script = TOOLS / "regenerate_pages.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    commands = _commands(script)
    assert [c[0] for c in commands] == ["reproduce", "reproduce", "calibrate", "sensitivity", "sensitivity",
                                        "sensitivity", "report", "pages"]
    parser = cli._parser()
    for words in commands:
        args = parser.parse_args(words)  # an unknown option or choice exits 2 here
        assert args.command == words[0]
    auto = parser.parse_args(commands[1])  # seeds added where a claim is undecided, on the same root
    assert auto.seeds == "auto" and auto.max_seeds == 20 and str(auto.out) == commands[0][commands[0].index("--out") + 1]
    regimes = parser.parse_args(commands[4])  # where the fit heads a page: both regimes at the figures' sizes, seeds
    assert regimes.full and regimes.regimes and regimes.seeds == 3 and regimes.points == "all"
    full = parser.parse_args(commands[5])
    assert full.full and full.points == "claims"
    page = parser.parse_args(commands[6])  # every family's record and page, and the index, from the one root
    assert page.family is None and page.reproduction == Path("docs/reproduction.md")
    assert page.readings == Path("docs/readings")
    rendered = parser.parse_args(commands[7])  # the pages again from the records alone, with the claims page
    assert rendered.records == Path("docs/records") and rendered.claims == Path("docs/claims.md")
