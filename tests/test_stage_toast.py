"""The status bar's messages on stage (gui.widgets.stage_toast): the status bar is
hidden there, and Page Down at a deck's last scene or the laser's hint went unseen."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6 import QtCore
from qt_events import settle_window
from tiers import gate_cover

from core.scenes import Deck, Scene
from core.views import VIEWS
from gui.widgets.stage_toast import BACKGROUND, TOAST_MS

Key = QtCore.Qt.Key


def _scene(view_id: str, title: str, **params) -> Scene:
    model = VIEWS[view_id].model
    return Scene(view_id, model.validate(params, partial=True), title, "")


def _deck(studio):
    deck = studio.lecture.deck
    deck.set_deck(
        Deck("toast deck", (_scene("rope", "a", m=5), _scene("sinusoidal", "b", d_model=16)))
    )
    return deck


def _on_stage(studio, toast) -> bool:
    """Whether the toast shows whole within the stage, in its upper half (the notes
    line and the lower plots' axes are in the lower one)."""
    stage = studio.stage
    area = QtCore.QRect(stage.mapTo(studio, QtCore.QPoint(0, 0)), stage.size())
    box = toast.geometry()
    return area.contains(box) and box.center().y() < area.center().y()


def _in_window(studio, widget) -> QtCore.QRect:
    return QtCore.QRect(widget.mapTo(studio, QtCore.QPoint(0, 0)), widget.size())


def _covered(studio, widget, toast) -> list[str]:
    """What of ``widget`` (a view) the toast lies over: its formula line, its notes
    line, its plots."""
    box, out = toast.geometry(), []
    if widget.formula.isVisible() and box.intersects(_in_window(studio, widget.formula)):
        out.append("formula")
    if widget.status.isVisible() and box.intersects(_in_window(studio, widget.status)):
        out.append("notes line")
    port = widget.canvas.viewport()
    for key, plot in widget.plots.items():
        if not plot.plot.isVisible():
            continue
        rect = widget.canvas.mapFromScene(plot.plot.sceneBoundingRect()).boundingRect()
        rect.moveTopLeft(port.mapTo(studio, rect.topLeft()))
        if box.intersects(rect):
            out.append(key)
    return out


def _painted(studio, toast) -> bool:
    """Whether the window shows the toast (not the stage over it): a pixel of its
    padding, left of its text, has its background colour."""
    box = toast.geometry()
    seen = studio.grab().toImage().pixelColor(box.left() + 2, box.center().y())
    return seen.name() == BACKGROUND


def test_a_message_on_stage_shows_there_and_goes(studio, qtbot, show_view):
    """Page Down at the last scene on stage: "This is the last scene (2/2)" shows over
    the stage (the status bar is hidden there) and goes after its time; the laser's
    hint shows too. Off stage the status bar says it, and no toast shows."""
    deck = _deck(studio)
    toast = studio.stage_toast
    try:
        assert deck.last()
        show_view(studio, studio.current_view, (1280, 720), 2.0, present=True)
        studio.activateWindow()
        # (as `main.py present` left it: the docks' layout raised the stage over the
        # widgets made after it, and the toast was hidden under the plots on Xvfb)
        studio.view_stack.raise_()
        assert studio.statusBar().isHidden() and toast.isHidden()
        qtbot.keyClick(studio, Key.Key_PageDown)
        assert toast.isVisible() and toast.text() == "This is the last scene (2/2)"
        assert _on_stage(studio, toast)
        assert _painted(studio, toast)
        assert toast.fontInfo().pointSize() >= 13 * 2  # (at 200 %: the projector's size)
        assert toast.timer.isActive() and toast.timer.interval() == TOAST_MS
        toast.timer.timeout.emit()  # (its time is up)
        assert toast.isHidden()
        qtbot.keyClick(studio, Key.Key_L)
        assert toast.isVisible() and toast.text().startswith("Laser pointer")
        qtbot.keyClick(studio, Key.Key_Escape)  # (the laser off: says so)
        assert toast.text() == "Pointer and pen off"
        # a picture of the stage (the presenter's preview) leaves it out
        shown = studio.stage.grab().toImage()
        toast.hide()
        assert studio.stage.grab().toImage() == shown
    finally:
        studio.lecture.display.leave_presentation()
        deck.close_deck()
    assert toast.isHidden()
    studio.show_status("Off stage")
    assert studio.statusBar().currentMessage() == "Off stage" and toast.isHidden()


# the gate: Compare (the report's last scene) at 300 %, Sinusoidal at 200 %; the other
# four cases (Compare at 100 % among them) with --full
@pytest.mark.parametrize(
    ("view_id", "scale"),
    gate_cover(
        [(v, s) for v in ("sinusoidal", "compare") for s in (1.0, 2.0, 3.0)],
        keep=[("sinusoidal", 2.0), ("compare", 3.0)],
        unpack=True,
    ),
)
def test_a_toast_covers_neither_the_notes_line_nor_the_plots(studio, show_view, scale, view_id):
    """Found on Xvfb (the lecture deck's last scene, Compare, 1920 x 1080): "This is the
    last scene (20/20)" lay over the notes line the audience was reading, and a focus's
    line over a heatmap's axis title. The toast shows at the top right, in the room
    right of the view's heading: the notes line and every plot stay clear, at 100 to
    300 %, for the messages the stage says most (the deck's ends, a focus)."""
    deck = _deck(studio)
    toast = studio.stage_toast
    try:
        widget = show_view(studio, view_id, (1920, 1080), scale, present=True)
        studio.view_stack.raise_()
        for message in ("This is the last scene (20/20)", "Sweep stopped (Space plays it again)"):
            studio.show_status(message)
            assert toast.isVisible() and toast.text() == message
            assert _on_stage(studio, toast), (toast.geometry(), _in_window(studio, studio.stage))
            assert _covered(studio, widget, toast) == [], (message, toast.geometry())
            heading = _in_window(studio, widget.title)
            assert toast.geometry().top() < heading.bottom()  # (beside the heading)
    finally:
        toast.hide()
        studio.lecture.display.leave_presentation()
        deck.close_deck()


def _heading_lines(studio, label) -> list[QtCore.QRect]:
    """The boxes (window coordinates) of each line of a heading's words, as Qt lays
    them out."""
    from gui.widgets.stage_toast import _text_lines

    origin = label.mapTo(studio, QtCore.QPoint(0, 0))
    left = origin.x() + label.margin() + label.contentsMargins().left()
    top = origin.y() + label.margin() + label.contentsMargins().top()
    return [
        QtCore.QRect(left, top + round(y), max(1, round(x_end)), round(h))
        for x_end, y, h in _text_lines(label)
    ]


LECTURE = Path(__file__).resolve().parents[1] / "resources" / "decks"
LECTURE_DECK = LECTURE / "lecture-positional-encoding.json"
# (scene, UI scale): the lecture's first scene at 200 % ("Why positions? “dog bites
# man” Word order · 1/20" leaves 440 px right of it: the toast shrinks to fit), its
# twelfth at 300 % (one line, 170 px free: the toast goes below), and the others
HEADINGS = [(scene, scale) for scale in (2.0, 3.0) for scene in range(1, 21)]


@pytest.mark.parametrize(
    ("scene", "scale"), gate_cover(HEADINGS, keep=[(1, 2.0), (12, 3.0), (20, 2.0)], unpack=True)
)
def test_a_toast_never_covers_the_heading(studio, show_view, scene, scale):
    """At 200 and 300 % on the 1920 x 1080 stage the lecture's headings fill their line:
    "Sweep stopped (Space plays it again)" lay over the end of "Why positions? “dog
    bites man” Word order · 1/20". The toast keeps off every line of the heading's
    words where it fits beside one (shrunk to 60 % at most); else it lies over the end
    of the heading's last line (the view's name and scene number), shrunk to 60 %: it
    went below the heading, over the formula line (scene 12 at 300 %). The formula
    line, the plots and the notes line stay clear."""
    deck = studio.lecture.deck
    toast = studio.stage_toast
    try:
        if deck.path != LECTURE_DECK:
            assert deck.open_deck(LECTURE_DECK)
        assert deck.go(scene - 1)
        widget = show_view(studio, studio.current_view, (1920, 1080), scale, present=True)
        studio.view_stack.raise_()
        for message in ("This is the last scene (20/20)", "Sweep stopped (Space plays it again)"):
            studio.show_status(message)
            assert toast.isVisible() and toast.text() == message
            box = toast.geometry()
            lines = _heading_lines(studio, widget.title)
            hit = [line for line in lines if line.intersects(box)]
            assert lines and hit in ([], lines[-1:]), (box, lines)
            if hit:  # (over the last line's end: at its least size, at the heading's right)
                assert toast.fontInfo().pointSize() <= math.ceil(0.6 * 13 * scale)
                assert box.right() >= hit[0].right() and box.left() > hit[0].left()
            assert _on_stage(studio, toast)
            assert _covered(studio, widget, toast) == []
            assert toast.fontInfo().pointSize() >= 0.6 * 13 * scale - 1  # (shrunk 60 % at most)
    finally:
        toast.hide()
        studio.lecture.display.leave_presentation()


def test_a_toast_follows_a_heading_that_changes_under_it(studio, qtbot, show_view):
    """Shown at 1280 x 720 / 150 %, "UI scale: 150 %" stayed where the heading shown
    before left room, and lay over the end of scene 13's "Llama 3.1: base 500 000 and
    frequency bands" staged after it. A toast that shows while the heading changes
    (the next scene's title, a new scale's font) moves off the new heading's words."""
    deck = studio.lecture.deck
    toast = studio.stage_toast
    try:
        if deck.path != LECTURE_DECK:
            assert deck.open_deck(LECTURE_DECK)
        assert deck.go(11)  # scene 12: "Context extension: YaRN" (RoPE)
        widget = show_view(studio, studio.current_view, (1280, 720), 1.5, present=True)
        studio.view_stack.raise_()
        studio.show_status("UI scale: 150 %")
        box = toast.geometry()
        assert toast.isVisible() and not [
            line for line in _heading_lines(studio, widget.title) if line.intersects(box)
        ]
        assert deck.go(12)  # scene 13, the same view: a longer title in its place
        assert widget is studio.views[studio.current_view]
        lines = _heading_lines(studio, widget.title)
        assert [line for line in lines if line.intersects(box)], "(no longer the case tested)"
        qtbot.waitUntil(
            lambda: not [line for line in lines if line.intersects(toast.geometry())], timeout=2000
        )
        assert toast.isVisible() and _on_stage(studio, toast)
        assert "notes line" not in _covered(studio, widget, toast)
    finally:
        toast.hide()
        studio.lecture.display.leave_presentation()


def test_the_scale_toast_keeps_off_the_formula_line(studio, qtbot, show_view):
    """At 1280 x 720 / 300 % the lecture's first heading, "Why positions? “dog bites
    man” Word order · 1/20", takes two lines and leaves 200 px right of the second:
    "UI scale: 300 %" (476 px; 290 px at 60 %) said after Ctrl+= went below the heading
    and covered the formula line for its 2.5 s. It lies over the end of the heading's
    last line instead, within the heading: the formula line and the plots stay clear,
    and the heading's words before its end stay in sight."""
    deck = studio.lecture.deck
    toast = studio.stage_toast
    try:
        if deck.path != LECTURE_DECK:
            assert deck.open_deck(LECTURE_DECK)
        assert deck.go(0)
        widget = show_view(studio, studio.current_view, (1280, 720), 2.75, present=True)
        studio.view_stack.raise_()
        studio.activateWindow()
        qtbot.keyClick(studio, Key.Key_Equal, QtCore.Qt.KeyboardModifier.ControlModifier)
        assert studio.lecture.display.active_scale == 3.0
        assert toast.isVisible() and toast.text() == "UI scale: 300 %"
        settle_window(studio)
        qtbot.waitUntil(lambda: toast._placed_for == toast._layout_key())
        box, heading = toast.geometry(), _in_window(studio, widget.title)
        lines = _heading_lines(studio, widget.title)
        assert len(lines) == 2, "(no longer the case tested: a heading of two lines)"
        assert heading.top() <= box.top() and box.bottom() <= heading.bottom(), (box, heading)
        assert _covered(studio, widget, toast) == [], box
        assert not lines[0].intersects(box)  # ("Why positions? “dog bites" whole)
        assert box.left() > lines[1].left() + lines[1].width() // 2  # (over its end only)
        assert toast.fontInfo().pointSize() >= math.floor(0.6 * 13 * 3)  # (legible)
        assert _painted(studio, toast)
    finally:
        toast.hide()
        studio.lecture.display.leave_presentation()


def test_a_message_wider_than_the_heading_wraps_within_it(studio, qtbot, show_view):
    """Where even the toast's least size is wider than the heading (a long message at
    1280 x 720 / 300 %), it wraps within the heading's box, whole: its lines as high as
    its wrapped text, over neither the formula line nor the plots, at a legible size."""
    deck = studio.lecture.deck
    toast = studio.stage_toast
    message = (
        "Sweep stopped: Space plays it again, Shift+Space plays it backwards, "
        "and Ctrl+Z undoes the last change"
    )
    try:
        if deck.path != LECTURE_DECK:
            assert deck.open_deck(LECTURE_DECK)
        assert deck.go(0)
        widget = show_view(studio, studio.current_view, (1280, 720), 3.0, present=True)
        settle_window(studio)
        toast.say(message)
        qtbot.waitUntil(lambda: toast.isVisible() and toast._placed_for == toast._layout_key())
        box, heading = toast.geometry(), _in_window(studio, widget.title)
        toast.setWordWrap(False)
        one_line = toast.sizeHint().width()
        toast.setWordWrap(True)
        assert one_line > heading.width(), "(no longer the case tested: a message too wide)"
        assert toast.wordWrap() and toast.text() == message
        assert heading.contains(box), (box, heading)
        assert toast.heightForWidth(box.width()) <= box.height()  # (its text whole)
        assert _covered(studio, widget, toast) == [], box
        assert toast.fontInfo().pointSize() >= math.floor(0.6 * 13 * 3)  # (legible)
        assert _painted(studio, toast)
    finally:
        toast.hide()
        studio.lecture.display.leave_presentation()
