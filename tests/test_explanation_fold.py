"""A view's explanation collapses to its first lines where it would take the plots' room
(at 200 % on 1600 x 1000 it filled the window: no plot in sight when a view opened), with
a More… / Less toggle (mouse, Enter, Ctrl+I) whose choice wins; presentation mode and
exports keep leaving it out. One window for the module; geometry and text, no timing."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui
from qt_events import settle_window as _settle

from core.views import VIEWS
from gui.render.math_text import source_text
from gui.theme import current_theme
from gui.widgets.explanation import ELLIPSIS, LESS, MORE, SHORT_LINES, short_form
from gui.widgets.view_widget import EXPLANATION_SHARE

Key = QtCore.Qt.Key


@pytest.fixture(scope="module")
def studio(qapp, open_window):
    with open_window(1600, 1000) as win:
        yield win
        for widget in win.views.values():  # (the module's window: no choice left over)
            widget.explanation_box.choose(None)


def _first_plot_top(widget) -> int:
    """The top of the view's first plot row in its scroll area's viewport (px)."""
    bar = widget.scroll_area.verticalScrollBar()
    return min(widget.row_tops()) - bar.value()


def _lines(widget) -> float:
    """The explanation's height in lines of its text."""
    label = widget.explanation
    return label.height() / QtGui.QFontMetrics(label.font()).lineSpacing()


# ---------------------------------------------------------------------- the short form
def test_short_form_keeps_whole_sentences_or_cuts_after_a_word() -> None:
    text = "First sentence is here. Second one is a good deal longer than that. Third."

    def fits(limit: int):
        return lambda t: len(t) <= limit

    assert short_form(text, fits(len(text))) == text  # it fits: nothing cut
    # a whole sentence that fills most of the room rather than a sentence broken off
    assert short_form(text, fits(30)) == "First sentence is here."
    # a first sentence that keeps too little of the room: cut after a word, with "…"
    assert (
        short_form(text, fits(50)) == "First sentence is here. Second one is a good deal" + ELLIPSIS
    )
    # never inside a script's braces (its markup would break) nor after "e.g."
    assert short_form("a base^{−2i / d} grows fast", fits(14)) == "a" + ELLIPSIS
    assert short_form("See e.g. this. Next one", fits(10)) == "See e.g." + ELLIPSIS


# ---------------------------------------------------------------------- the room decides
def test_plots_in_sight_when_a_view_opens_at_200_percent(studio, show_view) -> None:
    """At 200 % on 1600 x 1000 each view opens with its first plot row in sight (the
    whole paragraph took 46-100 % of the viewport, the plots began 661-1660 px down a
    914 px viewport); its explanation shows two lines and More…."""
    for view_id in VIEWS:
        widget = show_view(studio, view_id, (1600, 1000), 2.0)
        box = widget.explanation_box
        fold = widget.scroll_area.viewport().height()
        top = _first_plot_top(widget)
        assert 0 < top < fold, (view_id, top, fold)
        # (Word order's formula and short verdict below it: its first row whole in
        # sight, tests/test_verdict_fold.py)
        if view_id != "permutation":
            assert top < fold / 2, (view_id, top, fold)
        assert box.collapsed and box.toggle.isVisible() and box.toggle.text() == MORE, view_id
        assert round(_lines(widget)) <= SHORT_LINES, view_id
        assert box.height_for(True) > EXPLANATION_SHARE * fold, view_id


def test_room_decides_until_the_lecturer_chooses(studio, show_view, qtbot) -> None:
    """Whole where it fits, collapsed where collapsing lets the view fit; a click, Enter
    on the toggle and Ctrl+I choose, and the choice outlives a resize and a view switch."""
    text = VIEWS["sinusoidal"].explanation
    # 1920 x 1080 at 100 %: room for the whole paragraph (114 px, 11 %)
    widget = show_view(studio, "sinusoidal", (1920, 1080), 1.0)
    box = widget.explanation_box
    assert box.expanded and source_text(widget.explanation) == text
    assert not widget.scrolls
    # 1600 x 1000 at 100 %: whole it scrolled the view (by 101 px); collapsed it fits
    widget = show_view(studio, "sinusoidal", (1600, 1000), 1.0)
    assert box.collapsed and source_text(widget.explanation) != text
    assert not widget.scrolls
    # the toggle in the theme's primary blue, legible on both themes (the palette's
    # link blue was dark blue on the dark background)
    display = studio.lecture.display
    for _ in range(2):
        display.toggle_theme()
        _settle(studio)
        colour = box.toggle.palette().color(QtGui.QPalette.ColorRole.ButtonText)
        assert colour.name() == current_theme().primary.lower(), display.theme_name

    # 200 %: the toggle expands (a click), the canvas moves down by what the text grew
    widget = show_view(studio, "sinusoidal", (1600, 1000), 2.0)
    y, height = widget.canvas.y(), box.height()
    qtbot.mouseClick(box.toggle, QtCore.Qt.MouseButton.LeftButton)
    _settle(studio)
    assert box.choice is True and source_text(widget.explanation) == text
    assert box.toggle.text() == LESS and box.toggle.isVisible()
    grown = box.height() - height
    assert grown > 400  # (722 px whole at 200 %)
    assert widget.canvas.y() - y == grown
    assert _first_plot_top(widget) > widget.scroll_area.viewport().height()  # chosen
    # the choice outlives another view and a new window size (which the room would
    # decide again)
    show_view(studio, "learned", (1600, 1000), 2.0)
    widget = show_view(studio, "sinusoidal", (1500, 1000), 2.0)
    assert box.expanded and source_text(widget.explanation) == text

    # Enter on the focused toggle: the first lines again, the canvas back up
    box.toggle.setFocus()
    qtbot.keyClick(box.toggle, Key.Key_Return)
    _settle(studio)
    assert box.choice is False and box.collapsed and box.toggle.text() == MORE
    assert _first_plot_top(widget) < widget.scroll_area.viewport().height() / 2
    # View ▸ More / less text (explanation and verdict) (Ctrl+I)
    action = studio.findChild(QtGui.QAction, "action-explanation")
    assert action is not None and action.shortcut().toString() == "Ctrl+I"
    action.trigger()
    _settle(studio)
    assert box.choice is True and source_text(widget.explanation) == text
    box.choose(None)  # the room decides again: collapsed at 200 %
    _settle(studio)
    assert box.collapsed


def test_presentation_hides_it_and_exports_leave_it_out(studio, show_view) -> None:
    """On stage the paragraph and its toggle are hidden (Ctrl+I says why); back in the
    window they come back as they were. An export's widget has neither."""
    widget = show_view(studio, "alibi", (1600, 1000), 2.0, present=True)
    box = widget.explanation_box
    assert box.isHidden() and not box.toggle.isVisible() and not widget.explanation.isVisible()
    studio.lecture.toggle_explanation()
    assert "hidden in presentation mode" in studio.statusBar().currentMessage()
    assert box.choice is None
    widget = show_view(studio, "alibi", (1600, 1000), 2.0)
    assert box.isVisible() and box.collapsed and box.toggle.isVisible()

    from gui.export.headless import build_widget

    exported = build_widget(VIEWS["alibi"], widget.data, None, None, None)
    try:
        assert exported.explanation_box.isHidden() and exported.explanation.isHidden()
    finally:
        exported.deleteLater()
