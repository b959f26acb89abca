"""A ``PlotCurveItem`` that strokes aliased lines of any width several times faster.

Qt's raster engine strokes a *wide* aliased pen by building an outline polygon for every
segment and filling it: about 0.8 ms for one 512-point curve of width 2 to 6, most of a
frame for the six curves of the sinusoidal view, and tens of ms for a dense wave. One-pixel
cosmetic lines take a fast line-drawing path instead (about 30× faster).
:class:`FastCurveItem` draws a solid, aliased, cosmetic curve of width ``w`` > 1 on a
raster device as a few one-pixel strokes of the same path, offset in device pixels:

* its *steep* segments (more rows than columns) are covered row by row, so they get
  ``n_s`` strokes side by side, offset horizontally by ``k − (n_s − 1)/2``; a segment at
  angle θ to the horizontal is ``w / sin θ`` pixels wide in a row, and ``n_s`` is that
  width averaged over the curve's steep segments (``w · Σ length / Σ rows``), rounded;
* its *flat* segments likewise get ``n_f`` strokes offset vertically.

A curve that is almost all steep (dense waves) or almost all flat (smooth trends), by
screen length, needs only one family of strokes; its few segments of the other kind
(≤ 2 % of its length, e.g. the tips of a dense wave) are then one pixel thick. The
strokes cover the wide pen's pixels to within one pixel (a test compares them for
widths 2, 3 and 4.5). Everything else (widths ≤ 1, antialiased, dashed, fills, rotated
views, vector export) is drawn by pyqtgraph as before.

Its :meth:`~FastCurveItem.dataBounds` gives pyqtgraph's result for finite data from
plain ``min``/``max``, and for data with NaN gaps from NaN-skipping reductions
(pyqtgraph's ``nanmin`` runs under a warnings context: most of the auto-range time of a
plot of a few curves).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.render.pg_compat import (
    device_transform,
    is_exporting,
    keep_rect,
    kept_rect,
    line_segments,
    stroke_segments,
    strokes_segments,
)
from gui.render.raster import on_raster

#: a live frame strokes a wider pen this many pixels wide (the window's 2-px pens are
#: drawn as they are): on the stage (3 px at 150 %, 4 px at 200 %) the offset strokes
#: were most of a frame's paint, 3-5 one-pixel strokes a curve; the curves are drawn
#: at their own width again once settled (``live_cut``)
LIVE_WIDTH = 2.0
#: a dashed pen wider than 1 px is stroked segment by segment where the curve's segments
#: are on average at least this many dash periods long on screen (each segment then shows
#: whole dashes of its own). Qt strokes a dashed wide path as one outline of every dash:
#: RoPE's YaRN and Llama 3.1 scores (2046 points zigzagging over a band) took 1.5-2 s a
#: paint on the stage, ~10 ms as segments; a smooth curve's short segments keep the path
#: (its dashes run on along it)
DASH_SEGMENT_PERIODS = 2.0
MINOR_SHARE = 0.02  # the other direction's share of the length below which it is ignored
NEAR_WHOLE = 0.2  # a band this little above a whole number of pixels is rounded down


def _spread(band: float) -> list[float]:
    """Offsets of one-pixel strokes that together cover ``band`` pixels: ``ceil(band)``
    strokes evenly spaced (at most one pixel apart) over ``band − 1``, centred on 0;
    a band at most :data:`NEAR_WHOLE` above a whole number of pixels gets that many
    strokes one pixel apart (a stroke less to draw; the line a little thinner).
    A stroke at offset ``o`` fills the pixel row ``floor(y + o)``; so do the wide
    pen's rows ``y − band/2 … y + band/2`` on average over the fractional part of y."""
    n = math.ceil(band - 1e-9)
    if n < 1:
        n = 1
    if n > 1 and band - (n - 1) <= NEAR_WHOLE:  # e.g. a dense 2-px wave's 2.1: 2 strokes
        return [k - (n - 2) / 2 for k in range(n - 1)]
    if n == 1:
        return [0.0]
    span = band - 1.0
    return [-span / 2 + span * k / (n - 1) for k in range(n)]


def _offsets(band: float, horizontal: bool) -> tuple[tuple[float, float], ...]:
    """The device offsets ``(dx, dy)`` of :func:`_spread`'s strokes for ``band``, side
    by side along x (``horizontal``: a steep family's) or along y."""
    if horizontal:
        return tuple([(o, 0.0) for o in _spread(band)])
    return tuple([(0.0, o) for o in _spread(band)])


