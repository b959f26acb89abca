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
from PySide6 import QtCore
from tiers import gate_cover

from core.formula import minus_signs

# (window size, UI scale, presenting, whether the texts have room to keep off every line:
# the circle, the trails and q's shadow too, not only the arrows and the angle's arc).
# In the 1280 x 720 window at 200 % RoPE's plane is 527 x 237 px and "q (m=12345)"
# 243 x 46 px: below the circle are 40 px, and beside it a box that wide crosses it;
# the text crossed the circle there, and is drawn smaller now (see
# test_a_name_with_no_room_is_drawn_smaller_next_to_its_tip).
PLACES = [
    ((1920, 1080), 2.0, True, True),
    ((1280, 720), 2.0, True, True),
    ((1280, 720), 2.0, False, True),
]
# what a wedge's text (the clock's angle, q·k) may cross where it lies in its wedge: the
# faint lines drawn under its halo
FAINT = ("q's shadow on k", "k trail", "q trail")
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


def _in_wedge(plot, box, wedge) -> bool:  # type: ignore[no-untyped-def]
    """Whether the scene box ``box`` lies in the sector ``wedge`` (start, sweep) of the
    unit circle of ``plot``'s plane (all four corners)."""
    vb = plot.plot.getViewBox()
    corners = [
        vb.mapSceneToView(c)
        for c in (box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight())
    ]
    start, sweep = wedge
    turned = [
        (math.atan2(c.y(), c.x()) - start + math.pi) % (2 * math.pi) - math.pi for c in corners
    ]
    return all(
        (0 <= t <= sweep if sweep >= 0 else sweep <= t <= 0) and math.hypot(c.x(), c.y()) <= 1
        for t, c in zip(turned, corners, strict=True)
    )


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
        wedges = {minus_signs(lb.text): lb.wedge for lb in plot.panel.labels if lb.wedge}
        room = plot.plot.sceneBoundingRect().adjusted(-1, -1, 1, 1)
        for i, (text, box) in enumerate(texts):
            if not room.contains(box):
                problems.append(f"{key}: {text!r} {box.getRect()} outside {room.getRect()}")
            inner = box.adjusted(0.5, 0.5, -0.5, -0.5)
            faint = text in wedges and _in_wedge(plot, box, wedges[text])
            problems += [
                f"{key}: {text!r} covers {name}"
                for name, mark in marks
                if mark.intersects(inner) and not (faint and name in FAINT)
            ]
            for other, b in texts[i + 1 :]:
                inter = box.intersected(b)
                if inter.width() > 1 and inter.height() > 1:
                    problems.append(f"{key}: {text!r} overlaps {other!r}")
    return problems


# the gate: the 1280 x 720 window and stage at 200 % (the tightest); the roomier 1920 x
# 1080 stage with --full
@pytest.mark.parametrize(
    "place", gate_cover(PLACES, keep=PLACES[1:]), ids=lambda p: f"{p[0][0]}x{p[0][1]}-{p[2]}"
)
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


# (m, whether the angle's text lies in its wedge, the share of its size it is drawn at,
# the faint lines it crosses there)
WEDGES = [
    (3.0, True, 1.0, set()),
    (2.0, True, 1.0, {"q's shadow on k"}),
    (5.0, True, 0.9, {"k trail"}),
    (12345.6, True, 0.8, {"k trail"}),
    (1.3, False, 1.0, set()),
]


@pytest.mark.parametrize(("m", "inside", "share", "across"), WEDGES)
def test_the_angles_text_is_in_its_wedge_where_it_fits(window, show_view, m, inside, share, across):
    """On the 1920 x 1080 stage at 200 % "+114.6°" (m = 3, n = 1) fits between k, q and
    q's shadow and is placed there. "+57.3°" (118 x 42 px) fits between the arc and the
    circle only across q's shadow (drawn faint, under its halo): it went right of k,
    where it read as k's, and is in its wedge now. "−130.8°" (m = 5) and "−106.5°"
    (m = 12345.6), 138 px wide, were 17 px too wide for the room between the arc and
    the circle: drawn at 0.9 and 0.8 of their size there, across k's faint trail.
    "+17.2°" (m = 1.3) in a wedge 57 px wide at the circle goes to the nearest free
    place outside. In the wedge
    or not, the text keeps off the shafts, the heads, the arc and the other texts."""
    widget = show_view(window, "clock", (1920, 1080), 2.0, True)
    state = window.states["clock"]
    default = state.values["m"]
    try:
        state.set_param("m", m)
        label_boxes(window, "clock")
        plot = widget.plots["plane"]
        text = plot.text_labels[0]
        assert text.toPlainText().endswith("°")
        text.updateTransform(force=True)
        box = text.sceneBoundingRect()
        assert _in_wedge(plot, box, plot.panel.labels[0].wedge) is inside
        # its real size: its text's box at its font's size, times the share
        full = text.textItem.boundingRect()
        assert box.width() == pytest.approx(share * full.width(), abs=0.01)
        assert box.height() == pytest.approx(share * full.height(), abs=0.01)
        inner = box.adjusted(0.5, 0.5, -0.5, -0.5)
        crossed = {name for name, mark in plane_marks(widget) if mark.intersects(inner)}
        assert crossed == across
        for other, other_box in _texts(plot):
            if other != text.toPlainText():
                inter = box.intersected(other_box)
                assert inter.width() <= 1 or inter.height() <= 1, other
    finally:
        state.set_param("m", default)


def test_a_name_with_no_room_is_drawn_smaller_next_to_its_tip(window, show_view):
    """In the 1280 x 720 window at 200 % RoPE's plane was 527 x 237 px: "q (m=12345)"
    (243 x 46 px) fit neither below the circle (40 px) nor beside it, and crossed the
    circle. It is drawn smaller below q's tip, clear of the circle, and at its full
    size again where it fits (m = 5). (Without an x-axis title, the plane is 526 x 283
    px: 0.9 of its size.)"""
    widget = show_view(window, "rope", (1280, 720), 2.0, False)
    state = window.states["rope"]
    default = state.values["m"]
    plot = widget.plots["plane"]
    circle = dict(plane_marks(widget))["the circle"]
    vb = plot.plot.getViewBox()
    try:
        for m, share in ((12345, 0.9), (5, 1.0)):
            state.set_param("m", m)
            label_boxes(window, "rope")
            name = plot.arrows[3::3][list(a.name for a in plot.panel.arrows).index(f"q (m={m})")]
            name.updateTransform(force=True)
            box = name.sceneBoundingRect()
            full = name.textItem.boundingRect()
            assert box.height() == pytest.approx(share * full.height(), abs=0.01)
            assert not circle.intersects(box.adjusted(0.5, 0.5, -0.5, -0.5))
            arrow = plot.panel.arrows[[a.name for a in plot.panel.arrows].index(f"q (m={m})")]
            tip = vb.mapViewToScene(QtCore.QPointF(arrow.x, arrow.y))
            gap = math.hypot(
                max(box.left() - tip.x(), tip.x() - box.right(), 0.0),
                max(box.top() - tip.y(), tip.y() - box.bottom(), 0.0),
            )
            assert gap <= box.height()
    finally:
        state.set_param("m", default)
