"""Render widgets (pyqtgraph plots and their containers) to PNG, SVG and the clipboard.

Graphics views render their ``QGraphicsScene``, other widgets ``QWidget.render``. SVG
comes from ``QSvgGenerator`` (SVG 1.1: clip paths kept), not pyqtgraph's ``SVGExporter``
(it fails on the closing ``Z`` Qt >= 6.10 writes in paths: pyqtgraph issue #3495)."""

from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Generator, Iterable
from functools import partial
from types import SimpleNamespace

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

from core.atomicio import atomic_path
from gui.render import envelope, raster
from gui.render.fast_axis import run_title_refits
from gui.render.opaque import widget_export

_PathLike = str | os.PathLike[str]

#: Draw exported curves reduced to the output columns (:mod:`gui.render.envelope`);
#: ``False`` strokes every point as before (for benchmarks and comparisons).
reduce_curves = True


def _plan(
    widget: QtWidgets.QWidget,
    width: int | None,
    height: int | None,
    scale: float | None,
    keep_layout: bool = False,
) -> tuple[QtCore.QSize, QtCore.QSize, float]:
    """Return ``(logical size, pixel size, device pixel ratio)`` for a render request.

    Enlarging uses a pixel ratio (>= 1) keeping on-screen proportions; otherwise the
    widget is re-laid out at the requested size, or with ``keep_layout`` drawn as laid
    out now, scaled down to it."""
    cw, ch = max(widget.width(), 1), max(widget.height(), 1)
    if any(v is not None and not v > 0 for v in (width, height, scale)):
        raise ValueError(f"size must be positive: width={width}, height={height}, scale={scale}")
    if scale is not None:
        pixels = QtCore.QSize(max(1, round(cw * scale)), max(1, round(ch * scale)))
        return QtCore.QSize(cw, ch), pixels, float(scale)
    if width is None and height is None:
        return QtCore.QSize(cw, ch), QtCore.QSize(cw, ch), 1.0
    if width is None:
        assert height is not None  # (both None returned above)
        pw, ph = max(1, round(height * cw / ch)), height
    elif height is None:
        pw, ph = width, max(1, round(width * ch / cw))
    else:
        pw, ph = width, height
    dpr = max(1.0, min(pw / cw, ph / ch))
    if keep_layout and dpr == 1.0:
        return QtCore.QSize(cw, ch), QtCore.QSize(pw, ph), 1.0
    logical = QtCore.QSize(max(1, round(pw / dpr)), max(1, round(ph / dpr)))
    return logical, QtCore.QSize(pw, ph), dpr


def _call_on_tree(widget: QtWidgets.QWidget, hook_name: str) -> None:
    """Call ``hook_name()`` on ``widget``, its children and its parents that have it."""
    chain = [widget, *widget.findChildren(QtWidgets.QWidget)]
    parent = widget.parentWidget()
    while parent is not None:
        chain.append(parent)
        parent = parent.parentWidget()
    for w in chain:
        hook = getattr(w, hook_name, None)
        if callable(hook):
            hook()


def bring_up_to_date(widget: QtWidgets.QWidget) -> None:
    """Let ``widget``, its children and its parents draw what they left behind while it
    was out of sight (a view's plots scrolled out of its stage: ``bring_up_to_date``)
    before the whole of it is painted or read."""
    _call_on_tree(widget, "bring_up_to_date")


def finish_live_frames(widget: QtWidgets.QWidget) -> None:
    """Let ``widget``, its children and its parents leave a slider drag's draft quality
    now (``finish_live_frame``: dashes, antialiasing, every heatmap pixel, the axes'
    held room) rather than when the drag's pause is noticed, so that an image exported
    right after a drag shows the settled picture."""
    _call_on_tree(widget, "finish_live_frame")


def _sync_layout(widget: QtWidgets.QWidget) -> None:
    """Bring layouts and geometries up to date, also for a widget never shown: a hidden
    widget only records resizes, deliver them as show() would; then deliver posted
    layout requests only (graphics layouts post them), so nothing repaints on screen."""
    widgets = [widget, *widget.findChildren(QtWidgets.QWidget)]
    for _ in range(3):
        for w in widgets:
            w.ensurePolished()
            layout = w.layout()
            if layout is not None:
                layout.activate()
            if w.testAttribute(QtCore.Qt.WidgetAttribute.WA_PendingResizeEvent):
                QtCore.QCoreApplication.sendEvent(w, QtGui.QResizeEvent(w.size(), w.size()))
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest.value)
        run_title_refits(widget)  # axis titles wrap to their new lengths (posted to the loop)


_REPLACE = QtCore.Qt.ClipOperation.ReplaceClip
_INTERSECT = QtCore.Qt.ClipOperation.IntersectClip


