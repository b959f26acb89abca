"""Learned absolute position embeddings (BERT/GPT-2 style ``nn.Embedding`` tables)."""

from __future__ import annotations

import os

import numpy as np


def learned_table_rows(d_model: int, seed: int, positions: np.ndarray) -> np.ndarray:
    """Rows ``positions`` of the seeded random table, without drawing the others.

    Each row has its own random stream (seeded with ``(seed, position)``), so any subset
    of rows — the positions a display samples, or one row for a hover readout — costs
    only those rows, and always equals the same rows of :func:`init_learned_table`.
    """
    pos = np.asarray(positions, dtype=np.int64).ravel()
    out = np.empty((pos.size, int(d_model)))
    for k, p in enumerate(pos):
        out[k] = np.random.default_rng([int(seed), int(p)]).standard_normal(int(d_model))
    return out


def init_learned_table(max_positions: int, d_model: int, seed: int = 0) -> np.ndarray:
    """A freshly initialised table like ``torch.nn.Embedding``: entries ~ N(0, 1).

    Deterministic for a given seed, so a lecture shows the same picture every time.
    """
    if max_positions < 1 or d_model < 1:
        raise ValueError("max_positions and d_model must be at least 1")
    return learned_table_rows(d_model, seed, np.arange(max_positions))


def learned_lookup(table: np.ndarray, positions: np.ndarray | int) -> np.ndarray:
    """Rows of a ``(max_positions, d)`` table for the given positions.

    Raises
    ------
    ValueError
        A position outside ``0..max_positions-1``: a learned table has no row for it
        (the classic "beyond max_position_embeddings" error); the message names the limit.
    """
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(
            f"a position table must be 2-D (max_positions, d), got shape {table.shape}"
        )
    pos = np.asarray(positions)
    if pos.dtype.kind not in "iu":
        if pos.size and not np.all(np.equal(np.mod(pos, 1), 0)):
            raise ValueError("positions must be integers")
        pos = pos.astype(np.int64)
    limit = table.shape[0]
    bad = (pos < 0) | (pos >= limit)
    if np.any(bad):
        worst = int(pos[bad].flat[0])
        raise ValueError(
            f"position {worst} is out of range: this learned table has "
            f"max_positions={limit} rows (valid positions 0..{limit - 1}); "
            "a learned embedding cannot extrapolate beyond the length it was "
            "trained for"
        )
    return table[pos]


def load_table_npy(path: str | os.PathLike[str], max_bytes: int = 512 * 2**20) -> np.ndarray:
    """Load a position table from a ``.npy`` file safely (never with pickle).

    Raises
    ------
    ValueError
        Unreadable file, not a .npy, pickled objects, non-numeric or non-finite data,
        wrong number of dimensions, or larger than ``max_bytes``. One-line messages.
    """
    name = os.fspath(path)
    try:
        if os.path.getsize(name) > max_bytes:
            raise ValueError(f"{name}: file is larger than {max_bytes // 2**20} MiB")
        arr = np.load(name, allow_pickle=False)
    except ValueError as exc:
        msg = str(exc)
        if "pickle" in msg.lower() or "object" in msg.lower():
            raise ValueError(
                f"{name}: holds Python objects; only numeric .npy files are "
                "loaded (pickle is refused)"
            ) from None
        if msg.startswith(name):
            raise
        raise ValueError(f"{name}: not a valid .npy file ({msg.splitlines()[0]})") from None
    except OSError as exc:
        raise ValueError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if not isinstance(arr, np.ndarray) or arr.dtype.kind not in "biuf":
        raise ValueError(f"{name}: expected numeric data, got {getattr(arr, 'dtype', type(arr))}")
    if arr.ndim != 2 or min(arr.shape) < 1:
        raise ValueError(f"{name}: expected a 2-D (max_positions, d) table, got shape {arr.shape}")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: table contains NaN or infinite values")
    return arr
