"""Scenario kinds beyond "compare": policy selection (spot Figs. 9-10), x on an algorithm
parameter (tenants Fig. 11), extra report figures (Figs. 7, 10, 12)."""

from pathlib import Path

import numpy as np
import pytest

import aisched
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import report
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.experiments.spec.catalog import Scenario
from aisched.online.tenants.theta import estimation_jobs
from aisched.scenarios.spot.selection import pool_members, selection_cell

_TINY_TENANTS = {"users": 2, "servers": 3, "jobs": 5, "trace": None}  # synthetic: no data file needed


def test_named_pools_are_the_papers_subsets() -> None:
    """Section VI-A: 105 AHAP (w 1..5, v <= w, 7 sigmas) + 7 AHANP; Fig. 9 fixes v = 1 or sigma = 0.9."""
    sizes = {"paper": 112, "ahap": 105, "ahap-v1": 35, "ahap-sigma0.9": 15, "ahap-w1": 7}
    assert {name: len(pool_members(name)) for name in sizes} == sizes
    assert all(p.commitment == 1 for p in pool_members("ahap-v1"))
    assert all(p.threshold == pytest.approx(0.9) for p in pool_members("ahap-sigma0.9"))
    assert {p.name for p in pool_members("ahap-w1")} <= {p.name for p in pool_members("ahap")}


def test_selection_cell_reports_a_consistent_run() -> None:
    fields, data = selection_cell(seed=1, pool="ahap-w1", jobs=6, noise="fixed-heavy", error=0.3)
    weights = data["weight"].values
    assert weights.shape == (6, 7)
    assert np.allclose(weights.sum(axis=1), 1.0)
    assert fields["regret"] <= fields["regret_bound"] and fields["regret_within_bound"]
    assert fields["objective"] == pytest.approx(data["realised"].values.mean())
    assert data["running_mean"].values[-1] == pytest.approx(fields["objective"])
    chosen = data["chosen"].values
    assert np.allclose(data["realised"].values, data["utility"].values[np.arange(6), chosen])
    assert fields["best_fixed"] == pytest.approx(data["best_fixed_running_mean"].values[-1])


def test_selection_cell_bad_input() -> None:
    with pytest.raises(InvalidScenarioError, match="^pool: = 'nope' is not one of 'paper', 'ahap'"):
        selection_cell(seed=0, pool="nope", jobs=2)
    with pytest.raises(InvalidScenarioError, match="^noise: = 'loud' is not one of 'fixed-uniform'"):
        selection_cell(seed=0, pool="ahap-w1", jobs=2, noise="loud")
    with pytest.raises(InvalidScenarioError, match="^jobs: = 5, but phases 'fig10-small' cover 48"):
        selection_cell(seed=0, pool="ahap-w1", jobs=5, phases="fig10-small")


def test_selection_scenarios_are_validated() -> None:
    common = {"name": "spot/sel", "family": "spot", "title": "", "x": "noise", "values": ("fixed-uniform",),
              "base": {"jobs": 3}, "kind": "selection"}
    with pytest.raises(InvalidScenarioError, match="'ahax' is not a policy pool") as info:
        Scenario(**common, algorithms=("ahap-v1", "ahax"))
    assert info.value.field == "algorithms[1]"
    with pytest.raises(InvalidScenarioError, match="no offline program"):
        Scenario(**common, algorithms=("ahap-v1",), offline=True)
    with pytest.raises(InvalidScenarioError, match="'bandwidth' is not a parameter of aisched.scenarios.spot.selection_cell"):
        Scenario(**{**common, "base": {"bandwidth": 100.0}}, algorithms=("ahap-v1",))
    with pytest.raises(InvalidScenarioError, match="'lora' has no 'selection' scenarios") as info:
        Scenario(name="lora/sel", family="lora", title="", x="nodes", values=(2,), base={},
                 algorithms=("pdftsp",), kind="selection")
    assert info.value.field == "kind"
    with pytest.raises(InvalidScenarioError, match="^kind: .*'racing' is not one of"):
        Scenario(**{**common, "kind": "racing"}, algorithms=("ahap-v1",))