class _ExportPainter(QtGui.QPainter):
    """QPainter widening cosmetic pens (pyqtgraph's default, drawn in device pixels) by
    the image's pixel ratio. Python graphics items get this object in ``paint``.

    A hairline (width 0: the grid) stays one device pixel, as on a high-DPI screen and
    in an export at pixel ratio 1. The widened pen is marked cosmetic again: a width
    set on a hairline makes it non-cosmetic, and Qt then multiplied it by the pixel
    ratio a second time (a grid four pixels wide at scale 2, thicker than the data).
    """

    pen_scale = 1.0
    tiles = False  # paint graphics views a tile at a time (see _paint_tree)

    def __init__(self) -> None:
        super().__init__()
        # id(path) -> (path, curve): the cached paths of the curves being exported,
        # drawn reduced to the output columns (see gui.render.envelope)
        self.curve_paths: dict[int, tuple[QtGui.QPainterPath, pg.PlotCurveItem]] = {}

    def setPen(self, pen) -> None:
        pen = QtGui.QPen(pen)
        if pen.isCosmetic() and self.pen_scale != 1.0 and pen.widthF() > 0:
            pen.setWidthF(pen.widthF() * self.pen_scale)
            pen.setCosmetic(True)
        super().setPen(pen)

    #: device rectangle of the tile being painted (tiled paints only): an item that
    #: *replaces* the clip (pyqtgraph's axis text) gets it intersected with the tile, or
    #: text crossing two tiles would be drawn twice, darker
    tile: QtCore.QRectF | None = None

    def _keep_tile(self) -> None:
        if self.tile is not None:
            inverse, invertible = self.deviceTransform().inverted()
            if invertible:
                super().setClipRect(inverse.mapRect(self.tile), _INTERSECT)

    def setClipRect(self, *args) -> None:
        super().setClipRect(*args)
        if not isinstance(args[-1], QtCore.Qt.ClipOperation) or args[-1] == _REPLACE:
            self._keep_tile()

    def setClipPath(self, *args) -> None:
        super().setClipPath(*args)
        if len(args) < 2 or args[-1] == _REPLACE:
            self._keep_tile()

    def setClipRegion(self, *args) -> None:
        super().setClipRegion(*args)
        if len(args) < 2 or args[-1] == _REPLACE:
            self._keep_tile()

    def drawPath(self, path: QtGui.QPainterPath) -> None:
        """A curve's own path is drawn reduced to what the output columns can show (its
        cost bounded by the image width, not the number of points); anything else as is."""
        entry = self.curve_paths.get(id(path))
        if entry is not None and entry[0] is path and reduce_curves:
            raster_device = raster.on_raster(self)
            columns = 1.0 if raster_device else float(envelope.VECTOR_COLUMNS_PER_PX)
            if envelope.paint_curve(self, entry[1], raster_device, columns):
                return
        super().drawPath(path)

    def watch_curves(self, curves: list[pg.PlotCurveItem]) -> None:
        """Route the paths of ``curves`` through :meth:`drawPath`'s reduction."""
        for curve in curves:
            path = curve.getPath()  # the object PlotCurveItem.paint hands to drawPath
            self.curve_paths[id(path)] = (path, curve)


def _play_axis(axis: pg.AxisItem, painter: QtGui.QPainter) -> None:
    """Draw ``axis`` straight onto the export painter (its cached QPicture would replay
    its pens in C++, bypassing ``_ExportPainter.setPen``)."""
    painter.setFont(axis.style["tickFont"] or painter.font())  # the scene restores state
    if (specs := axis.generateDrawSpecs(painter)) is not None:
        axis.drawPicture(painter, *specs)


def _fit_axes(widget: QtWidgets.QWidget, scenes: list[QtWidgets.QGraphicsScene]) -> None:
    """Let every axis measure its tick labels at the export size, and lay out again.

    An axis learns how wide its labels are only when it generates its draw specs, which
    a screen does in the first paint (and re-lays out for the next one). An export has
    no next paint: its axes kept the room of their last screen size, or pyqtgraph's
    30 px default for a widget never shown, and left out labels that did not fit
    (``0.0001`` on RoPE's frequency axis) or ran into the axis title. Measured here,
    with the painter ``AxisItem.paint`` measures with, until the sizes settle.
    """
    for _ in range(3):
        axes = [
            i for s in scenes for i in s.items() if isinstance(i, pg.AxisItem) and i.isVisible()
        ]
        before = [(a.size().width(), a.size().height()) for a in axes]
        for axis in axes:
            picture = QtGui.QPicture()
            painter = QtGui.QPainter(picture)
            try:
                if axis.style["tickFont"]:
                    painter.setFont(axis.style["tickFont"])
                axis.generateDrawSpecs(painter)
            finally:
                painter.end()
        _sync_layout(widget)
        for scene in scenes:
            getattr(scene, "prepareForPaint", lambda: None)()
        if before == [(a.size().width(), a.size().height()) for a in axes]:
            return


def _render_widget(
    widget: QtWidgets.QWidget, painter: QtGui.QPainter, flags: QtWidgets.QWidget.RenderFlag
) -> None:
    """``widget.render`` at the painter's origin, on a vector device through a QPicture.

    Qt's SVG writer put the clip a widget sets inside ``render`` (a word-wrapped label's
    text clip) at the widget's untranslated place: librsvg and browsers clipped the
    formula line away. Replayed from a picture, the clip goes through the painter's
    transform like any other."""
    region = QtGui.QRegion(widget.rect())
    if raster.on_raster(painter):
        widget.render(painter, QtCore.QPoint(), region, flags)
        return
    picture = QtGui.QPicture()
    picture.setBoundingRect(widget.rect())
    widget.render(picture, QtCore.QPoint(), region, flags)
    painter.drawPicture(QtCore.QPointF(0, 0), picture)


def _render_scene(
    scene: QtWidgets.QGraphicsScene,
    painter: QtGui.QPainter,
    target: QtCore.QRectF,
    source: QtCore.QRectF,
) -> None:
    """``scene.render`` of ``source`` into ``target``; on a vector device through a QPicture.

    Qt's SVG writer loses track of the clip when a painter state is restored inside
    another clip (an item's text clip inside its plot's clip): everything drawn after
    a text label stayed clipped to that label's box in the file (librsvg and browsers
    left out RoPE's arrows and legend swatches). Replayed from a picture, every clip
    reaches the writer as a clip of its own, and the file clips as the screen does."""
    aspect = QtCore.Qt.AspectRatioMode.IgnoreAspectRatio
    if raster.on_raster(painter):
        scene.render(painter, target, source, aspect)
        return
    picture = QtGui.QPicture()
    recorder = _ExportPainter()
    if isinstance(painter, _ExportPainter):
        recorder.pen_scale, recorder.curve_paths = painter.pen_scale, painter.curve_paths
    recorder.begin(picture)
    try:
        recorder.setRenderHints(painter.renderHints())
        scene.render(recorder, target, source, aspect)
    finally:
        recorder.end()
    painter.drawPicture(QtCore.QPointF(0, 0), picture)


