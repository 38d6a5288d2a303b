"""The window problem (10) with ``changeover="on"``: an exact lattice DP over ``(count, spot)`` splits.

With the changeover cost (``docs/readings/spot.md`` S7) a slot's efficiency reads
the previous *split*: ``mu_1`` when the on-demand count or the spot count
grows (:meth:`~aisched.models.spot.SpotInstance.split_efficiency`), else
``mu_2`` when the total shrinks, else 1. So the state of the window DP is the
previous split, and every split of every count is a choice (the NumPy
reference :func:`~aisched.online.spot.window.reference.solve_window` enumerates
them with Pareto pruning; this module is the same optimum on the work lattice
of :mod:`~aisched.online.spot.window.kernel`).

**State grid.** Rows ``(n, s)``: total count ``n = 0..S-1`` and spot share
``s = 0..S-1`` (``s <= n``; on-demand ``o = n - s``); cells past ``s > n``,
counts outside ``{0} u [N_min, N_max]`` and spot above the forecast
availability cost ``+inf`` (``BIG``) and hold ``NEG``. A lattice column ``g`` is
the progress gained in the window, ``g q``. Tables are laid out ``(n, g, s)``
(a count's block contiguous, so a shear is one padded copy) and stored
folded (:func:`fold`): the cells ``n < H <= s`` (``H = ceil(S / 2)``), never a
split, are not kept.

**Transition** to ``(o', s')`` from ``(o, s)``:

- *up* (``mu_1``) when ``o' > o`` or ``s' > s``: the previous splits outside
  the quadrant ``{o >= o', s >= s'}``, i.e. ``{o < o'} u {s < s'}``, so the best
  of them is ``max(A[o'], B[s'])`` with ``A``, ``B`` the exclusive prefix maxima
  over ``o`` and over ``s`` of the per-``o`` and per-``s`` maxima;
- *down* (``mu_2``) when ``o' <= o``, ``s' <= s`` and the total shrinks: the
  quadrant without the split itself, ``max(Q[o' + 1, s'], Q[o', s' + 1])`` with
  ``Q`` the 2-D suffix maxima;
- *same* (1): the split itself.

Each branch's table is shifted along ``g`` by ``mu H(n') / q = a n' + b``
(static ``a, b`` per branch, as :func:`shear`), the three are maxed and the
slot's cost and tie-break are subtracted: ``O(S^2 G)`` per slot. When "up"
and "down" shift alike (``mu_1 = mu_2``) they are one branch, the best over
every other split, from one top-2 reduction (:func:`split_top2`; bit for bit
the same values). The best plan
is read back from the stored tables (first index of the maximum over every
previous split, as the count kernel does). Ties: the reference's perturbation
(``TIE_BREAK`` on the count plus ``1e-3`` of it, at row ``i + 8``, on the spot
share; :func:`split_tie`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from aisched.online.spot.window.reference import TIE_BREAK

__all__ = ["NEG", "BIG", "shear", "shear_rows", "split_tie", "split_window_dp", "split_window_prefix",
           "split_step", "split_top2", "split_init", "fold", "unfold", "split_back", "split_back_lanes"]

NEG = -1e30
BIG = 1e30


def shear(x: jax.Array, a: int, b: int) -> jax.Array:
    """``y[n, g] = x[n, g - a n - b [n >= 1]]`` (NEG where undefined), by static pads and reshapes."""
    S, G1 = x.shape
    if a > 0:
        pad = (S - 1) * a + a
        xp = jnp.concatenate([x, jnp.full((S, pad), NEG)], axis=1)
        R = G1 + pad
        x = xp.reshape(-1)[: S * (R - a)].reshape(S, R - a)[:, :G1]
    if b > 0:
        moved = jnp.concatenate([jnp.full((S - 1, b), NEG), x[1:, : G1 - b]], axis=1)
        x = jnp.concatenate([x[:1], moved], axis=0)
    return x


def shear_rows(x: jax.Array, a: int, b: int, width: int | None = None, base: int = 0) -> jax.Array:
    """:func:`shear` of a table ``(n, g, s)``: ``y[j, g, s] = x[j, g - a n - b [n >= 1], s]``, ``n = j + base``.

    The lattice axis is the middle one, so a count's block ``(g, s)`` is
    contiguous and the shear is one padded copy (:func:`shear` on the
    flattened blocks). ``width`` (default: ``x``'s) may widen the lattice
    (new columns NEG), so the reachable-prefix DP widens and shears in one
    copy; ``base``: the count of the first row (the upper half of a folded
    table, :func:`fold`).
    """
    S, G1, T = x.shape
    width = G1 if width is None else int(width)
    front = a * base + (b if base >= 1 else 0)
    if front or width > G1:
        x = jnp.concatenate([jnp.full((S, front, T), NEG), x,
                             jnp.full((S, max(0, width - G1 - front), T), NEG)], axis=1)[:, :width]
    if a > 0:
        x = shear(x.reshape(S, width * T), a * T, 0).reshape(S, width, T)
    if b > 0 and base == 0:
        moved = jnp.concatenate([jnp.full((S - 1, b, T), NEG), x[1:, : width - b]], axis=1)
        x = jnp.concatenate([x[:1], moved], axis=0)
    return x


def _half(S: int) -> int:
    """Spot shares kept in the lower part of a folded table: ``0 .. H - 1``, ``H = ceil(S / 2)``."""
    return (S + 1) // 2


def fold(full: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A table ``(n, g, s)`` as its two parts without the cells ``n < H <= s`` (never a split):

    ``low = full[:, :, :H]`` (every count, spot ``< H``) and ``high =
    full[H:, :, H:]`` (counts ``>= H``, spot ``>= H``): ``S H + (S - H)^2``
    cells a column instead of ``S^2`` (217 of 289 for ``S = 17``).
    """
    H = _half(full.shape[0])
    return full[:, :, :H], full[H:, :, H:]


def unfold(table: tuple[jax.Array, jax.Array]) -> jax.Array:
    """The full table ``(n, g, s)`` of a :func:`fold` (NEG on the cells ``n < H <= s``)."""
    low, high = table
    S, G1, H = low.shape
    upper = jnp.concatenate([jnp.full((H, G1, S - H), NEG, low.dtype), high], axis=0)
    return jnp.concatenate([low, upper], axis=2)


def split_init(S: int, n: jax.Array, s: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The folded one-column table of the state before the window: 0 at split ``(n, s)``, NEG elsewhere."""
    H = _half(S)
    low = jnp.full((S, 1, H), NEG).at[n, 0, jnp.minimum(s, H - 1)].set(jnp.where(s < H, 0.0, NEG))
    high = jnp.full((S - H, 1, S - H), NEG).at[jnp.maximum(n - H, 0), 0, jnp.maximum(s - H, 0)].set(
        jnp.where(s >= H, 0.0, NEG))
    return low, high


def split_tie(rows: int, size: int) -> np.ndarray:
    """``(rows, S, S)`` tie-break of split ``(n, s)`` at window offset ``i``, as the reference's window.

    ``TIE_BREAK[i % 16, n % 128] + 1e-3 TIE_BREAK[(i + 8) % 16, s % 128]``
    (:func:`~aisched.online.spot.window.reference.solve_window` with the changeover).
    """
    i = np.arange(rows)[:, None, None]
    n = np.arange(size)[None, :, None]
    s = np.arange(size)[None, None, :]
    return TIE_BREAK[i % 16, n % 128] + 1e-3 * TIE_BREAK[(i + 8) % 16, s % 128]


def _indices(S: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Static index grids: on-demand ``o = n - s`` per ``(n, s)`` (``S`` where ``s > n``), and ``(o, s) -> n``."""
    n = np.arange(S)[:, None]
    s = np.arange(S)[None, :]
    o_of_ns = np.where(s <= n, n - s, S)
    n_of_os = np.where(n + s < S, n + s, S)  # here the row index is o
    return o_of_ns, n_of_os, np.broadcast_to(s, (S, S))


def _cummax(x: jax.Array, axis: int, reverse: bool = False) -> jax.Array:
    """Inclusive running maximum along a short static axis, unrolled: one pass over ``x``.

    (``associative_scan`` makes ~``2 log2 S`` passes and XLA's ``cummax`` an
    ``O(S^2)`` ``reduce_window`` on CPU; this step was 2x faster, equal results.)
    """
    n = x.shape[axis]
    parts = [jax.lax.index_in_dim(x, i, axis, keepdims=True) for i in range(n)]
    out: list = [None] * n
    acc = None
    for i in (range(n - 1, -1, -1) if reverse else range(n)):
        acc = parts[i] if acc is None else jnp.maximum(acc, parts[i])
        out[i] = acc
    return jnp.concatenate(out, axis)


def _merge_top2(x, y):
    """Merge two (best, first index of the best, runner-up) triples: order-free (the smaller index on a tie)."""
    v1, i1, v2 = x
    w1, j1, w2 = y
    left = (v1 > w1) | ((v1 == w1) & (i1 < j1))
    return (jnp.where(left, v1, w1), jnp.where(left, i1, j1),
            jnp.where(left, jnp.maximum(v2, w1), jnp.maximum(w2, v1)))


def _flat_index(S: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat split index ``n S + s`` of every cell of the two parts of a folded table (``(n, 1, s)`` each)."""
    H = _half(S)
    low = np.arange(S)[:, None, None] * S + np.arange(H)[None, None, :]
    high = (H + np.arange(S - H))[:, None, None] * S + H + np.arange(S - H)[None, None, :]
    return low, high


def split_top2(table: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Per lattice column of a folded table: the best value over every split, its first flat index
    ``n S + s`` (``jnp.max`` / ``jnp.argmax`` over the ``(n, s)`` rows of :func:`unfold`, exactly) and the
    best value over every other split.

    Variadic reductions (over the spot share, the contiguous axis, in each
    part, then over the counts of both) whose merge keeps the larger value
    (the smaller index on a tie) and the larger of the two runners-up, so the
    result does not depend on the reduction order. (The cells a fold drops
    are NEG: they matter only when every value is NEG, and index 0 is kept.)
    """
    low, high = table
    S = low.shape[0]
    dtype = low.dtype
    init = (jnp.asarray(-jnp.inf, dtype), jnp.asarray(0, jnp.asarray(0).dtype), jnp.asarray(-jnp.inf, dtype))
    parts = []
    for x, index in zip(table, _flat_index(S)):
        idx = jnp.broadcast_to(jnp.asarray(index, init[1].dtype), x.shape)
        parts.append(jax.lax.reduce((x, idx, jnp.full_like(x, -jnp.inf)), init, _merge_top2, (2,)))
    per_count = tuple(jnp.concatenate([p, q], axis=0) for p, q in zip(*parts))
    return jax.lax.reduce(per_count, init, _merge_top2, (0,))


def _changed_equal(top2: tuple[jax.Array, jax.Array, jax.Array], S: int, a: int, b: int,
                   width: int) -> tuple[jax.Array, jax.Array]:
    """The sheared "changed" branch when "up" and "down" shift alike (``mu_1 = mu_2``), folded.

    "Up" and "down" together come from every split but the target itself, so
    their maximum is the best value over every split unless that best is the
    target, then the runner-up (:func:`split_top2`); the shear depends on the
    target's count only, so it is applied to the three ``(S, G1)`` rows once.
    Maxima are exact, so the values equal the general path's bit for bit.
    """
    first, top, second = top2
    G1 = first.shape[0]
    H = _half(S)

    def row(x):
        return shear_rows(jnp.broadcast_to(x[None, :, None], (S, G1, 1)), a, b, width)[:, :, 0]

    first_sh, second_sh = row(first), row(second)
    top_sh = row(top.astype(first.dtype))  # NEG where the shear pads: no split index, and first_sh is NEG there
    out = []
    for rows, target in zip((slice(0, S), slice(H, S)), _flat_index(S)):
        out.append(jnp.where(top_sh[rows, :, None] == target.astype(float), second_sh[rows, :, None],
                             first_sh[rows, :, None]))
    return out[0], out[1]


def split_step(best: tuple[jax.Array, jax.Array], key: jax.Array, shifts: tuple[int, ...],
               top2: tuple[jax.Array, jax.Array, jax.Array] | None = None,
               width: int | None = None) -> tuple[jax.Array, jax.Array]:
    """One forward step: folded table ``best`` (:func:`fold`) over the previous split, ``key`` ``(n, s)``
    -> the new folded table.

    ``key`` must be ``BIG`` on every cell that is not a split (``s > n``): the
    branch tables are not masked there, the key sends those cells to ``NEG``.
    ``width``: the new table's lattice columns (default: ``best``'s; more
    widens it, the new columns reached by the shifts only). When "up" and
    "down" shift alike (``mu_1 = mu_2``, static) the two branches are one
    (:func:`_changed_equal`, from :func:`split_top2` of ``best``, which may be
    passed in as ``top2``), on the folded parts; else the quadrant
    construction of the module doc on the unfolded table.
    """
    a_up, b_up, a_down, b_down, a_same, b_same = shifts
    low, high = best
    S, G1, H = low.shape
    width = G1 if width is None else int(width)
    if (a_up, b_up) == (a_down, b_down):
        changed = _changed_equal(split_top2(best) if top2 is None else top2, S, a_up, b_up, width)
        same = (shear_rows(low, a_same, b_same, width), shear_rows(high, a_same, b_same, width, base=H))
        keys = (key[:, None, :H], key[H:, None, H:])
        return tuple(jnp.maximum(jnp.maximum(c, m) - k, NEG) for c, m, k in zip(changed, same, keys))
    full = unfold(best)
    o_of_ns, n_of_os, s_idx = _indices(S)
    by_ns = jnp.transpose(full, (0, 2, 1))  # (n, s, g)
    by_os = jnp.concatenate([by_ns, jnp.full((1, S, G1), NEG)], 0)[n_of_os, s_idx]  # (o, s, g)
    neg_row = jnp.full((1, G1), NEG)
    a = jnp.concatenate([neg_row, _cummax(jnp.max(by_os, axis=1), 0)[:-1]], 0)   # best over o < o'
    b = jnp.concatenate([neg_row, _cummax(jnp.max(by_os, axis=0), 0)[:-1]], 0)   # best over s < s'
    up = jnp.maximum(jnp.concatenate([a, neg_row], 0)[o_of_ns], b[None, :, :])
    quad = _cummax(_cummax(by_os, 0, reverse=True), 1, reverse=True)            # best over o >= o', s >= s'
    quad = jnp.concatenate([jnp.concatenate([quad, jnp.full((S, 1, G1), NEG)], 1),
                            jnp.full((2, S + 1, G1), NEG)], 0)                 # (o in 0..S+1, s in 0..S)
    o_next = np.where(o_of_ns < S, o_of_ns + 1, S + 1)
    down = jnp.maximum(quad[o_next, s_idx], quad[o_of_ns, np.minimum(s_idx + 1, S)])
    to_ngs = lambda x: jnp.transpose(x, (0, 2, 1))  # noqa: E731
    new = jnp.maximum(jnp.maximum(shear_rows(to_ngs(up), a_up, b_up, width),
                                  shear_rows(to_ngs(down), a_down, b_down, width)),
                      shear_rows(full, a_same, b_same, width)) - key[:, None, :]
    return fold(jnp.maximum(new, NEG))


def split_back_lanes(table: tuple[jax.Array, jax.Array], lane: jax.Array, n: jax.Array, s: jax.Array,
                     g: jax.Array, wq_up: jax.Array, wq_down: jax.Array,
                     wq_same: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Previous split and lattice column of states ``(n, s, g)`` (a batch ``P``) in folded tables.

    ``table``: the two parts (:func:`fold`) with a leading lane axis; problem
    ``p`` reads lane ``lane[p]``; ``wq_*`` are ``(P, S)`` (its job's work
    rows). The first index of the maximum over every previous split.
    """
    low, high = table
    S, width, H = low.shape[1], low.shape[2], low.shape[3]
    n_p = np.arange(S)[None, :, None]
    s_p = np.arange(S)[None, None, :]
    P = n.shape[0]
    nn, ss = n[:, None, None], s[:, None, None]
    up = (nn - ss > n_p - s_p) | (ss > s_p)
    down = ~up & (nn < n_p)
    rows = jnp.arange(P)
    w = jnp.where(up, wq_up[rows, n][:, None, None],
                  jnp.where(down, wq_down[rows, n][:, None, None], wq_same[rows, n][:, None, None]))
    gp = g[:, None, None] - w
    inside = (s_p <= n_p) & (gp >= 0) & (gp < width)
    col = jnp.clip(gp, 0, width - 1)
    ln = lane[:, None, None]
    from_low = low[ln, n_p, col, np.minimum(s_p, H - 1)]
    from_high = high[ln, np.maximum(n_p - H, 0), col, np.maximum(s_p - H, 0)]
    val = jnp.where(inside, jnp.where(s_p < H, from_low, from_high), NEG)
    k = jnp.argmax(val.reshape(P, -1), axis=1)
    return k // S, k % S, jnp.take_along_axis(gp.reshape(P, -1), k[:, None], axis=1)[:, 0]


def split_back(table: tuple[jax.Array, jax.Array], n: jax.Array, s: jax.Array, g: jax.Array, wq_up: jax.Array,
               wq_down: jax.Array, wq_same: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Previous split ``(n, s)`` and lattice column at state ``(n, s, g)``: first index of the maximum."""
    one = jnp.zeros(1, jnp.int32)
    pn, ps, pg = split_back_lanes((table[0][None], table[1][None]), one, n[None], s[None], g[None], wq_up[None], wq_down[None],
                                  wq_same[None])
    return pn[0], ps[0], pg[0]


def split_window_dp(cost: jax.Array, tie: jax.Array, wq_up: jax.Array, wq_down: jax.Array,
                    wq_same: jax.Array, prev_n: jax.Array, prev_s: jax.Array, term: jax.Array,
                    shifts: tuple[int, ...]) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Exact DP of (10) with the changeover: ``cost, tie`` ``(W, S, S)``, ``term`` ``(G+1,)``.

    Returns the chosen counts ``n`` and spot shares ``s`` per window slot and the
    final lattice column. ``prev_n, prev_s``: the split of the slot before the window.
    """
    W, S, _ = cost.shape
    G1 = term.shape[0]
    init = split_init(S, prev_n, prev_s)
    init = tuple(jnp.concatenate([x, jnp.full((x.shape[0], G1 - 1, x.shape[2]), NEG)], axis=1) for x in init)

    def step(best, key):
        return split_step(best, key, shifts), best

    final, tables = jax.lax.scan(step, init, cost + tie)
    total = unfold(final) + term[None, :, None]
    flat = jnp.argmax(jnp.transpose(total, (0, 2, 1)).reshape(-1))  # first index over (n, s, g), as before
    n_end, s_end, g_end = flat // (S * G1), (flat // G1) % S, flat % G1

    def back(carry, table):
        n, s, g = carry
        pn, ps, pg = split_back(table, n, s, g, wq_up, wq_down, wq_same)
        return (pn, ps, pg), (n, s)

    _, (chosen_n, chosen_s) = jax.lax.scan(back, (n_end, s_end, g_end), tables, reverse=True)
    return chosen_n, chosen_s, g_end


def split_window_prefix(cost: jax.Array, tie: jax.Array, wq_up: jax.Array, wq_down: jax.Array,
                        wq_same: jax.Array, prev_n: jax.Array, prev_s: jax.Array, term: jax.Array,
                        shifts: tuple[int, ...]) -> tuple[jax.Array, jax.Array]:
    """:func:`split_window_dp` unrolled over the window's slots, on the reachable lattice prefix only.

    After ``i + 1`` slots the progress is at most ``(i + 1) G / W`` lattice steps
    (``G = W x`` the per-slot maximum, :func:`~aisched.online.spot.window.kernel.lattice_size`),
    so step ``i`` keeps ``(i + 1) G / W + 1`` columns; the cells beyond hold
    exactly ``NEG`` in :func:`split_window_dp`, so the values, the argmax and the
    chosen splits are the same (for the pool's batches, :mod:`~aisched.online.spot.window.batched`).
    """
    W, S, _ = cost.shape
    G1 = term.shape[0]
    per = (G1 - 1) // W
    best = split_init(S, prev_n, prev_s)
    keys = cost + tie
    tables = []
    for i in range(W):
        width = (i + 1) * per + 1 if i < W - 1 else G1
        tables.append(best)
        best = split_step(best, keys[i], shifts, width=width)
    total = unfold(best) + term[None, :, None]
    flat = jnp.argmax(jnp.transpose(total, (0, 2, 1)).reshape(-1))
    n, s, g = flat // (S * G1), (flat // G1) % S, flat % G1
    chosen_n, chosen_s = [], []
    for i in reversed(range(W)):
        chosen_n.append(n)
        chosen_s.append(s)
        n, s, g = split_back(tables[i], n, s, g, wq_up, wq_down, wq_same)
    return jnp.stack(chosen_n[::-1]), jnp.stack(chosen_s[::-1])
