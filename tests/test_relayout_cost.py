"""How often a mode, scale or focus change rebuilds the views' plot grids.

A view's grid is rebuilt (every plot, axis and legend made anew) when its panel layout
or its number of columns changes. Presentation mode and a UI scale apply to every view
the window has built, but only the shown one is on screen: the others are laid out
when shown. The tests count rebuilds (the canvas cleared for a new grid), not time.
"""

from __future__ import annotations

from collections import Counter

from PySide6 import QtWidgets


def _settle(window) -> None:
    assert window.wait_idle()
    QtWidgets.QApplication.processEvents()
    assert window.wait_idle()


def _count_rebuilds(widgets) -> Counter:
    """Count each widget's grid rebuilds (``canvas.clear``, by view id) from now on."""
    counts: Counter = Counter()
    for view_id, widget in widgets.items():
        canvas = widget.canvas
        clear = canvas.clear

        def counted(clear=clear, view_id=view_id) -> None:
            counts[view_id] += 1
            clear()

        canvas.clear = counted
    return counts


def _restore(widgets) -> None:
    for widget in widgets.values():
        vars(widget.canvas).pop("clear", None)


def test_presentation_mode_rebuilds_the_shown_view_once_and_hidden_views_when_shown(window):
    # alibi's nine small multiples take fewer columns on the stage, at its larger scale
    window.set_view("alibi")
    _settle(window)
    window.set_view("rope")
    _settle(window)
    alibi, rope = window.views["alibi"], window.views["rope"]
    hidden_plots = list(alibi.plots.values())
    window_columns = alibi.columns
    display = window.lecture.display
    widgets = {"alibi": alibi, "rope": rope}
    counts = _count_rebuilds(widgets)
    try:
        display.enter_presentation(fullscreen=False)
        # the shown view once (it was rebuilt a second time when its columns changed:
        # first for the new scale in the window's columns, then in the stage's)
        assert counts["rope"] == 1
        _settle(window)
        # a hidden view waits (it was rebuilt in its grid's full columns, to be
        # rebuilt again in those that fit when shown)
        assert counts["alibi"] == 0
        assert list(alibi.plots.values()) == hidden_plots
        window.set_view("alibi")
        _settle(window)
        assert counts["alibi"] == 1  # redrawn for the stage's scale when shown
        stage_columns = alibi.columns
        assert stage_columns < window_columns  # (else the test shows nothing)
        # laid out as a fit from scratch would: fitting again changes nothing
        before = counts["alibi"]
        alibi.fit_grid()
        assert alibi.columns == stage_columns and counts["alibi"] == before
        counts.clear()
        display.leave_presentation()
        assert counts["alibi"] == 1
        _settle(window)
        assert counts["rope"] == 0
        assert alibi.columns == window_columns
    finally:
        _restore(widgets)
        display.leave_presentation()
