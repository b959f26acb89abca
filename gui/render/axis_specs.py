"""pyqtgraph's ``AxisItem.generateDrawSpecs``, with the same result, made cheaper.

Used by :class:`gui.render.fast_axis.FastAxisItem`. The port keeps pyqtgraph's layout rules
step by step (a test compares the specs with pyqtgraph's over random ranges, sizes and
orientations) and only changes how they are computed: text sizes come from a per-font
cache, positions are plain ``QPointF`` and ticks are de-duplicated by a sorted search.
It has no side effect: the text size pyqtgraph reports to the axis at the end is
returned instead (:func:`gui.render.pg_compat.source_fingerprint` notices when
pyqtgraph's original changes).

:func:`box_edges` and :func:`separate_labels` add what pyqtgraph lacks: tick labels
that would overlap (the minor labels of a log axis, ``9·10¹`` over ``8·10¹``) are left out.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from PySide6 import QtCore, QtGui

from gui.render.pg_compat import device_transform, explicit_ticks

_ALIGN = QtCore.Qt.AlignmentFlag
_SOLID_BRUSH = QtCore.Qt.BrushStyle.SolidPattern
_TEXT_FLAGS = {
    "left": _ALIGN.AlignRight | _ALIGN.AlignVCenter | QtCore.Qt.TextFlag.TextDontClip,
    "right": _ALIGN.AlignLeft | _ALIGN.AlignVCenter | QtCore.Qt.TextFlag.TextDontClip,
    "top": _ALIGN.AlignHCenter | _ALIGN.AlignBottom | QtCore.Qt.TextFlag.TextDontClip,
    "bottom": _ALIGN.AlignHCenter | _ALIGN.AlignTop | QtCore.Qt.TextFlag.TextDontClip,
}


class AxisLayout(NamedTuple):
    """What :func:`generate_draw_specs` computes for an axis."""

    specs: tuple | None
    """``(axis_spec, tick_specs, text_specs)``; ``None`` when the axis has no length."""
    text_size: float
    """Room the tick text needs across the axis (what pyqtgraph reports to the axis)."""
    label_ticks: list[tuple[int, float]]
    """``(level, tick value)`` of each of ``text_specs``, in the same order."""
    spacings: tuple[float | None, ...] = ()
    """The spacing of each tick level (``None``: explicit ticks), as ``tickStrings``
    takes it."""


class AxisFrame(NamedTuple):
    """Where an axis is, as :func:`generate_draw_specs` reads it (the caller that has
    worked it out already passes it in: :meth:`gui.render.fast_axis.FastAxisItem.spec_key`)."""

    transform: QtGui.QTransform | None
    """The axis' device transform (``None``: not in a view)."""
    bounds: QtCore.QRectF
    """The axis' own rectangle (its geometry, in its coordinates)."""
    tick_bounds: QtCore.QRectF
    """Where its ticks run: ``bounds``, or its linked view's rectangle with a grid."""
    own_rect: QtCore.QRectF
    """Its bounding rect (labels outside it are left out)."""


def axis_frame(axis: Any) -> AxisFrame:
    """:class:`AxisFrame` of ``axis`` now."""
    bounds = axis.mapRectFromParent(axis.geometry())
    linked = axis.linkedView()
    if linked is None or axis.grid is False:
        tick_bounds = bounds
    else:
        tick_bounds = linked.mapRectToItem(axis, linked.boundingRect())
    return AxisFrame(device_transform(axis), bounds, tick_bounds, axis.boundingRect())