class FastCurveItem(pg.PlotCurveItem):
    """``PlotCurveItem`` with a fast path for solid aliased cosmetic pens wider than 1 px."""

    _extent_cache: tuple[tuple | None, tuple | None] = (None, None)  # (array, (min, max))
    _nan_extent_cache: tuple[tuple | None, tuple | None] = (None, None)  # NaN skipped
    #: ``(what they were found for, bounds)`` of :meth:`whole_bounds`
    _whole: tuple[tuple, tuple] | None = None
    _padding: tuple | None = None  # (see _pens)
    _pen_known: tuple | None = None  # (see _pen_facts)
    _segments_known: tuple | None = None  # (see _segmented)
    _lines_known: tuple | None = None  # (see _line_args)
    #: ``(what they were found for, strokes)`` of :meth:`_strokes`
    _stroke_cache: tuple | None = None
    #: ``(device_transform(), strokes, pen, y bounds)`` of the last paint, where it drew
    #: offset strokes of the whole curve (:meth:`update_changed_end`)
    _painted: tuple | None = None
    changed_end_updates = 0  # new data told as a repaint of their end (tests)
    #: a curve of at most this many points is stroked with Qt's own wide pen where the
    #: offset strokes would be used (0: never). For a few points (the clock's arcs and
    #: trails, an arrow's shaft) Qt's stroke costs less than finding and drawing the
    #: offset strokes; pyqtgraph draws it, so its pixels are the wide pen's own.
    wide_pen_points = 0
    wide_pen_paints = 0  # paints stroked with the wide pen (tests)
    dash_segment_paints = 0  # dashed paints stroked segment by segment (tests)
    #: a live frame (its owner's business): a curve whose other family is at most
    #: :data:`MINOR_SHARE` of its length then leaves that family out at any width (the
    #: tips of a noisy curve, e.g. the learned view's random rows: half the strokes'
    #: cost), and a pen wider than :data:`LIVE_WIDTH` is stroked that wide. ``live_cut``
    #: says it did, so that its owner repaints it once settled.
    live = False
    live_cut = False
    pixel_sizes_found = 0  # pixel sizes worked out, of all curves (tests)
    extents_measured = 0  # data extents computed (min/max over an array; tests)
    simple_strokes = 0  # stroke sets found without numpy's general pass (tests)

    def dataBounds(
        self,
        ax: int,
        frac: float = 1.0,
        orthoRange: tuple[float, float] | None = None,
    ) -> tuple:
        """pyqtgraph's data bounds; those of all the data kept (:meth:`whole_bounds`)."""
        if frac >= 1.0 and orthoRange is None and (ax == 0 or ax == 1):
            whole = self.whole_bounds()
            bounds = whole[0] if ax == 0 else whole[1]
            if bounds is not None:
                return bounds
        return super().dataBounds(ax, frac, orthoRange)

    def whole_bounds(
        self,
    ) -> tuple[tuple[float, float] | None, tuple[float, float] | None, float]:
        """``(x, y, padding)``: :meth:`dataBounds` of each axis for all the data
        (``frac`` 1, no orthogonal range), ``None`` for an axis whose bounds are left to
        pyqtgraph (no data, only non-finite values, a fill level on y, a non-cosmetic
        pen: its general path), and :meth:`pixelPadding`.

        Worked out once for the arrays shown, with their pens, fill level and click
        width, and kept while the item shows the same objects (``setData`` stores new
        arrays, ``setPen`` new pens): pyqtgraph forgets its bounds with every change of
        the view, and a drag's frame asked for them anew at each of its holds,
        auto-ranges and bounding rects, five times a curve. For finite data the bounds
        are plain ``min``/``max``; for data with NaN gaps, NaN-skipping reductions
        (pyqtgraph's ``nanmin`` runs under a warnings context); infinite values go to
        pyqtgraph."""
        opts = self.opts
        x, y = self.xData, self.yData
        pen, shadow, fill = opts["pen"], opts["shadowPen"], opts["fillLevel"]
        known = self._whole
        if known is not None:
            key = known[0]
            if (
                key[0] is x
                and key[1] is y
                and key[2] is pen
                and key[3] is shadow
                and key[4] is fill
                and key[5] is self.clickable
                and key[6] is opts["mouseWidth"]
            ):
                return known[1]
        pens = self._pens()
        plain = pens[5]
        bounds = (
            self._finite_extent(0) if plain else None,
            self._finite_extent(1) if plain and fill is None else None,
            pens[4],
        )
        self._whole = ((x, y, pen, shadow, fill, self.clickable, opts["mouseWidth"]), bounds)
        return bounds

    def padding(self) -> float:
        """:meth:`pixelPadding`, kept for the pen and shadow pen objects, the click
        flag and width it was found for."""
        return self._pens()[4]

    def cosmetic_padding(self) -> float | None:
        """:meth:`padding` where the pen and shadow pen are cosmetic (or none), so that
        the data bounds are the data's own; ``None`` otherwise."""
        pens = self._pens()
        return pens[4] if pens[5] else None

    def _pens(self) -> tuple:
        """``(pen, shadow pen, clickable, mouse width, pixelPadding(), both pens
        cosmetic or None)``, kept while the item has these pens, flag and width."""
        opts = self.opts
        pen, shadow = opts["pen"], opts["shadowPen"]
        known = self._padding
        if (
            known is None
            or known[0] is not pen
            or known[1] is not shadow
            or known[2] is not self.clickable
            or known[3] is not opts["mouseWidth"]
        ):
            cosmetic = (pen is None or pen.isCosmetic()) and (shadow is None or shadow.isCosmetic())
            known = (pen, shadow, self.clickable, opts["mouseWidth"], self.pixelPadding(), cosmetic)
            self._padding = known
        return known

    def _finite_extent(self, ax: int) -> tuple[float, float] | None:
        """:meth:`extent` of axis ``ax``, NaN skipped, where both ends are finite."""
        data = self.xData if ax == 0 else self.yData
        if data is None or not data.size:
            return None
        bounds = self.extent(ax)
        lo, hi = bounds
        if lo != lo or hi != hi:
            # NaN gaps (ALiBi's heads as one NaN-separated line, Compare's learned
            # rows past the training length): pyqtgraph's nanmin/nanmax are these
            # NaN-skipping reductions under a warnings context (~0.06 ms a call)
            bounds = self.extent(ax, skip_nan=True)
            lo, hi = bounds
        if lo - lo == 0.0 and hi - hi == 0.0:  # both finite (inf − inf, NaN: NaN)
            return bounds
        return None  # (all NaN, or infinite values: pyqtgraph's rules)

    def boundingRect(self) -> QtCore.QRectF:
        """pyqtgraph's bounding rect: the data bounds grown by the pen's padding in
        pixels (:meth:`pixel_size`). pyqtgraph forgets it with new data and with every
        view change, so each frame of a drag computes every curve's twice; its pixel
        size, through caches that return fresh ``Point`` copies, was half of that."""
        rect = kept_rect(self)
        if rect is not None:
            return rect
        x, y, pad = self.whole_bounds()
        x_lo, x_hi = self.dataBounds(ax=0) if x is None else x
        if x_lo is None or x_hi is None:
            return QtCore.QRectF()
        y_lo, y_hi = self.dataBounds(ax=1) if y is None else y
        if y_lo is None or y_hi is None:
            return QtCore.QRectF()
        px = py = 0.0
        if pad > 0:
            px, py = self.pixel_size()
            px *= pad
            py *= pad
        rect = QtCore.QRectF(x_lo - px, y_lo - py, (2 * px) + x_hi - x_lo, (2 * py) + y_hi - y_lo)
        keep_rect(self, rect)
        return rect

    def pixel_size(self) -> tuple[float, float]:
        """Lengths in item coordinates of a device pixel along x and across it: the
        lengths of pyqtgraph's ``pixelVectors()`` (the same Qt arithmetic), 0 where it
        has none (no view yet, a degenerate transform) or they overflow."""
        global _LAST_PIXEL_SIZE
        dt = device_transform(self)
        if dt is None:
            return 0.0, 0.0
        # the curves of a view share their device transform: the last one's lengths
        # (QTransform's == compares every entry exactly)
        last = _LAST_PIXEL_SIZE
        if last is not None and last[0] == dt:
            return last[1]
        # the lengths depend on the linear part alone, the same for every curve of a
        # view (a frame moving many curves asked for each one's)
        key = (dt.m11(), dt.m12(), dt.m21(), dt.m22())
        device = QtGui.QTransform(dt)  # (_pixel_size changes dt)
        known = _PIXEL_SIZES.get(key)
        if known is None:
            if len(_PIXEL_SIZES) >= 256:
                _PIXEL_SIZES.clear()
            FastCurveItem.pixel_sizes_found += 1
            known = _PIXEL_SIZES[key] = self._pixel_size(dt)
        _LAST_PIXEL_SIZE = (device, known)
        return known

    @staticmethod
    def _pixel_size(dt: QtGui.QTransform) -> tuple[float, float]:
        # (translation left out, as pyqtgraph does: it only loses precision)
        dt.setMatrix(dt.m11(), dt.m12(), 0, dt.m21(), dt.m22(), 0, 0, 0, 1)
        view_dir = dt.map(QtCore.QLineF(QtCore.QPointF(0, 0), QtCore.QPointF(1, 0)))
        if view_dir.length() == 0:
            return 0.0, 0.0
        unit = view_dir.unitVector()
        inverse = pg.functions.invertQTransform(dt)
        lengths = []
        for line in (unit, unit.normalVector()):
            end = inverse.map(line).p2()
            try:
                lengths.append(math.hypot(end.x(), end.y()))
            except OverflowError:
                lengths.append(0.0)
        return lengths[0], lengths[1]

    def extent(self, ax: int, *, skip_nan: bool = False) -> tuple[float, float]:
        """``(min, max)`` of the x (``ax`` 0) or y data as given (NaN when it has NaN;
        with ``skip_nan``, of its values that are not NaN: NaN when all are), kept for
        as long as the item shows the same arrays.

        pyqtgraph forgets its data bounds whenever the view's range or size changes
        (``viewTransformChanged``), which a plot's x range does on every frame of a
        ``seq_len`` drag: the bounds are then asked for again by the next paint's
        bounding rect and auto-range. ``setData`` stores new arrays (a new view of the
        data even for the same buffer), so a kept extent is never stale.
        """
        data = self.xData if ax == 0 else self.yData
        caches = self._nan_extent_cache if skip_nan else self._extent_cache
        known = caches[ax]
        if known is not None and known[0] is data:
            return known[1]
        if skip_nan:  # (numpy's nanmin/nanmax are these reductions)
            extent = (float(np.fmin.reduce(data)), float(np.fmax.reduce(data)))
        else:  # (what ndarray.min and max reduce with, without their wrappers)
            extent = few_extent(data) or (
                float(np.minimum.reduce(data)),
                float(np.maximum.reduce(data)),
            )
        x_known, y_known = caches
        caches = ((data, extent), y_known) if ax == 0 else (x_known, (data, extent))
        if skip_nan:
            self._nan_extent_cache = caches
        else:
            self._extent_cache = caches
        self.extents_measured += 1
        return extent

    def _wide_line_pen(self, p: QtGui.QPainter) -> QtGui.QPen | None:
        """The item's pen where nothing but a line wider than one pixel is drawn, on
        ``p``'s raster device and not for an export (no fill, shadow, steps, composition
        or antialiasing; a cosmetic pen); ``None`` otherwise (pyqtgraph's own path)."""
        opts = self.opts
        pen = opts["pen"]
        if (
            is_exporting(self)
            or opts["antialias"]
            or opts["fillLevel"] is not None
            or opts["shadowPen"] is not None
            or opts["compositionMode"] is not None
            or opts["stepMode"]
            or not self._pen_facts(pen)[1]
            or not on_raster(p)
        ):
            return None
        return pen

    def _pen_facts(self, pen: object) -> tuple[object, bool, QtGui.QPen | None, float]:
        """``(pen, wide, thin, width)``: whether ``pen`` is a cosmetic ``QPen`` wider
        than one pixel, where it is also solid its one-pixel copy (the offset strokes'
        pen; else ``None``), and its width (0 for what is not a wide pen). Kept for the pen object (``setPen`` sets a new one): a
        paint looked at the pen's width, style and cosmetic flag anew."""
        facts = self._pen_known
        if facts is not None and facts[0] is pen:
            return facts
        wide = False
        thin = None
        width = 0.0
        if isinstance(pen, QtGui.QPen) and pen.isCosmetic() and pen.widthF() > 1.0:
            wide = True
            width = pen.widthF()
            if pen.style() == QtCore.Qt.PenStyle.SolidLine:
                thin = QtGui.QPen(pen)
                thin.setWidthF(1.0)
        facts = self._pen_known = (pen, wide, thin, width)
        return facts

    def _fast_pen(self, p: QtGui.QPainter) -> QtGui.QPen | None:
        """The one-pixel pen of the offset strokes, or ``None`` for pyqtgraph's path."""
        pen = self._wide_line_pen(p)
        facts = self._pen_known  # (just looked at for this pen)
        return None if pen is None or facts is None else facts[2]

    def _dashes_by_segment(self, p: QtGui.QPainter) -> bool:
        """Whether a dashed wide pen is stroked as separate segments: the curve's
        segments are at least :data:`DASH_SEGMENT_PERIODS` dash periods long on average
        on ``p``'s raster device (see there), and nothing but the line is drawn."""
        pen = self._wide_line_pen(p)
        if pen is None or pen.style() in (
            QtCore.Qt.PenStyle.SolidLine,
            QtCore.Qt.PenStyle.NoPen,
        ):
            return False
        device = p.deviceTransform()
        if device.isRotating() or self.xData is None or len(self.xData) < 2:
            return False
        pattern = pen.dashPattern()  # (in pen widths)
        period = sum(pattern) * pen.widthF()
        if not period > 0:
            return False
        lengths = np.hypot(np.diff(self.xData) * device.m11(), np.diff(self.yData) * device.m22())
        lengths = lengths[np.isfinite(lengths)]
        return bool(lengths.size) and float(lengths.mean()) >= DASH_SEGMENT_PERIODS * period

    def _strokes(self, device: QtGui.QTransform, width: float) -> _Strokes | None:
        """The one-pixel strokes for the current view: ``(path, offsets)`` pairs, the
        path ``None`` for the whole curve (``None``: a view this cannot stroke, e.g.
        rotated; pyqtgraph draws it). Cached for the data and the view's scale. A live
        frame strokes a pen wider than :data:`LIVE_WIDTH` that wide (``live_cut``)."""
        if self.live and width > LIVE_WIDTH:
            width = LIVE_WIDTH
            self.live_cut = True
        x, y = self.xData, self.yData
        sx, sy, turned = device.m11(), device.m22(), device.isRotating()  # (> TxScale)
        cached = self._stroke_cache
        if cached is not None:
            key = cached[0]
            if (
                key[0] is x
                and key[1] is y
                and key[2] == sx
                and key[3] == sy
                and key[4] == turned
                and key[5] == width
                and key[6] == self.live
            ):
                return cached[1]
        strokes = None if turned else self._simple_strokes(device, width)
        if strokes is None:
            strokes = self._compute_strokes(device, width)
        else:
            self.simple_strokes += 1
        self._stroke_cache = ((x, y, sx, sy, turned, width, self.live), strokes)
        return strokes

    def _simple_strokes(self, device: QtGui.QTransform, width: float) -> _Strokes | None:
        """:meth:`_compute_strokes`'s result for a line of one direction, found without
        its dozens of numpy calls (each costs more than its work on a short line, and a
        view has several such lines: Compare's ``train_len`` markers, its level lines
        of "defined for which positions"): a single finite segment, or a level line
        (every y the same finite value) whose x increase. ``None``: the general pass.
        The same arithmetic on the same values, so the same offsets (a test compares).
        """
        x, y = self.xData, self.yData
        n = x.size
        if device.isRotating() or x.dtype != np.float64 or y.dtype != np.float64 or n < 2:
            return None
        if n == 2:  # one segment: steep or flat, no turns
            dx = abs(float(x[1]) - float(x[0])) * abs(device.m11())
            dy = abs(float(y[1]) - float(y[0])) * abs(device.m22())
            length = float(np.hypot(dx, dy))
            if not math.isfinite(length):
                return None
            steep = dy > dx
            total = dy if steep else dx
            if total == 0.0:  # a dot
                return None
            band = width * length / total
            return ((None, _offsets(band, steep)),)
        low, high = self.extent(1)
        if low != high or not math.isfinite(low):
            return None
        step_x = x[1:] - x[:-1]
        if not np.logical_and.reduce(step_x > 0.0):
            return None  # (x turning back: tips; NaN)
        cols = float(np.add.reduce(step_x * abs(device.m11())))  # |dy| is 0: every segment flat
        if not math.isfinite(cols) or cols == 0.0:
            return None
        band = width * cols / cols  # (the general pass: width · flat length / columns)
        offsets = _offsets(band, False)
        if self.live and n > 2:
            # a live frame strokes the line from its first point to its last, one
            # segment instead of hundreds (Compare's "defined for which positions":
            # five 512-point lines a frame); the same row, its ends' pixels to within
            # one of the whole path's: drawn whole again once settled
            self.live_cut = True
            line = QtGui.QPainterPath(QtCore.QPointF(float(x[0]), low))
            line.lineTo(QtCore.QPointF(float(x[-1]), low))
            return ((line, offsets),)
        return ((None, offsets),)

    def _compute_strokes(self, device: QtGui.QTransform, width: float) -> _Strokes | None:
        x, y = self.xData, self.yData
        if device.isRotating():
            return None
        if x.size < 2:
            return ((None, _offsets(width, True)),)
        # (slicing rather than np.diff, no nan_to_num, ufunc reductions rather than the
        # array methods: their call overhead is more than their work for a few hundred
        # points, several curves a frame)
        step_x, step_y = x[1:] - x[:-1], y[1:] - y[:-1]  # signed: where the curve turns
        sx, sy = device.m11(), device.m22()
        dx = np.abs(step_x) * (-sx if sx < 0 else sx)  # (abs without the call)
        dy = np.abs(step_y) * (-sy if sy < 0 else sy)
        length = np.hypot(dx, dy)  # NaN where either is (inf − inf: NaN too)
        finite = np.isfinite(length)
        all_finite = bool(np.logical_and.reduce(finite))
        steep = dy > dx
        if not all_finite:
            steep &= finite
            flat = finite & ~steep
        else:
            flat = ~steep
        add = np.add.reduce
        rows, cols = float(add(dy[steep])), float(add(dx[flat]))
        if not (rows - rows == 0.0 and cols - cols == 0.0):  # (both finite)
            return None
        if rows + cols == 0.0:  # all points at one pixel: a dot
            return ((None, _offsets(width, True)),)
        steep_length, flat_length = float(add(length[steep])), float(add(length[flat]))

        # Strokes side by side, spread over as many pixels as the wide line is wide in a
        # row (steep segments) or a column (flat ones), on average over those segments:
        # (total, segments, offsets, horizontal) of each family
        steep_band = width * steep_length / rows if rows > 0.0 else width
        flat_band = width * flat_length / cols if cols > 0.0 else width
        steep_family = (rows, steep, _offsets(steep_band, True), True)
        flat_family = (cols, flat, _offsets(flat_band, False), False)
        major, minor = (steep_family, flat_family) if rows >= cols else (flat_family, steep_family)
        out: list[tuple[QtGui.QPainterPath | None, tuple[tuple[float, float], ...]]] = [
            (None, major[2])
        ]
        if minor[0] <= MINOR_SHARE * major[0]:
            if width <= 2.0:
                return tuple(out)  # a thin line's few other segments: one pixel thick
            if self.live:
                self.live_cut = True  # (and its tips' overhang, till settled)
                return tuple(out)
        # The other family strokes only its own segments and the tips where the curve
        # turns back along its offsets (a wide pen's joins stick out there): a dense
        # wave's tips are short pieces, its whole path thousands of rows.
        offsets = tuple([o for o in minor[2] if o not in major[2]])
        if not offsets:
            return tuple(out)
        along = step_y if minor[3] is False else step_x
        path = _sub_path(
            x,
            y,
            minor[1],
            _turns(along, None if all_finite else finite),
            length,
            width,
        )
        if path is not None:
            out.append((path, offsets))
        return tuple(out)

    def paint(self, p: QtGui.QPainter, opt: object, widget: object) -> None:
        self._painted = None
        data = self.xData
        if data is None or data.size == 0:
            return
        wide = self._wide_line_pen(p)  # (its facts just looked at: _pen_known)
        facts = self._pen_known
        pen = None if wide is None or facts is None else facts[2]  # (_fast_pen)
        if pen is not None and data.size <= self.wide_pen_points:
            self.wide_pen_paints += 1
            self._stroke_wide(p)  # (pyqtgraph's paint, less its other cases)
            return
        strokes = (
            None if pen is None or facts is None else self._strokes(p.deviceTransform(), facts[3])
        )
        if pen is None and self._dashes_by_segment(p):
            self.dash_segment_paints += 1
            stroke_segments(self, p)
            return
        if pen is None or strokes is None:
            super().paint(p, opt, widget)
            return
        p.setRenderHint(_ANTIALIAS, False)
        p.setPen(pen)
        base = p.transform()
        if all([path is None for path, _offsets in strokes]):  # (see update_changed_end)
            self._painted = (device_transform(self), strokes, wide, self.whole_bounds()[1])
        device = p.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        try:
            for path, offsets in strokes:
                drawn = self.getPath() if path is None else path
                for dx, dy in offsets:  # device-pixel offsets: post-multiplied translation
                    p.setTransform(base * _translation(dx / ratio, dy / ratio))
                    p.drawPath(drawn)
        finally:
            p.setTransform(base)

    def update_changed_end(self, old_x: object, old_y: object, old_connect: object) -> bool:
        """Tell the scene of the data just stored, which replaced ``old_x``, ``old_y``
        (connected by ``old_connect``), by repainting only their end where they differ
        from those only there; whether it did (else the caller tells the scene as
        ``setData`` does: the whole line repainted, its view's auto-range queued).

        A ``seq_len`` drag's live frame adds or removes a few points at the end of
        each line and holds the x range (:meth:`PlotViewBox.hold_frame`): the
        sinusoidal view's six dense waves repainted their whole plot (~800 × 240 px on
        the stage: the strokes, grid, background) for a few new segments each. Where
        the pixels of the points both data share cannot change, the region of the
        segments that changed, grown by the strokes' reach, is repainted instead:

        * a live frame (settled frames repaint whole); old and new data finite, all
          connected, plain 1-D floats, their first ``min(len)`` points equal;
        * the last paint drew offset strokes (:meth:`paint`) through the device
          transform the item has now, and the new data get the same strokes there
          (the same offsets, all of them of the whole curve: no sub-path of tips);
        * the view holds its x range and the line's y bounds are as they were, so
          that its auto-range would keep the view's ranges (it is not queued).

        The region is marked on the view box, not on the line: Qt repaints an item's
        region only within its bounding rect, which no longer holds removed points.
        A range that moves later in the frame moves the view's children, which Qt
        then repaints whole."""
        painted = self._painted
        x, y = self.xData, self.yData
        opts = self.opts
        if (
            not self.live
            or painted is None
            or type(old_x) is not np.ndarray
            or type(old_y) is not np.ndarray
            or old_connect != "all"
            or opts["connect"] != "all"
            or opts["stepMode"]
            or opts["pen"] is not painted[2]
            or x is None
            or y is None
            or x.dtype != np.float64
            or y.dtype != np.float64
            or old_x.dtype != np.float64
            or old_y.dtype != np.float64
            or old_x.ndim != 1
            or old_x.shape != old_y.shape
        ):
            return False
        view = self.getViewBox()
        if not isinstance(view, pg.ViewBox) or not getattr(view, "holding", False):
            return False
        k = min(x.size, old_x.size)
        if k < 2:
            return False
        device, strokes, pen, y_bounds = painted
        now = device_transform(self)  # (the painter's, but for its widget's offset)
        if now is None or now != device or self.whole_bounds()[1] != y_bounds:
            return False  # (y_bounds: None where the view's bounds are pyqtgraph's)
        if not (np.array_equal(x[:k], old_x[:k]) and np.array_equal(y[:k], old_y[:k])):
            return False
        facts = self._pen_facts(pen)
        if self._strokes(device, facts[3]) != strokes:  # (kept for the paint)
            return False
        # the segments from point k - 1 on of the longer data: added or removed
        end_x, end_y = (x, y) if x.size >= old_x.size else (old_x, old_y)
        end_x, end_y = end_x[k - 1 :], end_y[k - 1 :]
        x_lo, x_hi = float(np.minimum.reduce(end_x)), float(np.maximum.reduce(end_x))
        y_lo, y_hi = float(np.minimum.reduce(end_y)), float(np.maximum.reduce(end_y))
        if not math.isfinite(x_hi - x_lo + y_hi - y_lo):
            return False
        # the strokes' reach in device pixels: their offsets, the pixel each covers,
        # its cap's half pixel and a pixel of rounding (2 px were found enough)
        reach = 3.0 + max([max(abs(dx), abs(dy)) for _path, offs in strokes for dx, dy in offs])
        px, py = self.pixel_size()
        if not (px > 0.0 and py > 0.0):
            return False
        region = QtCore.QRectF(
            x_lo - reach * px,
            y_lo - reach * py,
            x_hi - x_lo + 2.0 * reach * px,
            y_hi - y_lo + 2.0 * reach * py,
        )
        FastCurveItem.changed_end_updates += 1
        view.update(self.mapRectToItem(view, region))
        return True

    def _stroke_wide(self, p: QtGui.QPainter) -> None:
        """Stroke the curve with its pen, aliased, as ``PlotCurveItem.paint`` does for a
        curve without fill, shadow pen, composition mode or steps on a raster device:
        as separate segments where pyqtgraph draws them so (an opaque wide solid pen:
        ``drawLines`` of the same lines, kept for the data), else as its path."""
        pen = self.opts["pen"]
        p.setRenderHint(_ANTIALIAS, False)
        p.setPen(pen)
        if self._segmented(pen):
            p.drawLines(*self._line_args())
        else:
            p.drawPath(self.getPath())

    def _segmented(self, pen: QtGui.QPen) -> bool:
        """pyqtgraph's ``_shouldUseDrawLineSegments(pen)``, kept for the pen object and
        the options it reads (a clock frame strokes 17 short arcs and shafts)."""
        opts = self.opts
        known = self._segments_known
        if (
            known is None
            or known[0] is not pen
            or known[1] != opts["segmentedLineMode"]
            or known[2] != opts["antialias"]
        ):
            known = (pen, opts["segmentedLineMode"], opts["antialias"])
            known += (strokes_segments(self, pen),)
            self._segments_known = known
        return known[3]

    def _line_args(self) -> tuple:
        """``drawLines`` arguments of the curve's segments, as pyqtgraph's
        ``_getLineSegments`` gives them: for a finite line of all its points connected
        (no steps), a ``QLineF`` array of the segments ``i → i+1`` built once for the
        arrays shown (pyqtgraph wraps its array anew at every paint, a dozen calls);
        else pyqtgraph's."""
        opts = self.opts
        x, y = self.xData, self.yData
        known = self._lines_known
        if known is not None and known[0] is x and known[1] is y:
            return known[2]
        connect = opts["connect"]
        n = x.size
        if (
            type(connect) is not str
            or connect != "all"
            or not opts["skipFiniteCheck"]
            or opts["stepMode"]
            or n < 2
        ):
            return line_segments(self)  # (not kept: pyqtgraph keeps its own)
        lines = np.empty((n - 1, 4))
        lines[:, 0] = x[:-1]
        lines[:, 2] = x[1:]
        lines[:, 1] = y[:-1]
        lines[:, 3] = y[1:]
        pointer = _wrap(lines.__array_interface__["data"][0], QtCore.QLineF)
        args = (pointer, n - 1)
        self._lines_known = (x, y, args, lines)  # (lines: the memory pointed at)
        return args

    def generatePath(self, x: np.ndarray, y: np.ndarray) -> QtGui.QPainterPath:
        """pyqtgraph's path of the points, for fewer than :data:`ONE_POLYGON` of them
        built without its helpers where it is polygons: all of them connected and
        finite (its ``connect='all'`` without a finite check, as a line of finite
        values has), one polygon (``_arrayToQPath_all``); a line broken by a few
        non-finite points (``connect='finite'``, under 2 % of them: ALiBi's heads as
        one NaN-separated line), a polygon a piece (``_arrayToQPath_finite``, whose
        ``np.split`` took ~190 calls a path)."""
        opts = self.opts
        connect = opts["connect"]
        n = x.size
        if type(connect) is not str or opts["stepMode"] or not 2 <= n < ONE_POLYGON:
            return super().generatePath(x, y)
        if connect == "all" and opts["skipFiniteCheck"]:
            return _polyline(x, y)
        if connect == "finite" and y.size == n:
            # (arrayToQPath's choice for 'finite': its heuristic, the same tests)
            if opts["skipFiniteCheck"]:
                return _finite_polylines(x, y, np.isfinite(x) & np.isfinite(y))
            finite = np.isfinite(x) & np.isfinite(y)
            gaps = n - int(np.count_nonzero(finite))
            if gaps == 0:
                return _polyline(x, y)
            if gaps / n < 2 / 100:
                return _finite_polylines(x, y, finite)
        return super().generatePath(x, y)


