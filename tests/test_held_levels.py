"""A drag's live frames hold a large heatmap's colour range (the colour bar and its axis
stay); the exact range comes back when the drag ends."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest

from core.viewdata import Panel
from gui.plotting.panel_plot import PanelPlot
from gui.render.view_box import RANGE_KEEP, RANGE_SLACK, PlotViewBox, held_levels


def test_held_levels_keep_the_range_while_the_data_fits_and_grow_with_slack():
    assert held_levels(None, (-100.0, 0.0)) == (-100.0, 0.0)  # a drag's first frame
    assert held_levels((-100.0, 0.0), (-90.0, 0.0)) == (-100.0, 0.0)  # fits: kept
    # outgrown at the bottom: the slack there, the top (an end it shares) exact
    assert held_levels((-100.0, 0.0), (-110.0, 0.0)) == (-110.0 - RANGE_SLACK * 110.0, 0.0)
    grown = held_levels((-100.0, 0.0), (-110.0, 5.0))
    assert grown == (-110.0 - RANGE_SLACK * 115.0, 5.0 + RANGE_SLACK * 115.0)
    shrunk = -RANGE_KEEP * 100.0 + 1.0  # spans less than RANGE_KEEP of it: exact
    assert held_levels((-100.0, 0.0), (shrunk, 0.0)) == (shrunk, 0.0)


def _mosaic(n: int) -> np.ndarray:
    image = np.full((40, 40), np.nan, np.float32)
    image[:, :] = -0.5 * np.subtract.outer(np.arange(40.0), np.arange(40.0)) * n / 40
    image[np.triu_indices(40, 1)] = -np.inf
    return image


def _panel(n: int) -> Panel:
    """A 40 × 40 heatmap (no values printed) ranging over −0.5·(n − 1) … 0, as ALiBi's
    heads while ``seq_len`` (``n``) is dragged."""
    return Panel(
        "heads",
        "heads",
        "heatmap",
        image=_mosaic(n),
        colormap="sequential",
        levels=(-0.5 * (n - 1), 0.0),
        colorbar=True,
    )


@pytest.mark.parametrize("drag", [False, True])
def test_a_drag_holds_the_colour_range_and_its_end_brings_the_exact_one_back(qtbot, drag):
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(600, 400)
    win.show()
    plot = PanelPlot(win.addPlot(viewBox=PlotViewBox()))
    plot.show(_panel(384))
    assert plot.colorbar is not None and plot.image is not None
    plot.hold_range = drag
    seen = set()
    for n in range(386, 420, 2):
        plot.show(_panel(n))
        image = tuple(float(v) for v in np.ravel(plot.image.levels))
        bar = tuple(float(v) for v in plot.colorbar.levels())
        assert image == bar  # the bar reads the colours as the picture has them
        exact = (-0.5 * (n - 1), 0.0)
        if drag:
            assert image[0] <= exact[0] and image[1] == 0.0  # it holds the data
        else:
            assert image == exact
        seen.add(image)
    if drag:
        assert len(seen) <= 4  # a few ranges over the drag (17 frames), not one a frame
    plot.end_drag_hold()
    exact = (-0.5 * (418 - 1), 0.0)
    assert tuple(float(v) for v in np.ravel(plot.image.levels)) == exact
    assert tuple(float(v) for v in plot.colorbar.levels()) == exact
    assert plot._held_levels is None


def test_a_small_grid_and_a_diverging_map_are_not_held(qtbot):
    """Printed values (a small grid) and a diverging map (symmetric about 0) keep the
    exact range on every frame."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.show()
    plot = PanelPlot(win.addPlot(viewBox=PlotViewBox()))
    plot.hold_range = True
    for n in (8, 10, 12):
        grid = np.arange(64.0).reshape(8, 8) * n
        plot.show(Panel("g", "g", "heatmap", image=grid, colormap="sequential", colorbar=True))
        assert tuple(float(v) for v in np.ravel(plot.image.levels)) == (0.0, 63.0 * n)
    for n in (8, 10, 12):
        big = np.linspace(-n, n / 2, 40 * 40).reshape(40, 40)
        plot.show(Panel("d", "d", "heatmap", image=big, colormap="diverging", colorbar=True))
        assert tuple(float(v) for v in np.ravel(plot.image.levels)) == (-n, n)


@pytest.mark.parametrize("scale", [1.5, 2.0])
def test_an_alibi_drag_with_the_colour_and_y_ranges_held_settles_as_one_without(
    qapp, qtbot, monkeypatch, scale
):
    """A ``seq_len`` drag of ALiBi's view (live frames, then full quality) ends in the
    picture the same drag ends in with the exact colour range and the exact y ranges
    on every frame; during the drag the colour bar and the distance plot's y range
    held what they showed (a few new ranges, not one a frame)."""
    from PySide6 import QtCore, QtGui

    from core.viewdata import ComputeContext
    from core.views import VIEWS
    from gui.plotting import panel_plot
    from gui.theme import set_theme
    from gui.widgets.view_widget import ViewWidget

    spec = VIEWS["alibi"]

    def compute(**params: object) -> object:
        values = spec.model.validate({**spec.model.defaults(), **params})
        return spec.compute(values, ComputeContext(for_display=True))

    def grab(widget: ViewWidget) -> np.ndarray:
        image = widget.canvas.grab().toImage()
        image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
        return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1).copy()

    def drag() -> tuple[np.ndarray, set, set, tuple]:
        widget = ViewWidget(spec)
        try:
            widget.resize(1400, 900)
            widget.show()
            qtbot.waitExposed(widget)
            widget.show_data(compute(seq_len=384))
            widget.canvas.grab()
            bar = widget.plots["heads"].colorbar
            view = widget.plots["distance"].plot.getViewBox()
            levels, ys = set(), set()
            for n in range(390, 500, 6):
                widget.show_data(compute(seq_len=n), live=True)
                widget.canvas.grab()
                levels.add(tuple(float(v) for v in bar.levels()))
                ys.add(tuple(float(v) for v in view.viewRange()[1]))
            widget.finish_live_frame()
            widget.canvas.grab()
            return grab(widget), levels, ys, tuple(float(v) for v in bar.levels())
        finally:
            widget.close()
            widget.deleteLater()
            QtCore.QCoreApplication.processEvents()

    set_theme(ui_scale=scale)
    held, levels, ys, settled_levels = drag()
    with monkeypatch.context() as patch:
        patch.setattr(panel_plot, "held_levels", lambda held, exact: exact)
        patch.setattr(PlotViewBox, "_hold_y", lambda self: False)
        plain, plain_levels, plain_ys, plain_settled = drag()
    assert len(plain_levels) == len(plain_ys) == 19  # exact: a new range every frame
    assert len(levels) <= 4 and len(ys) <= 4  # held
    assert settled_levels == plain_settled == (-0.5 * (498 - 1), 0.0)
    np.testing.assert_array_equal(held, plain)
