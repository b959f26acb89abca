"""The hatched area of a heatmap's cells that have no value (the learned table's
"no row"): only those cells, not the view box around the image."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

HATCH_ALPHA = 110  # of 255: the hatch lines' opacity over the plot's background


def missing_path(image: np.ndarray, rect: QtCore.QRectF) -> QtGui.QPainterPath:
    """The cells of ``image`` (rows × columns, row 0 at ``rect``'s top, as a row-major
    image item draws it) that are NaN, as one path in ``rect``'s coordinates: a
    rectangle per run of NaN cells along a row, runs of whole rows merged into one."""
    path = QtGui.QPainterPath()
    image = np.asarray(image, dtype=float)
    if image.ndim != 2 or image.size == 0:
        return path
    rows, cols = image.shape
    dx, dy = rect.width() / cols, rect.height() / rows
    nan = np.isnan(image)
    r = 0
    while r < rows:
        if nan[r].all():  # whole rows at once (the learned table's "no row" band)
            end = r
            while end < rows and nan[end].all():
                end += 1
            path.addRect(
                QtCore.QRectF(rect.left(), rect.top() + r * dy, rect.width(), (end - r) * dy)
            )
            r = end
            continue
        edges = np.flatnonzero(np.diff(np.concatenate(([0], nan[r].astype(np.int8), [0]))))
        for start, stop in zip(edges[::2], edges[1::2], strict=True):
            path.addRect(
                QtCore.QRectF(
                    rect.left() + start * dx, rect.top() + r * dy, (stop - start) * dx, dy
                )
            )
        r += 1
    return path


def hatch_item(foreground: str) -> QtWidgets.QGraphicsPathItem:
    """A path item filled with diagonal hatching in ``foreground`` (at
    :data:`HATCH_ALPHA`), no outline; drawn below the image (its NaN cells are
    transparent)."""
    item = QtWidgets.QGraphicsPathItem()
    color = QtGui.QColor(foreground)
    color.setAlpha(HATCH_ALPHA)
    item.setBrush(QtGui.QBrush(color, QtCore.Qt.BrushStyle.BDiagPattern))
    item.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
    item.setZValue(-1)
    return item
