"""Presenter view (issue 14, item 5): the audience screen shows only the stage, the
lecturer's screen the current and next scene, the note, a timer and the parameters; with
one screen the speaker note never covers the plots."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6 import QtCore

from core.scenes import Deck, Scene
from core.views import VIEWS
from gui.lecture.presenter import (
    NO_NOTE,
    Presenter,
    ScreenPlan,
    format_elapsed,
    plan_screens,
    scene_summary,
)
from gui.lecture.stage_strip import StageControls

Key = QtCore.Qt.Key


def _scene(view_id: str, title: str, note: str = "", **params) -> Scene:
    return Scene(view_id, VIEWS[view_id].model.validate(params, partial=True), title, note)


DECK = Deck(
    "test",
    (
        _scene("rope", "Rotation", "Say: q turns by m·θ.", m=7),
        _scene("alibi", "Bias", "<b>not bold</b>", query=3),
        _scene("sinusoidal", "Waves"),
    ),
)


@pytest.mark.parametrize(
    ("screens", "primary", "plan"),
    [
        ([], 0, ScreenPlan(0, None)),
        ([(0, 0, 1920, 1080)], 0, ScreenPlan(0, None)),
        # laptop (primary) + projector: stage on the projector, presenter on the laptop
        ([(0, 0, 1600, 900), (1600, 0, 1920, 1080)], 0, ScreenPlan(1, 0)),
        ([(0, 0, 1920, 1080), (1920, 0, 1600, 900)], 1, ScreenPlan(0, 1)),
        # a projector smaller than the laptop is still the audience's
        ([(0, 0, 2560, 1600), (2560, 0, 1024, 768)], 0, ScreenPlan(1, 0)),
        # three screens: the largest that is not the primary
        ([(0, 0, 1600, 900), (1600, 0, 1280, 720), (2880, 0, 3840, 2160)], 0, ScreenPlan(2, 0)),
        ([(0, 0, 1600, 900), (1600, 0, 1920, 1080)], 5, ScreenPlan(1, 0)),  # bad primary
    ],
)
def test_plan_screens(screens, primary, plan):
    assert plan_screens(screens, primary) == plan
    rects = [QtCore.QRect(*g) for g in screens]
    assert plan_screens(rects, primary) == plan


def test_timer_and_summary_texts():
    assert format_elapsed(-3) == "0:00"
    assert format_elapsed(59.9) == "0:59"
    assert format_elapsed(61) == "1:01"
    assert format_elapsed(3600 + 62) == "1:01:02"
    assert scene_summary("rope", VIEWS["rope"].model.validate({"m": 40}, partial=True)) == (
        "RoPE · head_dim = 64, base = 10000.0, style = half, pair = 0"
    )


def test_one_screen_note_strip_is_outside_the_plots(window, qtbot):
    presenter = window.feature(Presenter)
    lecture = window.lecture
    lecture.deck.set_deck(DECK)
    lecture.display.enter_presentation(fullscreen=False)
    assert presenter.plan == ScreenPlan(0, None)
    assert presenter.view is None  # one screen: no presenter window of its own
    dock = presenter.note_dock
    assert not dock.isVisible()
    qtbot.keyClick(
        window,
        Key.Key_N,
        QtCore.Qt.KeyboardModifier.ControlModifier | QtCore.Qt.KeyboardModifier.ShiftModifier,
    )
    assert dock.isVisible()
    assert dock.label.text() == "Say: q turns by m·θ."
    assert dock.label.textFormat() == QtCore.Qt.TextFormat.PlainText
    assert window.wait_idle()
    # not drawn over the stage: its own strip below it, the stage shrinks
    stage = QtCore.QRect(window.stage.mapTo(window, QtCore.QPoint(0, 0)), window.stage.size())
    strip = QtCore.QRect(dock.mapTo(window, QtCore.QPoint(0, 0)), dock.size())
    assert not stage.intersects(strip) and strip.top() >= stage.bottom()
    assert not window.stage.isAncestorOf(dock.label)
    lecture.deck.step(1)
    assert dock.label.text() == "<b>not bold</b>"  # plain text, shown literally
    lecture.deck.step(1)
    assert dock.label.text() == NO_NOTE
    lecture.deck.note_edit.setPlainText("Point at the lowest row.")  # edited in the deck dock
    assert dock.label.text() == "Point at the lowest row."
    lecture.display.leave_presentation()
    assert not dock.isVisible()


def test_note_of_a_left_scene_is_not_shown_as_the_stage_s(window, qtbot):
    """Scene 1 (RoPE) shown, then Ctrl+3 (ALiBi) on stage: the strip and the presenter
    window say that the stage shows ALiBi and scene 1 is left, not scene 1's note as if
    it were ALiBi's (the strip showed the lecture deck's YaRN note under Sinusoidal's
    plots); back on scene 1's view its note shows again."""
    presenter = window.feature(Presenter)
    lecture = window.lecture
    lecture.deck.set_deck(DECK)
    lecture.display.enter_presentation(fullscreen=False)
    ctrl, shift = (
        QtCore.Qt.KeyboardModifier.ControlModifier,
        QtCore.Qt.KeyboardModifier.ShiftModifier,
    )
    try:
        qtbot.keyClick(window, Key.Key_N, ctrl | shift)
        qtbot.keyClick(window, Key.Key_V, ctrl | shift)
        dock, view = presenter.note_dock, presenter.view
        assert dock.isVisible() and view is not None and view.isVisible()
        assert dock.label.text() == view.note.text() == "Say: q turns by m·θ."
        qtbot.keyClick(window, Key.Key_4, ctrl)  # ALiBi, the 4th view
        assert window.current_view == "alibi" and lecture.deck.index == 0
        left = dock.label.text()
        assert "m·θ" not in left and "q turns" not in left
        assert "ALiBi" in left and "scene 1 \u201cRotation\u201d" in left
        assert "RoPE, Ctrl+3" in left  # where its note is
        assert view.note.text() == left  # the presenter window says the same
        assert view.now_title.text() == "Now: ALiBi (scene 1/3 left)"
        assert view.next_title.text() == "Next 2/3: Bias"  # (Page Down goes there)
        qtbot.keyClick(window, Key.Key_3, ctrl)  # back to the scene's view
        assert dock.label.text() == view.note.text() == "Say: q turns by m·θ."
        assert view.now_title.text() == "Now 1/3: Rotation"
    finally:
        lecture.display.leave_presentation()
        presenter.close_view()
        presenter.note_dock.hide()


