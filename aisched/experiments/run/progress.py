"""A sweep's progress bar and its remaining-time estimate, priced from what the cells left are.

tqdm's own estimate divides the cells left by the rate so far, and a price per
algorithm (the median of its cells) does little better: both miss the one-off
costs that dominate a sweep of short cells. An algorithm written in JAX
compiles once per instance size on each worker, so its first cell at a new
size can cost a hundred times its later ones (pdFTSP: 0.05 s a cell, 1-8 s the
first at a size), and the parent writes every finished cell's netCDF outcome
(0.05-0.1 s a cell: 15 s of a 53 s sweep of 150 cells). A sweep whose sizes
grow point by point meets new sizes, and so new compilations, in its second
half that no median of its first half shows: such a sweep showed 2 s left
halfway through and ran 23 s more.

:class:`Eta` therefore prices each cell left by what it is. Its *group*
(:func:`cell_group`) is its algorithm and its size (the parameters that shape
its instance). The first cells of a group, one a worker, are priced at what
first cells of that algorithm cost at the sizes seen (its compilation
included); the later ones at what the group's later cells cost, else the
algorithm's at other sizes. An algorithm not seen yet is priced at the median
first and later cell of every algorithm, and cells whose group is not known yet
(the later scenarios of ``aisched reproduce``) at the mean cell so far. The
work is divided among the workers (but takes at least its longest cell), and
the writes still to come, one a cell at the median write, are added: the parent
writes the cells one at a time, on the cores the workers compute on.
:class:`EtaBar` is a tqdm that shows the estimate and its pace in seconds a
cell or cells a minute.
"""

from __future__ import annotations

import json
import math
import statistics
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from tqdm import tqdm

__all__ = ["Eta", "EtaBar", "Group", "PACE_UNITS", "cell_group", "pace_text", "pace_unit"]

#: A cell's group: (its kind, e.g. ``"lora:pdftsp"``, and its size, the text of the parameters that shape
#: its instance). Cells of one group cost alike; the first of a group on a worker pays its compilation.
Group = tuple[str, str]


def cell_group(cell: Any) -> Group:
    """The group of a sweep's :class:`~aisched.experiments.run.sweep.Cell`: (family:algorithm, size).

    The size is every parameter that shapes the computation: the point's generator
    parameters, the algorithm's parameters and the time limit. The seed is left
    out: the seeds of one point draw instances of one shape, which one compilation
    serves (lora's pdFTSP: only a point's first cells on each worker cost more). The
    scenario is left out too: two scenarios running the
    same algorithm at the same parameters (``aisched reproduce``) share a worker's
    compilation.
    """
    size = json.dumps([cell.generator_params, cell.algorithm_params, cell.time_limit], sort_keys=True, default=str)
    return f"{cell.family}:{cell.algorithm}", size


def _as_group(group: Group | str) -> Group:
    """A group from a group or a bare kind (a kind given alone has one size)."""
    return (group, "") if isinstance(group, str) else (str(group[0]), str(group[1]))


