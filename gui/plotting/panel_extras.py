"""Drawing of the less common panel contents: arrows, tables and mosaic tile labels.

:class:`PanelExtras` is mixed into :class:`gui.plotting.panel_plot.PanelPlot`; it reads and updates the
same items (``self.plot``, ``self.arrows``, ``self.table``, ``self.tile_labels``) and, like
the rest of the drawing code, never computes: positions and texts come from the panel.
"""

from __future__ import annotations

import functools
import weakref
from typing import NamedTuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import minus_signs
from core.viewdata import Panel
from gui.plotting.legend_strip import close_strip, open_strip
from gui.plotting.plot_data import series_color
from gui.plotting.word_breaks import breakable
from gui.render.line_item import LineItem
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
    """A ``TextItem`` (an arrows panel's label) whose bounding rect is kept between changes.

    pyqtgraph maps the text's box into the item on every call (two calls into Qt): Qt
    asks for it several times a paint and :meth:`PanelExtras.place_labels` once more,
    ~70 times a clock frame. The box changes only where pyqtgraph re-places the text
    (``updateTextPos``: a new text, HTML, font, width or anchor), which forgets the
    kept one; :meth:`updateTextPos` is pyqtgraph's, with its point arithmetic done on
    plain floats (the same operations). The rect returned is the kept one: callers
    read it (place_labels, the halo's fill), none changes it.
    """

    _rect: QtCore.QRectF | None = None
    #: where the anchor is, as pyqtgraph's ``Point`` (TextItem's attribute, typed here)
    anchor: pg.Point

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
        margin = 2 * text.document().documentMargin()
        natural = QtGui.QFontMetricsF(text.font()).horizontalAdvance(plain) + margin
        width = float(room) if natural > room else -1.0
        if text.textWidth() != width:
            if width > 0:
                option = text.document().defaultTextOption()
                option.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
                text.document().setDefaultTextOption(option)
            self.setTextWidth(width)  # (re-places the text: forgets _fitted)
        self._fitted = (plain, room)


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
# an arrows panel's texts keep off its lines inside this radius (the clock's angle arc
# and q·k; the trails and the shadow of q end on the circle), each as at most this
# many segments
INNER_RADIUS = 0.9
OBSTACLE_SEGMENTS = 24
# the places a text is tried at round its own: steps of this share of its width and
# height, as far as this many steps each way, the nearest first (in chunks: the first
# few are free most of the time)
_STEP_W, _STEP_H, _STEPS = 0.125, 0.25, 24
_CHUNKS = (16, 128, 1024)


@functools.cache
def _offsets() -> np.ndarray:
    """Steps ``(i, j)`` round a text's own place, the nearest first (in a text's sizes:
    a step of its width counts as much as one of its height)."""
    i, j = np.meshgrid(np.arange(-_STEPS, _STEPS + 1), np.arange(-4 * _STEPS, 4 * _STEPS + 1))
    steps = np.column_stack([i.ravel(), j.ravel()])
    far = np.hypot(steps[:, 0] * _STEP_W, steps[:, 1] * _STEP_H)
    return steps[np.argsort(far, kind="stable")]


class _Lines(NamedTuple):
    """Segments (scene pixels) from ``(x0, y0)`` by ``(dx, dy)``, with their boxes."""

    x0: np.ndarray
    y0: np.ndarray
    dx: np.ndarray
    dy: np.ndarray
    left: np.ndarray
    top: np.ndarray
    right: np.ndarray
    bottom: np.ndarray
    #: the same, a tuple a segment (a text's own place is tried in plain Python: a few
    #: numpy calls on one box cost more than a look at each of ~30 segments)
    rows: list[tuple[float, ...]]

    @classmethod
    def of(cls, segments: np.ndarray) -> _Lines:
        """The segments of the rows ``x0, y0, x1, y1``."""
        x0, y0, x1, y1 = segments.T
        columns = (
            x0,
            y0,
            x1 - x0,
            y1 - y0,
            np.minimum(x0, x1),
            np.minimum(y0, y1),
            np.maximum(x0, x1),
            np.maximum(y0, y1),
        )
        return cls(*columns, rows=list(zip(*(c.tolist() for c in columns), strict=True)))


def _hits_one(left: float, top: float, right: float, bottom: float, lines: _Lines) -> bool:
    """Whether the box meets any of ``lines`` (:func:`_hits` for one box)."""
    for x0, y0, dx, dy, s_left, s_top, s_right, s_bottom in lines.rows:
        if s_left > right or s_right < left or s_top > bottom or s_bottom < top:
            continue
        above, below = dx * (top - y0), dx * (bottom - y0)
        before, after = dy * (left - x0), dy * (right - x0)
        sides = (above - before, above - after, below - before, below - after)
        if min(sides) <= 0 <= max(sides):
            return True
    return False


