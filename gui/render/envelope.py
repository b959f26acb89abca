"""Curves reduced to what the output pixels can show, for exports.

An export strokes every curve antialiased. Qt's cost for that grows with the number of
segments *times* their length on the image, and faster than linearly when one path's
segments overlap: a dense wave (a sinusoidal dimension at d_model 16384, 8,192 points
crossing a 1,500-pixel plot) took minutes per curve in a 4096² PNG. Two steps bound it
by the output size instead of the data size:

1. :func:`column_envelope` keeps, of every run of consecutive points falling in one
   output pixel column, the first, the lowest, the highest and the last point (in their
   order): at most four real data points per column. The polyline through them covers
   the same vertical range in each column as the full one (the exact minimum and
   maximum are kept, nothing is invented), and the segments between columns are the
   original ones.
2. :func:`dense_bands`: where the reduced curve turns back by more than a pen width in a
   column or its neighbour (a wave denser than the pixels), the stroke there is a solid
   band: the columns' ``[min, max]`` spans, joined column to column, filled and outlined
   with the curve's pen (solid, opaque pens on images only). That costs its outline, not
   the height of every segment. The rest of the curve is stroked as a polyline, in
   pieces of bounded length (:func:`chunks`).

:func:`paint_curve` draws a ``pg.PlotCurveItem``'s line this way on an export painter
(:mod:`gui.render.snapshot`); it returns ``False`` (draw the item's own path) for what it
does not handle: fills, step mode, custom connections, rotated views.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

VECTOR_COLUMNS_PER_PX = 4  # SVG/PDF: columns of 1/4 px, so a viewer may zoom in 4x
# Line length (device px) per stroked path: Qt's antialiased stroke of one path costs
# more than linearly in its overlapping segments (8,000 points of a dense wave on a
# 1900 x 1500 plot: 450 s as one path, 10 s in pieces of this length); a smooth curve
# across a plot stays one path.
CHUNK_LENGTH = 4096.0
_TX_SCALE = QtGui.QTransform.TransformationType.TxScale.value


def column_envelope(columns: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices (ascending) of the points to keep: per run of equal ``columns``, the first,
    the last and one lowest and one highest ``y`` (the first of ties).

    Parameters
    ----------
    columns
        Integer output column of every point (e.g. ``floor`` of its device x).
    y
        The values, finite.

    Notes
    -----
    A run is a maximal stretch of consecutive points in one column, so the result is
    exact for any curve (also one that comes back to a column later); a curve with
    ascending x keeps at most ``4 x`` (columns it spans) points.
    """
    n = len(columns)
    if n <= 4:
        return np.arange(n, dtype=np.intp)
    starts = np.ones(n, dtype=bool)
    starts[1:] = columns[1:] != columns[:-1]
    firsts = np.flatnonzero(starts)
    lasts = np.r_[firsts[1:] - 1, n - 1]
    run = np.cumsum(starts) - 1
    order = np.lexsort((np.arange(n), y, run))  # by run, then value, then index
    counts = lasts - firsts + 1
    begin = firsts  # the sorted order keeps runs in place: same offsets
    lowest = order[begin]
    # the first index among the highest values of each run
    highest_value = y[order[begin + counts - 1]]
    is_max = y[order] == np.repeat(highest_value, counts)
    ranks = np.arange(n) - np.repeat(begin, counts)
    first_max = np.full(len(firsts), n, dtype=np.int64)
    np.minimum.at(first_max, run[order][is_max], ranks[is_max])
    highest = order[begin + first_max]
    return np.unique(np.concatenate([firsts, lasts, lowest, highest]))


@dataclass(frozen=True)
class CurveParts:
    """A curve split for drawing (device coordinates).

    Attributes
    ----------
    line_x, line_y
        Polyline pieces separated by NaN (drawn with ``connect='finite'``).
    bands
        Polygons ``(k, 2)`` of dense column ranges: upper edge left to right, then the
        lower edge back.
    """

    line_x: np.ndarray
    line_y: np.ndarray
    bands: list[np.ndarray]


