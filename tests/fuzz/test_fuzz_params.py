"""Fuzz: algorithm parameters through ``aisched.run`` and ``compare(params=...)``.

Keys are the algorithm's own parameter names, near misses and junk; values are
hostile (booleans, NaN, text, containers, huge numbers). Property: an aisched
error whose field is the key, or an outcome whose plan verifies; never another
exception, never a hang.
"""

from __future__ import annotations

import inspect
from typing import Any

import hypothesis.strategies as st
import pytest
from genai_tiny import random_tiny as genai_tiny
from hypothesis import given, settings
from lora_tiny import random_tiny as lora_tiny
from spot_tiny import tiny as spot_tiny
from tenants_tiny import random_tiny as tenants_tiny

import aisched
from aisched import registry
from aisched.errors import AischedError

from ._guard import DEEP, FAST, no_hang

INSTANCES = {"lora": lora_tiny(1), "spot": spot_tiny(1), "genai": genai_tiny(1), "tenants": tenants_tiny(1)}
CASES = [(fam, name) for fam in INSTANCES for name in aisched.algorithms(fam)]


def _param_names(family: str, name: str) -> list[str]:
    params = list(inspect.signature(registry.lookup(family, name)).parameters)[1:]
    return params or ["seed"]


VALUES = st.one_of(
    st.sampled_from([True, False, None, float("nan"), float("inf"), -1, 0, 1, 2, 0.5, 10**12, 1e300, -1e300, "",
                     "batch", "arrival", "exact", "faithful", "2", [], [1], {}, (1, 2), b"x"]),
    st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5))


def check(family: str, name: str, key: str, value: Any, via_compare: bool) -> None:
    inst = INSTANCES[family]
    with no_hang((name, key, value)):
        try:
            if via_compare:
                table = aisched.compare(inst, [name], offline=False, params={name: {key: value}})
                assert table.loc[name, "objective"] == table.loc[name, "objective"]  # not NaN
                return
            out = aisched.run(name, inst, **{key: value})
        except AischedError as exc:
            field = getattr(exc, "field", None)
            assert field == key or str(exc).startswith(f"{key}:") or key in str(exc), (name, key, value, str(exc))
            return
    out.verify(inst)


@settings(FAST, max_examples=10)  # x 17 algorithms
@given(st.data())
@pytest.mark.parametrize("case", CASES, ids=[f"{f}-{n}" for f, n in CASES])
def test_run_params(case: tuple[str, str], data: st.DataObject) -> None:
    family, name = case
    names = _param_names(family, name)
    key = data.draw(st.one_of(st.sampled_from(names), st.sampled_from([n + "_" for n in names] + ["foo", ""])))
    check(family, name, key, data.draw(VALUES), via_compare=data.draw(st.booleans()))


@pytest.mark.slow
@DEEP
@given(st.sampled_from(CASES), st.data())
def test_run_params_deep(case: tuple[str, str], data: st.DataObject) -> None:
    family, name = case
    key = data.draw(st.sampled_from(_param_names(family, name)))
    check(family, name, key, data.draw(VALUES), via_compare=False)


@FAST
@given(st.one_of(st.none(), st.integers(), st.text(max_size=3), st.lists(st.text(max_size=3), max_size=2),
                 st.dictionaries(st.text(max_size=4), st.one_of(st.integers(), st.text(max_size=2), st.none()),
                                 max_size=2)))
def test_compare_params_of_any_shape(params: Any) -> None:
    """``params`` that is not {algorithm: {name: value}}: a named error (never a TypeError)."""
    inst = INSTANCES["spot"]
    try:
        aisched.compare(inst, ["od_only"], offline=False, params=params)
    except AischedError as exc:
        assert str(exc)