def _hits(
    left: np.ndarray, top: np.ndarray, right: np.ndarray, bottom: np.ndarray, lines: _Lines
) -> np.ndarray:
    """Whether each box meets any of ``lines``: their boxes meet and the segment's line
    passes between the box's corners (the separating axes of a box and a segment)."""
    near = (
        (left[:, None] <= lines.right)
        & (right[:, None] >= lines.left)
        & (top[:, None] <= lines.bottom)
        & (bottom[:, None] >= lines.top)
    )
    i, j = np.nonzero(near)
    hit = np.zeros(len(left), bool)
    if not len(i):
        return hit
    x0, y0, dx, dy = lines.x0[j], lines.y0[j], lines.dx[j], lines.dy[j]
    above, below = dx * (top[i] - y0), dx * (bottom[i] - y0)
    before, after = dy * (left[i] - x0), dy * (right[i] - x0)
    sides = np.stack([above - before, above - after, below - before, below - after])
    hit[i[(sides.min(axis=0) <= 0) & (sides.max(axis=0) >= 0)]] = True
    return hit


def _first_free(
    home: tuple[float, float, float, float],
    area: tuple[float, float, float, float],
    placed: list[tuple[float, float, float, float]],
    lines: _Lines | None,
    pad: float,
) -> tuple[float, float] | None:
    """The nearest place ``(left, top)`` round ``home`` (``left, top, width, height``)
    inside ``area`` (``left, top, right, bottom``; left and top win where the box is
    larger) at which the box meets no box of ``placed`` and keeps ``pad`` px off each
    of ``lines`` (``None``: no lines); ``None`` where there is none."""
    left, top, w, h = home
    a_left, a_top, a_right, a_bottom = area
    # its own place first
    own = (max(min(left, a_right - w), a_left), max(min(top, a_bottom - h), a_top))
    if not any(_overlaps(*own, w, h, p) for p in placed) and (
        lines is None
        or not _hits_one(own[0] - pad, own[1] - pad, own[0] + w + pad, own[1] + h + pad, lines)
    ):
        return own
    steps = _offsets()
    start = 1  # (steps[0] is its own place)
    for size in (*_CHUNKS, len(steps)):
        chunk = steps[start : start + size]
        start += size
        if not len(chunk):
            break
        ls = np.maximum(np.minimum(left + chunk[:, 0] * (_STEP_W * w), a_right - w), a_left)
        ts = np.maximum(np.minimum(top + chunk[:, 1] * (_STEP_H * h), a_bottom - h), a_top)
        free = np.ones(len(ls), bool)
        for p_left, p_top, p_w, p_h in placed:  # (more than a sliver: see _overlaps)
            across = np.minimum(ls + w, p_left + p_w) - np.maximum(ls, p_left)
            down = np.minimum(ts + h, p_top + p_h) - np.maximum(ts, p_top)
            free &= ~((across > 0.5) & (down > 0.5))
        if lines is not None and free.any():
            fl, ft = ls[free], ts[free]
            free[free] = ~_hits(fl - pad, ft - pad, fl + w + pad, ft + h + pad, lines)
        if free.any():
            k = int(np.argmax(free))
            return float(ls[k]), float(ts[k])
    return None


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
    _label_homes: list[tuple[pg.TextItem, float, float, float, float]]
    #: what the texts keep off (see :meth:`_show_labels`): segments in data coordinates
    #: (the shafts first), each head's length and half width (px) and the px kept
    _obstacles: np.ndarray = np.zeros((0, 4))
    _head_sizes: list[tuple[float, float]] = []
    _obstacle_pad = 0.0
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
            if item.toPlainText() != (text := minus_signs(label.text)):
                item.setText(text)
        # the colours and patches, when the theme or the labels' colours changed (a
        # drag changes the texts alone: ~10 colours made and compared a clock frame)
        colors = (theme, tuple(label.color for label in panel.labels))
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
        # what the texts keep off: each arrow's shaft (the first rows) and the lines
        # drawn inside the circle (the clock's angle arc and q·k), as segments; the
        # heads, drawn in pixels, are worked out on screen (_obstacle_segments)
        rows = [np.array([[0.0, 0.0, a.x, a.y]]) for a in panel.arrows]
        for s in panel.series:
            xy = np.column_stack([np.asarray(s.x, float), np.asarray(s.y, float)])
            xy = xy[np.isfinite(xy).all(axis=1)]
            if len(xy) > 1 and float(np.hypot(xy[:, 0], xy[:, 1]).max()) <= INNER_RADIUS:
                xy = xy[:: max(1, -(-(len(xy) - 1) // OBSTACLE_SEGMENTS))]
                rows.append(np.hstack([xy[:-1], xy[1:]]))
        self._obstacles = np.vstack(rows) if rows else np.zeros((0, 4))
        heads = self.arrows[2::3]
        self._head_sizes = [
            (
                float(h.opts["headLen"]),
                float(h.opts["headLen"]) * np.tan(np.radians(h.opts["tipAngle"] / 2)),
            )
            for h in heads
        ]
        pens = [line.opts.get("pen") for line in self.arrows[1::3] if isinstance(line, LineItem)]
        width = max((p.widthF() for p in pens if isinstance(p, QtGui.QPen)), default=0.0)
        self._obstacle_pad = width / 2 + 1.0  # (half a shaft's width and a pixel)
        self.place_labels()

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
        if area.width() < 2 or area.height() < 2:
            for item, x, y, _px, _py in self._label_homes:
                item.setPos(x, y)
            return
        inside = area.adjusted(-0.5, -0.5, 0.5, 0.5)
        a_left, a_top = area.left(), area.top()
        a_right, a_bottom = area.right(), area.bottom()
        # boxes as (left, top, width, height) floats, with QRectF's arithmetic (its
        # translate, right/bottom and intersection): the same numbers, without ~10 Qt
        # calls a candidate place (most of this method's time, every frame of a drag)
        placed: list[tuple[float, float, float, float]] = []
        # the view box's mappings (vb.mapViewToScene, mapSceneToView), each transform
        # taken once for all the texts: the same arithmetic, without pyqtgraph's
        # per-call matrix updates and inversions
        to_box = vb.childTransform()
        from_box = pg.functions.invertQTransform(to_box)

        def to_scene(point: QtCore.QPointF) -> QtCore.QPointF:
            return vb.mapToScene(to_box.map(point))

        segments, pad = self._obstacle_segments(to_box * vb.sceneTransform())
        lines = _Lines.of(segments) if len(segments) else None
        bounds = (a_left, a_top, a_right, a_bottom)
        room = max(1.0, a_right - a_left)
        for item, x, y, px, py in self._label_homes:
            shown = inside.contains(to_scene(QtCore.QPointF(px, py)))
            if item.isVisible() != shown:
                item.setVisible(shown)
            if not shown:
                continue
            if isinstance(item, LabelText):
                item.fit_width(room)  # (wider than the area: wrapped, not cut off)
            local = item.boundingRect()  # pixels, relative to the anchor point
            lx, ly, w, h = local.x(), local.y(), local.width(), local.height()
            home = to_scene(QtCore.QPointF(x, y))
            box = (lx + home.x(), ly + home.y(), w, h)
            best = _first_free(box, bounds, placed, lines, pad)
            if best is None:  # no free place off the lines: off the other texts at least
                best = _first_free(box, bounds, placed, None, pad)
            if best is None:  # no free place: inside the area at least
                best = (
                    max(min(box[0], a_right - w), a_left),
                    max(min(box[1], a_bottom - h), a_top),
                )
            placed.append((best[0], best[1], w, h))
            item.setPos(from_box.map(vb.mapFromScene(QtCore.QPointF(best[0] - lx, best[1] - ly))))

    def _obstacle_segments(self, to_scene: QtGui.QTransform) -> tuple[np.ndarray, float]:
        """The segments (scene pixels, rows ``x0, y0, x1, y1``) an arrows panel's texts
        keep off: the arrows' shafts and heads and the lines inside the circle; and the
        px a text keeps from them (half a shaft's width and a pixel).

        A head is pyqtgraph's arrow path (``makeArrowPath``, base angle 0): a triangle
        ``headLen`` long from the tip back along the shaft, ``headLen·tan(tipAngle/2)``
        to each side, drawn in pixels whatever the plot's scale."""
        data = self._obstacles
        if not len(data):
            return np.zeros((0, 4)), 0.0
        m = np.array(
            [[to_scene.m11(), to_scene.m12()], [to_scene.m21(), to_scene.m22()]], dtype=float
        )
        shift = np.array([to_scene.m31(), to_scene.m32()])
        start, end = data[:, :2] @ m + shift, data[:, 2:] @ m + shift
        rows = [np.hstack([start, end])]
        sizes = self._head_sizes
        if sizes:
            count = len(sizes)
            tips, along = end[:count], end[:count] - start[:count]
            span = np.hypot(along[:, 0], along[:, 1])
            along = along / np.where(span > 0, span, 1.0)[:, None]
            across = np.column_stack([-along[:, 1], along[:, 0]])
            length, half = (np.array(v)[:, None] for v in zip(*sizes, strict=True))
            base = tips - along * length
            left, right = base + across * half, base - across * half
            rows += [np.hstack([tips, left]), np.hstack([left, right]), np.hstack([right, tips])]
        return np.vstack(rows), self._obstacle_pad

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
                if label.toPlainText() != (name := minus_signs(a.name)):
                    label.setText(name)
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
        rows = tuple(tuple(_cell_text(cell) for cell in row) for row in panel.rows)
        header = tuple(_cell_text(cell) for cell in panel.header)
        return cls(header, rows, theme.foreground, theme.grid)


def _table_markup(table: _Table, pt: float) -> str:
    """``table`` as rich text in ``pt`` point text."""
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
