"""Sourced inference times of the genai models (docs/readings/genai.md A2b)."""

from __future__ import annotations

import hashlib
import math
import re

import numpy as np
import pytest

from aisched.data import data_file
from aisched.scenarios import genai
from aisched.scenarios.genai import runtimes
from aisched.scenarios.genai.generator import MODEL_POOLS

POOL_MODELS = sorted({model for _, pool in MODEL_POOLS.values() for model, _, _ in pool})


def test_table_covers_every_model_of_every_pool_and_nothing_else():
    assert sorted(runtimes.RUNTIMES) == POOL_MODELS


@pytest.mark.parametrize("model", POOL_MODELS)
def test_every_entry_is_sourced(model):
    entry = runtimes.RUNTIMES[model]
    assert math.isfinite(entry.seconds) and entry.seconds > 0
    assert entry.bound in ("compute", "memory")
    assert entry.source.strip()
    # every cited key is one of the sources the module docstring names
    keys = re.findall(r"\[([a-z0-9 -]+)\]", entry.source)
    assert keys, f"{model}: its source cites no [key]"
    for key in keys:
        assert f"[{key}]" in runtimes.__doc__
    table = runtimes.MEMORY_BANDWIDTH_GBS if entry.bound == "memory" else runtimes.SD_ITERATIONS_PER_SECOND
    assert entry.gpu == runtimes.NOT_STATED or entry.gpu in table
    if entry.proxy:  # a proxy says which model stands in and why
        assert "proxy" in entry.proxy


def test_slots_convert_by_the_stated_scaling_and_round_up():
    sd = runtimes.SD_ITERATIONS_PER_SECOND
    bw = runtimes.MEMORY_BANDWIDTH_GBS
    compute = runtimes.Runtime(6.0, "V100", "compute", "x")
    assert runtimes.reference_seconds(compute) == pytest.approx(6.0 * sd["V100"] / sd["RTX 4090"])
    memory = runtimes.Runtime(6.0, "A100-80G", "memory", "x")
    assert runtimes.reference_seconds(memory) == pytest.approx(6.0 * bw["A100-80G"] / bw["RTX 4090"])
    assert runtimes.reference_seconds(runtimes.Runtime(0.3, runtimes.NOT_STATED, "compute", "x")) == 0.3
    on_4090 = [runtimes.Runtime(s, "RTX 4090", "compute", "x") for s in (0.01, 4.99, 5.0, 5.01, 15.77)]
    assert [runtimes.runtime_slots(r) for r in on_4090] == [1, 1, 1, 2, 4]
    assert runtimes.runtime_slots(compute) == 1 and runtimes.runtime_slots(memory) == 3  # 2.81 s, 12.14 s


def test_the_figures_read_from_the_sources():
    """The arithmetic on the published numbers, spelled out once (module docstring)."""
    r = runtimes.RUNTIMES
    assert r["runwayml/stable-diffusion-v1-5"].seconds == pytest.approx(50 / 40.5)
    assert r["lllyasviel/sd-controlnet-canny"].seconds == pytest.approx(50 / 29.27)
    assert r["stabilityai/stable-diffusion-xl-base-1.0"].seconds == pytest.approx(11.413 / 4)
    assert r["meta-llama/Llama-2-7b-chat-hf"].seconds == pytest.approx(2562.435 / 10.275 / 102.21)
    assert r["suno/bark"].seconds == 10.48 and r["suno/bark"].gpu == "TITAN RTX"
    assert r["facebook/detr-resnet-50"].seconds == 0.036
    assert r["openai/whisper-base"].seconds == pytest.approx(r["openai/whisper-large-v2"].seconds / 7)


def _instance_kwargs():
    return {"seed": 3, "edges": 3, "slots": 30, "arrival_rate": 2.0, "dag_source": "generator", "capacity": "homo-M"}


def need_prices():
    if data_file("gcp_gpu_price_weekly.csv", required=False) is None:
        pytest.skip("gcp_gpu_price_weekly.csv absent from every data folder")


def test_gpu_priced_instances_use_the_tables_slots():
    need_prices()
    inst = genai.generate(**_instance_kwargs(), workload="gpu_priced")
    valid = inst.candidate_model >= 0
    assert valid.any()
    expected = np.vectorize(lambda m: runtimes.slots(str(inst.model_name[m])))(inst.candidate_model[valid])
    np.testing.assert_array_equal(inst.runtime[valid], expected)
    assert np.all(inst.runtime[~valid] == 0)
    # no per-job factor: one model, one runtime, whatever the job
    for m in np.unique(inst.candidate_model[valid]):
        assert len(set(inst.runtime[inst.candidate_model == m].tolist())) == 1


def _fingerprint(inst) -> str:
    h = hashlib.sha256()
    for name in ("arrival", "deadline", "revenue", "runtime", "candidate_model", "compute", "dag_edge", "data_size",
                 "memory_capacity", "compute_cost", "hosting_cost", "transfer_cost", "model_size"):
        h.update(np.ascontiguousarray(np.asarray(getattr(inst, name))).tobytes())
    return h.hexdigest()[:16]


def test_legacy_instances_are_the_ones_before_the_sourced_runtimes():
    """Fingerprints recorded with the generator at ad93cb1, before the sourced runtimes existed."""
    inst = genai.generate(seed=0, edges=3, slots=30, arrival_rate=2.0, dag_source="generator", capacity="homo-M")
    assert _fingerprint(inst) == "46f5613bc2ed8c06"
    if data_file("taskbench_dags.jsonl", required=False) is not None:
        inst = genai.generate(seed=5, edges=4, slots=40, arrival_rate=3.0, dag_source="taskbench", capacity="homo-M")
        assert _fingerprint(inst) == "eb02e8a2bcbd05d0"
