"""Bad input to the trace loaders and DAG helpers gets an InvalidInstanceError naming file, line and field.

Each case below crashed with a raw KeyError / TypeError / ValueError /
UnicodeDecodeError (or loaded silently wrong) before these checks.
"""

from __future__ import annotations

import json

import networkx as nx
import pytest

from aisched import dag
from aisched.errors import InvalidInstanceError


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ('{"id": "1", "edges": []}', r"bad.jsonl:2 'nodes': is missing"),
        ('{"id": "1", "nodes": ["a"]}', r"bad.jsonl:2 'edges': is missing"),
        ("[1, 2, 3]", r"bad.jsonl:2: must be a JSON object, got list"),
        ("null", r"bad.jsonl:2: must be a JSON object, got NoneType"),
        ('{"nodes": [{"task": "a", "arguments": []}], "edges": []}', r"bad.jsonl:2 'nodes'\[0\].*original format"),
        ('{"nodes": ["a"], "edges": 5}', r"bad.jsonl:2 'edges': must be a JSON list, got 5"),
        ('{"nodes": [], "edges": []}', r"bad.jsonl:2 'nodes': is empty"),
        ('{"nodes": "AB", "edges": []}', r"bad.jsonl:2 'nodes': must be a JSON list, got 'AB'"),
        ('{"nodes": ["a", "b"], "edges": [{"source": "a", "target": "b"}]}', r"bad.jsonl:2 'edges'\[0\]"),
        ('{"nodes": ["a", "b"], "edges": [["a", "b", "c"]]}', r"bad.jsonl:2 'edges'\[0\]"),
    ],
)
def test_taskbench_malformed_line_names_file_line_and_field(tmp_path, line, match):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "0", "nodes": ["a", "b"], "edges": [["a", "b"]]}\n' + line + "\n")
    with pytest.raises(InvalidInstanceError, match=match):
        dag.load_taskbench(path)


def test_taskbench_good_lines_still_load(tmp_path):
    path = tmp_path / "ok.jsonl"
    path.write_text('{"id": "7", "nodes": ["a", "b#2"], "edges": [["a", "b#2"]]}\n\n')
    (graph,) = dag.load_taskbench(path)
    assert graph.id == "7" and list(graph.graph.edges) == [("a", "b#2")]
    assert graph.graph.nodes["b#2"]["task"] == "b"


def test_non_utf8_files(tmp_path):
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b'{"nodes": ["a"], "edges": []}\n{"nodes": ["caf\xe9"], "edges": []}\n')
    with pytest.raises(InvalidInstanceError, match=r"latin.jsonl: is not UTF-8 text \(line 2, byte 45"):
        dag.load_taskbench(path)
    path = tmp_path / "latin.json"
    path.write_bytes(b'[{"role": "assistant", "content": "caf\xe9"}]')
    with pytest.raises(InvalidInstanceError, match="latin.json: is not UTF-8"):
        dag.load_hugginggpt(path)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"task": "a", "id": "x", "dep": [-1]}', r"task 0 'id': = 'x' is not an integer"),
        ('{"task": "a", "id": 0, "dep": ["y"]}', r"task 0 'dep'\[0\]: = 'y' is not an integer"),
        ('{"task": "a", "id": 0, "dep": [null]}', r"task 0 'dep'\[0\]: = None is not an integer"),
        ('{"task": "a", "id": 0, "dep": null}', r"task 0 'dep'\[0\]: = None is not an integer"),
        ('{"task": "a", "id": 0.5, "dep": [-1]}', r"task 0 'id': = 0.5 is not an integer"),
        ('{"task": "a", "id": true, "dep": [-1]}', r"task 0 'id': = True is not an integer"),
    ],
)
def test_parse_hugginggpt_bad_ids(text, match):
    with pytest.raises(InvalidInstanceError, match=match):
        dag.parse_hugginggpt(text)


def test_parse_hugginggpt_reads_string_ids_and_rejects_non_text():
    g = dag.parse_hugginggpt('{"task": "a", "id": "0", "dep": ["-1"]}, {"task": "b", "id": 1, "dep": ["0"]}')
    assert list(g.edges) == [(0, 1)]
    with pytest.raises(InvalidInstanceError, match="hugginggpt: task-list text must be a str, got NoneType"):
        dag.parse_hugginggpt(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ({"role": "assistant", "content": "x"}, r"must hold a JSON list of messages, got dict"),
        (["hello", "world"], r"h.json\[0\]: message must be a JSON object, got 'hello'"),
        ([{"role": "user", "content": "hi"}, {"role": "assistant"}], r"h.json\[1\]: assistant message has no 'content'"),
        ([{"role": "assistant", "content": None}], r"h.json\[0\]: task-list text must be a str"),
    ],
)
def test_load_hugginggpt_bad_messages(tmp_path, content, match):
    path = tmp_path / "h.json"
    path.write_text(json.dumps(content))
    with pytest.raises(InvalidInstanceError, match=match):
        dag.load_hugginggpt(path)


def test_count_schedule_options_errors_and_value():
    g = nx.DiGraph([(0, 1), (0, 2), (1, 3), (1, 4)])
    assert dag.count_schedule_options(g, 3, {0: ["a", "b"], 1: ["c"]}) == (3 * 2) * (3 * 1)
    with pytest.raises(InvalidInstanceError, match="models: has no candidate models for multi-child task 1"):
        dag.count_schedule_options(g, 3, {0: ["a"]})
    with pytest.raises(InvalidInstanceError, match="cycle"):
        dag.count_schedule_options(nx.DiGraph([(0, 1), (1, 0), (0, 2)]), 2, {0: ["a"], 1: ["a"]})
    with pytest.raises(InvalidInstanceError, match="num_edges: = -1"):
        dag.count_schedule_options(g, -1, {0: ["a"], 1: ["a"]})


def test_ranks_non_numeric_runtime():
    g = nx.DiGraph([("a", "b")])
    with pytest.raises(InvalidInstanceError, match=r"mean_runtime\['a'\]: = 'slow' is not a number"):
        dag.ranks(g, {"a": "slow", "b": 1.0})
    with pytest.raises(InvalidInstanceError, match=r"runtimes\['b'\]: = None is not a number"):
        dag.mean_runtime({"a": [1, 2], "b": [None]})
    with pytest.raises(InvalidInstanceError, match=r"communication\[\('a', 'b'\)\]"):
        dag.upward_rank(g, {"a": 1.0, "b": 1.0}, {("a", "b"): "far"})
    assert dag.ranks(g, {"a": "2", "b": 1}) == {"a": 3.0, "b": 1.0}
