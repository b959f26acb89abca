"""LineItem shows a line series as PlotDataItem does, without its layers."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore

from gui.render.line_item import LineItem


def _pair(qtbot, log_x: bool, log_y: bool):
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    plots = [win.addPlot(row=0, col=i) for i in range(2)]
    for plot in plots:
        plot.setLogMode(x=log_x, y=log_y)
        plot.addLegend()
    line = LineItem(pen=pg.mkPen("r", width=2), name="mine")
    plots[0].addItem(line)
    reference = plots[1].plot(pen=pg.mkPen("r", width=2), name="theirs")
    return win, plots, line, reference


@pytest.mark.parametrize("log_x,log_y", [(False, False), (True, False), (False, True)])
@pytest.mark.parametrize("case", ["finite", "nan", "zeros"])
def test_display_data_equal_plotdataitem(qtbot, log_x, log_y, case):
    _win, plots, line, reference = _pair(qtbot, log_x, log_y)
    x = np.arange(1.0, 41.0)
    y = np.sin(x / 3.0) + 2.0
    if case == "nan":
        y[7] = np.nan
    elif case == "zeros":
        x[0], y[3], y[4] = 0.0, 0.0, -1.0
    for item in (line, reference):
        item.setData(x, y)
    np.testing.assert_array_equal(line.xData, reference.curve.xData)
    np.testing.assert_array_equal(line.yData, reference.curve.yData)
    # NaN (also from log10 of zeros) breaks the line, as PlotDataItem's "auto" connect
    breaks = not (np.isfinite(line.xData).all() and np.isfinite(line.yData).all())
    assert line.opts["connect"] == ("finite" if breaks else "all")
    assert breaks == (case == "nan" or (case == "zeros" and (log_x or log_y)))
    for ax in (0, 1):
        assert line.dataBounds(ax) == reference.dataBounds(ax)
    ox, oy = line.getOriginalDataset()
    np.testing.assert_array_equal(ox, x)  # the original values, not the log mapping
    np.testing.assert_array_equal(oy, y)
    assert line.curve is line
    assert plots[0].legend.items[0][1].text == "mine"  # added to the legend
    for plot in plots:
        plot.getViewBox().prepareForPaint()
    assert plots[0].getViewBox().viewRange() == plots[1].getViewBox().viewRange()


def test_log_mode_switch_remaps_the_original_data(qtbot):
    _win, plots, line, _reference = _pair(qtbot, False, False)
    x, y = np.arange(1.0, 11.0), np.arange(10.0, 110.0, 10.0)
    line.setData(x, y)
    plots[0].setLogMode(x=False, y=True)
    np.testing.assert_allclose(line.yData, np.log10(y))
    plots[0].setLogMode(x=False, y=False)
    np.testing.assert_array_equal(line.yData, y)


@pytest.mark.parametrize("finite", [True, False])
def test_set_data_leaves_what_pyqtgraphs_set_data_does(qtbot, finite):
    """LineItem.setData stores the data without PlotCurveItem.setData's argument handling:
    the same state (data, options, forgotten bounds and paths), and the view box and
    listeners are told as pyqtgraph tells them (auto-range queued, sigPlotChanged)."""
    from gui.render.view_box import PlotViewBox

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    plot = win.addPlot(viewBox=PlotViewBox())
    line, reference = LineItem(pen=pg.mkPen("r", width=3)), pg.PlotCurveItem(pen="r")
    for item in (line, reference):
        plot.addItem(item)
    vb = plot.getViewBox()
    changed = []
    line.sigPlotChanged.connect(changed.append)
    x = np.linspace(0.0, 5.0, 40)
    y = np.sin(x)
    if not finite:
        y[7] = np.nan
    for item in (line, reference):
        item.setData(x=np.arange(3.0), y=np.arange(3.0))
        item.getPath()
        item.boundingRect()
    vb.prepareForPaint()
    assert not vb._autoRangeNeedsUpdate
    changed.clear()
    line.setData(x, y)
    reference.setData(x=x, y=y, connect="all" if finite else "finite", skipFiniteCheck=finite)
    assert changed == [line] and vb._autoRangeNeedsUpdate
    for item in (line, reference):
        assert item.path is None and item._boundingRect is None
        assert item._boundsCache == [None, None] and not item._lineSegmentsRendered
    np.testing.assert_array_equal(line.xData, reference.xData)
    np.testing.assert_array_equal(line.yData, reference.yData)
    assert {k: line.opts[k] for k in ("connect", "skipFiniteCheck")} == {
        k: reference.opts[k] for k in ("connect", "skipFiniteCheck")
    }
    assert line.boundingRect().isValid()


def _group(qtbot, *points):
    from gui.render.line_item import LineGroup

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    lines = [LineItem(x=np.array(x, float), y=np.array(y, float)) for x, y in points]
    group = LineGroup(lines)
    plot.addItem(group)
    return plot, group


def test_a_groups_joint_rect_is_the_union_of_its_lines_rects(qtbot):
    """The group's rect from all its lines' values at once equals the union of the
    lines' own rects; a line with NaN leaves it to the lines' own."""
    from gui.render.line_item import LineGroup

    _plot, group = _group(qtbot, ([0.0, 1.0, 2.0], [3.0, -1.0, 0.5]), ([-4.0, 0.25], [2.0, 7.0]))
    union = QtCore.QRectF()
    for line in group.lines:
        union = union.united(line.boundingRect())
    joint = LineGroup.joint_rects
    assert group.boundingRect() == union
    assert LineGroup.joint_rects == joint + 1
    _plot2, nan = _group(qtbot, ([0.0, np.nan], [1.0, 2.0]), ([0.0, 1.0], [1.0, 2.0]))
    assert nan._joint_rect() is None


def test_a_group_with_a_turned_or_moved_line_bounds_line_by_line(qtbot):
    """A line whose coordinates are not the group's (moved, turned or scaled as an item:
    ``setRotation`` is no part of its ``transform()``) has its rect left to its own."""
    _plot, group = _group(qtbot, ([0.0, 1.0], [0.0, 1.0]), ([2.0, 3.0], [0.0, 1.0]))
    assert group._joint_rect() is not None
    group.lines[1].setRotation(90.0)
    assert group._joint_rect() is None
    group.lines[1].setRotation(0.0)
    group.lines[0].setPos(1.0, 0.0)
    assert group._joint_rect() is None
