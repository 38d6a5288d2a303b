"""Fuzz: every option of every ``aisched`` command, run in-process through ``cli.main(argv)``.

Property: exit status 0, or 2 with one line ``aisched: error: ...``
on stderr; never a traceback, never a hang. For ``compare`` the options are
read from the parser itself (so a new option is fuzzed without editing this
file); the comparison is stubbed out once the instance is built (the
generator's checks and size guards are what the options reach; the
algorithms on valid instances are tested elsewhere).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import given

import aisched
from aisched import cli

from ._guard import DEEP, FAST, no_hang

# values a user may type: malformed numbers, huge sizes, negatives, words, separators
NASTY = ["nan", "inf", "-inf", "-1", "0", "-0", "1e400", "abc", "", " ", "True", "1,1", ",", "0x10", "1_000",
         "1000000000", "99999999999999999999", "1e9", "1e15", "0.5", "-0.5", "3", "1e-300", "--help-me", "☃"]
VALUES = st.one_of(st.sampled_from(NASTY), st.integers(-10**12, 10**12).map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(repr), st.text(max_size=8))


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _value_options(parser: argparse.ArgumentParser) -> list[str]:
    return [a.option_strings[0] for a in parser._actions
            if a.option_strings and a.nargs != 0 and not isinstance(a, argparse._HelpAction)]


_TOP = _subparsers(cli._parser())
COMPARE = {fam: _value_options(p) for fam, p in _subparsers(_TOP["compare"]).items()}
COMPARE_CASES = [(fam, opt) for fam, opts in COMPARE.items() for opt in opts if opt != "--out"]
SELECT = {fam: _value_options(p) for fam, p in _subparsers(_TOP["select"]).items()}
SELECT_CASES = [(fam, opt) for fam, opts in SELECT.items() for opt in opts if opt != "--out"]


class _Built(Exception):
    """Raised by the stubbed comparison: the options gave a valid instance."""


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> int:
    """``cli.main(argv)``, asserting exit 0, or 2 with exactly one ``aisched: error:`` line."""
    with no_hang(argv):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse's own errors
            code = exc.code
        except _Built:
            code = 0
    err = capsys.readouterr().err.strip()
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.startswith("aisched: error:") and len(err.splitlines()) == 1, (argv, err)
    return int(code)


@pytest.fixture
def stub_compare(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    built: list[object] = []

    def stop(instance: object, *args: object, **kwargs: object) -> None:
        built.append(instance)
        raise _Built

    monkeypatch.setattr(aisched, "compare", stop)
    return built


def test_every_compare_option_is_fuzzed() -> None:
    """The parser's options are all in the cases (a family without options would fuzz nothing)."""
    assert set(COMPARE) == {"lora", "spot", "genai", "tenants"}
    for fam, opts in COMPARE.items():
        assert {"--seed", "--algorithms", "--time-limit"} <= set(opts), fam


def _compare_case(fam: str, option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                  built: list[object]) -> None:
    argv = ["compare", fam, option, value, "--no-offline", "--no-figures", "--out", str(tmp_path / "out")]
    code = run_cli(argv, capsys)
    if code == 0:  # a valid instance of the family came out of the generator
        assert built and type(built[-1]).__module__.startswith(f"aisched.models.{fam}")


@FAST
@given(st.sampled_from(COMPARE_CASES), VALUES)
def test_compare_option_values(tmp_path: Path, capsys: pytest.CaptureFixture[str], stub_compare: list[object],
                               case: tuple[str, str], value: str) -> None:
    _compare_case(*case, value, tmp_path, capsys, stub_compare)


@pytest.mark.parametrize("case", COMPARE_CASES, ids=[f"{f}{o}" for f, o in COMPARE_CASES])
@pytest.mark.parametrize("value", ["-1", "1000000000", "99999999999999999999", "nan"])
def test_compare_each_option_with_the_worst_values(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    stub_compare: list[object], case: tuple[str, str],
                                                    value: str) -> None:
    """Each option at least once with a negative, a huge, a NaN and a non-number."""
    _compare_case(*case, value, tmp_path, capsys, stub_compare)


@pytest.mark.slow
@DEEP
@given(st.sampled_from(COMPARE_CASES), VALUES, st.sampled_from(COMPARE_CASES), VALUES)
def test_compare_two_options_deep(tmp_path: Path, capsys: pytest.CaptureFixture[str], stub_compare: list[object],
                                  a: tuple[str, str], va: str, b: tuple[str, str], vb: str) -> None:
    fam = a[0]
    extra = [b[1], vb] if b[0] == fam else []
    argv = ["compare", fam, a[1], va, *extra, "--no-offline", "--no-figures", "--out", str(tmp_path / "o")]
    run_cli(argv, capsys)


