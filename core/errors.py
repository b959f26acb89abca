"""One-line, user-facing messages for exceptions (window banners and the CLI alike)."""

from __future__ import annotations

from core.memory import MemoryBudgetError


def unquoted(text: str) -> str:
    """``text`` without one pair of quotes around all of it (``'…'`` or ``"…"``); a quote
    that only ends it stays: stripping every quote at both ends cut the closing quote
    off "pair: expected an integer, got 'abc'"."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        inner = text[1:-1]
        if text[0] not in inner:
            return inner
    return text


def user_message(exc: BaseException) -> str:
    """Describe ``exc`` in one line: expected errors verbatim, anything else summarised.

    Expected errors are invalid input (``ValueError``, which includes
    :class:`core.params.ParamError`), an unknown key, the memory budget, and files that
    cannot be read or written. Anything else is an internal error, named as such.
    """
    if isinstance(exc, KeyError):
        text = str(exc.args[0]) if exc.args else "unknown key"
    elif isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        text = f"cannot write {exc.filename!r}: {exc.strerror}"
    elif isinstance(exc, (ValueError, MemoryBudgetError, OSError)):
        text = unquoted(str(exc))
    elif isinstance(exc, MemoryError):
        text = "out of memory; reduce the size"
    else:
        text = f"internal error ({type(exc).__name__}: {exc})"
    lines = text.strip().splitlines()
    return lines[0] if lines else type(exc).__name__
