"""Loaders of real AI task plans: HuggingGPT task lists and TaskBench DAGs.

- HuggingGPT (Shen et al. 2023) parses a request into a JSON list of tasks
  ``{"task": type, "id": n, "dep": [ids], "args": {...}}``; ``dep = [-1]``
  means no dependency. :func:`parse_hugginggpt` reads such a list and repairs
  the two faults found in the demo file ``hugginggpt_demo_parse_task.json``:
  stray closing braces after an object (``}} }}, {``) and a list without its
  surrounding ``[ ]``. Each task object is read with ``json``'s
  ``raw_decode`` from every ``{"task"`` occurrence; text between objects is
  ignored.
- TaskBench (Shen et al. 2023, MIT licence, microsoft/JARVIS) tool graphs in
  ``taskbench_dags.jsonl`` (one ``{"id","domain","type","nodes","edges"}``
  object per line; see its README).

Both return :class:`TaskGraph`: an id and a ``networkx.DiGraph`` whose nodes
carry the task type in attribute ``task``.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from aisched.dag.validate import from_edges
from aisched.errors import InvalidInstanceError

__all__ = ["TaskGraph", "parse_hugginggpt", "load_hugginggpt", "load_taskbench"]

_TASK_START = re.compile(r'\{\s*"task"\s*:')


@dataclass(frozen=True)
class TaskGraph:
    """One job's task graph read from a trace.

    Attributes
    ----------
    id
        Sample id (TaskBench id, or ``"hugginggpt-<n>"``).
    graph
        Nodes are task ids (ints for HuggingGPT, names for TaskBench); node
        attribute ``task`` is the task type (``"text-to-image"``).
    """

    id: str
    graph: nx.DiGraph


def parse_hugginggpt(text: str, *, field: str = "hugginggpt") -> nx.DiGraph:
    """A HuggingGPT task list (possibly broken JSON, see module docstring) as a DAG.

    Nodes are the task ``id`` values; edges ``dep -> id`` for every
    dependency other than -1.

    Raises
    ------
    InvalidInstanceError
        If no task object can be read, an id repeats, a ``dep`` names an
        unknown id, or the dependencies form a cycle.
    """
    decoder = json.JSONDecoder()
    tasks: list[dict[str, Any]] = []
    pos = 0
    while True:
        match = _TASK_START.search(text, pos)
        if match is None:
            break
        try:
            obj, end = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError as exc:
            raise InvalidInstanceError(field, f"task object at character {match.start()}: {exc.msg}") from None
        tasks.append(obj)
        pos = end
    if not tasks:
        raise InvalidInstanceError(field, "contains no task object")
    nodes, edges, kinds = [], [], {}
    for n, obj in enumerate(tasks):
        if "id" not in obj or "task" not in obj:
            raise InvalidInstanceError(field, f"task {n} lacks 'id' or 'task': {obj!r}")
        nodes.append(int(obj["id"]))
        kinds[int(obj["id"])] = str(obj["task"])
        deps = obj.get("dep", [-1])
        for d in deps if isinstance(deps, list) else [deps]:
            if int(d) != -1:
                edges.append((int(d), int(obj["id"])))
    g = from_edges(nodes, edges, field=field)
    nx.set_node_attributes(g, kinds, "task")
    return g


def load_hugginggpt(path: str | os.PathLike[str]) -> list[TaskGraph]:
    """Every assistant task plan of a HuggingGPT demo file (a JSON list of chat messages).

    Messages with ``"role": "assistant"`` hold the task lists; they are
    parsed (and repaired) by :func:`parse_hugginggpt`.
    """
    path = Path(path)
    try:
        messages = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInstanceError(str(path), f"cannot be read as a JSON message list ({exc})") from None
    out = []
    for n, msg in enumerate(m for m in messages if m.get("role") == "assistant"):
        out.append(TaskGraph(f"hugginggpt-{n}", parse_hugginggpt(msg["content"], field=f"{path.name}[{n}]")))
    return out


def load_taskbench(path: str | os.PathLike[str]) -> list[TaskGraph]:
    """The DAGs of a TaskBench JSONL extract (``taskbench_dags.jsonl``).

    Node names are the file's (``"Translation"``, ``"Translation#2"``); the
    task type (attribute ``task``) drops a ``#n`` suffix.
    """
    path = Path(path)
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise InvalidInstanceError(str(path), f"cannot be read ({exc})") from None
    out = []
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInstanceError(f"{path.name}:{n + 1}", f"is not JSON ({exc.msg})") from None
        g = from_edges(rec["nodes"], [tuple(e) for e in rec["edges"]], field=f"{path.name}:{n + 1}")
        nx.set_node_attributes(g, {v: str(v).split("#")[0] for v in g}, "task")
        out.append(TaskGraph(str(rec.get("id", n)), g))
    return out
