"""Read a learned position table from ``.npy``, ``.safetensors`` or torch (``.pt``) files.

Nothing in a loaded file is ever executed:

* ``.npy`` goes through :func:`core.learned.load_table_npy` (``allow_pickle=False``);
* ``.safetensors`` is read by a small strict parser of the documented format — an
  unsigned 64-bit little-endian header length, a JSON header naming each tensor's
  ``dtype``, ``shape`` and ``data_offsets``, then raw little-endian bytes — and only the
  chosen tensor's bytes are read (a 500 MB GPT-2 checkpoint costs one table);
* ``.pt`` / ``.pth`` / ``.bin`` go through ``torch.load(weights_only=True)``, which
  refuses any pickle that would call a function or build an arbitrary object.

Which tensor is the table (:func:`pick_table_key`): an explicit ``key``; else
``wpe.weight`` or a name ending in ``.wpe.weight`` (GPT-2); else a name ending in
``position_embeddings.weight`` (BERT and relatives); else the only 2-D tensor of the file.
Every failure is a ``ValueError`` with one line naming the file.
"""

from __future__ import annotations

import json
import os
import re
import stat
import zipfile
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from core.memory import check_allocation

TABLE_SUFFIXES: tuple[str, ...] = (".npy", ".safetensors", ".pt", ".pth", ".bin")
"""File name endings the learned view accepts for ``table_file``."""

MAX_TABLE_BYTES = 512 * 2**20
"""Largest table tensor that is read (bytes as stored)."""

MAX_HEADER_BYTES = 100 * 10**6
"""Largest safetensors JSON header (the format's own limit)."""

MAX_TORCH_FILE_BYTES = 4 * 2**30
"""Largest torch file that is opened (tensors are memory-mapped, not read whole)."""

_ST_DTYPES: dict[str, str] = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "BF16": "<u2",  # converted below: bfloat16 is the top half of a float32
    "I64": "<i8",
    "I32": "<i4",
    "I16": "<i2",
    "I8": "i1",
    "U8": "u1",
}


def load_position_table(path: str | os.PathLike[str], key: str = "") -> np.ndarray:
    """Load a ``(max_positions, d)`` table as float64 from any supported file.

    Parameters
    ----------
    path
        A ``.npy``, ``.safetensors``, ``.pt``, ``.pth`` or ``.bin`` file.
    key
        Tensor name inside a ``.safetensors`` / torch file (empty: the rule above);
        must be empty for ``.npy``.

    Raises
    ------
    ValueError
        One line: unknown extension, not a regular file, too large, malformed,
        refused pickle, no or ambiguous table, not a finite 2-D numeric table.
    """
    name = os.fspath(path)
    suffix = os.path.splitext(name)[1].lower()
    key = key.strip()
    if suffix not in _OWN_SUFFIXES:  # .npy and anything else: the .npy loader says what it is
        if key:
            raise ValueError(
                f"{name}: a .npy file holds one array; leave the tensor name (table_key) empty"
            )
        from core.learned import load_table_npy

        return load_table_npy(name)
    size = _regular_file_size(name)
    if suffix == ".safetensors":
        arr, key = read_safetensors_table(name, key, size)
    else:
        arr, key = read_torch_table(name, key, size)
    return check_table(f"{name} [{key}]", arr)


_OWN_SUFFIXES = frozenset(TABLE_SUFFIXES) - {".npy"}


def _regular_file_size(name: str) -> int:
    try:
        st = os.stat(name)
    except OSError as exc:
        raise ValueError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(st.st_mode)
            else "a pipe"
            if stat.S_ISFIFO(st.st_mode)
            else "a device or special file"
        )
        raise ValueError(f"{name}: not a regular table file ({kind})")
    return int(st.st_size)


def check_table(label: str, arr: np.ndarray) -> np.ndarray:
    """A finite, numeric, 2-D table as float64, or ``ValueError`` naming ``label``.

    Widening to float64 is checked against the memory budget first
    (:class:`core.memory.MemoryBudgetError`).
    """
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{label}: expected numeric data, got {arr.dtype}")
    if arr.ndim != 2 or min(arr.shape) < 1:
        raise ValueError(
            f"{label}: expected a 2-D (max_positions, d) table, got shape {tuple(arr.shape)}"
        )
    check_allocation("position table", tuple(arr.shape), 8, copies=2)
    out = arr.astype(np.float64)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{label}: table contains NaN or infinite values")
    return out


def pick_table_key(name: str, shapes: Mapping[str, Sequence[int]], key: str = "") -> str:
    """Choose the table among named tensors (see the module docstring for the rule).

    Parameters
    ----------
    name
        File name for messages.
    shapes
        Tensor name → shape.
    key
        Explicit tensor name (empty: apply the rule).
    """
    if key:
        if key not in shapes:
            raise ValueError(f"{name}: no tensor named {key!r}; 2-D tensors: {_listing(shapes)}")
        return key
    gpt2 = sorted(k for k in shapes if k == "wpe.weight" or k.endswith(".wpe.weight"))
    bert = sorted(k for k in shapes if k.endswith("position_embeddings.weight"))
    for hits in (gpt2, bert):
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise ValueError(
                f"{name}: several position tables ({', '.join(hits[:4])}); choose one as the tensor name (table_key)"
            )
    two_d = [k for k, s in shapes.items() if len(s) == 2]
    if len(two_d) == 1:
        return two_d[0]
    raise ValueError(
        f"{name}: no wpe.weight or *position_embeddings.weight tensor; set the tensor name (table_key) "
        f"(2-D tensors: {_listing(shapes)})"
    )


