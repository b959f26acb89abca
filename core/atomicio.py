"""Atomic file writing: a file is replaced only once its new content is complete.

Used by every writer in the project (exports, scene and deck files) so that a crash,
a full disk or an exception half-way never leaves a truncated file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it over ``path``.

    Parameters
    ----------
    path
        Final destination. Its folder must exist and be writable.

    Yields
    ------
    Path
        A temporary file in the same folder (same file system, so the final
        ``os.replace`` is atomic). Write the complete content there.

    Notes
    -----
    If the body raises, the temporary file is removed and ``path`` is untouched.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", **kwargs) -> Iterator[IO]:
    """Open a temporary file for writing that atomically replaces ``path`` on close.

    Parameters
    ----------
    path
        Final destination.
    mode
        ``"w"`` (text, UTF-8 by default) or ``"wb"``.
    **kwargs
        Passed to :func:`open` (e.g. ``newline=""`` for CSV).
    """
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as handle:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_open(path, "w") as handle:
        handle.write(text)
