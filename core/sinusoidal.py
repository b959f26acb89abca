"""Sinusoidal positional encoding (Vaswani et al., 2017).

Layout convention: *interleaved* sin/cos, as in the paper and the course material:
``PE[p, 2i] = sin(p·ω_i)`` and ``PE[p, 2i+1] = cos(p·ω_i)`` with ``ω_i = base^(−2i/d)``.
An odd ``d_model`` works: its last column is a sine.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from core import tablecache
from core.backend import Backend, as_backend
from core.toeplitz import even_step, offsets, toeplitz_view

_CACHE_MIN_ITEMS = 2**14  # smaller tables are cheaper to compute than to look up


def _check_sizes(seq_len: int, d_model: int) -> None:
    if int(seq_len) < 1:
        raise ValueError(f"seq_len must be at least 1, got {seq_len}")
    if int(d_model) < 1:
        raise ValueError(f"d_model must be at least 1, got {d_model}")


def sinusoidal_frequencies(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Angular frequency of every column: ``ω_{⌊c/2⌋} = base^(−2⌊c/2⌋/d_model)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model,)``; columns ``2i`` and ``2i+1`` share ``ω_i``.
    """
    if base <= 0:
        raise ValueError(f"base must be positive, got {base}")
    pair = np.arange(d_model) // 2
    return np.power(float(base), -2.0 * pair / d_model)


