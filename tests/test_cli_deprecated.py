"""The module-level names of ``aisched.scenarios.FAMILY.cli`` still work for one release, and warn.

The ``aisched compare FAMILY`` protocol is the family's :class:`~aisched.families.FamilyCli` subclass;
the old module functions call its methods and emit a :class:`DeprecationWarning` naming the method to use,
and the old constants equal its class attributes.
"""

from __future__ import annotations

import argparse
import importlib
import re
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from aisched.errors import InvalidScenarioError

#: Per family: its FamilyCli subclass and small options of ``aisched compare FAMILY``.
CASES: dict[str, tuple[str, list[str]]] = {
    "genai": ("GenaiCli", ["--jobs", "4", "--edges", "2", "--slots", "20"]),
    "lora": ("LoraCli", ["--nodes", "2", "--slots", "12", "--tasks", "4"]),
    "spot": ("SpotCli", []),
    "tenants": ("TenantsCli", ["--users", "2", "--servers", "4", "--jobs", "6", "--trace", "synthetic"]),
}


def _warns(family: str, cls: str, old: str, new: str) -> AbstractContextManager[pytest.WarningsRecorder]:
    message = f"aisched.scenarios.{family}.cli.{old} is deprecated; use {cls}().{new}"
    return pytest.warns(DeprecationWarning, match=f"^{re.escape(message)}$")


@pytest.mark.parametrize("family", sorted(CASES))
def test_the_old_module_names_still_work_and_warn(family: str, tmp_path: Path) -> None:
    cls, argv = CASES[family]
    module = importlib.import_module(f"aisched.scenarios.{family}.cli")
    package = importlib.import_module(f"aisched.scenarios.{family}")
    cli = getattr(module, cls)()
    assert module.CLI_HELP == cli.help and module.CLI_ALGORITHMS == cli.algorithms
    assert package.add_cli_arguments is module.add_cli_arguments  # the lazy name still resolves

    old, new = argparse.ArgumentParser(), argparse.ArgumentParser()
    with _warns(family, cls, "add_cli_arguments", "add_arguments") as record:
        module.add_cli_arguments(old)
    assert {w.filename for w in record} == {__file__}  # the warning points at the caller
    cli.add_arguments(new)
    assert old.format_help() == new.format_help()

    args = old.parse_args(argv)
    with _warns(family, cls, "instance_from_cli", "instance"):
        inst = module.instance_from_cli(args)
    assert inst.to_dataset().identical(cli.instance(args).to_dataset())
    with _warns(family, cls, "describe", "describe"):
        assert module.describe(inst, args) == cli.describe(inst, args)
    if hasattr(module, "cli_figures"):
        with _warns(family, cls, "cli_figures", "figures"):
            assert module.cli_figures({}, None, tmp_path) == cli.figures({}, None, tmp_path) == []
    if hasattr(module, "cli_params"):
        names = list(cli.algorithms)
        with _warns(family, cls, "cli_params", "params"):
            assert module.cli_params(args, names) == cli.params(args, names)
    if family == "lora":
        assert module.CLI_KNOWN == cli.known and module.CLI_TIME_LIMIT == cli.time_limit
    if family == "spot":
        old_select, new_select = argparse.ArgumentParser(), argparse.ArgumentParser()
        with _warns(family, cls, "add_select_arguments", "add_select_arguments"):
            module.add_select_arguments(old_select)
        cli.add_select_arguments(new_select)
        assert old_select.format_help() == new_select.format_help()
        bad = old_select.parse_args(["--error", "-1", "--out", str(tmp_path)])
        with _warns(family, cls, "run_select", "run_select"), pytest.raises(InvalidScenarioError, match="--error"):
            module.run_select(bad)
