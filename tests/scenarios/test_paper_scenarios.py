"""Every named scenario (the papers' figures) runs end to end in its reduced form."""

from pathlib import Path

import numpy as np
import pytest

from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import report
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.scenarios.lora.traces import NAMED_TRACES

#: Reduced runs of 12-60 s on 2 cores whose parts have fast tests of their own (lora's trace loaders and
#: its day on a trace; spot's selection cell and pool; a regime map: genai's two stay in the default
#: tier; spot's Figs. 5 and 6: Figs. 7-8 run the same algorithms and offline optimum; genai's Fig. 4:
#: Figs. 5-8 run the same algorithms and bound), run in the slow tier.
_SLOW_RUNS = ("lora/fig7-traces", "spot/fig9-selection", "spot/fig10-phases", "tenants/regime-servers",
              "spot/fig5-deadline", "spot/fig6-bandwidth", "genai/fig4-slots")


def _slow(name: str) -> bool:
    """lora's bound compilations (~1 min); the copies of a figure on another market or workload
    (``-synthetic``, ``-legacy``: same algorithms and claims, the generator option tested on its own);
    :data:`_SLOW_RUNS`."""
    scenario = catalog.get(name)
    return (scenario.bound and scenario.family == "lora") or name.endswith(("-synthetic", "-legacy")) \
        or name in _SLOW_RUNS


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if _slow(n) else n for n in catalog.names()])
def test_every_named_scenario_runs_reduced(name: str, tmp_path: Path) -> None:
    scenario = catalog.get(name).reduced()
    traces_used = [scenario.point_params(p).get("trace") for p in range(len(scenario.values))]
    for trace in traces_used:
        if isinstance(trace, str) and trace in NAMED_TRACES and data_file(NAMED_TRACES[trace], required=False) is None:
            pytest.skip(f"trace {trace!r} absent: {NAMED_TRACES[trace]} (`aisched data list`)")
    try:
        table = sweep.sweep(scenario, tmp_path, executor="serial", progress=False)
    except InvalidScenarioError as exc:  # a data file the family's generator reads by default is absent
        if exc.field in ("data", "trace") and ("not found" in exc.message or "does not exist" in exc.message):
            pytest.skip(f"{name}: {exc}")
        raise
    referenced = set(scenario.reference_points())  # references only where a verdict reads them
    optima = len(referenced) if scenario.offline else 0
    bounds = sum(1 for p, v in enumerate(scenario.values)
                 if scenario.bound and (v in scenario.bound_at if scenario.bound_at else p in referenced))
    assert len(table) == len(scenario.values) * len(scenario.runs) + optima + bounds  # runs: algorithms, variants
    assert np.isfinite(table["objective"]).all()
    online = table[~table["algorithm"].isin(["offline", "bound"])]
    assert scenario.metric in table.columns and online[scenario.metric].notna().all()
    assert set(table["algorithm"]) == (set(scenario.runs) | ({"offline"} if optima else set())
                                       | ({"bound"} if bounds else set()))
    if bounds:  # the certified bound (or the optimum it proves) is the reference, and holds every run
        ref = table[table["reference_kind"].isin(["bound", "optimum"])]
        assert len(ref) == len(table) or scenario.offline or scenario.bound_at or len(referenced) < len(scenario.values)
        assert (ref["objective"] <= ref["reference"] + 1e-6 * ref["reference"].abs().clip(lower=1)).all()
    assert sweep.folder(tmp_path, scenario).joinpath("table.csv").is_file()
    if scenario.offline:  # online never beats a proven optimum
        opt = table[table["reference_kind"] == "optimum"]
        assert (opt["objective"] <= opt["reference"] + 1e-6 * opt["reference"].abs().clip(lower=1)).all()
    text = report.report(tmp_path, figures=False).read_text()
    assert f"## {name}" in text
    for claim in catalog.get(name).claims:  # every claim of the full figure is listed, none dropped
        assert f"| {claim.text} |" in text or f"- {name}: {claim.text} (at " in text  # or under "Not in this run"


def test_catalogue_covers_the_papers_figures() -> None:
    names = set(catalog.names())
    for fig in ("4-slots", "5-edges", "6-capacity", "7-workload", "8-weights", "9-competitive"):
        assert f"genai/fig{fig}" in names
    assert {n for n in names if n.startswith("tenants/fig4")} == {
        "tenants/fig4a-jobs-linear", "tenants/fig4b-servers-linear", "tenants/fig4c-jobs-convex",
        "tenants/fig4d-servers-convex", "tenants/fig4a-jobs-linear-consecutive"}  # the old window rule (T8)


