"""The public API: algorithms, run, offline, compare, Outcome.verify and netCDF."""

import math

import numpy as np
import pytest
from lora_tiny import brute_force_optimum, random_tiny

import aisched
from aisched.errors import InfeasiblePlanError, UnknownAlgorithmError


def test_algorithms_of_lora():
    assert aisched.algorithms("lora") == ["pdftsp", "titan", "eft", "ntm", "titan_welfare"]
    with pytest.raises(UnknownAlgorithmError, match="unknown family 'nope'"):
        aisched.algorithms("nope")


def test_run_unknown_name_lists_the_known_ones():
    with pytest.raises(UnknownAlgorithmError, match="known: pdftsp, titan, eft, ntm, titan_welfare"):
        aisched.run("heft", random_tiny(0))


def test_run_rejects_non_instances():
    with pytest.raises(aisched.AischedError, match="expected an aisched Instance"):
        aisched.run("pdftsp", {"tasks": 3})


def test_compare_table_and_ratios():
    inst = random_tiny(5, tasks=3)
    outcomes = {}
    table = aisched.compare(inst, ["pdftsp", "eft"], outcomes=outcomes)
    assert list(table.index) == ["offline", "pdftsp", "eft"]
    assert set(table.columns) >= {"objective", "ratio", "admitted", "runtime_s", "decision_median_s"}
    assert table.loc["offline", "reference"] == "optimum"
    assert table.loc["offline", "ratio"] == pytest.approx(1.0) or table.loc["offline", "objective"] == 0
    assert table.loc["offline", "objective"] == pytest.approx(brute_force_optimum(inst))
    for name in ("pdftsp", "eft"):
        assert table.loc[name, "objective"] == pytest.approx(outcomes[name].objective)
        assert table.loc[name, "admitted"] == outcomes[name].num_admitted
        if table.loc["offline", "objective"] > 0:
            assert table.loc[name, "ratio"] <= 1 + 1e-9


def test_compare_without_offline_has_no_ratio():
    table = aisched.compare(random_tiny(1), ["eft"], offline=False)
    assert list(table.index) == ["eft"] and math.isnan(table.loc["eft", "ratio"])


def test_compare_checks_names_before_working():
    with pytest.raises(UnknownAlgorithmError):
        aisched.compare(random_tiny(1), ["eft", "bogus"])


def _two_tasks():
    # two tasks, one A100-like node and one small node; vendor 0 delays 1 slot
    return aisched.models.lora.LoraInstance(
        num_slots=3, compute_capacity=[4.0, 2.0], memory_capacity=[10.0, 4.0], base_memory=1.0,
        gpu_type=["A100-80GB", "A40-48GB"], arrival=[0, 0], deadline=[2, 1],
        memory_need=[4.0, 5.0], work=[4.0, 2.0], needs_preprocessing=[True, False],
        bid=[10.0, 8.0], throughput=[[2.0, 2.0], [3.0, 2.0]],
        vendor_price=[[1.0], [0.0]], vendor_delay=[[1], [0]],
        energy_use=[[0.1, 0.1], [0.1, 0.1]], energy_price=np.ones((2, 3)),
    )


@pytest.mark.parametrize(
    ("assignment", "vendor", "admitted", "constraint"),
    [
        ([[-1, 0, 0], [0, -1, -1]], [0, -1], [True, True], None),  # feasible: welfare 10-1-.2+8-.1
        ([[-1, 0, 0], [0, -1, -1]], [0, -1], [True, False], "x_le_u"),
        ([[-1, 0, 0], [-1, -1, -1]], [-1, -1], [True, False], "(4a) vendor_if_admitted"),
        ([[0, 0, -1], [-1, -1, -1]], [0, -1], [True, False], "(4c) start_after_preprocessing"),
        ([[-1, 0, 0], [-1, -1, 0]], [0, -1], [True, True], "(4d) deadline"),
        ([[-1, 0, -1], [-1, -1, -1]], [0, -1], [True, False], "(4e) work_done"),
        ([[-1, 0, 0], [-1, 0, -1]], [0, -1], [True, True], "(4f) capacity_compute"),
        ([[-1, 0, 0], [-1, 1, -1]], [0, -1], [True, True], "(4g) capacity_memory"),
        ([[-1, 0, 2], [-1, -1, -1]], [0, -1], [True, False], "(4b) one_node_per_slot"),
        ([[-1, 0, 0], [-1, -1, -1]], [3, -1], [True, False], "(4a) one_vendor"),
    ],
)
def test_verify_names_the_violated_constraint(assignment, vendor, admitted, constraint):
    inst = _two_tasks()
    plan = aisched.models.lora.make_plan(inst, np.array(assignment), np.array(vendor), np.array(admitted))
    out = aisched.Outcome("hand", "lora", float("nan"), plan, admitted=np.array(admitted))
    if constraint is None:
        assert out.verify(inst) == pytest.approx(10 - 1 - 0.2 + 8 - 0.1)
        return
    with pytest.raises(InfeasiblePlanError) as info:
        out.verify(inst)
    assert info.value.constraint == constraint