def generate_draw_specs(
    axis: Any,
    p: QtGui.QPainter,
    font: QtGui.QFont | None = None,
    frame: AxisFrame | None = None,
    tick_levels: list | None = None,
) -> AxisLayout:
    """``(axis_spec, tick_specs, text_specs)`` of ``axis`` as pyqtgraph computes them.

    Parameters
    ----------
    axis
        A :class:`gui.render.fast_axis.FastAxisItem` (it provides ``text_measure`` and the
        fast ``tickValues``).
    p
        The painter whose font and device the text is measured with.
    font
        The tick labels' font (default: the axis style's ``tickFont``).
    frame
        Where the axis is (default: :func:`axis_frame` of it now).
    tick_levels
        ``axis.tickValues`` over its range at its length, when worked out already
        (ignored for explicit ticks).

    Returns
    -------
    AxisLayout
        The specs pyqtgraph's ``generateDrawSpecs`` returns, the text size it reports
        to the axis before returning, and which tick each label belongs to.
    """
    style = axis.style
    if font is None:
        font = style["tickFont"]
    if font is not None:
        p.setFont(font)
    if frame is None:
        frame = axis_frame(axis)
    bounds, tick_bounds = frame.bounds, frame.tick_bounds
    orientation = axis.orientation
    # the axis line's ends: pyqtgraph's pg.Point(corner) + pg.Point(±1, ±1), the same
    # additions on plain QPointF (pg.Point's arithmetic was a fifth of this function)
    span, tick_start, tick_stop, tick_dir, dim = axis_ends(orientation, bounds, tick_bounds)
    # dim below is 0 for a vertical axis, 1 for a horizontal one
    transform = frame.transform
    if transform is None:
        return AxisLayout(None, 0.0, [])
    length = axis_length(transform, span)
    if length == 0:
        return AxisLayout(None, 0.0, [])

    explicit = explicit_ticks(axis)
    if explicit is None:
        if tick_levels is None:
            tick_levels = axis.tickValues(axis.range[0], axis.range[1], length)
        tick_strings = None
    else:
        tick_levels = [(None, [v for v, _s in level]) for level in explicit]
        tick_strings = [[s for _v, s in level] for level in explicit]

    x_scale, offset = value_scale(axis.range, bounds, dim)
    x_range = [x * x_scale - offset for x in axis.range]
    x_min, x_max = min(x_range), max(x_range)

    positions: list[list[float | None]] = []
    tick_specs = []
    base_pen = axis.tickPen()
    simple_pen = base_pen.brush().style() == _SOLID_BRUSH
    for i, (_spacing, ticks) in enumerate(tick_levels):
        level_positions: list[float | None] = []
        positions.append(level_positions)
        tick_length = style["tickLength"] / ((i * 0.5) + 1.0)
        alpha = style["tickAlpha"]
        if alpha is None:
            alpha = 255 / (i + 1)
            if axis.grid is not False:
                alpha *= axis.grid / 255.0 * min(max(0.05 * length / (len(ticks) + 1), 0.0), 1.0)
        elif isinstance(alpha, float):
            alpha = min(255, max(0, int(round(alpha * 255))))
        pen = base_pen
        if simple_pen:
            pen = QtGui.QPen(base_pen)
            color = QtGui.QColor(pen.color())
            color.setAlpha(int(alpha))
            pen.setColor(color)
        stop = tick_stop if axis.grid is not False else tick_stop + tick_length * tick_dir
        for v in ticks:
            x = (v * x_scale) - offset
            if x < x_min or x > x_max:
                level_positions.append(None)
                continue
            level_positions.append(x)
            if dim == 0:
                tick_specs.append((pen, QtCore.QPointF(tick_start, x), QtCore.QPointF(stop, x)))
            else:
                tick_specs.append((pen, QtCore.QPointF(x, tick_start), QtCore.QPointF(x, stop)))

    if style["stopAxisAtTick"][0] is True:
        lowest = min(_shown(positions), default=span[0].y() if dim == 0 else span[0].x())
        if dim == 0:
            span[0].setY(max(span[0].y(), lowest))
        else:
            span[0].setX(max(span[0].x(), lowest))
    if style["stopAxisAtTick"][1] is True:
        highest = max(_shown(positions), default=span[1].y() if dim == 0 else span[1].x())
        if dim == 0:
            span[1].setY(min(span[1].y(), highest))
        else:
            span[1].setX(min(span[1].x(), highest))
    axis_spec = (axis.pen(), span[0], span[1])

    text_specs: list[tuple[QtCore.QRectF, object, str]] = []
    label_ticks: list[tuple[int, float]] = []
    spacings = tuple(spacing for spacing, _values in tick_levels)
    if not style["showValues"]:
        return AxisLayout((axis_spec, tick_specs, text_specs), 0.0, label_ticks, spacings)
    text_offset = style["tickTextOffset"][dim]
    text_size2 = last_text_size2 = 0.0
    all_sizes: list[tuple[float, float]] = []
    own_rect = frame.own_rect
    flags = _TEXT_FLAGS[orientation]
    measure = axis.text_measure(p)
    gap = max(0, style["tickLength"]) + text_offset
    for i in range(min(len(tick_levels), style["maxTextLevel"] + 1)):
        if tick_strings is None:
            spacing, values = tick_levels[i]
            strings = axis.tickStrings(values, axis.autoSIPrefixScale * axis.scale, spacing)
        else:
            strings = list(tick_strings[i])
        if len(strings) == 0:
            continue
        sizes: list[tuple[float, float] | None] = []
        for j, s in enumerate(strings):
            if positions[i][j] is None:
                strings[j] = None
                sizes.append(None)
            else:
                size = measure(s)
                sizes.append(size)
                all_sizes.append(size)
        # the largest label across the axis, and (for the fill rule below) the summed
        # extent along it: numpy's sum, as pyqtgraph, for the same rounding
        along, across = (1, 0) if dim == 0 else (0, 1)
        text_size2 = max(size[across] for size in all_sizes) if all_sizes else 0
        if i > 0:  # crowded lower levels get no text
            text_size = float(np.sum([size[along] for size in all_sizes])) if all_sizes else 0
            fill = float(text_size) / length
            if any(len(text_specs) >= n and fill >= limit for n, limit in style["textFillLimits"]):
                break
        last_text_size2 = text_size2
        for j, vstr in enumerate(strings):
            x, size = positions[i][j], sizes[j]
            if vstr is None or x is None or size is None:  # (all three or none)
                continue
            rect = label_rect(orientation, tick_stop, gap, x, size)
            if own_rect & rect != rect:
                continue
            text_specs.append((rect, flags, vstr))
            label_ticks.append((i, tick_levels[i][1][j]))
    return AxisLayout((axis_spec, tick_specs, text_specs), last_text_size2, label_ticks, spacings)


