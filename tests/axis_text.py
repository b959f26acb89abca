"""The text plots draw, for tests: an axis's tick labels, a plane's label boxes, the
ink of a text item on the canvas."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui
from qt_events import settle_window


def drawn_labels(axis) -> list[str]:  # type: ignore[no-untyped-def]
    """The labels ``axis`` (a pyqtgraph ``AxisItem``) draws now, from its draw specs."""
    picture = QtGui.QPicture()
    painter = QtGui.QPainter(picture)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in specs[2]] if specs else []


def label_boxes(win, view_id: str) -> tuple[QtCore.QRectF, list[tuple[str, QtCore.QRectF]]]:  # type: ignore[no-untyped-def]
    """The plane's view box and each of its texts' boxes, in scene pixels."""
    win.set_view(view_id)
    settle_window(win)
    plot = win.views[view_id].plots["plane"]
    boxes = []
    for item in plot.arrows[3::3] + plot.text_labels:
        item.updateTransform(force=True)
        boxes.append((item.toPlainText(), item.sceneBoundingRect()))
    return plot.plot.getViewBox().sceneBoundingRect(), boxes


def strip_rect(win, view_id: str) -> QtCore.QRectF:  # type: ignore[no-untyped-def]
    """The plane's strip above its data (its top axis: the strip labels' place), in
    scene pixels; empty where it has none."""
    top = win.views[view_id].plots["plane"].plot.getAxis("top")
    return top.sceneBoundingRect() if top.isVisible() else QtCore.QRectF()


def plane_marks(widget, key: str = "plane") -> list[tuple[str, QtGui.QPainterPath]]:  # type: ignore[no-untyped-def]
    """What an arrows plot's texts must leave uncovered, as drawn, in scene pixels: each
    arrow's shaft (stroked at its pen's width) and head, the unit circle and every line
    (the clock's angle arc, q·k, q's dashed shadow and the trails), each with a name."""
    plot = widget.plots[key]
    vb = plot.plot.getViewBox()
    canvas = widget.canvas

    def stroke(xs, ys, width: float) -> QtGui.QPainterPath:  # type: ignore[no-untyped-def]
        points = [
            vb.mapViewToScene(QtCore.QPointF(float(x), float(y)))
            for x, y in zip(xs, ys, strict=True)
        ]
        path = QtGui.QPainterPath(points[0])
        for point in points[1:]:
            path.lineTo(point)
        stroker = QtGui.QPainterPathStroker()
        stroker.setWidth(max(1.0, width))
        return stroker.createStroke(path)

    marks = []
    for arrow, line, head in zip(
        plot.panel.arrows, plot.arrows[1::3], plot.arrows[2::3], strict=True
    ):
        xs, ys = line.getData()
        marks.append((f"{arrow.name} shaft", stroke(xs, ys, line.opts["pen"].widthF())))
        # (a head is drawn in pixels, untransformed: its scene transform is not where
        # it is drawn; its device transform is)
        device = head.deviceTransform(canvas.viewportTransform())
        marks.append((f"{arrow.name} head", canvas.mapToScene(device.map(head.shape()))))
    circle = plot.arrows[0]
    xs, ys = circle.getOriginalDataset()
    marks.append(("the circle", stroke(xs, ys, circle.opts["pen"].widthF())))
    for series, item in zip(plot.panel.series, plot.curves, strict=True):
        xs, ys = item.getOriginalDataset()
        marks.append((series.name, stroke(xs, ys, item.opts["pen"].widthF())))
    return marks


def ink_share(widget, item) -> tuple[float, QtCore.QSize]:  # type: ignore[no-untyped-def]
    """The share of ``item``'s pixels on ``widget``'s canvas that are dark (text ink),
    and the size of the grab measured."""
    box = item.mapRectToScene(item.boundingRect())
    port = widget.canvas.mapFromScene(box).boundingRect()
    image = widget.canvas.viewport().grab(port).toImage()
    image = image.convertToFormat(QtGui.QImage.Format.Format_Grayscale8)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine()
    )[:, : image.width()]
    return float((pixels < 128).mean()), image.size()
