"""Lecture features of the main window: scenes, decks, presentation, animation, help.

:func:`install_lecture` is called once by the composition root (:mod:`gui.app`); it
registers a :class:`Lecture` with the window (a feature: ``window.feature(Lecture)``) that
adds the actions (each with a shortcut), the deck dock, the help overlay, the keyboard
policy for presentation clickers, and saves / restores the settings
(:mod:`gui.lecture.settings`) in the window's settings store. Everything here reaches the
window through :class:`gui.window.protocol.StudioWindow`.

Keyboard policy: Page Down / Page Up (what clickers send) always step through an open
deck, even while a spin box has focus (without a deck they move a focused slider or spin
box); Right / Left, Home / End act on the deck only when the focus is not in an editor
(spin box, line edit, slider, combo box, text field), so editing keeps working; Space
plays / pauses unless a text field has focus (it types there); Ctrl+Z / Ctrl+Shift+Z
undo the view's parameters unless a focused text field has typing of its own to undo.
Up / Down (Shift: a screen) scroll a view taller than the stage by one plot row unless
a field, slider, spin box or list has focus, which keeps its arrows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6 import QtCore, QtGui, QtWidgets

from gui.lecture.animate_dialog import AnimationExport
from gui.lecture.blank import install_blank_screen
from gui.lecture.composite import CompositeStage, ask_variant
from gui.lecture.deck import (
    DECK_FILTER,
    RESTORE_ACTION,
    SCENE_FILTER,
    DeckController,
    shipped_decks,
)
from gui.lecture.deck_export import DeckExport
from gui.lecture.display import SCALE_CHOICES, DisplayController
from gui.lecture.editors import EDITOR_WIDGETS
from gui.lecture.focus import FocusController
from gui.lecture.help import HelpOverlay
from gui.lecture.overlay import StageOverlay
from gui.lecture.presenter import install_presenter
from gui.lecture.settings import restore_settings, save_settings
from gui.lecture.stage_strip import install_stage_controls
from gui.lecture.sweep import SweepController
from gui.theme import DIVERGING_MAPS, SEQUENTIAL_MAPS
from gui.widgets.explanation import TOGGLE_ACTION, TOGGLE_KEY
from gui.window.protocol import StudioWindow

Key = QtCore.Qt.Key
_CLICKER_KEYS = {Key.Key_PageDown, Key.Key_PageUp}
_SCROLL_KEYS = {Key.Key_Down: 1, Key.Key_Up: -1}
_EDITOR_KEYS = {Key.Key_Left, Key.Key_Right, Key.Key_Home, Key.Key_End, Key.Key_Space}


def install_lecture(window: StudioWindow) -> Lecture:
    """Add the lecture features to ``window``; returns the registered :class:`Lecture`."""
    return window.add_feature(Lecture(window))


def is_text_field(widget: QtCore.QObject | None) -> bool:
    """Whether ``widget`` is a field the lecturer types text into (not a spin box)."""
    if isinstance(widget, QtWidgets.QLineEdit):
        return not isinstance(widget.parent(), (QtWidgets.QAbstractSpinBox, QtWidgets.QComboBox))
    return isinstance(widget, (QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit))


def has_own_undo(field: QtWidgets.QWidget, which: str = "undo") -> bool:
    """Whether the text ``field`` (a line edit, or a text edit such as the speaker note)
    has typing of its own to undo (``which`` ``"undo"``) or to redo (``"redo"``): a
    text edit's document keeps that history, a line edit keeps its own."""
    holder: QtWidgets.QLineEdit | QtGui.QTextDocument
    if isinstance(field, QtWidgets.QLineEdit):
        holder = field
    elif isinstance(field, (QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit)):
        holder = field.document()
    else:
        return False
    return holder.isRedoAvailable() if which == "redo" else holder.isUndoAvailable()