def axis_ends(
    orientation: str, bounds: QtCore.QRectF, tick_bounds: QtCore.QRectF
) -> tuple[tuple[QtCore.QPointF, QtCore.QPointF], float, float, int, int]:
    """``(span, tick_start, tick_stop, tick_dir, dim)`` of an axis of ``bounds`` whose
    ticks run from ``tick_bounds``' edge, as :func:`generate_draw_specs` reads them: the
    axis line's ends (pyqtgraph's ``pg.Point(corner) + pg.Point(±1, ±1)``, as plain
    ``QPointF``), where the ticks start and stop across the axis, which way they point
    and ``dim`` (0 for a vertical axis, 1 for a horizontal one)."""
    left, top, right, bottom = bounds.left(), bounds.top(), bounds.right(), bounds.bottom()
    point = QtCore.QPointF
    if orientation == "left":
        span = (point(right + -1.0, top + -1.0), point(right + -1.0, bottom + 1.0))
        return span, tick_bounds.right(), right, -1, 0
    if orientation == "right":
        span = (point(left + 1.0, top + -1.0), point(left + 1.0, bottom + 1.0))
        return span, tick_bounds.left(), left, 1, 0
    if orientation == "top":
        span = (point(left + -1.0, bottom + -1.0), point(right + 1.0, bottom + -1.0))
        return span, tick_bounds.bottom(), bottom, -1, 1
    span = (point(left + -1.0, top + 1.0), point(right + 1.0, top + 1.0))
    return span, tick_bounds.top(), top, 1, 1


def axis_length(transform: QtGui.QTransform, span: tuple[QtCore.QPointF, QtCore.QPointF]) -> float:
    """The length in device pixels of the axis line ``span`` (:func:`axis_ends`)."""
    d0, d1 = transform.map(span[0]), transform.map(span[1])
    return math.hypot(d1.x() - d0.x(), d1.y() - d0.y())


def label_rect(
    orientation: str, tick_stop: float, gap: float, x: float, size: tuple[float, float]
) -> QtCore.QRectF:
    """The rectangle of a tick label of ``size`` (``(width, height)``) at ``x`` along
    the axis, ``gap`` px beyond the ticks' end ``tick_stop`` (across it), as pyqtgraph
    places it: centred on the tick, against the ticks."""
    width, height = size
    if orientation == "left":
        return QtCore.QRectF(tick_stop - gap - width, x - height / 2, width, height)
    if orientation == "right":
        return QtCore.QRectF(tick_stop + gap, x - height / 2, width, height)
    if orientation == "top":
        return QtCore.QRectF(x - width / 2.0, tick_stop - gap - height, width, height)
    return QtCore.QRectF(x - width / 2.0, tick_stop + gap, width, height)


def value_scale(
    axis_range: tuple[float, float] | list[float], bounds: QtCore.QRectF, dim: int
) -> tuple[float, float]:
    """``(scale, offset)``: where :func:`generate_draw_specs` puts the tick at value
    ``v`` along an axis of ``bounds`` showing ``axis_range``, ``v * scale - offset`` (in
    the axis' coordinates; ``dim`` 0 for a vertical axis, 1 for a horizontal one)."""
    dif = axis_range[1] - axis_range[0]
    if dif == 0:
        return 1.0, 0.0
    if dim == 0:
        scale = -bounds.height() / dif
        return scale, axis_range[0] * scale - bounds.height()
    scale = bounds.width() / dif
    return scale, axis_range[0] * scale


def relabelled(orientation: str, rect: QtCore.QRectF, size: tuple[float, float]) -> QtCore.QRectF:
    """The box of a tick label of ``size`` (``(width, height)``) at the tick of a label
    drawn in ``rect``, placed as :func:`generate_draw_specs` places it: against the
    ticks (a left axis' labels end where ``rect`` ends), centred on the tick."""
    width, height = size
    centre = rect.center()
    if orientation == "left":
        return QtCore.QRectF(rect.right() - width, centre.y() - height / 2, width, height)
    if orientation == "right":
        return QtCore.QRectF(rect.left(), centre.y() - height / 2, width, height)
    if orientation == "top":
        return QtCore.QRectF(centre.x() - width / 2, rect.bottom() - height, width, height)
    return QtCore.QRectF(centre.x() - width / 2, rect.top(), width, height)


