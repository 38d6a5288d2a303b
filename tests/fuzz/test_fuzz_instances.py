"""Fuzz: each family's Instance constructor with one field replaced by a hostile value.

Property: ``InvalidInstanceError`` naming the field, or a
valid instance; never another exception, never a silent reinterpretation
(a boolean accepted as a number, a string accepted where an array or number
is meant). Accepted instances go through a cheap online algorithm, whose plan
must verify (or which must raise an aisched error).
"""

from __future__ import annotations

import inspect
from typing import Any

import hypothesis.strategies as st
import numpy as np
import pytest
from genai_tiny import random_tiny as genai_tiny
from hypothesis import given, settings
from lora_tiny import random_tiny as lora_tiny
from spot_tiny import tiny as spot_tiny
from tenants_tiny import random_tiny as tenants_tiny

import aisched
from aisched.errors import AischedError, InvalidInstanceError
from aisched.models.genai import GenaiInstance
from aisched.models.lora import LoraInstance
from aisched.models.spot import SpotInstance
from aisched.models.tenants import TenantInstance

from ._guard import DEEP, FAST, no_hang

#: family -> (Instance class, a valid tiny instance, a cheap algorithm run on accepted instances)
FAMILIES: dict[str, tuple[type, Any, str]] = {
    "lora": (LoraInstance, lora_tiny(0), "eft"),
    "spot": (SpotInstance, spot_tiny(0), "od_only"),
    "genai": (GenaiInstance, genai_tiny(0), "heft_a"),
    "tenants": (TenantInstance, tenants_tiny(0), "batchsche"),
}


def kwargs_of(instance: Any) -> dict[str, Any]:
    """The constructor's keyword arguments that rebuild ``instance``."""
    names = [n for n in inspect.signature(type(instance).__init__).parameters if n != "self"]
    out = {}
    for n in names:
        if hasattr(instance, n):
            out[n] = getattr(instance, n)
        elif hasattr(instance, "_" + n):
            out[n] = getattr(instance, "_" + n)
    return out


CASES = [(fam, field) for fam, (_, inst, _) in FAMILIES.items() for field in kwargs_of(inst)]


def _hostile(original: Any) -> st.SearchStrategy[Any]:
    arr = np.asarray(original) if original is not None else np.zeros(2)
    shape = arr.shape
    scalars = st.one_of(
        st.sampled_from([np.nan, np.inf, -np.inf, -1, -1.5, 0, True, False, np.bool_(True), 10**20, 1e300, -(10**20),
                         "", "abc", "3", None, b"\x00", [], {}, (), object()]),
        st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True))

    def same_shape_with(value: Any) -> Any:
        if arr.size == 0:
            return np.full(shape, value) if shape else value
        out = arr.astype(object).copy() if arr.dtype.kind != "U" else arr.astype(object).copy()
        flat = out.reshape(-1)
        flat[len(flat) // 2] = value
        return flat.reshape(shape)

    return st.one_of(
        scalars,
        scalars.map(same_shape_with),  # one bad entry inside the right shape
        st.just(np.zeros((0,) * max(1, arr.ndim))),  # empty
        st.just(np.ones(tuple(s + 1 for s in shape) or (3,))),  # one longer on every axis
        st.just(np.ones(shape + (2,))),  # one more axis
        st.just(arr.astype(bool)) if arr.size else st.just(np.ones(1, bool)),  # booleans of the right shape
        st.just(arr.astype(str)) if arr.size else st.just(np.array(["1"])),  # strings of the right shape
        st.just(list(arr.reshape(-1))) if arr.size else st.just([]),  # a flat list
        st.just(np.full(shape, 1e308) if shape else 1e308),  # huge
        st.just(np.full(shape, -1) if shape else -1),  # negative everywhere
    )


def _is_boolish(v: Any) -> bool:
    a = np.asarray(v) if not isinstance(v, (list, dict)) else np.asarray(v, dtype=object)
    if a.dtype.kind == "b":
        return True
    if a.dtype == object:
        return any(isinstance(x, (bool, np.bool_)) for x in a.reshape(-1))
    return False


def _is_stringish(v: Any) -> bool:
    a = np.asarray(v, dtype=object) if isinstance(v, (list, tuple)) else np.asarray(v)
    if a.dtype.kind in "US":
        return True
    if a.dtype == object:
        return any(isinstance(x, (str, bytes)) for x in a.reshape(-1))
    return False


def check_field(family: str, field: str, value: Any) -> None:
    cls, base, algorithm = FAMILIES[family]
    kwargs = kwargs_of(base)
    original = kwargs[field]
    kwargs[field] = value
    with no_hang((family, field)):
        try:
            inst = cls(**kwargs)
        except AischedError as exc:
            # the field itself, or (mismatched shapes, coupled values) the field it disagrees with
            named = [f for f in kwargs if str(exc).startswith(f"{f}:") or str(exc).startswith(f"{f.lstrip('_')}:")]
            assert named, (family, field, value, str(exc))
            if np.shape(value) == np.shape(original) and not isinstance(exc, InvalidInstanceError):
                raise AssertionError(f"{family}.{field}: {type(exc).__name__} instead of InvalidInstanceError")
            return
        # accepted: no bool read as a number, no string read as a number or list
        if not _is_boolish(original):
            assert not _is_boolish(value), f"{family}.{field}: accepted booleans {value!r} as numbers"
        if not _is_stringish(original):
            assert not _is_stringish(value), f"{family}.{field}: accepted text {value!r}"
        try:
            out = aisched.run(algorithm, inst)
        except AischedError:
            return
        out.verify(inst)


def test_every_constructor_field_is_fuzzed() -> None:
    assert {f for f, _ in CASES} == set(FAMILIES)
    for fam, (cls, inst, _) in FAMILIES.items():
        assert len(kwargs_of(inst)) == len(inspect.signature(cls.__init__).parameters) - 1, fam


@settings(FAST, max_examples=12)  # x ~70 fields
@given(st.data())
@pytest.mark.parametrize("case", CASES, ids=[f"{f}.{n}" for f, n in CASES])
def test_instance_field(case: tuple[str, str], data: st.DataObject) -> None:
    family, field = case
    original = kwargs_of(FAMILIES[family][1])[field]
    check_field(family, field, data.draw(_hostile(original), label=field))


@pytest.mark.slow
@DEEP
@given(st.sampled_from(CASES), st.data())
def test_instance_field_deep(case: tuple[str, str], data: st.DataObject) -> None:
    family, field = case
    original = kwargs_of(FAMILIES[family][1])[field]
    check_field(family, field, data.draw(_hostile(original), label=field))
