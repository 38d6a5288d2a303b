"""How far a sweep's remaining-time estimate is from the truth, cell by cell.

Runs a real sweep: by default ``lora/fig4-scale`` in its reduced form at
several sizes (2, 3, 4 and 6 nodes, 5 seeds, its 7 algorithms: 140 cells; the
JAX algorithms compile once per size on each worker), into a temporary folder,
on a 2-process pool. At every finished cell it records the estimate that
:class:`aisched.experiments.run.progress.EtaBar` shows and, once the sweep returned,
the true time that was left. Prints the ratio estimate / truth at 10, 25, 50,
75 and 90 % of the cells and the worst ratio from 10 % of the cells on (the
goal: within 2x either way), beside the same figures for the estimate the bar
gave before (each algorithm's median cell after its warm-up, the sizes not
told apart, no writes counted).

    python benchmarks/eta_error.py [--scenario lora/fig4-scale] [--values 2,3,4,6] [--seeds 5]
                                   [--executor process] [--workers 2] [--trace cells.csv]

The truth of the last cells is short (the last writes, the table, the pool
closing), so their ratios swing most; the worst ratio names the cell it was at.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from aisched.experiments.run import sweep
from aisched.experiments.run.progress import Eta, EtaBar, Group
from aisched.experiments.spec import catalog

#: The shares of the cells at which the ratio is printed.
SHARES = (0.10, 0.25, 0.50, 0.75, 0.90)


class MedianEta:
    """The estimate the bar gave before: each algorithm's median cell, its first ``workers`` cells left out.

    Sizes are not told apart, so a size not seen yet costs what the sizes seen
    cost after their compilation; algorithms not seen yet are priced at the
    dearest seen; writes are not counted; the work is divided among the workers.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.left: Counter[str] = Counter()
        self.unknown = 0
        self.times: dict[str, list[float]] = defaultdict(list)

    def expect(self, kinds: Iterable[str]) -> None:
        """Announce cells of these kinds."""
        for kind in kinds:
            self.unknown = max(0, self.unknown - 1)
            self.left[kind] += 1

    def finished(self, kind: str, seconds: float) -> None:
        """A cell of ``kind`` finished after ``seconds`` of work."""
        self.left[kind] = max(0, self.left[kind] - 1)
        self.times[kind].append(seconds)

    def remaining_s(self) -> float | None:
        """Seconds left: the cells left at their kind's steady median, over the workers."""
        costs = {kind: statistics.median(times[self.workers:] or [min(times)]) for kind, times in self.times.items()}
        if not costs:
            return None
        dearest = max(costs.values())
        work = sum(n * costs.get(kind, dearest) for kind, n in self.left.items())
        return (work + self.unknown * dearest) / self.workers


