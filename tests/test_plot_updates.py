"""PanelPlot hands pyqtgraph only the data that changed, and always shows the newest."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyqtgraph as pg
import pytest
from call_count import count_calls
from PySide6 import QtCore, QtGui

from core.viewdata import Panel, Series
from gui.plotting.panel_plot import PanelPlot
from gui.plotting.plot_data import MOVED, curve_change


def _curves(y0: np.ndarray, y1: np.ndarray) -> Panel:
    x = np.arange(len(y0), dtype=float)
    return Panel(
        "p",
        "curves",
        "curves",
        series=[Series("a", x.copy(), y0.copy()), Series("b", x.copy(), y1.copy())],
    )


def _heatmap(image: np.ndarray) -> Panel:
    return Panel("h", "heatmap", "heatmap", image=image.copy(), colormap="diverging")


def _panel_plot(
    qtbot, size: tuple[int, int] | None = None
) -> tuple[pg.GraphicsLayoutWidget, PanelPlot]:
    """A PanelPlot in its own layout widget, shown at ``size`` when given."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    if size is not None:
        win.resize(*size)
        win.show()
    return win, PanelPlot(win.addPlot())


def _counting(obj: object, method: str) -> list[int]:
    """Count outermost calls of ``obj.method`` (pyqtgraph re-enters setImage)."""
    calls, depth = [0], [0]
    original = getattr(obj, method)

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += depth[0] == 0
        depth[0] += 1
        try:
            return original(*args, **kwargs)
        finally:
            depth[0] -= 1

    setattr(obj, method, counted)
    return calls


def test_unchanged_curves_are_not_reset(qtbot):
    _win, plot = _panel_plot(qtbot)
    y0, y1 = np.sin(np.arange(50.0)), np.cos(np.arange(50.0))
    plot.show(_curves(y0, y1))
    calls = [_counting(item, "setData") for item in plot.curves]
    plot.show(_curves(y0, y1))  # equal values in new arrays
    assert [c[0] for c in calls] == [0, 0]
    y1_new = y1.copy()
    y1_new[17] = 5.0  # one value of one series
    plot.show(_curves(y0, y1_new))
    assert [c[0] for c in calls] == [0, 1]
    arrays = plot.plotted_arrays()
    np.testing.assert_array_equal(arrays["curve0.y"], y0)
    np.testing.assert_array_equal(arrays["curve1.y"], y1_new)
    y0_nan = y0.copy()
    y0_nan[3] = np.nan  # NaN counts as a change once, then as equal to itself
    plot.show(_curves(y0_nan, y1_new))
    plot.show(_curves(y0_nan, y1_new))
    assert [c[0] for c in calls] == [1, 1]


def test_unchanged_heatmap_is_not_reset(qtbot):
    _win, plot = _panel_plot(qtbot)
    image = np.random.default_rng(1).normal(size=(120, 90))
    image[np.triu_indices(90, 1)] = -np.inf  # masked cells
    plot.show(_heatmap(image))
    calls = _counting(plot.image, "setImage")
    plot.show(_heatmap(image))
    assert calls[0] == 0
    changed = image.copy()
    changed[60, 1] += 1.0  # a single cell off the sampled grid
    plot.show(_heatmap(changed))
    assert calls[0] == 1
    np.testing.assert_array_equal(plot.plotted_arrays()["image"], changed.astype(np.float32))
    plot.show(_heatmap(changed[:100]))  # a new shape
    assert calls[0] == 2
    assert plot.plotted_arrays()["image"].shape == (100, 90)


