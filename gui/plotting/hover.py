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
import re
from collections.abc import Callable

import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from gui.theme import Theme, current_theme

LABEL_PT = 16.0  # label font at UI scale 1 (the footer uses 12 pt)
OFFSET_PX = 14.0  # gap between the cursor and the label
SIDE_SHARE = 0.4  # a long readout fits beside the cursor when that side has this share
MIN_FIT = 0.6  # a readout part wider than the canvas shrinks to no less than this


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
        self.label = ValueLabel()
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
        self._at: QtCore.QPointF | None = None  # the scene point read last (shown)
        #: no readout while the mouse is the lecturer's pointer (laser, spotlight, pen:
        #: :meth:`set_muted`): a crosshair and a value by the laser dot, bright over
        #: the spotlight's dimmed stage, read as data the lecturer did not point at
        self.muted = False
        # a plot hidden (a focused neighbour, a reveal step) takes its readout along
        plot.visibleChanged.connect(self._plot_visibility)
        # a plot laid out anew (focused to fill the stage, and back) too: its label, in
        # the scene, stayed where the plot had put it, over the title and legend of the
        # focused plot (or over the plot beside it), reading a point no longer under
        # the cursor; the next mouse move reads what is there
        plot.geometryChanged.connect(self.hide)
        self.attach()

    # ------------------------------------------------------------------ wiring
    def attach(self) -> None:
        """Put the items in the plot and follow its scene (again after ``plot.clear()``)."""
        vb = self.plot.getViewBox()
        for item in self._items[:-1]:  # the label goes to the scene itself when shown
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
        return shiboken6.isValid(self.label) and self.label.isVisible()

    def text(self) -> str:
        """The label's text (empty when hidden)."""
        return self.label.toPlainText() if self.shown else ""

    def outline_rect(self) -> QtCore.QRectF | None:
        """The outlined cell (view coordinates), or ``None`` when none is outlined."""
        return self.outline.rect() if self.outline.isVisible() else None

    def hide(self) -> None:
        """Hide every part of the overlay."""
        self._at = None
        for item in self._items:
            if shiboken6.isValid(item):  # not deleted with its scene (a canvas closed)
                item.hide()

    def set_muted(self, muted: bool) -> None:
        """No readout while ``muted`` (hidden now); the next mouse move after it reads
        again."""
        self.muted = muted
        if muted:
            self.hide()

    def refresh(self) -> None:
        """Read again where the label is (the plot's data changed under a resting
        cursor: a nudge on stage, an animation); nothing when it is hidden."""
        if self._at is not None and self.shown:
            self.move(self._at)

    def _plot_visibility(self) -> None:
        if not self.plot.isVisible():
            self.hide()

    @QtCore.Slot(object)
    def move(self, scene_pos: QtCore.QPointF) -> None:
        """Show the readout at ``scene_pos`` (a scene point), or hide when there is none
        (or while :attr:`muted`)."""
        text = None if self.muted else self.probe(scene_pos)
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
        self._at = QtCore.QPointF(scene_pos)

    def _show_label(self, text: str, scene_pos: QtCore.QPointF, theme: Theme) -> None:
        """Put the label up-right of the cursor, flipped and clamped to stay in its plot
        where it fits there, else on the canvas."""
        scene = self.plot.scene()
        if scene is None:
            return
        if self.label.scene() is not scene:
            scene.addItem(self.label)  # top level: the plot's view box would clip it
        canvas = _visible_area(scene)
        # in its own plot where it fits there (Compare's readout in
        # the right column ran over the plot beside it, covering its legend), else on
        # the canvas (a stage-wide readout of six values in a narrow plot)
        own = canvas.intersected(self.plot.sceneBoundingRect())
        # (in the plot: beside the cursor, else as wide as the plot; both word-wrapped)
        for area, wide in ((own, False), (own, True), (canvas, False)):
            self._fit_label(text, scene_pos, area, theme, words=area is own, wide=wide)
            size = self.label.rect().size()
            if size.width() <= area.width() and size.height() <= area.height():
                break
        x = scene_pos.x() + OFFSET_PX
        if x + size.width() > area.right():
            x = scene_pos.x() - OFFSET_PX - size.width()
        y = scene_pos.y() - OFFSET_PX - size.height()
        if y < area.top():
            y = scene_pos.y() + OFFSET_PX
        x = max(area.left(), min(x, area.right() - size.width()))
        y = max(area.top(), min(y, area.bottom() - size.height()))
        self.label.setPos(x, y)
        self.label.show()

    def _fit_label(
        self,
        text: str,
        scene_pos: QtCore.QPointF,
        area: QtCore.QRectF,
        theme: Theme,
        words: bool = False,
        wide: bool = False,
    ) -> None:
        """Set the label's text for ``area``: a long readout breaks into lines as wide
        as the room beside the cursor (where that is most of the area's width and not
        ``wide``), else as wide as the area; with ``words`` a part still too wide breaks at its spaces
        (see :meth:`ValueLabel.set`)."""
        side = max(area.right() - scene_pos.x(), scene_pos.x() - area.left()) - OFFSET_PX
        room = side if side >= SIDE_SHARE * area.width() and not wide else area.width()
        self.label.set(text, theme, max_width=room, words=words)