class Eta:
    """Remaining wall time of a sweep from the cells left and what finished cells of their groups cost.

    Parameters
    ----------
    workers
        How many cells run at once. The first ``workers`` cells of a group that
        finish count as first cells (each worker compiles once per size), the
        rest as later cells. Which worker ran a cell is not known, so a worker
        that meets a size after the others ran ``workers`` cells of it compiles
        unexpected: with 4 workers the last tenth of a sweep can read half its time.
    """

    def __init__(self, *, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"workers = {workers} must be >= 1")
        self.workers = int(workers)
        self._left: Counter[Group] = Counter()
        self._unknown = 0  # cells announced without a group (the later scenarios of one bar)
        self._ran: Counter[Group] = Counter()  # cells of each group that finished with a time
        self._first: dict[Group, list[float]] = defaultdict(list)
        self._later: dict[Group, list[float]] = defaultdict(list)
        self._writes: list[float] = []  # seconds the parent took to write each finished cell's files
        self._unwritten = 0  # cells finished (or shared) whose files are not written yet
        self._lock = threading.RLock()  # reproduce runs two sweeps' threads, and a writer thread, on one bar

    # --- what the sweep tells it

    def expect(self, groups: Iterable[Group | str]) -> None:
        """Announce cells still to run, one group (:func:`cell_group`) or bare kind each."""
        with self._lock:
            for group in groups:
                if self._unknown > 0:
                    self._unknown -= 1
                self._left[_as_group(group)] += 1

    def expect_unknown(self, count: int) -> None:
        """Announce ``count`` cells whose groups are not known yet (priced at the mean cell seen)."""
        with self._lock:
            self._unknown += max(0, int(count))

    def finished(self, group: Group | str, seconds: float) -> None:
        """A cell of ``group`` finished after ``seconds`` of work; its files are still to be written."""
        group = _as_group(group)
        with self._lock:
            if self._left[group] > 0:
                self._left[group] -= 1
            first = self._ran[group] < self.workers
            (self._first if first else self._later)[group].append(float(seconds))
            self._ran[group] += 1
            self._unwritten += 1

    def shared(self, group: Group | str) -> None:
        """A cell took another's result (:mod:`aisched.experiments.run.sharing`): one fewer left, no time, one write."""
        group = _as_group(group)
        with self._lock:
            if self._left[group] > 0:
                self._left[group] -= 1
            self._unwritten += 1

    def wrote(self, seconds: float) -> None:
        """The parent wrote one finished cell's files (outcome and row) in ``seconds``."""
        with self._lock:
            self._writes.append(float(seconds))
            self._unwritten = max(0, self._unwritten - 1)

    # --- what it estimates

    def cell_costs(self, group: Group | str) -> tuple[float, float] | None:
        """Work seconds of (a first cell, a later cell) of ``group``, or None before any cell finished.

        A first cell: the median of the group's own first cells, else the median of
        its kind's first cells at every size (what compiling a new size cost), else
        (a kind not seen yet) the median first cell of every kind. A later cell: the
        median of the group's later cells, else of its kind's; with none finished
        yet, the dearest later cell of any kind but no more than the kind's cheapest
        first cell (a first cell is a later one plus its compilation: an upper bound).
        """
        group = _as_group(group)
        with self._lock:
            of_kind = self._kind_costs()
            return self._costs(group, of_kind) if of_kind else None

    def _kind_costs(self) -> dict[str, tuple[float, float]]:
        """Each kind's (first, later) cell cost over all its sizes, and ``""``'s: what a kind not seen costs."""
        first: dict[str, list[float]] = defaultdict(list)
        later_times: dict[str, list[float]] = defaultdict(list)
        for (kind, _), times in self._first.items():
            first[kind] += times
        for (kind, _), times in self._later.items():
            later_times[kind] += times
        later = {kind: statistics.median(times) for kind, times in later_times.items() if times}
        dearest_later = max(later.values(), default=math.inf)
        costs = {kind: (statistics.median(times), later.get(kind, min(min(times), dearest_later)))
                 for kind, times in first.items() if times}
        every_first = [t for times in first.values() for t in times]
        every_later = [t for times in later_times.values() for t in times]
        if every_first:
            costs[""] = (statistics.median(every_first), statistics.median(every_later or every_first))
        return costs

    def _costs(self, group: Group, of_kind: dict[str, tuple[float, float]]) -> tuple[float, float]:
        """(first, later) cell cost of ``group``: its own medians where it has cells, else its kind's."""
        kind_first, kind_later = of_kind.get(group[0]) or of_kind[""]
        own_first, own_later = self._first.get(group), self._later.get(group)
        return (statistics.median(own_first) if own_first else kind_first,
                statistics.median(own_later) if own_later else kind_later)

    def mean_cell_s(self) -> float | None:
        """The mean work seconds of every cell finished (first cells included), or None before one."""
        with self._lock:
            times = [t for by_group in (self._first, self._later) for ts in by_group.values() for t in ts]
            return statistics.fmean(times) if times else None

    def write_s(self) -> float | None:
        """Seconds the parent takes to write one cell's files (the median write), or None before one.

        The median, not the mean: the run's first write also loads the netCDF library
        (1-5 s measured, against 0.05-0.1 s a write after it), a one-off cost that a
        mean would charge to every write left.
        """
        with self._lock:
            return statistics.median(self._writes) if self._writes else None

    def remaining_s(self) -> float | None:
        """Seconds of wall time left: the work of the cells left over the workers, plus the writes left.

        Zero when nothing is left to run or write; None while cells are left to
        run and none has finished (nothing to price them by yet).
        """
        with self._lock:
            cells_left = sum(self._left.values()) + self._unknown
            writes = (self.write_s() or 0.0) * (cells_left + self._unwritten)
            if cells_left == 0:
                return writes
            mean = self.mean_cell_s()
            if mean is None:
                return None
            of_kind = self._kind_costs()
            work, longest = 0.0, 0.0
            for group, n in self._left.items():
                if n <= 0:
                    continue
                first, later = self._costs(group, of_kind)
                # each worker pays the first-cell cost once per group; the rest are later cells
                firsts = max(0, min(self.workers, self._ran[group] + n) - self._ran[group])
                work += firsts * first + (n - firsts) * later
                longest = max(longest, first if firsts else later)
            work += self._unknown * mean
            # the work spread over the workers, but no sooner than its longest cell can finish
            return max(work / self.workers, longest) + writes


