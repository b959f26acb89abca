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
        # each direction's lines last found and what they were found for, and all of
        # them (see lines)
        self._kept: list[tuple[tuple, list[tuple[bool, float, QtGui.QColor]]] | None] = [
            None,
            None,
        ]
        self._lines: list[tuple[bool, float, QtGui.QColor]] | None = None
        self.lines_found = 0  # how often any lines were worked out (tests)
        self.directions_found = [0, 0]  # how often the vertical, horizontal ones were

    def lines(self) -> list[tuple[bool, float, QtGui.QColor]]:
        """``(vertical, position in view-box pixels, colour)`` of every grid line.

        Each direction's lines are kept while what they depend on stays the same: the
        view's range and size along that direction, its axis' tick settings and colour,
        the grid's alpha and background. A frame that moves a plot's data (the clock's
        hands) but not its range repaints the grid under it with the lines found before
        (the axes' tick values were most of the grid's paint), and a frame that changes
        only the x range (a ``seq_len`` drag) finds only the vertical lines again.
        """
        rect = self.view.boundingRect()
        (x0, x1), (y0, y1) = self.view.viewRange()
        tr = self.view.childGroup.transform()  # view coordinates → view-box pixels
        shared = (tr.m12(), tr.m21(), self.alpha, self.background.rgba())
        found = False
        for i, (name, lo, hi, length, scale, shift) in enumerate(
            (
                ("bottom", x0, x1, rect.width(), tr.m11(), tr.dx()),
                ("left", y0, y1, rect.height(), tr.m22(), tr.dy()),
            )
        ):
            axis = self.plot.getAxis(name)
            key = (
                lo,
                hi,
                length,
                scale,
                shift,
                *shared,
                tick_state(axis),
                axis.tickPen().color().rgba(),
            )
            kept = self._kept[i]
            if kept is None or kept[0] != key:
                lines = self._find_direction(axis, i == 0, lo, hi, length, scale, shift)
                self._kept[i] = (key, lines)
                self.directions_found[i] += 1
                found = True
        if found or self._lines is None:
            self._lines = [line for kept in self._kept if kept is not None for line in kept[1]]
            self.lines_found += 1
        return self._lines

    def _find_direction(
        self,
        axis: pg.AxisItem,
        vertical: bool,
        lo: float,
        hi: float,
        length: float,
        scale: float,
        shift: float,
    ) -> list[tuple[bool, float, QtGui.QColor]]:
        """The lines at ``axis``'s ticks for the range ``lo..hi`` over ``length``
        pixels, at ``v * scale + shift`` (vertical lines: the bottom axis' ticks)."""
        out: list[tuple[bool, float, QtGui.QColor]] = []
        if hi == lo or length <= 0:
            return out
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
                out.append((vertical, v * scale + shift, shade))
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
