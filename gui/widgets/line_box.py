"""A layout slot for one label that re-lays out its layout only when the label's size
needs change.

A ``QLabel`` invalidates its parent's layout on every ``setText`` (Qt's
``updateGeometry``), even when the new text takes the same room. A view's notes line
follows the slider (RoPE's, ALiBi's and Compare's show values) and the hover readout
follows the mouse: each new text re-laid out the whole view body, and the body's new
size hint re-laid out its scroll area (~0.4-0.9 ms a frame at 150 % on stage, on the
GUI thread, before the next frame's result was even looked at). In a :class:`LineBox`
(a widget without a layout of its own) the label's request reaches the box, which
passes it on to the layout only when what the layout reads of the label (its size
hints, its height at the box's width, its minimum and maximum sizes, its policy, whether
it is hidden) differs from what the layout last read.

Reading those needs lays the label's text out; a new text was laid out at the box's
width three times or more a frame (the view holding the line's height, the box's read, its
read again for the label's posted request, the layout's question), ~0.1 ms each at
150 % on the stage: the box keeps a label's height at a width until the label's text,
font, style or margins change (:meth:`LineBox.label_height`).
"""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets


class LineBox(QtWidgets.QWidget):
    """Holds ``label`` (re-parented into the box, which fills it) in a layout.

    The box shows and hides with the label, takes its minimum and maximum sizes and size
    policy, and answers the layout's size questions with the label's answers.

    Parameters
    ----------
    label
        The label to hold.
    parent
        The box's parent widget.
    """

    passed_on = 0  # requests passed on to the layout (tests: counted, not timed)
    kept = 0  # requests that changed nothing the layout reads
    # events after which a label's text is laid out differently
    _RESTYLED = frozenset(
        {
            QtCore.QEvent.Type.FontChange,
            QtCore.QEvent.Type.StyleChange,
            QtCore.QEvent.Type.Polish,
            QtCore.QEvent.Type.ContentsRectChange,
            QtCore.QEvent.Type.LayoutDirectionChange,
        }
    )

    def __init__(self, label: QtWidgets.QWidget, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        self._needs: tuple[Any, ...] | None = None
        self._width = -1
        # the label's heights at widths, for the text etc. of _text_key
        self._heights: tuple[tuple[Any, ...], dict[int, int]] | None = None
        label.setParent(self)
        label.move(0, 0)
        label.installEventFilter(self)
        self.setVisible(not label.isHidden())
        self.sync()

    # ----------------------------------------------------------------- sizes
    def sizeHint(self) -> QtCore.QSize:
        return self.label.sizeHint()

    def minimumSizeHint(self) -> QtCore.QSize:
        return self.label.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:
        return self.label.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.label_height(width)

    def label_height(self, width: int) -> int:
        """The label's ``heightForWidth(width)``, laid out once for its text at that width."""
        key = self._text_key()
        if key is None:
            return self.label.heightForWidth(width)
        if self._heights is None or self._heights[0] != key:
            self._heights = (key, {})
        heights = self._heights[1]
        height = heights.get(width)
        if height is None:
            height = heights[width] = self.label.heightForWidth(width)
        return height

    def _text_key(self) -> tuple[Any, ...] | None:
        """What a ``QLabel``'s height at a width depends on, besides the style and font
        events that forget the heights (``None``: not a ``QLabel``, not kept). Its
        minimum height too: Qt's answer is never below it (a height read while a view
        held its notes line was the held height, still answered after the hold ended)."""
        label = self.label
        if not isinstance(label, QtWidgets.QLabel):
            return None
        return (
            label.minimumHeight(),
            label.text(),
            label.textFormat(),
            label.wordWrap(),
            label.margin(),
            label.indent(),
            label.font(),
            label.contentsMargins(),
            label.frameWidth(),
            label.styleSheet(),
        )

    def _read(self) -> tuple[Any, ...]:
        """What the box's layout reads of the label now."""
        label = self.label
        width = self.width()
        return (
            label.isHidden(),
            label.sizeHint(),
            label.minimumSizeHint(),
            self.label_height(width) if label.hasHeightForWidth() else -1,
            width,
            label.minimumSize(),
            label.maximumSize(),
            label.sizePolicy(),
        )

    def sync(self) -> bool:
        """Pass a change of the label's size needs on to the layout (at once); returns
        whether there was one."""
        needs = self._read()
        if needs == self._needs:
            LineBox.kept += 1
            return False
        self._needs = needs
        label = self.label
        self.setVisible(not label.isHidden())
        self.setSizePolicy(label.sizePolicy())
        self.setMinimumSize(label.minimumSize())
        self.setMaximumSize(label.maximumSize())
        LineBox.passed_on += 1
        self.updateGeometry()
        return True

    # ----------------------------------------------------------------- events
    def event(self, event: QtCore.QEvent) -> bool:
        # (a wrapper the collector is clearing has lost its attributes: events pass)
        if event.type() == QtCore.QEvent.Type.LayoutRequest and hasattr(self, "label"):
            parent = self.parentWidget()
            if self.sync() and parent is not None:
                # the layout's own request is handled in this pass, as the label's
                # would have been (it was posted with the label's change)
                QtCore.QCoreApplication.sendPostedEvents(parent, QtCore.QEvent.Type.LayoutRequest)
            return True
        return super().event(event)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        kind = event.type()  # (a Python enum built per call: asked once)
        if kind in self._RESTYLED:
            self._heights = None
        if obj is getattr(self, "label", None) and kind in (
            QtCore.QEvent.Type.ShowToParent,
            QtCore.QEvent.Type.HideToParent,
        ):
            self.sync()  # the layout skips a hidden box: at once, as for the label
        return False

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        if not hasattr(self, "label"):
            return
        self.label.setGeometry(self.rect())
        if event.size().width() != event.oldSize().width():
            # the layout's cached heights at other widths may be an older text's
            self._needs = None
            self.sync()