def _listing(shapes: Mapping[str, Sequence[int]]) -> str:
    names = sorted(k for k, s in shapes.items() if len(s) == 2)
    if not names:
        return "none"
    more = f", … ({len(names)} in all)" if len(names) > 6 else ""
    return ", ".join(names[:6]) + more


# ----------------------------------------------------------------------- safetensors
def safetensors_header(name: str, size: int | None = None) -> tuple[dict[str, Any], int]:
    """Parse and check a safetensors header strictly.

    Returns
    -------
    (entries, data_start) : tuple
        Tensor name → ``{"dtype", "shape", "data_offsets"}`` (``__metadata__`` removed),
        and the file offset where the data section starts.

    Raises
    ------
    ValueError
        Truncated file, header length out of range, invalid UTF-8/JSON, duplicate
        names, bad entries, offsets outside the data section or not matching the shape.
    """
    size = _regular_file_size(name) if size is None else size
    bad = f"{name}: not a valid .safetensors file"
    try:
        with open(name, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise ValueError(f"{bad} (shorter than its 8-byte header length)")
            n = int.from_bytes(head, "little")
            if n < 2 or n > MAX_HEADER_BYTES or n > size - 8:
                raise ValueError(f"{bad} (header length {n} does not fit the file)")
            raw = f.read(n)
    except OSError as exc:
        raise ValueError(f"{name}: cannot read ({exc.strerror or exc})") from None
    try:
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, json.JSONDecodeError, _DuplicateKey) as exc:
        raise ValueError(f"{bad} (header: {exc})") from None
    if not isinstance(header, dict):
        raise ValueError(f"{bad} (header is not a JSON object)")
    header.pop("__metadata__", None)
    data_len = size - 8 - n
    for key, entry in header.items():
        _check_entry(bad, key, entry, data_len)
    return header, 8 + n


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(f"duplicate name {k!r}")
        out[k] = v
    return out


def _check_entry(bad: str, key: str, entry: Any, data_len: int) -> None:
    if not isinstance(entry, dict):
        raise ValueError(f"{bad} (entry {key!r} is not an object)")
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if not isinstance(dtype, str):
        raise ValueError(f"{bad} (entry {key!r} has no dtype)")
    if not (
        isinstance(shape, list)
        and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in shape)
    ):
        raise ValueError(f"{bad} (entry {key!r} has an invalid shape)")
    if not (
        isinstance(offsets, list)
        and len(offsets) == 2
        and all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)
        and 0 <= offsets[0] <= offsets[1] <= data_len
    ):
        raise ValueError(f"{bad} (entry {key!r}: data offsets outside the file)")
    if dtype in _ST_DTYPES:
        need = int(np.prod(shape, dtype=object)) * np.dtype(_ST_DTYPES[dtype]).itemsize
        if offsets[1] - offsets[0] != need:
            raise ValueError(
                f"{bad} (entry {key!r}: {offsets[1] - offsets[0]} bytes for shape {shape} {dtype})"
            )


def read_safetensors_table(
    name: str, key: str = "", size: int | None = None
) -> tuple[np.ndarray, str]:
    """The table tensor of a safetensors file and its name (only its bytes are read)."""
    header, start = safetensors_header(name, size)
    key = pick_table_key(name, {k: v["shape"] for k, v in header.items()}, key)
    entry = header[key]
    dtype = entry["dtype"]
    if dtype not in _ST_DTYPES:
        raise ValueError(
            f"{name} [{key}]: dtype {dtype} is not supported ({', '.join(_ST_DTYPES)})"
        )
    begin, end = entry["data_offsets"]
    if end - begin > MAX_TABLE_BYTES:
        raise ValueError(
            f"{name} [{key}]: the table has {end - begin} bytes, more than "
            f"{MAX_TABLE_BYTES // 2**20} MiB"
        )
    try:
        with open(name, "rb") as f:
            f.seek(start + begin)
            data = f.read(end - begin)
    except OSError as exc:
        raise ValueError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if len(data) != end - begin:
        raise ValueError(f"{name}: not a valid .safetensors file (data truncated)")
    arr = np.frombuffer(data, dtype=_ST_DTYPES[dtype]).reshape(entry["shape"])
    if dtype == "BF16":
        arr = (arr.astype(np.uint32) << 16).view(np.float32)
    return arr, key


