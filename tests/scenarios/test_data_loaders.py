"""Every family's trace loader finds its file through ``data_file``.

The files are small fixtures written here (same format as the shared
extracts), put in ``$AISCHED_DATA`` while ``../shared/data`` and the user
cache are hidden; with nothing anywhere, the error names the command that
fetches the file (or how to make derived data). No test here needs
``../shared/data``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from aisched import _paths
from aisched.data import DATASETS
from aisched.errors import InvalidScenarioError
from aisched.scenarios import genai, spot, tenants
from aisched.scenarios import lora as lora_sc

PHILLY = "timestamp,duration,num_gpus,gpu_time,cluster\n" + "".join(
    f"2017-10-09 {h:02d}:{m:02d}:00,66.0,{1 + (h + m) % 4},66.0,{'11cb48' if m % 2 else '6214e9'}\n"
    for h in range(0, 24, 2) for m in (1, 17, 33, 49))
TASKBENCH = "\n".join(json.dumps(r) for r in (
    {"id": "1", "domain": "huggingface", "type": "chain", "nodes": ["Image Classification", "Text-to-Speech"],
     "edges": [["Image Classification", "Text-to-Speech"]]},
    {"id": "2", "domain": "huggingface", "type": "chain", "nodes": ["Translation", "Conversational"],
     "edges": [["Translation", "Conversational"]]},
    {"id": "3", "domain": "huggingface", "type": "single", "nodes": ["Summarization"], "edges": []},
)) + "\n"
HUGGINGGPT = json.dumps([  # the demo's format: user / assistant messages, the assistant's content a task list
    {"role": "user", "content": "describe a.jpg aloud"},
    {"role": "assistant", "content": json.dumps([
        {"task": "image-to-text", "id": 0, "dep": [-1], "args": {"image": "a.jpg"}},
        {"task": "text-to-speech", "id": 1, "dep": [0], "args": {"text": "<GENERATED>-0"}}])},
])
AWS = json.dumps({"metadata": {"gap_seconds": 195}, "data": [(k // 40) % 5 for k in range(4000)]})
GCP = ("commit_time,machine_type,region,hour,hour_spot\n"
       "2026-07-30T06:13:37+00:00,a2-highgpu-1g,us-central1,3.6,1.8\n"
       "2026-07-23T06:13:37+00:00,a2-highgpu-1g,us-central1,3.6,1.2\n")
#: Both series of the extract per snapshot (the loader reads the SXM4 one by default).
VAST = "timestamp,gpu_type,socket_type,n_offers,n_available,price_min,price_p10,price_median,price_p90,price_max\n" + "".join(
    f"2025-10-{19 + k // 48:02d}T{(k % 48) // 2:02d}:{30 * (k % 2):02d}:00,A100_80GB,{socket},40,{base + k % 9},0.9,1.0,"
    f"{1.2 + 0.01 * (k % 7):.2f},1.6,1.7\n" for k in range(48 * 6) for socket, base in (("PCIe", 30), ("SXM4", 5)))


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$AISCHED_DATA`` = an empty temp folder; the user cache empty and ``../shared/data`` hidden."""
    home = tmp_path / "data"
    home.mkdir()
    monkeypatch.setenv("AISCHED_DATA", str(home))
    monkeypatch.setenv("AISCHED_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(_paths, "SHARED_DATA", tmp_path / "no-shared")
    genai.generator._trace_graphs.cache_clear()
    yield home
    genai.generator._trace_graphs.cache_clear()


def put(home: Path, name: str, text: str) -> Path:
    path = home / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_lora_trace_found_in_aisched_data(data_home: Path) -> None:
    put(data_home, "philly_pollux_2017-10-09.csv", PHILLY)
    counts = lora_sc.arrival_counts_from_trace("philly", 144)
    assert counts.shape == (144,)  # 10-minute slots: arrivals at 0:01, 0:17, 0:33, 0:49, then 2:01, ...
    assert list(counts[:13]) == [1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]
    inst = lora_sc.generate(3, trace="philly", nodes=2, slots=12, vendors=3)
    assert inst.num_tasks > 0


def test_tenants_trace_found_in_aisched_data(data_home: Path) -> None:
    put(data_home, tenants.TRACES["day"], PHILLY)
    inst = tenants.generate(seed=1, users=2, servers=3, jobs=5, trace="day")
    assert inst.num_jobs == 5


@pytest.mark.parametrize(("source", "name", "text"), [
    ("taskbench", "taskbench_dags.jsonl", TASKBENCH),
    ("hugginggpt", "hugginggpt_demo_parse_task.json", HUGGINGGPT),
])
def test_genai_dags_found_in_aisched_data(data_home: Path, source: str, name: str, text: str) -> None:
    put(data_home, name, text)
    inst = genai.generate(seed=0, edges=2, slots=10, jobs=3, dag_source=source, capacity="homo-M")
    assert inst.num_jobs == 3


def test_spot_markets_found_in_aisched_data(data_home: Path) -> None:
    names = [f.name for f in DATASETS["spot-traces"].files if "/availability_" in f.name]
    put(data_home, names[1], AWS)  # one of the known availability traces is enough
    put(data_home, "gcp_gpu_price_weekly.csv", GCP)
    aws = spot.generate(seed=2, market="aws", deadline=6, work=20)
    assert np.all(aws.spot_price == 0.42)  # median of 1.8/3.6 and 1.2/3.6, rounded
    put(data_home, "gpu_market_price_availability_2025.csv", VAST)
    vast = spot.generate(seed=2, market="vast", deadline=6, work=20)
    assert vast.num_slots == aws.num_slots


@pytest.mark.parametrize(("call", "needle"), [
    (lambda: lora_sc.arrival_counts_from_trace("alibaba", 10), "aisched data fetch openb"),
    (lambda: lora_sc.generate(0, trace="helios", nodes=2, slots=6, vendors=3), "helios_earth_vchbv_sequence_2020-05-15.csv"),
    (lambda: tenants.generate(seed=0, users=2, servers=2, jobs=2, trace="week"), "derived data"),
    (lambda: genai.generate(seed=0, edges=2, slots=10, jobs=2, dag_source="hugginggpt", capacity="homo-M"),
     "aisched data fetch hugginggpt"),
    (lambda: genai.generate(seed=0, edges=2, slots=10, jobs=2, dag_source="taskbench", capacity="homo-M"), "taskbench_dags.jsonl"),
    (lambda: spot.generate(seed=0, market="aws"), "aisched data fetch spot-traces"),
    (lambda: spot.generate(seed=0, market="vast"), "gpu_market_price_availability_2025.csv"),
])
def test_missing_file_says_how_to_get_it(data_home: Path, call, needle: str) -> None:
    with pytest.raises(InvalidScenarioError) as err:
        call()
    text = str(err.value)
    assert needle in text and "not found in" in text and str(data_home) in text
