"""Drawing of the less common panel contents: arrows, tables and mosaic tile labels.

:class:`PanelExtras` is mixed into :class:`gui.plotting.panel_plot.PanelPlot`; it reads and updates the
same items (``self.plot``, ``self.arrows``, ``self.table``, ``self.tile_labels``) and, like
the rest of the drawing code, never computes: positions and texts come from the panel.
"""

from __future__ import annotations

import functools
import math
import operator
import weakref
from typing import Any, NamedTuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import minus_signs
from core.viewdata import Panel
from gui.plotting.legend_strip import close_strip, open_strip
from gui.plotting.plot_data import series_color
from gui.plotting.word_breaks import breakable
from gui.render.line_item import LineItem
from gui.render.pg_compat import replace_text_item
from gui.render.plain_text import PlainTextItem
from gui.render.tile_labels import TileLabels
from gui.theme import Theme


def quiet_moves(text: pg.TextItem) -> None:
    """Let ``text`` move and turn without telling its view box (an arrows panel's texts).

    pyqtgraph has Qt report every move of its items to Python, where a moved item tells
    its view box to drop the item's bounds for auto-range. An arrows panel's range is
    set, never auto-ranged, and its texts move on every frame of a drag (the clock's
    labels, the arrows' names: ~20 reports a frame, each a call into Python).
    """
    text.setFlag(QtWidgets.QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges, False)


class LabelText(pg.TextItem):
    """A ``TextItem`` (an arrows panel's label) of plain text, laid out once per change
    (:class:`~gui.render.plain_text.PlainTextItem`), whose bounding rect is kept between
    changes.

    Its text item is a ``PlainTextItem``, not pyqtgraph's ``QGraphicsTextItem``: the same
    lines and box, without a text document rebuilt for each new text (~8 a clock frame on
    the stage: the clock's stage frame 0.4-0.7 ms faster). Rich text (``setHtml``) is not
    drawn.

    pyqtgraph maps the text's box into the item on every call (two calls into Qt): Qt
    asks for it several times a paint and :meth:`PanelExtras.place_labels` once more,
    ~70 times a clock frame. The box changes only where pyqtgraph re-places the text
    (``updateTextPos``: a new text, font, width or anchor), which forgets the
    kept one; :meth:`updateTextPos` is pyqtgraph's, with its point arithmetic done on
    plain floats (the same operations). The rect returned is the kept one: callers
    read it (place_labels, the halo's fill), none changes it.
    """

    _rect: QtCore.QRectF | None = None
    #: where the anchor is, as pyqtgraph's ``Point`` (TextItem's attribute, typed here)
    anchor: pg.Point
    textItem: PlainTextItem

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        replace_text_item(self, PlainTextItem())

    def boundingRect(self) -> QtCore.QRectF:
        rect = self._rect
        if rect is None:
            rect = self._rect = self.textItem.mapRectToParent(self.textItem.boundingRect())
        return rect  # (kept: not to be changed by callers; Qt gets a copy)

    def updateTextPos(self) -> None:
        text = self.textItem
        r = text.boundingRect()
        size = text.mapToParent(r.bottomRight()) - text.mapToParent(r.topLeft())
        anchor = self.anchor
        text.setPos(-(size.x() * anchor.x()), -(size.y() * anchor.y()))
        self._rect = None
        self._fitted = None

    #: the text and room (px) :meth:`fit_width` last fitted (``None``: since changed)
    _fitted: tuple[str, float] | None = None

    def fit_width(self, room: float) -> None:
        """Wrap the text onto centred lines at most ``room`` pixels wide where one line
        is wider; one line where it fits.

        The clock's "q at (m + s)·θ = 93400 rad (1.49·10⁴ turns)" was 371 px wide in a
        345 px plane (the live window at 1600 x 1000, 100 %) and was cut off at the
        plane's right edge; wrapped it is whole. Measured only when the text or the
        room changed (a drag changes the texts every frame, the room seldom).
        """
        text = self.textItem
        plain = text.toPlainText()
        if self._fitted == (plain, room):
            return
        # (one line: its box's width, nothing laid out again; wrapped: laid out once
        # more on one line, measured)
        width = float(room) if text.natural_width() > room else -1.0
        if text.textWidth() != width:
            self.setTextWidth(width)  # (re-places the text: forgets _fitted)
        self._fitted = (plain, room)

    #: the share of its font's size the text is drawn at (an arrow's name where it has
    #: no room at its size: :meth:`PanelExtras.place_labels`)
    shrink = 1.0

    def set_shrink(self, share: float) -> None:
        """Draw the text at ``share`` of its size (scaled as an item: its font, and so
        its box's size in the plot's sizes, stays the same)."""
        self.shrink = share
        self.textItem.setScale(share)
        self.updateTextPos()

    def set_plain_text(self, text: str) -> None:
        """Show ``text``, known to differ from the text shown (``TextItem.setText``
        without its second look at the text shown)."""
        self.textItem.setPlainText(text)
        self.updateTextPos()


class HaloText(LabelText):
    """An arrows panel's text on a translucent patch of the background (its halo).

    While :attr:`live` (a drag's frames) the patch is filled aliased, on whole pixels.
    Qt fills an antialiased box at a fractional offset through its drawing thread pool
    and waits for the pool (a wait per text: the clock's ~9 halos cost 5-13 ms of a
    frame's wall clock on a loaded 2-core machine, for ~0.2 ms of CPU), while an aliased
    box is one plain fill. The box moves by less than a pixel; full quality (live off)
    paints it antialiased again, exactly as before.
    """

    #: a drag's frame: the halo is aliased (set by PanelPlot.set_quality)
    live = False
    #: halos painted aliased (tests)
    aliased_halos = 0
    #: the halo's brush (pyqtgraph's TextItem attribute, typed here)
    fill: QtGui.QBrush

    def set_live(self, live: bool) -> None:
        """Paint the halo aliased (``True``) or antialiased; repaints when it changes."""
        if live != self.live:
            self.live = live
            if self.fill.style() != QtCore.Qt.BrushStyle.NoBrush:
                self.update()

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        fill = self.fill
        if not self.live or fill.style() == QtCore.Qt.BrushStyle.NoBrush:
            super().paint(p, *args)
            return
        self.fill = _NO_FILL  # pyqtgraph's own paint keeps its scene hook (and border)
        try:
            super().paint(p, *args)
        finally:
            self.fill = fill
        box = self.boundingRect()
        p.save()
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
        p.fillRect(box, fill)
        p.restore()
        HaloText.aliased_halos += 1


TABLE_PT = 10  # pt at 100 %: a table's text at its full size
TABLE_FLOOR = 0.4  # of its full size a table's text shrinks to at most to fit the stage
TABLE_PT_STEP = 0.05  # of its full size a table's text shrinks by per step
TABLE_PT_FINE = 0.25  # pt: then it grows back by this much per step while it fits
TABLE_PAD_V, TABLE_PAD_H = 2, 8  # px around the text of a table's cell
_NO_FILL = QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush)
ARROWS_SPAN = 1.5  # an arrows panel shows ±this round the unit circle (aspect kept)
# device px: a live frame keeps an arrows panel's items as drawn where none of its
# points is farther than this from where it is drawn (PanelExtras.keeps_still)
STILL_PX = 0.5
# an arrows panel's texts keep off its circle and the arcs round its origin at least
# this far out (the clock's trails) as whole rings, and off its other lines (the angle's
# arc, q·k, q's shadow) as at most this many segments each
RING_RADIUS = 0.9
OBSTACLE_SEGMENTS = 12
# the places a text is tried at round its own: steps of this share of its width and
# height, as far as this many steps each way, the nearest first (in chunks: the first
# few are free most of the time)
_STEP_W, _STEP_H, _STEPS = 0.125, 0.25, 24
_CHUNKS = (144, 128, 512)
_FINE = 1 + 144  # (its own place and the first chunk: every step)
# a text that belongs in a wedge (Label.wedge) is tried at these radii along the
# wedge's middle where no place as near as the nearest free one is in it
_WEDGE_RADII = np.linspace(0.15, 0.95, 17)