def dense_bands(x: np.ndarray, y: np.ndarray, width: float, pen_width: float) -> CurveParts:
    """Split an envelope-reduced curve with ascending finite ``x`` into polyline pieces
    and dense bands (see the module notes).

    Parameters
    ----------
    x, y
        Device coordinates, ``x`` non-decreasing, all finite.
    width
        Column width in device units.
    pen_width
        Stroke width in device units: spans shorter than it stay strokes.
    """
    n = len(x)
    if n < 3:
        return CurveParts(x.copy(), y.copy(), [])
    col = np.floor(x / width).astype(np.int64)
    starts = np.ones(n, dtype=bool)
    starts[1:] = col[1:] != col[:-1]
    firsts = np.flatnonzero(starts)
    lasts = np.r_[firsts[1:] - 1, n - 1]
    run = np.cumsum(starts) - 1
    lo = np.minimum.reduceat(y, firsts)
    hi = np.maximum.reduceat(y, firsts)
    # the segments crossing into the next column: their value at the border counts in both
    cross = lasts[:-1]
    dx = x[cross + 1] - x[cross]
    border = (col[cross] + 1) * width
    t = np.where(dx > 0, (border - x[cross]) / np.where(dx > 0, dx, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    yb = y[cross] + t * (y[cross + 1] - y[cross])
    adjacent = col[cross + 1] == col[cross] + 1
    yb_left = np.where(adjacent, yb, np.nan)
    lo[:-1] = np.fmin(lo[:-1], yb_left)
    hi[:-1] = np.fmax(hi[:-1], yb_left)
    lo[1:] = np.fmin(lo[1:], yb_left)
    hi[1:] = np.fmax(hi[1:], yb_left)
    step = np.abs(np.diff(y))
    inside = ~starts[1:]  # segment i -> i+1 within one column
    travel = np.zeros(len(firsts))
    np.add.at(travel, run[1:][inside], step[inside])
    # and the parts of the segments into the neighbouring columns
    travel[:-1] += np.where(adjacent, np.abs(yb - y[cross]), 0.0)
    travel[1:] += np.where(adjacent, np.abs(y[cross + 1] - yb), 0.0)
    span = hi - lo
    # How far the curve turns back in each column (0 for a line passing through); a
    # column next to one turning back by more than a pen width is inside a dense wave.
    turn = travel - span
    near = turn.copy()
    near[1:] = np.maximum(near[1:], turn[:-1])
    near[:-1] = np.maximum(near[:-1], turn[1:])
    dense = (span > pen_width) & (near > pen_width)
    if not dense.any():
        return CurveParts(x.copy(), y.copy(), [])
    # runs of dense, adjacent columns become bands
    cols = col[firsts]
    new_band = np.ones(len(firsts), dtype=bool)
    new_band[1:] = ~(dense[:-1] & dense[1:] & (cols[1:] == cols[:-1] + 1))
    band_id = np.cumsum(new_band) - 1
    bands = []
    centre = (cols + 0.5) * width
    # The outline's pen adds half its width around the band, as it does sideways for the
    # wave's strokes; their sharp turns (bevel joins) end at the extremes themselves.
    half = pen_width / 2.0
    lo, hi = np.minimum(lo + half, (lo + hi) / 2), np.maximum(hi - half, (lo + hi) / 2)
    for b in np.unique(band_id[dense]):
        members = np.flatnonzero((band_id == b) & dense)
        at = centre[members]
        at[0], at[-1] = x[firsts[members[0]]], x[lasts[members[-1]]]  # the curve's own ends
        upper = np.column_stack([at, hi[members]])
        lower = np.column_stack([at[::-1], lo[members][::-1]])
        bands.append(np.vstack([upper, lower]))
    # a segment whose two ends lie in one band is drawn by the band
    point_band = np.where(dense[run], band_id[run], -1)
    covered = (point_band[:-1] >= 0) & (point_band[:-1] == point_band[1:])
    keep_seg = ~covered
    # polyline pieces: points joined by kept segments; NaN between pieces
    xs: list[float] = []
    ys: list[float] = []
    xv, yv = x.tolist(), y.tolist()
    open_piece = False
    for i, keep in enumerate(keep_seg.tolist()):
        if keep:
            if not open_piece:
                if xs:
                    xs.append(np.nan)
                    ys.append(np.nan)
                xs.append(xv[i])
                ys.append(yv[i])
                open_piece = True
            xs.append(xv[i + 1])
            ys.append(yv[i + 1])
        else:
            open_piece = False
    return CurveParts(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float), bands)


def _finite_runs(x: np.ndarray, y: np.ndarray) -> list[tuple[int, int]]:
    """``(start, stop)`` of the stretches of consecutive finite points (length >= 2)."""
    finite = np.isfinite(x) & np.isfinite(y)
    edges = np.flatnonzero(np.diff(np.r_[0, finite.astype(np.int8), 0]))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 2]


def reduce_curve(x: np.ndarray, y: np.ndarray, width: float, pen_width: float | None) -> CurveParts:
    """``(x, y)`` in device coordinates (NaN/inf break the line) reduced for drawing.

    Parameters
    ----------
    x, y
        Device coordinates.
    width
        Output column width in device units.
    pen_width
        Stroke width in device units, or ``None`` to never use bands (dashed or
        translucent pens: a band's fill and outline would differ from the stroke).
    """
    line_x: list[np.ndarray] = []
    line_y: list[np.ndarray] = []
    bands: list[np.ndarray] = []
    gap = np.array([np.nan])
    for start, stop in _finite_runs(x, y):
        rx, ry = x[start:stop], y[start:stop]
        keep = column_envelope(np.floor(rx / width).astype(np.int64), ry)
        rx, ry = rx[keep], ry[keep]
        d = np.diff(rx)
        ascending, descending = bool(np.all(d >= 0)), bool(np.all(d <= 0))
        if pen_width is not None and (ascending or descending):
            if not ascending:
                rx, ry = rx[::-1], ry[::-1]
            parts = dense_bands(rx, ry, width, pen_width)
            rx, ry = parts.line_x, parts.line_y
            bands += parts.bands
        if rx.size:
            if line_x:
                line_x.append(gap)
                line_y.append(gap)
            line_x.append(rx)
            line_y.append(ry)
    empty = np.zeros(0)
    return CurveParts(
        np.concatenate(line_x) if line_x else empty,
        np.concatenate(line_y) if line_y else empty,
        bands,
    )


