"""Verdicts that survive adding seeds: alpha spent across a fixed number of looks, and Holm per family.

**The looks.** A claim is looked at when a run has :data:`LOOKS` = 3, 6, 12, 20
seeds, and seeds are added (``--seeds auto``) only where it is still undecided.
Stopping at the first look whose 95 % interval excludes 0 would raise the
chance of a false verdict well above 5 % (four chances instead of one: 15.8 %
for normal differences, 12.4 % for t(3) ones, in the simulation of
``tests/experiments/test_sequential.py``, 4,000 runs each). So the rule here
spends ``alpha = 0.05`` evenly across the ``K = len(LOOKS)`` looks
(Bonferroni): at every look the paired interval is Student's t at level
``1 - alpha / K`` (98.75 % for four looks), and the direction is decided where
it excludes 0 (:func:`sequential_interval`, :func:`decide`).

*Why it is valid.* Let ``E_k`` be the event "the look at ``LOOKS[k]`` seeds
excludes the true mean difference". Each look's interval covers at its level,
so ``P(E_k) <= alpha / K``. Whatever the dependence between the looks (they
share their first seeds) and whatever rule chooses to stop, a false verdict at
the look where a run stops needs one of the ``E_k``, and
``P(E_1 or ... or E_K) <= sum_k P(E_k) <= alpha`` (the union bound). The
guarantee needs the looks fixed in advance (their number, ``K``; not chosen
from the data) and, as every t interval, paired differences near enough to
normal: exact for normal differences, conservative for symmetric heavy-tailed
ones (simulated: 4.4 % false verdicts for normal, 3.2 % for t(3)
differences). Strongly skewed differences defeat the t interval itself, one
fixed look included (a centred lognormal with sigma 1: 15 % at a single 95 %
look at 12 seeds, 23 % for this rule); no test of a mean is valid at a few
seeds without some such assumption. An anytime-valid confidence sequence would
allow unlimited looks at the price of wider intervals at every n, which for 3
to 20 seeds costs more than the four-look Bonferroni split.

A run at a seed count that is no look (``--seeds 5``) gets the same level
``1 - alpha / K``; the guarantee then counts that look as one of the ``K``.

**Families.** A page of many claims at 5 % each has false verdicts to expect.
:func:`holm` keeps, per family, the claims that still hold after Holm's
step-down correction of their p-values (:func:`claim_p_value`: the one-sided
paired t-test at each point of a claim, the largest over its points since a
claim over several points holds only if every point does, i.e. an
intersection-union test, times ``K`` for the looks). Holm controls the
family-wise error at ``alpha`` under any dependence between the claims.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Union

import numpy as np

from aisched.experiments.verdicts.stats import Interval, direction, paired_interval, t_sf

__all__ = ["ALPHA", "LOOKS", "ClaimDecision", "Decision", "claim_p_value", "decide", "decide_claim", "holm",
           "look_level", "next_look", "one_sided_p", "sequential_interval"]

#: The seed counts at which a claim is looked at (``--seeds auto`` adds seeds up to the next one).
LOOKS: tuple[int, ...] = (3, 6, 12, 20)
#: The chance of a false verdict a claim may have over all its looks.
ALPHA = 0.05

#: Claim kinds decided on paired per-seed differences (:func:`aisched.experiments.verdicts.checks.check_claims`):
#: the hypotheses :func:`holm` corrects together.
PAIRED_KINDS = ("improvement", "better_than", "best")

ArrayLike = Union[np.ndarray, Iterable[float]]


def _check(looks: tuple[int, ...], alpha: float) -> None:
    if not looks or any(int(n) < 2 for n in looks) or list(looks) != sorted(set(looks)):
        raise ValueError(f"looks = {looks!r}: expected increasing seed counts, each >= 2")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha = {alpha} must be in (0, 1)")


def look_level(looks: tuple[int, ...] = LOOKS, alpha: float = ALPHA) -> float:
    """The two-sided level of each look's interval: ``1 - alpha / len(looks)`` (0.9875 for the default)."""
    _check(tuple(looks), alpha)
    return 1.0 - alpha / len(looks)


def next_look(n: int, looks: tuple[int, ...] = LOOKS) -> int | None:
    """The first look with more than ``n`` seeds (None when ``n`` is at or past the last one)."""
    return next((int(k) for k in looks if int(k) > n), None)


def sequential_interval(differences: ArrayLike, looks: tuple[int, ...] = LOOKS, alpha: float = ALPHA) -> Interval:
    """The paired t interval of the mean difference at level ``1 - alpha / len(looks)`` (see the module docstring).

    Its ``level`` records that level; non-finite differences are dropped.
    """
    return paired_interval(np.asarray(list(differences) if not isinstance(differences, np.ndarray) else differences,
                                      dtype=float), look_level(tuple(looks), alpha))


@dataclass(frozen=True)
class Decision:
    """One comparison (per-seed differences, "better" positive) at its current seed count.

    ``direction`` is :func:`~aisched.experiments.verdicts.direction` of the
    sequential interval; ``decided`` whether it is "better", "worse" or "tie";
    ``more_seeds_help`` whether it is undecided and a later look remains
    (``n`` below the last look), and ``next_n`` that look's seed count.
    """

    interval: Interval
    direction: str
    looks: tuple[int, ...]
    alpha: float

    @property
    def n(self) -> int:
        return self.interval.n

    @property
    def decided(self) -> bool:
        return self.direction != "inconclusive"

    @property
    def next_n(self) -> int | None:
        return next_look(self.n, self.looks)

    @property
    def more_seeds_help(self) -> bool:
        return not self.decided and self.next_n is not None

    def text(self) -> str:
        looks = ", ".join(str(k) for k in self.looks)
        rule = f"alpha {self.alpha:g} spent over looks at {looks} seeds"
        if self.decided:
            return f"{self.direction}: {self.interval.text()} ({rule})"
        more = f"; next look at {self.next_n} seeds" if self.more_seeds_help else "; no look left"
        return f"inconclusive at {self.n} seed(s): {self.interval.text()} ({rule}{more})"


