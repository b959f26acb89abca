"""Memory guard: estimate the bytes an array needs before allocating it.

Every place that allocates a size-dependent array (computation, export) asks
:func:`check_allocation` first, so an oversized request becomes a clear message
instead of a frozen machine.
"""

from __future__ import annotations

import math
import os

DEFAULT_BUDGET_BYTES = int(os.environ.get("PE_STUDIO_MEMORY_BUDGET_MB", "1024")) * 2**20
_budget = DEFAULT_BUDGET_BYTES


class MemoryBudgetError(MemoryError):
    """An allocation would exceed the memory budget (message is one line)."""


def memory_budget() -> int:
    """Current budget in bytes (default 1 GiB, env ``PE_STUDIO_MEMORY_BUDGET_MB``)."""
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
