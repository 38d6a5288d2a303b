"""The ``full_cell`` option set of ComDOS (docs/readings/genai.md A10).

(9) unchanged with alpha = 1 / (e - 1) and the capacity-aware DP: the price bound that
restores property (ii), kernel against the NumPy reference on the variant's own rooms,
no recompiles, plans verify, and the scenario variant on every genai figure.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from genai_tiny import make_instance, random_tiny
from hypothesis import given, settings
from hypothesis import strategies as st

import aisched
from aisched.experiments.spec import catalog
from aisched.models.genai import verify_plan
from aisched.online.genai import comdos
from aisched.online.genai.comdos import batched, kernel
from aisched.scenarios import genai
from aisched.scenarios.genai import paper


def one_cell(capacity: float = 10.0):
    """An instance with one edge and one slot (only its capacity matters to (9))."""
    job = {"arrival": 0, "deadline": 0, "revenue": 1.0, "edges": [], "data": [],
           "models": [[0]], "runtime": [[1]], "compute": [[1.0]]}
    return make_instance(slots=1, capacity=[capacity], model_size=[1.0], jobs=[job])


def test_alpha_and_the_named_option_set():
    inst = random_tiny(0)
    assert comdos.default_alpha(inst, "full_cell") == pytest.approx(1 / (math.e - 1))
    assert comdos.FULL_CELL_OPTIONS == paper.FULL_CELL_VARIANT == {"alpha_reading": "full_cell", "room_aware": True}
    out = aisched.run("comdos", inst, **comdos.FULL_CELL_OPTIONS)
    assert out.info["alpha"] == pytest.approx(comdos.FULL_CELL_ALPHA) and out.info["room_aware"] == 1


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.tuples(st.floats(0.01, 3.0), st.floats(0.1, 50.0)), min_size=1, max_size=30))
def test_a_cell_is_priced_below_its_densest_job_until_full(steps):
    """Unrolled (9): alpha b_min (prod(1 + r/c) - 1) <= lambda <= alpha b_max (prod - 1) < b_max while u < 1."""
    c = 10.0
    state = comdos.ComdosState(one_cell(c), **comdos.FULL_CELL_OPTIONS)
    prod, used, densities = 1.0, 0.0, []
    for r, b_bar in steps:
        if used + r >= c:
            break
        state.update_prices(SimpleNamespace(usage=np.array([[r]]), profit=b_bar * r))
        prod, used = prod * (1 + r / c), used + r
        densities.append(b_bar)
        price = float(state.price[0, 0])
        alpha = comdos.FULL_CELL_ALPHA
        assert alpha * min(densities) * (prod - 1) <= price * (1 + 1e-12)
        assert price <= alpha * max(densities) * (prod - 1) * (1 + 1e-12)
        assert price < max(densities)  # the highest density is reached only when the cell is full


@pytest.mark.parametrize("steps", [1, 10, 1000])
def test_a_cell_filled_by_one_density_is_priced_at_it_when_full(steps):
    """Full in ``steps`` equal parts by jobs of density b: b / (e - 1) (one job) up to b (small steps)."""
    c, b = 10.0, 3.0
    state = comdos.ComdosState(one_cell(c), **comdos.FULL_CELL_OPTIONS)
    for _ in range(steps):
        state.update_prices(SimpleNamespace(usage=np.array([[c / steps]]), profit=b * c / steps))
    want = b * ((1 + 1 / steps) ** steps - 1) / (math.e - 1)
    assert state.price[0, 0] == pytest.approx(want)
    assert b / (math.e - 1) - 1e-12 <= state.price[0, 0] <= b
    if steps == 1000:
        assert state.price[0, 0] > 0.999 * b


@pytest.mark.parametrize("seed", range(6))
def test_no_chosen_task_meets_a_cell_without_room(seed):
    """Property (ii) on capacity: with the capacity-aware DP no task of a chosen schedule sits on a cell
    without room for its model (the faithful DP does, and relies on prices and the resource check)."""
    inst = random_tiny(seed, jobs=8, slots=8)  # 3-7 GB edges, 1-4 GB models: cells fill
    state = comdos.ComdosState(inst, **comdos.FULL_CELL_OPTIONS)
    cap = inst.memory_capacity
    for i in np.lexsort((np.arange(inst.num_jobs), inst.arrival)).tolist():
        before = state.used.copy()
        d = state.step(i)
        if not math.isfinite(d.mu):
            continue
        f = inst.runtime[i, np.arange(len(d.edge)), [np.nonzero(inst.candidate_model[i, j] == m)[0][0]
                                                     for j, m in enumerate(d.model)]]
        for k, m, s, run in zip(d.edge, d.model, d.start, f, strict=True):
            assert np.all(before[k, s: s + run] + inst.model_size[m] <= cap[k] * (1 + 1e-12))
    assert np.all(state.used <= cap[:, None] * (1 + 1e-12))


def test_kernel_equals_numpy_reference_on_the_variants_rooms():
    """Rooms and prices as the variant leaves them half way through a run; the jit DP equals the NumPy one."""
    from tests.online.genai.test_comdos_kernel import compare_job
    inst = genai.generate(seed=5, edges=3, slots=14, jobs=8, dag_source="generator", capacity=8.0)
    state = comdos.ComdosState(inst, **comdos.FULL_CELL_OPTIONS, chunk=16)
    for i in range(4):
        state.step(i)
    room = inst.memory_capacity[:, None] - state.used
    for i in range(4, inst.num_jobs):
        n_opt = comdos.job_data(inst, i, inst.cost_weight, state.max_parents)[2].shape[0]
        compare_job(inst, i, state.price, room, max(16, n_opt), state.max_parents)


def test_no_recompile_across_jobs_and_runs():
    inst = genai.generate(seed=5, edges=3, slots=14, jobs=8, dag_source="generator", capacity=8.0)
    aisched.run("comdos", inst, **comdos.FULL_CELL_OPTIONS)
    sizes = (kernel.cache_size(), batched.cache_size())
    state = comdos.ComdosState(inst, **comdos.FULL_CELL_OPTIONS)
    state.price = state.price + 1.0  # other prices and rooms, same shapes
    state.used = state.used + 2.0
    for i in range(inst.num_jobs):
        state.step(i)
    assert (kernel.cache_size(), batched.cache_size()) == sizes


@pytest.mark.parametrize("seed", range(6))
def test_plans_verify_and_stay_below_the_optimum(seed):
    inst = random_tiny(seed)
    opt = aisched.offline(inst)
    out = aisched.run("comdos", inst, **comdos.FULL_CELL_OPTIONS)
    assert out.verify(inst) == pytest.approx(verify_plan(inst, out.plan))
    assert out.objective <= opt.objective + 1e-9


def test_every_genai_figure_and_the_regime_map_carry_the_variant():
    names = [n for n in catalog.names() if n.startswith("genai/")]
    assert names
    for name in names:
        s = catalog.get(name)
        assert s.variants.get("full-cell") == {"comdos": comdos.FULL_CELL_OPTIONS}, name
