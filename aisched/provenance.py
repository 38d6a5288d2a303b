"""Where a result came from: the code, the solvers and libraries, the machine, the command.

Every results folder (``aisched compare``'s ``comparison.json``, a sweep's ``sweep.json``,
``aisched reproduce``'s run records) and every report header carries :func:`provenance`, so a
figure read months later says which commit of aisched made it, with which HiGHS, Pyomo, JAX and
NumPy, on how many cores, when, and by which command line. Light: no numerical import (versions
are read from the installed packages' metadata).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

__all__ = ["LIBRARIES", "git_commit", "provenance", "provenance_text"]

#: The distributions whose versions decide a result: the solver, the modelling layer, the kernels.
LIBRARIES = {"highs": "highspy", "pyomo": "pyomo", "jax": "jax", "numpy": "numpy"}


def _version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "not installed"


def git_commit(where: str | os.PathLike[str] | None = None) -> str:
    """The commit of the git checkout aisched runs from (``+dirty`` with uncommitted changes to tracked
    files), or ``"not a git checkout"`` (an installed wheel, or no ``git``)."""
    root = Path(where) if where is not None else Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return "not a git checkout"
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "not a git checkout"
    return head + ("+dirty" if dirty else "")


def _memory_gib() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (AttributeError, OSError, ValueError):
        return None


def provenance(command: Sequence[str] | None = None, *, seeds: Any = None) -> dict[str, Any]:
    """A JSON-able record of what made a result.

    Parameters
    ----------
    command
        The command line (default ``sys.argv``, with the program's name shortened to ``aisched`` when
        it is the console script).
    seeds
        The seeds asked for (a count, a list, or ``None``: the scenario's own).
    """
    argv = list(sys.argv if command is None else command)
    if argv and Path(argv[0]).name in ("aisched", "__main__.py"):
        argv[0] = "aisched"
    return {
        "aisched": _version("aisched"), "commit": git_commit(), "python": platform.python_version(),
        **{name: _version(dist) for name, dist in LIBRARIES.items()},
        "host": {"platform": platform.platform(), "cpus": os.cpu_count(), "memory_gib": _memory_gib()},
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": argv, "seeds": seeds,
    }


def _no_machine_path(word: str) -> str:
    """A command word as a page may show it: an absolute path (alone or after ``--opt=``) by its last part."""
    option, eq, value = word.partition("=") if word.startswith("--") else ("", "", word)
    if Path(value).is_absolute():
        value = f".../{Path(value).name}"
    return f"{option}{eq}{value}"


def provenance_text(record: dict[str, Any]) -> str:
    """One line for a report's header: ``aisched 0.x (commit abc1234), Python 3.11, HiGHS ..., on N CPUs ...``.

    The command's absolute paths are shortened to their last part (a page names no machine path;
    the record itself keeps them).
    """
    commit = str(record.get("commit", "?"))
    commit = commit if commit.startswith("not") else f"commit {commit[:12]}"
    host = record.get("host", {})
    libraries = ", ".join(f"{label} {record.get(name, '?')}" for name, label in
                          (("highs", "HiGHS"), ("pyomo", "Pyomo"), ("jax", "JAX"), ("numpy", "NumPy")))
    command = " ".join(_no_machine_path(word) for word in record.get("command") or []) or "?"
    return (f"aisched {record.get('aisched', '?')} ({commit}), Python {record.get('python', '?')}, {libraries}; "
            f"{host.get('cpus', '?')} CPUs, {host.get('memory_gib', '?')} GiB; {record.get('date', '?')}; "
            f"`{command}`")
