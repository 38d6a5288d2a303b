"""lora's silent parameters and regime targets: declared, baseline-only, and inert by default."""

from __future__ import annotations

import dataclasses
import hashlib
import inspect

import numpy as np
import pytest

from aisched import families
from aisched.errors import InvalidScenarioError
from aisched.experiments.studies import calibrate as cal
from aisched.scenarios.lora import generator
from aisched.scenarios.lora.silent import REGIME_TARGETS, SILENT_PARAMETERS


def _digest(instance) -> str:
    h = hashlib.sha256()
    for f in dataclasses.fields(instance):
        h.update(f.name.encode())
        h.update(np.ascontiguousarray(np.asarray(getattr(instance, f.name))).tobytes())
    return h.hexdigest()[:16]


def test_declarations_are_valid_and_registered() -> None:
    record = families.record("lora")
    assert record.silent_parameters == SILENT_PARAMETERS and record.regime_targets == REGIME_TARGETS
    options = inspect.signature(generator.generate).parameters
    for p in SILENT_PARAMETERS:
        assert p.algorithm is None and p.name in options, p.name
        assert p.quote and p.where.startswith("section") and p.argument
        assert options[p.name].default == p.default  # the declared default is today's draw
    for t in REGIME_TARGETS:
        assert t.kind == "ratio" and t.where.startswith("section 5.2") and t.derivation
        assert set(t.at) <= set(options), t.at
    assert len(cal.settings(record)) == 12  # the calibration's grid stays within its 20-minute budget


def test_targets_never_name_pdftsp_and_match_section_5_2() -> None:
    record = families.record("lora")
    assert all(record.proposed not in t.algorithms for t in REGIME_TARGETS)
    assert {a for t in REGIME_TARGETS for a in t.algorithms} == {"titan", "eft", "ntm"}
    values = [round(t.value, 3) for t in REGIME_TARGETS]
    assert values == [0.551, 0.511, 0.928, 0.592, 0.523, 0.883]


@pytest.mark.parametrize(("params", "golden"), [
    ({"nodes": 4, "slots": 24, "arrival_rate": 2.0, "vendors": 3}, "7a1503072b2bab20"),
    ({"nodes": 5, "slots": 30, "arrival_rate": 3.0, "vendors": 7, "deadline": "uniform"}, "994cfeae9edbc726"),
    ({"nodes": 3, "slots": 12, "tasks": 10, "vendors": 0}, "5f89505e59542c74"),
])
def test_min_batch_share_0_1_reproduces_the_earlier_instances_exactly(params, golden) -> None:
    # digests of the generator before the silent options (git HEAD of 2026-11-28), seed 1, whose batch share
    # U(0.1, 0.5) is min_batch_share=0.1 since the default moved into the evidence (0.33, 2026-12-05)
    assert _digest(generator.generate(1, **params, min_batch_share=0.1)) == golden
    explicit = {p.name: p.default for p in SILENT_PARAMETERS} | {"min_batch_share": 0.1}
    assert _digest(generator.generate(1, **params, **explicit)) == golden
    assert _digest(generator.generate(1, **params)) != golden  # the default draws the evidence's shares


def test_nested_vendors_keep_the_earlier_vendors_prices_and_delays() -> None:
    day = {"nodes": 4, "slots": 24, "arrival_rate": 2.0, "vendor_pool": 7}
    few, more = generator.generate(0, vendors=3, **day), generator.generate(0, vendors=7, **day)
    np.testing.assert_array_equal(few.vendor_price, more.vendor_price[:, :3])
    np.testing.assert_array_equal(few.vendor_delay, more.vendor_delay[:, :3])
    for field in ("arrival", "deadline", "bid", "work", "memory_need", "throughput", "needs_preprocessing"):
        np.testing.assert_array_equal(getattr(few, field), getattr(more, field))
    redrawn = generator.generate(0, vendors=3, nodes=4, slots=24, arrival_rate=2.0)
    assert not np.array_equal(redrawn.vendor_price, more.vendor_price[:, :3])  # today's market redraws
    with pytest.raises(InvalidScenarioError, match="vendor_pool"):
        generator.generate(0, vendors=7, nodes=4, slots=24, vendor_pool=5)


def test_fig5_runs_the_nested_market_and_keeps_the_redraw_as_a_named_variant() -> None:
    """Section 5.2's "more choices": Fig. 5's points are one market with more vendors in it (readings L10)."""
    from aisched.experiments.spec import catalog

    nested, redraw = catalog.get("lora/fig5-vendors"), catalog.get("lora/fig5-vendors-redraw")
    for form in (nested, nested.reduced()):
        assert form.base["vendor_pool"] == 7 >= max(form.values)
        small = {k: v for k, v in form.point_params(0).items() if k not in ("nodes", "slots", "arrival_rate")}
        days = [generator.generate(0, **{**small, "nodes": 4, "slots": 24, "arrival_rate": 2.0, "vendors": n})
                for n in form.values]
        for fewer, more in zip(days, days[1:]):  # each point's vendors are the next point's first vendors
            np.testing.assert_array_equal(fewer.vendor_price, more.vendor_price[:, :fewer.num_vendors])
            np.testing.assert_array_equal(fewer.bid, more.bid)
    assert "vendor_pool" not in redraw.base and "vendor_pool" not in redraw.reduced().base
    assert redraw.values == nested.values and redraw.claims == nested.claims and redraw.algorithms == nested.algorithms
    assert {k: v for k, v in nested.base.items() if k != "vendor_pool"} == redraw.base


def test_the_silent_options_move_what_they_say() -> None:
    day = {"nodes": 4, "slots": 24, "arrival_rate": 2.0, "vendors": 3}
    share = generator.generate(0, min_batch_share=0.5, **day)
    base = generator.generate(0, **day)
    assert share.throughput.min() > base.throughput.min() and share.max_value_per_gb_slot != base.max_value_per_gb_slot
    assert generator.generate(0, value_scale=2.0, **day).max_value_per_sample == pytest.approx(3.6)
    busy = generator.generate(0, nodes=4, slots=24, arrival_rate=99.0, arrival_per_node=0.5, vendors=3)
    assert busy.num_tasks == generator.generate(0, nodes=4, slots=24, arrival_rate=2.0, vendors=3).num_tasks
    for bad in ({"min_batch_share": 0.7}, {"value_scale": 0.0}, {"arrival_per_node": -1.0}):
        with pytest.raises(InvalidScenarioError, match=next(iter(bad))):
            generator.generate(0, **day, **bad)