def _view_tiles(view: QtWidgets.QGraphicsView, painter: QtGui.QPainter) -> list[QtCore.QRectF]:
    """Viewport rectangles (viewport coordinates) covering ``view``, one per plot where
    the plots form a grid (else one per row of plots), edges on whole device pixels.

    Painted one after the other, each clipped to its rectangle, they give the image a
    single paint gives: every device pixel belongs to exactly one tile."""
    viewport = QtCore.QRectF(view.viewport().rect())
    scene = view.scene()
    plots = [i for i in scene.items() if isinstance(i, pg.PlotItem) and i.isVisible()]
    if len(plots) < 2:
        return [viewport]
    origin = QtCore.QPointF(view.viewport().geometry().topLeft())
    device = painter.deviceTransform()
    sx, sy = device.m11(), device.m22()
    if device.type().value > QtGui.QTransform.TransformationType.TxScale.value:
        return [viewport]
    if sx <= 0 or sy <= 0:  # a mirrored device: one tile
        return [viewport]

    def cuts(edges: set[float], lo: float, hi: float, scale: float, shift: float) -> list[float]:
        # to whole device pixels and back: adjacent tiles share the exact same edge
        pixels = sorted({round(e * scale + shift) for e in edges if lo < e < hi})
        inner = [(p - shift) / scale for p in pixels]
        return [lo, *[c for c in inner if lo < c < hi], hi]

    xs: set[float] = set()
    ys: set[float] = set()
    for plot in plots:
        box = view.mapFromScene(plot.sceneBoundingRect()).boundingRect()
        xs.update((box.left(), box.right() + 1.0))
        ys.update((box.top(), box.bottom() + 1.0))
    col = cuts(xs, viewport.left(), viewport.right() + 1, sx, device.dx() + sx * origin.x())
    row = cuts(ys, viewport.top(), viewport.bottom() + 1, sy, device.dy() + sy * origin.y())
    if (len(col) - 1) * (len(row) - 1) > MAX_TILES:
        col = [col[0], col[-1]]
    return [
        QtCore.QRectF(QtCore.QPointF(x0, y0), QtCore.QPointF(x1, y1))
        for y0, y1 in zip(row[:-1], row[1:], strict=True)
        for x0, x1 in zip(col[:-1], col[1:], strict=True)
    ]


MAX_TILES = 16  # tiles of one graphics view in a tiled paint


def _paint_view_part(
    view: QtWidgets.QGraphicsView,
    painter: QtGui.QPainter,
    opaque: bool,
    offset: QtCore.QPointF,
    part: QtCore.QRectF | None,
    fill: bool,
) -> None:
    """Paint ``view``'s scene (or the ``part`` of its viewport, clipped) at ``offset``."""
    painter.save()
    try:
        painter.translate(offset)
        if fill and opaque and view.backgroundBrush().style() != QtCore.Qt.BrushStyle.NoBrush:
            painter.fillRect(QtCore.QRectF(view.rect()), view.backgroundBrush())
        viewport = view.viewport()
        rect = QtCore.QRectF(viewport.rect()) if part is None else part
        source = view.viewportTransform().inverted()[0].mapRect(rect)
        target = rect.translated(QtCore.QPointF(viewport.geometry().topLeft()))
        if part is not None:
            painter.setClipRect(target)
            if isinstance(painter, _ExportPainter):
                painter.tile = painter.deviceTransform().mapRect(target)
        painter.setRenderHints(view.renderHints() | QtGui.QPainter.RenderHint.Antialiasing)
        _render_scene(view.scene(), painter, target, source)
    finally:
        if isinstance(painter, _ExportPainter):
            painter.tile = None
        painter.restore()


def _paint_plain(
    widget: QtWidgets.QWidget, painter: QtGui.QPainter, opaque: bool, offset: QtCore.QPointF
) -> None:
    """Paint a plain widget (not its children) at ``offset``."""
    painter.save()
    try:
        painter.translate(offset)
        flag = QtWidgets.QWidget.RenderFlag
        with widget_export():  # (labels that paint their own background leave it to this)
            _render_widget(widget, painter, flag.DrawWindowBackground if opaque else flag(0))
    finally:
        painter.restore()


def _paint_tree(
    widget: QtWidgets.QWidget,
    painter: QtGui.QPainter,
    opaque: bool,
    top: bool = True,
    offset: QtCore.QPointF | None = None,
) -> list[Callable[[], None]]:
    """The steps painting ``widget`` and its visible child widgets at ``offset`` (default:
    origin), in order: one per plain widget, one per graphics view, or one per tile of
    it when ``painter.tiles`` is set (see :func:`_view_tiles`)."""
    offset = QtCore.QPointF(offset or QtCore.QPointF())
    if isinstance(widget, QtWidgets.QGraphicsView) and widget.scene() is not None:
        if not getattr(painter, "tiles", False):
            return [partial(_paint_view_part, widget, painter, opaque, offset, None, True)]
        painter.save()
        painter.translate(offset)
        tiles = _view_tiles(widget, painter)
        painter.restore()
        return [
            partial(_paint_view_part, widget, painter, opaque, offset, tile, k == 0)
            for k, tile in enumerate(tiles)
        ]
    steps: list[Callable[[], None]] = [
        partial(_paint_plain, widget, painter, opaque and top, offset)
    ]
    for child in widget.children():
        if (
            isinstance(child, QtWidgets.QWidget)
            and child.isVisibleTo(widget)
            and not child.isWindow()
        ):
            steps += _paint_tree(
                child, painter, opaque, False, offset + QtCore.QPointF(child.pos())
            )
    return steps


