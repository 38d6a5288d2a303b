"""ComDOS's jit DP (Algorithm 2) against the plain NumPy transcription, options, and no recompiles."""

from __future__ import annotations

import numpy as np
import pytest
from genai_tiny import make_instance, random_tiny

from aisched.online.genai import comdos
from aisched.online.genai.comdos import kernel
from aisched.online.genai.comdos import reference as ref
from aisched.scenarios import genai

O_PAD = 8  # fixed option padding for the tiny jobs: one compiled variant
CHUNK = 16


def larger_instance():
    """Generator DAGs (2-5 tasks, joins and forks), 3 edges, 3 candidate models, 14 slots."""
    return genai.generate(seed=5, edges=3, slots=14, jobs=8, dag_source="generator", capacity=20.0)


def padded(opt_edge, opt_choice, size):
    n, J = opt_edge.shape
    e = np.full((size, J), -1, np.int32)
    c = np.full((size, J), -1, np.int32)
    e[:n], c[:n] = opt_edge, opt_choice
    return e, c, np.arange(size) < n


def compare_job(inst, i, price, room, pad, max_parents):
    job, order, oe, oc = comdos.job_data(inst, i, inst.cost_weight, max_parents)
    e, c, ok = padded(oe, oc, pad)
    res = kernel.evaluate_chunk(job, price, room, e, c, ok)
    profits, tables, options, order_ref = ref.algorithm2(inst, i, price, room=None if np.isinf(room).all() else room)
    assert order == order_ref
    assert len(options) == oe.shape[0]
    np.testing.assert_allclose(res.profit[: len(options)], profits, rtol=1e-12, atol=1e-12)
    assert np.all(res.profit[len(options):] == -np.inf)
    best = int(np.argmax(profits))
    assert res.best == best
    for p, j in enumerate(order):
        np.testing.assert_allclose(res.table[p][:, : inst.max_choices], tables[best][j], rtol=1e-12, atol=1e-12)
    return res, order, tables[best]


@pytest.mark.parametrize("seed", range(8))
def test_kernel_equals_numpy_transcription_on_tiny_jobs(seed):
    inst = random_tiny(seed)
    rng = np.random.default_rng(100 + seed)
    for i in range(inst.num_jobs):
        price = rng.exponential(0.5, (inst.num_edges, inst.num_slots)) * (rng.random() < 0.8)
        room = np.full_like(price, np.inf) if seed % 2 else rng.uniform(0, 6, price.shape)
        compare_job(inst, i, price, room, O_PAD, 2)


def test_kernel_equals_numpy_on_larger_random_jobs():
    inst = larger_instance()
    parents = comdos.ComdosState(inst).max_parents
    rng = np.random.default_rng(0)
    checked_multi = 0
    for i in range(inst.num_jobs):
        price = rng.exponential(0.05, (inst.num_edges, inst.num_slots))
        _, _, oe, _ = comdos.job_data(inst, i, inst.cost_weight, parents)
        if oe.shape[0] > CHUNK:
            continue  # the NumPy loops are slow; chunking is covered by the next tests
        compare_job(inst, i, price, np.full_like(price, np.inf), 1 if oe.shape[0] == 1 else CHUNK, parents)
        checked_multi += oe.shape[0] > 1
    assert checked_multi >= 1  # at least one job had a task with several children


def test_backtrack_gives_feasible_schedule_and_exact_value():
    inst = larger_instance()
    state = comdos.ComdosState(inst, chunk=CHUNK)
    state.price = np.random.default_rng(1).exponential(0.05, state.price.shape)
    for i in range(inst.num_jobs):
        d = state.decide(i)
        if d.option < 0:
            continue
        f = inst.runtime[i, np.arange(inst.num_tasks[i]), np.argmax(
            inst.candidate_model[i, : inst.num_tasks[i]] == d.model[:, None], axis=1)]
        src, dst, _ = inst.dag_edges(i)
        assert np.all(d.start[dst] >= d.start[src] + f[src])  # (5e)
        assert np.all(d.start >= inst.arrival[i]) and np.all(d.start + f - 1 <= inst.deadline[i])  # (5d)
        assert d.mu == pytest.approx(d.profit - float(np.sum(d.usage * state.price)))  # (8)