def sinusoidal_wavelengths(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Wavelength in positions of every column, ``2π/ω``: from 2π up to
    ``2π·base^(2(⌈d/2⌉ − 1)/d)`` (below ``2π·base``: at d = 16 by a factor base^(1/8))."""
    return 2.0 * np.pi / sinusoidal_frequencies(d_model, base)


def sinusoidal(
    seq_len: int,
    d_model: int,
    base: float = 10000.0,
    *,
    positions: ArrayLike | None = None,
    dims: ArrayLike | None = None,
    backend: Backend | str | None = None,
) -> np.ndarray:
    """Sinusoidal position-encoding matrix.

    Parameters
    ----------
    seq_len, d_model
        Matrix size ``(seq_len, d_model)``; any ``d_model >= 1`` (odd works).
    base
        Frequency base (10000 in the paper).
    positions, dims
        Optional subsets of rows / columns (used for display-resolution sampling);
        values are exact at those entries.
    backend
        Array backend (``None``: numpy).

    Returns
    -------
    numpy.ndarray
        ``PE[p, 2i] = sin(p·ω_i)``, ``PE[p, 2i+1] = cos(p·ω_i)``.
    """
    _check_sizes(seq_len, d_model)
    be = as_backend(backend)
    pos = np.arange(seq_len) if positions is None else np.asarray(positions)
    cols = np.arange(d_model) if dims is None else np.asarray(dims)
    omega = sinusoidal_frequencies(d_model, base)[cols]
    xp = be.xp
    even = cols % 2 == 0
    p = be.asarray(pos)[:, None]
    if be.name == "numpy":  # one trig call per entry: sin on even columns, cos on odd
        out = np.empty((len(pos), len(cols)))
        out[:, even] = np.sin(p * omega[even])
        out[:, ~even] = np.cos(p * omega[~even])
        return out
    angles = p * be.asarray(omega)[None, :]
    is_sin = be.asarray(even)
    return be.to_numpy(is_sin * xp.sin(angles) + (1 - is_sin) * xp.cos(angles))


def sinusoidal_strided(
    count: int,
    d_model: int,
    base: float = 10000.0,
    *,
    pos_step: int = 1,
    dim_step: int = 1,
    backend: Backend | str | None = None,
) -> np.ndarray:
    """PE rows ``0, s, 2s, …`` and columns ``0, t, 2t, …`` (a display sample), cached.

    Equals ``sinusoidal(…, positions=s·arange(count), dims=arange(0, d_model, t))``
    element for element. The table is computed once for :func:`core.tablecache.capacity`
    rows and sliced, so a ``seq_len`` drag costs a slice per frame.

    Returns
    -------
    numpy.ndarray
        Read-only when cached (do not write into it; copy first).
    """
    _check_sizes(count, d_model)
    be = as_backend(backend)
    dims = np.arange(0, int(d_model), int(dim_step))
    cap = tablecache.capacity(count)
    if count * dims.size < _CACHE_MIN_ITEMS or not tablecache.fits(cap * dims.size):
        return sinusoidal(
            count, d_model, base, positions=int(pos_step) * np.arange(count), dims=dims, backend=be
        )
    key = ("sinusoidal", int(d_model), float(base), int(pos_step), int(dim_step), cap, be)

    def table(rows: int) -> np.ndarray:
        return sinusoidal(
            rows, d_model, base, positions=int(pos_step) * np.arange(rows), dims=dims, backend=be
        )

    return tablecache.cached(key, lambda: table(cap), direct=lambda: table(count))[:count]


def _pair_cos_sum(offs: np.ndarray, d_model: int, base: float) -> np.ndarray:
    """``Σ_i cos(Δ·ω_i)`` over the complete sin/cos column pairs (``d_model // 2`` of them)."""
    omega = sinusoidal_frequencies(d_model, base)[0 : 2 * (d_model // 2) : 2]
    return np.asarray(
        np.cos(np.asarray(offs, dtype=np.float64)[:, None] * omega[None, :]).sum(axis=1)
    )


def _pair_part(count: int, step: int, d_model: int, base: float) -> np.ndarray:
    """Toeplitz pair part of the similarity on ``count`` positions ``step`` apart."""
    cap = tablecache.capacity(count)
    if count * max(d_model // 2, 1) < _CACHE_MIN_ITEMS or not tablecache.fits(
        (2 * cap - 1) * max(d_model // 2, 1)
    ):
        return toeplitz_view(_pair_cos_sum(offsets(count, step), d_model, base), count)
    key = ("sinusoidal-pairs", int(d_model), float(base), int(step), cap)
    values = tablecache.cached(
        key,
        lambda: _pair_cos_sum(offsets(cap, step), d_model, base),
        direct=lambda: _pair_cos_sum(offsets(count, step), d_model, base),
    )
    return toeplitz_view(values, count)


def similarity_grid(positions: np.ndarray, d_model: int, base: float = 10000.0) -> np.ndarray:
    """``PE_p · PE_q`` for ``p, q`` in ``positions``, without the ``n×n×d`` product.

    On evenly spaced positions the sin/cos pairs give ``Σ_i cos((p−q)·ω_i)``, a Toeplitz
    matrix built from one vector over the offsets (cached for a ``seq_len`` drag); an odd
    ``d_model`` adds the lone last sine column, ``sin(p·ω) sin(q·ω)``. Other positions
    fall back to ``PE @ PE.T``. Equal to the matrix product to rounding.

    Returns
    -------
    numpy.ndarray
        ``(len(positions), len(positions))``; may be a read-only view (copy to write).
    """
    pos = np.asarray(positions)
    _check_sizes(max(pos.size, 1), d_model)
    step = even_step(pos)
    if step is None:
        pe = sinusoidal(int(pos.max()) + 1 if pos.size else 1, d_model, base, positions=pos)
        return np.asarray(pe @ pe.T)
    sim = _pair_part(pos.size, step, d_model, base)
    if d_model % 2:
        lone = np.sin(pos * sinusoidal_frequencies(d_model, base)[-1])
        sim = sim + lone[:, None] * lone[None, :]
    return sim


def sinusoidal_similarity(
    seq_len: int,
    d_model: int,
    base: float = 10000.0,
    *,
    positions: np.ndarray | None = None,
    backend: Backend | str | None = None,
) -> np.ndarray:
    """Dot products ``PE_p · PE_q`` between positions (the relative-structure matrix).

    For even ``d_model`` this equals ``Σ_i cos((p−q)·ω_i)``, which depends only on p−q.
    With numpy and evenly spaced positions it is computed that way
    (:func:`similarity_grid`, equal to ``PE @ PE.T`` to rounding); otherwise as the product.
    """
    pos = np.arange(seq_len) if positions is None else np.asarray(positions)
    if as_backend(backend).name == "numpy" and even_step(pos) is not None:
        _check_sizes(seq_len, d_model)
        return np.array(similarity_grid(pos, d_model, base))
    pe = sinusoidal(seq_len, d_model, base, positions=positions, backend=backend)
    return np.asarray(pe @ pe.T)


def sinusoidal_dot_vs_offset(
    offsets: np.ndarray, d_model: int, base: float = 10000.0
) -> np.ndarray:
    """``PE_p · PE_{p+Δ}`` as a function of the offset Δ (independent of p for even d)."""
    offsets = np.asarray(offsets, dtype=np.float64)
    omega = sinusoidal_frequencies(d_model, base)[0::2]
    total: np.ndarray = np.cos(offsets[:, None] * omega[None, :]).sum(axis=1)
    if d_model % 2:  # the lone last sine column: sin(pω)sin((p+Δ)ω) is not shift invariant
        total = total - 0.5 * np.cos(offsets * omega[-1])  # its p-averaged value is cos(Δω)/2
    return total


def dirichlet_mean_factor(omega: np.ndarray, count: int) -> np.ndarray:
    """``mean_{a<count} e^{i·a·ω}`` in modulus: ``sin(count·ω/2) / (count·sin(ω/2))``.

    The mean of ``sin((p0 + a)·ω)`` over ``a = 0..count−1`` is this factor times
    ``sin((p0 + (count−1)/2)·ω)`` (the same for cos): averaging a block of positions
    keeps a wave's phase at the block centre and shrinks fast waves towards 0.
    """
    w = np.asarray(omega, dtype=np.float64)
    if count <= 1:
        return np.ones_like(w)
    den = count * np.sin(w / 2.0)
    safe = np.where(np.abs(den) > 1e-300, den, 1.0)
    return np.where(np.abs(den) > 1e-300, np.sin(count * w / 2.0) / safe, 1.0)


def sinusoidal_block_mean(
    count: int, d_model: int, base: float, pos_step: int, dims: np.ndarray
) -> np.ndarray:
    """Mean of ``PE[p, c]`` over each block ``p ∈ [k·s, (k+1)·s)``, ``k < count``.

    Exact (closed form, :func:`dirichlet_mean_factor`): what a cell standing for ``s``
    positions shows without inventing stripes that a plain sample (every s-th row) would.
    """
    _check_sizes(count, d_model)
    cols = np.asarray(dims)
    omega = sinusoidal_frequencies(d_model, base)[cols]
    s = int(pos_step)
    centre = s * np.arange(count, dtype=np.float64)[:, None] + (s - 1) / 2.0
    ang = centre * omega[None, :]
    wave = np.where(cols % 2 == 0, np.sin(ang), np.cos(ang))
    return np.asarray(wave * dirichlet_mean_factor(omega, s)[None, :])


def similarity_block_mean(count: int, step: int, d_model: int, base: float) -> np.ndarray:
    """Mean of ``PE_p·PE_q`` over each ``step × step`` block of positions (exact).

    For the sin/cos pairs the mean over a block pair ``Δ0 = p0 − q0`` apart is
    ``Σ_i D_i² cos(Δ0·ω_i)`` with ``D_i`` the :func:`dirichlet_mean_factor`; an odd
    ``d_model``'s lone sine column adds ``D² sin(c_p·ω) sin(c_q·ω)`` at the block centres.
    """
    _check_sizes(count, d_model)
    s = int(step)
    omega = sinusoidal_frequencies(d_model, base)[0 : 2 * (d_model // 2) : 2]
    damp = dirichlet_mean_factor(omega, s) ** 2

    def by_offset(size: int) -> np.ndarray:
        offs = np.asarray(offsets(size, s), dtype=np.float64)
        chunk = max(1, 2**20 // max(omega.size, 1))  # offset × frequency temporaries ~8 MiB
        return np.concatenate(
            [
                np.cos(offs[a : a + chunk, None] * omega[None, :]) @ damp
                for a in range(0, offs.size, chunk)
            ]
        )

    cap = tablecache.capacity(count)  # a seq_len drag changes count, rarely the step
    key = ("sinusoidal-block-similarity", int(d_model), float(base), s, cap)
    values = tablecache.cached(key, lambda: by_offset(cap), direct=lambda: by_offset(count))
    sim = toeplitz_view(values, count)
    if d_model % 2:
        w = sinusoidal_frequencies(d_model, base)[-1]
        centre = s * np.arange(count, dtype=np.float64) + (s - 1) / 2.0
        lone = np.sin(centre * w) * dirichlet_mean_factor(np.array([w]), s)[0]
        sim = sim + lone[:, None] * lone[None, :]
    return sim


# ------------------------------------------------------------------ token + PE (the sum)
TOKEN_SEED = 20170612  # the toy token embeddings (Vaswani et al. appeared 12 June 2017)
_TOKEN_BLOCK = 64  # positions per cached block of toy token rows


@lru_cache(maxsize=8)
def _token_block(d_model: int, block: int) -> np.ndarray:
    """Toy token rows ``block·64 .. block·64 + 63`` (one seeded stream per block; read-only)."""
    rng = np.random.default_rng([TOKEN_SEED, int(d_model), int(block)])
    rows = rng.standard_normal((_TOKEN_BLOCK, int(d_model)))
    rows.flags.writeable = False
    return rows


def toy_token_embeddings(positions: ArrayLike, d_model: int) -> np.ndarray:
    """Seeded N(0, 1) toy token embedding of the token at each position, ``(len, d_model)``.

    Like the course's ``token_emb = torch.randn(seq_len, d_model)``: every position holds
    some token whose vector is random. Rows come from blocks of 64 positions with their
    own random stream, so a row is the same whichever window of positions asks for it.
    """
    pos = np.asarray(positions, dtype=np.int64).ravel()
    if pos.size and int(pos.min()) < 0:
        raise ValueError("positions must be non-negative")
    out = np.empty((pos.size, int(d_model)))
    blocks = pos // _TOKEN_BLOCK
    for b in np.unique(blocks):
        sel = blocks == b
        out[sel] = _token_block(int(d_model), int(b))[pos[sel] % _TOKEN_BLOCK]
    return out


# The four-term panel slices the cached PE table only while the table up to its last key
# stays this small; a window far down a long sequence computes just its own rows (the
# whole table up to position 40 000 at d_model 16 384 took 23 s).
_SCORE_TABLE_ITEMS = 1 << 22


def score_terms(
    query: int, keys: np.ndarray, d_model: int, base: float = 10000.0, emb_std: float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The four terms of ``(x_i + p_i)·(x_j + p_j)`` for query ``i`` and keys ``j``.

    ``x`` are the toy token embeddings times ``emb_std`` (:func:`toy_token_embeddings`),
    ``p`` the sinusoidal PE. Identity projections: this is the dot product of the inputs,
    the part of ``q·k`` that adding PE to the input creates before ``W_q``, ``W_k``.

    Returns
    -------
    (terms, x_i, p_i)
        ``terms`` is ``(4, len(keys))``: content–content ``x_i·x_j``, content–position
        ``x_i·p_j``, position–content ``p_i·x_j``, position–position ``p_i·p_j``;
        ``x_i`` and ``p_i`` are the query token's embedding and PE (``(d_model,)``).
    """
    keys = np.asarray(keys, dtype=np.int64)
    rows = np.append(keys, int(query))
    x = float(emb_std) * toy_token_embeddings(rows, d_model)
    step = even_step(keys)
    rows_to_end = int(keys[-1]) + 1
    small = rows_to_end * int(d_model) <= _SCORE_TABLE_ITEMS  # else only the window's rows
    if small and step == 1 and keys[0] <= query <= keys[-1]:  # a slice of the cached table
        table = sinusoidal_strided(rows_to_end, d_model, base)
        ps, pi = table[keys[0] :], table[int(query)]
    else:
        p = sinusoidal(int(rows.max()) + 1, d_model, base, positions=rows)
        ps, pi = p[:-1], p[-1]
    xi, xs = x[-1], x[:-1]
    terms = np.stack([xs @ xi, ps @ xi, xs @ pi, ps @ pi])
    return terms, xi, np.array(pi)
