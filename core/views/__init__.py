"""Registry of views: id → :class:`core.viewdata.ViewSpec`, in display order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.viewdata import ComputeContext, ViewData, ViewSpec
from core.views import alibi, clock, compare, learned, permutation, relative, rope, sinusoidal

# Every view is imported eagerly: a view whose module fails to import stops start-up
# with its error instead of silently disappearing from the list.
_MODULES = (sinusoidal, learned, rope, alibi, relative, permutation, compare, clock)


VIEWS: dict[str, ViewSpec] = {m.SPEC.view_id: m.SPEC for m in _MODULES}
VIEW_IDS: tuple[str, ...] = tuple(VIEWS)


def get_view(view_id: str) -> ViewSpec:
    """The spec of ``view_id``; ValueError listing the known ids otherwise."""
    try:
        return VIEWS[view_id]
    except KeyError:
        raise ValueError(f"unknown view '{view_id}'; known views: {', '.join(VIEW_IDS)}") from None


def compute_view(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Compute a view's display data synchronously (worker thread, exports, tests)."""
    return get_view(view_id).compute(params, ctx)
