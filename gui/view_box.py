"""The plots' ``ViewBox``: auto-range re-runs only when a measured item moved.

pyqtgraph queues a new auto-range whenever *any* item in a view box reports new bounds,
including items auto-range never measures: the view's own child group and labels added
with ``ignoreBounds`` (ALiBi's tile labels), which report a change every time the view
transform changes. Every frame of a drag therefore computed each plot's auto-range twice:
once for the new data and again, with the same result, right before painting.
:class:`PlotViewBox` ignores reports from items outside ``addedItems`` (those
``childrenBounds`` measures), so the range is the same and computed once.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg


class PlotViewBox(pg.ViewBox):
    """``ViewBox`` that re-runs auto-range only for items whose bounds it measures."""

    def itemBoundsChanged(self, item: Any) -> None:  # noqa: N802 (pyqtgraph API)
        if item in self.addedItems:
            super().itemBoundsChanged(item)
        else:
            self._itemBoundsCache.pop(item, None)