def _chunks(w: float, h: float) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Steps ``(i, j)`` round the own place of a text ``w`` x ``h`` px, the nearest
    first, in chunks of :data:`_CHUNKS` (the rest in one), each with the least and most
    of its steps each way ``(i, i, j, j)``; its own place (no step) left out.

    Nearest in pixels (its width to its height in half steps). Counted in the text's
    sizes, a step of its width counted as much as one of its height, and the clock's
    "q·k = +0.540" (7 times as wide as high) went 300 px sideways, out of the circle,
    rather than 125 px down into it."""
    return _chunks_for(max(0.5, round(2 * w / max(h, 1.0)) / 2))


@functools.lru_cache(maxsize=64)
def _chunks_for(ratio: float) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    steps = _offsets_for(ratio)
    chunks, start = [], 1  # (steps[0] is its own place)
    for size in (*_CHUNKS, len(steps)):
        chunk = steps[start : start + size]
        start += size
        if len(chunk):
            i, j = chunk[:, 0], chunk[:, 1]
            chunks.append((chunk, (int(i.min()), int(i.max()), int(j.min()), int(j.max()))))
    return chunks


def _meets(
    reach: tuple[float, float, float, float], box: tuple[float, float, float, float]
) -> bool:
    """Whether the box ``box`` (left, top, width, height) reaches into ``reach``
    (left, top, right, bottom)."""
    return (
        box[0] < reach[2]
        and box[0] + box[2] > reach[0]
        and box[1] < reach[3]
        and box[1] + box[3] > reach[1]
    )


@functools.lru_cache(maxsize=64)
def _offsets_for(ratio: float) -> np.ndarray:
    i, j = np.meshgrid(np.arange(-_STEPS, _STEPS + 1), np.arange(-4 * _STEPS, 4 * _STEPS + 1))
    steps = np.column_stack([i.ravel(), j.ravel()])
    far = np.hypot(steps[:, 0] * (_STEP_W * ratio), steps[:, 1] * _STEP_H)
    steps = steps[np.argsort(far, kind="stable")]
    # beyond the nearest places every other step each way (a quarter of the places to
    # try where a text goes far: the clock's "q·k" went ~150 px on stage, ~1 000 places)
    even = (steps % 2 == 0).all(axis=1)
    even[:_FINE] = True
    return steps[even]


class _Columns(NamedTuple):
    """Segments as columns: from ``(x0, y0)`` by ``(dx, dy)``, with their boxes."""

    x0: np.ndarray
    y0: np.ndarray
    dx: np.ndarray
    dy: np.ndarray
    left: np.ndarray
    top: np.ndarray
    right: np.ndarray
    bottom: np.ndarray


class _Lines:
    """Segments (scene pixels), a row each (``x0, y0, dx, dy`` and their boxes'
    ``left, top, right, bottom``): a text's own place is tried in plain Python (a few
    numpy calls on one box cost more than a look at each of ~30 segments); as columns
    (:attr:`columns`) only where a text's own place is not free (a search).

    Rows and the box of them all are worked out in one pass over a table of them (the
    same float operations): row by row it took ~180 calls into Python a plot (a min
    and a max per coordinate per segment), ~900 a clock frame; the columns are taken
    from the table when a search first asks (~20 calls a plot, 5 plots a clock frame).
    """

    def __init__(self, segments: Any) -> None:
        """The segments of the rows ``x0, y0, x1, y1`` (an array or a list of rows)."""
        s = np.asarray(segments, dtype=float).reshape(-1, 4)
        starts, ends = s[:, :2], s[:, 2:]
        low, high = np.minimum(starts, ends), np.maximum(starts, ends)
        # one table, a row a segment: x0, y0, dx, dy, left, top, right, bottom
        self._table = np.concatenate([starts, ends - starts, low, high], axis=1)
        self.rows = self._table.tolist()
        #: the box of them all: ``(left, top, right, bottom)``
        # (the reductions themselves: ndarray.min and max are numpy's Python wrappers
        # of them, three calls each, 5 plots a clock frame)
        self.extent = (*_LEAST(low, axis=0).tolist(), *_MOST(high, axis=0).tolist())

    @functools.cached_property
    def columns(self) -> _Columns:
        """The segments as columns (for many boxes at once, :func:`_hits`): only a
        search needs them (most of a frame's texts are free at their own place)."""
        return _Columns(*self._table.T)


class _ToData(NamedTuple):
    """Scene pixels to data of a view box (which neither turns nor shears):
    ``x = px·kx + bx``, ``y = py·ky + by``."""

    kx: float
    bx: float
    ky: float
    by: float

    @classmethod
    def of(cls, to_scene: QtGui.QTransform) -> _ToData:
        """The inverse of ``to_scene`` (data to scene pixels)."""
        m11, m22 = to_scene.m11(), to_scene.m22()
        return cls(1.0 / m11, -to_scene.m31() / m11, 1.0 / m22, -to_scene.m32() / m22)


class _Avoid(NamedTuple):
    """What a text keeps ``pad`` px off: ``lines`` (``None``: none) and the circles
    round the data's origin of squared radii ``rings`` (drawn lines: their whole
    circles, kept off wherever a trail is drawn of them), with the map to data."""

    lines: _Lines | None
    rings: tuple[float, ...]
    to_data: _ToData
    pad: float
    #: :attr:`rings` as an array (sorted, as they are)
    ring_array: np.ndarray


def _data_box(
    left: float, top: float, right: float, bottom: float, to_data: _ToData
) -> tuple[float, float, float, float]:
    """A scene box in data: ``(x_lo, x_hi, y_lo, y_hi)``."""
    kx, bx, ky, by = to_data
    xa, xb, ya, yb = left * kx + bx, right * kx + bx, top * ky + by, bottom * ky + by
    # (min and max of two, as the builtins pick them, without their calls: a frame
    # tries ~12 texts' own places, each through here)
    return (
        xb if xb < xa else xa,
        xb if xb > xa else xa,
        yb if yb < ya else ya,
        yb if yb > ya else ya,
    )


def _reach(
    x_lo: np.ndarray | float,
    x_hi: np.ndarray | float,
    y_lo: np.ndarray | float,
    y_hi: np.ndarray | float,
) -> tuple[Any, Any]:
    """The squared distances from the origin to the nearest and the farthest points of
    data boxes (works on floats too)."""
    near_x = np.maximum(np.maximum(x_lo, -x_hi), 0.0)
    near_y = np.maximum(np.maximum(y_lo, -y_hi), 0.0)
    far_x, far_y = np.maximum(-x_lo, x_hi), np.maximum(-y_lo, y_hi)
    return near_x * near_x + near_y * near_y, far_x * far_x + far_y * far_y


def _blocked_one(left: float, top: float, w: float, h: float, avoid: _Avoid) -> bool:
    """Whether the box keeps less than ``avoid.pad`` px off a line or a ring
    (:func:`_blocked` for one box, in plain Python)."""
    pad = avoid.pad
    right, bottom, left, top = left + w + pad, top + h + pad, left - pad, top - pad
    if avoid.rings:
        x_lo, x_hi, y_lo, y_hi = _data_box(left, top, right, bottom, avoid.to_data)
        # max(x_lo, -x_hi, 0.0) etc., as the builtin picks them (without its calls)
        near_x = -x_hi if -x_hi > x_lo else x_lo
        near_x = 0.0 if near_x < 0.0 else near_x
        near_y = -y_hi if -y_hi > y_lo else y_lo
        near_y = 0.0 if near_y < 0.0 else near_y
        near = near_x * near_x + near_y * near_y
        far = (x_hi if x_hi > -x_lo else -x_lo) ** 2 + (y_hi if y_hi > -y_lo else -y_lo) ** 2
        for r in avoid.rings:
            if near <= r <= far:
                return True
    return avoid.lines is not None and _hits_one(left, top, right, bottom, avoid.lines)


def _blocked(
    ls: np.ndarray,
    ts: np.ndarray,
    w: Any,
    h: Any,
    avoid: _Avoid,
    reach: tuple[float, float, float, float] | None = None,
) -> np.ndarray:
    """Whether each box ``(ls, ts, w, h)`` keeps less than ``avoid.pad`` px off a line
    or a ring: a ring passes through a box that has points nearer to and farther from
    the origin than its radius (in data: the view box keeps circles round). ``reach``
    (left, top, right, bottom): a box all the boxes lie in (rings and lines that do
    not pass through it are not looked at)."""
    pad = avoid.pad
    hit = np.zeros(len(ls), bool)
    rings_near = lines_near = True
    if reach is not None:
        r_left, r_top = reach[0] - pad, reach[1] - pad
        r_right, r_bottom = reach[2] + pad, reach[3] + pad
        if avoid.rings:
            x_lo, x_hi, y_lo, y_hi = _data_box(r_left, r_top, r_right, r_bottom, avoid.to_data)
            # (max(x_lo, −x_hi, 0.0) etc. and any() over the rings, as the builtins
            # pick them, without their calls: ~5 a chunk, ~8 chunks a clock frame)
            near_x = -x_hi if -x_hi > x_lo else x_lo
            near_x = 0.0 if near_x < 0.0 else near_x
            near_y = -y_hi if -y_hi > y_lo else y_lo
            near_y = 0.0 if near_y < 0.0 else near_y
            near = near_x * near_x + near_y * near_y
            far_x = x_hi if x_hi > -x_lo else -x_lo
            far_y = y_hi if y_hi > -y_lo else -y_lo
            far = far_x**2 + far_y**2
            rings_near = False
            for r in avoid.rings:
                if near <= r <= far:
                    rings_near = True
                    break
        if avoid.lines is not None:
            e_left, e_top, e_right, e_bottom = avoid.lines.extent
            lines_near = (
                r_left <= e_right and r_right >= e_left and r_top <= e_bottom and r_bottom >= e_top
            )
    if avoid.rings and rings_near:
        kx, bx, ky, by = avoid.to_data
        # the box's centre (its distance from the origin each way) and half sizes, in data
        cx, cy = np.abs((ls + w / 2) * kx + bx), np.abs((ts + h / 2) * ky + by)
        hx, hy = abs(kx) * (w / 2 + pad), abs(ky) * (h / 2 + pad)
        nx, ny = np.maximum(cx - hx, 0.0), np.maximum(cy - hy, 0.0)
        fx, fy = cx + hx, cy + hy
        ring = avoid.ring_array  # (sorted: a ring lies between near and far)
        hit = ring.searchsorted(fx * fx + fy * fy, "right") > ring.searchsorted(
            nx * nx + ny * ny, "left"
        )
    if avoid.lines is not None and lines_near:
        rest = ~hit
        if _ANY(rest):
            if type(w) is np.ndarray:  # (boxes of their own sizes: _wedge_place)
                w, h = w[rest], h[rest]
            lefts, tops = ls[rest] - pad, ts[rest] - pad
            hit[rest] = _hits(lefts, tops, lefts + (w + 2 * pad), tops + (h + 2 * pad), avoid.lines)
    return hit


class _Wedge(NamedTuple):
    """A sector of the unit circle (data): the points ``p`` with ``a·p ≥ 0`` for its two
    sides' forms ``(a_x, a_y)`` and ``|p| ≤ 1``; ``middle``, its middle's direction."""

    sides: tuple[tuple[float, float], tuple[float, float]]
    middle: tuple[float, float]
    #: its width across the middle (the chord of its arc)
    width: float
    #: its text goes in it across faint lines and smaller first (``Label.wedge_first``)
    first: bool = False

    @classmethod
    def of(cls, start: float, sweep: float, *, first: bool = False) -> _Wedge:
        """The sector from the angle ``start`` by ``sweep`` (radians, |sweep| ≤ π)."""
        s = 1.0 if sweep >= 0 else -1.0
        c0, s0 = math.cos(start), math.sin(start)
        c1, s1 = math.cos(start + sweep), math.sin(start + sweep)
        mid = start + sweep / 2
        return cls(
            ((-s * s0, s * c0), (s * s1, -s * c1)),
            (math.cos(mid), math.sin(mid)),
            2 * math.sin(min(abs(sweep), math.pi) / 2),
            first,
        )

    def may_hold(self, w: float, h: float) -> bool:
        """Whether a box ``w`` x ``h`` (data) is narrow enough across the middle and short
        enough along it to lie in the sector (at narrow angles none is: nothing tried)."""
        mx, my = abs(self.middle[0]), abs(self.middle[1])
        return w * my + h * mx <= self.width and w * mx + h * my <= 1.0

    def holds(
        self,
        x_lo: np.ndarray | float,
        x_hi: np.ndarray | float,
        y_lo: np.ndarray | float,
        y_hi: np.ndarray | float,
    ) -> Any:
        """Whether each data box lies in the sector (its corners do: a sector of at most
        π is convex)."""
        inside = _reach(x_lo, x_hi, y_lo, y_hi)[1] <= 1.0
        for a_x, a_y in self.sides:  # the least of a·p over a box is at one corner
            inside = inside & (
                a_x * (x_lo if a_x > 0 else x_hi) + a_y * (y_lo if a_y > 0 else y_hi) >= 0
            )
        return inside


def _hits_one(left: float, top: float, right: float, bottom: float, lines: _Lines) -> bool:
    """Whether the box meets any of ``lines`` (:func:`_hits` for one box)."""
    for x0, y0, dx, dy, s_left, s_top, s_right, s_bottom in lines.rows:
        if s_left > right or s_right < left or s_top > bottom or s_bottom < top:
            continue
        above, below = dx * (top - y0), dx * (bottom - y0)
        before, after = dy * (left - x0), dy * (right - x0)
        # one of above − before … below − after ≤ 0 and one ≥ 0 (as _hits: the least
        # of above/below ≤ the most of before/after and the most ≥ the least)
        if above > below:
            above, below = below, above
        if before > after:
            before, after = after, before
        if above <= after and below >= before:
            return True
    return False


def _hits(
    left: np.ndarray, top: np.ndarray, right: np.ndarray, bottom: np.ndarray, lines: _Lines
) -> np.ndarray:
    """Whether each box meets any of ``lines``: their boxes meet and the segment's line
    passes between the box's corners (the separating axes of a box and a segment)."""
    # (only the boxes that meet the lines' common box: most of a far chunk does not)
    maybe = (
        (left <= lines.extent[2])
        & (right >= lines.extent[0])
        & (top <= lines.extent[3])
        & (bottom >= lines.extent[1])
    )
    if _ALL(maybe):
        return _hits_near(left, top, right, bottom, lines)
    hit = np.zeros(len(left), bool)
    if _ANY(maybe):
        hit[maybe] = _hits_near(left[maybe], top[maybe], right[maybe], bottom[maybe], lines)
    return hit


def _hits_near(
    left: np.ndarray, top: np.ndarray, right: np.ndarray, bottom: np.ndarray, lines: _Lines
) -> np.ndarray:
    """:func:`_hits` for boxes that all meet the lines' common box (those were looked
    for again on each part that did: ~10 numpy calls)."""
    hit = np.zeros(len(left), bool)
    c = lines.columns
    near = (
        (left[:, None] <= c.right)
        & (right[:, None] >= c.left)
        & (top[:, None] <= c.bottom)
        & (bottom[:, None] >= c.top)
    )
    i, j = np.nonzero(near)
    if not len(i):
        return hit
    x0, y0, dx, dy = c.x0[j], c.y0[j], c.dx[j], c.dy[j]
    above, below = dx * (top[i] - y0), dx * (bottom[i] - y0)
    before, after = dy * (left[i] - x0), dy * (right[i] - x0)
    # the line passes between the corners where one of the differences ``above −
    # before`` … ``below − after`` is ≤ 0 and one is ≥ 0: where the least of
    # above/below is ≤ the most of before/after and the most ≥ the least (the same
    # comparisons: a − b ≤ 0 exactly where a ≤ b), without the four differences
    ab_lo, ab_hi = np.minimum(above, below), np.maximum(above, below)
    ba_lo, ba_hi = np.minimum(before, after), np.maximum(before, after)
    hit[i[(ab_lo <= ba_hi) & (ab_hi >= ba_lo)]] = True
    return hit


def _free_of(
    ls: np.ndarray,
    ts: np.ndarray,
    w: Any,
    h: Any,
    placed: list[tuple[float, float, float, float]],
) -> np.ndarray:
    """Whether each box ``(ls, ts, w, h)`` meets no box of ``placed`` (more than a
    sliver: see :func:`_overlaps`)."""
    free = ~np.zeros(len(ls), bool)  # (all True: np.ones is three calls)
    for p_left, p_top, p_w, p_h in placed:
        across = np.minimum(ls + w, p_left + p_w) - np.maximum(ls, p_left)
        down = np.minimum(ts + h, p_top + p_h) - np.maximum(ts, p_top)
        free &= ~((across > 0.5) & (down > 0.5))
    return free


def _wedge_boxes(
    ls: np.ndarray, ts: np.ndarray, w: Any, h: Any, to_data: _ToData, wedge: _Wedge
) -> np.ndarray:
    """Whether each box ``(ls, ts, w, h)`` (scene pixels) lies in ``wedge``."""
    kx, bx, ky, by = to_data
    xa, xb, ya, yb = ls * kx + bx, (ls + w) * kx + bx, ts * ky + by, (ts + h) * ky + by
    return wedge.holds(
        np.minimum(xa, xb), np.maximum(xa, xb), np.minimum(ya, yb), np.maximum(ya, yb)
    )


def _holds(
    best: tuple[float, float] | None, w: float, h: float, avoid: _Avoid, wedge: _Wedge
) -> bool:
    """Whether the box ``w`` x ``h`` px at ``best`` (``None``: nowhere) lies in ``wedge``."""
    if best is None:
        return False
    left, top = best
    return bool(wedge.holds(*_data_box(left, top, left + w, top + h, avoid.to_data)))


def _solid(avoid: _Avoid, solid: np.ndarray) -> _Avoid:
    """``avoid`` with the lines ``solid`` (scene pixels: those that are no dashed line)
    alone and, of its rings, the circle alone: what a wedge's text keeps off in its
    wedge. q's shadow and the trails are faint and drawn under the text's halo: k's
    trail, a whole ring at 0.94 as the other texts keep off it, and q's shadow left no
    place between k and q for "+57.3°" on the stage at 200 % (it sat right of k)."""
    rings = tuple(r for r in avoid.rings if r == 1.0)
    return avoid._replace(
        lines=_Lines(solid) if len(solid) else None, rings=rings, ring_array=np.array(rings)
    )


# a wedge's text that has no free place in it at its size (off the solid lines) is
# tried at these shares of it before it goes outside: "−130.8°" (138 x 42 px on the
# stage at 200 %) is 17 px too wide for the room between the angle's arc and the circle
WEDGE_SHRINK = (0.9, 0.8)


def _may_fit(w: float, h: float, avoid: _Avoid, wedge: _Wedge) -> bool:
    """Whether a text ``w`` x ``h`` px is narrow enough for ``wedge`` at the least share
    of :data:`WEDGE_SHRINK` (:meth:`_Wedge.may_hold`; a narrow angle's text is not
    looked for in it again)."""
    least = WEDGE_SHRINK[-1]
    return wedge.may_hold(w * least * abs(avoid.to_data.kx), h * least * abs(avoid.to_data.ky))


def _wedge_place(
    home: tuple[float, float, float, float],
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    avoid: _Avoid,
    wedge: _Wedge,
    outside: tuple[float, float] | None,
) -> tuple[float, tuple[float, float] | None]:
    """The share of its size (1, else the largest of :data:`WEDGE_SHRINK`) at which the
    box ``home``, its centre kept, has a place in ``wedge`` free of ``placed`` and off
    ``avoid`` (the solid lines), with the place; ``(1.0, outside)`` where none has (the
    place found outside the wedge).

    At each share the places :func:`_first_free` tries, nearest first, then those
    centred on the wedge's middle (:data:`_WEDGE_RADII`), nearest first; all of them
    for all the shares looked at together (~25 numpy calls where none is free, as a
    clock frame at 200 % often has).

    The text of a wedge that fits in it only across a dashed line (the clock's q's
    shadow, drawn under the text's halo) or smaller: "+57.3°" between k and q on the
    stage at 200 % sat right of k, outside the angle, where it read as k's."""
    left, top, w, h = home
    cx, cy = left + w / 2, top + h / 2
    kx, _bx, ky, _by = avoid.to_data
    steps = _offsets_for(max(0.5, round(2 * w / max(h, 1.0)) / 2))
    # centres along the middle, nearest the own centre first
    mx, my = _middle_centres(avoid, wedge)
    middle = np.argsort(np.hypot(mx - cx, my - cy), kind="stable")
    mx, my = mx[middle], my[middle]
    parts, shares = [], []
    for share in (1.0, *WEDGE_SHRINK):
        sw, sh = w * share, h * share
        if not wedge.may_hold(sw * abs(kx), sh * abs(ky)):
            continue
        ls = np.concatenate([cx - sw / 2 + steps[:, 0] * (_STEP_W * sw), mx - sw / 2])
        ts = np.concatenate([cy - sh / 2 + steps[:, 1] * (_STEP_H * sh), my - sh / 2])
        parts.append((ls, ts, np.full(len(ls), sw), np.full(len(ls), sh)))
        shares += [share] * len(ls)
    if not parts:
        return 1.0, outside
    sw_all, sh_all = np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts])
    ls, ts = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    ls, ts, at = _free_in_wedge(ls, ts, sw_all, sh_all, area, placed, avoid, wedge)
    if not len(at):
        return 1.0, outside
    k = int(at[0])
    return shares[k], (float(ls[k]), float(ts[k]))


