"""Scenarios of the `tenants` family: section 5.1's settings, Philly data, CLI `compare tenants`."""

import numpy as np
import pytest

import aisched
from aisched.cli import main
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.scenarios import tenants as sc

DAY = data_file(sc.TRACES["day"], required=False)  # $AISCHED_DATA, the user cache, ../shared/data


def _need_data():
    if DAY is None:
        pytest.skip(f"Philly extract {sc.TRACES['day']} absent from every data folder")


def test_generate_is_seeded_and_follows_section_5_1():
    _need_data()
    a = sc.generate(seed=4, users=14, servers=100, jobs=200)
    b = sc.generate(seed=4, users=14, servers=100, jobs=200)
    assert a == b
    assert a != sc.generate(seed=5, users=14, servers=100, jobs=200)
    assert a.worker_quota.sum() == 800 and a.ps_quota.sum() == 100
    assert (a.workers == 8).all() and (a.parameter_servers == 1).all()
    assert a.epochs.min() >= 50 and a.epochs.max() <= 100
    assert a.chunks.min() >= 20 and a.chunks.max() <= 50
    assert a.minibatches.min() >= 10 and a.minibatches.max() <= 50
    assert a.compute_time.min() >= 0.001 and a.compute_time.max() <= 0.05  # hours = slots
    assert 100 * 3600 <= a.worker_bandwidth <= 5120 * 3600  # Mb per one-hour slot
    assert -2.0 <= a.utility_slope.min() and a.utility_slope.max() <= -0.1
    assert a.num_users == 14 and a.owner.max() < 14


def test_quotas_follow_the_trace_demand():
    _need_data()
    inst = sc.generate(seed=0, users=4, servers=20, jobs=300)
    frame = sc.load_philly(DAY)
    assert inst.arrival.max() < 30  # 300 consecutive jobs of one day, one-hour slots
    assert len(frame) == 1352
    demand = np.bincount(inst.owner, minlength=4)
    busiest = int(np.argmax(demand))
    assert inst.worker_quota[busiest] == inst.worker_quota.max()


def test_convex_and_synthetic():
    inst = sc.generate(seed=1, users=3, servers=4, jobs=10, utility="convex", trace=None, arrival_span=5)
    assert inst.utility == "convex" and inst.arrival.max() < 5
    assert (inst.utility_exponent >= 1).all() and (inst.utility_exponent <= 2).all()
    out = aisched.run("astraea", inst)
    out.verify(inst)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"users": 0}, "users"), ({"servers": 1.5}, "servers"), ({"utility": "log"}, "utility"),
     ({"slot_hours": -1.0}, "slot_hours"), ({"jobs": 10**6}, "jobs"), ({"trace": "/nonexistent.csv"}, "trace"),
     ({"slots": 0}, "slots")],
)
def test_bad_parameters(kwargs, field):
    with pytest.raises(InvalidScenarioError) as err:
        sc.generate(**{"seed": 0, "users": 2, "servers": 3, "jobs": 4, **kwargs})
    assert err.value.field == field


def test_default_scenario_is_small_and_its_optimum_is_proven():
    _need_data()
    inst = sc.default_instance()
    assert (inst.num_users, inst.num_servers, inst.num_jobs) == (2, 5, 8)
    table = aisched.compare(inst, list(sc.CLI_ALGORITHMS), time_limit=60)
    assert table.loc["offline", "status"] == "optimal"
    assert (table["ratio"].drop("offline") <= 1 + 1e-9).all()


def test_cli_compare_tenants(tmp_path, capsys):
    code = main([
        "compare", "tenants", "--users", "2", "--servers", "3", "--jobs", "4", "--trace", "synthetic",
        "--slot-hours", "48", "--seed", "1", "--out", str(tmp_path),
    ])
    assert code == 0
    text = capsys.readouterr().out
    for name in ("offline", *sc.CLI_ALGORITHMS):
        assert name in text
        assert (tmp_path / f"tenants_{name}.nc").is_file()
    assert "offline optimum proven" in text
    assert (tmp_path / "tenants_alpha.png").stat().st_size > 1000
    back = aisched.Outcome.from_netcdf(tmp_path / "tenants_astraea.nc")
    assert "income" in back.plan and "worker_price" in back.prices


