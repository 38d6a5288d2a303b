"""AHAP's engines: the jitted kernel and the NumPy reference agree where the kernel hands over."""

from __future__ import annotations


def test_a_window_longer_than_the_kernels_table_runs_on_the_reference() -> None:
    """A window past the kernel's tie-break rows (the fuzz found a raw JAX TypeError) runs exactly."""
    import aisched
    from aisched.online.spot import window_kernel as wk
    from aisched.scenarios import spot

    inst = spot.generate(seed=1)
    longest = wk.TIE_BREAK.shape[0] - 1
    for window in (longest, longest + 1, 3866):
        kernel = aisched.run("ahap", inst, window=window, commitment=1)
        reference = aisched.run("ahap", inst, window=window, commitment=1, engine="reference")
        assert kernel.objective == reference.objective
        assert kernel.info["engine"] == ("kernel" if window <= longest else "reference")