#: arrays of at most this many values have their extent found by :func:`few_extent`
FEW_VALUES = 4


def few_extent(data: np.ndarray) -> tuple[float, float] | None:
    """``(min, max)`` of a 1-D array of at most :data:`FEW_VALUES` finite values, as
    numpy's ``minimum``/``maximum.reduce`` give them (the sign of a zero included);
    ``None`` for a longer array or one with NaN or infinite values (numpy's own then).

    A drag's frame gives an arrows panel's lines (a shaft: two points) new arrays, and
    each line's bounding rect reduces both axes anew: four numpy reductions, ~1 µs of
    call overhead each, on two values (the clock: ~20 extents a frame). On so few
    values numpy's reductions are a plain left fold that keeps the later of two equal
    values (``0.0`` and ``-0.0``): Python's ``min``/``max`` keep the earlier, so they
    run over the values reversed (tests check this against numpy).
    """
    if data.ndim != 1 or data.size > FEW_VALUES or not data.size:
        return None
    return finite_extent(data.tolist())


def finite_extent(values: list[float]) -> tuple[float, float] | None:
    """``(min, max)`` of ``values`` as numpy's ``minimum``/``maximum.reduce`` give them
    (Python's over the values reversed: the sign of a zero included, see
    :func:`few_extent`); ``None`` where there are none or one is NaN or infinite (their
    sum is then not finite; an overflowing sum also gives ``None``)."""
    if not values:
        return None
    total = sum(values)
    if total - total != 0.0:
        return None
    values = values[::-1]
    return float(min(values)), float(max(values))


