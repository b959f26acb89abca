"""Grid lines behind a plot's data, drawn as opaque one-pixel lines.

pyqtgraph draws a plot's grid inside its axes: each axis then covers the whole plot,
its device cache becomes a plot-sized translucent pixmap that is refilled, redrawn and
alpha-blended whenever the range moves, and the grid lands *on top of* the curves.
That is 3–4 ms of a frame in a view with a few curve panels. :class:`GridLines` draws the
same lines (the axes' own tick values and pyqtgraph's alpha rule per tick level) behind
the data instead, in colours blended with the plot background beforehand, so each line
is an opaque one-pixel fill.

A grid is repainted on every frame that moves the data above it (the clock's hands
under a still grid): repainted with the lines and pixel offset of its last paint, it
fills each run of lines of one colour with a single ``drawRects`` call over rectangles
it keeps (the same pixels as a ``fillRect`` per line, in the same order) instead of a
Python call and a rectangle per line. New lines (a new range) are filled line by line,
as before, until they are painted again.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.render.pg_compat import explicit_ticks, tick_rgba, tick_state
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


def _runs_of(
    lines: list[tuple[bool, float, QtGui.QColor]],
) -> list[tuple[QtGui.QColor, list[tuple[bool, float, QtGui.QColor]]]]:
    """``lines`` in runs of consecutive lines of one colour (object: a level's lines
    share theirs), in order."""
    if not lines:
        return []
    starts = [i for i, line in enumerate(lines) if i == 0 or line[2] is not lines[i - 1][2]]
    ends = [*starts[1:], len(lines)]
    return [(lines[a][2], lines[a:b]) for a, b in zip(starts, ends, strict=True)]


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
        # the lines and pixel offset of the last paint, and once they are painted again
        # the (colour, rectangles) of each run of lines of one colour (see _fill_runs)
        self._fills: tuple[list, tuple, list[tuple[QtGui.QColor, list[QtCore.QRectF]]] | None]
        self._fills = ([], (), None)
        self.fills_found = 0  # how often the runs' rectangles were worked out (tests)
        self._shades: dict[tuple[int, int, float], QtGui.QColor] = {}  # blend()s made
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
            axis = self.plot.axes[name]["item"]
            key = (
                lo,
                hi,
                length,
                scale,
                shift,
                *shared,
                tick_state(axis),
                tick_rgba(axis),
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
        rgba = tick_rgba(axis)
        for i, values in enumerate(tick_levels(axis, lo, hi, length)):
            # pyqtgraph's grid opacity: fainter for lower levels and dense ticks
            alpha = (
                (255 / (i + 1))
                * self.alpha
                * min(max(0.05 * length / (len(values) + 1), 0.0), 1.0)
                / 255
            )
            key = (self.background.rgba(), rgba, alpha)
            shade = self._shades.get(key)
            if shade is None:
                if len(self._shades) > 64:
                    self._shades.clear()
                shade = self._shades[key] = blend(
                    self.background, QtGui.QColor.fromRgba(rgba), alpha
                )
            low, high = min(lo, hi), max(lo, hi)
            out.extend([(vertical, v * scale + shift, shade) for v in values if low <= v <= high])
        return out

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        rect = self.view.boundingRect()
        t = pixel_translation(p)
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        lines = self.lines()
        if t is None:
            for vertical, pos, color in lines:
                pen = QtGui.QPen(color, 0)  # cosmetic hairline for scaled and vector painting
                p.setPen(pen)
                if vertical:
                    p.drawLine(QtCore.QPointF(pos, rect.top()), QtCore.QPointF(pos, rect.bottom()))
                else:
                    p.drawLine(QtCore.QPointF(rect.left(), pos), QtCore.QPointF(rect.right(), pos))
            return
        # opaque fills of the pixel columns/rows the aliased lines cover
        p.setPen(QtCore.Qt.PenStyle.NoPen)
        for color, rects in self._fill_runs(lines, rect, t):
            p.setBrush(color)
            p.drawRects(rects)

    def _fill_runs(
        self,
        lines: list[tuple[bool, float, QtGui.QColor]],
        rect: QtCore.QRectF,
        t: QtGui.QTransform,
    ) -> list[tuple[QtGui.QColor, list[QtCore.QRectF]]]:
        """The rectangles of ``lines`` (the one-pixel column or row each line fills on
        a painter with the pixel translation ``t``) in runs of consecutive lines of one
        colour, kept while the lines, rectangle and translation are those of the last
        paint (the clock repaints its still grids under the moving hands on every
        frame). Filled in order, crossing lines of two colours overlap as they did with
        a fill per line; a run is one ``drawRects`` (new lines were filled line by
        line, seven calls a line: a drag's range moves them on most frames)."""
        dx, dy = t.dx(), t.dy()
        left, top, width, height = rect.left(), rect.top(), rect.width(), rect.height()
        key = ((left, top, width, height), dx, dy)
        last, last_key, runs = self._fills
        if last is lines and last_key == key and runs is not None:
            return runs
        # (floor division: the floor of a float, as math.floor without a call a line)
        rect_of = QtCore.QRectF
        runs = [
            (
                color,
                [
                    rect_of((pos + dx) // 1.0 - dx, top, 1, height)
                    if vertical
                    else rect_of(left, (pos + dy) // 1.0 - dy, width, 1)
                    for vertical, pos, _color in run
                ],
            )
            for color, run in _runs_of(lines)
        ]
        self._fills = (lines, key, runs)
        self.fills_found += 1
        return runs
