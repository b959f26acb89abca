"""Matrices as matrices: square cells, values printed in small grids, masked cells marked,
diverging maps centred on zero (issue 14, item 3)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtCore, QtGui
from tiers import FULL

from core.viewdata import Panel
from gui.plotting.plot_data import color_levels
from gui.render.cell_values import format_cell

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def win(qapp):
    """One shown main window for the module (each test sets the parameters it needs)."""
    from gui.app import build_window

    w = build_window()
    w.resize(1600, 1000)
    w.show()
    assert w.wait_idle()
    yield w
    w.close()


def _show(win, view_id: str, **params):
    win.set_view(view_id)
    state = win.states[view_id]
    for name, value in params.items():
        state.set_param(name, value)
    assert win.wait_idle()
    widget = win.views[view_id]
    widget.canvas.viewport().repaint()  # lays out and paints every plot
    return widget


def _values(plot) -> dict[tuple[int, int], str]:
    """Text per cell ``(row, col)`` of a plot's cell layer (printed when legible)."""
    layer = plot.cells
    assert layer is not None
    return {(r, c): text for r, c, text, _dark in layer.texts}


def _square_action(menu) -> QtGui.QAction:
    """The one "Square cells" entry of a plot's context menu (below pyqtgraph's own)."""
    texts = [a.text() for a in menu.actions()]
    assert "View All" in texts and texts.count("Square cells") == 1
    return next(a for a in menu.actions() if a.text() == "Square cells")


def test_format_cell():
    assert [format_cell(v) for v in (-7.0, 0.0, -0.0, 3.0000000001, 31.0)] == [
        "-7",
        "0",
        "0",
        "3",
        "31",
    ]
    assert [format_cell(v) for v in (-0.25, -0.30000000000000004, 0.7763, 3.5178, 1e-16)] == [
        "-0.25",
        "-0.3",
        "0.78",
        "3.52",
        "0",
    ]
    assert format_cell(-np.inf) == "−∞" and format_cell(np.nan) == ""


def test_course_grid_prints_i_minus_j_in_square_cells(win):
    widget = _show(win, "relative", seq_len=8)
    plot = widget.plots["grid"]
    values = _values(plot)
    assert plot.cells.value_font() is not None  # legible: printed
    assert values[0, 7] == "-7" and values[7, 0] == "7" and values[3, 3] == "0"
    assert values == {(i, j): str(i - j) for i in range(8) for j in range(8)}
    width, height = plot.cells.cell_size()
    # square, and large enough that the values are printed (value_font above); ~19.5 px
    # once the view's legends count in its rows and the view scrolls (a narrower canvas)
    assert width > 18 and abs(width - height) <= 1.0
    shown = plot.cells.shown()  # every value is drawn inside its own cell
    assert len(shown) == 64
    vb = plot.plot.getViewBox().boundingRect()
    assert all(vb.contains(rect) for _text, rect in shown)
    # no context menu is built with the plot (few are ever right-clicked) ...
    view = plot.plot.getViewBox()
    assert view.menu is None
    # ... the right click builds it, "Square cells" ticked as the cells are drawn
    action = _square_action(view.getMenu(None))
    assert action.isCheckable() and action.isChecked()
    # the lecturer can let the matrix fill its plot instead
    action.trigger()
    assert plot.square_cells is False
    widget.canvas.viewport().repaint()
    # (whether the free cells come out unequal depends on the plot's shape: test the lock)
    assert not plot.plot.getViewBox().state["aspectLocked"]
    widget.apply_theme()  # a theme, scale or mode change re-styles the plot: kept
    assert win.wait_idle()
    assert widget.plots["grid"] is plot and plot.square_cells is False
    widget._layout_key = None  # plots built anew (a new grid) keep it
    widget.show_data(widget.data)
    assert win.wait_idle()
    assert widget.plots["grid"] is not plot
    plot = widget.plots["grid"]
    widget.canvas.viewport().repaint()
    assert plot.plot.getViewBox().menu is None
    action = _square_action(plot.plot.getViewBox().getMenu(None))
    assert plot.square_cells is False and action.isChecked() is False
    assert not plot.plot.getViewBox().state["aspectLocked"]
    plot.set_square_cells(None)
    widget.canvas.viewport().repaint()
    assert plot.plot.getViewBox().state["aspectLocked"] and action.isChecked()
    width, height = plot.cells.cell_size()
    assert abs(width - height) <= 1.0
    # focus mode's text zoom enlarges the values with the plot's other text
    base = plot.cells.font_pt
    plot.set_text_zoom(1.5)
    assert plot.cells.font_pt == 1.5 * base
    plot.set_text_zoom(1.0)


def test_values_text_contrasts_and_hides_in_large_grids(win):
    widget = _show(win, "relative", seq_len=8)
    layer = widget.plots["grid"].cells
    dark = {(r, c): d for r, c, _t, d in layer.texts}
    # diverging map: the deep blue/red corners get white text, the pale diagonal black
    assert not dark[0, 7] and not dark[7, 0] and dark[4, 4]
    widget = _show(win, "relative", seq_len=40)  # 40 × 40: no values, cells stay square
    plot = widget.plots["grid"]
    assert plot.cells.texts == [] and plot.cells.shown() == []
    width, height = plot.cells.cell_size()
    assert abs(width - height) <= 1.0


def _pixel(image: QtGui.QImage, widget, plot, data_point: QtCore.QPointF) -> QtGui.QColor:
    vb = plot.plot.getViewBox()
    pos = widget.canvas.mapFromScene(vb.mapViewToScene(data_point))
    return image.pixelColor(pos.x(), pos.y())


