"""What features (lecture, export, settings) may use of the main window.

:class:`StudioWindow` is the whole surface: the views and their states, menus and
actions, the status line, the shared settings store, a registry for the features
themselves, and the Qt window for generic Qt use (a parent for dialogs and docks, window
geometry, full screen). :class:`gui.window.main_window.MainWindow` implements it; the
features are typed against it and use nothing else of the window (a test reads their
source to check), so the window's internals (engine, panels, view list) can change
without touching them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, TypeVar, runtime_checkable

from PySide6 import QtCore, QtGui, QtWidgets

from gui.widgets.state import ViewState
from gui.widgets.view_widget import ViewWidget
from gui.window.store import SettingsStore

F = TypeVar("F")

MENU_NAMES = ("file", "edit", "view", "help")


class UndoSource(Protocol):
    """Edits outside the views' parameters that Ctrl+Z / Ctrl+Shift+Z undo and redo
    (the deck's): asked first, each takes the step only when its own last step is the
    latest one and returns whether it did."""

    def undo(self) -> bool:
        """Undo the last edit when it is the latest step; ``False`` otherwise."""
        ...

    def redo(self) -> bool:
        """Redo the edit undone last when that undo was the latest step; ``False``
        otherwise."""
        ...

    def undo_text(self) -> str:
        """What :meth:`undo` would undo now ("removing scene 3 “Rotation”"), for the
        Edit menu; ``""`` when it would not take the step."""
        ...

    def redo_text(self) -> str:
        """What :meth:`redo` would redo now; ``""`` when it would not take the step."""
        ...

    def undo_waiting(self) -> tuple[str, str] | None:
        """Where to go to undo its last edit when later changes of another view come
        first: that view's id and what the edit did (``("sinusoidal", "removing scene
        2 “b”")``); ``None`` when none waits."""
        ...

    def redo_waiting(self) -> tuple[str, str] | None:
        """Where to go to redo the edit undone last when later changes of another view
        come first (as :meth:`undo_waiting`); ``None`` when none waits."""
        ...


@runtime_checkable
class StudioWindow(Protocol):
    """The main window as features see it.

    Signals
    -------
    first_frame()
        The first view has been drawn.
    view_changed(str)
        Another view is shown (its id).
    """

    first_frame: QtCore.SignalInstance
    view_changed: QtCore.SignalInstance

    @property
    def current_view(self) -> str:
        """Id of the view shown."""
        ...

    @property
    def current_state(self) -> ViewState:
        """Parameters of the view shown."""
        ...

    @property
    def states(self) -> Mapping[str, ViewState]:
        """The parameter state of every view created so far."""
        ...

    @property
    def views(self) -> Mapping[str, ViewWidget]:
        """Every view widget created so far."""
        ...

    @property
    def stage(self) -> QtWidgets.QWidget:
        """The area showing the current view (overlays are placed on it)."""
        ...

    @property
    def settings(self) -> SettingsStore:
        """The one settings store of the window."""
        ...

    @property
    def qt(self) -> QtWidgets.QMainWindow:
        """The window as a Qt main window (dialog parent, docks, geometry, full screen)."""
        ...

    def view_widget(self, view_id: str) -> ViewWidget:
        """The widget of ``view_id``, created (with its state) on first use."""
        ...

    def set_view(self, view_id: str, *, new_values: bool = False) -> None:
        """Show ``view_id`` (ValueError if unknown); ``new_values``: it was just given
        other values (the stage keeps its picture until they are drawn)."""
        ...

    def view_error(self, view_id: str) -> str:
        """The problem of the view's latest computation, ``""`` when it succeeded."""
        ...

    def menu(self, name: str) -> QtWidgets.QMenu:
        """The top-level menu ``name`` (one of :data:`MENU_NAMES`)."""
        ...

    def add_action(
        self,
        menu: QtWidgets.QMenu | str,
        text: str,
        shortcut: str | QtGui.QKeySequence | QtGui.QKeySequence.StandardKey,
        slot: Callable[[], object],
        name: str,
    ) -> QtGui.QAction:
        """A menu action with a window-wide shortcut."""
        ...

    def show_status(self, message: str, timeout_ms: int = 5000) -> None:
        """Show one line in the status bar."""
        ...

    def withdraw_status(self, message: str) -> None:
        """Take ``message`` away (status bar and stage) if it still shows."""
        ...

    def fit_status(self, head: str, detail: str = "", tail: str = "") -> str:
        """``head + detail + tail`` with ``detail`` cut short to fit the status bar."""
        ...

    def status_fits(self, message: str) -> bool:
        """Whether ``message`` shows whole in the status bar."""
        ...

    def wait_idle(self, timeout_s: float = 10.0) -> bool:
        """Process events until every requested view is drawn or has failed."""
        ...

    def add_undo_source(self, source: UndoSource) -> None:
        """Let ``source`` take Undo / Redo before the current view's parameters."""
        ...

    def add_feature(self, feature: F) -> F:
        """Register ``feature`` (one per type); returns it."""
        ...

    def feature(self, kind: type[F]) -> F:
        """The registered feature of type ``kind`` (LookupError if none)."""
        ...

    def find_feature(self, kind: type[F]) -> F | None:
        """The registered feature of type ``kind``, ``None`` if none."""
        ...
