"""The RoPE deck's scene 9 ("Images: Qwen2-VL's M-RoPE") on a 1920 × 1080 stage at
150 % and 200 %: M-RoPE's similarities of one patch to all, 0.9972 … 1, printed "1"
in every cell of a grid whose rows ran from yellow to purple, and its colour bar had
ticks and no label (each wider than its axis)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from axis_text import drawn_labels, ink_share
from PySide6 import QtCore, QtGui
from qt_events import settle_window

from core.resources import resource_path
from core.scenes import load_deck
from gui.render.cell_values import grid_decimals, grid_texts

DECK = "rope-deep-dive"
SCENE = 9

# one row of the M-RoPE grid per distance from the query's row (scene 9's values)
MROPE = np.array([[0.99880], [0.99969], [1.0], [0.99969], [0.99880], [0.99720]])


def test_a_grid_of_values_close_together_prints_them_apart():
    assert grid_decimals(MROPE) == 4
    assert sorted(grid_texts(MROPE)) == ["0.9972", "0.9988", "0.9997", "1"]


def test_grids_that_read_apart_keep_their_texts():
    rope_1d = np.array([[0.5587, 0.62, 0.97, 1.0]])  # 2 decimals told them apart
    assert grid_decimals(rope_1d) is None
    assert sorted(grid_texts(rope_1d)) == ["0.56", "0.62", "0.97", "1"]
    ints = np.arange(-7.0, 8.0).reshape(3, 5)  # the course grid's i − j
    assert grid_decimals(ints) is None and "-7" in grid_texts(ints)
    asked = np.array([[-0.41, 0.33, 0.0]])  # Word order's one decimal, asked for
    assert grid_decimals(asked, 1) == 1
    assert sorted(grid_texts(asked, 1)) == ["-0.4", "0", "0.3"]
    alibi = np.array([[0.0, -0.25, -0.5, -1.75]])
    assert sorted(grid_texts(alibi)) == ["-0.25", "-0.5", "-1.75", "0"]


def test_a_colour_bar_of_a_narrow_range_labels_it(qtbot):
    """A vertical bar of 0.9972 … 1 at 150 % text: its ticks are labelled, each label
    a different number (four decimals), within the axis."""
    from gui.render.fast_axis import FastColorBarItem, fit_value_axis

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(200, 600)
    bar = FastColorBarItem(colorMap=pg.colormap.get("viridis"), values=(0.0, 1.0))
    win.addItem(bar)
    font = QtGui.QFont()
    font.setPointSizeF(15.0)
    fit_value_axis(bar, font)
    win.show()
    QtCore.QCoreApplication.processEvents()
    wide = drawn_labels(bar.axis)
    assert {"0", "1.0"} <= set(wide), wide  # (0 … 1 as before)
    width = bar.axis.width()
    bar.setLevels((0.9972, 1.0))
    QtCore.QCoreApplication.processEvents()  # (the wider axis laid out)
    labels = drawn_labels(bar.axis)
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels
    assert all(text.startswith("0.99") and len(text) == 6 for text in labels), labels
    assert bar.axis.width() > width
    bar.setLevels((0.0, 1.0))  # back to a range the sample holds: as narrow as before
    QtCore.QCoreApplication.processEvents()
    assert bar.axis.width() == width


@pytest.fixture(scope="module")
def stage(open_window):
    """One window presenting on a 1920 × 1080 stage."""
    with open_window(1600, 1000) as window:
        window.lecture.display.enter_presentation(fullscreen=False)
        yield window
        window.lecture.display.set_scale(1.0)
        window.lecture.display.leave_presentation()


def _show(window, scale: float):
    """The scene at ``scale``, as bench/shots.py stages it (the deck set again)."""
    window.lecture.display.set_scale(scale)
    window.resize(1920, 1080)
    path = resource_path("decks") / f"{DECK}.json"
    window.lecture.deck.set_deck(load_deck(path), path)
    window.lecture.deck.go(SCENE - 1)
    assert window.wait_idle(60)
    settle_window(window)
    return window.views[window.current_view]


@pytest.mark.parametrize("scale", [1.5, 2.0])
def test_mropes_grid_and_colour_bar_read_apart_on_stage(stage, scale):
    widget = _show(stage, scale)
    widget.canvas.grab()
    plot = widget.plots["patches"]
    labels = drawn_labels(plot.colorbar.axis)
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels
    assert plot.cells.value_font() is not None  # printed
    texts = {text for _r, _c, text, _dark in plot.cells.texts}
    assert {"0.9972", "0.9988", "0.9997", "1"} <= texts, texts
    assert len(plot.cells.shown()) == 48  # every cell's value drawn
    flat = widget.plots["patches_1d"]  # 1-D RoPE's 0.56 … 1 as before
    flat_texts = {text for _r, _c, text, _dark in flat.cells.texts}
    assert {"0.56", "0.62", "0.97", "1"} <= flat_texts
    assert all(len(text) <= 4 for text in flat_texts), flat_texts


def test_the_position_id_table_is_drawn_at_200_percent_after_150(stage):
    """Qwen2-VL's position-id table at 200 % (after 150 %, as bench/shots.py takes
    them) showed its title and no row: its text's device cache, drawn before the
    canvas' viewport grew 38 px under it, was blitted blank. Each text cache is drawn
    anew in a viewport of a new size (``ViewWidget._moved_texts``)."""
    for scale in (1.5, 2.0):
        widget = _show(stage, scale)
        plot = widget.plots["mrope_ids"]
        assert plot.plot.isVisible() and plot.table is not None
        ink, size = ink_share(widget, plot.table.textItem)
        assert size.width() > 300 and size.height() > 200
        assert ink > 0.02, (scale, ink)  # its 14 rows of text (0 when blank)


def test_the_colour_bar_keeps_its_labels_when_the_scene_is_stepped_to(stage):
    """Xvfb 1920 x 1080, stage at 200 %: Page Down from scene 8 to scene 9 showed
    M-RoPE's colour bar with ticks and no label (85 px wide, 498 px long; rescaling
    brought them back). Its width and length went round: "0.9975 …" on 498 px asked
    102 px, the wider axis left the bar 457 px, "0.998 …" asked 85 px, which gave 498
    px again, until the layout's rounds ran out. A change of length alone now only
    widens the axis: the labels stay, whatever way the scene is reached."""
    window = stage
    _show(window, 2.0)
    window.lecture.deck.go(SCENE - 2)
    assert window.wait_idle(60)
    settle_window(window)
    window.lecture.deck.step(1)  # (Page Down)
    assert window.wait_idle(60)
    settle_window(window)
    widget = window.views[window.current_view]
    widget.canvas.grab()
    axis = widget.plots["patches"].colorbar.axis
    labels = drawn_labels(axis)
    assert len(labels) >= 3 and len(set(labels)) == len(labels), (labels, axis.width())
    assert all(text.startswith(("0.99", "1.0")) for text in labels), labels
