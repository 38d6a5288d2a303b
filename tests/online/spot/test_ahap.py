"""AHAP's engines: the jitted kernel and the NumPy reference agree on windows of any length."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("everywhere", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_windows_past_the_tie_break_table_and_the_horizon_run_exactly(everywhere: bool) -> None:
    """Windows past TIE_BREAK's 16 rows wrap as the reference does (the fuzz found a raw JAX TypeError);
    a window past the hard deadline runs on the reference (the kernel's tables grow with the window)."""
    import aisched
    from aisched.online.spot.window import kernel as wk
    from aisched.scenarios import spot

    inst = spot.generate(seed=1)
    longest = wk.TIE_BREAK.shape[0] - 1
    assert inst.num_slots > longest + 1
    # fast: one window past the table (it wraps) and one past the horizon (the reference); slow: the edges too
    windows = (longest, longest + 1, inst.num_slots, inst.num_slots + 1, 3866) if everywhere else (
        longest + 1, inst.num_slots + 1)
    for window in windows:
        kernel = aisched.run("ahap", inst, window=window, commitment=1)
        reference = aisched.run("ahap", inst, window=window, commitment=1, engine="reference")
        assert kernel.objective == reference.objective
        assert kernel.info["engine"] == ("kernel" if window <= inst.num_slots else "reference")
