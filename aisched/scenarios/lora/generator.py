"""Synthetic and trace-driven scenarios for the `lora` family (pdFTSP, section 5.1).

:func:`generate` builds a :class:`~aisched.models.lora.LoraInstance` the way
section 5.1 of the paper describes its evaluation: 10-minute slots (144 a day,
slot 0 starting at midnight), A100-80GB / A40-48GB nodes (or a mix), tasks
arriving per slot from a Poisson process or a real trace, 1..5 epochs over
5k..20k training samples, labour vendors with prices and delays, bids, and an
energy (operational) cost with a time-of-day price. :func:`default_instance`
is a small embedded scenario for the project's main job, also ``generate()`` and
``aisched compare lora``; :func:`paper_instance` draws section 5.1's setting (100 nodes, a day).

Distributions (``U{a..b}`` integer uniform, ``U(a, b)`` continuous uniform)
---------------------------------------------------------------------------
======================  ==============================================  ==========================
quantity                distribution / formula                          source / rationale
======================  ==============================================  ==========================
tasks per slot          ``Poisson(arrival_rate)``; or ``tasks=n`` with  paper 5.2 (Poisson 30/50/80
                        slots ``U{0..T-1}``; or a trace rescaled to     a slot); traces: Philly
                        mean ``arrival_rate`` (stochastic rounding)     (Jeon et al., ATC'19)
node type               ``gpu_mix``: all A100, all A40, or alternate    paper 5.1 (A100, A40, mix)
                        (node ``k`` even -> A100)
``C_km`` (GB)           80 (A100-80GB), 48 (A40-48GB)                   GPU memory
``C_kp`` (samples/slot) rate x 600 s, down to a multiple of             ``BASE_MODELS``; A40 rate
                        ``work_unit``                                   = A100 x 0.716 (CSV)
batch share ``u_i``     ``U(m, m + 0.4)``, ``m = min_batch_share``      multi-LoRA: 2..10 adapters
                        (0.33: ``U(0.33, 0.73)``)                       share a node's throughput
``s_ik``                ``u_i x C_kp`` down to a multiple of            same share on every node
                        ``work_unit``, at least ``work_unit``
epochs, samples         ``U{1..5}``, ``U{5000..20000}``                 paper 5.1 (Samsum-sized)
``M_i``                 epochs x samples, up to a multiple of           work in samples
                        ``work_unit``
``r_i`` (GB)            gpt2: 2 + 20 u_i (4..12); llama-2-7b:           adapter + optimizer state
                        4 + 24 u_i (6.5..16); to 0.5 GB                 + activations grow with u_i
``f_i``                 ``Bernoulli(0.5)`` (all False if no vendors)    paper leaves it open
``h_in`` (slots)        ``U{0..3}`` per (task, vendor)                  0..30 min of labelling lag
``q_in``                samples_i x ``p_n`` x ``2 ** (5 - h_in)``,      price per dataset sample;
                        ``p_n ~ U(0.05, 0.25)`` once per vendor         each slot faster doubles it
                        (``vendor_pool``: drawn for a pool, nested)
``v_i``, ``b_i``        ``v_i ~ U(0.6 s, 1.8 s)``, ``s = value_scale``  bids per sample O(1)
                        (1); ``b_i = v_i x M_i``                        (Lemma 2's unit scaling)
energy_use[i, k]        node power (A100 0.4 kW, A40 0.3 kW) x u_i      kWh a slot; power ~ TDP
                        x 1/6 h                                         share of the batch
energy_price[k, t]      off-peak ``p_0``, 08:00-20:59 ``2 p_0``         time-of-day tariff
slack (deadline)        slack ``U(1.5, 3)``, tight ``U(1, 1.5)``,       paper Fig. 9 (deadline
                        loose ``U(3, 6)``, uniform (see below)          methods)
======================  ==============================================  ==========================

Money unit. One unit is about the value of processing one training sample
(``v_i`` is O(1)), so that welfare per unit of resource is O(1) as Lemma 2
assumes after scaling. The off-peak energy price ``p_0`` is calibrated per base
model so that one sample on an A100 costs ``ENERGY_COST_PER_SAMPLE = 0.25``
units off-peak and 0.5 at peak: a task's energy cost is then 23% of its bid on
average off-peak, 46% at peak and 35% at a whole day's mean price (the mean of
``0.25 / v_i`` is ``0.25 ln 3 / 1.2``); an A40 costs 0.3 / (0.4 x 0.716) =
1.05 times more per sample. Vendors: the price factor ``2 ** (5 - h)`` is 4
for the slowest (3-slot) service and doubles with each slot saved (32 for a
same-slot one), so a dataset sample costs 0.2..1.0 units with the slowest
vendor and 1.6..8 with the fastest; the bid is per processed sample (epochs
times the dataset), so the slowest vendor costs about 17% of the bid of an
average task (3 epochs, ``v_i = 1.2``) and 50% of a one-epoch one. Labelling a
sample costs far more than training on it in reality too. Then most tasks are
profitable, while some (low value per sample, one epoch, only fast vendors,
peak hours) cost more than they bid (about 5-10% of the finishable tasks
even at their cheapest vendor and slots; cheapest schedule cost is about
30-55% of the bid on average, cf. the paper's Fig. 10 example, cost 10 for
value 15): admission is a real choice, and under load the primal-dual prices
decide.

Silent options. ``min_batch_share``, ``arrival_per_node``, ``value_scale`` and ``vendor_pool``
set what section 5 leaves unstated (:mod:`~aisched.scenarios.lora.silent`); their defaults draw
today's instances exactly (tests/scenarios/lora/test_silent.py).

Declared bounds. Every instance declares, before any bid, bounds on value per
unit of resource (``max_value_per_sample``, ``max_value_per_gb_slot``,
``max_value_per_gb``; :func:`declared_value_bounds`), derived from the
distributions above and the node capacities only; pdFTSP reads its ``alpha``
and ``beta`` (Lemma 2) from them, so no bid moves its own price.

Deadlines. ``min_slots_i = ceil(M_i / max_k s_ik)``; ``h_max_i`` (``h_min_i``)
the largest (smallest) vendor delay if the task needs pre-processing, else 0.
"slack", "tight", "loose": ``d_i = a_i + h_max_i + ceil(slack_i min_slots_i)
- 1``; "uniform": ``d_i`` uniform on ``a_i + h_min_i + min_slots_i - 1 ..
T-1``. Every method draws the same ``w_i ~ U(0, 1)`` (slack = lo + (hi - lo)
w_i, or the quantile of the uniform range), so one seed gives the same tasks
under every method and only deadlines differ. Deadlines are clipped to
``T-1``: a task arriving late may then be impossible to finish, as in a real
day's end; every task keeps ``a_i <= d_i``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from aisched import _paths
from aisched.core.parameters import one_of
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.models.lora.instance import LoraInstance
from aisched.scenarios.lora import traces
from aisched.scenarios.lora.defaults import (
    DEADLINE_METHODS,
    DEFAULT_SCENARIO,
    DEFAULT_TRACE_RATE,
    GPU_MIXES,
    PAPER_SCENARIO,
)

__all__ = ["A40_A100_RATIO", "BASE_MODELS", "DATA_DIR", "DEADLINE_METHODS", "DEFAULT_SCENARIO", "DEFAULT_TRACE_RATE",
           "GPU_TYPES", "PAPER_SCENARIO", "PHILLY_TRACE", "BaseModelProfile", "arrival_counts_from_trace",
           "declared_value_bounds", "default_instance", "generate", "paper_instance"]

SLOT_SECONDS = 600  # 10-minute slots, 144 a day (paper 5.1)
SLOTS_PER_HOUR = 3600 // SLOT_SECONDS
#: The first data folder searched (kept for callers; loaders use :func:`aisched.data.data_file`).
DATA_DIR = _paths.DATA_DIR
#: The Philly day extract where :func:`~aisched.data.data_file` found it at import
#: (``$AISCHED_DATA``, the user cache, ``../shared/data``), else its place in ``DATA_DIR``.
PHILLY_TRACE = data_file("philly_pollux_2017-10-09.csv", required=False) or DATA_DIR / "philly_pollux_2017-10-09.csv"

# A40 / A100 LoRA throughput: mid-point of the two measured ratios in
# lora_throughput_reference.csv, VectorLM rows (commit ce1eaa3): Llama-2-7b-hf
# 435.4 / 646.8 tokens/s = 0.6732 and opt-350m 652.6 / 859.4 tokens/s = 0.7594;
# their mean 0.7163, to 3 decimals (the CSV's notes round them to 0.67, 0.76).
A40_A100_RATIO = 0.716

#: GPU label -> (memory GB, board power kW, throughput relative to an A100).
GPU_TYPES: dict[str, tuple[float, float, float]] = {
    "A100-80GB": (80.0, 0.4, 1.0),
    "A40-48GB": (48.0, 0.3, A40_A100_RATIO),
}

BATCH_SHARE = (0.33, 0.73)  # u_i, alone on a node: measured batch-size growth 1.87x (readings L-silent)
EPOCHS = (1, 5)
SAMPLES = (5000, 20000)
VALUE_PER_SAMPLE = (0.6, 1.8)
VENDOR_UNIT_PRICE = (0.05, 0.25)
VENDOR_DELAY_MAX = 3
VENDOR_PRICE_EXPONENT = 5  # price factor 2 ** (5 - delay): 32, 16, 8, 4 for delay 0..3
ENERGY_COST_PER_SAMPLE = 0.25  # off-peak energy cost of one sample on an A100, money units
PEAK_HOURS = (8, 20)  # inclusive: 08:00-20:59 costs PEAK_FACTOR x off-peak
PEAK_FACTOR = 2.0

@dataclass(frozen=True)
class BaseModelProfile:
    """Profile of the shared pre-trained model (one LoRA "zone", section 2.1).

    Parameters
    ----------
    a100_samples_per_s
        LoRA fine-tuning throughput of one A100 for this model (all adapters).
    base_memory
        ``r_b``, GB.
    memory_fixed, memory_per_share
        ``r_i = memory_fixed + memory_per_share * u_i`` GB.
    """

    a100_samples_per_s: float
    base_memory: float
    memory_fixed: float
    memory_per_share: float


#: gpt2: the paper fine-tunes GPT-2 (124M params, 0.5 GB in fp32); 20 samples/s
#: on an A100 is a small-model rate (the CSV's small models, phi-1.5 10.3 and
#: qwen-1.8b 9.9 samples/s, bound it from below). llama-2-7b: 5.33 samples/s
#: is Qwen-7B LoRA at 512 tokens on an A100-80GB (CSV, "Qwen README" row,
#: 1.5 s/it of 8 samples); 13.5 GB is 7B parameters in bf16.
BASE_MODELS: dict[str, BaseModelProfile] = {
    "gpt2": BaseModelProfile(20.0, 0.5, 2.0, 20.0),
    "llama-2-7b": BaseModelProfile(5.33, 13.5, 4.0, 24.0),
}


def _fail(field: str, value: Any, why: str) -> InvalidScenarioError:
    return InvalidScenarioError(field, f"= {value!r} {why}")


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _resolve_trace(trace: str | os.PathLike[str]) -> Path:
    return traces.resolve(trace)


def arrival_counts_from_trace(
    path: str | os.PathLike[str], slots: int, slot_seconds: int = SLOT_SECONDS
) -> np.ndarray:
    """Raw per-slot job arrival counts of a trace: :func:`aisched.scenarios.lora.traces.arrival_counts`.

    Parameters
    ----------
    path
        A named trace (``"philly"``, ``"philly-week"``, ``"alibaba"``,
        ``"helios"``) or a CSV file with a ``timestamp`` column (date-times
        ``YYYY-MM-DD HH:MM:SS`` or epoch seconds), a ``creation_time`` column
        (seconds) or Helios' ``time, total_job_num`` snapshots.
    slots
        Number of slots to return.
    slot_seconds
        Slot length in seconds.

    Returns
    -------
    numpy.ndarray
        (slots,) int64 counts; slot 0 starts at midnight of the first
        arrival's day. A trace shorter than ``slots`` repeats cyclically (a
        one-day trace stands for every day).

    Raises
    ------
    InvalidScenarioError
        ``trace`` if the file is missing, unreadable, has none of those
        columns or no jobs; ``slots`` / ``slot_seconds`` if not positive ints.
    """
    return traces.arrival_counts(path, slots, slot_seconds)


def _validate(
    seed: Any, nodes: Any, slots: Any, arrival_rate: Any, tasks: Any, trace: Any, vendors: Any,
    gpu_mix: Any, deadline: Any, base_model: Any, work_unit: Any, rng: Any,
) -> Path | None:
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise _fail("rng", rng, "must be a numpy.random.Generator or None")
    if rng is None and seed is not None and (not _is_int(seed) or seed < 0):
        raise _fail("seed", seed, "must be None or an integer >= 0")
    if not _is_int(nodes) or nodes < 1:
        raise _fail("nodes", nodes, "must be an integer >= 1")
    if not _is_int(slots) or slots < 1:
        raise _fail("slots", slots, "must be an integer >= 1")
    if (
        isinstance(arrival_rate, (bool, np.bool_))
        or not isinstance(arrival_rate, (int, float, np.integer, np.floating))
        or not math.isfinite(arrival_rate)
        or arrival_rate < 0
    ):
        raise _fail("arrival_rate", arrival_rate, "must be a finite number >= 0")
    if tasks is not None and (not _is_int(tasks) or tasks < 0):
        raise _fail("tasks", tasks, "must be None or an integer >= 0")
    expected = float(tasks) if tasks is not None else float(arrival_rate) * float(slots)
    if expected > MAX_TASKS:  # a size guard: numpy would try to allocate it all at once
        what = "tasks" if tasks is not None else "arrival_rate"
        raise _fail(what, tasks if tasks is not None else arrival_rate,
                    f"implies about {expected:.3g} tasks, more than the limit MAX_TASKS = {MAX_TASKS} "
                    "(paper scale is about 11,755; raise aisched.scenarios.lora.generator.MAX_TASKS if you mean it)")
    if nodes is not None and _is_int(nodes) and _is_int(slots) and int(nodes) * int(slots) > MAX_NODE_SLOTS:
        raise _fail("nodes", nodes, f"with slots = {slots}: nodes x slots = {int(nodes) * int(slots)} (node, slot) cells, "
                    f"more than the limit MAX_NODE_SLOTS = {MAX_NODE_SLOTS} (raise aisched.scenarios.lora.generator.MAX_NODE_SLOTS if you mean it)")
    if not _is_int(vendors) or vendors < 0:
        raise _fail("vendors", vendors, "must be an integer >= 0")
    if vendors > MAX_VENDORS:  # a size guard: (task, vendor) arrays
        raise _fail("vendors", vendors, f"is more than the limit MAX_VENDORS = {MAX_VENDORS} "
                    "(the paper uses a handful; raise aisched.scenarios.lora.generator.MAX_VENDORS if you mean it)")
    one_of("gpu_mix", gpu_mix, GPU_MIXES)
    one_of("deadline", deadline, tuple(DEADLINE_METHODS))
    one_of("base_model", base_model, tuple(BASE_MODELS))
    if not _is_int(work_unit) or work_unit < 1:
        raise _fail("work_unit", work_unit, "must be an integer >= 1")
    slowest = BASE_MODELS[base_model].a100_samples_per_s * A40_A100_RATIO * SLOT_SECONDS
    if work_unit > slowest:
        why = f"exceeds a node's capacity ({slowest:.0f} samples a slot)"
        raise _fail("work_unit", work_unit, why)
    if trace is None:
        return None
    if not isinstance(trace, (str, os.PathLike)):
        raise _fail("trace", trace, f"must be None, one of {sorted(traces.NAMED_TRACES)} or a path to a CSV file")
    if tasks is not None:
        raise _fail("tasks", tasks, "cannot be combined with a trace")
    return _resolve_trace(trace)


def _validate_silent(
    nodes: Any, vendors: Any, min_batch_share: Any, arrival_per_node: Any, value_scale: Any, vendor_pool: Any,
) -> tuple[tuple[float, float], tuple[float, float], int]:
    """Check the options of the values section 5 leaves unstated; the share and value ranges and the pool size."""
    def number(x: Any) -> bool:
        return (not isinstance(x, (bool, np.bool_)) and isinstance(x, (int, float, np.integer, np.floating))
                and math.isfinite(x))

    if not number(min_batch_share) or not 0.05 <= min_batch_share <= 0.6:
        raise _fail("min_batch_share", min_batch_share, "must be a number in [0.05, 0.6] (shares up to it + 0.4 <= 1)")
    if arrival_per_node is not None and (not number(arrival_per_node) or arrival_per_node <= 0):
        raise _fail("arrival_per_node", arrival_per_node, "must be None or a finite number > 0")
    if not number(value_scale) or value_scale <= 0:
        raise _fail("value_scale", value_scale, "must be a finite number > 0")
    if vendor_pool is not None:
        if isinstance(vendor_pool, (float, np.floating)) and float(vendor_pool).is_integer():
            vendor_pool = int(vendor_pool)
        if not _is_int(vendor_pool) or vendor_pool > MAX_VENDORS or (_is_int(vendors) and vendor_pool < vendors):
            raise _fail("vendor_pool", vendor_pool, f"must be None or an integer from vendors ({vendors!r}) to "
                        f"MAX_VENDORS = {MAX_VENDORS}")
    share = BATCH_SHARE if min_batch_share == BATCH_SHARE[0] else (float(min_batch_share), float(min_batch_share) + 0.4)
    value = VALUE_PER_SAMPLE if value_scale == 1 else (VALUE_PER_SAMPLE[0] * value_scale,
                                                       VALUE_PER_SAMPLE[1] * value_scale)
    pool = int(vendor_pool) if vendor_pool is not None else (int(vendors) if _is_int(vendors) and vendors >= 0 else 0)
    return share, value, pool


def _arrivals(
    rng: np.random.Generator, slots: int, arrival_rate: float, tasks: int | None, trace: Path | None,
    trace_start: int = 0,
) -> np.ndarray:
    if tasks is not None:
        return np.sort(rng.integers(0, slots, size=tasks))
    if trace is None:
        counts = rng.poisson(arrival_rate, size=slots)
    else:
        raw = arrival_counts_from_trace(trace, trace_start + slots)[trace_start:].astype(float)
        if raw.sum() == 0:
            if arrival_rate > 0:
                raise InvalidScenarioError("trace", _empty_window(trace, slots, trace_start))
            scaled = raw
        else:
            scaled = raw * (arrival_rate / raw.mean())
        low = np.floor(scaled)  # stochastic rounding: right totals in expectation
        counts = (low + (rng.random(slots) < scaled - low)).astype(np.int64)
    return np.repeat(np.arange(slots), counts)


#: Slots in a week: how far past the window the message of an empty window looks for the next job.
_WEEK_SLOTS = 7 * 24 * 3600 // SLOT_SECONDS


def _clock(slot: int) -> str:
    """The time of day at which slot ``slot`` starts (slot 0 at midnight), ``HH:MM``."""
    minutes = (slot * SLOT_SECONDS // 60) % (24 * 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _empty_window(trace: Path, slots: int, trace_start: int) -> str:
    """Why a trace has no task in the window of slots ``trace_start ..``, and the ``trace_start`` of its next job
    (looked for within a week past the window; the trace repeats cyclically)."""
    last = trace_start + slots - 1
    counts = arrival_counts_from_trace(trace, max(trace_start + slots, _WEEK_SLOTS) + _WEEK_SLOTS)
    later = np.flatnonzero(counts[trace_start:]) + trace_start
    day = trace_start * SLOT_SECONDS // 86_400 + 1
    text = (f"{str(trace)!r} has no jobs in the window of slots {trace_start}..{last} ({_clock(trace_start)} to "
            f"{_clock(last + 1)} from day {day} of the trace; the trace's slot 0 is midnight of its first arrival's "
            "day and the instance's slot 0 is the trace's slot trace_start)")
    if later.size:
        move = int(later[0])
        return (f"{text}: its next job is in slot {move} ({_clock(move)}); move the window there with "
                f"trace_start={move} (aisched compare lora --trace-start {move})")
    return f"{text}: move the window with trace_start (aisched compare lora --trace-start SLOT)"


def _round_down(x: np.ndarray, unit: int) -> np.ndarray:
    return (np.floor(np.asarray(x) / unit) * unit).astype(np.int64)


#: Size guards of :func:`generate` (module constants a user may raise): expected tasks, (node, slot) cells.
MAX_TASKS = 1_000_000
MAX_NODE_SLOTS = 10_000_000
MAX_VENDORS = 1_000


def generate(
    seed: int | None = DEFAULT_SCENARIO["seed"],
    *,
    nodes: int = DEFAULT_SCENARIO["nodes"],
    slots: int = DEFAULT_SCENARIO["slots"],
    arrival_rate: float | None = None,
    tasks: int | None = None,
    trace: str | os.PathLike[str] | None = None,
    trace_start: int = DEFAULT_SCENARIO["trace_start"],
    vendors: int = DEFAULT_SCENARIO["vendors"],
    gpu_mix: str = DEFAULT_SCENARIO["gpu_mix"],
    deadline: str = DEFAULT_SCENARIO["deadline"],
    base_model: str = "gpt2",
    work_unit: int = 100,
    rng: np.random.Generator | None = None,
    min_batch_share: float = BATCH_SHARE[0],
    arrival_per_node: float | None = None,
    value_scale: float = 1.0,
    vendor_pool: int | None = None,
) -> LoraInstance:
    """A random multi-LoRA fine-tuning auction after section 5.1 of the paper.

    Distributions, units and their sources are in the module docstring. The defaults are
    ``aisched compare lora``'s (:data:`DEFAULT_SCENARIO`: 4 nodes, 24 slots, 48 tasks, 2 vendors);
    section 5.1's sizes are :func:`paper_instance`'s.

    Parameters
    ----------
    seed
        Seed of ``numpy.random.default_rng``; the same seed gives the same
        instance. Ignored when ``rng`` is given.
    nodes
        ``K``, number of GPU nodes (>= 1; default 4).
    slots
        ``T``, number of 10-minute slots (>= 1; default 24); slot 0 starts at midnight.
    arrival_rate
        Mean tasks per slot (finite, >= 0): the Poisson mean, or the mean the
        trace is rescaled to. None (default): with a trace, :data:`DEFAULT_TRACE_RATE`
        (2 a slot), else (without ``tasks``) 48 tasks exactly, the command line's rule.
    tasks
        If given, exactly this many tasks with arrival slots ``U{0..T-1}``
        (``arrival_rate`` is then unused); not with ``trace``.
    trace
        None (Poisson arrivals), a named trace of
        :data:`aisched.scenarios.lora.traces.NAMED_TRACES` (``"philly"``,
        ``"philly-week"``, ``"alibaba"``, ``"helios"``) or a CSV path: the
        per-slot counts of :func:`arrival_counts_from_trace`, rescaled to mean
        ``arrival_rate`` and stochastically rounded. Its jobs are placed from slot 0:
        the trace's slot ``trace_start`` (midnight of its first arrival's day at 0) is the
        instance's slot 0; a window without jobs is an error naming the next job's slot.
    trace_start
        Slot of the trace that becomes slot 0 (>= 0; default 0; the trace repeats
        cyclically), e.g. 84 to start the day at 14:00.
    vendors
        ``N``, number of labour vendors (>= 0; 0 means no pre-processing; default 2).
    gpu_mix
        ``"a100"``, ``"a40"`` or ``"mixed"`` (node ``k`` even -> A100).
    deadline
        Deadline method, one of ``DEADLINE_METHODS``: "slack", "tight",
        "loose", "uniform".
    base_model
        Key of ``BASE_MODELS``: "gpt2" (the paper's) or "llama-2-7b".
    work_unit
        Work and throughputs are integer multiples of it (the online dynamic
        program is exact in this unit).
    rng
        A generator to draw from instead of ``default_rng(seed)``.
    min_batch_share
        Lower end of the batch share ``u_i ~ U(min_batch_share, min_batch_share + 0.4)``
        (0.05 to 0.6; default 0.33, inside our evidence; 0.1: the draw until 2026-12-05). A node's throughput ``C_kp`` is what it
        processes with merged adapters and a task alone gets ``u_i C_kp``, so ``1 / E[u_i]`` is how
        much throughput grows under merging: the merging gain (section 5.1 leaves it unstated;
        :mod:`~aisched.scenarios.lora.silent`).
    arrival_per_node
        If given (> 0), ``arrival_rate`` becomes ``arrival_per_node x nodes``: the arrival volume per
        node and slot (Fig. 4's rate and Fig. 8's node count, which section 5.2 leaves unstated).
    value_scale
        Value per sample ``v_i ~ U(0.6 s, 1.8 s)`` (> 0; default 1: today's ``U(0.6, 1.8)``).
    vendor_pool
        None (default): the ``vendors`` vendors are drawn for this day alone, so another count
        redraws every price and delay (docs/readings/lora.md L10). An integer ``P >= vendors``: a
        nested market, the first ``vendors`` of a fixed pool of ``P`` (prices, delays and the
        deadlines drawn for the pool), so adding vendors keeps the earlier ones (Fig. 5's "more
        choices for data pre-processing").

    Returns
    -------
    LoraInstance

    Raises
    ------
    InvalidScenarioError
        Naming the first bad parameter and its value, before any work.
    """
    share_range, value_range, pool = _validate_silent(
        nodes, vendors, min_batch_share, arrival_per_node, value_scale, vendor_pool)
    if arrival_per_node is not None and _is_int(nodes):
        arrival_rate = float(arrival_per_node) * int(nodes)
    elif arrival_rate is None:  # the command line's rule: its task count, or a trace at its mean rate
        if tasks is None and trace is None:
            tasks = DEFAULT_SCENARIO["tasks"]
        arrival_rate = DEFAULT_TRACE_RATE
    trace_path = _validate(
        seed, nodes, slots, arrival_rate, tasks, trace, vendors, gpu_mix, deadline, base_model,
        work_unit, rng,
    )
    rng = np.random.default_rng(seed) if rng is None else rng
    T, K, N, wu = int(slots), int(nodes), int(vendors), int(work_unit)
    model = BASE_MODELS[base_model]

    # --- nodes ----------------------------------------------------------------
    a100 = {"a100": np.ones(K, bool), "a40": np.zeros(K, bool)}.get(gpu_mix, np.arange(K) % 2 == 0)
    gpu_type = np.where(a100, "A100-80GB", "A40-48GB")
    mem_cap = np.array([GPU_TYPES[g][0] for g in gpu_type])
    power = np.array([GPU_TYPES[g][1] for g in gpu_type])
    rate = model.a100_samples_per_s * np.array([GPU_TYPES[g][2] for g in gpu_type])
    capacity = _round_down(rate * SLOT_SECONDS, wu)

    # --- tasks (fixed draw order: arrivals, then one column per attribute) ----
    if not _is_int(trace_start) or trace_start < 0:
        raise _fail("trace_start", trace_start, "must be an integer >= 0")
    arrival = _arrivals(rng, T, float(arrival_rate), tasks, trace_path, int(trace_start))
    n_tasks = arrival.size
    share = rng.uniform(*share_range, size=n_tasks)
    epochs = rng.integers(EPOCHS[0], EPOCHS[1] + 1, size=n_tasks)
    samples = rng.integers(SAMPLES[0], SAMPLES[1] + 1, size=n_tasks)
    needs_pp = rng.random(n_tasks) < 0.5
    pool_delay = rng.integers(0, VENDOR_DELAY_MAX + 1, size=(n_tasks, pool))
    unit_price = rng.uniform(*VENDOR_UNIT_PRICE, size=pool)
    value = rng.uniform(*value_range, size=n_tasks)
    w = rng.random(n_tasks)

    throughput = np.maximum(_round_down(share[:, None] * capacity[None, :], wu), wu)
    work = -(-(epochs * samples) // wu) * wu
    memory = np.round((model.memory_fixed + model.memory_per_share * share) * 2) / 2
    if N == 0:
        needs_pp = np.zeros(n_tasks, bool)
    pool_price = samples[:, None] * unit_price[None, :] * 2.0 ** (VENDOR_PRICE_EXPONENT - pool_delay)
    delay, vendor_price = pool_delay[:, :N], pool_price[:, :N]
    bid = value * work

    # --- energy: kWh a slot x time-of-day price --------------------------------
    energy_use = power[None, :] * share[:, None] / SLOTS_PER_HOUR
    a100_kw = GPU_TYPES["A100-80GB"][1]
    kwh_per_sample = a100_kw / (SLOTS_PER_HOUR * model.a100_samples_per_s * SLOT_SECONDS)
    off_peak = ENERGY_COST_PER_SAMPLE / kwh_per_sample
    hour = (np.arange(T) // SLOTS_PER_HOUR) % 24
    peak = (hour >= PEAK_HOURS[0]) & (hour <= PEAK_HOURS[1])
    energy_price = np.tile(np.where(peak, PEAK_FACTOR * off_peak, off_peak), (K, 1))

    # --- deadlines -------------------------------------------------------------
    min_slots = -(-work // throughput.max(axis=1)) if n_tasks else np.zeros(0, np.int64)
    # deadlines from the vendors drawn (the pool, in a nested market: the same day for every count)
    h_max = np.where(needs_pp, pool_delay.max(axis=1), 0) if N else np.zeros(n_tasks, np.int64)
    h_min = np.where(needs_pp, pool_delay.min(axis=1), 0) if N else np.zeros(n_tasks, np.int64)
    slack = DEADLINE_METHODS[deadline]
    if slack is None:
        lo = np.minimum(arrival + h_min + min_slots - 1, T - 1)
        due = lo + np.floor(w * (T - lo)).astype(np.int64)
    else:
        factor = slack[0] + (slack[1] - slack[0]) * w
        due = arrival + h_max + np.ceil(factor * min_slots).astype(np.int64) - 1
    due = np.clip(due, arrival, T - 1)

    return LoraInstance(
        **declared_value_bounds(model, capacity, wu, batch_share=share_range, value_per_sample=value_range),
        num_slots=T,
        compute_capacity=capacity,
        memory_capacity=mem_cap,
        base_memory=model.base_memory,
        gpu_type=gpu_type,
        arrival=arrival,
        deadline=due,
        memory_need=memory,
        work=work,
        needs_preprocessing=needs_pp,
        bid=bid,
        throughput=throughput,
        vendor_price=vendor_price.reshape(n_tasks, N),
        vendor_delay=delay,
        energy_use=energy_use,
        energy_price=energy_price,
    )


def declared_value_bounds(model: BaseModelProfile, capacity: np.ndarray, work_unit: int, *,
                          batch_share: tuple[float, float] = BATCH_SHARE,
                          value_per_sample: tuple[float, float] = VALUE_PER_SAMPLE) -> dict[str, float]:
    """Bounds on value per unit of resource that the platform can announce before any bid.

    They follow from the distributions above, never from drawn bids: ``b_i =
    v_i M_i`` with ``v_i <= 1.8``; ``M_i / n_i <= max_k s_ik <= max(u_i C_max,
    work_unit)`` and ``r_i >= memory_fixed - 0.25 + memory_per_share u_i`` (rounding to
    0.5 GB), so ``b_i / (r_i n_i)`` is at most the larger of its values at
    ``u_i = 0.5`` and ``u_i = 0.1``; ``b_i / r_i <= 1.8 M_max / r_min``.
    pdFTSP's ``alpha`` and ``beta`` (Lemma 2) read these (``parameters="declared"``).
    ``batch_share`` and ``value_per_sample`` are the day's ranges of ``u_i`` and ``v_i``
    (:func:`generate`'s ``min_batch_share`` and ``value_scale``).
    """
    v_max = value_per_sample[1]
    lo, hi = batch_share
    fixed = model.memory_fixed - 0.25
    cap = float(np.max(capacity))
    per_slot = max(hi * cap / (fixed + model.memory_per_share * hi),
                   work_unit / (fixed + model.memory_per_share * lo))
    work_max = -(-(EPOCHS[1] * SAMPLES[1]) // work_unit) * work_unit
    return {
        "max_value_per_sample": v_max,
        "max_value_per_gb_slot": v_max * per_slot,
        "max_value_per_gb": v_max * work_max / (fixed + model.memory_per_share * lo),
    }


def default_instance() -> LoraInstance:
    """The small embedded scenario of the project's main job, ``generate()``: ``generate(**DEFAULT_SCENARIO)``.

    48 tasks on 4 nodes over 24 slots: the paper's medium load per node and
    slot (:data:`~aisched.scenarios.lora.defaults.PAPER_MEDIUM_LOAD`). Tasks need
    about 10-30 slots at their batch share, so in a 24-slot horizon only those
    arriving early can finish (the others meet the horizon's end, see the module
    docstring), and those compete for capacity.
    """
    return generate(**DEFAULT_SCENARIO)


def paper_instance(seed: int = 0) -> LoraInstance:
    """Section 5.1's setting, ``generate(seed, **PAPER_SCENARIO)``: 100 mixed nodes, 144 ten-minute slots,
    Poisson(50) tasks a slot (about 7,200), 3 vendors; the base point of Figs. 5-9 (``lora/fig5-vendors`` ...).

    Parameters
    ----------
    seed
        Seed of the draw (>= 0).
    """
    return generate(seed=seed, **PAPER_SCENARIO)


generate.check_files = traces.check_files  # type: ignore[attr-defined]  # before a sweep writes anything
