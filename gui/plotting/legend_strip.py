"""A plot legend in a strip above the data, never over it.

pyqtgraph's ``LegendItem`` is anchored inside the view box: on a small plot (200 %, a
presentation screen) it covered the curves it names. :class:`StripLegend` is the same
item (entries, samples, ``items``) placed in the ``PlotItem``'s own grid, in the row
of the (never shown) top axis: the data area shrinks by the strip's height instead.
Its entries flow into as many columns as the plot's width holds, so a narrow plot gets
a taller strip rather than a wider column.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtWidgets

LEGEND_ROW, LEGEND_COL = 1, 1  # the top axis' cell of PlotItem's grid
SAMPLE_WIDTH = 20.0  # px of an entry's line sample (pyqtgraph's ItemSample)
_HINT = QtCore.Qt.SizeHint


class StripLegend(pg.LegendItem):
    """``LegendItem`` laid out in its plot's grid above the view box.

    It asks for no width of its own (the columns of the view's grid stay as wide as
    they are) and for the height of its entries at the current number of columns,
    which follows the width it gets (:meth:`fit_columns`).
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(offset=None, frame=False, **kwargs)
        # laid out in the plot's grid: it scales and moves with the plot (also in exports)
        self.setFlag(self.GraphicsItemFlag.ItemIgnoresTransformations, False)

    # ------------------------------------------------------------------ placement
    def attach(self, plot: pg.PlotItem) -> None:
        """Put the legend in ``plot``'s grid above the data (``plot.legend``: items
        added to the plot with a name get an entry)."""
        top = plot.getAxis("top")
        if not top.isVisible():
            plot.layout.removeItem(top)
        # Qt must own it (a child of the plot): ``layout.addItem`` leaves it owned by
        # Python, and a collected wrapper then deleted it in the middle of the plot's
        # own destruction (a segfault in the window's teardown)
        self.setParentItem(plot)
        plot.layout.addItem(self, LEGEND_ROW, LEGEND_COL)
        plot.legend = self

    def detach(self, plot: pg.PlotItem) -> None:
        """Take the legend out of ``plot`` (grid, scene and ``plot.legend``)."""
        plot.layout.removeItem(self)
        top = plot.getAxis("top")
        if not any(plot.layout.itemAt(i) is top for i in range(plot.layout.count())):
            plot.layout.addItem(top, LEGEND_ROW, LEGEND_COL)
        if self.scene() is not None:
            self.scene().removeItem(self)
        if plot.legend is self:
            plot.legend = None

    def setParentItem(self, parent: QtWidgets.QGraphicsItem | None) -> None:
        # no anchoring (pyqtgraph's anchors it to a corner of the view box)
        QtWidgets.QGraphicsWidget.setParentItem(self, parent)  # type: ignore[arg-type]

    def _alive(self) -> bool:
        """Whether the wrapper still has its state: the collector clears a closed
        window's wrappers first, and Qt's destructors then still resize the legend
        (an exception in that Qt virtual crashed the teardown)."""
        state = vars(self)
        return "items" in state and "layout" in state and shiboken6.isValid(state["layout"])

    def updateSize(self) -> None:
        # pyqtgraph sets the geometry from its entries; here the plot's grid places it
        if self._alive():
            self.updateGeometry()

    # ------------------------------------------------------------------ size
    def entry_width(self) -> float:
        """Width of the widest entry (sample, label and spacing) in px."""
        widths = [label.itemRect().width() for _sample, label in self.items]
        spacing = self.layout.horizontalSpacing()
        return SAMPLE_WIDTH + (max(widths) if widths else 0.0) + 2 * max(0.0, spacing) + 6

    def fit_columns(self, width: float) -> None:
        """As many columns as ``width`` holds (at least one)."""
        if not self.items:
            return
        columns = max(1, min(len(self.items), math.floor(width / self.entry_width())))
        if columns != self.columnCount:
            self.setColumnCount(columns)
            self.layout.invalidate()
            self.updateGeometry()

    def resizeEvent(self, ev: object) -> None:
        if not self._alive():
            return
        self.fit_columns(self.geometry().width())  # (``self.size`` is an option)
        super().resizeEvent(ev)

    def sizeHint(
        self, which: QtCore.Qt.SizeHint, constraint: QtCore.QSizeF | None = None
    ) -> QtCore.QSizeF:
        if not self._alive():
            return QtCore.QSizeF(0, 0)
        if which == _HINT.MaximumSize:
            return QtCore.QSizeF(1e6, 1e6)
        if which not in (_HINT.MinimumSize, _HINT.PreferredSize):
            return QtCore.QSizeF(0, 0)
        height = self.layout.effectiveSizeHint(_HINT.PreferredSize).height() if self.items else 0
        return QtCore.QSizeF(10.0, height)

    def addItem(self, item: object, name: str) -> None:
        super().addItem(item, name)
        self.layout.invalidate()
        self.updateGeometry()
