"""Learned absolute position embeddings (BERT/GPT-2 style ``nn.Embedding`` tables)."""

from __future__ import annotations

import math
import os
from typing import Any, BinaryIO

import numpy as np
from numpy.lib import format as npy_format

from core.fileread import open_regular
from core.memory import check_allocation, human_bytes


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
    return np.asarray(table[pos])


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity of every row of ``a`` with every row of ``b``, ``(len(a),
    len(b))``; a zero row's similarities are 0."""
    na = np.linalg.norm(a, axis=1, keepdims=True)
    nb = np.linalg.norm(b, axis=1, keepdims=True)
    return np.asarray((a / np.where(na > 0, na, 1.0)) @ (b / np.where(nb > 0, nb, 1.0)).T)


def _describe_non_npy(head: bytes) -> str:
    """What a file that lacks the ``.npy`` magic probably is, from its first bytes."""
    if not head:
        return "the file is empty, not a .npy table"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "a .npz (zip) archive, not a single .npy table; save the table alone with numpy.save"
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return "a Python pickle; only numeric .npy files are loaded (pickle is refused)"
    if len(head) >= 10 and head[8:10] == b'{"':
        return "a safetensors file, not a .npy table; save the tensor with numpy.save"
    sample = head[:64]
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    if text and all(c.isprintable() or c in "\t\r\n" for c in text):
        return "a text file, not a .npy table (no NumPy header)"
    return "not a .npy file (no NumPy header)"


def _read_header(handle: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype[Any]]:
    """Shape, Fortran order and dtype from a ``.npy`` header (``ValueError`` if bad)."""
    version = npy_format.read_magic(handle)
    if version == (1, 0):
        return npy_format.read_array_header_1_0(handle)
    if version == (2, 0):
        return npy_format.read_array_header_2_0(handle)
    raise ValueError(f"unsupported .npy format version {version[0]}.{version[1]}")


def load_table_npy(path: str | os.PathLike[str], max_bytes: int = 512 * 2**20) -> np.ndarray:
    """Load a position table from a ``.npy`` file safely (never with pickle).

    Only a regular file is opened (a FIFO, ``/dev/stdin`` or a device is refused before
    anything is read, so nothing can block); its header is checked — shape against the
    file's size and the memory budget (for the ``float64`` result), dtype numeric —
    before the data is read.

    Raises
    ------
    ValueError
        Not a regular file, larger than ``max_bytes``, empty, not a .npy (a text file,
        ``.npz``, safetensors, a pickle), pickled objects, non-numeric or non-finite data,
        a header whose shape does not fit the file, or not 2-D. One line naming the file.
    core.memory.MemoryBudgetError
        The table as ``float64`` would exceed the memory budget.
    """
    name = os.fspath(path)
    with open_regular(name, max_bytes, "table") as handle:
        try:
            head = handle.read(16)
            if not head.startswith(npy_format.MAGIC_PREFIX):
                raise ValueError(f"{name}: {_describe_non_npy(head)}")
            handle.seek(0)
            try:
                shape, fortran, dtype = _read_header(handle)
            except ValueError as exc:
                raise ValueError(
                    f"{name}: not a valid .npy file ({str(exc).splitlines()[0]})"
                ) from None
            if dtype.hasobject:
                raise ValueError(
                    f"{name}: holds Python objects; only numeric .npy files are "
                    "loaded (pickle is refused)"
                )
            if dtype.kind not in "biuf" or dtype.fields is not None or dtype.subdtype:
                raise ValueError(f"{name}: expected numeric data, got dtype {dtype}")
            if len(shape) != 2 or min(shape) < 1:
                raise ValueError(
                    f"{name}: expected a 2-D (max_positions, d) table, got shape {shape}"
                )
            data_bytes = os.fstat(handle.fileno()).st_size - handle.tell()
            need = math.prod(shape) * dtype.itemsize
            if need > data_bytes:
                raise ValueError(
                    f"{name}: the header's shape {shape[0]}×{shape[1]} is too large for the "
                    f"file ({human_bytes(need)} of data expected, {human_bytes(data_bytes)} "
                    "present): truncated or corrupt"
                )
            extra = 0 if dtype == np.float64 else dtype.itemsize  # the file's own copy
            check_allocation(f"position table {name}", shape, itemsize=8 + extra)
            flat = np.fromfile(handle, dtype=dtype, count=math.prod(shape))
        except OSError as exc:
            raise ValueError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if flat.size != math.prod(shape):
        raise ValueError(f"{name}: the file ended early (truncated)")
    arr = flat.reshape(shape, order="F" if fortran else "C").astype(np.float64, copy=False)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: table contains NaN or infinite values")
    return arr
