"""Arrival processes from real cluster traces (Philly, Alibaba openb, Helios).

Each loader turns a trace into per-slot arrival counts on a grid of
``slot_seconds``; the family generators rescale those counts to the mean
arrival rate a scenario asks for (the trace then gives the *shape* of the
load over the day: bursts, night lulls). Files are read by path: the named
traces are found by :func:`aisched.data.data_file` (``$AISCHED_DATA``,
the user cache filled by ``aisched data fetch``, ``../shared/data``; sources and
licences in :mod:`aisched.data`), and any CSV in one of the formats below works.

==============  ==========================================  ===================================
name            file                                        arrivals
==============  ==========================================  ===================================
``philly``      ``philly_pollux_2017-10-09.csv``            one job per row at ``timestamp``
                                                            (Microsoft Philly, one day)
``philly-week`` ``philly_pollux_week_2017-10-09_15.csv``    same, one week (rows unsorted)
``alibaba``     ``openb_pod_list_default.csv``              one pod per row at ``creation_time``
                                                            (seconds from the trace start; the
                                                            pods created at 0 existed before the
                                                            trace and are not arrivals; slot 0 is
                                                            the first day with >= 1% of the pods,
                                                            a sparse earlier tail is dropped)
``helios``      ``helios_earth_vchbv_sequence_2020-05-15``  per-minute snapshots: the positive
                ``.csv``                                    increments of ``total_job_num`` (a
                                                            lower bound on arrivals: a job that
                                                            arrives and leaves within one minute,
                                                            or a departure in the same minute,
                                                            hides one)
==============  ==========================================  ===================================

A path given instead of a name is read by its columns: ``timestamp``
(date-times or epoch seconds, one job a row), else ``creation_time``
(seconds, one job a row). Slot 0 starts at midnight of the first arrival's
day (for ``creation_time``, at the first whole day since 0 that holds at
least 1% of the arrivals). A trace
shorter than the slots asked for repeats cyclically.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from aisched._paths import regular_file
from aisched.data import data_file
from aisched.errors import InvalidScenarioError

__all__ = ["NAMED_TRACES", "arrival_counts", "resolve"]

#: Named arrival traces and their files in the shared data folder.
NAMED_TRACES: dict[str, str] = {
    "philly": "philly_pollux_2017-10-09.csv",
    "philly-week": "philly_pollux_week_2017-10-09_15.csv",
    "alibaba": "openb_pod_list_default.csv",
    "helios": "helios_earth_vchbv_sequence_2020-05-15.csv",
}

_DAY = 86_400


def resolve(trace: str | os.PathLike[str]) -> Path:
    """The file of a named trace, or ``trace`` itself as a path; it must exist.

    Raises
    ------
    InvalidScenarioError
        ``trace`` when the file does not exist.
    """
    name = str(trace)
    if name in NAMED_TRACES:  # $AISCHED_DATA, the user cache, ../shared/data; says how to get it
        found = data_file(NAMED_TRACES[name])
        assert found is not None
        return found
    return regular_file(Path(trace))


def check_files(trace: str | os.PathLike[str] | None = None, **_others: object) -> None:
    """The files the generator's parameters name, looked at before a sweep writes anything
    (``generate.check_files``, :func:`aisched.experiments.spec.validation.validate`): a trace given as
    a path must be a regular file (a named trace is found, or its absence explained, when a cell runs)."""
    if isinstance(trace, (str, os.PathLike)) and str(trace) not in NAMED_TRACES:
        path = resolve(trace)
        header = _read_header(path)
        if not ({"timestamp", "creation_time"} & set(header) or {"time", "total_job_num"} <= set(header)):
            raise InvalidScenarioError("trace", f"{str(path)!r} has no timestamp, creation_time or (time, "
                                       f"total_job_num) columns (its header has {len(header)} field(s), none of them these)")


def _tile(raw: np.ndarray, slots: int) -> np.ndarray:
    reps = -(-slots // raw.size)
    return np.tile(raw, reps)[:slots].astype(np.int64)


#: Longest trace span accepted, in slots (a guard against a corrupt time column: 10 million slots).
MAX_SPAN_SLOTS = 10_000_000


def _bins(path: Path, offsets: np.ndarray, slot_seconds: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Per-slot counts of events at ``offsets`` seconds (>= 0) from the trace's start."""
    span = float(np.max(offsets)) // slot_seconds if offsets.size else 0.0
    if not np.isfinite(span) or span >= MAX_SPAN_SLOTS:
        raise InvalidScenarioError(
            "trace", f"{str(path)!r} spans {np.max(offsets):.4g} s, more than {MAX_SPAN_SLOTS} slots of "
            f"{slot_seconds} s: is its time column right?")
    return np.bincount((offsets // slot_seconds).astype(np.int64), weights=weights)


def _bin_seconds(path: Path, seconds: np.ndarray, start: float, slot_seconds: int) -> np.ndarray:
    return _bins(path, seconds - start, slot_seconds)


def _read(path: Path, usecols: list[str] | None = None) -> pd.DataFrame:
    try:
        return pd.read_csv(path, usecols=usecols)
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        cols = f" columns {usecols}" if usecols else ""
        raise InvalidScenarioError("trace", f"{str(path)!r}: cannot read{cols} ({_why(exc)})") from None


def _read_header(path: Path) -> list[str]:
    try:
        return list(pd.read_csv(path, nrows=0).columns)
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise InvalidScenarioError("trace", f"{str(path)!r}: cannot read a CSV header ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """Why a trace could not be read, in words that quote nothing of the file."""
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, pd.errors.EmptyDataError):
        return "the file is empty"
    if isinstance(exc, pd.errors.ParserError):
        return "not a CSV table: its rows have different numbers of fields"
    return "not a CSV table with these columns"


def _timestamps(path: Path, col: pd.Series, slot_seconds: int) -> np.ndarray:
    col = col.dropna()
    if col.empty:
        raise InvalidScenarioError("trace", f"{str(path)!r} has no jobs")
    try:
        ts = pd.to_datetime(col, unit="s") if pd.api.types.is_numeric_dtype(col) else pd.to_datetime(col)
        start = ts.min().normalize()
        offsets = (ts - start).dt.total_seconds().to_numpy(dtype=float)
    except (ValueError, TypeError, OverflowError, pd.errors.OutOfBoundsDatetime) as exc:
        raise InvalidScenarioError("trace", f"{str(path)!r}: a timestamp is not a date-time ({type(exc).__name__})"
                                   ) from None
    if not np.isfinite(offsets).all():
        raise InvalidScenarioError("trace", f"{str(path)!r}: a timestamp is not a time")
    return _bins(path, offsets, slot_seconds)


def _creation_times(path: Path, col: pd.Series, slot_seconds: int) -> np.ndarray:
    seconds = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
    bad = np.flatnonzero(~np.isfinite(seconds) | (seconds < 0))
    if bad.size:
        raise InvalidScenarioError(
            "trace", f"{str(path)!r}: creation_time[{bad[0]}] = {col.iloc[bad[0]]!r} is not a time >= 0"
        )
    seconds = seconds[seconds > 0]
    if seconds.size == 0:
        raise InvalidScenarioError("trace", f"{str(path)!r} has no jobs created after time 0")
    days = _bins(path, seconds, _DAY)
    first_day = int(np.flatnonzero(days >= 0.01 * seconds.size)[0])
    seconds = seconds[seconds >= first_day * _DAY]
    return _bin_seconds(path, seconds, float(first_day * _DAY), slot_seconds)


def _helios_sequence(path: Path, slot_seconds: int) -> np.ndarray:
    frame = _read(path, ["time", "total_job_num"])
    if frame.empty:
        raise InvalidScenarioError("trace", f"{str(path)!r} has no rows")
    ts = pd.to_datetime(frame["time"], errors="coerce")
    jobs = pd.to_numeric(frame["total_job_num"], errors="coerce")
    bad = np.flatnonzero(ts.isna().to_numpy() | jobs.isna().to_numpy())
    if bad.size:
        raise InvalidScenarioError("trace", f"{str(path)!r}: row {bad[0]} has no valid time / total_job_num")
    order = np.argsort(ts.to_numpy())
    ts, jobs = ts.iloc[order], jobs.iloc[order]
    arrivals = np.clip(np.diff(jobs.to_numpy(dtype=float), prepend=float(jobs.iloc[0])), 0, None)
    seconds = (ts - ts.min().normalize()).dt.total_seconds().to_numpy()
    counts = _bins(path, seconds, slot_seconds, weights=arrivals).round()
    if not np.all(np.isfinite(counts) & (counts < 2.0**62)):  # an int64 cast would wrap to negative counts
        raise InvalidScenarioError("trace", f"{str(path)!r}: job counts reach {np.max(counts):.4g}, not a count")
    return counts.astype(np.int64)


def arrival_counts(trace: str | os.PathLike[str], slots: int, slot_seconds: int = 600) -> np.ndarray:
    """Raw per-slot arrival counts of a trace (see the module docstring for the formats).

    Parameters
    ----------
    trace
        A name of :data:`NAMED_TRACES` or a path to a CSV file.
    slots
        Number of slots to return (>= 1).
    slot_seconds
        Slot length in seconds (>= 1).

    Returns
    -------
    numpy.ndarray
        ``(slots,)`` int64 counts, repeated cyclically past the trace's end.

    Raises
    ------
    InvalidScenarioError
        ``trace`` if the file is missing, unreadable, lacks the columns or
        has no arrivals; ``slots`` / ``slot_seconds`` if not positive ints.
    """
    for field, value in (("slots", slots), ("slot_seconds", slot_seconds)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
            raise InvalidScenarioError(field, f"= {value!r} must be an integer >= 1")
    path = resolve(trace)
    if str(trace) == "helios":
        raw = _helios_sequence(path, slot_seconds)
    else:
        header = _read_header(path)
        if "timestamp" in header:
            raw = _timestamps(path, _read(path, ["timestamp"])["timestamp"], slot_seconds)
        elif "creation_time" in header:
            raw = _creation_times(path, _read(path, ["creation_time"])["creation_time"], slot_seconds)
        elif {"time", "total_job_num"} <= set(header):
            raw = _helios_sequence(path, slot_seconds)
        else:
            raise InvalidScenarioError(
                "trace",
                f"{str(path)!r} has no timestamp, creation_time or (time, total_job_num) columns "
                f"(its header has {len(header)} field(s), none of them these)",
            )
    if raw.sum() == 0:
        raise InvalidScenarioError("trace", f"{str(path)!r} has no arrivals")
    return _tile(raw, slots)
