"""Named scenarios: the paper catalogue, TOML files and their errors."""

import subprocess
import sys
from pathlib import Path

import pytest

from aisched.errors import InvalidScenarioError
from aisched.experiments.spec import catalog
from aisched.experiments.spec.catalog import Claim, Scenario

GOOD = """
name = "lora/my-scale"
family = "lora"
title = "welfare vs nodes on a small day"
x = "nodes"
values = [2, 4]
algorithms = ["pdftsp", "eft"]
seeds = 2
offline = true
metric = "ratio"
[base]
slots = 12
arrival_rate = 1.0
[params.pdftsp]
selection = "exact"
[[claims]]
kind = "best"
algorithm = "pdftsp"
text = "pdFTSP is best"
"""


def test_paper_catalogue_lists_every_lora_figure() -> None:
    names = catalog.names("lora")
    for fig in ("fig4-scale", "fig5-vendors", "fig6-capacity", "fig7-traces", "fig8-load",
                "fig9-deadlines", "fig12-competitive", "fig13-runtime"):
        assert f"lora/{fig}" in names
    s = catalog.get("lora/fig8-load")
    assert s.values == (30.0, 50.0, 80.0)  # the paper's light / medium / high Poisson means
    assert s.point_params(2)["arrival_rate"] == 80.0 and s.point_params(2)["slots"] == 144
    assert {c.value for c in s.claims if c.kind == "improvement"} == {0.4899, 1.5157, 1.8494}


def test_reduced_form_is_small_and_keeps_every_claim() -> None:
    full = catalog.get("lora/fig8-load")
    s = full.reduced()
    assert s.seeds == 1 and s.values == (0.5, 1.5)
    assert s.point_params(0)["slots"] == 36
    assert s.claims == full.claims and s.full_values == full.values  # made at 80 tasks a slot
    assert s.reduced().full_values == full.values


def test_toml_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(GOOD)
    s = catalog.load(path)
    assert s.name == "lora/my-scale" and s.values == (2, 4) and s.base["slots"] == 12
    assert s.params["pdftsp"] == {"selection": "exact"}
    assert s.claims == (Claim("best", "pdFTSP is best", "pdftsp"),)
    assert catalog.get(str(path)) == s


@pytest.mark.parametrize(
    ("edit", "field", "needle"),
    [
        (("seeds = 2", "seeds = 'two'"), "seeds", "wrong type"),
        (("family = \"lora\"", "family = \"lora\"\ncolour = 3"), "colour", "unknown key"),
        (("[\"pdftsp\", \"eft\"]", "[\"pdftsp\", \"magic\"]"), "algorithms[1]", "magic"),
        (("slots = 12", "slotz = 12"), "base", "slotz"),
        (("x = \"nodes\"", "x = \"colour\""), "x", "colour"),
        (("metric = \"ratio\"", "metric = \"speed\""), "metric", "speed"),
        (("offline = true", "offline = false"), "metric", "offline"),
        (("kind = \"best\"", "kind = \"greatest\""), "claims[0].kind", "greatest"),
        (("name = \"lora/my-scale\"", "name = \"my-scale\""), "name", "my-scale"),
        (("name = \"lora/my-scale\"\n", ""), "name", "missing"),
    ],
)
def test_malformed_toml_names_the_field(tmp_path: Path, edit, field, needle) -> None:
    path = tmp_path / "bad.toml"
    assert edit[0] in GOOD
    path.write_text(GOOD.replace(edit[0], edit[1], 1))
    with pytest.raises(InvalidScenarioError) as info:
        catalog.load(path)
    assert info.value.field == field
    assert needle in str(info.value) and str(path) in str(info.value)


def test_invalid_toml_syntax_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("name = [unclosed\n")
    with pytest.raises(InvalidScenarioError, match="not valid TOML"):
        catalog.load(path)
    with pytest.raises(InvalidScenarioError, match="does not exist"):
        catalog.load(tmp_path / "absent.toml")


def test_unknown_name_suggests_the_close_one() -> None:
    with pytest.raises(InvalidScenarioError, match="did you mean 'lora/fig4-scale'"):
        catalog.get("fig4-scale")
    with pytest.raises(InvalidScenarioError, match="aisched scenarios"):
        catalog.get("lora/nothing-like-it")


def test_python_scenarios_validate_and_register() -> None:
    s = Scenario(name="lora/unit-register", family="lora", title="t", x="nodes", values=(1,),
                 base={"slots": 6, "tasks": 2}, algorithms=("eft",))
    catalog.register(s)
    try:
        assert "lora/unit-register" in catalog.names("lora")
        with pytest.raises(InvalidScenarioError, match="already registered"):
            catalog.register(s)
    finally:
        assert catalog.unregister("lora/unit-register") is s
    assert "lora/unit-register" not in catalog.names("lora") and catalog.unregister("lora/unit-register") is None
    with pytest.raises(InvalidScenarioError, match="improvement claim needs"):
        Scenario(name="lora/x", family="lora", title="", x="nodes", values=(1,), base={},
                 algorithms=("eft",), claims=(Claim("improvement", "", "eft", point="1"),))


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["sweep", "lora/no-such-figure"], "no-such-figure"),
        (["sweep", "lora/fig4-scale", "--seeds", "0"], "--seeds"),
        (["sweep", "lora/fig4-scale", "--serial", "--dask", "local:2"], "--serial"),
        (["report", "/no/such/dir"], "does not exist"),
        (["scenarios", "--family", "weather"], "--family"),
    ],
)
def test_cli_errors_are_one_line(argv, needle) -> None:
    proc = subprocess.run([sys.executable, "-m", "aisched.cli", *argv], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("aisched: error:") and needle in lines[0], proc.stderr


def test_cli_lists_scenarios(capsys) -> None:
    from aisched.cli import main

    assert main(["scenarios", "--family", "lora"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("lora/fig7-traces ") for line in out)
    assert all(line.startswith("lora/") for line in out)


def test_the_static_name_index_is_the_families_own_list() -> None:
    built = [s.name for s in catalog._paper_scenarios()]
    index = catalog.paper_scenario_names()
    assert sorted(index) == sorted(built) and len(set(index)) == len(index)


def test_an_unknown_name_is_refused_before_any_family_loads() -> None:
    code = ("import sys\nfrom aisched.errors import InvalidScenarioError\nfrom aisched.experiments.spec import catalog\n"
            "try:\n    catalog.get('lora/fig4-scal')\nexcept InvalidScenarioError as e:\n    print(e)\n"
            "print(catalog.paper_loaded(), [m for m in ('jax', 'pyomo', 'xarray', 'pandas') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["scenario: unknown scenario 'lora/fig4-scal'; did you mean 'lora/fig4-scale'?",
                                "[] []"]
