"""The README runs: every Python block is executed, the TOML scenario validates, every CLI line parses.

The Python blocks run in order in one namespace, as a reader pastes them into
one session. CLI lines are parsed by aisched's own parser (each subcommand
and option the README names must exist); the quick ones (listing scenarios,
a reduced sweep and its report) are run.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

import aisched
from aisched import cli, registry
from aisched.experiments import catalog

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks(language: str) -> list[str]:
    """The fenced code blocks of the README in ``language`` ("" for unlabelled blocks)."""
    found: list[str] = []
    current: list[str] | None = None
    label = ""
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```") and current is None:
            current, label = [], line[3:].strip()
        elif line.startswith("```"):
            if label == language:
                found.append("\n".join(current) + "\n")
            current = None
        elif current is not None:
            current.append(line)
    return found


def cli_lines() -> list[str]:
    """Every line of an unlabelled block that starts with ``aisched `` (continuations joined)."""
    lines: list[str] = []
    for block in blocks(""):
        for raw in block.splitlines():
            if raw.startswith("aisched "):
                lines.append(raw)
            elif raw.startswith(" ") and lines and raw.strip().startswith("["):
                lines[-1] += " " + raw.strip()
    return [re.sub(r"\s#.*$", "", line).strip() for line in lines]


def _subparser(words: list[str]) -> tuple[object, list[str]]:
    parser = cli._parser()
    used = []
    for word in words:
        subs = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
        if not subs or word not in subs[0].choices:
            break
        parser = subs[0].choices[word]
        used.append(word)
    return parser, used


def test_python_blocks_run_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    code = blocks("python")
    assert len(code) >= 4
    # the README registers an example algorithm; keep it out of the other tests' registry
    monkeypatch.setitem(registry._ONLINE, "lora", dict(registry._ONLINE["lora"]))
    namespace: dict[str, object] = {}
    for block in code:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 (the README is ours)
    opt, result, welfare = namespace["opt"], namespace["result"], namespace["welfare"]
    assert opt.status == "optimal"
    # the "Extending a model" quota binds: fewer tasks, less welfare than the optimum
    assert int(namespace["plan"]["admitted"].sum()) <= 5 < int(opt.admitted.sum())
    assert welfare == pytest.approx(result.objective, rel=1e-6) and welfare < opt.objective - 1e-6
    assert "my_greedy" in aisched.algorithms("lora")


def test_toml_scenario_validates() -> None:
    (text,) = blocks("toml")
    scenario = catalog.from_mapping(tomllib.loads(text), source="README.md")
    assert scenario.name == "lora/my-scale" and scenario.params["pdftsp"] == {"selection": "exact"}


@pytest.mark.parametrize("line", cli_lines())
def test_every_cli_line_names_real_commands_and_options(line: str) -> None:
    words = shlex.split(line)[1:]
    parser, used = _subparser([w for w in words if not w.startswith(("-", "["))])
    assert used, f"{line!r}: no aisched subcommand"
    known = set(parser._option_string_actions)  # type: ignore[attr-defined]
    for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line):
        assert option in known, f"{line!r}: {option} is not an option of 'aisched {' '.join(used)}'"
    if "[" not in line and "..." not in line:  # a concrete command: it parses as written
        cli._parser().parse_args(words)


def test_quick_cli_lines_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quick = [line for line in cli_lines()  # `reproduce all --reduced` takes minutes: parsed above only
             if line == "aisched scenarios" or (line.startswith("aisched sweep") and "--reduced" in line)]
    assert quick, "the README shows a reduced sweep"
    for line in quick:
        words = [str(tmp_path) if w == "/tmp/quick" else w for w in shlex.split(line)[1:]]
        assert cli.main(words) == 0, line
    assert cli.main(["report", str(tmp_path)]) == 0
    assert "Claims:" in (tmp_path / "report.md").read_text()
    assert "lora/fig8-load" in capsys.readouterr().out