def test_one_screen_note_strip_is_as_high_as_its_note(window, qtbot):
    """On stage (1920 x 1050) the speaker-note strip is as high as its note needs:
    a one-line note takes a strip of about two lines, a long one more, the whole note
    shows, and the strip never takes more than 35 % of the window (NOTE_SHARE). It was 378 px
    high for every note (the label's wrapped size hint), the plots a third smaller."""
    from PySide6 import QtWidgets

    presenter = window.feature(Presenter)
    lecture = window.lecture
    long_note = " ".join(["The rotation keeps the norm; only the angle m - n matters."] * 9)
    lecture.deck.set_deck(
        Deck("notes", (_scene("rope", "Long", long_note), _scene("rope", "Short", "One line.")))
    )
    window.resize(1920, 1050)
    lecture.display.enter_presentation(fullscreen=False)
    dock, label = presenter.note_dock, presenter.note_dock.label
    try:
        presenter.toggle_note()

        def settle() -> tuple[int, int]:
            for _ in range(4):
                QtWidgets.QApplication.processEvents()
            return label.heightForWidth(label.width()), dock.height() - label.height()

        need, chrome = settle()
        assert label.height() >= need  # the whole note shows
        assert need + chrome <= dock.height() <= need + chrome + 2
        long_height = dock.height()
        lecture.deck.step(1)
        need, chrome = settle()
        assert label.height() >= need and dock.height() <= need + chrome + 2
        assert dock.height() < long_height / 2 and dock.height() < 110
        lecture.deck.note_edit.setPlainText(" ".join([long_note] * 6))
        settle()
        assert dock.height() <= 0.35 * window.height() + 1  # (NOTE_SHARE)
        high = dock.height()
        label.setText("A verdict one line shorter.")  # (the presenter's live verdict)
        dock.schedule_fit(grow_only=True)
        settle()
        assert dock.height() == high  # the stage is not laid out again for less
        dock.schedule_fit()
        settle()
        assert dock.height() < 110
    finally:
        dock.hide()
        lecture.display.leave_presentation()
        lecture.deck.close_deck()


