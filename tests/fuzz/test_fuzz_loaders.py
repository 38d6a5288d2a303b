"""Fuzz: every trace and DAG loader on hostile files, and ``aisched.dag``'s functions on hostile arguments.

Files: arbitrary bytes (non-UTF-8 included), truncations of a valid file,
valid JSON of the wrong shape, wrong-typed cells, and one huge file. Property:
an aisched error, or a valid result; never another
exception, never a hang.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import networkx as nx
import pytest
from hypothesis import given

from aisched import dag
from aisched.errors import AischedError
from aisched.scenarios import tenants as tenants_sc
from aisched.scenarios.spot import traces as spot_traces

from ._guard import DEEP, FAST, no_hang

GOOD = {
    "taskbench": json.dumps({"id": "1", "domain": "huggingface", "type": "chain",
                             "nodes": ["Translation", "Summarization"],
                             "edges": [["Translation", "Summarization"]]}) + "\n",
    "hugginggpt": json.dumps([{"role": "user", "content": "x"}, {"role": "assistant", "content": json.dumps(
        [{"task": "image-to-text", "id": 0, "dep": [-1], "args": {}},
         {"task": "text-to-speech", "id": 1, "dep": [0], "args": {}}])}]),
    "spot_trace": json.dumps({"metadata": {"gap_seconds": 195}, "data": [1, 2, 3] * 40}),
    "market": "timestamp,gpu_type,n_available,price_median,price_p90\n"
              "2025-10-19T21:01:58,A100_80GB,23,1.64,1.65\n2025-10-19T21:40:00,A100_80GB,20,1.5,1.6\n",
    "gcp": "commit_time,machine_type,region,hour,hour_spot\n2026-07-30,a2-highgpu-1g,us,3.6,1.8\n",
    "philly": "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 00:01:56,66.0,1,66.0,11cb48\n"
              "2017-10-09 00:11:57,66.0,2,66.0,6214e9\n",
}


def _validate_result(kind: str, result: Any) -> None:
    if kind in ("taskbench", "hugginggpt"):
        for tg in result:
            assert isinstance(tg.graph, nx.DiGraph) and nx.is_directed_acyclic_graph(tg.graph)
            assert all(isinstance(tg.graph.nodes[v]["task"], str) for v in tg.graph)
    elif kind == "spot_trace":
        assert result.dtype.kind == "i" and (result >= 0).all()
    elif kind == "gcp":
        assert (result >= 0).all()


LOADERS = {
    "taskbench": dag.load_taskbench,
    "hugginggpt": dag.load_hugginggpt,
    "spot_trace": spot_traces.load_spot_trace,
    "market": spot_traces.load_market_csv,
    "gcp": spot_traces.load_gcp_ratios,
    "philly": tenants_sc.load_philly,
}


def load_is_clean(kind: str, path: Path) -> None:
    with no_hang((kind, path)):
        try:
            result = LOADERS[kind](path)
        except AischedError as exc:
            assert str(exc)
            return
    _validate_result(kind, result)


@FAST
@given(st.sampled_from(sorted(LOADERS)), st.binary(max_size=300))
def test_loader_any_bytes(tmp_path: Path, kind: str, raw: bytes) -> None:
    path = tmp_path / "f"
    path.write_bytes(raw)
    load_is_clean(kind, path)


@FAST
@given(st.sampled_from(sorted(LOADERS)), st.data())
def test_loader_truncated_file(tmp_path: Path, kind: str, data: st.DataObject) -> None:
    good = GOOD[kind].encode()
    cut = data.draw(st.integers(0, len(good)))
    path = tmp_path / "f"
    path.write_bytes(good[:cut] + data.draw(st.sampled_from([b"", b"\xff\xfe", b"\x00", b"\n,,,\n"])))
    load_is_clean(kind, path)


JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6)),
                    lambda inner: st.one_of(st.lists(inner, max_size=4),
                                            st.dictionaries(st.sampled_from(
                                                ["id", "nodes", "edges", "task", "dep", "role", "content", "data",
                                                 "metadata", "gap_seconds", "x"]), inner, max_size=4)),
                    max_leaves=10)


@FAST
@given(st.sampled_from(["taskbench", "hugginggpt", "spot_trace"]), JSON)
def test_json_loader_wrong_types(tmp_path: Path, kind: str, value: Any) -> None:
    path = tmp_path / "f.json"
    text = json.dumps(value, allow_nan=True)
    if kind == "hugginggpt" and isinstance(value, (list, dict)):  # also inside the assistant's content
        text = json.dumps([{"role": "assistant", "content": text}])
    path.write_text(text, encoding="utf-8")
    load_is_clean(kind, path)


CELL = st.one_of(st.sampled_from(["", "nan", "inf", "-1", "0", "1e308", "2017-10-09 00:01:56", "abc", "A100_80GB",
                                  "a2-x", '"', "True", "99999999999999999999"]), st.integers().map(str))


@FAST
@given(st.sampled_from(["market", "gcp", "philly"]), st.lists(st.lists(CELL, min_size=1, max_size=6), max_size=5))
def test_csv_loader_wrong_cells(tmp_path: Path, kind: str, rows: list[list[str]]) -> None:
    header = GOOD[kind].splitlines()[0]
    path = tmp_path / "f.csv"
    path.write_text("\n".join([header] + [",".join(r) for r in rows]) + "\n", encoding="utf-8")
    load_is_clean(kind, path)


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_loader_huge_file(tmp_path: Path, kind: str) -> None:
    """A 4 MB file of one repeated valid record: read or refused, within the hang guard."""
    good = GOOD[kind]
    head, _, rest = good.partition("\n")
    path = tmp_path / "big"
    if kind == "spot_trace":
        path.write_text(json.dumps({"metadata": {"gap_seconds": 195}, "data": [1] * 1_000_000}))
    elif kind == "hugginggpt":
        path.write_text("[" + ",".join([json.dumps({"role": "user", "content": "x" * 1000})] * 4_000) + "]")
    else:
        body = (rest if rest else head + "\n")
        path.write_text((head + "\n" if rest else "") + body * max(1, 4_000_000 // max(1, len(body))))
    load_is_clean(kind, path)


def test_loader_missing_and_folder(tmp_path: Path) -> None:
    for kind in LOADERS:
        load_is_clean(kind, tmp_path / "missing")
        load_is_clean(kind, tmp_path)


# --- aisched.dag's functions ------------------------------------------------------------------------------

NODE = st.one_of(st.integers(-3, 6), st.text(max_size=3), st.none(), st.booleans(), st.floats(allow_nan=True))


@FAST
@given(st.lists(NODE, max_size=6), st.lists(st.tuples(NODE, NODE), max_size=8))
def test_dag_from_edges_and_ranks(nodes: list[Any], edges: list[tuple[Any, Any]]) -> None:
    with no_hang("dag"):
        try:
            g = dag.from_edges(nodes, edges)
        except AischedError:
            return
        assert nx.is_directed_acyclic_graph(g)
        for fn in (lambda: dag.with_entry_exit(g), lambda: dag.multi_child_tasks(g)):
            try:
                fn()
            except AischedError:
                pass
        mean = {v: 1.0 for v in g}
        order = dag.execution_order(g, mean)
        assert sorted(map(repr, order)) == sorted(map(repr, g.nodes))


@FAST
@given(st.dictionaries(st.integers(0, 3), st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
                                                   st.text(max_size=2), st.none()), max_size=5))
def test_dag_ranks_with_hostile_runtimes(weights: dict[int, Any]) -> None:
    g = dag.chain(4)
    try:
        r = dag.ranks(g, weights)
    except AischedError:
        return
    assert all(isinstance(v, float) for v in r.values())


@FAST
@given(st.text(max_size=200))
def test_parse_hugginggpt_any_text(text: str) -> None:
    with no_hang("parse_hugginggpt"):
        try:
            g = dag.parse_hugginggpt(text)
        except AischedError:
            return
    assert nx.is_directed_acyclic_graph(g)


@FAST
@given(st.sampled_from(["chain", "fork_join", "random_dag"]),
       st.one_of(st.integers(-5, 10**12), st.floats(allow_nan=True), st.booleans(), st.text(max_size=3)))
def test_dag_generators_hostile_sizes(name: str, size: Any) -> None:
    with no_hang((name, size)):
        try:
            g = getattr(dag, name)(size)
        except AischedError:
            return
    assert isinstance(size, int) and not isinstance(size, bool), f"{name} accepted {size!r}"
    assert nx.is_directed_acyclic_graph(g)


@pytest.mark.slow
@DEEP
@given(st.sampled_from(sorted(LOADERS)), st.binary(max_size=3000))
def test_loader_any_bytes_deep(tmp_path: Path, kind: str, raw: bytes) -> None:
    path = tmp_path / "f"
    path.write_bytes(raw)
    load_is_clean(kind, path)
