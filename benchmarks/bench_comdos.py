"""ComDOS decision latency (Algorithm 1 + the jit DP of Algorithm 2) at paper scale.

Targets: 10 edges, 500 slots, Poisson(7) arrivals -> p90 per-job
decision <= 10 ms, and a job with two fan-out tasks (900 options) <= 50 ms, on
the project's 2-core machine; the first section prints p50, p90, mean and the
900-option job's time under ``option_eval="shared"`` (default) and ``"chunks"``
(the per-option DP; same decisions). Also reports how the
latency grows with the number of edges, candidate models per task and tasks
with several children (|H| = prod (K |M_ij|) options per job).

Each configuration runs twice on the same instance and reports the second
(warm) run: the first includes jit compilation (one or two variants per
instance shape). Times are wall-clock per job, from ``Outcome.decision_s``.

Usage::

    .venv/bin/python benchmarks/bench_comdos.py            # all tables
    .venv/bin/python benchmarks/bench_comdos.py --jobs 200 # fewer jobs per configuration
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import aisched
from aisched.models.genai import GenaiInstance
from aisched.online.genai import comdos
from aisched.scenarios import genai


def warm_run(inst: GenaiInstance, **options) -> tuple[aisched.Outcome, float]:
    t0 = time.perf_counter()
    aisched.run("comdos", inst, **options)
    cold = time.perf_counter() - t0
    return aisched.run("comdos", inst, **options), cold


def targets(base: GenaiInstance, jobs: int) -> None:
    """The targets' figures: p50 / p90 / mean at K=10, T=500, Poisson(7), and the 900-option job."""
    inst = first_jobs(base, jobs)
    fan = with_shape(first_jobs(base, 4), 2)
    print(f"{'option_eval':<12} {'jobs':>5} {'p50_ms':>8} {'p90_ms':>8} {'mean_ms':>8} {'900-opt_ms':>11} {'same':>5}")
    decided = {}
    for mode in ("shared", "chunks"):
        out, _ = warm_run(inst, option_eval=mode)
        fan_out, _ = warm_run(fan, option_eval=mode)
        ms = out.decision_s * 1e3
        decided[mode] = (out.plan, fan_out.plan)
        same = "" if mode == "shared" else str(all(a.equals(b) for a, b in zip(decided["shared"], decided[mode],
                                                                                    strict=True)))
        print(f"{mode:<12} {inst.num_jobs:>5} {np.median(ms):>8.2f} {np.percentile(ms, 90):>8.2f} {ms.mean():>8.2f} "
              f"{np.median(fan_out.decision_s) * 1e3:>11.1f} {same:>5}")


def variant_against_faithful(base: GenaiInstance, jobs: int) -> None:
    """Per-job decision of the ``full_cell`` option set within 2x the faithful ComDOS's.

    Both run on the same jobs in the same process (warm runs, faithful first and last, so load drift shows).
    """
    inst = first_jobs(base, jobs)
    rows = []
    for label, options in (("faithful", {}), ("full_cell", comdos.FULL_CELL_OPTIONS), ("faithful again", {})):
        out, _ = warm_run(inst, **options)
        rows.append((label, out.decision_s * 1e3, out.objective, int(out.admitted.sum())))
    print(f"{'ComDOS':<15} {'jobs':>5} {'p50_ms':>8} {'p90_ms':>8} {'mean_ms':>8} {'profit':>9} {'admitted':>8}")
    for label, ms, profit, admitted in rows:
        print(f"{label:<15} {inst.num_jobs:>5} {np.median(ms):>8.2f} {np.percentile(ms, 90):>8.2f} {ms.mean():>8.2f} "
              f"{profit:>9.2f} {admitted:>8}")
    faithful = np.concatenate([rows[0][1], rows[2][1]])
    ratio = rows[1][1].mean() / faithful.mean()
    print(f"full_cell / faithful mean decision time: {ratio:.2f} (target <= 2; "
          f"p50 ratio {np.median(rows[1][1]) / np.median(faithful):.2f})")


def options_per_job(inst: GenaiInstance) -> np.ndarray:
    return np.array([comdos.job_data(inst, i, inst.cost_weight, 4)[2].shape[0] for i in range(inst.num_jobs)])


