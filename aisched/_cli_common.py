"""What the ``aisched`` command and its ``compare`` part share (no numerical import)."""

from __future__ import annotations

from pathlib import Path

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.families import FamilyCli

__all__ = ["_family_cli", "_out_dir"]


def _family_cli(family: str) -> FamilyCli | None:
    """The family's ``aisched compare`` protocol, or None for a family without one."""
    return families.cli(family) if family in families.names() else None


def _out_dir(option: str, path: Path) -> Path:
    """Create the output folder ``path`` now, before any work; a file or unwritable place is named."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidScenarioError(option, f"= {str(path)!r} cannot be a folder ({exc.strerror or exc})") from None
    return path