def test_masked_cells_are_marked_not_background(win):
    widget = _show(win, "alibi", seq_len=8, heads=4, causal=True)
    plot = widget.plots["real"]
    assert _values(plot)[0, 7] == "−∞"
    assert _values(plot)[7, 0] == format_cell(plot.panel.image[7, 0])
    assert plot.masked_key is not None and plot.masked_key.isVisible()
    grab = widget.canvas.grab().toImage()
    background = QtGui.QColor(widget.canvas.backgroundBrush().color())
    # masked corner cells [0, 6], [1, 7], well off their "−∞" text: not the background
    for x, y in ((6.3, 0.3), (7.3, 1.3), (6.7, 0.7)):
        color = _pixel(grab, widget, plot, QtCore.QPointF(x, y))
        assert color.rgb() != background.rgb(), (x, y, color.name())
    mosaic = widget.plots["heads"]  # every head's tile: masked above its diagonal
    assert mosaic.cells.runs
    tile = mosaic.panel.tiles[1]
    color = _pixel(grab, widget, mosaic, QtCore.QPointF(tile.col0 + 6.5, tile.row0 + 0.4))
    assert color.rgb() != background.rgb()
    widget = _show(win, "alibi", causal=False)
    assert widget.plots["real"].masked_key is None and not widget.plots["real"].cells.runs


def test_a_live_frame_leaves_the_hatching_out_and_full_quality_brings_it_back(win):
    """A drag's frame (live) fills masked cells without hatching them and never looks
    for their runs; full quality hatches them again, the same pixels as a paint that was
    never live (the coordinator's decision, issue 14 item 7)."""
    from core.views import get_view
    from gui.render.cell_values import CellLayer
    from gui.theme import current_theme

    widget = _show(win, "alibi", seq_len=60, heads=4, causal=True, query=15)
    widget.finish_live_frame()
    plot = widget.plots["heads"]
    layer = plot.cells
    assert layer.texts == [] and layer.any_masked  # 60 × 60 tiles: no values printed
    hatch = QtGui.QColor(current_theme().masked_hatch).rgb()
    vb = plot.plot.getViewBox()
    box = widget.canvas.mapFromScene(vb.sceneBoundingRect()).boundingRect()

    def hatched(image: QtGui.QImage) -> int:
        part = image.copy(box).convertToFormat(QtGui.QImage.Format.Format_RGB32)
        bits = np.frombuffer(part.constBits(), dtype=np.uint32).reshape(part.height(), -1)
        return int(np.count_nonzero((bits & 0xFFFFFF) == (hatch & 0xFFFFFF)))

    params = dict(win.states["alibi"].values, seq_len=61)
    data = get_view("alibi").compute(params, win.compute_context())
    skips = CellLayer.live_skips
    # this layer's hatchings (CellLayer.hatch_paints counts every layer's: a small grid
    # that prints its values, hatched live by design, painted too once the side dock's
    # width moved the plots)
    hatchings: list[bool] = []
    draw = layer._draw

    def counted_draw(p: QtGui.QPainter, tr: QtGui.QTransform, font: QtGui.QFont | None) -> None:
        hatchings.append(bool(layer.masked))
        draw(p, tr, font)

    layer._draw = counted_draw  # type: ignore[method-assign]
    widget.show_data(data, live=True)  # (no event loop: full quality cannot come first)
    widget.canvas.viewport().repaint()
    live = widget.canvas.grab().toImage()
    assert layer.live and CellLayer.live_skips > skips and not any(hatchings)
    assert layer._runs is None  # the runs were not looked for
    assert hatched(live) == 0
    tile = plot.panel.tiles[0]  # a masked cell keeps its fill: not the background
    fill = _pixel(live, widget, plot, QtCore.QPointF(tile.col0 + 45.5, tile.row0 + 30.5))
    assert fill.rgb() == QtGui.QColor(current_theme().masked).rgb()

    widget.finish_live_frame()
    widget.canvas.viewport().repaint()
    settled = widget.canvas.grab().toImage()
    assert not layer.live and any(hatchings)
    assert hatched(settled) > 500
    widget.show_data(data)  # the same data shown settled from the start
    layer._cache = layer._drawn = None
    layer.update()
    widget.canvas.viewport().repaint()
    assert widget.canvas.grab().toImage() == settled


def test_masked_cells_in_png_export(tmp_path, qapp):
    from gui.export.headless import export_view

    path = tmp_path / "alibi.png"
    export_view("alibi", {"seq_len": 8, "causal": True}, path, width=800, height=500, panel="real")
    image = QtGui.QImage(str(path))
    background = image.pixelColor(2, 2)  # the themed background
    # the matrix fills the middle of the plot; masked cells are grey/hatched there
    grey = QtGui.QColor("#c8c8c8")
    hits = sum(
        image.pixelColor(x, y).rgb() == grey.rgb()
        for x in range(0, image.width(), 3)
        for y in range(0, image.height(), 3)
    )
    assert hits > 100 and background.rgb() != grey.rgb()


def test_diverging_range_is_symmetric_and_shows_zero(win):
    panel = Panel("d", "d", "heatmap", colormap="diverging", levels=(-2.0, 5.0))
    assert color_levels(panel, np.zeros((2, 2))) == (-5.0, 5.0)
    panel = Panel("s", "s", "heatmap", colormap="sequential", levels=(-2.0, 5.0))
    assert color_levels(panel, np.zeros((2, 2))) == (-2.0, 5.0)
    widget = _show(win, "relative", seq_len=8)
    plot = widget.plots["grid"]
    lo, hi = plot.image.levels
    assert lo == -hi
    axis = plot.colorbar.axis
    ticks = [
        v for _spacing, values in axis.tickValues(lo, hi, axis.size().height()) for v in values
    ]
    assert 0.0 in ticks


