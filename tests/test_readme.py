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
from aisched import cli
from aisched.experiments.spec import catalog

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


def test_python_blocks_run_in_order(own_algorithms) -> None:
    code = blocks("python")
    assert len(code) >= 4
    # the README registers an example algorithm; keep it out of the other tests' registry
    own_algorithms("lora")
    namespace: dict[str, object] = {}
    for block in code:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 (the README is ours)
    inst, table, opt = namespace["inst"], namespace["table"], namespace["opt"]
    # the quick start is `make run`'s day, with the reference labelled as the solve ended
    assert inst == aisched.scenarios.lora.default_instance()
    assert set(table["reference"]) == {"optimum" if opt.status == "optimal" else "bound"}
    # the audit (Fig. 10): declined below its payment, and no bid beats the truthful one
    fig10 = namespace["fig10"]
    assert list(fig10["admitted"]) == [False, True, True]
    assert fig10["utility"].iloc[0] == 0 and fig10["utility"].iloc[1] == fig10["utility"].max() > 0
    assert fig10["payment"].iloc[1] == fig10["payment"].iloc[2] < fig10["bid"].iloc[1]
    assert bool(namespace["fig11"]["rational"].all())
    # the "Extending a model" quota binds: fewer tasks, less welfare than the optimum
    best, result, welfare = namespace["best"], namespace["result"], namespace["welfare"]
    assert best.status == "optimal"
    assert int(namespace["plan"]["admitted"].sum()) <= 5 < int(best.admitted.sum()) == 14
    assert welfare == pytest.approx(result.objective, rel=1e-6) and welfare < best.objective - 1e-6
    # the registered example runs in the default comparison, after the paper's algorithms
    mine = namespace["mine"]
    assert list(mine.index) == ["offline", "pdftsp", "titan", "eft", "ntm", "eft_positive"]
    assert mine.loc["eft_positive", "objective"] >= mine.loc["eft", "objective"] - 1e-6  # only declines losers
    assert "eft_positive" in aisched.algorithms("lora")


def _make_run_block() -> list[str]:
    (block,) = [b for b in blocks("") if b.startswith("lora scenario:")]
    return block.splitlines()


def test_make_run_output_is_what_the_default_gives() -> None:
    """The online rows of `make run`'s table (deterministic) and its arithmetic; run times are measured."""
    from aisched.scenarios.lora import cli as lora_cli
    from aisched.scenarios.lora.defaults import DEFAULT_SCENARIO

    lines = _make_run_block()
    inst = aisched.scenarios.lora.default_instance()
    assert lines[0] == (f"lora scenario: {inst.num_tasks} tasks, {inst.num_nodes} nodes ({DEFAULT_SCENARIO['gpu_mix']}), "
                        f"{inst.num_slots} slots, {inst.num_vendors} vendors, seed {DEFAULT_SCENARIO['seed']}")
    text = README.read_text(encoding="utf-8")
    assert (f"({inst.num_tasks} tasks on {inst.num_nodes} GPU nodes over {inst.num_slots} ten-minute slots, "
            f"{inst.num_vendors} labour vendors)") in " ".join(text.split())
    assert f"gives HiGHS {lora_cli.CLI_TIME_LIMIT:g} s" in " ".join(text.split())
    rows = {line.split()[0]: line.split() for line in lines[3:-1] if line.split()[0] in
            ("offline", "pdftsp", "titan", "eft", "ntm")}
    bound = float(re.search(r"proven bound ([\d.]+)", lines[-1]).group(1))
    incumbent = float(re.search(r"incumbent ([\d.]+)", lines[-1]).group(1))
    assert float(rows["offline"][1]) == incumbent and incumbent <= bound
    gap = 100 * (bound - incumbent) / bound
    assert f"incumbent and bound {gap:.1f} % apart" in " ".join(text.split())
    for name in ("pdftsp", "titan", "eft", "ntm"):
        outcome = aisched.run(name, inst)
        assert float(rows[name][1]) == pytest.approx(outcome.objective, abs=0.006), name
        assert int(rows[name][3]) == outcome.num_admitted, name
        assert float(rows[name][2]) == pytest.approx(outcome.objective / bound, abs=0.0006), name


