"""Main window: view list, generated parameter panels, live views, status bar."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from core.backend import BACKEND_CHOICES, NUMPY, Backend, resolve_backend
from core.viewdata import ComputeContext, ViewData
from core.views import VIEWS
from gui.theme import current_theme, install_control_scaling, stylesheet
from gui.widgets.panel_stack import PanelStack
from gui.widgets.param_panel import ParamPanel
from gui.widgets.stage_toast import StageToast
from gui.widgets.state import ViewState
from gui.widgets.steady_scroll import SteadyScrollArea
from gui.widgets.view_list import ViewChooser
from gui.widgets.view_widget import ViewWidget
from gui.window.engine import UpdateEngine
from gui.window.protocol import MENU_NAMES, UndoSource
from gui.window.store import MemoryStore, SettingsStore

MIN_CELLS, MAX_CELLS = 128, 1024
F = TypeVar("F")
SIDE_MIN_WIDTH = 360  # px: the side dock's narrowest (at 100 %; it widens with the fonts)
SIDE_MAX_SHARE = 0.5  # of the window's width at most, whatever the UI scale
UNDO_TEXT_CHARS = 70  # the Edit menu names a deck step in at most this many characters
# ms a picture of the previous view stays over the stage at most while the view switched
# to is drawn (see MainWindow._hold_stage): then the view shows, drawn or not
HOLD_MAX_MS = 5000


# the needs of panels not built yet (MainWindow._unbuilt_panel_need), by view and style
_UNBUILT_NEEDS: dict[tuple, int] = {}


def _panel_need(panel: ParamPanel) -> int:
    """The width ``panel`` needs: its rows' labels beside their fields, every spin box
    at its whole hint."""
    return max(panel.minimumSizeHint().width(), panel.side_by_side_width())


def backend_text(backend: Backend, choice: str) -> str:
    """The status bar's words before the backend box: the backend in use only where the
    box does not already say it ("backend: numpy" beside a box saying numpy read twice)."""
    if backend.label == choice:
        return "Backend:"
    return f"Backend in use: {backend.label}; chosen:"


class MainWindow(QtWidgets.QMainWindow):
    """The application window; implements :class:`gui.window.protocol.StudioWindow`.

    Every compute request carries the :class:`ComputeContext` of the moment (the plot
    size decides how finely long axes are sampled); when the plot area changes size,
    the view shown is recomputed for the new size, and a hidden one when it is shown.

    Parameters
    ----------
    settings
        The settings store features share (default: an empty in-memory store).

    Attributes
    ----------
    engine
        The coalescing :class:`UpdateEngine`.
    panels
        One :class:`ParamPanel` per created view.
    """

    backend_changed = QtCore.Signal(object)  # Backend
    first_frame = QtCore.Signal()
    view_changed = QtCore.Signal(str)  # the id of the view now shown

    def __init__(self, settings: SettingsStore | None = None) -> None:
        super().__init__()
        self.setWindowTitle("Positional Encoding Studio")
        self.resize(1600, 1000)
        self.backend: Backend = NUMPY
        self._settings: SettingsStore = settings if settings is not None else MemoryStore()
        self._features: dict[type, object] = {}
        self._cells = 512
        self._first_frame_done = False
        self._current = ""
        self.engine = UpdateEngine(self.compute_context, self)
        self.engine.ready.connect(self._on_ready)
        self.engine.failed.connect(self._on_failed)
        self._states: dict[str, ViewState] = {}
        self.panels: dict[str, ParamPanel] = {}
        self._views: dict[str, ViewWidget] = {}
        self._requested: dict[str, ComputeContext] = {}  # context of the newest request
        self._settled: dict[str, int] = {}  # generation drawn (or failed) last, per view
        self._shown_context: dict[str, ComputeContext] = {}  # context of the data on screen
        self._errors: dict[str, str] = {}  # the latest computation's problem, per view
        # per view, the request for a new plot area (no parameter moved): its frame is
        # drawn in full quality at once (see _resample)
        self._resampled: dict[str, int] = {}
        self._undo_sources: list[UndoSource] = []  # asked before the view's own undo
        # the views whose own change Ctrl+Z undid, the latest last (where a redo waits)
        self._undone_in: list[str] = []
        self._build_ui()
        # a picture of the stage as it was, over a view switched to until it is drawn
        self.stage_cover = QtWidgets.QLabel(self.view_stack)
        self.stage_cover.setObjectName("stage-cover")
        self.stage_cover.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.stage_cover.hide()
        self._held_for = ""  # the view the cover waits for ("" when it is not up)
        self._showing_cover = False  # (inside the picture's show: see _raise_cover)
        self.stage_holds = 0  # times the cover went up (tests)
        self._hold_timer = QtCore.QTimer(self)
        self._hold_timer.setSingleShot(True)
        self._hold_timer.setInterval(HOLD_MAX_MS)
        self._hold_timer.timeout.connect(self.release_stage)
        self.backend_changed.connect(self._apply_backend)
        self.set_view(next(iter(VIEWS)))

    # ------------------------------------------------------------------ layout
    def _build_ui(self) -> None:
        side = QtWidgets.QWidget(self)
        # the view list, one line at a scale where it would take the parameters' height
        self.view_chooser = ViewChooser(side, self._parameters_room)
        self.view_list = self.view_chooser.list
        for i, (vid, spec) in enumerate(VIEWS.items(), start=1):
            self.view_chooser.add_view(
                vid, f"{i}  {spec.title}", f"{spec.title} (Ctrl+{i}) — id '{vid}'"
            )
        self.view_chooser.chosen.connect(self.set_view)
        self.panel_stack = PanelStack(self)
        scroll = SteadyScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.panel_stack)
        side_layout = QtWidgets.QVBoxLayout(side)
        side_layout.addWidget(self.view_chooser)
        side_layout.addWidget(scroll, 1)
        self.side = QtWidgets.QDockWidget("Views and parameters", self)
        self.side.setObjectName("side-dock")
        self.side.setWidget(side)
        self.side.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.side.setMinimumWidth(SIDE_MIN_WIDTH)
        self.addDockWidget(QtCore.Qt.DockWidgetArea.LeftDockWidgetArea, self.side)
        self._side_stale = False  # a fit skipped while the dock was hidden (fit_side_width)
        self.side.installEventFilter(self)
        self._side_scroll = scroll
        # the dock re-fits its width to the panels' fonts once a re-style or resize is over
        self._side_timer = QtCore.QTimer(self)
        self._side_timer.setSingleShot(True)
        self._side_timer.setInterval(0)
        self._side_timer.timeout.connect(self.fit_side_width)
        self.view_stack = QtWidgets.QStackedWidget(self)
        self.view_stack.installEventFilter(self)  # its size decides the sampling
        self.setCentralWidget(self.view_stack)
        # the status bar's messages, on the stage while the status bar is hidden
        self.stage_toast = StageToast(self, self.view_stack)
        self.statusBar().installEventFilter(self)  # back (off stage): the toast goes
        self.backend_label = QtWidgets.QLabel("Backend:", self)  # (the box: numpy)
        self.backend_label.setObjectName("backend-label")
        self.statusBar().addPermanentWidget(self.backend_label)
        self.backend_combo = QtWidgets.QComboBox(self)
        self.backend_combo.setObjectName("backend-combo")
        self.backend_combo.addItems(list(BACKEND_CHOICES))
        self.backend_combo.setCurrentText("numpy")
        self.backend_combo.setToolTip(
            "Array backend: numpy, or torch (CPU / CUDA / MPS) when "
            "installed. Unavailable choices fall back to numpy."
        )
        self.backend_combo.currentTextChanged.connect(self.choose_backend)
        self.statusBar().addPermanentWidget(self.backend_combo)
        # a message gets the label's room too (the box stays): at 300 % on 1280 x 720
        # about 34 characters showed left of "Backend:"
        self.statusBar().messageChanged.connect(
            lambda text: self.backend_label.setVisible(not text)
        )
        self._build_actions()
        app = QtWidgets.QApplication.instance()
        if isinstance(app, QtWidgets.QApplication):
            install_control_scaling(app)  # check boxes, arrows, scroll bars follow the scale
        self.setStyleSheet(stylesheet(current_theme()))

    def add_action(
        self,
        menu: QtWidgets.QMenu | str,
        text: str,
        shortcut: str | QtGui.QKeySequence | QtGui.QKeySequence.StandardKey,
        slot: Callable[[], object],
        name: str,
    ) -> QtGui.QAction:
        """Create a menu action with a shortcut (also active in presentation mode).

        ``menu`` is a menu or the name of a top-level one (see :meth:`menu`).
        """
        if isinstance(menu, str):
            menu = self.menu(menu)
        action = QtGui.QAction(text, self)
        action.setObjectName(name)
        action.setShortcut(QtGui.QKeySequence(shortcut))
        action.setShortcutContext(QtCore.Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _=False: slot())
        menu.addAction(action)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.edit_menu = bar.addMenu("&Edit")
        self.view_menu = bar.addMenu("&View")
        self.help_menu = bar.addMenu("&Help")
        self.add_action(
            self.file_menu, "&Quit", QtGui.QKeySequence.StandardKey.Quit, self.close, "action-quit"
        )
        self._undo_action = self.add_action(
            self.edit_menu,
            "&Undo",
            QtGui.QKeySequence.StandardKey.Undo,
            self.undo,
            "action-undo",
        )
        self._redo_action = self.add_action(
            self.edit_menu,
            "&Redo",
            "Ctrl+Shift+Z",
            self.redo,
            "action-redo",
        )
        self.edit_menu.aboutToShow.connect(self._name_undo_steps)
        self.edit_menu.aboutToHide.connect(lambda: self._name_undo_steps(False))
        self.add_action(
            self.edit_menu,
            "Reset &all parameters",
            "Ctrl+R",
            self.reset_view,
            "action-reset",
        )
        for i, vid in enumerate(VIEWS, start=1):
            self.add_action(
                self.view_menu,
                f"{VIEWS[vid].title}",
                f"Ctrl+{i}",
                lambda v=vid: self.set_view(v),
                f"action-view-{vid}",
            )
        self.view_menu.addSeparator()
        self.add_action(
            self.view_menu, "&Full screen", "F11", self.toggle_fullscreen, "action-fullscreen"
        )

    def menu(self, name: str) -> QtWidgets.QMenu:
        """The top-level menu ``name``: ``file``, ``edit``, ``view`` or ``help``."""
        menus = (self.file_menu, self.edit_menu, self.view_menu, self.help_menu)
        by_name = dict(zip(MENU_NAMES, menus, strict=True))
        if name not in by_name:
            raise ValueError(f"menu must be one of {', '.join(MENU_NAMES)}, got {name!r}")
        return by_name[name]

    def add_undo_source(self, source: UndoSource) -> None:
        """Let ``source`` take Ctrl+Z / Ctrl+Shift+Z before the current view's
        parameters, when its last step is the latest (:class:`UndoSource`)."""
        self._undo_sources.append(source)

    def undo(self) -> None:
        """Ctrl+Z: undo the latest step of an undo source (a deck edit), else the
        current view's last change, or say that there is none (it did nothing without
        a word: a lecturer pressing it again and again)."""
        if any(source.undo() for source in self._undo_sources):
            return
        before = self.current_state.values
        if self.current_state.undo():
            self._undone_in = [v for v in self._undone_in if v != self._current]
            self._undone_in.append(self._current)
            self._say_done("Undone", before, back=True)
        else:
            # (a deck edit waiting behind another view's later changes: say where; it
            # said only "Nothing to undo in ALiBi", as if the edit could not be undone)
            waiting = next((w for s in self._undo_sources if (w := s.undo_waiting())), None)
            self._say_nothing("undo", waiting)

    def redo(self) -> None:
        """Ctrl+Shift+Z: redo what an undo source undid last, else an undone change of
        the current view, or say there is none."""
        if any(source.redo() for source in self._undo_sources):
            return
        before = self.current_state.values
        if self.current_state.redo():
            self._say_done("Redone", before)
        else:
            # (a change undone in another view, or a deck edit waiting behind a view's
            # later changes: say where; Ctrl+Shift+Z after Ctrl+Z in Word order and
            # Ctrl+1 said only "Nothing to redo in Sinusoidal")
            waiting = next((w for s in self._undo_sources if (w := s.redo_waiting())), None)
            self._say_nothing("redo", waiting or self._redo_waiting())

    def _say_done(self, head: str, before: Mapping[str, Any], *, back: bool = False) -> None:
        """The status line for a parameter change of the current view undone ("Undone")
        or redone ("Redone"): what it set, then the key that goes the other way
        ("Undone: Base back to 10000 (Ctrl+Shift+Z redoes it)"); where that is too long
        (300 % on 1280 x 720) the short form, "Undone: Base → 10000 (Ctrl+Shift+Z)",
        cut to the room with its key whole. (It said nothing: the line of an earlier
        action stayed, "Scene 4 already shows its values" after Ctrl+Z.)"""
        state = self.current_state
        after = state.values
        key = "Ctrl+Shift+Z" if back else "Ctrl+Z"
        verb = "redoes" if back else "undoes"
        what = state.change_text(before, after, back=back)
        line = f"{head}: {what} ({key} {verb} it)" if what else f"{head} ({key} {verb} it)"
        if not self.status_fits(line):
            short = state.change_text(before, after, back=back, short=True)
            line = self.fit_status(head, f": {short}" if short else "", f" ({key})")
        self.show_status(line, 5000)

    def _say_nothing(self, kind: str, waiting: tuple[str, str] | None) -> None:
        """The status line for a Ctrl+Z (``kind`` "undo") or Ctrl+Shift+Z ("redo") that
        found nothing in the current view: where the step waits, view and key first
        ("Undo waits in Word order (Ctrl+6): removing scene 2 “b”", what it is cut to
        the room left), else "Nothing to undo in RoPE". (The line that said nothing
        here first and where last was cut off before its key: about 34 characters
        show at 300 % on 1280 x 720.)"""
        if waiting is None:
            self.show_status(f"Nothing to {kind} in {VIEWS[self._current].title}", 3000)
            return
        view_id, what = waiting
        key = f"Ctrl+{list(VIEWS).index(view_id) + 1}"
        head = f"{kind.capitalize()} waits in {VIEWS[view_id].title} ({key})"
        self.show_status(self.fit_status(head, f": {what}" if what else ""), 6000)

    def _redo_waiting(self) -> tuple[str, str] | None:
        """The view where Ctrl+Shift+Z redoes a change undone last in another view, and
        no word on what (``None`` when none waits: none was undone, or a later change
        there dropped it)."""
        for view_id in reversed(self._undone_in):
            if view_id != self._current and self.states[view_id].redo_values is not None:
                return view_id, ""
        return None

    def status_room(self) -> int:
        """The width in pixels a status-bar message shows in: up to the backend box, as
        QStatusBar draws it (the "Backend:" label left of it hides while a message
        shows; the box keeps its place at the right)."""
        if self.backend_combo.isVisible():
            return self.backend_combo.x() - 2 - 6
        return self.statusBar().width() - 12 - 6

    def status_fits(self, message: str) -> bool:
        """Whether ``message`` shows whole in the status bar (:meth:`status_room`)."""
        return self.statusBar().fontMetrics().horizontalAdvance(message) <= self.status_room()

    def fit_status(self, head: str, detail: str = "", tail: str = "") -> str:
        """``head + detail + tail`` cut to fit the status bar (:meth:`status_room`)
        with ``head`` and ``tail`` (a key) whole: a quoted title at the end of
        ``detail`` is cut short first ("removing scene 2 “Linear…”"), then left out
        ("removing scene 2"); ``detail`` is cut or left out only after that."""
        metrics = self.statusBar().fontMetrics()
        room = self.status_room() - metrics.horizontalAdvance(head + tail)
        if not detail or metrics.horizontalAdvance(detail) <= room:
            return head + detail + tail
        elide = QtCore.Qt.TextElideMode.ElideRight
        start = detail.rfind("\u201c")
        if start > 0 and detail.endswith("\u201d"):
            before, title = detail[: start + 1], detail[start + 1 : -1]
            left = room - metrics.horizontalAdvance(before + "\u201d")
            cut = metrics.elidedText(title, elide, left)
            if len(cut) > 3:  # (a few letters of the title, then "…")
                return f"{head}{before}{cut}\u201d{tail}"
            detail = before[:-1].rstrip()
            if metrics.horizontalAdvance(detail) <= room:
                return head + detail + tail
        cut = metrics.elidedText(detail, elide, room)
        return head + (cut if len(cut) > 6 else "") + tail

    def _name_undo_steps(self, name: bool = True) -> None:
        """The Edit menu's Undo and Redo name an undo source's step they would take
        ("Undo removing scene 3 “Rotation”"; after a deck edit they said only "Undo");
        plain again when the menu closes (the shortcut list shows the actions' names)."""
        undo_text = redo_text = ""
        if name:
            undo_text = next((t for s in self._undo_sources if (t := s.undo_text())), "")
            redo_text = next((t for s in self._undo_sources if (t := s.redo_text())), "")
        for action, label, text in (
            (self._undo_action, "&Undo", undo_text),
            (self._redo_action, "&Redo", redo_text),
        ):  # (a scene title's "&" is no mnemonic; a long one is cut: a menu never wraps)
            if len(text) > UNDO_TEXT_CHARS:
                text = text[: UNDO_TEXT_CHARS - 1].rstrip() + "\u2026"
            action.setText(f"{label} {text.replace('&', '&&')}" if text else label)

    def show_status(self, message: str, timeout_ms: int = 5000) -> None:
        """Show ``message`` in the status bar for ``timeout_ms`` (0: until replaced);
        with the status bar hidden (on stage), on the stage for a moment
        (:class:`~gui.widgets.stage_toast.StageToast`)."""
        self.statusBar().showMessage(message, timeout_ms)
        if self.statusBar().isHidden():
            self.stage_toast.say(message)

    def withdraw_status(self, message: str) -> None:
        """Take ``message`` away while it still shows (in the status bar, on the stage):
        it says something that is no longer so (a focused panel's "Panel 1 of 6 fills
        the stage" stayed after going back to all panels). Another message stays."""
        if self.statusBar().currentMessage() == message:
            self.statusBar().clearMessage()
        self.stage_toast.withdraw(message)

    # ------------------------------------------------------------------ features
    @property
    def settings(self) -> SettingsStore:
        """The settings store the features share."""
        return self._settings

    @property
    def qt(self) -> QtWidgets.QMainWindow:
        """The window itself, as a Qt main window."""
        return self

    def add_feature(self, feature: F) -> F:
        """Register ``feature`` under its type (ValueError if one is registered)."""
        kind = type(feature)
        if kind in self._features:
            raise ValueError(f"a {kind.__name__} is installed already")
        self._features[kind] = feature
        return feature

    def find_feature(self, kind: type[F]) -> F | None:
        """The installed feature of type ``kind``, ``None`` when none is."""
        feature = self._features.get(kind)
        return feature if isinstance(feature, kind) else None

    def feature(self, kind: type[F]) -> F:
        """The installed feature of type ``kind`` (LookupError when none is)."""
        feature = self.find_feature(kind)
        if feature is None:
            raise LookupError(f"no {kind.__name__} is installed in this window")
        return feature

    # ------------------------------------------------------------------ views
    @property
    def current_view(self) -> str:
        return self._current

    @property
    def current_state(self) -> ViewState:
        return self._states[self._current]

    @property
    def states(self) -> Mapping[str, ViewState]:
        """One :class:`ViewState` per created view (the single source of truth)."""
        return self._states

    @property
    def views(self) -> Mapping[str, ViewWidget]:
        """The widget of every created view."""
        return self._views

    @property
    def stage(self) -> QtWidgets.QStackedWidget:
        """The area that shows the current view."""
        return self.view_stack

    def view_error(self, view_id: str) -> str:
        """The problem of the view's latest computation, ``""`` when it succeeded."""
        return self._errors.get(view_id, "")

    def shown_context(self, view_id: str) -> ComputeContext | None:
        """The context the data on screen was computed with (``None`` before any)."""
        return self._shown_context.get(view_id)

    def view_widget(self, view_id: str) -> ViewWidget:
        """The widget of ``view_id`` (created, with its state and panel, on first use)."""
        if view_id not in self._views:
            spec = VIEWS[view_id]
            state = ViewState(spec.model, self)
            widget = ViewWidget(spec, self)
            panel = ParamPanel(state, self)
            state.changed.connect(lambda _values, v=view_id: self.request(v))
            state.error.connect(widget.show_error)
            state.resolved.connect(widget.clear_error_of)
            # the stage takes the keyboard back after Enter in a field (lecture keys act)
            widget.setFocusPolicy(QtCore.Qt.FocusPolicy.ClickFocus)
            panel.entered.connect(
                lambda w=widget: w.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
            )
            widget.rendered.connect(self._on_rendered)
            self._states[view_id], self._views[view_id] = state, widget
            self.panels[view_id] = panel
            self._side_timer.start()  # its spin boxes may want a wider dock
            self.view_stack.addWidget(widget)
            self.panel_stack.addWidget(panel)
            self.request(view_id)
        return self._views[view_id]

    def set_view(self, view_id: str, *, new_values: bool = False) -> None:
        """Show ``view_id`` (ValueError if unknown). ``new_values``: the view was just
        given other values (a deck's scene): while it is not drawn, the stage keeps the
        previous picture as for another view (:meth:`_hold_stage`)."""
        if view_id not in VIEWS:
            raise ValueError(f"unknown view '{view_id}'")
        widget = self.view_widget(view_id)
        changed = view_id != self._current
        if changed or (new_values and not self.drawn(view_id)):
            # (the same view with new values, a deck's next scene: its heading changes
            # at once, its plots when the data is drawn; the picture keeps them together)
            self._hold_stage(view_id)
        self._current = view_id
        self.view_stack.setCurrentWidget(widget)
        if self._held_for:
            self._raise_cover()
        self.panel_stack.setCurrentWidget(self.panels[view_id])
        self._focus_stage(widget)
        self.view_chooser.set_current(view_id)
        self.view_chooser.fit()  # the list, or the line if these parameters need it
        if self._requested[view_id] != self.compute_context():
            self._resample(view_id)  # sized for another plot area while hidden
        if changed:
            self.view_changed.emit(view_id)

    def drawn(self, view_id: str) -> bool:
        """Whether the view's newest request has been drawn (or has failed)."""
        return (
            view_id in self._views
            and self._views[view_id].data is not None
            and self._settled.get(view_id) == self.engine.latest_generation(view_id)
        )

    def _hold_stage(self, view_id: str) -> None:
        """Keep the stage as it is (a picture of it, above the views and below the
        overlays) while ``view_id``, about to be shown, is not drawn yet: until its data
        is drawn (:meth:`_on_ready`) or fails, at most :data:`HOLD_MAX_MS`. The audience
        saw the new scene's heading over an empty white canvas for 1.3 s after Page Down
        to scene 16 of the lecture at 300 % (the view's plots built in 0.7 s after the
        view showed; longer on a loaded laptop); now the previous scene stays until the
        new one appears whole, heading and plots together. The same holds for a scene of
        the view shown with other values (its new heading showed over the old plots)."""
        if self.drawn(view_id) or not self.view_stack.isVisible():
            self.release_stage()
            return
        if not self._held_for:
            shown = self.view_stack.currentWidget()
            if shown is None or not shown.isVisible():
                return
            stage = self.view_stack
            area = QtCore.QRect(stage.mapTo(self, QtCore.QPoint(0, 0)), stage.size())
            cover = self.stage_cover
            toast = not self.stage_toast.isHidden()
            self.stage_toast.hide()  # (not in the picture: it hides on its own time)
            cover.setPixmap(self.grab(area))  # (the window's background and all)
            self.stage_toast.setVisible(toast)
            cover.setGeometry(stage.rect())
            self.stage_holds += 1
        self._held_for = view_id
        self._hold_timer.start()

    def _raise_cover(self) -> None:
        """The picture above the views (the page shown last is raised over it) and
        below what lies over the stage (a pen, a strip, a sheet)."""
        stage, cover = self.view_stack, self.stage_cover
        overlays = [
            child
            for child in stage.children()
            if isinstance(child, QtWidgets.QWidget)
            and child is not cover
            and stage.indexOf(child) < 0
        ]
        self._showing_cover = True
        try:
            cover.show()
        finally:
            self._showing_cover = False
        if not self._held_for:  # let go while it showed: the stage took a pending size
            self.release_stage()
            return
        cover.raise_()
        for child in overlays:
            child.raise_()

    def release_stage(self) -> None:
        """Show the view itself again (the picture of the previous one goes)."""
        self._hold_timer.stop()
        self._held_for = ""
        if self._showing_cover:
            # (from inside the picture's show: hidden there, the picture stayed on screen
            # with Qt's hidden flag set; :meth:`_raise_cover` lets it go once shown)
            return
        if not self.stage_cover.isHidden():
            self.stage_cover.hide()
            self.stage_cover.clear()

    @property
    def hold_max_ms(self) -> int:
        """The longest the previous scene's picture stays up waiting (ms; default
        :data:`HOLD_MAX_MS`): a ceiling for a slow machine, after which the view shows
        as it is."""
        return self._hold_timer.interval()

    @hold_max_ms.setter
    def hold_max_ms(self, ms: int) -> None:
        self._hold_timer.setInterval(int(ms))

    @property
    def stage_held(self) -> bool:
        """Whether a picture of the previous view covers the stage now."""
        return bool(self._held_for)

    def reset_view(self) -> None:
        """Ctrl+R: every parameter of the current view to its default, and every plot
        back to showing all of its data (undoes zooming and panning)."""
        self.current_state.reset()
        self.views[self._current].show_all_data()

    def _focus_stage(self, widget: ViewWidget) -> None:
        """After a view switch the keyboard goes to the stage, never to a field: the
        stacks pass the focus on to the first field of the new page (the caret landed in
        Word order's "Sentence A", so Space typed a space). The view list keeps it, and
        so does the deck's scene list: the window's own focus widget is asked, which a
        click sets while the window is not active yet (the application's was ``None``
        then: a click on a scene, the window inactive after a file dialog, gave the
        keyboard to the view, and Up / Down scrolled the plots instead of the list)."""
        focused = self.focusWidget()
        if (
            focused is None
            or focused.window() is not self
            or not focused.isVisible()
            or self.panel_stack.isAncestorOf(focused)
            or self.view_stack.isAncestorOf(focused)
        ):
            widget.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)

    def toggle_fullscreen(self) -> None:
        self.setWindowState(self.windowState() ^ QtCore.Qt.WindowState.WindowFullScreen)

    # ------------------------------------------------------------------ engine
    def compute_context(self) -> ComputeContext:
        """What a computation requested now is sized for (plot area, backend); its data
        is only drawn (exports compute their own)."""
        return ComputeContext(
            max_cells=self._cells, max_points=2048, backend=self.backend, for_display=True
        )

    def request(self, view_id: str) -> int:
        """Recompute ``view_id`` with its current parameters and context."""
        context = self.compute_context()
        self._requested[view_id] = context
        return self.engine.request(view_id, self._states[view_id].values, context)

    # ------------------------------------------------------------------ side dock
    def _parameters_room(self) -> tuple[int, int]:
        """``(height the parameters shown need, height of the side column for the view
        chooser and them)`` (see :class:`ViewChooser`)."""
        scroll = self._side_scroll
        frames = 2 * scroll.frameWidth()
        stack = self.panel_stack
        # as wide as beside a scroll bar: it fits whether the bar shows now or not (Qt
        # keeps a bar that is showing when the panel would fit without it)
        width = scroll.width() - frames - scroll.verticalScrollBar().sizeHint().width()
        need = stack.heightForWidth(width) if stack.hasHeightForWidth() else -1
        if need < 0:
            need = stack.sizeHint().height()
        column = self.side.widget()
        layout = column.layout()
        room = column.height()
        if layout is not None:
            margins = layout.contentsMargins()
            room -= margins.top() + margins.bottom() + max(layout.spacing(), 0)
        return need + frames, room

    def side_width_needed(self) -> int:
        """Width (px) the side dock needs for every view's parameter panel to show at
        its narrowest (spin boxes with their whole values, beside a wrapped label and
        the reset button), at the current fonts; at least :data:`SIDE_MIN_WIDTH`. The
        same whichever views were opened: a panel not built yet is measured as built
        (:meth:`_unbuilt_panel_need`; the dock was 447 px at 1280 x 720 / 150 % until
        RoPE or the clock was opened, then 498)."""
        need = 0
        for view_id in VIEWS:
            panel = self.panels.get(view_id)
            if panel is None:
                need = max(need, self._unbuilt_panel_need(view_id))
            else:
                need = max(need, _panel_need(panel))
        side_layout = self.side.widget().layout()
        margins = side_layout.contentsMargins() if side_layout is not None else None
        extra = (
            (margins.left() + margins.right() if margins is not None else 0)
            + 2 * self._side_scroll.frameWidth()
            + self._side_scroll.verticalScrollBar().sizeHint().width()
            + 2
            * self.side.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_DockWidgetFrameWidth)
            + 4
        )
        return max(SIDE_MIN_WIDTH, need + extra)

    def _unbuilt_panel_need(self, view_id: str) -> int:
        """:func:`_panel_need` of ``view_id``'s panel before it is built: a panel built
        for the measure (in the panel stack, never shown) at the window's style now,
        kept per view and style for every window of the process."""
        key = (view_id, self.styleSheet(), self.font().toString(), self.logicalDpiY())
        need = _UNBUILT_NEEDS.get(key)
        if need is None:
            if len(_UNBUILT_NEEDS) > 256:
                _UNBUILT_NEEDS.clear()
            state = ViewState(VIEWS[view_id].model, self)
            panel = ParamPanel(state, self.panel_stack)  # (not in its layout: hidden)
            panel.ensurePolished()
            need = _UNBUILT_NEEDS[key] = _panel_need(panel)
            panel.setParent(None)
            shiboken6.delete(panel)
            shiboken6.delete(state)
        return need

    def fit_side_width(self) -> None:
        """Give the side dock the width its panels need at the current UI scale, at most
        :data:`SIDE_MAX_SHARE` of the window (its panels scroll sideways beyond that).

        Not while the dock is hidden (presenting): it is fitted when it shows again. F5
        changes the style sheet (the stage's scale) and measured every view's panel for
        a dock nobody sees, building a panel for each view not opened yet (0.13 s CPU of
        the first F5 at a new scale, ~20 ms of the next ones)."""
        if self.side.isHidden():
            self._side_stale = True
            return
        self._side_stale = False
        bound = max(SIDE_MIN_WIDTH, int(self.width() * SIDE_MAX_SHARE))
        width = min(self.side_width_needed(), bound)
        if width != self.side.minimumWidth():
            self.side.setMinimumWidth(width)
            if self.side.isVisible():
                # with the docks sharing its column (the deck dock below it): the
                # column follows the scale both ways (one left at 300 % stayed wide)
                area = self.dockWidgetArea(self.side)
                docks = [self.side] + [
                    dock
                    for dock in self.findChildren(QtWidgets.QDockWidget)
                    if dock is not self.side
                    and dock.isVisible()
                    and not dock.isFloating()
                    and self.dockWidgetArea(dock) == area
                ]
                self.resizeDocks(docks, [width] * len(docks), QtCore.Qt.Orientation.Horizontal)

    def changeEvent(self, event: QtCore.QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.StyleChange, QtCore.QEvent.Type.FontChange):
            self._refit_side()  # new fonts (UI scale): new spin box hints

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refit_side()

    def _refit_side(self) -> None:
        timer = getattr(self, "_side_timer", None)  # (events before the dock exists)
        if timer is not None:
            timer.start()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if obj is self.view_stack and event.type() == QtCore.QEvent.Type.Resize:
            if hasattr(self, "stage_cover"):  # (resized while the window is built)
                self.release_stage()  # (a picture of another size)
                if not self.stage_toast.isHidden():
                    self.stage_toast.place()
            self._stage_resized()
        elif (
            obj is self.side
            and event.type() == QtCore.QEvent.Type.Show
            and getattr(self, "_side_stale", False)
        ):
            self._refit_side()  # (after leaving the stage re-styled the window)
        elif obj is self.statusBar() and event.type() == QtCore.QEvent.Type.Show:
            self.stage_toast.say("")  # (the status bar shows the message)
        return super().eventFilter(obj, event)

    def _stage_resized(self) -> None:
        """Size the sampling to the plot area; recompute the view shown if it changed."""
        width = self.view_stack.width() * self.devicePixelRatioF()
        cells = int(min(MAX_CELLS, max(MIN_CELLS, width // 2)))
        if cells != self._cells:
            self._cells = cells
            if self._current in self._states:
                self._resample(self._current)  # hidden views follow when shown

    def _resample(self, view_id: str) -> None:
        """Recompute ``view_id`` for the plot area it has now (F5, Esc, a resize, a view
        shown in another one than it was drawn for). No slider moves: its frame is drawn
        in full quality at once, not as a live frame whose draft (dashed curves and
        legend samples solid, lines aliased) waits for the full-quality timer. Leaving
        the stage drew the window's first frame so (the sampling follows the width), and
        on a busy machine the QA walk's picture of lecture scene 13 after Esc caught it.
        A later request (a drag meanwhile) is drawn live as before."""
        self._resampled[view_id] = self.request(view_id)

    def _on_ready(self, view_id: str, generation: int, data: ViewData) -> None:
        if self.engine.is_current(view_id, generation) and view_id in self._views:
            self._settled[view_id] = generation
            error = self._errors.pop(view_id, None)
            if error and self.statusBar().currentMessage() == error:
                # the problem is gone: its message went only after 8 s ("'th' not in A"
                # while sentence B, typed on, was valid again)
                self.statusBar().clearMessage()
            self._shown_context[view_id] = self._requested[view_id]
            held = view_id == self._held_for
            resampled = self._resampled.pop(view_id, None) == generation
            # (the first frame of a view switched to is drawn in full quality at once:
            # live, it showed draft curves and images for a moment, then the full ones;
            # so is a frame for a new plot area, :meth:`_resample`)
            self._views[view_id].show_data(data, live=not (held or resampled))
            self._states[view_id].set_used(data.used)  # (greyed-out fields show these)
            if held:
                self.release_stage()

    def _on_failed(self, view_id: str, generation: int, message: str) -> None:
        if self.engine.is_current(view_id, generation) and view_id in self._views:
            self._settled[view_id] = generation
            self._errors[view_id] = message
            self._states[view_id].set_used({})  # (nothing drawn with these values)
            self._states[view_id].mark_failed()  # (no undo step: Ctrl+Z skips them)
            self._views[view_id].show_error(message)
            if view_id == self._held_for:
                self.release_stage()
            if view_id == self._current:  # a hidden view's problem waits in its banner
                self.show_status(message, 8000)

    def _on_rendered(self) -> None:
        if not self._first_frame_done:
            self._first_frame_done = True
            self.first_frame.emit()

    def idle(self) -> bool:
        """Every view's newest request has been drawn or has failed."""
        return all(self._settled.get(v) == self.engine.latest_generation(v) for v in self._views)

    def wait_idle(self, timeout_s: float = 10.0) -> bool:
        """Process events until every requested view is drawn or failed (tests, CLI).

        A failure counts whether or not its banner is on screen (a hidden view's is
        not). Returns ``False`` when ``timeout_s`` passed first.
        """
        deadline = time.monotonic() + timeout_s
        app = QtWidgets.QApplication.instance()
        while time.monotonic() < deadline:
            app.processEvents()
            if self.idle():
                app.processEvents()
                for widget in self._views.values():
                    widget.flush_text()
                return True
            time.sleep(0.002)
        return False

    # ------------------------------------------------------------------ backend
    def choose_backend(self, choice: str) -> None:
        """Resolve a backend in the background (importing torch can take a second)."""
        self.backend_label.setText(f"Backend: resolving {choice}…")

        def work() -> None:
            self.backend_changed.emit(resolve_backend(choice))

        threading.Thread(target=work, name="pe-studio-backend", daemon=True).start()

    def _apply_backend(self, backend: Backend) -> None:
        self.backend = backend
        self.backend_label.setText(backend_text(backend, self.backend_combo.currentText()))
        self.backend_label.setToolTip(backend.note)
        self.show_status(backend.note, 8000)
        for vid in self._states:
            self.request(vid)

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.engine.stop()
        super().closeEvent(event)
