"""pdFTSP at paper scale (section 5.1, high workload) on this machine; prints figures.

200 mixed nodes, 144 ten-minute slots, Poisson(80) tasks per slot (about
11,500 tasks), 5 vendors. Reports, for the default run (Algorithm 2 as printed,
``selection="faithful"``, on :mod:`aisched.online.lora.pdftsp.fronts`): the whole
day's wall and CPU time, the median and 95th-percentile per-task decision, where
the time went (set-up, Algorithm 2 + admission test, dual updates + fronts, plan
assembly + verify; ``Outcome.info``), the kernel's compilations and the first
decision (which includes them), and the same day re-run in the same process
(compiled: the day without compilation); the same with ``screen=True``
(:mod:`aisched.online.lora.pdftsp.screen`: the decisions are checked equal) and the
``selection="cell_prices"`` day twice, then the ratio faithful / cell_prices of the
compiled days in this run and the peak memory; EFT and NTM for context, and Titan's per-task time at 100 nodes (the
paper's Fig. 13). ``--compare-kernels`` also times, on a sample of tasks at the
day's final prices, the fronts against the NumPy oracle.

Timings scale with the machine's load (the load average is printed); compare
runs made under the same load.

Usage: ``python benchmarks/bench_pdftsp.py [--quick] [--no-titan] [--compare-kernels] [--dispatch sync]``
(``--quick``: 50 nodes, Poisson(20), for a smoke run; ``--dispatch sync``: JAX's synchronous
CPU dispatch for the whole run, the setting of aisched's sweep workers, docs/readings/lora.md L2).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np

import aisched
from aisched.online.lora import pdftsp
from aisched.scenarios.lora import generate


def set_dispatch(mode: str) -> None:
    """JAX's CPU dispatch for this process: ``"async"`` (JAX's default) or ``"sync"``.

    Must run before the first JAX computation (the flag is read when the CPU client is
    made); ``"sync"`` is what :mod:`aisched.experiments.run.sweep`'s workers set
    (``worker_dispatch``). Both selections of a run then share the setting.
    """
    import jax

    jax.config.update("jax_cpu_enable_async_dispatch", mode == "async")
    print(f"JAX CPU dispatch: {mode}")


def _peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # Linux: KiB


def per_task_times(inst, state: pdftsp.PdftspState, tasks: np.ndarray, *, reference: int = 3) -> dict[str, float]:
    """Median seconds per task of Algorithm 2 as printed, two ways, same tasks and prices.

    ``fronts``: the implementation (pdftsp.fronts, the state's fronts); ``numpy``: the
    NumPy oracle, on the first ``reference`` tasks only. (The dense jitted kernel over
    every node and work level that docs/readings/lora.md L1 timed was removed: pdftsp.fronts
    is the one implementation of ``selection="faithful"``.)
    """
    out: dict[str, list[float]] = {"fronts": [], "numpy": []}
    for j, task in enumerate(int(t) for t in tasks):
        args = (
            state._compute_price, state._memory_price, state._energy_price, state._energy_use[task],
            inst.throughput[task], state._units[task],
        )
        tail = (
            float(inst.memory_need[task]), int(state._work_units[task]), state._start[task],
            int(inst.deadline[task]), state._fee[task], state._valid[task], float(inst.bid[task]),
        )
        tic = time.perf_counter()
        state.decide(task)
        out["fronts"].append(time.perf_counter() - tic)
        if j < reference:
            tic = time.perf_counter()
            pdftsp.reference.select_faithful_reference(*args, *tail)
            out["numpy"].append(time.perf_counter() - tic)
    return {k: float(np.median(v)) for k, v in out.items()}


def _compare_kernels(inst, out, sample_size: int) -> None:
    """Algorithm 2 as printed two ways on sampled tasks at the day's final prices."""
    state = pdftsp.PdftspState(inst, pdftsp.PdftspParams(out.info["alpha"], out.info["beta"]))
    state._compute_price[:] = out.prices["compute_price"].values  # realistic, non-zero prices
    state._memory_price[:] = out.prices["memory_price"].values
    state._fronts = pdftsp.fronts.Fronts(state._compute_price, state._memory_price,
                                         state._energy_price, state._fronts.cls)
    counts = (state._fronts.nodes < inst.num_nodes).sum(axis=1)
    print(f"  fronts at the day's final prices: width {state._fronts.width}, nodes per slot "
          f"median {np.median(counts):.0f}, max {counts.max()} (of {inst.num_nodes})")
    sample = np.random.default_rng(1).choice(inst.num_tasks, size=sample_size, replace=False)
    state.decide(int(sample[0]))  # compile at the new front width, if it changed
    times = per_task_times(inst, state, sample)
    print(f"Algorithm 2 as printed on {sample_size} tasks at those prices (median per task): fronts "
          f"{1e3 * times['fronts']:.2f} ms, NumPy oracle {1e3 * times['numpy']:.0f} ms "
          f"(first 3 tasks)")


def _day(inst, label: str, **options) -> aisched.Outcome:
    """Run pdFTSP once and print the day, the decisions and the parts of the run."""
    compiles_before = pdftsp.kernel.cache_size() + pdftsp.fronts.cache_size()
    load = os.getloadavg()[0]
    cpu = time.process_time()
    out = aisched.run("pdftsp", inst, **options)
    cpu = time.process_time() - cpu
    compiles = pdftsp.kernel.cache_size() + pdftsp.fronts.cache_size() - compiles_before
    out.info["bench_cpu_s"] = cpu
    lat, info = out.decision_s, out.info
    print(f"{label}: day {out.runtime_s:.2f} s (CPU {cpu:.2f} s, load {load:.2f}), admitted "
          f"{out.num_admitted}/{inst.num_tasks}, welfare {out.objective:.10g}")
    print(f"  decision: median {1e3 * np.median(lat):.3f} ms, p95 {1e3 * np.percentile(lat, 95):.3f} ms, "
          f"first {1e3 * lat[np.argsort(inst.arrival, kind='stable')[0]]:.0f} ms, "
          f"max {1e3 * lat.max():.0f} ms; kernel compilations {compiles}")
    print(f"  parts: set-up {info['prepare_s']:.2f} s, Algorithm 2 + admission {info['decide_s']:.2f} s, "
          f"dual updates + fronts {info['commit_s']:.2f} s, plan + verify + Outcome "
          f"{info['assemble_s']:.2f} s")
    return out


def _same_decisions(a: aisched.Outcome, b: aisched.Outcome) -> None:
    """The screened run decides as the unscreened one: plans, payments, prices, and F where not screened."""
    for name in ("assignment", "vendor", "admitted"):
        if not np.array_equal(a.plan[name].values, b.plan[name].values):
            raise SystemExit(f"the screened run's {name} differs")
    if not (np.array_equal(a.payments, b.payments)
            and all(np.array_equal(a.prices[v].values, b.prices[v].values) for v in a.prices)):
        raise SystemExit("the screened run's payments or prices differ")
    bound = b.plan["surplus_is_bound"].values
    exact, upper = a.plan["surplus"].values, b.plan["surplus"].values
    slack = 1e-9 * (1 + np.abs(exact[bound]))  # a tight bound may round an ulp below F
    if not (np.array_equal(exact[~bound], upper[~bound]) and np.all(upper[bound] >= exact[bound] - slack)):
        raise SystemExit("the screened run's F differs where it was computed, or a bound is below F")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--titan-slots", type=int, default=2, help="slots of Titan to time at 100 nodes")
    parser.add_argument("--sample", type=int, default=10, help="tasks timed two ways (fronts, NumPy)")
    parser.add_argument("--no-titan", action="store_true", help="skip Titan")
    parser.add_argument("--dispatch", choices=("async", "sync"), default="async",
                        help="JAX's CPU dispatch for the whole run: 'async' (JAX's default) or 'sync' "
                             "(as aisched's sweep workers run, docs/readings/lora.md L2)")
    parser.add_argument("--compare-kernels", action="store_true",
                        help="time the NumPy oracle on --sample tasks (slow)")
    args = parser.parse_args()
    set_dispatch(args.dispatch)
    nodes, rate = (50, 20.0) if args.quick else (200, 80.0)

    tic = time.perf_counter()
    inst = generate(seed=args.seed, nodes=nodes, slots=144, arrival_rate=rate, vendors=5, gpu_mix="mixed")
    print(f"instance: {inst.num_tasks} tasks, {inst.num_nodes} nodes, {inst.num_slots} slots, "
          f"{inst.num_vendors} vendors (generated in {time.perf_counter() - tic:.2f} s)")
    print("2 cores shared with other work: timings scale with the load average printed")

    out = _day(inst, "pdftsp (faithful, default)")
    print(f"  work unit {out.info['work_unit']:g} samples (exact: {bool(out.info['work_unit_exact'])}); "
          f"peak RSS so far: {_peak_rss_gb():.2f} GB")
    tic = time.perf_counter()
    out.verify(inst)
    print(f"  verify (again, outside the run): {time.perf_counter() - tic:.2f} s")
    again = _day(inst, "pdftsp (faithful) re-run, compiled")
    if not np.array_equal(again.plan["assignment"].values, out.plan["assignment"].values):
        raise SystemExit("the re-run's plan differs")
    screened = _day(inst, "pdftsp (faithful, screen=True)", screen=True)
    _same_decisions(out, screened)
    print(f"  screened out without DP (13): {screened.info['screened']} of "
          f"{inst.num_tasks - out.num_admitted} rejected tasks; peak RSS so far: {_peak_rss_gb():.2f} GB")
    _day(inst, "pdftsp (cell_prices)", selection="cell_prices")
    cells = _day(inst, "pdftsp (cell_prices) re-run, compiled", selection="cell_prices")
    cpu = {k: o.info["bench_cpu_s"] for k, o in (("plain", again), ("screen", screened), ("cells", cells))}
    print(f"faithful / cell_prices (compiled days, this run, {args.dispatch} dispatch, load "
          f"{os.getloadavg()[0]:.2f}): wall "
          f"{again.runtime_s / cells.runtime_s:.2f}x without the screen, "
          f"{screened.runtime_s / cells.runtime_s:.2f}x with it; CPU {cpu['plain'] / cpu['cells']:.2f}x "
          f"and {cpu['screen'] / cpu['cells']:.2f}x; peak RSS {_peak_rss_gb():.2f} GB")

    if args.compare_kernels:
        _compare_kernels(inst, out, args.sample)

    for name in ("eft", "ntm"):
        other = aisched.run(name, inst)
        print(f"{name}: {other.runtime_s:.2f} s, welfare {other.objective:.4g}, admitted {other.num_admitted}")

    if args.no_titan:
        print(f"peak RSS: {_peak_rss_gb():.2f} GB")
        return
    big = generate(seed=args.seed, nodes=100, slots=144, arrival_rate=rate, vendors=5, gpu_mix="mixed")
    first = np.nonzero(big.arrival < args.titan_slots)[0]
    sub = big.subset(first)
    titan = aisched.run("titan", sub, slot_time_limit=120.0)
    print(f"titan at 100 nodes, first {args.titan_slots} slots ({sub.num_tasks} tasks): "
          f"{1e3 * titan.decision_s.mean():.1f} ms per task (solve time / tasks in slot), "
          f"slots not proven optimal: {titan.info['slots_not_optimal']}")
    print(f"peak RSS: {_peak_rss_gb():.2f} GB")


if __name__ == "__main__":
    main()
