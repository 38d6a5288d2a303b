"""Problem (3): the MILP equals brute force; verify_plan rejects each broken constraint."""

import numpy as np
import pytest
from conftest import need_data_file
from tenants_tiny import brute_force, random_tiny, worked_example

import aisched
from aisched.errors import InfeasiblePlanError
from aisched.models.tenants import build, empty_plan, make_plan, verify_plan


@pytest.mark.parametrize("seed", range(6))
def test_milp_equals_brute_force(seed):
    inst = random_tiny(seed, utility="linear" if seed % 2 == 0 else "convex")
    out = aisched.offline(inst)
    assert out.status == "optimal"
    assert out.objective == pytest.approx(brute_force(inst), rel=1e-7, abs=1e-7)
    assert out.verify(inst) == pytest.approx(out.objective)


def test_worked_example_optimum_and_components():
    inst = worked_example(num_slots=16)
    m = build(inst)
    for name in ("revenue", "capacity_workers", "capacity_ps", "bandwidth", "quota_sharing_workers",
                 "quota_sharing_ps", "centralized_workers", "one_ps", "cluster_ps"):
        assert hasattr(m, name)
    out = aisched.offline(inst)
    # j11, j21, j12 all start at arrival 3 on separate servers (2 + 2 + 3 slots); j22 cannot run
    # (D = 30 needs more bandwidth than one PS per server can give): 96 + 96 + 94 = 286
    assert out.status == "optimal"
    assert out.objective == pytest.approx(286.0)
    assert not out.admitted[3]


def test_time_limit_returns_status_not_exception():
    from aisched.scenarios import tenants as sc

    need_data_file("philly_pollux_2017-10-09.csv")  # skip, not fail, without the data
    inst = sc.generate(seed=2, users=2, servers=5, jobs=8, slot_hours=48.0)
    out = aisched.offline(inst, time_limit=0.5)
    assert out.status in ("time_limit", "optimal")
    assert out.bound >= (out.objective if np.isfinite(out.objective) else 0.0) - 1e-6


def _good_plan():
    inst = worked_example(num_slots=16)
    J, S = inst.num_jobs, inst.num_servers
    y = np.zeros((J, S), int)
    z = np.zeros((J, S), int)
    y[0, 0], z[0, 0] = 2, 1  # j11 centralised on s1, slots 3-4
    y[2, 1], z[2, 1], y[2, 2] = 1, 1, 1  # j12 distributed over s2, s3: 2 workers at 0.5 -> 6 slots
    start = np.array([3, -1, 3, -1])
    end = np.array([4, -1, 8, -1])
    adm = np.array([True, False, True, False])
    return inst, start, end, y, z, adm


def test_good_plan_revenue():
    inst, start, end, y, z, adm = _good_plan()
    plan = make_plan(inst, start, end, y, z, adm)
    assert verify_plan(inst, plan) == pytest.approx(96.0 + (-2 * 6 + 100))
    assert bool(plan["centralized"][0]) and not bool(plan["centralized"][2])
    assert verify_plan(inst, empty_plan(inst)) == 0.0


@pytest.mark.parametrize(
    ("edit", "constraint"),
    [
        (lambda s, e, y, z, a: s.__setitem__(0, 2), "(3l) start_after_arrival"),
        (lambda s, e, y, z, a: e.__setitem__(2, 7), "(3k) minibatches"),
        (lambda s, e, y, z, a: e.__setitem__(2, 16), "(3m) completion"),
        (lambda s, e, y, z, a: z.__setitem__((2, 1), 0), "(3g) one_ps"),
        (lambda s, e, y, z, a: y.__setitem__((2, 3), 1), "(3i) bandwidth"),
        (lambda s, e, y, z, a: y.__setitem__((0, 0), 3), "(3e) chunks"),
        (lambda s, e, y, z, a: (y.__setitem__((2, 0), 1), y.__setitem__((2, 2), 0)), "(3c) capacity_workers"),
        (lambda s, e, y, z, a: (z.__setitem__((2, 1), 0), z.__setitem__((2, 0), 2)), "(3d) capacity_ps"),
        (lambda s, e, y, z, a: y.__setitem__((1, 0), 1), "(3l) idle_if_rejected"),
    ],
)
def test_verify_rejects_each_violation(edit, constraint):
    inst, start, end, y, z, adm = _good_plan()
    edit(start, end, y, z, adm)
    with pytest.raises(InfeasiblePlanError) as err:
        verify_plan(inst, make_plan(inst, start, end, y, z, adm))
    assert err.value.constraint == constraint


def test_verify_checks_centralized_flag_and_accounting():
    inst, start, end, y, z, adm = _good_plan()
    plan = make_plan(inst, start, end, y, z, adm)
    plan["centralized"][2] = True
    with pytest.raises(InfeasiblePlanError, match=r"\(3j\)"):
        verify_plan(inst, plan)
    income = np.zeros((2, 4))
    income[1, 2] = 5.0
    shared = np.array([False, False, True, False])
    bad = make_plan(inst, start, end, y, z, adm, shared=shared, worker_cost=np.array([0, 0, 4.0, 0]),
                    ps_cost=np.zeros(4), income=income)
    with pytest.raises(InfeasiblePlanError, match="income_division"):
        verify_plan(inst, bad)
    income[1, 2] = 4.0
    ok = make_plan(inst, start, end, y, z, adm, shared=shared, worker_cost=np.array([0, 0, 4.0, 0]),
                   ps_cost=np.zeros(4), income=income)
    assert verify_plan(inst, ok) == pytest.approx(96.0 + 88.0)


def test_verify_checks_fair_share_quota_of_unshared_jobs():
    inst, start, end, y, z, adm = _good_plan()
    inst = inst.replace(owner=[0, 1, 0, 1], worker_quota=[2, 6], ps_quota=[1, 3])
    plan = make_plan(inst, start, end, y, z, adm, shared=np.zeros(4, bool))
    with pytest.raises(InfeasiblePlanError, match="fair_share_workers"):
        verify_plan(inst, plan)
    plan = make_plan(inst, start, end, y, z, adm, shared=np.array([False, False, True, False]))
    assert verify_plan(inst, plan) == pytest.approx(184.0)


def test_offline_with_no_jobs_is_optimal_with_zero():
    """Zero jobs used to give status "error" and NaN; the empty plan is optimal."""
    inst = random_tiny(1).replace(
        **{k: [] for k in ("owner", "arrival", "epochs", "chunks", "minibatches", "compute_time",
                           "update_time", "gradient_size", "utility_slope", "utility_intercept",
                           "utility_scale", "utility_exponent")})
    out = aisched.offline(inst)
    assert (out.status, out.objective, out.bound) == ("optimal", 0.0, 0.0)
    assert out.verify(inst) == 0.0 and out.admitted.shape == (0,)