def test_spot_market_levels_for_figs_7_and_8() -> None:
    from aisched.errors import InvalidScenarioError
    from aisched.scenarios import spot

    low, high = spot.generate(seed=3, mean_available=4.0), spot.generate(seed=3, mean_available=12.0)
    assert low.spot_available.mean() < high.spot_available.mean()
    cheap, dear = spot.generate(seed=3, mean_price=0.4), spot.generate(seed=3, mean_price=0.85)
    assert cheap.spot_price.mean() < dear.spot_price.mean()
    with pytest.raises(InvalidScenarioError, match="^mean_price: = 0"):
        spot.generate(mean_price=0.0)
    with pytest.raises(InvalidScenarioError, match="^mean_available: = 17"):
        spot.generate(mean_available=17.0)
    with pytest.raises(InvalidScenarioError, match="synthetic and vast markets, not 'aws'"):
        spot.generate(market="aws", mean_price=0.4)


@pytest.mark.parametrize("name", catalog.names("lora"))
def test_lora_reduced_forms_test_something(name: str) -> None:
    """In a reduced lora run most tasks can finish on their own (the full days are far bigger)."""
    import aisched

    scenario = catalog.get(name).reduced()
    for point in range(len(scenario.values)):
        params = scenario.point_params(point)
        if isinstance(params.get("trace"), str) and params["trace"] in NAMED_TRACES and \
                data_file(NAMED_TRACES[params["trace"]], required=False) is None:
            pytest.skip(f"trace {params['trace']!r} absent")
        inst = aisched.scenarios.lora.generate(seed=0, **params)
        if inst.num_tasks == 0:
            continue
        window = inst.deadline - inst.earliest_start().min(axis=1) + 1
        finishable = float(np.mean(inst.fewest_slots() <= window))
        assert finishable >= 0.5, f"{name} point {scenario.labels[point]}: only {finishable:.0%} can finish"


def test_lora_load_figure_binds_capacity_at_its_high_point() -> None:
    import aisched

    scenario = catalog.get("lora/fig8-load").reduced()
    inst = aisched.scenarios.lora.generate(seed=0, **scenario.point_params(len(scenario.values) - 1))
    table = aisched.compare(inst, ["eft"], offline=False)
    assert table.loc["eft", "compute_util_peak"] >= 0.95


def test_lora_costs_are_listed_and_never_part_of_a_sweep_record(capsys: pytest.CaptureFixture[str]) -> None:
    """lora does not fit the 90-min budget; its catalog entries say what they cost."""
    from dataclasses import replace

    from aisched import cli
    from aisched.scenarios.lora.paper import COST

    assert set(COST) <= set(catalog.names("lora")) and "lora/fig4-scale" in COST
    scenario = catalog.get("lora/fig4-scale")
    assert scenario.cost == COST["lora/fig4-scale"]
    assert "cost" not in scenario.sweep_record()  # restating a cost keeps sweep folders resumable
    assert replace(scenario, cost="other").sweep_record() == scenario.sweep_record()
    assert scenario.definition()["cost"] == COST["lora/fig4-scale"]  # the whole scenario: cost included
    assert cli.main(["scenarios", "--long", "--family", "lora"]) == 0  # one short line each without --long
    text = capsys.readouterr().out
    block = text.split("lora/fig4-scale ", 1)[1].split("\nlora/", 1)[0]
    assert f"cost: {COST['lora/fig4-scale']}" in " ".join(block.split())


def test_lora_titan_runs_the_running_form_only_where_runtime_is_not_measured() -> None:
    """Figs. 4-9 give Titan's per-slot MILP 20 s with the JCT stage in the "running" form (docs/readings/lora.md,
    lora L8); Fig. 13 times Titan, so it keeps the 20 s "completion" form it has always timed."""
    params = {name: catalog.get(name).params["titan"]
              for name in catalog.names("lora") if "titan" in catalog.get(name).algorithms}
    assert params.pop("lora/fig13-runtime") == {"slot_time_limit": 20.0}
    assert params and all(p == {"slot_time_limit": 20.0, "jct_form": "running"} for p in params.values()), params
    assert {"lora/fig4-scale", "lora/fig8-load", "lora/fig9-deadlines"} <= set(params)
