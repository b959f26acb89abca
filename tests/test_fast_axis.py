"""FastAxisItem draws what pyqtgraph's AxisItem draws: same specs, same pixels; less
the tick labels pyqtgraph piles onto each other, and with room for the axis title."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from gui.render.axis_specs import generate_draw_specs, label_boxes, separate_labels
from gui.render.fast_axis import FastAxisItem, drop_close


def _specs_as_values(specs: tuple) -> tuple:
    axis_spec, tick_specs, text_specs = specs
    axis = (axis_spec[1].x(), axis_spec[1].y(), axis_spec[2].x(), axis_spec[2].y())
    ticks = [
        (pen.color().getRgb(), pen.widthF(), a.x(), a.y(), b.x(), b.y()) for pen, a, b in tick_specs
    ]
    texts = [(r.x(), r.y(), r.width(), r.height(), int(flags), s) for r, flags, s in text_specs]
    return axis, ticks, texts


AXES = ("left", "bottom", "top", "right")


def _plot_pair(qtbot, grid: bool, log: bool):
    """A layout with one plot using pyqtgraph's axes and one using ours."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(900, 400)
    plain = win.addPlot(row=0, col=0)
    fast = win.addPlot(row=0, col=1, axisItems={n: FastAxisItem(n) for n in AXES})
    for plot in (plain, fast):
        plot.showGrid(x=grid, y=grid, alpha=0.25)
        plot.setLogMode(x=log, y=False)
        plot.showAxis("top")
        plot.showAxis("right")
    win.show()
    return win, plain, fast


def _overlaps(orientation: str, text_specs: list) -> int:
    """Pairs of tick labels whose text overlaps."""
    boxes = label_boxes(orientation, [spec[0] for spec in text_specs])
    return sum(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


@pytest.mark.parametrize("grid,log", [(True, False), (False, False), (True, True)])
def test_draw_specs_equal_pyqtgraph(qtbot, grid, log):
    """The port computes pyqtgraph's specs exactly; the axis draws them less the labels
    that would overlap a more important one, and none of its labels overlap."""
    win, plain, fast = _plot_pair(qtbot, grid, log)
    rng = np.random.default_rng(7)
    checked = separated = 0
    for _ in range(40):
        lo = float(rng.uniform(-1e3, 1e3)) * 10.0 ** rng.integers(-3, 3)
        hi = lo + float(rng.uniform(1e-3, 1e4))
        if log:
            lo, hi = float(rng.uniform(-1, 2)), float(rng.uniform(2.5, 6))
        ylo, yhi = -float(rng.uniform(0.1, 600)), float(rng.uniform(0.1, 600))
        width, height = int(rng.integers(250, 900)), int(rng.integers(150, 500))
        win.resize(2 * width, height)
        for plot in (plain, fast):
            plot.setRange(xRange=(lo, hi), yRange=(ylo, yhi), padding=0)
        QtCore.QCoreApplication.processEvents()
        for name in AXES:
            a, b = plain.getAxis(name), fast.getAxis(name)
            assert type(b) is FastAxisItem and type(a) is pg.AxisItem
            image = QtGui.QImage(10, 10, QtGui.QImage.Format.Format_ARGB32)
            for axis_item in (a, b):  # same geometry: only the implementation differs
                axis_item.setGeometry(a.geometry())
            painter = QtGui.QPainter(image)
            try:
                expected = pg.AxisItem.generateDrawSpecs(a, painter)
                port = generate_draw_specs(b, painter)
                got = b.generateDrawSpecs(painter)
                again = b.generateDrawSpecs(painter)  # cached text sizes
            finally:
                painter.end()
            assert _specs_as_values(port.specs) == _specs_as_values(expected)
            ranks = b.label_ranks(port.label_ticks)
            kept = (*expected[:2], separate_labels(name, expected[2], ranks))
            assert _specs_as_values(got) == _specs_as_values(kept)
            assert _specs_as_values(again) == _specs_as_values(kept)
            assert _overlaps(name, got[2]) == 0
            checked += len(expected[2])
            separated += _overlaps(name, expected[2]) > 0
    assert checked > 100  # labels were really compared
    if log:  # pyqtgraph labels every minor tick of a log axis: some pile up
        assert separated > 0


def test_drop_close_matches_isclose():
    rng = np.random.default_rng(3)
    for _ in range(200):
        seen = np.sort(rng.uniform(-50, 50, rng.integers(0, 30)))
        values = np.concatenate([rng.uniform(-50, 50, 20), seen[:5] + 1e-4])
        atol = float(rng.uniform(1e-5, 2))
        expected = values[~np.any(np.isclose(seen, values[:, None], rtol=0, atol=atol), axis=-1)]
        np.testing.assert_array_equal(drop_close(values, seen, atol), expected)


def test_grid_pixels_equal_pyqtgraph(qtbot):
    """The span-filled grid lines give the same pixels as Qt's aliased lines."""
    win, plain, fast = _plot_pair(qtbot, grid=True, log=False)
    win.resize(1000, 420)
    for plot in (plain, fast):
        plot.setRange(xRange=(0, 517), yRange=(-1.1, 1.1), padding=0)
    QtCore.QCoreApplication.processEvents()
    images = []
    for plot in (plain, fast):
        rect = plot.sceneBoundingRect().toAlignedRect()
        image = QtGui.QImage(rect.size(), QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QtGui.QColor("white"))
        painter = QtGui.QPainter(image)
        win.scene().render(painter, QtCore.QRectF(image.rect()), QtCore.QRectF(rect))
        painter.end()
        images.append(image)
    a, b = (pg.imageToArray(img, copy=True) for img in images)
    assert a.shape == b.shape
    assert (a != 255).any()  # something was drawn
    np.testing.assert_array_equal(a, b)


def test_colour_bars_use_fast_axes(window):
    window.set_view("relative")
    assert window.wait_idle()
    bars = [p.colorbar for p in window.views["relative"].plots.values() if p.colorbar is not None]
    assert bars and all(type(bar.axis) is FastAxisItem for bar in bars)
    assert type(pg.PlotItem().getAxis("left")) is pg.AxisItem  # pyqtgraph left as it was
