"""Parameters on stage: change the current view's parameters without leaving full screen.

In presentation mode the parameter panel is hidden with the rest of the chrome.
:class:`StageControls` gives the lecturer two ways to change parameters anyway:

- a compact **parameter strip** (:class:`ParamStrip`) over the bottom of the stage,
  generated from the view's :class:`~core.params.ParamModel` with the panel's own row
  builder (:class:`gui.widgets.param_panel.ParamRow`). It shows the main parameter
  first and at most :data:`SHOWN_ROWS` rows of fields (a fifth of the stage at most);
  the other rows scroll in it, and Tab walks through every field, scrolling it into
  sight. P shows or hides it, and so does
  moving the pointer to the bottom edge of the stage; it hides itself after
  :data:`IDLE_HIDE_MS` without use (pointer over it, typing in it or a change from it).
- **nudge keys**: ← / → move the scene's main parameter (the one Space sweeps, e.g. the
  RoPE query position ``m``) by one step of its slider, Shift+← / Shift+→ by a page of
  the slider (:func:`gui.widgets.slider_scale.step_value`), clamped to its range.

Every change goes through :meth:`gui.widgets.state.ViewState.set_param`, the panel's path,
so Ctrl+Z undoes it (consecutive nudges of one parameter are one undo step, like a slider
drag). Outside presentation mode ← / → keep stepping the deck. Page Up / Page Down (what
clickers send) step the deck in both modes, also while a field of the strip has focus.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from core.params import Param
from gui.lecture.display import DisplayController
from gui.lecture.editors import EDITOR_WIDGETS
from gui.render.math_text import math_tooltip
from gui.theme import current_theme
from gui.widgets.param_panel import ParamRow, browse_table, main_first
from gui.widgets.slider_scale import step_drawn, step_value
from gui.widgets.state import ViewState
from gui.widgets.steady_scroll import SteadyScrollArea
from gui.widgets.view_widget import ViewWidget
from gui.window.protocol import StudioWindow

IDLE_HIDE_MS = 4000  # the strip hides after this long without use
# a nudge key pressed again within this long after it was let go goes on with the same
# run of nudges (one drag: StageControls.hold_nudge), as its auto-repeat does
NUDGE_RUN_MS = 300
EDGE_PX = 6  # height of the bottom band of the stage that shows the strip (at 100 %)
CELL_WIDTH = 120  # narrowest column of cells at 100 % (a column is as wide as its cells need)
# the strip shows at most this many rows of cells, and no more than STAGE_SHARE of the
# stage's height (at least its first row, the main parameter's); the other rows scroll
# in it (Tab, the wheel, its scroll bar). Showing all of them, RoPE's 23 fields took 4
# rows, the lower 40 % of a 1920 x 1080 stage at 150 %, over the plots they change.
SHOWN_ROWS = 2
STAGE_SHARE = 0.2
# every kind: a file's cell has its path and a Browse… button, so that a tensor name in
# the file (Learned's "Tensor name in the file") is never a lone field on stage
STRIP_KINDS = ("int", "float", "bool", "choice", "int_list", "text", "file")

Key = QtCore.Qt.Key
_NUDGE_KEYS = {Key.Key_Right: 1, Key.Key_Left: -1}


def nudged_value(param: Param, value: Any, direction: int, large: bool = False) -> Any:
    """The value a nudge key gives ``param``: one slider step (``large``: one page of the
    slider) in ``direction``, clamped to the range (:func:`step_value`)."""
    return step_value(param, value, direction, page=large)


class ParamStrip(QtWidgets.QFrame):
    """Compact editors for every parameter of one view, in cells that reflow to the width.

    Parameters
    ----------
    state
        The view's parameters (the same :class:`ViewState` the panel edits).
    main
        Name of the main parameter: its cell comes first, is marked and keeps its slider.
    parent
        The stage.

    Attributes
    ----------
    rows
        ``name → ParamRow`` (the editors are ``rows[name].editor``).

    Signals
    -------
    entered()
        Enter committed a field (the keyboard goes back to the stage).
    """

    entered = QtCore.Signal()
    #: told whether the strip is shown over its view's canvas (ViewWidget.set_covered)
    covers: Callable[[bool], None] = staticmethod(lambda _covered: None)

    def __init__(
        self, state: ViewState, main: str | None, parent: QtWidgets.QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("stage-strip")
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.state = state
        self.main = main
        self.rows: dict[str, ParamRow] = {}
        self.cells: dict[str, QtWidgets.QWidget] = {}
        self.outer = outer = QtWidgets.QVBoxLayout(self)
        self.hint = QtWidgets.QLabel(self)
        self.hint.setObjectName("stage-strip-hint")
        self.hint.setWordWrap(True)
        outer.addWidget(self.hint)
        # the cells scroll (vertically) when they need more height than the strip may
        # take: squeezed into it, at 200 % on 1920 x 1080 the RoPE fields were cut to
        # slivers under their labels and the labels lost their descenders
        self.scroll_area = SteadyScrollArea(self)
        self.scroll_area.setObjectName("stage-strip-scroll")
        self.scroll_area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.viewport().setObjectName("stage-strip-viewport")
        self.body = QtWidgets.QWidget(self.scroll_area)
        self.body.setObjectName("stage-strip-body")
        self.grid = QtWidgets.QGridLayout(self.body)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(16)
        self.scroll_area.setWidget(self.body)
        outer.addWidget(self.scroll_area)
        kinds = [p.name for p in state.model.params if p.kind in STRIP_KINDS]
        for name in main_first(kinds, main):  # the main parameter first
            self._add_cell(state.model[name])
        self.columns = 0  # (of the latest reflow)
        self._arranged: tuple[dict[str, tuple[int, int, int]], list[int]] = ({}, [])
        self.hidden = 0  # fields in the rows out of sight (see set_hidden)
        self.set_main(main)
        state.changed.connect(self.show_values)
        state.drawn.connect(self._show_drawn)
        self.show_values(state.values)

    def _add_cell(self, param: Param) -> None:
        cell = QtWidgets.QWidget(self)
        cell.setObjectName(f"strip-cell-{param.name}")
        box = QtWidgets.QVBoxLayout(cell)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        row = ParamRow(param, self.state, cell, self.entered.emit)
        row.editor.setObjectName(f"strip-{param.name}")
        label = QtWidgets.QLabel(param.label, cell)
        label.setToolTip(
            math_tooltip(f"{param.help}\nAllowed: {param.range_text()}", literal=f"{param.name}: ")
        )
        label.setBuddy(row.editor)
        box.addWidget(label)
        if param.kind == "file":  # the path | Browse…, in a widget of their own (a
            # nested layout kept its 100 % height after F5 went to 150 %: both squeezed)
            holder = QtWidgets.QWidget(cell)
            line = QtWidgets.QHBoxLayout(holder)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(4)
            row.editor.setParent(holder)
            line.addWidget(row.editor, 1)
            browse = QtWidgets.QPushButton("Browse…", holder)
            browse.setObjectName(f"strip-browse-{param.name}")
            browse.clicked.connect(lambda _=False, n=param.name: browse_table(self, self.state, n))
            line.addWidget(browse)
            box.addWidget(holder)
        else:
            box.addWidget(row.editor)
        if row.slider is not None:
            row.slider.setObjectName(f"strip-slider-{param.name}")
            box.addWidget(row.slider)
        self.rows[param.name] = row
        self.cells[param.name] = cell

    def set_main(self, name: str | None) -> None:
        """Mark ``name`` as the parameter the nudge keys move (only its slider shows)."""
        self.main = name
        for pname, row in self.rows.items():
            if row.slider is not None:
                row.slider.setVisible(pname == name)
            font = self.cells[pname].font()
            font.setBold(pname == name)
            for label in self.cells[pname].findChildren(QtWidgets.QLabel):
                label.setFont(font)
        # the main cell first (in the strip's first row, always shown), then the model's
        # order; the keyboard's Tab follows the cells
        names = main_first((p.name for p in self.state.model.params if p.name in self.cells), name)
        self.cells = {n: self.cells[n] for n in names}
        self._arranged = ({}, [])  # (placed anew by the next reflow)
        self._chain_tabs()
        self._write_hint()

    def tab_chain(self) -> list[QtWidgets.QWidget]:
        """The widgets Tab walks through, in the cells' order: each field, its Browse…
        button, the main parameter's slider."""
        chain: list[QtWidgets.QWidget] = []
        for name in self.cells:
            row = self.rows[name]
            chain.append(row.editor)
            chain.extend(self.cells[name].findChildren(QtWidgets.QPushButton))
            if row.slider is not None and name == self.main:
                chain.append(row.slider)
        return chain

    def _chain_tabs(self) -> None:
        """Tab and Shift+Tab go through the fields in the cells' order (the scroll
        area brings the field with the keyboard into sight)."""
        chain = self.tab_chain()
        for first, second in zip(chain, chain[1:], strict=False):
            QtWidgets.QWidget.setTabOrder(first, second)

    def set_hidden(self, hidden: int) -> None:
        """Say in the hint that ``hidden`` fields lie in rows scrolled out of sight."""
        if hidden != self.hidden:
            self.hidden = hidden
            self._write_hint()

    def _write_hint(self) -> None:
        name = self.main
        title = self.state.model[name].label if name in self.rows else ""
        keys = f"←/→ {title} (Shift: larger steps) · " if title else ""
        more = f"Tab: {self.hidden} more · " if self.hidden else ""
        self.hint.setText(f"{keys}{more}P hides · Ctrl+Z undoes")

    def show_values(self, values: dict[str, Any]) -> None:
        """Model → strip (signals blocked: no echo). (a value pinned by a sweep in
        place of its own: ViewState.pin)"""
        values = self.state.shown(values)
        for row in self.rows.values():
            row.show(values)

    def _show_drawn(self) -> None:
        """The drawing used other values for unused parameters (ViewState.used)."""
        self.show_values(self.state.values)

    def reflow(self, width: int) -> None:
        """Lay the cells out in as many columns as fit ``width`` (the strip's width; the
        main cell is 2 wide). Each column is as wide as its widest cell needs (the label
        and the field's size hint at the current UI scale), at least :data:`CELL_WIDTH`;
        the rows that do not fit the strip's height scroll."""
        spacing = self.grid.horizontalSpacing()
        margins = self.outer.contentsMargins()
        bar = self.scroll_area.verticalScrollBar().sizeHint().width()  # its room, shown or not
        room = width - 2 * self.frameWidth() - margins.left() - margins.right() - bar
        floor = current_theme().scaled(CELL_WIDTH)
        needs = {name: cell.sizeHint().width() for name, cell in self.cells.items()}
        columns = max(1, (room + spacing) // (floor + spacing))
        while True:
            places, widths = self._arrange(columns, needs, floor, spacing)
            if columns == 1 or sum(widths) + spacing * (columns - 1) <= room:
                break
            columns -= 1
        if (places, widths) == self._arranged:
            return
        self._arranged = (places, widths)
        self.columns = columns
        for cell in self.cells.values():
            self.grid.removeWidget(cell)
        for name, (r, c, span) in places.items():
            top = QtCore.Qt.AlignmentFlag.AlignTop  # (beside the taller main cell)
            self.grid.addWidget(self.cells[name], r, c, 1, span, top)
        for i in range(max(self.grid.columnCount(), columns)):
            self.grid.setColumnStretch(i, 1 if i < columns else 0)
            self.grid.setColumnMinimumWidth(i, widths[i] if i < columns else 0)

    def _arrange(
        self, columns: int, needs: dict[str, int], floor: int, spacing: int
    ) -> tuple[dict[str, tuple[int, int, int]], list[int]]:
        """The cells in reading order over ``columns`` columns: ``name → (row, column,
        span)``, and the width each column needs (``needs``: each cell's width)."""
        places: dict[str, tuple[int, int, int]] = {}
        widths = [floor] * columns
        r = c = 0
        for name in self.cells:
            span = min(2, columns) if name == self.main else 1
            if c + span > columns:
                r, c = r + 1, 0
            places[name] = (r, c, span)
            if span == 1:
                widths[c] = max(widths[c], needs[name])
            c += span
        for name, (_r, c, span) in places.items():
            short = needs[name] - (sum(widths[c : c + span]) + spacing * (span - 1))
            if span > 1 and short > 0:  # the main cell wider than the columns it spans
                widths[c] += short
        return places, widths

    def fitting_height(self) -> int:
        """The height that shows every cell without scrolling (after :meth:`reflow`)."""
        self.grid.invalidate()
        return self._chrome_height() + self.grid.sizeHint().height()

    def rows_height(self, rows: int) -> int:
        """The height that shows the first ``rows`` rows of cells (after :meth:`reflow`),
        the hint line and the frame included."""
        heights: dict[int, int] = {}
        for name, (r, _c, _span) in self._arranged[0].items():
            need = self.cells[name].sizeHint().height()
            heights[r] = max(heights.get(r, 0), need)
        shown = [heights[r] for r in sorted(heights)[: max(1, rows)]]
        spacing = self.grid.verticalSpacing() * (len(shown) - 1)
        return self._chrome_height() + sum(shown) + spacing

    def cells_below(self, rows: int) -> int:
        """How many cells lie below the first ``rows`` rows (after :meth:`reflow`)."""
        return sum(1 for r, _c, _s in self._arranged[0].values() if r >= rows)

    def row_count(self) -> int:
        """How many rows of cells the latest :meth:`reflow` made."""
        return 1 + max((r for r, _c, _s in self._arranged[0].values()), default=0)

    def _chrome_height(self) -> int:
        """The frame, the margins and the hint line above the cells."""
        margins = self.outer.contentsMargins()
        hint = self.hint.heightForWidth(max(1, self.width() - margins.left() - margins.right()))
        spacing = self.outer.spacing()
        return 2 * self.frameWidth() + margins.top() + margins.bottom() + hint + spacing

    def settle(self) -> None:
        """Lay the strip out now, its scroll bar and the width of its cells included (a
        strip re-placed while hidden kept the scroll bar and the cells' width of its
        last placement until the next event-loop pass: a scroll bar beside cells that
        did not need it, over the cells of the right column)."""
        self.grid.activate()
        self.outer.activate()
        request = QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest)
        QtCore.QCoreApplication.sendEvent(self.scroll_area, request)  # it fits its body

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        self.covers(True)

    def hideEvent(self, event: QtGui.QHideEvent) -> None:
        super().hideEvent(event)
        self.covers(False)

    def restyle(self) -> None:
        """Follow the theme: an opaque panel with a rule on top (it covers the plots'
        bottom edge only while shown)."""
        theme = current_theme()
        bg = theme.chrome if theme.name == "dark" else "#f4f4f4"
        self.setStyleSheet(
            f"#stage-strip {{ background: {bg}; border: 1px solid {theme.control}; "
            f"border-radius: {theme.scaled(6)}px; }} "
            f"#stage-strip-hint {{ color: {theme.control}; }} "
            "#stage-strip-scroll, #stage-strip-viewport, #stage-strip-body "
            "{ background: transparent; }"
        )


