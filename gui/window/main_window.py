"""Main window: view list, generated parameter panels, live views, status bar."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from core.backend import BACKEND_CHOICES, NUMPY, Backend, resolve_backend
from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.theme import current_theme, stylesheet
from gui.widgets.param_panel import ParamPanel
from gui.widgets.state import ViewState
from gui.widgets.view_widget import ViewWidget
from gui.window.engine import UpdateEngine

MIN_CELLS, MAX_CELLS = 128, 1024


class MainWindow(QtWidgets.QMainWindow):
    """The application window.

    Attributes
    ----------
    states
        One :class:`ViewState` per view id (the single source of truth).
    engine
        The coalescing :class:`UpdateEngine`.
    """

    backend_changed = QtCore.Signal(object)  # Backend
    first_frame = QtCore.Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Positional Encoding Studio")
        self.resize(1600, 1000)
        self.backend: Backend = NUMPY
        self._cells = 512
        self._first_frame_done = False
        self.engine = UpdateEngine(self._compute_context, self)
        self.engine.ready.connect(self._on_ready)
        self.engine.failed.connect(self._on_failed)
        self.states: dict[str, ViewState] = {}
        self.panels: dict[str, ParamPanel] = {}
        self.views: dict[str, ViewWidget] = {}
        self._build_ui()
        self.backend_changed.connect(self._apply_backend)
        self.set_view(next(iter(VIEWS)))

    # ------------------------------------------------------------------ layout
    def _build_ui(self) -> None:
        self.view_list = QtWidgets.QListWidget(self)
        self.view_list.setObjectName("view-list")
        for i, (vid, spec) in enumerate(VIEWS.items(), start=1):
            item = QtWidgets.QListWidgetItem(f"{i}  {spec.title}")
            item.setData(QtCore.Qt.ItemDataRole.UserRole, vid)
            item.setToolTip(f"{spec.title} (Ctrl+{i}) — id '{vid}'")
            self.view_list.addItem(item)
        row_height = int(self.view_list.fontMetrics().height() * 1.5)
        self.view_list.setFixedHeight(row_height * len(VIEWS) + 12)
        self.view_list.currentItemChanged.connect(
            lambda cur, _prev: cur and self.set_view(cur.data(QtCore.Qt.ItemDataRole.UserRole))
        )
        self.panel_stack = QtWidgets.QStackedWidget(self)
        scroll = QtWidgets.QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.panel_stack)
        side = QtWidgets.QWidget(self)
        side_layout = QtWidgets.QVBoxLayout(side)
        side_layout.addWidget(self.view_list)
        side_layout.addWidget(scroll, 1)
        self.side = QtWidgets.QDockWidget("Views and parameters", self)
        self.side.setObjectName("side-dock")
        self.side.setWidget(side)
        self.side.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.side.setMinimumWidth(360)
        self.addDockWidget(QtCore.Qt.DockWidgetArea.LeftDockWidgetArea, self.side)
        self.view_stack = QtWidgets.QStackedWidget(self)
        self.setCentralWidget(self.view_stack)
        self.backend_label = QtWidgets.QLabel("backend: numpy", self)
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
        self._build_actions()
        self.setStyleSheet(stylesheet(current_theme()))

    def add_action(
        self,
        menu: QtWidgets.QMenu,
        text: str,
        shortcut: str | QtGui.QKeySequence,
        slot: Callable[[], object],
        name: str,
    ) -> QtGui.QAction:
        """Create a menu action with a shortcut (also active in presentation mode)."""
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
        self.add_action(
            self.edit_menu,
            "&Undo",
            QtGui.QKeySequence.StandardKey.Undo,
            lambda: self.current_state.undo(),
            "action-undo",
        )
        self.add_action(
            self.edit_menu,
            "&Redo",
            "Ctrl+Shift+Z",
            lambda: self.current_state.redo(),
            "action-redo",
        )
        self.add_action(
            self.edit_menu,
            "Reset &all parameters",
            "Ctrl+R",
            lambda: self.current_state.reset(),
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

    # ------------------------------------------------------------------ views
    @property
    def current_view(self) -> str:
        return self._current

    @property
    def current_state(self) -> ViewState:
        return self.states[self._current]

    def view_widget(self, view_id: str) -> ViewWidget:
        """The widget of ``view_id`` (created, with its state and panel, on first use)."""
        if view_id not in self.views:
            spec = VIEWS[view_id]
            state = ViewState(spec.model, self)
            widget = ViewWidget(spec, self)
            panel = ParamPanel(state, self)
            state.changed.connect(lambda values, v=view_id: self.engine.request(v, values))
            state.error.connect(widget.show_error)
            widget.rendered.connect(self._on_rendered)
            self.states[view_id], self.views[view_id], self.panels[view_id] = state, widget, panel
            self.view_stack.addWidget(widget)
            self.panel_stack.addWidget(panel)
            self.engine.request(view_id, state.values)
        return self.views[view_id]

    def set_view(self, view_id: str) -> None:
        """Show ``view_id`` (ValueError if unknown)."""
        if view_id not in VIEWS:
            raise ValueError(f"unknown view '{view_id}'")
        widget = self.view_widget(view_id)
        self._current = view_id
        self.view_stack.setCurrentWidget(widget)
        self.panel_stack.setCurrentWidget(self.panels[view_id])
        for row in range(self.view_list.count()):
            item = self.view_list.item(row)
            if item.data(QtCore.Qt.ItemDataRole.UserRole) == view_id:
                blocker = QtCore.QSignalBlocker(self.view_list)
                self.view_list.setCurrentRow(row)
                del blocker

    def toggle_fullscreen(self) -> None:
        self.setWindowState(self.windowState() ^ QtCore.Qt.WindowState.WindowFullScreen)

    # ------------------------------------------------------------------ engine
    def _compute_context(self) -> ComputeContext:
        return ComputeContext(max_cells=self._cells, max_points=2048, backend=self.backend)

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        width = self.view_stack.width() * self.devicePixelRatioF()
        self._cells = int(min(MAX_CELLS, max(MIN_CELLS, width // 2)))

    def _on_ready(self, view_id: str, generation: int, data: object) -> None:
        if self.engine.is_current(view_id, generation) and view_id in self.views:
            self.views[view_id].show_data(data, live=True)

    def _on_failed(self, view_id: str, generation: int, message: str) -> None:
        if self.engine.is_current(view_id, generation) and view_id in self.views:
            self.views[view_id].show_error(message)
            self.statusBar().showMessage(message, 8000)

    def _on_rendered(self) -> None:
        if not self._first_frame_done:
            self._first_frame_done = True
            self.first_frame.emit()

    def wait_idle(self, timeout_s: float = 10.0) -> bool:
        """Process events until every requested view has been drawn (tests, CLI)."""
        deadline = time.monotonic() + timeout_s
        app = QtWidgets.QApplication.instance()
        while time.monotonic() < deadline:
            app.processEvents()
            if self.engine.idle() and all(
                w.data is not None
                and w.data.params == self.states[v].values
                or w.banner.isVisible()
                for v, w in self.views.items()
            ):
                app.processEvents()
                for widget in self.views.values():
                    widget.flush_text()
                return True
            time.sleep(0.002)
        return False

    # ------------------------------------------------------------------ backend
    def choose_backend(self, choice: str) -> None:
        """Resolve a backend in the background (importing torch can take a second)."""
        self.backend_label.setText(f"backend: resolving {choice}…")

        def work() -> None:
            self.backend_changed.emit(resolve_backend(choice))

        threading.Thread(target=work, name="pe-studio-backend", daemon=True).start()

    def _apply_backend(self, backend: Backend) -> None:
        self.backend = backend
        self.backend_label.setText(f"backend: {backend.label}")
        self.backend_label.setToolTip(backend.note)
        self.statusBar().showMessage(backend.note, 8000)
        for vid, state in self.states.items():
            self.engine.request(vid, state.values)

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.engine.stop()
        super().closeEvent(event)
