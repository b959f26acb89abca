"""Relative-position schemes: the course material's grid, Shaw et al. clipping, T5 buckets,
DeBERTa's log buckets and disentangled terms, Transformer-XL's R_{i−j} with u, v."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike


def relative_positions(
    seq_len: int, *, rows: ArrayLike | None = None, cols: ArrayLike | None = None
) -> np.ndarray:
    """Relative-distance grid ``[i, j] = i − j`` (query minus key), as in the course material.

    Note the sign: T5 and Shaw et al. use ``j − i`` (key minus query) instead.
    """
    if int(seq_len) < 1:
        raise ValueError(f"seq_len must be at least 1, got {seq_len}")
    i = np.arange(seq_len) if rows is None else np.asarray(rows)
    j = np.arange(seq_len) if cols is None else np.asarray(cols)
    return i[:, None].astype(np.int64) - j[None, :].astype(np.int64)


def shaw_relative_index(
    seq_len: int,
    max_relative_position: int,
    *,
    rows: ArrayLike | None = None,
    cols: ArrayLike | None = None,
) -> np.ndarray:
    """Shaw et al. (2018) embedding index ``clip(j − i, −k, k) + k`` in ``0..2k``."""
    k = int(max_relative_position)
    if k < 0:
        raise ValueError(f"max_relative_position must be >= 0, got {max_relative_position}")
    rel = -relative_positions(seq_len, rows=rows, cols=cols)  # j − i
    return np.asarray(np.clip(rel, -k, k) + k)


def t5_relative_bucket(
    relative_position: np.ndarray | int,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> np.ndarray:
    """T5's relative-position bucket, exactly as HF ``T5Attention._relative_position_bucket``.

    Parameters
    ----------
    relative_position
        ``key − query`` (memory position minus query position); any integer array.
    bidirectional
        Encoder-style: half the buckets for keys after the query. Otherwise (decoder)
        keys after the query all fall in bucket 0.
    num_buckets, max_distance
        Half of the (per direction) buckets are exact distances, the rest are
        logarithmic up to ``max_distance``; farther distances share the last bucket.

    Returns
    -------
    numpy.ndarray
        int64 buckets in ``0..num_buckets-1``. Computed in float32 like HF/torch so
        that boundary cases agree exactly.
    """
    rel = np.asarray(relative_position, dtype=np.int64)
    buckets = np.zeros_like(rel)
    n = int(num_buckets)
    if bidirectional:
        n //= 2
        buckets += (rel > 0).astype(np.int64) * n
        rel = np.abs(rel)
    else:
        rel = -np.minimum(rel, 0)
    max_exact = n // 2
    if max_exact < 1:
        raise ValueError(
            f"num_buckets={num_buckets} is too few: T5 needs 2 buckets per direction "
            "(num_buckets >= 4 bidirectional, >= 2 causal)"
        )
    if max_distance <= max_exact:
        raise ValueError(
            f"max_distance={max_distance} must be greater than the {max_exact} exact "
            f"distances of num_buckets={num_buckets} to leave room for logarithmic buckets"
        )
    is_small = rel < max_exact
    safe = np.maximum(rel, 1).astype(np.float32) / np.float32(max_exact)
    scaled = (
        np.log(safe) / np.float32(math.log(max_distance / max_exact)) * np.float32(n - max_exact)
    )
    large = max_exact + scaled.astype(np.int64)
    large = np.minimum(large, n - 1)
    return buckets + np.where(is_small, rel, large)


# ------------------------------------------------------------------ DeBERTa (He et al. 2021)
def deberta_log_bucket(
    relative_position: ArrayLike, bucket_size: int, max_position: int
) -> np.ndarray:
    """DeBERTa-v2/v3's bucketed relative position, exactly as HF transformers'
    ``make_log_bucket_position`` (``modeling_deberta_v2.py``).

    Parameters
    ----------
    relative_position
        ``query − key`` (DeBERTa's ``build_relative_position``: ``q_ids[:, None] −
        k_ids[None, :]``, the course grid's sign); any integer array.
    bucket_size
        ``position_buckets`` (256 in DeBERTa-v3). Offsets with ``|δ| <= bucket_size // 2``
        keep their value; larger ones are compressed logarithmically.
    max_position
        ``max_relative_positions`` (512 in DeBERTa-v3): ``|δ| = max_position − 1`` lands
        in bucket ``±(2·(bucket_size // 2) − 1)``; farther offsets keep growing slowly.

    Returns
    -------
    numpy.ndarray
        int64 buckets. Computed in float32 like HF/torch, so boundary cases agree.
    """
    mid = int(bucket_size) // 2
    if mid < 1:
        raise ValueError(f"position_buckets={bucket_size} is too few: DeBERTa needs at least 2")
    if int(max_position) - 1 <= mid:
        raise ValueError(
            f"max_relative_positions={max_position} must exceed position_buckets // 2 + 1 = "
            f"{mid + 1} (the logarithmic buckets span |δ| = {mid}..max_relative_positions − 1)"
        )
    rel = np.asarray(relative_position, dtype=np.int64)
    sign = np.sign(rel).astype(np.float32)
    abs_pos = np.where((rel < mid) & (rel > -mid), mid - 1, np.abs(rel))
    ratio = abs_pos.astype(np.float32) / np.float32(mid)
    # float32 like torch; each log correctly rounded (log in float64, then float32), which
    # matches torch's float32 log except, rarely, by one bucket in degenerate settings
    # (max_relative_positions just above position_buckets // 2)
    with np.errstate(divide="ignore", invalid="ignore"):  # log 0 only when mid = 1: unused
        log_ratio = np.log(ratio.astype(np.float64)).astype(np.float32)
        log_max = np.float32(np.log(np.float64(np.float32((int(max_position) - 1) / mid))))
        log_pos = np.ceil(log_ratio / log_max * np.float32(mid - 1)) + np.float32(mid)
    bucket = np.where(abs_pos <= mid, rel.astype(np.float32), log_pos * sign)
    return np.asarray(bucket.astype(np.int64))


def deberta_index(bucket: ArrayLike, span: int) -> np.ndarray:
    """Row of the relative-embedding table a bucket reads: ``clamp(δ + span, 0, 2·span − 1)``
    (HF ``c2p_pos``; ``span`` is ``position_buckets``, or ``max_relative_positions``
    without buckets)."""
    return np.asarray(np.clip(np.asarray(bucket, dtype=np.int64) + int(span), 0, 2 * int(span) - 1))


# ------------------------------------------------------------------ Transformer-XL (Dai et al. 2019)
def transformer_xl_r(distances: ArrayLike, d_model: int) -> np.ndarray:
    """Transformer-XL's relative encoding ``R_Δ = [sin(Δ·f), cos(Δ·f)]`` (halves, not
    interleaved), ``f_k = 1 / 10000^(2k/d)``, as in its ``PositionalEmbedding``."""
    d = int(d_model)
    if d < 2 or d % 2:
        raise ValueError(f"Transformer-XL's R needs an even width >= 2, got {d_model}")
    inv_freq = 1.0 / np.power(10000.0, np.arange(0, d, 2, dtype=np.float64) / d)
    ang = np.asarray(distances, dtype=np.float64)[:, None] * inv_freq[None, :]
    return np.concatenate([np.sin(ang), np.cos(ang)], axis=1)


# ------------------------------------------------------------------ toy heads for the terms
TOY_WIDTH = 16  # width of the toy heads whose score terms the relative view draws
TOY_SEED = 2019


@lru_cache(maxsize=4)
def toy_head(d: int = TOY_WIDTH) -> dict[str, np.ndarray]:
    """Fixed toy weights (seeded, read-only): ``W_q, W_kE, W_kR`` (``d × d``, entries
    N(0, 1/d)) and Transformer-XL's global biases ``u, v`` (N(0, 1))."""
    rng = np.random.default_rng([TOY_SEED, int(d)])
    out = {name: rng.standard_normal((d, d)) / np.sqrt(d) for name in ("W_q", "W_kE", "W_kR")}
    out["u"] = rng.standard_normal(d)
    out["v"] = rng.standard_normal(d)
    for a in out.values():
        a.flags.writeable = False
    return out


@lru_cache(maxsize=4)
def deberta_rel_embeddings(span: int, d: int = TOY_WIDTH) -> np.ndarray:
    """Toy relative-embedding table ``P`` of DeBERTa: ``2·span`` rows, N(0, 1), seeded."""
    table = np.random.default_rng([TOY_SEED, int(d), int(span), 1]).standard_normal((2 * span, d))
    table.flags.writeable = False
    return table


def transformer_xl_terms(query: int, keys: ArrayLike, d: int = TOY_WIDTH) -> np.ndarray:
    """Dai et al. (2019) eq. (the terms (a)–(d)) for one query over ``keys``, ``(4, len)``.

    ``A_ij = q_i·k_j (a) + q_i·W_kR R_{i−j} (b) + u·k_j (c) + v·W_kR R_{i−j} (d)`` with
    ``q_i = W_q x_i``, ``k_j = W_kE x_j`` (toy token vectors ``x``), ``R`` from
    :func:`transformer_xl_r` and every term scaled by ``1/√d`` as in the implementation.
    """
    from core.sinusoidal import toy_token_embeddings

    w = toy_head(d)
    j = np.asarray(keys, dtype=np.int64)
    x = toy_token_embeddings(np.append(j, int(query)), d)
    q = w["W_q"] @ x[-1]
    k = x[:-1] @ w["W_kE"].T
    r = transformer_xl_r(int(query) - j, d) @ w["W_kR"].T
    scale = 1.0 / np.sqrt(d)
    return np.asarray(scale * np.stack([k @ q, r @ q, k @ w["u"], r @ w["v"]]))


def deberta_terms(
    query: int, keys: ArrayLike, bucket_size: int, max_position: int, d: int = TOY_WIDTH
) -> np.ndarray:
    """DeBERTa's disentangled score for one query over ``keys``, ``(3, len)``: c2c, c2p, p2c.

    As HF ``DisentangledSelfAttention`` with ``share_att_key`` (DeBERTa-v3):
    ``Q = H W_q``, ``K = H W_k``, ``Q_r = P W_q``, ``K_r = P W_k``, δ = log bucket of
    ``i − j``; ``c2c = Q_i·K_j``, ``c2p = Q_i·K_r[clamp(δ(i, j) + k)]``, ``p2c =
    K_j·Q_r[clamp(−δ(j, i) + k)]``, each over ``√(3d)`` (scale factor 1 + 2 terms).
    """
    from core.sinusoidal import toy_token_embeddings

    span = int(bucket_size)
    w = toy_head(d)
    j = np.asarray(keys, dtype=np.int64)
    h = toy_token_embeddings(np.append(j, int(query)), d)
    q_i = h[-1] @ w["W_q"]
    k = h[:-1] @ w["W_kE"]
    p = deberta_rel_embeddings(span, d)
    c2p_row = deberta_index(deberta_log_bucket(int(query) - j, span, max_position), span)
    p2c_row = deberta_index(-deberta_log_bucket(j - int(query), span, max_position), span)
    k_r = p[c2p_row] @ w["W_kE"]
    q_r = p[p2c_row] @ w["W_q"]
    scale = 1.0 / np.sqrt(3.0 * d)
    return np.asarray(scale * np.stack([k @ q_i, k_r @ q_i, np.einsum("nd,nd->n", k, q_r)]))
