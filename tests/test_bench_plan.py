"""The benchmark's drag moves something on screen in every view (a drag that draws
nothing would time forced repaints, not frames)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.viewdata import ComputeContext, Panel
from core.views import VIEW_IDS, compute_view

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import frame_latency


def _drawn(panel: Panel) -> list[Any]:
    """What a panel puts on screen: its arrays, arrows, labels, table and title."""
    out: list[Any] = [panel.title, panel.image, panel.rows, panel.levels]
    out += [(s.x, s.y) for s in panel.series]
    out += [(a.name, a.x, a.y) for a in panel.arrows]
    out += [(lab.x, lab.y, lab.text) for lab in panel.labels]
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is not None and b is not None and np.array_equal(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_the_dragged_parameter_changes_what_is_drawn(view_id: str) -> None:
    params, _ = frame_latency.size_params(view_id, frame_latency.SIZES["lecture"])
    name, values = frame_latency.drag_plan(view_id, params, 5)
    assert len(set(values)) == len(values) == 5
    ctx = ComputeContext()
    first = compute_view(view_id, {**params, name: values[0]}, ctx)
    second = compute_view(view_id, {**params, name: values[1]}, ctx)
    assert not _same([_drawn(p) for p in first.panels], [_drawn(p) for p in second.panels]), (
        f"{view_id}: dragging {name} from {values[0]} to {values[1]} changes nothing drawn"
    )
