"""PlotViewBox: auto-range follows the measured items and runs once per change."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore

from core.viewdata import Panel, Series, Tile
from gui.plotting.panel_plot import PanelPlot
from gui.render.line_item import LineItem
from gui.render.view_box import RANGE_SLACK, PlotViewBox


def _plot(qtbot) -> tuple[pg.GraphicsLayoutWidget, PanelPlot]:
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(600, 400)
    win.show()
    return win, PanelPlot(win.addPlot(viewBox=PlotViewBox()))


def _count_auto_ranges(vb: pg.ViewBox) -> list[int]:
    runs = [0]
    original = vb.updateAutoRange

    def counted() -> None:
        runs[0] += vb._autoRangeNeedsUpdate
        original()

    vb.updateAutoRange = counted
    return runs


def test_range_follows_data_and_is_computed_once(qtbot):
    _win, plot = _plot(qtbot)
    vb = plot.plot.getViewBox()
    runs = _count_auto_ranges(vb)
    for top in (10.0, 250.0, 3.0):
        x = np.linspace(0.0, top, 50)
        plot.show(Panel("c", "curves", "curves", series=[Series("a", x, np.sin(x))]))
        (x0, x1), _ = vb.viewRange()
        assert x0 < 0.0 < top < x1 < top * 1.2  # auto-ranged to the new data
        assert not vb._autoRangeNeedsUpdate  # nothing left for the paint to redo
        vb.prepareForPaint()  # what painting runs first
    assert runs[0] == 3


def test_labels_outside_the_bounds_do_not_requeue_auto_range(qtbot):
    _win, plot = _plot(qtbot)
    vb = plot.plot.getViewBox()
    idx = np.arange(4)
    for width in (12, 30):
        panel = Panel("h", "heatmap", "heatmap", image=np.zeros((5, width)))
        panel.tiles = (Tile("tile", "t", 0, 0, idx, idx),)
        plot.show(panel)
        assert plot.tile_labels and not vb._autoRangeNeedsUpdate
        (x0, x1), _ = vb.viewRange()
        assert x0 < 0 and width - 1 < x1 < width * 1.1  # the image, not the label, sets it
    label = pg.TextItem("far away")
    plot.plot.addItem(label, ignoreBounds=True)
    vb.prepareForPaint()
    label.setPos(500.0, 500.0)  # not measured: ignored for the range
    assert not vb._autoRangeNeedsUpdate
    plot.image.setRect(0, 0, 80, 5)  # a measured item moved: auto-range is queued
    assert vb._autoRangeNeedsUpdate


def test_overlays_follow_their_view_until_detached(qtbot):
    from gui.render.grid_lines import GridLines
    from gui.render.view_box import ViewOverlay

    _win, plot = _plot(qtbot)
    vb = plot.plot.getViewBox()
    x = np.arange(10.0)
    plot.show(Panel("c", "curves", "curves", series=[Series("a", x, x)]))
    grid = plot.grid
    assert isinstance(grid, GridLines) and isinstance(grid, ViewOverlay)
    assert grid.parentItem() is vb and grid.boundingRect() == vb.boundingRect()
    updates = []
    grid.update = lambda *args: updates.append(args)  # what a range change triggers
    vb.setRange(xRange=(0, 50), padding=0)
    assert updates
    plot.show(Panel("h", "heatmap", "heatmap", image=np.zeros((3, 4))))  # rebuilt
    assert plot.grid is None and grid.parentItem() is None and grid.scene() is None
    updates.clear()
    vb.setRange(xRange=(0, 5), padding=0)
    assert not updates  # detached: no longer follows the view


def test_range_equals_pyqtgraphs_view_box(qtbot):
    """Same items, same changes: the same auto-range as pyqtgraph's ViewBox."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(800, 400)
    win.show()
    plots = [
        win.addPlot(row=0, col=i, viewBox=cls()) for i, cls in enumerate((pg.ViewBox, PlotViewBox))
    ]
    items = []
    for plot in plots:
        curve = plot.plot(np.arange(10.0), np.arange(10.0) ** 2)
        label = pg.TextItem("not measured")
        plot.addItem(label, ignoreBounds=True)
        items.append((curve, label))
    rng = np.random.default_rng(4)
    for _ in range(5):
        x = np.sort(rng.uniform(-50, 50, 30))
        y = rng.normal(size=30) * rng.uniform(1, 100)
        far = rng.uniform(-1e3, 1e3, 2)
        for plot, (curve, label) in zip(plots, items, strict=True):
            curve.setData(x, y)
            label.setPos(*far)
            plot.getViewBox().prepareForPaint()
        ranges = [plot.getViewBox().viewRange() for plot in plots]
        assert ranges[1] == ranges[0]
        assert ranges[0][0][0] < x.min() and ranges[0][0][1] > x.max()


