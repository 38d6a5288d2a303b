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


_KINDS = ("holds", "**fails**", "inconclusive", "untestable", "not checked")


def _claim_counts(page: Path) -> dict[str, list[int]]:
    """(hold, fail, inconclusive, untestable, not checked) per family of the default reading, counted claim by claim
    from a reproduction page's per-figure sections (the regime maps' region lines carry no verdict)."""
    counts: dict[str, list[int]] = {}
    family, figures = None, False
    for line in page.read_text(encoding="utf-8").splitlines():
        figures = figures or line.startswith("## Per figure")
        found = re.match(r"### (\w+)/", line)
        if found:
            family = found.group(1)
        elif figures and family and line.startswith("- "):
            verdict = re.search(r": (holds|\*\*fails\*\*|inconclusive at \d+ seed|untestable on this workload|"
                                r"not checked)(?!\w)", line)
            if verdict is None:
                assert re.match(r"- \S+ above \S+ \(95 % paired", line), line
                continue
            kind = next(k for k, name in enumerate(_KINDS) if verdict.group(1).startswith(name))
            counts.setdefault(family, [0] * len(_KINDS))[kind] += 1
    return counts


def _summary_counts(page: Path, regime: str = "default") -> dict[str, list[int]]:
    """The same five counts per family as the page's summary table states them (``regime``: only the families
    whose page that regime heads; a page written before the regime column has the default's only)."""
    rows = {}
    for line in page.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| (\w+) \| (default|fit) \| (\d+) \| (\d+) \| (\d+ of \d+|not computed at the fit) \| "
                         r"(\d+) \| (\d+) \| (\d+) \| (\d+) \|$", line)
        if found:  # the headline regime, then hold, hold after Holm, fail, inconclusive, untestable, not checked
            g = found.groups()
            total, hold = int(g[2]), int(g[3])
            fail, inconclusive, untestable, unchecked = (int(x) for x in g[5:])
            assert total == hold + fail + untestable + inconclusive + unchecked, line
            if regime in ("any", g[1]):
                rows[found.group(1)] = [hold, fail, inconclusive, untestable, unchecked]
            continue
        found = re.match(r"\| (\w+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", line)
        if found:  # a page written before the Holm column: hold, fail, untestable, inconclusive, not checked
            total, hold, fail, untestable, inconclusive, unchecked = (int(g) for g in found.groups()[1:])
            assert total == hold + fail + untestable + inconclusive + unchecked, line
            rows[found.group(1)] = [hold, fail, inconclusive, untestable, unchecked]
        found = re.match(r"\| (\w+) \| (\d+) \| (\d+) \| (\d+) of \d+ \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", line)
        if found:  # hold, hold after Holm, fail, inconclusive, untestable, not checked (the README's order)
            total, hold, holm, fail, inconclusive, untestable, unchecked = (int(g) for g in found.groups()[1:])
            assert total == hold + fail + untestable + inconclusive + unchecked and holm <= hold, line
            rows[found.group(1)] = [hold, fail, inconclusive, untestable, unchecked]
    return rows


def test_the_papers_table_counts_the_claims_of_the_reproduction_pages() -> None:
    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `(\w+)` \|.*\| (\d+) / (\d+) / (\d+) / (\d+) / (\d+)", line)
        if found:
            rows[found.group(1)] = [int(g) for g in found.groups()[1:]]
    assert list(rows) == ["lora", "spot", "genai", "tenants"]
    docs = README.parent / "docs"
    combined = _claim_counts(docs / "reproduction.md")  # the figures' runs: the default regime
    headline = _summary_counts(docs / "reproduction.md", "any")  # each family's headline regime
    assert sorted(combined) == sorted(headline) == ["genai", "lora", "spot", "tenants"]
    default_headed = _summary_counts(docs / "reproduction.md")
    assert {f: c for f, c in combined.items() if f in default_headed} == default_headed
    for family, counts in headline.items():
        assert rows[family] == counts, family  # the README counts the headline regime's verdicts
        own = docs / f"reproduction-{family}.md"
        assert _summary_counts(own, "any") == {family: _summary_counts(own, "any")[family]}, family
        if family in default_headed:  # a page agrees with itself
            assert _claim_counts(own) == _summary_counts(own), family
        if _finished(own, family) == _finished(docs / "reproduction.md", family):  # the same run: the same counts
            assert _summary_counts(own, "any") == {family: counts}, family


def _finished(page: Path, family: str) -> str | None:
    """When the page's ``aisched reproduce FAMILY`` run finished (its run line), None where it names none.

    A family's own page may come from a newer run than the combined page (regenerated alone); the
    counts must agree only where both pages come from the same run."""
    text = page.read_text(encoding="utf-8")
    found = re.search(rf"`aisched reproduce {family} --seeds 3`, finished (\S+),", text) or re.search(
        r"`aisched reproduce all --seeds 3`, finished (\S+),", text)  # one run of every family: it covers this one
    return found.group(1) if found else None


def test_the_other_numbers_of_the_text() -> None:
    from aisched.scenarios.spot import pool_members

    text = " ".join(README.read_text(encoding="utf-8").split())
    assert f"(`paper` = {len(pool_members('paper'))}, `ahap` = {len(pool_members('ahap'))}," in text
    page = (README.parent / "docs" / "reproduction.md").read_text(encoding="utf-8")
    dates = sorted(set(re.findall(r"finished (\d{4}-\d\d-\d\d)T", page)))  # the page's run lines
    assert dates, "the combined page names no run"
    runs_of = dates[0] if len(dates) == 1 else f"{dates[0]}/{dates[-1][-2:]}"
    assert f"(all four families, the runs of {runs_of}" in text
    for family in ("lora", "spot", "genai", "tenants"):  # every family from a 3-seed run: its own, or one of all four
        assert f"`aisched reproduce {family} --seeds 3`" in page or "`aisched reproduce all --seeds 3`" in page


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