def chunks(x: np.ndarray, y: np.ndarray) -> list[tuple[int, int, float]]:
    """``(start, stop, length before start)`` of the pieces a polyline is stroked in:
    about :data:`CHUNK_LENGTH` device units of line each (consecutive pieces share their
    end point; NaN points break the line and count no length)."""
    if len(x) < 2:
        return []
    step = np.hypot(np.diff(x), np.diff(y))
    step = np.where(np.isfinite(step), step, 0.0)
    before = np.r_[0.0, np.cumsum(step)]  # length up to each point
    piece = np.floor(before[:-1] / CHUNK_LENGTH).astype(np.int64)  # of each segment
    firsts = np.flatnonzero(np.r_[True, piece[1:] != piece[:-1]])
    ends = np.r_[firsts[1:], len(x) - 1]
    return [(int(a), int(b) + 1, float(before[a])) for a, b in zip(firsts, ends, strict=True)]


def _device_pen_width(pen: QtGui.QPen, device: QtGui.QTransform) -> float:
    width = max(pen.widthF(), 1.0)
    return width if pen.isCosmetic() else width * max(abs(device.m11()), abs(device.m22()))


def paint_curve(
    painter: QtGui.QPainter, curve: pg.PlotCurveItem, raster: bool, columns_per_px: float
) -> bool:
    """Draw ``curve``'s line (its current pen, set on ``painter``) reduced to the output
    columns; ``False`` when the curve needs its own path (nothing drawn then).

    Parameters
    ----------
    painter
        Painting ``curve`` (its transform maps the curve's data to the device).
    curve
        The item; its ``getData()`` is what its path is made of.
    raster
        Whether the device is a raster image (solid, opaque pens then get bands).
    columns_per_px
        Output columns per device unit (1 for an image).
    """
    opts = curve.opts
    if (
        opts["stepMode"]
        or opts["fillLevel"] is not None
        or opts["connect"] not in ("all", "finite")
    ):
        return False
    device = painter.deviceTransform()
    if device.type().value > _TX_SCALE or device.m11() == 0 or device.m22() == 0:
        return False
    x, y = curve.getData()
    if x is None or y is None or len(x) != len(y):
        return False
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if opts["connect"] == "all" and not (np.isfinite(x).all() and np.isfinite(y).all()):
        return False
    sx, sy, dx, dy = device.m11(), device.m22(), device.dx(), device.dy()
    pen = painter.pen()
    solid = pen.style() == QtCore.Qt.PenStyle.SolidLine and pen.color().alpha() == 255
    pen_width = _device_pen_width(pen, device) if raster and solid else None
    parts = reduce_curve(x * sx + dx, y * sy + dy, 1.0 / columns_per_px, pen_width)
    # back to the curve's coordinates: drawn through the same transform as its path
    dashed = pen.style() != QtCore.Qt.PenStyle.SolidLine
    unit = max(pen.widthF(), 1.0) if pen.isCosmetic() else max(pen.widthF(), 1e-9) * abs(sx)
    for start, stop, length in chunks(parts.line_x, parts.line_y):
        if dashed:  # the dash pattern goes on where the previous piece left it
            piece_pen = QtGui.QPen(pen)
            piece_pen.setDashOffset(pen.dashOffset() + length / unit)
            QtGui.QPainter.setPen(painter, piece_pen)  # as is: already widened
        # QPainter's own drawPath: an export painter reroutes its own
        QtGui.QPainter.drawPath(
            painter,
            pg.arrayToQPath(
                (parts.line_x[start:stop] - dx) / sx,
                (parts.line_y[start:stop] - dy) / sy,
                connect="finite",
            ),
        )
    if dashed:
        QtGui.QPainter.setPen(painter, pen)
    if parts.bands:
        painter.save()
        try:
            painter.setBrush(pen.brush())
            for band in parts.bands:
                polygon = QtGui.QPolygonF(
                    [
                        QtCore.QPointF(px, py)
                        for px, py in zip(
                            ((band[:, 0] - dx) / sx).tolist(),
                            ((band[:, 1] - dy) / sy).tolist(),
                            strict=True,
                        )
                    ]
                )
                QtGui.QPainter.drawPolygon(painter, polygon)
        finally:
            painter.restore()
    return True
