"""An arrows panel's texts (the RoPE clock's and RoPE's plane, the clock's hands) leave
the arrows, the angle's arc and each other readable, on stage at 200 % and in a
1280 x 720 window, also where a large m makes the texts long.

The clock's "q at (m + s)·θ = … rad (… turns)" and "k at (n + s)·θ = …" sat at data
y = −1.3 and −1.45 of a ±1.5 plane: at 200 % on the 1920 x 1080 stage they covered q's
shaft and head (and "q·k = −0.654" the shaft of q, "+57.3°" the shaft of k)."""

from __future__ import annotations

import math

import pytest
from axis_text import label_boxes, plane_marks

# (window size, UI scale, presenting, whether the texts have room to keep off every line:
# the circle, the trails and q's shadow too, not only the arrows and the angle's arc).
# In the 1280 x 720 window at 200 % RoPE's plane is 527 x 237 px and "q (m=12345)"
# 243 x 46 px: below the circle are 40 px, and beside it a box that wide crosses it;
# the text crosses the circle there rather than an arrow.
PLACES = [
    ((1920, 1080), 2.0, True, True),
    ((1280, 720), 2.0, True, True),
    ((1280, 720), 2.0, False, False),
]
# (view, m): the default and the long texts of a large m
VIEWS = [
    ("clock", 2.0),
    ("clock", 1000.0),
    ("clock", 12345.6),
    ("clock", 5.0),
    ("clock", 3.0),  # (an obtuse angle)
    ("clock", 1.3),  # (a narrow one)
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


def _problems(widget, every_line: bool) -> list[str]:  # type: ignore[no-untyped-def]
    problems = []
    for key, plot in widget.plots.items():
        if plot.panel is None or plot.panel.kind != "arrows" or not plot.plot.isVisible():
            continue
        texts = _texts(plot)
        marks = plane_marks(widget, key)
        assert len(marks) >= 5  # (two shafts and heads and the circle at least)
        if not every_line:
            marks = [(n, m) for n, m in marks if n.endswith(("shaft", "head")) or "angle" in n]
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
def test_plane_texts_cover_no_arrow_line_or_text(window, show_view, place):
    size, scale, present, every_line = place
    found = {}
    for view_id, m in VIEWS:
        widget = show_view(window, view_id, size, scale, present)
        state = window.states[view_id]
        default = state.values["m"]
        try:
            state.set_param("m", m)
            label_boxes(window, view_id)  # (shown and settled)
            label_boxes(window, view_id)
            problems = _problems(widget, every_line)
            if problems:
                found[f"{view_id} m={m}"] = problems
        finally:
            state.set_param("m", default)
    assert not found


@pytest.mark.parametrize(("m", "inside"), [(3.0, True), (2.0, False), (1.3, False)])
def test_the_angles_text_is_in_its_wedge_where_it_fits(window, show_view, m, inside):
    """On the 1920 x 1080 stage at 200 % "+114.6°" (m = 3, n = 1) fits between k, q and
    q's shadow and is placed there; "+57.3°" (110 x 36 px) does not fit between the
    arc and the shadow (m = 2), nor "+17.2°" in a wedge 57 px wide at the circle
    (m = 1.3): they go to the nearest free place outside."""
    widget = show_view(window, "clock", (1920, 1080), 2.0, True)
    state = window.states["clock"]
    default = state.values["m"]
    try:
        state.set_param("m", m)
        label_boxes(window, "clock")
        plot = widget.plots["plane"]
        text = plot.text_labels[0]
        assert text.toPlainText().endswith("°")
        vb = plot.plot.getViewBox()
        text.updateTransform(force=True)
        box = text.sceneBoundingRect()
        corners = [
            vb.mapSceneToView(c)
            for c in (box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight())
        ]
        start, sweep = plot.panel.labels[0].wedge
        turned = [
            (math.atan2(c.y(), c.x()) - start + math.pi) % (2 * math.pi) - math.pi for c in corners
        ]
        held = all(
            (0 <= t <= sweep if sweep >= 0 else sweep <= t <= 0) and math.hypot(c.x(), c.y()) <= 1
            for t, c in zip(turned, corners, strict=True)
        )
        assert held is inside
    finally:
        state.set_param("m", default)
