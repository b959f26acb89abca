"""How often a mode, scale or focus change rebuilds the views' plot grids (a new
scale or theme re-styles the plots in place and moves them to other columns).

A view's grid is rebuilt (every plot, axis and legend made anew) when its panel layout
or its number of columns changes. Presentation mode and a UI scale apply to every view
the window has built, but only the shown one is on screen: the others are laid out
when shown. The tests count rebuilds (the canvas cleared for a new grid), not time.
"""

from __future__ import annotations

from collections import Counter

from PySide6 import QtWidgets
from tiers import FULL


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
    for widget in widgets.values():  # (pyqtgraph's own: an attribute, the layout's)
        widget.canvas.clear = widget.canvas.ci.clear


def _restyles(widget) -> list[int]:
    return [plot.restyled for plot in widget.plots.values()]


@FULL
def test_presentation_mode_restyles_the_shown_view_once_and_hidden_views_when_shown(window):
    """F5 re-styles the plots of the view on screen in place, once, and moves them to
    the stage's columns (it rebuilt every plot, twice where the columns changed); a
    hidden view waits until shown. No grid is rebuilt either way."""
    # alibi's nine small multiples take fewer columns on the stage, at its larger scale
    window.set_view("alibi")
    _settle(window)
    window.set_view("rope")
    _settle(window)
    alibi, rope = window.views["alibi"], window.views["rope"]
    hidden_plots = list(alibi.plots.values())
    rope_plots = list(rope.plots.values())
    window_columns = alibi.columns
    display = window.lecture.display
    widgets = {"alibi": alibi, "rope": rope}
    counts = _count_rebuilds(widgets)
    alibi_styles, rope_styles = _restyles(alibi), _restyles(rope)
    reflows = alibi.grid_reflows
    try:
        display.enter_presentation(fullscreen=False)
        # the shown view once, in place
        assert counts["rope"] == 0
        assert list(rope.plots.values()) == rope_plots
        assert _restyles(rope) == [n + 1 for n in rope_styles]
        _settle(window)
        # a hidden view waits
        assert counts["alibi"] == 0
        assert list(alibi.plots.values()) == hidden_plots
        assert _restyles(alibi) == alibi_styles
        window.set_view("alibi")
        _settle(window)
        # re-styled for the stage's scale when shown, its plots moved to its columns
        assert counts["alibi"] == 0
        assert list(alibi.plots.values()) == hidden_plots
        assert _restyles(alibi) == [n + 1 for n in alibi_styles]
        assert alibi.grid_reflows == reflows + 1
        stage_columns = alibi.columns
        assert stage_columns < window_columns  # (else the test shows nothing)
        # laid out as a fit from scratch would: fitting again changes nothing
        alibi.fit_grid()
        assert alibi.columns == stage_columns and counts["alibi"] == 0
        assert alibi.grid_reflows == reflows + 1
        rope_styles = _restyles(rope)
        display.leave_presentation()
        assert counts["alibi"] == 0
        assert _restyles(alibi) == [n + 2 for n in alibi_styles]
        _settle(window)
        assert counts["rope"] == 0 and _restyles(rope) == rope_styles
        assert alibi.columns == window_columns
        assert list(alibi.plots.values()) == hidden_plots
    finally:
        _restore(widgets)
        display.leave_presentation()


@FULL
def test_the_same_theme_again_restyles_nothing_and_a_mode_change_still_fits(window):
    """Applying the settings already applied (a settings dialog's OK, a mode change at
    the same UI scale) re-polished the whole window and redrew every view; now only a
    new theme does, and a mode change at the same scale still refits the columns."""
    window.set_view("alibi")
    _settle(window)
    display, alibi = window.lecture.display, window.views["alibi"]
    window_columns = alibi.columns
    styled: Counter = Counter()
    for view_id, widget in window.views.items():
        restyle = widget.apply_theme

        def counted(restyle=restyle, view_id=view_id) -> None:
            styled[view_id] += 1
            restyle()

        widget.apply_theme = counted
    sheets: list[str] = []
    qt_window = window.qt
    set_sheet = qt_window.setStyleSheet
    qt_window.setStyleSheet = lambda sheet: (sheets.append(sheet), set_sheet(sheet))
    saved_present = display.present_scale
    try:
        display.apply()
        assert styled == Counter() and sheets == []
        display.present_scale = display.ui_scale  # the same theme on the stage
        display.enter_presentation(fullscreen=False)
        _settle(window)
        assert styled == Counter() and sheets == []
        assert alibi.columns != window_columns  # refitted to the stage all the same
        display.leave_presentation()
        _settle(window)
        assert alibi.columns == window_columns
        display.toggle_theme()  # another theme: every built view, and the window
        assert set(styled) == set(window.views) and len(sheets) == 1
    finally:
        for widget in window.views.values():
            vars(widget).pop("apply_theme", None)
        vars(qt_window).pop("setStyleSheet", None)
        display.leave_presentation()
        display.present_scale = saved_present
        if display.theme_name != "light":
            display.toggle_theme()


@FULL
def test_closing_on_stage_restyles_nothing_and_saves_the_window_layout(window):
    """Closing the window in presentation mode brings the chrome back for the saved
    layout without re-styling the views in the normal scale: the window is going away
    (its engine stops), and that re-style took about a second of every close on stage."""
    from PySide6 import QtCore as C
    from PySide6 import QtWidgets as W

    display = window.lecture.display
    window.set_view("rope")
    _settle(window)
    docks = [d for d in window.findChildren(W.QDockWidget) if d.isVisible()]
    assert docks  # (the parameter panel at least)
    display.enter_presentation(fullscreen=True)
    _settle(window)
    rope = window.views["rope"]
    stage_theme, stage_sheet = rope.styled_theme, window.styleSheet()
    assert stage_theme == display.theme_at(display.present_scale)
    window.close()
    assert not display.presenting
    assert all(not d.isHidden() for d in docks)  # the saved layout has its docks
    assert not window.windowState() & C.Qt.WindowState.WindowFullScreen
    assert rope.styled_theme == stage_theme and window.styleSheet() == stage_sheet


@FULL
def test_the_hidden_side_dock_is_not_fitted_on_stage_and_is_fitted_when_it_shows(window):
    """F5 at another scale re-styles the window (a new style sheet): the side dock,
    hidden on stage, is not fitted to it (that measured every view's parameter panel
    and built one for each view not opened yet, for nobody to see); leaving the stage
    fits it to the window's scale as before."""
    display = window.lecture.display
    window.set_view("rope")
    _settle(window)
    width = window.side.minimumWidth()
    needed: list[int] = []
    measure = window.side_width_needed

    def counted() -> int:
        needed.append(1)
        return measure()

    window.side_width_needed = counted
    saved = display.present_scale
    try:
        display.present_scale = 2.35  # (a sheet no other test uses)
        display.enter_presentation(fullscreen=False)
        _settle(window)
        assert window.side.isHidden() and needed == []
        display.leave_presentation()
        _settle(window)
        assert not window.side.isHidden() and needed  # fitted again as it shows
        assert window.side.minimumWidth() == width
    finally:
        vars(window).pop("side_width_needed", None)
        display.leave_presentation()
        display.present_scale = saved