def row(label: str, inst: GenaiInstance) -> str:
    out, cold = warm_run(inst)
    ms = out.decision_s * 1e3
    n_opt = options_per_job(inst)
    single = np.median(ms[n_opt == 1]) if (n_opt == 1).any() else float("nan")
    multi = np.median(ms[n_opt > 1]) if (n_opt > 1).any() else float("nan")
    return (f"{label:<28} {inst.num_jobs:>5} {np.median(ms):>9.2f} {np.percentile(ms, 90):>8.2f} "
            f"{ms.mean():>8.2f} {single:>9.2f} {multi:>9.2f} {int(n_opt.max()):>6} {cold:>7.1f}")


HEADER = (f"{'configuration':<28} {'jobs':>5} {'median':>9} {'p90':>8} {'mean':>8} {'|H|=1':>9} "
          f"{'|H|>1':>9} {'max|H|':>6} {'cold_s':>7}\n" + "-" * 100)


def first_jobs(inst: GenaiInstance, n: int) -> GenaiInstance:
    return inst.subset(np.arange(min(n, inst.num_jobs)))


def with_models(inst: GenaiInstance, m: int) -> GenaiInstance:
    """Keep the first ``m`` candidate models of every task."""
    return inst.replace(candidate_model=inst.candidate_model[:, :, :m], runtime=inst.runtime[:, :, :m],
                        compute=inst.compute[:, :, :m])


def with_shape(inst: GenaiInstance, forks: int) -> GenaiInstance:
    """Every job gets 5 tasks (its first task's models for all) and a DAG with ``forks`` multi-child tasks."""
    shapes = {0: [(0, 1), (1, 2), (2, 3), (3, 4)],
              1: [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)],
              2: [(0, 1), (0, 2), (1, 3), (1, 4)]}
    pairs = shapes[forks]
    n = inst.num_jobs
    dag_edge = np.full((n, 5, 2), -1)
    dag_edge[:, : len(pairs)] = pairs
    data = np.zeros((n, 5))
    data[:, : len(pairs)] = 1.5
    rep = lambda a: np.repeat(a[:, :1], 5, axis=1)  # noqa: E731
    return inst.replace(num_tasks=np.full(n, 5), task_type=rep(inst.task_type), candidate_model=rep(inst.candidate_model),
                        runtime=rep(inst.runtime), compute=rep(inst.compute), dag_edge=dag_edge, data_size=data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=400, help="jobs per configuration (first by arrival)")
    parser.add_argument("--targets-only", action="store_true", help="only the targets' figures (section 0)")
    args = parser.parse_args()
    print(f"cores: {__import__('os').cpu_count()}, load average: {open('/proc/loadavg').read().split()[:3]}")
    print("decision latency per job in ms (warm run), by configuration\n")
    base = genai.generate(seed=0, edges=10, capacity="homo-M", slots=500, arrival_rate=7)

    print("0) the targets: K=10, T=500, Poisson(7) (p90 <= 10 ms) and the 900-option job (<= 50 ms)")
    targets(base, args.jobs)
    print("\n0b) the full_cell option set against the faithful ComDOS, same jobs")
    variant_against_faithful(base, args.jobs)
    if args.targets_only:
        return

    print("\n1) 10 edges, 500 slots, Poisson(7), TaskBench DAGs, homo-M")
    print(f"   full instance: {base.num_jobs} jobs; measured on the first {args.jobs}")
    print(HEADER)
    print(row("K=10 T=500 Poisson(7)", first_jobs(base, args.jobs)))

    print("\n2) growth with edges (T=500, Poisson(7))")
    print(HEADER)
    for k in (5, 10, 20):
        inst = genai.generate(seed=0, edges=k, capacity="homo-M", slots=500, arrival_rate=7)
        print(row(f"K={k}", first_jobs(inst, args.jobs // 2)))

    print("\n3) growth with candidate models per task (K=10, T=500)")
    print(HEADER)
    sub = first_jobs(base, args.jobs // 2)
    for m in (1, 2, 3):
        print(row(f"{m} model(s) per task", with_models(sub, m)))

    print("\n4) growth with tasks that have several children (5-task jobs, K=10, 3 models, T=500)")
    print(HEADER)
    for forks, n in ((0, 40), (1, 40), (2, 4)):
        print(row(f"{forks} multi-child task(s)", with_shape(first_jobs(base, n), forks)))


if __name__ == "__main__":
    main()