def test_mosaic_tiles_are_labelled_in_their_corners(qtbot):
    from core.viewdata import Tile

    win, plot = _panel_plot(qtbot, (700, 400))
    image = np.full((9, 20), np.nan)
    idx = np.arange(4)
    tiles = (
        Tile("left tile label", "l", 0, 0, idx, idx),
        Tile("right tile label", "r", 5, 16, idx, idx),
    )
    panel = _heatmap(image)
    panel.tiles = tiles
    plot.show(panel)
    pg.QtWidgets.QApplication.processEvents()
    vb = plot.plot.getViewBox()
    shown = plot.tile_labels.shown()
    assert [text for text, _rect in shown] == ["left tile label", "right tile label"]
    for (_text, rect), corner in zip(shown, [(3.5, -0.5), (19.5, 4.5)], strict=True):
        expected = vb.childGroup.transform().map(QtCore.QPointF(*corner))
        assert rect.topRight() == expected  # the label's top-right corner on the tile's
    win.resize(160, 120)  # tiles too small on screen for the long labels
    pg.QtWidgets.QApplication.processEvents()
    vb.prepareForPaint()
    assert [text for text, _rect in plot.tile_labels.shown()] == ["l", "r"]
    panel = _heatmap(image)
    panel.tiles = tiles[:1]
    plot.show(panel)
    assert [text for text, _rect in plot.tile_labels.shown()] == ["l"]
    grid = win.grab().toImage()
    assert not grid.isNull()
    plot.show(_heatmap(image))  # no tiles: no labels
    assert plot.tile_labels is None
    assert not [i for i in win.scene().items() if type(i).__name__ == "TileLabels"]


def test_tiles_of_one_plot_are_labelled_alike(qtbot):
    """ALiBi's 8 heads on the 1920 x 1080 stage at 150 % (deck scene 14) read "head 1:
    m = 0.5" … "head 4: m = 0.0625" beside "h5" … "h8": each tile chose its label by
    its own text's width. The long labels show only where every tile has room for its
    own; else every tile shows its short one."""
    from core.viewdata import Tile

    win, plot = _panel_plot(qtbot, (700, 400))
    idx = np.arange(4)
    tiles = (
        Tile("head 1: m = 0.5", "h1", 0, 0, idx, idx),
        Tile("head 5: m = 0.03125", "h5", 0, 5, idx, idx),
    )
    panel = _heatmap(np.full((4, 9), np.nan))
    panel.tiles = tiles
    plot.show(panel)
    labels = plot.tile_labels
    width = labels.metrics.horizontalAdvance
    vb = plot.plot.getViewBox()
    seen = set()
    for size in range(200, 800, 10):  # between the two labels' fits, and wider
        win.resize(size, 400)
        pg.QtWidgets.QApplication.processEvents()
        vb.prepareForPaint()
        texts = tuple(text for text, _rect in labels.shown())
        seen.add(texts)
        tile_px = 4 * abs(vb.childGroup.transform().m11())
        if width("head 1: m = 0.5") + 12 <= tile_px < width("head 5: m = 0.03125") + 12:
            assert texts == ("h1", "h5"), (size, texts)
    assert ("head 1: m = 0.5", "head 5: m = 0.03125") in seen
    assert ("h1", "h5") in seen
    assert all(
        texts in {("h1", "h5"), ("head 1: m = 0.5", "head 5: m = 0.03125")} for texts in seen
    )


