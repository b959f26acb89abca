"""Scenes and decks in the window: open/save files, the deck dock, stepping, titles.

:class:`DeckController` owns the loaded deck (a mutable list of scenes), the deck dock
(scene list, title and speaker-note fields); it emits ``note_changed`` whenever the
current scene or its note changes (the presenter view and the note strip of
:mod:`gui.lecture.presenter` follow it). Applying a
scene goes through :meth:`gui.widgets.state.ViewState.set_values` (all-or-nothing); a bad
file never changes anything and reports one line in the status bar and the current view's
banner. Opening a deck, going to another scene and editing the deck (adding, replacing,
removing, moving a scene, its title or note) are undone and redone by Ctrl+Z /
Ctrl+Shift+Z in turn with the views' parameters, each with the parameters its scene set
(:mod:`gui.lecture.deck_history`). The title and note fields edit the
scene shown, and only while it shows: with another view shown they are empty and off,
a line above them says how to get back to a scene.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets
from superqt.utils import signals_blocked

from core.resources import resource_path
from core.scenes import Deck, Scene, SceneError, load_deck, load_scene, save_deck, save_scene
from core.views import VIEWS
from gui.lecture.deck_history import DeckEdit, DeckFile, DeckHistory, DeckPlace, history_marks
from gui.lecture.display import DisplayController
from gui.plotting.word_breaks import breakable
from gui.render.math_text import math_tooltip
from gui.theme import current_theme
from gui.widgets.steady_scroll import SteadyScrollArea
from gui.window.protocol import StudioWindow

DECK_SHARE = 0.45  # of the side column's height the deck dock takes when shown below it
# px at 100 % (× the UI scale): a side column lower than this holds the deck dock as a
# tab beside "Views and parameters" instead of below it (the view list, ~200 px of
# parameters and the deck's smallest body, ~560 px, do not fit both: at 300 % on
# 1920 × 1080 each had about half of 1000 px and both scrolled, the parameters showed
# two rows)
TAB_BELOW = 900
DECK_TITLE, DECK_TAB = "Lecture deck", "Deck"  # the dock's title; as a tab (short: at
# 300 % "Views and parameters" and "Lecture deck" were both elided in their 821 px column)
SIDE_TAB = "Views"  # the side dock's title as a tab beside the deck's (at 1280 × 720 /
# 300 % windowed the column is ~500 px: "Views and paramet…" and "De…")
RESTORE_ACTION = "Restore scene values"  # (Lecture menu, Ctrl+Shift+R)
NO_DECK = "No deck loaded — File ▸ Open deck…"  # the dock's label without a deck
#: the title a deck without one is shown under and saved with (the dock said "Untitled
#: deck" while the file got "Lecture")
UNTITLED_DECK = "Untitled deck"

SCENE_FILTER = "PE Studio scenes (*.pe-scene.json *.json);;All files (*)"
DECK_FILTER = "PE Studio decks (*.pe-deck.json *.json);;All files (*)"


def deck_title(title: str) -> str:
    """The title a deck titled ``title`` is shown under and saved with."""
    return title or UNTITLED_DECK


def show_start(field: QtWidgets.QLineEdit, text: str) -> None:
    """Set ``field``'s text with its beginning in sight: ``setText`` leaves the caret at
    the end, so a title longer than the field (the deck dock at 200 %) showed only its
    end ("…here: what tells them apart"). A field being typed in keeps its caret."""
    field.setText(text)
    if not field.hasFocus():
        field.setCursorPosition(0)


def ask_unsaved(parent: QtWidgets.QWidget, text: str) -> str:
    """Ask Save / Discard / Cancel about a deck with unsaved changes: ``"save"``,
    ``"discard"`` or ``"cancel"`` (Esc or closing the box). The tests replace it."""
    buttons = QtWidgets.QMessageBox.StandardButton
    box = QtWidgets.QMessageBox(
        QtWidgets.QMessageBox.Icon.Warning,
        "Unsaved deck",
        text,
        buttons.Save | buttons.Discard | buttons.Cancel,
        parent,
    )
    box.setDefaultButton(buttons.Save)
    box.exec()
    answer = box.standardButton(box.clickedButton())
    return {buttons.Save: "save", buttons.Discard: "discard"}.get(answer, "cancel")


def shipped_decks() -> list[Path]:
    """The example decks in ``resources/decks`` (sorted)."""
    folder = resource_path("decks")
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


class DeckController(QtCore.QObject):
    """The deck of one window and its dock.

    Attributes
    ----------
    scenes
        The loaded scenes (editable: add, replace, remove).
    index
        Index of the scene shown last, -1 when none.
    last_error
        The last one-line problem (for tests and the status bar).
    modified
        Whether the deck has changes not saved to a file (scenes added, replaced or
        removed, a title or note edited): quitting, opening another deck or closing it
        asks first (Save / Discard / Cancel).
    ask_path
        Asks the file a deck is saved to from that question ("" when cancelled).
    steppers
        Asked in turn by :meth:`step` before it changes scenes (``stepper(delta)``); one
        that returns ``True`` took the step (a revealing scene shows its next panel).

    Signals
    -------
    scene_shown(int, int)
        ``(previous index, index)``: a scene was shown (previous -1 when none).
    note_changed()
        A scene was shown, or the current scene's title or note was edited.
    scene_staged(Scene, int)
        A scene was applied: from the deck (its index) or from a scene file (-1); its
        ``panels``, ``reveal`` and ``highlight`` stage the view (:mod:`gui.lecture.focus`).
    closed()
        The deck (or the scene opened from a file) was closed: no scene stages a view
        any more (:meth:`close_deck`).
    """

    scene_shown = QtCore.Signal(int, int)
    note_changed = QtCore.Signal()
    scene_staged = QtCore.Signal(object, int)
    closed = QtCore.Signal()

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.window = window
        self.title = ""
        self.scenes: list[Scene] = []
        self.index = -1
        self.path: Path | None = None
        self.last_error = ""
        self.modified = False
        self.ask_path: Callable[[], str] = lambda: ""
        self.steppers: list[Callable[[int], bool]] = []
        self._titled: set[str] = set()
        self._fields_for = -1  # the scene the title and note fields show (-1: none)
        self._opened: Scene | None = None  # a scene file's, while its heading shows
        self.history = DeckHistory()
        self._saved: tuple[Scene, ...] = ()  # the scenes as opened or saved last
        self._short: bool | None = None  # the column was too low for both docks
        self._side_title = "Views and parameters"  # the side dock's own (see SIDE_TAB)
        self._build_dock()
        # the column's height or the UI scale changed: arrange the docks again
        self._arrange_timer = QtCore.QTimer(self)
        self._arrange_timer.setSingleShot(True)
        self._arrange_timer.setInterval(0)
        self._arrange_timer.timeout.connect(self.arrange_dock)
        display = window.find_feature(DisplayController)
        if display is not None:
            display.applied.connect(self._arrange_timer.start)
        side = self._side()
        if side is not None:
            side.installEventFilter(self)  # (its own events: resizes, few others)
        window.qt.installEventFilter(self)  # (its close: unsaved changes)
        window.view_changed.connect(self._view_changed)
        window.add_undo_source(self)

    # ------------------------------------------------------------------ dock
    def _build_dock(self) -> None:
        w = self.window.qt
        self.dock = QtWidgets.QDockWidget(DECK_TITLE, w)
        self.dock.setObjectName("deck-dock")
        self.dock.setFeatures(
            QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        # (closed or opened again: the side dock's title as a tab or its own)
        self.dock.visibilityChanged.connect(lambda _shown: self._title_side())
        body = QtWidgets.QWidget(self.dock)
        self.body_layout = QtWidgets.QVBoxLayout(body)
        self.deck_label = QtWidgets.QLabel(NO_DECK, body)
        self.deck_label.setObjectName("deck-title")
        self.deck_label.setWordWrap(True)
        self.list = QtWidgets.QListWidget(body)
        self.list.setObjectName("deck-list")
        # titles wrap to the list's width, nothing cut: at 1280 x 720 / 300 % windowed
        # they were cut at the right and the list scrolled sideways
        self.list.setWordWrap(True)
        self.list.setTextElideMode(QtCore.Qt.TextElideMode.ElideNone)
        self.list.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QtWidgets.QListView.ResizeMode.Adjust)
        self.list.itemActivated.connect(lambda item: self.pick(self.list.row(item)))
        self.list.itemClicked.connect(lambda item: self.pick(self.list.row(item)))
        self.list.currentRowChanged.connect(self._highlighted)
        self.body_layout.addWidget(self.deck_label)
        self.body_layout.addWidget(self.list, 1)
        self._build_fields(body)
        # scrolls up and down: below the side dock it has part of the column's height
        # (at 300 % its Animation box alone is taller than half of 1080 px)
        scroll = SteadyScrollArea(self.dock)
        scroll.setObjectName("deck-scroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        self.dock.setWidget(scroll)
        self.dock.setMinimumWidth(280)
        # in the side dock's column, below "Views and parameters": beside the view it
        # took a plot column (at 200 % on 1920 x 1080 it cannot be narrower than its
        # Animation box, 446 px, and every view fell to one column). The column is as
        # wide as the side dock makes it at each UI scale, both ways.
        side = w.findChild(QtWidgets.QDockWidget, "side-dock")
        if side is not None and w.dockWidgetArea(side) != QtCore.Qt.DockWidgetArea.NoDockWidgetArea:
            w.addDockWidget(w.dockWidgetArea(side), self.dock)
            w.splitDockWidget(side, self.dock, QtCore.Qt.Orientation.Vertical)
        else:
            w.addDockWidget(QtCore.Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()

    def _build_fields(self, body: QtWidgets.QWidget) -> None:
        """The scene's title and speaker-note fields, right below the scene list whose
        current scene they edit (they were below the Animation box, at 1280 x 720 /
        150 % out of sight until the dock was scrolled), and the line above them that
        says why they are off when no scene is shown."""
        self.fields_hint = QtWidgets.QLabel(body)
        self.fields_hint.setObjectName("deck-fields-hint")
        self.fields_hint.setWordWrap(True)
        self.fields_hint.hide()
        self.fields = QtWidgets.QWidget(body)
        self.fields.setObjectName("deck-fields")
        column = QtWidgets.QVBoxLayout(self.fields)
        column.setContentsMargins(0, 0, 0, 0)
        self.title_edit = QtWidgets.QLineEdit(self.fields)
        self.title_edit.setObjectName("scene-title-edit")
        self.title_edit.setPlaceholderText("Scene title (shown large)")
        self.title_edit.editingFinished.connect(lambda: self._edited("title"))
        self.note_edit = QtWidgets.QPlainTextEdit(self.fields)
        self.note_edit.setObjectName("scene-note-edit")
        self.note_edit.setPlaceholderText("Speaker note")
        self.note_edit.setMaximumHeight(140)
        self.note_edit.textChanged.connect(lambda: self._edited("note"))
        column.addWidget(QtWidgets.QLabel("Title", self.fields))
        column.addWidget(self.title_edit)
        column.addWidget(QtWidgets.QLabel("Speaker note", self.fields))
        column.addWidget(self.note_edit)
        self.body_layout.addWidget(self.fields_hint)
        self.body_layout.addWidget(self.fields)

    def _refresh_note(self) -> None:
        self.note_changed.emit()

    # ------------------------------------------------------------------ errors
    def _fail(self, what: str, message: str) -> bool:
        self.last_error = f"{what}: {message}"
        self.window.show_status(self.last_error, 10000)
        widget = self.window.views.get(self.window.current_view)
        if widget is not None:
            widget.show_error(self.last_error)
        return False

    # ------------------------------------------------------------------ scenes
    def current_scene(self) -> Scene:
        """The current view and parameters as a scene (title/note from the dock)."""
        vid = self.window.current_view
        title = self.title_edit.text().strip() or VIEWS[vid].title
        return Scene(
            vid, self.window.current_state.values, title, self.note_edit.toPlainText().strip()
        )

    def apply_scene(self, scene: Scene) -> bool:
        """Show ``scene``'s view with its parameters (all-or-nothing)."""
        self.window.view_widget(scene.view_id)
        state = self.window.states[scene.view_id]
        if not state.set_values(scene.params):
            return self._fail("scene", "parameters rejected")
        self.window.set_view(scene.view_id, new_values=True)
        return True

    def open_scene(self, path: str | Path) -> bool:
        """Load a scene file and apply it, one undo step ("opening the scene “…”"): its
        values and its heading undo together (Ctrl+Z undid the values and left the
        scene's heading over the plots of before); on any problem nothing changes."""
        try:
            scene = load_scene(path)
        except SceneError as exc:
            return self._fail(Path(path).name, str(exc))
        applied = False

        def open_it() -> None:
            nonlocal applied
            if not self.apply_scene(scene):
                return
            applied = True
            self._show_opened(scene)

        self._edit(f"opening the scene \u201c{scene.title or Path(path).name}\u201d", open_it)
        if applied:
            self.window.show_status(f"Opened scene {Path(path).name}", 5000)
        return applied

    def _show_opened(self, scene: Scene) -> None:
        """The title and note fields and the heading of ``scene``, opened from a file."""
        with signals_blocked(self.title_edit), signals_blocked(self.note_edit):
            show_start(self.title_edit, scene.title)  # (not a deck scene's: none edited)
            self.note_edit.setPlainText(scene.note)
        self._sync_fields()  # (with a deck open they follow its scene)
        self._set_view_title(scene, None)
        self._opened = scene
        self.scene_staged.emit(scene, -1)

    def save_current_scene(self, path: str | Path) -> bool:
        """Write the current view and parameters to ``path`` (atomically); a deck scene
        shown keeps its staging (``panels``, ``reveal``, ``highlight``: a revealing
        scene saved from the lecture deck opened with all its plots at once)."""
        scene = self.current_scene()
        if self.shown:
            staged = self.scenes[self.index]
            scene = replace(
                scene, panels=staged.panels, reveal=staged.reveal, highlight=staged.highlight
            )
        try:
            save_scene(scene, path)
        except (SceneError, OSError) as exc:
            return self._fail(Path(path).name, str(exc))
        self.window.show_status(f"Saved scene {Path(path).name}", 5000)
        return True

    # ------------------------------------------------------------------ decks
    def keep_or_discard(self, doing: str) -> bool:
        """Whether ``doing`` may go on: no unsaved changes, or the lecturer saved them
        (to a file asked for) or discarded them. Before, quitting, Ctrl+L, Open deck and
        Close deck threw away added, removed and renamed scenes without a word."""
        self._commit_title()
        if not self.modified:
            return True
        name = deck_title(self.title)
        answer = ask_unsaved(
            self.window.qt,
            f"The deck \u201c{name}\u201d has unsaved changes. Save them before {doing}?",
        )
        if answer == "discard":
            return True
        if answer == "save":
            path = self.ask_path()
            return bool(path) and self.save_deck(path)
        return False

    def open_deck(self, path: str | Path) -> bool:
        """Load a deck file and show its first scene; on any problem nothing changes.
        Unsaved changes to the deck shown are saved or discarded first, or kept (then
        nothing is opened)."""
        if not self.keep_or_discard("opening another deck"):
            return False
        try:
            deck = load_deck(path)
        except SceneError as exc:
            return self._fail(Path(path).name, str(exc))
        self.set_deck(deck, Path(path))
        return True

    def set_deck(self, deck: Deck, path: Path | None = None, *, start: bool = False) -> None:
        """Show ``deck`` in the dock and go to its first scene: one undo step ("opening
        the deck …"). Its undo brings back the deck shown before (none: the deck
        closes) with the view and parameters from before; the earlier deck's own steps
        follow it. (The first scene's parameters were a step of their view alone:
        Ctrl+Z right after opening left the deck on scene 1 over the plots of before.)
        ``start``: the session starts with this deck (``main.py present``): nothing
        before it to undo (Ctrl+Z at the first scene closed the deck on the stage)."""

        def open_it() -> None:
            self.title, self.scenes, self.path = deck.title, list(deck.scenes), path
            self.index, self.modified, self._saved = -1, False, tuple(deck.scenes)
            self._fill_list()
            self.show_dock()
            self._go(0)

        name = deck_title(deck.title)
        self._edit(f"opening the deck \u201c{name}\u201d", open_it, files=True)
        if start:
            self.history.clear()
            for state in self.window.states.values():
                state.forget_history()

    @property
    def loaded(self) -> bool:
        """Whether a deck or a scene file is open (what :meth:`close_deck` closes)."""
        return bool(
            self.scenes
            or self.index >= 0
            or self.path is not None
            or self.title
            or self._titled
            or self.title_edit.text()
            or self.note_edit.toPlainText()
        )

    def close_deck(self) -> bool:
        """Close the deck (or the scene opened from a file): no scenes, no deck file, the
        title and note fields empty, every view under its own title and unstaged, the
        deck dock hidden (and left hidden by presentation mode's end, when presenting).
        The views keep the parameters they show, and their undo history. ``False`` when
        nothing was open."""
        if not self.loaded:
            self.window.show_status("No deck loaded", 3000)
            return False
        if not self.keep_or_discard("closing it"):
            return False
        name = self.path.name if self.path is not None else (self.title or "the scene")
        self.title, self.scenes, self.index, self.path = "", [], -1, None
        self.last_error, self.modified, self._saved = "", False, ()
        self.history.clear()
        self._clear_fields()
        self._sync_fields()
        self._fill_list()
        self.deck_label.setText(NO_DECK)
        self.dock.hide()
        display = self.window.find_feature(DisplayController)
        if display is not None:
            display.keep_hidden(self.dock)  # (presenting: not shown again at its end)
        self.closed.emit()
        self._refresh_note()
        self.window.show_status(f"Closed {name}", 5000)
        return True

    def show_dock(self) -> None:
        """Show the deck dock: below the side dock (its share of the column's height,
        the view keeps its width), as the tab shown beside it in a column too low for
        both (:meth:`arrange_dock`), or where the lecturer moved it."""
        display = self.window.find_feature(DisplayController)
        if display is not None and display.presenting:
            return
        if self.tabbed():
            self.dock.show()
            self.dock.raise_()  # (a tab behind the side dock's)
        elif not self.dock.isVisible():
            qt = self.window.qt
            side = self._side()
            self.dock.show()
            if self._in_column(side):
                self._short = None
                self.arrange_dock()
                if self.tabbed():
                    self.dock.raise_()  # asked for: its tab in front
            else:
                qt.resizeDocks([self.dock], [300], QtCore.Qt.Orientation.Horizontal)

    def toggle_dock(self) -> None:
        """Show the deck dock (:meth:`show_dock`: a tab behind the side dock's comes to
        the front), or hide it when it shows."""
        if self.dock.isVisible() and not self.dock.visibleRegion().isEmpty():
            self.dock.hide()
        else:
            self.show_dock()

    def _side(self) -> QtWidgets.QDockWidget | None:
        """The side dock; ``None`` when there is none, or the window is being
        destroyed (its docks report their hiding while the window is already gone: a
        window deleted without being closed printed a traceback here)."""
        if not shiboken6.isValid(self.window.qt):
            return None
        return self.window.qt.findChild(QtWidgets.QDockWidget, "side-dock")

    def _in_column(self, side: QtWidgets.QDockWidget | None) -> bool:
        """Whether the deck dock is open in the side dock's column (not floating, not
        moved elsewhere by the lecturer)."""
        qt = self.window.qt
        return (
            side is not None
            and not side.isHidden()
            and not self.dock.isHidden()
            and not side.isFloating()
            and not self.dock.isFloating()
            and qt.dockWidgetArea(self.dock) == qt.dockWidgetArea(side)
        )

    def tabbed(self) -> bool:
        """Whether the deck dock is a tab beside the side dock."""
        side = self._side()
        return side is not None and side in self.window.qt.tabifiedDockWidgets(self.dock)

    def arrange_dock(self) -> None:
        """Place the open deck dock in the side dock's column for its height: below the
        side dock (:data:`DECK_SHARE` of the column) while the column is at least
        :data:`TAB_BELOW` px × the UI scale high, else as a tab beside it (titled
        :data:`DECK_TAB`) with the parameters in front: each gets the whole height, one
        click on the tab shows the deck. Only when the column's lowness changes, or the
        dock is shown: a lecturer's own arrangement stays until then. Not while
        presenting (no docks) nor for a deck dock floating or moved to another side."""
        display = self.window.find_feature(DisplayController)
        side = self._side()
        if side is None or (display is not None and display.presenting):
            return
        if not self._in_column(side):
            self._short = None
            return
        qt = self.window.qt
        column = self.window.stage.height()  # (the column beside the view is as high)
        short = column < TAB_BELOW * current_theme().ui_scale
        if short == self._short:
            return
        self._short = short
        tabbed = self.tabbed()
        self.dock.setWindowTitle(DECK_TAB if short else DECK_TITLE)
        if short and not tabbed:
            qt.tabifyDockWidget(side, self.dock)
            side.raise_()
        elif not short:
            if tabbed:  # (Qt does not split two docks of one tab group: out, then in)
                qt.removeDockWidget(self.dock)
                qt.addDockWidget(qt.dockWidgetArea(side), self.dock)
                qt.splitDockWidget(side, self.dock, QtCore.Qt.Orientation.Vertical)
                self.dock.show()
            share = round(DECK_SHARE * column)
            qt.resizeDocks(
                [side, self.dock], [column - share, share], QtCore.Qt.Orientation.Vertical
            )
        self._title_side(short)

    def _title_side(self, short: bool | None = None) -> None:
        """The side dock titled :data:`SIDE_TAB` while the open deck is a tab beside it
        in a column too low for both (``short``; else as last arranged), its own title
        otherwise (the deck closed, or below it)."""
        side = self._side()
        if side is None:
            return
        short = self._short if short is None else short
        if side.windowTitle() != SIDE_TAB:
            self._side_title = side.windowTitle()
        tab = bool(short) and not self.dock.isHidden() and self.tabbed()
        title = SIDE_TAB if tab else self._side_title
        if side.windowTitle() != title:
            side.setWindowTitle(title)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if obj is self.window.qt:
            if event.type() == QtCore.QEvent.Type.Close and not self.keep_or_discard("quitting"):
                event.ignore()
                return True
            return False
        if event.type() == QtCore.QEvent.Type.Resize:  # (the side dock's)
            self._arrange_timer.start()
        return False

    def deck(self) -> Deck:
        """The deck as edited now."""
        return Deck(self.title, tuple(self.scenes))

    def save_deck(self, path: str | Path) -> bool:
        """Write the deck (or, with none loaded, the current view as one scene)."""
        self._commit_title()
        scenes = self.scenes or [self.current_scene()]
        try:
            save_deck(Deck(deck_title(self.title), tuple(scenes)), path)
        except (SceneError, OSError) as exc:
            return self._fail(Path(path).name, str(exc))
        self.path, self.modified, self._saved = Path(path), False, tuple(self.scenes)
        self.window.show_status(f"Saved deck {Path(path).name}", 5000)
        return True

    def start_folder(self) -> str:
        """Where Open deck…, Open scene… and Save scene… start: the folder of the deck
        opened or saved last, the home folder for a shipped deck (a scene is not saved
        among the app's files), "" without a deck (Qt's working folder). They started
        in the working folder even with a deck open from ~/lectures."""
        if self.path is None:
            return ""
        folder = self.path.resolve().parent
        return str(Path.home() if folder == resource_path("decks").resolve() else folder)

    def suggested_path(self) -> str:
        """Where Save deck… starts: the deck's own file, or for a shipped deck or a new
        one a file named after its title in the home folder (it started in the working
        folder with no name; a shipped deck must not be saved over)."""
        shipped = resource_path("decks").resolve()
        if self.path is not None and self.path.resolve().parent != shipped:
            return str(self.path)
        stem = re.sub(r"[^\w]+", "-", deck_title(self.title).lower()).strip("-")
        return str(Path.home() / f"{stem or 'lecture'}.pe-deck.json")

    def _fill_list(self) -> None:
        with signals_blocked(self.list):
            self.list.clear()
            for s in self.scenes:
                item = QtWidgets.QListWidgetItem()
                item.setToolTip(math_tooltip(s.note or VIEWS[s.view_id].title))
                self.list.addItem(item)
            self.list.setCurrentRow(self.index)
        self._mark_current()
        self.deck_label.setText(
            f"<b>{html.escape(deck_title(self.title))}</b> — {len(self.scenes)} scenes"
        )

    def _mark_current(self) -> None:
        """Each row's text ("2. Rotation"); the current scene's row starts with "→ " and
        is bold, whichever row the highlight is on: arrow keys move the highlight
        without showing that scene (Enter does), and the highlighted row looked like
        the current scene."""
        for row, scene in enumerate(self.scenes):
            item = self.list.item(row)
            if item is None:
                continue
            current = row == self.index
            text = f"{row + 1}. {scene.title or VIEWS[scene.view_id].title}"
            item.setText(f"→ {text}" if current else text)
            font = QtGui.QFont()  # (only the weight: the rest follows the list's font)
            font.setBold(current)
            item.setFont(font)

    def _highlighted(self, row: int) -> None:
        """The highlight moved (arrow keys) to another row than the current scene's:
        the status line says that Enter shows it. (Not for a click: it shows the
        scene, and the line said "Enter shows scene 3" over scene 3 shown.)"""
        clicked = QtWidgets.QApplication.mouseButtons() != QtCore.Qt.MouseButton.NoButton
        if clicked or row == self.index or not 0 <= row < len(self.scenes):
            return
        scene = self.scenes[row]
        title = scene.title or VIEWS[scene.view_id].title
        line = self.window.fit_status(f"Enter shows scene {row + 1}", f" \u201c{title}\u201d")
        self.window.show_status(line, 5000)

    def go(self, index: int) -> bool:
        """Show scene ``index`` (clamped), one undo step when it is another scene than
        the current one: Ctrl+Z shows the scene before as it was left (undoing only the
        parameters the scene set left its title and number over the plots of the scene
        before). ``False`` when there is no deck."""
        shown = False

        def show() -> None:
            nonlocal shown
            shown = self._go(index)

        if not self.scenes:
            return self._go(index)  # (says there is no deck, or no scene)
        at = min(max(index, 0), len(self.scenes) - 1)
        self._edit(f"going to scene {at + 1} \u201c{self.scenes[at].title}\u201d", show)
        return shown

    def _go(self, index: int) -> bool:
        """Show scene ``index`` (clamped), no undo step of its own (part of the edit
        that calls it); ``False`` when there is no deck."""
        if not self.scenes:
            self.window.show_status(
                # (every scene removed: the deck is still open, its title above the list)
                "The deck has no scenes — Lecture ▸ Add current view as scene (Ctrl+Shift+A)"
                if self.title or self.path is not None
                else "No deck loaded — File ▸ Open deck… or an example deck",
                5000,
            )
            return False
        index = min(max(index, 0), len(self.scenes) - 1)
        scene = self.scenes[index]
        if not self.apply_scene(scene):
            return False
        previous, self.index = self.index, index
        with signals_blocked(self.list):
            self.list.setCurrentRow(index)
        self._mark_current()
        self._sync_fields()
        self._set_view_title(scene, index)
        self._refresh_note()
        self.scene_shown.emit(previous, index)
        self.scene_staged.emit(scene, index)
        return True

    def pick(self, row: int) -> bool:
        """A scene clicked (or Enter) in the scene list: shown. The current scene is not
        applied again: it shows as the lecturer left it (its view shown again when
        another one is), and a status line says how to set its values again
        (:meth:`restore_scene`). Clicking the highlighted row applied the scene again:
        the parameters changed since it opened were lost."""
        if row != self.index or not 0 <= row < len(self.scenes):
            return self.go(row)
        if not self.shown:
            self.window.set_view(self.scenes[row].view_id)
        if self._as_saved():  # (nothing changed since: a double-click's second half)
            self.window.show_status(f"Scene {row + 1} is shown", 3000)
            return True
        # (short: at 300 % on 1280 x 720 the status line shows about 43 characters;
        # the key, at the end of a longer line, was cut off; a three-digit scene
        # number takes the shorter form)
        self._say_fitting(
            5000,
            f"Scene {row + 1} as you left it (Ctrl+Shift+R resets)",
            f"Scene {row + 1} as left (Ctrl+Shift+R resets)",
        )
        return True

    def _say_fitting(self, timeout_ms: int, *lines: str) -> None:
        """Show the first of ``lines`` that fits the status bar whole, else the last
        (the longer wording where there is room, a shorter one with the same key at
        300 % on 1280 x 720)."""
        line = next((t for t in lines if self.window.status_fits(t)), lines[-1])
        self.window.show_status(line, timeout_ms)

    def _as_saved(self) -> bool:
        """Whether the current scene is shown with the values the deck has for it."""
        if not self.shown:
            return False
        scene = self.scenes[self.index]
        state = self.window.states[scene.view_id]
        return state.values == state.model.validate(scene.params, partial=True)

    def restore_scene(self) -> bool:
        """Set the current scene's values again (Lecture ▸ Restore scene
        values): its view shown with the parameters the deck has for it, one undo step
        (Ctrl+Z brings the lecturer's changes back). ``False`` without a current scene,
        or when the scene shows its values already (a status line says so)."""
        if not 0 <= self.index < len(self.scenes):
            self._say_fitting(
                3000,
                "No scene to restore \u2014 open a deck or step to a scene",
                "No current scene to restore",
            )
            return False
        number = self.index + 1
        if self._as_saved():
            self.window.show_status(f"Scene {number} already shows its values", 3000)
            return False
        if not self.go(self.index):
            return False
        self._say_fitting(
            5000,
            f"Scene {number} restored as saved \u2014 Ctrl+Z undoes",
            f"Scene {number} restored (Ctrl+Z undoes)",
        )
        return True

    def step(self, delta: int) -> bool:
        """Next (+1) or previous (−1) scene, unless a stepper takes the step."""
        if self.index >= 0 and any(stepper(delta) for stepper in self.steppers):
            return True
        if self.shown and not 0 <= self.index + delta < len(self.scenes):
            # past either end: the scene stays as the lecturer moved it (one Page Down
            # too many at the last scene applied it again, its values back as saved)
            end = "last" if delta > 0 else "first"
            self.window.show_status(
                f"This is the {end} scene ({self.index + 1}/{len(self.scenes)})", 3000
            )
            return False
        return self.go(self.index + delta if self.index >= 0 else 0)

    def first(self) -> bool:
        return self.go(0)

    def last(self) -> bool:
        return self.go(len(self.scenes) - 1)

    @property
    def shown(self) -> bool:
        """Whether the current scene is shown: the window shows its view (with the
        parameters it set or changed since). Another view shown (Ctrl+3) leaves it;
        going back to its view, or to any scene, shows one again."""
        return (
            0 <= self.index < len(self.scenes)
            and self.scenes[self.index].view_id == self.window.current_view
        )

    def add_current(self) -> None:
        """Insert the current view as a scene after the current one (undoable).

        With a deck scene shown, the title and note fields are that scene's, so the new
        scene starts under its view's own title with no note (it used to copy both: an
        ALiBi scene added after a RoPE scene was titled and noted as the RoPE one). With
        none shown, the fields are the lecturer's for the new scene (empty and off
        while a deck's scene is not shown). The fields then show the new scene, so
        editing them edits it.
        """
        scene = self.current_scene()
        if 0 <= self.index < len(self.scenes):
            scene = replace(scene, title=VIEWS[scene.view_id].title, note="")
        at = self.index + 1 if self.scenes else 0

        def add() -> None:
            self.scenes.insert(at, scene)
            self.index, self.modified = at, True
            self._fill_list()
            self._show_fields(scene, at)
            self.show_dock()

        self._edit(f"adding scene {at + 1} \u201c{scene.title}\u201d", add)

    def _clear_fields(self) -> None:
        """No scene shown: the title and note fields empty, every view under its own
        title (a view titled by an earlier scene too)."""
        with signals_blocked(self.title_edit), signals_blocked(self.note_edit):
            self.title_edit.clear()
            self.note_edit.clear()
        for widget in self.window.views.values():
            widget.clear_heading()
        self._titled = set()
        self._opened = None

    def _show_fields(self, scene: Scene, index: int) -> None:
        """The title and note fields and the view's heading for scene ``index``."""
        with signals_blocked(self.title_edit), signals_blocked(self.note_edit):
            show_start(self.title_edit, scene.title)
            self.note_edit.setPlainText(scene.note)
        self._set_view_title(scene, index)
        self._sync_fields()
        self._refresh_note()

    def _sync_fields(self) -> None:
        """The title and note fields follow what is shown: the current scene's while
        it shows; empty, off and explained while a deck's scene is not shown (they
        edited scene 1 after Ctrl+3 had left it); the lecturer's own, for a new scene
        or a scene file, without a deck."""
        shown = self.shown
        off = bool(self.scenes) and not shown
        self._fields_for = self.index if shown else -1
        if shown:
            scene = self.scenes[self.index]
            with signals_blocked(self.title_edit), signals_blocked(self.note_edit):
                if self.title_edit.text() != scene.title:
                    show_start(self.title_edit, scene.title)
                if self.note_edit.toPlainText() != scene.note:
                    self.note_edit.setPlainText(scene.note)
        elif off:
            with signals_blocked(self.title_edit), signals_blocked(self.note_edit):
                self.title_edit.clear()
                self.note_edit.clear()
            self.fields_hint.setText(self._hint())
        self.fields.setEnabled(not off)
        self.fields_hint.setVisible(off)

    def _hint(self) -> str:
        """Why the fields are off, and how to edit a scene again."""
        how = "Show a scene to edit its title and note."  # (short: 4 lines at 300 %)
        if not 0 <= self.index < len(self.scenes):
            return f"No scene shown. {how}"
        view_id = self.scenes[self.index].view_id
        key = f", Ctrl+{list(VIEWS).index(view_id) + 1}"  # (the window's view shortcut)
        where = f"{VIEWS[view_id].title}{key}"
        return f"Scene {self.index + 1} is not shown (it is on {where}). {how}"

    def _view_changed(self, _view_id: str) -> None:
        self._commit_title()
        self._sync_fields()

    def _commit_title(self) -> None:
        """A title typed into the field and not entered yet goes to its scene (one
        undo step), as Enter would: before the view changes (the fields are cleared),
        before the unsaved-changes question and before saving (Ctrl+Q right after
        typing a title quit without asking, and the title was lost)."""
        if self.title_edit.isModified():
            self.title_edit.setModified(False)
            self._edited("title")

    def replace_current(self) -> None:
        """Replace the current scene with the current view and parameters (undoable).
        While the scene is not shown its title and note stay (the fields are off)."""
        if not 0 <= self.index < len(self.scenes):
            self.add_current()
            return
        index, old = self.index, self.scenes[self.index]
        new = self.current_scene()
        if not self.shown:
            new = replace(new, title=old.title, note=old.note)
        if old.view_id == new.view_id:  # the same view keeps its staging
            new = replace(new, panels=old.panels, reveal=old.reveal, highlight=old.highlight)

        def put() -> None:
            self.scenes[index] = new
            self.modified = True
            self._fill_list()
            self._show_fields(new, index)

        self._edit(f"replacing scene {index + 1} \u201c{old.title}\u201d", put)

    def remove_current(self) -> None:
        """Remove the current scene from the deck and show the one now in its place
        (the last when it was the last); Ctrl+Z brings it back. Before, the list moved
        on but the view, the title and note fields and the heading kept the removed
        scene: Page Down then skipped the scene after it, and Replace overwrote that
        scene unseen."""
        if not 0 <= self.index < len(self.scenes):
            return
        index = self.index

        def remove() -> None:
            del self.scenes[index]
            self.modified = True
            at = min(index, len(self.scenes) - 1)
            self.index = -1
            self._fill_list()
            if at >= 0:
                self._go(at)
            else:  # (no scene left)
                self._clear_fields()
                self._sync_fields()
                self._refresh_note()

        title = self.scenes[index].title
        self._edit(f"removing scene {index + 1} \u201c{title}\u201d", remove)
        self.window.show_status(
            f"Removed scene {index + 1} \u201c{title}\u201d \u2014 Ctrl+Z brings it back", 5000
        )

    def move_current(self, delta: int) -> bool:
        """Move the current scene one place earlier (``-1``) or later (``+1``) in the
        deck (undoable); it stays the current scene (there was no way to reorder a deck
        but to remove scenes and add them again). ``False`` at either end or without a
        deck."""
        at, to = self.index, self.index + delta
        if not (0 <= at < len(self.scenes) and 0 <= to < len(self.scenes)):
            return False

        def move() -> None:
            scenes = self.scenes
            scenes[at], scenes[to] = scenes[to], scenes[at]
            self.index, self.modified = to, True
            self._fill_list()
            self._set_view_title(scenes[to], to)
            self._sync_fields()  # (they edit the scene at its new place)

        self._edit(f"moving scene \u201c{self.scenes[at].title}\u201d to {to + 1}", move)
        return True

    def _edited(self, which: str) -> None:
        """The lecturer edited the shown scene's title or note (``which``): an undo
        step, one for a run of typing into the same field of the same scene."""
        index = self._fields_for
        if not 0 <= index < len(self.scenes):
            return
        scene = replace(
            self.scenes[index],
            title=self.title_edit.text().strip(),
            note=self.note_edit.toPlainText().strip(),
        )
        if scene == self.scenes[index]:
            return

        def edit() -> None:
            self.modified = True
            self.scenes[index] = scene
            self._mark_current()
            self._set_view_title(scene, index)
            self._refresh_note()

        what = "renaming" if which == "title" else "editing the note of"
        self._edit(f"{what} scene {index + 1}", edit, merge=f"{which} {index}")

    # ------------------------------------------------------------------ undo
    def _place(self) -> DeckPlace:
        return DeckPlace(tuple(self.scenes), self.index, self.window.current_view, self._opened)

    def _file(self) -> DeckFile:
        return DeckFile(self.title, self.path, self._saved)

    def _edit(
        self, what: str, change: Callable[[], None], merge: str = "", files: bool = False
    ) -> None:
        """Make the deck edit ``change`` (described by ``what``) an undo step; a
        ``merge`` key equal to the latest step's makes it part of that step; ``files``:
        it opens another deck (its undo brings back the deck open before)."""
        states = self.window.states
        before, marks, file_before = self._place(), history_marks(states), self._file()
        change()
        # (typing a note and deleting it again leaves the deck as saved: nothing to ask)
        self.modified = tuple(self.scenes) != self._saved
        after, file_after = self._place(), self._file()
        if (after.scenes, after.index, after.opened, file_after) == (
            before.scenes,
            before.index,
            before.opened,
            file_before,
        ):
            return
        for state in states.values():
            # the next parameter change is a step of its own: a drag or arrow keys went
            # on merging into the change before the edit (RoPE's m 5 -> 6, a scene
            # added, m -> 7: Ctrl+Z went back to 5 and the added scene could never be
            # undone, the view's mark having moved past it)
            state.end_merge()
        marks_after = history_marks(self.window.states)
        applied = tuple(v for v, mark in marks_after.items() if marks.get(v) != mark)
        steps = self.history.undo_steps
        if (
            merge
            and steps
            and steps[-1].merge == merge
            and not applied
            and steps[-1].after == before
            and self._latest(steps[-1])
        ):
            steps[-1].after, steps[-1].marks = after, marks_after
            self.history.redo_steps.clear()
            if after == steps[-1].before:  # typed and deleted again: no step left (its
                steps.pop()  # Ctrl+Z changed nothing but said "Undone: editing …")
            return
        values = {v: marks_after[v][1] for v in applied}
        opened = (file_before, file_after) if files else None
        self.history.record(
            DeckEdit(what, before, after, applied, values, marks_after, merge, opened)
        )

    def undo(self) -> bool:
        """Ctrl+Z: undo the last deck edit while it is the latest step (the current
        view's parameters unchanged since): the deck, the scene shown and the view as
        they were before it. ``False`` (the view's own undo goes on) otherwise."""
        steps = self.history.undo_steps
        if not steps or not self._latest(steps[-1]):
            return False
        edit = steps.pop()
        file = None
        if edit.files is not None:  # (the deck it opened as it is now: saved since)
            edit.files = (edit.files[0], self._file())
            file = edit.files[0]
        for view_id in edit.applied:  # (the scene it showed set them: back)
            self.window.states[view_id].undo()
        self._restore(edit.before, bool(edit.applied), file)
        edit.marks = history_marks(self.window.states)
        self.history.redo_steps.append(edit)
        # (the key whole at the end: what was undone cut short where the line is long)
        line = self.window.fit_status("Undone", f": {edit.what}", " (Ctrl+Shift+Z redoes it)")
        self.window.show_status(line, 5000)
        return True

    def redo(self) -> bool:
        """Ctrl+Shift+Z: make the deck edit undone last again while that undo is the
        latest step; ``False`` (the view's own redo goes on) otherwise."""
        steps = self.history.redo_steps
        if not steps or not self._latest(steps[-1]):
            return False
        edit = steps.pop()
        for view_id, values in edit.values.items():
            state = self.window.states[view_id]
            if state.redo_values == values:  # (its redo kept: a change undone after it)
                state.redo()
            else:
                state.set_values(values)
        file = None
        if edit.files is not None:  # (the deck before it as it is now)
            edit.files = (self._file(), edit.files[1])
            file = edit.files[1]
        self._restore(edit.after, bool(edit.applied), file)
        edit.marks = history_marks(self.window.states)
        self.history.undo_steps.append(edit)
        # (the key that goes back, as after a parameter's redo: it said only "Redone: …")
        line = self.window.fit_status("Redone", f": {edit.what}", " (Ctrl+Z undoes it)")
        self.window.show_status(line, 5000)
        return True

    def undo_text(self) -> str:
        """What Ctrl+Z would undo now, for the Edit menu ("" when it is not a deck
        edit)."""
        steps = self.history.undo_steps
        return steps[-1].what if steps and self._latest(steps[-1]) else ""

    def redo_text(self) -> str:
        """What Ctrl+Shift+Z would redo now ("" when it is not a deck edit)."""
        steps = self.history.redo_steps
        return steps[-1].what if steps and self._latest(steps[-1]) else ""

    def undo_waiting(self) -> tuple[str, str] | None:
        """The view (id) whose later changes come first, and what the last deck edit
        did, when it is not the latest step because that view changed since
        (``None`` otherwise)."""
        return self._waiting(self.history.undo_steps)

    def redo_waiting(self) -> tuple[str, str] | None:
        """The view (id) whose later changes are undone first, and what the deck edit
        undone last did, when it is not the latest step because that view changed since
        (``None`` otherwise)."""
        return self._waiting(self.history.redo_steps)

    def _waiting(self, steps: list[DeckEdit]) -> tuple[str, str] | None:
        """The first view whose later changes the last of ``steps`` waits behind and
        what that step did; ``None`` when it is the latest step or waits for none of
        its views."""
        if not steps or self._latest(steps[-1]):
            return None
        edit, states = steps[-1], self.window.states
        changed = [v for v in edit.applied if states[v].history_mark() != edit.marks.get(v)]
        return (changed[0], edit.what) if changed else None

    def _latest(self, edit: DeckEdit) -> bool:
        return DeckHistory.latest(edit, self.window.states, self.window.current_view)

    def _restore(self, place: DeckPlace, new_values: bool, file: DeckFile | None = None) -> None:
        """Show the deck as ``place`` has it: its scenes and current scene, the list,
        the heading, the fields and the view; the scene staged again when another one
        is current now. The deck dock stays as the lecturer left it (hidden with
        Ctrl+Shift+D, each Ctrl+Z opened it again), unless ``file`` (an opening undone
        or redone) is another deck than the one open: shown for a deck, hidden with
        none, as Close deck leaves it."""
        was = self.scenes[self.index] if 0 <= self.index < len(self.scenes) else None
        previous = self.index
        self.scenes, self.index = list(place.scenes), place.index
        if file is not None:
            self.title, self.path, self._saved = file.title, file.path, file.saved
        self.modified = tuple(self.scenes) != self._saved
        self._fill_list()
        if file is not None:
            self._show_file(file)
        self.window.set_view(place.view_id, new_values=new_values)
        if place.opened is not None:  # (a scene file's heading, over its values)
            self._show_opened(place.opened)
        elif 0 <= self.index < len(self.scenes):
            scene = self.scenes[self.index]
            self._set_view_title(scene, self.index)
            if (previous, was) != (self.index, scene):
                self.scene_shown.emit(previous, self.index)
                self.scene_staged.emit(scene, self.index)
        else:
            self._clear_fields()
        self._sync_fields()
        self._refresh_note()

    def _show_file(self, file: DeckFile) -> None:
        """The dock for the deck ``file`` brought back by undo or redo: shown for a
        deck; for none (an opening undone) closed as by Close deck: the dock hidden
        (also after presenting), "No deck loaded", no view staged."""
        if file.title or file.path is not None or self.scenes:
            self.show_dock()
            return
        self.deck_label.setText(NO_DECK)
        self.dock.hide()
        display = self.window.find_feature(DisplayController)
        if display is not None:
            display.keep_hidden(self.dock)
        self.closed.emit()

    # ------------------------------------------------------------------ titles
    def _set_view_title(self, scene: Scene, index: int | None) -> None:
        for vid in self._titled - {scene.view_id}:
            widget = self.window.views.get(vid)
            if widget is not None:
                widget.set_heading(None)
        self._titled = {scene.view_id}
        self._opened = None  # (a scene file's sets it after this)
        widget = self.window.view_widget(scene.view_id)
        where = VIEWS[scene.view_id].title
        if index is not None:
            where += f" · {index + 1}/{len(self.scenes)}"
        # one unit (no-break spaces): at 1280 x 720 / 150 % the RoPE deck's scene 8
        # broke between "RoPE ·" and "8/9", the scene's number alone on its line
        where = where.replace(" ", "\u00a0")
        title = breakable(html.escape(scene.title or VIEWS[scene.view_id].title))
        # (a space the line may break at after the no-break one: "length&nbsp;&nbsp;
        # Compare" was one word, wider than the view at 1280 x 720, 300 %, windowed:
        # the view's text was cut off at its right edge)
        widget.set_heading(
            f"{title}&nbsp; <span style='font-size:60%; "
            f"color:#8a8a8a; font-weight:normal'>{html.escape(where)}</span>",
            math_tooltip(scene.note) if scene.note else "",
        )
