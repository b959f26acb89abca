"""An arrows panel's texts (the RoPE clock's and RoPE's plane, the clock's hands) leave
the arrows, the angle's arc and each other readable, on stage at 200 % and in a
1280 x 720 window, also where a large m makes the texts long.

The clock's "q at (m + s)·θ = … rad (… turns)" and "k at (n + s)·θ = …" sat at data
y = −1.3 and −1.45 of a ±1.5 plane: at 200 % on the 1920 x 1080 stage they covered q's
shaft and head (and "q·k = −0.654" the shaft of q, "+57.3°" the shaft of k)."""

from __future__ import annotations

import pytest
from axis_text import label_boxes, plane_marks

# (window size, UI scale, presenting)
PLACES = [((1920, 1080), 2.0, True), ((1280, 720), 2.0, True), ((1280, 720), 2.0, False)]
# (view, m): the default and the long texts of a large m
VIEWS = [
    ("clock", 2.0),
    ("clock", 1000.0),
    ("clock", 12345.6),
    ("clock", 5.0),
    ("rope", 5),
    ("rope", 1000),
    ("rope", 12345),
]


@pytest.fixture(scope="module")
def window(qapp, open_window):  # type: ignore[no-untyped-def]
    with open_window(1920, 1080) as win:
        yield win


def _texts(plot):  # type: ignore[no-untyped-def]
    """The visible texts of an arrows plot (names of the arrows, its labels) with their
    scene boxes."""
    boxes = []
    for item in plot.arrows[3::3] + plot.text_labels:
        if item.isVisible():
            item.updateTransform(force=True)
            boxes.append((item.toPlainText(), item.sceneBoundingRect()))
    return boxes


def _problems(widget) -> list[str]:  # type: ignore[no-untyped-def]
    problems = []
    for key, plot in widget.plots.items():
        if plot.panel is None or plot.panel.kind != "arrows" or not plot.plot.isVisible():
            continue
        texts = _texts(plot)
        marks = plane_marks(widget, key)
        assert len(marks) >= 4  # (two shafts and heads at least: the test sees them)
        room = plot.plot.sceneBoundingRect().adjusted(-1, -1, 1, 1)
        for i, (text, box) in enumerate(texts):
            if not room.contains(box):
                problems.append(f"{key}: {text!r} {box.getRect()} outside {room.getRect()}")
            inner = box.adjusted(0.5, 0.5, -0.5, -0.5)
            problems += [
                f"{key}: {text!r} covers {name}" for name, mark in marks if mark.intersects(inner)
            ]
            for other, b in texts[i + 1 :]:
                inter = box.intersected(b)
                if inter.width() > 1 and inter.height() > 1:
                    problems.append(f"{key}: {text!r} overlaps {other!r}")
    return problems


@pytest.mark.parametrize("place", PLACES, ids=lambda p: f"{p[0][0]}x{p[0][1]}-{p[2]}")
def test_plane_texts_cover_no_arrow_arc_or_text(window, show_view, place):
    size, scale, present = place
    found = {}
    for view_id, m in VIEWS:
        widget = show_view(window, view_id, size, scale, present)
        state = window.states[view_id]
        default = state.values["m"]
        try:
            state.set_param("m", m)
            label_boxes(window, view_id)  # (shown and settled)
            label_boxes(window, view_id)
            problems = _problems(widget)
            if problems:
                found[f"{view_id} m={m}"] = problems
        finally:
            state.set_param("m", default)
    assert not found
