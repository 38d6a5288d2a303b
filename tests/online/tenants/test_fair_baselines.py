"""HiveD's cells (``hived(cells="buddy")``) and Gandiva_fair's tickets (``gandiva_fair(share="tickets")``).

By-hand placements on tiny instances, the buddy allocator's split and merge, refusals naming
the option, and the defaults unchanged (digests recorded from commit 9b52dee, before the
options existed: golden values of our own code, not of a paper).
"""

import hashlib

import numpy as np
import pytest
from conftest import need_data_file
from hypothesis import given, settings
from hypothesis import strategies as st
from tenants_tiny import brute_force, random_tiny, worked_example

import aisched
from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance, usage
from aisched.online.tenants.baselines import run_gandiva_fair, run_hived
from aisched.online.tenants.hived import Buddy, vc_cells


def _instance(*, workers, ps, quota_w, quota_p, owner, arrival, chunks, epochs, slots=16):
    J = len(owner)
    return TenantInstance(
        num_slots=slots, worker_quota=quota_w, ps_quota=quota_p, workers=workers, parameter_servers=ps,
        worker_bandwidth=1.0, ps_bandwidth=1.0, owner=owner, arrival=arrival, epochs=epochs, chunks=chunks,
        minibatches=[1] * J, compute_time=[1.0] * J, update_time=[0.0] * J, gradient_size=[0.5] * J,
        utility="linear", utility_slope=[-1.0] * J, utility_intercept=[100.0] * J,
    )


def _digest(out):
    h = hashlib.sha256()
    for k in ("start", "end", "workers", "parameter_servers"):
        h.update(np.ascontiguousarray(out.plan[k].values).astype(np.int64).tobytes())
    return h.hexdigest()[:16], round(float(out.objective), 6)


# Recorded with the code of commit 9b52dee (before `share` and `cells`), same instances.
_BEFORE = {
    ("worked", "gandiva_fair"): ("9f7c51abcdcb6212", 284.0), ("worked", "hived"): ("4cb252de0fd79ad7", 286.0),
    ("tiny0", "gandiva_fair"): ("e0c4a3598d6f95cd", 30.403898), ("tiny0", "hived"): ("a97845bd50aabbe1", 53.135878),
    ("tiny1", "gandiva_fair"): ("7fe3a5627ce05e3a", 20.830771), ("tiny1", "hived"): ("999d5c8b5ac373c1", 0.0),
    ("tiny2", "gandiva_fair"): ("7f816c2bc9da4715", 31.337662), ("tiny2", "hived"): ("0f0e56d06117efa6", 29.33741),
    ("tiny3", "gandiva_fair"): ("673ec2d17f24a8de", 23.076448), ("tiny3", "hived"): ("8cd5d1b8f3437197", 33.660814),
}


@pytest.mark.parametrize("case", ["worked", "tiny0", "tiny1", "tiny2", "tiny3"])
@pytest.mark.parametrize("name", ["gandiva_fair", "hived"])
def test_defaults_unchanged_bit_for_bit(case, name):
    inst = worked_example() if case == "worked" else random_tiny(int(case[-1]), jobs=5, servers=3, slots=8)
    explicit = {"gandiva_fair": {"share": "usage"}, "hived": {"cells": "quota"}}[name]
    assert _digest(aisched.run(name, inst)) == _BEFORE[(case, name)]
    assert _digest(aisched.run(name, inst, **explicit)) == _BEFORE[(case, name)]


def test_vc_cells_are_node_cells_then_the_binary_rest():
    assert vc_cells(57, 8) == [8] * 7 + [1]
    assert vc_cells(58, 8) == [8] * 7 + [2]
    assert vc_cells(7, 8) == [4, 2, 1]
    assert vc_cells(16, 8) == [8, 8]
    assert vc_cells(0, 8) == []


def test_buddy_splits_the_lowest_level_and_merges_back():
    b = Buddy(2, 8)
    assert b.alloc(1) == (0, 0)  # splits server 0: 1-cell (0,1), 2-cell (0,2), 4-cell (0,4) left free
    assert b.free[1] == {(0, 1)} and b.free[2] == {(0, 2)} and b.free[4] == {(0, 4)} and b.free[8] == {(1, 0)}
    assert b.alloc(2) == (0, 2)  # a free 2-cell exists: no new split
    assert b.alloc(1) == (0, 1)
    assert b.alloc(8) == (1, 0)
    assert b.alloc(4) == (0, 4)
    with pytest.raises(RuntimeError, match="safety"):
        b.alloc(1)
    for cell, size in (((0, 0), 1), ((0, 2), 2), ((1, 0), 8), ((0, 1), 1), ((0, 4), 4)):
        b.release(cell, size)
    assert b.free[8] == {(0, 0), (1, 0)} and not b.free[1] and not b.free[2] and not b.free[4]