#: The units a pace is given in (:func:`pace_text`).
PACE_UNITS = ("min/cell", "s/cell", "cells/min")


def pace_unit(cells: float, seconds: float) -> str:
    """The unit a pace reads best in: minutes a cell from a minute up, seconds a cell from a second, else
    cells a minute."""
    per_cell = seconds / cells if cells > 0 and seconds > 0 else 1.0
    return "min/cell" if per_cell >= 60 else "s/cell" if per_cell >= 1 else "cells/min"


def pace_text(cells: float, seconds: float, unit: str | None = None) -> str:
    """A pace a person reads at a glance: ``"4.2 s/cell"``, ``"85 cells/min"`` or ``"2.5 min/cell"``.

    A cell a second or slower is given in seconds (minutes from a minute up) a
    cell; faster ones in cells a minute; ``unit`` (:data:`PACE_UNITS`) fixes it (a bar keeps
    the unit of its first pace: its numbers never switch units mid-run). ``"? s/cell"`` before a
    cell finished.
    """
    if cells <= 0 or seconds <= 0:
        return f"? {unit or 's/cell'}"
    per_cell = seconds / cells
    unit = unit or pace_unit(cells, seconds)
    if unit == "min/cell":
        return f"{per_cell / 60:.1f} min/cell"
    if unit == "s/cell":
        return f"{per_cell:.{1 if per_cell >= 1 else 2}f} s/cell"
    return f"{60 / per_cell:.0f} cells/min"


class EtaBar(tqdm):  # type: ignore[misc]
    """A tqdm that shows :attr:`eta`'s remaining time (``?`` until a cell finished) and the pace so far.

    The line reads ``desc: 50%|####    | 75/150 [00:30<00:31, 150 cells/min]``: the
    pace is this run's cells over its elapsed time, in seconds a cell or cells a
    minute (tqdm's ``it/s`` of a sweep of second-long cells reads ``0.52it/s``).
    """

    #: The line: tqdm's own, with the estimate (``left``) and the pace (``pace``) in place of tqdm's.
    BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{left}, {pace}{postfix}]"

    def __init__(self, *args: Any, workers: int = 1, **kwargs: Any) -> None:
        self.eta = Eta(workers=workers)
        #: Cells finished and all cells, counted even when the bar is disabled (tqdm's ``n`` is not).
        self.done, self.planned = int(kwargs.get("initial") or 0), kwargs.get("total")
        kwargs.setdefault("bar_format", self.BAR_FORMAT)
        # every finished cell redraws the line (tqdm's own pacing skipped the redraws of a burst of early
        # cells: the estimate stayed "?" on screen long after it was known)
        kwargs.setdefault("miniters", 1)
        self._unit: str | None = None  # the pace's unit, chosen once (at the first cell finished)
        if self.planned is not None:  # before tqdm draws the bar: its cells are left, not none ("?", not 00:00)
            self.eta.expect_unknown(int(self.planned) - self.done)
        super().__init__(*args, **kwargs)
        if self.planned is None and self.total is not None:
            self.eta.expect_unknown(int(self.total) - int(self.n))

    def update(self, n: float | None = 1) -> bool | None:
        with self.eta._lock:
            self.done += int(n or 0)
            return super().update(n)

    @property
    def format_dict(self) -> dict[str, Any]:
        d = super().format_dict
        left = self.eta.remaining_s() if hasattr(self, "eta") else None
        d["left"] = "?" if left is None else self.format_interval(left)
        cells, elapsed = d.get("n", 0) - (d.get("initial") or 0), d.get("elapsed") or 0.0
        if getattr(self, "_unit", "") is None and cells > 0 and elapsed > 0:
            self._unit = pace_unit(cells, elapsed)
        d["pace"] = pace_text(cells, elapsed, getattr(self, "_unit", None))
        return d
