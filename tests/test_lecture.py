"""Lecture features: scene/deck files, deck stepping, presentation, themes, animation,
settings persistence and ``run_present``."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtTest, QtWidgets
from shiboken6 import Shiboken
from tiers import FULL
from window_reuse import reused_window, reused_window_holder  # noqa: F401  (fixtures)

from core.scenes import (
    Deck,
    Scene,
    SceneError,
    deck_from_dict,
    load_deck,
    load_scene,
    save_deck,
    scene_from_dict,
    scene_to_dict,
)
from core.views import VIEWS
from gui.lecture.deck import shipped_decks
from gui.lecture.settings import MemoryStore, restore_settings, save_settings
from gui.theme import current_theme, set_theme

Key = QtCore.Qt.Key


@pytest.fixture
def window(reused_window):  # noqa: F811
    """This module's tests reuse one main window where they can (``window_reuse``)."""
    return reused_window


@pytest.fixture
def fresh_window(qapp, open_window):
    """A main window of its own (1600 x 1000)."""
    with open_window(1600, 1000) as win:
        yield win


@pytest.fixture(autouse=True)
def _reset_theme():
    yield
    set_theme("light", ui_scale=1.0, sequential="viridis", diverging="CET-D1A")


def _arrays(window, view_id):
    return {key: plot.plotted_arrays() for key, plot in window.views[view_id].plots.items()}


