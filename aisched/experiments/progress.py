"""A sweep's progress bar and its remaining-time estimate, which ignores warm-up.

tqdm's own estimate divides the cells left by the rate so far; a sweep's first
cells carry each worker's JAX compilation and imports, so at 1 of 150 cells it
said 46 minutes for a sweep that took one. :class:`Eta` prices every cell left
at the steady cost of its kind (scenario and algorithm) instead: the cells each
worker ran first of a kind are left out once later ones of that kind finished,
kinds not seen yet are priced at the dearest kind seen (better too long than
too short at the start), and the sum is divided among the workers. :class:`EtaBar` is a tqdm that shows it.
"""

from __future__ import annotations

import statistics
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from tqdm import tqdm

__all__ = ["Eta", "EtaBar"]


class Eta:
    """Remaining wall time of a set of cells from the work time of those that finished.

    Parameters
    ----------
    workers
        How many cells run at once.
    warmup
        Cells of each kind that each worker runs before its steady cost shows
        (they compile, import, fill caches); default 1. Their times count only
        while no later cell of the kind has finished.
    """

    def __init__(self, *, workers: int = 1, warmup: int = 1) -> None:
        if workers < 1 or warmup < 0:
            raise ValueError(f"workers = {workers} must be >= 1 and warmup = {warmup} >= 0")
        self.workers = int(workers)
        self.warmup = int(warmup)
        self._left: Counter[str] = Counter()
        self._unknown = 0  # cells announced without a kind (a later sweep of the same bar)
        self._times: dict[str, list[float]] = defaultdict(list)
        self._lock = threading.RLock()  # reproduce runs two sweeps' threads on one bar

    def expect(self, kinds: Iterable[str]) -> None:
        """Announce cells still to run, one kind (e.g. ``"lora/fig8-load:titan"``) each."""
        with self._lock:
            for kind in kinds:
                if self._unknown > 0:
                    self._unknown -= 1
                self._left[kind] += 1

    def expect_unknown(self, count: int) -> None:
        """Announce ``count`` cells whose kinds are not known yet (priced at the dearest kind seen)."""
        with self._lock:
            self._unknown += max(0, int(count))

    def finished(self, kind: str, seconds: float) -> None:
        """A cell of ``kind`` finished after ``seconds`` of work."""
        with self._lock:
            if self._left[kind] > 0:
                self._left[kind] -= 1
            self._times[kind].append(float(seconds))

    def shared(self, kind: str) -> None:
        """A cell of ``kind`` took another's result (:mod:`aisched.experiments.sharing`): one fewer left, no time."""
        with self._lock:
            if self._left[kind] > 0:
                self._left[kind] -= 1

    def cost(self, kind: str) -> float | None:
        """The steady work seconds of one cell of ``kind`` (median after warm-up), or None if none finished."""
        times = self._times.get(kind)
        if not times:
            return None
        steady = times[self.warmup * self.workers:]
        return statistics.median(steady) if steady else min(times)

    def remaining_s(self) -> float | None:
        """Seconds of wall time left, or None before any cell finished."""
        with self._lock:
            known = {kind: self.cost(kind) for kind in self._times}
            seen = [c for c in known.values() if c is not None]
            if not seen:
                return None
            unseen = max(seen)
            work = sum(n * (unseen if known.get(kind) is None else known[kind])
                       for kind, n in self._left.items() if n > 0)
            return (work + self._unknown * unseen) / self.workers


class EtaBar(tqdm):  # type: ignore[misc]
    """A tqdm whose remaining time is :attr:`eta`'s (``?`` until a cell finished), not the mean rate's."""

    def __init__(self, *args: Any, workers: int = 1, **kwargs: Any) -> None:
        self.eta = Eta(workers=workers)
        #: Cells finished and all cells, counted even when the bar is disabled (tqdm's ``n`` is not).
        self.done, self.planned = int(kwargs.get("initial") or 0), kwargs.get("total")
        super().__init__(*args, **kwargs)
        if self.total is not None:
            self.eta.expect_unknown(int(self.total) - int(self.n))

    def update(self, n: float | None = 1) -> bool | None:
        with self.eta._lock:
            self.done += int(n or 0)
            return super().update(n)

    @property
    def format_dict(self) -> dict[str, Any]:
        d = super().format_dict
        left = self.eta.remaining_s() if hasattr(self, "eta") else None
        todo = (d.get("total") or 0) - d.get("n", 0)
        # tqdm prints (total - n) / rate as the remaining time: hand it the rate that gives ours
        d["rate"] = (todo / left if left else 0.0) if todo > 0 else d.get("rate")
        return d
