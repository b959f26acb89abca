"""Text widgets that paint their own background, so that a new text repaints only them.

A label is transparent: Qt paints what lies behind it before the label, and for a
widget that is not opaque that means the window and every widget between (stacked
pages, the view, its scroll area, viewport and body) get a paint event for the label's
rectangle. The live formula and notes line change with every frame of a drag: on the
stage (1920 × 1080, 150 %) the six parents' paints and the larger flush took about as
long as the label's own paint. An :class:`OpaqueLabel` (and the formula label, through
:func:`paint_behind`) is marked ``WA_OpaquePaintEvent`` and fills its rectangle with
what the window paints there (its window background, and the label's own style-sheet
background where it has one), so Qt repaints the label alone.

A snapshot export paints every widget on its own onto an image it filled already, and
leaves the background transparent on request: there the label paints no background
(:func:`widget_export`), as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6 import QtCore, QtGui, QtWidgets

_OPAQUE = QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent
_STYLED = QtCore.Qt.WidgetAttribute.WA_StyledBackground
_NO_SYSTEM_BACKGROUND = QtCore.Qt.WidgetAttribute.WA_NoSystemBackground
_exports = 0  # widgets being painted by an export now (see widget_export)


@contextmanager
def widget_export() -> Iterator[None]:
    """Paint a widget for an export (:func:`gui.render.snapshot._paint_plain`): what lies
    behind it is the export's business, the widgets here paint no background of their own."""
    global _exports
    _exports += 1
    try:
        yield
    finally:
        _exports -= 1


def make_opaque(widget: QtWidgets.QWidget) -> None:
    """Mark ``widget`` as painting every pixel of itself (its ``paintEvent`` calls
    :func:`paint_behind` first)."""
    widget.setAttribute(_OPAQUE, True)


_RESTYLED = (QtCore.QEvent.Type.Polish, QtCore.QEvent.Type.StyleChange)


def keep_opaque(widget: QtWidgets.QWidget, event: QtCore.QEvent) -> None:
    """Mark ``widget`` opaque again after a style sheet polished it (call from its
    ``event`` after handling ``event``): Qt's style-sheet style clears
    ``WA_OpaquePaintEvent`` from a widget whose rule has a box (the verdict's padding)."""
    if event.type() in _RESTYLED and not widget.testAttribute(_OPAQUE):
        widget.setAttribute(_OPAQUE, True)


def paint_behind(widget: QtWidgets.QWidget, painter: QtGui.QPainter) -> None:
    """Paint ``widget``'s rectangle as Qt paints behind a transparent widget
    (``QWidgetPrivate::paintBackground``), from the window down to ``widget`` itself: the
    window's background brush, and each widget's auto-fill brush and style-sheet
    background (a dark theme's ``QWidget { background: … }``). Nothing during an export
    (:func:`widget_export`)."""
    if _exports:
        return
    chain = [widget]
    parent = widget.parentWidget()
    while parent is not None and not chain[-1].isWindow():
        chain.append(parent)
        parent = parent.parentWidget()
    window = chain[-1]
    for owner in reversed(chain):
        offset = widget.mapTo(owner, QtCore.QPoint(0, 0)) if owner is not widget else None
        painter.save()
        try:
            if offset is not None:
                painter.translate(-offset.x(), -offset.y())
            rect = owner.rect()
            palette = owner.palette()
            if owner is window and not owner.testAttribute(_NO_SYSTEM_BACKGROUND):
                painter.fillRect(rect, palette.brush(QtGui.QPalette.ColorRole.Window))
            if owner.autoFillBackground():
                painter.fillRect(rect, palette.brush(owner.backgroundRole()))
            if owner.testAttribute(_STYLED):
                option = QtWidgets.QStyleOption()
                option.initFrom(owner)
                owner.style().drawPrimitive(
                    QtWidgets.QStyle.PrimitiveElement.PE_Widget, option, painter, owner
                )
        finally:
            painter.restore()


class OpaqueLabel(QtWidgets.QLabel):
    """A ``QLabel`` that paints its own background (see the module's notes): for labels
    whose text changes often, over the window's background."""

    def __init__(self, text: str = "", parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(text, parent)
        make_opaque(self)

    def event(self, event: QtCore.QEvent) -> bool:
        handled = super().event(event)
        keep_opaque(self, event)
        return handled

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        painter = QtGui.QPainter(self)
        try:
            paint_behind(self, painter)
        finally:
            painter.end()
        super().paintEvent(event)