def test_the_note_strips_close_button_grows_with_the_ui_scale(window, qtbot):
    """The speaker-note strip's close button stayed the style's 10 px square at 150,
    200 and 300 % beside a title two or three times as large. Now its icon is about the
    title's line height, and the button a little more, at every scale (0.8 and 1.25 of
    it); a click anywhere on it (its corners too) hides the strip."""
    from PySide6 import QtWidgets

    presenter = window.feature(Presenter)
    lecture = window.lecture
    lecture.deck.set_deck(DECK)
    display = lecture.display
    display.enter_presentation(fullscreen=False)
    dock = presenter.note_dock

    def close_button() -> QtWidgets.QAbstractButton:
        """The strip's one button (the dock's own title-bar button before)."""
        (button,) = [b for b in dock.findChildren(QtWidgets.QAbstractButton) if b.isVisible()]
        return button

    sizes: dict[float, tuple[int, int, int]] = {}
    try:
        for scale in (1.0, 1.5, 2.0, 3.0):
            display.set_scale(scale)
            if not dock.isVisible():
                presenter.toggle_note()
            for _ in range(4):
                QtWidgets.QApplication.processEvents()
            button = close_button()
            line = dock.fontMetrics().height()  # (its title's)
            icon = button.iconSize()
            # an icon about as large as the title's letters, on a button a little larger
            assert 0.7 * line <= icon.width() == icon.height() <= line
            assert line <= button.width() == button.height() <= 1.5 * line
            assert button.isVisible() and button.height() <= dock.height() - dock.label.height()
            sizes[scale] = (line, button.width(), button.height())
            # the whole button is its hit area: a click at its corner hides the strip
            corner = QtCore.QPoint(button.width() - 2, button.height() - 2)
            assert button.childAt(corner) is None  # (no child takes the click)
            qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton, pos=corner)
            assert not dock.isVisible()
        line_1, width_1, height_1 = sizes[1.0]
        for scale, (line, width, height) in sizes.items():
            assert line >= scale * line_1 * 0.8  # (the title grows with the scale) ...
            assert (
                width >= scale * width_1 * 0.8 and height >= scale * height_1 * 0.8
            )  # ... so does the button
        assert sizes[3.0][1] >= 40  # (it was 10-16 px at every scale)
    finally:
        dock.hide()
        display.set_scale(1.5)
        display.leave_presentation()
        lecture.deck.close_deck()


def test_one_screen_presenter_window_opens_large_enough_to_read(window, qtbot):
    """Ctrl+Shift+V with one screen (to rehearse): the presenter window opens two thirds
    of the screen wide and three quarters high, centred, not at its size hint (about
    500 x 330 px in the corner under Xvfb at 1920 x 1080, titles and note cut off)."""
    presenter = window.feature(Presenter)
    window.lecture.deck.set_deck(DECK)
    presenter.toggle_view()
    try:
        view = presenter.view
        assert view is not None and view.isVisible()
        avail = window.screen().availableGeometry()
        assert view.width() >= avail.width() * 0.6 and view.height() >= avail.height() * 0.7
        assert avail.contains(view.frameGeometry())
        assert abs(view.frameGeometry().center().x() - avail.center().x()) <= 2
    finally:
        presenter.close_view()


def test_presenter_window_follows_the_deck_and_edits_parameters(window, qtbot):
    presenter = window.feature(Presenter)
    lecture = window.lecture
    lecture.deck.set_deck(DECK)
    lecture.display.enter_presentation(fullscreen=False)
    qtbot.keyClick(
        window,
        Key.Key_V,
        QtCore.Qt.KeyboardModifier.ControlModifier | QtCore.Qt.KeyboardModifier.ShiftModifier,
    )
    view = presenter.view
    assert view is not None and view.isVisible() and view.isWindow()
    assert view.now_title.text() == "Now 1/3: Rotation"
    assert view.next_title.text() == "Next 2/3: Bias"
    assert view.next_summary.text().startswith("ALiBi")
    assert view.note.text() == "Say: q turns by m·θ."
    assert re.fullmatch(r"\d+:\d\d", view.elapsed.text())
    assert re.fullmatch(r"\d\d:\d\d", view.clock.text())
    assert presenter.panel is not None and presenter.panel.state is window.states["rope"]
    # a live picture of the stage
    assert window.wait_idle()
    presenter.update_preview()
    pixmap = view.preview.pixmap()
    assert pixmap is not None and not pixmap.isNull()
    # the panel there edits the view (same state: plot follows, undo works)
    spin = presenter.panel.rows["m"].editor
    before = pixmap.cacheKey()
    presenter.preview_timer.stop()
    spin.setValue(21)
    assert window.states["rope"].values["m"] == 21
    assert presenter.preview_timer.isActive()  # a new picture once the stage is still
    assert window.wait_idle()
    presenter.preview_timer.timeout.emit()
    assert view.preview.pixmap().cacheKey() != before
    assert "m=21" in " ".join(a.name for p in window.views["rope"].data.panels for a in p.arrows)
    window.states["rope"].undo()
    assert spin.value() == 7
    # the clicker's keys work with the keyboard in the presenter window, and the
    # fields there keep their arrows
    view.activateWindow()
    spin.setFocus()
    qtbot.keyClick(spin, Key.Key_Up)
    assert window.states["rope"].values["m"] == 8 and lecture.deck.index == 0
    qtbot.keyClick(spin, Key.Key_PageDown)
    assert lecture.deck.index == 1 and window.current_view == "alibi"
    assert view.now_title.text() == "Now 2/3: Bias"
    assert view.note.text() == "<b>not bold</b>"
    assert presenter.panel.state is window.states["alibi"]
    lecture.deck.step(1)
    assert view.next_title.text() == "Next: end of the deck"
    presenter.restart_timer()
    assert view.elapsed.text() == "0:00"
    lecture.display.leave_presentation()
    assert not view.isVisible()