def write_safetensors(path: str | os.PathLike[str], tensors: Mapping[str, np.ndarray]) -> None:
    """Write float/int numpy arrays as a safetensors file (used for tests and lab output)."""
    names = {np.dtype(v): k for k, v in _ST_DTYPES.items() if k != "BF16"}
    header: dict[str, Any] = {}
    blobs = []
    offset = 0
    for key, value in tensors.items():
        arr = np.ascontiguousarray(value)
        arr = arr.astype(arr.dtype.newbyteorder("<"))
        kind = names.get(arr.dtype)
        if kind is None:
            raise ValueError(f"{key}: dtype {arr.dtype} cannot be written as safetensors")
        blob = arr.tobytes()
        header[key] = {
            "dtype": kind,
            "shape": list(arr.shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        blobs.append(blob)
        offset += len(blob)
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)  # the format pads the header to 8 bytes
    from core.atomicio import atomic_open

    with atomic_open(path, "wb") as f:
        f.write(len(raw).to_bytes(8, "little"))
        f.write(raw)
        for blob in blobs:
            f.write(blob)


# ----------------------------------------------------------------------- torch
def read_torch_table(name: str, key: str = "", size: int | None = None) -> tuple[np.ndarray, str]:
    """The table of a torch file, loaded with ``torch.load(weights_only=True)``.

    The file may hold a tensor, or a (nested) dict of tensors such as a state dict.
    """
    size = _regular_file_size(name) if size is None else size
    if size > MAX_TORCH_FILE_BYTES:
        raise ValueError(f"{name}: file is larger than {MAX_TORCH_FILE_BYTES // 2**30} GiB")
    try:
        import torch
    except ImportError:
        raise ValueError(
            f"{name}: reading .pt files needs torch (pip install torch); "
            "or save the table as .npy or .safetensors"
        ) from None
    import pickle
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. "Detected pickle protocol 4"
            obj = torch.load(
                name, map_location="cpu", weights_only=True, mmap=zipfile.is_zipfile(name)
            )
    except pickle.UnpicklingError as exc:
        reason = _unpickle_reason(str(exc))
        if any(w in reason.lower() for w in ("global", "reduce", "build", "setstate", "blocked")):
            raise ValueError(
                f"{name}: refused: unpickling this file would call code or build Python "
                f"objects ({reason}); only tensors and plain containers are loaded "
                "(torch.load weights_only=True)"
            ) from None
        raise ValueError(f"{name}: not a valid torch weights file ({reason})") from None
    except OSError as exc:
        raise ValueError(f"{name}: cannot read ({exc.strerror or exc})") from None
    except Exception as exc:  # zip, EOF, storage errors: a malformed file
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{name}: not a valid torch file ({first})") from None
    if isinstance(obj, torch.Tensor):
        tensors = {"": obj}
        if key:
            raise ValueError(f"{name}: holds one tensor; leave the tensor name (table_key) empty")
    elif isinstance(obj, Mapping):
        tensors = _flatten(obj)
    else:
        raise ValueError(
            f"{name}: expected a tensor or a dict of tensors, got {type(obj).__name__}"
        )
    if not tensors:
        raise ValueError(f"{name}: holds no tensors")
    key = (
        ""
        if "" in tensors
        else pick_table_key(name, {k: tuple(v.shape) for k, v in tensors.items()}, key)
    )
    t = tensors[key]
    if t.numel() * t.element_size() > MAX_TABLE_BYTES:
        raise ValueError(f"{name} [{key}]: the table is larger than {MAX_TABLE_BYTES // 2**20} MiB")
    if t.dtype.is_complex or t.dtype == torch.bool:
        raise ValueError(f"{name} [{key}]: expected real numbers, got {t.dtype}")
    return t.detach().to(torch.float64).numpy(), key or "tensor"


def _unpickle_reason(text: str) -> str:
    """The specific sentence of a weights-only unpickling error (torch wraps it in advice).

    torch's wording varies between versions: the reason follows ``WeightsUnpickler
    error:`` or is the line naming the refused ``GLOBAL`` / unsupported operand.
    """
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", ln).strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    picked = ""
    for ln in lines:
        if "WeightsUnpickler error:" in ln:
            picked = ln.split("WeightsUnpickler error:", 1)[1].strip()
            if picked:
                break
        if not picked and ("GLOBAL" in ln or ln.startswith("Unsupported")):
            picked = ln
    if not picked:
        idx = next((k for k, ln in enumerate(lines) if "WeightsUnpickler error:" in ln), None)
        if idx is not None and idx + 1 < len(lines):
            picked = lines[idx + 1]
    if not picked:
        return "unpickling failed"
    sentence = picked.split(". ", 1)[0].rstrip(".")
    return sentence[:200]


def _flatten(obj: Mapping[Any, Any], prefix: str = "", depth: int = 0) -> dict[str, Any]:
    import torch

    out: dict[str, Any] = {}
    for k, v in obj.items():
        name = f"{prefix}{k}"
        if isinstance(v, torch.Tensor):
            out[name] = v
        elif isinstance(v, Mapping) and depth < 3:
            out.update(_flatten(v, name + ".", depth + 1))
    return out
