"""A hatched band over a range of x: where a curve plot has no data, and its legend key.

:class:`BandItem` draws a :class:`core.viewdata.Band` (e.g. the learned table's
positions that have no row) as a region over the plot's whole height, filled and hatched
like a heatmap's masked cells (:mod:`gui.render.cell_values`), under the curves. It lies
in the view's data coordinates and reports its x range (and no y range) to auto-range,
so the view keeps the band in sight. :class:`BandSample` is its legend entry's sample: a
hatched swatch like the masked cells' key.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

BAND_Z = -10.0  # under the curves (z = 0), over the grid (drawn under the view's items)


def _hatched(
    p: QtGui.QPainter, rect: QtCore.QRectF, fill: QtGui.QColor, hatch: QtGui.QColor
) -> None:
    p.fillRect(rect, fill)
    # Qt draws pattern brushes in device pixels (cosmetic), whatever the view's scale
    p.fillRect(rect, QtGui.QBrush(hatch, QtCore.Qt.BrushStyle.BDiagPattern))


class BandItem(pg.GraphicsObject):
    """The range ``x0..x1`` (data coordinates) hatched over the view's whole height.

    Parameters
    ----------
    x0, x1
        The band's ends in the view's x coordinates (already log-mapped on a log axis).
    label
        What the band means (its legend text).
    fill, hatch
        Colours of the fill and of the hatching over it.
    """

    def __init__(
        self, x0: float, x1: float, label: str, fill: QtGui.QColor, hatch: QtGui.QColor
    ) -> None:
        super().__init__()
        self.x0, self.x1 = (x0, x1) if x0 <= x1 else (x1, x0)
        self.label = label
        self.fill, self.hatch = QtGui.QColor(fill), QtGui.QColor(hatch)
        self.opts: dict[str, object] = {}  # a legend sample reads its item's options
        self.setZValue(BAND_Z)

    def set_band(self, x0: float, x1: float, label: str) -> None:
        """Move the band to ``x0..x1`` and name it ``label``."""
        lo, hi = (x0, x1) if x0 <= x1 else (x1, x0)
        if (lo, hi, label) == (self.x0, self.x1, self.label):
            return
        self.prepareGeometryChange()
        self.x0, self.x1, self.label = lo, hi, label
        self.informViewBoundsChanged()  # auto-range takes the new x range
        self.update()

    def name(self) -> str:
        """The legend text (as a curve's ``name()``)."""
        return self.label

    def dataBounds(
        self, ax: int, frac: float = 1.0, orthoRange: tuple[float, float] | None = None
    ) -> tuple[float, float] | None:
        """The band's x range for auto-range; none in y (it spans whatever is shown)."""
        if ax == 0 and math.isfinite(self.x0) and math.isfinite(self.x1):
            return (self.x0, self.x1)
        return None

    def pixelPadding(self) -> float:
        return 0.0

    def region(self) -> QtCore.QRectF:
        """The band in data coordinates: its x range by the view's y range."""
        view = self.getViewBox()
        if view is None or not isinstance(view, pg.ViewBox):
            return QtCore.QRectF()
        shown = view.viewRect()
        return QtCore.QRectF(self.x0, shown.top(), self.x1 - self.x0, shown.height())

    def boundingRect(self) -> QtCore.QRectF:
        return self.region().normalized()

    def viewRangeChanged(self) -> None:
        self.prepareGeometryChange()  # its height is the view's
        self.update()

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        rect = self.region().normalized()
        if rect.isEmpty():
            return
        # Filled in the painter's device space: the data's scale (a few px per position
        # across, tens per unit up) must not stretch the hatching. On screen and in PNGs
        # Qt keeps pattern brushes in device pixels anyway; an SVG writes the pattern in
        # the item's coordinates, where it came out as wide, blurred stripes.
        tr = p.transform()
        if tr.type().value > QtGui.QTransform.TransformationType.TxScale.value:
            _hatched(p, rect, self.fill, self.hatch)  # (no rotation in a view box)
            return
        p.save()
        p.resetTransform()
        _hatched(p, tr.mapRect(rect), self.fill, self.hatch)
        p.restore()


class BandSample(pg.ItemSample):
    """A :class:`BandItem`'s legend sample: a hatched swatch (clicking it hides the
    band, as a curve's sample hides its curve)."""

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        item = self.item
        if not isinstance(item, BandItem):
            return
        if not item.isVisible():
            super().paint(p, *args)  # the "hidden" eye
            return
        swatch = QtCore.QRectF(3, 4, 14, 14)
        _hatched(p, swatch, item.fill, item.hatch)
        pen = QtGui.QPen(item.hatch)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.drawRect(swatch)
