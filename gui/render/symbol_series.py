"""A symbol series (``PlotDataItem`` with markers) whose export draws all symbols at once.

On screen pyqtgraph stamps symbols from a pixmap atlas. In an export (the item's export
mode) it draws every symbol as its own vector path, and each ``QPainter.drawPath`` under
the plot's clip costs time in proportion to the image area: 1,024 wavelength markers of
a 4096² PNG took about 2 s, and far longer for larger images and more points.

:class:`ExportScatter` draws an export's symbols as **one** path instead, the union of
every marker (same look: one fill colour, no outline), after dropping markers whose centre
falls in a device pixel already holding one, so an export never draws more markers than
the image has pixels. :class:`SymbolSeries` is a ``PlotDataItem`` using it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.render.pg_compat import display_dataset, move_markers

SYMBOL_PATHS: dict[str, QtGui.QPainterPath] = pg.graphicsItems.ScatterPlotItem.Symbols
FEW_MARKERS = 16  # a series of at most this many markers is stamped point by point
_FAR = 2.0**30  # Qt's coordinate limit (pyqtgraph clips mapped points to it)


def pixel_unique(points: np.ndarray, cell: float) -> np.ndarray:
    """Indices (ascending) of the first point in each ``cell``-sized square of ``points``.

    Parameters
    ----------
    points
        ``(n, 2)`` coordinates.
    cell
        Side of the squares, in the units of ``points``.
    """
    if len(points) == 0:
        return np.zeros(0, dtype=np.intp)
    keys = np.floor(points / cell).astype(np.int64)
    _, first = np.unique(keys, axis=0, return_index=True)
    return np.sort(first)


def symbols_path(points: np.ndarray, symbol: str, size: float) -> QtGui.QPainterPath:
    """One path: ``symbol`` of ``size`` (pixels) centred on every ``(x, y)`` of ``points``.

    The fill rule is *winding*, so overlapping markers fill as their union.
    """
    path = QtGui.QPainterPath()
    path.setFillRule(QtCore.Qt.FillRule.WindingFill)
    if symbol == "o":
        r = size / 2.0
        for x, y in points.tolist():
            path.addEllipse(QtCore.QPointF(x, y), r, r)
        return path
    shape = SYMBOL_PATHS[symbol]
    for x, y in points.tolist():
        path.addPath(QtGui.QTransform(size, 0.0, 0.0, size, x, y).map(shape))
    return path


class ExportScatter(pg.ScatterPlotItem):
    """``ScatterPlotItem`` drawing an export's symbols as one deduplicated path.

    Used for series of one symbol, size, pen and brush in pixel mode (what
    :class:`SymbolSeries` makes); anything else is drawn by pyqtgraph as before.
    """

    one_path = True  # False: pyqtgraph's marker-by-marker export (for comparisons)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.export_options: dict[str, Any] | None = None
        self.exported_symbols = 0  # markers in the last export's path (for tests)
        self.few_painted = 0  # screen paints that stamped a few markers (for tests)

    def setExportMode(self, export: bool, opts: dict[str, Any] | None = None) -> Any:
        self.export_options = dict(opts or {}) if export else None
        return super().setExportMode(export, opts)

    def paint(self, p: QtGui.QPainter, option: Any, widget: Any) -> None:
        if self.export_options is None and self._paint_few(p, widget):
            return
        symbol = self.opts["symbol"]
        if (
            self.export_options is None
            or not self.one_path
            or not self.opts["pxMode"]
            or symbol not in SYMBOL_PATHS
        ):
            super().paint(p, option, widget)
            return
        x, y = self.getData()
        size = float(self.opts["size"])
        pts = np.column_stack([np.asarray(x, float), np.asarray(y, float)])
        pts = pts[np.isfinite(pts).all(axis=1)]
        if len(pts) == 0:
            self.exported_symbols = 0
            return
        # to the painter's (logical pixel) coordinates, as pyqtgraph's pixel mode does
        t = p.transform()
        m = np.array([[t.m11(), t.m12()], [t.m21(), t.m22()]])
        pts = pts @ m + np.array([t.dx(), t.dy()])
        view = t.mapRect(self.viewRect()) if self.viewRect() is not None else None
        if view is not None:
            pad = size / 2.0 + 1.0
            inside = (
                (pts[:, 0] >= view.left() - pad)
                & (pts[:, 0] <= view.right() + pad)
                & (pts[:, 1] >= view.top() - pad)
                & (pts[:, 1] <= view.bottom() + pad)
            )
            pts = pts[inside]
        dpr = p.device().devicePixelRatioF() if p.device() is not None else 1.0
        pts = pts[pixel_unique(pts, 1.0 / max(dpr, 1e-6))]
        pts = np.clip(pts, -(2.0**30), 2.0**30)
        self.exported_symbols = len(pts)
        p.save()
        try:
            p.resetTransform()
            p.setRenderHint(
                QtGui.QPainter.RenderHint.Antialiasing,
                bool(self.export_options.get("antialias", True)),
            )
            p.setPen(pg.mkPen(self.opts["pen"]))
            p.setBrush(pg.mkBrush(self.opts["brush"]))
            p.drawPath(symbols_path(pts, symbol, size))
        finally:
            p.restore()

    def _paint_few(self, p: QtGui.QPainter, widget: Any) -> bool:
        """Stamp a few markers (at most :data:`FEW_MARKERS`) from the symbol atlas as
        pyqtgraph's screen paint does, the same fragments in one call, without its
        array set-up (RoPE's one "m − n" dot and its four "two pairs" markers took
        ~0.2 ms a paint). Markers outside the view are not left out: the view box
        clips them. ``False``: not such a series (pyqtgraph paints it)."""
        data = self.data
        if (
            len(data) > FEW_MARKERS
            or not self.opts["pxMode"]
            or not self.opts["useCache"]
            or self.opts.get("compositionMode") is not None
            or (data["sourceRect"]["w"] == 0).any()  # (not rendered into the atlas yet)
        ):
            return False
        atlas = self.fragmentAtlas
        dpr = atlas.devicePixelRatio()
        if widget is not None and widget.devicePixelRatioF() != dpr:
            return False  # (pyqtgraph renders the atlas anew)
        t = p.transform()
        fragments = []
        create = QtGui.QPainter.PixmapFragment.create
        for x, y, (sx, sy, sw, sh), visible in zip(
            data["x"].tolist(),
            data["y"].tolist(),
            data["sourceRect"].tolist(),
            data["visible"].tolist(),
            strict=True,
        ):
            if not visible:
                continue
            # pyqtgraph's transformCoordinates and its clip to ±2³⁰
            px = t.m11() * x + t.m21() * y + t.dx()
            py = t.m12() * x + t.m22() * y + t.dy()
            px, py = min(max(px, -_FAR), _FAR), min(max(py, -_FAR), _FAR)
            fragments.append(
                create(QtCore.QPointF(px, py), QtCore.QRectF(sx, sy, sw, sh), 1 / dpr, 1 / dpr)
            )
        p.resetTransform()
        pixmap = atlas.pixmap
        for fragment in fragments:  # (Qt's engine draws a call's fragments one by one)
            p.drawPixmapFragments(fragment, 1, pixmap)
        self.few_painted += 1
        return True


class SymbolSeries(pg.PlotDataItem):
    """``PlotDataItem`` for a marker series; its symbols export as one path
    (see :class:`ExportScatter`). Takes ``PlotDataItem``'s arguments.

    Without pyqtgraph's dynamic range limit: it moves points more than a million view
    heights off screen closer (a work-around for curves Qt would not draw), and to know
    when, rebuilt the markers on every change of the view's y range (RoPE's marker plots
    change it on each step of ``m``). A marker that far away is out of sight either way:
    the scatter draws only the points inside the view.

    Its symbol pen and brush are made once: pyqtgraph's symbol atlas knows a rendered
    symbol by the identity of its pen and brush objects, and a colour or ``None`` given
    as the style became new objects on every ``setData`` (a new symbol rendered and
    added to the atlas, whose pixmap was then made anew, on each step of a slider).
    """

    _styled: tuple | None = None  # the style the scatter's points were given
    moved = 0  # updates that only moved the markers (tests)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.setDynamicRangeLimit(None)  # (no data yet: nothing to update)
        for key, make, kind in (
            ("symbolPen", pg.mkPen, QtGui.QPen),
            ("symbolBrush", pg.mkBrush, QtGui.QBrush),
        ):
            if key in kwargs and not isinstance(kwargs[key], kind):
                kwargs[key] = make(kwargs[key])
        old: pg.ScatterPlotItem = getattr(self, "scatter")  # noqa: B009 (typed here)
        old.sigClicked.disconnect(self.scatterClicked)
        old.sigHovered.disconnect(self.sigPointsHovered)
        old.setParentItem(None)
        self.scatter = ExportScatter()
        self.scatter.setParentItem(self)
        self.scatter.sigClicked.connect(self.scatterClicked)
        self.scatter.sigHovered.connect(self.sigPointsHovered)
        self._styled = None  # (the new scatter has no points yet)
        self.setData(*args, **kwargs)

    def _style_key(self) -> tuple:
        """What ``updateItems`` styles the markers (and the line) with: the pen and
        brush objects (made once) by identity, the rest by value."""
        opts = self.opts
        return (
            id(opts["symbolPen"]),
            id(opts["symbolBrush"]),
            opts["symbol"],
            opts["symbolSize"],
            opts["pxMode"],
            opts["antialias"],
            opts.get("useCache", True),
            opts["data"] is None,
            opts["pen"] is None,
            opts["fillLevel"],
            opts.get("stepMode"),
        )

    def updateItems(self, styleUpdate: bool = True) -> None:
        """New data of a marker series (no line) with as many points and the same style
        moves its markers (:func:`gui.render.pg_compat.move_markers`): pyqtgraph styled
        every point again and looked each symbol up in the atlas on every ``setData``
        (RoPE's two marker series, ~0.2 ms each a frame of a drag of m). Anything else
        is pyqtgraph's update."""
        key = self._style_key()
        opts = self.opts
        if (
            key == self._styled
            and opts["pen"] is None
            and opts["symbol"] is not None
            and (opts["data"] is None)
        ):
            shown = display_dataset(self)
            if shown is not None and move_markers(self.scatter, *shown):
                self.moved += 1
                return
        super().updateItems(styleUpdate)
        self._styled = key