#: pixel_size's lengths by the linear part of the device transform
_PIXEL_SIZES: dict[tuple[float, float, float, float], tuple[float, float]] = {}
#: the device transform pixel_size last worked with and its lengths
_LAST_PIXEL_SIZE: tuple[QtGui.QTransform, tuple[float, float]] | None = None

_Strokes = tuple[tuple[QtGui.QPainterPath | None, tuple[tuple[float, float], ...]], ...]
_ANTIALIAS = QtGui.QPainter.RenderHint.Antialiasing
_translation = QtGui.QTransform.fromTranslate
_wrap = pg.Qt.compat.wrapinstance
#: :meth:`FastCurveItem.generatePath` builds a path of fewer points as one polygon
#: (pyqtgraph builds larger ones in chunks)
ONE_POLYGON = 20000


def _polygon(x: np.ndarray, y: np.ndarray) -> QtGui.QPolygonF:
    """pyqtgraph's ``arrayToQPolygonF(x, y)``: the points' coordinates copied into a
    polygon's memory at once (without its helpers' calls)."""
    n = x.size
    polygon = QtGui.QPolygonF()
    polygon.resize(n)
    buffer = pg.Qt.compat.voidptr(polygon.data(), n * 16, True)
    points = np.frombuffer(buffer, dtype=np.float64).reshape((-1, 2))
    points[:, 0] = x
    points[:, 1] = y
    return polygon


