"""Memory guard: estimate the bytes an array needs before allocating it.

Every place that allocates a size-dependent array (computation, export) asks
:func:`check_allocation` first, so an oversized request becomes a clear message
instead of a frozen machine.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping

ENV_VAR = "PE_STUDIO_MEMORY_BUDGET_MB"
DEFAULT_BUDGET_MB = 1024
DEFAULT_BUDGET_BYTES = DEFAULT_BUDGET_MB * 2**20
MAX_BUDGET_MB = 2**30  # 1 PiB: anything larger is a typo
_budget: int | None = None  # None: not read from the environment yet


class MemoryBudgetError(MemoryError):
    """An allocation would exceed the memory budget (message is one line)."""


class BudgetSettingError(ValueError):
    """``PE_STUDIO_MEMORY_BUDGET_MB`` is malformed or not positive (one-line message)."""


def budget_from_env(environ: Mapping[str, str] | None = None) -> int:
    """The budget in bytes set by ``PE_STUDIO_MEMORY_BUDGET_MB`` (default 1024 MiB).

    Raises
    ------
    BudgetSettingError
        The value is not a whole number of MiB (``abc``, ``1e3``, ``0.5``, empty), is
        zero or negative, or absurdly large.
    """
    env = os.environ if environ is None else environ
    if ENV_VAR not in env:
        return DEFAULT_BUDGET_BYTES
    text = env[ENV_VAR].strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,12}", text, re.ASCII):
        raise BudgetSettingError(
            f"{ENV_VAR}={env[ENV_VAR][:40]!r} is not a whole number of MiB (e.g. {ENV_VAR}=2048)"
        )
    mib = int(text)
    if mib < 1:
        raise BudgetSettingError(f"{ENV_VAR}={mib} must be at least 1 (MiB)")
    if mib > MAX_BUDGET_MB:
        raise BudgetSettingError(f"{ENV_VAR}={mib} is larger than {MAX_BUDGET_MB} MiB")
    return mib * 2**20


def use_env_budget() -> str | None:
    """Read the budget from the environment now, falling back to the default if bad.

    For the window, which cannot stop at a bad setting: returns the one-line problem
    (to show as a status message) or ``None``; the default budget is then in effect.
    A budget already in effect (read before, or set by :func:`set_memory_budget`) is kept.
    """
    global _budget
    if _budget is not None:
        return None
    try:
        _budget = budget_from_env()
    except BudgetSettingError as exc:
        _budget = DEFAULT_BUDGET_BYTES
        return f"{exc}; using the default of {DEFAULT_BUDGET_MB} MiB"
    return None


def memory_budget() -> int:
    """Current budget in bytes (default 1 GiB, env ``PE_STUDIO_MEMORY_BUDGET_MB``).

    The environment is read on first use, not at import, so a malformed value is a
    clear :class:`BudgetSettingError` (a ``ValueError``: bad input) where the budget is
    needed, never an import-time crash.
    """
    global _budget
    if _budget is None:
        _budget = budget_from_env()
    return _budget


def set_memory_budget(n_bytes: int) -> None:
    """Change the budget (e.g. from settings or tests)."""
    global _budget
    if n_bytes <= 0:
        raise ValueError("memory budget must be positive")
    _budget = int(n_bytes)


def estimate_bytes(shape: tuple[int, ...], itemsize: int = 8, copies: int = 1) -> int:
    """Bytes needed for ``copies`` arrays of ``shape`` with ``itemsize``-byte items."""
    return int(math.prod(int(s) for s in shape)) * int(itemsize) * int(copies)


def human_bytes(n: float) -> str:
    """``1536`` → ``'1.5 KiB'``."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def check_allocation(
    what: str, shape: tuple[int, ...], itemsize: int = 8, copies: int = 1, budget: int | None = None
) -> int:
    """Raise :class:`MemoryBudgetError` if the arrays would exceed the budget.

    Parameters
    ----------
    what
        Human description used in the message (e.g. ``"ALiBi bias"``).
    shape, itemsize, copies
        Size of the request; ``copies`` counts temporaries.
    budget
        Override of :func:`memory_budget`.

    Returns
    -------
    int
        The estimated bytes (when within budget).
    """
    need = estimate_bytes(shape, itemsize, copies)
    limit = memory_budget() if budget is None else budget
    if need > limit:
        dims = "×".join(str(int(s)) for s in shape)
        raise MemoryBudgetError(
            f"{what} ({dims}) would need {human_bytes(need)}, over the "
            f"memory budget of {human_bytes(limit)}; reduce the size"
        )
    return need
