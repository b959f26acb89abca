"""The list of views in the side dock: always exactly as tall as its rows."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


class ViewList(QtWidgets.QListWidget):
    """A list that shows every row without scrolling, at any UI scale.

    Its height follows the rows' real height (font, style sheet padding), recomputed
    when the style sheet or font changes: a height fixed once at start-up from the font
    metrics left the last views behind a scroll bar at 125 %.
    """

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Fixed
        )

    def rows_height(self) -> int:
        """Pixels the rows need, plus the frame."""
        rows = sum(self.sizeHintForRow(r) for r in range(self.count()))
        return rows + 2 * self.frameWidth() + 2 * self.spacing() * self.count()

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(super().sizeHint().width(), self.rows_height())

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(super().minimumSizeHint().width(), self.rows_height())

    def changeEvent(self, event: QtCore.QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.StyleChange, QtCore.QEvent.Type.FontChange):
            self.updateGeometry()