def _polyline(x: np.ndarray, y: np.ndarray) -> QtGui.QPainterPath:
    """The path of pyqtgraph's ``arrayToQPath(x, y)`` for 2 to 29 999 points, all
    connected and finite: one polygon of them."""
    path = QtGui.QPainterPath()
    path.reserve(x.size)
    path.addPolygon(_polygon(x, y))
    return path


def _finite_polylines(x: np.ndarray, y: np.ndarray, finite: np.ndarray) -> QtGui.QPainterPath:
    """The path of pyqtgraph's ``_arrayToQPath_finite(x, y, finite)``: the points cut
    after each non-finite one (``np.split``), each piece of two points or more one
    polygon, the non-finite point that ends a piece replaced by the point before it;
    the pieces written into one polygon in turn, as pyqtgraph does."""
    n = x.size
    path = QtGui.QPainterPath()
    path.reserve(n)
    cuts = ((~finite).nonzero()[0] + 1).tolist()
    starts = [0, *cuts]
    ends = [*cuts, n]
    longest = max([b - a for a, b in zip(starts, ends, strict=True)])
    polygon = QtGui.QPolygonF()
    polygon.resize(longest)  # (resizing it smaller keeps its memory)
    buffer = pg.Qt.compat.voidptr(polygon.data(), longest * 16, True)
    points = np.frombuffer(buffer, dtype=np.float64).reshape((-1, 2))
    last = len(cuts)
    for k, (a, b) in enumerate(zip(starts, ends, strict=True)):
        size = b - a
        if size <= 1:  # (a non-finite point alone, or nothing after the last)
            continue
        polygon.resize(size)
        points[:size, 0] = x[a:b]
        points[:size, 1] = y[a:b]
        if k < last:
            points[size - 1] = points[size - 2]  # (its non-finite end: the point before)
        path.addPolygon(polygon)
    return path