def paint_steps(
    widget: QtWidgets.QWidget,
    device: QtGui.QPaintDevice,
    logical: QtCore.QSize,
    sx: float = 1.0,
    sy: float = 1.0,
    opaque: bool = True,
    pen_scale: float = 1.0,
    tiles: bool = False,
) -> Generator[tuple[int, int], None, None]:
    """Paint ``widget`` onto ``device`` step by step, yielding ``(done, total)`` steps.

    The widget is laid out at ``logical`` size while painting (restored afterwards, also
    when the caller stops iterating or a step fails) and painted scaled by ``sx``, ``sy``
    (~1: they absorb the rounding of the logical size). Cosmetic pens widen by
    ``pen_scale`` (an image's pixel ratio). A step is one plain widget or one graphics
    view, or with ``tiles`` one plot-sized tile of it: the result is the same, and a
    caller may handle events or stop between steps. The first yield, ``(0, total)``,
    comes once the widget is laid out, before anything is painted.

    Everything here touches widgets and graphics items: GUI thread only.
    """
    old, painter = widget.size(), _ExportPainter()
    painter.pen_scale, painter.tiles = pen_scale, tiles
    items: list = []
    modes: dict = {}
    axes: list = []
    cached: dict = {}
    try:
        bring_up_to_date(widget)  # every plot current, also those scrolled out of sight
        finish_live_frames(widget)  # in full quality, also right after a drag
        widget.resize(logical)
        _sync_layout(widget)
        views = [widget, *widget.findChildren(QtWidgets.QGraphicsView)]
        scenes = [
            v.scene()
            for v in views
            if isinstance(v, QtWidgets.QGraphicsView) and v.scene() is not None
        ]
        for scene in scenes:  # pyqtgraph: finish pending auto-ranging
            getattr(scene, "prepareForPaint", lambda: None)()
        _fit_axes(widget, scenes)
        # Items drawn from a device cache would land in the export as screen-resolution
        # pixmaps (raster axes in an SVG): paint them directly while exporting.
        cached = {
            i: i.cacheMode()
            for s in scenes
            for i in s.items()
            if i.cacheMode() != QtWidgets.QGraphicsItem.CacheMode.NoCache
        }
        for item in cached:
            item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.NoCache)
        items = [i for s in scenes for i in s.items() if hasattr(i, "setExportMode")]
        # Thick-pen curves are drawn as separate segments for speed; export one path.
        modes = {i: i.opts["segmentedLineMode"] for i in items if isinstance(i, pg.PlotCurveItem)}
        axes = [i for i in items if isinstance(i, pg.AxisItem)] if pen_scale != 1.0 else []
        painter.begin(device)
        for curve in modes:
            curve.opts["segmentedLineMode"] = "off"
        for item in items:  # pyqtgraph: vector symbols, no auto-range button, antialias
            item.setExportMode(True, {"antialias": True, "painter": painter})
        for axis in axes:
            axis.picture = SimpleNamespace(play=partial(_play_axis, axis))  # AxisItem.paint
        painter.watch_curves([i for i in items if isinstance(i, pg.PlotCurveItem)])
        painter.scale(sx, sy)
        plan = _paint_tree(widget, painter, opaque)
        yield 0, len(plan)
        for done, step in enumerate(plan, start=1):
            step()
            yield done, len(plan)
    finally:
        if painter.isActive():
            painter.end()
        for item in items:
            item.setExportMode(False)
        for curve, mode in modes.items():
            curve.opts["segmentedLineMode"] = mode
        for axis in axes:
            axis.picture = None  # regenerated on the next screen paint
        for item, mode in cached.items():
            item.setCacheMode(mode)
        widget.resize(old)
        _sync_layout(widget)


def run_steps(steps: Iterable[tuple[int, int]]) -> None:
    """Run a stepwise drawing (:func:`paint_steps`, ``ImageRender.steps`` …) to its end
    in one go, e.g. ``run_steps(paint_steps(widget, picture, size))`` for a PDF page."""
    for _ in steps:
        pass


