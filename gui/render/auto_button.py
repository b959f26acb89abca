"""pyqtgraph's "A" (auto-range) button of a plot at the UI scale.

A plot panned or zoomed shows, while the pointer is over it, a small "A" in its
bottom-left corner: a click shows all the data again. pyqtgraph draws it 14 px wide
from a 20 px picture at any UI scale, so at 300 % it was a speck beside 30 pt text.
:func:`size_auto_button` draws it anew, sharp, at a given size: pyqtgraph's look (a
white bold "A" on a dark rounded square, a grey rim) at that size in device pixels.
"""

from __future__ import annotations

from functools import lru_cache

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

BASE_SIZE = 14.0  # px: the button's own size (pyqtgraph's ButtonItem width)


@lru_cache(maxsize=8)
def auto_pixmap(size: int) -> QtGui.QPixmap:
    """pyqtgraph's "auto" picture (``icons.getGraphPixmap("auto")``) drawn ``size`` px
    square."""
    pixmap = QtGui.QPixmap(size, size)
    pixmap.fill(QtCore.Qt.GlobalColor.transparent)
    p = QtGui.QPainter(pixmap)
    try:
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing)
        rim = max(1.0, size / 20)
        box = QtCore.QRectF(rim / 2, rim / 2, size - rim, size - rim)
        p.setPen(QtGui.QPen(QtGui.QColor(150, 150, 150), rim))
        p.setBrush(QtGui.QColor(0, 0, 0))
        p.drawRoundedRect(box, size / 8, size / 8)
        font = QtGui.QFont()
        font.setBold(True)
        font.setPixelSize(max(1, round(size * 0.8)))
        p.setFont(font)
        p.setPen(QtGui.QColor(235, 235, 235))
        p.drawText(box, QtCore.Qt.AlignmentFlag.AlignCenter, "A")
    finally:
        p.end()
    return pixmap


def size_auto_button(plot: pg.PlotItem, size: int) -> None:
    """Draw ``plot``'s auto-range button ``size`` px square in its bottom-left corner
    (where ``PlotItem.resizeEvent`` puts it; it keeps it there on later resizes)."""
    button = plot.autoBtn
    if button is None:  # (pyqtgraph's, closed down)
        return
    button.setPixmap(auto_pixmap(size))
    button.setScale(size / BASE_SIZE)  # (its own 14 px, drawn size px on the device)
    button.setPos(0, plot.size().height() - size)
