"""Figs. 5-8 run UP under the reference's rule (default) and under the other readings (S4, S11), MSU under S11's."""

from __future__ import annotations

import pytest

from aisched.experiments.spec import catalog

FIGS = ("spot/fig5-deadline", "spot/fig6-bandwidth", "spot/fig7-availability", "spot/fig8-price")


@pytest.mark.parametrize("name", FIGS)
def test_each_claim_is_checked_against_both_up_rules(name):
    scenario = catalog.get(name)
    assert "up" in scenario.algorithms
    assert scenario.variants["up-aisched-v1"] == {"up": {"variant": "aisched_v1"}}
    assert scenario.variants["up-spot-first"] == {"up": {"variant": "spot_first"}}
    # section VI-A's own UP and MSU's literal switch (readings S11): each claim is re-checked under them
    assert scenario.variants["up-paper"] == {"up": {"variant": "paper"}}
    assert scenario.variants["msu-on-demand"] == {"msu": {"near_deadline": "on_demand"}}
    # the default run uses UP's default, the reference's rule: no variant sets it
    assert all(params.get("up", {}).get("variant") != "reference" for params in scenario.variants.values())
