"""A theorem as a check: its premises, its bound, our measured value, the margin and the verdict.

Every check of :mod:`aisched.theorems` returns one :class:`TheoremCheck`. The
``margin`` is signed so that ``margin >= 0`` means the guarantee holds on the
instance (``bound - measured`` for an upper bound on a measured quantity,
``measured - bound`` for a lower one); ``unit`` says in what. ``exact`` says
whether the measured value is exact (an optimum HiGHS proved, a re-run of the
mechanism) or only a bound on it (``"bound only"``: then a negative margin is
*inconclusive*, never a violation).

Verdicts, decided by :func:`verdict`:

- ``"holds"``: margin >= -tolerance;
- ``"violated"``: margin < -tolerance, the measurement exact and every premise holds;
- ``"premise fails"``: margin < -tolerance but a premise the theorem assumes does
  not hold on the instance, so the theorem promises nothing there;
- ``"inconclusive"``: margin < -tolerance on a bound only;
- ``"not checkable"``: no measurement (``detail`` says why).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from aisched.errors import InvalidScenarioError

__all__ = ["Premise", "TheoremCheck", "verdict", "check", "load_instance", "TOLERANCE", "VERDICTS"]

#: Relative tolerance of a margin (rounding of float64 arithmetic and of the solver's gap).
TOLERANCE = 1e-6
VERDICTS = ("holds", "violated", "premise fails", "inconclusive", "not checkable")
EXACTNESS = ("exact", "bound only", "not checkable")


@dataclass(frozen=True)
class Premise:
    """One assumption of a theorem, checked on the instance.

    Attributes
    ----------
    name
        The assumption in the paper's words (``"b-bar_il >= 1 (Lemma 2)"``).
    holds
        True, False, or None when it cannot be checked here.
    detail
        The measured quantity (``"min b-bar_il = 0.83"``).
    """

    name: str
    holds: bool | None
    detail: str = ""


@dataclass(frozen=True)
class TheoremCheck:
    """The result of checking one guarantee on one instance.

    Attributes
    ----------
    family, theorem
        ``"lora"``, ``"Theorem 5"``; ``statement`` the guarantee in words.
    premises
        The assumptions the theorem needs, each checked.
    bound, measured, margin
        The theorem's bound, our value, and the signed margin (>= 0: holds), in ``unit``.
    exact
        ``"exact"``, ``"bound only"`` or ``"not checkable"``.
    verdict
        One of :data:`VERDICTS`.
    detail
        How it was measured, and any numbers beside the main ones.
    extra
        Further numbers for the records (JSON-able).
    """

    family: str
    theorem: str
    statement: str
    premises: tuple[Premise, ...]
    bound: float
    measured: float
    margin: float
    unit: str
    exact: str
    verdict: str
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def premises_hold(self) -> bool:
        """Every premise holds (one that cannot be checked counts as not failing)."""
        return all(p.holds is not False for p in self.premises)

    def record(self) -> dict[str, Any]:
        """The check as a JSON-able dict (``theorems.json``); NaN and inf become None."""
        out = asdict(self)
        out["premises"] = [asdict(p) for p in self.premises]
        return _plain(out)

    def line(self) -> str:
        """One line: theorem, verdict, margin, bound and measured value."""
        failing = [p.name for p in self.premises if p.holds is False]
        note = f"; premise fails: {', '.join(failing)}" if failing else ""
        return (f"{self.family} {self.theorem}: {self.verdict} (margin {self.margin:.4g} {self.unit}; "
                f"bound {self.bound:.4g}, measured {self.measured:.4g}, {self.exact}{note})")


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return _plain(value.item())
    return value


def verdict(margin: float, exact: str, premises: tuple[Premise, ...], *, scale: float = 1.0,
            tolerance: float = TOLERANCE) -> str:
    """The verdict of a margin (see the module docstring).

    Parameters
    ----------
    margin
        Signed margin, >= 0 when the guarantee holds.
    exact
        ``"exact"``, ``"bound only"`` or ``"not checkable"``.
    premises
        The theorem's premises as checked.
    scale
        Size of the compared quantities: the margin may miss by ``tolerance * scale``.
    """
    if exact not in EXACTNESS:
        raise InvalidScenarioError("exact", f"= {exact!r} must be one of {', '.join(EXACTNESS)}")
    if exact == "not checkable" or margin is None or math.isnan(margin):
        return "not checkable"
    if margin >= -tolerance * max(abs(scale), 1.0):
        return "holds"
    if any(p.holds is False for p in premises):
        return "premise fails"
    return "violated" if exact == "exact" else "inconclusive"


def check(family: str, theorem: str, statement: str, premises: tuple[Premise, ...] | list[Premise], *,
          bound: float, measured: float, margin: float, unit: str, exact: str, detail: str = "",
          scale: float = 1.0, **extra: Any) -> TheoremCheck:
    """A :class:`TheoremCheck` with its verdict computed by :func:`verdict`."""
    premises = tuple(premises)
    return TheoremCheck(family=family, theorem=theorem, statement=statement, premises=premises,
                        bound=float(bound), measured=float(measured) + 0.0, margin=float(margin) + 0.0, unit=unit,
                        exact=exact, verdict=verdict(margin, exact, premises, scale=scale),
                        detail=detail, extra=extra)


def not_checkable(family: str, theorem: str, statement: str, why: str,
                  premises: tuple[Premise, ...] = ()) -> TheoremCheck:
    """A check that could not be made here, saying why."""
    nan = float("nan")
    return TheoremCheck(family=family, theorem=theorem, statement=statement, premises=premises, bound=nan,
                        measured=nan, margin=nan, unit="", exact="not checkable", verdict="not checkable",
                        detail=why)


def load_instance(instance_type: Any, path: Any) -> Any:
    """A saved instance of ``instance_type`` (``instance.to_dataset().to_netcdf(path)``), read whole."""
    import xarray as xr

    with xr.open_dataset(path) as ds:
        return instance_type.from_dataset(ds.load())
