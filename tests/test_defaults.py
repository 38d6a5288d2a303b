"""One set of defaults: each family's ``generate()`` is the instance of ``aisched compare <family>``.

The generators' defaults were section-size once (genai: 10 edges x 200 slots; tenants: 14 users, 100
servers, 200 jobs; lora: 8 nodes, 3 vendors) while the command line defaulted to a small instance. They
are now the command line's, and the paper's sizes sit behind ``paper_instance(seed)``. The named scenarios
(the papers' figures, their reduced forms) and the calibrations' points must still draw exactly the
instances they drew: every size they relied on a default for is written out in their parameters. The
generator defaults before the change are frozen below, so a scenario that leaves a size to a default fails
here, naming it.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

import aisched
from aisched import families
from aisched.cli import _parser
from aisched.experiments.spec import catalog

#: The four families whose generators these rules cover.
FAMILY_NAMES = ("genai", "tenants", "lora", "spot")

#: Each generator's defaults before they became the command line's: the sizes and options a scenario
#: could have relied on. Frozen here; passing them explicitly gives the instance the old default gave.
OLD_DEFAULTS: dict[str, dict[str, Any]] = {
    "genai": {"edges": 10, "slots": 200, "arrival_rate": 5.0, "capacity": "homo-M", "dag_source": "taskbench",
              "jobs": None, "workload": "legacy", "deadline_rule": "arrival", "revenue_rule": "proportional"},
    "tenants": {"users": 14, "servers": 100, "jobs": 200, "utility": "linear", "trace": "day", "slot_hours": "auto",
                "gpus_per_server": 8, "horizon": "finishable", "window": "every_tenant"},
    "lora": {"nodes": 8, "slots": 24, "arrival_rate": 2.0, "tasks": None, "trace": None, "trace_start": 0,
             "vendors": 3, "gpu_mix": "mixed", "deadline": "slack", "base_model": "gpt2", "work_unit": 100},
    "spot": {"deadline": 10, "market": "synthetic", "work": 80, "min_gpus": 1, "max_gpus": 12, "bandwidth": 800.0,
             "changeover": "off"},
}

#: What ``paper_instance()`` must hold: section sizes a user asks for by name.
PAPER_SIZES: dict[str, dict[str, Any]] = {
    "genai": {"num_edges": 10, "num_slots": 200},
    "tenants": {"num_users": 14, "num_servers": 100, "num_jobs": 200},
    "lora": {"num_nodes": 100, "num_slots": 144, "num_vendors": 3},
    "spot": {"work": 80, "deadline": 10, "min_gpus": 1, "max_gpus": 12},
}

#: The catalogue scenario whose base point is each family's ``PAPER_SCENARIO`` (its keys agree).
PAPER_FIGURE = {"genai": "genai/fig4-slots", "tenants": "tenants/fig4a-jobs-linear", "lora": "lora/fig8-load",
                "spot": "spot/fig6-bandwidth"}


def _module(family: str) -> Any:
    return importlib.import_module(f"aisched.scenarios.{family}")


def _generator_points(family: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, generator parameters) of every catalogue scenario's first point, full size and reduced, and of
    every calibration point (the regime targets' settings) of ``family``."""
    for name in catalog.names(family):
        scenario = catalog.get(name)
        if scenario.kind != "compare":  # another kind's base is not the generator's parameters
            continue
        for form, built in (("full", scenario), ("reduced", scenario.reduced())):
            yield f"{name} ({form}, first point)", built.point_params(0)
    for target in families.record(family).regime_targets:
        yield f"{family} calibration point of {target.name!r}", dict(target.at)


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_every_scenario_and_calibration_draws_what_the_old_defaults_drew(family: str) -> None:
    generate = _module(family).generate
    seen: set[str] = set()
    differ = []
    for where, params in _generator_points(family):
        key = json.dumps(params, sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        now = generate(seed=0, **params)
        before = generate(seed=0, **{**OLD_DEFAULTS[family], **params})
        if now != before:
            differ.append(f"{where}: {params} leaves a size to generate()'s default")
    assert seen, f"no {family} scenario found"
    assert differ == []


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_generate_without_arguments_is_the_command_lines_default_instance(family: str) -> None:
    module = _module(family)
    args = _parser().parse_args(["compare", family])
    from_cli = families.cli(family).instance(args)
    assert module.generate() == from_cli
    assert module.default_instance() == from_cli
    assert module.default_instance() == module.generate(**module.DEFAULT_SCENARIO)


def test_the_reported_calls_now_build_the_command_lines_sizes() -> None:
    """``genai.generate(jobs=4)`` built 10 edges x 200 slots; ``tenants.generate()`` 14 users and 100 servers."""
    genai = aisched.scenarios.genai.generate(jobs=4)
    assert (genai.num_edges, genai.num_slots, genai.num_jobs) == (2, 12, 4)
    assert set(genai.memory_capacity) == {8.0}
    tenants = aisched.scenarios.tenants.generate()
    assert (tenants.num_users, tenants.num_servers, tenants.num_jobs) == (2, 5, 8)
    lora = aisched.scenarios.lora.generate()
    assert (lora.num_nodes, lora.num_slots, lora.num_tasks, lora.num_vendors) == (4, 24, 48, 2)


def test_a_rate_or_a_count_given_alone_is_used_as_given() -> None:
    """The default count applies only when neither a count nor a rate is given (the command line's rule)."""
    genai = aisched.scenarios.genai
    assert genai.generate(arrival_rate=0.0).num_jobs == 0
    assert genai.generate(arrival_rate=3.0) == genai.generate(edges=2, slots=12, arrival_rate=3.0, jobs=None)
    assert genai.generate(jobs=9).num_jobs == 9
    lora = aisched.scenarios.lora
    assert lora.generate(arrival_rate=0.0).num_tasks == 0
    assert lora.generate(seed=3, arrival_rate=1.0).num_tasks != 48  # Poisson(1) over 24 slots, not the count
    assert lora.generate(tasks=7).num_tasks == 7


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_paper_instance_has_the_papers_sizes(family: str) -> None:
    module = _module(family)
    paper = module.paper_instance(seed=0)
    assert paper == module.generate(seed=0, **module.PAPER_SCENARIO)
    for field, value in PAPER_SIZES[family].items():
        assert getattr(paper, field) == value, field
    figure = catalog.get(PAPER_FIGURE[family])
    shared = {k: v for k, v in figure.base.items() if k != figure.x}
    assert {k: module.PAPER_SCENARIO[k] for k in shared} == shared  # the figures' base point
    assert module.paper_instance(seed=1) != paper


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_paper_instance_is_exported_where_default_instance_is(family: str) -> None:
    module = _module(family)
    for name in ("default_instance", "paper_instance", "DEFAULT_SCENARIO", "PAPER_SCENARIO"):
        assert name in module.__all__ and name in dir(module), name
        assert name in importlib.import_module(f"aisched.scenarios.{family}.generator").__all__, name
