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

import warnings

import numpy as np
from PySide6 import QtCore, QtGui

from gui.render.fast_curve import FastCurveItem
from gui.render.pg_compat import is_exporting

_SOLID_BRUSH = QtCore.Qt.BrushStyle.SolidPattern
_SOLID_LINE = QtCore.Qt.PenStyle.SolidLine


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
            x = np.asarray(args[0], dtype=float)
            y = np.asarray(args[1], dtype=float)
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

    def _show_original(self) -> None:
        x, y = self._original
        if self._log[0]:
            x = log_mapped(x)
        if self._log[1]:
            y = log_mapped(y)
        finite = bool(np.isfinite(x).all() and np.isfinite(y).all())
        # PlotDataItem's "auto" connection: a NaN breaks the line
        super().setData(x=x, y=y, connect="all" if finite else "finite", skipFiniteCheck=finite)
