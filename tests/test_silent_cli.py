"""``aisched compare FAMILY --silent NAME=VALUE``: the values a paper leaves unstated, from the command line."""

from __future__ import annotations

import pytest

from aisched import cli, families
from aisched.cli_support import family_cli, silent_generator_kwargs, silent_settings
from aisched.errors import InvalidScenarioError

#: Per family, a generator-level silent parameter and a value of its grid that is not the default.
MOVED = {"genai": ("revenue_scale", 0.6), "lora": ("min_batch_share", 0.3), "spot": ("value", 160.0),
         "tenants": ("duration_scale", 0.5)}


@pytest.mark.parametrize("family", sorted(MOVED))
def test_a_generator_parameter_reaches_the_instance(family: str) -> None:
    name, value = MOVED[family]
    parameter = next(p for p in families.record(family).silent_parameters if p.name == name)
    assert parameter.low <= value <= parameter.high and value != parameter.default
    module = family_cli(family)
    parser = cli._parser()
    moved = parser.parse_args(["compare", family, "--silent", f"{name}={value}"])
    ours = parser.parse_args(["compare", family])
    assert ours.silent is None and silent_generator_kwargs(ours, family) == {}
    assert silent_generator_kwargs(moved, family) == {name: value}
    generator = __import__(f"aisched.scenarios.{family}.generator", fromlist=["generate"]).generate
    by_cli, by_api = module.instance(moved), generator(**{**_cli_defaults(family), name: value})
    assert by_cli.to_dataset().identical(by_api.to_dataset())
    assert not by_cli.to_dataset().identical(module.instance(ours).to_dataset())  # the value moved the instance


def _cli_defaults(family: str) -> dict[str, object]:
    """What ``generate`` gets from ``aisched compare FAMILY`` with no option (one set of defaults, tests/test_defaults.py)."""
    defaults = __import__(f"aisched.scenarios.{family}.defaults", fromlist=["DEFAULT_SCENARIO"]).DEFAULT_SCENARIO
    return dict(defaults)


def test_bad_silent_values_are_refused_naming_the_item() -> None:
    with pytest.raises(InvalidScenarioError, match=r"--silent\[0\].*'revenue_scale' is not NAME=VALUE"):
        silent_settings("genai", ["revenue_scale"])
    with pytest.raises(InvalidScenarioError, match=r"--silent\[1\].*'budget' is not a silent parameter of genai"):
        silent_settings("genai", ["revenue_scale=0.6", "budget=3"])
    with pytest.raises(InvalidScenarioError, match=r"--silent\[0\].*revenue_scale = 'high' is not a number"):
        silent_settings("genai", ["revenue_scale=high"])
    with pytest.raises(InvalidScenarioError, match=r"revenue_scale = 3 is outside the range the paper allows, "
                                                   r"\[0.12, 1\]"):
        silent_settings("genai", ["revenue_scale=3"])
    with pytest.raises(InvalidScenarioError, match=r"--silent\[1\].*given twice"):
        silent_settings("genai", ["revenue_scale=0.6", "revenue_scale=0.7"])
    assert silent_settings("spot", ["up.gpus=12", "value=150"]) == {"up.gpus": 12.0, "value": 150.0}


def test_an_algorithms_silent_option_goes_to_that_algorithm(tmp_path, capsys) -> None:
    assert cli.main(["compare", "spot", "--silent", "up.gpus=12", "--algorithms", "up,od_only", "--no-offline",
                     "--no-figures", "--out", str(tmp_path / "a")]) == 0
    twelve = capsys.readouterr().out
    assert cli.main(["compare", "spot", "--algorithms", "up,od_only", "--no-offline", "--no-figures",
                     "--out", str(tmp_path / "b")]) == 0
    own = capsys.readouterr().out
    row = next(line for line in twelve.splitlines() if line.startswith("up "))
    assert row != next(line for line in own.splitlines() if line.startswith("up "))  # UP with 12 GPUs decides otherwise
    assert cli.main(["compare", "spot", "--silent", "up.gpus=12", "--algorithms", "od_only",
                     "--out", str(tmp_path / "c")]) == 2
    assert "--silent[0]: up.gpus sets an option of up, which is not compared here" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()  # refused before any work