class ImageRender:
    """``widget`` rendered to a ``QImage`` step by step (see :func:`render_image`).

    Iterate :meth:`steps` to the end (each yields ``(done, total)``, painting one part
    of the widget: a plain widget or one plot-sized tile); :attr:`image` is then the
    finished image. Stopping early leaves the widget as it was. ``keep_layout``: a
    size smaller than the widget's draws its layout scaled down (see :func:`_plan`).
    """

    def __init__(
        self,
        widget: QtWidgets.QWidget,
        width: int | None = None,
        height: int | None = None,
        scale: float | None = None,
        transparent: bool = False,
        keep_layout: bool = False,
    ) -> None:
        self.widget = widget
        self.logical, pixels, self.dpr = _plan(widget, width, height, scale, keep_layout)
        self.image = QtGui.QImage(pixels, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        fill = widget.palette().window().color()
        self.image.fill(QtCore.Qt.GlobalColor.transparent if transparent else fill)
        self.opaque = not transparent

    def steps(self) -> Generator[tuple[int, int], None, None]:
        """Paint, yielding ``(done, total)`` after each part (GUI thread)."""
        image, dpr, logical = self.image, self.dpr, self.logical
        image.setDevicePixelRatio(dpr)
        sx = image.width() / dpr / logical.width()
        sy = image.height() / dpr / logical.height()
        try:
            yield from paint_steps(
                self.widget, image, logical, sx, sy, self.opaque, pen_scale=dpr, tiles=True
            )
        finally:
            image.setDevicePixelRatio(1.0)


def render_image(
    widget: QtWidgets.QWidget,
    width: int | None = None,
    height: int | None = None,
    scale: float | None = None,
    transparent: bool = False,
) -> QtGui.QImage:
    """Render ``widget`` (shown or not) to a ``QImage`` of exactly the requested size.

    Parameters
    ----------
    widget
        E.g. a ``pg.GraphicsLayoutWidget`` or a plain widget holding several of them.
    width, height
        Pixel size (one alone keeps the aspect ratio). Enlarging uses a pixel ratio:
        text and lines grow with the image; a smaller size or other aspect ratio
        re-lays the widget out temporarily (its size is restored).
    scale
        Instead of ``width``/``height``: pixel size = ``scale`` x widget size.
    transparent
        Leave the background transparent (alpha 0) instead of filling it.

    Returns
    -------
    QtGui.QImage
        ``ARGB32_Premultiplied`` image, device pixel ratio 1.
    """
    render = ImageRender(widget, width, height, scale, transparent)
    run_steps(render.steps())
    return render.image


def _css_fonts(match: re.Match[str]) -> str:
    """Font list for SVG viewers: the family Qt used (e.g. for "Sans Serif"), a generic."""
    names = dict.fromkeys([QtGui.QFontInfo(QtGui.QFont(match[1])).family(), match[1]])
    return 'font-family="' + ", ".join(f"'{n}'" for n in names) + ', sans-serif"'


def write_export(
    path: _PathLike, kind: str, data: bytes, check: Callable[[], None] | None = None
) -> None:
    """Write ``data`` atomically to ``path``; raise a one-line ``OSError`` naming it.

    ``check`` is called once the content is complete, before it replaces ``path``: an
    exception from it (a cancelled export) leaves ``path`` untouched and no temporary
    file behind.
    """
    try:
        with atomic_path(path) as tmp:
            tmp.write_bytes(data)
            if check is not None:
                check()
    except OSError as exc:  # (its reason only: str(exc) repeated the path after it)
        reason = exc.strerror or str(exc)
        raise OSError(f"cannot write {kind} to {os.fspath(path)!r}: {reason}") from exc


def png_bytes(image: QtGui.QImage) -> bytes:
    """``image`` encoded as PNG file content (any thread: a ``QImage`` is not a widget)."""
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stubs type the format as bytes; the binding takes only a str
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError("Qt could not encode the image as PNG")
    return bytes(buffer.data().data())


def image_bytes_png(
    widget: QtWidgets.QWidget,
    width: int | None = None,
    height: int | None = None,
    scale: float | None = None,
    transparent: bool = False,
) -> bytes:
    """Return ``widget`` rendered (see :func:`render_image`) as PNG file content."""
    return png_bytes(render_image(widget, width, height, scale, transparent))


def render_png(
    widget: QtWidgets.QWidget,
    path: _PathLike,
    width: int | None = None,
    height: int | None = None,
    scale: float | None = None,
    transparent: bool = False,
) -> None:
    """Render ``widget`` to a PNG file, atomically replacing ``path``.

    Parameters are those of :func:`render_image`. Raises ``OSError`` if the file
    cannot be written (``path`` is then untouched).
    """
    write_export(path, "PNG image", image_bytes_png(widget, width, height, scale, transparent))


def copy_to_clipboard(widget: QtWidgets.QWidget) -> None:
    """Put ``widget`` rendered at its current size on the clipboard as an image."""
    QtGui.QGuiApplication.clipboard().setImage(render_image(widget))


def render_svg(
    widget: QtWidgets.QWidget,
    path: _PathLike,
    width: int | None = None,
    height: int | None = None,
    title: str = "",
) -> None:
    """Render ``widget`` to a vector SVG file, atomically replacing ``path``.

    Raises ``OSError`` if the file cannot be written (``path`` is then untouched).

    Parameters
    ----------
    widget
        Widget to render (shown or not).
    width, height
        SVG size in px (attributes and ``viewBox``); the widget is laid out at that
        size temporarily. Default: its current size.
    title
        Document ``<title>``.

    The file is made portable (see :func:`portable_svg`): no stroke that relies on
    ``vector-effect``, one ``<text>`` per line of text, clips only where they cut, each
    scene drawn through a picture (see :func:`_render_scene`).
    """
    render = SvgRender(widget, width, height, title)
    run_steps(render.steps())
    write_export(path, "SVG image", render.svg_bytes())


class SvgRender:
    """``widget`` drawn into an SVG document step by step (see :func:`render_svg`).

    Iterate :meth:`steps` to the end (``(done, total)`` after each plain widget or
    graphics view), then :meth:`svg_bytes` is the portable file content.
    """

    def __init__(
        self,
        widget: QtWidgets.QWidget,
        width: int | None = None,
        height: int | None = None,
        title: str = "",
        shown: tuple[int, int] | None = None,
    ) -> None:
        self.widget = widget
        _, self.size, _ = _plan(widget, width, height, None)
        # the document's width and height (its drawing scaled to them): a small export
        # laid out larger than it is shown (gui.export.headless.export_layout)
        self.shown = QtCore.QSize(*shown) if shown is not None else self.size
        self.buffer = QtCore.QBuffer()
        self.buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
        generator = QtSvg.QSvgGenerator(QtSvg.QSvgGenerator.SvgVersion.Svg11)
        generator.setOutputDevice(self.buffer)
        generator.setSize(self.size)
        generator.setViewBox(QtCore.QRect(QtCore.QPoint(0, 0), self.size))
        generator.setResolution(round(widget.logicalDpiX()))  # font pt -> px as on screen
        generator.setTitle(title)
        self.generator = generator

    def steps(self) -> Generator[tuple[int, int], None, None]:
        """Paint, yielding ``(done, total)`` after each part (GUI thread)."""
        yield from paint_steps(self.widget, self.generator, self.size, 1.0, 1.0, opaque=True)

    def svg_bytes(self) -> bytes:
        """The finished document, made portable (:func:`portable_svg`), as UTF-8."""
        size = self.shown
        text = bytes(self.buffer.data().data()).decode("utf-8")
        text = re.sub(
            r'<svg width="[^"]*" height="[^"]*"',  # Qt writes mm; use px as viewBox
            f'<svg width="{size.width()}" height="{size.height()}"',
            text,
            count=1,
        )
        text = re.sub(r'font-family="([^"\']*)"', _css_fonts, text)
        return portable_svg(text).encode("utf-8")


# ----------------------------------------------------------------- portable SVG
_SVG_NS = "http://www.w3.org/2000/svg"
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_TEXT = f"{{{_SVG_NS}}}text"
_G = f"{{{_SVG_NS}}}g"


def _matrix(transform: str | None) -> tuple[float, ...] | None:
    """``(a, b, c, d, e, f)`` of a Qt-written ``matrix(...)`` transform, else None."""
    match = re.fullmatch(r"\s*matrix\(([^)]*)\)\s*", transform or "")
    if match is None:
        return None
    values = tuple(float(v) for v in re.findall(_NUMBER, match[1]))
    return values if len(values) == 6 else None


def _map_pairs(text: str, m: tuple[float, ...]) -> str:
    """``text`` (path data or points of absolute ``x,y`` pairs) with every pair mapped."""
    a, b, c, d, e, f = m

    def pair(match: re.Match[str]) -> str:
        x, y = float(match[1]), float(match[2])
        return f"{a * x + c * y + e:.6g},{b * x + d * y + f:.6g}"

    return re.sub(rf"({_NUMBER})\s*,\s*({_NUMBER})", pair, text)


def _bake(element: ET.Element, m: tuple[float, ...]) -> bool:
    """Map ``element``'s coordinates by ``m`` in place (a rect or line becomes a path);
    False if its geometry is not in a form this understands."""
    tag = element.tag
    if tag.endswith("}path"):
        data = element.get("d", "")
        if re.search(r"[a-zA-Z]", re.sub(r"[MLCZ]", "", re.sub(_NUMBER, "", data))):
            return False  # only Qt's absolute M/L/C/Z commands
        element.set("d", _map_pairs(data, m))
    elif tag.endswith(("}polyline", "}polygon")):
        element.set("points", _map_pairs(element.get("points", ""), m))
    elif tag.endswith(("}rect", "}line")):
        get = lambda k: float(element.get(k, "0"))  # noqa: E731
        if tag.endswith("}rect"):
            x, y, w, h = get("x"), get("y"), get("width"), get("height")
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            data = "M{} L{} L{} L{} Z".format(*(f"{px},{py}" for px, py in corners))
        else:
            data = f"M{get('x1')},{get('y1')} L{get('x2')},{get('y2')}"
        for key in ("x", "y", "width", "height", "rx", "ry", "x1", "y1", "x2", "y2"):
            element.attrib.pop(key, None)
        element.tag = f"{{{_SVG_NS}}}path"
        element.set("d", _map_pairs(data, m))
    else:
        return False
    return True


def _split_scaled_group(group: ET.Element) -> list[ET.Element]:
    """``group`` as a run of groups in the same order: shapes whose stroke must not
    scale get its transform baked into their coordinates (a group without it)."""
    m = _matrix(group.get("transform"))
    runs: list = []
    for child in list(group):
        baked = False
        if child.get("vector-effect") == "non-scaling-stroke":
            # kept where the geometry is not understood: right where it is supported
            try:
                baked = m is None or _bake(child, m)
            except ValueError:  # a number Qt would not write
                baked = False
            if baked:
                del child.attrib["vector-effect"]
            baked = baked and m is not None
        if not runs or runs[-1][0] != baked:
            runs.append((baked, []))
        runs[-1][1].append(child)
    out = []
    for baked, children in runs:
        attrib = dict(group.attrib)
        if baked:
            attrib.pop("transform", None)
        new = ET.Element(group.tag, attrib)
        new.text, new.tail = group.text, group.tail
        new.extend(children)
        out.append(new)
    return out or [group]


def _text_font(text: ET.Element) -> QtGui.QFont:
    """The font Qt wrote ``<text>`` with (first family, pixel size, weight, style);
    raises ``ValueError`` on a number Qt would not write."""
    family = re.findall(r"'([^']*)'", text.get("font-family", "")) or ["Sans Serif"]
    font = QtGui.QFont(family[0])
    font.setWeight(QtGui.QFont.Weight(int(text.get("font-weight", "400"))))
    font.setItalic(text.get("font-style") in ("italic", "oblique"))
    font.setPixelSize(max(1, round(float(text.get("font-size", "12")))))
    return font


#: how far (em) a run of text may start from where the run before it ends and still
#: continue its line: Qt's runs of one line continue each other to 0.01 px (every view
#: and lecture scene measured), a grid's neighbouring cell values start 3 px or more
#: after the value before them (Relative's T5 buckets, Word order's zeros at 100 %);
#: a quarter em joined those into '1718' and '00' at the first cell's place
RUN_SLACK_EM = 0.1


def _continues(run: ET.Element, after: ET.Element) -> bool:
    """Whether ``<text>`` ``after`` starts where ``run`` ends (within
    :data:`RUN_SLACK_EM`): the next run of the same line, not the next tick label,
    table cell or grid cell's value."""
    try:
        x0, x1 = float(run.get("x", "0")), float(after.get("x", "0"))
        size = float(run.get("font-size", "12"))
        font = _text_font(run)
    except ValueError:
        return False
    width = QtGui.QFontMetricsF(font).horizontalAdvance(run.text or "")
    return abs(x0 + width - x1) <= RUN_SLACK_EM * size


def _compose(outer: tuple[float, ...], inner: tuple[float, ...]) -> tuple[float, ...]:
    """The SVG matrix ``outer · inner`` (``inner`` applied first)."""
    a, b, c, d, e, f = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _scale_of(m: tuple[float, ...]) -> float:
    """The largest factor by which ``m`` stretches a length."""
    return max(math.hypot(m[0], m[1]), math.hypot(m[2], m[3]))


def _ink_boxes(
    element: ET.Element, m: tuple[float, ...], stroke: float
) -> list[QtCore.QRectF] | None:
    """Boxes (in the coordinates ``m`` maps to) holding all that is drawn below
    ``element``: geometry widened by the stroke, text as Qt measured it. ``stroke`` is
    the inherited stroke width (0: none). None where something is not understood."""
    boxes = []
    for child in element:
        transform = child.get("transform")
        inner = _matrix(transform) if transform is not None else _IDENTITY
        if inner is None:
            return None
        cm = _compose(m, inner)
        try:
            width = stroke
            if child.get("stroke") == "none":
                width = 0.0
            elif child.get("stroke-width") is not None:
                width = float(child.get("stroke-width", "1"))
            if child.get("stroke") not in (None, "none") and child.get("stroke-width") is None:
                width = max(width, 1.0)
            box = _ink_box(child, cm, width)
        except ValueError:
            return None
        if child.tag == _G:
            found = _ink_boxes(child, cm, width)
            if found is None:
                return None
            boxes += found
        elif box is None:
            return None
        elif not box.isNull():
            boxes.append(box)
    return boxes


def _ink_box(element: ET.Element, m: tuple[float, ...], stroke: float) -> QtCore.QRectF | None:
    """The box of one shape or text (a null rect for a group: see :func:`_ink_boxes`);
    None for an element this does not measure. Raises ``ValueError`` on bad numbers."""
    tag = element.tag.rsplit("}", 1)[-1]
    if tag == "g":
        return QtCore.QRectF()
    if tag == "text":
        if len(element) or element.get("text-anchor") not in (None, "start"):
            return None
        x, y, font = float(element.get("x", "0")), float(element.get("y", "0")), _text_font(element)
        metrics = QtGui.QFontMetricsF(font)
        advance = metrics.horizontalAdvance(element.text or "")
        local = QtCore.QRectF(x, y - metrics.ascent(), advance, metrics.height())
        return QtGui.QTransform(*m).mapRect(local)
    get = lambda k: float(element.get(k, "0"))  # noqa: E731
    if tag in ("path", "polyline", "polygon"):
        data = element.get("d" if tag == "path" else "points", "")
        if tag == "path" and re.sub(rf"{_NUMBER}|[MLCZ,\s]", "", data):
            return None  # only Qt's absolute M/L/C/Z (control points bound a curve)
        values = [float(v) for v in re.findall(_NUMBER, data)]
        points = list(zip(values[::2], values[1::2], strict=False))
    elif tag in ("rect", "image"):
        x, y, w, h = get("x"), get("y"), get("width"), get("height")
        points = [(x, y), (x + w, y + h)]
    elif tag == "line":
        points = [(get("x1"), get("y1")), (get("x2"), get("y2"))]
    elif tag in ("circle", "ellipse"):
        rx = get("r") if tag == "circle" else get("rx")
        ry = get("r") if tag == "circle" else get("ry")
        points = [(get("cx") - rx, get("cy") - ry), (get("cx") + rx, get("cy") + ry)]
    else:
        return None
    if not points:
        return QtCore.QRectF()
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    local = QtCore.QRectF(QtCore.QPointF(min(xs), min(ys)), QtCore.QPointF(max(xs), max(ys)))
    box = QtGui.QTransform(*m).mapRect(local)
    if tag != "image" and stroke > 0:  # Qt's bevel joins stay within half a width
        grow = stroke / 2 * (1.0 if element.get("vector-effect") else _scale_of(m))
        box = box.adjusted(-grow, -grow, grow, grow)
    return box


def _clip_rects(root: ET.Element) -> dict[str, QtCore.QRectF]:
    """``id`` -> rectangle of each ``<clipPath>`` that is one axis-aligned rectangle."""
    rects = {}
    for clip in root.iter(f"{{{_SVG_NS}}}clipPath"):
        shapes = list(clip)
        if len(shapes) != 1 or shapes[0].tag != f"{{{_SVG_NS}}}path" or clip.get("transform"):
            continue
        data = shapes[0].get("d", "")
        if re.sub(rf"{_NUMBER}|[MLZ,\s]", "", data):
            continue
        values = [float(v) for v in re.findall(_NUMBER, data)]
        points = set(zip(values[::2], values[1::2], strict=False))
        xs, ys = {x for x, _ in points}, {y for _, y in points}
        if len(points) == 4 and len(xs) == 2 and len(ys) == 2:
            rects[clip.get("id", "")] = QtCore.QRectF(
                QtCore.QPointF(min(xs), min(ys)), QtCore.QPointF(max(xs), max(ys))
            )
    return rects


def _drop_idle_clips(root: ET.Element) -> None:
    """Remove the clip from groups whose drawing lies inside it.

    Qt clips a text item to its own box, which Qt's glyph advances just fill; a
    renderer with a little wider advances (librsvg, browsers) lost the last letter of
    titles and legend entries to that clip. ImageMagick's own renderer (MSVG) inverts
    clip paths: it drew only what lies outside them. A clip that cuts nothing in Qt's
    own layout is dropped; one that really cuts (a curve leaving its plot) is kept."""
    rects = _clip_rects(root)
    for group in root.iter(_G):
        match = re.fullmatch(r"url\(#([^)]*)\)", group.get("clip-path", ""))
        if match is None or match[1] not in rects or group.get("transform"):
            continue
        try:
            width = float(group.get("stroke-width", "0")) if group.get("stroke") else 0.0
        except ValueError:
            continue
        boxes = _ink_boxes(group, _IDENTITY, width)
        clip = rects[match[1]].adjusted(-_CLIP_SLACK, -_CLIP_SLACK, _CLIP_SLACK, _CLIP_SLACK)
        if boxes is not None and all(
            clip.left() <= b.left()
            and b.right() <= clip.right()
            and clip.top() <= b.top()
            and b.bottom() <= clip.bottom()
            for b in boxes
        ):
            del group.attrib["clip-path"]


#: ink this far (px) outside a clip does not keep it: a grid line ending a fraction of
#: a pixel past its plot's edge (the view's rounding) shows that fraction unclipped
_CLIP_SLACK = 1.0


_ZERO_WIDTH_SPACE, _SOFT_HYPHEN = "\u200b", "\u00ad"


def _plain_break_points(root: ET.Element) -> None:
    """Text without the invisible break points a table's long words carry
    (:func:`gui.plotting.word_breaks.breakable`): its zero-width spaces and soft hyphens
    went into the SVG's text as characters, which a text copied from the slide kept, and
    a soft hyphen where Qt broke the line ("posi-" / "tions"), drawn by Qt as a hyphen,
    is invisible to an SVG renderer: there it becomes the hyphen it was drawn as."""
    for element in root.iter():
        for attr in ("text", "tail"):
            value = getattr(element, attr)
            if not value or (_ZERO_WIDTH_SPACE not in value and _SOFT_HYPHEN not in value):
                continue
            value = value.replace(_ZERO_WIDTH_SPACE, "")
            hyphen = attr == "text" and value.rstrip().endswith(_SOFT_HYPHEN)
            value = value.replace(_SOFT_HYPHEN, "")
            setattr(element, attr, value.rstrip() + "-" if hyphen else value)


def _merge_text_runs(parent: ET.Element) -> None:
    """Join adjacent ``<text>`` runs of one line (Qt writes a run per font fallback, at
    absolute x positions: viewers with other glyph widths left gaps or overlaps)."""
    children = list(parent)
    keep, last = [], None
    for child in children:
        if (
            last is not None
            and child.tag == _TEXT
            and last.tag == _TEXT
            and child.get("y") == last.get("y")
            and not (last.tail or "").strip()
            and {k: v for k, v in child.attrib.items() if k != "x"}
            == {k: v for k, v in last.attrib.items() if k != "x"}
            and _continues(last, child)
            and len(child) == 0
            and len(last) == 0
        ):
            last.text = (last.text or "") + (child.text or "")
            last.tail = child.tail
            continue
        keep.append(child)
        last = child
    if len(keep) != len(children):
        for child in children:
            parent.remove(child)
        parent.extend(keep)


_IMAGE = f"{{{_SVG_NS}}}image"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
#: an ``<image>`` drawn at least this many output px per image pixel is a grid of
#: cells (a heatmap), not a picture; one of at most this many pixels becomes rects
CELL_MIN_PX = 3.0
CELL_RECTS_MAX = 64 * 64
#: nearest-neighbour scaling, as Qt drew it: the SVG 1.1 keyword (Inkscape, Firefox)
#: first, then CSS's (Chromium); a renderer keeps the last value it understands
_PIXELATED = "image-rendering:optimizeSpeed;image-rendering:pixelated"


def _image_pixels(image: ET.Element) -> QtGui.QImage | None:
    """The raster an ``<image>`` embeds (Qt writes PNG data URLs), else None."""
    href = image.get(_XLINK_HREF) or image.get("href") or ""
    head, _, data = href.partition(",")
    if not head.startswith("data:image/") or not head.endswith(";base64"):
        return None
    raster_image = QtGui.QImage.fromData(QtCore.QByteArray.fromBase64(data.encode("ascii")))
    if raster_image.isNull():
        return None
    return raster_image.convertToFormat(QtGui.QImage.Format.Format_RGBA8888)


def _cell_rects(image: ET.Element, pixels: QtGui.QImage) -> ET.Element:
    """``image``'s pixels as a group of crisp-edged rects (a run of equal pixels in a row
    is one rect): librsvg 2.54 smooths every scaled image, ``image-rendering`` or not."""
    w, h = pixels.width(), pixels.height()
    raw = bytes(pixels.constBits())[: pixels.bytesPerLine() * h]
    stride = pixels.bytesPerLine()
    x0, y0 = float(image.get("x", "0")), float(image.get("y", "0"))
    cw, ch = float(image.get("width", str(w))) / w, float(image.get("height", str(h))) / h
    group = ET.Element(_G, {"shape-rendering": "crispEdges", "stroke": "none"})
    group.tail = image.tail
    for row in range(h):
        top, bottom = y0 + row * ch, y0 + (row + 1) * ch
        line = raw[row * stride : row * stride + 4 * w]
        col = 0
        while col < w:
            rgba = line[4 * col : 4 * col + 4]
            end = col + 1
            while end < w and line[4 * end : 4 * end + 4] == rgba:
                end += 1
            if rgba[3]:
                left, right = x0 + col * cw, x0 + end * cw
                attrib = {
                    "x": f"{left:.6g}",
                    "y": f"{top:.6g}",
                    "width": f"{right - left:.6g}",
                    "height": f"{bottom - top:.6g}",
                    "fill": "#{:02x}{:02x}{:02x}".format(*rgba[:3]),
                }
                if rgba[3] < 255:
                    attrib["fill-opacity"] = f"{rgba[3] / 255:.4g}"
                ET.SubElement(group, f"{{{_SVG_NS}}}rect", attrib)
            col = end
    return group


def _crisp_cells(root: ET.Element) -> None:
    """Heatmaps drawn as Qt drew them, one sharp colour per cell, in any renderer.

    Every ``<image>`` asks for nearest-neighbour scaling, as Qt drew it (Inkscape 1.2
    and browsers honour it; a shrunk one was left to their smoothing); a small one (at
    most :data:`CELL_RECTS_MAX` cells) enlarged becomes rects as well, since librsvg 2.54
    ignores ``image-rendering`` and blurred the course grid's cells into each other."""
    parents = {child: parent for parent in root.iter() for child in parent}
    for image in list(root.iter(_IMAGE)):
        pixels = _image_pixels(image)
        if pixels is None:
            continue
        # every image, enlarged or not: Qt drew each nearest-neighbour. The PE matrix at
        # seq_len 200, d 16 (columns ~33 px wide over rows under a pixel) blurred its
        # columns, and a shrunk one too (the similarity heatmap at seq_len 100 in an
        # ~80 px plot: a browser smooths it, each cell into the next)
        image.set("image-rendering", "optimizeSpeed")
        style = image.get("style", "")
        image.set("style", f"{style.rstrip(';')};{_PIXELATED}" if style else _PIXELATED)
        parent = parents.get(image)
        m = _matrix(parent.get("transform")) if parent is not None else None
        a, b, c, d = m[:4] if m is not None else (1.0, 0.0, 0.0, 1.0)
        try:
            px_w = float(image.get("width", "0")) / pixels.width() * math.hypot(a, b)
            px_h = float(image.get("height", "0")) / pixels.height() * math.hypot(c, d)
        except ValueError:
            continue
        small = pixels.width() * pixels.height() <= CELL_RECTS_MAX
        cells = min(pixels.width(), pixels.height()) > 1 and min(px_w, px_h) >= CELL_MIN_PX
        if parent is not None and small and cells:  # a colour bar's strip stays an image
            index = list(parent).index(image)
            parent.remove(image)
            parent.insert(index, _cell_rects(image, pixels))


def portable_svg(text: str) -> str:
    """Rewrite Qt's SVG so other renderers draw it as Qt meant.

    Qt writes cosmetic pens as ``vector-effect="non-scaling-stroke"`` inside the
    data-to-pixel ``matrix(...)`` of a plot: renderers without that SVG Tiny feature
    (ImageMagick) drew a 3 px arrow 345 px wide. Such shapes get the matrix baked into
    their coordinates instead, in a group of their own. A line of text that Qt split
    into absolutely placed runs becomes one ``<text>`` (QtSvg left gaps inside it).
    Clips that cut nothing are dropped (:func:`_drop_idle_clips`). Heatmap cells stay
    sharp (:func:`_crisp_cells`).
    """
    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return text  # not expected from Qt; an export as Qt wrote it beats none
    stack = [root]
    while stack:
        parent = stack.pop()
        children = list(parent)
        if any(c.tag == _G for c in children) or any(c.get("vector-effect") for c in children):
            rebuilt = []
            for child in children:
                rebuilt.extend(_split_scaled_group(child) if child.tag == _G else [child])
            for child in children:
                parent.remove(child)
            parent.extend(rebuilt)
            children = rebuilt
        for child in children:
            if (
                child.tag != _G
                and child.get("vector-effect") == "non-scaling-stroke"
                and (parent.tag != _G or parent.get("transform") is None)
            ):
                del child.attrib["vector-effect"]  # no transform above it: same stroke
        _merge_text_runs(parent)
        stack.extend(children)
    _drop_idle_clips(root)
    _crisp_cells(root)
    _plain_break_points(root)
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(
        root, encoding="unicode"
    )
