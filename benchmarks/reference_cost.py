"""What the offline references (optimum solves and certified bounds) of the named scenarios cost, before
and after computing them only where a verdict reads them (``Scenario.reference_points``).

Prints, per family, the reference cells of its full-size scenarios at ``--seeds`` seeds with every point
referenced (``references = "all"``, the rule before) and with the default rule, and the CPU seconds of the
dropped cells: read from a finished run (``--runs DIR``: the recorded ``work_s`` of its reference cells)
or, with ``--measure``, timed here on seed 0 of each dropped (scenario, point) and multiplied by the seeds
(a cell at its time limit costs the limit whatever the machine).

    python benchmarks/reference_cost.py --seeds 3 --runs /path/to/reproduce-root --measure genai
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from aisched.experiments.run import sweep
from aisched.experiments.run.sweep import load_table
from aisched.experiments.spec import catalog

REFERENCES = ("offline", "bound")


def _references(scenario, seeds: int) -> list:
    return [c for c in sweep.cells(scenario, seeds) if c.algorithm in REFERENCES]


def _recorded(root: Path | None, scenario, dropped: list) -> float | None:
    """CPU seconds a finished run recorded for the ``dropped`` cells of ``scenario`` (None: no such run)."""
    if root is None or not (sweep.folder(root, scenario) / "cells").is_dir():
        return None
    table = load_table(sweep.folder(root, scenario))
    if table.empty or "work_s" not in table.columns:
        return None
    keys = {(c.x, c.seed, c.algorithm) for c in dropped}
    rows = table[[(str(x), int(s), a) in keys for x, s, a in zip(table["x"], table["seed"], table["algorithm"])]]
    return float(rows["work_s"].sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--runs", type=Path, default=None, help="a finished `aisched reproduce` results root")
    parser.add_argument("--measure", nargs="*", default=[], help="families whose dropped cells are timed here")
    args = parser.parse_args()
    for family in ("lora", "spot", "genai", "tenants"):
        before = after = 0
        seconds: list[float] = []
        unknown: list[str] = []
        for name in catalog.names(family):
            scenario = catalog.get(name)
            every = _references(replace(scenario, references="all"), args.seeds)
            kept = {(c.point, c.seed, c.algorithm) for c in _references(scenario, args.seeds)}
            dropped = [c for c in every if (c.point, c.seed, c.algorithm) not in kept]
            before, after = before + len(every), after + len(kept)
            if not dropped:
                continue
            recorded = _recorded(args.runs, scenario, dropped)
            if recorded is not None:
                seconds.append(recorded)
            elif family in args.measure:
                for cell in (c for c in dropped if c.seed == 0):
                    tic = time.perf_counter()
                    sweep.run_cell(cell)
                    took = time.perf_counter() - tic
                    seconds.append(took * args.seeds)
                    print(f"  {name} {cell.algorithm} at {cell.x}: {took:.1f} s (limit {cell.time_limit} s)")
            else:
                unknown.append(name.split("/", 1)[1])
        cost = f"{sum(seconds) / 60:.1f} CPU-min saved" if seconds else "cost not measured"
        print(f"{family}: {before} reference cells at {args.seeds} seeds before, {after} after "
              f"({before - after} dropped; {cost}"
              + (f"; not measured: {', '.join(unknown)}" if unknown else "") + ")")


if __name__ == "__main__":
    main()