def _panel_order(panel) -> list[str]:
    """The panel's parameters from top to bottom, as laid out (their fields' places)."""
    panel.layout().activate()
    tops = {
        name: (row.editor.mapTo(panel, QtCore.QPoint(0, 0)).y(), index)
        for index, (name, row) in enumerate(panel.rows.items())
    }
    return sorted(tops, key=tops.__getitem__)


def test_the_presenter_panel_shows_the_main_parameter_first_as_the_strip(window, qtbot):
    """The presenter window's parameter panel listed the parameters in the model's order
    (RoPE's query position m fifth, below head_dim, base, style and pair), while the
    strip on stage puts the scene's main parameter, the one ←/→ move and Space sweeps,
    first. Now the panel does too, for each view the deck shows, with the strip's
    choice; the main window's panel keeps the model's order."""
    presenter = window.feature(Presenter)
    lecture = window.lecture
    window.set_view("rope")
    assert window.wait_idle()
    rope = [p.name for p in VIEWS["rope"].model.params]
    assert _panel_order(window.panels["rope"]) == rope  # (the main window's)
    lecture.deck.set_deck(DECK)
    lecture.display.enter_presentation(fullscreen=False)
    try:
        presenter.open_view()
        assert window.wait_idle()
        controls = window.feature(StageControls)
        for view_id, main in (("rope", "m"), ("alibi", "query"), ("sinusoidal", "base")):
            assert window.current_view == view_id
            panel = presenter.panel
            assert panel is not None and panel.state is window.states[view_id]
            controls.show_strip()
            strip_first = next(iter(controls.strip.cells))
            order = _panel_order(panel)
            assert order[0] == main == strip_first
            model = [p.name for p in VIEWS[view_id].model.params]
            assert order == [main] + [name for name in model if name != main]
            lecture.deck.step(1)
            assert window.wait_idle()
        # another main parameter (Ctrl+Shift+P: the next one to sweep) is first when
        # the panel is shown again, as in the strip
        lecture.deck.go(0)
        assert window.wait_idle()
        lecture.sweep.choose("n")
        presenter.refresh()
        assert _panel_order(presenter.panel)[:2] == ["n", "head_dim"]
    finally:
        lecture.display.leave_presentation()
    window.set_view("rope")
    assert window.wait_idle()
    assert _panel_order(window.panels["rope"]) == rope


TWO_SCREENS = {
    "screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": 1600, "height": 900},
        {"name": "projector", "x": 1600, "y": 0, "width": 1920, "height": 1080},
    ]
}