def test_verify_catches_a_misreported_objective():
    inst = random_tiny(2)
    out = aisched.run("pdftsp", inst)
    out.objective += 1.0
    with pytest.raises(InfeasiblePlanError, match="objective"):
        out.verify(inst)


def test_outcome_netcdf_round_trip(tmp_path):
    inst = aisched.scenarios.lora.generate(seed=0, nodes=2, slots=10, tasks=6, vendors=2)
    out = aisched.run("pdftsp", inst)
    path = out.to_netcdf(tmp_path / "sub" / "pd.nc")
    back = aisched.Outcome.from_netcdf(path)
    assert back.algorithm == "pdftsp" and back.family == "lora"
    assert back.objective == out.objective
    np.testing.assert_array_equal(back.admitted, out.admitted)
    np.testing.assert_array_equal(back.payments, out.payments)
    np.testing.assert_array_equal(back.prices["compute_price"].values, out.prices["compute_price"].values)
    assert back.verify(inst) == pytest.approx(out.objective)
    assert not list(tmp_path.glob("sub/*.tmp"))


def test_offline_outcome_on_time_limit_is_honest():
    inst = aisched.scenarios.lora.generate(seed=1, nodes=8, slots=24, arrival_rate=3.0, vendors=3)
    out = aisched.offline(inst, time_limit=0.05)
    if out.status == "optimal":  # pragma: no cover - machine much faster than expected
        pytest.skip("solved within 0.05 s")
    assert out.status == "time_limit"
    assert math.isfinite(out.bound)
    if not math.isnan(out.objective):
        assert out.bound >= out.objective - 1e-6


@pytest.mark.parametrize(("option", "value"), [("time_limit", -1.0), ("mip_gap", float("nan")), ("threads", 0)])
def test_offline_options_fail_before_any_work(option, value):
    with pytest.raises(aisched.InvalidScenarioError, match=option):
        aisched.offline(random_tiny(0), **{option: value})


def _tenants_tiny():
    return aisched.scenarios.tenants.generate(seed=0, users=2, servers=3, jobs=4, trace=None)  # no data file needed


@pytest.mark.parametrize(("name", "params", "field", "says"), [
    ("astraea", {"foo": 1}, "foo", "it takes lam (an integer or a string, default 2), theta_w"),
    ("gandiva_fair", {"theta_w": 2.0}, "theta_w", "it takes release (one of 'arrival', 'batch', default"),
    ("od_only", {"seed": 1}, "seed", "it takes no parameters"),
    ("msu", {"seed": 1}, "seed", "it takes near_deadline (one of 'spot_first', 'on_demand', default 'spot_first')"),
    ("msu", {"near_deadline": "late"}, "near_deadline", "expected one of 'spot_first', 'on_demand'"),
    ("astraea", {"clock": "x"}, "clock", "expected one of 'batch', 'arrival'"),
    ("astraea", {"lam": True}, "lam", "expected an integer or a string"),
    ("astraea", {"theta_scale": float("nan")}, "theta_scale", "expected a finite number"),
    ("astraea", {"theta_w": "2"}, "theta_w", "expected a finite number or None"),
])
def test_run_checks_parameter_names_and_values(name, params, field, says):
    inst = _tenants_tiny() if name not in ("msu", "od_only") else aisched.scenarios.spot.generate(seed=0)
    with pytest.raises(aisched.InvalidScenarioError, match=f"^{field}: ") as info:
        aisched.run(name, inst, **params)
    assert says in str(info.value)
    assert info.value.field == field


def test_parameters_that_fit_run():
    inst = _tenants_tiny()
    out = aisched.run("astraea", inst, lam=2, theta_w=None, clock="batch", theta_scale=1)
    assert out.objective == pytest.approx(aisched.run("astraea", inst).objective)
    out.verify(inst)


def test_compare_checks_every_parameter_before_any_work(monkeypatch):
    calls = []
    monkeypatch.setattr(aisched.api, "offline", lambda *a, **k: calls.append("offline"))
    with pytest.raises(aisched.InvalidScenarioError, match="^theta_w: .*'hived'"):
        aisched.compare(_tenants_tiny(), ["astraea", "hived"], params={"hived": {"theta_w": 2.0}})
    assert calls == []


