"""The Philly extracts the `tenants` generator draws quotas and arrivals from (section 5.1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from aisched._paths import regular_file
from aisched.errors import InvalidScenarioError

__all__ = ["TRACES", "every_tenant_window", "load_philly", "spread_owners"]

#: Philly extracts by name (found by :func:`aisched.data.data_file`).
TRACES = {"day": "philly_pollux_2017-10-09.csv", "week": "philly_pollux_week_2017-10-09_15.csv"}


def load_philly(path: str | Path) -> pd.DataFrame:
    """The Philly extract, sorted by submission: columns ``timestamp``, ``num_gpus``, ``cluster``."""
    path = regular_file(Path(path))
    try:
        frame = pd.read_csv(path)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:  # EmptyDataError is a ValueError
        why = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else type(exc).__name__  # nothing of the file
        raise InvalidScenarioError("trace", f"{path.name}: not a readable CSV ({why})") from None
    missing = {"timestamp", "num_gpus", "cluster"} - set(frame.columns)
    if missing:
        raise InvalidScenarioError("trace", f"{path.name} lacks columns {sorted(missing)}")
    try:
        frame["timestamp"] = pd.to_datetime(frame["timestamp"])
    except (ValueError, TypeError, OverflowError) as exc:
        raise InvalidScenarioError("trace", f"{path.name}: column 'timestamp' is not date-times "
                                   f"({type(exc).__name__})") from None
    return frame.sort_values("timestamp", kind="stable").reset_index(drop=True)


def every_tenant_window(user_of_job: np.ndarray, seconds: np.ndarray, jobs: int, users: int) -> int | None:
    """First index of the shortest window of ``jobs`` consecutive submissions holding every user, or None.

    Parameters
    ----------
    user_of_job
        (trace job,) the user each submission maps to (sorted by submission).
    seconds
        (trace job,) submission times in seconds, non-decreasing.
    jobs, users
        The window's length in jobs and the users that must all have one.

    Returns
    -------
    int or None
        The start of the window ``[i, i + jobs)`` whose time span
        ``seconds[i + jobs - 1] - seconds[i]`` is least among those where every
        one of ``users`` has a job (the earliest on ties); None when no window
        holds them all (fewer mapped users than ``users``, or ``jobs < users``).
    """
    n = int(user_of_job.size)
    if jobs < 1 or jobs > n or jobs < users or np.unique(user_of_job).size < users:
        return None
    starts = np.arange(n - jobs + 1)
    latest_first = np.zeros(starts.size, dtype=np.int64)  # per start: the latest "next job of user u"
    for u in range(users):
        at = np.nonzero(user_of_job == u)[0]
        k = np.searchsorted(at, starts)  # next job of u at or after the start (n when none)
        nxt = np.where(k < at.size, at[np.minimum(k, at.size - 1)], n)
        latest_first = np.maximum(latest_first, nxt)
    ok = latest_first < starts + jobs
    if not ok.any():
        return None
    span = np.where(ok, seconds[starts + jobs - 1] - seconds[starts], np.inf)
    return int(np.argmin(span))  # argmin: the earliest of equal spans


def spread_owners(jobs: int, shares: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(job,) owners spread over the users in proportion to ``shares``, in a seeded order.

    Each user ``u`` gets ``jobs * shares[u] / sum(shares)`` jobs rounded by
    largest remainders (ties broken in a seeded order), so with equal shares
    and ``jobs >= users`` every user has ``floor(jobs / users)`` or one more;
    the owners are then shuffled over the window's submissions.
    """
    shares = np.asarray(shares, dtype=float)
    raw = jobs * shares / shares.sum()
    count = np.floor(raw).astype(np.int64)
    tie = rng.permutation(shares.size)  # seeded order among equal remainders
    order = np.lexsort((tie, -(raw - count)))
    count[order[: jobs - int(count.sum())]] += 1
    return rng.permutation(np.repeat(np.arange(shares.size), count))