@FULL
def test_value_font_follows_ui_scale(win):
    widget = _show(win, "relative", seq_len=2)  # 2 × 2: cells roomy enough for 200 %
    small = widget.plots["grid"].cells.value_font().pointSizeF()
    assert small == 18.0  # roomy cells: 1.5 x the 12 pt asked at 100 % (VALUE_GROW)
    display = win.lecture.display
    before = display.active_scale
    try:
        display.set_scale(2.0)
        widget = _show(win, "relative")
        assert widget.plots["grid"].cells.value_font().pointSizeF() > small
    finally:
        display.set_scale(before)


def _reference_runs(image: np.ndarray) -> list[tuple[int, int, int]]:
    """Masked runs as first written: an edge pass per direction."""
    inf = np.isinf(image)
    if not inf.any():
        return []
    padded = np.zeros((inf.shape[0], inf.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = inf
    edges = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edges == 1)
    _rows, ends = np.nonzero(edges == -1)
    return [(int(r), int(a), int(b)) for r, a, b in zip(rows, starts, ends, strict=True)]


def test_masked_runs_in_one_pass_are_the_runs_row_by_row():
    from gui.render.cell_values import masked_runs

    rng = np.random.default_rng(3)
    images = [np.zeros((5, 7)), np.full((4, 6), -np.inf), np.full((1, 1), np.inf)]
    causal = np.zeros((9, 9))
    causal[np.triu_indices(9, 1)] = -np.inf
    images.append(causal)
    for _ in range(40):
        shape = tuple(rng.integers(1, 30, size=2))
        image = rng.normal(size=shape).astype(rng.choice([np.float32, np.float64]))
        image[rng.random(shape) < rng.random()] = rng.choice([-np.inf, np.inf])
        images.append(image)
    for image in images:
        assert masked_runs(image) == _reference_runs(image)


def test_masked_run_rectangles_are_qts_to_the_bit_and_paint_the_same(qapp):
    """The runs' rectangles, mapped for all runs at once, equal ``QTransform.mapRect``
    run by run, and the hatching painted from them is the same image."""
    import pyqtgraph as pg

    from gui.render.cell_values import CellLayer

    view = pg.ViewBox()
    layer = CellLayer(view)
    image = np.zeros((83, 61))
    image[np.triu_indices(61, 1)[0], np.triu_indices(61, 1)[1]] = -np.inf
    image[40:47, 3:9] = np.inf
    rect = QtCore.QRectF(-0.5, -0.5, 61, 83)
    layer.set_cells(image, rect, None, (200, 200, 200))
    assert len(layer.runs) > 60
    rows, cols = layer.grid_shape
    dx, dy = rect.width() / cols, rect.height() / rows
    transforms = [
        QtGui.QTransform(0.3298128363504203, 0, 0, 0.3298128363504203, 39.77, 15.69),
        QtGui.QTransform(2.5, 0, 0, -1.75, 0.5, 300.25),
        QtGui.QTransform(-1.3, 0, 0, 0.7, 500.0, -3.3),
        QtGui.QTransform().rotate(30).scale(2, 2),  # not a view box's, still the same
    ]
    for tr in transforms:
        fast = layer._run_rect_array(tr, rect.left(), rect.top(), dx, dy).tolist()
        slow = [
            tr.mapRect(QtCore.QRectF(rect.left() + a * dx, rect.top() + r * dy, (b - a) * dx, dy))
            for r, a, b in layer.runs
        ]
        assert fast == [[m.x(), m.y(), m.width(), m.height()] for m in slow]
        images = []
        for rects in (fast, [[m.x(), m.y(), m.width(), m.height()] for m in slow]):
            out = QtGui.QImage(400, 320, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
            out.fill(0)
            p = QtGui.QPainter(out)
            brush = QtGui.QBrush(layer.hatch, QtCore.Qt.BrushStyle.BDiagPattern)
            for x, y, w, h in rects:
                p.fillRect(QtCore.QRectF(x, y, w, h), brush)
            p.end()
            images.append(out)
        assert images[0] == images[1]


def test_svg_export_prints_values_and_marks_masked_cells(tmp_path, qapp):
    from gui.export.headless import export_view

    path = tmp_path / "real.svg"
    export_view("alibi", {"seq_len": 8, "causal": True}, path, width=800, height=500, panel="real")
    text = path.read_text(encoding="utf-8")
    texts = [t.text for t in ET.fromstring(text).iter(f"{SVG_NS}text")]
    assert texts.count("−∞") == 28 + 1  # the 28 masked cells of 8 × 8, and the key
    assert texts.count("0") >= 8 and "-3.5" in texts  # the diagonal, the far corner
    assert "masked" in texts and "<pattern" in text  # the key's word, the hatching


def test_a_heatmap_rebuilt_as_curves_ticks_its_whole_range(qtbot):
    """A square matrix limits its ticks to its cells; the same plot rebuilt for curves
    (another panel shape) ticks the curves' whole range again."""
    import pyqtgraph as pg

    from core.viewdata import Series
    from gui.plotting.panel_plot import PanelPlot
    from gui.render.fast_axis import hide_spare_axes, make_axes
    from gui.render.view_box import PlotViewBox

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    item = win.addPlot(axisItems=make_axes(), viewBox=PlotViewBox())
    hide_spare_axes(item)
    plot = PanelPlot(item)
    plot.show(Panel("m", "m", "heatmap", image=np.arange(16.0).reshape(4, 4)))
    assert plot.plot.getAxis("bottom").data_limits == (0.0, 3.0)
    x = np.linspace(-50.0, 50.0, 11)
    plot.show(Panel("m", "m", "curves", series=[Series("a", x, x), Series("b", x, -x)]))
    axis = plot.plot.getAxis("bottom")
    assert axis.data_limits is None
    ticks = [v for _s, values in axis.tickValues(-50.0, 50.0, 400) for v in values]
    assert min(ticks) < 0 < max(ticks)


@pytest.mark.parametrize("ratio", [1.0, 2.0, 1.25])
def test_masked_runs_filled_in_one_path_paint_what_fill_rect_paints(qapp, ratio):
    """The masked runs' rectangles filled as one path (:func:`fill_rects`) give the same
    image as one ``fillRect`` each: minified masks (most runs round to no pixel row),
    magnified ones, fractional offsets, a mirrored scale, a clip, device pixel ratios;
    an antialiased painter takes the run-by-run path."""
    from gui.render.cell_values import fill_rects

    rng = np.random.default_rng(7)
    image = np.zeros((300, 300))
    for k in range(4):  # a mosaic of causal blocks, as ALiBi's heads
        block = np.zeros((75, 300))
        block[np.triu_indices(75, 1, 300)] = -np.inf
        image[75 * k : 75 * (k + 1)] = np.roll(block, 7 * k, axis=1)
    runs = _reference_runs(image)
    brush = QtGui.QBrush(QtGui.QColor("#555555"), QtCore.Qt.BrushStyle.BDiagPattern)
    cases = [(0.33, 0.3298, 1, 1), (0.5, 0.5, 1, 1), (1.7, 1.3, 1, 1), (0.913, 2.25, 1, 1)]
    cases += [(0.61, 0.47, -1.0, 0.8), (1.0, 1.0, 1.0, 1.0, True)]  # mirrored; antialiased
    for sx, sy, px, py, *aa in cases:
        for _ in range(3):
            ox, oy = rng.uniform(-3, 3, size=2)
            rects = [[ox + a * sx, oy + r * sy, (b - a) * sx, sy] for r, a, b in runs]
            images = []
            for one_path in (False, True):
                out = QtGui.QImage(
                    int(330 * ratio),
                    int(330 * ratio),
                    QtGui.QImage.Format.Format_ARGB32_Premultiplied,
                )
                out.setDevicePixelRatio(ratio)
                out.fill(0)
                p = QtGui.QPainter(out)
                p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, bool(aa))
                p.translate(0.37 + (330 if px < 0 else 0), -0.61)
                p.scale(px, py)
                p.setClipRect(QtCore.QRectF(5.3, 7.7, 250.2, 260.9))
                if one_path:
                    fill_rects(p, np.array(rects), brush)
                else:
                    for x, y, w, h in rects:
                        p.fillRect(QtCore.QRectF(x, y, w, h), brush)
                p.end()
                images.append(out)
            bits = np.frombuffer(images[0].constBits(), dtype=np.uint32)
            assert np.count_nonzero(bits) > 200  # hatched pixels to compare
            assert images[0] == images[1], (sx, sy, px, py, ox, oy)


def test_new_hatching_is_drawn_onto_the_screen_as_its_cached_image_would_be(qapp):
    """A new picture of masked cells (a drag's frame) is drawn straight onto the painter,
    no image made, with the same pixels as the image made and blitted when the same
    picture is painted again: fractional item offsets, views cutting the image, minified
    and magnified masks."""
    import pyqtgraph as pg

    from gui.render.cell_values import CellLayer

    rng = np.random.default_rng(3)
    hatch = np.uint32(QtGui.QColor("#555555").rgba())

    def paint(layer, ox: float, oy: float, size: tuple[float, float]) -> QtGui.QImage:
        out = QtGui.QImage(420, 420, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        out.fill(QtGui.QColor(10, 200, 30))
        p = QtGui.QPainter(out)
        p.translate(ox, oy)
        p.setClipRect(QtCore.QRectF(0, 0, *size))  # the view box clips its overlays
        layer.paint(p)
        p.end()
        return out

    for n in (61, 511):
        image = np.zeros((n, n))
        image[np.triu_indices(n, 1)] = -np.inf
        view = pg.ViewBox(enableMouse=False)
        layer = CellLayer(view)
        layer.set_cells(image, QtCore.QRectF(-0.5, -0.5, n, n), None, (200, 200, 200))
        for size in ((377.3, 131.7), (80.5, 380.25)):
            view.resize(*size)
            for _ in range(4):
                m = rng.uniform(-0.1, 0.15)
                view.setRange(
                    xRange=(-0.5 - m * n, n - 0.5 + m * n),
                    yRange=(-0.5 + m * n, n - 0.5),
                    padding=0,
                )
                view.updateMatrix()  # (as a paint of the view box would)
                ox, oy = rng.uniform(-5, 30, size=2)
                direct = paint(layer, ox, oy, size)
                assert layer._cache is None  # drawn without an image
                cached = paint(layer, ox, oy, size)  # the same picture again: kept
                assert layer._cache is not None
                bits = np.frombuffer(direct.constBits(), dtype=np.uint32)
                assert np.count_nonzero(bits == hatch) > 20  # hatched pixels to compare
                assert direct == cached, (n, size, ox, oy)
                layer._cache = None  # the next range is new


def test_a_new_mask_is_kept_as_an_array_and_drawn_from_it(qapp):
    """A new image's masked runs stay one array (a drag's frame makes no list of ~2000
    tuples); the list reads the same runs when asked for, and the hatching is drawn
    without it."""
    import pyqtgraph as pg

    from gui.render.cell_values import CellLayer, masked_runs

    image = np.zeros((200, 200))
    image[np.triu_indices(200, 1)] = -np.inf
    view = pg.ViewBox(enableMouse=False)
    view.resize(300, 150)
    view.setRange(xRange=(-0.5, 199.5), yRange=(-0.5, 199.5), padding=0)
    view.updateMatrix()
    layer = CellLayer(view)
    layer.set_cells(image, QtCore.QRectF(-0.5, -0.5, 200, 200), None, (200, 200, 200))
    assert layer.masked and layer._run_list is None
    out = QtGui.QImage(320, 170, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(0)
    p = QtGui.QPainter(out)
    layer.paint(p)
    p.end()
    assert layer._run_list is None  # drawn from the array
    assert np.count_nonzero(np.frombuffer(out.constBits(), dtype=np.uint32)) > 1000
    assert layer.runs == masked_runs(image) and len(layer.runs) == 199
    layer.clear()
    assert not layer.masked and layer.runs == []


def test_a_grids_legible_cells_are_measured_once_per_values_and_stage(qapp, monkeypatch):
    """The view's grid asks a small grid for its legible cell at the least size and on
    stage on every frame (word_room, _stage_values): each is measured once for the
    values shown (ALiBi's two 8 x 8 toys: one kept result had each ask measure the
    other's anew, ~190 Python calls a frame of a drag), and anew for new values."""
    import pyqtgraph as pg

    from gui.render import cell_values
    from gui.render.cell_values import CellLayer, legible_cell

    measured = []

    def counted(texts, font_pt, at_least=0.0):
        measured.append(at_least)
        return legible_cell(texts, font_pt, at_least)

    monkeypatch.setattr(cell_values, "legible_cell", counted)
    layer = CellLayer(pg.ViewBox())
    image = -0.1 * np.tile(np.arange(8.0), (8, 1))
    colors = np.zeros((8, 8, 3), dtype=np.uint8)
    layer.set_cells(image, QtCore.QRectF(-0.5, -0.5, 8, 8), colors, (200, 200, 200))
    texts = sorted({format_cell(v) for v in image.ravel().tolist()})
    least = legible_cell(texts, layer.font_pt)
    staged = legible_cell(texts, layer.font_pt, cell_values.stage_value_pt(layer.font_pt))
    assert staged[0] > least[0]
    for _frame in range(3):
        assert layer.legible_cell() == least
        assert layer.legible_cell(stage=True) == staged
    assert len(measured) == 2
    layer.set_cells(123.45 * image, QtCore.QRectF(-0.5, -0.5, 8, 8), colors, (200, 200, 200))
    assert layer.legible_cell()[0] > least[0] and len(measured) == 3  # ("-86.42")


def test_a_grids_values_are_formatted_once_each_and_printed_in_their_cells(qapp, monkeypatch):
    """Each distinct value of a grid is formatted once, for its plot's widths
    (``grid_texts``, asked several times a frame) and its layer's cells alike, and
    every cell prints its own value's text (:func:`format_cell` with the grid's
    decimals), in order, a masked cell in the masked colour's contrast; new values are
    formatted anew. Its fit is measured once per texts, font and gap."""
    import pyqtgraph as pg

    from gui.render import cell_values
    from gui.render.cell_values import CellLayer, grid_decimals, grid_texts, value_fit

    calls = []

    def counted(value, decimals=None):
        calls.append(value)
        return format_cell(value, decimals)

    monkeypatch.setattr(cell_values, "format_cell", counted)
    image = np.array([[0.25, -0.0, 1.5], [np.nan, 0.25, -np.inf], [0.9975, 1.5, 7.0]])
    image[0, 0] += 1e-3  # (a value of its own: 0.251)
    colors = np.zeros((3, 3, 3), dtype=np.uint8)  # (black cells: white text)
    layer = CellLayer(pg.ViewBox())
    layer.set_cells(image, QtCore.QRectF(0, 0, 3, 3), colors, (250, 250, 250), 2)
    decimals = grid_decimals(image, 2)
    expected = [
        (k // 3, k % 3, format_cell(v, decimals), bool(np.isinf(v)))
        for k, v in enumerate(image.ravel().tolist())
        if format_cell(v, decimals)
    ]
    for _frame in range(3):
        assert sorted(grid_texts(image, 2)) == sorted({t for _r, _c, t, _d in expected})
    assert layer.texts == expected
    assert [t for _r, _c, t, _d in expected] == [
        "0.25",
        "0",
        "1.50",
        "0.25",
        "−∞",
        "1.00",
        "1.50",
        "7",
    ]
    # (the distinct values not integers, NaN's and −∞'s included, each once)
    assert len(calls) == 6
    before = len(calls)
    assert grid_texts(image + 1, 2) and len(calls) > before  # new values: formatted
    font = QtGui.QFont()
    font.setPointSizeF(12)
    fitted = value_fit(["0.25", "−∞"], font)
    metrics = QtGui.QFontMetricsF(font)
    assert fitted[0] == max(metrics.horizontalAdvance(t) for t in ["0.25", "−∞"]) + 0.2 * (
        12 * metrics.fontDpi() / 72.0
    )
    assert value_fit(("−∞", "0.25", "−∞"), font) == fitted
    assert value_fit(["0.25", "−∞"], font, 0.6)[0] > fitted[0]


@pytest.mark.parametrize("scale", [(3.1, 2.6), (2.9, 0.43), (-1.7, 1.3)])
def test_a_causal_mosaic_is_hatched_as_one_staircase_per_tile(qapp, scale):
    """A causal mask's runs in a tile stack up to one right edge: they are filled as one
    staircase polygon per tile (a subpath of two corners per run), not as a closed
    rectangle each (ALiBi's stage mosaic: ~1000 rectangles of five points), with the
    pixels of one ``fillRect`` per run: magnified, minified rows (most round to no
    pixel row), mirrored."""
    from gui.render.cell_values import fill_rects, masked_run_array

    class Recorder(QtGui.QPainter):
        paths: list[QtGui.QPainterPath] = []

        def fillPath(self, path, brush):
            self.paths.append(QtGui.QPainterPath(path))
            super().fillPath(path, brush)

    c, gap = 24, 3
    image = np.full((c, 3 * c + 2 * gap), np.nan)
    for k in range(3):  # three heads side by side, as ALiBi's mosaic row
        tile = np.zeros((c, c))
        tile[np.triu_indices(c, 1)] = -np.inf
        image[:, k * (c + gap) : k * (c + gap) + c] = tile
    runs = masked_run_array(image)
    assert len(runs) == 3 * (c - 1)
    sx, sy = scale
    rects = np.array([[a * sx, r * sy, (b - a) * sx, sy] for r, a, b in runs.tolist()])
    brush = QtGui.QBrush(QtGui.QColor("#555555"), QtCore.Qt.BrushStyle.BDiagPattern)
    images = []
    for one_path in (False, True):
        out = QtGui.QImage(260, 80, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        out.fill(0)
        p = Recorder(out)
        p.translate(10.37 + (240 if sx < 0 else 0), 5.61)
        if one_path:
            fill_rects(p, rects, brush)
        else:
            for x, y, w, h in rects.tolist():
                p.fillRect(QtCore.QRectF(x, y, w, h), brush)
        p.end()
        images.append(out)
    assert images[0] == images[1]
    (path,) = Recorder.paths
    starts = [k for k in range(path.elementCount()) if path.elementAt(k).isMoveTo()]
    assert len(starts) == 3  # one polygon per tile
    rows = sum(1 for r, a, b in runs.tolist() if round(r * sy) < round((r + 1) * sy))
    assert path.elementCount() <= 2 * rows + 2 * 3


def test_a_few_staircases_are_built_as_polygons_with_the_same_elements(qapp, monkeypatch):
    """A mask of a few staircases (ALiBi's mosaic: one per tile) gets its path built as a
    polygon per staircase, element for element the path built through pyqtgraph's
    serialised stream for many (the same fill)."""
    from gui.render import cell_values
    from gui.render.cell_values import PathStats, fill_rects, masked_run_array

    class Recorder(QtGui.QPainter):
        paths: list[QtGui.QPainterPath] = []

        def fillPath(self, path, brush):
            self.paths.append(QtGui.QPainterPath(path))
            super().fillPath(path, brush)

    c, gap = 40, 3
    image = np.full((2 * c + gap, 3 * c + 2 * gap), np.nan)
    for k in range(6):  # two rows of three causal heads
        tile = np.zeros((c, c))
        tile[np.triu_indices(c, 1)] = -np.inf
        r, q = divmod(k, 3)
        image[r * (c + gap) : r * (c + gap) + c, q * (c + gap) : q * (c + gap) + c] = tile
    runs = masked_run_array(image)
    brush = QtGui.QBrush(QtGui.QColor("#555555"), QtCore.Qt.BrushStyle.BDiagPattern)
    for sx, sy in ((1.37, 0.61), (2.2, 1.9), (-0.8, 0.45)):
        rects = np.array([[a * sx, r * sy, (b - a) * sx, sy] for r, a, b in runs.tolist()])
        images, elements = [], []
        for polygons in (True, False):
            monkeypatch.setattr(cell_values, "MAX_POLYGONS", 64 if polygons else 0)
            before = PathStats.polygons
            Recorder.paths = []
            out = QtGui.QImage(300, 120, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
            out.fill(0)
            p = Recorder(out)
            p.translate(10.37 + (240 if sx < 0 else 0), 5.61)
            fill_rects(p, rects, brush)
            p.end()
            assert (PathStats.polygons - before == 6) is polygons  # one per tile
            (path,) = Recorder.paths
            elements.append(
                [
                    (e.type, e.x, e.y)
                    for e in (path.elementAt(k) for k in range(path.elementCount()))
                ]
                + [path.fillRule()]
            )
            images.append(out)
        assert len(elements[0]) > 6 * 4
        assert elements[0] == elements[1]
        assert images[0] == images[1]


def test_hatching_on_a_translating_painter_is_filled_with_a_wide_texture(qapp):
    """On a painter that only translates, the masked runs' hatching is filled with a
    texture of the pattern 256 pixels wide (Qt blends a pattern's 8-pixel texture in
    pieces of 8 pixels), made once per colour, with the pixels of the pattern itself:
    fractional offsets, brush origins, a translucent colour, another pattern. A scaling
    painter keeps the pattern (a texture would be scaled)."""
    from gui.render.cell_values import PATTERN_WIDTH, PathStats, fill_rects, masked_run_array

    class Recorder(QtGui.QPainter):
        brushes: list[QtGui.QBrush] = []

        def fillPath(self, path, brush):
            self.brushes.append(QtGui.QBrush(brush))
            super().fillPath(path, brush)

    c = 40
    image = np.zeros((c, 2 * c + 3))
    rows, cols = np.triu_indices(c, 1)
    for k in range(2):  # two causal tiles side by side
        image[rows, cols + k * (c + 3)] = -np.inf
    runs = masked_run_array(image)
    rng = np.random.default_rng(5)
    made = PathStats.textures
    for color, style in (
        ("#555555", QtCore.Qt.BrushStyle.BDiagPattern),
        ("#80c01020", QtCore.Qt.BrushStyle.BDiagPattern),
        ("#555555", QtCore.Qt.BrushStyle.CrossPattern),
    ):
        brush = QtGui.QBrush(QtGui.QColor(color), style)
        for sx, sy in ((2.3, 1.7), (0.61, 0.37)):
            rects = np.array([[a * sx, r * sy, (b - a) * sx, sy] for r, a, b in runs.tolist()])
            for _ in range(3):
                dx, dy = rng.uniform(-4, 9, size=2)
                origin = QtCore.QPointF(*rng.uniform(-5, 5, size=2))
                images = []
                for one_path in (True, False):
                    Recorder.brushes = []
                    out = QtGui.QImage(220, 90, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
                    out.fill(QtGui.QColor(200, 200, 200))
                    p = Recorder(out)
                    p.translate(dx, dy)
                    p.setBrushOrigin(origin)
                    if one_path:
                        fill_rects(p, rects, brush)
                        (used,) = Recorder.brushes
                        assert used.style() == QtCore.Qt.BrushStyle.TexturePattern
                        assert used.textureImage().width() == PATTERN_WIDTH
                    else:
                        for x, y, w, h in rects.tolist():
                            p.fillRect(QtCore.QRectF(x, y, w, h), brush)
                    p.end()
                    images.append(out)
                assert images[0] == images[1], (color, style, sx, sy, dx, dy)
    assert PathStats.textures - made <= 3  # one texture per colour and pattern
    brush = QtGui.QBrush(QtGui.QColor("#555555"), QtCore.Qt.BrushStyle.BDiagPattern)
    Recorder.brushes = []
    out = QtGui.QImage(220, 90, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    p = Recorder(out)
    p.scale(1.5, 1.5)
    fill_rects(p, np.array([[0.0, 0.0, 30.0, 20.0]]), brush)
    p.end()
    assert [b.style() for b in Recorder.brushes] == [QtCore.Qt.BrushStyle.BDiagPattern]


def test_a_click_on_a_grid_with_values_reaches_pyqtgraph(win, qtbot):
    """Found on Xvfb (lecture deck, Word order on stage): a click on a heatmap that
    prints its values killed the application (SIGSEGV). pyqtgraph's click handling asks
    every item under the mouse for its ``shape()``; the cell layer's ``shape`` was its
    grid's (rows, cols) tuple: "TypeError: 'tuple' object is not callable", raised in
    the scene's mouseReleaseEvent, and shiboken crashed reporting it."""
    widget = _show(win, "relative", seq_len=8)
    plot = widget.plots["grid"]
    assert plot.cells.value_font() is not None  # values printed: the layer is there
    centre = plot.plot.getViewBox().sceneBoundingRect().center()
    items = widget.canvas.scene().items(centre)
    assert plot.cells in items
    for item in items:  # what GraphicsScene.itemsNearEvent does with each
        assert isinstance(item.shape(), QtGui.QPainterPath), type(item).__name__
    pos = widget.canvas.mapFromScene(centre)
    qtbot.mouseClick(widget.canvas.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    assert win.wait_idle() and widget.isVisible()


def test_masked_fill_is_apart_from_every_colour_of_every_offered_map(qapp):
    """The masked cells' fill against the 256 colours of each colormap the app offers,
    in both themes: the dark theme's #454b52 was 9.5 ΔE from cividis's middle
    blue-greys (the masked triangle read as values of about −5), the light theme's
    #c8c8c8 11.6 from CET-D1A's near-white centre."""
    from dataclasses import replace

    from gui.theme import (
        DARK,
        DIVERGING_MAPS,
        LIGHT,
        MASKED_DELTA_E,
        MASKED_HATCH_DELTA_L,
        SEQUENTIAL_MAPS,
        cielab,
        hex_rgb,
        map_distance,
        masked_colors,
    )

    def lightness(color: str) -> float:
        return float(cielab(hex_rgb(color))[0])

    assert map_distance(DARK.masked, "cividis") < 10  # (the map the QA walk saw)
    for theme in (LIGHT, DARK):
        for kind, maps, field in (
            ("sequential", SEQUENTIAL_MAPS, "sequential"),
            ("diverging", DIVERGING_MAPS, "diverging"),
        ):
            for name in maps:
                fill, hatch = masked_colors(replace(theme, **{field: name}), kind)
                assert map_distance(fill, name) >= MASKED_DELTA_E, (theme.name, name, fill)
                # the hatching contrasts with its fill (dark on light, light on dark)
                apart = abs(lightness(fill) - lightness(hatch))
                assert apart >= MASKED_HATCH_DELTA_L, (theme.name, name, fill, hatch)
    # the themes' own fill where it was apart already (viridis, the default)
    assert masked_colors(LIGHT, "sequential") == (LIGHT.masked, LIGHT.masked_hatch)
    assert masked_colors(DARK, "sequential") == (DARK.masked, DARK.masked_hatch)


def test_masked_cells_under_cividis_in_the_dark_are_drawn_apart_from_its_colours(win):
    """ALiBi's causal grid in the dark theme with cividis (Ctrl+M): the masked cells,
    their key and the image's masked colour take the fill picked for the map."""
    from gui.theme import MASKED_DELTA_E, map_distance

    display = win.lecture.display
    try:
        display.set_theme_name("dark")
        display.set_colormaps(sequential="cividis")
        widget = _show(win, "alibi", seq_len=8, heads=4, causal=True)
        plot = next(
            p
            for p in widget.plots.values()
            if p.panel is not None
            and p.panel.kind == "heatmap"
            and p.panel.colormap != "diverging"
            and p.cells is not None
            and p.cells.any_masked
        )
        fill = plot.image.masked_color.name()
        assert map_distance(fill, "cividis") >= MASKED_DELTA_E, fill
        assert plot.masked_key is not None and plot.masked_key.fill.name() == fill
        widget.canvas.viewport().repaint()
        grab = widget.canvas.grab().toImage()
        rows, cols = plot.image.image.shape
        masked = np.argwhere(np.isneginf(plot.image.image))
        assert len(masked)
        r, c = masked[len(masked) // 2]
        seen = {
            _pixel(grab, widget, plot, QtCore.QPointF(c + dx, r + dy)).name()
            for dx in (-0.3, -0.1, 0.1, 0.3)
            for dy in (-0.3, 0.0, 0.3)
        }
        assert fill in seen, (fill, seen)
    finally:
        display.set_theme_name("light")
        display.set_colormaps(sequential="viridis")
        assert win.wait_idle()


def test_a_lecturers_sentence_gets_word_order_matrices_with_values(win):
    """Word order with a 9-word sentence and its reversal: the 9 x 9 attention weights,
    labelled with the sentence's words, asked the grid for no width (only index labels
    were measured): 162 px of data beside the differences' 424 px at 1920 x 1080 /
    100 %, 18 px cells and no values. They now ask for the width their values need."""
    sentence = "the quick brown fox jumps over the lazy dog"
    reversed_ = " ".join(reversed(sentence.split()))
    widget = _show(win, "permutation", sentence=sentence, permuted=reversed_)
    try:
        for key in ("weights_a_none", "weights_b_none"):
            plot = widget.plots[key]
            assert plot.image.image.shape == (9, 9)
            width, height = plot.cells.cell_size()
            assert abs(width - height) <= 1.0  # square cells
            font = plot.cells.value_font()
            assert font is not None, (key, width, height)  # the values are printed
            assert font.pointSizeF() >= 6.0
            assert width >= plot.cells.legible_cell()[0] - 0.5
    finally:
        win.states["permutation"].reset()
        assert win.wait_idle()


class _Layer:
    """A stand-in for a CellLayer: its row and how often it was told to repaint."""

    def __init__(self) -> None:
        self.row = None
        self.updates = 0

    def update(self) -> None:
        self.updates += 1


def test_value_row_members_follow_each_call():
    """ValueRow.set_members with the same layers again (the view's row fit on every
    frame of a drag) changes and repaints nothing; any other call still moves each layer
    in or out of the row, also a layer another row took meanwhile or a list naming a
    layer twice."""
    from gui.render.cell_values import ValueRow

    row, other = ValueRow(), ValueRow()
    a, b, c = _Layer(), _Layer(), _Layer()
    row.set_members([a, b])
    assert (a.row, b.row, a.updates, b.updates) == (row, row, 1, 1)
    row.set_members([b, a])  # the same layers: nothing to do
    assert (a.row, b.row, a.updates, b.updates) == (row, row, 1, 1)
    other.set_members([a, c])  # a moves to the other row
    assert (a.row, c.row) == (other, other)
    row.set_members([a, b])  # and back: as many layers as members, a's row not this one
    assert (a.row, b.row, c.row) == (row, row, other)
    row.set_members([a, a])  # a twice, b left out: b leaves the row
    assert (a.row, b.row) == (row, None)
    assert set(row._members) == {a}
    row.set_members([])
    assert a.row is None and set(row._members) == set()


def test_has_masked_answers_as_a_full_scan_and_reads_the_mask_rows_first(monkeypatch):
    """``has_masked`` gives ``any_inf``'s answer for causal and sliding-window masks,
    NaN gaps, Toeplitz views and tiny images, and finds a causal mosaic's mask in its
    first row without scanning the whole image (ALiBi's stage mosaic: every frame)."""
    from core.toeplitz import any_inf, toeplitz_view
    from gui.render import cell_values

    rng = np.random.default_rng(5)
    causal = np.triu(np.full((40, 40), -np.inf, np.float32), 1) + rng.normal(size=(40, 40))
    window = causal.T.copy()  # masked below the diagonal: the last row has them
    gaps = rng.normal(size=(30, 50)).astype(np.float32)
    gaps[:, 20:23] = np.nan
    middle = gaps.copy()
    middle[15, 30] = np.inf  # in neither end row
    values = rng.normal(size=2 * 20 - 1).astype(np.float32)
    values[:19] = -np.inf
    images = [causal, window, gaps, middle, toeplitz_view(values, 20)]
    images += [np.array([[np.inf]]), np.array([[1.0, np.inf], [0.0, 1.0]]), np.zeros((0, 3))]
    for image in images:
        assert cell_values.has_masked(image) == any_inf(image) == bool(np.isinf(image).any())
    scanned: list[tuple[int, ...]] = []
    monkeypatch.setattr(
        cell_values, "any_inf", lambda image: scanned.append(image.shape) or any_inf(image)
    )
    mosaic = np.full((820, 820), np.nan, np.float32)
    for r in (0, 280, 560):
        for c in (0, 280):
            mosaic[r : r + 260, c : c + 260] = causal[0, 0] - np.triu(
                np.full((260, 260), np.inf, np.float32), 1
            )
    assert cell_values.has_masked(mosaic) and scanned == []
    assert cell_values.has_masked(middle) and scanned == [middle.shape]
