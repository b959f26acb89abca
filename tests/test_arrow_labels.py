"""Arrows panels (RoPE's plane, the clock) keep their texts apart and inside the data area
when the texts grow with the UI scale (presentation mode at 200 %)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets


@pytest.fixture(scope="module")
def studio(qapp, open_window):
    with open_window(1920, 1080) as win:
        win.lecture.display.enter_presentation(fullscreen=False)
        win.lecture.display.set_scale(2.0)
        win.resize(1920, 1080)
        yield win


def _label_boxes(win, view_id: str) -> tuple[QtCore.QRectF, list[tuple[str, QtCore.QRectF]]]:
    """The plane's view box and each of its texts' boxes, in scene pixels."""
    win.set_view(view_id)
    app = QtWidgets.QApplication.instance()
    for _ in range(4):  # resize → re-fit → layout → repaint
        assert win.wait_idle(60)
        app.processEvents()
    plot = win.views[view_id].plots["plane"]
    boxes = []
    for item in plot.arrows[3::3] + plot.text_labels:
        item.updateTransform(force=True)
        boxes.append((item.toPlainText(), item.sceneBoundingRect()))
    return plot.plot.getViewBox().sceneBoundingRect(), boxes


@pytest.mark.parametrize("view_id", ["clock", "rope"])
def test_plane_texts_neither_collide_nor_leave_the_view_at_200_percent(studio, view_id):
    area, boxes = _label_boxes(studio, view_id)
    assert len(boxes) >= 2
    problems = []
    for i, (text_a, a) in enumerate(boxes):
        if not area.adjusted(-1, -1, 1, 1).contains(a):
            problems.append(f"{text_a!r} {a.getRect()} outside {area.getRect()}")
        for text_b, b in boxes[i + 1 :]:
            inter = a.intersected(b)
            if inter.width() > 1 and inter.height() > 1:
                problems.append(f"{text_a!r} overlaps {text_b!r}")
    assert not problems
