"""A scene's highlight: one curve, row, head or cell emphasised, the rest of its plot dimmed.

:func:`apply_highlight` styles one :class:`~gui.plotting.panel_plot.PanelPlot` for a
:class:`core.scenes.Highlight` and :func:`clear_highlight` takes it off again. Both only
touch what the plot already drew (item opacity, stacking, and a mask over a heatmap),
never the data, so they can be re-applied after every redraw at the cost of a few
comparisons. Curves and arrows that are not named are drawn at :data:`DIM_OPACITY` (their
legend rows too); the named one is drawn above the others. On a heatmap a
:class:`HeatmapMask` covers everything but the highlighted cells with the background
colour at :data:`DIM_ALPHA` and outlines them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.scenes import Highlight, name_matches
from core.viewdata import Panel
from gui.plotting.panel_plot import PanelPlot
from gui.render.view_box import ViewOverlay
from gui.theme import current_theme

DIM_OPACITY = 0.2  # curves and arrows that are not highlighted
DIM_ALPHA = 185  # of the background colour over a heatmap's other cells (of 255)
EMPHASIS_Z = 50.0  # the highlighted curve above the others
MASK_Z = 20.0  # over the data and the tile labels (z 10), under the hover readout


class HeatmapMask(ViewOverlay):
    """Dims a heatmap except some rectangles (image cells), which it outlines.

    Attributes
    ----------
    cells
        The highlighted rectangles in view coordinates (data units).
    fill
        The colour laid over everything else.
    pen
        The outline of the highlighted rectangles (cosmetic width).
    """

    def __init__(self, view: pg.ViewBox) -> None:
        super().__init__(view, z=MASK_Z)
        self.cells: tuple[QtCore.QRectF, ...] = ()
        self.fill = QtGui.QColor(0, 0, 0, 0)
        self.pen = QtGui.QPen()

    def set(self, cells: Sequence[QtCore.QRectF], fill: QtGui.QColor, pen: QtGui.QPen) -> None:
        """Show ``cells`` (view coordinates) emphasised, the rest dimmed with ``fill``."""
        cells = tuple(QtCore.QRectF(c) for c in cells)
        if cells != self.cells or fill != self.fill or pen != self.pen:
            self.cells, self.fill, self.pen = cells, QtGui.QColor(fill), QtGui.QPen(pen)
            self.update()

    def pixel_cells(self) -> list[QtCore.QRectF]:
        """The highlighted rectangles in the view box's pixels (as painted)."""
        tr = self.view.childGroup.transform()
        return [tr.mapRect(c).normalized() for c in self.cells]

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        area = QtGui.QPainterPath()
        area.addRect(self.boundingRect())
        holes = QtGui.QPainterPath()
        for rect in self.pixel_cells():
            holes.addRect(rect)
        p.save()
        p.setPen(QtCore.Qt.PenStyle.NoPen)
        p.setBrush(self.fill)
        p.drawPath(area.subtracted(holes))
        p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        p.setPen(self.pen)
        for rect in self.pixel_cells():
            p.drawRect(rect)
        p.restore()


def _legend_rows(plot: PanelPlot) -> list[tuple[QtWidgets.QGraphicsItem, ...]]:
    legend = plot.legend
    return [tuple(row) for row in legend.items] if legend is not None else []


def _set_opacity(item: QtWidgets.QGraphicsItem, value: float) -> None:
    if item.opacity() != value:
        item.setOpacity(value)


def apply_highlight(plot: PanelPlot, highlight: Highlight) -> bool:
    """Emphasise ``highlight`` in ``plot`` (its panel as drawn now); ``False`` when the
    plot shows nothing it names (another kind of panel, a series that is not there)."""
    panel = plot.panel
    if panel is None:
        return False
    if highlight.kind == "series":
        return _emphasise_series(plot, panel, str(highlight.value))
    mask = _mask(plot)
    cells = heatmap_cells(plot, panel, highlight)
    if not cells:
        mask.hide()
        return False
    theme = current_theme()
    fill = QtGui.QColor(theme.background)
    fill.setAlpha(DIM_ALPHA)
    pen = QtGui.QPen(QtGui.QColor(theme.foreground), theme.scaled(3))
    pen.setCosmetic(True)
    pen.setJoinStyle(QtCore.Qt.PenJoinStyle.MiterJoin)
    mask.set(cells, fill, pen)
    mask.show()
    return True


def clear_highlight(plot: PanelPlot) -> None:
    """Undo :func:`apply_highlight`: every item at full opacity, no mask."""
    for item in _series_items(plot):
        for part in item:
            _set_opacity(part, 1.0)
            if part.zValue() == EMPHASIS_Z:
                part.setZValue(0.0)
    for row in _legend_rows(plot):
        for part in row:
            _set_opacity(part, 1.0)
    mask = getattr(plot, "_highlight_mask", None)
    if mask is not None:
        mask.hide()


