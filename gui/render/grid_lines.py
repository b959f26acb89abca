"""Grid lines behind a plot's data, drawn as opaque one-pixel lines.

pyqtgraph draws a plot's grid inside its axes: each axis then covers the whole plot,
its device cache becomes a plot-sized translucent pixmap that is refilled, redrawn and
alpha-blended whenever the range moves, and the grid lands *on top of* the curves.
That is 3–4 ms of a frame in a view with a few curve panels. :class:`GridLines` draws the
same lines (the axes' own tick values and pyqtgraph's alpha rule per tick level) behind
the data instead, in colours blended with the plot background beforehand, so each line
is an opaque one-pixel fill.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.render.pg_compat import explicit_ticks, tick_state
from gui.render.raster import pixel_translation
from gui.render.view_box import ViewOverlay


def blend(background: QtGui.QColor, color: QtGui.QColor, alpha: float) -> QtGui.QColor:
    """``color`` at opacity ``alpha`` (0..1) over an opaque ``background``, opaque."""
    a = min(max(alpha, 0.0), 1.0)
    return QtGui.QColor(
        *(
            round(b + (c - b) * a)
            for b, c in (
                (background.red(), color.red()),
                (background.green(), color.green()),
                (background.blue(), color.blue()),
            )
        )
    )


def tick_levels(axis: pg.AxisItem, lo: float, hi: float, length: float) -> list[list[float]]:
    """The tick values per level that ``axis`` draws for the range ``lo..hi``."""
    explicit = explicit_ticks(axis)
    if explicit is not None:  # set with setTicks
        return [[v for v, _label in level] for level in explicit]
    return [list(values) for _spacing, values in axis.tickValues(lo, hi, length)]


class GridLines(ViewOverlay):
    """Grid of ``plot`` at its bottom and left axes' ticks, under the plotted items.

    Parameters
    ----------
    plot
        The plot; the grid is a child of its view box, below the data.
    alpha
        Grid opacity as in ``PlotItem.showGrid`` (0..1).
    background
        Opaque colour the plot is drawn on.
    """

    def __init__(self, plot: pg.PlotItem, alpha: float, background: str) -> None:
        super().__init__(plot.getViewBox(), z=-1e6)  # under the data
        self.plot = plot
        self.alpha = float(alpha)
        self.background = QtGui.QColor(background)
        # the lines last found and what they were found for (see lines)
        self._lines: tuple[tuple, list[tuple[bool, float, QtGui.QColor]]] | None = None
        self.lines_found = 0  # how often the lines were worked out (tests)

    def lines(self) -> list[tuple[bool, float, QtGui.QColor]]:
        """``(vertical, position in view-box pixels, colour)`` of every grid line.

        Kept while the view's size and range, the axes' tick settings and colours stay
        the same: a frame that moves a plot's data (the clock's hands) but not its range
        repaints the grid under it with the lines found before (the axes' tick values
        were most of the grid's paint).
        """
        rect = self.view.boundingRect()
        (x0, x1), (y0, y1) = self.view.viewRange()
        tr = self.view.childGroup.transform()  # view coordinates → view-box pixels
        key = (
            (rect.x(), rect.y(), rect.width(), rect.height()),
            (x0, x1, y0, y1),
            (tr.m11(), tr.m12(), tr.m21(), tr.m22(), tr.dx(), tr.dy()),
            self.alpha,
            self.background.rgba(),
            *(
                (tick_state(axis), axis.tickPen().color().rgba())
                for axis in (self.plot.getAxis("bottom"), self.plot.getAxis("left"))
            ),
        )
        if self._lines is not None and self._lines[0] == key:
            return self._lines[1]
        out = self._find_lines(rect, x0, x1, y0, y1, tr)
        self._lines = (key, out)
        self.lines_found += 1
        return out

    def _find_lines(
        self,
        rect: QtCore.QRectF,
        x0: float,
        x1: float,
        y0: float,
        y1: float,
        tr: QtGui.QTransform,
    ) -> list[tuple[bool, float, QtGui.QColor]]:
        out: list[tuple[bool, float, QtGui.QColor]] = []
        for name, vertical, lo, hi, length in (
            ("bottom", True, x0, x1, rect.width()),
            ("left", False, y0, y1, rect.height()),
        ):
            axis = self.plot.getAxis(name)
            if hi == lo or length <= 0:
                continue
            color = axis.tickPen().color()
            for i, values in enumerate(tick_levels(axis, lo, hi, length)):
                # pyqtgraph's grid opacity: fainter for lower levels and dense ticks
                alpha = (
                    (255 / (i + 1))
                    * self.alpha
                    * min(max(0.05 * length / (len(values) + 1), 0.0), 1.0)
                    / 255
                )
                shade = blend(self.background, color, alpha)
                for v in values:
                    if not min(lo, hi) <= v <= max(lo, hi):
                        continue
                    pos = v * tr.m11() + tr.dx() if vertical else v * tr.m22() + tr.dy()
                    out.append((vertical, pos, shade))
        return out

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        rect = self.view.boundingRect()
        t = pixel_translation(p)
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        for vertical, pos, color in self.lines():
            if t is not None:  # the pixel column/row the aliased line covers, as an opaque fill
                if vertical:
                    col = math.floor(pos + t.dx())
                    p.fillRect(QtCore.QRectF(col - t.dx(), rect.top(), 1, rect.height()), color)
                else:
                    row = math.floor(pos + t.dy())
                    p.fillRect(QtCore.QRectF(rect.left(), row - t.dy(), rect.width(), 1), color)
                continue
            pen = QtGui.QPen(color, 0)  # cosmetic hairline for scaled and vector painting
            p.setPen(pen)
            if vertical:
                p.drawLine(QtCore.QPointF(pos, rect.top()), QtCore.QPointF(pos, rect.bottom()))
            else:
                p.drawLine(QtCore.QPointF(rect.left(), pos), QtCore.QPointF(rect.right(), pos))