def _shown(positions: list[list[float | None]]) -> list[float]:
    """The tick positions inside the axis (``None`` marks a tick outside it)."""
    return [x for level in positions for x in level if x is not None]


def separate_labels(
    orientation: str, text_specs: list, ranks: list | None = None, gap: float = 1.0
) -> list:
    """``text_specs`` without the labels whose text would overlap a more important one.

    Parameters
    ----------
    orientation
        The axis' orientation (``"left"``, ``"bottom"``, ...).
    text_specs
        ``(rect, flags, text)`` of the labels, as in the draw specs.
    ranks
        A sortable importance per label, lowest first (default: their order). Labels
        are kept in that order (stable) when they overlap none kept before.
    gap
        The share of :func:`box_edges`' gap between neighbours along a horizontal
        axis that is kept (1: all of it, half a line).

    Returns
    -------
    list
        The kept specs in their original order: ``text_specs`` itself when none overlap.
    """
    boxes = box_edges(orientation, [spec[0] for spec in text_specs], gap)
    order = sorted(range(len(text_specs)), key=lambda k: ranks[k]) if ranks else range(len(boxes))
    kept: list[tuple[float, float, float, float]] = []
    keep: list[int] = []
    for k in order:
        box = boxes[k]
        if box is not None:
            left, right, top, bottom = box
            if any(left < r and lo < right and top < b and t < bottom for lo, r, t, b in kept):
                continue
            kept.append(box)
        keep.append(k)
    if len(keep) == len(text_specs):
        return text_specs
    return [text_specs[k] for k in sorted(keep)]


#: how many steps of a level's spacing a thinned level's labels stand apart, tried in
#: this order (2, 4, 5 × 10ⁿ and 25: steps of 1 give 2, 4, 5, 10, …; of 2: 4, 8, 10, …)
THINNING = (2, 4, 5, 10, 20, 25, 40, 50, 100, 200, 250, 400, 500, 1000)


def regular_labels(
    orientation: str, text_specs: list, label_ticks: list[tuple[int, float]], gap: float = 1.0
) -> list:
    """``text_specs`` of a linear axis with the labels that would overlap left out so
    that those kept stand at regular steps.

    :func:`separate_labels` leaves out whichever label overlaps one kept before it: a
    wider label between narrow ones goes ("0 2 4 6 8 10 14", the 12 under the 10 and
    the 14 clear of it; "−200 0 100 200"), and the reader takes the gap for a step.
    Here the top level (pyqtgraph's major ticks) keeps every ``k``-th label for the
    first ``k`` of :data:`THINNING` at which two or more fit (:func:`_thinned`:
    "0 4 8 12", "−200 0 200"); a finer level (the minor ticks between them) keeps all
    its labels or none.

    Parameters
    ----------
    orientation
        The axis' orientation (``"left"``, ``"bottom"``, ...).
    text_specs
        ``(rect, flags, text)`` of the labels, as in the draw specs.
    label_ticks
        ``(level, value)`` of each label (:attr:`AxisLayout.label_ticks`).
    gap
        As :func:`separate_labels`.

    Returns
    -------
    list
        The kept specs in their original order: ``text_specs`` itself when none overlap.
    """
    if len(separate_labels(orientation, text_specs, None, gap)) == len(text_specs):
        return text_specs
    levels = sorted({level for level, _value in label_ticks})
    top = [k for k, (level, _v) in enumerate(label_ticks) if level == levels[0]]
    values = sorted(label_ticks[k][1] for k in top)
    step = min((b - a for a, b in zip(values, values[1:], strict=False)), default=0.0)
    keep = top
    if len(separate_labels(orientation, [text_specs[k] for k in top], None, gap)) < len(top):
        keep = _thinned(orientation, text_specs, top, [label_ticks[k][1] / step for k in top], gap)
    else:
        for level in levels[1:]:  # a finer level whole, or none from it on
            more = keep + [k for k, (lv, _v) in enumerate(label_ticks) if lv == level]
            specs = [text_specs[k] for k in sorted(more)]
            if len(separate_labels(orientation, specs, None, gap)) < len(more):
                break
            keep = more
    return [text_specs[k] for k in sorted(keep)]