def _turns(steps: np.ndarray, finite: np.ndarray | None) -> np.ndarray:
    """Indices of the points where a curve whose values change by ``steps`` from one
    point to the next turns back (a local extreme between two segments whose lengths
    are finite: ``finite``, ``None`` when all are)."""
    step = np.sign(steps)
    inner = step[:-1] * step[1:] < 0
    if finite is not None:
        inner &= finite[:-1]
        inner &= finite[1:]
    return inner.nonzero()[0] + 1  # (np.flatnonzero, without its wrappers)


def _sub_path(
    x: np.ndarray,
    y: np.ndarray,
    segments: np.ndarray,
    tips: np.ndarray,
    length: np.ndarray,
    reach: float,
) -> QtGui.QPainterPath | None:
    """A path of the segments ``i → i+1`` selected by ``segments`` (runs of them are
    connected lines) and, at each point of ``tips``, the last ``reach`` pixels of the
    two segments that meet there (``length``: segment lengths in pixels, finite at
    tips). ``None`` when there is nothing to draw.

    The path holds the points of the selected segments and tips only (all finite: a
    segment's length is finite only between finite points): the curve's other points
    would each be a move that draws nothing, and building them cost as much as the
    rest of the strokes.
    """
    if not tips.size and not np.logical_or.reduce(segments):
        return None
    chosen = segments.nonzero()[0]
    if chosen.size + tips.size <= FEW_PIECES:
        return _few_pieces(x, y, chosen.tolist(), tips.tolist(), length, reach)
    if tips.size <= FEW_PIECES:
        breaks = (chosen[1:] - chosen[:-1] != 1).nonzero()[0]  # where a run ends
        if breaks.size < FEW_RUNS:
            return _runs_and_tips(x, y, chosen, breaks, tips, length, reach)
    # the points a selected segment starts or ends at, each connected to the next one
    # kept when the segment between them is selected (then that is the point after it)
    start = np.append(segments, False)
    used = start.copy()
    used[1:] |= segments
    kept = used.nonzero()[0]
    xs, ys = [x[kept]], [y[kept]]
    connect = np.zeros(kept.size + 3 * tips.size, dtype=bool)
    connect[: kept.size] = start[kept]
    if tips.size:
        tip_x, tip_y = _tip_pieces(x, y, tips, length, reach)
        xs.append(tip_x.ravel())
        ys.append(tip_y.ravel())
        link = connect[kept.size :].reshape(-1, 3)
        link[:, :2] = True
    return pg.arrayToQPath(
        np.concatenate(xs), np.concatenate(ys), connect=connect, finiteCheck=False
    )


