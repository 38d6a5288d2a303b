"""What a sweep folder holds before a run: its definition, checked against the new one, and its finished cells.

:func:`folder_state` reads a folder (writing nothing) and says which cells are finished and
whether its ``scenario.json`` is kept or rewritten; :func:`prepare` (run by
:func:`~aisched.experiments.run.sweep.sweep` under the folder's lock) acts on it.

Only what decides a cell's computation is compared (:data:`~aisched.experiments.store.stored.COMPUTATION`:
family, generator parameters and x values, algorithms with their parameters and variants, offline
and bound cells, the time limit, the kind, the reduced form; the seeds are each cell's own):

- the same computation, other text (title, claims, metric, figures: the report's): the folder is
  resumed and its ``scenario.json`` takes the new text (one line says which keys changed), so that
  the report shows it; no cell is dropped or recomputed;
- another computation: refused before any cell runs, naming the first key that differs (both values);
- a folder without finished cells (its first run failed, e.g. at generation): it takes the new
  definition, with or without ``--resume``;
- a ``scenario.json`` that does not read (truncated, not JSON, hand-broken): rebuilt from the cells
  where every finished one recorded this definition's digest
  (:func:`~aisched.experiments.store.stored.definition_digest`, field
  :data:`~aisched.experiments.store.stored.DIGEST_FIELD` of each row), else refused in one line naming the file.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from aisched._files import atomic_write_text, write_cause
from aisched.errors import InvalidScenarioError
from aisched.experiments.store.stored import (
    COMPUTATION,
    DIGEST_FIELD,
    PRESENTATION,
    RECORD,
    StoredScenario,
    cell_files,
    computation,
    definition_digest,
    read_row,
    set_aside,
)

if TYPE_CHECKING:
    from aisched.experiments.spec.scenario import Scenario

__all__ = ["FolderState", "digest", "finished_cells", "folder_state", "prepare", "record_text"]


def record_text(scenario: Scenario) -> str:
    """The text of ``scenario.json`` for ``scenario`` (:meth:`Scenario.sweep_record`)."""
    return json.dumps(scenario.sweep_record(), indent=1, sort_keys=True, default=str)


def digest(scenario: Scenario) -> str:
    """The :func:`~aisched.experiments.store.stored.definition_digest` every cell row of ``scenario`` records."""
    return definition_digest(StoredScenario.of(scenario))


@dataclass(frozen=True)
class FolderState:
    """A sweep folder as a new run of a scenario finds it (:func:`folder_state`).

    done, broken
        The finished cells' keys; the broken cell files with what is wrong with each.
    write
        Why ``scenario.json`` is to be written: ``None`` (kept as it is), ``"new"`` (none yet),
        ``"adopted"`` (no finished cell: the new definition), ``"text"`` (the same computation,
        new text) or ``"rebuilt"`` (it did not read; the cells ran this definition).
    note
        The one line that says so where a user should know ("" for none).
    """

    done: set[str]
    broken: list[tuple[Path, str]] = field(default_factory=list)
    write: str | None = None
    note: str = ""


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def folder_state(scenario: Scenario, root: Path, *, resume: bool = True) -> FolderState:
    """What ``root`` holds for a run of ``scenario`` (nothing is written).

    Raises
    ------
    InvalidScenarioError
        ``root`` holds finished or broken cells and ``resume`` is false; its finished cells ran
        another computation (naming the first key of :data:`~aisched.experiments.store.stored.COMPUTATION`
        that differs); or its ``scenario.json`` does not read and the cells do not show that they
        ran this definition (naming the file and what to do).
    """
    record = root / RECORD
    if not record.is_file():
        return FolderState(set(), [], "new")
    done, broken = cell_files(root)
    if not resume and (done or broken):
        raise InvalidScenarioError(
            "out", f"{str(root)!r} already holds a sweep of {scenario.name!r}; to continue it, run the same "
            "command with --resume (in Python: resume=True), or choose another folder"
        )
    text = record_text(scenario)
    unreadable = ""
    try:
        old_text = record.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        old_text, unreadable = None, f"cannot be read ({getattr(exc, 'strerror', None) or exc})"
    if old_text == text:
        return FolderState(done, broken)
    old: StoredScenario | None = None
    if old_text is not None:
        try:
            old = StoredScenario.from_record(json.loads(old_text), source=str(record))
        except (ValueError, InvalidScenarioError) as exc:  # JSONDecodeError is a ValueError
            # an InvalidScenarioError is a ValueError too: valid JSON, not a record this version reads
            unreadable = (f"is not valid JSON ({exc})" if isinstance(exc, json.JSONDecodeError)
                          else f"is not a sweep record this version reads ({exc})")
    new = StoredScenario.of(scenario)
    differ = changed = list(COMPUTATION)
    if old is not None:
        was, now = computation(old), computation(new)
        differ = [k for k in COMPUTATION if was[k] != now[k]]
        changed = [k for k in PRESENTATION if _json(getattr(old, k)) != _json(getattr(new, k))]
    if not differ and not changed:  # the same record in another layout (an older version's): kept as it is
        return FolderState(done, broken)
    if not done:  # nothing computed under the old definition is kept: the new one is taken as it is
        return FolderState(done, broken, "adopted", f"aisched: {scenario.name}: {root} held no finished cell; "
                           f"its {RECORD} now holds this definition")
    if old is None:
        return _rebuilt(scenario, root, done, broken, unreadable)
    if differ:
        where, there, here = _difference(differ[0], json.loads(was[differ[0]]), json.loads(now[differ[0]]))
        rest = [k for k in differ[1:] if not (k == "labels" and "values" in differ)]  # labels follow values
        more = f"; {', '.join(rest)} differ too" if rest else ""
        raise InvalidScenarioError(
            "resume", f"{str(root)!r} holds {len(done)} finished cells of a different definition of "
            f"{scenario.name!r}: {where} differs (there {there}, here {here}){more}; set it back to continue "
            "that sweep, or use another folder")
    return FolderState(done, broken, "text", f"aisched: {scenario.name}: {', '.join(changed)} changed since the "
                       f"sweep began; {RECORD} takes the new text, its {len(done)} finished cells are kept")


def _difference(where: str, there: object, here: object) -> tuple[str, str, str]:
    """The first place where two JSON values differ: (its path such as ``base.users``, there, here) as text."""
    if isinstance(there, dict) and isinstance(here, dict):
        for key in sorted(set(there) | set(here)):
            if key not in there or key not in here:
                return (f"{where}.{key}", _short(json.dumps(there[key])) if key in there else "not set",
                        _short(json.dumps(here[key])) if key in here else "not set")
            if json.dumps(there[key], sort_keys=True) != json.dumps(here[key], sort_keys=True):
                return _difference(f"{where}.{key}", there[key], here[key])
    return where, _short(json.dumps(there, sort_keys=True)), _short(json.dumps(here, sort_keys=True))


def _json(value: object) -> str:
    """A presentation key's value as canonical JSON text (claims as their fields)."""
    if isinstance(value, tuple):
        value = [vars(v) if hasattr(v, "__dataclass_fields__") else v for v in value]
    return json.dumps(value, sort_keys=True, default=str)


