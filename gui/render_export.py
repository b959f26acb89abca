"""Render widgets (pyqtgraph plots and their containers) to PNG, SVG and the clipboard.

Graphics views are painted by rendering their ``QGraphicsScene`` directly (the visible
scene area only, no frame or scroll bars), other widgets through ``QWidget.render``
without children, recursing into visible child widgets. SVG output is produced by
``QtSvg.QSvgGenerator`` rather than ``pyqtgraph.exporters.SVGExporter``: the latter
crashes in pyqtgraph 0.14 with Qt >= 6.10, which closes paths with ``Z``
(pyqtgraph issue #3495). Curves stay vector paths, text stays ``<text>`` and image
items are embedded as ``<image>``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

from core.atomicio import atomic_path

__all__ = ["copy_to_clipboard", "image_bytes_png", "render_image", "render_png", "render_svg"]

_PathLike = str | os.PathLike[str]


def _plan(
    widget: QtWidgets.QWidget, width: int | None, height: int | None, scale: float | None
) -> tuple[QtCore.QSize, QtCore.QSize, float]:
    """Return ``(logical size, pixel size, device pixel ratio)`` for a render request."""
    cur = widget.size()
    cw, ch = max(cur.width(), 1), max(cur.height(), 1)
    if scale is not None:
        if not scale > 0:
            raise ValueError(f"scale must be positive, got {scale!r}")
        pw, ph = max(1, round(cw * scale)), max(1, round(ch * scale))
        return QtCore.QSize(cw, ch), QtCore.QSize(pw, ph), float(scale)
    if width is None and height is None:
        return QtCore.QSize(cw, ch), QtCore.QSize(cw, ch), 1.0
    if (width is not None and width <= 0) or (height is not None and height <= 0):
        raise ValueError(f"width and height must be positive, got {width!r}x{height!r}")
    pw = width if width is not None else max(1, round(height * cw / ch))
    ph = height if height is not None else max(1, round(width * ch / cw))
    # Keep the on-screen proportions of text and lines: enlarge with a pixel ratio
    # (never below 1, so a small export re-lays the widget out instead of shrinking text).
    dpr = max(1.0, min(pw / cw, ph / ch))
    logical = QtCore.QSize(max(1, round(pw / dpr)), max(1, round(ph / dpr)))
    return logical, QtCore.QSize(pw, ph), dpr


def _sync_layout(widget: QtWidgets.QWidget) -> None:
    """Bring layouts and geometries up to date, also for a widget never shown."""
    widgets = [widget, *widget.findChildren(QtWidgets.QWidget)]
    for _ in range(3):
        for w in widgets:
            w.ensurePolished()
            if w.layout() is not None:
                w.layout().activate()
            # Hidden widgets only record resizes; deliver them like show() would, so
            # that e.g. pyqtgraph's GraphicsView resizes its central layout item.
            if w.testAttribute(QtCore.Qt.WidgetAttribute.WA_PendingResizeEvent):
                QtCore.QCoreApplication.sendEvent(w, QtGui.QResizeEvent(w.size(), w.size()))
        # Layout requests only (graphics layouts post them); no repaint of the screen.
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest.value)


@contextmanager
def _laid_out_at(widget: QtWidgets.QWidget, size: QtCore.QSize) -> Iterator[None]:
    """Temporarily resize ``widget`` to ``size`` (logical pixels), restoring it after."""
    old = widget.size()
    changed = old != size
    if changed:
        widget.resize(size)
    _sync_layout(widget)
    try:
        yield
    finally:
        if changed:
            widget.resize(old)
            _sync_layout(widget)


def _export_items(widget: QtWidgets.QWidget) -> list:
    """Return the graphics items (in all views below ``widget``) supporting export mode."""
    views = [widget] if isinstance(widget, QtWidgets.QGraphicsView) else []
    views += widget.findChildren(QtWidgets.QGraphicsView)
    return [
        item
        for view in views
        if view.scene() is not None
        for item in view.scene().items()
        if hasattr(item, "setExportMode")
    ]


def _paint_view(view: QtWidgets.QGraphicsView, painter: QtGui.QPainter, opaque: bool) -> None:
    """Paint the visible part of ``view``'s scene; pyqtgraph's background brush if opaque."""
    scene = view.scene()
    target = QtCore.QRectF(view.viewport().geometry())
    if opaque and view.backgroundBrush().style() != QtCore.Qt.BrushStyle.NoBrush:
        painter.fillRect(QtCore.QRectF(view.rect()), view.backgroundBrush())
    if hasattr(scene, "prepareForPaint"):
        scene.prepareForPaint()  # pyqtgraph: lets view boxes finish pending auto-ranging
    source = view.viewportTransform().inverted()[0].mapRect(QtCore.QRectF(view.viewport().rect()))
    painter.setRenderHints(view.renderHints() | QtGui.QPainter.RenderHint.Antialiasing)
    scene.render(painter, target, source, QtCore.Qt.AspectRatioMode.IgnoreAspectRatio)


def _paint_tree(
    widget: QtWidgets.QWidget, painter: QtGui.QPainter, opaque: bool, top: bool = True
) -> None:
    """Paint ``widget`` and its visible child widgets at the painter's origin."""
    painter.save()
    try:
        if isinstance(widget, QtWidgets.QGraphicsView) and widget.scene() is not None:
            _paint_view(widget, painter, opaque)
            return
        flags = QtWidgets.QWidget.RenderFlag(0)
        if opaque and top:
            flags = QtWidgets.QWidget.RenderFlag.DrawWindowBackground
        widget.render(painter, QtCore.QPoint(), QtGui.QRegion(widget.rect()), flags)
        for child in widget.children():
            if (
                isinstance(child, QtWidgets.QWidget)
                and not child.isWindow()
                and child.isVisibleTo(widget)
            ):
                painter.save()
                painter.translate(QtCore.QPointF(child.pos()))
                _paint_tree(child, painter, opaque, top=False)
                painter.restore()
    finally:
        painter.restore()


