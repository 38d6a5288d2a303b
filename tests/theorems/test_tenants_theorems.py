"""The Astraea paper's guarantees as checks (aisched.theorems.tenants): each holds where it should and can fail."""

from __future__ import annotations

import dataclasses

import numpy as np
from tenants_tiny import random_tiny, worked_example

from aisched.core import runner
from aisched.models.tenants import empty_plan
from aisched.online.tenants.astraea.algorithm import run as run_astraea
from aisched.theorems import tenants as theorems


def _empty(inst, out):  # type: ignore[no-untyped-def]
    """A broken scheduler's outcome: nothing runs."""
    return dataclasses.replace(out, plan=empty_plan(inst), admitted=np.zeros(inst.num_jobs, bool), objective=0.0,
                               payments=np.zeros(inst.num_jobs))


def test_worked_example_checks() -> None:
    inst = worked_example(num_slots=16)
    found = {c.theorem: c for c in theorems.checks(inst, time_limit=20, deviations=1)}
    assert found["Theorem 2"].verdict == "holds"
    assert found["Sharing incentive"].verdict == "holds"
    assert found["Theorem 4"].verdict == "holds"
    # Theorem 1 with the worked example's lambda = 2: the premise (Lemma 1's lambda) is named as failing
    assert not found["Theorem 1"].premises_hold
    # the offline optimum (hindsight, no batches) gives both tenants more: the hindsight reading of Pareto fails
    assert found["Theorem 5"].verdict == "violated" and found["Theorem 5"].margin < 0


def test_theorem2_and_sharing_incentive_catch_a_broken_plan() -> None:
    inst = worked_example()
    out = run_astraea(inst)
    bad_plan = out.plan.copy(deep=True)
    job = int(np.nonzero(out.admitted)[0][0])
    bad_plan["start"].values[job] = -1  # starts before it arrives
    assert theorems.theorem2(inst, dataclasses.replace(out, plan=bad_plan)).verdict == "violated"
    assert theorems.sharing_incentive(inst, _empty(inst, out)).verdict == "violated"


def test_theorem5_holds_against_its_own_plan_and_theorem1_against_the_optimum() -> None:
    inst = random_tiny(0)
    out = run_astraea(inst)
    assert theorems.theorem5(inst, out, alternative=out).verdict == "holds"
    off = runner.offline(inst, time_limit=20)
    assert off.status == "optimal"
    check = theorems.theorem1(inst, out, optimum=(off.objective, "exact", off))
    assert check.measured == off.objective - out.objective and check.exact == "exact"


def test_theorem4_catches_a_mechanism_that_rewards_exaggeration(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A broken mechanism: it schedules nothing unless job 0 reports at least its true intercept x 2."""
    inst = worked_example()
    real = theorems.run_astraea

    def broken(instance, **options):  # type: ignore[no-untyped-def]
        out = real(instance, **options)
        return out if instance.utility_intercept[0] >= 2 * inst.utility_intercept[0] else _empty(instance, out)

    monkeypatch.setattr(theorems, "run_astraea", broken)
    assert theorems.theorem4(inst, 0, 2.0).verdict == "violated"
    assert theorems.theorem4(inst, 0, 0.5).verdict == "holds"
