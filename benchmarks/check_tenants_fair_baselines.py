"""HiveD and Gandiva_fair under their papers' own mechanisms: the baseline relations, default vs each reading.

Runs BatchSche, Gandiva_fair (``share="usage"`` default / ``"tickets"``) and HiveD (``cells="quota"``
default / ``"buddy"``) on held-out seeds and prints, per point, the relations section 5.2's
percentages imply among the baselines (``aisched/scenarios/tenants/silent.py``: Gandiva_fair /
BatchSche 1.274 (Fig. 4a) and 1.336 (Fig. 4b), HiveD / BatchSche 1.170 and 1.116, so a
HiveD-Gandiva_fair gap ``(G - H) / B`` of 0.104 and 0.220 and HiveD / Gandiva_fair 0.919 and 0.836),
ratios of means over seeds with paired bootstrap 95 % intervals (seeds resampled together, as
``aisched.experiments.verdicts.fit``), and the orderings "BatchSche worst". Reads no Astraea
outcome (Astraea is never run).

Usage::

    AISCHED_SHARED_DATA=/work/shared/data python benchmarks/check_tenants_fair_baselines.py \
        --seeds 3000-3009 --points paper scale0.3 scale0.1 servers25 servers50 convex --out /tmp/fair.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

import aisched
from aisched.scenarios.tenants import generate

PAPER = {"users": 14, "servers": 100, "jobs": 200, "slot_hours": 1.0, "utility": "linear"}
POINTS = {
    "paper": {},
    "scale0.45": {"duration_scale": 0.45},
    "scale0.3": {"duration_scale": 0.3},
    "scale0.2": {"duration_scale": 0.2},
    "scale0.1": {"duration_scale": 0.1},
    "servers25": {"servers": 25},
    "servers50": {"servers": 50},
    "convex": {"utility": "convex"},
}
RUNS = {
    "B": ("batchsche", {}),
    "G": ("gandiva_fair", {}),
    "G_tickets": ("gandiva_fair", {"share": "tickets"}),
    "H": ("hived", {}),
    "H_buddy": ("hived", {"cells": "buddy"}),
}
READINGS = {  # (Gandiva_fair run, HiveD run)
    "default": ("G", "H"),
    "tickets": ("G_tickets", "H"),
    "buddy": ("G", "H_buddy"),
    "tickets+buddy": ("G_tickets", "H_buddy"),
}
RESAMPLES = 10_000


def _seeds(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def _interval(values: np.ndarray) -> tuple[float, float]:
    ok = values[np.isfinite(values)]
    return (float(np.percentile(ok, 2.5)), float(np.percentile(ok, 97.5))) if ok.size else (np.nan, np.nan)


def relations(table: dict[str, np.ndarray], rng: np.random.Generator) -> dict[str, dict]:
    """Ratios of means over seeds with paired bootstrap intervals, per reading."""
    n = len(table["B"])
    idx = rng.integers(0, n, size=(RESAMPLES, n))
    boot = {k: v[idx].mean(axis=1) for k, v in table.items()}
    mean = {k: float(v.mean()) for k, v in table.items()}
    out = {}
    base_boot: dict[str, np.ndarray] = {}
    base_est: dict[str, float] = {}
    for reading, (g, h) in READINGS.items():
        rel = {}
        for name, f in (
            ("G/B", lambda m: m[g] / m["B"]),
            ("H/B", lambda m: m[h] / m["B"]),
            ("(G-H)/B", lambda m: (m[g] - m[h]) / m["B"]),
            ("H/G", lambda m: m[h] / m[g]),
        ):
            est = float(f(mean))
            b = np.asarray(f(boot))
            lo, hi = _interval(b)
            rel[name] = (est, lo, hi)
            if reading == "default":
                base_boot[name], base_est[name] = b, est
            else:  # the change from the default reading, paired (same seeds, same resamples)
                d_lo, d_hi = _interval(b - base_boot[name])
                rel[f"d {name}"] = (est - base_est[name], d_lo, d_hi)
        # per-seed paired difference of the gap against the default reading (same seeds)
        per_seed = (table[g] - table[h]) / table["B"].mean()
        rel["B<G seeds"] = int((table[g] > table["B"]).sum())
        rel["B<H seeds"] = int((table[h] > table["B"]).sum())
        rel["gap per seed"] = per_seed.tolist()
        out[reading] = rel
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="3000-3009")
    ap.add_argument("--points", nargs="+", default=["paper"], choices=sorted(POINTS))
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    seeds = _seeds(args.seeds)
    rng = np.random.default_rng(61)
    record = {"seeds": seeds, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "command": " ".join(sys.argv), "points": {}}
    for point in args.points:
        params = {**PAPER, **POINTS[point]}
        table = {k: [] for k in RUNS}
        started = time.perf_counter()
        for seed in seeds:
            inst = generate(seed=seed, **params)
            for key, (name, kw) in RUNS.items():
                out = aisched.run(name, inst, **kw)
                out.verify(inst)
                table[key].append(out.objective)
        arrays = {k: np.asarray(v, dtype=float) for k, v in table.items()}
        rel = relations(arrays, rng)
        record["points"][point] = {"params": params, "objectives": table, "relations": rel,
                                   "seconds": time.perf_counter() - started}
        print(f"\n## {point} {POINTS[point] or ''} ({len(seeds)} seeds, {time.perf_counter() - started:.0f} s)")
        print("means: " + ", ".join(f"{k} {np.mean(v):,.0f}" for k, v in table.items()))
        print("| reading | G/B | H/B | (G-H)/B | H/G | B<G | B<H |")
        print("|---|---|---|---|---|---|---|")
        for reading, r in rel.items():
            cells = [f"{r[k][0]:.3f} [{r[k][1]:.3f}, {r[k][2]:.3f}]" for k in ("G/B", "H/B", "(G-H)/B", "H/G")]
            print(f"| {reading} | " + " | ".join(cells) + f" | {r['B<G seeds']}/{len(seeds)} | {r['B<H seeds']}/{len(seeds)} |")
        print("change from the default reading (paired): " + "; ".join(
            f"{reading} " + ", ".join(f"{k} {r['d ' + k][0]:+.3f} [{r['d ' + k][1]:+.3f}, {r['d ' + k][2]:+.3f}]"
                                      for k in ("G/B", "H/B", "(G-H)/B"))
            for reading, r in rel.items() if reading != "default"))
        sys.stdout.flush()
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(record, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
