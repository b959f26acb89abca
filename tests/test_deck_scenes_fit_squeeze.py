"""On a 1920 × 1080 stage at 200 %, a scene a little taller than the stage is fitted to
it by giving its plots' data less height, down to a legible floor, rather than scroll.

The lecture's scene 14 (ALiBi, four plots) scrolled by 112 px (1192 px in 1080) and
scene 3 (Sinusoidal, four plots revealed one by one) by 84 px: each row kept the
window's smallest legible plot (360 px at 200 %, its data about 240 px high) plus its
wrapped title and legend, and the stage squeezed a view only by 5 % of its rows. On
stage the rows now give up to what keeps each plot's data
``STAGE_DATA_LINES`` tick-label lines high, its titles, axes, legend (at full size)
and word ticks as they are. A scene that does not fit so (Word order's six panels,
337 px over) keeps its plots at that floor or above and scrolls.

Scenes 1, 2, 7 and 16 still scrolled at 200 % (1417, 1367, 1282 and 1537 px in 1080):
two rows of Word order's 3 x 3 matrices need 493 and 534 px (a three- and four-line
title, the word ticks at full size) where the stage leaves 699; Relative's two rows of
12 x 12 grids 510 and 507 px at the values' least size where it leaves 774; Learned's
rows were 70 px over at the floor. They now name one row of panels each.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from qt_events import settle_window


def _scene(window, number: int):
    window.lecture.deck.go(number - 1)
    assert window.wait_idle(60)
    settle_window(window)
    return window.views[window.current_view]


def _page(widget) -> tuple[int, int]:
    bar = widget.scroll_area.verticalScrollBar()
    return bar.maximum() + bar.pageStep(), bar.pageStep()


def _data_heights(widget) -> dict[str, float]:
    return {
        key: plot.plot.getViewBox().height() + plot.spare_below
        for key, plot in widget.plots.items()
        if plot.plot.isVisible() and plot.table is None
    }


def _legend_scales(widget) -> dict[str, float]:
    return {
        key: plot.legend.scale()
        for key, plot in widget.plots.items()
        if plot.plot.isVisible() and plot.legend is not None and plot.legend.items
    }


def test_alibis_scene_fits_the_stage_with_legible_plots(lecture_stage):
    from gui.plotting.layout_check import layout_problems

    widget = _scene(lecture_stage, 14)
    page, port = _page(widget)
    assert page == port == 1080, (page, port)
    floor = widget._stage_data_floor()
    assert 150 < floor < 240  # (five lines of 22 pt tick labels: below the window's floor)
    data = _data_heights(widget)
    assert set(data) == {"heads", "slopes", "distance", "row"}
    assert all(h >= floor - 1 for h in data.values()), (data, floor)
    assert min(data.values()) < 235  # squeezed: below the window's legible plot
    assert _legend_scales(widget) == {"distance": 1.0, "row": 1.0}  # text not shrunk
    assert layout_problems(widget) == []


def test_a_revealing_scene_fitted_so_keeps_each_panels_place(lecture_stage, qtbot):
    """Scene 3 reveals its four plots one per Page Down: squeezed to fit, each plot
    still sits where the whole scene puts it from the first step on."""
    from PySide6 import QtCore

    widget = _scene(lecture_stage, 3)
    steps = []
    for step in range(4):
        if step:
            qtbot.keyClick(lecture_stage, QtCore.Qt.Key.Key_PageDown)
            assert lecture_stage.wait_idle(60)
            settle_window(lecture_stage)
        assert lecture_stage.lecture.deck.index == 2
        assert _page(widget) == (1080, 1080)
        steps.append(
            {
                key: plot.plot.geometry().getRect()
                for key, plot in widget.plots.items()
                if plot.plot.isVisible()
            }
        )
    assert [len(shown) for shown in steps] == [1, 2, 3, 4]
    for shown in steps:
        for key, rect in shown.items():
            assert all(abs(a - b) <= 2 for a, b in zip(rect, steps[-1][key], strict=True))
    floor = widget._stage_data_floor()
    assert all(h >= floor - 1 for h in _data_heights(widget).values())
    assert _legend_scales(widget) == {"waves": 1.0}


def _panels_shown(widget) -> set[str]:
    return {key for key, plot in widget.plots.items() if plot.plot.isVisible()}


@pytest.mark.parametrize(
    ("number", "panels"),
    [
        (1, {"weights_a_none", "weights_b_none", "diff_none"}),
        (2, {"diff_causal", "diff_pe"}),
        (7, {"table", "norms"}),
        (16, {"grid", "t5_curve"}),
    ],
)
def test_the_scenes_that_scrolled_fit_the_stage_at_200_percent(lecture_stage, number, panels):
    """The lecture's scenes 1, 2, 7 and 16 on the 1920 x 1080 stage at 200 %: no scroll
    bar, every plot shown whole above the fold, nothing cut or overlapped."""
    from gui.plotting.layout_check import layout_problems

    widget = _scene(lecture_stage, number)
    assert _panels_shown(widget) == panels
    bar = widget.scroll_area.verticalScrollBar()
    assert bar.maximum() == 0 and not bar.isVisible(), _page(widget)
    port = widget.scroll_area.viewport()
    for key in panels:
        item = widget.plots[key].plot
        rect = item.mapRectToScene(item.boundingRect())
        bottom = widget.canvas.mapTo(port, widget.canvas.mapFromScene(rect.bottomLeft()))
        assert bottom.y() <= port.height(), (key, bottom.y(), port.height())
    assert layout_problems(widget) == []


def test_a_scene_that_does_not_fit_at_the_floor_scrolls(lecture_stage):
    """Word order's six panels (the lecture's first scene before it named one row):
    two rows of 3 x 3 matrices under three- and four-line titles, 337 px taller than
    the stage with the plots at the window's legible size and still over it squeezed
    to the floor, so it keeps its plots whole and scrolls."""
    deck = lecture_stage.lecture.deck
    first = deck.scenes[0]
    rows = ("none", "causal")
    six = tuple(f"{kind}_{row}" for row in rows for kind in ("weights_a", "weights_b", "diff"))
    deck.scenes[0] = replace(first, panels=six)
    try:
        widget = _scene(lecture_stage, 1)
        assert _panels_shown(widget) == set(six)
        page, port = _page(widget)
        assert page > port
        # not squeezed at all: the canvas as high as its rows need (or a little more,
        # for the notes line the fold would cut: ViewWidget._fold_fit)
        assert widget.canvas.minimumHeight() >= widget._rows_need > 0
        data = _data_heights(widget)
        assert min(data.values()) > widget._stage_data_floor() + 50, data
    finally:
        deck.scenes[0] = first


def test_compares_table_scene_fits_a_1280_x_720_stage_at_200_percent(lecture_stage):
    """Scene 19 (Compare's table alone) on a 1280 x 720 stage at 200 %: its heading
    took two lines ("Comparison: all methods side by side" and "Compare · 19/20", 130
    px) and the table, at the stage's smallest text, scrolled by 67 px (787 px in 720).
    Its shorter title keeps the heading on one line: the table is seen whole."""
    from gui.plotting.layout_check import layout_problems

    lecture_stage.resize(1280, 720)
    try:
        widget = _scene(lecture_stage, 19)
        assert _panels_shown(widget) == {"table"}
        assert _page(widget) == (720, 720)
        assert not widget.scroll_area.verticalScrollBar().isVisible()
        assert layout_problems(widget) == []
    finally:
        lecture_stage.resize(1920, 1080)
        settle_window(lecture_stage)


def test_a_scene_a_few_px_over_at_the_floor_is_fitted_the_rest_of_the_way(lecture_stage):
    """Scene 20 (Compare's two plots, one row) on a 1280 x 720 stage at 150 %: squeezed
    to the data floor its row was still 1 px over (50 px of slack for 51), so it was not
    squeezed at all and scrolled by 62 px (782 px in 720). Now the rows go to their
    floors and the fold's squeeze (at most ``FOLD_SQUEEZE`` of the canvas) fits the
    rest: no scroll bar, each plot's data within that of the floor, legends at full
    size."""
    from gui.plotting.layout_check import layout_problems
    from gui.widgets.view_widget import FOLD_SQUEEZE

    display = lecture_stage.lecture.display
    display.set_scale(1.5)
    lecture_stage.resize(1280, 720)
    try:
        widget = _scene(lecture_stage, 20)
        assert _panels_shown(widget) == {"extrapolation", "distance"}
        assert _page(widget) == (720, 720)
        assert not widget.scroll_area.verticalScrollBar().isVisible()
        floor = widget._stage_data_floor()
        least = floor - FOLD_SQUEEZE * widget.canvas.height()
        data = _data_heights(widget)
        assert all(h >= least for h in data.values()), (data, least)
        # squeezed: the canvas lower than its rows need with the plots legible
        assert 0 < widget.canvas.minimumHeight() < widget._rows_need - 50
        assert set(_legend_scales(widget).values()) == {1.0}
        assert layout_problems(widget) == []
    finally:
        display.set_scale(2.0)
        lecture_stage.resize(1920, 1080)
        settle_window(lecture_stage)


@pytest.mark.parametrize("before", [1, 3])
def test_scene_2s_differences_print_at_the_stage_size(lecture_stage, before):
    """The lecture's scene 2 (Word order's causal and RoPE out_B - out_A grids) on the
    1920 x 1080 stage at 200 %, reached from scene 1 (as the lecture goes) or from
    another view's scene: side by side their 3 x 16 cells were 40.5 px wide and every
    value printed at 13.5 pt ("-0.4"; the stage's value size is 16 pt there and needs
    45 px). One above the other, each the stage's width: every value at 16 pt or more,
    the scene still without a scroll bar, nothing cut or overlapped."""
    from gui.plotting.layout_check import layout_problems
    from gui.render.cell_values import stage_value_pt

    _scene(lecture_stage, before)
    widget = _scene(lecture_stage, 2)
    keys = ("diff_causal", "diff_pe")
    assert _panels_shown(widget) == set(keys)
    sizes, shown = {}, {}
    for key in keys:
        layer = widget.plots[key].cells
        font = layer.value_font()
        sizes[key] = None if font is None else font.pointSizeF()
        shown[key] = len(layer.shown())
    least = stage_value_pt(widget.plots["diff_pe"].cells.font_pt)
    assert all(pt is not None and pt >= least for pt in sizes.values()), (sizes, least)
    assert shown == {key: 48 for key in keys}
    rects = [widget.plots[key].plot.sceneBoundingRect() for key in keys]
    assert rects[0].bottom() <= rects[1].top(), rects  # one above the other
    assert _page(widget)[0] == _page(widget)[1] and layout_problems(widget) == []
