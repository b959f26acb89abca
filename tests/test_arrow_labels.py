"""Arrows panels (RoPE's plane, the clock) keep their texts apart and inside the data area
when the texts grow with the UI scale (presentation mode at 200 %)."""

from __future__ import annotations

import pytest
from axis_text import label_boxes, strip_rect
from PySide6 import QtCore


@pytest.fixture(scope="module")
def studio(qapp, open_window):
    with open_window(1920, 1080) as win:
        win.lecture.display.enter_presentation(fullscreen=False)
        win.lecture.display.set_scale(2.0)
        win.resize(1920, 1080)
        yield win


@pytest.mark.parametrize("view_id", ["clock", "rope"])
def test_plane_texts_neither_collide_nor_leave_the_view_at_200_percent(studio, view_id):
    area, boxes = label_boxes(studio, view_id)
    strip = strip_rect(studio, view_id)  # (the clock's "q at (m + s)·θ = …")
    assert len(boxes) >= 2
    problems = []
    for i, (text_a, a) in enumerate(boxes):
        if not any(room.adjusted(-1, -1, 1, 1).contains(a) for room in (area, strip)):
            problems.append(f"{text_a!r} {a.getRect()} outside {area.getRect()}")
        for text_b, b in boxes[i + 1 :]:
            inter = a.intersected(b)
            if inter.width() > 1 and inter.height() > 1:
                problems.append(f"{text_a!r} overlaps {text_b!r}")
    assert not problems


def test_zoomed_plane_hides_the_names_of_arrows_out_of_view(studio):
    """In a rectangle-zoomed RoPE plane, an arrow's name whose tip is out of the data
    area is hidden (pushed inside, it stuck to the plot's edge, next to no arrow), the
    others stay by their tips; back to the whole plane, all are shown again."""
    area, _boxes = label_boxes(studio, "rope")
    plot = studio.views["rope"].plots["plane"]
    vb = plot.plot.getViewBox()
    tips = [
        (label, head.pos())
        for head, label in zip(plot.arrows[2::3], plot.arrows[3::3], strict=True)
    ]
    assert len(tips) >= 2
    # a rectangle around the first tip only
    first = tips[0][1]
    rect = QtCore.QRectF(first.x() - 0.15, first.y() - 0.15, 0.3, 0.3)
    assert any(not rect.contains(tip) for _label, tip in tips)
    overlay = studio.lecture.overlay
    overlay.zoom_plot(plot.plot, rect)
    canvas = studio.views["rope"].canvas
    try:
        canvas.grab()  # the view's transform follows its range when it paints
        area = vb.sceneBoundingRect()
        for label, tip in tips:
            assert label.isVisible() == rect.contains(tip), label.toPlainText()
            if label.isVisible():
                label.updateTransform(force=True)
                assert area.adjusted(-1, -1, 1, 1).contains(label.sceneBoundingRect())
    finally:
        overlay.unzoom()
    canvas.grab()
    assert all(label.isVisible() for label, _tip in tips)


def test_label_text_keeps_pyqtgraphs_box_through_every_change(qapp):
    """An arrows panel's label keeps its bounding rect between changes (LabelText), and
    its text item is laid out once per change (PlainTextItem): after each change that
    re-places its text (text, font, width, anchor, angle) the box and the text's place
    are pyqtgraph's TextItem's (a QGraphicsTextItem's document), to the last bit."""
    import pyqtgraph as pg
    from PySide6 import QtGui

    from gui.plotting.panel_extras import HaloText, LabelText
    from gui.render.plain_text import PlainTextItem

    for cls in (LabelText, HaloText):
        ours, theirs = cls("q (m=1)", anchor=(0.5, 1.2)), pg.TextItem("q (m=1)", anchor=(0.5, 1.2))
        assert isinstance(ours.textItem, PlainTextItem)
        changes = [
            lambda t: t.setText("q (m=12345)"),
            lambda t: t.setFont(QtGui.QFont("DejaVu Sans", 17, QtGui.QFont.Weight.Bold)),
            lambda t: t.setAnchor((0.5, -0.2)),
            lambda t: t.setText("−41.1°"),
            lambda t: t.setTextWidth(40.0),  # (wrapped: "−41." over "1°")
            lambda t: t.setText("q at (m + s)·θ = 93400\u202frad (1.49·10⁴\u202fturns)"),
            lambda t: t.setTextWidth(-1.0),
            lambda t: t.setAngle(30.0),
            lambda t: t.setFont(QtGui.QFont("DejaVu Sans", 9)),
            lambda t: t.setPlainText("q·k = +0.540"),
            lambda t: t.setPlainText(""),
        ]
        for change in changes:
            ours.boundingRect()  # kept before the change
            change(ours)
            change(theirs)
            assert ours.boundingRect() == pg.TextItem.boundingRect(theirs)
            assert ours.textItem.pos() == theirs.textItem.pos()
            assert ours.toPlainText() == theirs.toPlainText()
