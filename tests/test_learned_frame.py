"""What a live frame of the learned view strokes (issue 14 item 7: frame time on the stage).

Structural, not timings: the learned view's curves are random rows (a turn at almost
every point). While live, their wide pen's offset strokes leave out the other
direction's family (the tips' overhang: half the strokes' cost); once settled the
curves are repainted whole, with the strokes a settled frame always had.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.render.fast_curve import FastCurveItem
from gui.render.line_item import LineItem
from gui.theme import set_theme

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")

SPEC = VIEWS["learned"]


def compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


def _noisy(width: float, live: bool) -> LineItem:
    y = np.random.default_rng(3).normal(size=200)
    item = LineItem(pen=pg.mkPen(QtGui.QColor(0, 114, 178), width=width), antialias=False)
    item.live = live
    item.setData(np.arange(200.0), y)
    return item


def _strokes(item: FastCurveItem):
    # 300 px wide, 300 px high for x 0..200, y -4..4 (steep segments, a turn at most points)
    device = QtGui.QTransform.fromScale(1.5, -300 / 8)
    return item._strokes(device, item.opts["pen"].widthF())


@pytest.mark.parametrize("width", [3.0, 4.0])
def test_a_live_noisy_curve_leaves_out_its_tips_strokes(qapp, width):
    settled, live = _noisy(width, False), _noisy(width, True)
    full = _strokes(settled)
    assert len(full) == 2 and full[1][0] is not None  # the tips' sub-path
    assert not settled.live_cut
    cut = _strokes(live)
    # the major family only, and as wide as a 2-px pen's (the stage's 3 and 4 px: see
    # tests/test_stage_live_width.py)
    assert cut == _strokes(_noisy(2.0, False)) and live.live_cut
    live.live = False  # settled again: the whole strokes (the cache knows the difference)
    again = _strokes(live)
    assert len(again) == 2 and again[0] == full[0] and again[1][1] == full[1][1]


def test_thin_or_settled_curves_are_stroked_as_before(qapp):
    # width 2 already drops a 2 % family: live or not, the same strokes
    thin_live, thin = _noisy(2.0, True), _noisy(2.0, False)
    assert _strokes(thin_live) == _strokes(thin)
    assert not thin_live.live_cut


def test_learned_view_repaints_its_cut_curves_when_settled(qapp):
    from gui.widgets.view_widget import ViewWidget

    set_theme(ui_scale=1.5)  # stage pens: 3 px (the conftest restores the theme)
    widget = ViewWidget(SPEC)
    try:
        widget.resize(1000, 1400)
        # 5 curves of 256 points: over the antialiasing budget, aliased when settled too;
        # plots tall enough for a random row's segments to be steep (as on the stage)
        widget.show_data(compute(seq_len=256, max_positions=256))
        widget.canvas.grab()
        curves = [item.curve for plot in widget.plots.values() for item in plot.curves]
        assert len(curves) == 5
        assert all(c.opts["pen"].widthF() == 3.0 and not c.opts["antialias"] for c in curves)
        assert not any(c.live or c.live_cut for c in curves)
        widget.show_data(compute(seq_len=250, max_positions=256), live=True)
        widget.canvas.grab()
        assert all(c.live and c.live_cut for c in curves)  # the tips left out
        updated: list[object] = []
        original = FastCurveItem.update
        try:
            FastCurveItem.update = lambda self, *a: updated.append(self) or original(self, *a)
            widget.show_data(compute(seq_len=250, max_positions=256))  # settled
        finally:
            FastCurveItem.update = original
        assert not any(c.live or c.live_cut for c in curves)
        assert all(c in updated for c in curves)  # repainted with their whole strokes
        widget.canvas.grab()
        assert not any(c.live_cut for c in curves)
    finally:
        widget.deleteLater()


def _render(item: pg.GraphicsObject) -> np.ndarray:
    scene = pg.GraphicsScene()
    scene.addItem(item)
    image = QtGui.QImage(300, 300, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    scene.render(painter, QtCore.QRectF(0, 0, 300, 300), QtCore.QRectF(0, -4, 200, 8))
    painter.end()
    scene.removeItem(item)
    return pg.imageToArray(image, copy=True)


def test_a_live_cut_curve_covers_the_settled_curves_rows(qapp):
    # the live strokes are the settled ones less the tips, 2 px wide rather than 3 (see
    # tests/test_stage_live_width.py): a subset of their pixels (but for one at the
    # image's edge, where a stroke half a pixel off the middle one lands on the last
    # row), and most of them
    settled, live = _render(_noisy(3.0, False)), _render(_noisy(3.0, True))
    ink_settled = (settled != 255).any(axis=2)
    ink_live = (live != 255).any(axis=2)
    assert (ink_live & ~ink_settled)[1:-1, 1:-1].sum() == 0
    assert ink_live.sum() >= 0.6 * ink_settled.sum()
