"""The sweep's remaining-time estimate ignores warm-up (issue 29): a simulated sweep on a fake clock."""

from __future__ import annotations

import heapq

import pytest

from aisched.experiments.progress import Eta, EtaBar

#: (kind, steady seconds, extra seconds of the first cell of the kind on each worker: compilation)
KINDS = [("s:offline", 4.0, 2.0), ("s:pdftsp", 0.5, 12.0), ("s:titan", 2.0, 6.0), ("s:eft", 0.05, 1.0),
         ("s:ntm", 0.05, 1.0)]


def simulate(cells: int, workers: int, at: float) -> tuple[float, float, float]:
    """Run ``cells`` cells (kinds in turn) on ``workers`` workers of a fake clock.

    Returns (the estimate when a share ``at`` of the cells finished, the true
    remaining time then, tqdm's mean-rate estimate then).
    """
    order = [KINDS[i % len(KINDS)] for i in range(cells)]
    eta = Eta(workers=workers)
    eta.expect(kind for kind, _, _ in order)
    warm: set[tuple[int, str]] = set()
    free = [(0.0, w) for w in range(workers)]  # (time the worker is free, worker)
    finishes: list[tuple[float, str, float]] = []
    for kind, steady, extra in order:
        start, worker = heapq.heappop(free)
        took = steady + (extra if (worker, kind) not in warm else 0.0)
        warm.add((worker, kind))
        finishes.append((start + took, kind, took))
        heapq.heappush(free, (start + took, worker))
    finishes.sort()
    end = finishes[-1][0]
    n = int(at * cells)
    for _, kind, took in finishes[:n]:
        eta.finished(kind, took)
    now = finishes[n - 1][0]
    return eta.remaining_s(), end - now, (cells - n) * now / n


@pytest.mark.parametrize(("cells", "workers"), [(150, 2), (150, 1), (300, 4)])
def test_at_ten_percent_the_estimate_is_within_2x_of_the_truth(cells: int, workers: int) -> None:
    estimate, truth, naive = simulate(cells, workers, 0.10)
    assert truth / 2 <= estimate <= 2 * truth, (estimate, truth)
    assert not truth / 2 <= naive <= 2 * truth, "the warm-up should mislead the mean rate here"


def test_no_estimate_before_a_cell_finished_then_unknown_kinds_at_the_dearest() -> None:
    eta = Eta(workers=2)
    eta.expect(["a", "a", "b"])
    assert eta.remaining_s() is None
    eta.finished("a", 4.0)  # only a warm-up cell of a: counted until a steady one comes
    assert eta.remaining_s() == pytest.approx((4.0 + 4.0) / 2)
    for t in (9.0, 1.0, 1.0):  # the first `workers` cells of a kind are warm-up
        eta.finished("a", t)
    assert eta.cost("a") == 1.0
    eta.expect_unknown(2)
    assert eta.remaining_s() == pytest.approx((1.0 + 2 * 1.0) / 2)
    eta.expect(["c"])  # one of the unknown cells turns out a kind not seen yet
    eta.finished("b", 6.0)  # b done; c and the last unknown cell at the dearest kind seen (b's 6 s)
    assert eta.remaining_s() == pytest.approx((6.0 + 6.0) / 2)
    with pytest.raises(ValueError, match="workers"):
        Eta(workers=0)


def test_the_bar_shows_the_estimate_not_the_mean_rate() -> None:
    bar = EtaBar(total=10, disable=True, workers=1)
    bar.eta.expect(["k"] * 10)
    assert bar.format_dict["rate"] == 0.0  # tqdm prints "?" for the remaining time
    bar.eta.finished("k", 3.0)
    bar.update(1)
    assert bar.format_meter(**bar.format_dict).count("00:27") == 1  # 9 cells x 3 s left
    bar.close()