def _thinned(
    orientation: str, text_specs: list, top: list[int], steps: list[float], gap: float
) -> list[int]:
    """The indices (of ``top``, the labels ``steps`` steps from 0) that
    :func:`regular_labels` keeps of a level whose labels overlap: for the first thinning
    of :data:`THINNING` at which two or more fit, every ``thin``-th from the offset
    that keeps the most (0 steps among them on a tie: "−200 0 200", and "−50 50" rather
    than "0" alone); one label where no two fit."""
    index = [round(v) for v in steps]
    for thin in THINNING:
        best: list[int] = []
        for phase in range(thin):
            chosen = [k for k, i in zip(top, index, strict=True) if i % thin == phase]
            if len(chosen) > len(best) and len(
                separate_labels(orientation, [text_specs[k] for k in chosen], None, gap)
            ) == len(chosen):
                best = chosen
        if len(best) >= 2:
            return best
        if all(sum(1 for i in index if i % thin == ph) < 2 for ph in range(thin)):
            break  # (coarser steps keep one label at most)
    at_zero = [k for k, i in zip(top, index, strict=True) if i == 0]
    return at_zero or top[len(top) // 2 : len(top) // 2 + 1]


def box_edges(
    orientation: str, rects: list[QtCore.QRectF], gap: float = 1.0
) -> list[tuple[float, float, float, float] | None]:
    """The room each tick label's text takes, for text rectangles of an axis, as
    ``(left, right, top, bottom)`` floats, ``None`` for a box with no area.

    pyqtgraph sizes a label's rectangle at 0.8 × its line height and draws the whole
    line in it without clipping: centred on a left or right axis, from the top on a top
    or bottom one. The box is that whole line; on a horizontal axis it also keeps a
    gap of a quarter line (× ``gap``) on either side, so neighbours never touch. Two
    boxes meet (``QRectF.intersects``) when ``left < other right``, ``other left <
    right`` and the same across. Plain floats, not ``QRectF.adjusted`` and
    ``intersects`` (a ``QRectF`` per label and a Qt call per pair were a quarter of an
    axis's draw specs, for every axis whose range moved on every frame of a drag; a
    test compares them with Qt's rectangles)."""
    vertical = orientation in ("left", "right")
    out: list[tuple[float, float, float, float] | None] = []
    for rect in rects:
        x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
        line = h / 0.8
        if vertical:  # rect.adjusted(0, -(line - h) / 2, 0, (line - h) / 2)
            x1, x2, y1, y2 = 0.0, 0.0, -(line - h) / 2, (line - h) / 2
        else:  # rect.adjusted(-line / 4, 0, line / 4, line - h) (× gap sideways)
            x1, x2, y1, y2 = -gap * line / 4, gap * line / 4, 0.0, line - h
        x, y, w, h = x + x1, y + y1, w + x2 - x1, h + y2 - y1
        left = right = x
        if w < 0:
            left += w
        else:
            right += w
        top = bottom = y
        if h < 0:
            top += h
        else:
            bottom += h
        out.append(None if left == right or top == bottom else (left, right, top, bottom))
    return out


def log_rank(value: float) -> int:
    """How round a log-axis tick ``value`` (log10 of the number shown) is: decades 0,
    ×5 1, ×2 2, other multiples 3, finer values (2.4: a range within one multiple,
    ``fine_log_ticks``) 4 (the labels kept first when they crowd)."""
    mantissa = 10 ** (value - math.floor(value + 1e-9))
    digit = round(mantissa)
    if abs(mantissa - digit) > 1e-6 * mantissa:
        return 4
    return {1: 0, 10: 0, 5: 1, 2: 2}.get(digit, 3)


class TileTicks(NamedTuple):
    """One tile of a mosaic along an axis (ALiBi's heads side by side), for
    :func:`tile_labels`."""

    lo: float
    """The value (cell) of its first row or column."""
    hi: float
    """The value of its last."""
    ticks: tuple[tuple[float, str], ...]
    """Its ticks ``(value, text)`` in order: its first and last position, and maybe
    one between."""


def tile_labels(
    orientation: str,
    tiles: list[TileTicks],
    to_axis: Any,
    measure: Any,
    place: Any,
    gap: float = 1.0,
) -> list:
    """The tick labels of an axis along a mosaic's tiles: every tile labelled alike,
    each label inside its own tile.

    The tiles of a mosaic are separated by a gap of a few cells, so a tile's last label
    and the next tile's first stood a few pixels apart and one of them was left out:
    ALiBi's heads on the 1920 × 1080 stage at 200 % read "15, 15, 15" up the y axis and
    "0 7 0 7 0 7" along x, no tile's range readable. Here a label at a tile's end is
    moved inwards (its tick mark stays) until its text lies within the tile's cells, so
    that neighbouring tiles' labels are parted by the gap. The first of these that fits
    (:func:`separate_labels` keeps all of it) is drawn:

    1. every tick of every tile ("0 7 15" under each);
    2. each tile's first and last position ("0 15");
    3. each tile's range once, centred on it ("0…15"; "0–15" read as a subtraction
       beside the app's minus signs);
    4. the first tile's range alone (the tiles share their positions).

    Parameters
    ----------
    orientation
        The axis' orientation (``"left"``, ``"bottom"``, ...).
    tiles
        The tiles along the axis, with their ticks.
    to_axis
        ``value → position`` along the axis, in the axis' coordinates.
    measure
        ``text → (width, height)`` of a label (as ``FastAxisItem.text_measure``).
    place
        ``(position, size) → QRectF``: a label's rectangle at a position along the axis
        (across it as the axis places its labels: :func:`label_rect`).
    gap
        As :func:`separate_labels`.

    Returns
    -------
    list
        ``(rect, flags, text)`` of the labels drawn.
    """
    flags = _TEXT_FLAGS[orientation]
    vertical = orientation in ("left", "right")

    def inside(value: float, text: str, lo: float, hi: float) -> tuple | None:
        """The label ``text`` at ``value``, moved inside the cells ``lo`` … ``hi``
        (``None``: longer than they are)."""
        rect = place(to_axis(value), measure(text))
        box = box_edges(orientation, [rect], gap)[0]
        if box is None:
            return None
        start, end = (box[2], box[3]) if vertical else (box[0], box[1])
        a, b = sorted((to_axis(lo - 0.5), to_axis(hi + 0.5)))
        if end - start > b - a:
            return None
        shift = max(0.0, a - start) + min(0.0, b - end)
        moved = rect.translated(0.0, shift) if vertical else rect.translated(shift, 0.0)
        return (moved, flags, text)

    def fits(specs: list) -> bool:
        return len(separate_labels(orientation, specs, None, gap)) == len(specs)

    def ends(ticks: tuple[tuple[float, str], ...]) -> tuple[tuple[float, str], ...]:
        return tuple(dict.fromkeys((min(ticks), max(ticks))))

    shown = [tile for tile in tiles if tile.ticks]
    if not shown:
        return []
    for picks in (lambda ticks: ticks, ends):
        specs = [inside(v, text, t.lo, t.hi) for t in shown for v, text in picks(t.ticks)]
        if all(specs) and fits(specs):
            return specs

    def span(tile: TileTicks) -> str:
        first, last = min(tile.ticks)[1], max(tile.ticks)[1]
        return first if first == last else f"{first}\u2026{last}"

    ranges = [inside((t.lo + t.hi) / 2, span(t), t.lo, t.hi) for t in shown]
    if all(ranges) and fits(ranges):
        return ranges
    first = shown[0]
    alone = inside((first.lo + first.hi) / 2, span(first), first.lo, shown[-1].hi)
    return [alone] if alone else []


# --------------------------------------------------------------------------------------
# A plain linear axis whose range moves: the labels' layout reused (LabelShift)

#: px: a label rectangle this close to its axis' bounding rect's edge (inside or out) is
#: laid out anew (Qt compares rectangles within a relative 1e-12: the arrays below
#: cannot tell which side of it such a label is)
SHIFT_UNSURE = 1e-6


def label_origins(
    orientation: str,
    tick_stop: float,
    gap: float,
    positions: np.ndarray,
    widths: np.ndarray,
    heights: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The top left corners ``(x, y)`` of :func:`label_rect`'s rectangles for labels of
    ``widths`` × ``heights`` at ``positions`` along the axis, as arrays (the same
    arithmetic, element by element: the same floats)."""
    if orientation == "left":
        return tick_stop - gap - widths, positions - heights / 2
    if orientation == "right":  # (widths > 0: 0.0 × width is 0.0)
        return widths * 0.0 + (tick_stop + gap), positions - heights / 2
    if orientation == "top":
        return positions - widths / 2.0, tick_stop - gap - heights
    return positions - widths / 2.0, widths * 0.0 + (tick_stop + gap)


def relabel_origins(
    orientation: str,
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    h: np.ndarray,
    widths: np.ndarray,
    heights: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The top left corners of :func:`relabelled`'s boxes of ``widths`` × ``heights``
    for labels drawn in the rectangles ``(x, y, w, h)``, as arrays (Qt's ``right()``
    is ``x + w``, ``center()`` ``(x + w / 2, y + h / 2)``)."""
    if orientation == "left":
        return (x + w) - widths, (y + h / 2) - heights / 2
    if orientation == "right":
        return x, (y + h / 2) - heights / 2
    if orientation == "top":
        return (x + w / 2) - widths / 2, (y + h) - heights
    return (x + w / 2) - widths / 2, y


def box_offsets(
    orientation: str, w: np.ndarray, h: np.ndarray, gap: float = 1.0
) -> tuple[np.ndarray | float, np.ndarray | float, np.ndarray, np.ndarray]:
    """``(dx, dy, width, height)``: where :func:`box_edges`' box of a rectangle of
    ``w`` × ``h`` starts from its corner, and its size (the same arithmetic)."""
    line = h / 0.8
    x1: np.ndarray | float
    x2: np.ndarray | float
    y1: np.ndarray | float
    y2: np.ndarray | float
    if orientation in ("left", "right"):
        x1, x2, y1, y2 = 0.0, 0.0, -(line - h) / 2, (line - h) / 2
    else:
        x1, x2, y1, y2 = -gap * line / 4, gap * line / 4, 0.0, line - h
    return x1, y1, w + x2 - x1, h + y2 - y1


def _inside(
    rect: QtCore.QRectF, x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Which of the rectangles ``(x, y, w, h)`` (sizes > 0) lie inside ``rect``
    (``rect & r == r``), and which lie within :data:`SHIFT_UNSURE` of its edges
    without touching them exactly (Qt's fuzzy comparison may go either way)."""
    box: Any = rect.getRect()  # (one call, not four)
    left, top, width, height = box
    margin = np.minimum(
        np.minimum(x - left, (left + width) - (x + w)),
        np.minimum(y - top, (top + height) - (y + h)),
    )
    return margin >= 0, (margin < 0) & (margin > -SHIFT_UNSURE)


class LabelShift:
    """The tick labels a plain linear axis chose at one set of tick values, to be
    placed anew when only its range moves.

    A slider drag moves a plot's range on every frame and most frames keep its tick
    values ("0, 100, …, 400" as the sequence grows from 450 to 460): the labels are
    the same strings of the same sizes, and which of them are drawn (those inside the
    axis, those that overlap none kept before, a level's decimals,
    :func:`regular_labels` and ``FastAxisItem.same_decimals``) depends on where they
    are only through a few comparisons: which ticks lie in the range, which labels
    inside the axis' bounding rect, and which two label boxes overlap (the same boxes
    as :func:`box_edges`', and those of the labels written to another level's
    decimals). Those are worked out as arrays (:meth:`state`); when all of them come
    out as they did, every choice is the same, and the specs are the ones worked out
    then at the new positions (:meth:`specs`): the same floats, the same pixels.
    """

    __slots__ = (
        "orientation",
        "dim",
        "tick_start",
        "tick_stop",
        "gap",
        "label_levels",
        "widths",
        "heights",
        "width_list",
        "height_list",
        "texts",
        "sources",
        "variant_widths",
        "variant_heights",
        "variant_texts",
        "tick_pens",
        "tick_stops",
        "axis_spec",
        "text_size",
        "label_ticks",
        "spacings",
        "top_level",
        "decision",
        "signature",
        "buffers",
        "identity",
        "variant_width_list",
        "variant_height_list",
        "box_dx",
        "box_dy",
        "box_w",
        "box_h",
        "labelled_index",
        "stop_list",
    )
    orientation: str
    dim: int  # 0: a vertical axis, 1: a horizontal one
    tick_start: float  # where the ticks start across the axis ...
    tick_stop: float  # ... and where the labels' side of them ends
    gap: float  # px between the ticks' end and the labels
    label_levels: np.ndarray  # the tick level of each label
    widths: np.ndarray  # each label's size (as ``text_measure``), arrays ...
    heights: np.ndarray
    width_list: list[float]  # ... and lists
    height_list: list[float]
    texts: list[str]  # the labels of the text levels' ticks, in order
    sources: np.ndarray  # the label each variant writes anew ...
    variant_widths: np.ndarray  # ... its size
    variant_heights: np.ndarray
    variant_texts: list[str]  # ... and text (another level's decimals)
    tick_pens: list[QtGui.QPen]  # each tick's pen and ...
    tick_stops: np.ndarray  # ... its end across the axis
    axis_spec: tuple
    text_size: float
    label_ticks: list[tuple[int, float]]
    spacings: tuple[float | None, ...]
    top_level: int  # the finest level with labels
    decision: list[int]  # the labels kept: k ≥ 0 the k-th label, -1 - v variant v
    signature: tuple  # what :meth:`state` found when the labels were chosen
    buffers: tuple[np.ndarray, np.ndarray, np.ndarray]  # labels and variants, for state
    box_dx: np.ndarray | float  # box_edges' box of each label and variant from its
    box_dy: np.ndarray | float  # rectangle: where it starts ...
    box_w: np.ndarray  # ... and its size
    box_h: np.ndarray
    labelled_index: list[int]  # the labels drawn (of the signature's)
    stop_list: list[float]  # tick_stops as a list
    identity: list[int]  # 0, 1, …: a decision that keeps every label as it is
    variant_width_list: list[float]  # the variants' sizes as lists
    variant_height_list: list[float]

    def prepare(self) -> None:
        """Work out what :meth:`state` and :meth:`specs` take from the labels' sizes:
        their boxes' offsets (:func:`box_offsets`, the same arithmetic) and buffers."""
        widths = np.concatenate((self.widths, self.variant_widths))
        heights = np.concatenate((self.heights, self.variant_heights))
        self.box_dx, self.box_dy, self.box_w, self.box_h = box_offsets(
            self.orientation, widths, heights
        )
        self.buffers = (
            np.zeros(len(widths), dtype=bool),
            np.zeros(len(widths)),
            np.zeros(len(widths)),
        )

    def state(
        self, positions: np.ndarray, x_min: float, x_max: float, own_rect: QtCore.QRectF
    ) -> tuple | None:
        """``(signature, ticks shown, label corners, relabelled corners, labels
        shown)`` at tick ``positions`` in an axis from ``x_min`` to ``x_max`` whose
        labels must lie in ``own_rect``; ``None`` when a label lies too near its edge
        to tell (:data:`SHIFT_UNSURE`)."""
        # (ufuncs and operators only, and buffers kept: numpy's Python-level
        # functions - where, concatenate, flatnonzero, any - cost calls each)
        shown = ~((positions < x_min) | (positions > x_max))
        n = len(self.texts)
        x, y = label_origins(
            self.orientation,
            self.tick_stop,
            self.gap,
            positions[:n],
            self.widths,
            self.heights,
        )
        inside, unsure = _inside(own_rect, x, y, self.widths, self.heights)
        candidates = shown[:n]
        if True in (unsure & candidates):
            return None
        labelled = candidates & inside & (self.label_levels <= self.top_level)
        src = self.sources
        vx, vy = relabel_origins(
            self.orientation,
            x[src],
            y[src],
            self.widths[src],
            self.heights[src],
            self.variant_widths,
            self.variant_heights,
        )
        ok, bx, by = self.buffers
        ok[:n], ok[n:] = labelled, labelled[src]
        bx[:n], bx[n:] = x, vx
        by[:n], by[n:] = y, vy
        # box_edges' boxes of sizes > 0 (LabelShift keeps no other): no side swapped
        left, top = bx + self.box_dx, by + self.box_dy
        right, bottom = left + self.box_w, top + self.box_h
        empty = ((left == right) | (top == bottom)) & ok
        meet = (
            (left[:, None] < right)
            & (left < right[:, None])
            & (top[:, None] < bottom)
            & (top < bottom[:, None])
        )
        meet &= ok[:, None] & ok
        signature = (shown.tobytes(), labelled.tobytes(), empty.tobytes(), meet.tobytes())
        return signature, shown, x, y, vx, vy, labelled

    def specs(self, positions: np.ndarray, found: tuple) -> tuple[AxisLayout, list]:
        """The layout and the labels kept at tick ``positions``, from their
        :meth:`state` ``found``."""
        _signature, shown, x, y, vx, vy, _labelled = found
        point, rect = QtCore.QPointF, QtCore.QRectF
        start = self.tick_start
        at = positions[shown].tolist()
        pens, stops = self.tick_pens, self.stop_list
        if self.dim == 0:
            ticks = [
                (pen, point(start, v), point(stop, v))
                for pen, stop, v in zip(pens, stops, at, strict=True)
            ]
        else:
            ticks = [
                (pen, point(v, start), point(v, stop))
                for pen, stop, v in zip(pens, stops, at, strict=True)
            ]
        flags = _TEXT_FLAGS[self.orientation]
        xs, ys, widths, heights, texts = (
            x.tolist(),
            y.tolist(),
            self.width_list,
            self.height_list,
            self.texts,
        )
        labels = [
            (rect(xs[k], ys[k], widths[k], heights[k]), flags, texts[k])
            for k in self.labelled_index
        ]
        kept = labels
        if len(self.decision) != len(labels) or self.decision != self.identity:
            vxs, vys = vx.tolist(), vy.tolist()
            vw, vh, vt = self.variant_width_list, self.variant_height_list, self.variant_texts
            kept = [
                labels[k]
                if k >= 0
                else (rect(vxs[-1 - k], vys[-1 - k], vw[-1 - k], vh[-1 - k]), flags, vt[-1 - k])
                for k in self.decision
            ]
        layout = AxisLayout(
            (self.axis_spec, ticks, labels), self.text_size, self.label_ticks, self.spacings
        )
        return layout, kept


def shift_positions(
    axis_range: tuple[float, float] | list[float],
    bounds: QtCore.QRectF,
    dim: int,
    values: np.ndarray,
) -> tuple[np.ndarray, float, float]:
    """``(positions, x_min, x_max)``: where :func:`generate_draw_specs` puts ticks at
    ``values``, and the ends of the range it keeps them in (the same arithmetic)."""
    x_scale, offset = value_scale(axis_range, bounds, dim)
    x_range = [x * x_scale - offset for x in axis_range]
    return values * x_scale - offset, min(x_range), max(x_range)
