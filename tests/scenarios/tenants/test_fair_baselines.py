

def test_fig_4b_rechecks_its_claims_under_the_baselines_own_definitions() -> None:
    """Fig. 4b (linear, vs servers) carries T13's two readings as variants; the other figures keep theirs."""
    from aisched.experiments.spec import catalog

    fig4b = catalog.get("tenants/fig4b-servers-linear")
    assert fig4b.variants["gandiva-tickets"] == {"gandiva_fair": {"share": "tickets"}}
    assert fig4b.variants["hived-cells"] == {"hived": {"cells": "buddy"}}
    assert "hived-cells" not in catalog.get("tenants/fig4a-jobs-linear").variants