def test_algorithm_parameter_on_the_x_axis(tmp_path: Path) -> None:
    scenario = Scenario(name="tenants/theta", family="tenants", title="", x="theta_scale",
                        x_target="algorithms", values=(0.8, 1.5), base=_TINY_TENANTS, algorithms=("astraea",))
    assert scenario.point_params(1) == _TINY_TENANTS
    assert scenario.algorithm_params(1, "astraea") == {"theta_scale": 1.5}
    sweep.sweep(scenario, tmp_path, executor="serial", progress=False)
    root = sweep.folder(tmp_path, scenario)
    inst = aisched.scenarios.tenants.generate(seed=0, **_TINY_TENANTS)
    source, used = estimation_jobs(inst)  # section 4.4's value over a past window of the trace (readings T-silent)
    assert used == "past_window"
    base_w, base_p = aisched.online.tenants.astraea.default_thetas(source)
    for point, scale in enumerate(scenario.values):
        out = aisched.Outcome.from_netcdf(root / "outcomes" / f"p{point:03d}-s000-astraea.nc")
        assert out.info["theta_w"] == pytest.approx(scale * base_w)
        assert out.info["theta_p"] == pytest.approx(scale * base_p)
    with pytest.raises(InvalidScenarioError, match="'theta_scale' is not a parameter of 'tenants' algorithm 'hived'"):
        Scenario(name="tenants/theta", family="tenants", title="", x="theta_scale", x_target="algorithms",
                 values=(0.8,), base=_TINY_TENANTS, algorithms=("astraea", "hived"))


def test_theta_scale_bad_values() -> None:
    inst = aisched.scenarios.tenants.generate(seed=0, **_TINY_TENANTS)
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(InvalidScenarioError, match="^theta_scale: = "):
            aisched.run("astraea", inst, theta_scale=bad)
    with pytest.raises(InvalidScenarioError, match="both must be > 1"):
        aisched.run("astraea", inst, theta_scale=1e-3)


def test_tenant_cell_metrics_per_user_and_surplus() -> None:
    from aisched.scenarios.tenants import cell_metrics

    inst = aisched.scenarios.tenants.generate(seed=0, **_TINY_TENANTS)
    astraea = cell_metrics(inst, aisched.run("astraea", inst))
    assert sorted(k for k in astraea if k.startswith("alpha_u")) == ["alpha_u0", "alpha_u1"]
    assert np.var([astraea["alpha_u0"], astraea["alpha_u1"]]) == pytest.approx(astraea["alpha_variance"])
    assert astraea["min_surplus"] > 0  # Astraea admits only jobs with mu_j > 0
    assert np.isnan(cell_metrics(inst, aisched.run("hived", inst))["min_surplus"])


def test_unknown_figure_and_toml_keys(tmp_path: Path) -> None:
    with pytest.raises(InvalidScenarioError, match="'heat' is not a figure of 'tenants'") as info:
        Scenario(name="tenants/f", family="tenants", title="", x="jobs", values=(3,), base={},
                 algorithms=("astraea",), figures=("heat",))
    assert info.value.field == "figures[0]"
    path = tmp_path / "s.toml"
    path.write_text('name = "tenants/t"\nfamily = "tenants"\nx = "theta_scale"\nx_target = "algorithms"\n'
                    'values = [0.8]\nalgorithms = ["astraea"]\nfigures = ["alpha_per_user"]\n'
                    '[base]\nusers = 2\nservers = 3\njobs = 4\n')
    s = catalog.load(path)
    assert s.x_target == "algorithms" and s.figures == ("alpha_per_user",)
    assert s.sweep_record()["x_target"] == "algorithms" and s.definition()["x_target"] == "algorithms"
    assert catalog.from_mapping(s.definition()) == s


def test_report_draws_the_extra_figures(tmp_path: Path) -> None:
    if data_file(aisched.scenarios.tenants.TRACES["day"], required=False) is None:
        pytest.skip("the tenants scenarios read the Philly day extract, absent from every data folder")
    for name in ("tenants/fig7-fairness", "tenants/fig12-admission"):
        sweep.sweep(catalog.get(name).reduced(), tmp_path, executor="serial", progress=False)
    text = report.report(tmp_path).read_text()
    assert (tmp_path / "tenants/fig7-fairness/alpha_per_user.png").stat().st_size > 0
    assert (tmp_path / "tenants/fig12-admission/revenue_vs_cost.png").stat().st_size > 0
    assert "![alpha_per_user](tenants/fig7-fairness/alpha_per_user.png)" in text
    assert "![revenue_vs_cost](tenants/fig12-admission/revenue_vs_cost.png)" in text
