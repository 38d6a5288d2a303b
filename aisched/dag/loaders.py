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
    if not isinstance(text, str):
        raise InvalidInstanceError(field, f"task-list text must be a str, got {type(text).__name__} {text!r:.60}")
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
        tid = _task_id(obj["id"], f"{field}: task {n} 'id'")
        nodes.append(tid)
        kinds[tid] = str(obj["task"])
        deps = obj.get("dep", [-1])
        for k, d in enumerate(deps if isinstance(deps, list) else [deps]):
            dep = _task_id(d, f"{field}: task {n} 'dep'[{k}]")
            if dep != -1:
                edges.append((dep, tid))
    g = from_edges(nodes, edges, field=field)
    nx.set_node_attributes(g, kinds, "task")
    return g


def _not_utf8(exc: UnicodeDecodeError) -> str:
    line = exc.object[: exc.start].count(b"\n") + 1
    return f"is not UTF-8 text (line {line}, byte {exc.start}: {exc.object[exc.start:exc.start + 1]!r})"


def _task_id(value: Any, where: str) -> int:
    """A HuggingGPT ``id`` / ``dep`` entry as an int (JSON ints, or strings of digits such as ``"1"``)."""
    if isinstance(value, bool) or value is None:
        raise InvalidInstanceError(where, f"= {value!r} is not an integer task id")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    raise InvalidInstanceError(where, f"= {value!r} is not an integer task id")


def load_hugginggpt(path: str | os.PathLike[str]) -> list[TaskGraph]:
    """Every assistant task plan of a HuggingGPT demo file (a JSON list of chat messages).

    Messages with ``"role": "assistant"`` hold the task lists; they are
    parsed (and repaired) by :func:`parse_hugginggpt`.
    """
    path = Path(path)
    try:
        messages = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise InvalidInstanceError(str(path), _not_utf8(exc)) from None
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInstanceError(str(path), f"cannot be read as a JSON message list ({exc})") from None
    if not isinstance(messages, list):
        raise InvalidInstanceError(str(path), f"must hold a JSON list of messages, got {type(messages).__name__}")
    out = []
    n = 0
    for k, msg in enumerate(messages):
        if not isinstance(msg, dict):
            raise InvalidInstanceError(f"{path.name}[{k}]", f"message must be a JSON object, got {msg!r:.60}")
        if msg.get("role") != "assistant":
            continue
        if "content" not in msg:
            raise InvalidInstanceError(f"{path.name}[{k}]", "assistant message has no 'content'")
        out.append(TaskGraph(f"hugginggpt-{n}", parse_hugginggpt(msg["content"], field=f"{path.name}[{k}]")))
        n += 1
    return out


def load_taskbench(path: str | os.PathLike[str]) -> list[TaskGraph]:
    """The DAGs of a TaskBench JSONL extract (``taskbench_dags.jsonl``).

    Node names are the file's (``"Translation"``, ``"Translation#2"``); the
    task type (attribute ``task``) drops a ``#n`` suffix.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InvalidInstanceError(str(path), _not_utf8(exc)) from None
    except OSError as exc:
        raise InvalidInstanceError(str(path), f"cannot be read ({exc})") from None
    out = []
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        where = f"{path.name}:{n + 1}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInstanceError(where, f"is not JSON ({exc.msg})") from None
        nodes, edges = _taskbench_record(rec, where)
        g = from_edges(nodes, edges, field=where)
        nx.set_node_attributes(g, {v: str(v).split("#")[0] for v in g}, "task")
        out.append(TaskGraph(str(rec.get("id", n)), g))
    return out


def _taskbench_record(rec: Any, where: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The ``nodes`` and ``edges`` of one TaskBench line, checked (``where`` is ``file:line``)."""
    if not isinstance(rec, dict):
        raise InvalidInstanceError(where, f"must be a JSON object, got {type(rec).__name__} {rec!r:.60}")
    for key in ("nodes", "edges"):
        if key not in rec:
            raise InvalidInstanceError(f"{where} '{key}'", "is missing")
        if not isinstance(rec[key], list):
            raise InvalidInstanceError(f"{where} '{key}'", f"must be a JSON list, got {rec[key]!r:.60}")
    if not rec["nodes"]:
        raise InvalidInstanceError(f"{where} 'nodes'", "is empty (a job needs at least one task)")
    for k, node in enumerate(rec["nodes"]):
        if not isinstance(node, str):
            hint = " (TaskBench's original format; this loader reads task names, e.g. its 'task' field)"
            raise InvalidInstanceError(f"{where} 'nodes'[{k}]", f"= {node!r:.60} must be a task name string"
                                       + (hint if isinstance(node, dict) else ""))
    edges = []
    for k, edge in enumerate(rec["edges"]):
        if not (isinstance(edge, list) and len(edge) == 2 and all(isinstance(e, str) for e in edge)):
            raise InvalidInstanceError(f"{where} 'edges'[{k}]",
                                       f"= {edge!r:.60} must be a [source, target] pair of names")
        edges.append((edge[0], edge[1]))
    return list(rec["nodes"]), edges