def test_buddy_take_splits_the_free_ancestor_of_a_given_cell():
    b = Buddy(1, 8)
    b.take((0, 6), 2)
    assert b.free == {8: set(), 4: {(0, 0)}, 2: {(0, 4)}, 1: set()}
    b.release((0, 6), 2)
    assert b.free[8] == {(0, 0)}


def test_hived_cells_keep_a_tenant_off_another_vcs_server():
    """2 servers of 4 GPUs (2 PSs), VCs of 4 GPUs each; A (user 0, 1 GPU) then B (user 1, 2 GPUs) at 0.

    By hand: the default (a count cap) best-fits B on server 0, next to A (3 GPUs free there);
    with cells user 0's node cell is bound to server 0 when A starts, so B goes on user 1's
    cell, bound to server 1.
    """
    inst = _instance(workers=[4, 4], ps=[2, 2], quota_w=[4, 4], quota_p=[2, 2], owner=[0, 1], arrival=[0, 0],
                     chunks=[1, 2], epochs=[4, 4])
    default = aisched.run("hived", inst)
    cells = aisched.run("hived", inst, cells="buddy")
    assert default.plan["workers"].values.tolist() == [[1, 0], [2, 0]]
    assert cells.plan["workers"].values.tolist() == [[1, 0], [0, 2]]
    assert cells.plan["start"].values.tolist() == [0, 0]
    assert cells.verify(inst) == pytest.approx(cells.objective)
    assert cells.info["cells"] == "buddy"


def test_hived_cells_rebind_after_release():
    """One 8-GPU server split into two 4-GPU VCs: user 0's job leaves, its cell is freed and rebound."""
    inst = _instance(workers=[8], ps=[2], quota_w=[4, 4], quota_p=[1, 1], owner=[0, 1, 0], arrival=[0, 0, 1],
                     chunks=[4, 4, 4], epochs=[2, 4, 2])
    out = aisched.run("hived", inst, cells="buddy")
    out.verify(inst)
    # job 0 (2 slots) on user 0's 4-cell, job 1 (4 slots) on user 1's; job 2 waits for job 0's cell
    assert out.plan["start"].values.tolist() == [0, 0, 2]
    assert out.plan["workers"].values[:, 0].tolist() == [4, 4, 4]


def test_gandiva_tickets_serve_the_user_behind_its_share_first():
    """1 server of 4 GPUs, tickets 2 and 2; user 0's A and B at slot 0, user 1's C at slot 1; each 4 GPUs, 2 slots.

    By hand: A starts at 0 (pass_0 = 4 * 2 / 2 = 4). C joins at 1, when the global pass is
    1 * 4 / 2 = 2 (only user 0 active), so pass_1 = 2. At 2 A ends: C (pass 2) goes before B
    (pass 4). The default orders by GPUs in use now (0 and 0), then arrival: B before C.
    """
    inst = _instance(workers=[4], ps=[1], quota_w=[2, 2], quota_p=[1, 0], owner=[0, 0, 1], arrival=[0, 0, 1],
                     chunks=[4, 4, 4], epochs=[2, 2, 2])
    default = aisched.run("gandiva_fair", inst)
    tickets = aisched.run("gandiva_fair", inst, share="tickets")
    assert default.plan["start"].values.tolist() == [0, 2, 4]
    assert tickets.plan["start"].values.tolist() == [0, 4, 2]
    assert tickets.verify(inst) == pytest.approx(tickets.objective)
    assert tickets.info["share"] == "tickets"


def test_gandiva_tickets_give_an_idle_user_no_credit():
    """User 1 idle until slot 6 while user 0 ran: it joins at the global pass, not at 0."""
    from aisched.online.tenants.baselines import _gandiva_place
    from aisched.online.tenants.gandiva_fair import StrideTickets

    inst = _instance(workers=[4], ps=[1], quota_w=[2, 2], quota_p=[1, 0], owner=[0, 1], arrival=[0, 6],
                     chunks=[4, 4], epochs=[2, 2])
    pol = StrideTickets(inst, _gandiva_place)
    pending = [0]  # the calls greedy() makes: slot 0, A released and started
    pol.released(0, [0], pending)
    for j in pol.order(pending):
        pol.started(j, 0, 2, np.array([4]), np.array([1]))
        pending.remove(j)
    pol.ended(0)  # slot 2: A ends, nothing pending
    pol.released(2, [], [])
    assert list(pol.order([])) == []
    pol.released(6, [1], [1])  # slot 6: user 1 joins; nobody was active in [2, 6)
    assert pol.passes.tolist() == [4.0, 4.0]  # global pass: 2 slots * 4 GPUs / 2 tickets while user 0 ran


