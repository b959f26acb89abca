"""ALiBi: attention with linear biases (Press, Smith & Lewis, 2022).

Each head h adds ``−m_h·(i − j)`` to the score of query i for key j (causal), so the
penalty grows linearly with distance. The bias depends on the distance i − j — never
on the key index j alone. The shortcut some code uses, ``+m·j`` (fairseq), differs from
``−m·(i − j)`` by ``−m·i``, a constant per row, so it gives the same causal *softmax*
without being the bias itself; ``−m·j`` (the opposite sign) reverses the preference,
favouring the first keys instead of the nearest ones (:func:`key_index_bias_row`).
"""

from __future__ import annotations

import math

import numpy as np

from core.backend import Backend, as_backend


def alibi_slopes(n_heads: int) -> np.ndarray:
    """Head slopes ``m_h``.

    For a power of two ``n``: ``m_h = 2^(−8h/n)``, ``h = 1..n``. Otherwise (Press et al.):
    the slopes of the closest lower power of two ``c``, followed by every other slope
    of ``2c`` heads, taking the first ``n − c`` of those.
    """
    n = int(n_heads)
    if n < 1:
        raise ValueError(f"n_heads must be at least 1, got {n_heads}")

    def power_of_two(count: int) -> np.ndarray:
        return np.power(2.0, -8.0 * np.arange(1, count + 1) / count)

    if n & (n - 1) == 0:
        return power_of_two(n)
    closest = 2 ** int(math.floor(math.log2(n)))
    extra = alibi_slopes(2 * closest)[0::2][: n - closest]
    return np.concatenate([power_of_two(closest), extra])


def alibi_bias(
    seq_len: int,
    n_heads: int,
    causal: bool = True,
    *,
    rows: np.ndarray | None = None,
    cols: np.ndarray | None = None,
    heads: np.ndarray | None = None,
    backend: Backend | str | None = None,
) -> np.ndarray:
    """ALiBi bias tensor ``(n_heads, seq_len, seq_len)``.

    Parameters
    ----------
    seq_len, n_heads
        Size of the full tensor.
    causal
        ``True``: ``−m_h·(i − j)`` for ``j <= i`` and ``−inf`` for ``j > i`` (masked).
        ``False``: symmetric ``−m_h·|i − j|``.
    rows, cols, heads
        Optional subsets (display-resolution sampling); values are exact there.
    backend
        Array backend (``None``: numpy).
    """
    if int(seq_len) < 1:
        raise ValueError(f"seq_len must be at least 1, got {seq_len}")
    be = as_backend(backend)
    slopes = alibi_slopes(n_heads)
    if heads is not None:
        slopes = slopes[np.asarray(heads)]
    i = np.arange(seq_len) if rows is None else np.asarray(rows)
    j = np.arange(seq_len) if cols is None else np.asarray(cols)
    dist = be.asarray(i[:, None] - j[None, :])
    m = be.asarray(slopes)[:, None, None]
    if causal:
        bias = -m * dist[None]
        mask = be.asarray(j[None, :] > i[:, None], dtype=bool if be.name == "numpy" else None)
        if be.name == "numpy":
            bias = np.where(mask[None], -np.inf, bias)
        else:
            bias = bias.masked_fill(mask.bool()[None], float("-inf"))
    else:
        bias = -m * be.xp.abs(dist)[None]
    return be.to_numpy(bias + 0.0)  # + 0.0 turns −0 on the diagonal into 0


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax; ``−inf`` entries get weight 0."""
    s = np.asarray(scores, dtype=np.float64)
    top = np.max(s, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(s - top)
    return np.asarray(e / np.sum(e, axis=axis, keepdims=True))


def alibi_attention_row(
    scores: np.ndarray, query: int, slope: float, causal: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Softmax attention of one query row without and with the ALiBi bias.

    Returns
    -------
    (weights_without, weights_with) : tuple of numpy.ndarray
        Both of length ``len(scores)``; the causal mask applies to both.
    """
    scores = np.asarray(scores, dtype=np.float64)
    j = np.arange(scores.size)
    dist = query - j
    bias = -slope * (dist if causal else np.abs(dist))
    base = scores.copy()
    if causal:
        base = np.where(j > query, -np.inf, base)
    return softmax(base), softmax(base + np.where(np.isfinite(base), bias, 0.0))


def key_index_bias_row(
    scores: np.ndarray, query: int, slope: float, sign: float, causal: bool = True
) -> np.ndarray:
    """Softmax of one query row with the key-index bias ``sign·m·j`` instead of ALiBi.

    ``sign = +1`` is the fairseq shortcut (the same causal softmax as ``−m·(i − j)``);
    ``sign = −1`` penalises late keys, the opposite of ALiBi's preference.
    """
    scores = np.asarray(scores, dtype=np.float64)
    j = np.arange(scores.size)
    base = np.where(j > query, -np.inf, scores) if causal else scores
    return softmax(base + float(sign) * float(slope) * j)


