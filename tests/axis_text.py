"""The tick labels an axis draws, for tests."""

from __future__ import annotations

from PySide6 import QtGui


def drawn_labels(axis) -> list[str]:  # type: ignore[no-untyped-def]
    """The labels ``axis`` (a pyqtgraph ``AxisItem``) draws now, from its draw specs."""
    picture = QtGui.QPicture()
    painter = QtGui.QPainter(picture)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in specs[2]] if specs else []
