"""Zero tasks / jobs in every family: ``offline`` is "optimal" with objective 0 and
every registered online algorithm returns an empty plan that verifies (objective 0, nothing admitted).

spot has one job per instance by construction (no empty instance); its zero-size check is ``workload``
refusing ``jobs=0`` with a named error.
"""

from __future__ import annotations

import numpy as np
import pytest

import aisched
from aisched.errors import InvalidScenarioError
from aisched.scenarios import genai, lora, spot, tenants

EMPTY = {
    "lora": lambda: lora.generate(0, nodes=2, slots=6, tasks=0, vendors=3),
    "genai": lambda: genai.generate(seed=0, edges=2, slots=6, jobs=0, dag_source="generator", capacity="homo-M"),
    "tenants": lambda: tenants.generate(seed=0, users=2, servers=2, jobs=0, trace=None),
}
CASES = [(fam, name) for fam in EMPTY for name in aisched.algorithms(fam)]


@pytest.mark.parametrize("family", sorted(EMPTY))
def test_offline_of_an_empty_instance_is_optimal_zero(family: str) -> None:
    inst = EMPTY[family]()
    out = aisched.offline(inst)
    assert out.status == "optimal" and out.objective == 0.0
    assert out.verify(inst) == pytest.approx(0.0)


@pytest.mark.parametrize(("family", "name"), CASES, ids=[f"{f}-{n}" for f, n in CASES])
def test_online_algorithm_on_an_empty_instance(family: str, name: str) -> None:
    inst = EMPTY[family]()
    out = aisched.run(name, inst)
    assert out.objective == 0.0
    assert np.asarray(out.admitted).size == 0
    assert out.verify(inst) == pytest.approx(0.0)


def test_every_family_is_covered() -> None:
    assert set(EMPTY) | {"spot"} == {"lora", "spot", "genai", "tenants"}
    with pytest.raises(InvalidScenarioError, match="^jobs: "):
        spot.workload(seed=0, jobs=0)