def _words(line: str, metrics: QtGui.QFontMetricsF, width: float) -> list[str]:
    """``line`` broken at its spaces into lines no wider than ``width`` where its words
    allow (a word wider than that stays one line; a " — " breaks before its dash, not
    after it: "learned" / "— no value", never a dash alone)."""
    out: list[str] = []
    words = line.replace(" — ", " —\u00a0").split(" ")  # a dash opens the next line
    for word in (w.replace("\u00a0", " ") for w in words):
        if out and metrics.horizontalAdvance(f"{out[-1]} {word}".rstrip()) <= width:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def _name_and_value(line: str, metrics: QtGui.QFontMetricsF, width: float) -> list[str]:
    """``line`` (one readout part, as ``"name: value,"``) as it is when it fits
    ``width``, else broken after its last ``": "``: the name, then the value (RoPE's
    "longrope short_factor (L ≤ 2048): 4.6955e-05," at 300 % beside the parameters,
    too wide at three fifths of the font)."""
    name, sep, value = line.rpartition(": ")
    if not sep or not name or metrics.horizontalAdvance(line) <= width:
        return [line]
    return [name + ":", value]


def _visible_area(scene: QtWidgets.QGraphicsScene) -> QtCore.QRectF:
    """The scene rectangle on screen: the part of the first view's viewport its parents
    show (a canvas taller than the view scrolls in it: at 300 % RoPE's second plot row
    hovered near the view's top put its readout above the cursor, scrolled out of
    sight), else the scene rect."""
    for view in scene.views():
        port = view.viewport()
        seen = port.visibleRegion().boundingRect()
        return view.mapToScene(seen if not seen.isEmpty() else port.rect()).boundingRect()
    return scene.sceneRect()


class ValueLabel(QtWidgets.QGraphicsRectItem):
    """Text on a filled, outlined box (scene pixels, drawn above everything)."""

    PAD = 6.0

    def __init__(self) -> None:
        super().__init__()
        self.text_item = QtWidgets.QGraphicsSimpleTextItem(self)
        self.text_item.setPos(self.PAD, self.PAD / 2)
        self._text = ""

    def set(
        self, text: str, theme: Theme, max_width: float | None = None, words: bool = False
    ) -> None:
        """Show ``text`` in the theme's colours, at :data:`LABEL_PT` × UI scale.

        A text wider than ``max_width`` (box included; the canvas's visible width) breaks
        into lines after its ``" — "`` and ``", "`` (a curve plot's six values at 200 % on
        stage were one line wider than the stage, cut at its edge); a part still too wide
        alone makes the font smaller (down to :data:`MIN_FIT` of its size), and one too
        wide even so breaks after its ``": "`` (name, then value). With ``words`` a
        text with a part too wide flows word by word instead, before the font is made
        smaller (a readout kept inside its own narrow plot).
        """
        self._text = text
        font = theme.font(LABEL_PT, bold=True)
        self.text_item.setFont(font)
        self.text_item.setBrush(QtGui.QColor(theme.foreground))
        if max_width is not None:
            text = self._fit(text, font, max_width - 2 * self.PAD - 2, words)
        self.text_item.setText(text)
        box = self.text_item.boundingRect()
        self.setRect(0, 0, box.width() + 2 * self.PAD, box.height() + self.PAD)
        fill = QtGui.QColor(theme.background)
        fill.setAlpha(235)
        self.setBrush(fill)
        pen = QtGui.QPen(QtGui.QColor(theme.foreground), 1)
        pen.setCosmetic(True)
        self.setPen(pen)

    def _fit(self, text: str, font: QtGui.QFont, width: float, words: bool = False) -> str:
        """``text`` broken into lines no wider than ``width`` (see :meth:`set`); may make
        the text item's font smaller."""
        metrics = QtGui.QFontMetricsF(font)
        if width <= 0 or metrics.horizontalAdvance(text) <= width:
            return text
        parts = [p for p in re.split(r"(?<= — )|(?<=, )", text) if p]
        lines: list[str] = []
        for part in parts:
            if lines and metrics.horizontalAdvance((lines[-1] + part).rstrip()) <= width:
                lines[-1] += part
            else:
                lines.append(part)
        lines = [line.rstrip() for line in lines]
        if words and max(metrics.horizontalAdvance(line) for line in lines) > width:
            lines = _words(text, metrics, width)  # flowed word by word, parts and all
        # a line that even the smallest font leaves too wide breaks after its name
        most = width / MIN_FIT
        lines = [piece for line in lines for piece in _name_and_value(line, metrics, most)]
        widest = max(metrics.horizontalAdvance(line) for line in lines)
        if widest > width:
            smaller = QtGui.QFont(font)
            smaller.setPointSizeF(font.pointSizeF() * max(MIN_FIT, width / widest))
            self.text_item.setFont(smaller)
        return "\n".join(lines)

    def toPlainText(self) -> str:
        """The label's text (as given: before it was broken into lines)."""
        return self._text
