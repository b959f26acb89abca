"""Staging a view's plots: focus one panel, a scene's panels, step-by-step reveal, highlight.

:class:`FocusController` rearranges the plots a :class:`~gui.widgets.view_widget.ViewWidget`
drew, without redrawing them: it shows, hides and moves the ``PlotItem`` s inside the
canvas' grid layout (hidden plots take no room unless they are kept as placeholders) and
styles the highlighted panel (:mod:`gui.plotting.emphasis`). It re-applies itself after
every redraw of a view (cheap comparisons when nothing changed), so a plot rebuilt for a
new theme, scale or parameter shape comes back staged.

- **Focus**: any panel fills the canvas, with its own large axes (a panel of small
  multiples that shares its neighbours' axes shows both; its title, axis titles, tick
  labels, legend and colour bar grow with the room, :func:`focus_text_zoom`), and the view's explanation paragraph
  makes room for it (presentation mode hides it anyway), and back: a double-click on the plot, or
  the panel's number key (1–9, in the order shown) while the stage has the keyboard; the
  same key, a double-click or Esc goes back. Ctrl+digit still switches views.
- **Scenes** (:class:`core.scenes.Scene`): ``panels`` shows only those panels, in that
  order (laid out anew in a grid); ``reveal`` shows the first one and lets Page Down reveal
  the next, one at a time (their places are kept free), before the deck moves on; Page
  Up hides them again, and stepping back into such a scene shows all of them;
  ``highlight`` emphasises one curve, row, head or cell and dims the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.scenes import Highlight, Scene, panel_keys
from gui.lecture.deck import DeckController
from gui.lecture.display import DisplayController
from gui.lecture.stage_strip import StageControls
from gui.plotting.emphasis import apply_highlight, clear_highlight
from gui.plotting.panel_plot import PanelPlot
from gui.theme import current_theme
from gui.widgets.staging import grid_shape
from gui.widgets.view_widget import ViewWidget, grid_position
from gui.window.protocol import StudioWindow

NUMBER_KEYS = 9
# Focus mode's text: a plot of FOCUS_REFERENCE logical px (at the UI scale) keeps the
# theme's sizes; a larger focused plot's text grows with its smaller side ratio, at
# most FOCUS_MAX_ZOOM times (a title at 150 % presentation scale: 20 pt → up to 40 pt).
FOCUS_REFERENCE = (480.0, 300.0)
FOCUS_MAX_ZOOM = 2.0
Position = tuple[int, int, int, int]  # row, column, row span, column span


def focus_text_zoom(size: QtCore.QSize | QtCore.QSizeF, ui_scale: float | None = None) -> float:
    """How much larger than the theme's the text of a focused plot filling ``size``
    (logical px) is drawn: 1 up to :data:`FOCUS_REFERENCE` (times the UI scale), then
    growing with the area's smaller side ratio, at most :data:`FOCUS_MAX_ZOOM`; rounded
    to 1/8 so a resize by a few pixels does not re-lay out the text."""
    scale = current_theme().ui_scale if ui_scale is None else ui_scale
    ref_w, ref_h = FOCUS_REFERENCE
    ratio = min(size.width() / (ref_w * scale), size.height() / (ref_h * scale))
    return min(FOCUS_MAX_ZOOM, max(1.0, math.floor(ratio * 8) / 8))


@dataclass
class Staging:
    """How a scene stages its view.

    Attributes
    ----------
    panels
        The panel keys shown, in order; ``()``: all, laid out by the view.
    reveal
        Whether the panels are revealed one at a time.
    shown
        How many of them are revealed (with ``reveal``).
    highlight
        What is emphasised, or ``None``.
    """

    panels: tuple[str, ...] = ()
    reveal: bool = False
    shown: int = 0
    highlight: Highlight | None = None


@dataclass
class _Placement:
    """What :class:`FocusController` changed on one plot (to undo it exactly)."""

    item: pg.PlotItem
    original: Position | None = None  # where the view put it, once moved
    current: Position | None = None  # where it is now, when moved
    axes: bool = False  # both axes shown for focus
    highlighted: bool = False
    text_space: list[tuple[pg.AxisItem, float, float]] | None = None  # before the focus


class FocusController(QtCore.QObject):
    """Focus, panel choice, reveal and highlight on the views of one window.

    Signals
    -------
    changed()
        What the current view shows changed (focus, reveal step, scene staging).

    Attributes
    ----------
    staging
        The staging of each view a scene staged (at most the current scene's).
    focused
        ``(view id, panel key)`` of the focused panel, ``None`` when none is.
    """

    changed = QtCore.Signal()

    def __init__(self, window: StudioWindow, deck: DeckController) -> None:
        super().__init__(window.qt)
        self.window = window
        self.deck = deck
        self.staging: dict[str, Staging] = {}
        self.focused: tuple[str, str] | None = None
        self._said = ""  # the status line the last focus said (withdrawn when it ends)
        self.number_actions: list[QtGui.QAction] = []
        self._placed: dict[str, dict[str, _Placement]] = {}
        self._reflows: dict[str, int] = {}  # each view's grid_reflows at its last apply
        self._watched: set[str] = set()
        self._viewports: dict[QtCore.QObject, ViewWidget] = {}
        self._staged: tuple[int, str, tuple[str, ...], bool, Highlight | None] | None = None
        self._direction = 1
        self._applying = False  # apply() runs
        self._unexplained: set[str] = set()  # views whose explanation a focus hid
        deck.scene_staged.connect(self.stage_scene)
        deck.closed.connect(self.unstage)
        deck.steppers.append(self.reveal_step)
        display = window.find_feature(DisplayController)
        if display is not None:  # a new theme or scale shows the explanation again
            display.applied.connect(lambda: self.apply(self.window.current_view))
        window.view_changed.connect(self._view_changed)
        for view_id in list(window.views):
            self._watch(view_id)

    # ------------------------------------------------------------------ actions
    def add_actions(self, menu: QtWidgets.QMenu) -> None:
        """The number keys 1–9 (and keypad) focus the panel with that number while the
        stage has the keyboard; listed in ``menu``."""
        sub = menu.addMenu("Focus panel (same key or Esc: back)")
        stage = self.window.stage
        for n in range(1, NUMBER_KEYS + 1):
            action = QtGui.QAction(f"Focus panel {n}", stage)
            action.setObjectName(f"action-focus-panel-{n}")
            action.setShortcuts(
                [
                    QtGui.QKeySequence(str(n)),
                    QtGui.QKeySequence(f"Num+{n}"),
                ]
            )
            action.setShortcutContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(lambda _=False, n=n: self.toggle_number(n))
            stage.addAction(action)
            sub.addAction(action)
            self.number_actions.append(action)

    # ------------------------------------------------------------------ queries
    def order(self, view_id: str | None = None) -> list[str]:
        """The panel keys the view shows, in order (a scene's ``panels``, else all)."""
        view_id = view_id or self.window.current_view
        staging = self.staging.get(view_id)
        if staging is not None and staging.panels:
            return list(staging.panels)
        widget = self.window.views.get(view_id)
        if widget is not None and widget.data is not None:
            return [p.key for p in widget.data.panels]
        return list(panel_keys(view_id))

    def numbered(self, view_id: str | None = None) -> list[str]:
        """The panels the number keys reach, in order: those shown (revealed so far)."""
        view_id = view_id or self.window.current_view
        keys = self.order(view_id)
        staging = self.staging.get(view_id)
        if staging is not None and staging.reveal:
            keys = keys[: staging.shown]
        return keys

    def shown_keys(self, view_id: str | None = None) -> list[str]:
        """The panels visible now, in order (the focused one alone while focused)."""
        view_id = view_id or self.window.current_view
        if self.focused is not None and self.focused[0] == view_id:
            return [self.focused[1]]
        return self.numbered(view_id)

    # ------------------------------------------------------------------ focus
    def focus(self, key: str) -> bool:
        """Let panel ``key`` of the current view fill the stage (``False``: not shown)."""
        view_id = self.window.current_view
        if key not in self.numbered(view_id):
            return False
        self.focused = (view_id, key)
        self.apply(view_id)
        keys = self.numbered(view_id)
        n = keys.index(key) + 1
        self._said = (
            f"Panel {n} of {len(keys)} fills the stage — {n}, Esc or a double-click goes back"
        )
        self.window.show_status(self._said, 5000)
        self.changed.emit()
        return True

    def unfocus(self) -> bool:
        """Back to all panels (``False`` when none was focused)."""
        if self.focused is None:
            return False
        view_id = self.focused[0]
        self.focused = None
        self.window.withdraw_status(self._said)  # (no longer so)
        self.apply(view_id)  # (the explanation comes back, before the rows are fitted)
        self.changed.emit()
        return True

    def toggle(self, key: str) -> bool:
        """Focus ``key``, or go back when it is focused already."""
        if self.focused == (self.window.current_view, key):
            return self.unfocus()
        return self.focus(key)

    def toggle_number(self, n: int) -> bool:
        """The number key ``n`` (1-based, in the order the panels are shown)."""
        keys = self.numbered()
        if not 1 <= n <= len(keys):
            self.window.show_status(f"No panel {n} here (1–{len(keys)})", 3000)
            return False
        return self.toggle(keys[n - 1])

    def escape(self) -> bool:
        """Esc: leave focus; ``False`` when there was none (Esc does its other work)."""
        return self.unfocus()

    # ------------------------------------------------------------------ scenes
    def stage_scene(self, scene: Scene, index: int) -> None:
        """Stage the scene the deck shows now (showing the same scene again keeps how far
        it is revealed; a scene entered backwards shows all its panels)."""
        fields = (index, scene.view_id, scene.panels, scene.reveal, scene.highlight)
        direction, self._direction = self._direction, 1
        if index >= 0 and fields == self._staged:
            return
        self._staged = fields
        previous = set(self.staging)
        self.staging.clear()
        if self.focused is not None:
            previous.add(self.focused[0])
            self.focused = None
            self.window.withdraw_status(self._said)
        if scene.panels or scene.reveal or scene.highlight is not None:
            count = len(scene.panels or panel_keys(scene.view_id))
            shown = (1 if direction > 0 else count) if scene.reveal else count
            self.staging[scene.view_id] = Staging(
                scene.panels, scene.reveal, shown, scene.highlight
            )
        for view_id in previous | {scene.view_id}:
            self.apply(view_id)
        self.changed.emit()

    def unstage(self) -> None:
        """No scene stages any view (the deck was closed): every panel shown again, in
        its view's place; a focused panel stays focused."""
        self._staged = None
        self._direction = 1
        staged, self.staging = set(self.staging), {}
        for view_id in staged:
            self.apply(view_id)
        if staged:
            self.changed.emit()

    def reveal_step(self, delta: int) -> bool:
        """Page Down / Up on a revealing scene: the next panel, or hide the last one;
        ``False`` when the deck should step to another scene instead."""
        self._direction = delta
        index = self.deck.index
        if not 0 <= index < len(self.deck.scenes):
            return False
        view_id = self.deck.scenes[index].view_id
        staging = self.staging.get(view_id)
        if staging is None or not staging.reveal or self.window.current_view != view_id:
            return False
        count = len(self.order(view_id))
        if delta > 0 and staging.shown < count:
            staging.shown += 1
        elif delta < 0 and staging.shown > 1:
            staging.shown -= 1
        else:
            return False
        self._direction = 1
        if self.focused is not None:
            self.focused = None
            self.window.withdraw_status(self._said)
        self.apply(view_id)
        if delta > 0:
            self._bring_into_view(view_id, self.order(view_id)[staging.shown - 1])
        self.changed.emit()
        return True

    def _bring_into_view(self, view_id: str, key: str) -> None:
        """Scroll the view so that plot ``key`` (just revealed) is in sight, its title
        included, as far as it fits: on Xvfb at 1600 x 1000, 200 %, on stage the
        lecture's sinusoidal scene revealed four of its plots below the fold, each
        Page Down changing nothing the audience saw. Above the parameter strip when it
        shows."""
        widget = self.window.views.get(view_id)
        plot = widget.plots.get(key) if widget is not None else None
        if widget is None or plot is None or not widget.scrolls:
            return
        canvas, bar = widget.canvas, widget.scroll_area.verticalScrollBar()
        rect = canvas.mapFromScene(plot.plot.sceneBoundingRect()).boundingRect()
        rect = QtCore.QRect(canvas.viewport().mapTo(widget.body, rect.topLeft()), rect.size())
        port = widget.scroll_area.viewport()
        # the parameter strip, shown, covers the bottom of the stage (on Xvfb at
        # 1600 x 1000, 200 %, the revealed plot's bottom third was under it)
        controls = self.window.find_feature(StageControls)
        page = port.height() - (controls.covered(port) if controls is not None else 0)
        value = bar.value()
        if rect.bottom() > value + page:
            value = rect.bottom() - page + 1
        value = min(value, rect.top())  # the top (the title) first when it is taller
        if controls is not None and value > bar.maximum() and page < port.height():
            # the last plot: room below it to scroll it up above the strip
            controls.make_room(widget.scroll_area, value - bar.maximum())
        widget.scrolls_asked += 1  # (a scroll of its own: see ViewWidget.scrolls_asked)
        bar.setValue(max(bar.minimum(), min(bar.maximum(), value)))

    # ------------------------------------------------------------------ wiring
    def _view_changed(self, view_id: str) -> None:
        self._watch(view_id)
        if self.focused is not None and self.focused[0] != view_id:
            old = self.focused[0]
            self.focused = None
            self.window.withdraw_status(self._said)
            self.apply(old)
        self.apply(view_id)

    def _explain(self, view_id: str, widget: ViewWidget) -> bool:
        """Show the explanation of ``view_id`` again where its focus hid it, as the
        display has it (not while presenting); whether it was shown.

        Only that view's, before its rows are fitted: showing every view's after the
        fit (:meth:`DisplayController.sync_views`, which also re-set every view's notes
        line) made the canvas lower than fitted, laid out and painted again from the
        event loop."""
        if view_id not in self._unexplained:
            return False
        self._unexplained.discard(view_id)
        display = self.window.find_feature(DisplayController)
        if (display is not None and display.presenting) or not widget.explanation.isHidden():
            return False
        widget.show_explanation(True)
        # the body lays the canvas out below it now, so that the rows are fitted to
        # the canvas's height as it is shown
        QtCore.QCoreApplication.sendEvent(
            widget.scroll_area, QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest)
        )
        body = widget.body.layout()
        if body is not None:
            body.activate()
        return True

    def _watch(self, view_id: str) -> None:
        """Re-stage the view after each of its redraws; double-clicks focus its plots."""
        if view_id in self._watched or view_id not in self.window.views:
            return
        widget = self.window.views[view_id]
        self._watched.add(view_id)
        widget.rendered.connect(lambda v=view_id: self.apply(v))
        widget.caught_up.connect(lambda v=view_id: self._caught_up(v))
        port = widget.canvas.viewport()
        port.installEventFilter(self)
        self._viewports[port] = widget

    def _sized_text(self, view_id: str) -> bool:
        """Whether a plot of ``view_id`` has its text sized to its canvas
        (:func:`focus_text_zoom`): the focused one, or a scene's only panel. Its text
        follows the canvas's size: staged again when the canvas is resized. (A scene's
        only panel kept the zoom of the canvas's size when it was staged, the size the
        view had before: the lecture's Compare table alone, scene 19, at 1920 x 1080 /
        200 % had a 17.6 pt table under an 84 px title shown fresh, 18.35 pt under a
        54 px title after scene 20.)"""
        if self.focused is not None and self.focused[0] == view_id:
            return True
        staging = self.staging.get(view_id)
        return staging is not None and bool(staging.panels) and len(self.order(view_id)) == 1

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if (
            event.type() == QtCore.QEvent.Type.Resize
            and obj in self._viewports
            and self._sized_text(view_id := self._viewports[obj].spec.view_id)
        ):
            self.apply(view_id)  # the plot's text follows the stage's size
            return False
        if (
            event.type() == QtCore.QEvent.Type.MouseButtonDblClick
            and obj in self._viewports
            and isinstance(event, QtGui.QMouseEvent)
            and event.button() == QtCore.Qt.MouseButton.LeftButton
        ):
            widget = self._viewports[obj]
            if widget.spec.view_id == self.window.current_view:
                key = self.panel_at(widget, event.position().toPoint())
                if key is not None:
                    self.toggle(key)
                    return True
        return False

    @staticmethod
    def panel_at(widget: ViewWidget, pos: QtCore.QPoint) -> str | None:
        """The key of the visible plot at viewport point ``pos``, ``None`` if none."""
        scene_pos = widget.canvas.mapToScene(pos)
        for key, plot in widget.plots.items():
            item = plot.plot
            if item.isVisible() and item.sceneBoundingRect().contains(scene_pos):
                return key
        return None

    def _caught_up(self, view_id: str) -> None:
        """Plots of ``view_id`` left out of sight were drawn late: stage them too (from
        the event loop when that happened inside :meth:`apply`)."""
        if self._applying:
            QtCore.QTimer.singleShot(0, self, lambda: self.apply(view_id))
        else:
            self.apply(view_id)

    # ------------------------------------------------------------------ layout
    def apply(self, view_id: str) -> None:
        """Bring the plots of ``view_id`` in line with its staging and focus (a few
        comparisons when they already are)."""
        applying, self._applying = self._applying, True
        try:
            self._apply(view_id)
        finally:
            self._applying = applying

    def _apply(self, view_id: str) -> None:
        widget = self.window.views.get(view_id)
        if widget is None or widget.data is None or not widget.plots:
            return
        self._watch(view_id)
        layout = widget.canvas.ci.layout
        panels = {p.key: p for p in widget.data.panels if p.key in widget.plots}
        staging = self.staging.get(view_id)
        order = [k for k in self.order(view_id) if k in panels]
        targets: dict[str, Position] = {}
        if staging is not None and staging.panels:
            most = widget.scene_columns(order, widget.fitting_columns(3))
            rows, cols = grid_shape(len(order), most)
            targets = {key: (i // cols, i % cols, 1, 1) for i, key in enumerate(order)}
            parked = [key for key in panels if key not in targets]  # hidden, out of the way
            targets.update({key: (rows + j, 0, 1, 1) for j, key in enumerate(parked)})
        visible = set(order[: staging.shown] if staging is not None and staging.reveal else order)
        focused = self.focused[1] if self.focused and self.focused[0] == view_id else None
        if focused not in visible:
            focused = None
        placed = self._placed.setdefault(view_id, {})
        if self._reflows.get(view_id) != widget.grid_reflows:
            # the view moved every plot to its own cell for another number of columns
            # (F5, a new scale or size): that is where each is now, and its own cell
            # to go back to. Kept, the cells of the old columns put a plot back on a
            # taken cell, which the grid refused (the plot left out of the layout:
            # RoPE's score after F5 out at 1280 x 720 / 200 %) and moved none of the
            # plots staged before, left in their view's cells
            self._reflows[view_id] = widget.grid_reflows
            for kept in placed.values():
                kept.original = kept.current = None
        moves: list[tuple[pg.PlotItem, Position]] = []
        for key in panels:
            item = widget.plots[key].plot
            place = placed.get(key)
            if place is None or place.item is not item:
                place = placed[key] = _Placement(item)
            want = targets.get(key) or place.original
            if want is not None and want != (place.current or place.original):
                if place.original is None:
                    place.original = grid_position(layout, item) or (0, 0, 1, 1)
                moves.append((item, want))
                place.current = None if want == place.original else want
        # all out first, then all in: a grid refuses an item on a cell that is taken
        for item, _where in moves:
            _take_out(layout, item)
        for item, where in moves:
            layout.addItem(item, *where)
        moved = bool(moves)
        for key, panel in panels.items():
            item = widget.plots[key].plot
            place = placed[key]
            show = key == focused if focused else key in visible
            reserve = focused is None and key in order and key not in visible
            policy = item.sizePolicy()
            if policy.retainSizeWhenHidden() != reserve:
                policy.setRetainSizeWhenHidden(reserve)
                item.setSizePolicy(policy)
                moved = True
            if item.isVisible() != show:
                item.setVisible(show)
                moved = True
                if show:  # auto range skips hidden items: data drawn while hidden
                    item.getViewBox().updateAutoRange()  # kept the old range
            own_axes = key == focused and panel.kind != "table"
            if own_axes and not place.axes:
                widget.release_held_room(settle=False)  # (see below: the room kept)
                place.text_space = _text_space(widget.plots[key])
            # the focused plot's text grows with the stage (before its axes' room is
            # restored on the way back: the normal tick labels need the old room)
            # and so does a scene's only panel, which fills the stage as a focused one
            # (the lecture's Compare table alone in scene 19 kept its window size,
            # half the stage empty below it)
            alone = focused is None and bool(staging and staging.panels) and order == [key]
            zoom = focus_text_zoom(widget.canvas.size()) if key == focused or alone else 1.0
            zoomed = zoom != widget.plots[key].text_zoom
            if zoomed:  # (re-applies the axis labels, which shows the view's axes only)
                widget.plots[key].set_text_zoom(zoom)
                moved = True
            if own_axes != place.axes or (zoomed and panel.kind != "table"):
                item.showAxis("bottom", own_axes or panel.x_axis)
                item.showAxis("left", own_axes or panel.y_axis)
            if own_axes != place.axes:
                place.axes = own_axes
                if not own_axes and place.text_space is not None:
                    _restore_text_space(place.text_space)
                    place.text_space = None
            highlight = staging.highlight if staging is not None else None
            if highlight is not None and highlight.panel == key:
                apply_highlight(widget.plots[key], highlight)
                place.highlighted = True
            elif place.highlighted:
                clear_highlight(widget.plots[key])
                place.highlighted = False
        if focused is not None and widget.explanation.isVisible():
            widget.show_explanation(False)  # the room goes to the focused plot
            self._unexplained.add(view_id)
        elif focused is None and self._explain(view_id, widget):
            moved = True
        if moved:
            # a readout by a resting cursor read a place where another plot, or another
            # part of this one, lies now (after going back from a focus the notes line
            # kept the focused plot's readout): it goes until the mouse moves
            widget.hide_readouts()
            # a drag's held tick-label room ends with the layout it was held in (a
            # release left to the full-quality timer came during a focus or after it)
            widget.release_held_room(settle=False)
            layout.invalidate()
            layout.activate()
            widget.fit_height()  # the rows now shown, each legible (the view scrolls)
            # the canvas sizes its grid only when it is resized itself: a grid taller
            # than the canvas (its plots' minimum heights) stayed that tall for the one
            # focused plot, whose bottom was cut off
            canvas = widget.canvas
            canvas.ci.setGeometry(QtCore.QRectF(0, 0, canvas.width(), canvas.height()))
        widget.refresh_notes()  # the notes of the plots shown now, no others

    def geometry(self, view_id: str | None = None) -> dict[str, QtCore.QRectF]:
        """Each visible plot's rectangle in its canvas (for tests and the overlay)."""
        widget = self.window.views[view_id or self.window.current_view]
        return {k: p.plot.geometry() for k, p in widget.plots.items() if p.plot.isVisible()}


def _text_space(plot: PanelPlot) -> list[tuple[pg.AxisItem, float, float]]:
    """The room each axis of ``plot`` (and its colour bar) keeps for its tick labels.

    An axis only ever widens it (pyqtgraph): labels of the large, focused plot would
    leave the plot wider than before once it is back among the others."""
    axes = [plot.plot.getAxis(name) for name in ("left", "bottom", "right", "top")]
    if plot.colorbar is not None:
        axes.append(plot.colorbar.axis)
    return [(axis, axis.textWidth, axis.textHeight) for axis in axes]


def _restore_text_space(saved: list[tuple[pg.AxisItem, float, float]]) -> None:
    for axis, width, height in saved:
        try:
            axis.textWidth, axis.textHeight = width, height
            axis.setStyle()  # re-sizes the axis for that room
        except RuntimeError:  # rebuilt meanwhile
            continue


def _take_out(layout: QtWidgets.QGraphicsGridLayout, item: pg.PlotItem) -> None:
    """Remove ``item`` from ``layout`` (only to put it back elsewhere at once: pyqtgraph's
    ``GraphicsLayout.clear`` expects every plot in the layout)."""
    for i in range(layout.count()):
        found = layout.itemAt(i)
        if found is not None and found.graphicsItem() is item:
            layout.removeAt(i)
            return
