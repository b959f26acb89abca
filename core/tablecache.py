"""A small, bounded, thread-safe cache of read-only arrays for per-frame computations.

Dragging a slider recomputes a view many times a second, but most of its tables do not
depend on the dragged parameter, or only *grow* with it (a PE table for ``seq_len`` rows
is the first ``seq_len`` rows of a larger one). Such tables are computed once for a
*capacity* (:func:`capacity`) and sliced. Every cached array is made read-only
(``arr.flags.writeable = False``), so a caller writing into a returned array or slice
gets an error instead of silently corrupting later frames.

Bounds: at most :data:`MAX_ENTRIES` arrays and :data:`MAX_TOTAL_BYTES` in all (least
recently used first out; the total also stays under a quarter of the memory
budget); a single table larger than :func:`entry_limit` — at most an
eighth of the memory budget of :mod:`core.memory` — is never cached (callers compute
it directly instead).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

import numpy as np

from core.memory import memory_budget

MAX_ENTRIES = 24
MAX_TOTAL_BYTES = 96 * 2**20
MAX_ENTRY_BYTES = 16 * 2**20
MAX_SEEN = 64

_lock = threading.Lock()
_store: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
_total = 0
_seen: OrderedDict[Hashable, None] = OrderedDict()


def capacity(n: int, minimum: int = 64) -> int:
    """Smallest power of two ``>= max(n, minimum)``: the size a growing table is made for."""
    n = max(int(n), int(minimum), 1)
    return 1 << (n - 1).bit_length()


def entry_limit() -> int:
    """Largest cacheable table in bytes: 16 MiB, or an eighth of the memory budget."""
    return min(MAX_ENTRY_BYTES, memory_budget() // 8)


def total_limit() -> int:
    """Most bytes held in all: 96 MiB, or a quarter of the memory budget."""
    return min(MAX_TOTAL_BYTES, memory_budget() // 4)


def fits(n_items: int, itemsize: int = 8) -> bool:
    """Whether a table of ``n_items`` items may be cached (see :func:`entry_limit`)."""
    return int(n_items) * int(itemsize) <= entry_limit()


_T = TypeVar("_T")


def _freeze(value: _T) -> tuple[_T, int]:
    arrays = value if isinstance(value, tuple) else (value,)
    size = 0
    for arr in arrays:
        if isinstance(arr, np.ndarray):
            arr.flags.writeable = False
            size += arr.nbytes
    return value, size


def cached(key: Hashable, make: Callable[[], _T], direct: Callable[[], _T] | None = None) -> _T:
    """The value stored under ``key``, computed by ``make()`` on a miss.

    Parameters
    ----------
    key
        Hashable description of everything the value depends on (include a namespace).
    make
        Returns a numpy array or a tuple of arrays; they are made read-only and stored
        unless larger than :func:`entry_limit` (then returned uncached, still read-only).
    direct
        Optional cheaper computation of just what the caller needs (equal values). With
        it, the first request for a key only records the key and returns ``direct()``;
        the table is built on the second request. A parameter dragged through values
        that never repeat (e.g. a base) thus never pays for, nor evicts for, tables that
        are used once.

    Returns
    -------
    Any
        The (read-only) array or tuple of arrays, or what ``direct()`` returned.
    """
    global _total
    with _lock:
        hit = _store.get(key)
        if hit is not None:
            _store.move_to_end(key)
            return cast(_T, hit[0])
        first = direct is not None and key not in _seen
        if first:
            _seen[key] = None
            while len(_seen) > MAX_SEEN:
                _seen.popitem(last=False)
    if first and direct is not None:
        return direct()
    value, size = _freeze(make())  # computed outside the lock: other views keep going
    if size > entry_limit():
        return value
    with _lock:
        if key in _store:  # another thread was faster; keep one copy
            _store.move_to_end(key)
            return cast(_T, _store[key][0])
        _store[key] = (value, size)
        _total += size
        while _store and (len(_store) > MAX_ENTRIES or _total > total_limit()):
            _, (_, old) = _store.popitem(last=False)
            _total -= old
    return value


def clear() -> None:
    """Drop every cached table (tests; memory-budget changes)."""
    global _total
    with _lock:
        _store.clear()
        _seen.clear()
        _total = 0


def cache_info() -> tuple[int, int]:
    """``(entries, bytes)`` currently held."""
    with _lock:
        return len(_store), _total
