"""A ``ViewBox`` whose auto-range measures plain curves without Qt mapping calls.

Every frame of a slider drag re-runs auto-range for each plot whose data moved.
pyqtgraph's ``ViewBox.childrenBounds`` maps each item's data bounds through Qt
(``mapFromItemToView``: a polygon and its bounding rectangle per item) although a curve
added to a plot sits untransformed in the view's coordinates: about 0.05 ms a curve, half
a millisecond for a view of ten curves. :class:`FastViewBox` takes **the same bounds**
(same arithmetic, bit for bit; a test compares it with pyqtgraph over random data) from
the curves' cached data bounds when every bounded item is such a curve, and leaves
everything else (images, scatter symbols, transformed items, partial ranges) to
pyqtgraph.
"""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg


def _usable(r: Any) -> bool:
    """pyqtgraph's test that an item's data bounds along one axis can be used."""
    return (r is not None and not (r[0] is None and r[1] is None)
            and math.isfinite(r[0]) and math.isfinite(r[1]))


class FastViewBox(pg.ViewBox):
    """``ViewBox`` with a direct :meth:`childrenBounds` for plots of plain curves."""

    def _plain_curve(self, item: Any) -> bool:
        """A line item drawn in view coordinates (no transform of its own)."""
        return (isinstance(item, pg.PlotCurveItem) and item.parentItem() is self.childGroup
                and item.pos().isNull() and item.transform().isIdentity())

    def childrenBounds(self, frac: Any = None, orthoRange: Any = (None, None),  # noqa: N802,N803
                       items: Any = None) -> list:
        """``[[xmin, xmax], [ymin, ymax]]`` (entries ``None`` when unbounded), as pyqtgraph."""
        whole = frac is None or tuple(frac) == (1.0, 1.0)
        if items is not None or not whole or tuple(orthoRange) != (None, None):
            return super().childrenBounds(frac, orthoRange, items)
        scene = self.scene()
        curves = [item for item in self.addedItems
                  if item.isVisible() and item.scene() is scene]
        if not curves or not all(self._plain_curve(item) for item in curves):
            return super().childrenBounds(frac, orthoRange, items)
        bounds = []  # (left, right, top, bottom, use_x, use_y, pixel padding)
        for item in curves:
            xr, yr = item.dataBounds(0, frac=1.0), item.dataBounds(1, frac=1.0)
            use_x, use_y = _usable(xr), _usable(yr)
            if not (use_x or use_y):
                continue
            x, y = (xr[0], yr[0])
            x = x if use_x else 0
            y = y if use_y else 0
            w = xr[1] - xr[0] if use_x else 0
            h = yr[1] - yr[0] if use_y else 0
            # Qt's rectangle → polygon → bounding rectangle, in the same double arithmetic
            right, bottom = x + w, y + h
            left, top = min(x, right), min(y, bottom)
            right, bottom = left + (max(x, right) - left), top + (max(y, bottom) - top)
            bounds.append((left, right, top, bottom, use_x, use_y, item.pixelPadding()))
        rng: list = [None, None]
        for left, right, top, bottom, use_x, use_y, _px in bounds:
            if use_y:
                rng[1] = [top, bottom] if rng[1] is None else \
                    [min(top, rng[1][0]), max(bottom, rng[1][1])]
            if use_x:
                rng[0] = [left, right] if rng[0] is None else \
                    [min(left, rng[0][0]), max(right, rng[0][1])]
        # pixel margins, measured against the tentative range (pyqtgraph's second pass)
        w, h = self.width(), self.height()
        if w > 0 and rng[0] is not None:
            size = (rng[0][1] - rng[0][0]) / w
            for left, right, _t, _b, use_x, _uy, px in bounds:
                if px != 0 and use_x:
                    rng[0][0] = min(rng[0][0], left - px * size)
                    rng[0][1] = max(rng[0][1], right + px * size)
        if h > 0 and rng[1] is not None:
            size = (rng[1][1] - rng[1][0]) / h
            for _l, _r, top, bottom, _ux, use_y, px in bounds:
                if px != 0 and use_y:
                    rng[1][0] = min(rng[1][0], top - px * size)
                    rng[1][1] = max(rng[1][1], bottom + px * size)
        return rng
