"""Blank screen (B / period: black, W / comma: white; any key or click: back), as
presentation clickers send it; a text field keeps the letters for typing."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gui.lecture.blank import BlankScreen

Key = QtCore.Qt.Key


@pytest.fixture(scope="module")
def win(qapp):
    """One shown main window for the module."""
    from gui.app import build_window

    w = build_window()
    w.resize(800, 500)
    w.show()
    assert w.wait_idle()
    yield w
    w.lecture.display.leave_presentation()
    w.close()


def _grid_colors(w) -> set[tuple[int, int, int]]:
    """The colours of a 9 x 9 grid of points over the window (the centre alone was a
    white background of the light theme's view after the blank went, as often as not)."""
    image = w.grab().toImage()
    colors = set()
    for i in range(1, 10):
        for j in range(1, 10):
            c = image.pixelColor(image.width() * i // 10, image.height() * j // 10)
            colors.add((c.red(), c.green(), c.blue()))
    return colors


def _key(qtbot, widget, key, text=""):
    qtbot.keyClick(widget, key)
    QtWidgets.QApplication.processEvents()


@pytest.mark.parametrize(
    ("key", "color"),
    [
        (Key.Key_B, "black"),
        (Key.Key_Period, "black"),
        (Key.Key_W, "white"),
        (Key.Key_Comma, "white"),
    ],
)
def test_key_blanks_the_stage_and_any_key_returns(win, qtbot, key, color):
    blank = win.feature(BlankScreen)
    win.activateWindow()
    win.stage.setFocus()
    before = win.lecture.deck.index
    qtbot.keyClick(win.stage, key)
    assert blank.color == color
    assert blank.isVisible() and blank.geometry() == win.rect()
    want = QtGui.QColor(color)
    assert _grid_colors(win) == {(want.red(), want.green(), want.blue())}  # all of it
    # any key brings the stage back, and does nothing else (no deck step, no focus key)
    qtbot.keyClick(QtWidgets.QApplication.focusWidget() or blank, Key.Key_PageDown)
    assert not blank.blank and not blank.isVisible()
    assert win.lecture.deck.index == before
    assert len(_grid_colors(win)) > 2  # the window's plots and text again


def test_click_returns_and_blank_works_in_presentation_mode(win, qtbot):
    blank = win.feature(BlankScreen)
    win.lecture.display.toggle_presentation()
    try:
        qtbot.waitUntil(lambda: win.lecture.display.presenting)
        win.stage.setFocus()
        qtbot.keyClick(win.stage, Key.Key_B)
        assert blank.blank
        assert blank.geometry() == win.rect()  # the whole (full-screen) window
        qtbot.mouseClick(blank, QtCore.Qt.MouseButton.LeftButton)
        assert not blank.blank
        assert win.lecture.display.presenting  # a click does not leave presentation mode
        qtbot.keyClick(win.stage, Key.Key_Period)
        assert blank.color == "black"
        qtbot.keyClick(blank, Key.Key_Period)  # the same key again: back
        assert not blank.blank
    finally:
        win.lecture.display.leave_presentation()


def test_typing_in_a_text_field_is_not_swallowed(win, qtbot):
    blank = win.feature(BlankScreen)
    field = QtWidgets.QLineEdit(win)
    field.move(5, 5)
    field.show()
    try:
        field.setFocus()
        qtbot.waitUntil(field.hasFocus)
        qtbot.keyClicks(field, "b.w,")
        assert field.text() == "b.w,"
        assert not blank.blank
    finally:
        field.deleteLater()
