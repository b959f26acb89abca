"""FastAxisItem draws what pyqtgraph's AxisItem draws: same specs, same pixels; less
the tick labels pyqtgraph piles onto each other, and with room for the axis title."""

from __future__ import annotations

import contextlib

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui
from tiers import FULL, gate_cover

from gui.render.axis_specs import (
    box_edges,
    generate_draw_specs,
    regular_labels,
    separate_labels,
)
from gui.render.fast_axis import (
    FastAxisItem,
    drop_close,
    hide_spare_axes,
    log_tick_labels,
)


def _specs_as_values(specs: tuple) -> tuple:
    axis_spec, tick_specs, text_specs = specs
    axis = (axis_spec[1].x(), axis_spec[1].y(), axis_spec[2].x(), axis_spec[2].y())
    ticks = [
        (pen.color().getRgb(), pen.widthF(), a.x(), a.y(), b.x(), b.y()) for pen, a, b in tick_specs
    ]
    texts = [(r.x(), r.y(), r.width(), r.height(), int(flags), s) for r, flags, s in text_specs]
    return axis, ticks, texts


AXES = ("left", "bottom", "top", "right")
MINUS = "\u2212"


def _with_minus(strings: list[str]) -> list[str]:
    """Tick strings with a negative value's sign, the hyphen pyqtgraph's formatting
    puts first, as the minus U+2212 (what the app's axes draw)."""
    return [MINUS + s[1:] if s.startswith("-") else s for s in strings]


class MinusAxisItem(pg.AxisItem):
    """pyqtgraph's own axis (its draw specs, layout and paint) with its tick strings
    as the app's axes write them (:func:`_with_minus`; a log axis up to 10⁴ in plain
    numbers, :func:`~gui.render.fast_axis.plain_log_range`): what FastAxisItem is
    compared with. Only the strings differ from pyqtgraph's: the layout is measured
    from them."""

    def tickStrings(self, values, scale, spacing):
        if self.logMode:
            return log_tick_labels(values, scale, self.range)
        return _with_minus(super().tickStrings(values, scale, spacing))


def _plot_pair(qtbot, grid: bool, log: bool):
    """A layout with one plot using pyqtgraph's axes (:class:`MinusAxisItem`) and one
    using ours."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(900, 400)
    plain = win.addPlot(row=0, col=0, axisItems={n: MinusAxisItem(n) for n in AXES})
    fast = win.addPlot(row=0, col=1, axisItems={n: FastAxisItem(n) for n in AXES})
    for plot in (plain, fast):
        plot.showGrid(x=grid, y=grid, alpha=0.25)
        plot.setLogMode(x=log, y=False)
        plot.showAxis("top")
        plot.showAxis("right")
        # the same room on both (only the specs are compared): a fast axis takes a new
        # axis' room on a plot of another size, where pyqtgraph's keeps up to 10 px more
        for name in AXES:
            axis = plot.getAxis(name)
            if name in ("left", "right"):
                axis.setWidth(80)
            else:
                axis.setHeight(50)
    win.show()
    return win, plain, fast


def label_boxes(orientation: str, rects: list[QtCore.QRectF]) -> list[QtCore.QRectF]:
    """:func:`gui.render.axis_specs.box_edges` in Qt's rectangles (``QRectF.adjusted``;
    what the product computed before): the whole line of each label, on a horizontal
    axis with a quarter line's gap either side."""
    out = []
    for rect in rects:
        line = rect.height() / 0.8
        if orientation in ("left", "right"):
            out.append(rect.adjusted(0, -(line - rect.height()) / 2, 0, (line - rect.height()) / 2))
        else:
            out.append(rect.adjusted(-line / 4, 0, line / 4, line - rect.height()))
    return out