def decide(differences: ArrayLike, looks: tuple[int, ...] = LOOKS, alpha: float = ALPHA) -> Decision:
    """Whether paired differences decide a direction at their seed count under the look schedule."""
    interval = sequential_interval(differences, looks, alpha)
    return Decision(interval, direction(interval), tuple(int(k) for k in looks), alpha)


@dataclass(frozen=True)
class ClaimDecision:
    """A claim over one or more comparisons (points): holds only if every one does.

    ``status`` is "holds" (every comparison better, or tied where ties count),
    "fails" (one is worse, or tied where ties do not count) or "inconclusive".
    ``undecided`` names the comparisons still open; ``more_seeds_help`` says
    whether a later look can settle them, ``next_n`` at how many seeds.
    """

    status: str
    decisions: dict[str, Decision]
    undecided: tuple[str, ...]
    next_n: int | None

    @property
    def decided(self) -> bool:
        return self.status != "inconclusive"

    @property
    def more_seeds_help(self) -> bool:
        return not self.decided and self.next_n is not None

    @property
    def n(self) -> int:
        """The fewest seeds of its comparisons (0 without any)."""
        return min((d.n for d in self.decisions.values()), default=0)


def _named(differences: Mapping[str, ArrayLike] | Iterable[ArrayLike]) -> dict[str, ArrayLike]:
    if isinstance(differences, Mapping):
        return {str(k): v for k, v in differences.items()}
    return {str(i): v for i, v in enumerate(differences)}


def decide_claim(differences: Mapping[str, ArrayLike] | Iterable[ArrayLike], looks: tuple[int, ...] = LOOKS,
                 alpha: float = ALPHA, tie_holds: bool = False) -> ClaimDecision:
    """A claim's verdict from its comparisons' per-seed differences (one array per point, "better" positive).

    ``tie_holds``: an exact tie counts as holding ("best": ties count as best), else as failing ("better than").
    """
    decisions = {name: decide(d, looks, alpha) for name, d in _named(differences).items()}
    if not decisions:
        raise ValueError("decide_claim: no comparison")
    lost = [k for k, d in decisions.items() if d.direction == "worse" or (d.direction == "tie" and not tie_holds)]
    open_ = tuple(k for k, d in decisions.items() if not d.decided)
    status = "fails" if lost else ("inconclusive" if open_ else "holds")
    fewest = min((decisions[k].n for k in open_), default=0)
    next_n = next_look(fewest, tuple(int(k) for k in looks)) if status == "inconclusive" else None
    return ClaimDecision(status, decisions, open_, next_n)


def one_sided_p(differences: ArrayLike) -> float:
    """The one-sided paired t-test p-value of "mean difference > 0" (nan with fewer than two finite values).

    Equal differences (no spread): 0 when they are positive, 1 otherwise (a tie is not "better").
    """
    d = np.asarray(list(differences) if not isinstance(differences, np.ndarray) else differences, dtype=float)
    d = d[np.isfinite(d)]
    n = int(d.size)
    if n < 2:
        return math.nan
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0.0:
        return 0.0 if mean > 0 else 1.0
    return t_sf(mean / (sd / math.sqrt(n)), n - 1)


def claim_p_value(differences: Mapping[str, ArrayLike] | Iterable[ArrayLike],
                  looks: tuple[int, ...] | None = LOOKS) -> float:
    """A claim's p-value from the per-point paired differences it is decided on ("better" positive).

    The largest one-sided p-value over its points (intersection-union: the claim
    holds only if every point does), times ``len(looks)`` and capped at 1 so that
    it stays a valid p-value under the look schedule (``looks=None``: a single
    fixed-n look, no factor). nan when a point has fewer than two seeds.
    """
    ps = [one_sided_p(d) for d in _named(differences).values()]
    if not ps:
        raise ValueError("claim_p_value: no comparison")
    if any(math.isnan(p) for p in ps):
        return math.nan
    factor = 1 if looks is None else len(tuple(looks))
    return min(1.0, factor * max(ps))


def holm(p_values: Mapping[str, float], alpha: float = ALPHA) -> dict[str, bool]:
    """Holm's step-down correction: which hypotheses are rejected (claims that hold) at family-wise ``alpha``.

    Sorted ascending, the ``i``-th smallest p-value (``i = 0, 1, ...``) is
    rejected while ``p <= alpha / (m - i)``; the first that is not stops the
    rest. A nan p-value (no test) is never rejected and still counts in ``m``.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha = {alpha} must be in (0, 1)")
    m = len(p_values)
    order = sorted(p_values, key=lambda k: (math.isnan(p_values[k]), p_values[k] if not math.isnan(p_values[k])
                                            else 0.0))
    out = dict.fromkeys(p_values, False)
    for i, name in enumerate(order):
        p = p_values[name]
        if math.isnan(p) or p > alpha / (m - i):
            break
        out[name] = True
    return out
