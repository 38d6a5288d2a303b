"""Moved modules keep their old import paths for one release: every public name, with a DeprecationWarning.

``tests/data/public_names_0.1.0.json`` is the ``__all__`` of every module that moved or became a
facade, read from the release before the restructuring (issue 59): each name must still be there.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

NAMES = json.loads((Path(__file__).parent / "data" / "public_names_0.1.0.json").read_text())


@pytest.mark.parametrize("module", sorted(NAMES))
def test_every_public_name_of_the_last_release_is_still_there(module: str) -> None:
    with warnings.catch_warnings():  # an old submodule name read from a package warns too
        warnings.simplefilter("ignore", DeprecationWarning)
        found = importlib.import_module(module)
        missing = [name for name in NAMES[module] if not hasattr(found, name)]
    assert missing == [], f"{module} lost {missing}"


def test_an_old_path_warns_and_is_the_new_module() -> None:
    code = ("import warnings\nwarnings.simplefilter('error', DeprecationWarning)\n"
            "try:\n    import aisched.experiments.sweep\nexcept DeprecationWarning as w:\n    print(w)\n"
            "warnings.simplefilter('ignore', DeprecationWarning)\n"
            "import aisched.experiments.sweep as old, aisched.experiments.run.sweep as new\nprint(old is new)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["aisched.experiments.sweep moved to aisched.experiments.run.sweep; import it from there "
                   "(aisched.experiments.sweep goes in the next release)", "True"]


def test_a_split_module_answers_both_halves_and_writes_reach_the_new_module(monkeypatch) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old = importlib.import_module("aisched.experiments.calibrate")
    from aisched.experiments.pages import fidelity
    from aisched.experiments.studies import calibrate

    assert old is calibrate and old.fidelity_lines is fidelity.fidelity_lines
    monkeypatch.setattr(old, "CALIBRATION_PREFIX", "patched")
    assert calibrate.CALIBRATION_PREFIX == "patched"


def test_monkeypatching_through_an_old_path_is_undone(monkeypatch) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old = importlib.import_module("aisched.experiments.calibrate")
    from aisched.experiments.studies import calibrate

    before = calibrate.CALIBRATION_PREFIX
    with monkeypatch.context() as patch:
        patch.setattr(old, "CALIBRATION_PREFIX", "patched")
    assert calibrate.CALIBRATION_PREFIX == before


def test_an_old_submodule_attribute_of_a_package_warns() -> None:
    code = ("import warnings\nwarnings.simplefilter('error', DeprecationWarning)\nimport aisched.online.lora as lora\n"
            "try:\n    lora.pdftsp_kernel\nexcept DeprecationWarning as w:\n    print(w)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("aisched.online.lora.pdftsp_kernel moved to aisched.online.lora.pdftsp.kernel")
