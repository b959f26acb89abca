"""A long verdict shows its short form in the window where the whole one would take the
plots' room (Word order at 200 % on 1600 x 1000: 492 px of a 914 px view, the plots below
the fold when it opened), with the whole verdict as tooltip and a More… / Less link whose
choice wins; a drag never moves the text; the stage keeps its one short line. One window
for the module; geometry and text, no timing."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from qt_events import settle_window as _settle

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.widgets.explanation import LESS, MORE
from gui.widgets.verdict import LINK
from gui.widgets.view_widget import VERDICT_SHARE

SPEC = VIEWS["permutation"]


@pytest.fixture(scope="module")
def studio(qapp, open_window):
    with open_window(1600, 1000) as win:
        yield win
        widget = win.views["permutation"]  # (the module's window: no choice left over)
        widget.verdict_box.choose(None)


def _open(win, show_view, size, scale):
    """Word order at ``size`` and ``scale``, its live frames over (full quality)."""
    widget = show_view(win, "permutation", size, scale)
    widget.finish_live_frame()
    _settle(win)
    return widget


def _first_row(widget) -> tuple[int, int]:
    """The top of the view's first plot row in its viewport, and the row's height (px)."""
    bar = widget.scroll_area.verticalScrollBar()
    tops = widget.row_tops()
    return tops[0] - bar.value(), tops[1] - tops[0]


def _compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


def test_first_plot_row_in_sight_at_200_percent(studio, show_view) -> None:
    """At 200 % on 1600 x 1000 Word order opens with its first plot row whole in the
    viewport (the whole verdict put its top 824 px down a 914 px viewport, only the
    titles in sight); the verdict shows its short form, the whole one in the tooltip,
    and ends with More…."""
    widget = _open(studio, show_view, (1600, 1000), 2.0)
    fold = widget.scroll_area.viewport().height()
    top, row = _first_row(widget)
    assert top > 0 and top + row <= fold, (top, row, fold)
    data, box = widget.data, widget.verdict_box
    assert widget.verdict_shown == data.verdict_short and widget.verdict.isVisible()
    assert widget.verdict.toolTip() == data.verdict
    assert f'href="{LINK}"' in widget.verdict.text() and MORE in widget.verdict.text()
    assert box.height_for(True) > VERDICT_SHARE * fold  # (why: 492 px of 914)
    assert widget.verdict.height() < VERDICT_SHARE * fold


def test_whole_where_it_fits_short_where_it_does_not(studio, show_view) -> None:
    """1600 x 1000 at 100 % and 1920 x 1080 at 150 %: the whole verdict (100 and 173 px,
    at most a fifth of the view), no link, no tooltip; 1600 x 1000 at 150 %: 239 px
    whole, short (74 px), and the first plot row whole in sight."""
    for size, scale in (((1600, 1000), 1.0), ((1920, 1080), 1.5)):
        widget = _open(studio, show_view, size, scale)
        assert widget.verdict_shown == widget.data.verdict, (size, scale)
        assert "href" not in widget.verdict.text() and widget.verdict.toolTip() == ""
        assert widget.verdict.height() <= VERDICT_SHARE * widget.scroll_area.viewport().height()
        top, row = _first_row(widget)
        assert top + row <= widget.scroll_area.viewport().height(), (size, scale, top, row)
    widget = _open(studio, show_view, (1600, 1000), 1.5)
    assert widget.verdict_shown == widget.data.verdict_short
    top, row = _first_row(widget)
    assert top + row <= widget.scroll_area.viewport().height(), (top, row)


def test_more_and_less_by_keyboard_and_the_choice_wins(studio, show_view, qtbot) -> None:
    """Tab onto the link and Enter: the whole verdict (the lecturer's choice, kept over
    a resize), ending with Less; Less: the short form again."""
    widget = _open(studio, show_view, (1600, 1000), 2.0)
    label, box = widget.verdict, widget.verdict_box
    y = widget.canvas.y()
    try:
        label.setFocus(QtCore.Qt.FocusReason.TabFocusReason)
        qtbot.keyClick(label, QtCore.Qt.Key.Key_Tab)  # (onto the link)
        qtbot.keyClick(label, QtCore.Qt.Key.Key_Return)
        _settle(studio)
        assert box.choice is True and widget.verdict_shown == widget.data.verdict
        assert LESS in label.text() and label.toolTip() == ""
        assert widget.canvas.y() - y > 250  # (the whole verdict: 492 px, the short 140)
        widget = _open(studio, show_view, (1500, 1000), 2.0)  # the room would say short
        assert widget.verdict_shown == widget.data.verdict
        label.linkActivated.emit(LINK)  # (as a click on "Less")
        _settle(studio)
        assert box.choice is False and widget.verdict_shown == widget.data.verdict_short
    finally:
        box.choose(None)
        _settle(studio)


def test_ctrl_i_gives_more_or_less_text_explanation_and_verdict_at_once(studio, show_view) -> None:
    """View ▸ More / less text (Ctrl+I) at 200 % on 1600 x 1000, where the room shows
    Word order's explanation collapsed and its verdict short: both whole at once, then
    both short at once, as the lecturer's choice of each (the action said before only
    "Explanation", and left the verdict short)."""
    widget = _open(studio, show_view, (1600, 1000), 2.0)
    expl, verdict = widget.explanation_box, widget.verdict_box
    action = studio.findChild(QtGui.QAction, "action-explanation")
    assert action is not None and action.shortcut().toString() == "Ctrl+I"
    assert "verdict" in action.text() and "explanation" in action.text()
    try:
        assert expl.collapsed and widget.verdict_shown == widget.data.verdict_short
        action.trigger()
        _settle(studio)
        assert (expl.choice, verdict.choice) == (True, True)
        assert not expl.collapsed and widget.verdict_shown == widget.data.verdict
        action.trigger()
        _settle(studio)
        assert (expl.choice, verdict.choice) == (False, False)
        assert expl.collapsed and widget.verdict_shown == widget.data.verdict_short
    finally:
        expl.choose(None)
        verdict.choose(None)
        _settle(studio)


def test_a_drag_never_moves_the_verdict(studio, show_view) -> None:
    """Live frames (a slider drags) keep the verdict's form and its line's height: a
    frame whose whole verdict is shorter (both sentences the same: one line of three at
    100 %) leaves the plots where they were until the drag is over."""
    widget = _open(studio, show_view, (1600, 1000), 1.0)
    assert widget.verdict_shown == widget.data.verdict
    y, height = widget.canvas.y(), widget.verdict.height()
    long, short = _compute(base=2000.0), _compute(base=2100.0, permuted="dog bites man")
    assert len(short.verdict) < len(long.verdict) / 2
    # the drag ends when the test says (finish_live_frame), not on the 150 ms timer: on
    # a loaded machine two frames were further apart and the drag ended between them
    pause = widget.full_quality.timeout()
    widget.full_quality.setTimeout(600_000)
    try:
        for data in (long, short, long, short):
            widget.show_data(data, live=True)
            QtWidgets.QApplication.instance().processEvents()
            assert widget.verdict.height() >= height and widget.canvas.y() == y
        widget.flush_text()  # (the latest text, which the refresh interval may hold back)
        assert widget.verdict_shown == short.verdict  # the text follows the values,
        assert widget.verdict.height() >= height and widget.canvas.y() == y  # not the room
        widget.finish_live_frame()  # the drag is over: the line takes its text's height
    finally:
        widget.full_quality.setTimeout(pause)
    _settle(studio)
    assert widget.verdict.height() < height and widget.canvas.y() < y
    widget.show_data(_compute())  # (the defaults again for the next test)
    _settle(studio)


def test_stage_keeps_one_short_line_without_link(studio, show_view) -> None:
    """On stage (1920 x 1080, 200 %) the short verdict as before: no link, the whole
    verdict in its tooltip, at most two lines."""
    widget = show_view(studio, "permutation", (1920, 1080), 2.0, present=True)
    try:
        label = widget.verdict
        assert widget.verdict_shown == widget.data.verdict_short and "href" not in label.text()
        assert label.toolTip() == widget.data.verdict
        line = label.fontMetrics().lineSpacing()
        assert label.height() <= 2.6 * line, (label.height(), line)
    finally:
        studio.lecture.display.leave_presentation()
        _settle(studio)


def test_an_export_shows_the_whole_verdict(studio, show_view) -> None:
    """An image export of Word order (a widget never shown) has the whole verdict and no
    link, whatever the window shows (short at 200 %)."""
    from gui.export.headless import build_widget

    widget = _open(studio, show_view, (1600, 1000), 2.0)
    assert widget.verdict_shown == widget.data.verdict_short
    exported = build_widget(SPEC, widget.data, None, None, None)
    try:
        assert exported.verdict_shown == widget.data.verdict
        assert "href" not in exported.verdict.text() and MORE not in exported.verdict.text()
    finally:
        exported.deleteLater()


def test_ctrl_i_on_a_focused_plot_folds_the_verdict_it_shows(studio, show_view) -> None:
    """With a plot focused the explanation is hidden and Ctrl+I chooses for the verdict
    alone, from what the verdict shows: Word order at 100 % on 1920 x 1080, its
    explanation chosen short (Less), its verdict whole, plot 'layers' focused: Ctrl+I
    shows the short verdict, again the whole one. It went by the hidden explanation's
    short form: 'more' every time, the whole verdict stayed, Ctrl+I did nothing (seen
    on Xvfb, three presses)."""
    widget = _open(studio, show_view, (1920, 1080), 1.0)
    expl, verdict = widget.explanation_box, widget.verdict_box
    action = studio.findChild(QtGui.QAction, "action-explanation")
    focus = studio.lecture.focus
    try:
        expl.choose(False)
        _settle(studio)
        assert expl.collapsed and widget.verdict_shown == widget.data.verdict
        assert focus.focus("layers")
        _settle(studio)
        assert expl.isHidden() and not verdict.isHidden()
        action.trigger()
        _settle(studio)
        assert verdict.choice is False and widget.verdict_shown == widget.data.verdict_short
        action.trigger()
        _settle(studio)
        assert verdict.choice is True and widget.verdict_shown == widget.data.verdict
        assert expl.choice is False  # (the hidden explanation keeps the lecturer's choice)
    finally:
        focus.unfocus()
        expl.choose(None)
        verdict.choose(None)
        _settle(studio)