class RecordingEta(Eta):
    """The bar's :class:`Eta`, also feeding :class:`MedianEta` the same cells (by their kind alone)."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers=workers)
        self.before = MedianEta(workers)
        self.writes: list[float] = []
        self.last_write = math.nan

    def expect(self, groups: Iterable[Group | str]) -> None:
        groups = list(groups)
        super().expect(groups)
        self.before.expect(g if isinstance(g, str) else g[0] for g in groups)

    def expect_unknown(self, count: int) -> None:
        super().expect_unknown(count)
        self.before.unknown += count

    def finished(self, group: Group | str, seconds: float) -> None:
        super().finished(group, seconds)
        self.before.finished(group if isinstance(group, str) else group[0], seconds)

    def wrote(self, seconds: float) -> None:
        super().wrote(seconds)
        self.writes.append(seconds)
        self.last_write = time.perf_counter()


@dataclass
class Moment:
    """What was known when one cell finished: when, which cell, both estimates, and the truth once known."""

    at_s: float
    cell: str
    seconds: float
    estimate_s: float | None
    before_s: float | None
    truth_s: float = math.nan


class RecordingBar(EtaBar):
    """An :class:`EtaBar` that notes both estimates each time a cell finished."""

    def __init__(self, *args: Any, workers: int = 1, **kwargs: Any) -> None:
        self.moments: list[Moment] = []
        self.start = time.perf_counter()
        super().__init__(*args, workers=workers, **kwargs)
        self.eta = RecordingEta(workers)
        self.eta.expect_unknown(int(self.total) - int(self.n))

    def update(self, n: float | None = 1) -> bool | None:
        shown = super().update(n)
        eta = self.eta
        assert isinstance(eta, RecordingEta)
        with eta._lock:
            last = self.postfix or ""
            self.moments.append(Moment(time.perf_counter() - self.start, last.lstrip(", "), 0.0,
                                       eta.remaining_s(), eta.before.remaining_s()))
        return shown


def ratio_text(estimate: float | None, truth: float) -> str:
    """``estimate / truth`` to two places, ``-`` without an estimate."""
    return "-" if estimate is None or truth <= 0 else f"{estimate / truth:.2f}"


def worst(moments: list[Moment], estimate: str) -> tuple[float, int] | None:
    """The ratio furthest from 1 (either way) among ``moments``, and its index."""
    ratios = [(getattr(m, estimate) / m.truth_s, i) for i, m in enumerate(moments)
              if getattr(m, estimate) is not None and m.truth_s > 0 and getattr(m, estimate) > 0]
    return max(ratios, key=lambda r: abs(math.log(r[0]))) if ratios else None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="lora/fig4-scale", help="a catalogue scenario, run in its reduced form")
    p.add_argument("--values", default="2,3,4,6", help="its x values (sizes), comma-separated integers")
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--executor", default="process", choices=("process", "serial"))
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--trace", default=None, help="write every cell's moment to this CSV")
    args = p.parse_args()

    base = catalog.get(args.scenario).reduced()
    values = tuple(int(v) for v in args.values.split(",")) if args.values else base.values
    scenario = replace(base, values=values, seeds=args.seeds, claims=(), bound=False, bound_at=())
    n_cells = len(sweep.cells(scenario))
    workers = 1 if args.executor == "serial" else args.workers
    load = os.getloadavg() if hasattr(os, "getloadavg") else (math.nan,) * 3
    print(f"{scenario.name} (reduced; {scenario.x} {', '.join(map(str, values))}; {args.seeds} seeds; "
          f"{len(scenario.runs)} algorithms): {n_cells} cells on {args.executor} x{workers}; "
          f"{os.cpu_count()} CPUs, load average {load[0]:.1f} before", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        bar = RecordingBar(total=n_cells, desc=scenario.name, unit="cell", disable=True, workers=workers)
        sweep.sweep(scenario, tmp, executor=args.executor, workers=args.workers, progress=False, bar=bar)
        end = time.perf_counter() - bar.start
        record = json.loads((sweep.folder(tmp, scenario) / "sweep.json").read_text())
        times = {f"{r['x']} s{r['seed']} {r['algorithm']}": r["work_s"] for r in sweep.load_table(
            sweep.folder(tmp, scenario)).to_dict("records")}
    moments = bar.moments
    for m in moments:
        m.truth_s = end - m.at_s
        m.seconds = times.get(m.cell, math.nan)
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    print(f"wall {end:.1f} s (sweep {record['wall_s']:.1f} s), work {record['work_s']:.1f} s, "
          f"writes {record['write_s']:.1f} s; load average {load_after:.1f} after")
    eta = bar.eta
    assert isinstance(eta, RecordingEta)
    if eta.writes:
        rest = eta.writes[1:] or eta.writes
        print(f"a cell's write: the first {eta.writes[0]:.2f} s, then median {statistics.median(rest):.3f} s, "
              f"max {max(rest):.3f} s")
        print(f"after the last cell: its last write {eta.last_write - bar.start - moments[-1].at_s:.1f} s, "
              f"the sweep returned (pool closed, table written) {end - moments[-1].at_s:.1f} s")

    print(f"{'cells':>12} {'true left':>10} {'estimate':>9} {'ratio':>6} {'before':>8} {'ratio':>6}")
    for share in SHARES:
        i = max(0, math.ceil(share * len(moments)) - 1)
        m = moments[i]
        print(f"{share:>5.0%} {i + 1:>3}/{len(moments):<3}{m.truth_s:>9.1f}s "
              f"{'?' if m.estimate_s is None else f'{m.estimate_s:.1f}s':>9} {ratio_text(m.estimate_s, m.truth_s):>6} "
              f"{'?' if m.before_s is None else f'{m.before_s:.1f}s':>8} {ratio_text(m.before_s, m.truth_s):>6}")
    start = max(0, math.ceil(0.10 * len(moments)) - 1)
    for label, upto in (("from 10 % on", len(moments)), ("from 10 % to 90 %", math.ceil(0.90 * len(moments)))):
        line = []
        for name, field in (("estimate", "estimate_s"), ("before", "before_s")):
            w = worst(moments[start:upto], field)
            line.append("-" if w is None else
                        f"{name} {w[0]:.2f} at cell {start + w[1] + 1} ({moments[start + w[1]].truth_s:.1f} s left)")
        print(f"worst ratio {label}: " + "; ".join(line))

    if args.trace:
        with open(args.trace, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["cell", "finished_s", "work_s", "estimate_s", "before_s", "truth_s"])
            for m in moments:
                out.writerow([m.cell, f"{m.at_s:.3f}", f"{m.seconds:.4f}",
                              "" if m.estimate_s is None else f"{m.estimate_s:.3f}",
                              "" if m.before_s is None else f"{m.before_s:.3f}", f"{m.truth_s:.3f}"])


if __name__ == "__main__":
    main()
