"""Bounded reading of user-named files: regular files only, with a stated size limit.

Every file the program reads on a user's behalf (deck, scene, position table) goes
through :func:`open_regular` or :func:`read_regular`. A FIFO, ``/dev/stdin``,
``/dev/zero``, a socket or a folder is refused *before* it is opened for reading (so
nothing can block or stream forever), the open itself is non-blocking, and a file over
the caller's limit is refused by its size before a byte is read.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO

from core.memory import human_bytes


class FileReadError(ValueError):
    """A file cannot be read as asked; ``str()`` is one line naming the file."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check(name: str, st: os.stat_result, max_bytes: int, what: str) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise FileReadError(f"{name}: is {_kind(st.st_mode)}, not a regular {what} file")
    if st.st_size > max_bytes:
        raise FileReadError(
            f"{name}: {human_bytes(st.st_size)} is larger than the "
            f"{human_bytes(max_bytes)} limit for a {what} file"
        )


@contextlib.contextmanager
def open_regular(path: str | os.PathLike[str], max_bytes: int, what: str) -> Iterator[BinaryIO]:
    """Open ``path`` for binary reading if it is a regular file of at most ``max_bytes``.

    Parameters
    ----------
    path
        The file (symbolic links are followed).
    max_bytes
        Largest accepted size.
    what
        Kind of file for messages (``"deck"``, ``"table"``).

    Raises
    ------
    FileReadError
        Missing or unreadable, not a regular file (FIFO, device, folder, socket), or too
        large. One line naming the file.
    """
    name = os.fspath(path)
    try:
        _check(name, os.stat(name), max_bytes, what)
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise FileReadError(f"{name}: cannot read ({exc.strerror or exc})") from None
    handle = os.fdopen(fd, "rb")
    with handle:
        try:
            _check(name, os.fstat(fd), max_bytes, what)  # replaced since the first check?
        except OSError as exc:
            raise FileReadError(f"{name}: cannot read ({exc.strerror or exc})") from None
        yield handle


def read_regular(path: str | os.PathLike[str], max_bytes: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (see :func:`open_regular`).

    Never reads more than ``max_bytes + 1`` bytes, even from a file that grows.
    """
    name = os.fspath(path)
    with open_regular(path, max_bytes, what) as handle:
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise FileReadError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise FileReadError(f"{name}: larger than the {human_bytes(max_bytes)} limit for a {what}")
    return data