def _tip_pieces(
    x: np.ndarray, y: np.ndarray, tips: np.ndarray, length: np.ndarray, reach: float
) -> tuple[np.ndarray, np.ndarray]:
    """The three points of each tip's piece (:func:`_sub_path`): ``(xs, ys)``, each
    ``(len(tips), 3)``: ``reach`` pixels back along the segment before, the tip, and
    ``reach`` pixels along the one after (the whole segment when shorter)."""
    # reach / 0 is inf, capped at 1 (a tip's lengths are finite: no NaN)
    with np.errstate(divide="ignore"):
        before = np.minimum(1.0, reach / length[tips - 1])
        after = np.minimum(1.0, reach / length[tips])
    out = []
    for values in (x, y):
        at = values[tips]
        piece = np.empty((tips.size, 3))
        piece[:, 0] = at + (values[tips - 1] - at) * before
        piece[:, 1] = at
        piece[:, 2] = at + (values[tips + 1] - at) * after
        out.append(piece)
    return out[0], out[1]


def _runs_and_tips(
    x: np.ndarray,
    y: np.ndarray,
    chosen: np.ndarray,
    breaks: np.ndarray,
    tips: np.ndarray,
    length: np.ndarray,
    reach: float,
) -> QtGui.QPainterPath:
    """:func:`_sub_path` of the segments ``chosen`` (sorted; a run ends at each index
    of ``breaks`` into it, and at the last) and ``tips``: each run one polygon (its
    points copied at once), then each tip's piece (:func:`_tip_pieces`) as a move and
    two lines. The same elements, from the same values, as the path built from arrays;
    for long runs and a few tips (ALiBi's softmax rows on the stage: one flat run of
    ~480 zero weights past the query, 11-13 spikes' tips) about 45 us instead of 75."""
    path = QtGui.QPainterPath()
    firsts = [int(chosen[0]), *chosen[breaks + 1].tolist()]
    lasts = [*chosen[breaks].tolist(), int(chosen[-1])]
    for a, b in zip(firsts, lasts, strict=True):  # segments a..b: points a..b + 1
        path.addPolygon(_polygon(x[a : b + 2], y[a : b + 2]))
    if tips.size:
        tip_x, tip_y = _tip_pieces(x, y, tips, length, reach)
        for (x0, x1, x2), (y0, y1, y2) in zip(tip_x.tolist(), tip_y.tolist(), strict=True):
            path.moveTo(x0, y0)
            path.lineTo(x1, y1)
            path.lineTo(x2, y2)
    return path


