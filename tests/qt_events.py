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


def double_click(
    widget: QtWidgets.QWidget,
    pos: QtCore.QPoint,
    button: QtCore.Qt.MouseButton = QtCore.Qt.MouseButton.LeftButton,
) -> None:
    """A double click with ``button`` at ``pos`` in ``widget`` (which must be shown),
    delivered as the window system delivers it: press, release, press, release to the
    widget's window, which Qt turns into press, release, double-click, release for the
    widget under the point, and after which no button is held.

    ``QTest.mouseDClick`` on a widget sends it the double-click event alone and leaves
    Qt believing ``button`` is still pressed: every later mouse move in the process then
    carried it (a drag, not a hover), until some test released it."""
    from PySide6.QtTest import QTest

    window = widget.window()
    handle = window.windowHandle()
    assert handle is not None, f"{widget!r} is not shown: nothing to double-click"
    QTest.mouseDClick(
        handle, button, QtCore.Qt.KeyboardModifier.NoModifier, widget.mapTo(window, pos)
    )


def settle_window(win) -> None:  # type: ignore[no-untyped-def]
    """Let a studio window finish what a change set off: resize → re-fit (a zero-time
    timer) → layout → repaint, each pass waiting for the compute worker."""
    app = QtWidgets.QApplication.instance()
    for _ in range(4):
        assert win.wait_idle(60)
        app.processEvents()