def highlight_mask(plot: PanelPlot) -> HeatmapMask | None:
    """The plot's heatmap mask if it has one (for tests: ``cells``, ``fill``, shown)."""
    mask = getattr(plot, "_highlight_mask", None)
    return mask if isinstance(mask, HeatmapMask) and mask.scene() is not None else None


def _mask(plot: PanelPlot) -> HeatmapMask:
    vb = plot.plot.getViewBox()
    mask = getattr(plot, "_highlight_mask", None)
    if not isinstance(mask, HeatmapMask) or mask.view is not vb or mask.scene() is None:
        mask = HeatmapMask(vb)
        plot._highlight_mask = mask  # type: ignore[attr-defined]
    return mask


def _series_items(plot: PanelPlot) -> list[tuple[QtWidgets.QGraphicsItem, ...]]:
    """One tuple of graphics items per named series: a curve (or the group that paints
    it with the rest of its trail, all of one name), or an arrow's line, head and label
    (the first arrow item is the unit circle)."""
    if plot.curves:
        return [(getattr(item, "painted_by", None) or item,) for item in plot.curves]
    arrows = plot.arrows[1:]
    return [tuple(arrows[i : i + 3]) for i in range(0, len(arrows) - 2, 3)]


def _emphasise_series(plot: PanelPlot, panel: Panel, wanted: str) -> bool:
    names = [s.name for s in panel.series] or [a.name for a in panel.arrows]
    items = _series_items(plot)
    chosen = [name_matches(n, wanted) for n in names]
    if len(items) != len(names) or not any(chosen):
        clear_highlight(plot)
        return False
    for parts, on in zip(items, chosen, strict=True):
        for part in parts:
            _set_opacity(part, 1.0 if on else DIM_OPACITY)
            if on:
                part.setZValue(EMPHASIS_Z)
            elif part.zValue() == EMPHASIS_Z:
                part.setZValue(0.0)
    for row, on in zip(_legend_rows(plot), chosen, strict=False):
        for part in row:
            _set_opacity(part, 1.0 if on else DIM_OPACITY)
    return True


def _index_of(coords: np.ndarray | None, count: int, value: int) -> int | None:
    """Index of the row (column) whose position is ``value``; with sampled positions the
    one whose block holds it. ``None`` when outside."""
    pos = np.arange(count) if coords is None else np.asarray(coords)
    if pos.size == 0:
        return None
    step = float(pos[1] - pos[0]) if pos.size > 1 else 1.0
    if not pos[0] <= value < pos[-1] + max(step, 1.0):
        return None
    return int(np.searchsorted(pos, value, side="right") - 1)


def heatmap_cells(plot: PanelPlot, panel: Panel, highlight: Highlight) -> list[QtCore.QRectF]:
    """The rectangles (view coordinates) a row, head or cell highlight covers in the
    heatmap as drawn; ``[]`` when it is not there."""
    image = plot.image
    if panel.kind != "heatmap" or image is None or image.image is None:
        return []
    rows, cols = image.image.shape[:2]
    r = image.mapRectToParent(image.boundingRect())
    dx, dy = r.width() / cols, r.height() / rows

    def block(row0: int, col0: int, n_rows: int, n_cols: int) -> QtCore.QRectF:
        return QtCore.QRectF(r.left() + col0 * dx, r.top() + row0 * dy, n_cols * dx, n_rows * dy)

    kind, value = highlight.kind, highlight.value
    if kind == "head":
        index = int(value) - 1  # type: ignore[arg-type]
        if not 0 <= index < len(panel.tiles):
            return []
        t = panel.tiles[index]
        return [block(t.row0, t.col0, len(t.y_coords), len(t.x_coords))]
    want_row = int(value[0] if isinstance(value, tuple) else value)
    want_col = int(value[1]) if isinstance(value, tuple) else None
    out = []
    areas = (
        [(t.row0, t.col0, t.y_coords, t.x_coords) for t in panel.tiles]
        if panel.tiles
        else [(0, 0, panel.y_coords, panel.x_coords)]
    )
    for row0, col0, ys, xs in areas:
        n_rows = rows if ys is None else len(ys)
        n_cols = cols if xs is None else len(xs)
        i = _index_of(ys, n_rows, want_row)
        if i is None:
            continue
        if want_col is None:
            out.append(block(row0 + i, col0, 1, n_cols))
            continue
        j = _index_of(xs, n_cols, want_col)
        if j is not None:
            out.append(block(row0 + i, col0 + j, 1, 1))
    return out