def test_compare_out_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--out`` naming a file: one line naming --out, before any work."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    code = run_cli(["compare", "spot", "--no-offline", "--no-figures", "--algorithms", "od_only",
                    "--out", str(afile)], capsys)
    assert code == 2


@FAST
@given(st.sampled_from(SELECT_CASES), VALUES)
def test_select_option_values(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                              case: tuple[str, str], value: str) -> None:
    fam, option = case
    module = cli.family_cli(fam)
    assert module is not None and module.selects
    seen: list[object] = []

    def stop(*args: object, **kwargs: object) -> None:  # selection itself is tested elsewhere
        seen.append(args)
        raise _Built

    import aisched.online.spot

    monkeypatch.setattr(aisched.online.spot, "select", stop)
    # a valid small run is allowed (jobs kept small); the point is the bad values
    argv = ["select", fam, option, value, "--jobs", "3", "--no-figures", "--out", str(tmp_path / "o")]
    if option == "--jobs":
        argv = ["select", fam, option, value, "--no-figures", "--out", str(tmp_path / "o")]
        try:
            if int(value) > 50:  # a valid large count would run: not this test's job
                return
        except ValueError:
            pass
    run_cli(argv, capsys)


@FAST
@given(st.sampled_from(["sweep", "reproduce"]), st.sampled_from(["--seeds", "--workers", "--dask"]), VALUES)
def test_sweep_and_reproduce_options(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, command: str, option: str, value: str) -> None:
    from aisched.experiments.pages import reproduce
    from aisched.experiments.run import sweep

    def stop(*args: object, **kwargs: object) -> None:  # options checked; the run itself is tested elsewhere
        raise _Built

    monkeypatch.setattr(sweep, "sweep", stop)
    monkeypatch.setattr(reproduce, "reproduce", stop)
    target = "spot/fig5-deadline" if command == "sweep" else "spot"
    run_cli([command, target, option, value, "--out", str(tmp_path / "o"), "--no-progress"], capsys)


@pytest.mark.parametrize("argv", [
    ["sweep", "nope"], ["sweep", ""], ["sweep", "{bad}.toml"], ["sweep", "{bin}.toml"], ["sweep", "{dir}"],
    ["sweep", "{missing}.toml"], ["sweep", "spot/fig5-deadline", "--out", "{file}", "--reduced", "--serial",
                                  "--no-progress"],
    ["sweep", "spot/fig5-deadline", "--serial", "--dask", "local:2"],
    ["sweep", "spot/fig5-deadline", "--reduced", "--serial", "--no-progress", "--out", "{file}/below"],
    ["reproduce", "nope"], ["reproduce", "spot", "--out", "{file}", "--reduced", "--serial", "--no-progress"],
    ["report", "{missing}"], ["report", "{file}"], ["report", "{dir}"],
    ["report", "{dir}", "--reproduction", "{dir}"], ["report", "{dir}", "--no-figures", "--readings", "{missing}"],
    ["data"], ["data", "list", "x"], ["data", "fetch", "nope"], ["data", "fetch", "philly"],
    ["data", "fetch", "hugginggpt", "--mirror", "http://127.0.0.1:9", "--cache", "{dir}/c"],
    ["data", "fetch", "hugginggpt", "--mirror", "notaurl", "--cache", "{dir}/c"],
    ["data", "fetch", "hugginggpt", "--mirror", "http://127.0.0.1:9", "--cache", "{file}"],
    ["scenarios", "--family", "x"], ["scenarios", "extra"], [], ["nope"], ["compare"], ["compare", "nope"],
])
def test_command_with_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    (tmp_path / "bad.toml").write_text("a = [")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00name")
    (tmp_path / "d").mkdir()
    (tmp_path / "afile").write_text("x")
    paths = {"bad": tmp_path / "bad", "bin": tmp_path / "bin", "dir": tmp_path / "d", "file": tmp_path / "afile",
             "missing": tmp_path / "missing"}
    argv = [a.format(**{k: str(v) for k, v in paths.items()}) for a in argv]
    assert run_cli(argv, capsys) == 2


@FAST
@given(st.lists(st.text(max_size=10), max_size=4))
def test_any_words(tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str]) -> None:
    """Random words as the whole command line: argparse refuses them in one line, or a harmless command runs."""
    if words[:1] in (["compare"], ["sweep"], ["reproduce"], ["select"], ["data"]) or "fetch" in words:
        return  # those would run real work on a valid word; their options are fuzzed above
    if words[:1] == ["report"]:
        words = ["report", str(tmp_path / "missing"), *words[2:]]
    run_cli(words, capsys)