def _assert_same_arrays(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert a[key].keys() == b[key].keys()
        for name in a[key]:
            np.testing.assert_array_equal(a[key][name], b[key][name])


def _deck(*scenes: Scene) -> Deck:
    return Deck("test deck", scenes)


def _scene(view_id: str, title: str, **params) -> Scene:
    return Scene(view_id, VIEWS[view_id].model.validate(params, partial=True), title, "note")


def test_scene_round_trip_reproduces_view_params_and_arrays(window, tmp_path):
    lecture = window.lecture
    window.view_widget("rope")
    state = window.states["rope"]
    assert state.set_values(
        {**state.values, "m": 12, "n": 3, "style": "interleaved", "base": 500.0}
    )
    window.set_view("rope")
    assert window.wait_idle()
    before_values, before_arrays = state.values, _arrays(window, "rope")
    path = tmp_path / "scene.json"
    assert lecture.deck.save_current_scene(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "pe-studio-scene" and data["version"] == 1
    assert data["view"] == "rope" and data["params"]["m"] == 12
    state.reset()
    window.set_view("sinusoidal")
    assert window.wait_idle()
    assert lecture.deck.open_scene(path)
    assert window.wait_idle()
    assert window.current_view == "rope"
    assert state.values == before_values
    _assert_same_arrays(_arrays(window, "rope"), before_arrays)
    assert load_scene(path) == Scene("rope", before_values, data["title"], data["note"])


def _scene_text(**changes) -> str:
    base = {
        "format": "pe-studio-scene",
        "version": 1,
        "view": "sinusoidal",
        "title": "t",
        "note": "",
        "params": {"seq_len": 50},
    }
    base.update(changes)
    return json.dumps({k: v for k, v in base.items() if v is not ...})


MALFORMED = [
    ('{"format": "pe-studio-scene",\n  "version": 1,,}', "invalid JSON at line 2, column"),
    ("[1, 2]", "expected a JSON object"),
    (_scene_text(format="pe-studio-deck"), "format: expected 'pe-studio-scene'"),
    (_scene_text(format=...), "format: missing"),
    (_scene_text(version=2), "version: 2 is newer than this program supports"),
    (_scene_text(version="1"), "version: expected an integer"),
    (_scene_text(view="nope"), "view: unknown view 'nope'"),
    (_scene_text(view=...), "view: missing"),
    (_scene_text(params=...), "params: missing"),
    (_scene_text(params=[1]), "params: expected an object"),
    (_scene_text(extra=1), "extra: unknown key"),
    (_scene_text(title=5), "title: expected text"),
    (_scene_text(params={"seq_len": 0}), "params.seq_len: 0 is out of range 1..65536"),
    (_scene_text(params={"seq_len": "ten"}), "params.seq_len: expected an integer"),
    (_scene_text(params={"dims": [1, -3]}), "params.dims: -3 is out of range"),
    (_scene_text(params={"bogus": 1}), "params.bogus: unknown parameter"),
    (_scene_text(params={"seq_len": True}), "params.seq_len: expected an integer, got true"),
    (
        _scene_text(view="rope", params={}, highlight={"panel": "plane", "row": 1}),
        "highlight.row: panel 'plane' shows arrows, not a heatmap",
    ),
    (
        _scene_text(highlight={"panel": "heatmap", "series": "dim 1"}),
        "highlight.series: panel 'heatmap' shows a heatmap, not curves",
    ),
]


def test_malformed_scene_files_leave_state_untouched(window, tmp_path):
    lecture = window.lecture
    window.states["sinusoidal"].set_param("d_model", 20)
    window.view_widget("alibi")
    window.set_view("alibi")
    assert window.wait_idle()
    snapshot = {vid: s.values for vid, s in window.states.items()}
    for i, (text, expected) in enumerate(MALFORMED):
        path = tmp_path / f"bad{i}.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(SceneError) as info:
            load_scene(path)
        assert expected in str(info.value) and "\n" not in str(info.value)
        assert not lecture.deck.open_scene(path)
        assert expected in lecture.deck.last_error
        assert window.current_view == "alibi"
        assert {vid: s.values for vid, s in window.states.items()} == snapshot
    assert not lecture.deck.open_scene(tmp_path / "missing.json")
    assert "cannot read" in lecture.deck.last_error
    assert not lecture.deck.open_deck(tmp_path / "bad0.json")
    assert window.current_view == "alibi"


def test_deck_errors_name_the_scene_and_field(tmp_path):
    good = scene_to_dict(_scene("alibi", "a"), header=False)
    bad = dict(good, params={"seq_len": 0})
    with pytest.raises(SceneError, match=r"scenes\[1\]\.params\.seq_len: 0 is out of range"):
        deck_from_dict({"format": "pe-studio-deck", "version": 1, "scenes": [good, bad]})
    with pytest.raises(SceneError, match="scenes: a deck needs at least one scene"):
        deck_from_dict({"format": "pe-studio-deck", "version": 1, "scenes": []})
    with pytest.raises(SceneError, match="this file is a scene"):
        deck_from_dict(scene_to_dict(_scene("alibi", "a")))
    deck = _deck(_scene("rope", "r", m=7), _scene("sinusoidal", "s", dims=(0, 3)))
    save_deck(deck, tmp_path / "d.json")
    assert load_deck(tmp_path / "d.json") == deck
    assert scene_from_dict(scene_to_dict(deck.scenes[1])) == deck.scenes[1]


def test_clicker_and_arrow_keys_step_the_deck(window, qtbot):
    deck = window.lecture.deck
    deck.set_deck(
        _deck(
            _scene("sinusoidal", "one", d_model=16),
            _scene("rope", "two", m=40),
            _scene("alibi", "three", query=3),
        )
    )
    assert deck.index == 0 and window.current_view == "sinusoidal"
    qtbot.keyClick(window, Key.Key_PageDown)
    assert deck.index == 1 and window.current_view == "rope"
    assert window.states["rope"].values["m"] == 40
    assert "two" in window.views["rope"].title.text()
    qtbot.keyClick(window, Key.Key_Right)
    assert deck.index == 2 and window.current_view == "alibi"
    qtbot.keyClick(window, Key.Key_PageDown)  # stays on the last scene
    assert deck.index == 2
    qtbot.keyClick(window, Key.Key_PageUp)
    qtbot.keyClick(window, Key.Key_Left)
    assert deck.index == 0 and window.current_view == "sinusoidal"
    # Arrow keys belong to a focused spin box; Page Down still steps.
    window.activateWindow()
    spin = window.panels["sinusoidal"].rows["d_model"].editor
    spin.setFocus()
    qtbot.keyClick(spin, Key.Key_Right)
    assert deck.index == 0
    qtbot.keyClick(spin, Key.Key_PageDown)
    assert deck.index == 1


def test_undo_redo_after_deck_step(window, qtbot):
    deck = window.lecture.deck
    deck.set_deck(_deck(_scene("rope", "a", m=5), _scene("rope", "b", m=105, n=109)))
    state = window.states["rope"]
    qtbot.keyClick(window, Key.Key_PageDown)
    assert state.values["m"] == 105
    next(a for a in window.actions() if a.objectName() == "action-undo").trigger()
    assert state.values["m"] == 5 and state.values["n"] == 9
    next(a for a in window.actions() if a.objectName() == "action-redo").trigger()
    assert state.values["m"] == 105 and state.values["n"] == 109


def test_close_deck_leaves_the_plain_views_and_their_undo_history(window, qtbot):
    """File ▸ Close deck (also while presenting): no scenes, file or title and note; each
    view under its own title (on one line, as never titled) with every panel shown; the
    deck dock hidden, also once presentation mode ends; the parameters the scenes set
    stay, and so does their undo history. The same deck opened again stages its first
    scene again."""
    from gui.lecture.deck import NO_DECK

    deck, focus, display = window.lecture.deck, window.lecture.focus, window.lecture.display
    staged = replace(_scene("rope", "first", m=5), panels=("score", "plane"), reveal=True)
    lecture = _deck(staged, _scene("alibi", "second"), _scene("rope", "third", m=105))
    deck.set_deck(lecture)
    assert deck.dock.isVisible() and focus.staging and _visible_plots(window) == ["score"]
    assert deck.go(2)
    assert deck.go(0)
    assert window.states["rope"].values["m"] == 5
    assert window.views["rope"].title.text() != VIEWS["rope"].title
    display.enter_presentation(fullscreen=False)
    try:
        close = next(a for a in window.actions() if a.objectName() == "action-close-deck")
        close.trigger()
        assert not deck.scenes and deck.index == -1 and deck.path is None and not deck.title
        assert not deck.title_edit.text() and not deck.note_edit.toPlainText()
        assert deck.list.count() == 0 and deck.deck_label.text() == NO_DECK
        assert not deck.loaded and not focus.staging
        assert window.lecture.presenter.current_note() == ""
        for view_id, widget in window.views.items():
            assert widget.title.text() == VIEWS[view_id].title, view_id
            assert not widget.title.wordWrap() and not widget.title.toolTip(), view_id
        assert window.current_view == "rope" and window.states["rope"].values["m"] == 5
        assert _visible_plots(window) == list(window.views["rope"].plots)
        assert not deck.close_deck()  # nothing left to close
        assert not deck.step(1)  # no deck to step
    finally:
        display.leave_presentation()
    assert not deck.dock.isVisible()
    undo = next(a for a in window.actions() if a.objectName() == "action-undo")
    undo.trigger()  # the scenes' steps: back to scene 3's m, then the default
    assert window.states["rope"].values["m"] == 105
    deck.set_deck(lecture)
    assert deck.dock.isVisible() and _visible_plots(window) == ["score"]


def _action(window, name: str) -> QtGui.QAction:
    return next(a for a in window.actions() if a.objectName() == name)


def test_a_scene_added_after_switching_view_is_titled_by_its_view(window, qtbot):
    """Lecture ▸ Add current view as scene while a deck scene is shown: the new scene
    gets its view's own title and no note (it used to copy the shown scene's title and
    speaker note: an ALiBi scene titled and noted as the RoPE scene before it), the
    fields then edit the new scene, and the scene before keeps its title and note."""
    deck = window.lecture.deck
    deck.set_deck(_deck(_scene("rope", "rope scene", m=5), _scene("sinusoidal", "waves")))
    window.set_view("alibi")
    _action(window, "action-add-scene").trigger()
    assert [s.view_id for s in deck.scenes] == ["rope", "alibi", "sinusoidal"]
    added = deck.scenes[1]
    assert (added.title, added.note) == (VIEWS["alibi"].title, "")
    assert (deck.scenes[0].title, deck.scenes[0].note) == ("rope scene", "note")
    assert deck.index == 1 and deck.title_edit.text() == VIEWS["alibi"].title
    assert deck.note_edit.toPlainText() == ""
    assert "2/3" in window.views["alibi"].title.text()
    deck.title_edit.setText("ALiBi slopes")
    deck.title_edit.editingFinished.emit()
    assert deck.scenes[1].title == "ALiBi slopes" and deck.scenes[0].title == "rope scene"


def test_removing_a_scene_shows_the_scene_now_in_its_place(window, qtbot):
    """Lecture ▸ Remove scene: the scene after it is shown (view, parameters, title and
    note fields), so Page Down goes on to the one after that (the removed scene stayed
    on screen and Page Down skipped its successor); removing the last shows the one
    before it; removing the only one leaves empty fields and the view's own title."""
    deck = window.lecture.deck
    deck.set_deck(
        _deck(
            _scene("rope", "a", m=5),
            _scene("alibi", "b", query=3),
            _scene("sinusoidal", "c", d_model=16),
        )
    )
    remove = _action(window, "action-remove-scene")
    remove.trigger()
    assert [s.title for s in deck.scenes] == ["b", "c"] and deck.index == 0
    assert window.current_view == "alibi" and window.states["alibi"].values["query"] == 3
    assert deck.title_edit.text() == "b" and "1/2" in window.views["alibi"].title.text()
    qtbot.keyClick(window, Key.Key_PageDown)
    assert deck.index == 1 and window.current_view == "sinusoidal"
    remove.trigger()  # the last: the one before it
    assert deck.index == 0 and window.current_view == "alibi" and deck.title_edit.text() == "b"
    remove.trigger()
    assert not deck.scenes and deck.index == -1
    assert not deck.title_edit.text() and not deck.note_edit.toPlainText()
    assert window.views["alibi"].title.text() == VIEWS["alibi"].title


def test_unsaved_deck_changes_are_asked_about_before_they_are_lost(
    window, qtbot, tmp_path, monkeypatch
):
    """A deck with scenes added, removed or renamed is not thrown away unasked:
    quitting, opening another deck and closing it ask Save / Discard / Cancel. Cancel
    keeps the window open and the deck as edited; Save writes the deck (to the file
    asked for) and goes on; Discard goes on. Stepping or saving leaves nothing to ask."""
    import gui.lecture.deck as deck_module

    asked: list[str] = []
    answers: list[str] = []

    def ask(parent, text):
        asked.append(text)
        return answers.pop(0)

    monkeypatch.setattr(deck_module, "ask_unsaved", ask)
    deck = window.lecture.deck
    lecture = _deck(_scene("rope", "a", m=5), _scene("alibi", "b", query=3))
    deck.set_deck(lecture)
    deck.step(1)
    assert not deck.modified and deck.close_deck() and not asked  # nothing to lose
    deck.set_deck(lecture)
    window.set_view("sinusoidal")
    _action(window, "action-add-scene").trigger()
    assert deck.modified and len(deck.scenes) == 3
    answers.append("cancel")
    window.close()  # quitting
    assert window.isVisible() and len(asked) == 1 and "unsaved changes" in asked[0]
    answers.append("cancel")
    assert not deck.open_deck(shipped_decks()[0]) and len(deck.scenes) == 3
    answers.append("cancel")
    assert not deck.close_deck() and len(deck.scenes) == 3 and deck.modified
    saved = tmp_path / "edited.json"
    monkeypatch.setattr(deck, "ask_path", lambda: str(saved))
    answers.append("save")
    assert deck.close_deck() and not deck.scenes
    assert [s.view_id for s in load_deck(saved).scenes] == ["rope", "sinusoidal", "alibi"]
    deck.set_deck(lecture)
    deck.title_edit.setText("renamed")
    deck.title_edit.editingFinished.emit()
    assert deck.modified
    answers.append("discard")
    assert deck.open_deck(saved) and len(deck.scenes) == 3 and not deck.modified
    assert len(asked) == 5 and not answers


def test_move_scene_earlier_and_later_reorders_the_deck(window, qtbot):
    """Lecture ▸ Move scene earlier / later (Ctrl+Shift+Up / Down) reorders the deck: the
    scene moves with its title, note and parameters, stays the current one, the list
    and the heading number follow, nothing moves past either end, and the deck counts
    as changed (saving it writes the new order)."""
    deck = window.lecture.deck
    deck.set_deck(
        _deck(_scene("rope", "a", m=5), _scene("alibi", "b", query=3), _scene("relative", "c"))
    )
    ctrl_shift = (
        QtCore.Qt.KeyboardModifier.ControlModifier | QtCore.Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.keyClick(window, Key.Key_Down, ctrl_shift)
    assert [s.title for s in deck.scenes] == ["b", "a", "c"] and deck.index == 1
    assert deck.modified and deck.list.currentRow() == 1
    assert deck.list.item(1).text() == "→ 2. a" and deck.list.item(0).text() == "1. b"
    assert "2/3" in window.views["rope"].title.text()
    qtbot.keyClick(window, Key.Key_Down, ctrl_shift)
    qtbot.keyClick(window, Key.Key_Down, ctrl_shift)  # already the last
    assert [s.title for s in deck.scenes] == ["b", "c", "a"] and deck.index == 2
    qtbot.keyClick(window, Key.Key_PageUp)
    assert deck.index == 1 and window.current_view == "relative"
    qtbot.keyClick(window, Key.Key_Up, ctrl_shift)
    qtbot.keyClick(window, Key.Key_Up, ctrl_shift)  # already the first
    assert [s.title for s in deck.scenes] == ["c", "b", "a"] and deck.index == 0
    assert deck.scenes[2].params["m"] == 5


def test_save_deck_starts_at_the_decks_file_never_over_a_shipped_one(window, tmp_path, monkeypatch):
    """File ▸ Save deck… starts at the deck's own file; for the shipped lecture it
    starts at a file named after the deck's title in the home folder (it started in the
    working folder with no name, where a lecturer could save over the shipped deck)."""
    starts: list[str] = []

    def dialog(parent, title, start, filt):
        starts.append(start)
        return "", ""

    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", dialog)
    monkeypatch.setenv("HOME", str(tmp_path))
    save = _action(window, "action-save-deck")
    deck = window.lecture.deck
    shipped = next(p for p in shipped_decks() if "lecture" in p.name)
    assert deck.open_deck(shipped)
    save.trigger()
    assert starts[-1] == str(tmp_path / "positional-encoding-the-course-lecture.pe-deck.json")
    mine = tmp_path / "mine.json"
    save_deck(_deck(_scene("rope", "a", m=5)), mine)
    assert deck.open_deck(mine)
    save.trigger()
    assert starts[-1] == str(mine)


def _visible_plots(window) -> list[str]:
    widget = window.views[window.current_view]
    assert window.wait_idle(60)
    return [k for k, p in widget.plots.items() if p.plot.isVisible()]


def test_shipped_decks_load_and_validate():
    paths = shipped_decks()
    assert len(paths) >= 3
    seen = set()
    for path in paths:
        deck = load_deck(path)
        assert deck.title and deck.scenes
        for scene in deck.scenes:
            assert VIEWS[scene.view_id].model.validate(scene.params) == scene.params
            assert scene.title
            seen.add(scene.view_id)
    assert seen == set(VIEWS)


def test_presentation_mode_hides_chrome_and_scales(window, qtbot):
    display = window.lecture.display
    widget = window.views[window.current_view]
    normal_pt = current_theme().font_pt(20)
    qtbot.keyClick(window, Key.Key_F5)
    assert display.presenting
    assert not window.menuBar().isVisible() and not window.statusBar().isVisible()
    assert not window.side.isVisible()
    assert current_theme().ui_scale == display.present_scale > 1.0
    assert f"{current_theme().font_pt(20)}pt" in widget.title.styleSheet()
    assert current_theme().font_pt(20) > normal_pt
    qtbot.keyClick(window, Key.Key_Equal, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert current_theme().ui_scale == display.present_scale == 1.75
    qtbot.keyClick(window, Key.Key_Escape)
    assert not display.presenting
    assert window.menuBar().isVisible() and window.side.isVisible()
    assert current_theme().ui_scale == 1.0


def test_theme_toggle_changes_canvas_background(window, qtbot):
    widget = window.views[window.current_view]
    before = widget.canvas.backgroundBrush().color().name()
    qtbot.keyClick(window, Key.Key_T, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert current_theme().name == "dark"
    after = widget.canvas.backgroundBrush().color().name()
    assert after != before and after == current_theme().background
    window.lecture.display.cycle_sequential()
    assert current_theme().sequential == "cividis"


def test_sweep_plays_pauses_undoes_and_exports(window, qtbot, tmp_path):
    sweep = window.lecture.sweep
    window.set_view("rope")
    state = window.states["rope"]
    assert sweep.param_name() == "m"
    now = [0.0]
    sweep.clock = lambda: now[0]  # a fake clock: no wall-clock timing
    qtbot.keyClick(window, Key.Key_Space)
    assert sweep.playing
    setup = sweep.setup()
    now[0] = setup.duration * 0.5
    sweep._tick()
    assert state.values["m"] == round((setup.start + setup.end) / 2) and state.values["m"] >= 8
    qtbot.keyClick(window, Key.Key_Space)
    assert not sweep.playing
    assert state.undo() and state.values["m"] == 5  # the whole sweep is one undo step
    frames = sweep.export_frames(tmp_path / "frames", max_frames=3)
    assert [f.name for f in frames] == [f"rope_m_{i:04d}.png" for i in range(3)]
    assert all(f.stat().st_size > 1000 for f in frames)
    assert state.values["m"] == 5


def test_help_overlay_lists_shortcuts(window, qtbot):
    qtbot.keyClick(window, Key.Key_F1)
    help_overlay = window.lecture.help
    assert help_overlay.isVisible()
    text = help_overlay.label.text()
    for needle in ("Next scene", "Presentation mode", "F5", "Undo", "Full screen"):
        assert needle in text
    # keys that are no menu action are listed too: on stage Right nudges, not steps
    for needle in ("Nudge the main parameter", "Shift+Left, Shift+Right", "Double-click"):
        assert needle in text
    qtbot.keyClick(window, Key.Key_Escape)
    assert not help_overlay.isVisible()


def test_settings_round_trip_and_corrupt_entries(window, qtbot):
    lecture = window.lecture
    lecture.display.set_theme_name("dark")
    lecture.display.set_scale(1.25)
    lecture.display.set_colormaps(sequential="cividis")
    window.view_widget("alibi")
    window.states["alibi"].set_param("heads", 4)
    window.set_view("alibi")
    store = MemoryStore()
    save_settings(window, store)
    set_theme("light", ui_scale=1.0, sequential="viridis")
    from gui.app import build_window as MainWindow

    second = MainWindow()
    qtbot.addWidget(second)
    assert restore_settings(second, store) == []
    assert second.current_view == "alibi"
    assert second.states["alibi"].values["heads"] == 4
    assert current_theme().name == "dark" and current_theme().ui_scale == 1.25
    assert current_theme().sequential == "cividis"
    store.put("params/rope", '{"m": -3}')
    store.put("params/sinusoidal", "not json")
    store.put("window/geometry", "***")
    store.put("display/ui_scale", "9")
    store.put("views/last", "nope")
    third = MainWindow()
    qtbot.addWidget(third)
    ignored = restore_settings(third, store)
    assert {line.split(":")[0] for line in ignored} == {
        "params/rope",
        "params/sinusoidal",
        "window/geometry",
        "display/ui_scale",
        "views/last",
    }
    assert "rope" not in third.states or third.states["rope"].values["m"] == 5
    second.close()
    third.close()
    assert second.lecture.store.get("display/theme") is not None  # saved on close


def test_more_or_less_text_choices_outlive_the_session(window, qtbot):
    """The lecturer's More… / Less choice of a view's explanation and verdict is saved
    with the settings and chosen again in the next session (it lasted only for the
    session); a view without a choice stays the room's; a bad entry is reported."""
    from gui.app import build_window

    window.view_widget("permutation").verdict_box.choose(True)
    window.view_widget("rope").explanation_box.choose(False)
    store = MemoryStore()
    try:
        save_settings(window, store)
    finally:
        window.views["permutation"].verdict_box.choose(None)
        window.views["rope"].explanation_box.choose(None)
    assert store.get("text/permutation/verdict") == "whole"
    assert store.get("text/rope/explanation") == "short"
    assert store.get("text/rope/verdict") is None
    store.put("text/alibi/verdict", "maybe")
    second = build_window()
    qtbot.addWidget(second)
    ignored = restore_settings(second, store)
    assert [line.split(":")[0] for line in ignored] == ["text/alibi/verdict"]
    assert second.views["permutation"].verdict_box.choice is True
    assert second.views["rope"].explanation_box.choice is False
    assert second.views["rope"].verdict_box.choice is None
    assert second.views["permutation"].explanation_box.choice is None
    second.close()


def test_run_present_rejects_bad_deck(tmp_path, capsys):
    from gui.app import run_present

    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "pe-studio-deck", "version": 1, "scenes": [{"view": "x", "params": {}}]}',
        encoding="utf-8",
    )
    assert run_present(str(bad), 0.0) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "scenes[0].view: unknown view 'x'" in err


# ----------------------------------------------------------------------- persistence
def test_only_valid_parameters_are_saved(window):
    """A view whose parameters fail to compute is saved with the last ones it drew."""
    window.view_widget("relative")
    state = window.states["relative"]
    assert state.set_param("seq_len", 20)
    assert window.wait_idle()
    drawn = dict(state.values)
    assert state.set_param("max_distance", 2)  # valid alone; cannot be drawn with 32 buckets
    assert window.wait_idle()
    assert "max_distance" in window.view_error("relative")
    store = MemoryStore()
    save_settings(window, store)
    saved = json.loads(store.get("params/relative"))
    assert VIEWS["relative"].model.validate(saved, partial=True) == drawn


def _relaunch(qtbot, entries, messages=None):
    """A new window whose settings hold ``entries`` when it restores them; its status
    bar messages go to ``messages`` (a 10 s message may be gone when a loaded machine
    gets to read it)."""
    from gui.app import build_window

    win = build_window()
    qtbot.addWidget(win)
    for key, value in entries.items():
        win.settings.put(key, value)
    if messages is not None:
        win.statusBar().messageChanged.connect(messages.append)
    win.resize(1600, 1000)
    win.show()
    qtbot.waitUntil(lambda: win.lecture.restored, timeout=10000)
    assert win.wait_idle()
    return win


@FULL
def test_restored_state_that_cannot_be_drawn_falls_back_to_defaults(qtbot):
    messages: list[str] = []
    win = _relaunch(
        qtbot,
        {
            "params/relative": json.dumps({"max_distance": 2}),
            "params/alibi": json.dumps({"heads": 4}),
            "views/last": "relative",
        },
        messages,
    )
    assert win.current_view == "relative"
    assert win.states["relative"].values == VIEWS["relative"].model.defaults()
    assert win.view_error("relative") == "" and win.views["relative"].data is not None
    assert not win.views["relative"].banner.isVisible()
    assert win.states["alibi"].values["heads"] == 4  # the other entries are restored
    message = [m for m in messages if m][-1]  # the last one shown
    assert message.startswith("Saved settings not used: params/relative")
    assert "max_distance" in message and message.count("\n") == 0
    win.close()


@FULL
def test_out_of_range_scene_after_quit_and_relaunch(window, qtbot):
    """Deck scene 7 (learned, seq_len 80 > 64 rows), quit, relaunch: the learned view is
    drawn, and no other view's problem is in the status bar."""
    deck = window.lecture.deck
    assert deck.open_deck(next(p for p in shipped_decks() if "lecture" in p.name))
    assert deck.go(6) and window.current_view == "learned"
    assert window.states["learned"].values["seq_len"] == 80
    assert window.wait_idle()
    store = MemoryStore()
    save_settings(window, store)
    messages: list[str] = []
    second = _relaunch(qtbot, store.data, messages)
    assert second.current_view == "learned"
    widget = second.views["learned"]
    assert widget.data is not None and widget.data.panels  # not a blank canvas
    assert widget.data.params == second.states["learned"].values
    message = "\n".join(messages)  # every message shown
    for vid in second.states:
        if vid != "learned" and second.view_error(vid):
            assert second.view_error(vid) not in message
    second.close()


@FULL
@pytest.mark.parametrize("args", [["present", "lecture"], []], ids=["present", "selftest"])
def test_present_and_selftest_never_write_the_users_settings(tmp_path, args):
    """``main.py present DECK`` and ``PE_STUDIO_SELFTEST=1`` read the user's settings but
    leave the file exactly as it was."""
    if args:
        args = ["present", str(next(p for p in shipped_decks() if "lecture" in p.name))]
    conf = tmp_path / "PE Studio" / "Positional Encoding Studio.conf"
    conf.parent.mkdir()
    conf.write_text("[views]\nlast=alibi\n", encoding="utf-8")
    before = conf.read_bytes()
    env = dict(
        os.environ,
        XDG_CONFIG_HOME=str(tmp_path),
        PE_STUDIO_SELFTEST="1",
        QT_QPA_PLATFORM="offscreen",
    )
    env.pop("PE_STUDIO_NO_SETTINGS", None)
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, str(root / "main.py"), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert "first-frame-ms" in done.stdout
    assert conf.read_bytes() == before
    assert sorted(tmp_path.rglob("*")) == [conf.parent, conf]


def test_settings_store_is_shared_by_lecture_and_export(window, tmp_path):
    from gui.export import actions as ea

    assert window.lecture.store is window.settings
    ea.remember_dir(window.settings, tmp_path)
    assert ea.last_dir(window.settings) == str(tmp_path)
    assert window.settings.get(ea.SETTINGS_KEY) == str(tmp_path)


# ----------------------------------------------------------------------- leaks
# What a view's plots are made of. The census must see each of them in the comparison
# view before the toggles (else it could not fail for them): until 3 December 2026 it
# counted QCheckBox wrappers, and with the view boxes' menus built on first use (pg_compat)
# there were none, before or after, whatever a toggle left behind.
_PLOT_PARTS = (
    pg.PlotItem,
    pg.AxisItem,
    pg.ViewBox,
    pg.LegendItem,
    pg.LabelItem,
    pg.TextItem,
    QtWidgets.QGraphicsTextItem,
    QtGui.QTextDocument,
)


@dataclass(frozen=True)
class _Census:
    """What is alive, counted after collecting garbage."""

    objects: int  # GC-tracked Python objects (gc.get_objects)
    qt: Counter[type]  # QObjects and graphics items with a Python wrapper, by class
    widgets: Counter[type]  # widgets, by class (those whose wrapper is gone too)

    def parts(self) -> dict[str, int]:
        """How many of each of :data:`_PLOT_PARTS` (subclasses included) are alive."""
        return {
            part.__name__: sum(n for cls, n in self.qt.items() if issubclass(cls, part))
            for part in _PLOT_PARTS
        }


def _census() -> _Census:
    """The QObjects and graphics items alive, by class, from Shiboken's list of wrappers
    (pyqtgraph's items are such wrappers; values such as QColor are not counted).
    gc.get_objects() leaves out what gui_gc.install froze (gc.freeze) when the worker's
    first engine started: one of those replaced by a new one would read as one more.
    Widgets by class from QApplication.allWidgets(): a widget whose wrapper is gone is
    alive all the same."""
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    gc.collect()
    qt = Counter(
        type(w)
        for w in Shiboken.getAllValidWrappers()
        if isinstance(w, (QtCore.QObject, QtWidgets.QGraphicsItem))
    )
    widgets = Counter(type(w) for w in QtWidgets.QApplication.allWidgets())
    return _Census(len(gc.get_objects()), qt, widgets)


def _settled_census(window: Any) -> _Census:
    """:func:`_census` once the window is done with the last toggle: its full-quality
    redraw, throttled text and timers ran (right after ``wait_idle`` the count moved by
    40-90 objects depending on whether that redraw had run, and the test failed 3 runs
    in 8 alone); the census taken when two in a row, 50 ms apart, agree."""
    view = window.views[window.current_view]
    view.flush_text()
    view.finish_live_frame()
    last = _census()
    for _ in range(40):
        QtTest.QTest.qWait(50)
        now = _census()
        if now == last:
            return now
        last = now
    return last


def _growth(before: Counter[type], after: Counter[type]) -> dict[str, int]:
    """The classes whose count changed, by how much."""
    changed = {cls: after[cls] - before[cls] for cls in before.keys() | after.keys()}
    return {
        f"{cls.__module__}.{cls.__qualname__}": n
        for cls, n in sorted(changed.items(), key=lambda item: item[0].__qualname__)
        if n
    }


@FULL
def test_theme_toggles_do_not_leak(fresh_window):
    """Every theme change re-styles the plots in place (until 2 December 2026 it rebuilt
    them, and the comparison view's table panel kept the old ones with their context
    menus): nothing a toggle makes may stay behind."""
    window = fresh_window  # (its own: no other view built, as the census was measured)
    window.set_view("compare")
    assert window.wait_idle()
    display = window.lecture.display
    # Warm-up: caches, both themes' style sheets, weak-key tables. From the second toggle
    # on the census is flat (toggle by toggle: the same count), so two warm-up toggles
    # suffice; even counts end in the theme the test started with.
    for _ in range(2):
        display.toggle_theme()
        assert window.wait_idle()
    before = _settled_census(window)
    parts = before.parts()
    assert all(parts.values()), parts  # the census sees every part of a plot
    # Two toggles: the bound below is per toggle, and 6 cost 4 more re-styles (3.5 s of
    # CPU). While toggles rebuilt the plots, a planted leak (ViewWidget.show_data keeping
    # the plots it replaces) left 6 365 objects after 2 toggles; without it 0 were left.
    toggles = 2
    for _ in range(toggles):
        display.toggle_theme()
        assert window.wait_idle()
    after = _settled_census(window)
    # Not one Qt object or widget more (or fewer) of any class: a toggle re-styles what
    # is there. One QGraphicsTextItem kept in the loop above fails here (+1
    # QGraphicsTextItem); the census of QCheckBox wrappers it replaces passed with it.
    assert _growth(before.qt, after.qt) == {}
    assert _growth(before.widgets, after.widgets) == {}
    # What remains of all Python objects, counted once the window has settled (the same
    # count in every run): 6 objects a toggle (2, 6 and 12 toggles: +12, +36, +72), weak
    # references, sets and bound built-in methods, not traced yet. The unsettled count
    # moved by 40-90 and this bound (then < 4) failed 3 runs in 8; 12 a toggle still
    # fails a leak a thirtieth of the one guarded against (400-900 objects a toggle: a
    # plot and its context menus).
    assert (after.objects - before.objects) / toggles < 12, (before.objects, after.objects)


def test_only_a_shown_window_filters_the_applications_events(qtbot, monkeypatch):
    """The lecture controller's application-wide event filter (shortcut overrides) is
    installed while its window is shown: a closed window kept it, and every closed
    window's Python filter then ran on every event of the process."""
    from gui.app import build_window

    win = build_window()
    qtbot.addWidget(win)
    seen: list[QtCore.QObject] = []
    lecture = win.lecture
    original = lecture._shortcut_override

    def spy(obj, event):  # type: ignore[no-untyped-def]
        seen.append(obj)
        return original(obj, event)

    # A plain Python helper of the filter, patched on this instance only: replacing the
    # C++ virtual eventFilter itself on the class left shiboken calling a freed function
    # later in the worker (a segfault).
    monkeypatch.setattr(lecture, "_shortcut_override", spy)
    probe = QtCore.QObject()  # belongs to no window: only an application filter sees it

    def filtered() -> bool:
        seen.clear()
        event = QtGui.QKeyEvent(
            QtCore.QEvent.Type.ShortcutOverride,
            QtCore.Qt.Key.Key_A,
            QtCore.Qt.KeyboardModifier.NoModifier,
        )
        QtCore.QCoreApplication.sendEvent(probe, event)
        return probe in seen

    assert not filtered()  # built, not shown yet
    win.show()
    assert filtered()
    win.close()
    assert not filtered()
    win.show()  # shown again: the shortcut overrides work again
    assert filtered()
    win.close()


@FULL
def test_a_theme_changed_while_a_view_is_hidden_shows_when_it_is_shown(window, qtbot):
    """A theme change redraws the views on screen at once and a hidden view (another
    page of the stack) when it is next shown: it never shows in the old colours."""
    first = window.current_view
    hidden = "alibi" if first != "alibi" else "rope"
    window.set_view(hidden)
    assert window.wait_idle(30)
    window.set_view(first)
    assert window.wait_idle(30)
    widget = window.views[hidden]

    def pens() -> set[str]:
        return {
            plot.plot.getAxis("left").textPen().color().name() for plot in widget.plots.values()
        }

    light = pens()
    qtbot.keyClick(window, Key.Key_T, QtCore.Qt.KeyboardModifier.ControlModifier)
    dark = current_theme().foreground
    assert current_theme().name == "dark" and {dark} != light
    window.set_view(hidden)  # no event processed in between: its first paint is dark
    assert pens() == {dark}
    assert widget.canvas.backgroundBrush().color().name() == current_theme().background
