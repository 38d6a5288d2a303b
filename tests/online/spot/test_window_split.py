"""One step of the split DP (window.split) against a plain NumPy transcription of its transition, bit for bit.

The step has two constructions: the quadrant one (any shifts) and, when "up"
and "down" shift alike (``mu_1 = mu_2``), one "changed" branch from the best
and runner-up over every split (``split_top2``). Both must give the values the
transition defines, with the table widened in the same step (the pool's
reachable-prefix DP). Tiny grids (``S = 5``) so the reference can loop over
every pair of splits. The step runs on folded tables (``fold``: the cells
``n < H <= s``, never a split, are not stored) and is compared unfolded.
"""

from __future__ import annotations

import jax
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from aisched.online.spot.window.split import BIG, NEG, fold, split_step, split_top2, unfold

_step = jax.jit(lambda best, key, shifts, width: unfold(split_step(fold(best), key, shifts, width=width)),
                static_argnames=("shifts", "width"))
_top2 = jax.jit(lambda best: split_top2(fold(best)))

S, G1 = 5, 12
SHIFTS = [(2, 0, 2, 0, 3, 0), (1, 1, 1, 1, 2, 1), (2, 1, 3, 0, 3, 1), (0, 0, 1, 2, 2, 0)]


def _step_reference(best: np.ndarray, key: np.ndarray, shifts: tuple[int, ...], width: int) -> np.ndarray:
    """``new[n', g, s']``: the best previous split's value at ``g`` minus its branch's shift, minus the key.

    Branch (``docs/readings/spot.md`` S7): the split itself -> "same"; the on-demand
    or the spot count grows -> "up"; else "down". Tables ``(n, g, s)``, NEG
    outside; cells that are not splits (``s > n``) are no previous state.
    """
    a_up, b_up, a_down, b_down, a_same, b_same = shifts
    out = np.full((S, width, S), NEG)
    for n1 in range(S):
        for s1 in range(S):
            val = np.full(width, NEG)
            for n0 in range(S):
                for s0 in range(n0 + 1):
                    if (n0, s0) == (n1, s1):
                        a, b = a_same, b_same
                    elif n1 - s1 > n0 - s0 or s1 > s0:
                        a, b = a_up, b_up
                    else:
                        a, b = a_down, b_down
                    shift = a * n1 + (b if n1 >= 1 else 0)
                    src = np.full(width, NEG)
                    g = np.arange(width) - shift
                    ok = (g >= 0) & (g < best.shape[1])
                    src[ok] = best[n0, g[ok], s0]
                    val = np.maximum(val, src)
            out[n1, :, s1] = np.maximum(val - key[n1, s1], NEG)
    return out


def _table(data) -> tuple[np.ndarray, np.ndarray]:
    """A random table on a coarse grid (many exact ties), NEG on non-splits and on some cells; keys likewise."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    best = np.round(rng.normal(size=(S, G1, S)), 1)
    best[rng.random(best.shape) < data.draw(st.sampled_from([0.0, 0.3, 0.9]))] = NEG
    key = np.round(rng.normal(size=(S, S)), 1)
    key[rng.random(key.shape) < 0.2] = BIG
    for n in range(S):
        best[n, :, n + 1:] = NEG
        key[n, n + 1:] = BIG
    return best, key


@settings(max_examples=40, deadline=None)
@given(shifts=st.sampled_from(SHIFTS), widen=st.sampled_from([0, 4]), data=st.data())
def test_split_step_equals_the_transition(shifts, widen, data):
    best, key = _table(data)
    with jax.enable_x64(True):
        new = np.asarray(_step(best, key, shifts, width=G1 + widen))
    np.testing.assert_array_equal(new, _step_reference(best, key, shifts, G1 + widen))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_split_top2_is_max_first_argmax_and_runner_up(data):
    best, _ = _table(data)
    with jax.enable_x64(True):
        first, top, second = (np.asarray(x) for x in _top2(best))
    flat = best.transpose(0, 2, 1).reshape(S * S, G1)  # rows n S + s
    np.testing.assert_array_equal(first, flat.max(axis=0))
    np.testing.assert_array_equal(top, flat.argmax(axis=0))
    others = flat.copy()
    others[top, np.arange(G1)] = -np.inf
    np.testing.assert_array_equal(second, others.max(axis=0))
