"""A live frame whose lines change only at their end repaints that end alone.

Issue 14 item 7 (frame time). Structural, not timings: a ``seq_len`` drag adds or
removes a few points at the end of each line of the sinusoidal view and holds the x
range, so :meth:`FastCurveItem.update_changed_end` marks only the region of the
segments that changed (on the view box) instead of the whole plot. What the screen
shows must be what a full repaint shows: the tests compare the window's backing store
after each live frame with the same window repainted whole.
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

SPEC = VIEWS["sinusoidal"]


def compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


class _Regions(QtCore.QObject):
    """The regions of the paint events a widget gets."""

    def __init__(self) -> None:
        super().__init__()
        self.regions: list[QtGui.QRegion] = []

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.Paint:
            self.regions.append(QtGui.QRegion(event.region()))
        return False


def _settle(qapp) -> None:  # type: ignore[no-untyped-def]
    """The frame's paint and the events it posts (a layout, the axes' room)."""
    for _ in range(3):
        qapp.processEvents()


def _screen(widget) -> QtGui.QImage:  # type: ignore[no-untyped-def]
    """What the window shows: a copy of its backing store."""
    device = widget.window().backingStore().paintDevice()
    image = device if isinstance(device, QtGui.QImage) else QtGui.QImage(device)
    return image.copy()


@pytest.fixture
def stage_widget(qapp):  # type: ignore[no-untyped-def]
    from gui.widgets.view_widget import ViewWidget

    set_theme(ui_scale=2.0)  # (the conftest restores the theme)
    widget = ViewWidget(SPEC)
    widget.resize(1800, 1300)
    widget.show()
    widget.show_data(compute(seq_len=500))
    for _ in range(3):  # the shown widget's posted layout and resize events: settled
        qapp.processEvents()
    yield widget
    widget.deleteLater()


def _waves(widget) -> list[FastCurveItem]:  # type: ignore[no-untyped-def]
    plot = next(iter(widget.plots.values()))
    return [item.curve for item in plot.curves if isinstance(item.curve, FastCurveItem)]


def test_a_live_frame_repaints_only_the_lines_new_end(qapp, stage_widget):
    widget = stage_widget
    # (a drag's first frame, and its second, whose range the hold sets: whole)
    for seq_len in (480, 482):
        widget.show_data(compute(seq_len=seq_len), live=True)
        _settle(qapp)
    waves = _waves(widget)
    assert len(waves) == 6
    view = waves[0].getViewBox()
    viewport = widget.canvas.viewport()
    box = widget.canvas.mapFromScene(view.sceneBoundingRect()).boundingRect()
    box = box.intersected(viewport.rect())
    assert not box.isEmpty()
    painted = _Regions()
    viewport.installEventFilter(painted)
    try:
        before = FastCurveItem.changed_end_updates
        widget.show_data(compute(seq_len=485), live=True)
        _settle(qapp)
    finally:
        viewport.removeEventFilter(painted)
    assert FastCurveItem.changed_end_updates - before == 6  # each wave's new end
    region = QtGui.QRegion()
    for r in painted.regions:
        region = region.united(r)
    # the wave plot is not repainted whole: a strip at the waves' end (~5 px of new
    # data and the strokes' reach), far less than the plot
    shown = region.intersected(QtGui.QRegion(box))
    area = sum(r.width() * r.height() for r in shown)
    assert 0 < area < box.width() * box.height() / 10


def test_live_frames_show_what_a_full_repaint_shows(qapp, stage_widget):
    widget = stage_widget
    viewport = widget.canvas.viewport()
    before = FastCurveItem.changed_end_updates
    # grown, shrunk by a few points, jumps both ways, the first point's region
    for seq_len in (480, 483, 486, 484, 470, 471, 499, 498, 3, 40, 38):
        widget.show_data(compute(seq_len=seq_len), live=True)
        _settle(qapp)
        shown = _screen(widget)
        viewport.update()  # the whole canvas repainted
        qapp.processEvents()
        assert _screen(widget) == shown, seq_len
    assert FastCurveItem.changed_end_updates > before  # (the end alone, repainted)


def test_a_line_whose_values_change_before_its_end_is_repainted_whole(qapp, stage_widget):
    """New data of the same length and bounds that differ at one point in the middle
    (the view and its ranges as they were): told whole, the screen a full repaint's."""
    widget = stage_widget
    viewport = widget.canvas.viewport()
    for seq_len in (480, 482):  # (a drag holding its range)
        widget.show_data(compute(seq_len=seq_len), live=True)
        _settle(qapp)
    wave = _waves(widget)[0]
    assert isinstance(wave, LineItem) and wave._painted is not None
    x, y = wave.xData, wave.yData.copy()
    y[200] = -y[200]  # (within the same bounds)
    before = FastCurveItem.changed_end_updates
    wave.setData(x.copy(), y)
    _settle(qapp)
    assert FastCurveItem.changed_end_updates == before
    shown = _screen(widget)
    viewport.update()
    qapp.processEvents()
    assert _screen(widget) == shown


def _line(n: int, live: bool = True) -> LineItem:
    x = np.arange(float(n))
    item = LineItem(pen=pg.mkPen(QtGui.QColor(0, 114, 178), width=2.0), antialias=False)
    item.live = live
    item.setData(x, np.sin(x))
    return item


def test_a_line_not_yet_painted_is_told_whole(qapp):
    """Without a paint of its offset strokes (nothing to keep) or outside a live
    frame, new data go to the scene as setData tells them."""
    for live in (True, False):
        item = _line(100, live)
        old = (item.xData, item.yData, item.opts["connect"])
        x = np.arange(102.0)
        item.setData(x, np.sin(x))
        assert not item.update_changed_end(*old)