def test_tile_labels_measure_their_texts_once_while_the_tiles_move(qtbot):
    """A drag moves and resizes the tiles on every frame (ALiBi's seq_len); the labels
    are measured once per text, not on every paint, and placed as before."""
    from core.viewdata import Tile

    win, plot = _panel_plot(qtbot, (700, 400))
    panel = _heatmap(np.full((9, 20), np.nan))
    panel.tiles = (Tile("left tile label", "l", 0, 0, np.arange(4), np.arange(4)),)
    plot.show(panel)
    pg.QtWidgets.QApplication.processEvents()
    labels = plot.tile_labels
    measured = []

    class Counting:
        def __init__(self, metrics):
            self.metrics = metrics

        def horizontalAdvance(self, text):
            measured.append(text)
            return self.metrics.horizontalAdvance(text)

        def __getattr__(self, name):
            return getattr(self.metrics, name)

    real = labels.metrics
    labels.metrics = Counting(real)
    out = QtGui.QImage(700, 400, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    for size in (4, 5, 6, 5):  # the tile grows and shrinks, as in a drag
        panel = _heatmap(np.full((9, 20), np.nan))
        panel.tiles = (Tile("left tile label", "l", 0, 0, np.arange(size), np.arange(4)),)
        plot.show(panel)
        p = QtGui.QPainter(out)
        labels.paint(p)
        p.end()
    assert len(measured) <= 1  # the long label once (or known already)
    ((text, rect),) = labels.shown()
    assert text == "left tile label"
    assert rect.width() == real.horizontalAdvance(text) + 8  # the 4-px margins


def test_title_that_follows_a_slider_shows_the_new_text(qtbot):
    _win, plot = _panel_plot(qtbot, (700, 400))
    y = np.sin(np.arange(20.0))
    for m in (5, 86, 95):
        panel = _curves(y, y)
        panel.title = f"q at m·θ = {m} rad"
        plot.show(panel)
        label = plot.plot.titleLabel
        assert label.text == f"q at m·θ = {m} rad"
        assert label.isVisible() and f"{m} rad" in label.item.toPlainText()


def test_display_image_is_float32_and_never_touches_the_input():
    from gui.plotting.plot_data import display_image

    source = np.array([[0.0, -np.inf], [np.inf, 2.5], [np.nan, -1.0]])
    before = source.copy()
    shown = display_image(source)
    assert shown.dtype == np.float32
    np.testing.assert_array_equal(shown, before.astype(np.float32))  # masks kept as they are
    np.testing.assert_array_equal(source, before)
    finite = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert display_image(finite) is finite  # already float32: no copy


def test_a_toeplitz_grid_is_shown_without_a_cell_by_cell_copy(qtbot, monkeypatch):
    """The relative view's grids are strided views of one vector (core.toeplitz): the
    image drawn stays such a view (its 2k − 1 values converted to float32, not k² cells
    copied on every frame), and looking for masked cells reads those values only."""
    from core.toeplitz import by_offset, offsets, toeplitz_view
    from gui.plotting.plot_data import display_image

    k = 512
    grid = toeplitz_view(offsets(k), k)  # int64, as core.views.relative hands it out
    shown = display_image(grid)
    assert shown.dtype == np.float32 and by_offset(shown) is not None
    np.testing.assert_array_equal(shown, np.asarray(grid, dtype=np.float32))
    _win, plot = _panel_plot(qtbot)
    scanned: list[int] = []
    isinf = np.isinf

    def counted(a, *args, **kwargs):
        scanned.append(np.size(a))
        return isinf(a, *args, **kwargs)

    monkeypatch.setattr(np, "isinf", counted)
    plot.show(Panel("p", "grid", "heatmap", "j", "i", image=grid, colormap="diverging"))
    assert scanned and max(scanned) <= 2 * k - 1
    monkeypatch.undo()
    assert np.array_equal(plot.image.image, shown) and by_offset(plot.image.image) is not None


def test_explicit_ticks_follow_the_data_without_relabelling(qtbot):
    _win, plot = _panel_plot(qtbot)
    image = np.arange(12.0).reshape(3, 4)

    def panel(ticks):
        return Panel(
            "h",
            "heatmap",
            "heatmap",
            "key j",
            "query i",
            image=image.copy(),
            x_ticks=ticks,
            y_ticks=((0.0, "0"),),
        )

    plot.show(panel(((0.0, "0"), (3.0, "3"))))
    relabels = _counting(plot.plot, "setLabel")
    plot.show(panel(((0.0, "0"), (2.0, "2"))))
    assert [list(level) for level in plot.plot.getAxis("bottom")._tickLevels] == [
        [(0.0, "0"), (2.0, "2")]
    ]
    assert [list(level) for level in plot.plot.getAxis("left")._tickLevels] == [[(0.0, "0")]]
    assert relabels[0] == 0  # only the ticks changed: labels are not re-laid out
    assert plot.plot.getAxis("bottom").labelText == "key j"
    plot.show(Panel("h", "heatmap", "heatmap", "key j", "query i", image=image.copy()))
    # no ticks of its own: a small grid labels every column (index_ticks) ...
    assert [list(level) for level in plot.plot.getAxis("bottom")._tickLevels] == [
        [(float(j), str(j)) for j in range(4)]
    ]
    large = np.zeros((3, 17))  # ... a larger one goes back to automatic ticks
    plot.show(Panel("h", "heatmap", "heatmap", "key j", "query i", image=large))
    assert plot.plot.getAxis("bottom")._tickLevels is None
    assert plot.plot.getAxis("left")._tickLevels is not None  # 3 rows: every index
    # ... with a negative index's minus sign as the automatic ticks write it (U+2212)
    offsets = Panel("h", "heatmap", "heatmap", "i − j", "row", image=image.copy())
    offsets = replace(offsets, x_coords=np.arange(-2, 2), y_coords=np.arange(3))
    plot.show(offsets)
    assert [list(level) for level in plot.plot.getAxis("bottom")._tickLevels] == [
        [(-2.0, "\u22122"), (-1.0, "\u22121"), (0.0, "0"), (1.0, "1")]
    ]


def test_index_ticks_are_built_once_per_count_and_coordinates(monkeypatch):
    """A small grid's index ticks are asked for on every frame: the same count and
    coordinates give the ticks built before (no label made again), as lists of the
    caller's own; other coordinates of the same count, or another count, their own."""
    from gui.plotting import panel_plot

    made = count_calls(monkeypatch, panel_plot, "minus_signs")
    image = np.zeros((3, 4))
    base = Panel("h", "heatmap", "heatmap", "x", "y", image=image)
    shifted = replace(base, x_coords=np.arange(-7, -3) * 1.0, y_coords=np.arange(5, 8))
    first = panel_plot.index_ticks(shifted)
    assert first[0] == [(-7.0, "\u22127"), (-6.0, "\u22126"), (-5.0, "\u22125"), (-4.0, "\u22124")]
    assert first[1] == [(5.0, "5"), (6.0, "6"), (7.0, "7")]
    assert made[0] == 7
    again = panel_plot.index_ticks(replace(shifted, image=image + 1.0))
    assert again == first and made[0] == 7
    assert again[0] is not first[0]  # (a list of its own)
    assert panel_plot.index_ticks(replace(shifted, x_coords=np.arange(-8, -4)))[0] == [
        (-8.0, "\u22128"),
        (-7.0, "\u22127"),
        (-6.0, "\u22126"),
        (-5.0, "\u22125"),
    ]
    assert panel_plot.index_ticks(replace(shifted, x_coords=[-7.0, -6.5, -6.0, -5.0]))[0] is None
    assert panel_plot.index_ticks(replace(shifted, image=np.zeros((3, 5))))[0] is None  # 5 ≠ 4
    assert panel_plot.index_ticks(replace(base, image=np.zeros((2, 3))))[0] == [
        (0.0, "0"),
        (1.0, "1"),
        (2.0, "2"),
    ]


def test_same_array_detects_any_changed_cell():
    from gui.plotting.plot_data import same_array

    rng = np.random.default_rng(0)
    base = rng.normal(size=(300, 300))
    base[5, 7] = np.nan
    table = base.copy()
    table.flags.writeable = False
    assert same_array(table[:200], table[:200])  # fresh views of the same memory
    assert not same_array(table[:200], table[1:201])
    copy = base.copy()
    assert same_array(base, copy)  # equal values, NaN where NaN
    copy[123, 45] += 1e-12  # one cell, off the sampled grid
    assert not same_array(base, copy)
    copy = base.copy()
    copy[5, 7] = 0.0
    assert not same_array(base, copy)
    assert same_array(base.astype(np.float32), base.astype(np.float32))
    assert same_array(base[:, ::2], base[:, ::2].copy())  # strided: value comparison
    assert not same_array(np.arange(5000), np.arange(5000.0))  # int vs float: changed
    assert not same_array(base, base[:299])


def test_same_array_compares_small_arrays_by_their_bytes(monkeypatch):
    """A curve's or an arrow's few points are compared by their bytes: no numpy
    comparison per array (~10 µs each; the clock compares ~60 arrays a frame), with
    the same answers (NaN where NaN equal, one changed cell, dtype, layout)."""
    from gui.plotting import plot_data
    from gui.plotting.plot_data import same_array, same_arrays

    calls = [0]
    original = np.array_equal

    def counted(*args: object, **kwargs: object) -> bool:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(plot_data.np, "array_equal", counted)
    y = np.sin(np.arange(241.0))
    y[7] = np.nan
    assert same_array(y, y.copy())
    changed = y.copy()
    changed[200] += 1e-12
    assert not same_array(y, changed)
    assert same_array(np.array([0.0, 0.5]), np.array([0.0, 0.5]))
    assert not same_array(np.array([0.0, 0.5]), np.array([0.0, 0.25]))
    assert same_array(y[::2], y[::2].copy())  # strided: its values
    assert not same_array(np.arange(5), np.arange(5.0))  # int vs float: changed
    assert same_array(np.arange(5, dtype=np.int32), np.arange(5, dtype=np.int32))
    assert same_arrays((y, y[:3]), (y.copy(), y[:3].copy()))
    assert calls[0] == 0
    big = np.random.default_rng(0).normal(size=(80, 80))  # larger: sampled first
    assert same_array(big, big.copy()) and calls[0] > 0


def test_heatmap_is_scanned_for_masked_cells_once_per_image(qtbot, monkeypatch):
    """A heatmap shown looks for masked (±inf) cells once: the cell layer's pass
    also tells whether the colour bar's "masked" key is shown (ALiBi's and the
    relative view's 512 × 512 images were scanned twice a frame). (The pass looks at
    the first and last rows before the whole image: at most one image's cells and two
    rows' are read.)"""
    _win, plot = _panel_plot(qtbot)
    scanned = [0]
    original = np.isinf

    def counted(*args: object, **kwargs: object) -> object:
        scanned[0] += np.size(args[0])
        return original(*args, **kwargs)

    image = np.random.default_rng(2).normal(size=(40, 30))
    once = image.size + 2 * image.shape[1]
    plot.show(_heatmap(image))  # built (colour bar and cell layer)
    monkeypatch.setattr(np, "isinf", counted)
    plot.show(_heatmap(image + 1.0))
    assert image.size <= scanned[0] <= once
    assert plot.masked_key is None
    masked = image.copy()
    masked[3, 4:9] = -np.inf
    scanned[0] = 0
    plot.show(_heatmap(masked))
    assert 0 < scanned[0] <= once
    assert plot.masked_key is not None
    scanned[0] = 0
    plot.show(_heatmap(image - 1.0))
    assert image.size <= scanned[0] <= once
    assert plot.masked_key is None


def _axis_state(plot: PanelPlot) -> list:
    out = []
    for name in ("bottom", "left"):
        axis = plot.plot.getAxis(name)
        out.append(
            (
                axis.labelText,
                dict(axis.labelStyle),
                axis.isVisible(),
                axis.style["tickFont"].key(),
                axis.style["maxTickLevel"],
                axis.textPen().color().name(),
                axis.pen().color().name(),
                axis.cacheMode(),
                axis.autoSIPrefix,
            )
        )
    return out


def test_an_axis_title_that_follows_a_slider_is_set_alone(qtbot):
    """RoPE's plane names n·θ in its x-axis title: a new title text sets that title and
    leaves the axes' styles, which are the same, alone; the axes end as a plot built
    for that panel from the start."""
    from gui.plotting.panel_plot import PanelPlot as Plot

    def panel(x_label: str, y_axis: bool = True) -> Panel:
        p = _curves(np.sin(np.arange(20.0)), np.cos(np.arange(20.0)))
        return Panel("p", "t", "curves", x_label, "score", series=p.series, y_axis=y_axis)

    win, plot = _panel_plot(qtbot, (500, 300))
    plot.show(panel("k at n·θ = 1 rad"))
    restyles = plot.restyles
    for n in (2, 3, 4):
        plot.show(panel(f"k at n·θ = {n} rad"))
    assert plot.restyles == restyles and plot.relabels == 3
    plot.show(panel("k at n·θ = 4 rad", y_axis=False))  # not a text: styled in full
    assert plot.restyles == restyles + 1
    plot.show(panel("k at n·θ = 5 rad", y_axis=False))
    assert plot.relabels == 4 and not plot.plot.getAxis("left").isVisible()
    fresh_win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(fresh_win)
    fresh_win.resize(500, 300)
    fresh_win.show()
    fresh = Plot(fresh_win.addPlot())
    fresh.show(panel("k at n·θ = 5 rad", y_axis=False))
    assert _axis_state(plot) == _axis_state(fresh)


def test_legend_names_that_follow_a_slider_keep_the_legend_laid_out(qtbot):
    """RoPE's score legend names the query position ("query at m=100"): a new m of the
    same width replaces the entries' text without re-laying out the legend or planning
    its strip again (it did on every frame); a name of another size re-plans it."""
    from PySide6 import QtWidgets

    from gui.plotting.legend_strip import StripLegend

    win, plot = _panel_plot(qtbot, (700, 450))
    x = np.arange(20, dtype=float)

    def panel(m: int, extra: str = "") -> Panel:
        return Panel(
            "score",
            "score",
            "curves",
            series=[
                Series(f"query at m={m}{extra}", x, np.sin(x + m)),
                Series(f"query at m={m + 512}", x, np.cos(x + m), "dashed"),
            ],
        )

    plot.show(panel(100))
    QtWidgets.QApplication.processEvents()
    win.ci.layout.activate()
    legend = plot.legend
    assert isinstance(legend, StripLegend)
    legend.layout.activate()
    boxes = [label.itemRect().size() for _s, label in legend.items]
    plans = _counting(legend, "set_strip")
    cache = QtWidgets.QGraphicsItem.CacheMode
    for _s, label in legend.items:  # as the view widget draws its texts
        label.item.setCacheMode(cache.DeviceCoordinateCache)
    win.grab()
    plot.show(panel(101))
    cached = win.grab().toImage()
    for _s, label in legend.items:
        label.item.setCacheMode(cache.NoCache)
    assert win.grab().toImage() == cached  # the new names drawn
    labels = [label for _s, label in legend.items]
    assert [label.item.toPlainText() for label in labels] == ["query at m=101", "query at m=613"]
    assert [label.text for label in labels] == ["query at m=101", "query at m=613"]
    assert [label.itemRect().size() for label in labels] == boxes  # (digits: same width)
    assert legend.layout.isActivated()  # nothing to lay out again
    assert plans[0] == 0
    html = labels[0].item.toHtml()
    labels[0].setText(labels[0].text)  # what LabelItem.setText makes of it: the same
    assert labels[0].item.toHtml() == html
    legend.layout.activate()
    plot.show(panel(102, " and a much longer name than before"))
    assert labels[0].item.toPlainText().endswith("much longer name than before")
    assert plans[0] == 1  # planned anew


def test_arrows_left_in_place_are_not_set_again(qtbot):
    """RoPE's plane: a drag of m turns q's arrow alone; the unrotated and k arrows keep
    their line, head and label (each was set again on every frame), q's follows."""
    from core.viewdata import Arrow

    _win, plot = _panel_plot(qtbot, (400, 400))

    def plane(m: int) -> Panel:
        q = (float(np.cos(m)), float(np.sin(m)))
        return Panel(
            "plane",
            "plane",
            "arrows",
            arrows=[Arrow("unrotated", 1.0, 0.0), Arrow(f"q (m={m})", *q), Arrow("k", 0.0, 1.0)],
        )

    plot.show(plane(1))
    lines = plot.arrows[1::3]
    calls = [_counting(line, "setData") for line in lines]
    plot.show(plane(2))
    assert [c[0] for c in calls] == [0, 1, 0]
    q_line, q_head, q_label = plot.arrows[4:7]
    x, y = q_line.getOriginalDataset()
    assert (x[-1], y[-1]) == pytest.approx((np.cos(2), np.sin(2)))
    assert q_head.pos().x() == pytest.approx(np.cos(2))
    assert q_label.toPlainText() == "q (m=2)"


def test_curve_values_that_differ_by_rounding_keep_the_drawn_curve(qtbot):
    """RoPE's score against the offset is one curve at every query position up to
    rounding: a step of ``m`` neither re-sets it nor moves its view's range."""
    _win, plot = _panel_plot(qtbot)
    y0, y1 = 15.0 * np.sin(np.arange(50.0)), np.cos(np.arange(50.0))
    plot.show(_curves(y0, y1))
    plot.plot.getViewBox().prepareForPaint()
    calls = [_counting(item, "setData") for item in plot.curves]
    ranges = _counting(plot.plot.getViewBox(), "setRange")
    rounded = y0 + 1e-13 * np.cos(np.arange(50.0))  # what computing it anew gives
    assert not np.array_equal(rounded, y0)
    plot.show(_curves(rounded, y1))
    assert [c[0] for c in calls] == [0, 0] and ranges[0] == 0
    np.testing.assert_array_equal(plot.plotted_arrays()["curve0.y"], y0)
    # a change a plot could show is drawn: one value a millionth of the curve's reach
    moved = y0.copy()
    moved[3] += 15.0 * 1e-6
    plot.show(_curves(moved, y1))
    assert [c[0] for c in calls] == [1, 0]
    np.testing.assert_array_equal(plot.plotted_arrays()["curve0.y"], moved)


def test_a_curve_draws_alike_with_the_same_x_and_missing_values_as_missing():
    def draws_alike(old: tuple, new: tuple) -> bool:
        return curve_change(old, new) != MOVED

    x = np.arange(4.0)
    y = np.array([1.0, np.nan, -2.0, 3.0])
    assert curve_change((x, y), (x.copy(), y + 1e-12)) == "alike"
    assert curve_change((x, y), (x.copy(), y.copy())) == "same"
    assert not draws_alike((x, y), (x + 1e-12, y))  # x moved: drawn anew
    assert not draws_alike((x, y), (x, np.array([1.0, 0.0, -2.0, 3.0])))  # NaN filled
    assert not draws_alike((x, y), (x, y[:3]))
    assert not draws_alike((None, None), (x, y))
    inf = np.array([np.inf, 1.0, 2.0, 3.0])
    assert draws_alike((x, inf), (x, inf.copy()))
    assert not draws_alike((x, inf), (x, np.array([np.inf, 1.0, 2.0, 3.0 + 1e-12])))


def test_a_marker_series_is_not_rebuilt_when_only_the_view_range_moves(qtbot):
    """pyqtgraph's dynamic range limit re-set a marker series' scatter on every change
    of its view's y range (RoPE's simplified-RoPE plot: each step of ``m``)."""
    win, plot = _panel_plot(qtbot, (400, 300))
    x = np.array([0.0, 100.0])
    marks = Series("pairs", x, np.array([1.0, 2.0]), "scatter")
    line = Series("line", np.arange(101.0), np.linspace(0.0, 3.0, 101))
    panel = Panel("p", "curves", "curves", series=[line, marks])
    plot.show(panel)
    scatter = plot.curves[1].scatter
    sets = _counting(scatter, "setData")
    view = plot.plot.getViewBox()
    view.setYRange(-5.0, 10.0, padding=0.0)
    view.prepareForPaint()
    assert sets[0] == 0
    higher = Series("line", np.arange(101.0), np.linspace(0.0, 30.0, 101))
    plot.show(Panel("p", "curves", "curves", series=[higher, marks]))  # range follows
    view.enableAutoRange()
    view.prepareForPaint()
    assert view.viewRange()[1][1] > 20.0 and sets[0] == 0
    np.testing.assert_array_equal(scatter.getData()[1], [1.0, 2.0])


def test_a_moving_marker_is_drawn_with_the_one_symbol_it_rendered(qtbot):
    """pyqtgraph's symbol atlas knows a symbol by its pen and brush objects: a colour
    given as the style rendered the marker anew, and grew the atlas, on each move."""
    _win, plot = _panel_plot(qtbot, (400, 300))
    for m in range(6):
        marks = Series("m − n", np.array([float(m)]), np.array([0.5 * m]), "scatter")
        plot.show(Panel("p", "curves", "curves", series=[marks]))
        plot.plot.getViewBox().prepareForPaint()
        plot.plot.scene().views()[0].grab()  # painted: its symbols are in the atlas
    scatter = plot.curves[0].scatter
    assert len(scatter.fragmentAtlas) == 1
    np.testing.assert_array_equal(scatter.getData()[0], [5.0])


def test_a_legend_is_built_once_and_reflowed_when_the_width_changes(qtbot, monkeypatch):
    """A plot's legend is made once when its panel is drawn: the entries flow into the
    columns the data's width holds, and a width that holds another number of columns
    moves the same entries (an entry's opacity, a highlighted series, kept). Each first
    show built the legend twice (all entries in one row, then a new legend in the
    fitted columns, every entry made again), and each resize or scale change that
    changed the columns built it again."""
    from PySide6 import QtWidgets

    from gui.plotting.legend_strip import StripLegend

    made: list[StripLegend] = []
    init = StripLegend.__init__

    def counted(self: StripLegend, *args: object, **kwargs: object) -> None:
        made.append(self)
        init(self, *args, **kwargs)

    monkeypatch.setattr(StripLegend, "__init__", counted)
    from gui.render.fast_axis import make_axes

    win = pg.GraphicsLayoutWidget()  # a view's plot: its strip axis tells the data's width
    qtbot.addWidget(win)
    win.resize(480, 450)
    win.show()
    plot = PanelPlot(win.addPlot(axisItems=make_axes()))
    x = np.arange(20, dtype=float)
    names = ["query at m=100", "query at m=612", "keys, all positions", "m − n = 5"]
    panel = Panel(
        "score",
        "score",
        "curves",
        series=[Series(name, x, np.sin(x + i)) for i, name in enumerate(names)],
    )

    def settle() -> None:
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
            win.ci.layout.activate()

    plot.show(panel)
    settle()
    legend = plot.legend
    assert isinstance(legend, StripLegend) and made == [legend]
    wide = legend.columnCount
    assert 1 < wide < len(names)  # fitted: neither one row nor one column
    entries = list(legend.items)
    for item in entries[1]:
        item.setOpacity(0.3)
    win.resize(160, 450)
    settle()
    assert plot.legend is legend and made == [legend]
    assert legend.columnCount < wide and legend.items == entries
    assert [s.opacity() for s, _label in legend.items] == [1.0, 0.3, 1.0, 1.0]
    win.resize(480, 450)
    settle()
    assert plot.legend is legend and made == [legend] and legend.columnCount == wide
    assert [label.opacity() for _s, label in legend.items] == [1.0, 0.3, 1.0, 1.0]
