"""Pointer, pen and rectangle zoom: a transparent layer over the stage.

:class:`StageOverlay` covers the window's stage (the area showing the view) and draws
above the plots. One tool at a time:

- **Laser pointer** (L) and **spotlight** (Shift+L): a bright dot, or a circle of light
  in a dimmed stage, follows the mouse. The layer lets the mouse through (it follows it
  from the application's mouse moves), but the plots below show no hover readout
  (crosshair, value) while it is on, nor while the pen is: the mouse is the lecturer's
  pointer then, not a data probe. They read again once the tool is put away.
- **Pen** (D): drag to draw on the stage. The strokes stay (also when the tool is put
  away) until E clears them, the scene or the view changes; they are never saved into a
  scene.
- **Rectangle zoom** (Z): drag a rectangle on a plot and that plot zooms to it (several
  drags zoom further); Z again or Esc puts every zoomed plot back as it was.

**Show all data** (A) puts every plot of the view back to the framing it is drawn with,
after a mouse drag panned it or the wheel or the zoom tool zoomed it (the parameters stay,
unlike Ctrl+R).

Esc puts the active tool away first (see :meth:`escape`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gui.lecture.deck import DeckController
from gui.theme import current_theme
from gui.window.protocol import StudioWindow

MODES = ("", "laser", "spotlight", "pen", "zoom")
INK = "#ff1744"  # the pen and the laser dot: bright red on light and dark themes
DOT_RADIUS = 11.0  # laser dot at 100 % (scaled with the UI)
SPOT_RADIUS = 120.0  # spotlight at 100 %
SPOT_DIM = 150  # alpha of the darkness around the spotlight
MIN_ZOOM_PX = 6  # a smaller drag is a click, not a rectangle
POINTER_MODES = ("laser", "spotlight", "pen")  # the plots show no hover readout then

AddAction = Callable[
    [QtWidgets.QMenu, str, Sequence[str | QtGui.QKeySequence], Callable[[], object], str],
    QtGui.QAction,
]


class StageOverlay(QtWidgets.QWidget):
    """The pointer, pen and zoom layer of one window's stage.

    Attributes
    ----------
    mode
        The active tool: ``""`` (none), ``laser``, ``spotlight``, ``pen`` or ``zoom``.
    strokes
        The pen strokes, in stage pixels.
    pointer
        Where the laser dot or spotlight is (stage pixels), ``None`` when off the stage.
    zoomed
        The original range of every plot a rectangle zoomed: view box → ``(x range,
        y range, auto-range x, auto-range y)``.
    """

    mode_changed = QtCore.Signal(str)

    def __init__(self, window: StudioWindow, deck: DeckController | None = None) -> None:
        super().__init__(window.stage)
        self.studio = window  # not ``window``: QWidget.window() must stay a method
        self.setObjectName("stage-overlay")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_TranslucentBackground)
        self.setMouseTracking(True)
        self.mode = ""
        self.strokes: list[QtGui.QPainterPath] = []
        self.pointer: QtCore.QPointF | None = None
        self.zoomed: dict[pg.ViewBox, tuple[list[float], list[float], bool, bool]] = {}
        self._drawing: QtGui.QPainterPath | None = None
        self._band: tuple[QtCore.QPointF, QtCore.QPointF] | None = None
        self._band_plot: pg.PlotItem | None = None
        self._following = False
        self._blank_cursor = False
        window.stage.installEventFilter(self)
        window.view_changed.connect(lambda _view_id: self.reset_for_new_content())
        if deck is not None:
            deck.scene_staged.connect(lambda _scene, _index: self.reset_for_new_content())
        self._sync()

    # ------------------------------------------------------------------ actions
    def add_actions(self, menu: QtWidgets.QMenu, add: AddAction) -> None:
        """The tools' actions (window-wide keys; text fields still type the letters)."""
        add(menu, "Laser pointer", ["L"], lambda: self.toggle("laser"), "action-laser")
        add(menu, "Spotlight", ["Shift+L"], lambda: self.toggle("spotlight"), "action-spotlight")
        add(menu, "Pen: draw on the stage", ["D"], lambda: self.toggle("pen"), "action-pen")
        add(menu, "Clear the drawing", ["E"], self.clear_strokes, "action-clear-ink")
        add(
            menu,
            "Rectangle zoom (again: back)",
            ["Z"],
            lambda: self.toggle("zoom"),
            "action-rect-zoom",
        )
        add(menu, "Show all data (undo pan and zoom)", ["A"], self.show_all, "action-show-all")

    def show_all(self) -> None:
        """A: every plot of the current view back to the framing it is drawn with, after
        a drag panned it or the wheel or the zoom tool zoomed it; parameters unchanged."""
        if self.mode == "zoom":
            self.set_mode("")
        window = self.studio
        widget = window.views.get(window.current_view)
        if widget is not None:
            widget.show_all_data()
            window.show_status("All plots show all their data again", 3000)

    # ------------------------------------------------------------------ tools
    def set_mode(self, mode: str) -> None:
        """Choose the tool (``""``: none; leaving ``zoom`` puts zoomed plots back)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if mode == self.mode:
            return
        if self.mode == "zoom":
            self.unzoom()
        self.mode = mode
        self._drawing = None
        self._band = None
        self._sync()
        self.mode_changed.emit(mode)
        say = {
            "": "Pointer and pen off",
            "laser": "Laser pointer — L again or Esc: off",
            "spotlight": "Spotlight — Shift+L again or Esc: off",
            "pen": "Pen: drag to draw; E clears — D again or Esc: off",
            "zoom": "Drag a rectangle on a plot to zoom — Z again or Esc: back",
        }
        window = self.studio
        window.show_status(say[mode], 4000)

    def toggle(self, mode: str) -> None:
        """The tool's key: on, or off when it is on."""
        self.set_mode("" if self.mode == mode else mode)

    def escape(self) -> bool:
        """Esc: put the active tool away (``False`` when none was active)."""
        if not self.mode:
            return False
        self.set_mode("")
        return True

    def clear_strokes(self) -> None:
        """Remove every pen stroke."""
        self.strokes.clear()
        self._drawing = None
        self._sync()
        self.update()

    def reset_for_new_content(self) -> None:
        """Another scene or view: the drawing and the zoom belonged to the old one."""
        self.strokes.clear()
        self._drawing = None
        if self.mode == "zoom":
            self.set_mode("")
        else:
            self.unzoom()
        self._sync()
        self.update()

    # ------------------------------------------------------------------ zoom
    def zoom_plot(self, plot: pg.PlotItem, rect: QtCore.QRectF) -> None:
        """Zoom ``plot`` to ``rect`` (view coordinates), remembering its range first."""
        vb = plot.getViewBox()
        if vb not in self.zoomed:
            (x, y), auto = vb.viewRange(), vb.autoRangeEnabled()
            self.zoomed[vb] = (list(x), list(y), bool(auto[0]), bool(auto[1]))
        vb.setRange(rect=rect.normalized(), padding=0)

    def unzoom(self) -> None:
        """Every zoomed plot back to the range it had before."""
        zoomed, self.zoomed = self.zoomed, {}
        for vb, (x, y, auto_x, auto_y) in zoomed.items():
            try:
                vb.setRange(xRange=x, yRange=y, padding=0)
                if auto_x or auto_y:
                    vb.enableAutoRange(x=auto_x or None, y=auto_y or None)
            except RuntimeError:  # the plot was rebuilt meanwhile: nothing to put back
                continue

    def _plot_at(self, pos: QtCore.QPointF) -> pg.PlotItem | None:
        """The visible, zoomable plot of the current view under stage point ``pos``."""
        window = self.studio
        widget = window.views.get(window.current_view)
        if widget is None:
            return None
        port = widget.canvas.viewport()
        scene_pos = widget.canvas.mapToScene(_map(self, port, pos))
        for plot in widget.plots.values():
            item = plot.plot
            kind = plot.panel.kind if plot.panel is not None else "table"
            if (
                item.isVisible()
                and kind != "table"
                and item.getViewBox().sceneBoundingRect().contains(scene_pos)
            ):
                return item
        return None

    def _finish_band(self) -> None:
        band, plot = self._band, self._band_plot
        self._band = self._band_plot = None
        self.update()
        if band is None or plot is None:
            return
        a, b = band
        if abs(a.x() - b.x()) < MIN_ZOOM_PX or abs(a.y() - b.y()) < MIN_ZOOM_PX:
            return
        window = self.studio
        widget = window.views[window.current_view]
        vb = plot.getViewBox()
        port = widget.canvas.viewport()
        corners = [vb.mapSceneToView(widget.canvas.mapToScene(_map(self, port, p))) for p in (a, b)]
        rect = QtCore.QRectF(corners[0], corners[1]).normalized()
        self.zoom_plot(plot, rect)

    # ------------------------------------------------------------------ state
    def _sync(self) -> None:
        """Geometry, stacking, mouse transparency, cursor and application mouse tracking
        for the current tool."""
        window = self.studio
        stage = window.stage
        self.setGeometry(stage.rect())
        takes_mouse = self.mode in ("pen", "zoom")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents, not takes_mouse)
        shape = {
            "pen": QtCore.Qt.CursorShape.CrossCursor,
            "zoom": QtCore.Qt.CursorShape.CrossCursor,
        }
        self.setCursor(shape.get(self.mode, QtCore.Qt.CursorShape.ArrowCursor))
        follow = self.mode in ("laser", "spotlight")
        app = QtWidgets.QApplication.instance()
        if follow and not self._following and app is not None:
            app.installEventFilter(self)
            self._following = True
            self._follow_cursor()
        elif not follow and self._following and app is not None:
            app.removeEventFilter(self)
            self._following = False
            self.pointer = None
            self._set_blank_cursor(False)
        muted = self.mode in POINTER_MODES
        for view in window.views.values():  # (a view built later: on view_changed)
            view.mute_readouts(muted)
        visible = bool(self.mode or self.strokes)
        if visible:
            self.show()
            self.raise_()
        else:
            self.hide()
        self.update()

    def _set_blank_cursor(self, blank: bool) -> None:
        if blank == self._blank_cursor:
            return
        self._blank_cursor = blank
        if blank:
            QtWidgets.QApplication.setOverrideCursor(QtCore.Qt.CursorShape.BlankCursor)
        else:
            QtWidgets.QApplication.restoreOverrideCursor()

    def _follow_cursor(self, global_pos: QtCore.QPointF | None = None) -> None:
        """Put the laser dot / spotlight where the mouse is (``None`` off the stage)."""
        point = global_pos if global_pos is not None else QtCore.QPointF(QtGui.QCursor.pos())
        local = self.mapFromGlobal(point)
        inside = self.rect().contains(local.toPoint()) and self.isVisible()
        old = self.pointer
        self.pointer = local if inside else None
        self._set_blank_cursor(self.pointer is not None)
        if self.mode == "spotlight" or old is None or self.pointer is None:
            self.update()
        else:
            r = self._dot_radius() * 2 + 2
            for p in (old, self.pointer):
                self.update(QtCore.QRectF(p.x() - r, p.y() - r, 2 * r, 2 * r).toAlignedRect())

    @staticmethod
    def _dot_radius() -> float:
        return current_theme().scaled(DOT_RADIUS)

    # ------------------------------------------------------------------ events
    def hideEvent(self, event: QtGui.QHideEvent) -> None:
        """The window closes or hides: give the application its mouse cursor back."""
        self._set_blank_cursor(False)
        super().hideEvent(event)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        kind = event.type()
        window = self.studio
        if obj is window.stage and kind == QtCore.QEvent.Type.Resize:
            self.setGeometry(window.stage.rect())
        elif (
            self._following
            and kind == QtCore.QEvent.Type.MouseMove
            and isinstance(event, QtGui.QMouseEvent)
        ):
            self._follow_cursor(event.globalPosition())
        return False

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:
        pos = event.position()
        if event.button() != QtCore.Qt.MouseButton.LeftButton:
            return
        if self.mode == "pen":
            self._drawing = QtGui.QPainterPath(pos)
            self.strokes.append(self._drawing)
            self.update()
        elif self.mode == "zoom":
            self._band_plot = self._plot_at(pos)
            self._band = (pos, pos) if self._band_plot is not None else None
            if self._band_plot is None:
                window = self.studio
                window.show_status("Drag the rectangle on a plot", 3000)

    def mouseMoveEvent(self, event: QtGui.QMouseEvent) -> None:
        pos = event.position()
        if self.mode == "pen" and self._drawing is not None:
            self._drawing.lineTo(pos)
            pad = current_theme().scaled(4) + 2
            self.update(self._drawing.boundingRect().adjusted(-pad, -pad, pad, pad).toAlignedRect())
        elif self.mode == "zoom" and self._band is not None:
            self._band = (self._band[0], pos)
            self.update()

    def mouseReleaseEvent(self, event: QtGui.QMouseEvent) -> None:
        if event.button() != QtCore.Qt.MouseButton.LeftButton:
            return
        if self.mode == "pen" and self._drawing is not None:
            self._drawing.lineTo(event.position())
            self._drawing = None
            self.update()
        elif self.mode == "zoom" and self._band is not None:
            self._band = (self._band[0], event.position())
            self._finish_band()

    # ------------------------------------------------------------------ drawing
    def ink_pen(self) -> QtGui.QPen:
        """The pen strokes are drawn with."""
        pen = QtGui.QPen(QtGui.QColor(INK), current_theme().scaled(4))
        pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(QtCore.Qt.PenJoinStyle.RoundJoin)
        return pen

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        theme = current_theme()
        if self.mode == "spotlight" and self.pointer is not None:
            radius = theme.scaled(SPOT_RADIUS)
            dark = QtGui.QPainterPath()
            dark.addRect(QtCore.QRectF(self.rect()))
            hole = QtGui.QPainterPath()
            hole.addEllipse(self.pointer, radius, radius)
            p.fillPath(dark.subtracted(hole), QtGui.QColor(0, 0, 0, SPOT_DIM))
        if self.strokes:
            p.setPen(self.ink_pen())
            p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            for stroke in self.strokes:
                if stroke.elementCount() == 1:  # a click: a dot
                    p.drawPoint(stroke.currentPosition())
                else:
                    p.drawPath(stroke)
        if self.mode == "laser" and self.pointer is not None:
            r = self._dot_radius()
            glow = QtGui.QRadialGradient(self.pointer, 2 * r)
            core = QtGui.QColor(INK)
            glow.setColorAt(0.0, QtGui.QColor(255, 255, 255))
            glow.setColorAt(0.25, core)
            edge = QtGui.QColor(core)
            edge.setAlpha(0)
            glow.setColorAt(1.0, edge)
            p.setPen(QtCore.Qt.PenStyle.NoPen)
            p.setBrush(QtGui.QBrush(glow))
            p.drawEllipse(self.pointer, 2 * r, 2 * r)
        if self.mode == "zoom" and self._band is not None:
            a, b = self._band
            pen = QtGui.QPen(QtGui.QColor(theme.foreground), theme.scaled(1.5))
            pen.setStyle(QtCore.Qt.PenStyle.DashLine)
            fill = QtGui.QColor(theme.primary)
            fill.setAlpha(50)
            p.setPen(pen)
            p.setBrush(fill)
            p.drawRect(QtCore.QRectF(a, b).normalized())
        p.end()


def _map(
    source: QtWidgets.QWidget, target: QtWidgets.QWidget, pos: QtCore.QPointF
) -> QtCore.QPoint:
    """``pos`` in ``source`` as a point of ``target`` (neither need contain the other)."""
    return target.mapFromGlobal(source.mapToGlobal(pos.toPoint()))
