"""Hover readout next to the cursor: a large value label, a crosshair or a cell outline.

The footer line of a view (``ViewWidget``) already shows the exact readout under the
cursor; from the back row of a lecture hall it is too small and too far from where the
lecturer points. :class:`HoverOverlay` draws the same text next to the cursor, in a font
scaled by the theme's UI scale, plus a crosshair on curve plots or the outline of the
cell under the cursor on heatmaps. It follows the scene's mouse moves by itself and is
hidden when the cursor leaves the plot or the canvas, or when there is nothing to read.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gui.theme import Theme, current_theme

LABEL_PT = 16.0  # label font at UI scale 1 (the footer uses 12 pt)
OFFSET_PX = 14.0  # gap between the cursor and the label


class HoverOverlay(QtCore.QObject):
    """Value label, crosshair and cell outline of one ``PlotItem``.

    Parameters
    ----------
    plot
        The plot the overlay draws in (its ``ViewBox``; the items ignore auto-range).
    probe
        ``probe(scene_pos)``: the readout text under a scene point, or ``None``.
    cell
        ``cell(x, y)``: the rectangle (view coordinates) of the heatmap cell at a view
        point, or ``None`` when the plot shows no heatmap (then a crosshair is drawn).
    """

    def __init__(
        self,
        plot: pg.PlotItem,
        probe: Callable[[QtCore.QPointF], str | None],
        cell: Callable[[float, float], QtCore.QRectF | None],
    ) -> None:
        super().__init__()
        self.plot, self.probe, self.cell = plot, probe, cell
        self.label = pg.TextItem(anchor=(0, 1))
        self.vline = pg.InfiniteLine(angle=90, movable=False)
        self.hline = pg.InfiniteLine(angle=0, movable=False)
        self.outline = QtWidgets.QGraphicsRectItem()
        self._items: tuple[QtWidgets.QGraphicsItem, ...] = (
            self.outline,
            self.vline,
            self.hline,
            self.label,
        )
        for z, item in enumerate(self._items):
            item.setZValue(1e6 + z)  # above data, tiles and hatching
            item.hide()
        self._scene: QtWidgets.QGraphicsScene | None = None
        self._viewports: list[QtWidgets.QWidget] = []
        self.attach()

    # ------------------------------------------------------------------ wiring
    def attach(self) -> None:
        """Put the items in the plot and follow its scene (again after ``plot.clear()``)."""
        vb = self.plot.getViewBox()
        for item in self._items:
            if item.parentItem() is None or item.scene() is not vb.scene():
                vb.addItem(item, ignoreBounds=True)
        scene = self.plot.scene()
        if scene is not None and scene is not self._scene:
            scene.sigMouseMoved.connect(self.move)
            self._scene = scene
        if scene is not None:
            for view in scene.views():
                port = view.viewport()
                if port not in self._viewports:
                    port.installEventFilter(self)
                    self._viewports.append(port)

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        """Hide when the cursor leaves the canvas."""
        if event.type() == QtCore.QEvent.Type.Leave:
            self.hide()
        return False

    # ------------------------------------------------------------------ public
    @property
    def shown(self) -> bool:
        """Whether the label is visible."""
        return self.label.isVisible()

    def text(self) -> str:
        """The label's text (empty when hidden)."""
        return self.label.toPlainText() if self.shown else ""

    def outline_rect(self) -> QtCore.QRectF | None:
        """The outlined cell (view coordinates), or ``None`` when none is outlined."""
        return self.outline.rect() if self.outline.isVisible() else None

    def hide(self) -> None:
        """Hide every part of the overlay."""
        for item in self._items:
            item.hide()

    @QtCore.Slot(object)
    def move(self, scene_pos: QtCore.QPointF) -> None:
        """Show the readout at ``scene_pos`` (a scene point), or hide when there is none."""
        text = self.probe(scene_pos)
        if not text:
            self.hide()
            return
        self.attach()
        theme = current_theme()
        vb = self.plot.getViewBox()
        p = vb.mapSceneToView(scene_pos)
        x, y = p.x(), p.y()
        rect = self.cell(x, y)
        if rect is not None:
            pen = QtGui.QPen(QtGui.QColor(theme.foreground), theme.scaled(2.5))
            pen.setCosmetic(True)
            self.outline.setPen(pen)
            self.outline.setBrush(QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush))
            self.outline.setRect(rect)
            self.outline.show()
            self.vline.hide()
            self.hline.hide()
        else:
            self.outline.hide()
            pen = pg.mkPen(
                theme.foreground, width=theme.scaled(1), style=QtCore.Qt.PenStyle.DashLine
            )
            for line, value in ((self.vline, x), (self.hline, y)):
                if math.isfinite(value):
                    line.setPen(pen)
                    line.setValue(value)
                    line.show()
        self._show_label(text, scene_pos, theme)

    def _show_label(self, text: str, scene_pos: QtCore.QPointF, theme: Theme) -> None:
        label = self.label
        label.setText(text, color=theme.foreground)
        label.setFont(theme.font(LABEL_PT, bold=True))
        label.fill = pg.mkBrush(theme.background + "e6")
        label.border = pg.mkPen(theme.foreground, width=1)
        # the label sits up-right of the cursor, flipped to stay inside the plot
        box = self.plot.getViewBox().sceneBoundingRect()
        right = scene_pos.x() > box.center().x()
        low = scene_pos.y() > box.center().y()
        label.setAnchor((1 if right else 0, 1 if low else 0))
        dx = -OFFSET_PX if right else OFFSET_PX
        dy = -OFFSET_PX if low else OFFSET_PX
        vb = self.plot.getViewBox()
        label.setPos(vb.mapSceneToView(scene_pos + QtCore.QPointF(dx, dy)))
        label.show()
