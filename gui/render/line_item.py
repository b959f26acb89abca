"""A plot's line series as one item: what ``PlotDataItem`` does for lines, less its layers.

``PlotItem.plot()`` wraps every curve in a ``PlotDataItem``: a container holding a curve
and a hidden scatter item, which re-derives display data (log mapping, finiteness,
down-sampling, clipping) on each ``setData`` and again for every view change. For a
plain line that machinery is most of the cost of a new frame. :class:`LineItem` is the
curve itself (a :class:`gui.render.fast_curve.FastCurveItem`) added straight to the plot; it
keeps the original arrays and maps them for display exactly as ``PlotDataItem`` does:
``log10`` per log axis (non-finite results become NaN), and NaNs break the line.
Symbols (scatter series) stay ``PlotDataItem``\\ s.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gui.render.fast_curve import FastCurveItem, finite_extent
from gui.render.pg_compat import is_exporting, strokes_segments, swap_curve_data
from gui.render.raster import on_raster

_SOLID_BRUSH = QtCore.Qt.BrushStyle.SolidPattern
_SOLID_LINE = QtCore.Qt.PenStyle.SolidLine


_FLOAT = np.dtype(float)


def log_mapped(values: np.ndarray) -> np.ndarray:
    """``log10(values)`` with non-finite results (from zeros, negatives) as NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mapped = np.log10(values)
    mapped[~np.isfinite(mapped)] = np.nan
    return mapped


