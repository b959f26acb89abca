"""Atomic file writing: a file is replaced only once its new content is complete.

Used by every writer in the project (exports, scene and deck files) so that a crash,
a full disk or an exception half-way never leaves a truncated file behind.

The content goes to a hidden temporary file beside the destination
(``.<name>.<8 random characters>.part``), which is renamed over the destination when
complete. Like an ordinary write:

- a new file gets mode ``0666 & ~umask``; an overwritten file keeps its mode;
- a read-only destination (no write bit) is refused with ``PermissionError``;
- a symbolic link is written through: its target is replaced, the link stays;
- errors name the destination, never the temporary file.

Temporary files are removed on every exit path: an exception in the body, normal
interpreter exit, and ``SIGTERM`` during a write in the main thread (when no other
handler is installed; the default action is restored after the write). Files left by
an earlier run that was killed outright (``SIGKILL``, power loss) are removed by the
next write into the same folder once they are older than :data:`STALE_SECONDS`.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import re
import secrets
import signal
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

STALE_SECONDS = 3600.0
"""A ``.part`` file this old (by modification time) belongs to a run that died."""

_PART_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.part$")
_live: set[str] = set()
_live_lock = threading.Lock()
_atexit_registered = False
_sigterm_depth = 0  # writes in progress in the main thread while our SIGTERM handler is set


def _remove_live() -> None:
    """Remove the temporary files of writes still in progress (exit and SIGTERM)."""
    with _live_lock:
        names = list(_live)
        _live.clear()
    for name in names:
        with contextlib.suppress(OSError):
            os.unlink(name)


def _on_sigterm(signum: int, frame: Any) -> None:
    _remove_live()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)  # terminate as SIGTERM normally would


@contextlib.contextmanager
def _cleanup_on_exit() -> Iterator[None]:
    """While the body runs, a normal exit or ``SIGTERM`` removes the live temp files.

    The ``SIGTERM`` handler is set only around writes in the main thread, and only if
    nobody else handles ``SIGTERM``; afterwards the default action is back, so an idle
    program (a Qt event loop runs no Python between events) still ends at once.
    """
    global _atexit_registered, _sigterm_depth
    if not _atexit_registered:
        _atexit_registered = True
        atexit.register(_remove_live)
    ours = False
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError, OSError):
            current = signal.getsignal(signal.SIGTERM)
            if current is _on_sigterm or current in (signal.SIG_DFL, None):
                signal.signal(signal.SIGTERM, _on_sigterm)
                _sigterm_depth += 1
                ours = True
    try:
        yield
    finally:
        if ours:
            _sigterm_depth -= 1
            if _sigterm_depth == 0 and signal.getsignal(signal.SIGTERM) is _on_sigterm:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)


def remove_stale_parts(folder: str | os.PathLike[str], max_age: float = STALE_SECONDS) -> int:
    """Delete this module's temporary files in ``folder`` older than ``max_age`` seconds.

    Only hidden files named like ours (``.<name>.<8 characters>.part``) that no write of
    this process is using are touched. Returns the number removed; never raises.
    """
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    with _live_lock:
        live = set(_live)
    for entry in entries:
        if not _PART_NAME.match(entry.name) or entry.path in live:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > max_age:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _destination(path: str | os.PathLike[str]) -> tuple[Path, int | None]:
    """The file really written (a symlink's target) and the mode to keep (``None``: new).

    Raises
    ------
    PermissionError
        The destination exists and has no write permission bit (checked on the mode
        itself, so this holds for root too).
    """
    target = Path(path)
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target, None
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, os.fspath(path)) from None
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder", os.fspath(path))
    mode = stat.S_IMODE(st.st_mode)
    if stat.S_ISREG(st.st_mode) and not mode & 0o222:
        raise PermissionError(
            errno.EACCES, f"the file is read-only (mode {mode:04o})", os.fspath(path)
        )
    return target, mode


def _create_temp(folder: Path, name: str) -> str:
    """Create an empty temporary file beside the destination; the umask applies."""
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp
    raise FileExistsError(errno.EEXIST, "no free temporary file name", os.fspath(folder))


def _renamed(exc: OSError, tmp: str, dest: str) -> OSError:
    """``exc`` naming ``dest`` where it named the temporary file (or nothing)."""
    if exc.errno is None or exc.filename not in (None, tmp):
        return exc
    renamed = type(exc)(exc.errno, exc.strerror, dest)
    renamed.__traceback__ = exc.__traceback__
    return renamed


def check_can_write(path: str | os.PathLike[str]) -> None:
    """Raise the ``OSError`` a write to ``path`` would raise at its start, before any work.

    Creates the temporary file an atomic write of ``path`` begins with, beside the
    destination, and removes it at once: nothing is left behind. Unlike
    ``os.access``, which says yes to root for any folder, this finds folders nobody
    can create files in (``/proc``, a read-only mount), a missing folder, a
    destination that is a folder or a read-only file.

    Raises
    ------
    OSError
        Naming ``path`` (``filename``), with the system's reason (``strerror``).
    """
    dest = os.fspath(path)
    target, _ = _destination(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        tmp = _create_temp(folder, target.name)
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, dest) from None
    with contextlib.suppress(OSError):
        os.unlink(tmp)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it over ``path``.

    Parameters
    ----------
    path
        Final destination. Its folder must exist and be writable. A symbolic link is
        followed: its target is replaced and the link kept.

    Yields
    ------
    Path
        A temporary file in the same folder (same file system, so the final
        ``os.replace`` is atomic), with the destination's mode (or ``0666 & ~umask``).
        Write the complete content there.

    Raises
    ------
    PermissionError
        The destination is read-only.
    OSError
        Any failure; the message names ``path``, not the temporary file.

    Notes
    -----
    If the body raises, the temporary file is removed and ``path`` is untouched.
    """
    dest = os.fspath(path)
    target, mode = _destination(path)
    folder = target.parent if str(target.parent) else Path(".")
    remove_stale_parts(folder)
    with _cleanup_on_exit():
        try:
            tmp = _create_temp(folder, target.name)
        except OSError as exc:
            raise type(exc)(exc.errno, exc.strerror, dest) from None
        with _live_lock:
            _live.add(tmp)
        try:
            if mode is not None:
                os.chmod(tmp, mode)
            yield Path(tmp)
            os.replace(tmp, target)
        except OSError as exc:
            raise _renamed(exc, tmp, dest) from None
        finally:
            with _live_lock:
                _live.discard(tmp)
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
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