def _records() -> dict[str, dict]:
    from aisched.experiments.pages.records import read_records

    return read_records(README.parent / "docs" / "records")


def test_the_papers_table_counts_the_claims_of_the_verdict_records() -> None:
    """The README's counts per paper are the headline regime's, read from the committed records (the pages'
    only source, tests/test_docs_pages.py), never copied from a page."""
    from aisched.experiments.verdicts.stats import VERDICTS

    rows, fit = {}, {}
    for line in README.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `(\w+)` \|.*\| (\d+) / (\d+) / (\d+) / (\d+) / (\d+)( \(at the fit\))? \|$", line)
        if found:
            rows[found.group(1)] = [int(g) for g in found.groups()[1:6]]
            fit[found.group(1)] = found.group(7) is not None
    records = _records()
    assert list(rows) == list(records) == ["lora", "spot", "genai", "tenants"]
    for family, record in records.items():
        summary = record["summary"]
        assert rows[family] == [summary["counts"][k] for k in VERDICTS], family
        assert fit[family] == (summary["regime"] == "fit"), family  # "(at the fit)" exactly where the fit heads
    text = " ".join(README.read_text(encoding="utf-8").split())
    stated = re.findall(r"(\w+) (?:reads )?(\d+) / (\d+) / (\d+) / (\d+) / (\d+)(?=[ ,:;.]|$)", text.split(
        "At the default", 1)[1].split(":", 1)[0])  # "At the default spot reads 12 / 10 / ... and genai 1 / 9 / ..."
    assert sorted(f for f, *_ in stated) == sorted(f for f, r in records.items() if r["summary"]["regime"] == "fit")
    for family, *counts in stated:
        assert [int(c) for c in counts] == [records[family]["summary"]["default_counts"][k] for k in VERDICTS]


def test_the_other_numbers_of_the_text() -> None:
    from aisched.scenarios.spot import pool_members

    text = " ".join(README.read_text(encoding="utf-8").split())
    assert f"(`paper` = {len(pool_members('paper'))}, `ahap` = {len(pool_members('ahap'))}," in text
    runs = [run for record in _records().values() for run in record["run"]["runs"]]
    dates = sorted({str(run["finished"])[:10] for run in runs})  # the records' runs
    assert dates, "the records name no run"
    runs_of = dates[0] if len(dates) == 1 else f"{dates[0]}/{dates[-1][-2:]}"
    assert f"(all four families, the runs of {runs_of}" in text
    for family, record in _records().items():  # every family from a run of 3 seeds or more
        assert any(run.get("seeds") == "auto" or (run.get("seeds") or 0) >= 3 for run in record["run"]["runs"]), family


def test_the_first_screen_says_what_it_is_and_how_to_run_it() -> None:
    head = README.read_text(encoding="utf-8").splitlines()[:60]
    assert any(line.startswith("make run") for line in head) and any(line.startswith("make test") for line in head)
    assert any(line.startswith("| `tenants` |") for line in head)
    bibtex = "\n".join(blocks("bibtex"))
    assert bibtex.count("@") == 4 and all(key in bibtex for key in ("lora", "spot", "genai", "astraea"))


def test_toml_scenario_validates() -> None:
    scenarios = [b for b in blocks("toml") if b.lstrip().startswith("name =")]
    plugin = [tomllib.loads(b) for b in blocks("toml") if "entry-points" in b]  # the plug-in's pyproject table
    assert len(scenarios) == 1 and plugin and "aisched.algorithms" in plugin[0]["project"]["entry-points"]
    (text,) = scenarios
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