def _overlaps(orientation: str, text_specs: list) -> int:
    """Pairs of tick labels whose text overlaps."""
    boxes = label_boxes(orientation, [spec[0] for spec in text_specs])
    return sum(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


@pytest.mark.parametrize(
    "grid,log",
    gate_cover([(True, False), (False, False), (True, True)], keep=[(True, True)], unpack=True),
)
def test_draw_specs_equal_pyqtgraph(qtbot, grid, log):
    """The port computes pyqtgraph's specs exactly (its tick strings with the minus
    sign); the axis draws them less the labels that would overlap a more important
    one, and none of its labels overlap."""
    win, plain, fast = _plot_pair(qtbot, grid, log)
    # The specs are computed here, not painted: a window that paints nothing still lays
    # out on each resize (half of this test's time was drawing both plots 40 times).
    win.setUpdatesEnabled(False)
    rng = np.random.default_rng(7)
    checked = separated = negative = 0
    assert MinusAxisItem.generateDrawSpecs is pg.AxisItem.generateDrawSpecs  # pyqtgraph's
    for _ in range(40):
        lo = float(rng.uniform(-1e3, 1e3)) * 10.0 ** rng.integers(-3, 3)
        hi = lo + float(rng.uniform(1e-3, 1e4))
        if log:
            lo, hi = float(rng.uniform(-1, 2)), float(rng.uniform(2.5, 6))
        ylo, yhi = -float(rng.uniform(0.1, 600)), float(rng.uniform(0.1, 600))
        width, height = int(rng.integers(250, 900)), int(rng.integers(150, 500))
        win.resize(2 * width, height)
        for plot in (plain, fast):
            plot.setRange(xRange=(lo, hi), yRange=(ylo, yhi), padding=0)
        QtCore.QCoreApplication.processEvents()
        for name in AXES:
            a, b = plain.getAxis(name), fast.getAxis(name)
            assert type(b) is FastAxisItem and type(a) is MinusAxisItem
            image = QtGui.QImage(10, 10, QtGui.QImage.Format.Format_ARGB32)
            for axis_item in (a, b):  # same geometry: only the implementation differs
                axis_item.setGeometry(a.geometry())
            painter = QtGui.QPainter(image)
            try:
                expected = pg.AxisItem.generateDrawSpecs(a, painter)
                port = generate_draw_specs(b, painter)
                got = b.generateDrawSpecs(painter)
                again = b.generateDrawSpecs(painter)  # cached text sizes
                regular = regular_labels(name, expected[2], port.label_ticks)
                same = b.same_decimals(painter, port, expected[2], regular)[0]
            finally:
                painter.end()
            assert _specs_as_values(port.specs) == _specs_as_values(expected)
            ranks = b.label_ranks(port.label_ticks)
            if b.logMode:  # (a log axis keeps its roundest values: log_rank)
                kept = (*expected[:2], separate_labels(name, expected[2], ranks))
            else:  # (a linear one keeps labels at regular steps, with the same decimals)
                kept = (*expected[:2], same)
            assert _specs_as_values(got) == _specs_as_values(kept)
            assert _specs_as_values(again) == _specs_as_values(kept)
            assert _overlaps(name, got[2]) == 0
            checked += len(expected[2])
            negative += sum(text.startswith(MINUS) for _r, _f, text in got[2])
            assert not any(text.startswith("-") for _r, _f, text in got[2])
            separated += _overlaps(name, expected[2]) > 0
    assert checked > 100 and negative > 10  # labels were really compared, minus signs too
    if log:  # pyqtgraph labels every minor tick of a log axis: some pile up
        assert separated > 0


def _separated_by_qt(orientation: str, text_specs: list, ranks: list | None) -> list:
    """The former :func:`separate_labels`: Qt's ``QRectF.intersects`` of every pair."""
    boxes = label_boxes(orientation, [spec[0] for spec in text_specs])
    order = sorted(range(len(text_specs)), key=lambda k: ranks[k]) if ranks else range(len(boxes))
    kept: list[int] = []
    for k in order:
        if not any(boxes[k].intersects(boxes[other]) for other in kept):
            kept.append(k)
    return [text_specs[k] for k in sorted(kept)]


@pytest.mark.parametrize("orientation", AXES)
def test_label_boxes_meet_as_qt_rectangles_intersect(orientation):
    """The float boxes meet exactly where Qt's rectangles intersect (touching edges,
    empty and negative sizes, coordinates on a coarse grid so that edges coincide), and
    the labels kept are the ones Qt's rectangles keep, whatever the ranks."""
    rng = np.random.default_rng(23)
    for trial in range(300):
        n = int(rng.integers(0, 12))
        grid = 0.25 if trial % 2 else 0.1  # a coarse grid: many exact touches
        rects = [
            QtCore.QRectF(
                float(rng.integers(-40, 40)) * grid * 8,
                float(rng.integers(-40, 40)) * grid * 4,
                float(rng.choice([0, -1, 1, 2, 3, 5, 8])) * grid * 8,
                float(rng.choice([0, -1, 1, 2, 4])) * grid * 10,
            )
            for _ in range(n)
        ]
        qt = label_boxes(orientation, rects)
        edges = box_edges(orientation, rects)
        for i in range(n):
            for j in range(n):
                a, b = edges[i], edges[j]
                meet = (
                    a is not None
                    and b is not None
                    and a[0] < b[1]
                    and b[0] < a[1]
                    and a[2] < b[3]
                    and b[2] < a[3]
                )
                assert meet == qt[i].intersects(qt[j]), (rects[i], rects[j])
        specs = [(rect, 0, str(k)) for k, rect in enumerate(rects)]
        ranks = [(int(rng.integers(0, 3)), 0) for _ in range(n)] if trial % 3 else None
        assert separate_labels(orientation, specs, ranks) == _separated_by_qt(
            orientation, specs, ranks
        )


def test_drop_close_matches_isclose():
    rng = np.random.default_rng(3)
    for _ in range(200):
        seen = np.sort(rng.uniform(-50, 50, rng.integers(0, 30)))
        values = np.concatenate([rng.uniform(-50, 50, 20), seen[:5] + 1e-4])
        atol = float(rng.uniform(1e-5, 2))
        expected = values[~np.any(np.isclose(seen, values[:, None], rtol=0, atol=atol), axis=-1)]
        np.testing.assert_array_equal(drop_close(values, seen, atol), expected)


def _assert_same_pixels(win, plain, fast) -> None:
    """The two plots rendered from the scene on white give the same pixels (and draw
    something)."""
    images = []
    for plot in (plain, fast):
        rect = plot.sceneBoundingRect().toAlignedRect()
        image = QtGui.QImage(rect.size(), QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QtGui.QColor("white"))
        painter = QtGui.QPainter(image)
        win.scene().render(painter, QtCore.QRectF(image.rect()), QtCore.QRectF(rect))
        painter.end()
        images.append(pg.imageToArray(image, copy=True))
    a, b = images
    assert a.shape == b.shape
    assert (a != 255).any()  # something was drawn
    np.testing.assert_array_equal(a, b)


def test_grid_pixels_equal_pyqtgraph(qtbot):
    """The span-filled grid lines give the same pixels as Qt's aliased lines."""
    win, plain, fast = _plot_pair(qtbot, grid=True, log=False)
    win.resize(1000, 420)
    for plot in (plain, fast):
        plot.setRange(xRange=(0, 517), yRange=(-1.1, 1.1), padding=0)
    QtCore.QCoreApplication.processEvents()
    _assert_same_pixels(win, plain, fast)


@pytest.mark.parametrize("cap", ["FlatCap", "SquareCap", "RoundCap"])
@pytest.mark.parametrize("alpha", [255, 128])
def test_axis_lines_and_ticks_of_any_pen_equal_pyqtgraph(qtbot, cap, alpha):
    """Axis lines and ticks filled as pixel spans give the pixels of Qt's aliased
    lines, whatever the pen's cap (a flat cap leaves out a line's last pixel: such
    pens are stroked) and opacity."""
    win, plain, fast = _plot_pair(qtbot, grid=False, log=False)
    win.resize(1000, 437)
    pen = pg.mkPen(QtGui.QColor(20, 90, 160, alpha))
    pen.setCapStyle(getattr(QtCore.Qt.PenCapStyle, cap))
    for plot in (plain, fast):
        plot.setRange(xRange=(0.13, 517.7), yRange=(-1.17, 1.09), padding=0)
        for name in AXES:
            plot.getAxis(name).setPen(pen)
    QtCore.QCoreApplication.processEvents()
    _assert_same_pixels(win, plain, fast)


@FULL
def test_colour_bars_use_fast_axes(window):
    window.set_view("relative")
    assert window.wait_idle()
    bars = [p.colorbar for p in window.views["relative"].plots.values() if p.colorbar is not None]
    assert bars and all(type(bar.axis) is FastAxisItem for bar in bars)
    assert type(pg.PlotItem().getAxis("left")) is pg.AxisItem  # pyqtgraph left as it was


# ------------------------------------------------------------------ layout faults fixed
DECK_SCENE_5 = {"seq_len": 200, "d_model": 16, "base": 100.0, "dims": [0, 1, 4, 5, 14, 15]}


@pytest.fixture
def ui_scale():
    """Set the UI scale for a test (the theme is restored afterwards)."""
    from gui.theme import current_theme, set_theme

    before = current_theme().ui_scale
    yield lambda scale: set_theme(ui_scale=scale)
    set_theme(ui_scale=before)


def _view_panel(view: str, key: str, params: dict | None = None):
    from core.viewdata import ComputeContext
    from core.views import compute_view, get_view

    model = get_view(view).model
    data = compute_view(
        view, model.validate({**model.defaults(), **(params or {})}), ComputeContext()
    )
    return next(p for p in data.panels if p.key == key)


def _shown_panel(qtbot, panel, size: tuple[int, int]):
    """``panel`` drawn as the app draws it, in a shown widget whose layout has settled."""
    from gui.plotting.panel_plot import PanelPlot
    from gui.render.fast_axis import hide_spare_axes, make_axes
    from gui.render.view_box import PlotViewBox

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(*size)
    item = win.addPlot(axisItems=make_axes(), viewBox=PlotViewBox())
    hide_spare_axes(item)
    plot = PanelPlot(item)
    plot.show(panel)
    win.show()
    for _ in range(3):  # the first paint measures the labels, the next layout makes room
        win.grab()
        QtCore.QCoreApplication.processEvents()
    return win, plot


def _drawn(axis: pg.AxisItem) -> tuple[tuple, tuple]:
    """(the specs ``axis`` paints now, pyqtgraph's own specs for it) as AxisItem.paint
    measures them (a QPicture painter with the tick font)."""
    picture = QtGui.QPicture()
    painter = QtGui.QPainter(picture)
    try:
        painter.setFont(axis.style["tickFont"])
        return axis.generateDrawSpecs(painter), pg.AxisItem.generateDrawSpecs(axis, painter)
    finally:
        painter.end()


def _title_text(axis: pg.AxisItem) -> QtCore.QRectF:
    """Where the axis title's text lies, in the axis' coordinates (the label item less
    its document margin)."""
    margin = axis.label.document().documentMargin()
    return axis.label.mapRectToParent(
        axis.label.boundingRect().adjusted(margin, margin, -margin, -margin)
    )


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_log_axis_labels_do_not_pile_up(qtbot, ui_scale, scale):
    """Lecture deck scene 5, the wavelength plot (log y): pyqtgraph labels every minor
    tick, stacking ``9·10¹ 8·10¹ 7·10¹``; the axis keeps the labels that fit, decades
    first."""
    ui_scale(scale)
    _win, plot = _shown_panel(
        qtbot, _view_panel("sinusoidal", "wavelength", DECK_SCENE_5), (800, 430)
    )
    axis = plot.plot.getAxis("left")
    drawn, pyqtgraphs = _drawn(axis)
    assert _overlaps("left", pyqtgraphs[2]) > 0  # what the lecture showed
    texts = [text for _rect, _flags, text in drawn[2]]
    assert _overlaps("left", drawn[2]) == 0
    assert {"10", "100"} <= set(texts)  # the decades stay (plain numbers up to 10⁴)
    assert len(texts) >= 3


def test_log_axis_labels_read_as_plain_numbers_up_to_ten_thousand(qtbot):
    """The deck's wavelength plot (5 … 500) read "5, 10¹, 2·10¹, 5·10¹, 10², 2·10²":
    pyqtgraph's one-digit ``%g`` switches to powers from 10 on. An axis ending at or
    below 10⁴ writes plain numbers; a wider one keeps the powers (Sinusoidal's own
    wavelengths reach 3.5·10⁴); RoPE's frequencies (0.0001 … 1) stay decimals."""
    _win, plot = _shown_panel(
        qtbot, _view_panel("sinusoidal", "wavelength", DECK_SCENE_5), (800, 430)
    )
    texts = {text for _r, _f, text in _drawn(plot.plot.getAxis("left"))[0][2]}
    assert {"10", "100"} <= texts and not any("·" in t or "¹" in t or "²" in t for t in texts)
    _win, plot = _shown_panel(qtbot, _view_panel("sinusoidal", "wavelength"), (800, 430))
    texts = {text for _r, _f, text in _drawn(plot.plot.getAxis("left"))[0][2]}
    assert {"10¹", "10⁴"} <= texts
    _win, plot = _shown_panel(qtbot, _view_panel("rope", "frequencies"), (800, 430))
    texts = {text for _r, _f, text in _drawn(plot.plot.getAxis("left"))[0][2]}
    assert {"0.0001", "0.01", "1"} <= texts


def test_log_axis_labels_below_ten_to_the_minus_four_are_powers(qtbot):
    """Llama 3.1's rotation frequencies reach 10⁻⁷ (lecture deck scene 13): the plain
    labels read "0.00001", "0.000001", "0.0000001", zeros to count from the back row;
    pyqtgraph's read "0.1 … 0.0001" beside "10⁻⁵ … 10⁻⁷". An axis reaching below 10⁻⁴
    writes every label as a power of ten (RoPE's default axis, to 10⁻⁴, keeps its
    decimals: test_log_axis_labels_read_as_plain_numbers_up_to_ten_thousand)."""
    llama = {
        "head_dim": 128,
        "base": 500000.0,
        "scaling": "llama3",
        "factor": 8.0,
        "original_max_position_embeddings": 8192,
        "seq_len": 32768,
    }
    _win, plot = _shown_panel(qtbot, _view_panel("rope", "frequencies", llama), (800, 600))
    texts = {text for _r, _f, text in _drawn(plot.plot.getAxis("left"))[0][2]}
    assert {"1", "10⁻²", "10⁻⁴", "10⁻⁶"} <= texts, texts
    assert not any(t.startswith("0.") for t in texts), texts  # all alike: no decimals


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_axis_room_fits_the_widest_label_and_the_title(qtbot, ui_scale, scale):
    """RoPE's frequency plot: every label is drawn (``0.0001`` too), and the title's
    text keeps at least the tick-text gap from the labels."""
    ui_scale(scale)
    _win, plot = _shown_panel(qtbot, _view_panel("rope", "frequencies"), (800, 520))
    axis = plot.plot.getAxis("left")
    drawn, _pyqtgraphs = _drawn(axis)
    rects = {text: rect for rect, _flags, text in drawn[2]}
    assert "0.0001" in rects and "1" in rects
    title = _title_text(axis)
    gap = axis.style["tickTextOffset"][0]
    assert title.width() > 0 and title.right() + gap <= min(r.left() for r in rects.values()) + 1e-6
    own = axis.mapRectFromParent(axis.geometry())
    assert all(own.left() <= r.left() and r.right() <= own.right() for r in rects.values())


def test_fast_colour_bar_draws_what_pyqtgraphs_draws(qtbot):
    """Its axes are replaced after construction through PlotItem.setAxisItems, with
    the set-up ColorBarItem gives its own: same pixels (pyqtgraph's value axis with
    the minus sign in its tick strings, as the app's axes write them), no axis left
    behind."""
    from gui.render.fast_axis import FastColorBarItem

    images = []
    bars = []
    for cls in (pg.ColorBarItem, FastColorBarItem):
        win = pg.GraphicsLayoutWidget()
        qtbot.addWidget(win)
        win.resize(160, 420)
        bar = cls(colorMap=pg.colormap.get("viridis"), values=(-3.0, 7.5), interactive=False)
        if cls is pg.ColorBarItem:  # (a test may replace a method on pyqtgraph's object)
            plain = bar.axis
            bar.axis.tickStrings = lambda values, scale, spacing, axis=plain: _with_minus(
                pg.AxisItem.tickStrings(axis, values, scale, spacing)
            )
        win.addItem(bar)
        win.show()
        QtCore.QCoreApplication.processEvents()
        images.append(pg.imageToArray(win.grab().toImage(), copy=True))
        bars.append(bar)
    assert len(np.unique(images[0].reshape(-1, 4), axis=0)) > 20  # a drawn bar with labels
    np.testing.assert_array_equal(images[1], images[0])
    fast = bars[1]
    axes = [i for i in fast.scene().items() if isinstance(i, pg.AxisItem)]
    assert len(axes) == 4 and all(type(a) is FastAxisItem for a in axes)
    assert fast.axis is fast.getAxis("right") and fast.axis.linkedView() is None
    texts = [text for _r, _f, text in fast.axis.picture.specs[2]]
    assert {f"{MINUS}2", "0", "6"} <= set(texts), texts  # a negative label was compared


def _sine_plot(qtbot) -> tuple[pg.GraphicsView, pg.PlotItem]:
    """A plot of one sine curve with the app's axes in a 400 × 300 view, laid out (its
    axes' draw specs made)."""
    from gui.render.fast_axis import hide_spare_axes, make_axes

    view = pg.GraphicsView()
    qtbot.addWidget(view)
    plot = pg.PlotItem(axisItems=make_axes())
    hide_spare_axes(plot)
    view.setCentralItem(plot)
    view.resize(400, 300)
    plot.plot(np.arange(50), np.sin(np.arange(50) / 5.0))
    view.grab()  # laid out, specs made
    return view, plot


def test_negative_tick_labels_are_drawn_with_the_minus_sign(qtbot, monkeypatch):
    """A sine curve's value axis: the labels painted in the window write its negative
    values with the minus U+2212 (as the titles and the formula line do), never an
    ASCII hyphen, and the room the axis reserves for them is measured from those
    strings (the minus is wider than the hyphen: "−0.5" is cut off in a room for
    "-0.5")."""
    drawn: list[str] = []
    draw_text = QtGui.QPainter.drawText

    def spy(painter, *args):
        if isinstance(args[-1], str):
            drawn.append(args[-1])
        return draw_text(painter, *args)

    monkeypatch.setattr(QtGui.QPainter, "drawText", spy)
    view, plot = _sine_plot(qtbot)
    axis = plot.getAxis("left")
    drawn.clear()
    view.grab()
    labels = [text for _rect, _flags, text in axis.picture.specs[2]]
    assert axis.drawn_labels == len(labels) >= 3 and set(labels) <= set(drawn), drawn
    assert labels == [f"{MINUS}1.0", f"{MINUS}0.5", "0", "0.5", "1.0"]
    assert not any("-" in t for t in drawn), drawn  # (the bottom axis' labels too)
    metrics = QtGui.QFontMetricsF(axis.tick_font() or QtGui.QFont())
    centre = QtCore.Qt.AlignmentFlag.AlignCenter

    def width(text: str) -> float:
        return metrics.boundingRect(QtCore.QRectF(0, 0, 100, 100), centre, text).width()

    widest = max(map(width, labels))
    assert axis.text_need is not None and axis.text_need >= widest
    assert widest > max(width(t.replace(MINUS, "-")) for t in labels)  # (could fail)
    own = axis.mapRectFromParent(axis.geometry())
    rects = [rect for rect, _flags, _text in axis.picture.specs[2]]
    assert all(own.left() <= r.left() and r.right() <= own.right() for r in rects)


def test_axis_draws_only_the_labels_of_its_exposed_part(qtbot):
    """Repainted for its ticks inside the data (the data changed there), an axis draws
    no tick label: the pixels Qt repaints are those of drawing the whole axis."""
    from PySide6 import QtWidgets

    view, plot = _sine_plot(qtbot)
    left = plot.getAxis("left")
    assert left.style["tickLength"] < 0  # ticks point into the data
    whole = left.boundingRect()
    data = left.mapRectFromItem(plot.vb, plot.vb.boundingRect())
    strip = whole.intersected(data)  # the ticks' part: what a change of the data repaints
    assert not strip.isEmpty() and strip.width() < whole.width() / 2
    device = left.deviceTransform(view.viewportTransform())

    def pixels(exposed: QtCore.QRectF) -> np.ndarray:
        image = QtGui.QImage(
            view.viewport().size(), QtGui.QImage.Format.Format_ARGB32_Premultiplied
        )
        image.fill(QtGui.QColor("white"))
        painter = QtGui.QPainter(image)
        painter.setTransform(device)
        option = QtWidgets.QStyleOptionGraphicsItem()
        option.exposedRect = exposed
        left.paint(painter, option, None)
        painter.end()
        return pg.imageToArray(image, copy=True, transpose=False)

    painted = pixels(whole)
    assert left.drawn_labels > 2
    partly = pixels(strip)
    assert left.drawn_labels == 0
    # what Qt repaints (the strip, its pixels rounded outwards) is the same
    x0, y0, x1, y1 = device.mapRect(strip).toAlignedRect().getCoords()
    np.testing.assert_array_equal(
        partly[y0 : y1 + 1, x0 : x1 + 1], painted[y0 : y1 + 1, x0 : x1 + 1]
    )
    assert (partly[y0 : y1 + 1, x0 : x1 + 1, :3] != 255).any()  # the ticks
    labels = slice(0, x0 - 2)  # left of the axis line
    assert (painted[:, labels, :3] != 255).any() and not (partly[:, labels, :3] != 255).any()


def _axis_pixels(view, axis, device, region, exposed) -> np.ndarray:  # type: ignore[no-untyped-def]
    """``axis`` painted alone with its ``device`` transform onto a white picture of
    ``view``'s viewport, clipped to ``region`` (``None``: not clipped) as a widget's
    paint event clips, ``exposed`` as Qt's exposed rect."""
    from PySide6 import QtWidgets

    image = QtGui.QImage(view.viewport().size(), QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QtGui.QColor("white"))
    engine = image.paintEngine()
    if region is not None:
        engine.setSystemClip(region)  # (as a widget's paint event sets it)
    painter = QtGui.QPainter(image)
    painter.setTransform(device)
    option = QtWidgets.QStyleOptionGraphicsItem()
    option.exposedRect = exposed
    try:
        axis.paint(painter, option, None)
    finally:
        painter.end()
        engine.setSystemClip(QtGui.QRegion())
    return pg.imageToArray(image, copy=True, transpose=False)


def test_axis_draws_only_what_the_repainted_region_shows(qtbot):
    """Painted with a system clip (the region a view repaints) and an empty exposed
    rectangle (Qt's for an item that only touches the region; "all" before), an axis
    draws the labels that meet the region: none when it only touches the axis, those
    over part of them when it holds them; the pixels inside the region are those of
    a whole paint."""

    view, plot = _sine_plot(qtbot)
    left = plot.getAxis("left")
    device = left.deviceTransform(view.viewportTransform())
    shown = QtCore.QRect(QtCore.QPoint(), view.viewport().size())
    whole = device.mapRect(left.boundingRect()).toAlignedRect().intersected(shown)

    def pixels(region: QtGui.QRegion | None, exposed: QtCore.QRectF) -> np.ndarray:
        return _axis_pixels(view, left, device, region, exposed)

    painted = pixels(None, left.boundingRect())
    total = left.drawn_labels
    assert total > 2
    beside = QtCore.QRect(whole.right() + 1, whole.top(), 20, whole.height())
    untouched = pixels(QtGui.QRegion(beside), QtCore.QRectF())
    assert left.drawn_labels == 0
    np.testing.assert_array_equal(untouched, pixels(QtGui.QRegion(beside), left.boundingRect()))
    top = QtCore.QRect(whole.left(), whole.top(), whole.width(), whole.height() // 3)
    region = QtGui.QRegion(top) + QtGui.QRegion(beside)
    partly = pixels(region, QtCore.QRectF())
    assert 0 < left.drawn_labels < total
    for rect in (top, beside):
        x0, y0, x1, y1 = rect.getCoords()
        np.testing.assert_array_equal(
            partly[y0 : y1 + 1, x0 : x1 + 1], painted[y0 : y1 + 1, x0 : x1 + 1]
        )
    assert (partly[top.top() : top.bottom() + 1, top.left() : top.right() + 1, :3] != 255).any()


def test_a_bottom_axis_under_repainted_data_draws_no_label(qtbot):
    """A repaint of a plot's data reaches into its bottom axis (the ticks pointing up
    into the data, and Qt's 2 px for antialiasing), a strip above the labels that their
    reach (a quarter line above each) meets: the labels, whose glyphs lie below it, are
    not drawn (they were, on every frame of a drag, into pixels the clip threw away),
    those of a region that holds them are; the pixels inside the region are those of a
    whole paint either way."""

    view, plot = _sine_plot(qtbot)
    bottom = plot.getAxis("bottom")
    bottom.setStyle(tickFont=QtGui.QFont(view.font()))  # (as the app's axes have one)
    view.grab()  # (its specs in that font)
    device = bottom.deviceTransform(view.viewportTransform())
    whole = device.mapRect(bottom.boundingRect()).toAlignedRect()
    rects = [rect for rect, _flags, _text in bottom.picture.specs[2]]
    assert len(rects) > 2
    label_top = min(device.mapRect(rect).top() for rect in rects)
    strip = QtCore.QRect(whole.left(), whole.top(), whole.width(), int(label_top) - whole.top())
    reach = min(device.mapRect(rect).top() - rect.height() / 4 for rect in rects)
    assert strip.height() > 0 and reach < strip.bottom()  # (the reach meets the strip)

    def pixels(region: QtGui.QRegion | None) -> np.ndarray:
        return _axis_pixels(view, bottom, device, region, bottom.boundingRect())  # (Qt's)

    painted = pixels(None)
    total = bottom.drawn_labels
    assert total == len(rects)
    under = pixels(QtGui.QRegion(strip))
    assert bottom.drawn_labels == 0
    x0, y0, x1, y1 = strip.getCoords()
    np.testing.assert_array_equal(
        under[y0 : y1 + 1, x0 : x1 + 1], painted[y0 : y1 + 1, x0 : x1 + 1]
    )
    assert (under[y0 : y1 + 1, x0 : x1 + 1, :3] != 255).any()  # the ticks
    lower = QtCore.QRect(whole.left(), strip.bottom() + 1, whole.width() // 2, whole.height())
    partly = pixels(QtGui.QRegion(strip) + QtGui.QRegion(lower))
    assert 0 < bottom.drawn_labels < total
    x0, y0, x1, y1 = lower.intersected(whole).getCoords()
    np.testing.assert_array_equal(
        partly[y0 : y1 + 1, x0 : x1 + 1], painted[y0 : y1 + 1, x0 : x1 + 1]
    )
    assert (partly[y0 : y1 + 1, x0 : x1 + 1, :3] != 255).any()  # labels drawn there


def test_an_unchanged_axis_is_repainted_without_placing_its_ticks_again(qtbot):
    """An axis beside changing data is repainted with it (a heatmap's, a curve plot's):
    with the same specs at the same device translation it draws its kept tick spans
    and label boxes, the same pixels; a new translation places them again."""
    view, plot = _sine_plot(qtbot)
    left = plot.getAxis("left")
    device = left.deviceTransform(view.viewportTransform())

    def pixels(shift: float = 0.0) -> np.ndarray:
        image = QtGui.QImage(
            view.viewport().size(), QtGui.QImage.Format.Format_ARGB32_Premultiplied
        )
        image.fill(QtGui.QColor("white"))
        painter = QtGui.QPainter(image)
        painter.setTransform(device * QtGui.QTransform.fromTranslate(shift, 0.0))
        left.paint(painter, None, None)
        painter.end()
        return pg.imageToArray(image, copy=True, transpose=False)

    first = pixels()
    placed = FastAxisItem.tick_placements
    again = pixels()
    assert FastAxisItem.tick_placements == placed  # kept: nothing placed anew
    np.testing.assert_array_equal(again, first)
    assert left.drawn_labels > 2 and (first[..., :3] != 255).any()
    pixels(3.0)  # another translation: placed for it
    assert FastAxisItem.tick_placements == placed + 1


def test_a_new_axis_title_of_the_same_axis_size_is_centred_again(qtbot):
    """A new bottom title on an axis that keeps its size (deck scene 17 -> 18: DeBERTa's
    "key j" became "key j (keys 0..40, near the query)") was left where pyqtgraph had
    centred the old text: it ran 230 px past the plot's right end at 3840x2160 / 200 %."""
    from gui.render.fast_axis import run_title_refits

    win, plot = _shown_panel(qtbot, _view_panel("relative", "deberta_terms"), (900, 500))
    axis = plot.plot.getAxis("bottom")
    for text in ("key j", "key j (keys 0..40, near the query)", "j"):
        size = axis.size()
        axis.setLabel(text)
        run_title_refits(win)
        assert axis.size() == size  # the room across did not change: no resize event
        title = _title_text(axis)
        assert title.center().x() == pytest.approx(axis.size().width() / 2, abs=1.0), text


# ------------------------------------------------------------------ draw specs kept
def _fresh_specs(axis: FastAxisItem) -> tuple:
    """The specs ``axis`` works out now without the cache (as its paint measures)."""
    return _fresh_layout(axis)[0]


def _fresh_layout(axis: FastAxisItem) -> tuple:
    """:func:`_fresh_specs` with the room the labels need across the axis."""
    picture = QtGui.QPicture()
    painter = QtGui.QPainter(picture)
    try:
        if axis.style["tickFont"]:
            painter.setFont(axis.style["tickFont"])
        layout, texts, _scale = axis._generate(painter)
    finally:
        painter.end()
    axis_spec, ticks, every = layout.specs
    return _specs_as_values((axis_spec, ticks, texts)), layout.text_size, len(every)


# the gate: without a grid (2 s); the same shifts with grid lines across the plot (7 s,
# the grid's tick lines shift by the same code) with --full
@pytest.mark.parametrize("grid", gate_cover([False, True], keep=(False,)))
def test_a_drag_that_keeps_the_tick_values_places_the_same_labels_anew(qtbot, grid):
    """A drag that moves a range but keeps its tick values places the labels chosen
    before at the new positions (a ``LabelShift``), and what it draws equals the specs
    worked out afresh on every frame: labels that cross the axis' ends, crowd and are
    thinned, or are written to a finer level's decimals (−1.0 beside −0.5) come and go
    as they would. Ranges that grow (a sequence's length), shrink and pan, on all four
    sides, with a large tick font (crowded labels)."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(520, 380)
    plot = win.addPlot(axisItems={n: FastAxisItem(n) for n in AXES})
    font = QtGui.QFont()
    font.setPointSizeF(18.0)
    for name in AXES:
        plot.showAxis(name)
        plot.getAxis(name).setStyle(tickFont=font)
        plot.getAxis(name).enableAutoSIPrefix(False)
    if grid:
        plot.showGrid(x=True, y=True, alpha=0.3)
    win.show()
    shifted, mismatches = FastAxisItem.specs_shifted, FastAxisItem.shift_mismatches
    rng = np.random.default_rng(7)
    frames = [((0.0, 450.0 + 1.7 * k), (-1.23 - 0.003 * k, 1.5 + 0.011 * k)) for k in range(40)]
    frames += [((-3.0 + 0.37 * k, 17.0 + 0.21 * k), (0.0, 0.95 - 0.004 * k)) for k in range(40)]
    frames += [((-0.5 + 0.05 * k, 0.6 + 0.05 * k), (-250.0 + k, 40.0 - 2 * k)) for k in range(30)]
    # labels written to the finer level's decimals ("−1.0" beside "−0.5"), and wide
    # labels that crowd (every other one kept: "124000 126000")
    frames += [((0.0, 1900.0 + 9 * k), (-1.52 + 0.004 * k, 1.52 + 0.002 * k)) for k in range(40)]
    frames += [((123000.0 - 3 * k, 127000.0), (-12.0, 12.0 + 0.3 * k)) for k in range(40)]
    frames += [
        ((x, x + w), (y, y + h))
        for x, w, y, h in rng.uniform((-50, 1, -5, 0.5), (50, 100, 5, 9), size=(20, 4))
    ]
    thinned = decimals = 0
    for x_range, y_range in frames:
        plot.setRange(xRange=x_range, yRange=y_range, padding=0)
        for _ in range(2):  # (the axes take the room their labels need)
            win.grab()
            QtCore.QCoreApplication.processEvents()
        for name in AXES:
            axis = plot.getAxis(name)
            assert axis.picture is not None and axis.picture.specs is not None
            fresh, text_size, every = _fresh_layout(axis)
            assert _specs_as_values(axis.picture.specs) == fresh, (name, x_range, y_range)
            clearance = axis.title_clearance(text_size)
            assert axis.text_need == text_size + clearance
            texts = [text for *_rect, text in fresh[2]]
            thinned += len(texts) < every
            decimals += any(t.endswith(".0") for t in texts) and any(".5" in t for t in texts)
    assert FastAxisItem.shift_mismatches == mismatches
    assert FastAxisItem.specs_shifted - shifted > 300  # (most frames kept their ticks)
    assert thinned > 20 and decimals > 20  # (both were placed anew: see the frames)


def test_axes_with_inputs_seen_before_take_their_draw_specs_from_the_cache(qtbot):
    """Two plots of the same size and range (Relative's heatmaps, Permutation's rows)
    work their axes' specs out once; an axis whose picture is dropped with nothing
    changed (a colour bar's levels re-set, a focus and back) works nothing out again; a
    new range does. The specs taken from the cache equal those worked out afresh."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(900, 400)
    plots = [
        win.addPlot(row=0, col=c, axisItems={n: FastAxisItem(n) for n in AXES}) for c in (0, 1)
    ]
    for plot in plots:
        plot.showGrid(x=True, y=True, alpha=0.25)
        hide_spare_axes(plot)
    win.show()
    axes = [plot.getAxis(n) for plot in plots for n in ("left", "bottom")]

    def frame(x_range: tuple[float, float]) -> tuple[int, int]:
        generated, reused = FastAxisItem.specs_generated, FastAxisItem.specs_reused
        for plot in plots:
            plot.setRange(xRange=x_range, yRange=(-1.1, 1.1), padding=0)
        win.grab()
        assert plots[0].size() == plots[1].size()
        for axis in axes:  # what is drawn is what the axis works out now
            assert axis.picture is not None and axis.picture.specs is not None
            assert _specs_as_values(axis.picture.specs) == _fresh_specs(axis)
        return FastAxisItem.specs_generated - generated, FastAxisItem.specs_reused - reused

    frame((0.0, 517.0))
    # a new x range: the second plot's bottom axis is the first's (the left axes keep
    # their pictures)
    assert frame((3.5, 88.25)) == (1, 1)
    for axis in axes:  # dropped, nothing changed
        axis.picture = None
        axis.update()
    assert frame((3.5, 88.25)) == (0, 4)
    assert frame((0.0, 517.0)) == (0, 2)  # back to a range drawn before
    assert frame((0.0, 518.0)) == (1, 1)


@contextlib.contextmanager
def _keyed_axis(qtbot, name: str):  # type: ignore[no-untyped-def]
    """The ``name`` axis of a shown 400 x 300 plot of fast axes, drawn once, and a
    painter its draw-spec key is read with."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(400, 300)
    plot = win.addPlot(axisItems={n: FastAxisItem(n) for n in AXES})
    win.show()
    win.grab()
    image = QtGui.QImage(10, 10, QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(image)
    try:
        yield plot.getAxis(name), painter
    finally:
        painter.end()


def test_an_axis_on_stage_does_not_take_the_specs_of_one_in_the_window(qtbot):
    """Index labels shrink less on stage (``stage``): the same axis in the same place
    with the same font is another key there (at a presentation scale equal to the
    window's, a view's axes would otherwise take the window's smaller labels)."""
    with _keyed_axis(qtbot, "bottom") as (axis, painter):
        axis.index_labels = True
        window_key = axis.spec_key(painter)
        axis.stage = True
        stage_key = axis.spec_key(painter)
    assert window_key is not None and window_key != stage_key


def test_an_axis_with_other_pens_or_style_does_not_take_the_specs_of_another(qtbot):
    """The specs carry the axis' pen, its tick pen (set or following the pen) and its
    style (fonts, lists and plain entries): each one changed is another key, and put
    back is the same key again (the cache is shared by all axes)."""
    with _keyed_axis(qtbot, "left") as (axis, painter):
        first = axis.spec_key(painter)
        keys = [first]
        pen, tick_pen = axis.pen(), axis.tickPen()
        axis.setPen(pg.mkPen("r"))
        keys.append(axis.spec_key(painter))  # the pen
        axis.setTickPen(None)
        keys.append(axis.spec_key(painter))  # no tick pen of its own: it follows the pen
        axis.setTickPen(pg.mkPen("b", width=3))
        keys.append(axis.spec_key(painter))  # another tick pen of its own
        axis.setPen(pen)
        axis.setTickPen(tick_pen)
        assert axis.spec_key(painter) == first  # both as they were
        for name, value in (
            ("textFillLimits", [(0, 0.8), (2, 0.5)]),  # a list of tuples
            ("tickLength", -9),  # a plain entry
            ("tickFont", QtGui.QFont("DejaVu Sans", 23)),  # a font
            ("tickFont", QtGui.QFont("DejaVu Sans", 11)),  # another
        ):
            old = axis.style[name]
            axis.style[name] = value
            keys.append(axis.spec_key(painter))
            axis.style[name] = old
            assert axis.spec_key(painter) == first, name
    assert first is not None and len(set(keys)) == len(keys), keys


def test_a_pen_or_font_changed_in_place_is_another_key(qtbot):
    """The keys of pens and fonts are kept for ones equal to those seen before: the
    axis' own pen, or its tick font, changed in place (the same object) is another
    key, and put back is the first key again."""
    with _keyed_axis(qtbot, "left") as (axis, painter):
        font = QtGui.QFont("DejaVu Sans", 13)
        axis.setStyle(tickFont=font)
        first = axis.spec_key(painter)
        pen = axis._pen  # (pyqtgraph's own; pen() returns a copy)
        color = pen.color()
        pen.setColor(QtGui.QColor("red"))
        red = axis.spec_key(painter)
        pen.setColor(color)
        assert axis.spec_key(painter) == first
        font.setPointSize(19)
        larger = axis.spec_key(painter)
        font.setPointSize(13)
        assert axis.spec_key(painter) == first
    assert len({first, red, larger}) == 3


def test_tick_strings_are_kept_per_values_scale_and_mode(qtbot):
    """A second axis asking for the same tick labels gets them without pyqtgraph
    working them out again (a copy: the draw specs change theirs); other values, a
    zero of the other sign, another spacing or log mode are worked out anew, each as
    pyqtgraph (with the minus sign) writes them."""
    from gui.render import fast_axis

    fast_axis._TICK_STRINGS.clear()  # (what the module's other tests drew is kept there)
    first, second = FastAxisItem("left"), FastAxisItem("left")

    def expected(axis: FastAxisItem, values: list, spacing: float) -> list[str]:
        made = pg.AxisItem.tickStrings(axis, values, 1.0, spacing)
        return [text.replace("-", MINUS) for text in made]

    values = [-0.5, 0.0, 0.5]
    strings = first.tickStrings(values, 1.0, 0.5)
    made = FastAxisItem.tick_strings_made
    again = second.tickStrings(values, 1.0, 0.5)
    assert FastAxisItem.tick_strings_made == made
    assert again == strings == expected(first, values, 0.5) and again is not strings
    again[0] = None
    assert second.tickStrings(values, 1.0, 0.5) == strings
    for axis, vals, spacing in (
        (first, [-0.5, 0.0, 1.0], 0.5),  # other values
        (first, [0.0, 0.5], 0.5),
        (first, [-0.0, 0.5], 0.5),  # == the one before, but written "−0.0"
        (first, values, 0.25),  # another spacing: more places
    ):
        assert axis.tickStrings(vals, 1.0, spacing) == expected(axis, vals, spacing)
    second.setLogMode(True)
    second.setRange(0.0, 5.0)  # (to 10⁵: pyqtgraph's powers of ten)
    logged = second.tickStrings([0.0, 1.0], 1.0, 1.0)
    assert logged == expected(second, [0.0, 1.0], 1.0) == ["1", "10¹"]
    assert first.tickStrings([0.0, 1.0], 1.0, 1.0) == ["0", "1"]
    assert FastAxisItem.tick_strings_made == made + 6
    second.setRange(0.0, 3.0)  # (to 10³: plain numbers, kept apart from the powers)
    assert second.tickStrings([0.0, 1.0], 1.0, 1.0) == ["1", "10"]


# ------------------------------------------------------------------ room as a new axis
def _plain_plot(qtbot, size: tuple[int, int], font: QtGui.QFont):
    """A shown plot of fast axes, y from 0 to 0.3 (ticks every 0.05, every 0.1 when
    short), tick labels in ``font``, laid out and painted until settled."""
    from gui.render.fast_axis import make_axes

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(*size)
    plot = win.addPlot(axisItems=make_axes())
    hide_spare_axes(plot)
    plot.setYRange(0.0, 0.3, padding=0)
    plot.setXRange(0.0, 1.0, padding=0)
    plot.getAxis("left").setStyle(tickFont=font)
    win.show()
    _settle(win)
    return win, plot


def _settle(win) -> None:
    for _ in range(4):  # a paint measures the labels, the next layout makes room
        win.grab()
        QtCore.QCoreApplication.processEvents()


def _font(pixels: int) -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPixelSize(pixels)
    return font


@pytest.mark.parametrize("change", ["plot size", "tick font"])
def test_an_axis_takes_a_new_axis_room_after_its_plot_size_or_tick_font_changed(qtbot, change):
    """An axis whose plot got another size, or whose tick labels another font, is as
    wide as a new axis there: pyqtgraph keeps the room of wider labels shown before
    (up to 10 px), so Relative's row-label axes stayed as wide as they were at the
    width the plots had on their way back from the stage (its heatmaps 1 px off those
    of plots built there)."""
    tall, short = (500, 900), (500, 150)
    big, small = _font(18), _font(15)  # (labels 7 px narrower: pyqtgraph keeps the room)
    if change == "plot size":  # "0.05" labels at 900 px, "0.1" at 150 px
        first, then = (tall, small), (short, small)
    else:
        first, then = (tall, big), (tall, small)
    win, plot = _plain_plot(qtbot, *first)
    axis = plot.getAxis("left")
    before = axis.width()
    win.resize(*then[0])
    axis.setStyle(tickFont=then[1])
    _settle(win)
    _new_win, new_plot = _plain_plot(qtbot, *then)
    new_axis = new_plot.getAxis("left")
    assert new_axis.width() < before  # (the labels there need less room than before)
    assert (axis.width(), axis.textWidth) == (new_axis.width(), new_axis.textWidth)


def test_an_axis_title_resized_while_its_plot_is_hidden_fits_when_shown(qtbot):
    """A plot hidden on stage (a scene reveals it later; its place kept) is re-sized
    with the canvas: its axis title was not fitted then (the title's ``isVisible()``
    is false under a hidden plot, where "shown on its axis" was meant), and showing
    the plot re-sizes nothing: the title kept the length of the wider plot and ran
    past both ends of the narrow one."""
    from gui.render.fast_axis import run_title_refits

    win, plot = _shown_panel(qtbot, _view_panel("relative", "deberta_terms"), (1400, 500))
    item = plot.plot
    policy = item.sizePolicy()
    policy.setRetainSizeWhenHidden(True)  # (as a view keeps a plot's place to reveal it)
    item.setSizePolicy(policy)
    axis = item.getAxis("bottom")
    axis.setLabel("key j (keys 0..40, near the query), and a longer title than that")
    run_title_refits(win)
    wide = _title_text(axis)
    assert wide.width() > 450  # one line on the wide plot
    item.hide()
    win.resize(500, 500)
    for _ in range(3):
        QtCore.QCoreApplication.processEvents()
    item.show()
    for _ in range(3):
        win.grab()
        QtCore.QCoreApplication.processEvents()
    title = _title_text(axis)
    assert axis.size().width() < 500
    assert title.left() >= -1 and title.right() <= axis.size().width() + 1, (title, axis.size())


def test_an_axis_title_that_fits_its_room_on_one_line_keeps_its_full_size(qtbot, monkeypatch):
    """Compare's "distance Δ (key Δ positions before the query)" at 1280 × 720, 300 %,
    on stage: 1 084 px of text in a 1 109 px room was drawn at 0.9 (the fit counted
    the document's margins twice and the space pyqtgraph ends the title with). A title
    fits on one line at full size in any room as wide as its text and margins; in a
    room a little narrower it wraps (two lines, full size)."""
    win, plot = _shown_panel(qtbot, _view_panel("relative", "deberta_terms"), (900, 500))
    axis = plot.plot.getAxis("bottom")
    axis.setLabel("distance Δ (key Δ positions before the query)", **{"font-size": "30pt"})
    label = axis.label
    label.setTextWidth(-1)
    cursor = QtGui.QTextCursor(label.document())
    cursor.movePosition(QtGui.QTextCursor.MoveOperation.NextCharacter)
    metrics = QtGui.QFontMetricsF(cursor.charFormat().font())  # (the title's 30 pt)
    text = metrics.horizontalAdvance("distance Δ (key Δ positions before the query)")
    margins = 2 * label.document().documentMargin()
    for extra, lines in ((2.0, 1), (-20.0, 2)):
        room = text + margins + extra
        monkeypatch.setattr(axis, "title_span", lambda room=room: (0.0, room + 4))
        axis._label_fit = None
        axis.fit_label()
        count = sum(b.layout().lineCount() for b in _blocks(label.document()))
        assert (label.scale(), count) == (1.0, lines), (extra, room)


def _blocks(document: QtGui.QTextDocument) -> list:
    out, block = [], document.begin()
    while block.isValid():
        out.append(block)
        block = block.next()
    return out


def test_an_axis_whose_index_labels_changed_size_takes_a_new_axis_room(qtbot):
    """A titled axis' index labels ("10" … "17", 20 px) shrink to 0.6 of their size
    when the axis gets shorter in a plot of the same size (a taller bottom axis, as a
    title taking another line does) and grow back when it is long again: the axis is
    then as wide as a new one there. The label size is part of the tick font the room
    is held for: pyqtgraph shrinks a room only by more than 10 px and grows it from
    there, so the axis took a new one's 30 px, then the small labels' 15.6, then the
    full labels' 25.8 where a new axis keeps 30 (ALiBi's course grid on stage at
    1280 × 720 re-styled: 6 px narrower than built there, its title a line shorter, the
    canvas 41 px shorter)."""
    ticks = [[(float(v), str(v + 10)) for v in range(8)]]

    def index_plot(bottom_height: int):
        win, plot = _plain_plot(qtbot, (500, 400), _font(20))
        axis = plot.getAxis("left")
        axis.setTicks(ticks)
        axis.index_labels = True
        axis.forget_text_room()  # (new ticks, as PanelPlot gives them)
        axis.setLabel("rows")
        plot.setYRange(-0.5, 7.5, padding=0)
        plot.getAxis("bottom").setHeight(bottom_height)
        _settle(win)
        return win, plot, axis

    win, plot, axis = index_plot(60)
    assert (axis.tick_scale, axis.textWidth) == (1.0, 30)  # (needs 25.8 px)
    plot.getAxis("bottom").setHeight(250)
    _settle(win)
    assert axis.tick_scale == 0.6 and axis.textWidth < 20  # (the room shrank)
    plot.getAxis("bottom").setHeight(60)
    _settle(win)
    _new_win, _new_plot, new_axis = index_plot(60)
    assert axis.tick_scale == new_axis.tick_scale == 1.0
    assert (axis.width(), axis.textWidth) == (new_axis.width(), new_axis.textWidth)


def test_a_colour_bar_placed_a_rounding_error_off_a_pixel_stands_on_it(qapp):
    """A colour bar given a place a floating-point error left of a whole pixel (the
    plot's grid adds fractional column widths in an order that depends on how it got
    there) stands on that pixel: ALiBi's re-styled at 1280 x 720 stood at
    x = 777.9999999999999 where a new one stood at 778.0, its frame drawn a pixel left
    of its colours. A real fraction (an axis 56.6 px wide) is kept."""
    from gui.render.fast_axis import FastColorBarItem

    def bar_at(*places: QtCore.QRectF) -> tuple[float, float, float, float]:
        bar = FastColorBarItem(values=(0.0, 1.0), colorMap=pg.colormap.get("viridis"))
        for place in places:  # (Qt ignores a place fuzzily equal to the one it has)
            bar.setGeometry(place)
        assert bar.pos().x() == bar.geometry().x()
        return bar.geometry().getRect()

    height = 300.44508973126227
    whole = bar_at(QtCore.QRectF(778.0, 31.0, 72.0, height))
    assert whole == (778.0, 31.0, 72.0, height)
    moved = QtCore.QRectF(700.0, 31.0, 72.0, height)  # where it was before
    assert bar_at(moved, QtCore.QRectF(777.9999999999999, 31.0, 72.0, height)) == whole
    assert (
        bar_at(moved, QtCore.QRectF(778.0000000000001, 30.999999999999996, 72.0, height)) == whole
    )
    # a real fraction (an axis 56.6 px wide beside it) is kept
    assert bar_at(QtCore.QRectF(56.6, 31.0, 72.0, 300.0)) == (56.6, 31.0, 72.0, 300.0)


def _ink_centre(image: np.ndarray, rect: QtCore.QRect, across: int) -> float:
    """The centre (px, in the image) of the dark ink inside ``rect`` of an RGB(A)
    ``image`` (rows × columns), along axis ``across`` of the crop (1: columns, 0: rows)."""
    crop = image[rect.top() : rect.bottom() + 1, rect.left() : rect.right() + 1, :3].min(axis=2)
    inked = np.flatnonzero((crop < 110).any(axis=1 - across))
    start = rect.left() if across == 1 else rect.top()
    return start + (inked[0] + inked[-1] + 1) / 2


def test_axis_titles_are_centred_on_their_axes_as_drawn(qtbot):
    """A title's ink is centred on its axis: pyqtgraph writes a title without units as
    ``"key j "`` (a space for the units), so the heatmaps' "key j" was drawn half a space
    left of the axis' centre and "query i" half a space low (3.0 and 2.1 px in the
    course grid at 1600 x 1000 / 100 %; 6.4 px at this 40 px title)."""
    win, plot = _plain_plot(qtbot, (700, 600), _font(14))
    win.setBackground("w")  # (dark ink on white: the ticks' grey is lighter than it)
    style = {"font-size": "40px", "color": "#000000"}
    plot.getAxis("bottom").setLabel("key j", **style)
    plot.getAxis("left").setLabel("query i", **style)
    _settle(win)
    image = pg.imageToArray(win.grab().toImage(), copy=True, transpose=False)
    for side, across in (("bottom", 1), ("left", 0)):
        axis = plot.getAxis(side)
        box = win.mapFromScene(axis.label.sceneBoundingRect()).boundingRect()
        start, length = axis.title_span()
        origin = axis.mapToScene(QtCore.QPointF(start, 0) if across else QtCore.QPointF(0, start))
        corner = win.mapFromScene(origin)
        centre = (corner.x() if across else corner.y()) + length / 2
        assert _ink_centre(image, box, across) == pytest.approx(centre, abs=1.5), side
        assert axis.label.toPlainText() in ("key j", "query i")  # no space for units


def test_linear_tick_labels_that_crowd_stay_a_regular_sequence(qtbot, ui_scale):
    """At 300 % Sinusoidal's wavelength plot labelled its pair index "0 2 4 6 8 10 14":
    the 12 overlapped the 10 and was left out, the 14 clear of it stayed, and the gap
    read as a step. A linear axis whose labels crowd keeps every k-th of them (0 4 8
    12, or coarser), at every width; the labels kept never overlap."""
    ui_scale(3.0)
    _win, plot = _shown_panel(qtbot, _view_panel("sinusoidal", "wavelength"), (900, 600))
    axis = plot.plot.getAxis("bottom")
    thinned = 0
    for width in range(560, 1100, 20):
        _win.resize(width, 600)
        for _ in range(2):
            _win.grab()
            QtCore.QCoreApplication.processEvents()
        drawn, pyqtgraphs = _drawn(axis)
        values = sorted(float(text.replace(MINUS, "-")) for _r, _f, text in drawn[2])
        steps = {round(b - a, 9) for a, b in zip(values, values[1:], strict=False)}
        assert len(steps) <= 1, (width, values)  # one step throughout
        assert _overlaps("bottom", drawn[2]) == 0
        thinned += len(drawn[2]) < len(pyqtgraphs[2])
    assert thinned  # (some widths had labels that crowd)


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


def test_tick_labels_of_one_axis_have_the_same_decimals(qtbot, ui_scale):
    """RoPE's plane on stage (150 %) read "1.5, 1, 0.5, 0, −0.5, −1, −1.5" up its y axis
    (pyqtgraph writes the major ticks to their spacing's decimals, the halves between
    to theirs) beside "−1.0 −0.5 0 0.5 1.0" along x. Every label of an axis now has
    the decimals of the finest level drawn, at every size; none overlap."""
    ui_scale(1.5)
    win, plot = _shown_panel(qtbot, _view_panel("rope", "plane"), (640, 600))
    halves = 0
    for height in range(400, 1000, 50):
        win.resize(640, height)
        for _ in range(2):
            win.grab()
            QtCore.QCoreApplication.processEvents()
        for name in ("left", "bottom"):
            drawn, _pyqtgraphs = _drawn(plot.plot.getAxis(name))
            texts = [text for _r, _f, text in drawn[2]]
            written = {_decimals(text) for text in texts if text != "0"}
            assert len(written) <= 1, (height, name, texts)
            assert _overlaps(name, drawn[2]) == 0
            halves += any(text.endswith(".5") for text in texts)
    assert halves > 5  # (the half-unit level was labelled at many sizes)


def _tile_pattern(texts: list[str], tiles: int) -> list[str] | None:
    """The labels one tile of a mosaic's axis reads, when ``texts`` (an axis' labels
    in order) are ``tiles`` repetitions of them; ``None`` when the tiles read apart."""
    if not texts or len(texts) % tiles:
        return None
    each = texts[: len(texts) // tiles]
    return each if each * tiles == texts else None


@pytest.mark.parametrize("side", ["left", "bottom"])
def test_every_tile_of_alibis_mosaic_reads_its_range_at_any_size(qtbot, ui_scale, side):
    """ALiBi's heads on the 1920 × 1080 stage at 200 % read "15, 15, 15" up the y axis
    and "0 7 0 7 0 7" along x: a tile's last label and the next tile's first stood a
    gap of two cells apart and one of them was left out, so no tile's range 0 … 15 was
    readable. Every tile now reads alike, and its first and last position: "0 7 15",
    "0 15" (the ends moved inwards, into their own tile) or "0…15" once, at every
    height and width the plot is given at 300 % (where the tiles are too narrow even
    for that, "0…15" once); the labels never overlap and stay within their tiles."""
    from gui.render.axis_specs import value_scale

    ui_scale(3.0)
    panel = _view_panel("alibi", "heads")
    first, last = (str(int(v)) for v in panel.tiles[0].x_coords[[0, -1]])
    win, plot = _shown_panel(qtbot, panel, (900, 700))
    axis = plot.plot.getAxis(side)
    assert len(axis.tile_spans) == 3  # 8 heads: 3 × 3 tiles, the last row of 2
    seen = set()
    for length in range(600, 1300, 40):
        win.resize(length, 700) if side == "bottom" else win.resize(900, length)
        for _ in range(2):
            win.grab()
            QtCore.QCoreApplication.processEvents()
        drawn = _drawn(axis)[0][2]
        texts = [text for _r, _f, text in drawn]
        each = _tile_pattern(texts, len(axis.tile_spans))
        if texts == [f"{first}…{last}"]:  # the first tile's range alone: tiles too narrow
            each = texts
        assert each in ([first, "7", last], [first, last], [f"{first}…{last}"]), (length, texts)
        assert _overlaps(side, drawn) == 0, (length, texts)
        dim = 0 if side == "left" else 1
        scale, offset = value_scale(axis.range, axis_frame_bounds(axis), dim)
        extents = [
            sorted(((lo - 0.5) * scale - offset, (hi + 0.5) * scale - offset))
            for lo, hi in axis.tile_spans
        ]
        if len(drawn) == 1:  # (one label for all: within the tiles together)
            extents = [[min(min(e) for e in extents), max(max(e) for e in extents)]]
        for rect, _f, text in drawn:
            centre = rect.center().y() if side == "left" else rect.center().x()
            assert any(a <= centre <= b for a, b in extents), (length, text)
        seen.add(tuple(each))
    assert len(seen) >= 2, seen  # (the sizes reach the labels' fallbacks)


def axis_frame_bounds(axis: pg.AxisItem) -> QtCore.QRectF:
    """The axis' own rectangle, in its coordinates (where its ticks are placed)."""
    return axis.mapRectFromParent(axis.geometry())


def test_tile_labels_fall_back_from_every_tick_to_the_ends_to_one_range():
    """:func:`tile_labels` over three tiles of 16 cells (two cells apart), labels 12 px
    high (15 px with their line's margin), as the cells shrink: every tick while they
    fit, then each tile's ends moved into the tile, then its range, then the first
    tile's range alone."""
    from gui.render.axis_specs import TileTicks, label_rect, tile_labels

    tiles = [
        TileTicks(lo, lo + 15, ((lo, "0"), (lo + 7, "7"), (lo + 15, "15")))
        for lo in (0.0, 18.0, 36.0)
    ]

    def read(px_per_cell: float) -> list[tuple[str, float, float]]:
        specs = tile_labels(
            "left",
            tiles,
            lambda v: v * px_per_cell,
            lambda text: (8.0 * len(text), 12.0),
            lambda x, size: label_rect("left", 100.0, 5.0, x, size),
        )
        return [(text, rect.top(), rect.bottom()) for rect, _f, text in specs]

    assert [t for t, _a, _b in read(5.0)] == ["0", "7", "15"] * 3
    ends = read(2.5)
    assert [t for t, _a, _b in ends] == ["0", "15"] * 3
    # the ends moved inwards: each label's line (its 12 px and 1.5 px either side)
    # within its tile's cells, from 0.5 cell before its first to 0.5 after its last
    for (text, top, bottom), lo in zip(ends, (0, 0, 18, 18, 36, 36), strict=True):
        assert (lo - 0.5) * 2.5 <= top - 1.5 and bottom + 1.5 <= (lo + 15.5) * 2.5, text
    assert ends[0][1] == pytest.approx(-0.5 * 2.5 + 1.5)  # "0" pushed down to the edge
    assert [t for t, _a, _b in read(1.5)] == ["0…15"] * 3
    alone = read(0.8)  # a tile (12.8 px) is shorter than a label's line
    assert [t for t, _a, _b in alone] == ["0…15"]


@pytest.mark.parametrize("bottom", [-5.8, -5.3])
def test_log_axis_labels_are_alike_on_every_tick_level(qtbot, bottom):
    """Lecture deck scene 11 (RoPE, linear ×4) on stage at 200 % (Xvfb 1920 x 1080): the
    frequencies' axis, from about 10⁻⁵·⁸ to 1, read "1, 10⁻¹, 0.01, 10⁻³, 0.0001, 10⁻⁵":
    pyqtgraph asks for each tick level's labels apart, and the decades every other one
    (1, 0.01, 0.0001, all at or above 10⁻⁴) came out plain, the level between them as
    powers. One axis now writes all its labels alike: this one, reaching a decade below
    10⁻⁴, all as powers."""
    axis = FastAxisItem("left")
    axis.setLogMode(True)
    axis.setRange(bottom, 0.3)
    levels = axis.tickValues(bottom, 0.3, 450)  # (decades every other one, then the rest)
    labels = [axis.tickStrings(values, 1.0, spacing) for spacing, values in levels]
    texts = [t for level in labels for t in level]
    assert len(levels) >= 2 and "10⁻⁵" in texts and "10⁻¹" in texts, labels
    assert not any(t.startswith("0.") for t in texts), labels


_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _log_label_value(text: str) -> float:
    """A log axis' label as a number: "2.4", "2.4·10⁴", "10⁴"."""
    base, dot, power = text.partition("·10")
    if not dot and text.startswith("10") and len(text) > 2 and not text[2].isdigit():
        base, power = "1", text[2:]
    return float(base) * 10.0 ** int(power.translate(_SUPERSCRIPT_DIGITS) or 0)


@pytest.mark.parametrize("scale", [1.0, 2.0])
@pytest.mark.parametrize("low,high", [(2.3, 2.8), (2.05, 2.15), (1.8, 2.9), (24000.0, 27000.0)])
def test_log_axis_within_one_step_shows_two_numbers(qtbot, ui_scale, scale, low, high):
    """The Training lab's loss (log y) from 2.3 to 2.8 (NoPE, ALiBi, T5 on ``reverse``,
    early steps) showed no number at all: pyqtgraph's log ticks are 10ᵏ × 1 … 9 and
    none lies between 2.3 and 2.8. A log axis now shows at least two numbers, each in
    its range, apart (evenly spaced finer values: 2.4, 2.6, 2.8)."""
    from core.training.panels import training_panel

    ui_scale(scale)
    steps = list(range(1, 201))
    loss = list(np.linspace(high, low, 200))
    panel = training_panel("loss", {"rope": {"steps": steps, "loss": loss, "acc": [0.1] * 200}})
    _win, plot = _shown_panel(qtbot, panel, (560, 260))
    drawn = _drawn(plot.plot.getAxis("left"))[0][2]
    texts = [text for _rect, _flags, text in drawn]
    assert len(texts) >= 2, texts
    lo, hi = (10.0**v for v in plot.plot.getViewBox().viewRange()[1])
    values = [_log_label_value(text) for text in texts]
    assert all(lo <= v <= hi for v in values), (texts, lo, hi)
    assert len(set(values)) == len(values) and _overlaps("left", drawn) == 0
