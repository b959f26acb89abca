"""Focus mode's large axes (issue 14, item 2): the plot that fills the stage draws its
title, axis titles, tick labels and legend larger, growing with the room up to a cap, and
back to the theme's sizes when it leaves focus."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets
from tiers import FULL, gate_cover

from gui.lecture.focus import FOCUS_MAX_ZOOM, focus_text_zoom

Key = QtCore.Qt.Key


@pytest.fixture(scope="module")
def win(qapp):
    """One shown main window for the module."""
    from gui.app import build_window

    w = build_window()
    w.resize(1400, 900)
    w.show()
    assert w.wait_idle()
    yield w
    w.close()


def _settle(w) -> None:
    for _ in range(3):  # a re-fit of the grid (zero-time timer) may follow a layout
        assert w.wait_idle()
        w.views[w.current_view].canvas.ci.layout.activate()
        QtWidgets.QApplication.processEvents()


def _sizes(plot) -> dict[str, float]:
    """Pixel sizes of the plot's text as drawn: the title's font, the axis titles' and
    tick labels' font and the height of one line of legend text."""
    item = plot.plot
    bottom, left = item.getAxis("bottom"), item.getAxis("left")
    out = {
        "title": float(item.titleLabel.opts["size"].removesuffix("pt")),
        "bottom tick": bottom.style["tickFont"].pointSizeF(),
        "left tick": left.style["tickFont"].pointSizeF(),
        "bottom title": float(bottom.labelStyle["font-size"].removesuffix("pt")),
        # one line's height (a long title wraps onto fewer lines when focused)
        "title px": item.titleLabel.item.boundingRect().height()
        / (item.titleLabel.text.count("<br>") + 1),
        "bottom title px": bottom.label.boundingRect().height(),
    }
    if plot.legend is not None:  # one line of its text at the zoomed font (the strip
        # then fits its text to the plot's height: StripLegend.plan, not the zoom)
        document = plot.legend.items[0][1].item.document().clone()
        document.setTextWidth(-1)
        out["legend px"] = document.size().height()
    return out


def test_zoom_grows_with_the_room_up_to_a_cap():
    small = focus_text_zoom(QtCore.QSize(420, 280), 1.0)
    mid = focus_text_zoom(QtCore.QSize(800, 500), 1.0)
    big = focus_text_zoom(QtCore.QSize(5000, 3000), 1.0)
    assert small == 1.0 and 1.0 < mid < big == FOCUS_MAX_ZOOM
    # at 200 % the same room holds less enlargement (the theme is large already)
    assert focus_text_zoom(QtCore.QSize(800, 500), 2.0) < mid


@pytest.mark.parametrize(
    ("view_id", "key"),
    gate_cover(
        [("sinusoidal", None), ("alibi", None), ("alibi", "slopes")],
        keep=[("sinusoidal", None), ("alibi", "slopes")],
        unpack=True,
    ),
)
def test_focused_panel_text_is_larger_and_restored_after_esc(win, qtbot, view_id, key):
    win.set_view(view_id)
    _settle(win)
    widget = win.views[view_id]
    focus = win.lecture.focus
    # a panel with a legend and axis titles when the view has one
    key = key or next(
        (p.key for p in widget.data.panels if p.kind == "curves" and widget.plots[p.key].legend),
        next(p.key for p in widget.data.panels if p.kind != "table" and p.x_label),
    )
    plot = widget.plots[key]
    before = _sizes(plot)
    geometry = {k: p.plot.geometry() for k, p in widget.plots.items()}
    assert focus.focus(key)
    _settle(win)
    zoom = focus_text_zoom(widget.canvas.size())
    assert zoom > 1.2
    focused = _sizes(plot)
    for name, size in before.items():
        assert focused[name] > size * 1.15, (view_id, name, size, focused[name])
    # the others are untouched
    for other_key, other in widget.plots.items():
        assert other.text_zoom == (zoom if other_key == key else 1.0)
    win.activateWindow()
    qtbot.keyClick(win, Key.Key_Escape)
    _settle(win)
    assert focus.focused is None
    assert _sizes(plot) == before
    # the tick labels read the same values (re-applied labels once scaled them ×1000)
    for name in ("left", "bottom"):
        assert plot.plot.getAxis(name).autoSIPrefixScale == 1.0
    assert {k: p.plot.geometry() for k, p in widget.plots.items()} == geometry


def test_focused_text_follows_a_resize(win):
    win.set_view("sinusoidal")
    _settle(win)
    widget = win.views["sinusoidal"]
    focus = win.lecture.focus
    key = widget.data.panels[0].key
    assert focus.focus(key)
    try:
        _settle(win)
        large = widget.plots[key].text_zoom
        win.resize(900, 600)
        _settle(win)
        assert widget.plots[key].text_zoom < large
    finally:
        focus.unfocus()
        win.resize(1400, 900)
        _settle(win)


@FULL
def test_focused_plot_fits_the_canvas_when_the_grid_did_not(win):
    """Word order's eleven panels in presentation mode need more height than the canvas
    has (the grid overflows it); the one focused plot fits the canvas, bottom axis
    included, and the grid is as before after Esc."""
    display = win.lecture.display
    win.set_view("permutation")
    display.enter_presentation(fullscreen=False)
    try:
        _settle(win)
        widget = win.views["permutation"]
        canvas = widget.canvas
        grid_before = canvas.ci.geometry()
        # (else this test shows nothing; the canvas is as tall as its grid and the view
        # scrolls it, so the grid overflows what the view shows)
        assert grid_before.height() > widget.scroll_area.viewport().height()
        focus = win.lecture.focus
        key = widget.data.panels[0].key
        assert focus.focus(key)
        _settle(win)
        plot = widget.plots[key].plot
        assert plot.geometry().bottom() <= canvas.height() + 0.5
        bottom_axis = plot.getAxis("bottom")
        assert bottom_axis.isVisible()
        assert plot.mapRectToScene(bottom_axis.boundingRect()).bottom() <= canvas.height() + 0.5
        assert canvas.height() <= widget.scroll_area.viewport().height()  # all of it shown
        focus.unfocus()
        _settle(win)
        assert canvas.ci.geometry() == grid_before
    finally:
        display.leave_presentation()
        _settle(win)