class LineItem(FastCurveItem):
    """A line series of a plot; ``PlotItem.addItem`` gives it its legend entry and log mode.

    Offers the parts of the ``PlotDataItem`` interface the app uses: :meth:`setData`
    with original values, :meth:`getOriginalDataset`, :meth:`setLogMode` and ``curve``
    (the item itself, where a ``PlotDataItem`` has its curve).
    """

    #: how its owner draws it once settled, where it is aliased while live (its owner's
    #: business; ``None``: not told)
    settled_antialias: bool | None = None
    #: a line of the same plot drawn right above this one, with the same arrays (its
    #: owner's business, e.g. Compare's sinusoidal and RoPE curves: the same values).
    #: Where its aliased opaque strokes cover every pixel of this line's, this line
    #: paints nothing (see :meth:`hidden_under`).
    cover: LineItem | None = None
    covered_paints = 0  # paints left out because the cover hides every pixel (tests)
    #: the item that paints this line with others (a trail's pieces), ``None``: itself
    painted_by: LineGroup | None = None  # (see LineGroup)
    #: what :func:`_one_path_pen` found for the pen and options in its key: ``(key,
    #: whether one path with that pen is the whole stroke)`` (``None``: not looked at)
    one_path: tuple[tuple[object, ...], bool] | None = None

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._original: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
        self._log = (False, False)

    @property
    def curve(self) -> LineItem:
        return self

    def getOriginalDataset(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The arrays last given to :meth:`setData`, before any log mapping."""
        return self._original

    def setData(self, *args: object, **kwargs: object) -> None:
        """``setData(x, y)``: original values, shown log-mapped on log axes."""
        if len(args) == 2 and not kwargs:
            x, y = args
            # (np.asarray(a, dtype=float) is a itself for an array of floats)
            if type(x) is not np.ndarray or x.dtype != _FLOAT:
                x = np.asarray(x, dtype=float)
            if type(y) is not np.ndarray or y.dtype != _FLOAT:
                y = np.asarray(y, dtype=float)
            self._original = (x, y)
            self._show_original()
            return
        super().setData(*args, **kwargs)  # pyqtgraph's own calls (options only)

    def paint(self, p: QtGui.QPainter, opt: object, widget: object) -> None:
        cover = self.cover
        if cover is not None and self.hidden_under(cover):
            LineItem.covered_paints += 1
            return
        super().paint(p, opt, widget)

    def hidden_under(self, cover: LineItem) -> bool:
        """Whether ``cover``, painted after this line, sets every pixel this line would.

        It does when it draws the same arrays through the same transform with an opaque
        pen of the same shape (colour aside), aliased, and nothing but the line (no
        fill, shadow or composition mode): the same pixels (the same strokes, from
        the same data, width and view), each set to its opaque colour. Emphasis
        (other z, dimmed opacity), antialiasing (blended edges) and vector export are
        then drawn as before.
        """
        if (
            cover.xData is None
            or cover._original[0] is not self._original[0]
            or cover._original[1] is not self._original[1]
            or cover._log != self._log
            or cover.live != self.live
            or cover.wide_pen_points != self.wide_pen_points
            or not cover.isVisible()
            or cover.zValue() != self.zValue()
            or cover.effectiveOpacity() != 1.0
            or cover.parentItem() is not self.parentItem()
            or cover.pos() != self.pos()
            or not cover.transform().isIdentity()
            or not self.transform().isIdentity()
            or is_exporting(self)
        ):
            return False
        for opts in (self.opts, cover.opts):
            if (
                opts["antialias"]
                or opts["fillLevel"] is not None
                or opts["shadowPen"] is not None
                or opts["compositionMode"] is not None
            ):
                return False
        if (self.opts["stepMode"], self.opts["connect"]) != (
            cover.opts["stepMode"],
            cover.opts["connect"],
        ):
            return False
        mine, theirs = self.opts["pen"], cover.opts["pen"]
        if not isinstance(mine, QtGui.QPen) or not isinstance(theirs, QtGui.QPen):
            return False
        brush = theirs.brush()
        return (
            brush.style() == _SOLID_BRUSH
            and brush.color().alpha() == 255
            and mine.widthF() == theirs.widthF()
            and mine.style() == theirs.style() == _SOLID_LINE
            and mine.isCosmetic() == theirs.isCosmetic()
            and mine.capStyle() == theirs.capStyle()
            and mine.joinStyle() == theirs.joinStyle()
            and mine.miterLimit() == theirs.miterLimit()
        )

    def setLogMode(self, x: bool, y: bool) -> None:
        if (bool(x), bool(y)) == self._log:
            return
        self._log = (bool(x), bool(y))
        if self._original[0] is not None:
            self._show_original()

    def set_data_quietly(self, x: np.ndarray, y: np.ndarray) -> None:
        """:meth:`setData` for a line that its :attr:`painted_by` group paints: the same
        data, bounds and paths, without the scene, view box and listeners being told
        (the group is: :meth:`LineGroup.refresh`, once for all its lines). A clock frame
        moves 25 trail lines; each told them on its own."""
        if type(x) is not np.ndarray or x.dtype != _FLOAT:
            x = np.asarray(x, dtype=float)
        if type(y) is not np.ndarray or y.dtype != _FLOAT:
            y = np.asarray(y, dtype=float)
        self._original = (x, y)
        shown_x, shown_y, finite = self._shown_arrays()
        swap_curve_data(self, shown_x, shown_y, "all" if finite else "finite", finite)

    def _shown_arrays(self) -> tuple[np.ndarray, np.ndarray, bool]:
        """The original arrays as shown (log-mapped on log axes) and whether all finite."""
        x, y = self._original
        if x is None or y is None:
            raise ValueError("the line has no data")
        if self._log[0]:
            x = log_mapped(x)
        if self._log[1]:
            y = log_mapped(y)
        every = np.logical_and.reduce  # (ndarray.all, without its wrapper)
        return x, y, bool(every(np.isfinite(x)) and every(np.isfinite(y)))

    def _show_original(self) -> None:
        x, y, finite = self._shown_arrays()
        # PlotDataItem's "auto" connection: a NaN breaks the line
        connect = "all" if finite else "finite"
        if self.opts["stepMode"]:  # (steps: pyqtgraph's checks of their lengths)
            super().setData(x=x, y=y, connect=connect, skipFiniteCheck=finite)
            return
        # what PlotCurveItem.setData(x=, y=, connect=, skipFiniteCheck=) does, in its
        # order, without its argument handling (about 7 of its 11 us; a Compare frame
        # sets 18 lines): the data stored, then the scene, view box and listeners told
        old = (self.xData, self.yData, self.opts["connect"])
        swap_curve_data(self, x, y, connect, finite)
        if self.update_changed_end(*old):  # (a live frame's new end alone)
            return
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        self.update()
        self.sigPlotChanged.emit(self)


# ---------------------------------------------------------------------- several lines as one item
# Several lines of a plot painted by one item: the pieces of a fading trail.
#
# A clock's trail is five short lines of one colour, each a little more opaque than the
# one before (:func:`core.views.clock.trail_series`): 50 of a frame's ~70 curves. As items
# of their own, each line is visited, bounded and painted by the scene on every frame,
# and each costs Qt and pyqtgraph the same upkeep as a long curve. :class:`LineGroup`
# paints its lines one after another, in their order, each as it paints itself
# (:meth:`LineItem.paint`, with its own opacity): the same calls on the same painter,
# so the same pixels, from one item. The lines stay :class:`LineItem`\\ s with their own
# data and pens (their plot updates them as before) and stay in the scene as the group's
# children, so that exports find them (vector mode, their paths), but they paint nothing
# themselves (``ItemHasNoContents``); their plot tells the group when they changed
# (:meth:`LineGroup.refresh`).

_ANTIALIAS = QtGui.QPainter.RenderHint.Antialiasing
_NO_CONTENTS = QtWidgets.QGraphicsItem.GraphicsItemFlag.ItemHasNoContents


class LineGroup(pg.GraphicsObject):
    """Paints ``lines`` (which it adopts as children) in their order, as one item."""

    paints = 0  # paints of all groups (tests)

    def __init__(self, lines: Sequence[LineItem]) -> None:
        super().__init__()
        self.lines = list(lines)
        self._rect: QtCore.QRectF | None = None
        for line in self.lines:
            line.setParentItem(self)
            line.setFlag(_NO_CONTENTS, True)
            line.painted_by = self

    def refresh(self) -> None:
        """A line's data or pen changed: its bounds and pixels are due again."""
        self.prepareGeometryChange()
        self._rect = None
        self.informViewBoundsChanged()
        self.update()

    def viewTransformChanged(self) -> None:
        """The lines' pixel padding follows the view (pyqtgraph calls this)."""
        self.refresh()

    joint_rects = 0  # bounding rects worked out from all lines at once (tests)

    def boundingRect(self) -> QtCore.QRectF:
        rect = self._rect
        if rect is None:
            rect = self._joint_rect()
            if rect is None:
                rect = QtCore.QRectF()
                for line in self.lines:
                    own = line.boundingRect()
                    if own.isValid():
                        rect = own if not rect.isValid() else rect.united(own)
            self._rect = rect
        return rect

    def _joint_rect(self) -> QtCore.QRectF | None:
        """The union of the lines' bounding rects, from one minimum and maximum over all
        their points (``None`` where that does not hold: a line without data or with
        non-finite values, lines of other paddings, or what FastCurveItem's bounds take
        from pyqtgraph's general path).

        Each line's rect is its data bounds grown by its pen's padding in pixels
        (:meth:`FastCurveItem.boundingRect`); the lines share the group's coordinates
        and so their pixel size, and a trail's pieces share their pen's width: the union
        is the joint data bounds grown once (up to the last bit of the float sums).
        A clock frame moves its trails' lines: each line's bounds were worked out on
        their own (32 a frame at 150 % on the stage; the ten groups' rects took about
        1.0-1.4 ms worked out line by line, 0.7 ms at once)."""
        lines = self.lines
        if not lines:
            return None
        pad = None
        xs: list[float] = []
        ys: list[float] = []
        for line in lines:
            own = line.cosmetic_padding()  # (None: a pen's width counts in its bounds)
            x, y = line.xData, line.yData
            if (
                own is None
                or x is None
                or y is None
                or not x.size
                or line.opts["fillLevel"] is not None
                or (pad is not None and own != pad)
                # (the line's coordinates are the group's: no offset, turn or scale)
                or not line.itemTransform(self)[0].isIdentity()
            ):
                return None
            pad = own
            xs += x.tolist()
            ys += y.tolist()
        if pad is None:
            return None
        # a trail's pieces hold a few values each (~40 in all): Python's min and max
        # over them cost less than numpy's concatenations and reductions (~10 µs); a
        # NaN or infinite value: line by line
        x_extent, y_extent = finite_extent(xs), finite_extent(ys)
        if x_extent is None or y_extent is None:
            return None
        (x_lo, x_hi), (y_lo, y_hi) = x_extent, y_extent
        LineGroup.joint_rects += 1
        px = py = 0.0
        if pad > 0:
            px, py = lines[0].pixel_size()
            px *= pad
            py *= pad
        return QtCore.QRectF(x_lo - px, y_lo - py, (2 * px) + x_hi - x_lo, (2 * py) + y_hi - y_lo)

    def dataBounds(
        self, ax: int, frac: float = 1.0, orthoRange: tuple[float, float] | None = None
    ) -> tuple[float | None, float | None]:
        """The lines' data bounds together (what auto-range measured of them)."""
        lows, highs = [], []
        for line in self.lines:
            low, high = line.dataBounds(ax, frac, orthoRange)
            if low is not None and high is not None and math.isfinite(low + high):
                lows.append(low)
                highs.append(high)
        return (min(lows), max(highs)) if lows else (None, None)

    def pixelPadding(self) -> float:
        return max((line.pixelPadding() for line in self.lines), default=0.0)

    def paint(self, p: QtGui.QPainter, opt: object, widget: object) -> None:
        """Each line as it paints itself: its opacity, its pen and antialiasing, its path.

        A line stroked with one pen (:func:`_one_path_pen`) sets all the painter state
        its stroke uses (opacity, pen, antialiasing: the last set only where it differs
        from the line before's), so the lines share one ``save``/``restore``; a line
        that paints itself (``LineItem.paint``) starts from the group's state, as
        before. (A trail's five pieces: 15 fewer calls into Qt a paint.)"""
        LineGroup.paints += 1
        raster = on_raster(p)
        p.save()
        fresh = True  # the painter's state is the group's own
        aa_set: bool | None = None  # the antialiasing set by the line before
        try:
            for line in self.lines:
                data = line.xData
                if data is None or data.size == 0 or not line.isVisible():
                    continue
                pen = _one_path_pen(line) if raster else None
                if pen is None:
                    if not fresh:
                        p.restore()
                        p.save()
                        fresh, aa_set = True, None
                    p.save()
                    p.setOpacity(line.effectiveOpacity())
                    line.paint(p, opt, widget)
                    p.restore()
                    continue
                # what the line's own paint does for it (pyqtgraph's antialiased
                # stroke, or FastCurveItem's wide pen for a short aliased line): one
                # path, one pen, without finding that out anew for every line
                fresh = False
                aa = bool(line.opts["antialias"])
                if not aa:
                    line.wide_pen_paints += 1
                p.setOpacity(line.effectiveOpacity())
                if aa is not aa_set:
                    p.setRenderHint(_ANTIALIAS, aa)
                    aa_set = aa
                p.setPen(pen)
                p.drawPath(line.getPath())
        finally:
            p.restore()


def _one_path_pen(line: LineItem) -> QtGui.QPen | None:
    """The pen with which ``line``'s own paint (on a raster device) strokes its whole
    path in one ``drawPath`` and does nothing else, or ``None`` when it may do more or
    otherwise (exporting, fills, shadows, segments, offset strokes, a cover)."""
    opts = line.opts
    pen = opts["pen"]
    if is_exporting(line) or line.cover is not None:
        return None
    aa = bool(opts["antialias"])
    key = (pen, aa, opts["segmentedLineMode"], opts["stepMode"], opts["fillLevel"])
    known = line.one_path
    if known is None or known[0][0] is not pen or known[0][1:] != key[1:]:
        # (a pen kept there is a QPen: it was looked at when it was kept)
        if not isinstance(pen, QtGui.QPen):
            return None
        plain = (
            opts["fillLevel"] is None
            and opts["shadowPen"] is None
            and opts["compositionMode"] is None
            and not opts["stepMode"]
            and pen.style() != QtCore.Qt.PenStyle.NoPen
            and not strokes_segments(line, pen)
        )
        # aliased: FastCurveItem's wide-pen stroke (a solid cosmetic pen over 1 px)
        wide = (
            not aa
            and pen.style() == QtCore.Qt.PenStyle.SolidLine
            and pen.isCosmetic()
            and pen.widthF() > 1.0
        )
        known = line.one_path = (key, plain and (aa or wide))
    if not known[1] or (not aa and line.xData.size > line.wide_pen_points):
        return None
    return pen
