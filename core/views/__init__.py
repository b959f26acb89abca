"""Registry of views: id → :class:`core.viewdata.ViewSpec`, in display order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.viewdata import ComputeContext, ViewData, ViewSpec
from core.views import alibi, sinusoidal

_ORDER = ("sinusoidal", "learned", "rope", "alibi", "relative", "permutation", "compare")


def _load() -> dict[str, ViewSpec]:
    specs = {m.SPEC.view_id: m.SPEC for m in (sinusoidal, alibi)}
    for name in ("learned", "rope", "relative", "permutation", "compare"):
        try:
            module = __import__(f"core.views.{name}", fromlist=["SPEC"])
        except ModuleNotFoundError:
            continue
        specs[name] = module.SPEC
    return {k: specs[k] for k in _ORDER if k in specs}


VIEWS: dict[str, ViewSpec] = _load()
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
