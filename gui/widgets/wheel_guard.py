"""The mouse wheel over a field in a scrolling panel scrolls the panel.

Qt gives the wheel to the spin box, slider or combo box under the pointer (and, with
their default ``WheelFocus``, the keyboard too): rolling the wheel to scroll a long
parameter panel changed whichever value came under the pointer (RoPE's "Offset range"
at 1280 × 720, 150 %) and the panel stayed where it was. :func:`guard_wheel` makes a
field take the wheel only when it has the keyboard (clicked or tabbed into) or when the
panel around it does not scroll; otherwise the wheel scrolls that panel.
"""

from __future__ import annotations

import shiboken6
from PySide6 import QtCore, QtWidgets


class _WheelGuard(QtCore.QObject):
    """Event filter shared by every guarded field (:func:`guard_wheel`)."""

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() != QtCore.QEvent.Type.Wheel or not isinstance(obj, QtWidgets.QWidget):
            return False
        if obj.hasFocus():
            return False  # a field with the keyboard takes the wheel
        area = scrolling_area(obj)
        if area is None:
            return False  # a panel that fits: the wheel steps the field under the pointer
        QtWidgets.QApplication.sendEvent(area.verticalScrollBar(), event)
        return True


_GUARD: _WheelGuard | None = None


def scrolling_area(widget: QtWidgets.QWidget) -> QtWidgets.QScrollArea | None:
    """The nearest scroll area around ``widget`` that can scroll up or down, else ``None``."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QtWidgets.QScrollArea) and parent.verticalScrollBar().maximum() > 0:
            return parent
        parent = parent.parentWidget()
    return None


def guard_wheel(*widgets: QtWidgets.QWidget) -> None:
    """Let each of ``widgets`` take the wheel only when it has the keyboard or when no
    scroll area around it scrolls (then the wheel scrolls that area); the wheel no
    longer gives them the keyboard."""
    global _GUARD
    if _GUARD is None or not shiboken6.isValid(_GUARD):
        # the application's child: deleted with it, not left to the interpreter's exit
        # (test_exit counts what Python still owns then)
        _GUARD = _WheelGuard(QtCore.QCoreApplication.instance())
    for widget in widgets:
        if (
            widget.focusPolicy() & QtCore.Qt.FocusPolicy.WheelFocus
            == QtCore.Qt.FocusPolicy.WheelFocus
        ):
            widget.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        widget.installEventFilter(_GUARD)