def fig3_instance():
    """Fig. 3's job (tasks 1-4 stored as 0-3), two edges."""
    job = {"arrival": 0, "deadline": 19, "revenue": 50.0, "edges": [(0, 1), (0, 2), (1, 3), (2, 3)],
           "data": [1.0, 1.0, 1.0, 1.0], "models": [[0, 1], [2], [3, 4, 5], [6, 7]],
           "runtime": [[4, 6], [3], [6, 7, 8], [3, 5]], "compute": [[1, 1], [1], [1, 1, 1], [1, 1]]}
    return make_instance(slots=20, capacity=[10.0, 10.0], model_size=[1.0] * 8, jobs=[job])


def test_fig3_order_and_options_in_the_kernel_arrays():
    inst = fig3_instance()
    job, order, oe, oc = comdos.job_data(inst, 0, inst.cost_weight, 2)
    assert order == [0, 2, 1, 3]  # tasks 1, 3, 2, 4 of Fig. 3
    assert oe.shape == (4, 4) and oe[:, 0].tolist() == [0, 0, 1, 1] and oc[:, 0].tolist() == [0, 1, 0, 1]
    assert np.all(oe[:, 1:] == -1)
    # R of task 1 (position 0) is its child first in S: task 3 (position 1)
    assert job.parent[1].tolist() == [0, -1] and job.parent_is_r[1, 0]
    assert job.parent[2].tolist() == [0, -1] and not job.parent_is_r[2, 0]
    price = np.random.default_rng(0).exponential(0.2, (2, 20))
    compare_job(inst, 0, price, np.full((2, 20), np.inf), O_PAD, 2)


def test_no_recompile_across_jobs():
    inst = larger_instance()
    state = comdos.ComdosState(inst, chunk=CHUNK)
    before = kernel.cache_size()
    for i in range(inst.num_jobs):
        state.step(i)
    first_pass = kernel.cache_size()
    assert first_pass - before <= 2  # one variant for single-option jobs, one for option chunks
    state.price = state.price + 1.0
    for i in range(inst.num_jobs):
        state.decide(i)
    assert kernel.cache_size() == first_pass


def test_chunking_does_not_change_the_decision():
    """Options split over several kernel calls (chunk 8) give the decision of one pass (chunk 16 / 64)."""
    inst = larger_instance()
    rng = np.random.default_rng(4)
    price = rng.exponential(0.05, (inst.num_edges, inst.num_slots))
    small, large = comdos.ComdosState(inst, chunk=8), comdos.ComdosState(inst, chunk=CHUNK)
    small.price = large.price = price
    for i in range(inst.num_jobs):
        a, b = small.decide(i), large.decide(i)
        assert (a.option, a.num_options) == (b.option, b.num_options)
        assert a.mu == b.mu and a.start.tolist() == b.start.tolist() and a.edge.tolist() == b.edge.tolist()


def brute_mu(inst, i, price):
    """max over every feasible schedule of job i of (8): b_il - sum r_kt lambda_kt (enumeration)."""
    from genai_tiny import job_schedules

    return max((value - float(np.sum(usage * price)) for value, usage, _ in job_schedules(inst, i)),
               default=-np.inf)


@pytest.mark.parametrize("seed", range(5))
def test_algorithm2_is_exact_without_forks(seed):
    """On chains, joins and independent tasks the DP value P equals the best (8) by enumeration;
    with a fork (a parent with two children) it may be optimistic, and mu never exceeds the best."""
    inst = random_tiny(seed)
    price = np.random.default_rng(seed).exponential(0.4, (inst.num_edges, inst.num_slots))
    state = comdos.ComdosState(inst)
    state.price = price
    for i in range(inst.num_jobs):
        d = state.decide(i)
        best = brute_mu(inst, i, price)
        fork = any(inst.graph(i).out_degree(j) > 1 for j in range(inst.num_tasks[i]))
        if not np.isfinite(best):
            assert d.option < 0
            continue
        assert d.mu <= best + 1e-9
        if not fork:
            assert d.dp_profit == pytest.approx(best) and d.mu == pytest.approx(best)
