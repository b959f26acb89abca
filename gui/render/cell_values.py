"""What a heatmap's cells say beyond their colour: values printed in small grids, and
masked cells hatched.

:class:`CellLayer` sits over a heatmap in its view box's own pixels (like the mosaic's
tile labels). For a grid of at most :data:`MAX_CELLS` × :data:`MAX_CELLS` cells it prints
every value in its cell, the way the course prints ``tensor([[0, -1, -2, …``: integers as
integers, other numbers short (``-0.25``), ``−∞`` for a masked cell, in black or white,
whichever contrasts more with the cell's colour, in a font that follows the UI scale and
shrinks with the cells (hidden once it would be too small to read). Masked cells (±inf,
a causal mask's −∞) are hatched over their neutral fill at any grid size, so a mask never
reads as background.

Drawing is cheap: texts, their colours and the masked runs are worked out once per new
image; a paint only maps cells to pixels and draws cached ``QStaticText`` objects.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.toeplitz import any_inf
from gui.render.raster import pixel_translation
from gui.render.view_box import ViewOverlay

MAX_CELLS = 16  # grids up to 16 × 16 print their values
MIN_PT = 6.0  # smaller value text is not drawn (unreadable; nor under half the wanted size)
#: share of the value size the UI scale asks for (:attr:`CellLayer.font_pt`) that a small
#: grid is given room for on stage, its plot column widened and its row made taller where
#: the room allows (:meth:`gui.widgets.view_widget.ViewWidget._weigh_columns`,
#: :meth:`gui.plotting.panel_plot.PanelPlot.word_room`): 8 pt at 100 % (6 pt is read from
#: the first rows only: Word order's differences on stage at 1920 x 1080 / 100 %), 12 pt
#: at 150 %. A fixed 8 pt was below the least size from 150 % on, and ALiBi's 8 x 8 toys
#: printed at that least size there (9 pt: 9 px digits on 1920 x 1080)
STAGE_VALUE_SHARE = 2.0 / 3.0
#: values grow past the size the UI scale asks for (:attr:`CellLayer.font_pt`) up to
#: this share of it where their cells have the room (:meth:`CellLayer.value_font`): Word
#: order's 3 x 3 weights on stage at 1600 x 1000 / 200 % printed 24 pt values in 110 px
#: cells, 16 px digits in cells seven times as tall
VALUE_GROW = 1.5
#: room (em) across a value grown past the asked size leaves beside its advance: at
#: :data:`GAP_EM` Word order's "0.25 0.63 0.12" at 16 pt in 52 px cells ran together
GROWN_GAP_EM = 0.6
MAX_RUNS = 4096  # more masked runs than this: the fill alone marks them (no hatching)
MASKED_TEXT = "−∞"
MAX_POLYGONS = 64  # staircases up to this many are built as a polygon each (pixel_path)
#: room (em) a value leaves across its cell beside its own advance (whose side bearings
#: already keep ~0.1 em of ink apart): neighbouring values' ink is at least ~0.3 em
#: apart, a space's width (the course's ``tensor([[0, -1, -2`` has ", " between them);
#: the fit was 86 % of the cell: "-10" needed a 30.3 px cell at 12 pt (29.7 on stage)
GAP_EM = 0.2
#: room (em) a value leaves down its cell beside its digits' cap height (a quarter em
#: above and below the ink); the fit was 72 % of the cell for the whole line height
#: (1.16 em: descenders and leading digits do not have), 1.6 em cells for 1 em of text
HEIGHT_EM = 0.5


def has_masked(image: np.ndarray) -> bool:
    """Whether ``image`` holds masked (±inf) cells: its first row, then its last, are
    looked at first, where a causal or sliding-window mask has them, and only when
    neither has one the whole image (:func:`~core.toeplitz.any_inf`: a Toeplitz view's
    ``2k − 1`` values). The same answer; ALiBi's stage mosaic (~820 × 820 cells, not a
    Toeplitz view) was scanned whole on every frame of a drag (~0.1 ms) for an answer
    its first row gives."""
    if (
        image.ndim == 2
        and len(image) > 2
        and (bool(np.isinf(image[0]).any()) or bool(np.isinf(image[-1]).any()))
    ):
        return True
    return any_inf(image)


def least_pt(font_pt: float) -> float:
    """The smallest value text (pt) drawn where values are asked at ``font_pt``: 6 pt,
    and not under half the size the UI scale asks for (at 200 % the audience sits as
    far as the scale says: 12 pt there reads as 6 pt at 100 %)."""
    return max(MIN_PT, 0.5 * font_pt)


def stage_value_pt(font_pt: float) -> float:
    """The value text (pt) a small grid is given room for on stage where values are
    asked at ``font_pt`` (:data:`STAGE_VALUE_SHARE` of it)."""
    return STAGE_VALUE_SHARE * font_pt


def value_fit(texts: Iterable[str], font: QtGui.QFont, gap: float = GAP_EM) -> tuple[float, float]:
    """The cell (width, height in px) that prints every one of ``texts`` in ``font``:
    the widest one's advance and ``gap`` em (:data:`GAP_EM`) across, the digits' cap
    height and :data:`HEIGHT_EM` down.

    Kept per set of texts, font (its key: all its metrics depend on) and gap: a drag's
    frame asks for the same grid's fit from its layer, its plot's width and the view's
    rows (~18 times a Permutation frame, ~20 calls each)."""
    distinct = frozenset(texts)
    key = (distinct, font.key(), gap)
    found = _FITS.get(key)
    if found is None:
        metrics = QtGui.QFontMetricsF(font)
        em = font.pointSizeF() * metrics.fontDpi() / 72.0
        widest = max([metrics.horizontalAdvance(t) for t in distinct], default=0.0)
        if len(_FITS) >= 256:
            _FITS.clear()
        found = _FITS[key] = (widest + gap * em, metrics.capHeight() + HEIGHT_EM * em)
    return found


#: value_fit's cells by (texts, font key, gap)
_FITS: dict[tuple[frozenset[str], str, float], tuple[float, float]] = {}


def legible_cell(
    texts: Iterable[str], font_pt: float, at_least: float = 0.0
) -> tuple[float, float]:
    """The smallest cell (width, height in px) in which ``texts`` print at all: at
    :func:`least_pt` of ``font_pt`` (a view gives a small grid at least that room), or
    at ``at_least`` pt where that is larger (not above ``font_pt``)."""
    font = QtGui.QFont()
    font.setPointSizeF(max(least_pt(font_pt), min(at_least, font_pt)))
    return value_fit(texts, font)


def grid_texts(image: np.ndarray, decimals: int | None = None) -> list[str]:
    """The distinct texts a small grid's cells print (:func:`format_cell` with
    :func:`grid_decimals`), none for a grid of more than :data:`MAX_CELLS` rows or
    columns."""
    if image.ndim != 2 or image.shape[0] > MAX_CELLS or image.shape[1] > MAX_CELLS:
        return []
    _which, formatted = _formatted(image, decimals)
    return [t for t in set(formatted) if t]


def _formatted(image: np.ndarray, decimals: int | None) -> tuple[list[int], list[str]]:
    """``(which, texts)``: the text of each distinct value of ``image`` as its cells
    print it (:func:`format_cell` with :func:`grid_decimals`), and for each cell (in
    row-major order) the index of its value's text.

    Kept per values and decimals: a frame of a drag formats a new grid once, where its
    plot's widths (:func:`grid_texts`, ~4 times a Permutation frame) and its layer
    (:meth:`CellLayer.texts`) each formatted it (~120 calls each)."""
    key = (image.tobytes(), image.shape, image.dtype.str, decimals)
    found = _FORMATTED.get(key)
    if found is None:
        decimals = grid_decimals(image, decimals)
        distinct, which = np.unique(image.ravel(), return_inverse=True)
        ints = (np.abs(distinct) < 1e7) & (distinct == np.rint(distinct))  # not NaN, ±inf
        texts = [
            str(int(v)) if is_int else format_cell(v, decimals)
            for v, is_int in zip(distinct.tolist(), ints.tolist(), strict=True)
        ]
        if len(_FORMATTED) >= 64:
            _FORMATTED.clear()
        found = _FORMATTED[key] = (which.ravel().tolist(), texts)
    return found


#: _formatted's texts by the grid's bytes, shape, type and decimals asked
_FORMATTED: dict[tuple[bytes, tuple[int, ...], str, int | None], tuple[list[int], list[str]]] = {}


#: a grid whose printed values tell fewer steps than this apart across its range of
#: colours prints more decimals (:func:`grid_decimals`)
LEAST_STEPS = 4
MAX_DECIMALS = 6  # the most :func:`grid_decimals` asks for


def _step(value: float, decimals: int | None) -> float:
    """The step between neighbouring texts :func:`format_cell` writes near ``value``."""
    if decimals is not None:
        return 10.0**-decimals
    if abs(value) >= 1:
        return 10.0 ** (math.floor(math.log10(abs(value))) - 2)  # three significant digits
    return 0.01


def grid_decimals(image: np.ndarray, decimals: int | None = None) -> int | None:
    """The decimals a small grid's non-integer values print with: ``decimals`` (``None``:
    :func:`format_cell`'s default), or more where those tell fewer than
    :data:`LEAST_STEPS` steps apart between the grid's least and greatest finite value,
    which its colours span: then as many as write that range in ten steps or more.

    M-RoPE's similarities 0.9972 … 1 printed "1" in every cell of a grid whose rows
    ran from yellow to purple; they print "0.9972" … "1.0000". Grids whose values read
    apart keep their texts (1-D RoPE's 0.56 … 1: "0.56" … "0.97", integer grids).

    >>> grid_decimals(np.array([[0.9972, 0.9997, 1.0]]))
    4
    >>> grid_decimals(np.array([[0.56, 0.97, 1.0]])) is None
    True
    >>> grid_decimals(np.array([[-0.4, 0.3]]), 1)
    1
    """
    finite = image[np.isfinite(image)]
    if finite.size < 2:
        return decimals
    lo, hi = float(finite.min()), float(finite.max())
    span = hi - lo
    if span <= 0:
        return decimals
    fractions = finite[np.abs(finite - np.rint(finite)) > 1e-9 * np.maximum(1.0, np.abs(finite))]
    if fractions.size == 0:
        return decimals  # whole numbers print whole
    widest = float(np.abs(fractions).max())
    if span >= LEAST_STEPS * _step(widest, decimals):
        return decimals
    return min(MAX_DECIMALS, math.ceil(1 - math.log10(span)))


def format_cell(value: float, decimals: int | None = None) -> str:
    """A cell's value as printed in it: ``-7``, ``-0.25``, ``3.52``, ``−∞``.

    Integers (within float rounding) print as integers; other values with three
    significant digits from 1 up, two decimals below 1 (trailing zeros dropped), or
    with ``decimals`` decimals when given (``-0.4``, ``2.0``; a value that rounds to
    zero prints ``0.0``, an exact zero ``0``).
    """
    v = float(value)
    if math.isnan(v):
        return ""
    if math.isinf(v):
        return MASKED_TEXT if v < 0 else "+∞"
    r = round(v)
    if abs(v - r) < 1e-9 * max(1.0, abs(v)) and abs(r) < 1e7:
        return str(int(r))
    if decimals is not None:
        text = f"{v:.{decimals}f}"
        return text.lstrip("-") if float(text) == 0 else text
    if abs(v) >= 1:
        text = f"{v:.3g}"
        if "e" in text:
            text = f"{v:.0f}"
    else:
        text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "0", "") else text


def relative_luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of ``(..., 3)`` uint8 sRGB colours."""
    c = np.asarray(rgb, dtype=np.float64)[..., :3] / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def dark_text(rgb: np.ndarray) -> np.ndarray:
    """Whether black text contrasts more than white with each colour (WCAG ratio)."""
    lum = relative_luminance(rgb)
    return (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05)


def masked_runs(image: np.ndarray) -> list[tuple[int, int, int]]:
    """Runs of masked (±inf) cells per row: ``(row, first column, end column)``."""
    return [tuple(run) for run in masked_run_array(image).tolist()]


def masked_run_array(image: np.ndarray) -> np.ndarray:
    """:func:`masked_runs` as an ``(n, 3)`` integer array, rows in order.

    One pass over the image: each row padded with an unmasked cell, the whole flattened
    so that every change between masked and unmasked is one index, starts and ends
    alternating (an 832 × 832 causal mosaic: about a third of the time of two
    ``nonzero`` passes per direction).
    """
    rows, cols = image.shape
    padded = np.zeros((rows, cols + 1), dtype=np.bool_)
    np.isinf(image, out=padded[:, :cols])
    flat = padded.ravel()
    if not flat.any():
        return np.zeros((0, 3), dtype=np.int64)
    # edges: where a cell differs from the one before it (the first cell vs unmasked)
    edges = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    if flat[0]:
        edges = np.concatenate(([0], edges))
    starts, ends = edges[0::2], edges[1::2]
    out = np.empty((starts.size, 3), dtype=np.int64)
    out[:, 0], out[:, 1] = np.divmod(starts, cols + 1)
    out[:, 2] = ends - out[:, 0] * (cols + 1)
    return out


def _q_round(values: np.ndarray) -> np.ndarray:
    """``qRound`` of doubles: halves away from zero (``int(d ± 0.5)``)."""
    return np.where(values >= 0.0, np.trunc(values + 0.5), np.trunc(values - 0.5))


def _pixel_fills(p: QtGui.QPainter, t: QtGui.QTransform) -> bool:
    """Whether ``p`` (device transform ``t``) fills an aliased rectangle as the pixels
    between its rounded device corners: a raster engine, no antialiasing, a transform
    that at most scales and translates."""
    engine = p.paintEngine()
    return bool(
        engine is not None
        and engine.type() == QtGui.QPaintEngine.Type.Raster
        and not p.renderHints() & QtGui.QPainter.RenderHint.Antialiasing
        and t.type().value <= QtGui.QTransform.TransformationType.TxScale.value
        and t.m11() != 0.0
        and t.m22() != 0.0
    )


def fill_rects(p: QtGui.QPainter, rects: np.ndarray, brush: QtGui.QBrush) -> None:
    """Fill the ``(n, 4)`` ``[x, y, w, h]`` rectangles ``rects`` with ``brush``: the
    pixels ``p.fillRect`` would fill for each, in one path fill on a raster painter.

    A masked mosaic has a run per row and tile (~1400 on ALiBi's 832 × 832 mosaic on
    the stage): one ``fillRect`` call each cost ~1 ms a frame in Python alone. Here the
    rectangles' pixel bounds are worked out for all at once (rounded device corners, as
    Qt's raster engine fills an aliased rectangle under a scaling transform, nothing
    when two corners round to the same row or column: a minified mask's runs are mostly
    such slivers) and filled as one path whose edges lie on pixel boundaries, which
    covers the same pixels (a hatching pattern as its wide texture, :func:`wide_pattern`,
    when the painter only translates); the
    painter's state (transform, brush origin: the hatching's phase) is unchanged. Any
    other painter (vector, antialiased, rotated) gets one ``fillRect`` per rectangle.
    A test compares the pixels with ``fillRect`` run by run.
    """
    r = np.asarray(rects, dtype=float).reshape(-1, 4)
    t = p.deviceTransform()
    if not r.size or not _pixel_fills(p, t):
        for x, y, w, h in r.tolist():
            p.fillRect(QtCore.QRectF(x, y, w, h), brush)
        return
    m11, m22, tx, ty = t.m11(), t.m22(), t.dx(), t.dy()
    x, y = m11 * r[:, 0] + tx, m22 * r[:, 1] + ty  # QTransform.mapRect's arithmetic
    w, h = m11 * r[:, 2], m22 * r[:, 3]
    x, y = np.where(w < 0, x + w, x), np.where(h < 0, y + h, y)
    w, h = np.abs(w), np.abs(h)
    x1, x2, y1, y2 = _q_round(x), _q_round(x + w), _q_round(y), _q_round(y + h)
    keep = (x1 < x2) & (y1 < y2)  # a rectangle of no pixel row or column fills nothing
    if not keep.any():
        return
    if t.type().value <= QtGui.QTransform.TransformationType.TxTranslate.value:
        brush = wide_pattern(brush)
    p.fillPath(pixel_path(x1[keep], x2[keep], y1[keep], y2[keep], t), brush)


PATTERN_WIDTH = 256  # pixels of a pattern brush's row per tile of its wide texture
_WIDE: dict[tuple[int, int], QtGui.QBrush] = {}


def wide_pattern(brush: QtGui.QBrush) -> QtGui.QBrush:
    """A pattern brush (hatching) as a texture brush of the same pixels,
    :data:`PATTERN_WIDTH` pixels wide: any other brush as it is.

    Qt's raster engine fills a pattern brush as its 8 × 8 texture tiled, blending each
    span in pieces of at most the texture's width: a call per 8 pixels of a hatched
    area (ALiBi's masked triangles on the stage: ~0.3 megapixels a frame). The same
    pattern painted onto a wide transparent texture tiles with the same phase (both
    are placed at the brush origin, and the width is a multiple of 8), so an untransformed
    or translated fill gives the same pixels with ~30 % less blending; a scaled painter
    would scale a texture but not a pattern (the caller keeps the pattern there).
    """
    style = brush.style()
    if (
        not (
            QtCore.Qt.BrushStyle.Dense1Pattern.value
            <= style.value
            <= QtCore.Qt.BrushStyle.DiagCrossPattern.value
        )
        or brush.transform().type() != QtGui.QTransform.TransformationType.TxNone
    ):
        return brush
    key = (style.value, brush.color().rgba())
    wide = _WIDE.get(key)
    if wide is None:
        texture = QtGui.QImage(PATTERN_WIDTH, 8, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        texture.fill(0)
        painter = QtGui.QPainter(texture)
        painter.fillRect(QtCore.QRect(0, 0, PATTERN_WIDTH, 8), QtGui.QBrush(brush.color(), style))
        painter.end()
        wide = _WIDE[key] = QtGui.QBrush(texture)
        PathStats.textures += 1
    return wide


def pixel_path(
    x1: np.ndarray, x2: np.ndarray, y1: np.ndarray, y2: np.ndarray, t: QtGui.QTransform
) -> QtGui.QPainterPath:
    """The union of the device-pixel rectangles ``[x1, x2) × [y1, y2)`` (integral, none
    empty) as a path in the coordinates that ``t`` (scaling and translation) maps to
    the device: the same pixels filled.

    Rectangles that stack, one starting where the one above it ends and all ending at
    the same right edge (or all starting at the same left edge: mirrored), as a causal
    mask's runs in one tile do, are one staircase polygon: two corners a rectangle
    instead of a closed subpath of five points. ALiBi's stage mosaic has ~1000 runs in
    8 tiles: the path had ~5000 points and as many edges for the fill to sort. All
    corners lie on pixel boundaries, so the polygon covers exactly the pixels of the
    rectangles.
    """
    right = _staircases(x2, y1, y2)
    left = _staircases(x1, y1, y2)
    if len(left[1]) < len(right[1]):  # the rows share their left edge
        (order, starts, chain), side, steps = left, x1, x2
    else:
        (order, starts, chain), side, steps = right, x2, x1
    side, steps, y1, y2 = side[order], steps[order], y1[order], y2[order]
    n, count = steps.size, starts.size
    ends = np.append(starts[1:] - 1, n - 1)
    # each staircase: the shared edge's top corner, the other edge of every step (top,
    # bottom), the shared edge's bottom corner; the shared edge closes it
    xs, ys = np.empty(2 * n + 2 * count), np.empty(2 * n + 2 * count)
    first = 2 * np.arange(n) + 2 * chain + 1
    xs[first], ys[first] = steps, y1
    xs[first + 1], ys[first + 1] = steps, y2
    head, tail = 2 * starts + 2 * np.arange(count), 2 * ends + 2 * np.arange(count) + 3
    xs[head], ys[head] = side[starts], y1[starts]
    xs[tail], ys[tail] = side[ends], y2[ends]
    # the corners in the painter's coordinates (the transform maps them back onto pixel
    # boundaries, to within rounding far from any pixel centre)
    xs = (xs - t.dx()) / t.m11()
    ys = (ys - t.dy()) / t.m22()
    if count > MAX_POLYGONS:
        connect = np.ones(xs.size, dtype=np.bool_)
        connect[tail] = False  # each staircase its own closed subpath
        path = pg.arrayToQPath(xs, ys, connect=connect, finiteCheck=False)
    else:
        # a few staircases (one per tile of a causal mosaic): a polygon each, filled
        # in place, then added as a subpath; the same elements as the path pyqtgraph
        # builds through a serialised stream (~0.2 ms for ALiBi's stage mosaic)
        path = QtGui.QPainterPath()
        points = np.column_stack((xs, ys))
        for first, last in zip(head.tolist(), tail.tolist(), strict=True):
            polygon = pg.functions.create_qpolygonf(last - first + 1)
            pg.functions.ndarray_from_qpolygonf(polygon)[:] = points[first : last + 1]
            path.addPolygon(polygon)
        PathStats.polygons += count
    path.setFillRule(QtCore.Qt.FillRule.WindingFill)
    return path


class PathStats:
    """How masked runs' paths were built (tests)."""

    polygons = 0  # staircases added as one polygon each
    textures = 0  # wide pattern textures made (:func:`wide_pattern`)


def _staircases(
    edge: np.ndarray, y1: np.ndarray, y2: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rectangles sharing ``edge`` that stack (each starting where the one before ends):
    ``(order, starts, chain)``: the rectangles in order of edge and top, where each
    staircase starts in that order, and each rectangle's staircase."""
    order = np.lexsort((y1, edge))
    e, top, bottom = edge[order], y1[order], y2[order]
    follows = np.zeros(e.size, dtype=np.bool_)
    follows[1:] = (e[1:] == e[:-1]) & (top[1:] == bottom[:-1])
    chain = np.cumsum(~follows) - 1
    return order, np.flatnonzero(~follows), chain


class ValueRow:
    """The matrices of one shape in a view's grid (side by side or in rows of their
    own): their values print at one size across them, the largest that all of them fit
    (:meth:`CellLayer.value_font`). Word order's A and B weights would otherwise print
    "0.25" and "0.2" at two sizes, and on stage at 1920 x 1080 / 200 % its no-positions
    differences printed their "0"s at 24 pt, two rows above the causal mask's "-0.4" at
    12 pt."""

    def __init__(self) -> None:
        self._members: weakref.WeakSet[CellLayer] = weakref.WeakSet()
        self._shared: float | None = None

    def set_members(self, layers: Iterable[CellLayer]) -> None:
        """The cell layers of the row's matrices (each told its row). The same layers
        again (the view tells its rows on every frame of a drag): nothing to do."""
        layers = list(layers)
        if len(set(layers)) == len(self._members) and all(layer.row is self for layer in layers):
            return  # (a live layer's row is this one only while it is a member)
        for layer in list(self._members):
            if layer not in layers and layer.row is self:
                layer.row = None
                layer.update()
        self._members = weakref.WeakSet(layers)
        for layer in layers:
            if layer.row is not self:
                layer.row = self
                layer.update()

    def shared_pt(self) -> float:
        """The largest size (pt) every matrix of the row that prints its values fits
        (:meth:`CellLayer.best_pt`); the others are repainted when it changed."""
        sizes = [pt for layer in self._members if (pt := layer.best_pt()) is not None]
        shared = min(sizes, default=math.inf)
        if shared != self._shared:
            self._shared = shared
            for layer in self._members:
                layer.update()
        return shared


class CellLayer(ViewOverlay):
    """Values and masked-cell hatching over one heatmap of ``view``.

    Parameters
    ----------
    view
        The plot's view box (the layer's parent: it is clipped to it).
    """

    runs_found = 0  # images whose masked runs were looked for (tests)
    live_skips = 0  # live paints that left the hatching out (tests)
    hatch_paints = 0  # paints that hatched masked runs (tests)

    def __init__(self, view: pg.ViewBox) -> None:
        super().__init__(view, z=5)  # over the data, under tile labels and hover
        self.rect = QtCore.QRectF()  # the image in data coordinates
        self.grid_shape = (0, 0)  # (rows, cols); not ``shape``: QGraphicsItem.shape()
        self._texts: list[tuple[int, int, str, bool]] | None = []  # None: not made yet
        # to make them from: (image, dark text per cell, dark on masked, decimals)
        self._source: tuple[np.ndarray, np.ndarray, bool, int | None] | None = None
        # masked runs, (n, 3) rows of (row, first column, end column), found from
        # ``_run_source`` when first needed (``None`` till then: a live frame does not
        # hatch, so a drag never looks for them); as tuples on demand
        self._runs: np.ndarray | None = np.zeros((0, 3), dtype=np.int64)
        self._run_source: np.ndarray | None = None
        self._run_list: list[tuple[int, int, int]] | None = []
        self._distinct: list[str] = []  # the texts printed, each once (they set the size)
        # legible_cell's, by stage (the grid asks for both on every frame: one kept
        # result made each ask the other's anew)
        self._rooms: dict[bool, tuple[tuple, tuple[float, float]]] = {}
        self.font_pt = 11.0
        self.hatch = QtGui.QColor("#555555")
        self.fill = QtGui.QColor("#c8c8c8")  # masked cells' fill (the image draws it)
        self._static: dict[tuple[str, float], QtGui.QStaticText] = {}
        self._fonts: dict[float, QtGui.QFont] = {}
        self._version = 0  # bumped whenever what is drawn changes (but the view)
        self._cache: tuple[tuple, QtGui.QImage] | None = None
        self._drawn: tuple | None = None  # the key of the picture painted last
        self._layout: tuple[tuple, list] | None = None
        self._chosen: tuple[tuple, QtGui.QFont | None] | None = None  # value_font's
        self._best: tuple[tuple, float | None] | None = None  # best_pt's
        #: the matrices of its grid row, whose values grow together (None: alone)
        self.row: ValueRow | None = None
        #: whether the image last set has masked (±inf) cells, hatched or not
        self.any_masked = False
        #: a live frame (its owner's business, as :attr:`FastImageItem.live`): masked
        #: cells are not hatched on screen where no value is printed (their opaque fill,
        #: drawn by the image, still marks them); ``live_skipped`` says a paint left the
        #: hatching out, for :meth:`set_live` to repaint it once settled
        self.live = False
        self.live_skipped = False

    # ------------------------------------------------------------------ data
    def set_style(self, font_pt: float, hatch: QtGui.QColor) -> None:
        """Value text at ``font_pt`` points at most, hatching in ``hatch``."""
        if (font_pt, hatch.rgba()) != (self.font_pt, self.hatch.rgba()):
            self.font_pt, self.hatch = float(font_pt), QtGui.QColor(hatch)
            self._static.clear()
            self._fonts.clear()
            self._version += 1
            self.update()

    def set_cells(
        self,
        image: np.ndarray,
        rect: QtCore.QRectF,
        colors: np.ndarray | None,
        masked_rgb: tuple[int, int, int],
        decimals: int | None = None,
    ) -> None:
        """Show ``image`` (drawn over ``rect`` in data coordinates) with cell colours
        ``colors`` (``(rows, cols, 3)`` uint8: the text contrasts with them; ``None``:
        no values printed) and masked cells filled with ``masked_rgb``; non-integer
        values printed with ``decimals`` decimals (:func:`format_cell`)."""
        rows, cols = image.shape
        self.rect, self.grid_shape = QtCore.QRectF(rect), (rows, cols)
        self.fill = QtGui.QColor(*masked_rgb)
        # (also when too many runs to hatch; one pass, a sixth of finding the runs)
        # (a Toeplitz view's 2k − 1 values, not its k² cells: see core.toeplitz)
        self.any_masked = has_masked(image)
        # the runs are found when first drawn or asked for (:meth:`_run_array`): a
        # live frame leaves the hatching out and never needs them (ALiBi's stage mosaic:
        # ~0.3 ms a frame of a drag)
        self._runs = None if self.any_masked else np.zeros((0, 3), dtype=np.int64)
        self._run_source, self._run_list = (image if self.any_masked else None), None
        self._texts, self._source = [], None
        if colors is not None and rows <= MAX_CELLS and cols <= MAX_CELLS:
            # the texts are made when first needed: cells too small to print in (a
            # crowded stage) never format them
            masked_dark = bool(dark_text(np.array(masked_rgb, dtype=np.uint8)))
            self._texts = None
            self._source = (image, dark_text(colors), masked_dark, decimals)
        self._version += 1
        self.update()

    @property
    def texts(self) -> list[tuple[int, int, str, bool]]:
        """``(row, col, text, dark)`` of every value to print (``dark``: black text)."""
        if self._texts is None:
            self._texts = self._make_texts()
            self._distinct = sorted({t[2] for t in self._texts})
        return self._texts

    def _make_texts(self) -> list[tuple[int, int, str, bool]]:
        assert self._source is not None
        image, dark, masked_dark, decimals = self._source
        rows, cols = image.shape
        # (each distinct value formatted once, and once for the plot's widths too)
        which, formatted = _formatted(image, decimals)
        darks = np.where(np.isinf(image.ravel()), masked_dark, dark.ravel()).tolist()
        at_row = np.repeat(np.arange(rows), cols).tolist()
        at_col = np.tile(np.arange(cols), rows).tolist()
        return [
            (r, c, text, d)
            for r, c, i, d in zip(at_row, at_col, which, darks, strict=True)
            if (text := formatted[i])
        ]

    @property
    def runs(self) -> list[tuple[int, int, int]]:
        """The masked runs: ``(row, first column, end column)`` per run, rows in order."""
        if self._run_list is None:
            self._run_list = [(r, a, b) for r, a, b in self._run_array().tolist()]
        return self._run_list

    def _run_array(self) -> np.ndarray:
        """The masked runs as an ``(n, 3)`` array (none when there are more than
        :data:`MAX_RUNS`: the fill alone marks them), found once per image.

        Kept as the array: a list of ~2000 tuples for ALiBi's stage mosaic cost ~0.4 ms
        on every frame of a drag, and drawing needs the array."""
        if self._runs is None:
            assert self._run_source is not None
            runs = masked_run_array(self._run_source)
            self._runs = runs[:0] if len(runs) > MAX_RUNS else runs
            self._run_source = None
            CellLayer.runs_found += 1
        return self._runs

    @property
    def masked(self) -> bool:
        """Whether masked runs are hatched."""
        return len(self._run_array()) > 0

    def clear(self) -> None:
        """Nothing to draw (not a small grid, no masked cells)."""
        self.any_masked = False
        if self._texts != [] or self._runs is None or len(self._runs):
            self._texts, self._source = [], None
            self._runs, self._run_source, self._run_list = np.zeros((0, 3), np.int64), None, []
            self._version += 1
            self.update()

    def set_live(self, live: bool) -> None:
        """Live frames (a slider drags) or full quality: see :attr:`live`. Back to full
        quality, a picture whose hatching a live paint left out is painted again."""
        if live == self.live:
            return
        self.live = live
        if not live and self.live_skipped:
            self.live_skipped = False
            self.update()

    # ------------------------------------------------------------------ drawing
    def _font(self, pt: float) -> QtGui.QFont:
        font = self._fonts.get(pt)
        if font is None:
            font = self._fonts[pt] = QtGui.QFont()
            font.setPointSizeF(pt)
        return font

    def value_font(self) -> QtGui.QFont | None:
        """The font values are printed in now, ``None`` when the cells are too small:
        as large as the cells allow (:meth:`best_pt`, up to :data:`VALUE_GROW` times the
        size the UI scale asks for), and no larger than the other matrices of its shape
        allow theirs (:class:`ValueRow`): one size across them."""
        best = self.best_pt()
        if best is None:
            return None
        shared = self.row.shared_pt() if self.row is not None else best
        key = (best, shared, self.font_pt)
        if self._chosen is not None and self._chosen[0] == key:
            return self._chosen[1]
        font = self._font(min(best, shared))
        self._chosen = (key, font)
        return font

    def best_pt(self) -> float | None:
        """The largest size (pt, half points, at most :data:`VALUE_GROW` times
        :attr:`font_pt`) at which the values fit their cells now; ``None`` when none
        prints (none to print, or the cells too small)."""
        if self._texts == []:
            return None
        cw, ch = self.cell_size()
        key = (self._version, cw, ch)
        if self._best is None or self._best[0] != key:
            font = self._choose_font(cw, ch)
            self._best = (key, None if font is None else font.pointSizeF())
        return self._best[1]

    def _choose_font(self, cw: float, ch: float) -> QtGui.QFont | None:
        base = self._font(self.font_pt)
        metrics = QtGui.QFontMetricsF(base)
        em = self.font_pt * metrics.fontDpi() / 72.0
        least = least_pt(self.font_pt)
        high = metrics.capHeight() + HEIGHT_EM * em
        if self.font_pt * min(1.0, ch / high) < least:
            return None  # too low for any text (without making the texts)
        if not self.texts:
            return None
        width, height = value_fit(self._distinct, base)
        scale = min(VALUE_GROW, cw / max(width, 1.0), ch / max(height, 1.0))
        pt = math.floor(self.font_pt * scale * 2) / 2  # half points: few cached sizes
        top = VALUE_GROW * self.font_pt
        # a smaller font is not quite a scaled one (hinting): checked at the size chosen,
        # and a size larger than the scaled estimate where it fits too (as large as the
        # cells allow: ALiBi's toys on stage at 200 % printed 15.5 pt where 16 fit)
        while pt >= least:
            if self._fits(pt, cw, ch):
                while pt + 0.5 <= top and self._fits(pt + 0.5, cw, ch):
                    pt += 0.5
                return self._font(pt)
            pt -= 0.5
        # too small to read: under 6 pt, or under half the size the UI scale asks for
        return None

    def _fits(self, pt: float, cw: float, ch: float) -> bool:
        """Whether the values fit ``cw`` x ``ch`` px cells at ``pt`` (past
        :attr:`font_pt` with :data:`GROWN_GAP_EM` between them)."""
        gap = GROWN_GAP_EM if pt > self.font_pt else GAP_EM
        width, height = value_fit(self._distinct, self._font(pt), gap)
        return width <= cw and height <= ch

    def legible_cell(self, stage: bool = False) -> tuple[float, float]:
        """The smallest cell (width, height in px) in which the values print
        (:func:`legible_cell`), on ``stage`` at :func:`stage_value_pt` or more; ``(0, 0)``
        when there are none to print."""
        if self._texts == [] or not self.texts:
            return 0.0, 0.0
        key = (self._version, self.font_pt, stage)
        room = self._rooms.get(stage)
        if room is None or room[0] != key:
            at_least = stage_value_pt(self.font_pt) if stage else 0.0
            room = self._rooms[stage] = (key, legible_cell(self._distinct, self.font_pt, at_least))
        return room[1]

    def cell_size(self) -> tuple[float, float]:
        """Width and height of one cell in view-box pixels."""
        rows, cols = self.grid_shape
        if rows == 0 or cols == 0:
            return 0.0, 0.0
        area = self.view.childGroup.transform().mapRect(self.rect)
        return abs(area.width()) / cols, abs(area.height()) / rows

    def shown(self) -> list[tuple[str, QtCore.QRectF]]:
        """``(text, cell rectangle in view-box pixels)`` of every value printed now."""
        if self.value_font() is None:
            return []
        return [(text, self._cell_rect(r, c)) for r, c, text, _dark in self.texts]

    def _cell_rect(self, row: int, col: int) -> QtCore.QRectF:
        rows, cols = self.grid_shape
        dx, dy = self.rect.width() / cols, self.rect.height() / rows
        cell = QtCore.QRectF(self.rect.left() + col * dx, self.rect.top() + row * dy, dx, dy)
        return self.view.childGroup.transform().mapRect(cell)

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        if self._texts == []:
            if not self.any_masked:
                return
            if self.live and pixel_translation(p) is not None:
                # a live frame on screen: hatching only, left out till settled (the
                # masked cells keep their fill; exports and vector output hatch)
                self.live_skipped = True
                CellLayer.live_skips += 1
                return
            if not self.masked:
                return
        tr = self.view.childGroup.transform()
        area = tr.mapRect(self.rect).normalized().intersected(self.boundingRect())
        if area.isEmpty():
            return
        font = self.value_font()
        if pixel_translation(p) is None:  # vector or scaled output (exports): draw as is
            self._draw(p, tr, font)
            return
        # On screen, what is drawn is kept as an image of the visible cells and redrawn
        # only when the cells, their values or their size on screen change: every other
        # repaint of the plot (hover, a neighbour's update) is one blit. A picture
        # painted for the first time is drawn straight onto the screen when that gives
        # the same pixels (:meth:`_draw_direct`).
        ratio = p.device().devicePixelRatioF() or 1.0
        key = (
            self._version,
            area.left(),
            area.top(),
            area.width(),
            area.height(),
            tr.m11(),
            tr.m22(),
            tr.dx(),
            tr.dy(),
            None if font is None else font.pointSizeF(),
            ratio,
        )
        if self._cache is None or self._cache[0] != key:
            if key != self._drawn and self._paints_direct(p, font, ratio):
                # a new picture (a slider moved: every frame of a drag is one) is drawn
                # straight onto the screen as the image would have put it there; it is
                # kept as an image only when painted again unchanged
                self._drawn = key
                self._draw_direct(p, tr, area)
                return
            self._drawn = key
            image = QtGui.QImage(
                max(1, math.ceil(area.width() * ratio)),
                max(1, math.ceil(area.height() * ratio)),
                QtGui.QImage.Format.Format_ARGB32_Premultiplied,
            )
            image.setDevicePixelRatio(ratio)
            image.fill(0)
            painter = QtGui.QPainter(image)
            painter.setRenderHints(p.renderHints())
            painter.translate(-area.left(), -area.top())
            self._draw(painter, tr, font)
            painter.end()
            self._cache = (key, image)
        p.drawImage(area.topLeft(), self._cache[1])

    def _paints_direct(self, p: QtGui.QPainter, font: QtGui.QFont | None, ratio: float) -> bool:
        """Whether a new picture can be drawn onto ``p`` as the same pixels as its cached
        image blitted there: hatching only (text antialiased onto a transparent image
        and then blended is not bit for bit the text blended at once), in an opaque
        colour (a translucent one would be blended twice), at device pixel ratio 1."""
        return font is None and self.hatch.alpha() == 255 and ratio == 1.0

    def _draw_direct(self, p: QtGui.QPainter, tr: QtGui.QTransform, area: QtCore.QRectF) -> None:
        """Draw what the cached image of ``area`` would show, straight onto ``p`` (a
        translation onto raster pixels, ratio 1): the image is drawn at ``area``'s
        top-left corner rounded to a device pixel (``drawImage`` at a point rounds it
        like ``qRound``), so the hatching is filled with ``p`` moved by that rounding,
        its pattern in the same phase, and clipped to the image's pixels.

        The cache image (~1600 × 420 pixels for ALiBi's stage mosaic) cost ~0.5 ms a
        frame to clear and blend while a slider moved its cells on every frame.
        """
        device = p.deviceTransform()
        left, top = area.left() + device.dx(), area.top() + device.dy()
        shift_x = float(_q_round(np.array(left))) - left
        shift_y = float(_q_round(np.array(top))) - top
        p.save()
        try:
            p.translate(shift_x, shift_y)
            # the image's pixels (a quarter pixel inside their edges: the same pixels
            # whether Qt rounds a clip rectangle's edges or takes the pixels it touches)
            width, height = max(1, math.ceil(area.width())), max(1, math.ceil(area.height()))
            p.setClipRect(
                QtCore.QRectF(area.left() + 0.25, area.top() + 0.25, width - 0.5, height - 0.5),
                QtCore.Qt.ClipOperation.IntersectClip,
            )
            self._draw(p, tr, None)
        finally:
            p.restore()

    def _draw(self, p: QtGui.QPainter, tr: QtGui.QTransform, font: QtGui.QFont | None) -> None:
        """Hatch the masked runs and print the values (view-box pixels)."""
        rows, cols = self.grid_shape
        dx, dy = self.rect.width() / cols, self.rect.height() / rows
        x0, y0 = self.rect.left(), self.rect.top()
        if self.masked:
            CellLayer.hatch_paints += 1
            brush = QtGui.QBrush(self.hatch, QtCore.Qt.BrushStyle.BDiagPattern)
            fill_rects(p, self._run_rect_array(tr, x0, y0, dx, dy), brush)
        if font is None:
            return
        p.setFont(font)
        # cell centres: the transform scales and translates (no rotation in a view box)
        sx, sy = tr.m11() * dx, tr.m22() * dy
        ox, oy = tr.m11() * x0 + tr.dx() + sx / 2, tr.m22() * y0 + tr.dy() + sy / 2
        point, draw = QtCore.QPointF, p.drawStaticText
        for color, items in self._prepared(font):
            p.setPen(color)
            for c, r, static, half_w, half_h, masked in items:
                corner = point(ox + c * sx - half_w, oy + r * sy - half_h)
                if masked:  # the hatching stops around the text
                    p.fillRect(
                        QtCore.QRectF(corner, static.size()).adjusted(-1, 0, 1, 0), self.fill
                    )
                draw(corner, static)

    def _run_rect_array(
        self, tr: QtGui.QTransform, x0: float, y0: float, dx: float, dy: float
    ) -> np.ndarray:
        """``tr.mapRect(QRectF(x0 + a·dx, y0 + r·dy, (b − a)·dx, dy))`` of every masked
        run as an ``(n, 4)`` array of ``[x, y, w, h]``, worked out for all runs at once:
        Qt's own arithmetic for a scaling transform (the view box's), so the same
        rectangles to the last bit (a test compares them); other transforms map run by
        run."""
        runs = self._run_array()
        r, a, b = runs[:, 0].astype(float), runs[:, 1].astype(float), runs[:, 2].astype(float)
        x, y, w = x0 + a * dx, y0 + r * dy, (b - a) * dx
        h = np.full_like(x, dy)
        if tr.type().value > QtGui.QTransform.TransformationType.TxScale.value:
            mapped = [
                (lambda m: [m.x(), m.y(), m.width(), m.height()])(tr.mapRect(QtCore.QRectF(*vals)))
                for vals in np.column_stack([x, y, w, h]).tolist()
            ]
            return np.array(mapped, dtype=float).reshape(-1, 4)
        m11, m22, tx, ty = tr.m11(), tr.m22(), tr.dx(), tr.dy()
        mx, my = m11 * x + tx, m22 * y + ty
        mw, mh = m11 * w, m22 * h
        flip_w, flip_h = mw < 0, mh < 0
        mw, mh = np.abs(mw), np.abs(mh)
        mx, my = np.where(flip_w, mx - mw, mx), np.where(flip_h, my - mh, my)
        return np.column_stack([mx, my, mw, mh])

    def _prepared(self, font: QtGui.QFont) -> list[tuple[QtGui.QColor, list[tuple]]]:
        """The texts laid out in ``font``, grouped by colour: ``(colour, [(col, row,
        static text, half width, half height, masked), ...])`` (cached)."""
        pt = font.pointSizeF()
        key = (self._version, pt)
        if self._layout is not None and self._layout[0] == key:
            return self._layout[1]
        groups: dict[bool, list[tuple]] = {True: [], False: []}
        for r, c, text, dark in self.texts:
            static = self._static.get((text, pt))
            if static is None:
                static = self._static[text, pt] = QtGui.QStaticText(text)
                static.setTextFormat(QtCore.Qt.TextFormat.PlainText)
                static.prepare(QtGui.QTransform(), font)
            size = static.size()
            groups[dark].append(
                (c, r, static, size.width() / 2, size.height() / 2, text == MASKED_TEXT)
            )
        black, white = QtGui.QColor(0, 0, 0), QtGui.QColor(255, 255, 255)
        prepared = [(black, groups[True]), (white, groups[False])]
        self._layout = (key, prepared)
        return prepared


class MaskedKey(QtWidgets.QGraphicsWidget):
    """The key of masked cells under a heatmap's colour bar: a hatched swatch, "−∞"
    and "masked" below it.

    Parameters
    ----------
    font, color
        The key's text font and colour.
    fill, hatch
        The swatch's fill and hatching (as the masked cells are drawn).
    """

    def __init__(
        self, font: QtGui.QFont, color: QtGui.QColor, fill: QtGui.QColor, hatch: QtGui.QColor
    ) -> None:
        super().__init__()
        self.key_font, self.key_color = QtGui.QFont(font), QtGui.QColor(color)
        self.fill, self.hatch = QtGui.QColor(fill), QtGui.QColor(hatch)
        metrics = QtGui.QFontMetricsF(self.key_font)
        self.line = metrics.height()
        self.swatch = round(self.line)
        # clear of the colour bar's last tick label, centred on the bar's end above
        self.top = round(0.7 * self.line)
        # the content is right-aligned under the colour bar and may reach left of it
        # (into the gap by the data) rather than widen the bar's column
        self.content_width = max(
            self.swatch + 4 + metrics.horizontalAdvance(MASKED_TEXT),
            metrics.horizontalAdvance("masked"),
        )
        size = QtCore.QSizeF(self.swatch + 4, self.top + 2 * self.line + 2)
        self.setMinimumSize(size)
        self.setPreferredSize(size)
        self.setMaximumSize(1e6, size.height())  # as wide as the bar and its labels
        self.setToolTip("masked cells (−∞): no attention to these keys")

    def boundingRect(self) -> QtCore.QRectF:
        rect = super().boundingRect()
        left = min(0.0, rect.width() - self.content_width - 4)
        return QtCore.QRectF(left, 0, rect.width() - left, rect.height())

    def content_rect(self) -> QtCore.QRectF:
        """What the key draws (swatch, "−∞", "masked"), in its own coordinates: below
        the room it keeps clear of the colour bar's last tick label."""
        x0 = min(2.0, self.size().width() - self.content_width - 2)
        return QtCore.QRectF(x0, self.top + 1, self.content_width, 2 * self.line)

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        content = self.content_rect()
        top, x0 = content.top(), content.left()
        swatch = QtCore.QRectF(x0, top + (self.line - self.swatch) / 2, self.swatch, self.swatch)
        p.fillRect(swatch, self.fill)
        p.fillRect(swatch, QtGui.QBrush(self.hatch, QtCore.Qt.BrushStyle.BDiagPattern))
        p.setPen(self.key_color)
        p.drawRect(swatch)
        p.setFont(self.key_font)
        left = QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter
        p.drawText(QtCore.QRectF(swatch.right() + 4, top, 200, self.line), int(left), MASKED_TEXT)
        p.drawText(QtCore.QRectF(x0, top + self.line, 200, self.line), int(left), "masked")
