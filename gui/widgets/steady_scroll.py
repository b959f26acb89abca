"""A scroll area whose resizable widget cannot make it resize without end.

A ``QScrollArea`` with ``widgetResizable`` sizes its widget to the viewport in an event
filter on the widget's resize events: it reads the widget's height for the viewport's
width, resizes the widget, and that resize comes back to the same filter. When what the
widget needs depends on its own height (a view's explanation and verdict shorten
themselves when they would take more than a fifth of it), the two sizes can flip: with
the vertical bar (narrower, taller than the viewport) and without it (wider, as tall as
the viewport), each asking for the other. Qt then nests the two resizes until the stack
overflows: the app crashed when the UI scale went from 300 % back to 100 % with the deck
panel open (``tests/test_stage_scroll.py``, full tier).

:class:`SteadyScrollArea` lets Qt size the widget as before, and stops when a nested
resize asks for a size the same chain of resizes already gave: the widget then keeps the
narrower of the sizes the chain went through (the one that leaves room for the vertical
bar, so nothing sits under it), and the bar's range is set for that size.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

_RESIZE = QtCore.QEvent.Type.Resize


class SteadyScrollArea(QtWidgets.QScrollArea):
    """A ``QScrollArea`` that ends a flip-flop of its widget's size (see the module).

    Attributes
    ----------
    flip_flops : int
        How many times a chain of nested resizes came back to a size it had (tests).
    """

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.flip_flops = 0
        self._chain: list[QtCore.QSize] = []  # the sizes of the nested resizes under way
        self._steadying = False

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() != _RESIZE or watched is not self.widget():
            return super().eventFilter(watched, event)
        if self._steadying:
            return False
        size = event.size()  # type: ignore[attr-defined]  # (a QResizeEvent)
        if size in self._chain:
            self.flip_flops += 1
            self._steady(watched, min(self._chain, key=lambda s: (s.width(), -s.height())))
            return False
        self._chain.append(QtCore.QSize(size))
        try:
            return super().eventFilter(watched, event)
        finally:
            self._chain.pop()

    def _steady(self, widget: QtCore.QObject, size: QtCore.QSize) -> None:
        """Keep ``widget`` at ``size`` and give the vertical bar the range for it."""
        if not isinstance(widget, QtWidgets.QWidget):
            return
        self._steadying = True
        try:
            widget.resize(size)
        finally:
            self._steadying = False
        page = self.viewport().height()
        bar = self.verticalScrollBar()
        bar.setPageStep(page)
        bar.setRange(0, max(0, size.height() - page))