def test_scenario_params_are_checked_when_the_scenario_is_made():
    from aisched.experiments.spec.catalog import Scenario

    with pytest.raises(aisched.InvalidScenarioError, match="params.random_a.seed") as info:
        Scenario(name="genai/x", family="genai", title="", x="edges", values=(2,), base={},
                 algorithms=("random_a",), params={"random_a": {"seed": 1.5}})
    assert "expected an integer" in str(info.value)


def test_family_metrics_become_compare_columns(monkeypatch):
    import dataclasses

    from aisched import families

    hooks = dataclasses.replace(families.hooks("lora"), metrics=lambda inst, out: {
        "tasks_seen": float(inst.num_tasks), "admitted_share": float(out.admitted.mean())})
    monkeypatch.setattr(families.get("lora").tables, "hooks", hooks)
    inst = random_tiny(3, tasks=3)
    table = aisched.compare(inst, ["eft", "ntm"], offline=False)
    assert list(table.columns[-2:]) == ["tasks_seen", "admitted_share"]
    assert (table["tasks_seen"] == 3).all()
    for name in ("eft", "ntm"):
        assert table.loc[name, "admitted_share"] == pytest.approx(aisched.run(name, inst).admitted.mean())


# --- what `run` and `compare` check about a registered algorithm --------------------------------------

@pytest.fixture
def own_registry(own_algorithms):
    """A copy of the lora registry the test may register into (restored afterwards)."""
    return own_algorithms("lora")


def test_run_names_an_algorithm_that_returns_no_outcome(own_registry):
    @own_registry.register("lora", "unfinished")
    def unfinished(instance, **params): ...

    with pytest.raises(aisched.AlgorithmError, match=r"algorithm 'unfinished': returned NoneType \(None\), "
                       "not an aisched.Outcome"):
        aisched.run("unfinished", random_tiny(0))
    with pytest.raises(aisched.AlgorithmError, match="unfinished"):
        aisched.compare(random_tiny(0), ["eft", "unfinished"], offline=False)


def test_run_names_an_algorithm_whose_plan_fails(own_registry):
    import dataclasses

    @own_registry.register("lora", "liar")
    def liar(instance):
        outcome = aisched.run("eft", instance)
        return dataclasses.replace(outcome, algorithm="liar", objective=outcome.objective + 1.0)

    inst = random_tiny(5, tasks=3)
    assert aisched.run("eft", inst).objective > 0  # else +1 might still verify within rtol; it does not
    with pytest.raises(InfeasiblePlanError, match="the plan of algorithm 'liar' fails: reported"):
        aisched.run("liar", inst)


def test_registering_a_name_twice_replaces_it_with_a_warning(own_registry):
    def first(instance):
        return aisched.run("eft", instance)

    def second(instance):
        return aisched.run("ntm", instance)

    own_registry.register("lora", "mine")(first)
    with pytest.warns(aisched.AischedWarning, match="'mine' of family 'lora' was already registered"):
        own_registry.register("lora", "mine")(second)
    assert own_registry.lookup("lora", "mine") is second
    assert aisched.algorithms("lora").count("mine") == 1


def test_compare_default_runs_the_paper_algorithms_and_the_ready_ones(own_registry):
    own_registry.register("lora", "draft")(lambda instance: aisched.run("eft", instance))
    own_registry.register("lora", "mine", ready=True)(lambda instance: aisched.run("ntm", instance))
    table = aisched.compare(random_tiny(3), offline=False)
    assert list(table.index) == ["pdftsp", "titan", "eft", "ntm", "mine"]
    assert "draft" in aisched.algorithms("lora")  # registered, run when named
    assert list(aisched.compare(random_tiny(3), ["draft"], offline=False).index) == ["draft"]


def test_compare_takes_one_comma_separated_string():
    table = aisched.compare(random_tiny(3), "pdftsp, eft", offline=False)
    assert list(table.index) == ["pdftsp", "eft"]


def test_a_time_limit_given_as_a_string_says_to_pass_the_number():
    with pytest.raises(aisched.InvalidScenarioError, match=r"time_limit: .*got '60' \(a string: pass the number "
                       r"itself, time_limit=60\)"):
        aisched.offline(random_tiny(0), time_limit="60")


def test_compare_and_the_command_line_run_the_same_default_list():
    from aisched import families, registry

    for family in aisched.FAMILIES:
        assert registry.default_names(family) == list(families.cli(family).algorithms), family
    assert "titan_welfare" in aisched.algorithms("lora")  # a variant: runs when named


def test_verify_of_an_outcome_without_a_plan_is_refused():
    import math

    import xarray as xr

    from aisched.outcome import Outcome

    empty = Outcome(algorithm="offline", family="lora", objective=math.nan, plan=xr.Dataset(), status="time_limit")
    with pytest.raises(InfeasiblePlanError, match="plan: the offline outcome holds no plan to verify"):
        empty.verify(random_tiny(3))