def test_children_bounds_are_pyqtgraphs_to_the_last_bit(qtbot):
    """PlotViewBox bounds a line in its own coordinates from its data bounds as floats
    (no rectangle mapped through the identity): the same numbers as pyqtgraph's
    ``childrenBounds``, bit for bit (repr: -0.0 too), for lines of any pen, NaN gaps,
    hidden lines, a line all NaN, an image beside them (mapped as before), and the
    fractions and orthogonal ranges auto-range passes."""
    from gui.render.fast_image import FastImageItem

    rng = np.random.default_rng(7)
    lines = 0
    for _ in range(60):
        win = pg.GraphicsLayoutWidget()
        qtbot.addWidget(win)
        win.resize(int(rng.integers(200, 900)), int(rng.integers(200, 700)))
        win.show()
        plot = win.addPlot(viewBox=PlotViewBox())
        vb = plot.getViewBox()
        for _k in range(int(rng.integers(1, 6))):
            line = LineItem(pen=pg.mkPen(width=float(rng.choice([1.0, 2.0, 4.5]))))
            m = int(rng.integers(2, 300))
            x = np.cumsum(rng.random(m)) * rng.choice([1e-3, 1.0, 1e5])
            x += rng.normal() * rng.choice([0.0, 1.0, 1e6])
            y = rng.normal(size=m) * rng.choice([1e-9, 1.0, 1e8])
            if rng.random() < 0.2:
                y[rng.integers(0, m)] = np.nan
            if rng.random() < 0.1:
                y[:] = np.nan
            line.setData(x, y)
            plot.addItem(line)
            line.setVisible(bool(rng.random() > 0.1))
            lines += 1
        if rng.random() < 0.3:
            image = FastImageItem(rng.random((5, 7)))
            image.setRect(pg.QtCore.QRectF(rng.normal(), rng.normal(), 3.0, 2.0))
            plot.addItem(image)
        QtCore.QCoreApplication.processEvents()
        for frac, ortho in (
            ((1.0, 1.0), (None, None)),
            (None, (None, None)),
            ((1.0, 1.0), [None, (-1.0, 2.0)]),
        ):
            ours = vb.childrenBounds(frac=frac, orthoRange=ortho)
            assert repr(ours) == repr(pg.ViewBox.childrenBounds(vb, frac=frac, orthoRange=ortho))
        win.close()
    assert lines > 100


def test_a_seq_len_frame_leaves_the_alibi_plots_it_does_not_change_alone(window):
    """ALiBi's slopes and the course's 8 × 8 examples do not depend on seq_len: a frame
    of a seq_len drag neither re-ranges them nor regenerates their axes (the heads
    mosaic and the distance plot, which do depend on it, do both)."""
    window.set_view("alibi")
    widget, state = window.views["alibi"], window.states["alibi"]
    assert state.set_param("seq_len", 24) and window.wait_idle()
    widget.canvas.viewport().repaint()  # every axis drawn once
    plots = widget.plots
    ranged: dict[str, list[int]] = {}
    regenerated: dict[str, int] = {}
    for key, plot in plots.items():
        ranged[key] = _count_auto_ranges(plot.plot.getViewBox())
        for name in ("left", "bottom"):
            axis = plot.plot.getAxis(name)
            make = axis._make_drawing

            def counted(key: str = key, make=make) -> None:
                regenerated[key] = regenerated.get(key, 0) + 1
                make()

            axis._make_drawing = counted
    views = {key: plot.plot.getViewBox().viewRange() for key, plot in plots.items()}
    assert state.set_param("seq_len", 30) and window.wait_idle()
    widget.canvas.viewport().repaint()
    assert widget.data.params["seq_len"] == 30
    for key in ("heads", "distance"):  # what depends on seq_len is drawn anew
        assert ranged[key][0] == 1 and regenerated.get(key, 0) == 2, key
        assert plots[key].plot.getViewBox().viewRange() != views[key]
    for key in ("slopes", "course", "real"):
        assert ranged[key][0] == 0 and key not in regenerated, key
        assert plots[key].plot.getViewBox().viewRange() == views[key]


def test_a_held_range_is_kept_while_the_data_fits_and_grows_with_slack():
    from gui.render.view_box import RANGE_KEEP, RANGE_MARGIN, RANGE_SLACK, held_range

    assert held_range(None, (0.0, 100.0)) == (-RANGE_MARGIN * 100, 100 + RANGE_MARGIN * 100)
    assert held_range((-5.0, 120.0), (0.0, 100.0)) is None  # inside: kept
    assert held_range((-5.0, 120.0), (0.0, 10.0)) is not None  # far smaller: tightened
    assert held_range((-5.0, 120.0), (0.0, 125.0 * RANGE_KEEP)) is None
    grown = held_range((-5.0, 120.0), (0.0, 130.0))  # past the top: slack on top only
    assert grown == (-RANGE_MARGIN * 130, 130 + (RANGE_MARGIN + RANGE_SLACK) * 130)
    assert held_range((-5.0, 120.0), (3.0, 3.0)) is None  # one value: left to pyqtgraph