class _EdgeSensor(QtWidgets.QWidget):
    """An invisible band along the bottom of the stage: the pointer entering it shows
    the strip (Enter events arrive without mouse tracking)."""

    def __init__(self, parent: QtWidgets.QWidget, entered: Callable[[], object]) -> None:
        super().__init__(parent)
        self.setObjectName("stage-strip-sensor")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_NoSystemBackground)
        self._entered = entered
        #: paint the window's background (the margins around the shown strip): the
        #: stage's text and plots under them showed as cut slivers beside and below it
        #: (the notes line's top half under the strip at 200 %)
        self.covering = False

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        if self.covering:
            painter = QtGui.QPainter(self)
            painter.fillRect(event.rect(), self.palette().color(QtGui.QPalette.ColorRole.Window))
            painter.end()

    def enterEvent(self, event: QtGui.QEnterEvent) -> None:
        self._entered()
        super().enterEvent(event)


class StageControls(QtCore.QObject):
    """The parameter strip and nudge keys of one window's presentation mode.

    Parameters
    ----------
    window
        The main window.
    display
        Its presentation display (whether presentation mode is on).
    main_param
        ``main_param(view_id)``: the name of the view's main parameter (the lecture
        passes the sweep's choice), ``None`` when it has no number parameter.

    Attributes
    ----------
    strip
        The strip shown now (``None`` before the first one is built).
    key_windows
        The top-level windows whose keys nudge (the main window; the presenter window
        adds itself).
    """

    def __init__(
        self,
        window: StudioWindow,
        display: DisplayController,
        main_param: Callable[[str], str | None],
    ) -> None:
        super().__init__(window.qt)
        self.window = window
        self.display = display
        self.main_param = main_param
        self.strips: dict[str, ParamStrip] = {}
        self.strip: ParamStrip | None = None
        self.key_windows: set[QtWidgets.QWidget] = {window.qt}  # where ←/→ nudge
        self.timer = QtCore.QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(IDLE_HIDE_MS)
        self.timer.timeout.connect(self._idle)
        self.sensor = _EdgeSensor(window.stage, self.show_strip)
        self.sensor.hide()
        self.action = window.add_action(
            "view", "Parameter strip (presentation)", "P", self.toggle, "action-stage-strip"
        )
        self.action.setEnabled(False)
        self._stage = window.stage  # compared with every event's receiver (eventFilter)
        window.stage.installEventFilter(self)
        display.applied.connect(self._display_changed)
        window.view_changed.connect(lambda _view_id: self._view_changed())
        self.filtering = False  # the application's keys pass here while presenting
        self.room: QtWidgets.QWidget | None = None  # see make_room()
        self._nudged: ViewWidget | None = None  # the view a nudge key is held on
        self.nudge_run = QtCore.QTimer(self)  # the run's end once the key is let go
        self.nudge_run.setSingleShot(True)
        self.nudge_run.setInterval(NUDGE_RUN_MS)
        self.nudge_run.timeout.connect(lambda: self.hold_nudge(False))
        app = QtWidgets.QApplication.instance()
        if isinstance(app, QtGui.QGuiApplication):
            app.applicationStateChanged.connect(self._application_state)

    # ------------------------------------------------------------------ strip
    @property
    def visible(self) -> bool:
        """Whether the strip is shown."""
        return self.strip is not None and self.strip.isVisible()

    def covered(self, widget: QtWidgets.QWidget) -> int:
        """How many pixels at the bottom of ``widget`` (a widget on the stage: the view's
        scroll area) the shown strip covers; 0 while it is hidden."""
        strip = self.strip
        if strip is None or not self.visible:
            return 0
        stage = self.window.stage
        top_left = widget.mapTo(stage, QtCore.QPoint(0, 0))
        area = QtCore.QRect(top_left, widget.size())
        over = area.intersected(strip.geometry())
        return max(0, area.bottom() - over.top() + 1) if not over.isEmpty() else 0

    def make_room(self, area: QtWidgets.QScrollArea, height: int) -> None:
        """``height`` px more empty room at the bottom of a view's scrolled body
        (``area``) while the strip shows, so that the body's last plot can scroll up
        above the strip (a deck reveal of the last plot,
        :meth:`FocusController._bring_into_view`: at the end of the scroll range its
        bottom stayed under the strip). Gone with the strip or the view."""
        body = area.widget()
        layout = body.layout() if body is not None else None
        if height <= 0 or body is None or layout is None or not self.visible:
            return
        room = self.room
        if room is not None and shiboken6.isValid(room) and room.parentWidget() is body:
            room.setFixedHeight(room.height() + height)
        else:
            self.drop_room()
            room = QtWidgets.QWidget(body)
            room.setObjectName("strip-room")
            room.setFixedHeight(height)
            layout.addWidget(room)
            room.show()  # (a child added to a shown body stays hidden until shown)
            self.room = room
        layout.activate()
        # the scroll range takes the room now (the area resizes its body on this event)
        request = QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest)
        QtCore.QCoreApplication.sendEvent(area, request)

    def drop_room(self) -> None:
        """Take away the room :meth:`make_room` made (the scroll range shrinks back)."""
        room, self.room = self.room, None
        if room is None or not shiboken6.isValid(room):
            return
        body = room.parentWidget()
        room.hide()
        room.setParent(None)
        room.deleteLater()
        layout = body.layout() if body is not None else None
        port = body.parentWidget() if body is not None else None  # (the area's viewport)
        area = port.parentWidget() if port is not None else None
        if layout is not None and isinstance(area, QtWidgets.QScrollArea):
            layout.activate()  # the scroll range shrinks back now, not a pass later
            request = QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest)
            QtCore.QCoreApplication.sendEvent(area, request)

    def strip_for(self, view_id: str) -> ParamStrip:
        """The strip of ``view_id`` (built on first use, its main parameter kept current)."""
        main = self.main_param(view_id)
        strip = self.strips.get(view_id)
        if strip is None:
            self.window.view_widget(view_id)  # creates its state
            strip = ParamStrip(self.window.states[view_id], main, self.window.stage)
            strip.covers = self.window.view_widget(view_id).set_covered
            strip.entered.connect(self.window.stage.setFocus)
            strip.hide()
            strip.installEventFilter(self)
            strip.restyle()
            self.strips[view_id] = strip
        elif strip.main != main:
            strip.set_main(main)
        return strip

    def show_strip(self) -> None:
        """Show the current view's strip (presentation mode only) and restart the timer."""
        if not self.display.presenting:
            return
        strip = self.strip_for(self.window.current_view)
        if self.strip is not None and self.strip is not strip:
            self.strip.hide()
        top = not strip.isVisible()
        self.strip = strip
        self._place()
        if top:  # shown anew: its first rows, the main parameter's
            strip.scroll_area.verticalScrollBar().setValue(0)
        strip.show()
        strip.raise_()
        self._place_sensor()  # the margins around the strip
        self._room_below()
        self.timer.start()

    def _room_below(self) -> None:
        """A view that scrolls gets room below its last plot as high as the strip
        covers, so that ↓ or the wheel brings every plot above the strip (RoPE at 150 %
        on 1920 x 1080: the score-vs-offset plot that the query position changes lay
        under the strip at the end of the scroll range)."""
        widget = self.window.views.get(self.window.current_view)
        if widget is None or not widget.scrolls or self.room is not None:
            return
        self.make_room(widget.scroll_area, self.covered(widget.scroll_area.viewport()))

    def hide_strip(self) -> None:
        """Hide the strip; the keyboard goes back to the stage if it was in the strip."""
        self.timer.stop()
        self.drop_room()
        if self.strip is not None and self.strip.isVisible():
            focus = QtWidgets.QApplication.focusWidget()
            self.strip.hide()
            if focus is not None and self.strip.isAncestorOf(focus):
                self.window.stage.setFocus()
        self._place_sensor()

    def toggle(self) -> None:
        """P: show or hide the strip."""
        self.hide_strip() if self.visible else self.show_strip()

    def _idle(self) -> None:
        # the pointer rests on it, or in the margins around it (below it, where the
        # pointer thrown to the bottom edge stays, or beside it): the lecturer is about
        # to use it; or a dialog is open (the strip's Browse… file dialog)
        modal = QtWidgets.QApplication.activeModalWidget() is not None
        if self.strip is not None and (
            modal or self.strip.underMouse() or self.sensor.underMouse()
        ):
            self.timer.start()
        else:
            self.hide_strip()

    def _place(self) -> None:
        stage, strip = self.window.stage, self.strip
        if strip is None:
            return
        margin = current_theme().scaled(8)
        width = max(200, stage.width() - 2 * margin)
        strip.setFixedWidth(width)
        strip.reflow(width)
        rows = strip.row_count()
        shown = min(SHOWN_ROWS, rows)
        while shown > 1 and strip.rows_height(shown) > STAGE_SHARE * stage.height():
            shown -= 1
        strip.set_hidden(strip.cells_below(shown))
        full = strip.fitting_height() if shown == rows else strip.rows_height(shown)
        # (and never over half the stage: a cell taller than that scrolls too)
        height = min(full, max(80, stage.height() // 2))
        strip.setFixedHeight(height)
        strip.move(margin, max(0, stage.height() - height - margin))
        strip.settle()

    def _place_sensor(self) -> None:
        """The bottom band of the stage while the strip is hidden (entering it shows
        the strip); while it shows, the margins around it, from its top down to the
        stage's bottom edge, the strip itself left out (the pointer resting there
        keeps it: it hid after :data:`IDLE_HIDE_MS` with the pointer at the bottom
        edge below it, or in the narrow margin beside its fields)."""
        stage = self.window.stage
        band = current_theme().scaled(EDGE_PX)
        mask: QtGui.QRegion | None = None
        if self.visible and self.strip is not None:
            strip = self.strip.geometry()
            band = max(stage.height() - strip.top(), 0)
            # the strip's fields take the pointer: the sensor is only around them
            around = QtGui.QRegion(0, 0, stage.width(), band)
            mask = around.subtracted(QtGui.QRegion(strip.translated(0, -strip.top())))
        self.sensor.setGeometry(0, stage.height() - band, stage.width(), band)
        self.sensor.covering = mask is not None
        self.sensor.update()
        if mask is None:
            self.sensor.clearMask()
        else:
            self.sensor.setMask(mask)
        self.sensor.setVisible(self.display.presenting and band > 0)
        if self.sensor.isVisible():
            self.sensor.raise_()

    def _display_changed(self) -> None:
        if not self.display.presenting:
            self.hold_nudge(False)  # (its key's release is no longer seen here)
        self.action.setEnabled(self.display.presenting)
        self._filter_keys(self.display.presenting)
        for strip in self.strips.values():
            strip.restyle()
        if not self.display.presenting:
            self.hide_strip()
        elif self.visible:
            self._place()
        self._place_sensor()

    def _filter_keys(self, on: bool) -> None:
        """See the application's key events only while presenting (a Python filter on
        every event costs time; closed windows must not keep one)."""
        app = QtWidgets.QApplication.instance()
        if app is None or on == self.filtering:
            return
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
        self.filtering = on

    def _view_changed(self) -> None:
        self.hold_nudge(False)  # (its key's release goes to another view)
        self.drop_room()  # it belonged to the last view's body
        if self.visible:
            self.show_strip()  # the new view's strip in its place

    # ------------------------------------------------------------------ nudges
    def nudge(self, direction: int, large: bool = False) -> bool:
        """Move the current view's main parameter one step (``large``: one slider page);
        False when the view has none or the value is already at that end."""
        state = self.window.current_state
        name = self.main_param(state.view_id)
        if name is None:
            return False
        param = state.model[name]
        why = state.unused_why(name)
        if why is not None:  # (a change would show nothing: say why instead)
            state.error.emit(f"{param.label}: not used now ({why})")
            return False
        old, new = step_drawn(param, state.values, direction, page=large)
        if new == old:
            return False
        accepted = state.set_param(name, new)
        if self.visible:
            self.timer.start()
        return accepted

    def hold_nudge(self, held: bool) -> None:
        """A run of nudges begins or goes on (``held``: a nudge key pressed) or is over
        (the key let go :data:`NUDGE_RUN_MS` ago, another view, the stage left): while
        it goes on, its nudges are one drag of the current view
        (:attr:`ViewWidget.nudge_held`).

        A key held down nudges 25-30 times a second (auto-repeat), each nudge a live
        frame; a frame later than the view's full-quality interval (150 ms: a loaded
        machine, a slow view) ended the drag, the formula line took the new value's
        height and the plots below jumped while the key was still held (Sinusoidal's
        base nudged across 224.3 on the 1920 x 1080 stage at 200 %: the longest
        wavelength gains a power of ten, the formula 122 -> 132 px). Let go, the view
        settles as after a drag."""
        self.nudge_run.stop()
        widget = self.window.views.get(self.window.current_view) if held else None
        if widget is self._nudged:
            return
        if self._nudged is not None:
            self._nudged.nudge_held = False
        self._nudged = widget
        if widget is not None:
            widget.nudge_held = True

    def _application_state(self, state: QtCore.Qt.ApplicationState) -> None:
        """The app lost the keyboard (another window, a screen lock): a nudge key held
        now is let go where its release is not seen, so its run ends here. Before, the
        view stayed in the run's drag (the formula line held) until the next
        full-quality frame, resize or key."""
        if state != QtCore.Qt.ApplicationState.ApplicationActive and shiboken6.isValid(self):
            self.hold_nudge(False)  # (a closed window's controls: nothing held)

    def _nudge_event(self, obj: QtCore.QObject, event: QtGui.QKeyEvent) -> int:
        """The direction of ``event`` when it is a nudge key for the stage, else 0."""
        direction = _NUDGE_KEYS.get(Key(event.key()), 0)
        mods = event.modifiers() & ~QtCore.Qt.KeyboardModifier.KeypadModifier
        if (
            not direction
            or not self.display.presenting
            or mods
            not in (QtCore.Qt.KeyboardModifier.NoModifier, QtCore.Qt.KeyboardModifier.ShiftModifier)
            or not isinstance(obj, QtWidgets.QWidget)
            or obj.window() not in self.key_windows
            or isinstance(obj, EDITOR_WIDGETS)  # a focused field or slider keeps its arrows
        ):
            return 0
        return direction

    def _tab_into_strip(self, obj: QtCore.QObject, event: QtGui.QKeyEvent) -> bool:
        """Tab / Shift+Tab while the strip shows keep the keyboard in its fields: from
        the stage (after P) to its first (last) field, and from its last (first) field
        round to the first (last). Before, Tab from the stage went to the view's scroll
        area and canvas, where nothing shows the keyboard: the lecturer's "40" typed
        after P, Tab focused plot 4 and did nothing with 0. True when it moved the focus."""
        key = event.key()
        if (
            key not in (Key.Key_Tab, Key.Key_Backtab)
            or not self.visible
            or self.strip is None
            or event.modifiers()
            & ~(
                QtCore.Qt.KeyboardModifier.ShiftModifier | QtCore.Qt.KeyboardModifier.KeypadModifier
            )
            or not isinstance(obj, QtWidgets.QWidget)
            or obj is not QtWidgets.QApplication.focusWidget()
            or obj.window() is not self.window.qt
        ):
            return False
        chain = [w for w in self.strip.tab_chain() if w.isEnabled() and w.isVisibleTo(self.strip)]
        if not chain:
            return False
        forward = key == Key.Key_Tab and not (
            event.modifiers() & QtCore.Qt.KeyboardModifier.ShiftModifier
        )
        if obj not in chain:
            target = chain[0] if forward else chain[-1]
        elif forward and obj is chain[-1]:
            target = chain[0]
        elif not forward and obj is chain[0]:
            target = chain[-1]
        else:
            return False  # (Qt's own order, set by ParamStrip._chain_tabs)
        reason = (
            QtCore.Qt.FocusReason.TabFocusReason
            if forward
            else QtCore.Qt.FocusReason.BacktabFocusReason
        )
        target.setFocus(reason)  # (a spin box selects its text: typing replaces it)
        self.timer.start()
        return True

    # ------------------------------------------------------------------ events
    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        # The application's filter while presenting: it sees every event of every object.
        # ``event.type()`` builds a Python enum (several microseconds), so it is asked only
        # of key events and of the stage's and the strip's own events.
        if not (isinstance(event, QtGui.QKeyEvent) or obj is self._stage or obj is self.strip):
            return False
        kind = event.type()
        if kind == QtCore.QEvent.Type.ShortcutOverride and isinstance(event, QtGui.QKeyEvent):
            if self._nudge_event(obj, event):
                event.accept()  # not the deck's Left/Right: the key press comes to us
                return True
            if (
                self.visible
                and isinstance(obj, QtWidgets.QLineEdit)
                and self.strip is not None
                and self.strip.isAncestorOf(obj)
                and event.key() == Key.Key_P
            ):
                event.accept()  # "p" typed into a text field of the strip
                return True
        elif kind == QtCore.QEvent.Type.KeyPress and isinstance(event, QtGui.QKeyEvent):
            if self._tab_into_strip(obj, event):
                return True
            direction = self._nudge_event(obj, event)
            if direction:
                shift = event.modifiers() & QtCore.Qt.KeyboardModifier.ShiftModifier
                self.hold_nudge(True)  # (until the key is let go: one drag)
                self.nudge(direction, large=bool(shift))
                return True
            if (
                self.visible
                and isinstance(obj, QtWidgets.QWidget)
                and self.strip is not None
                and self.strip.isAncestorOf(obj)
            ):
                self.timer.start()  # typing in the strip is using it
        elif kind == QtCore.QEvent.Type.KeyRelease and isinstance(event, QtGui.QKeyEvent):
            # a nudge key let go (not auto-repeat's release before its next press),
            # wherever the release goes now (Shift let go first, another focus): the
            # run is over unless the key is pressed again soon
            if (
                self._nudged is not None
                and Key(event.key()) in _NUDGE_KEYS
                and not event.isAutoRepeat()
            ):
                self.nudge_run.start()
        elif obj is self._stage and kind == QtCore.QEvent.Type.Resize:
            if self.visible:
                self._place()
            self._place_sensor()
        elif obj is self.strip and kind in (
            QtCore.QEvent.Type.Enter,
            QtCore.QEvent.Type.HoverMove,
        ):
            self.timer.start()
        return False


def install_stage_controls(
    window: StudioWindow, display: DisplayController, main_param: Callable[[str], str | None]
) -> StageControls:
    """Add the parameter strip and nudge keys to ``window`` (registered as a feature)."""
    return window.add_feature(StageControls(window, display, main_param))
