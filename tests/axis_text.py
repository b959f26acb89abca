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