# ------------------------------------------------------------------ other bias families
def kerple_log_bias(distance: np.ndarray, r1: float, r2: float) -> np.ndarray:
    """KERPLE, logarithmic variant (Chi et al. 2022): ``−r1·log(1 + r2·|i − j|)``, r1, r2 > 0."""
    return np.asarray(
        -float(r1) * np.log1p(float(r2) * np.abs(np.asarray(distance, dtype=np.float64)))
    )


def kerple_power_bias(distance: np.ndarray, r1: float, r2: float) -> np.ndarray:
    """KERPLE, power variant (Chi et al. 2022): ``−r1·|i − j|^r2``, r1 > 0, 0 < r2 ≤ 2."""
    return np.asarray(
        -float(r1) * np.power(np.abs(np.asarray(distance, dtype=np.float64)), float(r2))
    )


def sandwich_bias(distance: np.ndarray, d_model: int, n_heads: int, head: int = 1) -> np.ndarray:
    """Sandwich (Chi et al. 2023, "Dissecting Transformer Length Extrapolation via the Lens
    of Receptive Field Analysis") for head ``head`` (1-based), as NeMo's
    ``SandwichRelativePositionEmbedding``:
    ``(Σ_{k=1}^{d/2} cos(Δ / 10000^{2k/d}) − d/2) / (h·8/H)``.

    The inner product of two sinusoidal position vectors ``Δ`` apart, shifted to 0 at
    ``Δ = 0`` and scaled per head like ALiBi's slopes.
    """
    d = int(d_model)
    k = np.arange(1, d // 2 + 1, dtype=np.float64)
    inv_freq = 1.0 / np.power(10000.0, 2.0 * k / d)
    delta = np.asarray(distance, dtype=np.float64)
    total = np.zeros(delta.shape)
    chunk = max(1, 2**20 // max(k.size, 1))  # Δ × frequency temporaries stay ~8 MiB
    flat = delta.ravel()
    out = total.ravel()
    for a in range(0, flat.size, chunk):
        out[a : a + chunk] = np.cos(flat[a : a + chunk, None] * inv_freq[None, :]).sum(axis=1)
    return np.asarray((out.reshape(delta.shape) - d / 2.0) / (int(head) * 8.0 / int(n_heads)))


# FIRE's f_θ (Li et al. 2023) is a learned MLP; this fixed toy stands in for a trained one:
# 1 → 3 ReLU units → 1, f(x) = Σ_k w2_k·relu(w1_k·x + b1_k) with f(0) = 0.
FIRE_W1 = (1.0, 1.0, 1.0)
FIRE_B1 = (0.0, -0.3, -0.7)
FIRE_W2 = (-8.0, 5.0, 2.0)
FIRE_C = 1.0  # ψ(x) = log(c·x + 1); c is learned in FIRE, fixed here


def fire_psi(x: np.ndarray, c: float = FIRE_C) -> np.ndarray:
    """FIRE's monotone transform ``ψ(x) = log(c·x + 1)``."""
    return np.asarray(np.log1p(float(c) * np.asarray(x, dtype=np.float64)))


def fire_mlp(x: np.ndarray) -> np.ndarray:
    """The fixed toy MLP ``f_θ`` (see :data:`FIRE_W1`, :data:`FIRE_B1`, :data:`FIRE_W2`)."""
    v = np.asarray(x, dtype=np.float64)
    out = np.zeros(v.shape)
    for w1, b1, w2 in zip(FIRE_W1, FIRE_B1, FIRE_W2, strict=True):
        out += w2 * np.maximum(w1 * v + b1, 0.0)
    return out


def fire_bias(query: np.ndarray, key: np.ndarray, threshold: int) -> np.ndarray:
    """FIRE (Li et al. 2023): ``b(i, j) = f_θ(ψ(i − j) / ψ(max(L, i)))`` for ``j ≤ i``.

    ``L`` (``threshold``, learned in FIRE) is taken as the training length: the input of
    f_θ stays in [0, 1] at any length, so a longer sequence is squeezed into the range
    the MLP saw (progressive interpolation) instead of leaving it.
    """
    i = np.asarray(query, dtype=np.float64)
    j = np.asarray(key, dtype=np.float64)
    den = fire_psi(np.maximum(float(threshold), i))
    den = np.where(den > 0, den, 1.0)  # ψ(0) = 0: query 0 with L = 0 sees only itself
    return fire_mlp(fire_psi(i - j) / den)