def _rebuilt(scenario: Scenario, root: Path, done: set[str], broken: list[tuple[Path, str]],
             unreadable: str) -> FolderState:
    """The state of a folder whose record does not read: rebuilt where every finished cell ran this definition."""
    record = root / RECORD
    mine = digest(scenario)
    recorded: set[str | None] = set()
    for key in done:
        row, _ = read_row(root / "cells" / f"{key}.json")
        recorded.add(None if row is None else row.get(DIGEST_FIELD))
    if recorded == {mine}:
        return FolderState(done, broken, "rebuilt", f"aisched: {scenario.name}: {record} {_short(unreadable, 120)}; "
                           f"rebuilt from its {len(done)} finished cells, which ran this definition")
    why = ("its cells do not record the definition they ran (written before cells recorded it)" if None in recorded
           else f"its {len(done)} finished cells ran another definition than this one")
    raise InvalidScenarioError(
        "scenario", f"{str(record)!r} {_short(unreadable, 120)}, and {why}; restore the file from a copy, "
        "or use another folder (or delete this one to start over)")


def finished_cells(scenario: Scenario, root: Path, *, resume: bool = True,
                   broken: list[tuple[Path, str]] | None = None) -> set[str]:
    """Keys of the cells already finished in ``root`` (nothing is written); the broken ones go to ``broken``.

    Raises
    ------
    InvalidScenarioError
        As :func:`folder_state`.
    """
    state = folder_state(scenario, root, resume=resume)
    if broken is not None:
        broken += state.broken
    return state.done


def prepare(scenario: Scenario, root: Path, resume: bool) -> tuple[set[str], int]:
    """(finished cells, broken ones set aside) of ``root``, once its folders exist and its lock is held.

    Sets the broken cells aside, removes a killed run's temporaries, and writes ``scenario.json``
    where :func:`folder_state` says so (saying why in one line on stderr where a user should know).
    """
    state = folder_state(scenario, root, resume=resume)
    if state.broken:
        set_aside(scenario.name, root, state.broken)
    for stale in [*root.glob("**/.*.tmp"), *root.glob("outcomes/*.tmp")]:  # temporaries of a killed run
        stale.unlink(missing_ok=True)
    if state.write is not None:
        record = root / RECORD
        try:
            atomic_write_text(record, record_text(scenario))
        except OSError as exc:
            raise InvalidScenarioError("out", f"cannot write {str(record)!r}: {write_cause(exc, record)}") from None
        if state.note:
            from tqdm import tqdm

            tqdm.write(state.note, file=sys.stderr)
    return state.done, len(state.broken)
