"""A plot legend in a strip above the data, never over it.

pyqtgraph's ``LegendItem`` is anchored inside the view box: on a small plot (200 %, a
presentation screen) it covered the curves it names. :class:`StripLegend` is the same
item (entries, samples, ``items``) placed on the plot's top axis, which is otherwise
never shown: the axis sits in the ``PlotItem``'s grid right above the view box and as
wide as it, and takes the legend's height, so the data area shrinks by the strip's
height instead. The entries flow into as many columns as the data's width holds, so a
narrow plot gets a taller strip rather than a wider one.

Teardown safety (each of these crashed closing a window or the application): no Qt
virtual is overridden in Python (``sizeHint``, ``resizeEvent``), the legend is not an
item of the plot's grid layout, and its entries never move to other cells (pyqtgraph's
``setColumnCount``): a plot whose width holds another number of columns gets a new
legend (:meth:`StripLegend.columns_for`).
"""

from __future__ import annotations

import math

import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

SAMPLE_WIDTH = 20.0  # px of an entry's line sample (pyqtgraph's ItemSample)
_HINT = QtCore.Qt.SizeHint


class StripLegend(pg.LegendItem):
    """``LegendItem`` on its plot's top axis (the strip above the view box)."""

    _width = 0.0  # the strip's width (the data's), px

    def __init__(self, **kwargs: object) -> None:
        super().__init__(offset=None, frame=False, **kwargs)
        # drawn with the plot: it scales and moves with it (also in exports)
        self.setFlag(self.GraphicsItemFlag.ItemIgnoresTransformations, False)

    # ------------------------------------------------------------------ placement
    def attach(self, plot: pg.PlotItem) -> None:
        """Show the legend above ``plot``'s data (``plot.legend``: items added to the
        plot with a name get an entry)."""
        top = plot.getAxis("top")
        # the axis is only the strip's room: no line, no ticks, no values
        top.setStyle(showValues=False, tickLength=0)
        top.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
        top.setHeight(0)
        plot.showAxis("top")
        self.setParentItem(top)
        plot.legend = self

    def detach(self, plot: pg.PlotItem) -> None:
        """Take the legend out of ``plot`` (scene and ``plot.legend``); the strip's
        axis is hidden again."""
        if self.scene() is not None:
            self.scene().removeItem(self)
        if plot.legend is self:
            plot.legend = None
        plot.hideAxis("top")

    def setParentItem(self, parent: QtWidgets.QGraphicsItem | None) -> None:
        # no anchoring (pyqtgraph's anchors it to a corner of the view box)
        QtWidgets.QGraphicsWidget.setParentItem(self, parent)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ size
    def updateSize(self) -> None:
        """The legend as wide as the strip and as high as its entries; the strip's
        axis takes that height (pyqtgraph's sizes the legend to its entries alone)."""
        if not shiboken6.isValid(self.layout):
            return
        height = self.layout.effectiveSizeHint(_HINT.PreferredSize).height() if self.items else 0
        width = max(self._width, self.layout.effectiveSizeHint(_HINT.MinimumSize).width())
        self.setGeometry(0, 0, width, height)
        axis = self.parentItem()
        if isinstance(axis, pg.AxisItem) and axis.height() != height:
            axis.setHeight(int(math.ceil(height)))

    def set_width(self, width: float) -> None:
        """Make the strip ``width`` px wide (the data's width)."""
        self._width = max(0.0, width)
        self.updateSize()

    def entry_widths(self) -> list[float]:
        """Width of each entry (sample, label and spacing) in px."""
        spacing = 2 * max(0.0, self.layout.horizontalSpacing()) + 6
        return [SAMPLE_WIDTH + label.itemRect().width() + spacing for _s, label in self.items]

    def columns_for(self, width: float) -> int:
        """The most columns of entries (filled row by row, each column as wide as its
        widest entry) that ``width`` px hold; at least one."""
        widths = self.entry_widths()
        for columns in range(len(widths), 1, -1):
            total = sum(max(widths[j::columns]) for j in range(columns))
            if total <= width:
                return columns
        return 1

    def addItem(self, item: object, name: str) -> None:
        super().addItem(item, name)
        self.updateSize()