def test_a_held_view_shows_the_range_its_data_and_the_range_before_give(qtbot):
    """A drag's frame (new data, then hold_frame, as PanelPlot.show does) holds the x
    range once the x data moves: from the data alone, then kept while the data fits;
    the y range from the range shown, kept while the data fits it, grown with slack
    where the data outgrows it; release returns to the exact auto-range."""
    _win, panel = _plot(qtbot)
    view = panel.plot.getViewBox()
    x = np.arange(50.0)
    curve = LineItem()
    curve.setData(x, np.sin(x))
    panel.plot.addItem(curve)
    view.prepareForPaint()
    exact = view.viewRange()
    curve.setData(x, np.cos(x))
    assert not view.hold_frame()  # the same x data: its exact range stays, not held
    view.prepareForPaint()
    shown = view.viewRange()
    curve.setData(x[:48], np.sin(x[:48]))  # the x data moves: held from here on
    assert view.hold_frame()
    view.prepareForPaint()
    first = view.viewRange()
    assert first[0][0] < 0 < 47 < first[0][1] and first[0] != exact[0]
    assert first[1] == shown[1]  # the y data fits the range shown: kept exactly
    curve.setData(x[:45], 2 * np.sin(x[:45]))  # y outgrows it: grown, x kept
    assert view.hold_frame() and view.ranges_kept == 1
    view.prepareForPaint()
    held = view.viewRange()
    assert held[0] == first[0] and held[1][0] < -1.9 and held[1][1] > 1.9 + RANGE_SLACK
    curve.setData(x[:46], 2.1 * np.sin(x[:46]))  # fits both: nothing moves
    assert not view.hold_frame() and view.ranges_kept == 2
    view.prepareForPaint()
    assert view.viewRange() == held
    curve.setData(x, np.sin(x))  # (x fits: 50 points in the range held for 48)
    view.hold_frame()
    view.prepareForPaint()
    assert view.viewRange()[0] == first[0]
    assert all(view.autoRangeEnabled()) and view.release_range()
    view.prepareForPaint()
    assert view.viewRange() == exact


def test_a_zoom_reset_during_a_hold_shows_the_exact_range(qtbot):
    """Ctrl+R (``enableAutoRange``) ends a hold: all the data, as pyqtgraph ranges it;
    a zoom (``setRange``) during the hold is left as it is."""
    _win, panel = _plot(qtbot)
    view = panel.plot.getViewBox()
    x = np.arange(50.0)
    curve = LineItem()
    curve.setData(x[:40], np.sin(x[:40]))
    panel.plot.addItem(curve)
    view.prepareForPaint()
    curve.setData(x, np.sin(x))
    assert view.hold_frame() and view.holding
    view.setRange(xRange=(5.0, 10.0), padding=0.0)  # a zoom: x auto-range off
    assert not view.hold_frame() and not view.holding
    assert view.viewRange()[0] == [5.0, 10.0]
    assert view.hold_frame() is False  # (nothing held along a zoomed axis)
    view.enableAutoRange()
    view.prepareForPaint()
    exact = view.viewRange()
    curve.setData(x[:45], np.sin(x[:45]))
    assert view.hold_frame() and view.holding
    view.enableAutoRange()  # Ctrl+R
    assert not view.holding
    view.prepareForPaint()
    assert view.viewRange()[0][1] < exact[0][1]  # the exact range of the data shown


@pytest.mark.parametrize("held", [False, True])
def test_auto_range_is_left_out_only_where_it_keeps_the_ranges(qtbot, monkeypatch, held):
    """An auto-range that would set the ranges they are (new curves of the same
    extents, a held x range) is left out; where the data moves a range, pyqtgraph's
    pass runs. The ranges are those of a view that always runs pyqtgraph's pass, on
    every frame."""
    shown = [_plot(qtbot) for _ in range(2)]  # (the windows kept alive)
    plots = [plot for _win, plot in shown]
    always = plots[1].plot.getViewBox()
    monkeypatch.setattr(always, "_ranges_stay", lambda: False)
    rng = np.random.default_rng(4)
    base = np.sin(np.arange(400) / 7.0)
    for plot in plots:
        plot.hold_range = held
    for k in range(24):
        n = 200 + (k if held else 0)  # (held: x grows inside the held range)
        scale = 1.0 if k % 4 else float(rng.uniform(0.5, 3.0))  # a new y extent
        x = np.arange(float(n))
        y = np.roll(base[:n], k) * scale
        for plot in plots:
            plot.show(Panel("c", "curves", "curves", series=[Series("a", x, y)]))
            plot.plot.getViewBox().prepareForPaint()
        fast = plots[0].plot.getViewBox()
        assert fast.viewRange() == always.viewRange(), k
        assert fast.state["targetRange"] == always.state["targetRange"], k
        assert not fast._autoRangeNeedsUpdate
    # (held: both ranges held, an auto-range may move none; else new y extents do)
    most = 24 if held else 23
    assert 0 < plots[0].plot.getViewBox().ranges_unmoved <= most
    assert always.ranges_unmoved == 0
