"""GridLines: the axes' tick grid, pre-blended, behind the data."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from core.viewdata import Panel, Series
from gui.plotting.panel_plot import GRID_ALPHA, PanelPlot
from gui.render.grid_lines import GridLines, blend
from gui.theme import current_theme


def test_blend_is_source_over_on_opaque_background():
    white, black = QtGui.QColor("#ffffff"), QtGui.QColor("#000000")
    assert blend(white, black, 0.25).getRgb() == (191, 191, 191, 255)
    assert blend(white, black, 0.0).getRgb() == (255, 255, 255, 255)
    assert blend(QtGui.QColor(10, 20, 30), QtGui.QColor(110, 220, 30), 0.5).getRgb() == (
        60,
        120,
        30,
        255,
    )


def _shown_plot(qtbot, y: np.ndarray) -> tuple[pg.GraphicsLayoutWidget, PanelPlot]:
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    theme = current_theme()
    win.setBackground(theme.background)
    win.resize(700, 400)
    plot = PanelPlot(win.addPlot())
    x = np.arange(len(y), dtype=float)
    plot.show(Panel("c", "curve", "curves", "x", "y", series=[Series("s", x, y)]))
    win.show()
    QtCore.QCoreApplication.processEvents()
    return win, plot


def test_lines_sit_on_the_axis_ticks(qtbot):
    _win, plot = _shown_plot(qtbot, np.linspace(-1, 1, 101))
    grid = plot.grid
    assert isinstance(grid, GridLines)
    vb = plot.plot.getViewBox()
    (x0, x1), _ = vb.viewRange()
    major = plot.plot.getAxis("bottom").tickValues(x0, x1, vb.width())[0][1]
    vertical = sorted(pos for is_vertical, pos, _c in grid.lines() if is_vertical)
    for v in major:
        expected = grid.mapFromScene(vb.mapViewToScene(QtCore.QPointF(v, 0))).x()
        assert min(abs(p - expected) for p in vertical) < 1e-6
    assert grid.zValue() < vb.childGroup.zValue()  # drawn before (under) the data


def test_grid_pixels_are_preblended_and_under_the_curve(qtbot):
    y = np.full(101, 0.5)
    y[:2] = -1.0, 1.0  # fix the y range: a flat line at 0.5 except at the start
    win, plot = _shown_plot(qtbot, y)
    theme = current_theme()
    image = win.grab().toImage()
    grid, vb = plot.grid, plot.plot.getViewBox()
    major = plot.plot.getAxis("bottom").tickValues(*vb.viewRange()[0], vb.width())[0][1]
    v = [t for t in major if t >= 20][0]
    alpha = 255 * GRID_ALPHA * min(max(0.05 * vb.width() / (len(major) + 1), 0), 1) / 255
    expected = blend(
        QtGui.QColor(theme.background), plot.plot.getAxis("bottom").tickPen().color(), alpha
    )
    scene_x = vb.mapViewToScene(QtCore.QPointF(v, 0)).x()
    view_pt = win.mapFromScene(QtCore.QPointF(scene_x, 0))
    col = int(np.floor(win.mapFromScene(vb.mapViewToScene(QtCore.QPointF(v, 0))).x()))
    assert abs(col - view_pt.x()) <= 1
    # a pixel on the line, between the curve and the x axis (y = -0.5)
    row = win.mapFromScene(vb.mapViewToScene(QtCore.QPointF(v, -0.5))).y()
    colors = {image.pixelColor(c, row).getRgb() for c in (col - 1, col, col + 1)}
    assert expected.getRgb() in colors
    # where the flat curve crosses the grid line, the curve is on top
    row = win.mapFromScene(vb.mapViewToScene(QtCore.QPointF(v, 0.5))).y()
    curve = QtGui.QColor(plot.curves[0].opts["pen"].color()).getRgb()
    assert any(image.pixelColor(col, r).getRgb() == curve for r in (row - 1, row, row + 1))
    assert grid is plot.grid