@pytest.mark.parametrize(("name", "field", "value"), [("hived", "cells", "bogus"), ("gandiva_fair", "share", "lottery")])
def test_bad_option_values_are_refused_naming_the_field(name, field, value):
    inst = worked_example()
    with pytest.raises(InvalidScenarioError, match=f"{field}.*{value}") as err:
        aisched.run(name, inst, **{field: value})
    assert err.value.field == field
    direct = {"hived": run_hived, "gandiva_fair": run_gandiva_fair}[name]
    with pytest.raises(InvalidScenarioError, match=value):
        direct(inst, **{field: value})


def test_buddy_cells_refuse_servers_of_mixed_sizes():
    inst = _instance(workers=[4, 2], ps=[1, 1], quota_w=[3, 3], quota_p=[1, 1], owner=[0], arrival=[0], chunks=[1],
                     epochs=[1])
    with pytest.raises(InvalidScenarioError, match="cells.*power-of-two") as err:
        aisched.run("hived", inst, cells="buddy")
    assert err.value.field == "cells"


def _uniform_tiny(seed: int) -> TenantInstance:
    inst = random_tiny(seed, jobs=4, servers=2, slots=6)
    size = 2
    quota = int(np.random.default_rng(seed).integers(0, 2 * size + 1))
    return inst.replace(workers=[size, size], worker_quota=[quota, 2 * size - quota])


@pytest.mark.parametrize("seed", range(8))
def test_new_readings_are_feasible_and_at_most_the_optimum(seed):
    inst = _uniform_tiny(seed)
    for name, kw in (("hived", {"cells": "buddy"}), ("gandiva_fair", {"share": "tickets"})):
        out = aisched.run(name, inst, **kw)
        assert out.verify(inst) == pytest.approx(out.objective)
        assert out.objective <= brute_force(inst) + 1e-9


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), quota=st.integers(0, 16))
def test_hived_cells_keep_each_vc_within_its_quota_and_its_cells(seed, quota):
    rng = np.random.default_rng(seed)
    J = 8
    inst = _instance(workers=[8, 8], ps=[2, 2], quota_w=[quota, 16 - quota], quota_p=[2, 2],
                     owner=rng.integers(0, 2, J), arrival=rng.integers(0, 4, J), chunks=rng.integers(1, 10, J),
                     epochs=rng.integers(1, 4, J), slots=40)
    out = aisched.run("hived", inst, cells="buddy")
    out.verify(inst)
    for u in range(2):
        w, _ = usage(inst, out.plan, inst.owner == u)
        assert (w.sum(axis=0) <= inst.worker_quota[u]).all()
        # a VC's GPUs on one server never exceed the cells it can hold there (node cells of 8)
        assert (w <= 8).all()


@pytest.fixture(scope="module")
def mid():
    need_data_file("philly_pollux_2017-10-09.csv")  # skip, not fail, without the data
    from aisched.scenarios import tenants as sc
    return sc.generate(seed=3, users=4, servers=10, jobs=30, slot_hours=12.0)


def test_generated_instance_runs_under_both_readings(mid):
    for name, kw in (("hived", {"cells": "buddy"}), ("gandiva_fair", {"share": "tickets"})):
        out = aisched.run(name, mid, **kw)
        assert out.verify(mid) == pytest.approx(out.objective)
        assert out.num_admitted > 0


def test_cli_share_and_cells_reach_gandiva_fair_and_hived(tmp_path):
    from aisched.cli import main
    from aisched.scenarios import tenants as sc

    code = main(["compare", "tenants", "--users", "2", "--servers", "2", "--jobs", "4", "--trace", "synthetic",
                 "--share", "tickets", "--cells", "buddy", "--algorithms", "gandiva_fair,hived",
                 "--no-offline", "--no-figures", "--out", str(tmp_path)])
    assert code == 0
    inst = sc.generate(seed=0, users=2, servers=2, jobs=4, trace=None, slot_hours="auto")
    for name, params in (("gandiva_fair", {"share": "tickets"}), ("hived", {"cells": "buddy"})):
        back = aisched.Outcome.from_netcdf(tmp_path / f"tenants_{name}.nc")
        assert back.objective == pytest.approx(aisched.run(name, inst, **params).objective), name


def test_cli_cells_without_hived_exits_2_naming_it(capsys):
    from aisched.cli import main

    code = main(["compare", "tenants", "--no-offline", "--no-figures", "--cells", "buddy", "--algorithms", "astraea"])
    assert code == 2
    err = capsys.readouterr().err
    assert "--cells" in err and err.count("\n") == 1
