"""FastImageItem and FastCurveItem draw what pyqtgraph's items draw."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from gui.render.fast_curve import FastCurveItem
from gui.render.fast_image import FastImageItem


def _render(
    item: pg.GraphicsObject,
    size: tuple[int, int],
    source: QtCore.QRectF,
    aspect: QtCore.Qt.AspectRatioMode = QtCore.Qt.AspectRatioMode.KeepAspectRatio,
    ratio: float = 1.0,
) -> np.ndarray:
    """``item`` alone in a scene, rendered (``source`` → the whole image) on white;
    ``ratio``: the image's device pixel ratio (the size is in its device pixels)."""
    scene = pg.GraphicsScene()
    scene.addItem(item)
    image = QtGui.QImage(*size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    target = QtCore.QRectF(0, 0, size[0] / ratio, size[1] / ratio)
    scene.render(painter, target, source, aspect)
    painter.end()
    scene.removeItem(item)
    return pg.imageToArray(image, copy=True)


@pytest.mark.parametrize("masked", [None, "nan", "inf"])
def test_fast_image_pixels_equal_pyqtgraph(qtbot, masked):
    """Same pixels as pyqtgraph; masked cells (NaN, or ±inf as ALiBi's −∞) transparent."""
    rng = np.random.default_rng(5)
    data = rng.normal(size=(60, 90)).astype(np.float32)
    if masked:
        data[np.triu_indices(60, 1)] = np.nan
    data[0, :5] = [-10.0, 10.0, -1.5, 1.5, 0.0]  # clipped and boundary values
    shown = data.copy()
    if masked == "inf":  # pyqtgraph is given NaN where ours gets infinities
        shown[np.isnan(data)] = -np.inf
        shown[1, 50:60] = np.inf
    cmap = pg.colormap.get("CET-D1")
    pixels = []
    for cls, image in ((pg.ImageItem, data), (FastImageItem, shown)):
        item = cls(axisOrder="row-major")
        item.setColorMap(cmap)
        item.setImage(image, autoLevels=False, levels=(-1.5, 1.5))
        pixels.append(_render(item, (270, 180), QtCore.QRectF(0, 0, 90, 60)))
    assert len(np.unique(pixels[0].reshape(-1, 4), axis=0)) > 50  # a real heatmap
    np.testing.assert_array_equal(pixels[1], pixels[0])


def test_fast_image_fallback_masks_infinities(qtbot):
    """pyqtgraph's own path (here: a lookup table it alone handles) also shows ±inf as
    transparent, and the item keeps the image it was given."""
    image = np.array([[0.0, -np.inf, 1.0], [np.inf, 0.5, np.nan]], dtype=np.float32)
    item = FastImageItem(axisOrder="row-major")
    lut = np.zeros((8, 4), np.uint8)
    lut[:, 1] = np.arange(8) * 30
    lut[:, 3] = 200  # translucent: not the fast path
    item.setLookupTable(lut)
    item.setImage(image, autoLevels=False, levels=(0.0, 1.0))
    assert item._fast_table() is None
    item.render()
    alpha = pg.imageToArray(item.qimage, copy=True, transpose=False)[..., 3]
    assert (alpha[[0, 1, 1], [1, 0, 2]] == 0).all()  # −inf, +inf, NaN: transparent
    assert (alpha[[0, 0, 1], [0, 2, 1]] > 0).all()
    np.testing.assert_array_equal(item.image, image)  # still the infinities it was given


def test_fast_image_falls_back_for_other_images(qtbot):
    item = FastImageItem(axisOrder="row-major")
    item.setImage(
        np.arange(12, dtype=np.uint8).reshape(3, 4), autoLevels=False, levels=(0, 11)
    )  # no lookup table: pyqtgraph's path
    item.render()
    assert item.qimage is not None
    assert item.qimage.format() != QtGui.QImage.Format.Format_ARGB32_Premultiplied


def _curve_pixels(
    cls: type, y: np.ndarray, antialias: bool, width: float = 2.0, ratio: float = 1.0
) -> np.ndarray:
    item = cls(x=np.arange(len(y)), y=y, antialias=antialias, pen=pg.mkPen("#0072B2", width=width))
    return _render(
        item,
        (600, 300),
        QtCore.QRectF(-1, -1.2, len(y) + 1, 2.4),
        QtCore.Qt.AspectRatioMode.IgnoreAspectRatio,
        ratio,
    )  # fill the image


CURVES = {  # shape → (y, stroke families FastCurveItem uses: for 2 px, for thicker pens)
    "mixed": (np.sin(np.arange(300) / 20.0), {"steep", "flat"}, {"steep", "flat"}),
    "jagged": (
        np.sin(np.arange(300) / 7.0) + 0.3 * np.sin(np.arange(300) / 1.3),
        {"steep"},
        {"steep", "flat"},  # the tips (2 % of the length) get their thickness too
    ),
    "steep": (np.sin(np.arange(300) * 1.0), {"steep"}, {"steep", "flat"}),  # a dense wave
    "flat": (0.3 * np.sin(np.arange(300) / 40.0), {"flat"}, {"flat"}),  # a gentle trend
}


@pytest.mark.parametrize("width", [1.0, 2.0, 3.0, 4.5])
@pytest.mark.parametrize("shape", sorted(CURVES))
def test_fast_curve_covers_the_wide_line(qtbot, shape, width):
    """Offset 1-px strokes cover about as many pixels as Qt's wide pen, all within one
    pixel of it and it within one pixel of them, at any width (presentation mode's
    pens are 3 px at 150 %, 4 px at 200 %, 4.5 px at 225 %)."""
    y, thin, thick = CURVES[shape]
    used = []
    original = FastCurveItem._strokes
    FastCurveItem._strokes = lambda self, t, w: used.append(original(self, t, w)) or used[-1]
    try:
        fast = (_curve_pixels(FastCurveItem, y, False, width)[..., :3] != 255).any(axis=-1)
    finally:
        FastCurveItem._strokes = original
    if width > 1.0:  # 1 px: Qt's own one-pixel line, as pyqtgraph draws it
        (strokes,) = used
        offsets = [o for _path, group in strokes for o in group]
        kinds = {"steep" if dy == 0.0 and dx != 0.0 else "flat" for dx, dy in offsets if dx or dy}
        assert kinds == (thin if width <= 2.0 else thick), offsets
        assert len(offsets) <= 2 * round(width * 1.5)  # a few strokes
    else:
        assert used == []
    ref = (_curve_pixels(pg.PlotCurveItem, y, False, width)[..., :3] != 255).any(axis=-1)
    assert 0.9 < fast.sum() / ref.sum() < 1.1
    # each line is within one pixel of the other: no pixel astray (but next to the
    # curve's two ends, where the wide pen has square caps and the strokes shifted
    # along a thick line's last segment do not), no part of the wide line left out but
    # for a few pixels where its joins and caps overshoot sharp tips
    astray = np.argwhere(fast & ~_grown(ref))[:, 0]  # columns (the array is x, y)
    ends = np.array([1, len(y)]) * 600 / (len(y) + 1)
    assert (np.abs(astray[:, None] - ends).min(axis=1) <= width + 1).all(), astray
    assert len(astray) <= 2
    assert (ref & ~_grown(fast)).sum() <= 0.002 * ref.sum()


@pytest.mark.parametrize("gap", [False, True])
def test_fast_curve_strokes_other_segments_from_their_points_only(qtbot, gap):
    """A thick line's few segments of the other direction (a flat trend's steep start)
    get their strokes from a path of their own points and tips, not of every point of
    the curve (each a move that draws nothing: most of the strokes' time)."""
    x = np.arange(400, dtype=float)
    y = np.exp(-x / 8.0) + 0.002 * np.sin(x / 30.0)  # steep first, then gently flat
    if gap:
        y[[100, 101, 250]] = np.nan
    item = FastCurveItem(x=x, y=y, pen=pg.mkPen("#0072B2", width=4))
    device = QtGui.QTransform.fromScale(1.5, -250.0)
    strokes = item._compute_strokes(device, 4.0)
    assert strokes is not None and len(strokes) == 2
    (whole, major), (path, minor) = strokes
    assert whole is None and path is not None
    assert {dx for dx, _dy in major} == {0.0} and {dy for _dx, dy in minor} == {0.0}
    step = np.abs(np.diff(y)) * 250.0 > np.abs(np.diff(x)) * 1.5
    steep_points = np.count_nonzero(np.append(step, False) | np.insert(step, 0, False))
    tips = path.elementCount() - steep_points
    assert tips % 3 == 0 and tips <= 3 * 40, tips  # the wave's few turns, three points each
    assert path.elementCount() < len(x) / 3


def _elements(path: QtGui.QPainterPath) -> list[tuple[object, float, float]]:
    return [
        (path.elementAt(i).type, path.elementAt(i).x, path.elementAt(i).y)
        for i in range(path.elementCount())
    ]


@pytest.mark.parametrize("gap", [False, True])
def test_fast_curve_few_pieces_path_equals_the_array_built_one(qtbot, monkeypatch, gap):
    """A sub-path of a few segments and tips (a smooth curve's turns) is built point by
    point (:func:`_few_pieces`): the same elements, to the last bit, as the one built
    from arrays for any number of pieces."""
    from gui.render import fast_curve

    rng = np.random.default_rng(11)
    built = []
    few = fast_curve._few_pieces
    monkeypatch.setattr(
        fast_curve,
        "_few_pieces",
        lambda *args: built.append((len(args[2]), len(args[3]))) or few(*args),
    )
    for k in range(12):
        n = int(rng.integers(8, 300))
        x = np.cumsum(rng.uniform(0.0, 2.0, n))
        y = np.sin(x / rng.uniform(1.0, 20.0)) + rng.normal(size=n) * 0.01 * (k % 3)
        y[n // 2] = y[n // 2 - 1]  # a level segment
        if gap:
            y[rng.integers(1, n - 1, 3)] = np.nan
        item = FastCurveItem(x=x, y=y, pen=pg.mkPen("b", width=4))
        device = QtGui.QTransform.fromScale(rng.uniform(0.5, 4.0), -rng.uniform(20.0, 400.0))
        for width in (2.0, 3.0, 4.5):
            monkeypatch.setattr(fast_curve, "FEW_PIECES", 10**9)
            pieces = item._compute_strokes(device, width)
            monkeypatch.setattr(fast_curve, "FEW_PIECES", 0)
            arrays = item._compute_strokes(device, width)
            assert pieces is not None and arrays is not None
            assert len(pieces) == len(arrays)
            for (p1, o1), (p2, o2) in zip(pieces, arrays, strict=True):
                assert o1 == o2
                assert (p1 is None) == (p2 is None)
                if p1 is not None:
                    assert _elements(p1) == _elements(p2)
    assert max(b[0] for b in built) > 0 and max(b[1] for b in built) > 0  # runs and tips


@pytest.mark.parametrize("runs", [1, 3, 7])
def test_fast_curve_runs_path_equals_the_array_built_one(qtbot, monkeypatch, runs):
    """A sub-path of long runs of segments and a few tips (ALiBi's softmax rows: a flat
    tail of zero weights past the query beside a dozen spikes) is built run by run
    and tip by tip: the same elements, to the last bit, as the one built from arrays."""
    from gui.render import fast_curve

    rng = np.random.default_rng(runs)
    built = []
    by_run = fast_curve._runs_and_tips
    monkeypatch.setattr(
        fast_curve, "_runs_and_tips", lambda *args: built.append(len(args[3])) or by_run(*args)
    )
    for k in range(6):
        n = int(rng.integers(300, 700))
        y = np.zeros(n)
        spikes = int(rng.integers(8, 16))
        y[:spikes] = rng.uniform(0.0, 0.5, spikes)  # steep spikes, then a flat tail
        for level in range(1, runs):  # more flat runs, apart
            start = spikes + level * (n - spikes) // runs
            y[start] = rng.uniform(0.2, 0.4)
        x = np.arange(n, dtype=float)
        if k % 2:
            y[n - 5] = np.nan
        item = FastCurveItem(x=x, y=y, pen=pg.mkPen("b", width=3))
        device = QtGui.QTransform.fromScale(rng.uniform(0.6, 1.2), -rng.uniform(300.0, 900.0))
        for width in (2.0, 3.0):
            monkeypatch.setattr(fast_curve, "FEW_RUNS", 8)
            by_runs = item._compute_strokes(device, width)
            monkeypatch.setattr(fast_curve, "FEW_RUNS", 0)
            arrays = item._compute_strokes(device, width)
            assert by_runs is not None and arrays is not None
            assert len(by_runs) == len(arrays) == 2  # the whole path and the flat family's
            for (p1, o1), (p2, o2) in zip(by_runs, arrays, strict=True):
                assert o1 == o2
                assert (p1 is None) == (p2 is None)
                if p1 is not None:
                    assert p1.elementCount() > (n - spikes) // runs  # (long runs)
                    assert _elements(p1) == _elements(p2)
    assert built and min(built) == runs - 1  # built run by run (a NaN breaks one more)


def test_fast_curve_on_a_high_dpi_image(qtbot):
    """On a device with two pixels per unit the strokes still cover the wide line."""
    y = CURVES["mixed"][0]
    fast, ref = (
        (_curve_pixels(cls, y, False, 3.0, ratio=2.0)[..., :3] != 255).any(axis=-1)
        for cls in (FastCurveItem, pg.PlotCurveItem)
    )
    assert 0.9 < fast.sum() / ref.sum() < 1.1
    assert not (fast & ~_grown(ref)).any()
    assert (ref & ~_grown(fast)).sum() <= 0.002 * ref.sum()


def _grown(mask: np.ndarray) -> np.ndarray:
    """``mask`` grown by one pixel in every direction."""
    grown = mask.copy()
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            grown |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return grown


def test_fast_curve_leaves_antialiased_lines_to_pyqtgraph(qtbot):
    y = np.cos(np.arange(50) / 3.0)
    np.testing.assert_array_equal(
        _curve_pixels(FastCurveItem, y, True), _curve_pixels(pg.PlotCurveItem, y, True)
    )


def _dashed_pixels(cls: type, y: np.ndarray, style: QtCore.Qt.PenStyle) -> tuple:
    """``y`` drawn with a 3-px pen of ``style``: (inked pixels, the item)."""
    item = cls(x=np.arange(len(y)), y=y, antialias=False, pen=pg.mkPen("#0072B2", width=3))
    item.opts["pen"].setStyle(style)
    rgb = _render(
        item,
        (600, 300),
        QtCore.QRectF(-1, -1.2, len(y) + 1, 2.4),
        QtCore.Qt.AspectRatioMode.IgnoreAspectRatio,
    )[..., :3]
    return (rgb != 255).any(axis=-1), item


def test_fast_curve_strokes_a_dense_dashed_line_segment_by_segment(qtbot):
    """A dashed wide pen over a curve whose segments are long on screen (RoPE's YaRN and
    Llama 3.1 scores: 2046 points zigzagging over a band, which Qt stroked as one dashed
    outline in 1.5-2 s a paint on the stage) is stroked as separate segments: still
    dashed, and only on the wide line's pixels. A smooth dashed curve (short segments:
    its dashes run on along the path) is pyqtgraph's, pixel for pixel."""
    dash, solid = QtCore.Qt.PenStyle.DashLine, QtCore.Qt.PenStyle.SolidLine
    zigzag = np.where(np.arange(40) % 2, 1.0, -1.0)  # every segment ~250 px long
    fast, item = _dashed_pixels(FastCurveItem, zigzag, dash)
    line, _ = _dashed_pixels(pg.PlotCurveItem, zigzag, solid)
    assert item.dash_segment_paints == 1
    assert not (fast & ~_grown(line)).any()  # on the wide line
    assert 0.4 * line.sum() < fast.sum() < 0.85 * line.sum()  # with the dashes' gaps
    smooth = np.sin(np.arange(300) / 20.0)
    fast, item = _dashed_pixels(FastCurveItem, smooth, dash)
    ref, _ = _dashed_pixels(pg.PlotCurveItem, smooth, dash)
    assert item.dash_segment_paints == 0
    np.testing.assert_array_equal(fast, ref)


def test_views_use_the_fast_items(window):
    widget = window.views["sinusoidal"]
    plots = widget.plots
    curves = [c for p in plots.values() for c in p.curves if c.opts["pen"] is not None]
    assert curves and all(isinstance(c.curve, FastCurveItem) for c in curves)
    images = [p.image for p in plots.values() if p.image is not None]
    assert images and all(isinstance(i, FastImageItem) for i in images)


@pytest.mark.parametrize("ratio", [1.0, 1.25, 1.5, 2.0])
@pytest.mark.parametrize("size", [(97, 61), (150, 333), (41, 40), (611, 97)])
def test_fast_image_minified_samples_like_qt(qtbot, size, ratio):
    """Shown smaller than its cells, one nearest cell per pixel: Qt's own samples, at
    every device pixel ratio (the samples blitted one per device pixel)."""
    rng = np.random.default_rng(11)
    data = rng.normal(size=(200, 300)).astype(np.float32)
    data[np.tril_indices(200, -1)] = np.nan
    cmap = pg.colormap.get("viridis")
    pixels, items = [], []
    for cls in (pg.ImageItem, FastImageItem):
        item = cls(axisOrder="row-major")
        item.setColorMap(cmap)
        item.setImage(data, autoLevels=False, levels=(-2.0, 2.0))
        items.append(item)
        blits = FastImageItem.blits
        pixels.append(_render(item, size, QtCore.QRectF(-3.3, -2.7, 306.1, 205.2), ratio=ratio))
    sampled = items[1]._sampled[1]  # the per-pixel sampling path was taken
    assert sampled.width() * sampled.height() < 300 * 200
    assert FastImageItem.blits == blits + 1  # one sample per device pixel, unscaled
    assert len(np.unique(pixels[0].reshape(-1, 4), axis=0)) > 50
    np.testing.assert_array_equal(pixels[1], pixels[0])


@pytest.mark.parametrize("live", [False, True])
@pytest.mark.parametrize("size", [(97, 61), (150, 333), (41, 40)])
def test_fast_image_samples_a_toeplitz_view_from_its_values(qtbot, size, live):
    """A Toeplitz view (the relative grids) is sampled from its 2k − 1 values in one
    gather: the same pixels as the same image stored densely, full and live."""
    from core.toeplitz import by_offset, toeplitz_view

    rng = np.random.default_rng(17)
    values = rng.normal(size=2 * 250 - 1).astype(np.float32)
    values[::37] = np.nan
    view = toeplitz_view(values, 250)
    pixels = []
    for image in (np.array(view), view):
        item = FastImageItem(axisOrder="row-major")
        item.setColorMap(pg.colormap.get("viridis"))
        item.setImage(image, autoLevels=False, levels=(-2.0, 2.0))
        item.live = live
        pixels.append(_render(item, size, QtCore.QRectF(-3.3, -2.7, 256.1, 255.2)))
    assert by_offset(item.image) is not None and item._sampled is not None
    assert len(np.unique(pixels[0].reshape(-1, 4), axis=0)) > 30
    np.testing.assert_array_equal(pixels[1], pixels[0])


@pytest.mark.parametrize("size", [(97, 61), (150, 333), (611, 97), (611, 333)])
def test_fast_image_live_frame_samples_every_other_pixel(qtbot, size):
    """A live frame (a slider drag) samples a minified axis at every other screen pixel,
    each sample drawn over its two pixels, and a magnified axis whose cells are under
    ``LIVE_CELL_PX`` pixels at every other cell: the gathered and coloured picture is
    about half as long along each, covers the same pixels, and once settled the picture
    is every pixel's (or cell's) own sample again (Qt's, as without a live frame)."""
    rng = np.random.default_rng(13)
    data = rng.normal(size=(200, 300)).astype(np.float32)
    source = QtCore.QRectF(-3.3, -2.7, 306.1, 205.2)
    reference = pg.ImageItem(axisOrder="row-major")
    item = FastImageItem(axisOrder="row-major")
    for each in (reference, item):
        each.setColorMap(pg.colormap.get("viridis"))
        each.setImage(data, autoLevels=False, levels=(-2.0, 2.0))
    settled = _render(reference, size, source)
    full = _render(item, size, source)
    sampled = getattr(item, "_sampled", None)  # (none: magnified both ways, Qt's own)
    full_shape = (300, 200) if sampled is None else (sampled[1].width(), sampled[1].height())
    if sampled is None:  # (Qt draws this premultiplied image's edges its own way)
        settled = full
    np.testing.assert_array_equal(full, settled)
    assert not item.live_sampled
    before = FastImageItem.live_samples
    item.live = True
    live = _render(item, size, source)
    assert item.live_sampled and FastImageItem.live_samples == before + 1
    live_shape = (item._sampled[1].width(), item._sampled[1].height())
    for n_live, n_full in zip(live_shape, full_shape, strict=True):
        # half the samples (rounded up): of the pixels of a minified axis, of the cells
        # of a magnified one (its cells here are 1.7 and 2 pixels: under LIVE_CELL_PX)
        assert n_live == (n_full + 1) // 2
    painted = (live != 255).any(axis=-1)
    np.testing.assert_array_equal(painted, (settled != 255).any(axis=-1))  # same area
    assert (live != settled).any()  # (coarser)
    item.setExportMode(True)  # an export during a drag: every pixel's own sample
    np.testing.assert_array_equal(_render(item, size, source), settled)
    item.setExportMode(False)
    item.live = False
    np.testing.assert_array_equal(_render(item, size, source), settled)
    assert not item.live_sampled


def test_panel_plot_repaints_a_live_sampled_heatmap_when_settled(window):
    """The view's heatmaps are live while a slider moves and repainted at every pixel's
    own sample once settled (full quality)."""
    widget = window.views["sinusoidal"]
    images = [p.image for p in widget.plots.values() if isinstance(p.image, FastImageItem)]
    assert images
    widget._set_draft(True)
    assert all(i.live for i in images)
    for image in images:
        image.live_sampled = True  # (as a minified live paint leaves it)
    updated: list[object] = []
    original = FastImageItem.update
    try:
        FastImageItem.update = lambda self, *a: updated.append(self) or original(self, *a)
        widget._set_draft(False)
    finally:
        FastImageItem.update = original
    assert not any(i.live for i in images)
    assert all(i in updated for i in images)


class _CountedTakes(np.ndarray):
    """An image that counts the gathers (``take``) made from it and its copies."""

    takes: list[int]

    def __array_finalize__(self, obj: object) -> None:
        self.takes = getattr(obj, "takes", [])

    def take(self, indices, axis=None, **kwargs):  # type: ignore[override]
        self.takes.append(axis)
        out = np.asarray(self).take(indices, axis=axis, **kwargs).view(_CountedTakes)
        out.takes = self.takes
        return out


@pytest.mark.parametrize("size", [(611, 97), (150, 333)])
@pytest.mark.parametrize("flip", [False, True])
def test_fast_image_magnified_axis_is_read_without_a_gather(qtbot, monkeypatch, size, flip):
    """Minified along one axis and magnified along the other (ALiBi's stage mosaic:
    wider on screen than its cells, fewer pixel rows than cells): only the sampled rows
    (or columns) are gathered, the magnified axis is read as it is, also when it runs
    backwards; the same pixels as when every cell of it is gathered by index."""
    rng = np.random.default_rng(12)
    data = rng.normal(size=(200, 300)).astype(np.float32)
    data[np.triu_indices(200, 1)] = -np.inf
    data[90:95] = np.nan
    stretch = QtCore.Qt.AspectRatioMode.IgnoreAspectRatio  # each axis its own scale
    source = QtCore.QRectF(-3.3, -2.7, 306.1, 205.2)

    def shown(counted: _CountedTakes) -> np.ndarray:
        item = FastImageItem(axisOrder="row-major")
        item.setColorMap(pg.colormap.get("viridis"))
        item.set_masked_color(QtGui.QColor("#c8c8c8"))
        item.setImage(data.copy(), autoLevels=False, levels=(-2.0, 2.0))
        if flip:  # the magnified axis runs backwards
            sx, sy = (-1.0, 1.0) if size[0] > 300 else (1.0, -1.0)
            dx, dy = (300.0 if sx < 0 else 0.0), (200.0 if sy < 0 else 0.0)
            item.setTransform(QtGui.QTransform(sx, 0, 0, sy, dx, dy))
        item.image = counted  # (what setImage stored, counting the gathers from it)
        pixels = _render(item, size, source, stretch)
        assert item._sampled is not None  # the per-pixel sampling path was taken
        return pixels

    counted = data.view(_CountedTakes)
    pixels = shown(counted)
    assert counted.takes == [0 if size[0] > 300 else 1]  # one gather: the minified axis
    assert len(np.unique(pixels.reshape(-1, 4), axis=0)) > 50

    samples = FastImageItem._axis_samples

    def by_index(*args: object, **kwargs: int) -> tuple:  # every cell gathered by its index
        cells, count, start, extent = samples(*args, **kwargs)
        if isinstance(cells, slice):
            cells = np.arange(args[-1])[cells]
        return cells, count, start, extent

    monkeypatch.setattr(FastImageItem, "_axis_samples", staticmethod(by_index))
    gathered = data.view(_CountedTakes)
    np.testing.assert_array_equal(pixels, shown(gathered))
    assert len(gathered.takes) == 2


@pytest.mark.parametrize("case", ["finite", "nan", "inf", "int", "fill", "wide_pen", "flat"])
def test_fast_curve_data_bounds_equal_pyqtgraph(qtbot, case):
    rng = np.random.default_rng(3)
    x, y = np.arange(50, dtype=float), rng.normal(size=50) * 7 - 2
    kwargs: dict = {"pen": pg.mkPen("b", width=2)}
    if case == "nan":
        y[[3, 17]] = np.nan
    elif case == "inf":
        y[5], x[9] = np.inf, -np.inf
    elif case == "int":
        x, y = np.arange(50), rng.integers(-9, 9, 50)
    elif case == "fill":
        kwargs["fillLevel"] = -30.0
    elif case == "wide_pen":
        pen = pg.mkPen("b", width=4)
        pen.setCosmetic(False)
        kwargs["pen"] = pen
    elif case == "flat":
        y = np.full(50, 0.25)
    fast, slow = FastCurveItem(x, y, **kwargs), pg.PlotCurveItem(x, y, **kwargs)
    for ax in (0, 1):
        for frac, ortho in ((1.0, None), (1.0, None), (0.5, None), (1.0, (10.0, 20.0))):
            assert fast.dataBounds(ax, frac, ortho) == pytest.approx(
                slow.dataBounds(ax, frac, ortho), nan_ok=True
            ), (ax, frac, ortho)


def test_color_indices_mark_empty_and_masked_cells_in_place():
    """Indices equal the float32 formula with empty (NaN → n) and masked (±inf → n + 1)
    cells gathered and set one by one (the former implementation), for float32 and
    float64 images, equal levels and any table size; no warning for the NaN casts."""
    import warnings

    from gui.render.fast_image import color_indices

    def reference(image, levels, n):
        low, high = float(levels[0]), float(levels[1])
        span = (high - low) or 1.0
        work = np.subtract(image, low, dtype=np.float32)
        masked = ~np.isfinite(work)
        work *= n / span
        np.clip(work, 0, n - 1, out=work)
        work[masked] = np.where(np.isnan(work[masked]), n, n + 1)
        return work.astype(np.uint16)

    rng = np.random.default_rng(0)
    for k in range(40):
        image = rng.normal(0, 3, (23, 37)).astype(np.float32 if k % 2 else np.float64)
        u = rng.random(image.shape)
        image[u < 0.1], image[(u > 0.1) & (u < 0.2)], image[(u > 0.2) & (u < 0.3)] = (
            np.nan,
            np.inf,
            -np.inf,
        )
        levels = (1.0, 1.0) if k % 7 == 0 else tuple(sorted(rng.normal(0, 3, 2)))
        n = int(rng.integers(2, 300))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = color_indices(image, levels, n)
        want = reference(image, levels, n)
        assert {n, n + 1} <= set(np.unique(want).tolist())
        np.testing.assert_array_equal(got, want)


def test_fast_curve_one_direction_lines_skip_the_general_pass(qtbot, monkeypatch):
    """A single segment (Compare's ``train_len`` markers) and a level line whose x
    increase ("defined for which positions") get their strokes without the general
    pass, and exactly the strokes it finds; other lines still go through it."""
    rng = np.random.default_rng(5)
    calls = []
    general = FastCurveItem._compute_strokes
    monkeypatch.setattr(
        FastCurveItem,
        "_compute_strokes",
        lambda self, t, w: calls.append(len(self.xData)) or general(self, t, w),
    )
    simple = [
        (np.array([32.0, 32.0]), np.array([-1.0, 1.0])),  # vertical marker
        (np.array([0.0, 5.0]), np.array([0.2, 0.3])),  # flat segment
        (np.arange(400.0), np.full(400, 2.0)),  # level line
        (np.cumsum(rng.random(300) + 0.01), np.full(300, -0.7)),
    ]
    general_only = [
        (np.arange(50.0), np.sin(np.arange(50.0))),
        (np.arange(50.0)[::-1].copy(), np.full(50, 1.0)),  # x decreasing
        (np.array([0.0, 1.0, 0.5]), np.full(3, 1.0)),  # x turning back: tips
        (np.array([1.0, 1.0]), np.array([2.0, 2.0])),  # a dot
        (np.arange(20.0), np.where(np.arange(20) == 7, np.nan, 1.0)),
    ]
    for k, (x, y) in enumerate(simple + general_only):
        item = FastCurveItem(x=x, y=y, pen=pg.mkPen("b", width=4))
        for sx, sy in ((3.0, -120.0), (-0.7, 40.0), (1.0, -1.0)):
            device = QtGui.QTransform.fromScale(sx, sy)
            for width in (1.5, 2.0, 3.0, 4.0, 4.5):
                calls.clear()
                item._stroke_cache = None
                strokes = item._strokes(device, width)
                assert calls == ([] if k < len(simple) else [len(x)]), (k, sx, width)
                if k < len(simple):
                    assert strokes == general(item, device, width), (k, sx, width)
    assert FastCurveItem.simple_strokes == 0  # counted per item


def test_fast_curve_live_level_line_is_stroked_as_one_segment(qtbot):
    """On a live frame a level line (Compare's "defined for which positions") is
    stroked from its first point to its last: a two-point path, the same offsets, the
    same pixel row and ends within a pixel; marked ``live_cut`` so that it is drawn
    whole again once settled, when its strokes are the general pass's again."""
    x = np.cumsum(np.random.default_rng(3).random(400) + 0.05)
    item = FastCurveItem(x=x, y=np.full(400, 0.3), pen=pg.mkPen("b", width=2))
    device = QtGui.QTransform(0.97, 0, 0, -150.0, 3.3, 100.4)
    settled = item._strokes(device, 2.0)
    assert settled == item._compute_strokes(device, 2.0) and settled[0][0] is None
    assert not item.live_cut
    item.live = True
    live = item._strokes(device, 2.0)
    ((path, offsets),) = live
    assert path is not None and path.elementCount() == 2
    assert offsets == settled[0][1] and item.live_cut

    def pixels(strokes) -> np.ndarray:
        image = QtGui.QImage(460, 200, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(0)
        p = QtGui.QPainter(image)
        p.setPen(QtGui.QPen(QtGui.QColor("black"), 1.0))
        for drawn, shifts in strokes:
            for dx, dy in shifts:
                p.setTransform(device * QtGui.QTransform.fromTranslate(dx, dy))
                p.drawPath(item.getPath() if drawn is None else drawn)
        p.end()
        return pg.imageToArray(image, copy=True)[..., 3].T > 0  # rows × columns

    whole, ends = pixels(settled), pixels(live)
    assert np.array_equal(whole.any(axis=1), ends.any(axis=1))  # the same rows
    cols = [np.flatnonzero(m.any(axis=0)) for m in (whole, ends)]
    assert abs(cols[0][0] - cols[1][0]) <= 1 and abs(cols[0][-1] - cols[1][-1]) <= 1
    item.live = False
    assert item._strokes(device, 2.0) == settled


def test_fast_curve_keeps_its_data_extent_across_view_changes(qtbot):
    """pyqtgraph forgets a curve's data bounds with every change of its view's range
    (each frame of a drag); the extent of the same arrays is not measured again,
    that of new data is."""
    x = np.arange(300.0)
    item = FastCurveItem(x=x, y=np.sin(x / 9.0), pen=pg.mkPen("b", width=3))
    first = (item.dataBounds(0), item.dataBounds(1))
    assert item.extents_measured == 2
    rect = item.boundingRect()
    for _ in range(3):
        item.viewTransformChanged()  # the view's range moved: pyqtgraph drops its bounds
        assert (item.dataBounds(0), item.dataBounds(1)) == first
        assert item.boundingRect() == rect
    assert item.extents_measured == 2
    item.setData(x=x, y=2.0 * np.sin(x / 9.0))
    assert item.dataBounds(0) == (0.0, 299.0)
    assert item.dataBounds(1) == pytest.approx((-2.0, 2.0), abs=1e-3)
    assert item.extents_measured == 4  # new arrays (x too: setData keeps a new view)


def test_fast_curve_bounding_rect_equals_pyqtgraph_without_its_pixel_vectors(qtbot, monkeypatch):
    """The bounding rect pyqtgraph computes (data bounds and the pen's padding in
    pixels) for every view range, without pyqtgraph's ``pixelVectors`` (and its
    caches of ``Point`` copies): each frame of a drag computes it twice per curve."""
    win = pg.PlotWidget()
    qtbot.addWidget(win)
    win.resize(500, 300)
    win.show()
    x = np.arange(200.0)
    y = np.sin(x / 7.0) * 3.0
    fast = FastCurveItem(x=x, y=y, pen=pg.mkPen("b", width=4))
    slow = pg.PlotCurveItem(x=x, y=y, pen=pg.mkPen("b", width=4))
    for item in (fast, slow):
        win.addItem(item)
    calls = []
    vectors = pg.GraphicsItem.pixelVectors
    monkeypatch.setattr(
        pg.GraphicsItem,
        "pixelVectors",
        lambda self, *a: calls.append(self is fast) or vectors(self, *a),
    )
    rng = np.random.default_rng(2)
    for _ in range(25):
        lo = rng.uniform(-50, 150)
        win.setRange(xRange=(lo, lo + rng.uniform(1, 400)), yRange=(-rng.uniform(0.1, 9), 4))
        QtCore.QCoreApplication.processEvents()
        for item in (fast, slow):
            item.viewTransformChanged()  # forget the rects: computed anew below
        assert fast.boundingRect() == slow.boundingRect()
        assert fast.boundingRect().width() > x[-1]  # grown by the padding
    assert calls and not any(calls)  # pyqtgraph's item called it, the fast one never
    assert FastCurveItem(x=x, y=y).boundingRect() == pg.PlotCurveItem(x=x, y=y).boundingRect()


def test_fast_curve_bounds_of_data_with_nan_gaps_are_pyqtgraphs_without_its_nanmin(
    qtbot, monkeypatch
):
    """A curve with NaN gaps (ALiBi's heads as one NaN-separated line, Compare's learned
    row past the training length) gets pyqtgraph's bounds, found without pyqtgraph's
    ``nanmin`` under a warnings context (a frame of a drag asks for them again) and kept
    for the same arrays; infinite or all-NaN data still goes to pyqtgraph."""
    x = np.tile(np.append(np.arange(50.0), np.nan), 4)
    y = np.concatenate([np.append(-m * np.arange(50.0), np.nan) for m in (0.5, 0.25, 0.1, 2.0)])
    fast = FastCurveItem(x=x, y=y, pen=pg.mkPen("b", width=3))
    slow = pg.PlotCurveItem(x=x, y=y, pen=pg.mkPen("b", width=3))
    expected = (slow.dataBounds(0), slow.dataBounds(1))
    assert expected == ((0.0, 49.0), (-98.0, 0.0))
    calls = []
    nanmin = np.nanmin
    monkeypatch.setattr(np, "nanmin", lambda *a, **k: calls.append(1) or nanmin(*a, **k))
    assert (fast.dataBounds(0), fast.dataBounds(1)) == expected
    fast.viewTransformChanged()  # a frame's new range: pyqtgraph forgets its bounds
    measured = fast.extents_measured
    assert (fast.dataBounds(0), fast.dataBounds(1)) == expected
    assert fast.extents_measured == measured and not calls
    for bad in (np.append(y[:-1], np.inf), np.full(y.size, np.nan)):
        fast.setData(x=x, y=bad)
        slow.setData(x=x, y=bad)
        np.testing.assert_array_equal(fast.dataBounds(1), slow.dataBounds(1))
    assert calls  # (pyqtgraph's own)


@pytest.mark.parametrize("n", [2, 3, 517, 4096])
def test_fast_curve_path_of_finite_points_is_pyqtgraphs(qtbot, monkeypatch, n):
    """A line of finite points all connected gets its path built as one polygon of
    them, and a line broken by a few NaN (under 2 % of its points) a polygon a piece,
    without pyqtgraph's ``arrayToQPath``: the same elements, to the last bit, as
    pyqtgraph's path; more gaps, other connections and steps still go to pyqtgraph."""
    rng = np.random.default_rng(n)
    x = np.cumsum(rng.uniform(0.0, 2.0, n))
    y = np.sin(x / 3.0) * rng.uniform(0.5, 5.0)
    calls = []
    to_path = pg.functions.arrayToQPath
    monkeypatch.setattr(
        pg.functions, "arrayToQPath", lambda *a, **k: calls.append(1) or to_path(*a, **k)
    )
    fast = FastCurveItem(x=x, y=y, pen=pg.mkPen("b", width=3), skipFiniteCheck=True)
    slow = pg.PlotCurveItem(x=x, y=y, pen=pg.mkPen("b", width=3), skipFiniteCheck=True)
    elements = _elements(fast.getPath())
    assert not calls
    assert len(elements) == n and elements == _elements(slow.getPath())
    gappy = y.copy()
    gappy[n // 2] = np.nan
    # (without its finite check, as set above, pyqtgraph's 'finite' path is a polygon
    # a piece for any number of gaps)
    for options, expected in (({"connect": "finite"}, [1]), ({"connect": "pairs"}, [1, 1])):
        calls.clear()
        fast.setData(x=x, y=gappy, **options)
        slow.setData(x=x, y=gappy, **options)
        assert _elements(fast.getPath()) == _elements(slow.getPath())
        assert calls == expected


@pytest.mark.parametrize("skip_check", [False, True])
def test_fast_curve_path_of_a_line_with_gaps_is_pyqtgraphs(qtbot, skip_check):
    """A line broken by a few non-finite points (ALiBi's heads as one NaN-separated
    line): the same path elements as pyqtgraph's ``arrayToQPath(connect='finite')``
    for gaps at the ends, runs of gaps, a lone point between gaps, NaN or inf in x or
    y, with or without its finite check."""
    rng = np.random.default_rng(7)
    for n in (60, 300, 1000):
        x = np.cumsum(rng.uniform(0.1, 2.0, n))
        y = rng.normal(size=n)
        for gaps in ([0], [n - 1], [5, 6], [10, 12], [0, n // 2, n - 1], [3, 4, 5, 40]):
            gx, gy = x.copy(), y.copy()
            for k, i in enumerate(gaps):
                (gx if k % 2 else gy)[i] = np.nan if k % 3 else np.inf
            item = FastCurveItem(pen=pg.mkPen("b", width=3))
            item.setData(x=gx, y=gy, connect="finite", skipFiniteCheck=skip_check)
            want = pg.functions.arrayToQPath(gx, gy, connect="finite", finiteCheck=not skip_check)
            assert _elements(item.getPath()) == _elements(want), (n, gaps)


def test_stroke_offsets_are_the_spread_side_by_side(qtbot):
    """``_offsets`` (the strokes' device offsets) gives ``_spread``'s offsets bit for
    bit, as (dx, 0) for a steep family and (0, dy) for a flat one."""
    from gui.render import fast_curve

    rng = np.random.default_rng(12)
    bands = [0.3, 1.0, 1.0 + 1e-10, 1.2, 2.0, 2.1, 2.2, 2.2000001, 3.0, 4.5, 7.19]
    for band in [*bands, *rng.uniform(0.0, 9.0, 200).tolist()]:
        spread = fast_curve._spread(band)
        steep = repr(tuple((o, 0.0) for o in spread))  # (repr: -0.0 too)
        flat = repr(tuple((0.0, o) for o in spread))
        assert repr(fast_curve._offsets(band, True)) == steep, band
        assert repr(fast_curve._offsets(band, False)) == flat, band


def test_few_values_extent_is_numpys_to_the_sign_of_zero():
    """A short array's extent from Python's min and max is numpy's reductions' exactly,
    a zero's sign included (a range from -0.0 ticks "-0"), for every arrangement of
    equal and signed-zero values; NaN, infinities and longer arrays are left to numpy."""
    import itertools
    import math

    from gui.render.fast_curve import FEW_VALUES, few_extent

    def signed(value: float) -> tuple[float, float]:
        return value, math.copysign(1.0, value)

    for size in range(1, FEW_VALUES + 1):
        for values in itertools.product((0.0, -0.0, 1.0, -1.0), repeat=size):
            for dtype in (np.float64, np.float32):
                data = np.array(values, dtype)
                got = few_extent(data)
                assert got is not None
                want = (float(np.minimum.reduce(data)), float(np.maximum.reduce(data)))
                assert [signed(v) for v in got] == [signed(v) for v in want], values
    assert few_extent(np.array([1.0, np.nan])) is None
    assert few_extent(np.array([-np.inf, np.inf])) is None
    assert few_extent(np.arange(FEW_VALUES + 1.0)) is None
    item = FastCurveItem(x=np.array([0.0, 2.0]), y=np.array([np.nan, 1.0]))
    lo, hi = item.extent(1)
    assert lo != lo and hi != hi  # (NaN, as numpy's: the NaN-skipping bounds follow)
