"""What a live frame of the Compare view paints (issue 14 item 7: frame time on the stage).

Structural, not timings: Compare's sinusoidal and RoPE curves are the same values (up to
rounding); the RoPE line, drawn from the same array right above the sinusoidal one,
hides it pixel for pixel while aliased, so a live frame leaves the hidden line out
(its strokes were an eighth of the view's paint). Antialiased (settled) lines, dimmed
or emphasised lines and lines of other shapes are painted as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.render.line_item import LineItem
from gui.theme import set_theme

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")

SPEC = VIEWS["compare"]


def compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


def test_rope_is_drawn_from_the_sinusoidal_array():
    series = compute(seq_len=300, d_model=64).panel("distance").series
    assert series[0].name.startswith("sinusoidal") and series[1].name.startswith("RoPE")
    assert series[1].y is series[0].y and series[1].x is series[0].x


@pytest.fixture(scope="module")
def pair_plot(qapp):
    win = pg.GraphicsLayoutWidget()
    win.resize(420, 300)
    plot = win.addPlot()
    x = np.arange(300.0)
    y = np.cos(x / 7.0) * np.exp(-x / 150.0)
    lower = LineItem(pen=pg.mkPen(QtGui.QColor(230, 60, 20), width=3), antialias=False)
    upper = LineItem(pen=pg.mkPen(QtGui.QColor(0, 114, 178), width=3), antialias=False)
    for item in (lower, upper):
        plot.addItem(item)
        item.setData(x, y)
    plot.getViewBox().prepareForPaint()
    yield win, plot, lower, upper
    win.close()


def _grab(win) -> np.ndarray:
    image = win.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1).copy()


def test_a_hidden_line_paints_nothing_and_the_pixels_stay(pair_plot):
    win, _plot, lower, upper = pair_plot
    lower.cover = None
    both = _grab(win)
    assert lower.hidden_under(upper)
    lower.cover = upper
    before = LineItem.covered_paints
    left_out = _grab(win)
    assert LineItem.covered_paints > before  # the lower line was left out
    np.testing.assert_array_equal(left_out, both)  # and nothing of it showed


@pytest.mark.parametrize("change", ["antialias", "dimmed", "raised", "wider", "other data"])
def test_a_line_that_shows_is_painted(pair_plot, change):
    win, _plot, lower, upper = pair_plot
    lower.cover = upper
    x, y = upper.getOriginalDataset()
    pen = upper.opts["pen"]
    if change == "antialias":  # blended edges: the lower line's colour shows
        upper.opts["antialias"] = True
    elif change == "dimmed":
        upper.setOpacity(0.4)
    elif change == "raised":  # emphasis lifts the lower line above
        lower.setZValue(10.0)
    elif change == "wider":
        lower.setPen(pg.mkPen(QtGui.QColor(230, 60, 20), width=4))
    else:
        upper.setData(x, y + 0.0)  # equal values, another array: not known to be the same
    try:
        assert not lower.hidden_under(upper)
        before = LineItem.covered_paints
        _grab(win)
        assert LineItem.covered_paints == before
    finally:
        upper.opts["antialias"] = False
        upper.setOpacity(1.0)
        lower.setZValue(0.0)
        lower.setPen(pg.mkPen(QtGui.QColor(230, 60, 20), width=3))
        upper.setPen(pen)
        upper.setData(x, y)
    assert lower.hidden_under(upper)


@contextlib.contextmanager
def _shown_compare(qtbot, width: int, height: int) -> Iterator[Any]:
    """A Compare view widget on screen, drawn once at ``seq_len`` 400; closed after."""
    from gui.widgets.view_widget import ViewWidget

    widget = ViewWidget(SPEC)
    try:
        widget.resize(width, height)
        widget.show()
        qtbot.waitExposed(widget)
        widget.show_data(compute(seq_len=400))
        widget.canvas.grab()
        yield widget
    finally:
        widget.close()
        widget.deleteLater()
        QtCore.QCoreApplication.processEvents()


def test_compare_live_frames_leave_the_hidden_sinusoidal_line_out(qapp, qtbot):
    set_theme(ui_scale=1.5)  # stage pens: 3 px (the conftest restores the theme)
    with _shown_compare(qtbot, 1200, 900) as widget:
        sinusoidal, rope = widget.plots["distance"].curves[:2]
        assert sinusoidal.cover is rope
        assert all(c.cover is None for c in widget.plots["distance"].curves[1:])
        settled = LineItem.covered_paints
        widget.canvas.grab()  # settled: antialiased (both painted) or aliased as live
        assert LineItem.covered_paints == settled + (not sinusoidal.opts["antialias"])
        for n in (390, 380):
            widget.show_data(compute(seq_len=n), live=True)
            assert sinusoidal.cover is rope
            before = LineItem.covered_paints
            widget.canvas.grab()
            assert not sinusoidal.opts["antialias"]
            assert LineItem.covered_paints == before + 1


def test_a_seq_len_frame_finds_only_the_grid_lines_that_moved(qapp, qtbot):
    """The distance plot's y range (−1..1) stays through a ``seq_len`` drag: its
    horizontal grid lines are kept, its vertical ones found again; the lines are those
    a fresh grid finds."""
    with _shown_compare(qtbot, 1000, 800) as widget:
        grid = widget.plots["distance"].grid
        before = list(grid.directions_found)
        for n in (390, 380):  # (settled frames: a drag's keep their range, see below)
            widget.show_data(compute(seq_len=n))
            widget.canvas.grab()
        assert grid.directions_found == [before[0] + 2, before[1]]
        kept = list(grid.lines())
        assert any(not vertical for vertical, _pos, _color in kept)
        grid._kept = [None, None]  # found afresh: the same lines
        assert [(v, pos, c.rgba()) for v, pos, c in grid.lines()] == [
            (v, pos, c.rgba()) for v, pos, c in kept
        ]


def test_a_drag_keeps_the_range_the_data_fits_and_full_quality_fits_it_exactly(
    qapp, qtbot, monkeypatch
):
    """From the second live frame of a ``seq_len`` drag on, a curve plot's range is
    held: set once from the data's bounds, kept while the data lies inside it (nothing
    moves: the axes keep their ticks), grown with slack when the data outgrows it;
    full quality shows pyqtgraph's exact auto-range and the picture the same drag
    shows with no range held (the axes fit the exact range's labels, not the held
    range's: at 150 % these were wider, and kept their room)."""
    from gui.render import view_box

    set_theme(ui_scale=1.5)
    with _shown_compare(qtbot, 1400, 900) as widget:
        view = widget.plots["distance"].plot.getViewBox()
        axis = widget.plots["distance"].plot.getAxis("bottom")
        widget.show_data(compute(seq_len=390), live=True)  # the drag's first frame: exact
        widget.canvas.grab()
        widget.show_data(compute(seq_len=385), live=True)  # held from here on
        widget.canvas.grab()
        held = [list(r) for r in view.viewRange()]
        assert held[0][1] >= 384 and view.ranges_kept == 0
        kept, moved = view.ranges_kept, []
        view.sigRangeChanged.connect(lambda *_: moved.append(1))
        for n in (380, 370):  # inside the range held
            widget.show_data(compute(seq_len=n), live=True)
            assert axis.picture is not None  # not re-ticked
            widget.canvas.grab()
        assert moved == [] and [list(r) for r in view.viewRange()] == held
        assert view.ranges_kept == kept + 2
        widget.show_data(compute(seq_len=420), live=True)  # outgrows it: grows with slack
        widget.canvas.grab()
        x_hi = view.viewRange()[0][1]
        assert moved and x_hi >= 419 * (1 + view_box.RANGE_SLACK)
        widget.finish_live_frame()  # full quality: pyqtgraph's exact auto-range
        exact = [list(r) for r in view.viewRange()]
        assert exact[0][1] < x_hi
        widget.canvas.grab()  # (painted twice: GridLines fills kept lines another way)
        settled = _grab(widget.canvas)
    # the same drag with no range held: the same settled picture
    with monkeypatch.context() as patch:
        patch.setattr(view_box.PlotViewBox, "hold_frame", lambda self: False)
        with _shown_compare(qtbot, 1400, 900) as plain:
            for n in (390, 385, 380, 370, 420):
                plain.show_data(compute(seq_len=n), live=True)
                plain.canvas.grab()
            plain.finish_live_frame()
            ranges = plain.plots["distance"].plot.getViewBox().viewRange()
            assert [list(r) for r in ranges] == exact
            plain.canvas.grab()
            assert np.array_equal(_grab(plain.canvas), settled)
