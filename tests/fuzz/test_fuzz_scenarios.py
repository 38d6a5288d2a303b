"""Fuzz: outside input to scenario files, trace CSVs and the command line never crashes aisched.

Property: each input gives an aisched error naming the field (exit
status 2 with one line from the CLI) or a valid result; never another
exception, never a silent reinterpretation. The default profile tries a
few hundred inputs per entry point; ``-m slow`` runs the deeper profile.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from aisched import cli
from aisched.errors import AischedError
from aisched.experiments.spec import scenario as scenario_mod
from aisched.experiments.store.stored import StoredScenario
from aisched.scenarios.lora import traces

FAST = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
DEEP = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

GOOD_TOML = """
name = "lora/fuzz"
family = "lora"
title = "fuzz"
x = "nodes"
values = [2, 3]
algorithms = ["pdftsp", "eft"]
seeds = 2
offline = false
time_limit = 60
[base]
slots = 12
arrival_rate = 1.0
[params.pdftsp]
selection = "exact"
[[claims]]
kind = "best"
algorithm = "pdftsp"
text = "pdFTSP is best"
"""

# values of every TOML type, the odd ones included
toml_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6,
)


def _from_mapping_is_clean(data: object) -> None:
    try:
        result = scenario_mod.from_mapping(data)  # type: ignore[arg-type]
    except AischedError as exc:
        assert str(exc) and ":" in str(exc)  # "<field>: <message>"
        return
    # a valid scenario is one a sweep folder can record and read back, and whose definition gives it again
    record = json.loads(json.dumps(result.sweep_record(), default=str))
    assert record["name"] == result.name and record["labels"] == result.labels
    stored = StoredScenario.from_record(record)
    assert stored.name == result.name and stored.labels == tuple(result.labels)
    assert scenario_mod.from_mapping(result.definition()) == result


def _mutated(key_path: tuple[str, ...], value: object) -> dict:
    data = tomllib.loads(GOOD_TOML)
    node = data
    for key in key_path[:-1]:
        node = node[key]
    node[key_path[-1]] = value
    return data


KEYS = [("name",), ("family",), ("title",), ("x",), ("values",), ("algorithms",), ("seeds",), ("offline",),
        ("time_limit",), ("base",), ("base", "slots"), ("base", "arrival_rate"), ("params",),
        ("params", "pdftsp"), ("params", "pdftsp", "selection"), ("claims",), ("metric",), ("kind",),
        ("x_target",), ("figures",), ("reduced",), ("reduced_values",), ("unknown_key",)]


def _check_mutation(i: int, value: object) -> None:
    _from_mapping_is_clean(_mutated(KEYS[i % len(KEYS)], value))


@FAST
@given(st.integers(0, len(KEYS) - 1), toml_values)
def test_scenario_mapping_with_any_value_at_any_key(i: int, value: object) -> None:
    _check_mutation(i, value)


@pytest.mark.slow
@DEEP
@given(st.integers(0, len(KEYS) - 1), toml_values)
def test_scenario_mapping_deep(i: int, value: object) -> None:
    _check_mutation(i, value)


def _load_is_clean(path: Path, raw: bytes) -> None:
    path.write_bytes(raw)
    try:
        scenario_mod.load(path)
    except AischedError as exc:
        assert str(exc)


@FAST
@given(st.binary(max_size=400))
def test_scenario_file_of_any_bytes(tmp_path: Path, raw: bytes) -> None:
    _load_is_clean(tmp_path / "s.toml", raw)


@FAST
@given(st.integers(0, len(GOOD_TOML)))
def test_truncated_scenario_file(tmp_path: Path, cut: int) -> None:
    _load_is_clean(tmp_path / "s.toml", GOOD_TOML.encode()[:cut])


CSV_CELLS = st.one_of(st.sampled_from(["", "nan", "inf", "-1", "0", "1e308", "2017-10-09 00:01:56", "abc",
                                       "1970-01-01", "\x00", '"', "3"]),
                      st.integers(-10**6, 10**9).map(str), st.floats(allow_nan=True).map(repr))
CSV_HEADERS = st.sampled_from([["timestamp", "num_gpus"], ["creation_time", "num_gpu"],
                               ["time", "total_job_num"], ["a", "b"], ["timestamp"]])


def _arrivals_are_clean(path: Path, slots: int) -> None:
    try:
        counts = traces.arrival_counts(path, slots, 600)
    except AischedError as exc:
        assert str(exc).startswith(("trace:", "slots:", "slot_seconds:"))
        return
    assert counts.shape == (slots,) and counts.dtype.kind == "i" and counts.min() >= 0


@FAST
@given(CSV_HEADERS, st.lists(st.lists(CSV_CELLS, min_size=1, max_size=3), max_size=6), st.integers(1, 50))
def test_trace_csv_of_any_cells(tmp_path: Path, header: list[str], rows: list[list[str]], slots: int) -> None:
    path = tmp_path / "t.csv"
    lines = [",".join(header)] + [",".join(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")
    _arrivals_are_clean(path, slots)


@FAST
@given(st.binary(max_size=300), st.integers(1, 50))
def test_trace_file_of_any_bytes(tmp_path: Path, raw: bytes, slots: int) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(raw)
    _arrivals_are_clean(path, slots)


# --- the command line: argument vectors the parser and the commands' checks must turn into exit 2 ----------

NASTY = st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e400", "abc", "", "True", "1,1", ",", "-0"])


def _cli_is_clean(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse: one line, exit 2
        code = exc.code
    err = capsys.readouterr().err.strip()
    assert code in (0, 2), (argv, code)
    if code == 2:
        assert err.startswith("aisched: error:") and len(err.splitlines()) == 1, (argv, err)


@FAST
@given(st.sampled_from(["sweep", "reproduce"]), st.sampled_from(["--seeds", "--workers"]), NASTY)
def test_cli_run_options(capsys: pytest.CaptureFixture[str], command: str, option: str, value: str) -> None:
    target = "spot/fig5-deadline" if command == "sweep" else "spot"
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if math.isfinite(number) and number >= 1:  # a valid count would run the scenario: not this test's job
        return
    _cli_is_clean([command, target, option, value, "--out", "/nonexistent/aisched-fuzz"], capsys)


@FAST
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=10), max_size=4))
def test_cli_any_words_after_data(capsys: pytest.CaptureFixture[str], words: list[str]) -> None:
    if words[:1] == ["fetch"]:  # a valid dataset name would download
        return
    _cli_is_clean(["data", *words], capsys)
