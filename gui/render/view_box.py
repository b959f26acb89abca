"""The plots' ``ViewBox`` and the items drawn in its own pixels.

pyqtgraph queues a new auto-range whenever *any* item in a view box reports new bounds,
including items auto-range never measures: the view's own child group and labels added
with ``ignoreBounds``, which report a change every time the view transform changes.
Every frame of a drag therefore computed each plot's auto-range twice: once for the new
data and again, with the same result, right before painting. :class:`PlotViewBox`
ignores reports from items outside ``addedItems`` (those ``childrenBounds`` measures),
so the range is the same and computed once.

:class:`ViewOverlay` is the base of the grid (under the data) and the mosaic tile labels
(over it): items that cover the view box, follow its range and size, and are removed
from it again when a plot is rebuilt.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6 import QtCore

from gui.render.pg_compat import forget_bounds


class PlotViewBox(pg.ViewBox):
    """``ViewBox`` that re-runs auto-range only for items whose bounds it measures."""

    def itemBoundsChanged(self, item: Any) -> None:
        if item in self.addedItems:
            super().itemBoundsChanged(item)
        else:
            forget_bounds(self, item)


class ViewOverlay(pg.GraphicsObject):
    """An item drawn in ``view``'s own pixels, repainted when its range or size changes.

    Parameters
    ----------
    view
        The view box (the item's parent: it is clipped to it).
    z
        Stacking order against the view's child group (the data, at z = 0).
    """

    def __init__(self, view: pg.ViewBox, z: float) -> None:
        super().__init__()
        self.view = view
        self.setParentItem(view)
        self.setZValue(z)
        view.sigRangeChanged.connect(self._view_changed)
        view.sigResized.connect(self._view_changed)

    def _view_changed(self, *_args: object) -> None:
        self.prepareGeometryChange()
        self.update()

    def boundingRect(self) -> QtCore.QRectF:
        return self.view.boundingRect()

    def detach(self) -> None:
        """Take the item out of its view (and stop following it)."""
        self.view.sigRangeChanged.disconnect(self._view_changed)
        self.view.sigResized.disconnect(self._view_changed)
        self.setParentItem(None)
        if self.scene() is not None:
            self.scene().removeItem(self)
