"""The worked example of sections 4.2-4.4 (golden values: the paper's own numbers).

2 users (4 workers, 2 PSs each), 4 servers of 2 workers and 1 PS, jobs
j11, j21, j12, j22 arriving at 3, ``lambda = 2``, ``theta_w = theta_p = 16``.
Batch ``J_2`` runs in the paper's (8, 16], i.e. 0-based slots 8..15, rounds
8..11 and 12..15.

Where the paper disagrees with itself (checked below):

- It says j12 does not fit its owner's remaining fair share and is shared.
  By its own rules j12 fits: u1 still has 2 workers and 1 PS while j11 runs,
  and 2 workers centralised finish j12 in 3 slots (``E D M / (n w) = 6 / 2``),
  so Algorithm 2 line 3 admits it within u1's share (mu = 94 - 9 = 85).
- Section 4.2 says u2 "gains 6" from sharing j12; section 4.3's line-6
  computation of Eq. (2) for the same allocation gives 8, which Eq. (2) confirms.
- j21 lands on server s1 (the fragmented one: best fit, lowest index) where the
  paper writes s2; MINCOSTC allows "any" qualified server, revenue is the same.
"""

import numpy as np
import pytest
from tenants_tiny import worked_example

from aisched.online.tenants import astraea
from aisched.online.tenants.astraea import income_division, job_spec
from aisched.online.tenants.astraea.kernel import RoundState, best_schedule
from aisched.online.tenants.astraea.reference import mincost_c, mincost_d


@pytest.fixture(scope="module")
def outcome():
    inst = worked_example()
    return inst, astraea.run(inst, lam=2, theta_w=16.0, theta_p=16.0)


def test_j11_centralised_on_one_server_with_utility_96(outcome):
    inst, out = outcome
    plan = out.plan
    assert out.verify(inst) == pytest.approx(out.objective)
    assert bool(plan["admitted"][0]) and bool(plan["centralized"][0])
    assert (int(plan["start"][0]), int(plan["end"][0])) == (8, 9)  # the paper's (8, 10]
    assert plan["workers"].values[0].tolist() == [2, 0, 0, 0]
    assert plan["parameter_servers"].values[0].tolist() == [1, 0, 0, 0]
    assert float(plan["mu"][0]) == pytest.approx(96.0)  # golden: -2 * 2 + 100


def test_j11_distributed_alternative_is_92_and_loses():
    inst = worked_example()
    state = RoundState(inst.workers, inst.parameter_servers, inst.worker_quota, inst.ps_quota, 4, 16.0, 16.0)
    spec = job_spec(inst, 0, 0)
    # {t- = 9, D_w = 2}: distributed 4 slots, cost 0, ideal revenue -2 * 4 + 100 = 92 (golden)
    assert mincost_d(state, spec, True, 1.0, 0, 2) == 0.0
    assert float(spec.utility(np.array(4))) == pytest.approx(92.0)
    assert mincost_c(state, spec, True, 0, 2) == 0.0
    # {t- = 9, D_w = 1} distributed needs 8 slots > the round's 4: infeasible
    assert mincost_d(state, spec, True, 1.0, 0, 1) == np.inf
    best = best_schedule(state, spec, True, 1.0)
    assert best is not None and best.centralized and best.mu == pytest.approx(96.0)


def test_first_price_is_one():
    inst = worked_example()
    state = RoundState(inst.workers, inst.parameter_servers, inst.worker_quota, inst.ps_quota, 4, 16.0, 16.0)
    assert np.allclose(state.eta_w, 0.0) and np.allclose(state.eta_p, 0.0)
    best = best_schedule(state, job_spec(inst, 0, 0), True, 1.0)
    state.commit(0, best.start, best.duration, best.workers, best.parameter_servers)
    # golden: eta_w(2) = 16^(2/8) - 1 = 1, eta_p(1) = 16^(1/4) - 1 = 1 on (8, 10]
    assert state.eta_w[:2] == pytest.approx([1.0, 1.0])
    assert state.eta_p[:2] == pytest.approx([1.0, 1.0])
    assert state.eta_w[2:] == pytest.approx([0.0, 0.0])


def test_j21_at_10_12_with_mu_92(outcome):
    _, out = outcome
    plan = out.plan
    assert (int(plan["start"][1]), int(plan["end"][1])) == (10, 11)  # the paper's (10, 12]
    assert float(plan["mu"][1]) == pytest.approx(92.0)  # golden: -2 * 4 + 100, cost 0
    assert not bool(plan["shared"][1])


def test_j22_is_postponed_and_never_fits(outcome):
    _, out = outcome
    assert not bool(out.plan["admitted"][3])
    assert int(out.plan["batch"][3]) == -1


def test_j12_fits_its_owners_share_contrary_to_the_paper(outcome):
    _, out = outcome
    plan = out.plan
    assert bool(plan["admitted"][2]) and not bool(plan["shared"][2])
    assert (int(plan["start"][2]), int(plan["end"][2])) == (8, 10)
    assert bool(plan["centralized"][2])
    assert float(plan["mu"][2]) == pytest.approx(94.0 - 9.0)  # prices 1 on slots 8-10: 3 x (2 + 1)


def test_paper_sharing_of_j12_income_is_8_not_6():
    # the paper's allocation of j12 in (8, 12]: 3 workers, 1 PS at prices 1 -> cost 12 + 4 = 16 (golden)
    unused_w = np.array([[2, 2, 4, 4], [4, 4, 2, 2]])  # u1 runs j11 on (8,10], u2 runs j21 on (10,12]
    unused_p = np.array([[1, 1, 2, 2], [2, 2, 1, 1]])
    cost_w = np.full(4, 3.0)
    cost_p = np.full(4, 1.0)
    income = income_division(unused_w, unused_p, cost_w, cost_p)
    assert income.sum() == pytest.approx(16.0)
    assert income[1] == pytest.approx(8.0)  # golden: section 4.3's line-6 number (section 4.2 says 6)
    assert income[0] == pytest.approx(8.0)  # u1 pays itself for its own lent resources


def test_example_revenue_counts_completion_from_arrival(outcome):
    inst, out = outcome
    # real utilities f(t+ - r): j11 ends 10 -> 86, j21 ends 12 -> 82, j12 ends 11 -> 84
    assert out.objective == pytest.approx(86.0 + 82.0 + 84.0)