#: a sub-path of at most this many segments and tips is built point by point
#: (:func:`_few_pieces`): the tips of a smooth curve, a few a frame for most of a
#: view's lines, cost more in numpy's and pyqtgraph's fixed costs than in their work
#: (thread time: 8 pieces 13 us point by point, 33 us from arrays; even at ~24)
FEW_PIECES = 20
#: a sub-path of more pieces whose segments form fewer runs than this, with at most
#: :data:`FEW_PIECES` tips, is built run by run (:func:`_runs_and_tips`)
FEW_RUNS = 8


def _few_pieces(
    x: np.ndarray,
    y: np.ndarray,
    chosen: list[int],
    tips: list[int],
    length: np.ndarray,
    reach: float,
) -> QtGui.QPainterPath:
    """:func:`_sub_path` of the segments starting at ``chosen`` and of ``tips`` (sorted
    indices), built with ``moveTo``/``lineTo``: the same elements in the same order
    (a run of segments one line; each tip's three points after them) from the same
    float operations (``min(1, reach / length)``; a length of 0, which a tip's are not,
    would be numpy's ``inf``: 1)."""
    path = QtGui.QPainterPath()
    end = -1
    for i in chosen:
        if i != end:  # not where the last one ended: a new run
            path.moveTo(float(x[i]), float(y[i]))
        end = i + 1
        path.lineTo(float(x[end]), float(y[end]))
    for t in tips:
        lengths = float(length[t - 1]), float(length[t])
        before, after = (min(1.0, reach / n) if n else 1.0 for n in lengths)
        ax, ay = float(x[t]), float(y[t])
        path.moveTo(ax + (float(x[t - 1]) - ax) * before, ay + (float(y[t - 1]) - ay) * before)
        path.lineTo(ax, ay)
        path.lineTo(ax + (float(x[t + 1]) - ax) * after, ay + (float(y[t + 1]) - ay) * after)
    return path