def is_editor(widget: QtCore.QObject | None, key: int) -> bool:
    """Whether ``widget`` needs ``key`` itself (typing, moving a slider or a caret).

    Space belongs to text fields only: on a spin box, slider, combo box or button it is
    the lecture's play / pause, whatever was clicked last.
    """
    if key == Key.Key_Space:
        return is_text_field(widget)
    return isinstance(widget, EDITOR_WIDGETS)


class Lecture(QtCore.QObject):
    """The lecture features of one :class:`~gui.window.protocol.StudioWindow`.

    Attributes
    ----------
    display, deck, sweep, animation, composite, help
        The presentation display, deck, animation, animation export (MP4/GIF/WebP),
        side-by-side/ghost stage and help-overlay controllers.
    focus, overlay, blank
        Focus / panel staging (:mod:`gui.lecture.focus`), the pointer, pen and
        rectangle zoom layer (:mod:`gui.lecture.overlay`) and the blank screen
        (:mod:`gui.lecture.blank`).
    store
        The window's settings store.
    """

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.window = window
        self.store = window.settings
        self.restored = False
        self.ignored_settings: list[str] = []
        self.display = window.add_feature(DisplayController(window))
        self.deck = window.add_feature(DeckController(window))
        self.deck.ask_path = lambda: self._ask(
            True, "Save deck", DECK_FILTER, self.deck.suggested_path()
        )
        # the Animation box below the scene list and the title and note fields of its
        # scene (a lecturer editing a deck looks for them by the list: below the box
        # they were out of sight at 1280 x 720, 150 %, until the dock was scrolled)
        body = self.deck.body_layout
        below_fields = body.indexOf(self.deck.fields) + 1
        self.sweep = window.add_feature(SweepController(window, body, at=below_fields))
        self.animation = window.add_feature(AnimationExport(window, self.sweep))
        self.deck_export = window.add_feature(DeckExport(window, self.deck))
        self.composite = window.add_feature(CompositeStage(window))
        self.help = window.add_feature(HelpOverlay(window))
        self.stage = install_stage_controls(window, self.display, self.sweep.param_name)
        self.presenter = install_presenter(window, self.display, self.deck)
        self.focus = window.add_feature(FocusController(window, self.deck))
        self.overlay = window.add_feature(StageOverlay(window, self.deck))
        self.blank = install_blank_screen(window)
        self.display.applied.connect(lambda: self.help.isVisible() and self.help.open_overlay())
        self._build_actions()
        # a new view or scene starts at its top (its title), not where the last one was
        # (bound methods: disconnected with this object, unlike lambdas, at teardown)
        window.view_changed.connect(self.scroll_to_top)
        self.deck.scene_shown.connect(self.scroll_to_top)
        self._app_filter = False  # see _filter_app(): only while the window is shown
        self._window_qt = window.qt  # compared with every event's receiver (eventFilter)
        window.qt.installEventFilter(self)
        if window.qt.isVisible():
            self._filter_app(True)
        QtCore.QTimer.singleShot(0, self.restore)

    # ------------------------------------------------------------------ actions
    def _add(
        self,
        menu: QtWidgets.QMenu,
        text: str,
        keys: Sequence[str | QtGui.QKeySequence],
        slot: Callable[[], object],
        name: str,
    ) -> QtGui.QAction:
        """Add an action; shortcuts another installer already took are skipped."""
        taken = {s.toString() for a in self.window.qt.actions() for s in a.shortcuts()}
        free = [QtGui.QKeySequence(k) for k in keys]
        free = [
            k
            for i, k in enumerate(free)
            if not k.isEmpty()
            and k.toString() not in taken
            and k.toString() not in {f.toString() for f in free[:i]}
        ]
        action = self.window.add_action(menu, text, free[0] if free else "", slot, name)
        action.setShortcuts(free)
        return action

    def _build_actions(self) -> None:
        w, d, deck, sweep = self.window, self.display, self.deck, self.sweep
        std = QtGui.QKeySequence.StandardKey
        f = w.menu("file")
        first = f.actions()[0] if f.actions() else None
        lecture_file = QtWidgets.QMenu("Scenes and decks", w.qt)
        if first is not None:
            f.insertMenu(first, lecture_file)
            f.insertSeparator(first)
        else:
            f.addMenu(lecture_file)
        self._add(
            lecture_file, "Open scene…", ["Ctrl+O"], self.open_scene_dialog, "action-open-scene"
        )
        self._add(
            lecture_file, "Save scene…", ["Ctrl+S"], self.save_scene_dialog, "action-save-scene"
        )
        self._add(
            lecture_file, "Open deck…", ["Ctrl+Shift+O"], self.open_deck_dialog, "action-open-deck"
        )
        self._add(
            lecture_file,
            "Save deck…",
            ["Ctrl+Shift+S", "Ctrl+Alt+S"],
            self.save_deck_dialog,
            "action-save-deck",
        )
        self._add(
            lecture_file, "Close deck", ["Ctrl+Shift+W"], deck.close_deck, "action-close-deck"
        )
        self._add_export_deck(f)
        examples = shipped_decks()
        if examples:
            self._add(
                lecture_file,
                "Open the example lecture deck",
                ["Ctrl+L", "Ctrl+Alt+L"],
                lambda: deck.open_deck(
                    next((p for p in examples if "lecture" in p.name), examples[0])
                ),
                "action-example-deck",
            )
            more = lecture_file.addMenu("Example decks")
            for path in examples:
                more.addAction(
                    path.stem.replace("-", " ").capitalize(), lambda p=path: deck.open_deck(p)
                )

        lec = QtWidgets.QMenu("&Lecture", w.qt)
        w.qt.menuBar().insertMenu(w.menu("help").menuAction(), lec)
        self._add(lec, "Next scene", ["PgDown", "Right"], lambda: deck.step(1), "action-next-scene")
        self._add(
            lec, "Previous scene", ["PgUp", "Left"], lambda: deck.step(-1), "action-previous-scene"
        )
        self._add(lec, "First scene", ["Home"], deck.first, "action-first-scene")
        self._add(lec, "Last scene", ["End"], deck.last, "action-last-scene")
        self._add(lec, RESTORE_ACTION, ["Ctrl+Shift+R"], deck.restore_scene, "action-restore-scene")
        lec.addSeparator()
        self._add(
            lec,
            "Add current view as scene",
            ["Ctrl+Shift+A", "Ctrl+Alt+A"],
            deck.add_current,
            "action-add-scene",
        )
        self._add(
            lec,
            "Replace scene with current view",
            ["Ctrl+Shift+U", "Ctrl+Alt+U"],
            deck.replace_current,
            "action-replace-scene",
        )
        self._add(
            lec,
            "Remove scene from deck",
            ["Ctrl+Shift+Del", "Ctrl+Alt+Del"],
            deck.remove_current,
            "action-remove-scene",
        )
        self._add(
            lec,
            "Move scene earlier",
            ["Ctrl+Shift+Up"],
            lambda: deck.move_current(-1),
            "action-move-scene-earlier",
        )
        self._add(
            lec,
            "Move scene later",
            ["Ctrl+Shift+Down"],
            lambda: deck.move_current(1),
            "action-move-scene-later",
        )
        self._add(
            lec,
            "Show / hide deck panel",
            ["Ctrl+Shift+D", "Ctrl+Alt+D"],
            deck.toggle_dock,
            "action-deck-panel",
        )
        self._add(
            lec,
            "Speaker note below the stage",
            ["Ctrl+Shift+N", "Ctrl+Alt+N"],
            self.presenter.toggle_note,
            "action-notes-overlay",
        )
        lec.addSeparator()
        self._add(lec, "Play / pause sweep", ["Space"], sweep.toggle, "action-sweep-play")
        self._add(
            lec, "Sweep faster", ["Ctrl+]", "Ctrl+Alt+Up"], sweep.faster, "action-sweep-faster"
        )
        self._add(
            lec, "Sweep slower", ["Ctrl+[", "Ctrl+Alt+Down"], sweep.slower, "action-sweep-slower"
        )
        self._add(
            lec,
            "Next sweep parameter",
            ["Ctrl+Shift+P", "Ctrl+Alt+P"],
            sweep.cycle_param,
            "action-sweep-param",
        )
        self._add(
            lec,
            "Export sweep frames…",
            ["Ctrl+Alt+E", "Ctrl+Shift+F"],
            sweep.export_dialog,
            "action-sweep-export",
        )
        self._add(
            lec,
            "Export animation (MP4 / GIF / WebP)…",
            ["Ctrl+Alt+V"],
            self.animation.open_dialog,
            "action-animation-export",
        )
        lec.addSeparator()
        comp = self.composite
        side = self._add(
            lec, "Side by side (B follows A)", ["Ctrl+Alt+B"], lambda: None, "action-side-by-side"
        )
        side.setCheckable(True)
        side.toggled.connect(comp.set_side)
        self._add(
            lec,
            "Side by side: set B…",
            ["Ctrl+Alt+Shift+B"],
            lambda: ask_variant(comp),
            "action-side-variant",
        )
        ghost = self._add(
            lec, "Ghost of the previous scene", ["Ctrl+Alt+G"], lambda: None, "action-ghost"
        )
        ghost.setCheckable(True)
        ghost.toggled.connect(comp.set_ghost)
        self._add(
            lec, "Keep a ghost of this state", ["Ctrl+Alt+K"], comp.keep_ghost, "action-keep-ghost"
        )

        stage = QtWidgets.QMenu("&Stage", w.qt)
        w.qt.menuBar().insertMenu(w.menu("help").menuAction(), stage)
        self.focus.add_actions(stage)
        self.overlay.add_actions(stage, self._add)
        self.blank.add_actions(stage, self._add)

        v = w.menu("view")
        v.addSeparator()
        self._add(v, TOGGLE_ACTION, [TOGGLE_KEY], self.toggle_explanation, "action-explanation")
        self._add(v, "Presentation mode", ["F5"], d.toggle_presentation, "action-present")
        self._add(
            v,
            "Presenter view (current and next scene, note, timer)",
            ["Ctrl+Shift+V"],
            self.presenter.toggle_view,
            "action-presenter-view",
        )
        self._add(
            v,
            "Stop sweep / leave presentation / full screen / help",
            ["Esc"],
            self.escape,
            "action-escape",
        )
        self._add(v, "Light / dark theme", ["Ctrl+T", "Ctrl+Alt+T"], d.toggle_theme, "action-theme")
        self._add(v, "Larger (UI scale +25 %)", ["Ctrl+=", std.ZoomIn], d.zoom_in, "action-zoom-in")
        self._add(
            v, "Smaller (UI scale −25 %)", ["Ctrl+-", std.ZoomOut], d.zoom_out, "action-zoom-out"
        )
        self._add(v, "Reset UI scale", ["Ctrl+0"], d.zoom_reset, "action-zoom-reset")
        self._build_scale_menu(v.addMenu("UI scale"))
        self._add(
            v,
            "Next sequential colormap",
            ["Ctrl+M", "Ctrl+Alt+M"],
            d.cycle_sequential,
            "action-cmap-sequential",
        )
        self._add(
            v,
            "Next diverging colormap",
            ["Ctrl+Shift+M", "Ctrl+Alt+Shift+M"],
            d.cycle_diverging,
            "action-cmap-diverging",
        )
        seq_menu, div_menu = v.addMenu("Sequential colormap"), v.addMenu("Diverging colormap")
        for name in SEQUENTIAL_MAPS:
            seq_menu.addAction(name, lambda n=name: d.set_colormaps(sequential=n))
        for name in DIVERGING_MAPS:
            div_menu.addAction(name, lambda n=name: d.set_colormaps(diverging=n))

        self._add(
            w.menu("help"),
            "Keyboard shortcuts",
            ["F1", "?"],
            self.help.toggle,
            "action-help-overlay",
        )

    def _add_export_deck(self, file_menu: QtWidgets.QMenu) -> None:
        """File ▸ Export deck…, after the views' exports (before Quit)."""
        action = self._add(
            file_menu,
            "Export &deck (PDF or slides)…",
            [],
            self.deck_export.open_dialog,
            "action-export-deck",
        )
        names = [a.objectName() for a in file_menu.actions()]
        if "action-export-all" in names:
            after = names.index("action-export-all") + 1
            if after < len(names) - 1:  # (the new action is last now)
                file_menu.removeAction(action)
                file_menu.insertAction(file_menu.actions()[after], action)

    def _build_scale_menu(self, menu: QtWidgets.QMenu) -> None:
        """View ▸ UI scale: one checkable entry per :data:`SCALE_CHOICES`, the scale in
        effect checked (none when it is between the choices, e.g. 225 % by Ctrl+=)."""
        d = self.display
        group = QtGui.QActionGroup(menu)
        group.setExclusionPolicy(QtGui.QActionGroup.ExclusionPolicy.ExclusiveOptional)
        for s in SCALE_CHOICES:
            action = menu.addAction(f"{round(s * 100)} %")
            action.setObjectName(f"action-scale-{round(s * 100)}")
            action.setCheckable(True)
            action.setData(s)
            group.addAction(action)
            action.triggered.connect(lambda _=False, s=s: d.set_scale(s))

        def sync() -> None:
            for action in group.actions():
                action.setChecked(abs(action.data() - d.active_scale) < 1e-6)

        self.scale_actions = group
        d.applied.connect(sync)
        menu.aboutToShow.connect(sync)
        sync()

    # ------------------------------------------------------------------ dialogs
    def _ask(self, save: bool, title: str, filt: str, start: str = "") -> str:
        dialog = (
            QtWidgets.QFileDialog.getSaveFileName if save else QtWidgets.QFileDialog.getOpenFileName
        )
        path, _ = dialog(self.window.qt, title, start, filt)
        return path

    def open_scene_dialog(self) -> None:
        if path := self._ask(False, "Open scene", SCENE_FILTER, self.deck.start_folder()):
            self.deck.open_scene(path)

    def save_scene_dialog(self) -> None:
        if path := self._ask(True, "Save scene", SCENE_FILTER, self.deck.start_folder()):
            self.deck.save_current_scene(path)

    def open_deck_dialog(self) -> None:
        if path := self._ask(False, "Open deck", DECK_FILTER, self.deck.start_folder()):
            self.deck.open_deck(path)

    def save_deck_dialog(self) -> None:
        if path := self._ask(True, "Save deck", DECK_FILTER, self.deck.suggested_path()):
            self.deck.save_deck(path)

    def escape(self) -> None:
        """Esc: close the help overlay, else stop a playing sweep, else hide the
        parameter strip, else put the pointer / pen / zoom away, else leave the focused
        panel, else presentation mode, else full screen: one step per Esc. (With the
        strip shown, Esc left presentation mode: the projector showed the editing window
        to a lecturer closing the strip; during a sweep Esc hid the strip and the sweep
        ran on.)"""
        if self.help.isVisible():
            self.help.close_overlay()
        elif self.sweep.playing:
            self.sweep.stop()
            self.window.show_status("Sweep stopped (Space plays it again)", 3000)
        elif self.stage.visible:
            self.stage.hide_strip()
        elif self.overlay.escape() or self.focus.escape():
            return
        elif self.display.presenting:
            self.display.leave_presentation()
        elif self.window.qt.isFullScreen():
            qt = self.window.qt
            qt.setWindowState(qt.windowState() & ~QtCore.Qt.WindowState.WindowFullScreen)

    def toggle_explanation(self) -> None:
        """Ctrl+I: more text or less text, as the lecturer's choice: the current view's
        whole explanation and whole verdict, or the explanation's first lines and the
        verdict's short form, both at once (their More… / Less); a status line says why
        not. More where either shows its short form, else less."""
        widget = self.window.view_widget(self.window.current_view)
        # (box, shows its short form) for each box in sight that has one: a hidden box
        # (the explanation while a plot is focused) neither chooses nor is chosen
        boxes = [
            (box, short)
            for box, folds, short in (
                (
                    widget.explanation_box,
                    widget.explanation_box.collapsible,
                    widget.explanation_box.collapsed,
                ),
                (widget.verdict_box, widget.verdict_box.foldable, widget.verdict_box.shown_short),
            )
            if folds and not box.isHidden()
        ]
        if self.display.presenting:
            self.window.show_status(
                "The explanation is hidden in presentation mode (the stage shows the "
                "verdict's short form); choose more or less text in the window"
            )
        elif widget.explanation_box.isHidden() and not boxes:
            self.window.show_status("The explanation is hidden while a plot is focused")
        elif not boxes:
            self.window.show_status(
                "The whole explanation and verdict are shown: they have no shorter form here"
            )
        else:
            more = any(short for _, short in boxes)
            for box, _ in boxes:
                box.choose(more)

    # ------------------------------------------------------------------ settings
    def restore(self) -> None:
        """Apply the stored settings once (deferred until the window is built)."""
        if not self.restored:
            self.restored = True
            self.ignored_settings = restore_settings(self.window, self.store)
            if self.ignored_settings:  # one line, however many entries were dropped
                more = len(self.ignored_settings) - 1
                self.window.show_status(
                    "Saved settings not used: "
                    + self.ignored_settings[0]
                    + (f" (and {more} more)" if more else ""),
                    10000,
                )

    def save(self) -> None:
        """Write the settings (the normal, not the presentation, layout)."""
        self.sweep.stop()
        self.help.close_overlay()
        self.display.leave_presentation(restyle=False)  # (the window closes: no re-style)
        save_settings(self.window, self.store)

    # ------------------------------------------------------------------ scrolling
    def scroll_to_top(self, *_args: object) -> None:
        """Scroll the current view back to its top (a view switch, a deck scene)."""
        self.window.view_widget(self.window.current_view).scroll_to_top()

    def _scroll_event(self, obj: QtCore.QObject, event: QtGui.QKeyEvent) -> int:
        """The direction of ``event`` when it is a ↑ / ↓ that scrolls the stage, else 0.

        Lists, fields, sliders and spin boxes keep their arrows; so does every widget
        when the current view fits (nothing to scroll).
        """
        direction = _SCROLL_KEYS.get(Key(event.key()), 0)
        mods = event.modifiers() & ~QtCore.Qt.KeyboardModifier.KeypadModifier
        if (
            not direction
            or mods
            not in (QtCore.Qt.KeyboardModifier.NoModifier, QtCore.Qt.KeyboardModifier.ShiftModifier)
            or not isinstance(obj, QtWidgets.QWidget)
            or obj.window() is not self.window.qt
            or isinstance(obj, (*EDITOR_WIDGETS, QtWidgets.QAbstractItemView))
            or not self.window.view_widget(self.window.current_view).scrolls
        ):
            return 0
        return direction

    # ------------------------------------------------------------------ events
    def _filter_app(self, on: bool) -> None:
        """See the application's events (for the shortcut overrides) only while the
        window is shown: a Python filter on every event of the application costs time,
        and a closed window must not keep one (each closed window's filter slowed every
        later window in the same process)."""
        app = QtWidgets.QApplication.instance()
        if app is None or on == self._app_filter:
            return
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
        self._app_filter = on

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        # As the application's filter this sees every event of every object (over a
        # million while the tests build windows). ``event.type()`` builds a Python enum
        # (several microseconds); an ``isinstance`` test does not: only key events and the
        # window's own events are looked at further.
        if isinstance(event, QtGui.QKeyEvent):
            kind = event.type()
            if kind == QtCore.QEvent.Type.ShortcutOverride:
                return self._shortcut_override(obj, event)
            if kind == QtCore.QEvent.Type.KeyPress:
                direction = self._scroll_event(obj, event)
                if direction:  # ↑ / ↓: one plot row, Shift: one screen
                    shift = event.modifiers() & QtCore.Qt.KeyboardModifier.ShiftModifier
                    view = self.window.view_widget(self.window.current_view)
                    view.scroll_rows(direction, page=bool(shift))
                    return True
        elif obj is self._window_qt:
            kind = event.type()
            if kind == QtCore.QEvent.Type.Close:
                self.save()
            elif kind == QtCore.QEvent.Type.Show:
                self._filter_app(True)
            elif kind == QtCore.QEvent.Type.Hide:
                self._filter_app(False)
        return False

    def _undo_key(self, event: QtGui.QKeyEvent) -> str | None:
        """``"undo"`` or ``"redo"`` when ``event`` is a shortcut of the window's Undo or
        Redo action, else ``None``."""
        pressed = QtGui.QKeySequence(event.keyCombination())
        for action in self.window.qt.actions():
            name = action.objectName()
            if name in ("action-undo", "action-redo") and pressed in action.shortcuts():
                return name.removeprefix("action-")
        return None

    def _commit_typed(self, obj: QtCore.QObject) -> None:
        """Commit a value typed into a spin box or a text field and not entered yet, as
        Enter would (its own undo step): Ctrl+Z after typing 64 undid an older change and
        left "64" in the field over plots still drawn for the old value."""
        if isinstance(obj, QtWidgets.QAbstractSpinBox):
            obj.interpretText()
            self.window.current_state.end_merge()
        elif isinstance(obj, QtWidgets.QLineEdit) and obj.isModified():
            # (a parameter's text field commits on editingFinished, as on Enter; the
            # deck's step would replace the typed text with the next scene's value)
            obj.editingFinished.emit()
            obj.setModified(False)

    def _shortcut_override(self, obj: QtCore.QObject, event: QtGui.QKeyEvent) -> bool:
        if not isinstance(obj, QtWidgets.QWidget) or obj.window() is not self.window.qt:
            return False
        key = event.key()
        if key in _CLICKER_KEYS:
            if not self.deck.scenes and isinstance(obj, EDITOR_WIDGETS):
                event.accept()  # no deck to step: Page Up/Down move the slider / spin box
                return True
            # never let a focused editor keep the clicker's keys; a value typed into it
            # and not entered yet is committed first (the step dropped it: a revealing
            # scene showed its next panel with the field at "12" and the plots at 9)
            self._commit_typed(obj)
            event.ignore()
            return True
        which = self._undo_key(event)
        if which is not None:
            # the view's undo (redo), unless a text field has typing of its own to undo
            # (redo): typing undone, the next Ctrl+Z is the lecture's
            own = has_own_undo(obj, which) if is_text_field(obj) else False
            if not own:
                self._commit_typed(obj)  # Ctrl+Z takes the value typed back, not an older one
                event.ignore()
                return True
            return False
        if (
            key == Key.Key_Space
            and event.modifiers() == QtCore.Qt.KeyboardModifier.NoModifier
            and isinstance(obj, QtWidgets.QAbstractSpinBox)
        ):
            # play / pause: a spin box's line edit claimed Space as a character it
            # ignores (typed 64, Space: no sweep), starting from the value typed
            self._commit_typed(obj)
            event.ignore()
            return True
        if (
            key in _EDITOR_KEYS
            and event.modifiers()
            in (QtCore.Qt.KeyboardModifier.NoModifier, QtCore.Qt.KeyboardModifier.KeypadModifier)
            and is_editor(obj, key)
        ):
            event.accept()  # the editor gets the key, not the deck shortcut
            return True
        return False
