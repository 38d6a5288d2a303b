"""The Philly extracts the `tenants` generator draws quotas and arrivals from (section 5.1)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from aisched.errors import InvalidScenarioError

__all__ = ["TRACES", "load_philly"]

#: Philly extracts by name (found by :func:`aisched.experiments.data.data_file`).
TRACES = {"day": "philly_pollux_2017-10-09.csv", "week": "philly_pollux_week_2017-10-09_15.csv"}


def load_philly(path: str | Path) -> pd.DataFrame:
    """The Philly extract, sorted by submission: columns ``timestamp``, ``num_gpus``, ``cluster``."""
    path = Path(path)
    if not path.is_file():
        raise InvalidScenarioError("trace", f"file {str(path)!r} does not exist")
    try:
        frame = pd.read_csv(path)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:  # EmptyDataError is a ValueError
        raise InvalidScenarioError("trace", f"{path.name}: not a readable CSV ({exc})") from None
    missing = {"timestamp", "num_gpus", "cluster"} - set(frame.columns)
    if missing:
        raise InvalidScenarioError("trace", f"{path.name} lacks columns {sorted(missing)}")
    try:
        frame["timestamp"] = pd.to_datetime(frame["timestamp"])
    except (ValueError, TypeError, OverflowError) as exc:
        raise InvalidScenarioError("trace", f"{path.name}: column 'timestamp' is not date-times ({exc})") from None
    return frame.sort_values("timestamp", kind="stable").reset_index(drop=True)
