"""Render widgets (pyqtgraph plots and their containers) to PNG, SVG and the clipboard.

Graphics views render their ``QGraphicsScene``, other widgets ``QWidget.render``. SVG
comes from ``QSvgGenerator`` (SVG 1.1: clip paths kept), not pyqtgraph's ``SVGExporter``
(it fails on the closing ``Z`` Qt >= 6.10 writes in paths: pyqtgraph issue #3495)."""

from __future__ import annotations

import os
import re
from functools import partial
from types import SimpleNamespace

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

from core.atomicio import atomic_path

_PathLike = str | os.PathLike[str]


def _plan(
    widget: QtWidgets.QWidget, width: int | None, height: int | None, scale: float | None
) -> tuple[QtCore.QSize, QtCore.QSize, float]:
    """Return ``(logical size, pixel size, device pixel ratio)`` for a render request.

    Enlarging uses a pixel ratio (>= 1) keeping on-screen proportions; otherwise the
    widget is re-laid out at the requested size."""
    cw, ch = max(widget.width(), 1), max(widget.height(), 1)
    if any(v is not None and not v > 0 for v in (width, height, scale)):
        raise ValueError(f"size must be positive: width={width}, height={height}, scale={scale}")
    if scale is not None:
        pixels = QtCore.QSize(max(1, round(cw * scale)), max(1, round(ch * scale)))
        return QtCore.QSize(cw, ch), pixels, float(scale)
    if width is None and height is None:
        return QtCore.QSize(cw, ch), QtCore.QSize(cw, ch), 1.0
    pw = width if width is not None else max(1, round(height * cw / ch))
    ph = height if height is not None else max(1, round(width * ch / cw))
    dpr = max(1.0, min(pw / cw, ph / ch))
    logical = QtCore.QSize(max(1, round(pw / dpr)), max(1, round(ph / dpr)))
    return logical, QtCore.QSize(pw, ph), dpr


def _sync_layout(widget: QtWidgets.QWidget) -> None:
    """Bring layouts and geometries up to date, also for a widget never shown: a hidden
    widget only records resizes, deliver them as show() would; then deliver posted
    layout requests only (graphics layouts post them), so nothing repaints on screen."""
    widgets = [widget, *widget.findChildren(QtWidgets.QWidget)]
    for _ in range(3):
        for w in widgets:
            w.ensurePolished()
            if w.layout() is not None:
                w.layout().activate()
            if w.testAttribute(QtCore.Qt.WidgetAttribute.WA_PendingResizeEvent):
                QtCore.QCoreApplication.sendEvent(w, QtGui.QResizeEvent(w.size(), w.size()))
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest.value)


class _ExportPainter(QtGui.QPainter):
    """QPainter widening cosmetic pens (pyqtgraph's default, drawn in device pixels) by
    the image's pixel ratio. Python graphics items get this object in ``paint``.

    A hairline (width 0: the grid) stays one device pixel, as on a high-DPI screen and
    in an export at pixel ratio 1. The widened pen is marked cosmetic again: a width
    set on a hairline makes it non-cosmetic, and Qt then multiplied it by the pixel
    ratio a second time (a grid four pixels wide at scale 2, thicker than the data).
    """

    pen_scale = 1.0

    def setPen(self, pen) -> None:
        pen = QtGui.QPen(pen)
        if pen.isCosmetic() and self.pen_scale != 1.0 and pen.widthF() > 0:
            pen.setWidthF(pen.widthF() * self.pen_scale)
            pen.setCosmetic(True)
        super().setPen(pen)


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


