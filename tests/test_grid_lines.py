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


class _CountingPainter:
    """A painter that counts the fills and rectangle batches asked of it."""

    def __init__(self, painter: QtGui.QPainter) -> None:
        self._painter = painter
        self.calls = {"fillRect": 0, "drawRects": 0, "drawLine": 0}

    def __getattr__(self, name: str):
        method = getattr(self._painter, name)
        if name in self.calls:

            def counted(*args):
                self.calls[name] += 1
                return method(*args)

            return counted
        return method


def _reference_fills(grid: GridLines, p: QtGui.QPainter) -> None:
    """The grid as it was painted before: a ``fillRect`` per line, in order."""
    rect = grid.view.boundingRect()
    t = p.deviceTransform()
    for vertical, pos, color in grid.lines():
        if vertical:
            col = np.floor(pos + t.dx())
            p.fillRect(QtCore.QRectF(col - t.dx(), rect.top(), 1, rect.height()), color)
        else:
            row = np.floor(pos + t.dy())
            p.fillRect(QtCore.QRectF(rect.left(), row - t.dy(), rect.width(), 1), color)


def test_grid_fills_runs_of_one_colour_at_once_with_the_same_pixels(qtbot):
    """A grid fills each run of lines of one colour with one ``drawRects``, not a fill
    per line, and keeps the runs' rectangles while it is repainted with the lines and
    offset of its last paint (the clock repaints its still grid under the moving hands
    on every frame); new lines or a new offset get new rectangles. The pixels are those
    of a fill per line at any sub-pixel offset and clip, crossing lines of different
    colours overlapping in the same order."""
    _win, plot = _shown_plot(qtbot, np.linspace(-1, 1, 101))
    grid = plot.grid
    lines = grid.lines()
    colors = [c.rgba() for _v, _p, c in lines]
    runs = 1 + sum(a != b for a, b in zip(colors, colors[1:], strict=False))
    assert len(set(colors)) >= 2 and len(lines) > runs  # minor and major lines
    assert any(v for v, _p, _c in lines) and not all(v for v, _p, _c in lines)
    rect = grid.view.boundingRect()
    size = (int(rect.width()) + 6, int(rect.height()) + 6)
    found = grid.fills_found
    offsets = [(0.0, 0.0), (2.3, 1.7), (1.5, 2.5), (3.99, 0.01)]
    for k, (dx, dy) in enumerate(offsets):
        images = []
        for paint in ("reference", "new lines", "same lines", "same again"):
            image = QtGui.QImage(*size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(0)
            painter = QtGui.QPainter(image)
            painter.setTransform(QtGui.QTransform.fromTranslate(dx, dy))
            painter.setClipRect(rect.adjusted(0.4 * k, 0.3, -0.6, -0.2 * k))
            if paint == "reference":
                _reference_fills(grid, painter)
            else:
                counting = _CountingPainter(painter)
                grid.paint(counting, None, None)
                assert counting.calls == {"fillRect": 0, "drawRects": runs, "drawLine": 0}
            painter.end()
            images.append(pg.imageToArray(image, copy=True))
        for other in images[1:]:
            assert np.array_equal(images[0], other), (dx, dy)
    # the runs' rectangles were worked out once per offset, then kept
    assert grid.fills_found == found + len(offsets)


def test_shades_follow_the_background(qtbot):
    """The pre-blended line colours are kept per background, tick colour and opacity:
    on a new background the lines are blended anew."""
    _win, plot = _shown_plot(qtbot, np.linspace(-1, 1, 101))
    grid = plot.grid
    tick = plot.plot.getAxis("bottom").tickPen().color()

    def shades() -> set[tuple[int, int, int, int]]:
        return {c.getRgb() for _v, _p, c in grid.lines()}

    before = shades()
    grid.background = QtGui.QColor("#102030")
    after = shades()
    assert after and after.isdisjoint(before)
    for color in after:  # the tick colour at some opacity over the new background
        assert any(blend(grid.background, tick, a / 1000).getRgb() == color for a in range(1001))
