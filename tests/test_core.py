"""The core below the facade: the family object, the one registry, declared parameters, the runner."""

from __future__ import annotations

import dataclasses
from typing import Literal

import pytest

from aisched import families, registry
from aisched.core import runner
from aisched.core.family import Family, FamilyHooks
from aisched.core.parameters import Parameter
from aisched.errors import InvalidScenarioError, UnknownAlgorithmError

NAME = "toy_core_family"


@pytest.fixture
def toy():
    """A family registered for one test; its algorithm registers *before* the family (a plug-in may)."""

    @registry.register(NAME, "greedy", ranges={"share": (0.0, 1.0)})
    def greedy(instance, *, share: float = 0.5, mode: Literal["a", "b"] = "a", seed: int = 0):
        raise AssertionError("never run here")

    family = families.register(Family(name=NAME, objective=families.Objective("value"), proposed="greedy",
                                      hooks=lambda: FamilyHooks(generate=lambda *, seed=0: seed), order=-1))
    yield family
    families.unregister(NAME)


def test_an_algorithm_registered_before_its_family_joins_it(toy) -> None:
    assert registry.names(NAME) == ["greedy"]
    assert toy.tables.algorithms["greedy"].ready is False  # not under aisched.online: named to run
    assert families.names()[0] == NAME  # order -1 puts it first; the built-ins keep theirs
    assert families.names()[1:5] == ["lora", "spot", "genai", "tenants"]


def test_declared_parameters_are_read_once_and_checked(toy) -> None:
    algorithm = registry.algorithm(NAME, "greedy")
    assert [p.name for p in algorithm.parameters] == ["share", "mode", "seed"]
    assert algorithm.parameter("share") == Parameter("share", float, 0.5, 0.0, 1.0)
    assert algorithm.parameter("mode").choices == ("a", "b")
    runner.check_params(NAME, "greedy", {"share": 1.0, "mode": "b", "seed": 3})
    with pytest.raises(InvalidScenarioError, match=r"^share: = 1.5 is above 1.0"):
        runner.check_params(NAME, "greedy", {"share": 1.5})
    with pytest.raises(InvalidScenarioError, match=r"^mode: = 'c' is not valid .* one of 'a', 'b'"):
        runner.check_params(NAME, "greedy", {"mode": "c"})
    with pytest.raises(InvalidScenarioError, match=r"^seed: = -1 must be >= 0"):
        runner.check_params(NAME, "greedy", {"seed": -1})
    with pytest.raises(InvalidScenarioError, match=r"^speed: is not a parameter of .* it takes share \(a finite"):
        runner.check_params(NAME, "greedy", {"speed": 1})


def test_a_range_naming_no_parameter_is_refused_on_first_use() -> None:
    @registry.register(NAME, "odd", ranges={"nothing": (0, 1)})
    def odd(instance, *, share: float = 0.5): ...

    try:
        with pytest.raises(InvalidScenarioError, match=r"^ranges\['nothing'\]"):
            registry.algorithm(NAME, "odd").parameters
    finally:
        registry.names(NAME)  # the waiting table of an unregistered family is dropped by unregister
        families.unregister(NAME)


def test_explicit_declarations_replace_the_signature(toy) -> None:
    @registry.register(NAME, "declared", parameters=(Parameter("width", int, 2, low=1),))
    def declared(instance, **options): ...

    assert [p.name for p in registry.algorithm(NAME, "declared").parameters] == ["width"]
    with pytest.raises(InvalidScenarioError, match=r"^height: is not a parameter"):
        runner.check_params(NAME, "declared", {"height": 1})
    with pytest.raises(InvalidScenarioError, match=r"^width: = 0 is below 1"):
        runner.check_params(NAME, "declared", {"width": 0})


def test_a_changed_copy_keeps_the_tables_and_unregister_takes_them(toy) -> None:
    copy = families.register(dataclasses.replace(toy, item="widget"))
    assert families.get(NAME).item == "widget" and registry.names(NAME) == ["greedy"]
    assert copy.tables is toy.tables
    taken = families.unregister(NAME)
    assert taken is copy and NAME not in families.names()
    with pytest.raises(UnknownAlgorithmError):
        registry.lookup(NAME, "greedy")
    families.register(toy)  # back for the fixture's own clean-up
    assert registry.names(NAME) == ["greedy"]


def test_every_built_in_algorithm_declares_what_the_old_reflection_read() -> None:
    """The declared parameters of every built-in algorithm and offline solve are its signature's keywords."""
    import inspect

    for family in ("lora", "spot", "genai", "tenants"):
        for name in registry.names(family):
            fn = registry.lookup(family, name)
            keywords = [p for p in list(inspect.signature(fn).parameters)[1:]]
            assert [p.name for p in registry.algorithm(family, name).parameters] == keywords, (family, name)
        assert runner.offline_options(family) == set(list(inspect.signature(registry.lookup_offline(family)).parameters)[1:])


def test_resolve_takes_the_object_or_its_name(toy) -> None:
    assert families.resolve(NAME) is toy and families.resolve(toy) is toy
    stranger = dataclasses.replace(toy, item="widget")  # a copy never registered
    with pytest.raises(InvalidScenarioError, match=r"^family: 'toy_core_family' is not the family registered"):
        families.resolve(stranger)
    with pytest.raises(InvalidScenarioError, match=r"^family: 'nobody' is not a registered family"):
        families.resolve("nobody")


def test_calibrate_takes_the_family_object(tmp_path) -> None:
    from aisched.experiments.studies.calibrate import calibrate

    lora = families.get("lora")
    with pytest.raises(InvalidScenarioError, match=r"^seeds: = 0 must be an integer >= 1"):
        calibrate(lora, tmp_path, seeds=0)  # refused before any work, the object read like its name
    assert list(tmp_path.iterdir()) == []


def test_a_replaced_family_keeps_its_place(toy) -> None:
    second = families.register(Family(name=NAME + "_2", objective=families.Objective("value"), proposed="x",
                                       hooks=lambda: FamilyHooks(generate=lambda *, seed=0: seed)))
    try:
        before = families.names()
        families.register(dataclasses.replace(toy, order=float("inf")))  # now unordered, like the second
        after = families.names()
        assert after.index(NAME) < after.index(second.name) and before.index(NAME) == 0
    finally:
        families.unregister(second.name)
