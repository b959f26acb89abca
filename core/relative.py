"""Relative-position schemes: the course material's grid, Shaw et al. clipping, T5 buckets."""

from __future__ import annotations

import math

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
