"""Validation helpers shared by every family's Instance.

Each helper converts one field to a numpy array of the right dtype and shape
and raises :class:`~aisched.errors.InvalidInstanceError` naming the field, the
first bad index and its value. Nothing here knows about a family.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aisched.errors import InvalidInstanceError

__all__ = ["as_array", "check_finite", "check_nonneg", "check_positive", "check_range", "first_bad"]


def first_bad(mask: np.ndarray) -> tuple[int, ...]:
    """Index of the first True entry of ``mask`` (as a tuple)."""
    return tuple(int(i) for i in np.argwhere(mask)[0])


def _fmt(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


def as_array(field: str, value: Any, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """``value`` as a read-only array of ``dtype`` and exactly ``shape``.

    Raises
    ------
    InvalidInstanceError
        If the value cannot be converted or has another shape.
    """
    try:
        raw = np.asarray(value)
    except Exception as exc:  # pragma: no cover - numpy rarely fails here
        raise InvalidInstanceError(field, f"cannot be read as an array ({exc})") from None
    if raw.shape != shape:
        raise InvalidInstanceError(field, f"has shape {raw.shape}, expected {shape}")
    if dtype in (int, float):
        _reject_booleans(field, value, raw)
    if dtype is bool:
        if raw.dtype != bool and not np.issubdtype(raw.dtype, np.integer):
            raise InvalidInstanceError(field, f"must be boolean, got dtype {raw.dtype}")
        if np.issubdtype(raw.dtype, np.integer) and raw.size and not np.isin(raw, (0, 1)).all():
            idx = first_bad(~np.isin(raw, (0, 1)))
            raise InvalidInstanceError(field, f"{_fmt(idx)} = {raw[idx]} is not boolean")
        out = raw.astype(bool)
    elif dtype is int:
        if raw.size and not (np.issubdtype(raw.dtype, np.integer) or raw.dtype == bool):
            if not np.issubdtype(raw.dtype, np.floating):
                raise InvalidInstanceError(field, f"must be integer, got dtype {raw.dtype}")
            bad = ~np.isfinite(raw) | (raw != np.round(raw))
            if bad.any():
                idx = first_bad(bad)
                raise InvalidInstanceError(field, f"{_fmt(idx)} = {raw[idx]} is not an integer")
        out = raw.astype(np.int64)
    elif dtype is float:
        if raw.size and not (np.issubdtype(raw.dtype, np.number) or raw.dtype == bool):
            raise InvalidInstanceError(field, f"must be numeric, got dtype {raw.dtype}")
        out = raw.astype(np.float64)
    elif dtype is str:  # text only: a number or a boolean is not silently made a name
        if raw.size and raw.dtype.kind != "U":
            flat = raw.reshape(-1)
            idx = next((i for i, x in enumerate(flat) if not isinstance(x, str)), None) \
                if raw.dtype == object else 0
            if idx is not None:
                raise InvalidInstanceError(field, f"[{idx}] = {flat[idx]!r} is not text (dtype {raw.dtype})")
        out = raw.astype(str)
    else:  # pragma: no cover - programming error
        raise TypeError(dtype)
    out = np.array(out, copy=True)
    out.setflags(write=False)
    return out


def _reject_booleans(field: str, value: Any, raw: np.ndarray) -> None:
    """A number field never takes a boolean (``True`` is not 1 here: a silent reinterpretation)."""
    if raw.dtype == bool:
        bad = np.ones(raw.shape, dtype=bool)
    elif isinstance(value, (list, tuple)) or raw.dtype == object:
        flags = np.frompyfunc(lambda x: isinstance(x, (bool, np.bool_)), 1, 1)
        try:
            bad = np.asarray(flags(np.asarray(value, dtype=object)), dtype=bool).reshape(raw.shape)
        except ValueError:  # ragged nesting: the shape check has already passed, so this is rare
            return
    else:
        return
    if bad.any():
        idx = first_bad(bad) if bad.ndim else ()
        entry = bool(np.asarray(value, dtype=object)[idx]) if idx else bool(raw.item())
        where = f"{_fmt(idx)} = " if idx else "= "
        raise InvalidInstanceError(field, f"{where}{entry} is a boolean, not a number")


def check_finite(field: str, arr: np.ndarray) -> None:
    """Raise if any entry is NaN or infinite."""
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = first_bad(bad)
        raise InvalidInstanceError(field, f"{_fmt(idx)} = {arr[idx]} is not finite")


def check_nonneg(field: str, arr: np.ndarray) -> None:
    """Raise if any entry is NaN, infinite or negative."""
    check_finite(field, arr)
    bad = arr < 0
    if bad.any():
        idx = first_bad(bad)
        raise InvalidInstanceError(field, f"{_fmt(idx)} = {arr[idx]} is negative")


def check_positive(field: str, arr: np.ndarray) -> None:
    """Raise if any entry is NaN, infinite, zero or negative."""
    check_finite(field, arr)
    bad = arr <= 0
    if bad.any():
        idx = first_bad(bad)
        raise InvalidInstanceError(field, f"{_fmt(idx)} = {arr[idx]} must be > 0")


def check_range(field: str, arr: np.ndarray, low: float, high: float, what: str) -> None:
    """Raise if any entry lies outside ``[low, high]``; ``what`` names the range."""
    bad = (arr < low) | (arr > high)
    if bad.any():
        idx = first_bad(bad)
        raise InvalidInstanceError(field, f"{_fmt(idx)} = {arr[idx]} is outside {what}")
