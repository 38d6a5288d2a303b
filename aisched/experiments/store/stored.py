"""What a sweep folder stored: :class:`StoredScenario`, the typed ``scenario.json``, and its cells.

Its cells' rows (``cells/<cell>.json``) are read by :func:`read_row`, which names
what makes a file unusable (not JSON, a field of :data:`ROW_FIELDS` missing or of
the wrong type); :func:`load_table` builds the tidy table from them (refusing a
broken file by name) and :func:`cell_files` tells the finished cells from the
broken ones for ``--resume`` (which sets these aside, :func:`set_aside`).

A sweep records its scenario in ``<folder>/scenario.json``
(:meth:`Scenario.sweep_record <aisched.experiments.spec.scenario.Scenario.sweep_record>`).
Of its keys, those of :data:`COMPUTATION` decide what the cells compute and guard ``--resume``
(:func:`computation`; every cell row records their :func:`definition_digest`, so that a
corrupt ``scenario.json`` can be rebuilt from the cells); those of :data:`PRESENTATION`
(title, claims, metric, figures) are the report's and may change (:mod:`aisched.experiments.store.sweep_state`).
The report side reads it back as a
:class:`StoredScenario`: the report and the reproduction page, the claim checks,
the diagnostics and regime maps, and the families' figure and notes hooks
(:data:`aisched.families.FigureFn`, ``FamilyHooks.notes``) all take one.

Unlike :class:`~aisched.experiments.spec.scenario.Scenario` it is not checked against
the registered families and algorithms: a folder written by an older version
(or of a family this installation lacks) still reports. A key an older folder
lacks takes its default, the value :meth:`Scenario.sweep_record` leaves out; a
key that no version writes is refused by name.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aisched._files import write_cause
from aisched.errors import InvalidScenarioError
from aisched.experiments.spec.scenario import Claim

if TYPE_CHECKING:
    import pandas as pd

    from aisched.experiments.spec.scenario import Scenario

__all__ = ["COMPUTATION", "DIGEST_FIELD", "NETCDF_LOCK", "PRESENTATION", "RECORD", "ROW_FIELDS", "StoredScenario",
           "TABLE_COLUMNS", "cell_files", "computation", "definition_digest", "load_table", "read_row", "set_aside"]

#: The file of a sweep folder that records its scenario.
RECORD = "scenario.json"

_CLAIM_FIELDS = tuple(f.name for f in dataclasses.fields(Claim))


@dataclass(frozen=True, kw_only=True)
class StoredScenario:
    """The scenario a sweep folder ran, as :meth:`Scenario.sweep_record` recorded it.

    The fields are the record's keys (see :class:`~aisched.experiments.spec.scenario.Scenario`
    for their meaning), plus:

    labels
        The x labels, ``str(value)`` of each point (computed from ``values`` where not given).
    claims
        The paper's claims, :class:`~aisched.experiments.spec.scenario.Claim` objects (their
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
            raise InvalidScenarioError("scenario", f"{str(path)!r} is not valid JSON ({exc}); {REBUILD}") from None
        try:
            return cls.from_record(record, source=str(path))
        except InvalidScenarioError as exc:
            raise InvalidScenarioError(exc.field, f"{exc.message}; {REBUILD}") from None

    @classmethod
    def of(cls, scenario: Scenario) -> StoredScenario:
        """What a sweep of ``scenario`` stores, as the report reads it back (through JSON, as from a folder)."""
        return cls.from_record(json.loads(json.dumps(scenario.sweep_record(), default=str)))


#: What a user does about an unreadable ``scenario.json`` (:meth:`StoredScenario.read`).
REBUILD = ("run the sweep again with --resume (it rebuilds the file from the cells where they recorded their "
           "definition), or restore the file")

#: The keys of a sweep record that decide what its cells compute: two definitions that differ in one of them
#: do not resume each other's folder (``labels`` follow ``values``; the seeds are each cell's own).
COMPUTATION = ("name", "family", "x", "values", "labels", "base", "algorithms", "offline", "time_limit", "params",
               "kind", "bound", "bound_at", "reduced_form", "x_target", "variants")
#: The keys that are the report's only (its text, its metric and figures): they may change between runs of a
#: folder, and the folder's ``scenario.json`` then takes the new ones.
PRESENTATION = ("title", "metric", "claims", "figures")
#: The field of each cell row (``cells/<cell>.json``) that holds the :func:`definition_digest` of its scenario.
DIGEST_FIELD = "definition"


def computation(stored: StoredScenario) -> dict[str, str]:
    """The :data:`COMPUTATION` keys of ``stored``, each as canonical JSON text (equal text: the same computation).

    A time limit is compared as a number (``60`` and ``60.0`` are one limit); every other value as JSON
    writes it, so that ``24`` and ``24.0`` (which a generator may treat differently) stay apart.
    """
    out = {}
    for key in COMPUTATION:
        value = getattr(stored, key)
        if key == "time_limit" and value is not None:
            value = float(value)
        out[key] = json.dumps(value, sort_keys=True, default=str)
    return out