SCRIPT = r"""
import json
from PySide6 import QtWidgets
from core.scenes import load_deck
from gui.app import build_window
from gui.lecture.deck import shipped_decks
from gui.lecture.presenter import Presenter
from gui.render.math_text import source_text

app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
win = build_window(persist=False)
path = next(p for p in shipped_decks() if "lecture" in p.name)
lec = win.lecture
win.resize(1200, 800)
win.show()
before = [win.screen().name(), win.geometry().x(), win.geometry().y(), 1200, 800]
lec.deck.set_deck(load_deck(path), path)
win.wait_idle()
lec.display.enter_presentation(fullscreen=True)
win.wait_idle()
for _ in range(20):
    app.processEvents()
p = win.feature(Presenter)
v = p.view
g = lambda r: [r.x(), r.y(), r.width(), r.height()]
out = {
    "screens": [s.name() for s in app.screens()],
    "plan": [p.plan.audience, p.plan.presenter],
    "stage_screen": win.screen().name(),
    "stage_geometry": g(win.geometry()),
    "full": win.isFullScreen(),
    "chrome": win.menuBar().isVisible() or win.statusBar().isVisible(),
    "view_visible": v is not None and v.isVisible(),
    "view_screen": v.screen().name(),
    "view_geometry": g(v.geometry()),
    "now": v.now_title.text(),
    "next": v.next_title.text(),
    "note": source_text(v.note),  # (what it shows, its math typeset: out_B)
    "scene_note": lec.deck.scenes[0].note,
    "note_dock": p.note_dock.isVisible(),
    "panel": p.panel.state.view_id,
    "view_id": win.current_view,
    "elapsed": v.elapsed.text(),
}
lec.display.leave_presentation()
for _ in range(5):
    app.processEvents()
out["after_visible"] = v.isVisible()
out["before"] = before
out["after"] = [win.screen().name(), win.geometry().x(), win.geometry().y(), win.width(), win.height()]
out["after_full"] = win.isFullScreen()
# the projector as a screen of another virtual desktop (Xvfb's -screen 1: the native
# window is re-created there and must be shown again to be mapped)
from PySide6 import QtCore


class Shows(QtCore.QObject):
    count = 0

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.Show:
            self.count += 1
        return False


laptop = app.screens()[0]
win.windowHandle().setScreen(laptop)  # back on the laptop, windowed
win.setGeometry(laptop.availableGeometry().adjusted(0, 0, -400, -300))
for _ in range(5):
    app.processEvents()
shows = Shows()
win.installEventFilter(shows)
Presenter.same_desktop = staticmethod(lambda screen, other: False)
lec.display.enter_presentation(fullscreen=True)
for _ in range(20):
    app.processEvents()
out["other_desktop"] = {
    "shown_again": shows.count,
    "visible": win.isVisible(),
    "stage_screen": win.screen().name(),
    "full": win.isFullScreen(),
}
lec.display.leave_presentation()
for _ in range(5):
    app.processEvents()
out["other_desktop"]["after_screen"] = win.screen().name()
print("RESULT " + json.dumps(out))
win.close()
"""


@pytest.mark.slow
def test_two_screens_stage_on_projector_presenter_on_laptop(tmp_path):
    config = tmp_path / "screens.json"
    config.write_text(json.dumps(TWO_SCREENS))
    env = dict(
        os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", PE_STUDIO_NO_SETTINGS="1"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT "))
    out = json.loads(line[len("RESULT ") :])
    assert out["screens"] == ["laptop", "projector"]
    assert out["plan"] == [1, 0]
    # the audience screen: only the stage, full screen
    assert out["stage_screen"] == "projector" and out["full"] and not out["chrome"]
    assert out["stage_geometry"] == [1600, 0, 1920, 1080]
    assert not out["note_dock"]
    # the lecturer's screen: current and next scene, note, timer, parameters
    assert out["view_visible"] and out["view_screen"] == "laptop"
    x, y, w, h = out["view_geometry"]
    assert x >= 0 and x + w <= 1600 and w > 800 and h > 450
    assert out["now"].startswith("Now 1/") and out["next"].startswith("Next 2/")
    # the scene's note, then (Word order on stage) the verdict the stage shows in short
    assert out["note"].startswith(out["scene_note"] or NO_NOTE) and out["note"]
    assert out["panel"] == out["view_id"]
    assert re.fullmatch(r"\d+:\d\d", out["elapsed"])
    assert not out["after_visible"]
    # leaving it, the window goes back to the laptop as it was: it stayed full size on
    # the projector (seen on Xvfb), its panels and the deck's speaker notes before the
    # audience and the laptop's screen empty
    assert out["before"][0] == "laptop"
    assert out["after"] == out["before"] and not out["after_full"]
    # the projector on another virtual desktop (found on Xvfb with -screen 1: the stage's
    # re-created window stayed unmapped there, the audience screen black): shown again
    other = out["other_desktop"]
    assert other["shown_again"] == 1 and other["visible"] and other["full"]
    assert other["stage_screen"] == "projector"
    assert other["after_screen"] == "laptop"


def test_the_next_box_says_why_it_is_empty(window, qtbot):
    """The presenter view without a deck showed "Next: no deck loaded" over a blank
    white box; the box says what the stage shows then, and at the deck's last scene
    that nothing comes after it."""
    presenter = window.feature(Presenter)
    deck = window.lecture.deck
    if deck.loaded:  # (no deck in a new window)
        assert deck.close_deck()
    presenter.toggle_view()
    try:
        view = presenter.view
        assert view is not None and view.isVisible()
        assert view.next_title.text() == "Next: no deck loaded"
        assert view.next_picture.text().startswith("No deck: the stage shows\nthe view")
        assert view.next_picture.pixmap().isNull()
        deck.set_deck(DECK)
        assert deck.go(len(DECK.scenes) - 1)
        qtbot.waitUntil(lambda: view.next_title.text() == "Next: end of the deck")
        assert view.next_picture.text() == "This is the deck's last scene"
    finally:
        presenter.close_view()
