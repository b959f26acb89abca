"""The views in the side dock: a list exactly as tall as its rows, or, where the rows
would take the parameters' height, a one-line selector."""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore, QtWidgets
from superqt.utils import signals_blocked

ROLE = QtCore.Qt.ItemDataRole.UserRole


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


class ViewChooser(QtWidgets.QWidget):
    """The view list (:class:`ViewList`), or a combo box with the same rows when the
    list would take more than :attr:`COMPACT_SHARE` of the side column's height, or
    when the parameters shown below it (``below()`` gives their height and the
    column's room for the chooser and them) would scroll under the list and fit under
    the combo box: at 1280 x 720, 150 %, the list took 32 % of the column and the
    parameters scrolled (Relative's by 61 px).

    At 300 % the eight rows took ~420 px of a 1080 px window and the parameter panel
    below them scrolled with the whole column (at 1280 x 720 it showed one row). The
    combo box takes one row; it is reached with Tab and steps with the arrow keys, and
    the views' shortcuts (Ctrl+1 …) work either way. ``chosen`` gives the view id the
    lecturer picked in either.
    """

    COMPACT_SHARE = 1 / 3
    chosen = QtCore.Signal(str)

    def __init__(
        self,
        column: QtWidgets.QWidget,
        below: Callable[[], tuple[int, int]] | None = None,
    ) -> None:
        super().__init__(column)
        self.column = column  # the side column whose height the list shares
        # (what the parameters below need, the column's height for the chooser and them)
        self._below = below
        self.list = ViewList(self)
        self.list.setObjectName("view-list")
        self.combo = QtWidgets.QComboBox(self)
        self.combo.setObjectName("view-combo")
        self.combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.hide()
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addWidget(self.combo)
        # as tall as the list or the selector, and never holding the window taller than
        # the selector needs: a window made low at 300 % got the list's height first
        # (1280 x 720 came out 753 px high), the selector only after
        self.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Maximum
        )
        self.list.currentItemChanged.connect(self._list_changed)
        self.combo.activated.connect(lambda i: self.chosen.emit(self.combo.itemData(i)))
        column.installEventFilter(self)

    def _list_changed(self, current: QtWidgets.QListWidgetItem | None, _previous: object) -> None:
        if current is not None:
            self.chosen.emit(current.data(ROLE))

    def minimumSizeHint(self) -> QtCore.QSize:
        hint = super().minimumSizeHint()
        return QtCore.QSize(hint.width(), min(hint.height(), self.combo.sizeHint().height()))

    @property
    def compact(self) -> bool:
        """Whether the one-line selector stands in for the list."""
        return not self.combo.isHidden()

    def add_view(self, view_id: str, text: str, tip: str) -> None:
        item = QtWidgets.QListWidgetItem(text)
        item.setData(ROLE, view_id)
        item.setToolTip(tip)
        self.list.addItem(item)
        self.combo.addItem(text, view_id)
        self.combo.setItemData(self.combo.count() - 1, tip, QtCore.Qt.ItemDataRole.ToolTipRole)

    def set_current(self, view_id: str) -> None:
        """Show ``view_id`` as the current row of both (no ``chosen``)."""
        for row in range(self.list.count()):
            if self.list.item(row).data(ROLE) == view_id:
                with signals_blocked(self.list):
                    self.list.setCurrentRow(row)
                with signals_blocked(self.combo):
                    self.combo.setCurrentIndex(row)

    def fit(self) -> None:
        """The list, or the selector where the list's rows would take more than
        :attr:`COMPACT_SHARE` of the column's height (the keyboard focus moves along)."""
        self.list.ensurePolished()
        rows = self.list.rows_height()
        compact = rows > self.COMPACT_SHARE * self.column.height()
        if not compact and self._below is not None:
            # the parameters shown would scroll below the list and fit below the line
            need, room = self._below()
            line = self.combo.sizeHint().height()
            compact = rows + need > room >= line + need
        if compact == self.compact:
            return
        shown, hidden = (self.combo, self.list) if compact else (self.list, self.combo)
        focused = hidden.hasFocus()
        shown.show()
        hidden.hide()
        if focused:
            shown.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if obj is self.column and event.type() == QtCore.QEvent.Type.Resize:
            self.fit()
        return super().eventFilter(obj, event)

    def changeEvent(self, event: QtCore.QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.StyleChange, QtCore.QEvent.Type.FontChange):
            self.fit()  # the rows' height follows the UI scale