def _paint_tree(
    widget: QtWidgets.QWidget,
    painter: QtGui.QPainter,
    opaque: bool,
    top: bool = True,
    offset: QtCore.QPoint | None = None,
) -> None:
    """Paint ``widget`` and its visible child widgets at ``offset`` (default: origin)."""
    painter.save()
    painter.translate(QtCore.QPointF(offset or QtCore.QPoint()))
    if isinstance(widget, QtWidgets.QGraphicsView) and widget.scene() is not None:
        if opaque and widget.backgroundBrush().style() != QtCore.Qt.BrushStyle.NoBrush:
            painter.fillRect(QtCore.QRectF(widget.rect()), widget.backgroundBrush())
        viewport = widget.viewport()
        source = widget.viewportTransform().inverted()[0].mapRect(QtCore.QRectF(viewport.rect()))
        painter.setRenderHints(widget.renderHints() | QtGui.QPainter.RenderHint.Antialiasing)
        widget.scene().render(
            painter,
            QtCore.QRectF(viewport.geometry()),
            source,
            QtCore.Qt.AspectRatioMode.IgnoreAspectRatio,
        )
    else:
        flag = QtWidgets.QWidget.RenderFlag
        background = flag.DrawWindowBackground if opaque and top else flag(0)
        widget.render(painter, QtCore.QPoint(), QtGui.QRegion(widget.rect()), background)
        for child in widget.children():
            if (
                isinstance(child, QtWidgets.QWidget)
                and child.isVisibleTo(widget)
                and not child.isWindow()
            ):
                _paint_tree(child, painter, opaque, top=False, offset=child.pos())
    painter.restore()


def _paint(
    widget: QtWidgets.QWidget,
    device: QtGui.QPaintDevice,
    logical: QtCore.QSize,
    sx: float,
    sy: float,
    opaque: bool,
    pen_scale: float = 1.0,
) -> None:
    """Lay ``widget`` out at ``logical`` size temporarily; paint it scaled by sx, sy
    (~1: they absorb the rounding of the logical size)."""
    old, painter = widget.size(), _ExportPainter()
    painter.pen_scale, items, modes, axes, cached = pen_scale, [], {}, [], {}
    try:
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
        painter.scale(sx, sy)
        _paint_tree(widget, painter, opaque)
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
    logical, pixels, dpr = _plan(widget, width, height, scale)
    image = QtGui.QImage(pixels, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    fill = widget.palette().window().color()
    image.fill(QtCore.Qt.GlobalColor.transparent if transparent else fill)
    image.setDevicePixelRatio(dpr)
    sx, sy = pixels.width() / dpr / logical.width(), pixels.height() / dpr / logical.height()
    _paint(widget, image, logical, sx, sy, opaque=not transparent, pen_scale=dpr)
    image.setDevicePixelRatio(1.0)
    return image


def _css_fonts(match: re.Match[str]) -> str:
    """Font list for SVG viewers: the family Qt used (e.g. for "Sans Serif"), a generic."""
    names = dict.fromkeys([QtGui.QFontInfo(QtGui.QFont(match[1])).family(), match[1]])
    return 'font-family="' + ", ".join(f"'{n}'" for n in names) + ', sans-serif"'


def _write(path: _PathLike, kind: str, data: bytes) -> None:
    """Write ``data`` atomically to ``path``; raise a one-line ``OSError`` naming it."""
    try:
        with atomic_path(path) as tmp:
            tmp.write_bytes(data)
    except OSError as exc:
        raise OSError(f"cannot write {kind} to {os.fspath(path)!r}: {exc}") from exc


def image_bytes_png(
    widget: QtWidgets.QWidget,
    width: int | None = None,
    height: int | None = None,
    scale: float | None = None,
    transparent: bool = False,
) -> bytes:
    """Return ``widget`` rendered (see :func:`render_image`) as PNG file content."""
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not render_image(widget, width, height, scale, transparent).save(buffer, "PNG"):
        raise OSError("Qt could not encode the image as PNG")
    return bytes(buffer.data())


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
    _write(path, "PNG image", image_bytes_png(widget, width, height, scale, transparent))


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
    """
    _, size, _ = _plan(widget, width, height, None)
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    generator = QtSvg.QSvgGenerator(QtSvg.QSvgGenerator.SvgVersion.Svg11)
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    generator.setViewBox(QtCore.QRect(QtCore.QPoint(0, 0), size))
    generator.setResolution(round(widget.logicalDpiX()))  # font pt -> px as on screen
    generator.setTitle(title)
    _paint(widget, generator, size, 1.0, 1.0, opaque=True)
    text = bytes(buffer.data()).decode("utf-8")
    text = re.sub(
        r'<svg width="[^"]*" height="[^"]*"',  # Qt writes mm; use px as viewBox
        f'<svg width="{size.width()}" height="{size.height()}"',
        text,
        count=1,
    )
    text = re.sub(r'font-family="([^"\']*)"', _css_fonts, text)
    _write(path, "SVG image", text.encode("utf-8"))
