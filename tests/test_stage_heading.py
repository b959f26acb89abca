"""The stage's heading: a scene's title, then its view and place in the deck
("RoPE · 8/9") in small grey type."""

from __future__ import annotations

import pytest
from PySide6 import QtGui
from qt_events import settle_window

from core.resources import resource_path
from core.scenes import load_deck


@pytest.fixture(scope="module")
def stage(open_window):
    """One window presenting at 1280 x 720, 150 %."""
    with open_window(1280, 720) as window:
        window.lecture.display.enter_presentation(fullscreen=False)
        window.lecture.display.set_scale(1.5)
        window.resize(1280, 720)
        yield window
        window.lecture.display.set_scale(1.0)
        window.lecture.display.leave_presentation()


def _line_of(document: QtGui.QTextDocument, text: str) -> int:
    """The index of the laid-out line (of the document's only block) where ``text``
    starts."""
    cursor = document.find(text)
    assert not cursor.isNull(), text
    block = cursor.block()
    line = block.layout().lineForTextPosition(cursor.selectionStart() - block.position())
    return line.lineNumber()


def test_the_deck_place_wraps_as_one_unit(stage):
    """Xvfb 1280 x 720, stage at 150 %: RoPE deck scene 8's heading "Llama 3.1: base
    500 000 and frequency bands  RoPE · 8/9" broke between "RoPE ·" and "8/9", the
    scene's number alone on the second line. The view's name and the scene's place
    are kept together."""
    path = resource_path("decks") / "rope-deep-dive.json"
    window = stage
    window.lecture.deck.set_deck(load_deck(path), path)
    window.lecture.deck.go(7)
    assert window.wait_idle(60)
    settle_window(window)
    label = window.views[window.current_view].title
    document = QtGui.QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    document.setHtml(label.text())
    document.setTextWidth(label.contentsRect().width())
    document.documentLayout()  # (laid out)
    lines = document.firstBlock().layout().lineCount()
    assert lines >= 2, (lines, label.contentsRect().width())  # (it wraps at this size)
    assert _line_of(document, "RoPE") == _line_of(document, "8/9"), label.text()
