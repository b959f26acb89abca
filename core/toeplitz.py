"""Toeplitz (offset-only) matrices built from one vector, without an n×n computation.

Many display matrices depend only on the offset between a row position and a column
position (``i − j``): sinusoidal ``PE_p·PE_q``, the relative-position grid, Shaw indices,
T5 buckets. On evenly spaced positions such a matrix is Toeplitz, so it is enough to
evaluate the function once per offset and arrange the values — exactly the same numbers
as evaluating every cell, at a fraction of the cost.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def even_step(positions: np.ndarray) -> int | None:
    """The step of evenly spaced integer ``positions`` (``1`` for one position), else None."""
    pos = np.asarray(positions)
    if pos.ndim != 1 or pos.size == 0 or pos.dtype.kind not in "iu":
        return None
    if pos.size == 1:
        return 1
    step = int(pos[1] - pos[0])
    if step == 0 or not np.all(np.diff(pos) == step):
        return None
    return step


def offsets(count: int, step: int = 1) -> np.ndarray:
    """Row-minus-column offsets ``step·(−(count−1) .. count−1)`` (int64, length 2·count−1)."""
    c = int(count)
    return int(step) * (np.arange(2 * c - 1, dtype=np.int64) - (c - 1))


def toeplitz_view(by_offset: np.ndarray, count: int) -> np.ndarray:
    """Read-only ``(..., count, count)`` view ``T[..., a, b] = by_offset[..., a − b + c − 1]``.

    Parameters
    ----------
    by_offset
        Values for offsets ``−(c−1) .. c−1`` along the last axis (length ``2c − 1``,
        offset 0 in the middle; e.g. evaluated on :func:`offsets`), with ``c >= count``;
        leading axes (e.g. heads) are kept.
    count
        Size of the (top-left) matrix wanted.

    Returns
    -------
    numpy.ndarray
        A strided, read-only view (no copy); ``np.array(T)`` gives a writable copy.
    """
    v = np.asarray(by_offset)
    n = v.shape[-1] if v.ndim else 0
    c = (n + 1) // 2
    k = int(count)
    if v.ndim < 1 or n != 2 * c - 1 or not 1 <= k <= c:
        raise ValueError(f"need 2c−1 values with c >= count; got {v.shape} for count {k}")
    windows = sliding_window_view(v[..., ::-1], k, axis=-1)  # [w, j] = v[2c − 2 − w − j]
    return windows[..., c - k : c, :][..., ::-1, :]  # row a = windows[c − 1 − a]


def by_offset(matrix: np.ndarray) -> np.ndarray | None:
    """The values of a square Toeplitz *view* by offset (``v[a − b + k − 1] = T[a, b]``,
    the input :func:`toeplitz_view` takes), else ``None``.

    A square matrix whose strides are ``(s, −s)`` (``s ≠ 0``) keeps cell ``[a, b]`` at
    the address of ``a − b``: it is Toeplitz by its memory layout, and its ``2k − 1``
    values are its first row reversed and its first column. Any other array (a Toeplitz
    matrix stored densely included) gives ``None``: nothing is compared.
    """
    if not isinstance(matrix, np.ndarray) or matrix.ndim != 2:
        return None
    rows, cols = matrix.shape
    s0, s1 = matrix.strides
    if rows != cols or rows == 0 or s0 == 0 or s1 != -s0:
        return None
    return np.concatenate((matrix[0, ::-1], matrix[1:, 0]))


def as_dtype(matrix: np.ndarray, dtype: np.dtype | type) -> np.ndarray:
    """``np.asarray(matrix, dtype)``; a Toeplitz view (:func:`by_offset`) stays one,
    converted in ``O(k)`` instead of ``O(k²)`` (the same values)."""
    values = by_offset(matrix)
    if values is None or matrix.dtype == np.dtype(dtype):
        return np.asarray(matrix, dtype=dtype)
    return toeplitz_view(values.astype(dtype), matrix.shape[0])


def any_inf(matrix: np.ndarray) -> bool:
    """Whether ``matrix`` holds ±inf (a Toeplitz view: its ``2k − 1`` values are looked
    at, not its ``k²`` cells)."""
    values = by_offset(matrix)
    return bool(np.isinf(matrix if values is None else values).any())