def _paint(
    widget: QtWidgets.QWidget,
    device: QtGui.QPaintDevice,
    logical: QtCore.QSize,
    sx: float,
    sy: float,
    opaque: bool,
) -> None:
    """Lay ``widget`` out at ``logical`` size and paint it on ``device`` scaled by sx, sy."""
    with _laid_out_at(widget, logical):
        items = _export_items(widget)
        # Curves with thick pens are drawn as separate line segments for speed; draw
        # them as one path instead (one SVG <path> per curve, proper line joins).
        curves = [i for i in items if "segmentedLineMode" in getattr(i, "opts", ())]
        modes = [c.opts["segmentedLineMode"] for c in curves]
        painter = QtGui.QPainter(device)
        try:
            for curve in curves:
                curve.opts["segmentedLineMode"] = "off"
            for item in items:  # pyqtgraph: vector symbols, no auto-range button, antialias
                item.setExportMode(True, {"antialias": True, "painter": painter})
            painter.scale(sx, sy)
            _paint_tree(widget, painter, opaque)
        finally:
            painter.end()
            for item in items:
                item.setExportMode(False)
            for curve, mode in zip(curves, modes, strict=True):
                curve.opts["segmentedLineMode"] = mode


def render_image(
    widget: QtWidgets.QWidget,
    width: int | None = None,
    height: int | None = None,
    scale: float | None = None,
    transparent: bool = False,
) -> QtGui.QImage:
    """Render ``widget`` to a ``QImage`` of exactly the requested pixel size.

    Parameters
    ----------
    widget
        Widget to render; need not be shown.
    width, height
        Pixel size. If only one is given the other keeps the widget's aspect ratio.
        Larger sizes are rendered with a device pixel ratio (text and line widths
        scale with the image); a different aspect ratio re-lays the widget out
        temporarily, its size being restored afterwards.
    scale
        Alternative to ``width``/``height``: pixel size = ``scale`` x widget size.
    transparent
        If True the background is left fully transparent (alpha 0).

    Returns
    -------
    QtGui.QImage
        An ``ARGB32_Premultiplied`` image with device pixel ratio 1.
    """
    logical, pixels, dpr = _plan(widget, width, height, scale)
    image = QtGui.QImage(pixels, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    if transparent:
        image.fill(QtCore.Qt.GlobalColor.transparent)
    else:
        image.fill(widget.palette().color(QtGui.QPalette.ColorRole.Window))
    image.setDevicePixelRatio(dpr)
    sx = pixels.width() / dpr / logical.width()
    sy = pixels.height() / dpr / logical.height()
    _paint(widget, image, logical, sx, sy, opaque=not transparent)
    image.setDevicePixelRatio(1.0)
    return image


def _save_image(image: QtGui.QImage, path: _PathLike) -> None:
    """Write ``image`` as PNG atomically; raise OSError on failure."""
    try:
        with atomic_path(path) as tmp:
            if not image.save(str(tmp), "PNG"):
                raise OSError(f"cannot write PNG image to {os.fspath(path)!r}")
    except OSError as exc:
        raise OSError(f"cannot write PNG image to {os.fspath(path)!r}: {exc}") from exc


def render_png(
    widget: QtWidgets.QWidget,
    path: _PathLike,
    width: int | None = None,
    height: int | None = None,
    scale: float | None = None,
    transparent: bool = False,
) -> None:
    """Render ``widget`` to a PNG file at ``path`` (atomically replaced).

    Parameters are as for :func:`render_image`.

    Raises
    ------
    OSError
        If the file cannot be written; ``path`` is then left untouched.
    """
    _save_image(render_image(widget, width, height, scale, transparent), path)


def image_bytes_png(
    widget: QtWidgets.QWidget, width: int | None = None, height: int | None = None
) -> bytes:
    """Return ``widget`` rendered as PNG file content (see :func:`render_image`)."""
    data = QtCore.QByteArray()
    buffer = QtCore.QBuffer(data)
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    render_image(widget, width, height).save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def copy_to_clipboard(widget: QtWidgets.QWidget) -> None:
    """Put ``widget`` rendered at its current size on the system clipboard."""
    QtGui.QGuiApplication.clipboard().setImage(render_image(widget))


def render_svg(
    widget: QtWidgets.QWidget,
    path: _PathLike,
    width: int | None = None,
    height: int | None = None,
    title: str = "",
) -> None:
    """Render ``widget`` to a vector SVG file at ``path`` (atomically replaced).

    Parameters
    ----------
    widget
        Widget to render; need not be shown.
    width, height
        Size in px of the SVG (``width``/``height`` attributes and ``viewBox``); the
        widget is laid out at that size temporarily. Default: its current size.
    title
        Document ``<title>``.

    Raises
    ------
    OSError
        If the file cannot be written; ``path`` is then left untouched.
    """
    _, size, _ = _plan(widget, width, height, None)
    data = QtCore.QByteArray()
    buffer = QtCore.QBuffer(data)
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    generator = QtSvg.QSvgGenerator(QtSvg.QSvgGenerator.SvgVersion.Svg11)  # clip paths
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    generator.setViewBox(QtCore.QRect(QtCore.QPoint(0, 0), size))
    # Font point sizes must map to the same pixel sizes as on screen.
    generator.setResolution(round(widget.logicalDpiX()))
    generator.setTitle(title)
    generator.setDescription("Positional Encoding Studio")
    _paint(widget, generator, size, 1.0, 1.0, opaque=True)
    buffer.close()
    text = bytes(data.data()).decode("utf-8")
    # Qt writes the size in millimetres; state it in px, matching the viewBox.
    text = re.sub(
        r'<svg width="[^"]*" height="[^"]*"',
        f'<svg width="{size.width()}" height="{size.height()}"',
        text,
        count=1,
    )
    try:
        with atomic_path(path) as tmp:
            tmp.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OSError(f"cannot write SVG image to {os.fspath(path)!r}: {exc}") from exc
