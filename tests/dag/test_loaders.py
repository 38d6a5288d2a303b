"""Loaders of HuggingGPT task plans (with JSON repair) and TaskBench DAGs."""

from __future__ import annotations

import collections

import pytest

from aisched import dag
from aisched.data import data_file
from aisched.errors import InvalidInstanceError

HUGGINGGPT = "hugginggpt_demo_parse_task.json"
TASKBENCH = "taskbench_dags.jsonl"


def need(name):
    """The data file's path ($AISCHED_DATA, the user cache, ../shared/data); skip with a message if absent."""
    path = data_file(name, required=False)
    if path is None:
        pytest.skip(f"data file {name} is absent (no data folder holds it; see `aisched data list`)")
    return path


def test_hugginggpt_demo_file_is_repaired():
    plans = dag.load_hugginggpt(need(HUGGINGGPT))
    assert [p.id for p in plans] == [f"hugginggpt-{n}" for n in range(6)]
    first = plans[0].graph  # stray "}} }}" after objects 2 and 5
    assert len(first) == 9 and sorted(first.edges) == [(1, 2), (4, 5), (7, 8)]
    assert first.nodes[2]["task"] == "visual-question-answering"
    third = plans[2].graph  # a task list without its surrounding [ ]
    assert len(third) == 4 and list(third.edges) == [(2, 3)]
    assert sorted(plans[1].graph.edges) == [(0, 3), (0, 5), (1, 2)]
    assert dag.multi_child_tasks(plans[1].graph) == [0]
    assert [len(p.graph) for p in plans] == [9, 6, 4, 2, 3, 2]


def test_parse_hugginggpt_errors():
    ok = dag.parse_hugginggpt('[{"task": "a", "id": 0, "dep": [-1]}, {"task": "b", "id": 1, "dep": [0]}]')
    assert list(ok.edges) == [(0, 1)]
    with pytest.raises(InvalidInstanceError, match="no task object"):
        dag.parse_hugginggpt("[]")
    with pytest.raises(InvalidInstanceError, match="unknown task 5"):
        dag.parse_hugginggpt('{"task": "a", "id": 0, "dep": [5]}')
    with pytest.raises(InvalidInstanceError, match="cycle"):
        dag.parse_hugginggpt('{"task": "a", "id": 0, "dep": [1]}, {"task": "b", "id": 1, "dep": [0]}')
    with pytest.raises(InvalidInstanceError, match="listed twice"):
        dag.parse_hugginggpt('{"task": "a", "id": 0, "dep": [-1]}, {"task": "b", "id": 0, "dep": [-1]}')


def test_taskbench_file_matches_its_readme():
    graphs = dag.load_taskbench(need(TASKBENCH))
    assert len(graphs) == 342
    nodes = collections.Counter(len(t.graph) for t in graphs)
    edges = collections.Counter(t.graph.number_of_edges() for t in graphs)
    # the README's histograms (all samples)
    assert nodes == {2: 15, 3: 125, 4: 139, 5: 45, 6: 13, 7: 4, 8: 1}
    assert edges == {1: 28, 2: 131, 3: 118, 4: 48, 5: 12, 6: 4, 7: 1}
    dup = next(t for t in graphs if t.id == "10760836")
    assert dup.graph.nodes["Translation#2"]["task"] == "Translation"


def test_taskbench_bad_lines(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "1", "nodes": ["a"], "edges": [["a", "b"]]}\n')
    with pytest.raises(InvalidInstanceError, match=r"bad.jsonl:1.*unknown task 'b'"):
        dag.load_taskbench(path)
    path.write_text("not json\n")
    with pytest.raises(InvalidInstanceError, match="is not JSON"):
        dag.load_taskbench(path)
    with pytest.raises(InvalidInstanceError, match="cannot be read"):
        dag.load_taskbench(tmp_path / "missing.jsonl")
