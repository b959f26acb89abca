"""Counting the calls of a function a test replaces (the new tests of skipped work)."""

from __future__ import annotations

from typing import Any


def count_calls(monkeypatch: Any, owner: object, name: str) -> list[int]:
    """Replace ``owner.name`` (a module's function or a class's method) with a wrapper
    that counts its calls and returns what the original returns.

    Returns
    -------
    list[int]
        One element, the number of calls so far (a test may reset it to 0).
    """
    calls = [0]
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls
