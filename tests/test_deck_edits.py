"""Editing a deck in the window: Ctrl+Z / Ctrl+Shift+Z undo and redo opening a deck,
going to a scene, adding, removing, moving and renaming scenes in turn with the views'
parameters; clicking the current scene keeps the values changed since; the title and
note fields edit only the scene shown; they sit by the scene list, above the Animation
box."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets
from qt_events import double_click
from window_reuse import reused_window, reused_window_holder  # noqa: F401  (fixtures)

from core.scenes import Deck, Scene
from core.views import VIEWS

Key = QtCore.Qt.Key
CTRL = QtCore.Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = CTRL | QtCore.Qt.KeyboardModifier.ShiftModifier


def _scene(view_id: str, title: str, **params) -> Scene:
    model = VIEWS[view_id].model
    return Scene(view_id, model.validate(params, partial=True), title, f"note of {title}")


def _three(window):
    """A deck of three scenes (RoPE m=5, ALiBi query=3, sinusoidal d=16), the first
    shown."""
    deck = window.lecture.deck
    deck.set_deck(
        Deck(
            "test deck",
            (
                _scene("rope", "a", m=5),
                _scene("alibi", "b", query=3),
                _scene("sinusoidal", "c", d_model=16),
            ),
        )
    )
    return deck


def _undo(window, qtbot) -> None:
    qtbot.keyClick(window, Key.Key_Z, CTRL)


def _redo(window, qtbot) -> None:
    qtbot.keyClick(window, Key.Key_Z, CTRL_SHIFT)


def _titles(deck) -> list[str]:
    return [s.title for s in deck.scenes]


def _action(window, name: str) -> QtGui.QAction:
    return next(a for a in window.actions() if a.objectName() == name)


def test_a_removed_scene_comes_back_with_ctrl_z(window, qtbot):
    """Remove scene (Ctrl+Shift+Del) and Ctrl+Z: the scene is back at its place and
    shown as it was (its view, the values the lecturer had moved it to, its title and
    note in the fields, its heading number); the view the removal showed has its values
    back too, and the deck is unchanged again. Ctrl+Shift+Z removes it again. Before,
    Ctrl+Z only undid view parameters and the scene was lost."""
    deck = _three(window)
    window.activateWindow()
    assert deck.go(1)
    window.states["alibi"].set_param("query", 5)  # (moved on from the scene's 3)
    alibi_before = window.states["alibi"].values
    qtbot.keyClick(window, Key.Key_Delete, CTRL_SHIFT)
    assert _titles(deck) == ["a", "c"] and deck.index == 1 and deck.modified
    assert window.current_view == "sinusoidal"
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and deck.index == 1 and not deck.modified
    assert window.current_view == "alibi"
    assert window.states["alibi"].values == alibi_before
    assert window.states["alibi"].values["query"] == 5
    assert deck.list.count() == 3 and deck.list.currentRow() == 1
    assert deck.title_edit.text() == "b" and deck.note_edit.toPlainText() == "note of b"
    assert "2/3" in window.views["alibi"].title.text()
    assert window.states["sinusoidal"].values["d_model"] != 16  # (its default again)
    _redo(window, qtbot)
    assert _titles(deck) == ["a", "c"] and deck.index == 1 and deck.modified
    assert window.current_view == "sinusoidal"
    assert window.states["sinusoidal"].values["d_model"] == 16
    assert deck.title_edit.text() == "c" and "2/2" in window.views["sinusoidal"].title.text()
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and window.current_view == "alibi"
    deck.close_deck()


def test_deck_edits_and_parameter_changes_undo_in_the_order_made(window, qtbot):
    """Ctrl+Z undoes the latest step, a deck edit or a parameter change: two removals
    with a slider change between them come back one at a time, the slider change in
    between; nothing is skipped or lost, and redo goes forward the same way."""
    deck = _three(window)
    window.activateWindow()
    remove = _action(window, "action-remove-scene")
    remove.trigger()  # "a" (RoPE): ALiBi's "b" is shown
    window.states["alibi"].set_param("query", 7)
    remove.trigger()  # "b": sinusoidal's "c"
    assert _titles(deck) == ["c"]
    _undo(window, qtbot)
    assert _titles(deck) == ["b", "c"] and window.current_view == "alibi"
    assert window.states["alibi"].values["query"] == 7
    _undo(window, qtbot)  # the slider change, not the first removal
    assert _titles(deck) == ["b", "c"] and window.states["alibi"].values["query"] == 3
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and deck.index == 0
    assert window.current_view == "rope" and window.states["rope"].values["m"] == 5
    assert not deck.modified
    _redo(window, qtbot)
    assert _titles(deck) == ["b", "c"] and window.states["alibi"].values["query"] == 3
    _redo(window, qtbot)
    assert window.states["alibi"].values["query"] == 7
    _redo(window, qtbot)
    assert _titles(deck) == ["c"]
    deck.close_deck()


def test_adding_moving_and_renaming_scenes_are_undone(window, qtbot):
    """Add current view as scene, Move scene later (Ctrl+Shift+Down) and a title typed
    into the field are each one Ctrl+Z; undoing a later removal keeps the renamed
    title (the deck's steps restore the deck as each left it)."""
    deck = _three(window)
    window.activateWindow()
    window.set_view("relative")
    _action(window, "action-add-scene").trigger()
    assert _titles(deck) == ["a", VIEWS["relative"].title, "b", "c"] and deck.index == 1
    qtbot.keyClick(window, Key.Key_Down, CTRL_SHIFT)
    assert _titles(deck) == ["a", "b", VIEWS["relative"].title, "c"] and deck.index == 2
    deck.title_edit.setText("Shaw's clipping")
    deck.title_edit.editingFinished.emit()
    _action(window, "action-remove-scene").trigger()
    assert _titles(deck) == ["a", "b", "c"]
    _undo(window, qtbot)  # the removal: back with the new title
    assert _titles(deck) == ["a", "b", "Shaw's clipping", "c"]
    assert window.current_view == "relative" and deck.title_edit.text() == "Shaw's clipping"
    _undo(window, qtbot)  # the title
    assert _titles(deck) == ["a", "b", VIEWS["relative"].title, "c"]
    assert deck.title_edit.text() == VIEWS["relative"].title
    _undo(window, qtbot)  # the move
    assert _titles(deck) == ["a", VIEWS["relative"].title, "b", "c"] and deck.index == 1
    assert deck.list.currentRow() == 1 and "2/4" in window.views["relative"].title.text()
    _undo(window, qtbot)  # the addition
    assert _titles(deck) == ["a", "b", "c"] and not deck.modified and deck.index == 0
    assert window.current_view == "relative"  # (the view it was added from stays)
    _redo(window, qtbot)
    assert _titles(deck) == ["a", VIEWS["relative"].title, "b", "c"]
    deck.close_deck()
    assert not deck.history  # (a closed deck's edits are not undone into another)


def test_the_fields_edit_only_the_scene_shown(window, qtbot):
    """After Ctrl+4 leaves scene 1 (RoPE), the title and note fields are empty and off
    with a line saying why; what reaches them changes no scene. Back on RoPE (Ctrl+3)
    they edit scene 1 again; Page Down shows and edits scene 2. Before, the fields
    still held scene 1's title and note and edited it unseen."""
    deck = _three(window)
    hint = deck.dock.findChild(QtWidgets.QLabel, "deck-fields-hint")
    window.activateWindow()
    assert deck.title_edit.isEnabled() and deck.title_edit.text() == "a"
    qtbot.keyClick(window, Key.Key_4, CTRL)
    assert window.current_view == "alibi" and deck.index == 0
    assert not deck.title_edit.isEnabled() and not deck.note_edit.isEnabled()
    assert not deck.title_edit.text() and not deck.note_edit.toPlainText()
    assert hint is not None and not hint.isHidden()
    assert "Scene 1 is not shown" in hint.text() and "RoPE, Ctrl+3" in hint.text()
    deck.title_edit.setText("typed")
    deck.title_edit.editingFinished.emit()
    deck.note_edit.setPlainText("typed note")
    assert deck.scenes[0].title == "a" and deck.scenes[0].note == "note of a"
    assert not deck.modified
    qtbot.keyClick(window, Key.Key_3, CTRL)
    assert deck.title_edit.isEnabled() and deck.note_edit.isEnabled() and hint.isHidden()
    assert deck.title_edit.text() == "a" and deck.note_edit.toPlainText() == "note of a"
    qtbot.keyClick(window, Key.Key_PageDown)
    assert deck.index == 1 and deck.title_edit.isEnabled()
    assert deck.title_edit.text() == "b"
    deck.title_edit.setText("b renamed")
    deck.title_edit.editingFinished.emit()
    assert _titles(deck) == ["a", "b renamed", "c"]
    deck.close_deck()
    assert deck.title_edit.isEnabled() and hint.isHidden()  # (a new scene's)


def test_replacing_a_scene_not_shown_keeps_its_title_and_note(window, qtbot):
    """Replace scene with current view while the scene is not shown (the fields are
    off): the scene takes the view and its values and keeps its title and note, and
    shows; Ctrl+Z puts the old scene back."""
    deck = _three(window)
    window.set_view("alibi")
    window.states["alibi"].set_param("query", 6)
    _action(window, "action-replace-scene").trigger()
    replaced = deck.scenes[0]
    assert (replaced.view_id, replaced.params["query"]) == ("alibi", 6)
    assert (replaced.title, replaced.note) == ("a", "note of a")
    assert deck.title_edit.isEnabled() and deck.title_edit.text() == "a"
    window.activateWindow()
    _undo(window, qtbot)
    assert deck.scenes[0].view_id == "rope" and deck.scenes[0].params["m"] == 5
    assert not deck.title_edit.isEnabled()  # (ALiBi still shows: scene 1 is RoPE's)
    assert deck.scenes[0].title == "a"
    deck.close_deck()


def test_title_and_note_sit_by_the_scene_list_above_the_animation_box(window):
    """The title and note fields come right below the scene list, before the
    Animation box (they were below it: at 1280 x 720, 150 % out of sight)."""
    deck = window.lecture.deck
    box = next(w for w in deck.dock.findChildren(QtWidgets.QGroupBox) if w.title() == "Animation")
    body = box.parentWidget()
    deck.show_dock()
    try:
        window.wait_idle()
        QtWidgets.QApplication.processEvents()

        def top(widget: QtWidgets.QWidget) -> int:
            return widget.mapTo(body, QtCore.QPoint(0, 0)).y()

        def bottom(widget: QtWidgets.QWidget) -> int:
            return top(widget) + widget.height()

        assert bottom(deck.list) < top(deck.title_edit) < bottom(deck.title_edit)
        assert bottom(deck.title_edit) < top(deck.note_edit)
        assert bottom(deck.note_edit) < top(box), (bottom(deck.note_edit), top(box))
    finally:
        deck.dock.hide()


def test_a_title_typed_and_not_entered_is_kept_when_the_view_changes(window, qtbot):
    """A title typed into the field and not entered yet, then Ctrl+4: the title goes to
    the scene it was typed for (one undo step) before the fields go off, not lost."""
    deck = _three(window)
    window.activateWindow()
    deck.title_edit.setFocus()
    deck.title_edit.selectAll()
    qtbot.keyClicks(deck.title_edit, "Rotation")
    assert deck.scenes[0].title == "a"  # (not entered yet)
    qtbot.keyClick(window, Key.Key_4, CTRL)
    assert window.current_view == "alibi" and not deck.title_edit.isEnabled()
    assert _titles(deck) == ["Rotation", "b", "c"] and deck.modified
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and not deck.modified
    deck.close_deck()


def test_opening_a_scene_file_leaves_the_decks_scenes_as_they_are(window, tmp_path):
    """File ▸ Open scene… with a deck open: the deck's scenes keep their titles and
    notes (the file's title and note were written into the deck's current scene)."""
    from core.scenes import save_scene

    deck = _three(window)
    path = tmp_path / "waves.pe-scene.json"
    save_scene(_scene("rope", "from the file", m=40), path)
    assert deck.open_scene(path)
    assert window.states["rope"].values["m"] == 40
    assert _titles(deck) == ["a", "b", "c"] and deck.scenes[0].note == "note of a"
    assert not deck.modified
    deck.close_deck()


def test_a_deck_edit_between_merged_changes_stays_undoable(window, qtbot):
    """RoPE's m 5 -> 6 by a run of merged steps (a spin box's arrow keys, the stage's
    nudge keys), a scene added, m -> 7 the same way: Ctrl+Z undoes m -> 7 alone, then the
    added scene, then m -> 6. Before, m -> 7 merged into m -> 6, the first Ctrl+Z went
    back to 5 and the added scene could never be undone."""
    deck = _three(window)
    window.activateWindow()
    state = window.states["rope"]
    state.set_param("m", 6)  # (merge=True: a run of arrow keys is one step)
    _action(window, "action-add-scene").trigger()
    assert _titles(deck) == ["a", VIEWS["rope"].title, "b", "c"]
    state.set_param("m", 7)
    _undo(window, qtbot)
    assert state.values["m"] == 6 and len(deck.scenes) == 4
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and state.values["m"] == 6
    _undo(window, qtbot)
    assert state.values["m"] == 5
    deck.close_deck()


def test_a_deck_edit_after_a_full_parameter_history_keeps_its_place(window, qtbot):
    """With RoPE's undo history full (200 steps, a long lecture of drags), a scene
    added, then m 3 -> 4 -> 3: Ctrl+Z undoes m -> 3 first, then m -> 4, then the added
    scene. Before, the history's length stayed at its limit and the values were back as
    the addition left them, so the addition passed for the latest step and Ctrl+Z took
    the scene out first (the drag back to 3 still to undo)."""
    from gui.widgets.state import UNDO_LIMIT

    deck = _three(window)
    window.activateWindow()
    state = window.states["rope"]
    for m in range(UNDO_LIMIT + 1):
        state.set_param("m", 10 + m % 2, merge=False)
    state.set_param("m", 3, merge=False)
    _action(window, "action-add-scene").trigger()
    assert len(deck.scenes) == 4
    state.set_param("m", 4, merge=False)
    state.set_param("m", 3, merge=False)
    _undo(window, qtbot)
    assert state.values["m"] == 4 and len(deck.scenes) == 4
    _undo(window, qtbot)
    assert state.values["m"] == 3 and len(deck.scenes) == 4
    _undo(window, qtbot)
    assert len(deck.scenes) == 3 and state.values["m"] == 3
    _redo(window, qtbot)
    assert len(deck.scenes) == 4
    deck.close_deck()


def test_the_edit_menu_names_the_deck_step_it_undoes(window, qtbot):
    """With a deck edit the latest step, the Edit menu reads "Undo removing scene 2 “b”"
    (it said only "Undo"), after Ctrl+Z "Redo removing scene 2 “b”"; a parameter change
    after it is the view's step, plain "Undo"; closed, the menu says "Undo" again."""
    deck = _three(window)
    window.activateWindow()
    undo, redo = _action(window, "action-undo"), _action(window, "action-redo")
    assert deck.go(1)
    _action(window, "action-remove-scene").trigger()
    window.edit_menu.aboutToShow.emit()
    assert undo.text() == "&Undo removing scene 2 \u201cb\u201d" and redo.text() == "&Redo"
    window.edit_menu.aboutToHide.emit()
    assert undo.text() == "&Undo"
    _undo(window, qtbot)
    window.edit_menu.aboutToShow.emit()
    assert redo.text() == "&Redo removing scene 2 \u201cb\u201d"
    window.states["alibi"].set_param("query", 6)
    window.edit_menu.aboutToShow.emit()
    assert undo.text() == "&Undo" and redo.text() == "&Redo"
    window.edit_menu.aboutToHide.emit()
    deck.title_edit.setText("Q & K " + "very long title " * 20)  # (shown: alibi's "b")
    deck.title_edit.editingFinished.emit()
    deck.go(0)
    _action(window, "action-remove-scene").trigger()
    window.edit_menu.aboutToShow.emit()
    text = undo.text()
    assert text.startswith("&Undo removing scene 1 \u201ca\u201d")
    window.edit_menu.aboutToHide.emit()
    _undo(window, qtbot)
    deck.go(1)
    _action(window, "action-remove-scene").trigger()
    window.edit_menu.aboutToShow.emit()
    text = undo.text()
    assert "Q && K very long" in text and text.endswith("\u2026") and len(text) < 90
    window.edit_menu.aboutToHide.emit()
    deck.close_deck()


def test_undo_leaves_a_hidden_deck_panel_hidden(window, qtbot):
    """Deck panel hidden (Ctrl+Shift+D), a scene removed, Ctrl+Z and Ctrl+Shift+Z: the
    scene comes back and goes again, the panel stays hidden (each step opened it)."""
    deck = _three(window)
    window.activateWindow()
    deck.show_dock()
    qtbot.keyClick(window, Key.Key_D, CTRL_SHIFT)
    assert deck.dock.isHidden()
    _action(window, "action-remove-scene").trigger()
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and deck.dock.isHidden()
    _redo(window, qtbot)
    assert _titles(deck) == ["b", "c"] and deck.dock.isHidden()
    deck.close_deck()


def test_a_title_typed_and_not_entered_is_asked_about_on_quitting(
    window, qtbot, tmp_path, monkeypatch
):
    """A title typed into the field, not entered, then Ctrl+Q: the unsaved-changes
    question comes (Cancel keeps the window and the title), and Save deck writes it.
    Before, the deck counted as unchanged: the window quit unasked, the title lost."""
    import gui.lecture.deck as deck_module

    asked: list[str] = []
    monkeypatch.setattr(
        deck_module, "ask_unsaved", lambda parent, text: asked.append(text) or "cancel"
    )
    deck = _three(window)
    window.activateWindow()
    deck.title_edit.setFocus()
    deck.title_edit.selectAll()
    qtbot.keyClicks(deck.title_edit, "Rotation")
    window.close()  # (Ctrl+Q)
    assert window.isVisible() and len(asked) == 1
    assert _titles(deck) == ["Rotation", "b", "c"] and deck.modified
    _undo(window, qtbot)
    deck.title_edit.setFocus()
    qtbot.keyClicks(deck.title_edit, " typed")
    path = tmp_path / "d.pe-deck.json"
    assert deck.save_deck(path)
    from core.scenes import load_deck

    assert load_deck(path).scenes[0].title == "a typed" and not deck.modified
    deck.close_deck()


def test_a_note_typed_and_deleted_again_leaves_no_step_and_no_change(window, qtbot):
    """Typing " x" at the end of scene 1's note and deleting it again leaves the deck
    as opened: not modified (quitting asks nothing) and no undo step; Ctrl+Z then
    undoes the step before it. Before, the deck counted as changed and Ctrl+Z said
    "Undone: editing the note of scene 1" and changed nothing."""
    deck = _three(window)
    window.activateWindow()
    window.states["rope"].set_param("m", 8, merge=False)
    deck.note_edit.setFocus()
    deck.note_edit.moveCursor(QtGui.QTextCursor.MoveOperation.End)
    qtbot.keyClicks(deck.note_edit, " x")
    assert deck.scenes[0].note == "note of a x" and deck.modified
    qtbot.keyClick(deck.note_edit, Key.Key_Backspace)
    qtbot.keyClick(deck.note_edit, Key.Key_Backspace)
    assert deck.scenes[0].note == "note of a"
    assert not deck.modified  # (and no step but the opening's)
    assert [step.what for step in deck.history.undo_steps] == [
        "opening the deck \u201ctest deck\u201d"
    ]
    window.setFocus()
    _undo(window, qtbot)
    assert window.states["rope"].values["m"] == 5
    deck.close_deck()


def test_ctrl_z_in_the_note_field_undoes_its_typing_then_the_lectures_steps(window, qtbot):
    """Ctrl+Z with the keyboard in the speaker note field: typing there is undone by
    the field first; with none left to undo, Ctrl+Z is the lecture's undo (the view's
    parameter change before it), as in the title field. Before, the shortcut check
    asked the note's QPlainTextEdit for ``isUndoAvailable`` (a QLineEdit method):
    every Ctrl+Z there printed an AttributeError traceback and the field kept the key,
    so Ctrl+Z did nothing once its typing was undone (seen on Xvfb after a note)."""
    deck = _three(window)
    window.activateWindow()
    window.states["rope"].set_param("m", 8, merge=False)
    deck.note_edit.setFocus()
    deck.note_edit.moveCursor(QtGui.QTextCursor.MoveOperation.End)
    qtbot.keyClicks(deck.note_edit, " x")
    assert deck.scenes[0].note == "note of a x"
    qtbot.keyClick(deck.note_edit, Key.Key_Z, CTRL)  # the field's own typing
    assert deck.note_edit.toPlainText() == "note of a"
    assert window.states["rope"].values["m"] == 8
    qtbot.keyClick(deck.note_edit, Key.Key_Z, CTRL)  # nothing left there: the lecture's
    assert window.states["rope"].values["m"] == 5
    assert deck.note_edit.toPlainText() == "note of a"
    deck.close_deck()


def test_saving_a_deck_scene_keeps_its_staging(window, tmp_path):
    """File ▸ Save scene with a deck scene shown writes its panels, reveal and highlight
    with its view, values, title and note (a revealing scene of the lecture deck saved
    and opened again showed all its plots at once); another view shown saves none."""
    from dataclasses import replace

    from core.scenes import Highlight, load_scene

    deck = _three(window)
    staged = replace(
        deck.scenes[0],
        panels=("plane", "score"),
        reveal=True,
        highlight=Highlight("plane", "series", "q"),
    )
    deck.scenes[0] = staged
    assert deck.go(0)
    path = tmp_path / "s.pe-scene.json"
    assert deck.save_current_scene(path)
    assert load_scene(path) == staged
    window.set_view("alibi")
    assert deck.save_current_scene(path)
    loaded = load_scene(path)
    assert loaded.view_id == "alibi" and loaded.panels == () and not loaded.reveal
    deck.close_deck()


def test_nothing_to_undo_says_where_a_waiting_deck_edit_is_undone(window, qtbot):
    """Scene 2 (ALiBi) removed, which shows scene 3 (sinusoidal); a sinusoidal value
    changed; Ctrl+5 (Relative, nothing to undo) and Ctrl+Z: the status line says the
    removal is undone after the later changes in Sinusoidal (Ctrl+1) (it said only
    "Nothing to undo in Relative"); Ctrl+1, Ctrl+Z twice: the scene is back."""
    deck = _three(window)
    window.activateWindow()
    assert deck.go(1)
    _action(window, "action-remove-scene").trigger()
    window.states["sinusoidal"].set_param("seq_len", 64, merge=False)
    window.set_view("relative")
    _undo(window, qtbot)
    message = window.statusBar().currentMessage()
    assert message == "Undo waits in Sinusoidal (Ctrl+1): removing scene 2 \u201cb\u201d"
    qtbot.keyClick(window, Key.Key_1, CTRL)
    _undo(window, qtbot)
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and window.current_view == "alibi"
    deck.close_deck()


def test_file_dialogs_start_in_the_decks_folder(window, tmp_path, monkeypatch):
    """Open deck…, Open scene… and Save scene… start in the folder of the deck opened
    (they started in the working folder), in the home folder for a shipped deck."""
    from PySide6 import QtWidgets

    from core.scenes import save_deck
    from gui.lecture.deck import shipped_decks

    starts: list[str] = []

    def dialog(parent, title, start, filt):
        starts.append(start)
        return "", ""

    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", dialog)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", dialog)
    folder = tmp_path / "lectures"
    folder.mkdir()
    deck = _three(window)
    save_deck(deck.deck(), folder / "mine.pe-deck.json")
    assert deck.open_deck(folder / "mine.pe-deck.json")
    for name in ("action-open-deck", "action-open-scene", "action-save-scene"):
        _action(window, name).trigger()
    assert starts == [str(folder.resolve())] * 3
    assert deck.open_deck(shipped_decks()[0])
    _action(window, "action-save-scene").trigger()
    assert starts[-1] == str(Path.home())
    deck.close_deck()


def test_stepping_past_either_end_leaves_the_scene_as_moved(window, qtbot):
    """Page Down at the last scene (a clicker pressed once too often) and Page Up at
    the first leave the scene as the lecturer moved it and say where the deck ends;
    they applied the scene again, its values back as saved."""
    deck = _three(window)
    window.activateWindow()
    window.states["rope"].set_param("m", 40, merge=False)
    qtbot.keyClick(window, Key.Key_PageUp)
    assert deck.index == 0 and window.states["rope"].values["m"] == 40
    assert window.statusBar().currentMessage() == "This is the first scene (1/3)"
    assert deck.last()
    window.states["sinusoidal"].set_param("d_model", 20, merge=False)
    qtbot.keyClick(window, Key.Key_PageDown)
    assert deck.index == 2 and window.states["sinusoidal"].values["d_model"] == 20
    assert window.statusBar().currentMessage() == "This is the last scene (3/3)"
    window.set_view("alibi")  # (another view shown: Page Down shows the scene again)
    qtbot.keyClick(window, Key.Key_PageDown)
    assert window.current_view == "sinusoidal" and deck.index == 2
    deck.close_deck()


def test_stepping_a_deck_with_every_scene_removed_says_it_has_none(window, qtbot):
    """Every scene removed: Page Down says the deck has no scenes and how to add one
    (it said "No deck loaded" under the deck's title); Ctrl+Z brings the last back."""
    deck = _three(window)
    window.activateWindow()
    for _ in range(3):
        _action(window, "action-remove-scene").trigger()
    assert not deck.scenes
    qtbot.keyClick(window, Key.Key_PageDown)
    message = window.statusBar().currentMessage()
    assert message.startswith("The deck has no scenes") and "Ctrl+Shift+A" in message
    _undo(window, qtbot)
    assert len(deck.scenes) == 1
    deck.close_deck()
    qtbot.keyClick(window, Key.Key_PageDown)
    assert window.statusBar().currentMessage().startswith("No deck loaded")


def _click_row(deck, qtbot, row: int) -> None:
    """A real mouse click on scene ``row`` of the deck's list."""
    rect = deck.list.visualItemRect(deck.list.item(row))
    assert deck.list.viewport().rect().contains(rect.center())
    qtbot.mouseClick(deck.list.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())


def test_clicking_the_current_scene_keeps_the_values_changed_since(window, qtbot):
    """Scene 1 (RoPE m=5) moved on to m=9, its highlighted row clicked: m stays 9 and a
    status line says how to set the scene's values again (the click applied the scene
    again: the lecturer's changes were lost). With another view shown, the click goes
    back to the scene as left. Restore scene values (Ctrl+Shift+R) sets m=5, one
    Ctrl+Z brings 9 back; double-clicking another scene shows it, one step."""
    deck = _three(window)
    window.activateWindow()
    rope = window.states["rope"]
    rope.set_param("m", 9, merge=False)
    _click_row(deck, qtbot, 0)
    assert rope.values["m"] == 9 and deck.index == 0 and window.current_view == "rope"
    message = window.statusBar().currentMessage()
    assert message == "Scene 1 as you left it (Ctrl+Shift+R resets)"
    window.set_view("alibi")
    _click_row(deck, qtbot, 0)
    assert window.current_view == "rope" and rope.values["m"] == 9 and deck.shown
    qtbot.keyClick(window, Key.Key_R, CTRL_SHIFT)
    assert rope.values["m"] == 5
    assert window.statusBar().currentMessage() == "Scene 1 restored as saved \u2014 Ctrl+Z undoes"
    qtbot.keyClick(window, Key.Key_R, CTRL_SHIFT)  # (again: no step of its own)
    assert window.statusBar().currentMessage() == "Scene 1 already shows its values"
    _undo(window, qtbot)
    assert rope.values["m"] == 9 and deck.index == 0
    rect = deck.list.visualItemRect(deck.list.item(1))  # (a double-click: applied once)
    double_click(deck.list.viewport(), rect.center())
    assert deck.index == 1 and window.current_view == "alibi"
    assert window.states["alibi"].values["query"] == 3
    assert window.statusBar().currentMessage() == "Scene 2 is shown"
    _undo(window, qtbot)  # (one step: back on scene 1 as left)
    assert deck.index == 0 and rope.values["m"] == 9
    deck.close_deck()


def test_nothing_to_redo_says_where_a_waiting_deck_edit_is_redone(window, qtbot):
    """Removing scene 2 (which showed sinusoidal's scene 3) undone, then a sinusoidal
    value changed; in Relative Ctrl+Shift+Z says the removal is redone after undoing
    the later changes in Sinusoidal (Ctrl+1) (it said only "Nothing to redo in
    Relative"); Ctrl+1, Ctrl+Z, Ctrl+Shift+Z: the scene is removed again."""
    deck = _three(window)
    window.activateWindow()
    assert deck.go(1)
    _action(window, "action-remove-scene").trigger()
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"]
    window.states["sinusoidal"].set_param("seq_len", 64, merge=False)
    window.set_view("relative")
    _redo(window, qtbot)
    message = window.statusBar().currentMessage()
    assert message == "Redo waits in Sinusoidal (Ctrl+1): removing scene 2 \u201cb\u201d"
    assert _titles(deck) == ["a", "b", "c"]
    qtbot.keyClick(window, Key.Key_1, CTRL)
    _undo(window, qtbot)
    _redo(window, qtbot)
    assert _titles(deck) == ["a", "c"] and window.current_view == "sinusoidal"
    deck.close_deck()


def _fits_whole(window, key: str) -> str:
    """The status line, after checking that it shows whole with ``key``: as wide as
    the room QStatusBar draws a message in (up to its first permanent widget shown) at
    most, in the bar's own font."""
    bar = window.statusBar()
    message = bar.currentMessage()
    first = next(w for w in (window.backend_label, window.backend_combo) if w.isVisible())
    room = first.geometry().left() - 2 - 6
    assert bar.fontMetrics().horizontalAdvance(message) <= room, (message, room)
    assert key in message, message
    return message


def test_undo_status_lines_show_their_key_at_300_percent_on_1280_x_720(window, qtbot):
    """At 300 % on 1280 x 720 about 34 characters show in the status bar: "Nothing to
    undo in Relative; removing scene 2 “…” is undone after the later changes in
    Sinusoidal (Ctrl+1)" and "Undone: removing … (Ctrl+Shift+Z redoes it)" were cut
    off before their key. Each line now says where (or what) and the key first, and
    what the step did is cut short ("…") to the room; every line fits with its key."""
    long = "Linear biases on the attention scores of every head"
    deck = window.lecture.deck
    deck.set_deck(
        Deck(
            "wide",
            (
                _scene("rope", "a", m=5),
                _scene("alibi", long),
                _scene("sinusoidal", "c", d_model=16),
            ),
        )
    )
    window.activateWindow()
    window.lecture.display.set_scale(3.0)
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.statusBar().width() <= 1280)
    # a change undone in Word order, Ctrl+Shift+Z in Relative: redo waits there
    window.set_view("permutation")
    assert window.states["permutation"].set_param("d_model", 32, merge=False)
    _undo(window, qtbot)
    window.set_view("relative")
    _redo(window, qtbot)
    assert _fits_whole(window, "(Ctrl+6)") == "Redo waits in Word order (Ctrl+6)"
    assert deck.go(1)
    _action(window, "action-remove-scene").trigger()
    _undo(window, qtbot)
    undone = _fits_whole(window, "(Ctrl+Shift+Z redoes it)")
    assert undone.startswith("Undone: remov") and "\u2026 (Ctrl" in undone, undone
    _redo(window, qtbot)  # (removed again: sinusoidal's scene 3 shown)
    redone = _fits_whole(window, "(Ctrl+Z undoes it)")
    assert redone.startswith("Redone: remov"), redone
    assert window.states["sinusoidal"].set_param("seq_len", 64, merge=False)
    window.set_view("relative")
    _undo(window, qtbot)
    assert _fits_whole(window, "(Ctrl+1)").startswith("Undo waits in Sinusoidal (Ctrl+1)")
    window.set_view("sinusoidal")
    _undo(window, qtbot)  # seq_len
    _undo(window, qtbot)  # the removal
    window.states["sinusoidal"].set_param("seq_len", 80, merge=False)
    window.set_view("relative")
    _redo(window, qtbot)
    assert _fits_whole(window, "(Ctrl+1)").startswith("Redo waits in Sinusoidal (Ctrl+1)")
    # the current scene clicked after a change, then Restore scene values
    assert deck.go(0) and window.states["rope"].set_param("m", 9, merge=False)
    _click_row(deck, qtbot, 0)
    assert _fits_whole(window, "(Ctrl+Shift+R resets)").startswith("Scene 1 as you left")
    qtbot.keyClick(window, Key.Key_R, CTRL_SHIFT)
    assert _fits_whole(window, "Ctrl+Z undoes").startswith("Scene 1 restored")
    deck.close_deck()


def _undo_text(window) -> str:
    """The Edit menu's Undo as it reads with the menu open."""
    window.menu("edit").aboutToShow.emit()
    try:
        return _action(window, "action-undo").text()
    finally:
        window.menu("edit").aboutToHide.emit()


def test_opening_a_deck_is_one_step_that_undoes_as_a_whole(window, qtbot):
    """RoPE at m=40, the deck opened (scene 1: RoPE m=5). The Edit menu reads "Undo
    opening the deck “test deck”"; Ctrl+Z closes the deck and RoPE is back at m=40
    under its own title (it undid only m: the deck stayed open on scene 1, "1/3" in
    the heading, over the plots of m=40). Ctrl+Shift+Z opens it again on scene 1."""
    from gui.lecture.deck import NO_DECK

    window.set_view("rope")
    rope = window.states["rope"]
    assert rope.set_param("m", 40, merge=False)
    deck = _three(window)
    window.activateWindow()
    assert rope.values["m"] == 5 and "1/3" in window.views["rope"].title.text()
    assert _undo_text(window) == "&Undo opening the deck \u201ctest deck\u201d"
    _undo(window, qtbot)
    assert rope.values["m"] == 40 and window.current_view == "rope"
    assert not deck.loaded and deck.index == -1 and deck.list.count() == 0
    assert deck.deck_label.text() == NO_DECK and not deck.dock.isVisible()
    assert window.views["rope"].title.text() == VIEWS["rope"].title
    assert (
        window.statusBar()
        .currentMessage()
        .startswith("Undone: opening the deck \u201ctest deck\u201d")
    )
    _redo(window, qtbot)
    assert deck.index == 0 and deck.list.currentRow() == 0 and deck.title == "test deck"
    assert rope.values["m"] == 5 and "1/3" in window.views["rope"].title.text()
    assert deck.dock.isVisible() and not deck.modified
    _undo(window, qtbot)
    _undo(window, qtbot)  # (then RoPE's own change)
    assert rope.values["m"] == 5 and not deck.loaded


def test_going_to_a_scene_is_undone_with_the_values_it_set(window, qtbot):
    """Scene 1 (RoPE m=5) moved to m=7, Page Down (scene 2: ALiBi query=3), Ctrl+Z:
    back on scene 1 as left, m=7, its row and "1/3" (it undid only ALiBi's query and
    left scene 2's title over the plots of before it); Ctrl+Shift+Z: scene 2 again."""
    deck = _three(window)
    window.activateWindow()
    assert window.states["rope"].set_param("m", 7, merge=False)
    qtbot.keyClick(window, Key.Key_PageDown)
    assert deck.index == 1 and window.states["alibi"].values["query"] == 3
    assert _undo_text(window) == "&Undo going to scene 2 \u201cb\u201d"
    _undo(window, qtbot)
    assert deck.index == 0 and deck.list.currentRow() == 0 and window.current_view == "rope"
    assert window.states["rope"].values["m"] == 7 and "1/3" in window.views["rope"].title.text()
    assert window.states["alibi"].values["query"] != 3
    _redo(window, qtbot)
    assert deck.index == 1 and window.current_view == "alibi"
    assert (
        window.states["alibi"].values["query"] == 3 and "2/3" in window.views["alibi"].title.text()
    )
    deck.close_deck()


def test_undoing_the_opening_of_a_deck_brings_the_deck_before_back(window, qtbot):
    """A deck with scene 1 removed (unsaved), another deck opened over it: Ctrl+Z shows
    the first deck again as it was left (two scenes, unsaved), and the next Ctrl+Z
    brings its removed scene back."""
    deck = _three(window)
    window.activateWindow()
    _action(window, "action-remove-scene").trigger()
    assert _titles(deck) == ["b", "c"] and deck.modified
    deck.set_deck(Deck("other deck", (_scene("relative", "r"),)))
    assert _titles(deck) == ["r"] and deck.title == "other deck" and not deck.modified
    _undo(window, qtbot)
    assert deck.title == "test deck" and _titles(deck) == ["b", "c"] and deck.modified
    assert deck.index == 0 and window.current_view == "alibi"
    _undo(window, qtbot)
    assert _titles(deck) == ["a", "b", "c"] and not deck.modified
    assert window.current_view == "rope" and deck.list.currentRow() == 0
    deck.close_deck()


def test_the_deck_a_session_starts_with_has_nothing_before_it_to_undo(window, qtbot):
    """``main.py present`` opens its deck as the session's start: Ctrl+Z on scene 1
    says there is nothing to undo and leaves the deck and scene 1's m=5 (undoing the
    opening closed the deck on the stage); Page Down is undone as in any deck."""
    window.set_view("rope")
    rope = window.states["rope"]
    assert rope.set_param("m", 40, merge=False)
    deck = window.lecture.deck
    deck.set_deck(
        Deck("test deck", (_scene("rope", "a", m=5), _scene("alibi", "b", query=3))),
        start=True,
    )
    window.activateWindow()
    _undo(window, qtbot)
    assert deck.index == 0 and deck.title == "test deck" and rope.values["m"] == 5
    assert window.statusBar().currentMessage() == "Nothing to undo in RoPE"
    qtbot.keyClick(window, Key.Key_PageDown)
    _undo(window, qtbot)
    assert deck.index == 0 and window.current_view == "rope" and rope.values["m"] == 5
    deck.close_deck()


def test_opening_a_scene_file_undoes_with_its_heading(window, qtbot, tmp_path):
    """Sinusoidal shown, RoPE at m=40; File ▸ Open scene… of a RoPE scene "Rotation by
    m" (m=7). The Edit menu reads "Undo opening the scene “Rotation by m”"; Ctrl+Z:
    sinusoidal again, RoPE at m=40 under its own title (it undid only m and left the
    scene's heading over the plots of m=40). Ctrl+Shift+Z: the scene again, heading
    and m=7."""
    from core.scenes import save_scene

    path = tmp_path / "rotation.pe-scene.json"
    save_scene(_scene("rope", "Rotation by m", m=7), path)
    rope = window.states["rope"]
    assert rope.set_param("m", 40, merge=False)
    window.set_view("sinusoidal")
    deck = window.lecture.deck
    window.activateWindow()
    assert deck.open_scene(path)
    heading = window.views["rope"].title
    assert window.current_view == "rope" and rope.values["m"] == 7
    assert "Rotation by m" in heading.text()
    assert _undo_text(window) == "&Undo opening the scene \u201cRotation by m\u201d"
    _undo(window, qtbot)
    assert window.current_view == "sinusoidal" and rope.values["m"] == 40
    assert heading.text() == VIEWS["rope"].title
    assert deck.title_edit.text() == "" and deck.note_edit.toPlainText() == ""
    _redo(window, qtbot)
    assert window.current_view == "rope" and rope.values["m"] == 7
    assert "Rotation by m" in heading.text()
    assert deck.title_edit.text() == "Rotation by m"
    _undo(window, qtbot)
    window.set_view("rope")
    _undo(window, qtbot)  # (then RoPE's own change)
    assert rope.values["m"] == VIEWS["rope"].model.defaults()["m"]
    assert heading.text() == VIEWS["rope"].title


def test_the_current_scene_stays_marked_while_arrow_keys_move_the_highlight(window, qtbot):
    """Scene 1 shown; Down in the scene list highlights scene 2 without showing it
    (the highlighted row looked like the current scene, with no hint). The current
    scene's row keeps "→ " and bold, the status line says "Enter shows scene 2 “b”";
    Enter shows it, and the mark moves with it (a click too, with no "Enter shows"
    line); Ctrl+Z brings scene 1 and its mark back."""
    deck = _three(window)
    window.activateWindow()
    items = [deck.list.item(row) for row in range(3)]
    deck.list.setFocus()
    qtbot.waitUntil(deck.list.hasFocus)
    qtbot.keyClick(deck.list, Key.Key_Down)
    assert deck.list.currentRow() == 1 and deck.index == 0 and window.current_view == "rope"
    assert [i.text() for i in items] == ["→ 1. a", "2. b", "3. c"]
    assert [i.font().bold() for i in items] == [True, False, False]
    assert window.statusBar().currentMessage() == "Enter shows scene 2 \u201cb\u201d"
    qtbot.keyClick(deck.list, Key.Key_Return)
    assert deck.index == 1 and window.current_view == "alibi"
    assert [i.text() for i in items] == ["1. a", "→ 2. b", "3. c"]
    assert [i.font().bold() for i in items] == [False, True, False]
    window.statusBar().clearMessage()
    rect = deck.list.visualItemRect(items[2])
    qtbot.mouseClick(deck.list.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert deck.index == 2 and items[2].text() == "→ 3. c"
    assert "Enter shows" not in window.statusBar().currentMessage()  # (a click shows it)
    _undo(window, qtbot)
    assert deck.index == 1
    _undo(window, qtbot)
    assert deck.index == 0 and window.current_view == "rope"
    items = [deck.list.item(row) for row in range(3)]  # (the list filled again)
    assert [i.text() for i in items] == ["→ 1. a", "2. b", "3. c"]
    assert [i.font().bold() for i in items] == [True, False, False]
    deck.close_deck()


def test_a_scene_clicked_in_an_inactive_window_keeps_the_arrow_keys_in_the_list(window, qtbot):
    """The window not active (a file dialog just closed, the presenter's console used):
    a click on scene 2 (another view: ALiBi) shows it, and Down then highlights scene
    3 in the list, the plots not scrolled. Before, the view switch gave the keyboard to
    the view (the application had no focus widget while the window was inactive), so
    Down went to the plots' scroll area until the list was clicked again."""
    deck = _three(window)
    other = QtWidgets.QWidget()
    other.resize(200, 100)
    other.show()
    other.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is other)
    try:
        _click_row(deck, qtbot, 1)  # ALiBi: a view switch
        assert deck.index == 1 and window.current_view == "alibi"
    finally:
        other.close()
    window.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is window)
    assert QtWidgets.QApplication.focusWidget() is deck.list
    scroll = window.views["alibi"].findChild(QtWidgets.QScrollArea).verticalScrollBar()
    top = scroll.value()
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Key.Key_Down)
    assert deck.list.currentRow() == 2 and deck.index == 1
    assert scroll.value() == top
    deck.close_deck()


def test_scene_status_lines_with_a_three_digit_number_fit_at_300_percent(window, qtbot):
    """Scene 120 of a long deck at 300 % on 1280 x 720 (about 34 characters show): the
    lines of a click on the current scene and of Restore scene values keep their key
    whole. "Scene 120 as you left it (Ctrl+Shift+R resets)" and "Scene 120 restored as
    saved — Ctrl+Z undoes" ran past the room, their key cut off; they take a shorter
    form where the long one does not fit, as "No scene to restore — open a deck or step
    to a scene" does."""
    scenes = tuple(_scene("rope", f"s{k}", m=k % 50) for k in range(1, 121))
    deck = window.lecture.deck
    deck.set_deck(Deck("long", scenes))
    window.activateWindow()
    window.lecture.display.set_scale(3.0)
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.statusBar().width() <= 1280)
    assert deck.go(119) and window.states["rope"].set_param("m", 9, merge=False)
    deck.list.scrollToItem(deck.list.item(119))
    _click_row(deck, qtbot, 119)
    line = _fits_whole(window, "Ctrl+Shift+R")
    assert line.startswith("Scene 120 ") and deck.index == 119, line
    assert window.states["rope"].values["m"] == 9
    qtbot.keyClick(window, Key.Key_R, CTRL_SHIFT)
    line = _fits_whole(window, "Ctrl+Z")
    assert line.startswith("Scene 120 restored") and window.states["rope"].values["m"] == 20
    qtbot.keyClick(window, Key.Key_R, CTRL_SHIFT)
    assert _fits_whole(window, "Scene 120").startswith("Scene 120 already")
    deck.close_deck()
    qtbot.keyClick(window, Key.Key_R, CTRL_SHIFT)  # (its long form ran past the room too)
    assert _fits_whole(window, "No current scene") == "No current scene to restore"


def test_a_deck_without_a_title_is_saved_under_the_title_it_is_shown_with(window, tmp_path):
    """A new deck's dock said "Untitled deck" while its file said "title": "Lecture"
    (QA gui_out/deck1.json): the title shown and the title saved are one."""
    import json
    import re

    from core.scenes import load_deck

    deck = window.lecture.deck
    deck.add_current()
    deck.add_current()
    shown = re.fullmatch(r"<b>(.*)</b> — 2 scenes", deck.deck_label.text())
    assert shown is not None
    path = tmp_path / "new.pe-deck.json"
    assert deck.save_deck(path)
    assert json.loads(path.read_text(encoding="utf-8"))["title"] == shown[1] == "Untitled deck"
    assert Path(deck.suggested_path()) == path  # (its own file now)
    deck.close_deck()
    assert deck.open_deck(path)
    assert deck.deck_label.text() == "<b>Untitled deck</b> — 2 scenes"
    assert load_deck(path).title == "Untitled deck"
    deck.close_deck()
    # no deck: the current view saved as a one-scene deck, titled as a new deck is shown
    assert deck.save_deck(tmp_path / "one.pe-deck.json")
    assert load_deck(tmp_path / "one.pe-deck.json").title == "Untitled deck"
    deck.close_deck()


def test_a_long_scene_title_shows_its_beginning_in_the_field(window):
    """A scene title longer than the dock's title field is shown from its first word:
    ``setText`` left the caret at the end, so at 200 % the field read "...them apart"
    without "Same words". Going to a scene, and the fields following it, show the start."""
    deck = window.lecture.deck
    long_title = "Same words, other order: what tells them apart " * 3
    deck.set_deck(Deck("long", (_scene("rope", long_title.strip(), m=5), _scene("alibi", "b"))))
    deck.show_dock()
    try:
        window.wait_idle()
        field = deck.title_edit
        QtWidgets.QApplication.processEvents()
        assert field.fontMetrics().horizontalAdvance(field.text()) > field.width()  # too long
        for index in (1, 0):  # shown by going to the scene
            assert deck.go(index)
            assert field.cursorPosition() == 0, index
            # the caret, at the text's start, is at the field's left edge: the start shows
            assert field.cursorRect().left() < field.width() // 4
        deck._fields_for = -1
        field.setText("x")  # (what a stale field holds; the fields follow the scene again)
        deck._sync_fields()
        assert field.text() == long_title.strip() and field.cursorPosition() == 0
    finally:
        deck.close_deck()
        deck.dock.hide()
