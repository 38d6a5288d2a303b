"""Scenarios of the `genai` family (ComDOS paper, section IV-A) and the ``aisched compare genai`` protocol.

Settings of section IV-A:

- 5-second slots; 100 / 200 / 500 slots; 5 / 10 / 20 edge clouds;
- edge memory of a server with 4 GPUs: ``homo-S`` 4x RTX 3060 (12 GB) = 48 GB,
  ``homo-M`` 4x RTX 4090 (24 GB) = 96 GB, ``homo-L`` 4x Tesla V100 (32 GB) = 128 GB,
  ``hetero`` each edge drawn from the three; a number gives GB directly;
- Poisson arrivals per slot (rate 3 / 5 / 7 in the paper);
- revenue ``b_i`` "in proportion to its overall resource demand multiplied by
  a reference average completion time": ``REVENUE_RATE`` x resource demand
  (sum over tasks of the mean candidate model size, GB) x reference completion
  time (rank (10) of the entry: the critical path at mean runtimes, slots)
  (``revenue_rule="proportional"``, default). ``revenue_rule="random_factor"``
  (the earlier generator) also multiplies by ``U(0.5, 3)``;
- deadline "generated randomly within the range between its arrival time and
  the experiment end time": uniform integer in ``[a_i, T-1]``
  (``deadline_rule="arrival"``, default; a job whose deadline falls before
  its fastest finish cannot run and is declined by every algorithm).
  ``deadline_rule="earliest_finish"`` (the earlier rule) draws it in
  ``[min(a_i + critical path at the fastest models - 1, T-1), T-1]``.

Where section IV.A is silent we chose: the proportionality constant
``REVENUE_RATE`` (0.02 money per GB-slot), resource demand in GB of model
memory (the resource of (5h)), "reference average completion time" as the
critical path at mean runtimes, and the unit costs below. Four of these
choices are declared silent parameters with the range the text allows
(:mod:`aisched.scenarios.genai.silent`, docs/readings/genai.md genai
A-silent): ``revenue_scale``, ``candidate_shuffle`` (the candidates' order,
which decides HEFT-MA's ties and HEFT-A's model), ``transfer_scale`` and
``runtime_scale``; each defaults to the instance drawn before them.

DAGs (``dag_source``): ``"taskbench"`` samples the 342 TaskBench
HuggingFace-tool graphs of ``taskbench_dags.jsonl`` (microsoft/JARVIS,
MIT licence; see its README), ``"hugginggpt"`` the 6 task plans of the
HuggingGPT demo (``hugginggpt_demo_parse_task.json``, repaired by
:func:`aisched.dag.parse_hugginggpt`), ``"generator"`` random DAGs
(:func:`aisched.dag.random_dag`, 2-5 tasks, at most 2 children per task)
with task types drawn from :data:`MODEL_POOLS`. Files are found by
:func:`aisched.data.data_file` (``$AISCHED_DATA``, the user cache, ``../shared/data``).

Candidate models per task type (:data:`MODEL_POOLS`): public Hugging Face
models a HuggingGPT-style system would pick, with fp16 weight sizes (GB,
rounded from the model cards' parameter counts x 2 bytes) and a typical
runtime of one request in 5-second slots (our estimate for one GPU; ``workload="gpu_priced"`` takes
published inference times instead, :mod:`aisched.scenarios.genai.runtimes`);
compute per slot is taken proportional to model size (``COMPUTE_PER_GB``
units per GB per slot). Per job, each runtime is scaled by ``U(0.8, 1.5)``
(rounded, >= 1; ``legacy`` only). Data sizes per DAG edge follow the parent's output
modality (text 0.01 MB, image 1.5 MB, audio 1 MB, video 10 MB). Unit costs
per edge: compute 0.01 per unit, hosting 0.01 per GB-slot, transfer 0.02 per
MB, each times ``U(0.8, 1.2)``.

Defaults. :func:`generate`'s defaults are those of ``aisched compare genai``
(:data:`~aisched.scenarios.genai.defaults.DEFAULT_SCENARIO`: 2 edges of 8 GB, 12 slots,
6 TaskBench jobs), so ``generate()``, :func:`default_instance` and the command without
options build the same instance; :func:`paper_instance` draws section IV-A's setting
(:data:`~aisched.scenarios.genai.defaults.PAPER_SCENARIO`: 10 edges of homo-M, 200 slots,
Poisson(5)). The named scenarios state every size they use, so a default never sizes them.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any, Literal

import numpy as np

from aisched import dag
from aisched.core.parameters import one_of
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.models.genai import GenaiInstance
from aisched.scenarios.genai.defaults import (
    CAPACITY_GB,
    DEADLINE_RULES,
    DEFAULT_SCENARIO,
    PAPER_SCENARIO,
    REVENUE_RULES,
    WORKLOADS,
)

__all__ = ["CAPACITY_GB", "MODEL_POOLS", "WORKLOADS", "Workload", "generate", "task_category", "default_instance",
           "paper_instance", "DEFAULT_SCENARIO", "PAPER_SCENARIO", "DeadlineRule", "RevenueRule", "DEADLINE_RULES",
           "REVENUE_RULES"]

DeadlineRule = Literal["arrival", "earliest_finish"]
RevenueRule = Literal["proportional", "random_factor"]
Workload = Literal["legacy", "gpu_priced"]

SLOT_SECONDS = 5
REVENUE_RATE = 0.02
COMPUTE_PER_GB = 1.0
UNIT_COST = {"compute": 0.01, "hosting": 0.01, "transfer": 0.02}
DATA_MB = {"text": 0.01, "image": 1.5, "audio": 1.0, "video": 10.0}

#: task category -> (output modality, [(model, size GB, runtime slots), ...]); first = the default model.
#: The runtime slots are the ``legacy`` workload's estimates; ``gpu_priced`` reads ``runtimes.RUNTIMES``.
MODEL_POOLS: dict[str, tuple[str, list[tuple[str, float, int]]]] = {
    "text-to-image": ("image", [("runwayml/stable-diffusion-v1-5", 2.1, 2),
                                ("stabilityai/stable-diffusion-2-1", 2.6, 2),
                                ("stabilityai/stable-diffusion-xl-base-1.0", 6.9, 3)]),
    "image-to-image": ("image", [("timbrooks/instruct-pix2pix", 2.2, 2),
                                 ("lllyasviel/sd-controlnet-canny", 2.9, 2),
                                 ("lambdalabs/sd-image-variations-diffusers", 2.0, 2)]),
    "text-to-video": ("video", [("damo-vilab/text-to-video-ms-1.7b", 3.5, 6),
                                ("cerspense/zeroscope_v2_576w", 3.6, 5)]),
    "image-to-text": ("text", [("nlpconnect/vit-gpt2-image-captioning", 0.5, 1),
                               ("Salesforce/blip-image-captioning-large", 0.9, 1),
                               ("Salesforce/blip2-opt-2.7b", 7.7, 2)]),
    "visual-question-answering": ("text", [("dandelin/vilt-b32-finetuned-vqa", 0.5, 1),
                                           ("Salesforce/blip-vqa-base", 0.8, 1),
                                           ("Salesforce/blip2-opt-2.7b", 7.7, 2)]),
    "document-question-answering": ("text", [("impira/layoutlm-document-qa", 0.5, 1),
                                             ("naver-clova-ix/donut-base-finetuned-docvqa", 0.8, 1)]),
    "vision": ("text", [("facebook/detr-resnet-50", 0.2, 1), ("facebook/detr-resnet-101", 0.3, 1),
                        ("Intel/dpt-large", 1.4, 1)]),
    "text-generation": ("text", [("google/flan-t5-large", 1.6, 1), ("meta-llama/Llama-2-7b-chat-hf", 13.5, 2),
                                 ("mistralai/Mistral-7B-Instruct-v0.1", 14.5, 2)]),
    "text": ("text", [("facebook/bart-large-cnn", 0.8, 1), ("t5-base", 0.5, 1),
                      ("facebook/nllb-200-distilled-1.3B", 2.6, 1)]),
    "speech-recognition": ("text", [("openai/whisper-base", 0.2, 1), ("openai/whisper-large-v2", 3.1, 2),
                                    ("facebook/wav2vec2-base-960h", 0.4, 1)]),
    "text-to-speech": ("audio", [("microsoft/speecht5_tts", 0.6, 1), ("suno/bark", 4.5, 3)]),
    "audio": ("audio", [("MIT/ast-finetuned-audioset-10-10-0.4593", 0.2, 1),
                        ("speechbrain/sepformer-wham", 0.1, 1), ("facebook/musicgen-small", 1.2, 2)]),
}

_EXACT = {
    "text-to-image": "text-to-image", "openpose-text-to-image": "text-to-image",
    "image-editing": "image-to-image", "image-to-image": "image-to-image", "openpose-control": "image-to-image",
    "text-to-video": "text-to-video", "image-to-text": "image-to-text",
    "visual-question-answering": "visual-question-answering",
    "document-question-answering": "document-question-answering",
    "object-detection": "vision", "image-segmentation": "vision", "depth-estimation": "vision",
    "image-classification": "vision", "text-generation": "text-generation",
    "conversational": "text-generation", "automatic-speech-recognition": "speech-recognition",
    "text-to-speech": "text-to-speech", "audio-classification": "audio", "audio-to-audio": "audio",
}


def task_category(name: str) -> str:
    """The :data:`MODEL_POOLS` key of a task type (HuggingGPT ``text-to-image`` or TaskBench ``Text-to-Image``).

    Names outside the table (TaskBench's LLM-invented tools) go by keyword:
    video, speech / voice / audio, image / visual / object / ocr / color, else text.
    """
    key = name.strip().lower().replace(" ", "-").split("#")[0]
    if key in _EXACT:
        return _EXACT[key]
    if "video" in key:
        return "text-to-video"
    if "speech" in key or "voice" in key or "audio" in key:
        return "speech-recognition" if "text" in key else "audio"
    if any(w in key for w in ("image", "visual", "object", "ocr", "color")):
        return "vision"
    return "text"


@functools.lru_cache(maxsize=4)
def _trace_graphs(source: str, path: str) -> tuple:
    p = Path(path)
    if not p.is_file():
        raise InvalidScenarioError("dag_source", f"{source!r} needs {p}, which does not exist "
                                   "(set AISCHED_DATA or use dag_source='generator')")
    loaded = dag.load_taskbench(p) if source == "taskbench" else dag.load_hugginggpt(p)
    return tuple(tg.graph for tg in loaded)


def _graphs(source: str, n: int, rng: np.random.Generator) -> list[tuple[list[str], list[tuple[int, int]]]]:
    out = []
    if n == 0:  # no jobs: no DAG file is needed
        return out
    if source == "generator":
        cats = list(MODEL_POOLS)
        for _ in range(n):
            g = dag.random_dag(int(rng.integers(2, 6)), edge_prob=0.4, max_children=2, seed=rng)
            out.append(([cats[int(rng.integers(len(cats)))] for _ in g], list(g.edges)))
        return out
    file = "taskbench_dags.jsonl" if source == "taskbench" else "hugginggpt_demo_parse_task.json"
    graphs = _trace_graphs(source, str(data_file(file)))  # a missing file's error says how to get it
    for idx in rng.integers(len(graphs), size=n):
        g = graphs[int(idx)]
        pos = {v: p for p, v in enumerate(g)}
        out.append(([str(g.nodes[v]["task"]) for v in g], [(pos[a], pos[b]) for a, b in g.edges]))
    return out


#: Size guards of :func:`generate` (raise them if you mean it): expected jobs, (edge, slot) cells.
MAX_JOBS = 100_000
MAX_EDGE_SLOTS = 10_000_000


def _check(name: str, value: Any, low: float, *, integer: bool = True) -> None:
    bad_type = isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, np.integer) if integer else (int, float, np.number))
    # integers are finite (np.isfinite fails on a Python int beyond int64)
    if bad_type or not (isinstance(value, (int, np.integer)) or np.isfinite(value)) or value < low:
        kind = "an integer" if integer else "a number"
        raise InvalidScenarioError(name, f"= {value!r} must be {kind} >= {low}")


def generate(seed: int = DEFAULT_SCENARIO["seed"], edges: int = DEFAULT_SCENARIO["edges"],
             slots: int = DEFAULT_SCENARIO["slots"], arrival_rate: float | None = None, *,
             capacity: str | float = DEFAULT_SCENARIO["capacity"], dag_source: str = DEFAULT_SCENARIO["dag_source"],
             jobs: int | None = None,
             cost_weights: Any = (1.0, 1.0, 1.0), deadline_rule: DeadlineRule = "arrival",
             revenue_rule: RevenueRule = "proportional", term_weights: Any = None,
             capacity_scale: float = 1.0, workload: Workload = "legacy", revenue_scale: float = 1.0,
             candidate_shuffle: float = 0.0, runtime_scale: float = 1.0,
             transfer_scale: float = 1.0) -> GenaiInstance:
    """A seeded `genai` instance with section IV-A's settings (see the module docstring).

    The defaults are ``aisched compare genai``'s (:data:`DEFAULT_SCENARIO`: 2 edges of 8 GB,
    12 slots, 6 jobs); section IV-A's sizes are :func:`paper_instance`'s.

    Parameters
    ----------
    seed
        Seed of the ``numpy.random.Generator``.
    edges, slots
        ``K`` and ``T`` (5-second slots); default 2 and 12.
    arrival_rate
        Poisson mean of job arrivals per slot (ignored when ``jobs`` is given). None (default)
        with ``jobs`` None: ``DEFAULT_SCENARIO["jobs"]`` (6) jobs, the command line's rule.
    capacity
        ``"homo-S"``, ``"homo-M"``, ``"homo-L"``, ``"hetero"`` or GB per edge (default 8 GB).
    dag_source
        ``"taskbench"``, ``"hugginggpt"`` or ``"generator"``.
    jobs
        Exact job count, arrivals uniform over the slots (instead of Poisson).
    cost_weights
        (computation, communication, hosting) weights of the objective (Fig. 8).
    deadline_rule
        ``"arrival"`` (default, section IV.A): uniform in ``[a_i, T-1]``;
        ``"earliest_finish"``: from the fastest possible finish (the earlier rule).
    revenue_rule
        ``"proportional"`` (default, section IV.A): ``REVENUE_RATE`` x demand x
        reference completion time; ``"random_factor"``: times ``U(0.5, 3)`` (the earlier rule).
    term_weights
        Fig. 8 read as weighting the four terms of section II.E, 1)-4): (revenue (1),
        computation (2), communication (3), hosting (4)); the revenues ``b_i`` are
        multiplied by the first, the rest become ``cost_weights`` (``docs/readings/genai.md``
        genai A9). Exclusive with a non-default ``cost_weights``.
    capacity_scale
        Multiplies every edge's memory ``c^s_k`` after ``capacity`` set it (> 0;
        default 1: the paper's capacities). A scarcity knob for regime maps:
        at 1/16 of homo-M (6 GB an edge) the largest models (6.9, 7.7 GB)
        no longer fit; at 1/64 (1.5 GB) only the small ones do. Draws nothing:
        every other array of the instance is the same as at 1.
    workload
        ``"legacy"`` (default): the unit costs and ``REVENUE_RATE`` above.
        ``"gpu_priced"`` (beside it; docs/readings/genai.md A2b): the same draws
        (DAGs, deadlines, the per-edge ``U(0.8, 1.2)`` factors); runtimes are the published inference
        times of :mod:`aisched.scenarios.genai.runtimes` in slots on an RTX 4090 (one per model, no
        per-job ``U(0.8, 1.5)`` factor: no source motivates it, and section II.C gives each model its
        "pre-specified configurations", e.g. inference steps; the factor is still drawn so that every other draw
        stays shared); costs in US cents
        from the median spot price of a 24 GB NVIDIA L4 on Google Cloud
        (:func:`aisched.scenarios.genai.prices.gpu_price`) spread over its memory per GB-slot (half
        computation, half hosting, transfer per MB at the GB-slot price, the legacy proportions), and the
        revenue rate chosen so that the median job's reference schedule (every task at the mean over its
        candidates of the cost at mean unit costs) is paid at the on-demand price: rate = (on-demand /
        spot) x median_i(reference cost_i / (demand_i x reference completion time_i)).
    revenue_scale
        Multiplies every revenue ``b_i`` (> 0; default 1: the rate above). Section IV.A prices revenue
        "in proportion to its overall resource demand multiplied by a reference average completion
        time" and gives no constant: this is the constant's free factor, a silent parameter (
        :mod:`aisched.scenarios.genai.silent`, docs/readings/genai.md A-silent). Under ``gpu_priced``,
        ``1 / (1 + markup)`` (0.361) is markup 0: the median job's reference schedule is paid its cost.
        Draws nothing; with ``term_weights`` the two factors multiply.
    candidate_shuffle
        Share of tasks, in [0, 1], whose candidate models are listed in a seeded random order instead
        of :data:`MODEL_POOLS`' order (default 0: the pools' order, every instance as drawn before the option existed).
        The order decides HEFT-MA's tie among equally fast candidates ("the model with the shortest
        execution time", section IV.A, says nothing of ties) and HEFT-A's and Random-A's model (the first
        listed; the paper gives them no model selection, reading A6). The permutations come from their own
        stream (``numpy.random.default_rng((seed, 42))``), so every other draw stays the same; IP (5) and
        ComDOS do not depend on the order.
    runtime_scale
        Multiplies every candidate's runtime before it is rounded to whole slots (>= 1 in the silent range;
        any > 0 accepted; default 1: the sourced seconds on an RTX 4090 under ``gpu_priced``, our estimate
        x ``U(0.8, 1.5)`` under ``legacy``). The paper gives no runtime; its edges are RTX 3060 / 4090 /
        V100 servers (section IV.A) and Fig. 3's example has mean runtimes of 3-7 slots, where ours are
        one slot for 95 % of candidates.
    transfer_scale
        Multiplies every edge's unit transfer cost ``e^p_k`` of (3) (> 0; default 1). Section IV.A gives no
        unit cost; ours prices a MB at the GB-slot price (``gpu_priced``: about 0.015 US dollars a GB, a
        cloud's inter-zone rate), while edge clouds at "a specified location (e.g., neighborhood, regional
        center)" (section II.A) may pay inter-region or internet egress, up to about 8x that. Draws nothing.

    Raises
    ------
    InvalidScenarioError
        Naming the bad parameter, before any work.
    """
    _check("seed", seed, 0)
    _check("edges", edges, 1)
    _check("slots", slots, 1)
    if arrival_rate is not None:
        _check("arrival_rate", arrival_rate, 0, integer=False)
    if jobs is not None:
        _check("jobs", jobs, 0)
    elif arrival_rate is None:  # neither given: the command line's default count
        jobs = DEFAULT_SCENARIO["jobs"]
    rate = 0.0 if arrival_rate is None else float(arrival_rate)  # used only without `jobs` (then it is given)
    expected = float(jobs) if jobs is not None else rate * float(slots)
    if expected > MAX_JOBS:  # a size guard, before any allocation
        what, value = ("jobs", jobs) if jobs is not None else ("arrival_rate", arrival_rate)
        raise InvalidScenarioError(what, f"= {value!r} implies about {expected:.3g} jobs, more than the limit "
                                   f"MAX_JOBS = {MAX_JOBS} (paper scale is about 1,400; raise "
                                   "aisched.scenarios.genai.generator.MAX_JOBS if you mean it)")
    if int(edges) * int(slots) > MAX_EDGE_SLOTS:
        raise InvalidScenarioError("edges", f"= {edges!r} x slots = {int(edges) * int(slots)} (edge, slot) cells, "
                                   f"more than the limit MAX_EDGE_SLOTS = {MAX_EDGE_SLOTS} (raise "
                                   "aisched.scenarios.genai.generator.MAX_EDGE_SLOTS if you mean it)")
    one_of("deadline_rule", deadline_rule, DEADLINE_RULES)
    one_of("workload", workload, WORKLOADS)
    one_of("revenue_rule", revenue_rule, REVENUE_RULES)
    one_of("dag_source", dag_source, ("taskbench", "hugginggpt", "generator"))
    if isinstance(capacity, str):
        if capacity not in (*CAPACITY_GB, "hetero"):
            raise InvalidScenarioError("capacity", f"= {capacity!r}, use homo-S, homo-M, homo-L, hetero or GB")
    else:
        _check("capacity", capacity, 1e-9, integer=False)
    if isinstance(capacity_scale, bool) or not isinstance(capacity_scale, (int, float)) \
            or not math.isfinite(capacity_scale) or capacity_scale <= 0:
        raise InvalidScenarioError("capacity_scale", f"= {capacity_scale!r} must be a number > 0")
    for name, value in (("revenue_scale", revenue_scale), ("runtime_scale", runtime_scale),
                        ("transfer_scale", transfer_scale)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) \
                or not math.isfinite(value) or value <= 0:
            raise InvalidScenarioError(name, f"= {value!r} must be a number > 0")
    if isinstance(candidate_shuffle, bool) or not isinstance(candidate_shuffle, (int, float, np.number)) \
            or not 0.0 <= candidate_shuffle <= 1.0:
        raise InvalidScenarioError("candidate_shuffle", f"= {candidate_shuffle!r} must be a number in [0, 1]")
    weights = np.asarray(cost_weights, dtype=float)
    if weights.shape != (3,) or not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise InvalidScenarioError("cost_weights", f"= {cost_weights!r} must be 3 numbers >= 0")
    revenue_weight = 1.0
    if term_weights is not None:
        terms = np.asarray(term_weights, dtype=float) if np.ndim(term_weights) == 1 else np.zeros(0)
        if terms.shape != (4,) or not np.all(np.isfinite(terms)) or np.any(terms < 0):
            raise InvalidScenarioError("term_weights", f"= {term_weights!r} must be 4 numbers >= 0")
        if not np.array_equal(weights, np.ones(3)):
            raise InvalidScenarioError("term_weights", "and cost_weights are exclusive: give one")
        revenue_weight, weights = float(terms[0]), terms[1:]
    rng = np.random.default_rng(seed)
    K, T = int(edges), int(slots)
    if isinstance(capacity, str) and capacity == "hetero":
        cap = rng.choice(list(CAPACITY_GB.values()), size=K)
    elif isinstance(capacity, str):
        cap = np.full(K, CAPACITY_GB[capacity])
    else:
        cap = np.full(K, float(capacity))
    cap = cap * float(capacity_scale)
    cost = {name: base * rng.uniform(0.8, 1.2, K) for name, base in UNIT_COST.items()}
    gpu, sourced = None, None
    if workload == "gpu_priced":
        from aisched.scenarios.genai.prices import gpu_price
        from aisched.scenarios.genai.runtimes import slots
        gpu = gpu_price()
        sourced = {model: slots(model, runtime_scale) for _, pool in MODEL_POOLS.values() for model, _, _ in pool}
        per_gb_slot = 100.0 * gpu.per_gb_slot(gpu.spot, SLOT_SECONDS)  # US cents; legacy costs sum to 0.02
        cost = {name: value * per_gb_slot / (UNIT_COST["compute"] * COMPUTE_PER_GB + UNIT_COST["hosting"])
                for name, value in cost.items()}
    mean_rate = COMPUTE_PER_GB * float(cost["compute"].mean()) + float(cost["hosting"].mean())  # per GB-slot
    if jobs is None:
        arrival = np.repeat(np.arange(T), rng.poisson(rate, T))
    else:
        arrival = np.sort(rng.integers(0, T, int(jobs)))
    n_jobs = arrival.size
    # global model table
    names: list[str] = []
    sizes: list[float] = []
    index: dict[str, int] = {}
    for _, pool in MODEL_POOLS.values():
        for model, size, _ in pool:
            if model not in index:
                index[model] = len(names)
                names.append(model)
                sizes.append(size)
    graphs = _graphs(dag_source, n_jobs, rng)
    order_rng = np.random.default_rng((int(seed), 42)) if candidate_shuffle > 0 else None
    J = max([len(t) for t, _ in graphs] + [1])
    C = max(len(pool) for _, pool in MODEL_POOLS.values())
    E = max([len(e) for _, e in graphs] + [1])
    cand = np.full((n_jobs, J, C), -1)
    run = np.zeros((n_jobs, J, C), dtype=np.int64)
    comp = np.zeros((n_jobs, J, C))
    types = np.full((n_jobs, J), "", dtype=object)
    dag_edge = np.full((n_jobs, E, 2), -1)
    data = np.zeros((n_jobs, E))
    revenue = np.zeros(n_jobs)
    basis = np.zeros(n_jobs)  # demand x reference completion time (GB-slots)
    reference_cost = np.zeros(n_jobs)  # every task at the mean of its candidates' costs, mean unit costs
    deadline = np.zeros(n_jobs, dtype=np.int64)
    for i, (tasks, pairs) in enumerate(graphs):
        g = dag.from_edges(range(len(tasks)), pairs)
        mean_f, fast_f, demand = {}, {}, 0.0
        for j, name in enumerate(tasks):
            _, pool = MODEL_POOLS[task_category(name)]
            types[i, j] = name
            place = np.arange(len(pool))  # where pool entry c is listed
            if order_rng is not None and order_rng.random() < candidate_shuffle:
                place = order_rng.permutation(len(pool))
            for c, (model, size, base) in enumerate(pool):
                at = int(place[c])
                cand[i, j, at] = index[model]
                jitter = rng.uniform(0.8, 1.5)  # drawn under both workloads, so they share every other draw
                run[i, j, at] = max(1, round(base * jitter * runtime_scale)) if sourced is None else sourced[model]
                comp[i, j, at] = COMPUTE_PER_GB * size
            valid = cand[i, j] >= 0
            mean_f[j] = float(run[i, j][valid].mean())
            fast_f[j] = float(run[i, j][valid].min())
            demand += float(np.mean([s for _, s, _ in pool]))
            reference_cost[i] += float(np.mean([run[i, j, int(place[c])] * size * mean_rate
                                                for c, (_, size, _) in enumerate(pool)]))
        for e, (a, b) in enumerate(pairs):
            dag_edge[i, e] = (a, b)
            data[i, e] = DATA_MB[MODEL_POOLS[task_category(tasks[a])][0]]
        ref_time = max(dag.ranks(g, mean_f).values())
        factor = rng.uniform(0.5, 3.0)  # drawn under both rules, so the rules share every other draw
        basis[i] = demand * ref_time
        rate = REVENUE_RATE if gpu is None else 1.0  # gpu_priced: its rate is set below, from every job
        revenue[i] = rate * (factor if revenue_rule == "random_factor" else 1.0) * demand * ref_time
        if deadline_rule == "earliest_finish":
            earliest = min(int(arrival[i]) + int(max(dag.ranks(g, fast_f).values())) - 1, T - 1)
        else:
            earliest = int(arrival[i])
        deadline[i] = rng.integers(earliest, T)
    if gpu is None:
        revenue = np.round(revenue, 6)
    elif n_jobs:
        revenue = revenue * ((1.0 + gpu.markup) * float(np.median(reference_cost / basis)))
    return GenaiInstance(
        num_slots=T, memory_capacity=cap, compute_cost=cost["compute"],
        transfer_cost=cost["transfer"] * float(transfer_scale),
        hosting_cost=cost["hosting"], model_size=np.array(sizes), model_name=np.array(names),
        arrival=arrival, deadline=deadline, revenue=revenue * revenue_weight * float(revenue_scale),
        num_tasks=np.array([len(t) for t, _ in graphs], dtype=np.int64), task_type=types.astype(str),
        candidate_model=cand, runtime=run, compute=comp, dag_edge=dag_edge, data_size=data,
        cost_weight=weights,
    )


def default_instance() -> GenaiInstance:
    """``generate(**DEFAULT_SCENARIO)``: the instance of ``aisched compare genai`` without options, and of
    ``generate()``."""
    return generate(**DEFAULT_SCENARIO)


def paper_instance(seed: int = 0) -> GenaiInstance:
    """Section IV-A's setting as the paper's figures run it: ``generate(seed, **PAPER_SCENARIO)``.

    10 edges of homo-M memory (96 GB), 200 five-second slots, Poisson(5) arrivals (about 1,000
    TaskBench jobs) on the ``gpu_priced`` workload: the base point of ``genai/fig4-slots`` to
    ``genai/fig8-weights``. Building it takes about a second.

    Parameters
    ----------
    seed
        Seed of the draw (>= 0).
    """
    return generate(seed=seed, **PAPER_SCENARIO)
