"""What a sweep folder stored: :class:`StoredScenario`, the typed ``scenario.json``.

A sweep records its scenario in ``<folder>/scenario.json``
(:meth:`Scenario.sweep_record <aisched.experiments.scenario.Scenario.sweep_record>`,
which guards ``--resume`` byte for byte). The report side reads it back as a
:class:`StoredScenario`: the report and the reproduction page, the claim checks,
the diagnostics and regime maps, and the families' figure and notes hooks
(:data:`aisched.families.FigureFn`, ``FamilyHooks.notes``) all take one.

Unlike :class:`~aisched.experiments.scenario.Scenario` it is not checked against
the registered families and algorithms: a folder written by an older version
(or of a family this installation lacks) still reports. A key an older folder
lacks takes its default, the value :meth:`Scenario.sweep_record` leaves out; a
key that no version writes is refused by name.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched.errors import InvalidScenarioError
from aisched.experiments.scenario import Claim

if TYPE_CHECKING:
    from aisched.experiments.scenario import Scenario

__all__ = ["RECORD", "StoredScenario"]

#: The file of a sweep folder that records its scenario.
RECORD = "scenario.json"

_CLAIM_FIELDS = tuple(f.name for f in dataclasses.fields(Claim))


@dataclass(frozen=True, kw_only=True)
class StoredScenario:
    """The scenario a sweep folder ran, as :meth:`Scenario.sweep_record` recorded it.

    The fields are the record's keys (see :class:`~aisched.experiments.scenario.Scenario`
    for their meaning), plus:

    labels
        The x labels, ``str(value)`` of each point (computed from ``values`` where not given).
    claims
        The paper's claims, :class:`~aisched.experiments.scenario.Claim` objects (their
        ``why`` is documentation, not recorded: empty here).
    reduced_form
        The sweep ran a :meth:`Scenario.reduced` (test-size) form.

    Sequences are tuples and the claims :class:`Claim` objects whatever the
    constructor is given (lists read back from JSON, claim tables); the values,
    generator parameters and algorithm parameters are kept as JSON gives them
    (a tuple-valued x value comes back as a list; its label keeps the tuple's text).
    """

    name: str
    family: str
    title: str = ""
    x: str
    values: tuple[Any, ...]
    labels: tuple[str, ...] = ()
    base: Mapping[str, Any] = field(default_factory=dict)
    algorithms: tuple[str, ...] = ()
    metric: str = "objective"
    offline: bool = False
    time_limit: float | None = 60.0
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    claims: tuple[Claim, ...] = ()
    kind: str = "compare"
    bound: bool = False
    bound_at: tuple[Any, ...] = ()
    reduced_form: bool = False
    x_target: str = "generator"
    figures: tuple[str, ...] = ()
    variants: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        for name in ("values", "algorithms", "bound_at", "figures"):
            put(name, tuple(getattr(self, name)))
        put("labels", tuple(str(v) for v in (self.labels or self.values)))
        put("claims", tuple(_claim(c, i) for i, c in enumerate(self.claims)))
        put("base", dict(self.base))
        put("params", {a: dict(p) for a, p in self.params.items()})
        put("variants", {v: {a: dict(p) for a, p in by.items()} for v, by in self.variants.items()})

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, source: str = "scenario record") -> StoredScenario:
        """The scenario of a sweep record (``scenario.json`` parsed), old folders' records included.

        Raises
        ------
        InvalidScenarioError
            Naming the key: one no version records, a required one (``name``, ``family``,
            ``x``, ``values``) missing, or a value of the wrong type.
        """
        if not isinstance(record, Mapping):
            raise InvalidScenarioError("scenario", f"{source}: expected a table, got {type(record).__name__}")
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(record) - set(known))
        if unknown:
            raise InvalidScenarioError(unknown[0], f"{source}: unknown key (known: {sorted(known)})")
        for key in ("name", "family", "x", "values"):
            if key not in record:
                raise InvalidScenarioError(key, f"{source}: missing required key")
        for key, value in record.items():
            expected = _TYPES[key]
            if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
                names = " or ".join("null" if t is type(None) else t.__name__ for t in expected)
                raise InvalidScenarioError(key, f"{source}: = {value!r} has the wrong type (expected {names})")
        try:
            return cls(**record)
        except InvalidScenarioError as exc:
            raise InvalidScenarioError(exc.field, f"{source}: {exc.message}") from None

    @classmethod
    def read(cls, folder: str | os.PathLike[str]) -> StoredScenario:
        """The scenario of the sweep folder ``folder`` (its ``scenario.json``).

        Raises
        ------
        InvalidScenarioError
            ``scenario`` when the file is missing or not JSON, else as :meth:`from_record`.
        """
        path = Path(folder) / RECORD
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise InvalidScenarioError("scenario", f"{str(path)!r} cannot be read ({exc})") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InvalidScenarioError("scenario", f"{str(path)!r} is not valid JSON ({exc})") from None
        return cls.from_record(record, source=str(path))

    @classmethod
    def of(cls, scenario: Scenario) -> StoredScenario:
        """What a sweep of ``scenario`` stores, as the report reads it back (through JSON, as from a folder)."""
        return cls.from_record(json.loads(json.dumps(scenario.sweep_record(), default=str)))


_TEXT, _LIST, _TABLE, _FLAG = (str,), (list, tuple), (Mapping,), (bool,)
#: The types a record's keys may have (JSON's: a list for a sequence, a table for a mapping).
_TYPES: dict[str, tuple[type, ...]] = {
    "name": _TEXT, "family": _TEXT, "title": _TEXT, "x": _TEXT, "values": _LIST, "labels": _LIST,
    "base": _TABLE, "algorithms": _LIST, "metric": _TEXT, "offline": _FLAG, "time_limit": (int, float, type(None)),
    "params": _TABLE, "claims": _LIST, "kind": _TEXT, "bound": _FLAG, "bound_at": _LIST, "reduced_form": _FLAG,
    "x_target": _TEXT, "figures": _LIST, "variants": _TABLE,
}


def _claim(claim: Claim | Mapping[str, Any], i: int) -> Claim:
    """A recorded claim (a table of :class:`Claim`'s fields) as a :class:`Claim`."""
    if isinstance(claim, Claim):
        return claim
    if not isinstance(claim, Mapping):
        raise InvalidScenarioError(f"claims[{i}]", f"expected a table, got {claim!r}")
    bad = sorted(set(claim) - set(_CLAIM_FIELDS))
    if bad or not {"kind", "text", "algorithm"} <= set(claim):
        raise InvalidScenarioError(f"claims[{i}]", f"keys {sorted(claim)}; needs kind, text and algorithm, "
                                   f"allows {list(_CLAIM_FIELDS)}")
    return Claim(**claim)
