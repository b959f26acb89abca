"""Live frames on the stage stroke wide pens 2 px wide (issue 14 item 7: frame time).

Structural, not timings. On the stage the curves' pens are 3 px (150 %) and 4 px
(200 %) wide; the fast curve path strokes them as one-pixel strokes side by side, 3-5 a
curve, most of a stage frame's paint. While a slider drags (a live frame) they are
stroked as the window's 2-px pens are (two strokes a family), and once settled they
are repainted at their own width: the settled picture is the same as without a drag.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtGui

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.render.fast_curve import LIVE_WIDTH, FastCurveItem
from gui.render.line_item import LineItem
from gui.theme import set_theme

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")

SPEC = VIEWS["sinusoidal"]


def compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


def _wave(width: float) -> LineItem:
    x = np.arange(512.0)
    item = LineItem(pen=pg.mkPen(QtGui.QColor(0, 114, 178), width=width), antialias=False)
    item.setData(x, np.sin(x / 3.0))
    return item


@pytest.mark.parametrize("width", [3.0, 4.0])
def test_a_live_wide_curve_is_stroked_as_a_2px_one(qapp, width):
    device = QtGui.QTransform.fromScale(1.7, -90.0)
    item, thin = _wave(width), _wave(2.0)
    full = item._strokes(device, width)
    assert sum(len(offsets) for _path, offsets in full) > 2  # (3-5 strokes)
    assert not item.live_cut
    item.live = thin.live = True
    live = item._strokes(device, width)
    assert live == thin._strokes(device, 2.0) and item.live_cut
    assert all(len(offsets) <= LIVE_WIDTH for _path, offsets in live)
    assert not thin.live_cut  # a 2-px pen is drawn as it is
    item.live = False  # settled: its own width again
    assert item._strokes(device, width) == full


def test_stage_drag_strokes_2px_and_settles_to_the_same_picture(qapp):
    from gui.widgets.view_widget import ViewWidget

    set_theme(ui_scale=2.0)  # stage pens: 4 px (the conftest restores the theme)
    widget = ViewWidget(SPEC)
    strokes: list[tuple[float, int]] = []
    original = FastCurveItem._strokes

    def counted(self, device, width):
        got = original(self, device, width)
        if got is not None:
            strokes.append((width, sum(len(offsets) for _path, offsets in got)))
        return got

    try:
        widget.resize(1800, 1300)
        widget.show()
        widget.show_data(compute(seq_len=512))
        for _ in range(3):  # the shown widget's posted layout and resize events: settled
            qapp.processEvents()
        settled = widget.canvas.grab().toImage()
        FastCurveItem._strokes = counted
        widget.show_data(compute(seq_len=500), live=True)
        widget.canvas.grab()
        assert strokes and all(width == 4.0 for width, _n in strokes)
        live = sum(n for _width, n in strokes)
        curves = [
            item.curve
            for plot in widget.plots.values()
            for item in plot.curves
            if isinstance(item.curve, FastCurveItem)
        ]
        assert curves and all(c.live_cut for c in curves)
        strokes.clear()
        widget.show_data(compute(seq_len=512))  # settled again (a live frame's end)
        again = widget.canvas.grab().toImage()
        full = sum(n for _width, n in strokes)
        assert 2 * full >= 3 * live  # a live frame: 2-px strokes, at most 2/3 as many
        assert not any(c.live_cut for c in curves)
        assert again == settled
    finally:
        FastCurveItem._strokes = original
        widget.deleteLater()
