"""Input events for the tests, delivered as the window system delivers them."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets


def wheel_down(widget: QtWidgets.QWidget) -> None:
    """One notch of the mouse wheel (down) over the middle of ``widget``, delivered as
    the window system delivers it (QApplication.notify: wheel focus, then the widget)."""
    centre = QtCore.QPointF(widget.rect().center())
    event = QtGui.QWheelEvent(
        centre,
        QtCore.QPointF(widget.mapToGlobal(centre.toPoint())),
        QtCore.QPoint(0, 0),
        QtCore.QPoint(0, -120),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
        QtCore.Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QtWidgets.QApplication.sendEvent(widget, event)
