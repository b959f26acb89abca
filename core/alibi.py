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
