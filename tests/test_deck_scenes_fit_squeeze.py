"""On a 1920 × 1080 stage at 200 %, a scene a little taller than the stage is fitted to
it by giving its plots' data less height, down to a legible floor, rather than scroll.

The lecture's scene 14 (ALiBi, four plots) scrolled by 112 px (1192 px in 1080) and
scene 3 (Sinusoidal, four plots revealed one by one) by 84 px: each row kept the
window's smallest legible plot (360 px at 200 %, its data about 240 px high) plus its
wrapped title and legend, and the stage squeezed a view only by 5 % of its rows. On
stage the rows now give up to what keeps each plot's data
``STAGE_DATA_LINES`` tick-label lines high, its titles, axes, legend (at full size)
and word ticks as they are. A scene that does not fit so (scene 7, 202 px over) keeps
its plots at that floor or above and scrolls.
"""

from __future__ import annotations

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


def test_a_scene_that_does_not_fit_at_the_floor_scrolls(lecture_stage):
    """Scene 7 (Learned, out of range: three lines of notes) is 202 px taller than the
    stage with its plots at the window's legible size: squeezed to the floor it would
    still be 70 px over, so it keeps its plots whole and scrolls."""
    widget = _scene(lecture_stage, 7)
    page, port = _page(widget)
    assert page > port
    # not squeezed at all: the canvas as high as its rows need (or a little more, for
    # the notes line the fold would cut: ViewWidget._fold_fit)
    assert widget.canvas.minimumHeight() >= widget._rows_need > 0
    data = _data_heights(widget)
    assert min(data.values()) > widget._stage_data_floor() + 50, data