def definition_digest(stored: StoredScenario) -> str:
    """A short hash of :func:`computation`: what each cell records of the definition it ran."""
    import hashlib

    text = json.dumps(computation(stored), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


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


# --- the cells a sweep folder stored: cells/<cell>.json rows, outcomes/<cell>.nc ------------------------------

TABLE_COLUMNS = [
    "scenario", "point", "x", "seed", "algorithm", "objective", "status", "bound", "admitted",
    "runtime_s", "decision_median_s", "work_s", "reference", "reference_kind", "ratio", "competitive_ratio",
    "gap",
]

#: One netCDF write at a time in this process. The HDF5 library under netCDF4 is not built thread-safe:
#: two sweeps' writer threads (``aisched reproduce`` runs two scenarios at once) writing together crashed
#: the parent process in libhdf5 (segfault, 2026-11-27, a full-size lora run), losing the run.
NETCDF_LOCK = threading.Lock()

#: The fields of every cell's row (``cells/<cell>.json``) and the types each may have: :func:`load_table`
#: and the report read them. ``None`` stands for JSON's null; numbers are int or float (JSON's NaN included).
_NUMBER: tuple[type, ...] = (int, float)
ROW_FIELDS: dict[str, tuple[type, ...]] = {
    "scenario": (str,), "point": (int,), "x": (str, int, float), "seed": (int,), "algorithm": (str,),
    "objective": (*_NUMBER, type(None)), "status": (str, type(None)), "bound": (*_NUMBER, type(None)),
    "admitted": (*_NUMBER, type(None)), "runtime_s": (*_NUMBER, type(None)),
    "decision_median_s": (*_NUMBER, type(None)), "work_s": (*_NUMBER, type(None)),
}


def row_problem(row: Any) -> str | None:
    """What makes ``row`` (a parsed cell file) unusable as a table row, or None."""
    if not isinstance(row, dict):
        return f"holds {type(row).__name__}, not a table of a cell's fields"
    missing = [k for k in ROW_FIELDS if k not in row]
    if missing:
        return f"lacks the field(s) {', '.join(map(repr, missing))}"
    for key, types in ROW_FIELDS.items():
        value = row[key]
        if isinstance(value, bool) or not isinstance(value, types):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            return f"field {key!r} = {value!r} is not {names}"
        if key in FINITE_FIELDS and isinstance(value, float) and math.isinf(value):
            return f"field {key!r} = {value!r} is not a finite number"
    return None


#: The row fields that may not be infinite (JSON's ``Infinity`` parses): no algorithm's objective, count or time
#: is; NaN stays (a cell without a value). A bound may be infinite (none known).
FINITE_FIELDS = ("objective", "admitted", "runtime_s", "decision_median_s", "work_s")


def cell_problem(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The row of the cell file ``path``, or (None, what is wrong): :func:`read_row`'s checks, and the row
    must be the one of the cell its name says (a copied file, or one edited to another point or seed, is not).
    The one check of ``--resume`` (:func:`cell_files`) and of the report (:func:`load_table`)."""
    row, problem = read_row(path)
    if row is not None:
        named = f"p{row['point']:03d}-s{row['seed']:03d}-{row['algorithm']}"
        if named != path.stem:
            return None, f"holds the row of cell {named!r}, not of {path.stem!r}"
    return row, problem


def read_row(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """A cell file's row, or (None, what is wrong with it)."""
    try:
        row = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        return None, f"is not valid JSON ({exc})"
    problem = row_problem(row)
    return (None, problem) if problem else (row, None)


#: Outcome files found readable, by (path, size, mtime): a resumed ``reproduce`` checks each folder twice.
_READABLE: dict[tuple[str, int, int], bool] = {}


def outcome_problem(path: Path) -> str | None:
    """Why the outcome file ``path`` cannot be read (netCDF4 checks its header and its length), or None."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None  # a sweep with outcomes=False writes none
    except OSError as exc:
        return f"its outcome {path.name} cannot be read ({exc.strerror or exc})"
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key in _READABLE:
        return None
    import netCDF4

    try:
        with NETCDF_LOCK, netCDF4.Dataset(path, "r"):
            pass
    except (OSError, RuntimeError) as exc:
        return f"its outcome {path.name} cannot be read ({exc}; truncated?)"
    _READABLE[key] = True
    return None


def cell_files(root: Path) -> tuple[set[str], list[tuple[Path, str]]]:
    """(keys of the finished cells, [(file, what is wrong) of each broken one]) in ``root``.

    A cell is finished when its ``cells/<key>.json`` parses, holds every field of
    :data:`ROW_FIELDS`, is the row of the cell its name says, and its ``outcomes/<key>.nc``,
    where there is one, is readable.
    """
    done: set[str] = set()
    broken: list[tuple[Path, str]] = []
    for path in sorted((root / "cells").glob("*.json")):
        row, problem = cell_problem(path)
        if row is not None:
            problem = outcome_problem(root / "outcomes" / f"{path.stem}.nc")
        if problem:
            broken.append((path, problem))
        else:
            done.add(path.stem)
    return done, broken


def set_aside(name: str, root: Path, broken: list[tuple[Path, str]]) -> None:
    """Rename each broken cell file (and its outcome) to ``*.broken``, and say so in one line."""
    for path, _ in broken:
        for f in (path, root / "outcomes" / f"{path.stem}.nc"):
            try:
                if f.exists():
                    os.replace(f, f.with_name(f.name + ".broken"))
            except OSError as exc:
                raise InvalidScenarioError("out", f"cannot set aside the broken cell file {str(f)!r}: "
                                           f"{write_cause(exc, f)}") from None
    first, why = broken[0]
    more = f" and {len(broken) - 1} more" if len(broken) > 1 else ""
    from tqdm import tqdm

    tqdm.write(f"aisched: {name}: {len(broken)} broken cell file(s) recomputed, kept beside as *.broken "
               f"({first.name} {why}{more})", file=sys.stderr)


def _closed(row: dict[str, Any]) -> bool:
    """A bound cell whose verified primal value meets its certified bound (to 1e-9 relative): the optimum."""
    objective, bound = row.get("objective"), row.get("bound")
    if objective is None or bound is None or not (math.isfinite(objective) and math.isfinite(bound)):
        return False
    return bool(objective >= bound - 1e-9 * max(abs(bound), 1.0))


def _gap(row: Mapping[str, Any]) -> float:
    """An offline row's relative gap to its bound (0 where proven optimal); NaN for any other row."""
    if row["algorithm"] != "offline":
        return math.nan
    if row["status"] == "optimal":
        return 0.0
    bound, objective = row["bound"], row["objective"]
    if bound is None or not math.isfinite(float(bound)) or not math.isfinite(float(objective)) or objective == 0:
        return math.nan
    return (float(bound) - float(objective)) / abs(float(objective))


def load_table(root: str | os.PathLike[str]) -> pd.DataFrame:
    """The tidy table of a sweep folder, from its finished cells (with references and ratios).

    Raises
    ------
    InvalidScenarioError
        A cell file that does not read as a row (not JSON, a field missing or of the wrong type), by name.
    """
    import numpy as np
    import pandas as pd

    root = Path(root)
    if not (root / "cells").is_dir() and not (root / "scenario.json").is_file():
        below = sorted(str(p.parent.relative_to(root)) for p in root.glob("**/scenario.json"))
        if below:  # a results root, not a sweep folder: name what is there rather than return nothing
            raise InvalidScenarioError("root", f"{str(root)!r} is a results folder, not one sweep's; its sweeps: "
                                       + ", ".join(below[:8]) + (f" and {len(below) - 8} more" if len(below) > 8
                                                                 else ""))
    rows = []
    for path in sorted((root / "cells").glob("*.json")):
        row, problem = cell_problem(path)  # as --resume reads it: a copied or edited cell is not averaged in
        if row is None:
            raise InvalidScenarioError("cells", f"{str(path)!r} {problem}; run the sweep again with --resume to "
                                       "recompute it (or delete the file)")
        rows.append(row)
    if not rows:
        return pd.DataFrame(columns=TABLE_COLUMNS)
    table = pd.DataFrame(rows)
    ref: dict[tuple[Any, Any], tuple[float, str]] = {}
    for r in rows:  # the proven optimum, else the least upper bound (offline solve's or certified)
        if r["algorithm"] not in ("offline", "bound"):
            continue
        key = (r["point"], r["seed"])
        if r["algorithm"] == "offline" and r["status"] == "optimal":
            ref[key] = (r["objective"], "optimum")
        elif r["algorithm"] == "bound" and _closed(r) and ref.get(key, ("", ""))[1] != "optimum":
            ref[key] = (r["objective"], "optimum")  # a verified plan as good as a certified bound: proven
        elif (r["bound"] is not None and not math.isnan(r["bound"]) and ref.get(key, ("", ""))[1] != "optimum"
              and r["bound"] < ref.get(key, (math.inf, ""))[0]):
            ref[key] = (r["bound"], "bound")
    pairs = list(zip(table["point"], table["seed"]))
    table["reference"] = [ref.get(k, (math.nan, ""))[0] for k in pairs]
    table["reference_kind"] = [ref.get(k, (math.nan, ""))[1] for k in pairs]
    with np.errstate(divide="ignore", invalid="ignore"):
        table["ratio"] = table["objective"] / table["reference"]
        table["competitive_ratio"] = table["reference"] / table["objective"]
    # an offline row's proven gap, (bound - objective) / |objective|: 0 where optimal, the solver's own gap where
    # it stopped at its limit (status says which), NaN for the online rows
    table["gap"] = [_gap(r) for r in table[["algorithm", "status", "bound", "objective"]].to_dict("records")]
    table = table.sort_values(["point", "seed", "algorithm"], kind="stable").reset_index(drop=True)
    extra = [c for c in table.columns if c not in TABLE_COLUMNS and c != DIGEST_FIELD]  # family metrics (cell_metrics)
    return table[TABLE_COLUMNS + extra]
