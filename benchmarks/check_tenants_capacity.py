"""The tenants capacity readings on held-out seeds: baseline relations and contention.

For each reading (generator options of :func:`aisched.scenarios.tenants.generate`,
docs/readings/tenants.md T12, T14) and each held-out seed (3000+, calibration's confirmation
set: no figure and no fit reads them), this draws section 5.1's setting (14 users, 100 servers, 200
jobs, one-hour slots, linear utility; the VC-share reading at 10 users of the week extract, see
below) and runs BatchSche, Gandiva_fair and HiveD. It reads the regime targets of
:data:`aisched.scenarios.tenants.silent.REGIME_TARGETS` at that point (the four ratios and the two
"BatchSche worst" orderings) with calibration's estimator
(:func:`aisched.experiments.verdicts.fit.estimate`: 90 % paired bootstrap interval over seeds, met /
missed / undecided), and the orderings at 25 and 50 servers with ``--servers-points``.

Contention, per algorithm (mean over seeds): revenue, admitted jobs, peak and mean GPU utilisation
(``gpu_util_peak``, ``gpu_util_mean`` over the horizon, ``gpu_util_busy_mean`` until the makespan),
jobs beyond their owner's quota (shared, any scheduler), Astraea's own shared jobs, jobs admitted at a
loss and rejected jobs split into unprofitable / capacity / quota / waiting
(:func:`aisched.scenarios.tenants.metrics.contention`). ``--astraea`` adds Astraea's contention row;
its revenue is printed and never read by anything that chooses a reading (the relations are the
baselines' only).

Usage: ``python benchmarks/check_tenants_capacity.py [--seeds 10] [--readings default ps-widest ...]
[--astraea] [--servers-points] [--json out.json]``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

import aisched
from aisched.experiments.verdicts.fit import estimate
from aisched.scenarios.tenants import generate
from aisched.scenarios.tenants.metrics import cell_metrics
from aisched.scenarios.tenants.silent import PAPER_POINT, REGIME_TARGETS

BASELINES = ("batchsche", "gandiva_fair", "hived")
FIRST_SEED = 3000  # calibrate.SEED_SETS["confirmation"]

#: Readings: generator options over section 5.1's point (PAPER_POINT, the day extract).
READINGS: dict[str, dict[str, Any]] = {
    "default": {},
    "ps-widest": {"ps_per_server": "widest_job"},
    "trace-width": {"width_from_trace": 1},
    "ps-widest+trace-width": {"ps_per_server": "widest_job", "width_from_trace": 1},
    "week10-equal": {"trace": "week", "users": 10},
    "week10-vc-shares": {"trace": "week", "users": 10, "cluster_shares": "gpu_time"},
    "week10-vc-shares+ps-widest": {"trace": "week", "users": 10, "cluster_shares": "gpu_time",
                                   "ps_per_server": "widest_job"},
    # with docs/readings/tenants.md T3's named variant greedy-utility (Gandiva_fair and HiveD start a job only at a
    # profit): the capacity reading beside the baselines' admission reading, for context
    "default+greedy-utility": {"_params": {"gandiva_fair": {"admission": "utility"}, "hived": {"admission": "utility"}}},
    "ps-widest+greedy-utility": {"ps_per_server": "widest_job",
                                 "_params": {"gandiva_fair": {"admission": "utility"},
                                             "hived": {"admission": "utility"}}},
}

COLUMNS = ("gpu_util_peak", "gpu_util_mean", "gpu_util_busy_mean", "jobs_beyond_quota", "shared_jobs",
           "admitted_at_loss", "rejected_unprofitable", "rejected_capacity", "rejected_quota", "rejected_waiting")


def run_point(options: dict[str, Any], seeds: list[int], algorithms: tuple[str, ...]) -> dict[str, Any]:
    """Objectives and contention columns per algorithm and seed at one point."""
    objectives: dict[str, dict[int, float]] = {a: {} for a in algorithms}
    rows: dict[str, list[dict[str, float]]] = {a: [] for a in algorithms}
    widest: list[int] = []
    ps: list[int] = []
    fastest: list[float] = []
    params = options.get("_params", {})
    for seed in seeds:
        point = {**PAPER_POINT, **{k: v for k, v in options.items() if k != "_params"}}
        inst = generate(seed=seed, **point)
        widest.append(int(inst.widest_run()[0].max()))
        ps.append(int(inst.parameter_servers[0]))
        fastest.append(float(np.median(inst.fastest_run())))
        for name in algorithms:
            out = aisched.run(name, inst, **params.get(name, {}))
            objectives[name][seed] = float(out.objective)
            row = {k: float(v) for k, v in cell_metrics(inst, out).items() if k in COLUMNS}
            row["objective"], row["admitted"] = float(out.objective), float(out.admitted.sum())
            rows[name].append(row)
    return {"objectives": objectives, "rows": rows, "widest": widest,
            "ps_per_server": ps, "fastest": fastest, "slots": int(inst.num_slots)}


def _mean(values: list[float]) -> float:
    finite = [v for v in values if math.isfinite(v)]
    return float(np.mean(finite)) if finite else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--readings", nargs="+", default=list(READINGS), choices=list(READINGS))
    parser.add_argument("--astraea", action="store_true", help="add Astraea's contention row (never read to choose)")
    parser.add_argument("--servers-points", action="store_true", help="also the orderings at 25 and 50 servers")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    seeds = list(range(FIRST_SEED, FIRST_SEED + args.seeds))
    algorithms = BASELINES + (("astraea",) if args.astraea else ())
    record: dict[str, Any] = {"seeds": seeds, "readings": {}}
    for reading in args.readings:
        began = time.perf_counter()
        options = READINGS[reading]
        main_point = run_point(options, seeds, algorithms)
        base = {a: main_point["objectives"][a] for a in BASELINES}
        estimates = [estimate(t, base) for t in REGIME_TARGETS if dict(t.at) == PAPER_POINT]
        extra = []
        if args.servers_points:
            for servers in (25, 50):
                at = run_point({**options, "servers": servers}, seeds, BASELINES)
                for t in REGIME_TARGETS:
                    if dict(t.at) == {**PAPER_POINT, "servers": servers}:
                        extra.append(estimate(t, at["objectives"]))
        wall = time.perf_counter() - began
        print(f"\n## {reading} {options} (seeds {seeds[0]}-{seeds[-1]}, C_sp = {min(main_point['ps_per_server'])}-"
              f"{max(main_point['ps_per_server'])} (median {int(np.median(main_point['ps_per_server']))}), "
              f"T = {main_point['slots']} at the last seed, widest feasible job {min(main_point['widest'])}-"
              f"{max(main_point['widest'])} workers, median fastest run {min(main_point['fastest']):.0f}-"
              f"{max(main_point['fastest']):.0f} slots, {wall:.0f} s)")
        print("| relation | paper | ours [90 % interval] | status |\n|---|---|---|---|")
        for e in estimates + extra:
            paper = "-" if not math.isfinite(e.paper) else f"{e.paper:.3f}"
            print(f"| {e.name} | {paper} | {e.estimate:.3f} [{e.low:.3f}, {e.high:.3f}] | {e.status} |")
        print("| algorithm | revenue | admitted | " + " | ".join(COLUMNS) + " |")
        print("|---" * (len(COLUMNS) + 3) + "|")
        for name in algorithms:
            rows = main_point["rows"][name]
            cells = [f"{_mean([r[k] for r in rows]):.3f}" if k.startswith("gpu") else f"{_mean([r[k] for r in rows]):.1f}"
                     for k in COLUMNS]
            print(f"| {name} | {_mean([r['objective'] for r in rows]):,.0f} | "
                  f"{_mean([r['admitted'] for r in rows]):.1f} | " + " | ".join(cells) + " |")
        record["readings"][reading] = {"options": options, "estimates": [e.to_json() for e in estimates + extra],
                                       "rows": main_point["rows"], "widest": main_point["widest"],
                                       "ps_per_server": main_point["ps_per_server"], "fastest": main_point["fastest"],
                                       "wall_s": wall}
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(record, fh, indent=1, default=str)


if __name__ == "__main__":
    main()
