"""Helpers for a family's ``aisched compare FAMILY`` options, shared by the ``aisched`` command (no numerical import).

A family's :class:`~aisched.core.family.FamilyCli` (its ``scenarios/<family>/cli.py``) uses
:func:`silent_generator_kwargs` to pass ``--silent NAME=VALUE`` values to its generator; the
``aisched`` command uses :func:`family_cli`, :func:`out_dir`, :func:`silent_argument` and
:func:`silent_settings`. Public and documented: a plug-in family's CLI may use them too.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.families import FamilyCli

__all__ = ["deprecated_alias", "family_cli", "out_dir", "silent_argument", "silent_generator_kwargs", "silent_settings"]


def family_cli(family: str) -> FamilyCli | None:
    """The family's ``aisched compare`` protocol, or None for a family without one."""
    return families.cli(family) if family in families.names() else None


def out_dir(option: str, path: Path) -> Path:
    """Create the output folder ``path`` now, before any work; a file or unwritable place is named."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidScenarioError(option, f"= {str(path)!r} cannot be a folder ({exc.strerror or exc})") from None
    return path


def _silent_key(parameter: families.SilentParameter) -> str:
    """``name`` for a generator parameter, ``algorithm.name`` for an algorithm's (as calibration names them)."""
    return parameter.name if parameter.algorithm is None else f"{parameter.algorithm}.{parameter.name}"


def silent_argument(parser: argparse.ArgumentParser, family: str) -> None:
    """``--silent NAME=VALUE`` on ``aisched compare FAMILY``: one of the values its paper leaves unstated."""
    declared = families.record(family).silent_parameters
    if not declared:
        return
    ranges = "; ".join(f"{_silent_key(p)} in [{p.low:g}, {p.high:g}]" for p in declared)
    parser.add_argument("--silent", action="append", default=None, metavar="NAME=VALUE",
                        help=f"a value the paper leaves unstated (docs/readings/<family>.md; 'aisched calibrate' fits "
                             f"them), inside the range its text allows: {ranges} (repeatable; default: ours, "
                             f"the same as the paper figures')")


def silent_settings(family: str, items: Sequence[str] | None) -> dict[str, float]:
    """``--silent NAME=VALUE`` items as ``{key: value}``, each checked before any work.

    Raises
    ------
    InvalidScenarioError
        Naming ``--silent[i]`` and the item: not ``NAME=VALUE``, not a silent parameter of the
        family, not a number, outside the range the paper's text allows, or given twice.
    """
    known = {_silent_key(p): p for p in families.record(family).silent_parameters}
    out: dict[str, float] = {}
    for i, item in enumerate(items or ()):
        where = f"--silent[{i}]"
        name, sep, text = (part.strip() for part in item.partition("="))
        if not sep or not name:
            raise InvalidScenarioError(where, f"= {item!r} is not NAME=VALUE")
        if name not in known:
            raise InvalidScenarioError(where, f"{name!r} is not a silent parameter of {family} "
                                              f"(known: {', '.join(known)})")
        try:
            value = float(text)
        except ValueError:
            raise InvalidScenarioError(where, f"{name} = {text!r} is not a number") from None
        parameter = known[name]
        if not parameter.low <= value <= parameter.high:
            raise InvalidScenarioError(where, f"{name} = {value:g} is outside the range the paper allows, "
                                              f"[{parameter.low:g}, {parameter.high:g}]")
        if name in out:
            raise InvalidScenarioError(where, f"{name} is given twice")
        out[name] = value
    return out


def silent_generator_kwargs(args: argparse.Namespace, family: str) -> dict[str, float]:
    """The generator's keyword arguments among ``args.silent`` (an algorithm's go to its options)."""
    return {k: v for k, v in silent_settings(family, getattr(args, "silent", None)).items() if "." not in k}


def deprecated_alias(module: str, cli: type[FamilyCli], old: str, new: str) -> Callable[..., Any]:
    """A module-level function ``old`` of a family's ``cli`` module that warns and calls ``cli().new``.

    The family CLI modules' old functions (``add_cli_arguments``, ``instance_from_cli``, ...) are the
    methods of their :class:`~aisched.core.family.FamilyCli` class now; each old name stays for one
    release as ``add_cli_arguments = deprecated_alias(__name__, LoraCli, "add_cli_arguments",
    "add_arguments")``: a :class:`DeprecationWarning` that points at the caller, then the method.
    """

    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"{module}.{old} is deprecated; use {cli.__name__}().{new}", DeprecationWarning, stacklevel=2)
        return getattr(cli(), new)(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__module__ = module
    alias.__doc__ = f"Deprecated: use ``{cli.__name__}().{new}`` (:meth:`{cli.__name__}.{new}`)."
    return alias
