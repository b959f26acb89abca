"""When a painter draws straight onto raster pixels, where fast exact paths apply.

The fast items (axes, curves, heatmaps, grid) replace Qt's general drawing with cheaper
equivalents that are only pixel-identical on a raster device (a widget, pixmap or
image), and some of them only when item coordinates map to pixels by a translation.
Vector devices (SVG, PDF, QPicture) always get the general path.
"""

from __future__ import annotations

from PySide6 import QtGui

RASTER_DEVICES = (1, 2, 3)  # QInternal::Widget, Pixmap, Image (not Picture/Printer/SVG)
_TX_TRANSLATE = QtGui.QTransform.TransformationType.TxTranslate.value


def on_raster(p: QtGui.QPainter) -> bool:
    """Whether ``p`` paints on a raster device."""
    device = p.device()
    return device is not None and device.devType() in RASTER_DEVICES


def pixel_translation(p: QtGui.QPainter) -> QtGui.QTransform | None:
    """``p``'s device transform when it is a pure translation onto raster pixels."""
    t = p.deviceTransform()
    return t if t.type().value <= _TX_TRANSLATE and on_raster(p) else None
