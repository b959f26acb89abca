"""Fast numpy kernels behind :mod:`core.rope`: cached cos/sin tables, in-place rotation.

Dragging the query position ``m`` rotates keys at positions ``m − Δ`` for ~1000 offsets
every frame. The angles ``p·θ_i`` for integer ``p`` are looked up in a cached table of
a power-of-two aligned window of positions (:mod:`core.tablecache`) — the very values a
direct ``cos``/``sin`` gives — and rotations use slices instead of fancy indexing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import tablecache


def pair_slices(half: int, style: str) -> tuple[slice, slice]:
    """Slices ``(a, b)`` of the rotation pairs (``style`` already validated)."""
    if style == "half":
        return slice(0, half), slice(half, 2 * half)
    return slice(0, 2 * half, 2), slice(1, 2 * half, 2)


def rotate_numpy(
    xa: np.ndarray,
    pos: np.ndarray,
    inv: np.ndarray,
    pairs: tuple[slice, slice],
    attention_factor: float = 1.0,
) -> np.ndarray:
    """numpy path of :func:`core.rope.apply_rope`: the same arithmetic (element for
    element), on slices and in place instead of fancy-indexed copies.

    ``xa``: ``(..., seq, d)`` float array; ``pairs``: from :func:`pair_slices`.
    """
    a, b = pairs
    half = inv.size
    cos, sin = rope_cos_sin(pos, inv)
    if attention_factor != 1.0:
        cos *= attention_factor
        sin *= attention_factor
    xa_a, xa_b = xa[..., a], xa[..., b]
    out = np.empty(xa.shape, dtype=np.result_type(xa, 1.0))
    out[..., 2 * half :] = xa[..., 2 * half :]
    out_a, out_b = out[..., a], out[..., b]
    np.multiply(xa_a, cos, out=out_a)
    out_a -= xa_b * sin
    np.multiply(xa_a, sin, out=out_b)
    out_b += xa_b * cos
    return out


_TABLE_MIN_ITEMS = 2**12  # fewer angles are computed directly


def rope_cos_sin(positions: Any, inv_freq: Any) -> tuple[np.ndarray, np.ndarray]:
    """``cos(p·θ_i)`` and ``sin(p·θ_i)``, shape ``(len(positions), len(inv_freq))``.

    Integer positions are looked up in a cached table covering a power-of-two aligned
    window of positions (a query position dragged through a range reuses it); the values
    are those of the direct computation, element for element. Other positions, and
    tables over the cache's size limit, are computed directly.

    Returns
    -------
    (cos, sin) : tuple of numpy.ndarray
        Fresh arrays (the cache is never handed out).
    """
    pos = np.asarray(positions, dtype=np.float64).ravel()
    inv = np.asarray(inv_freq, dtype=np.float64).ravel()
    if (
        pos.size * inv.size >= _TABLE_MIN_ITEMS
        and np.all(np.isfinite(pos))
        and np.all(pos == np.floor(pos))
        and np.max(np.abs(pos)) < 2.0**50
    ):
        lo, hi = int(pos.min()), int(pos.max()) + 1
        block = tablecache.capacity(hi - lo)
        start, stop = (lo // block) * block, -(-hi // block) * block
        if tablecache.fits(2 * (stop - start) * inv.size):

            def make() -> tuple[np.ndarray, np.ndarray]:
                angles = np.arange(start, stop, dtype=np.float64)[:, None] * inv[None, :]
                return np.cos(angles), np.sin(angles)

            tables = tablecache.cached(
                ("rope-cos-sin", inv.tobytes(), start, stop), make, direct=lambda: None
            )  # first request: compute below
            if tables is not None:
                idx = pos.astype(np.int64) - start
                return tables[0][idx], tables[1][idx]
    angles = pos[:, None] * inv[None, :]
    return np.cos(angles), np.sin(angles)


def score_numpy(
    qr: np.ndarray,
    k: np.ndarray,
    key_positions: np.ndarray,
    inv: np.ndarray,
    pairs: tuple[slice, slice],
) -> np.ndarray:
    """``⟨qr, R_n k⟩`` for every key position ``n`` without building the rotated keys.

    Expanding the rotation, ``⟨qr, R_n k⟩ = Σ_i cos(nθ_i)(k_a q_a + k_b q_b)
    + sin(nθ_i)(k_a q_b − k_b q_a)`` plus the unrotated dims: two matrix-vector products
    with the cos/sin tables. Equal to ``apply_rope(k, n) @ qr`` up to summation order.
    """
    a, b = pairs
    half = inv.size
    cos, sin = rope_cos_sin(key_positions, inv)
    qa, qb, ka, kb = qr[a], qr[b], k[a], k[b]
    rest = float(k[2 * half :] @ qr[2 * half :])
    return np.asarray(cos @ (ka * qa + kb * qb) + sin @ (ka * qb - kb * qa) + rest)
