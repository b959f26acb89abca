"""FastViewBox finds the same auto-range bounds as pyqtgraph's ViewBox."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from gui.fast_viewbox import FastViewBox
from gui.line_item import LineItem


def _plot(qtbot, width: int, height: int) -> tuple[pg.GraphicsLayoutWidget, pg.PlotItem]:
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(width, height)
    plot = win.addPlot(viewBox=FastViewBox())
    win.show()
    return win, plot


def _curve(plot: pg.PlotItem, x: np.ndarray, y: np.ndarray, width: float) -> LineItem:
    item = LineItem(pen=pg.mkPen("b", width=width))
    plot.addItem(item)
    item.setData(x, y)
    return item


def test_bounds_equal_pyqtgraph_over_random_curves(qtbot):
    rng = np.random.default_rng(21)
    win, plot = _plot(qtbot, 640, 380)
    vb = plot.getViewBox()
    compared = 0
    for trial in range(60):
        plot.clear()
        for k in range(int(rng.integers(1, 7))):
            n = int(rng.integers(1, 300))
            x = np.sort(rng.uniform(-1e3, 1e3, n)) * 10.0 ** rng.integers(-4, 4)
            y = rng.normal(size=n) * 10.0 ** rng.integers(-6, 6) + rng.uniform(-50, 50)
            if trial % 5 == 1 and n > 3:
                y[1] = np.nan
            if trial % 7 == 2 and k == 0:
                y[:] = np.nan  # no usable y bounds: only x counts for this curve
            if trial % 11 == 3 and n > 2:
                x[-1] = np.inf
            _curve(plot, x, y, float(rng.choice([1.0, 2.0, 3.0])))
        win.resize(int(rng.integers(200, 900)), int(rng.integers(150, 600)))
        pg.QtWidgets.QApplication.processEvents()
        assert all(vb._plain_curve(item) for item in vb.addedItems)
        for frac in (None, [1.0, 1.0]):
            got = vb.childrenBounds(frac=frac)
            assert got == pg.ViewBox.childrenBounds(vb, frac=frac)  # bit for bit
            compared += got[0] is not None
    assert compared > 100


def test_other_items_and_partial_ranges_use_pyqtgraph(qtbot, monkeypatch):
    win, plot = _plot(qtbot, 500, 300)
    vb = plot.getViewBox()
    _curve(plot, np.arange(10.0), np.arange(10.0) ** 2, 2.0)
    calls = []
    original = pg.ViewBox.childrenBounds

    def spy(self, *args, **kwargs):
        calls.append(args or kwargs)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pg.ViewBox, "childrenBounds", spy)
    vb.childrenBounds()
    assert calls == []  # plain curves only: the direct path
    vb.childrenBounds(orthoRange=(None, (0.0, 4.0)))
    assert len(calls) == 1  # a partial range: pyqtgraph
    plot.plot(np.arange(5.0), np.arange(5.0), pen=None, symbol="o")  # symbols: pyqtgraph
    expected = original(vb)
    assert vb.childrenBounds() == expected and len(calls) == 2
    image = pg.ImageItem(np.zeros((4, 4)))
    plot.addItem(image)
    vb.childrenBounds()
    assert len(calls) == 3


def test_views_auto_range_like_pyqtgraph(window):
    """Every curve plot of every view ends up with pyqtgraph's own auto-range."""
    from core.views import VIEW_IDS

    checked = 0
    for view_id in VIEW_IDS:
        window.set_view(view_id)
        assert window.wait_idle()
        for plot in window.views[view_id].plots.values():
            vb = plot.plot.getViewBox()
            assert isinstance(vb, FastViewBox)
            if plot.curves:
                assert vb.childrenBounds() == pg.ViewBox.childrenBounds(vb)
                checked += 1
    assert checked >= 5