# an arrow's name with no free place at its size is tried at these shares of it, before
# it may cross the circle: in a 1280 x 720 window at 200 % RoPE's plane is 527 x 237 px
# and "q (m=12345)" 243 x 46 px, too high for the 40 px below the circle and too wide
# for beside it (it crossed the circle)
NAME_SHRINK = (0.9, 0.8, 0.7, 0.6)


def _smaller_free(
    tip_x: float,
    tip_y: float,
    origin: tuple[float, float],
    w: float,
    h: float,
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    avoid: _Avoid,
) -> tuple[float, tuple[float, float] | None]:
    """The largest share of :data:`NAME_SHRINK` at which an arrow's name ``w`` x ``h``
    px has a free place (:func:`_first_free`) round its own beyond the tip
    (:func:`_beyond`) at most its height from the tip, with that place; else the
    share whose free place is nearest the tip; ``(1.0, None)`` where it has none.

    (The nearest free place of "q (m=12345)" at 0.9 was left of the circle, ~150 px
    from q's tip, where it named nothing; at 0.8 it is below the tip.)"""
    found: list[tuple[float, float, tuple[float, float]]] = []
    for share in NAME_SHRINK:
        sw, sh = w * share, h * share
        box = _beyond(tip_x, tip_y, *origin, sw, sh, avoid.pad + sh / 4)
        best = _first_free(box, area, placed, avoid)
        if best is not None:
            left, top = best
            gap_x = max(left - tip_x, tip_x - left - sw, 0.0)
            gap_y = max(top - tip_y, tip_y - top - sh, 0.0)
            away = math.hypot(gap_x, gap_y)
            if away <= sh:
                return share, best
            found.append((away, -share, best))
    if not found:
        return 1.0, None
    _away, share, best = min(found)
    return -share, best


def _along_middle(
    home: tuple[float, float, float, float],
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    avoid: _Avoid,
    wedge: _Wedge,
) -> tuple[float, float] | None:
    """The free place (as :func:`_first_free`) of the box ``home`` centred on the
    middle of ``wedge`` (at :data:`_WEDGE_RADII`) and in it that is nearest its own;
    ``None`` where none is."""
    left, top, w, h = home
    mx, my = _middle_centres(avoid, wedge)
    ls, ts, at = _free_in_wedge(mx - w / 2, my - h / 2, w, h, area, placed, avoid, wedge)
    if not len(at):
        return None
    k = int(at[np.argmin(np.hypot(ls[at] - left, ts[at] - top))])
    return float(ls[k]), float(ts[k])


def _middle_centres(avoid: _Avoid, wedge: _Wedge) -> tuple[np.ndarray, np.ndarray]:
    """The centres (scene pixels; data x = px·kx + bx) along the middle of ``wedge``, at
    :data:`_WEDGE_RADII`."""
    kx, bx, ky, by = avoid.to_data
    return (_WEDGE_RADII * wedge.middle[0] - bx) / kx, (_WEDGE_RADII * wedge.middle[1] - by) / ky


