"""genai's silent parameters and regime targets (docs/readings/genai.md A-silent)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import aisched
from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.online.genai import baselines
from aisched.scenarios import genai
from aisched.scenarios.genai import silent

_SMALL = dict(seed=0, edges=3, slots=40, arrival_rate=2.0, capacity="homo-M")
_NEW_DEFAULTS = dict(revenue_scale=1.0, candidate_shuffle=0.0, runtime_scale=1.0, transfer_scale=1.0)


def _equal(a, b) -> bool:
    da, db = a.to_dataset(), b.to_dataset()
    return da.attrs == db.attrs and all(np.array_equal(da[k].values, db[k].values) for k in da.data_vars)


def test_declarations_are_registered_and_name_generator_parameters() -> None:
    record = families.record("genai")
    assert record.silent_parameters == silent.SILENT_PARAMETERS and record.regime_targets == silent.REGIME_TARGETS
    own = inspect.signature(genai.generate).parameters
    for p in record.silent_parameters:
        assert p.algorithm is None and p.name in own, p.name
        assert own[p.name].default == p.default  # the declared default is the generator's
    assert {p.name for p in record.silent_parameters} == set(_NEW_DEFAULTS)


def test_targets_are_baseline_ratios_from_the_papers_percentages() -> None:
    baseline_names = {"heft_a", "heft_ma", "random_a"}
    for t in silent.REGIME_TARGETS:
        assert set(t.algorithms) <= baseline_names and not any("comdos" in a for a in t.algorithms), t.name
        assert t.kind == "ratio" and t.quote and t.derivation and t.at["workload"] == "gpu_priced"
    values = {t.name: round(t.value, 3) for t in silent.REGIME_TARGETS}
    assert values == {"HEFT-A / HEFT-MA at 500 slots": 0.703, "Random-A / HEFT-MA at 500 slots": 0.340,
                      "HEFT-A / HEFT-MA at Poisson 3": 0.690, "Random-A / HEFT-MA at Poisson 3": 0.340,
                      "HEFT-A / HEFT-MA at Poisson 7": 0.729, "Random-A / HEFT-MA at Poisson 7": 0.454}


@pytest.mark.parametrize("workload", ["legacy", "gpu_priced"])
def test_the_defaults_reproduce_the_instances_and_baselines_from_before_the_silent_parameters(workload) -> None:
    inst = genai.generate(**_SMALL, workload=workload)
    assert _equal(inst, genai.generate(**_SMALL, workload=workload, **_NEW_DEFAULTS))
    # measured on the code before the silent parameters existed (same seed and sizes): HEFT-MA, HEFT-A, Random-A
    before = {"legacy": (42.17224951227063, 38.12286780122827, 37.11202180974576),
              "gpu_priced": (1.9570095033316521, 1.9570095033316521, 1.8639469708915506)}[workload]
    got = tuple(aisched.run(a, inst).objective for a in ("heft_ma", "heft_a", "random_a"))
    assert got == pytest.approx(before, rel=1e-12)


def test_revenue_and_transfer_scales_multiply_and_draw_nothing() -> None:
    base = genai.generate(**_SMALL, workload="gpu_priced")
    scaled = genai.generate(**_SMALL, workload="gpu_priced", revenue_scale=0.5, transfer_scale=3.0)
    np.testing.assert_allclose(scaled.revenue, 0.5 * base.revenue, rtol=1e-15)
    np.testing.assert_allclose(scaled.transfer_cost, 3.0 * base.transfer_cost, rtol=1e-15)
    np.testing.assert_array_equal(scaled.runtime, base.runtime)
    np.testing.assert_array_equal(scaled.deadline, base.deadline)


def test_runtime_scale_lengthens_runtimes_before_rounding() -> None:
    base = genai.generate(**_SMALL, workload="gpu_priced")
    longer = genai.generate(**_SMALL, workload="gpu_priced", runtime_scale=4.0)
    valid = base.candidate_model >= 0
    assert np.all(longer.runtime[valid] >= base.runtime[valid]) and longer.runtime[valid].mean() > 1.5
    np.testing.assert_array_equal(longer.deadline, base.deadline)


def test_candidate_shuffle_reorders_candidates_only_and_is_seeded() -> None:
    base = genai.generate(**_SMALL, workload="gpu_priced")
    shuffled = genai.generate(**_SMALL, workload="gpu_priced", candidate_shuffle=1.0)
    assert _equal(shuffled, genai.generate(**_SMALL, workload="gpu_priced", candidate_shuffle=1.0))
    assert not np.array_equal(shuffled.candidate_model, base.candidate_model)
    for i in range(base.num_jobs):  # the same candidates, with their runtimes, in another order
        for j in range(int(base.num_tasks[i])):
            pairs = sorted(zip(base.candidate_model[i, j], base.runtime[i, j], strict=True))
            assert pairs == sorted(zip(shuffled.candidate_model[i, j], shuffled.runtime[i, j], strict=True))
    for field in ("arrival", "deadline", "memory_capacity", "compute_cost", "hosting_cost", "transfer_cost"):
        np.testing.assert_array_equal(getattr(shuffled, field), getattr(base, field))
    np.testing.assert_allclose(shuffled.revenue, base.revenue, rtol=1e-12)


@pytest.mark.parametrize(("name", "value"), [("revenue_scale", 0.0), ("runtime_scale", -1.0),
                                             ("transfer_scale", float("nan")), ("candidate_shuffle", 1.5),
                                             ("candidate_shuffle", True)])
def test_bad_silent_values_are_named(name, value) -> None:
    with pytest.raises(InvalidScenarioError, match=name):
        genai.generate(**_SMALL, **{name: value})


def test_heft_ma_random_tie_is_seeded_and_first_is_the_default() -> None:
    inst = genai.generate(**_SMALL, workload="gpu_priced")
    first = baselines.heft_ma(inst)
    assert baselines.heft_ma(inst, tie="first").objective == first.objective
    a, b = baselines.heft_ma(inst, tie="random", seed=3), baselines.heft_ma(inst, tie="random", seed=3)
    assert a.objective == b.objective and a.plan.equals(b.plan) and a.info["tie"] == "random"
    assert (a.plan["model"].values != first.plan["model"].values).any()  # ties broken otherwise somewhere
    with pytest.raises(InvalidScenarioError, match="tie"):
        baselines.heft_ma(inst, tie="cheapest")


def test_calibration_of_genai_runs_its_baselines_only(swap_family, monkeypatch, tmp_path, forbid_algorithms) -> None:
    """A tiny genai calibration (2 settings, small points) never runs ComDOS and reads the declared targets."""
    import dataclasses

    from aisched.experiments.studies import calibrate as cal

    record = families.record("genai")
    tiny = {"edges": 2, "slots": 20, "arrival_rate": 1.0, "capacity": 8.0, "workload": "gpu_priced"}
    grids = {"revenue_scale": (0.6, 1.0), "candidate_shuffle": (0.0,), "transfer_scale": (1.0,), "runtime_scale": (1.0,)}
    params = tuple(dataclasses.replace(p, grid=grids[p.name]) for p in record.silent_parameters)
    targets = tuple(dataclasses.replace(t, at=tiny) for t in record.regime_targets[:2])
    swap_family(dataclasses.replace(
        record, silent_parameters=params, regime_targets=targets))
    forbid_algorithms("genai", "comdos")
    result = cal.calibrate("genai", tmp_path, seeds=1, executor="serial", confirm_seeds=1, max_confirm_seeds=1)
    assert set(result.baselines) == {"heft_a", "heft_ma", "random_a"} and len(result.grid) == 2
    assert result.default["revenue_scale"] == 1.0
    assert result.targets[0].default.estimate == pytest.approx(1.0)  # HEFT-A and HEFT-MA decide alike by default