def test_cli_bad_option_is_one_line(capsys):
    assert main(["compare", "tenants", "--users", "0", "--no-offline"]) == 2
    assert "users" in capsys.readouterr().err


@pytest.mark.parametrize("trace", ["day", None])
def test_zero_jobs_give_an_empty_instance_every_algorithm_handles(trace):
    """``generate(jobs=0)`` raised IndexError; now every algorithm returns an empty plan."""
    if trace:
        _need_data()
    inst = sc.generate(seed=0, users=3, servers=4, jobs=0, trace=trace)
    assert inst.num_jobs == 0 and inst.num_users == 3
    table = aisched.compare(inst, list(sc.CLI_ALGORITHMS))
    assert table.loc["offline", "status"] == "optimal"
    assert (table["objective"] == 0.0).all() and (table["admitted"] == 0).all()
    for name in sc.CLI_ALGORITHMS:
        out = aisched.run(name, inst)
        assert out.verify(inst) == 0.0 and out.plan.sizes["job"] == 0


def test_cli_compare_tenants_zero_jobs(tmp_path, capsys):
    _need_data()
    assert main(["compare", "tenants", "--jobs", "0", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "0 jobs" in text and "offline optimum proven" in text
    assert main(["compare", "tenants", "--jobs", "-1", "--no-offline", "--out", str(tmp_path)]) == 2
    assert "jobs" in capsys.readouterr().err


def test_slots_are_one_hour_above_15_jobs_and_48_hours_at_or_below_by_default():
    """Section 5.1's "one time slot to one hour long"; the default
    ``slot_hours="auto"`` (as the CLI's) keeps a small instance's MILP small with 48-hour slots."""
    _need_data()
    small = dict(seed=0, users=2, servers=5, jobs=8)
    assert sc.generate(**small) == sc.generate(**small, slot_hours=48.0)
    assert sc.generate(**small, slot_hours="auto") == sc.generate(**small, slot_hours=48.0)
    assert sc.generate(**small, slot_hours=1.0).num_slots > sc.generate(**small).num_slots
    assert sc.generate(seed=0, users=2, servers=5, jobs=20, slot_hours="auto") == \
        sc.generate(seed=0, users=2, servers=5, jobs=20)
    with pytest.raises(InvalidScenarioError) as err:
        sc.generate(**small, slot_hours="day")
    assert err.value.field == "slot_hours"
    with pytest.raises(InvalidScenarioError) as err:
        sc.generate(**small, horizon="long")
    assert err.value.field == "horizon"


@pytest.mark.parametrize("seed", range(3))
def test_finishable_horizon_lets_every_job_fit_a_round_of_the_last_batch(seed):
    """The horizon ``4 * 2^L`` with ``2^L`` >= every arrival + 1 and fastest feasible run."""
    _need_data()
    inst = sc.generate(seed=seed, users=14, servers=20, jobs=60)
    last_round = inst.num_slots // 4  # batch L runs 2^(L+1) .. 2^(L+2) - 1 in rounds of 2^L (lambda = 2)
    assert inst.num_slots == 4 * last_round and last_round & (last_round - 1) == 0
    assert (inst.fastest_run() <= last_round).all() and (inst.arrival < last_round).all()
    assert sc.finishable_horizon(inst) == inst.num_slots
    # minimal: half the horizon would leave a job out
    assert (inst.fastest_run() > last_round // 2).any() or (inst.arrival >= last_round // 2).any() \
        or last_round == 2
    old = sc.generate(seed=seed, users=14, servers=20, jobs=60, horizon="ignore_bandwidth")
    assert old.replace(num_slots=inst.num_slots) == inst and old.num_slots <= inst.num_slots


def test_old_horizon_leaves_jobs_out_that_the_new_one_considers():
    """At paper scale (seed 0) the horizon that ignores (3i) ends before some jobs' fastest run fits a round."""
    _need_data()
    old = sc.generate(seed=0, users=14, servers=100, jobs=200, horizon="ignore_bandwidth")
    new = sc.generate(seed=0, users=14, servers=100, jobs=200)
    assert (old.fastest_run() > old.num_slots // 4).any()
    assert (new.fastest_run() <= new.num_slots // 4).all()


def test_negative_seed_is_named() -> None:
    with pytest.raises(InvalidScenarioError, match=r"^seed: = -1 must be an integer >= 0"):
        sc.generate(seed=-1)


def test_cli_algorithm_options_reach_the_algorithms(tmp_path, capsys):
    """The readings' options on ``aisched compare tenants`` (T1-T3)."""
    code = main([
        "compare", "tenants", "--users", "2", "--servers", "2", "--jobs", "4", "--trace", "synthetic",
        "--slot-hours", "auto", "--horizon", "ignore_bandwidth", "--admission", "ideal", "--cluster", "quota",
        "--release", "batch", "--lam", "1", "--no-offline", "--no-figures", "--out", str(tmp_path),
    ])
    assert code == 0
    assert "slots of 48 h" in capsys.readouterr().out
    astraea_out = aisched.Outcome.from_netcdf(tmp_path / "tenants_astraea.nc")
    assert astraea_out.info["admission"] == "ideal" and astraea_out.info["lam"] == 1
    inst = sc.generate(seed=0, users=2, servers=2, jobs=4, trace=None, slot_hours="auto",
                       horizon="ignore_bandwidth")
    for name, params in (("batchsche", {"cluster": "quota", "admission": "ideal", "lam": 1}),
                         ("gandiva_fair", {"release": "batch", "lam": 1}), ("hived", {"release": "batch", "lam": 1})):
        back = aisched.Outcome.from_netcdf(tmp_path / f"tenants_{name}.nc")
        assert back.objective == pytest.approx(aisched.run(name, inst, **params).objective), name


@pytest.mark.parametrize("argv, option", [
    (["--admission", "maybe"], "--admission"),
    (["--slot-hours", "long"], "--slot-hours"),
    (["--lam", "x"], "--lam"),
    (["--lam", "0"], "--lam"),
    (["--theta-scale", "-1"], "--theta-scale"),
    (["--horizon", "forever"], "--horizon"),
    (["--release", "batch", "--algorithms", "astraea"], "--release"),
])
def test_cli_bad_algorithm_option_exits_2_naming_it(argv, option, capsys):
    try:
        code = main(["compare", "tenants", "--no-offline", "--no-figures", *argv])
    except SystemExit as exc:  # argparse's own checks (choices, types)
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert option in err and err.count("\n") == 1


def test_new_claim_kinds_on_a_hand_made_summary():
    """Claim kinds added for tenants Figs. 5-6 and Table 2: decreasing, gentler_decline, spread_at_most."""
    from dataclasses import replace

    import pandas as pd

    from aisched.experiments.pages import report
    from aisched.experiments.spec.scenario import Claim
    from aisched.experiments.store.stored import StoredScenario

    summary = pd.DataFrame({
        "point": [0, 0, 1, 1, 2, 2], "x": ["5", "5", "10", "10", "15", "15"], "algorithm": ["us", "them"] * 3,
        "mean": [1.0, 1.0, 0.8, 0.9, 0.85, 0.5], "std": [0.0] * 6, "count": [1] * 6,
    })
    claims = [Claim("decreasing", "", "us"), Claim("decreasing", "", "them"),
              Claim("gentler_decline", "", "us", baseline="them", point="5", other_point="15"),
              Claim("gentler_decline", "", "them", baseline="us", point="5", other_point="15"),
              Claim("spread_at_most", "", "us", value=1.3), Claim("spread_at_most", "", "them", value=1.3)]
    definition = StoredScenario(name="tenants/t", family="tenants", x="jobs", values=(5, 10, 15), metric="ratio",
                                claims=claims)
    checks = report.check_claims(definition, summary)
    assert [c.holds for c in checks] == [False, True, True, False, True, False]
    assert checks[2].measured == pytest.approx(0.15 - 0.5)
    assert checks[4].measured == pytest.approx(1.0 / 0.8)
    # lower is better: a fall is a gain, so the larger fall (them) is the gentler "decline"
    lower = report.check_claims(replace(definition, metric="makespan"), summary)
    assert lower[2].holds is False and lower[3].holds is True
    # a mean <= 0 leaves max / min undefined: not checked
    bad = summary.assign(mean=[0.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    assert report.check_claims(replace(definition, claims=(claims[4],)), bad)[0].holds is None


@pytest.mark.parametrize("claim, field", [
    ({"kind": "gentler_decline", "algorithm": "astraea", "baseline": "hived", "point": "200"}, "claims[0]"),
    ({"kind": "gentler_decline", "algorithm": "astraea", "point": "200", "other_point": "200"}, "claims[0].baseline"),
    ({"kind": "spread_at_most", "algorithm": "astraea"}, "claims[0].value"),
])
def test_new_claim_kinds_are_validated(claim, field):
    from aisched.experiments.spec.scenario import Claim, Scenario

    with pytest.raises(InvalidScenarioError) as err:
        Scenario(name="tenants/t", family="tenants", title="t", x="jobs", values=(200,), base={},
                 algorithms=("astraea", "hived"), claims=(Claim(text="", **claim),))
    assert err.value.field == field


def test_cell_metrics_of_fig13_and_table2():
    """gpu_util_peak, makespan and revenue_per_job from a plan, checked against the plan by hand."""
    _need_data()
    inst = sc.generate(seed=0, users=2, servers=2, jobs=20)
    for name in sc.CLI_ALGORITHMS:
        out = aisched.run(name, inst)
        m = sc.cell_metrics(inst, out)
        adm = np.nonzero(out.admitted)[0]
        busy = np.zeros(inst.num_slots)
        for j in adm:
            busy[int(out.plan["start"][j]): int(out.plan["end"][j]) + 1] += int(out.plan["workers"][j].sum())
        assert m["gpu_util_peak"] == pytest.approx(busy.max() / inst.total_workers) and m["gpu_util_peak"] <= 1.0
        assert m["makespan"] == int(out.plan["end"].values[adm].max()) + 1
        assert m["revenue_per_job"] == pytest.approx(out.objective / adm.size)


def test_reduced_forms_bind_capacity_at_their_high_load_point():
    """At the last point of the reduced Fig. 4a / Fig. 13 every GPU is busy in some slot."""
    _need_data()
    from aisched.experiments.spec import catalog

    for name in ("tenants/fig4a-jobs-linear", "tenants/fig13-utilisation"):
        s = catalog.get(name).reduced()
        inst = sc.generate(seed=0, **s.point_params(len(s.values) - 1))
        out = aisched.run("gandiva_fair", inst)
        assert sc.cell_metrics(inst, out)["gpu_util_peak"] == 1.0, name
        started = out.plan["start"].values[out.admitted]
        assert (started > inst.arrival[out.admitted]).any()  # and some job waits for room (all start)


def test_utilisation_figure_of_a_reduced_sweep(tmp_path):
    _need_data()
    from aisched.experiments.run import sweep
    from aisched.experiments.spec import catalog
    from aisched.experiments.store.stored import StoredScenario

    s = catalog.get("tenants/fig13-utilisation").reduced()
    sweep.sweep(s, tmp_path, executor="serial", progress=False)
    root = sweep.folder(tmp_path, s)
    assert StoredScenario.read(root) == StoredScenario.of(s)
    png = sc.utilisation_figure(root, StoredScenario.read(root), None)
    assert png is not None and png.stat().st_size > 1000