def _free_in_wedge(
    ls: np.ndarray,
    ts: np.ndarray,
    w: Any,
    h: Any,
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    avoid: _Avoid,
    wedge: _Wedge,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The boxes ``(ls, ts, w, h)`` (``w``, ``h``: one size, or one each) moved into
    ``area``, and the indices, in order, of those in ``wedge``, free of ``placed`` and
    off ``avoid``."""
    a_left, a_top, a_right, a_bottom = area
    ls = np.maximum(np.minimum(ls, a_right - w), a_left)
    ts = np.maximum(np.minimum(ts, a_bottom - h), a_top)
    at = np.flatnonzero(_wedge_boxes(ls, ts, w, h, avoid.to_data, wedge))
    own = isinstance(w, np.ndarray)  # (then h is one too)
    if len(at):
        at = at[_free_of(ls[at], ts[at], w[at] if own else w, h[at] if own else h, placed)]
    if len(at):
        at = at[~_blocked(ls[at], ts[at], w[at] if own else w, h[at] if own else h, avoid)]
    return ls, ts, at


def _beyond(
    tip_x: float, tip_y: float, o_x: float, o_y: float, w: float, h: float, gap: float
) -> tuple[float, float, float, float]:
    """The box ``(left, top, w, h)`` centred on the line from ``(o_x, o_y)`` through the
    tip, all of it ``gap`` px beyond the tip along that line (off the circle through
    the tip, off the arrow's head): an arrow's name, free of the circle at once most
    of the time (at 1.12 times the tip a hand's "q" crossed its circle and trails)."""
    ux, uy = tip_x - o_x, tip_y - o_y
    norm = math.hypot(ux, uy)
    if norm > 0:
        ux, uy = ux / norm, uy / norm
    # (|ux|, |uy| without abs's calls: a −0.0 kept adds as 0.0 does)
    ax, ay = -ux if ux < 0 else ux, -uy if uy < 0 else uy
    reach = ax * w / 2 + ay * h / 2 + gap  # (the box's half extent along u)
    return tip_x + ux * reach - w / 2, tip_y + uy * reach - h / 2, w, h


def _head_points(
    x: float, y: float, kx: float, ky: float, length: float, half: float
) -> tuple[float, float, float, float, float, float]:
    """The tip and the two corners of the head of the arrow to ``(x, y)`` (data), in
    pixels (``kx``, ``ky`` a unit of data each way; a mirror image where the view's y
    points down: distances are the same): pyqtgraph's arrow, ``length`` px long and
    ``half`` px to each side, turned to the data's angle."""
    turn = math.atan2(y, x)
    ux, uy = math.cos(turn), math.sin(turn)
    tx, ty = x * kx, y * ky
    bx, by = tx - length * ux, ty - length * uy  # (the middle of its base)
    return tx, ty, bx - half * uy, by + half * ux, bx + half * uy, by - half * ux


def _line_obstacles(
    lines: list[tuple[Any, Any]],
) -> list[tuple[np.ndarray | None, float | None]]:
    """Each drawn line's part of what an arrows panel's texts keep off: an arc round
    the origin at least :data:`RING_RADIUS` out (the circle's trails), as ``(None, its
    squared radius)``, rounded (a trail's pieces make one ring); any other line as
    ``(segments, None)``, rows ``x0, y0, x1, y1`` in data, at most
    :data:`OBSTACLE_SEGMENTS` of them (``(None, None)``: nothing drawn).

    A line's least and most squared radius are two reductions of its own (a clock frame
    moves ~17 lines): gathered into one array and reduced by runs (``reduceat``) they
    took ~70 calls a plot, most of them numpy's Python wrappers."""
    parts: list[tuple[np.ndarray | None, float | None]] = []
    for x, y in lines:
        # (a line's arrays are float arrays already, as LineItem keeps them: looked at,
        # not passed through np.asarray, two calls a line, ~30 lines a clock frame)
        if type(x) is not np.ndarray or x.dtype != _FLOAT or x.ndim != 1:
            x = np.asarray(x, float)
        if type(y) is not np.ndarray or y.dtype != _FLOAT or y.ndim != 1:
            y = np.asarray(y, float)
        count = x.shape[0] if x.ndim == 1 else len(x)
        if count > 2:
            r2 = x * x + y * y
            r_low, r_high = float(_LEAST(r2)), float(_MOST(r2))
            if r_high - r_low <= 1e-9 * r_high and r_high >= RING_RADIUS * RING_RADIUS:
                parts.append((None, round(r_high, 9)))
                continue
        elif count == 2:  # (a straight line: q·k, q's shadow)
            x0, x1 = x  # (numpy's floats: the same numbers, without two calls)
            y0, y1 = y
            if math.isfinite(x0 + x1 + y0 + y1):
                parts.append((np.array([[x0, y0, x1, y1]]), None))
                continue
        parts.append((_segments(x, y), None))
    return parts


_FLOAT = np.dtype(float)
# (the reductions themselves: ndarray.min and max go through numpy's Python wrappers)
_LEAST, _MOST = np.minimum.reduce, np.maximum.reduce
# (and ndarray.any and all: three calls each, ~40 a clock frame; a bool array's own)
_ANY, _ALL = np.logical_or.reduce, np.logical_and.reduce


def _segments(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """The finite points of a line as at most :data:`OBSTACLE_SEGMENTS` segments, rows
    ``x0, y0, x1, y1`` (its last point kept); ``None``: fewer than two points.

    A short line (the clock's angle arcs, ~17 points) is taken apart in plain Python:
    numpy's fixed costs (~12 calls) were most of its time, once per arc and frame."""
    if len(x) <= _SHORT_LINE:
        return _short_segments(x.tolist(), y.tolist())
    xy = np.column_stack([x, y])
    xy = xy[np.isfinite(xy).all(axis=1)]
    if len(xy) < 2:
        return None
    step = -(-(len(xy) - 1) // OBSTACLE_SEGMENTS)
    if step > 1:
        xy = np.vstack([xy[:-1:step], xy[-1:]])
    return np.hstack([xy[:-1], xy[1:]])


def _short_segments(x: list[float], y: list[float]) -> np.ndarray | None:
    """:func:`_segments` of a short line's points, in plain Python (the same points,
    steps and rows)."""
    points = [(a, b) for a, b in zip(x, y, strict=True) if a - a == 0 and b - b == 0]
    if len(points) < 2:  # (v − v == 0 above: v is finite)
        return None
    step = -(-(len(points) - 1) // OBSTACLE_SEGMENTS)
    if step > 1:
        points = points[:-1:step] + points[-1:]
    return np.array([(*p, *q) for p, q in zip(points[:-1], points[1:], strict=True)])


#: a line of at most this many points is taken apart in plain Python (:func:`_segments`)
_SHORT_LINE = 64


def _first_free(
    home: tuple[float, float, float, float],
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    avoid: _Avoid | None,
    wedge: _Wedge | None = None,
) -> tuple[float, float] | None:
    """The nearest place ``(left, top)`` round ``home`` (``left, top, width, height``)
    inside ``area`` (``left, top, right, bottom``; left and top win where the box is
    larger) at which the box meets no box of ``placed`` and keeps ``avoid.pad`` px off
    its lines and rings (``None``: nothing to keep off); ``None`` where there is none.

    A box with a ``wedge`` (kept off lines) goes in the wedge where it can: the nearest
    free place in it among the places as near as the nearest free one (those tried
    together, :data:`_CHUNKS`), else the nearest free one centred on the wedge's middle
    (:func:`_along_middle`), else the nearest free place. No more is tried than without
    a wedge but that middle, and only where the box may fit (:meth:`_Wedge.may_hold`):
    at narrow angles it does not."""
    left, top, w, h = home
    a_left, a_top, a_right, a_bottom = area
    if wedge is not None and (
        avoid is None or not wedge.may_hold(w * abs(avoid.to_data.kx), h * abs(avoid.to_data.ky))
    ):
        wedge = None
    # its own place first
    # (max(min(left, a_right − w), a_left) and so for top, as the builtins pick them,
    # without their calls: ~12 texts a frame)
    own_x = a_right - w if a_right - w < left else left
    own_y = a_bottom - h if a_bottom - h < top else top
    own = (a_left if a_left > own_x else own_x, a_top if a_top > own_y else own_y)
    # (a loop, not any() over a generator: ~5 calls fewer a text, ~12 texts a frame)
    clear = True
    for p in placed:
        if _overlaps(own[0], own[1], w, h, p):
            clear = False
            break
    if clear and (avoid is None or not _blocked_one(own[0], own[1], w, h, avoid)):
        if wedge is None or avoid is None:
            return own
        if wedge.holds(*_data_box(own[0], own[1], own[0] + w, own[1] + h, avoid.to_data)):
            return own
        return _along_middle(home, area, placed, avoid, wedge) or own
    step_w, step_h = _STEP_W * w, _STEP_H * h
    x_room, y_room = a_right - w, a_bottom - h
    for chunk, (i_low, i_high, j_low, j_high) in _chunks(w, h):
        # the box all of the chunk's boxes lie in: what is outside it is not looked at
        low_x, high_x = left + i_low * step_w, left + i_high * step_w
        low_y, high_y = top + j_low * step_h, top + j_high * step_h
        ls = left + chunk[:, 0] * step_w
        ts = top + chunk[:, 1] * step_h
        if low_x < a_left or high_x > a_right - w:  # (inside the area: as they are)
            ls = np.maximum(np.minimum(ls, a_right - w), a_left)
        if low_y < a_top or high_y > a_bottom - h:
            ts = np.maximum(np.minimum(ts, a_bottom - h), a_top)
        # (max(min(v, a_right − w), a_left) and so on, as the builtins pick them,
        # without their calls: eight a chunk, ~8 chunks a clock frame)
        r_left = x_room if x_room < low_x else low_x
        r_left = a_left if a_left > r_left else r_left
        r_top = y_room if y_room < low_y else low_y
        r_top = a_top if a_top > r_top else r_top
        r_right = x_room if x_room < high_x else high_x
        r_right = a_left if a_left > r_right else r_right
        r_bottom = y_room if y_room < high_y else high_y
        r_bottom = a_top if a_top > r_bottom else r_bottom
        reach = (r_left, r_top, r_right + w, r_bottom + h)
        free = _free_of(ls, ts, w, h, [p for p in placed if _meets(reach, p)])
        if avoid is not None and _ANY(free):
            free[free] = ~_blocked(ls[free], ts[free], w, h, avoid, reach)
        if not _ANY(free):
            continue
        if wedge is not None and avoid is not None:
            inside = free.copy()
            inside[free] = _wedge_boxes(ls[free], ts[free], w, h, avoid.to_data, wedge)
            if _ANY(inside):
                k = int(np.argmax(inside))
                return float(ls[k]), float(ts[k])
            middle = _along_middle(home, area, placed, avoid, wedge)
            if middle is not None:
                return middle
        k = int(np.argmax(free))
        return float(ls[k]), float(ts[k])
    return None


#: a live frame's text is tried at as many of its recent offsets (PanelExtras.place_labels)
RECENT_PLACES = 8

#: how a search placed a text (PanelExtras.place_labels): as the search's rules say; a
#: wedge's text outside its wedge, which had no free place for it; a wedge's text in
#: its wedge off its solid lines alone (across a dashed line maybe: _wedge_place)
_IN_PLACE, _OUTSIDE, _ACROSS_DASHES = 0, 1, 2


def _remember(
    offset: tuple[float, float], earlier: tuple[tuple[float, float], ...]
) -> tuple[tuple[float, float], ...]:
    """``offset`` first, then the ``earlier`` offsets but it, at most
    :data:`RECENT_PLACES` of them."""
    return (offset, *[o for o in earlier if o != offset])[:RECENT_PLACES]


def _turned(
    offset: tuple[float, float],
    was: tuple[float, float] | None,
    now: tuple[float, float] | None,
    sx: float,
    sy: float,
) -> tuple[float, float] | None:
    """``offset`` (px: a text's place less its own) turned in data as far as the middle
    of its wedge turned, from ``was`` to ``now`` (unit directions in data; ``sx``,
    ``sy``: data to scene pixels each way); ``None`` where there is nothing to turn (no
    wedge then or now, no offset, or the same direction)."""
    if was is None or now is None or (offset[0] == 0.0 and offset[1] == 0.0):
        return None
    cos = was[0] * now[0] + was[1] * now[1]
    sin = was[0] * now[1] - was[1] * now[0]
    if sin == 0.0 and cos > 0.0:
        return None
    x, y = offset[0] / sx, offset[1] / sy  # (in data: the view box's y points up)
    return (cos * x - sin * y) * sx, (sin * x + cos * y) * sy


def _still_free(
    left: float,
    top: float,
    w: float,
    h: float,
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    avoid: _Avoid,
    wedge: _Wedge | None,
) -> bool:
    """Whether the box ``(left, top, w, h)`` is a place :func:`_first_free` may give:
    inside ``area``, meeting no box of ``placed``, ``avoid.pad`` px off its lines and
    rings and, where ``wedge`` may hold it, in ``wedge`` (a live frame's text keeps its
    last frame's place round its own where it still is: :meth:`PanelExtras.place_labels`)."""
    a_left, a_top, a_right, a_bottom = area
    if left < a_left or top < a_top or left > a_right - w or top > a_bottom - h:
        return False
    for p in placed:
        if _overlaps(left, top, w, h, p):
            return False
    if _blocked_one(left, top, w, h, avoid):
        return False
    kx, _bx, ky, _by = avoid.to_data
    if wedge is not None and wedge.may_hold(w * abs(kx), h * abs(ky)):
        return bool(wedge.holds(*_data_box(left, top, left + w, top + h, avoid.to_data)))
    return True


def _first_still_free(
    offsets: list[tuple[float, float]],
    box: tuple[float, float, float, float],
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    avoid: _Avoid,
    wedge: _Wedge | None,
) -> tuple[tuple[float, float], float, float] | None:
    """The first of ``offsets`` (px from ``box``'s own place) at which the box is free by
    :func:`_still_free`'s rules, with the place's left and top; ``None`` where none is."""
    left, top, w, h = box
    for offset in offsets:
        at_x, at_y = left + offset[0], top + offset[1]
        if _still_free(at_x, at_y, w, h, area, placed, avoid, wedge):
            return offset, at_x, at_y
    return None


#: a line's arrays (LineItem.getOriginalDataset), read without a call into Python
_ORIGINAL = operator.attrgetter("_original")

#: a drawn line's arrays and its part of the obstacles (segments or a ring's radius²)
_LinePart = tuple[Any, Any, np.ndarray | None, float | None]


class PanelExtras:
    """Arrows (RoPE), HTML tables (compare) and tile labels (ALiBi mosaic) of a plot."""

    plot: pg.PlotItem
    panel: Panel | None
    arrows: list[pg.GraphicsObject]
    #: where each arrow of :attr:`arrows` points and its name, as last drawn
    _arrow_tips: list[tuple[float, float, str]] = []
    text_labels: list[HaloText]
    #: those of :attr:`text_labels` drawn in the strip above the data (strip labels)
    _captions: list[HaloText] = []
    legend: object | None
    #: the theme and colours :attr:`text_labels` were given (their look is re-checked
    #: only when these change)
    _label_colors: tuple | None = None
    _label_homes: list[tuple[LabelText, float, float, float, float]]
    #: what the texts keep off (see :meth:`_show_labels`): segments in data coordinates
    #: (the shafts first), each head's length and half width (px) and the px kept
    _obstacles: np.ndarray = np.zeros((0, 4))
    _head_sizes: list[tuple[float, float]] = []
    _obstacle_pad = 0.0
    #: ... and the squared radii of the rings round the origin they keep off
    _rings: tuple[float, ...] = ()
    #: how many of :attr:`_label_homes` are the arrows' names (the first ones)
    _tip_names = 0
    #: the wedge each text of :attr:`_label_homes` belongs in (``None``: none)
    _label_wedges: list[_Wedge | None] = []
    #: each line's part of the obstacles (segments or a ring), with the arrays it was
    #: worked out from: a line not moved (k's trail in a drag of m) keeps its part
    _line_parts: list[_LinePart] = []
    curves: list  # (PanelPlot's: its lines, as self.panel's series)
    #: what :meth:`place_labels` last placed the texts for (``None``: to place again)
    _placed_for: tuple | None = None
    #: the panel whose arrows, lines and texts' places an arrows panel's items draw,
    #: with the theme of its texts (``None``: none yet); a live frame may keep them
    #: (:meth:`keeps_still`)
    _drawn: tuple[Panel, Theme] | None = None
    #: a live frame kept the items as :attr:`_drawn` draws them, behind the panel shown:
    #: the frame in full quality draws that panel exactly (PanelPlot.set_quality)
    still_behind = False
    #: live frames that kept an arrows panel's items as drawn (tests)
    still_frames = 0
    #: texts placed (tests: a call with nothing moved places none)
    placements = 0
    #: a drag's live frames: a text keeps its last place round its own where that is
    #: still free (set by PanelPlot.set_quality; see :meth:`place_labels`)
    labels_live = False
    #: whether :meth:`place_labels` last placed the texts on a live frame
    _placed_live = False
    #: each text's last place less its own place, px (``None``: drawn smaller there)
    _label_offsets: list[tuple[float, float] | None] = []
    #: the direction of the middle of each text's wedge (data) when it took that place
    #: (``None``: no wedge; see :func:`_turned`)
    _label_middles: list[tuple[float, float] | None] = []
    #: live frames' texts kept at their last place turned with their wedge (tests)
    turned_places = 0
    #: each text's offsets of the drag's last frames, newest first (at most
    #: :data:`RECENT_PLACES`; empty: none, or not live)
    _label_recent: list[tuple[tuple[float, float], ...]] = []
    #: live frames' texts kept at one of their recent offsets, not their last (tests)
    recent_places = 0
    #: texts that kept their last place on a live frame: a count, and those of the
    #: last placing (tests)
    kept_places = 0
    kept_texts: list[LabelText] = []
    #: how each text's last search placed it, :data:`_IN_PLACE`, :data:`_OUTSIDE` or
    #: :data:`_ACROSS_DASHES`: where a live frame may keep it (:meth:`place_labels`)
    _label_how: list[int] = []
    #: live frames' texts kept outside their wedge where no place in it was free, and
    #: those kept in their wedge across a dashed line (tests)
    outside_places = 0
    across_places = 0
    table: pg.TextItem | None
    tile_labels: TileLabels | None
    _table_html: str | None
    #: the table's point size now, its full size when last drawn, and the room (px) the
    #: view last fitted it to (``None``: not fitted, full size; see :meth:`fit_table`)
    _table_pt: float = 0.0
    _table_full: int = 0
    _table_room: float | None = None

    def _show_tile_labels(self, panel: Panel, theme: Theme) -> None:
        """Label each tile of a mosaic heatmap in its top-right corner (see TileLabels)."""
        if not panel.tiles:
            self._drop_tile_labels()
            return
        if self.tile_labels is None:
            self.tile_labels = TileLabels(
                self.plot.getViewBox(),
                theme.font(10),
                theme.foreground,
                pg.mkColor(theme.background + "c0"),
            )
        self.tile_labels.set_tiles(panel.tiles)

    def _drop_tile_labels(self) -> None:
        if self.tile_labels is not None:
            self.tile_labels.detach()
            self.tile_labels = None

    def _show_labels(self, panel: Panel, theme: Theme) -> None:
        """An arrows panel's texts at data coordinates (the clock's angle and q·k), its
        strip labels in the strip above the data (:meth:`place_captions`)."""
        strips = [label.strip for label in panel.labels]
        if len(self.text_labels) != len(panel.labels) or strips != [
            item in self._captions for item in self.text_labels
        ]:
            self._drop_labels()
            for label in panel.labels:
                item = HaloText(minus_signs(label.text), color=series_color(label.color, theme))
                quiet_moves(item)
                item.setAnchor((0.5, 0.5))
                item.setFont(self.text_theme(theme).font(11, bold=True))
                if label.strip:
                    item.setParentItem(open_strip(self.plot))
                    self._captions.append(item)
                else:
                    self.plot.addItem(item)
                self.text_labels.append(item)
            self._label_colors = None
        font = self.text_theme(theme).font(11, bold=True)  # (focused: grown)
        for item, label in zip(self.text_labels, panel.labels, strict=True):
            if item.textItem.font() != font:
                item.setFont(font)
            # a value's minus U+2212 ("−41.1°"), as the titles and tick labels write it
            if item.textItem.toPlainText() != (text := minus_signs(label.text)):
                item.set_plain_text(text)
        # the colours and patches, when the theme or the labels' colours changed (a
        # drag changes the texts alone: ~10 colours made and compared a clock frame)
        # (lists, not generators: a generator is a call per item, ~25 calls a frame)
        colors = (theme, tuple([label.color for label in panel.labels]))
        if colors != self._label_colors:
            self._label_colors = colors
            # on a translucent patch of the background, as the tile labels: a line
            # through the text (the clock's k arrow through "q·k = +0.540") leaves it
            # readable
            halo = pg.mkColor(theme.background + "c0")
            for item, label in zip(self.text_labels, panel.labels, strict=True):
                color = pg.mkColor(series_color(label.color, theme))
                if item.color != color:  # (a new colour re-renders the text)
                    item.setColor(color)
                if item.fill.color() != halo:
                    item.fill = pg.mkBrush(halo)
                    item.update()
        # arrow tips' names first (they belong to their tips), then the panel's texts
        tips = [
            (label, a.x * 1.12, a.y * 1.12, a.x, a.y)
            for a, label in zip(panel.arrows, self.arrows[3::3], strict=True)
        ]
        texts = [
            (i, lb.x, lb.y, lb.x, lb.y)
            for i, lb in zip(self.text_labels, panel.labels, strict=True)
            if not lb.strip
        ]
        self._label_homes = tips + texts
        self._tip_names = len(tips)
        wedges: list[_Wedge | None] = [None for _tip in tips]
        self._label_wedges = wedges + [
            None if lb.wedge is None else _Wedge.of(*lb.wedge, first=lb.wedge_first)
            for lb in panel.labels
            if not lb.strip
        ]
        # what the texts keep off: each arrow's shaft (the first rows) and the lines
        # drawn (the clock's angle arc, q·k and q's shadow) as segments, the circle and
        # the arcs round the origin near it (the trails) as rings; the heads, drawn in
        # pixels, are worked out on screen (_obstacle_segments)
        rows = [np.array([[0.0, 0.0, a.x, a.y] for a in panel.arrows]).reshape(-1, 4)]
        rings = {1.0} if self.arrows else set()  # (the circle)
        # (comprehensions: a clock frame looks at ~57 lines, ~5 calls each in a loop)
        parts = self._line_parts
        known = len(parts)
        curves = self.curves
        if len(curves) == len(panel.series) and {*map(type, curves)} == {LineItem}:
            # (lines alone, an arrows panel's: their arrays read by map, without a call
            # into Python a line, ~60 lines a clock frame)
            arrays = list(map(_ORIGINAL, curves))
        else:
            arrays = [
                item.getOriginalDataset() if isinstance(item, LineItem) else (series.x, series.y)
                for item, series in zip(curves, panel.series, strict=True)
            ]
        kept: list[_LinePart] = [
            part  # (not moved: the same arrays)
            if k < known and (part := parts[k])[0] is x and part[1] is y
            else (x, y, None, None)
            for k, (x, y) in enumerate(arrays)
        ]
        # (lines not kept: worked out together, _line_obstacles)
        moved = [k for k, part in enumerate(kept) if k >= known or part is not parts[k]]
        if moved:
            lines = [(kept[k][0], kept[k][1]) for k in moved]
            for k, (segments, ring) in zip(moved, _line_obstacles(lines), strict=True):
                kept[k] = (kept[k][0], kept[k][1], segments, ring)
        rows += [segments for _x, _y, segments, _ring in kept if segments is not None]
        rings.update([ring for _x, _y, _segments, ring in kept if ring is not None])
        self._line_parts = kept
        # (rows of four: np.vstack's checks and copies cost ~23 calls, 5 plots a frame)
        self._obstacles = np.concatenate(rows) if len(rows) > 1 else rows[0]
        self._rings = tuple(sorted(rings))
        self.place_labels()
        self._drawn, self.still_behind = (panel, self.text_theme(theme)), False

    def keeps_still(self, panel: Panel, theme: Theme) -> bool:
        """Whether a live frame may keep this arrows panel's items as they are drawn and
        show ``panel``'s strip texts alone: every point it draws (each line's points,
        each arrow's tip and head, each text's own place and wedge) lies within
        :data:`STILL_PX` device pixels of where it is drawn now, and every text but the
        strip's reads the same.

        The clock's slowest hand (pair 31, θ = 0.000133) turns by 0.0013 rad a step of
        a drag of m: its tip moves ~0.1 px, yet its arrow, trail, arc and texts were
        drawn, placed and painted anew on every frame (~0.45 ms of a stage frame at
        150 %), its caption ("q: 0.3°") the only change to be seen. Compared with what
        is drawn, not with the frame before: small steps never add up to more. The
        frame in full quality draws the panel exactly (:attr:`still_behind`).
        """
        last = self._placed_for
        if not self.labels_live or self._drawn is None or last is None:
            return False
        drawn, drawn_theme = self._drawn
        if (
            len(panel.arrows) != len(drawn.arrows)
            or len(panel.labels) != len(drawn.labels)
            or len(panel.series) != len(self.curves)
            or len(self._head_sizes) != len(panel.arrows)
        ):
            return False
        to_scene = last[5]  # (data to scene pixels, as the texts were placed)
        kx, ky = abs(to_scene.m11()), abs(to_scene.m22())
        # the arrows first (a hand that turns: most planes of most frames), against the
        # tolerance in scene pixels at its largest (device pixels as large)
        moved = 0.0
        for a, d, (length, half) in zip(panel.arrows, drawn.arrows, self._head_sizes, strict=True):
            if a.name != d.name:
                return False
            # the shaft's tip and the head's corners (the shaft's other end: the origin)
            new = _head_points(a.x, a.y, kx, ky, length, half)
            old = _head_points(d.x, d.y, kx, ky, length, half)
            for k in (0, 2, 4):
                step = math.hypot(new[k] - old[k], new[k + 1] - old[k + 1])
                if not step <= STILL_PX:
                    return False
                moved = step if step > moved else moved
        if self.text_theme(theme) != drawn_theme:  # (texts of another size: placed anew)
            return False
        scene = self.plot.scene()
        ratio = max([v.devicePixelRatioF() for v in scene.views()], default=1.0)
        tol = STILL_PX / max(ratio, 1.0)  # (scene pixels)
        if moved > tol:
            return False
        turn = max(kx, ky)  # (px a point of the unit circle moves a radian)
        for lb, was in zip(panel.labels, drawn.labels, strict=True):
            if lb.strip != was.strip or lb.color != was.color:
                return False
            if lb.strip:
                continue  # (their text shown, in their strip: not in the plane)
            if lb.text != was.text or lb.wedge_first != was.wedge_first:
                return False
            if not math.hypot((lb.x - was.x) * kx, (lb.y - was.y) * ky) <= tol:
                return False
            if (lb.wedge is None) != (was.wedge is None):
                return False
            if lb.wedge is not None and was.wedge is not None:
                start = abs(math.remainder(lb.wedge[0] - was.wedge[0], math.tau))
                if not turn * (start + abs(lb.wedge[1] - was.wedge[1])) <= tol:
                    return False
        # the lines' points (those moved, gathered: a few numpy calls for them all)
        new_x, new_y, old_xs, old_ys = [], [], [], []
        for item, s in zip(self.curves, panel.series, strict=True):
            if not isinstance(item, LineItem):
                return False
            x, y = s.x, s.y
            old_x, old_y = item._original
            if x is old_x and y is old_y:
                continue  # (not moved: k's trail in a drag of m)
            if (
                type(x) is not np.ndarray
                or type(y) is not np.ndarray
                or old_x is None
                or old_y is None
                or x.ndim != 1
                or x.shape != old_x.shape
                or y.shape != x.shape
                or old_y.shape != x.shape
            ):
                return False
            new_x.append(x)
            new_y.append(y)
            old_xs.append(old_x)
            old_ys.append(old_y)
        if new_x:
            dx = (np.concatenate(new_x) - np.concatenate(old_xs)) * kx
            dy = (np.concatenate(new_y) - np.concatenate(old_ys)) * ky
            if dx.size and not float(_MOST(dx * dx + dy * dy)) <= tol * tol:  # (NaN: moved)
                return False
        return True

    def show_still(self, panel: Panel) -> None:
        """A live frame of an arrows panel whose items stay as drawn
        (:meth:`keeps_still`): its strip texts alone are shown anew."""
        for item, label in zip(self.text_labels, panel.labels, strict=True):
            if item.textItem.toPlainText() != (text := minus_signs(label.text)):
                item.set_plain_text(text)
        self.place_captions()
        self.still_behind = True
        self.still_frames += 1

    def _measure_arrows(self) -> None:
        """Each head's length and half width (px) and the px a text keeps off the
        arrows (half a shaft's width and a pixel), for :meth:`_obstacle_segments`: from
        the heads' and shafts' styles, set where the arrows are made or restyled (a
        frame moves them only: these were worked out again on every frame, ~20 calls
        a plot)."""
        self._head_sizes = [
            (
                float(h.opts["headLen"]),
                float(h.opts["headLen"]) * math.tan(math.radians(h.opts["tipAngle"] / 2)),
            )
            for h in self.arrows[2::3]
        ]
        pens = [line.opts.get("pen") for line in self.arrows[1::3] if isinstance(line, LineItem)]
        width = max([p.widthF() for p in pens if isinstance(p, QtGui.QPen)], default=0.0)
        self._obstacle_pad = width / 2 + 1.0

    def _drop_labels(self) -> None:
        """Take the texts :meth:`_show_labels` made out of the plot (and its strip)."""
        for item in self.text_labels:
            if item in self._captions:
                if item.scene() is not None:
                    item.scene().removeItem(item)
            else:
                self.plot.removeItem(item)
        if self._captions and self.legend is None:
            close_strip(self.plot)
        self.text_labels, self._captions = [], []

    def place_captions(self) -> None:
        """Stack an arrows panel's strip labels in the strip above its data (the top
        axis, as a curve plot's legend: see ``legend_strip``), centred, each wrapped to
        the data's width, and make the strip as high as they are.

        The data's width alone decides their lines (the strip's height takes from the
        data's height, not its width): a re-fit after the strip grew finds it fitted.
        """
        if not self._captions:
            return
        strip = self.plot.getAxis("top")
        width = self.plot.getViewBox().width()
        if width < 2:
            return
        y = 0.0
        for item in self._captions:
            item.fit_width(width)  # (a long one wrapped)
            box = item.boundingRect()  # pixels, relative to the anchor point
            item.setPos(width / 2 - box.center().x(), y - box.top())
            y += box.height()
        height = int(np.ceil(y))
        if strip.maximumHeight() != height or strip.minimumHeight() != height:
            strip.setHeight(height)

    def place_labels(self) -> None:
        """Put an arrows panel's texts at their data points, moved in pixels where they
        would cover an arrow, a line inside the circle or another text, or reach outside
        the data area (and the strip labels in their strip: :meth:`place_captions`).

        Texts keep their size in pixels while the data area does not (larger UI scales,
        presentation mode), so where they fit is known only here. Greedy, in order: each
        text goes to the nearest place round its own (steps of an eighth of its width and
        a quarter of its height) at which its box lies inside the view box, meets no
        text placed before and keeps off the arrows' shafts and heads and the lines
        inside the circle (:meth:`_obstacle_segments`); where none is free, off the other
        texts at least. At 200 % on stage the clock's "q·k = −0.654" covered q's shaft
        and "+57.3°" k's. Called on every show and whenever the view's transform
        changes (resize, range); it only moves the existing items.

        A text whose data point (an arrow's tip, the clock's angle) is out of the data
        area, as in a rectangle-zoomed plane, is hidden: pushed inside, it stuck to the
        plot's edge and named nothing there.
        """
        self.place_captions()
        if not self._label_homes:
            return
        vb = self.plot.getViewBox()
        area = vb.sceneBoundingRect()
        # (QRectF's right and bottom, x + width and y + height: the same numbers)
        a_left, a_top, a_w, a_h = area.x(), area.y(), area.width(), area.height()
        if a_w < 2 or a_h < 2:
            for item, x, y, _px, _py in self._label_homes:
                item.setPos(x, y)
            self._placed_for = None
            return
        a_right, a_bottom = a_left + a_w, a_top + a_h
        # the view box's mappings (vb.mapViewToScene, mapSceneToView), each transform
        # taken once for all the texts: the same arithmetic, without pyqtgraph's
        # per-call matrix updates and inversions
        to_box = vb.childTransform()
        to_scene = to_box * vb.sceneTransform()
        room = max(1.0, a_right - a_left)
        sizes = []
        for item, *_home in self._label_homes:
            item.fit_width(room)  # (wider than the area: wrapped, not cut off)
            f = item.shrink  # (the share of its size it is drawn at: its own is placed)
            local = item.boundingRect()  # pixels, relative to the anchor point
            if f == 1.0:
                sizes.append((local.x(), local.y(), local.width(), local.height()))
            else:
                sizes.append((local.x() / f, local.y() / f, local.width() / f, local.height() / f))
        # nothing moved (the same texts, sizes, obstacles and pixels): where they are
        key = (
            self._label_homes,
            sizes,
            self._obstacles,
            self._rings,
            self._head_sizes,
            to_scene,
            (a_left, a_top, a_right, a_bottom),
        )
        last = self._placed_for
        live = self.labels_live
        if (
            last is not None
            and (live or not self._placed_live)  # (a live frame's places: all anew)
            and last[0] == key[0]
            and last[1] == key[1]
            and last[3:] == key[3:]
            and np.array_equal(last[2], key[2])
        ):
            return
        self._placed_for = key
        # a live frame: each text at its last offset from its own place where that is
        # free by the search's rules (no search for it); the frame in full quality
        # after the drag places them all anew (no history)
        offsets, middles = self._label_offsets, self._label_middles
        if not live or len(offsets) != len(self._label_homes) or len(middles) != len(offsets):
            offsets = []
        # ... else at one of its recent offsets (those of the drag's last frames) where
        # one is free: a search (~0.25 ms for the clock's "q·k" on the stage) found one
        # of them again on half of the frames
        recent = self._label_recent if len(self._label_recent) == len(offsets) else []
        # ... else, a text its last search found no free place for in its wedge, at one
        # of them outside the wedge where its wedge still has none free: the clock's
        # "q·k" (in a triangle that its arrows and lines fill on the stage) was searched
        # for on ~2 of 3 live frames, ~0.3 ms each, to be put outside its wedge again
        # ... and a wedge's text placed in its wedge across a dashed line, at one of
        # them in its wedge across the dashed lines: the clock's angle ("+74.5°") was
        # searched for on ~1 of 3 live frames, twice (~0.6 ms), to go there again
        hows = self._label_how if len(self._label_how) == len(offsets) else []
        kept_hows: list[int] = []
        self._label_how = kept_hows
        solid: _Avoid | None = None  # (avoid, its solid lines alone: made where asked)

        def solid_lines() -> _Avoid:
            """``avoid`` with the solid lines alone (q's shadow left out), made once."""
            nonlocal solid
            if solid is None:
                solid = _solid(avoid, segments[self._solid_rows(len(segments))])
            return solid

        self._placed_live = live
        kept_recent: list[tuple[tuple[float, float], ...]] = []
        self._label_recent = kept_recent
        kept_offsets: list[tuple[float, float] | None] = []
        kept_middles: list[tuple[float, float] | None] = []
        kept_texts: list[LabelText] = []
        self._label_offsets, self.kept_texts = kept_offsets, kept_texts
        self._label_middles = kept_middles
        # the data area half a pixel larger each way (QRectF.adjusted(-0.5, -0.5, 0.5,
        # 0.5) and its contains, with Qt's arithmetic: its left and width, x + width)
        i_left, i_top = a_left + -0.5, a_top + -0.5
        i_right, i_bottom = i_left + (a_w + 0.5 - -0.5), i_top + (a_h + 0.5 - -0.5)
        # boxes as (left, top, width, height) floats, with QRectF's arithmetic (its
        # translate, right/bottom and intersection): the same numbers, without ~10 Qt
        # calls a candidate place (most of this method's time, every frame of a drag)
        placed: list[tuple[float, float, float, float]] = []
        from_box = pg.functions.invertQTransform(to_box)
        # data to scene pixels as QTransform.map does it for a view box's (which neither
        # turns nor shears): m11·x + dx, m22·y + dy (~6 calls into Qt a text), the four
        # read once for the obstacles and the map back too (_ToData.of's arithmetic)
        sx, sy, dx, dy = to_scene.m11(), to_scene.m22(), to_scene.m31(), to_scene.m32()
        segments, pad = self._obstacle_segments((sx, sy, dx, dy))
        lines = _Lines(segments) if len(segments) else None
        to_data = _ToData(1.0 / sx, -dx / sx, 1.0 / sy, -dy / sy)
        avoid = _Avoid(lines, self._rings, to_data, pad, np.array(self._rings))
        bounds = (a_left, a_top, a_right, a_bottom)
        o_x, o_y = sx * 0.0 + dx, sy * 0.0 + dy
        for k, ((item, x, y, px, py), (lx, ly, w, h), wedge) in enumerate(
            zip(self._label_homes, sizes, self._label_wedges, strict=True)
        ):
            p_x, p_y = sx * px + dx, sy * py + dy
            shown = not (p_x < i_left or p_x > i_right or p_y < i_top or p_y > i_bottom)
            if item.isVisible() != shown:
                item.setVisible(shown)
            middle = None if wedge is None else wedge.middle
            kept_middles.append(middle)
            if not shown:
                kept_offsets.append(None)
                kept_hows.append(_IN_PLACE)
                kept_recent.append(())
                continue
            if k < self._tip_names:  # an arrow's name: just beyond its tip, outward
                box = _beyond(p_x, p_y, o_x, o_y, w, h, pad + h / 4)
            else:
                box = (lx + (sx * x + dx), ly + (sy * y + dy), w, h)
            f = 1.0  # (the share of its size it is drawn at)
            last_offset = offsets[k] if offsets else None
            earlier = recent[k] if recent else ()
            tries: list[tuple[float, float]] = []
            turned = None
            how = hows[k] if hows and wedge is not None else _IN_PLACE
            fresh = False
            if last_offset is not None:
                # its last offset turned as far as its wedge turned, else as it was (a
                # drag of m turns the clock's angle and q·k's triangle by up to a
                # radian a frame: their offsets, unturned, left them outside it)
                turned = _turned(last_offset, middles[k], middle, sx, sy)
                tries = [last_offset] if turned is None else [turned, last_offset]
            if earlier:
                tries += [offset for offset in earlier if offset not in tries]
            if tries:
                free = _first_still_free(tries, box, bounds, placed, avoid, wedge)
                if free is None and how == _OUTSIDE and wedge is not None:
                    # (free but for the wedge, and the wedge's middle has no free place,
                    # as the search looks for one: its text would go outside it again)
                    free = _first_still_free(tries, box, bounds, placed, avoid, None)
                    if free is not None:
                        if _along_middle(box, bounds, placed, avoid, wedge) is None:
                            self.outside_places += 1
                        else:
                            free = None
                elif free is None and how == _ACROSS_DASHES and wedge is not None:
                    # (in its wedge, off the solid lines: as _wedge_place finds it)
                    off_solid = solid_lines()
                    # (where it may lie in its wedge at all: else off the solid lines
                    # alone, outside it, it might cross a dashed line)
                    if wedge.may_hold(w * abs(to_data.kx), h * abs(to_data.ky)):
                        free = _first_still_free(tries, box, bounds, placed, off_solid, wedge)
                    if free is None:  # (the wedge's middle, as _wedge_place tries it too)
                        middle_at = _along_middle(box, bounds, placed, off_solid, wedge)
                        if middle_at is not None:
                            at_x, at_y = middle_at
                            free = ((at_x - box[0], at_y - box[1]), at_x, at_y)
                            fresh = True
                    if free is not None:
                        self.across_places += 1
                if free is not None:
                    kept, at_x, at_y = free
                    kept_hows.append(how)
                    if not fresh:  # (a new place: neither its last nor a recent one)
                        if kept is turned:
                            self.turned_places += 1
                        elif kept is not last_offset:
                            self.recent_places += 1
                    kept_offsets.append(kept)
                    kept_recent.append(_remember(kept, earlier))
                    if how != _ACROSS_DASHES:  # (off every line)
                        kept_texts.append(item)
                    self.kept_places += 1
                    placed.append((at_x, at_y, w, h))
                    if item.shrink != f:
                        item.set_shrink(f)
                    item.setPos(from_box.map(vb.mapFromScene(QtCore.QPointF(at_x - lx, at_y - ly))))
                    self.placements += 1
                    continue
            # a live frame's wedge text placed in its wedge across a dashed line (or
            # smaller) before: there again, as _wedge_place finds it, without the
            # search that found no place in it off every line (~0.3 ms on the stage)
            across = how == _ACROSS_DASHES and wedge is not None and _may_fit(w, h, avoid, wedge)
            best = None
            if across and wedge is not None:
                f, best = _wedge_place(box, bounds, placed, solid_lines(), wedge, None)
                if best is not None:
                    self.across_places += 1
                    lx, ly, w, h = lx * f, ly * f, w * f, h * f
            if best is None:
                how = _IN_PLACE
                best = _first_free(box, bounds, placed, avoid, wedge)
                if wedge is None:
                    pass
                elif not wedge.first:
                    if (
                        best is not None
                        and wedge.may_hold(w * abs(to_data.kx), h * abs(to_data.ky))
                        and not _holds(best, w, h, avoid, wedge)
                    ):
                        how = _OUTSIDE  # (no free place in a wedge that may hold it)
                elif (
                    not across  # (no place in it: none found again)
                    and not _holds(best, w, h, avoid, wedge)
                    and _may_fit(w, h, avoid, wedge)
                ):
                    # in its wedge across a dashed line, or smaller, rather than outside
                    outside_best = best
                    f, best = _wedge_place(box, bounds, placed, solid_lines(), wedge, best)
                    if best is not None and best is not outside_best:
                        how = _ACROSS_DASHES  # (in it, across a dashed line maybe)
                    lx, ly, w, h = lx * f, ly * f, w * f, h * f
            if best is None and k < self._tip_names:  # smaller rather than across a line
                f, best = _smaller_free(p_x, p_y, (o_x, o_y), w, h, bounds, placed, avoid)
                lx, ly, w, h = lx * f, ly * f, w * f, h * f
            if best is None and avoid.rings:  # off the arrows and lines at least (a
                # small plane: across the circle rather than over an arrow)
                best = _first_free(
                    box, bounds, placed, avoid._replace(rings=(), ring_array=np.zeros(0))
                )
            if best is None:  # no free place off the lines: off the other texts at least
                best = _first_free(box, bounds, placed, None)
            if best is None:  # no free place: inside the area at least
                best = (
                    max(min(box[0], a_right - w), a_left),
                    max(min(box[1], a_bottom - h), a_top),
                )
            placed.append((best[0], best[1], w, h))
            found = (best[0] - box[0], best[1] - box[1]) if f == 1.0 else None
            kept_offsets.append(found)
            kept_hows.append(how)
            kept_recent.append(earlier if found is None else _remember(found, earlier))
            if item.shrink != f:
                item.set_shrink(f)
            item.setPos(from_box.map(vb.mapFromScene(QtCore.QPointF(best[0] - lx, best[1] - ly))))
            self.placements += 1

    def _obstacle_segments(
        self, to_scene: tuple[float, float, float, float]
    ) -> tuple[np.ndarray, float]:
        """The segments (scene pixels, rows ``x0, y0, x1, y1``) an arrows panel's texts
        keep off: the arrows' shafts and heads and the lines inside the circle; and the
        px a text keeps from them (half a shaft's width and a pixel). ``to_scene``: the
        map of data to scene pixels, ``(m11, m22, m31, m32)`` of its QTransform.

        A head is pyqtgraph's arrow path (``makeArrowPath``, base angle 0): a triangle
        ``headLen`` long from the tip back along the shaft, ``headLen·tan(tipAngle/2)``
        to each side, drawn in pixels whatever the plot's scale."""
        data = self._obstacles
        if not len(data):
            return np.zeros((0, 4)), 0.0
        # (a view box neither turns nor shears: each coordinate scaled and shifted)
        sx, sy, dx, dy = to_scene
        pixels = data * (sx, sy, sx, sy) + (dx, dy, dx, dy)
        heads = []
        for (x0, y0, x1, y1), (length, half) in zip(
            pixels[: len(self._head_sizes)].tolist(), self._head_sizes, strict=True
        ):
            ax, ay = x1 - x0, y1 - y0
            span = math.hypot(ax, ay) or 1.0
            ax, ay = ax / span, ay / span
            bx, by = x1 - ax * length, y1 - ay * length  # (the middle of the head's base)
            lx, ly, rx, ry = bx - ay * half, by + ax * half, bx + ay * half, by - ax * half
            heads += [(x1, y1, lx, ly), (lx, ly, rx, ry), (rx, ry, x1, y1)]
        if heads:
            pixels = np.concatenate([pixels, heads])
        return pixels, self._obstacle_pad

    def _solid_rows(self, count: int) -> np.ndarray:
        """Which of the ``count`` rows of :meth:`_obstacle_segments` are of no dashed
        line (q's shadow): the shafts, each drawn line's segments in the order of the
        panel's series, then the heads. Worked out only where a wedge's text looks for a
        place across the dashed lines (seldom: not every frame)."""
        solid = np.ones(count, bool)
        series = self.panel.series if self.panel is not None else []
        parts = self._line_parts
        dashed = [k for k, line in enumerate(series) if line.style == "dashed"]
        if not dashed:
            return solid
        # (the rows before each dashed line's: counted only up to the last of them)
        sizes = [0 if part[2] is None else len(part[2]) for part in parts[: dashed[-1] + 1]]
        starts = np.cumsum([len(self._head_sizes), *sizes])  # (the shafts: a row an arrow)
        for k in dashed:
            solid[starts[k] : starts[k + 1]] = False
        return solid

    def _show_arrows(self, panel: Panel, theme: Theme) -> None:
        if len(self.arrows) == 1 + 3 * len(panel.arrows):  # same arrows: move them
            self._zoom_arrow_names(theme)
            drawn, self._arrow_tips = self._arrow_tips, [(a.x, a.y, a.name) for a in panel.arrows]
            for i, a in enumerate(panel.arrows):
                line, head, label = self.arrows[1 + 3 * i : 4 + 3 * i]
                if i < len(drawn) and drawn[i] == self._arrow_tips[i]:
                    continue  # where it was (a drag of m moves q alone): nothing to redo
                line.setData(np.array([0.0, a.x]), np.array([0.0, a.y]))
                # the head is turned as an item (a new style rebuilds its path and pens)
                head.setRotation(-float(np.degrees(np.arctan2(a.y, a.x))))
                head.setPos(a.x, a.y)
                if label.textItem.toPlainText() != (name := minus_signs(a.name)):
                    label.set_plain_text(name)
                anchor = pg.Point(0.5, 1.2 if a.y >= 0 else -0.2)
                if label.anchor != anchor:  # (setAnchor re-places the text)
                    label.setAnchor(anchor)
            return  # the range is set: setting it again re-lays out the plot every frame
        for item in self.arrows:
            self.plot.removeItem(item)
        self.arrows = []
        self._arrow_tips = [(a.x, a.y, a.name) for a in panel.arrows]
        t = np.linspace(0, 2 * np.pi, 241)
        circle = self.plot.plot(np.cos(t), np.sin(t), pen=pg.mkPen(theme.grid, width=1))
        self.arrows.append(circle)
        for i, a in enumerate(panel.arrows):
            color = series_color(i, theme)
            line = LineItem(pen=pg.mkPen(color, width=theme.line_width + 1))
            line.wide_pen_points = 2  # one segment: Qt's wide pen is the cheapest stroke
            line.setData(np.array([0.0, a.x]), np.array([0.0, a.y]))
            self.plot.addItem(line)
            angle = float(np.degrees(np.arctan2(a.y, a.x)))
            # drawn pointing along +x (angle 180) and turned as an item: screen y points
            # down, so a counter-clockwise data angle is a negative rotation
            head = pg.ArrowItem(
                pos=(a.x, a.y), angle=180, headLen=theme.scaled(18), brush=color, pen=None
            )
            head.setRotation(-angle)
            label = LabelText(
                minus_signs(a.name), color=color, anchor=(0.5, 1.2 if a.y >= 0 else -0.2)
            )
            quiet_moves(label)
            label.setFont(self.text_theme(theme).font(12, bold=True))
            label.setPos(a.x * 1.12, a.y * 1.12)
            for item in (head, label):
                self.plot.addItem(item)
            self.arrows += [line, head, label]
        self._measure_arrows()
        self._frame("arrows")

    def _zoom_arrow_names(self, theme: Theme) -> None:
        """The arrows' names at the plot's text size: a focused RoPE plane's tick labels
        grew to twice their size on stage while "q (m=5)" and "k (n=9)" kept theirs."""
        font = self.text_theme(theme).font(12, bold=True)
        for label in self.arrows[3::3]:
            if label.textItem.font() != font:
                label.setFont(font)

    def _restyle_arrows(self, theme: Theme) -> None:
        """The arrows :meth:`_show_arrows` made, in ``theme``'s colours and sizes."""
        if not self.arrows:
            return
        self.arrows[0].setPen(pg.mkPen(theme.grid, width=1))
        for i in range(len(self.arrows) // 3):
            line, head, label = self.arrows[1 + 3 * i : 4 + 3 * i]
            color = series_color(i, theme)
            line.setPen(pg.mkPen(color, width=theme.line_width + 1))
            head.setStyle(headLen=theme.scaled(18), brush=color, pen=None)
            label.setColor(color)
            label.setFont(self.text_theme(theme).font(12, bold=True))
        self._measure_arrows()
        # the range a new plot starts from (the view's aspect follows its new size)
        self._frame("arrows")

    def _frame(self, kind: str) -> None:
        """Set the fixed range a ``table`` (its page, 0..1) or an ``arrows`` panel
        (:data:`ARROWS_SPAN` round the unit circle) is drawn in."""
        if kind == "table":
            self.plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
        else:
            span = (-ARROWS_SPAN, ARROWS_SPAN)
            self.plot.setRange(xRange=span, yRange=span, padding=0)

    def show_all_data(self) -> None:
        """Undo a pan or a zoom (a mouse drag, the wheel): the framing this panel is
        drawn with, all of its data (auto-range), a table's page or an arrows panel's
        square round the unit circle. (Auto-ranging a table moved it to the bottom
        right, cut off; an arrows panel, its circle off centre.)"""
        kind = self.panel.kind if self.panel is not None else None
        if kind in ("table", "arrows"):
            self._frame(kind)
        else:
            self.plot.getViewBox().enableAutoRange()

    def table_height(self) -> float | None:
        """Pixels this plot needs to show its whole table (title row included) at the
        width it has now; ``None`` when it shows no table."""
        if self.table is None or not self.table.isVisible():
            return None
        title = self.plot.titleLabel
        title_h = title.maximumHeight() if title.isVisible() else 0.0
        return float(title_h + self.table.textItem.document().size().height() + 8)

    def table_text_pt(self) -> float | None:
        """The point size the table is drawn in now; ``None`` when there is no table."""
        return self._table_pt if self.table is not None else None

    def text_theme(self, theme: Theme) -> Theme:  # PanelPlot's (focus mode's text zoom)
        return theme

    def _table_full_pt(self, theme: Theme) -> int:
        """The table's full point size: :data:`TABLE_PT` at the plot's text size (a
        focused table grows with its title; the view fits it to the stage)."""
        return self.text_theme(theme).font_pt(TABLE_PT)

    def _show_table(self, panel: Panel, theme: Theme) -> None:
        full = self._table_full_pt(theme)
        if self._table_room is None or self._table_full != full:
            self._table_pt = float(full)  # (another scale: fitted again by the view)
        self._table_full = full
        html = _table_markup(_Table.of(panel, theme), self._table_pt)
        if self.table is None:
            self.table = pg.TextItem(anchor=(0, 0))
            self.plot.addItem(self.table)
            # The view box keeps its connections alive: a closure over ``self`` would hold
            # this panel (and its plot) forever once the plot is replaced, a leak of the
            # whole PlotItem with its context menus on every rebuild. A weak reference
            # lets the old plot go.
            me = weakref.ref(self)
            self.plot.getViewBox().sigResized.connect(
                lambda v: (
                    (extras := me()) is not None
                    and extras.table is not None
                    and extras.table.setTextWidth(max(100.0, v.width() - 4))
                )
            )
        if html == self._table_html:  # re-laying out rich text costs ~2 ms a frame
            return
        self._table_html = html
        self.table.setHtml(html)
        self.table.setTextWidth(max(100.0, self.plot.getViewBox().width() - 4))
        self.table.setPos(0, 1)
        self._frame("table")
        self.plot.showGrid(x=False, y=False)

    def fit_table(
        self,
        room: float | None,
        width: float,
        theme: Theme,
        floor_pt: float = 0.0,
        *,
        grow: float = 1.0,
    ) -> bool:
        """Draw the table in the largest point size, from ``grow`` times its full size
        (:data:`TABLE_PT` at the UI scale) down to the floor (:data:`TABLE_FLOOR` of it,
        and ``floor_pt``), at which the whole table (its plot's title included,
        :meth:`table_height`) is at most ``room`` px high when laid out ``width`` px
        wide; the floor when none is (the view scrolls then). ``room`` ``None``: its
        full size. Whether the size changed.

        On stage Compare's summary table (six columns of wrapped text) was 1 422 px
        high in a 720 px stage at 1280 x 720 / 200 % and 2 057 px in 1 080 at
        1920 x 1080 / 300 %: it scrolled, and the audience never saw it whole. A table
        shown alone grows (``grow`` > 1): the lecture's slide of Compare's table alone
        filled 40 % of a 1600 x 1000 page at its full size, the rest of it blank."""
        if self.table is None or self.panel is None:
            return False
        self._table_room = room
        full = self._table_full = self._table_full_pt(theme)
        pt = float(full)
        if room is not None:
            title = self.plot.titleLabel
            room -= (title.maximumHeight() if title.isVisible() else 0.0) + 8
            floor = min(float(full), max(6.0, TABLE_FLOOR * full, floor_pt))
            text_width = max(100.0, width - 4)
            font = self.table.textItem.document().defaultFont().toString()
            table = _Table.of(self.panel, theme)
            pt = _fitted_pt(table, full, floor, room, text_width, font, grow * full)
        if pt == self._table_pt:
            return False
        self._table_pt = pt
        self._show_table(self.panel, theme)
        return True


TABLE_WORD = 8  # letters: a table cell's words this long may break (at a syllable)


@functools.lru_cache(maxsize=1024)
def _cell_text(text: str) -> str:
    """A table cell's ``text`` with break points in its long words (:data:`TABLE_WORD`).
    Kept: the table is made anew on every frame, and breaking its 54 cells took 0.6 ms
    a call (Compare's stage frame went from 10.7 to 12.8 ms)."""
    return breakable(text, TABLE_WORD)


class _Table(NamedTuple):
    """What a table's rich text is made of (hashable: the fitted size is cached)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    foreground: str
    grid: str

    @classmethod
    def of(cls, panel: Panel, theme: Theme) -> _Table:
        """``panel``'s table, its long words given break points
        (:func:`~gui.plotting.word_breaks.breakable`): a column narrower than a word
        broke it anywhere, "max_position" / "s × d table" and "max_distanc" / "e share
        one bucket" in Compare's table on stage at 150 %; now "max_" / "positions", and
        "para-" / "meters" (:data:`TABLE_WORD`)."""
        return _table_of(
            tuple(panel.header), tuple(map(tuple, panel.rows)), theme.foreground, theme.grid
        )


@functools.lru_cache(maxsize=64)
def _table_of(
    header: tuple[str, ...], rows: tuple[tuple[str, ...], ...], foreground: str, grid: str
) -> _Table:
    """:meth:`_Table.of` of these cells and colours, kept: each frame of a drag shows a
    new panel of Compare's table (the same 54 cells), broken, marked up and fitted
    anew on every frame (twice on stage: shown, then fitted)."""
    return _Table(
        tuple(_cell_text(cell) for cell in header),
        tuple(tuple(_cell_text(cell) for cell in row) for row in rows),
        foreground,
        grid,
    )


@functools.lru_cache(maxsize=64)
def _table_markup(table: _Table, pt: float) -> str:
    """``table`` as rich text in ``pt`` point text (kept, as :func:`_table_of`)."""
    cell = f"padding: {TABLE_PAD_V}px {TABLE_PAD_H}px; border-bottom: 1px solid {table.grid};"
    head = "".join(f"<th align='left' style='{cell}'>{h}</th>" for h in table.header)
    body = "".join(
        "<tr>" + "".join(f"<td style='{cell}'>{c}</td>" for c in row) + "</tr>"
        for row in table.rows
    )
    return (
        f"<div style='color:{table.foreground}; font-size:{pt:g}pt'>"
        f"<table cellspacing='0'><tr>{head}</tr>{body}</table></div>"
    )


@functools.lru_cache(maxsize=256)
def _fitted_pt(
    table: _Table,
    full: int,
    floor: float,
    room: float,
    width: float,
    font: str,
    top: float | None = None,
) -> float:
    """The largest point size, from ``top`` (``None``: ``full``) down in steps of
    :data:`TABLE_PT_STEP` of ``full`` to ``floor``, at which ``table`` laid out
    ``width`` px wide in ``font`` (its ``QFont.toString()``) is at most ``room`` px
    high; ``floor`` when none is. Cached: the view fits its plots on every frame, and a
    stage frame of Compare re-made and measured the table's rich text at every step
    (0.27 ms of a 0.78 ms fit)."""
    document = QtGui.QTextDocument()
    default = QtGui.QFont()
    default.fromString(font)
    document.setDefaultFont(default)

    def fits(size: float) -> bool:
        document.setHtml(_table_markup(table, size))
        document.setTextWidth(width)
        return document.size().height() <= room

    start = pt = float(full if top is None else top)
    while pt > floor:
        if fits(pt):
            break
        pt = max(floor, pt - TABLE_PT_STEP * full)
    # then up again in finer steps below the step that did not fit (a lone table's
    # steps are 1.2 pt at 150 %: up to a tenth of its height left empty below it)
    above = min(start, pt + TABLE_PT_STEP * full)
    while pt + TABLE_PT_FINE < above and fits(pt + TABLE_PT_FINE):
        pt += TABLE_PT_FINE
    return pt


def _overlaps(
    left: float, top: float, width: float, height: float, other: tuple[float, float, float, float]
) -> bool:
    """Whether the box ``(left, top, width, height)`` and ``other`` (boxes of positive
    size) share more than a pixel's sliver: the size of their ``QRectF.intersected``,
    worked out as Qt does."""
    o_left, o_top, o_width, o_height = other
    if min(left + width, o_left + o_width) - max(left, o_left) <= 0.5:
        return False
    return min(top + height, o_top + o_height) - max(top, o_top) > 0.5
